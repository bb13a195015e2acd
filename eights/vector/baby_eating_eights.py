"""Baby-Eating Eights, compiled: many tables in one record array, advanced by numba.

The same rules as :class:`eights.engines.baby_eating_eights.BabyEatingEightsGame`,
on flat arrays, in the design of :mod:`eights.vector.livery_eights`: each table
is one record of :func:`state_dtype`. This variant's rules pick cards *by their
place in a hand* (a Seven's blind swap, the Guarantee Joker's mode drawing out of
the victim's hand) and the King of Hearts shuffles the hands back into the deck
in their order, so a hand is kept as the engine keeps it, an ordered list
(``hand``, ``hand_len``; a card leaves it as ``list.remove`` takes it), besides
its copies per card id (``hands``, for the rules' questions and the
observation). What is pending is the engine's agenda, kept as a stack of frames
(``f_kind``, ``f_seat``, ``f_a0``..``f_a2``, ``depth``; the top last), every
frame kind the engine has, resolved in the engine's order. The public memory of
the ``v2`` observation (cards played, suits named, cards drawn since the last
play, and per observer the cards it saw go into another hand) is folded as the
engine's memory folds the events.

Randomness is the Python engine's own (:mod:`eights.vector.mt`), drawn in the
engine's order (the first player, the deal's shuffle, every rebuilt stock, a
Seven's two picks, each card drawn out of the victim's hand, the King of Hearts'
shuffle), so a table dealt from a game seed plays the game
``BabyEatingEightsGame(seed=game_seed)`` plays, decision for decision; the
differential tests (``tests/vector/test_baby_eating_eights.py``,
``scripts/vector_differential.py --variant baby_eating_eights``) hold them to it.

What the engine declares is read, not copied: the card tables (each card's rank,
suit, number, whether it is wild or may be held back), the deck's copies, the
teams, the action ids and the frames from the engine module (:func:`constants`,
:func:`_check_engine`), the heuristic's weights from its agent module, and every
observation offset and scale from the encoder and the declared view fields
(:func:`compile_config`). Only the rules' control flow is written again here,
one small function per frame kind, as the engine has one handler per frame.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from . import declared
from .kernels import COUNT_TABLE, best_suit, count_tables, scaled
from .mt import randbelow, seed, shuffle

# frame kinds: the decisions first, in the order of the observation's phase one-hot, then
# the effects the engine resolves when they reach the top, and the Guarantee Joker's mode
TURN, SUIT, FIVE, SEVEN, JACKS, BOTTOM, EFFECT, FOUR, JACK_ROUND, NEXT, MODE = range(11)
#: the engine's frame kinds in :data:`TURN`... order (its decisions checked against its phases)
FRAMES = ("turn", "suit", "five", "seven", "jacks", "bottom", "effect", "four", "jack_round",
          "next", "mode")
DECISIONS = 6
PLAY_SUIT0, DRAW, PASS, PLAY_RJ, PLAY_BJ, TARGET0, BOTTOM0 = 52, 56, 57, 58, 59, 60, 77
NUM_ACTIONS = 131
#: card ids: the 52 standard cards and the two jokers
KINDS, STANDARD, RED_JOKER, BLACK_JOKER = 54, 52, 52, 53
ACE, TWO, THREE, FOUR_RANK, FIVE_RANK, SEVEN_RANK, EIGHT, TEN, JACK, QUEEN, KING = (
    1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13)
KING_OF_HEARTS, ACE_OF_SPADES = 38, 39

# params: the config as integers (index -> option)
(P_PLAYERS, P_DECKS, P_DECK_SIZE, P_HAND, P_TEAMS, P_GUARANTEE, P_THRESHOLD, P_COMBO_REPLACES,
 P_THREE_CANCELS_KH, P_TEN_AGAIN_DRAWS, P_KING_STEPS, P_SCORE_REWARD, P_MAX_TURNS,
 P_SIX_NINE_RUN) = range(14)
#: params from P_DECK: the deck's copies of each card id; from P_TEAM: each seat's team
P_DECK = 14
P_TEAM = P_DECK + 54
NUM_PARAMS = P_TEAM + 17

# hints: the heuristic's weights (:func:`constants`): attack by rank 0..13, then the hold
H_WILD_HOLD = 14
NUM_HINTS = 15

# offsets: the observation's features, in the v2 layout's order
(O_HAND, O_TOP, O_SUIT, O_PHASE, O_THREE_LIVE, O_LOCKED, O_FREE, O_EXTRA_DROP,
 O_EFFECT_CANCELLED, O_GUARANTEE_SPENT, O_EFFECT, O_RUN_LENGTH, O_RUN_NUMBER, O_ALLIES,
 O_VICTIM, O_ACTOR, O_DIRECTION, O_TO_ACT, O_HAND_SIZES, O_STOCK, O_DISCARDS, O_DREW_SUIT,
 O_DREW_RANK, O_PLAYED, O_NAMED, O_DRAWN_SINCE, O_KNOWN, O_UNSEEN) = range(28)
#: the v2 features, in :data:`O_HAND`... order (the encoder's feature names)
FEATURES = ("hand", "top", "suit", "phase", "three_live", "locked", "free", "extra_drop",
            "effect_cancelled", "guarantee_spent", "effect", "run_length", "run_number",
            "allies", "victim", "actor", "direction", "to_act", "hand_sizes", "stock",
            "discards", "drew_suit", "drew_rank", "played", "named", "drawn_since", "known",
            "unseen")

# scales: the encodings' factors, each read from the declared field of that feature
(S_SIZES, S_RUN_LENGTH, S_RUN_NUMBER, S_NAMED, S_DRAWN_SINCE, S_HAND_TABLE) = range(6)
#: the card-count tables (:func:`~eights.vector.kernels.count_tables`) after the factors
S_COUNT_TABLE = S_HAND_TABLE + COUNT_TABLE

#: the largest table the record holds (every config shares one record type, so numba
#: compiles the core once): the expanded deck's 17 players and 104 cards
MAX_PLAYERS, MAX_CARDS = 17, 104
#: the deepest agenda: a turn's frames (next, effect, four, suit) under the mode, a Jack
#: round's and the fours its Jacks complete, a bottom round (measured far below it)
MAX_FRAMES = 32
#: the most copies a memory count holds (a byte, as the engine's)
COUNT_MAX = 255
#: the compiled search (:mod:`eights.vector.search`) deals the 52-card pile games' record
#: (copies per card in ``hands``, no hand order, no jokers, no memory of known cards) in
#: compiled code; this record is not that one, so the search plays positions the Python
#: determinizer dealt (``record_from_engine``) instead
DEALS_COMPILED = False


def state_dtype() -> np.dtype:
    """One table's record: every field the rules and the v2 observation read, sized for
    the largest table (a smaller one leaves the rest unused). ``hand`` holds each seat's
    cards in the engine's list order (``MAX_CARDS`` slots a seat), ``hands`` their copies
    per card id; ``known`` is per observer, per seat, per card id."""
    n, size = MAX_PLAYERS, MAX_CARDS
    return np.dtype([
        ("mt", np.uint32, 624), ("mti", np.int64), ("seeder", np.uint64),
        ("game_seed", np.uint64),
        ("hand", np.int8, n * size), ("hand_len", np.int16, n), ("hands", np.uint8, n * KINDS),
        ("stock", np.int8, size), ("stock_len", np.int16),
        ("pile", np.int8, size), ("pile_len", np.int16), ("pile_counts", np.uint8, KINDS),
        ("suit", np.int8), ("owner", np.int8),
        ("f_kind", np.int8, MAX_FRAMES), ("f_seat", np.int8, MAX_FRAMES),
        ("f_a0", np.int16, MAX_FRAMES), ("f_a1", np.int16, MAX_FRAMES),
        ("f_a2", np.int16, MAX_FRAMES), ("depth", np.int16),
        ("current", np.int8), ("direction", np.int8), ("stuck", np.int16), ("first", np.int8),
        ("three_live", np.bool_), ("locked", np.bool_), ("free", np.bool_),
        ("run_number", np.int8), ("run_length", np.int16), ("combo_used", np.bool_),
        ("drew_suit", np.int8, n), ("drew_rank", np.int8, n), ("drew_lock", np.int8, n),
        ("turn", np.int32), ("terminated", np.bool_), ("truncated", np.bool_),
        ("winners", np.uint8, n),
        ("played", np.uint8, n * KINDS), ("named", np.int32, n * 4),
        ("drawn_since", np.int32, n), ("known", np.uint8, n * n * KINDS),
        ("legal", np.uint8, NUM_ACTIONS),
    ])


# ---------------------------------------------------------------- the card tables
# The engine's tables (RANK, SUIT, NUMBER, WILD, EXEMPT) as arithmetic on the card id,
# checked equal to the engine's by :func:`_check_engine`.
@numba.njit(cache=True, inline="always")
def _rank(c):
    """A to K as 1 to 13; a joker 0."""
    return c % 13 + 1 if c < STANDARD else 0


@numba.njit(cache=True, inline="always")
def _suit(c):
    return c // 13 if c < STANDARD else -1


@numba.njit(cache=True, inline="always")
def _number(c):
    """The number a card matches by: Sixes and Nines are one (6); a joker 0."""
    r = _rank(c)
    return 6 if r == 9 else r


@numba.njit(cache=True, inline="always")
def _wild(c):
    return c >= STANDARD or c % 13 + 1 == EIGHT


@numba.njit(cache=True, inline="always")
def _exempt(c):
    """A card its holder may keep back although it could play it."""
    return _wild(c) or c == KING_OF_HEARTS


# ---------------------------------------------------------------- the agenda
@numba.njit(cache=True)
def _push(t, kind, seat, a0, a1, a2):
    d = t.depth
    if d >= MAX_FRAMES:
        raise RuntimeError("baby_eating_eights core: the agenda outgrew MAX_FRAMES")
    t.f_kind[d], t.f_seat[d] = kind, seat
    t.f_a0[d], t.f_a1[d], t.f_a2[d] = a0, a1, a2
    t.depth = d + 1


@numba.njit(cache=True, inline="always")
def _victim(t):
    """The seat the Guarantee Joker's mode is on (its frame at the bottom), else -1."""
    if t.depth > 0 and t.f_kind[0] == MODE:
        return t.f_seat[0]
    return -1


@numba.njit(cache=True)
def _start_mode(t, seat):
    """The mode's standing frame goes under the agenda (``agenda.insert(0, ...)``)."""
    for i in range(t.depth, 0, -1):
        t.f_kind[i], t.f_seat[i] = t.f_kind[i - 1], t.f_seat[i - 1]
        t.f_a0[i], t.f_a1[i], t.f_a2[i] = t.f_a0[i - 1], t.f_a1[i - 1], t.f_a2[i - 1]
    t.f_kind[0], t.f_seat[0], t.f_a0[0], t.f_a1[0], t.f_a2[0] = MODE, seat, 0, 0, 0
    t.depth += 1


@numba.njit(cache=True)
def _end_mode(t):
    """The mode's frame leaves the bottom of the agenda (``del agenda[0]``)."""
    t.depth -= 1
    for i in range(t.depth):
        t.f_kind[i], t.f_seat[i] = t.f_kind[i + 1], t.f_seat[i + 1]
        t.f_a0[i], t.f_a1[i], t.f_a2[i] = t.f_a0[i + 1], t.f_a1[i + 1], t.f_a2[i + 1]


@numba.njit(cache=True)
def _check_mode_end(t, prm):
    if t.stock_len + t.pile_len >= prm[P_THRESHOLD]:
        _end_mode(t)


# ---------------------------------------------------------------- cards and memory
@numba.njit(cache=True, inline="always")
def _top(t):
    return t.pile[t.pile_len - 1]


@numba.njit(cache=True, inline="always")
def _next_seat(t, prm, seat, steps):
    return (seat + steps * t.direction) % prm[P_PLAYERS]


@numba.njit(cache=True, inline="always")
def _known_at(prm, observer, seat, c):
    n = prm[P_PLAYERS]
    return (observer * n + seat) * KINDS + c


@numba.njit(cache=True)
def _hand_add(t, seat, c):
    t.hand[seat * MAX_CARDS + t.hand_len[seat]] = c
    t.hand_len[seat] += 1
    t.hands[seat * KINDS + c] += 1


@numba.njit(cache=True)
def _hand_remove(t, seat, c):
    """``hand.remove(c)``: the first copy of ``c`` leaves, the cards after it move up."""
    base, size = seat * MAX_CARDS, t.hand_len[seat]
    i = 0
    while t.hand[base + i] != c:
        i += 1
    for j in range(i, size - 1):
        t.hand[base + j] = t.hand[base + j + 1]
    t.hand_len[seat] = size - 1
    t.hands[seat * KINDS + c] -= 1


@numba.njit(cache=True)
def _forget_memory(t):
    """A new hand (a deal, the King of Hearts' redeal): nothing of the last is remembered."""
    t.played[:] = 0
    t.named[:] = 0
    t.drawn_since[:] = 0
    t.known[:] = 0


@numba.njit(cache=True)
def _face_up(t, prm, seat, c):
    """``seat`` put ``c`` face up (a drop, a Jack, a bottom card): every observer saw it
    leave that hand; it counts as played, and the seat has drawn nothing since."""
    n = prm[P_PLAYERS]
    if t.played[seat * KINDS + c] < COUNT_MAX:
        t.played[seat * KINDS + c] += 1
    t.drawn_since[seat] = 0
    for o in range(n):
        at = _known_at(prm, o, seat, c)
        if t.known[at]:
            t.known[at] -= 1


@numba.njit(cache=True)
def _seen_taken(t, prm, taker, c, giver):
    """``taker`` took ``c`` out of ``giver``'s hand (the events ``take`` and ``give``): the
    two of them saw the card, the others saw only a card leave the giver's hand."""
    n = prm[P_PLAYERS]
    for o in range(n):
        if o == taker:
            at = _known_at(prm, o, giver, c)
            if t.known[at]:
                t.known[at] -= 1
        elif o == giver:
            at = _known_at(prm, o, taker, c)
            if t.known[at] < COUNT_MAX:
                t.known[at] += 1
        else:  # any card of the giver's may be the one: one copy of each is no longer sure
            base = _known_at(prm, o, giver, 0)
            for x in range(KINDS):
                if t.known[base + x]:
                    t.known[base + x] -= 1


@numba.njit(cache=True)
def _to_pile(t, prm, seat, c):
    """``c`` from ``seat``'s hand onto the pile (its suit the suit to follow)."""
    _hand_remove(t, seat, c)
    t.pile[t.pile_len] = c
    t.pile_len += 1
    t.pile_counts[c] += 1
    t.suit = -1 if c >= STANDARD else c // 13
    _face_up(t, prm, seat, c)


@numba.njit(cache=True)
def _rebuild_stock(t):
    """Every discard but the top card, shuffled, becomes the stock."""
    top = _top(t)
    size = t.pile_len - 1
    for i in range(size):
        t.stock[i] = t.pile[i]
    t.stock_len = size
    t.mti = shuffle(t.mt, t.mti, t.stock, size)
    t.pile[0] = top
    t.pile_len = 1
    t.pile_counts[:] = 0
    t.pile_counts[top] = 1


@numba.njit(cache=True)
def _draw_one(t, seat):
    """The stock's top card into ``seat``'s hand (the stock rebuilt first when empty);
    -1 when nothing can be drawn."""
    if t.stock_len == 0:
        if t.pile_len <= 1:
            return -1
        _rebuild_stock(t)
    t.stock_len -= 1
    c = t.stock[t.stock_len]
    _hand_add(t, seat, c)
    t.drawn_since[seat] += 1
    _rebuild_if_spent(t)
    return c


@numba.njit(cache=True)
def _rebuild_if_spent(t):
    """The draw pile is remade the moment its last card is drawn (the engine's
    ``_rebuild_if_spent``)."""
    if t.stock_len == 0 and t.pile_len > 1:
        _rebuild_stock(t)


@numba.njit(cache=True)
def _draw_many(t, seat, count):
    for _ in range(count):
        if _draw_one(t, seat) < 0:
            break


@numba.njit(cache=True)
def _playable(t, c):
    """Whether ``c`` may go on the pile now: a wild card, anything on a wild starter, the
    suit, else the number (Six = Nine) or, locked, the rank."""
    if _wild(c) or t.free or _suit(c) == t.suit:
        return True
    top = _top(t)
    if t.locked:
        return _rank(c) == _rank(top)
    return _number(c) == _number(top)


@numba.njit(cache=True)
def _note_draw(t, seat):
    t.drew_suit[seat] = t.suit
    rank = _rank(_top(t))
    t.drew_rank[seat] = rank if rank else -1  # a Joker on top: no number
    t.drew_lock[seat] = 1 if t.locked else 0


@numba.njit(cache=True)
def _forget_draw(t, seat):
    t.drew_suit[seat] = -1
    t.drew_rank[seat] = -1
    t.drew_lock[seat] = 0


# ---------------------------------------------------------------- the end
@numba.njit(cache=True)
def _finish(t, prm, rules, winner):
    """``winner``'s team wins (the engine's ``_go_out``)."""
    t.terminated = True
    team = prm[P_TEAM + winner]
    for q in range(prm[P_PLAYERS]):
        t.winners[q] = 1 if prm[P_TEAM + q] == team else 0


# ---------------------------------------------------------------- the deal
@numba.njit(cache=True)
def _deal(t, prm, rules, first):
    """The engine's ``_new_state`` and ``_deal``: the deck (ids ascending, copies together)
    shuffled, the hands one card at a time from ``first``, the rest the stock (its top
    last), the starter turned up; a wild starter lets anything be played on it."""
    n = prm[P_PLAYERS]
    size = 0
    for c in range(KINDS):
        for _ in range(prm[P_DECK + c]):
            t.pile[size] = c  # (the pile array as the deck)
            size += 1
    t.mti = shuffle(t.mt, t.mti, t.pile, size)
    t.hand_len[:] = 0
    t.hands[:] = 0
    pos = 0
    for _ in range(prm[P_HAND]):
        for k in range(n):
            _hand_add(t, (first + k) % n, t.pile[pos])
            pos += 1
    rest = size - pos
    for i in range(rest):  # the stock is deck[pos:] reversed: its top is the next card
        t.stock[i] = t.pile[size - 1 - i]
    t.stock_len = rest
    t.pile_counts[:] = 0
    t.first = first
    t.direction = 1
    t.stuck = 0
    t.owner = -1
    t.drew_suit[:] = -1
    t.drew_rank[:] = -1
    t.drew_lock[:] = 0
    t.three_live = False
    t.locked = False
    t.combo_used = False
    _forget_memory(t)
    t.depth = 0
    _push(t, TURN, first, 0, 0, 0)
    t.stock_len -= 1
    c = t.stock[t.stock_len]
    t.pile[0] = c
    t.pile_len = 1
    t.pile_counts[c] = 1
    t.suit = -1 if c >= STANDARD else c // 13
    t.free = _wild(c) != 0
    t.run_number = rules[c]
    t.run_length = 1


@numba.njit(cache=True)
def _redeal(t, prm, rules, p):
    """The King of Hearts: every other card shuffled (the stock, the pile under the King,
    then each hand in seat order, as the engine pools them) and ``hand_size`` dealt to
    each from ``p``'s left; the rest the stock, in pool order. The mode ends, the combo is
    available again."""
    n = prm[P_PLAYERS]
    pool = np.empty(MAX_CARDS, np.int8)
    size = 0
    for i in range(t.stock_len):
        pool[size] = t.stock[i]
        size += 1
    for i in range(t.pile_len - 1):
        pool[size] = t.pile[i]
        size += 1
    for q in range(n):
        for i in range(t.hand_len[q]):
            pool[size] = t.hand[q * MAX_CARDS + i]
            size += 1
    t.mti = shuffle(t.mt, t.mti, pool, size)
    top = _top(t)
    t.hand_len[:] = 0
    t.hands[:] = 0
    pos = 0
    for _ in range(prm[P_HAND]):
        for k in range(1, n + 1):
            _hand_add(t, (p + k) % n, pool[pos])
            pos += 1
    t.stock_len = size - pos
    for i in range(t.stock_len):
        t.stock[i] = pool[pos + i]
    t.pile[0] = top
    t.pile_len = 1
    t.pile_counts[:] = 0
    t.pile_counts[top] = 1
    t.drew_suit[:] = -1
    t.drew_rank[:] = -1
    t.drew_lock[:] = 0
    _forget_memory(t)
    if _victim(t) >= 0:
        _end_mode(t)
    t.combo_used = False


# ---------------------------------------------------------------- effects
@numba.njit(cache=True)
def _set_next(t, after, extra):
    """Who plays once this turn's pending work is done: the ``next`` frame on top."""
    d = t.depth - 1
    t.f_kind[d] = NEXT
    t.f_a0[d], t.f_a1[d] = after, extra


@numba.njit(cache=True)
def _force_draw(t, prm, rules, seat, count):
    """A card makes ``seat`` draw ``count``: from the stock, or in the Guarantee Joker's
    mode blindly out of the victim's hand (its last card taken: the victim is out)."""
    _forget_draw(t, seat)
    v = _victim(t)
    if v < 0:
        _draw_many(t, seat, count)
        return
    if seat == v:
        return
    base = v * MAX_CARDS
    for _ in range(count):
        i, t.mti = randbelow(t.mt, t.mti, t.hand_len[v])
        c = t.hand[base + i]
        last = t.hand_len[v] - 1
        t.hand[base + i] = t.hand[base + last]
        t.hand_len[v] = last
        t.hands[v * KINDS + c] -= 1
        _hand_add(t, seat, c)
        _seen_taken(t, prm, seat, c, v)
        if last == 0:
            _finish(t, prm, rules, v)
            return


@numba.njit(cache=True)
def _swap(t, prm, p, other):
    """A Seven: ``p`` and ``other`` each take a uniformly random card of the other's hand
    (the cards change places in the two lists)."""
    i, t.mti = randbelow(t.mt, t.mti, t.hand_len[other])
    j, t.mti = randbelow(t.mt, t.mti, t.hand_len[p])
    got, gave = t.hand[other * MAX_CARDS + i], t.hand[p * MAX_CARDS + j]
    t.hand[p * MAX_CARDS + j] = got
    t.hand[other * MAX_CARDS + i] = gave
    t.hands[p * KINDS + gave] -= 1
    t.hands[p * KINDS + got] += 1
    t.hands[other * KINDS + got] -= 1
    t.hands[other * KINDS + gave] += 1
    _seen_taken(t, prm, p, got, other)
    _seen_taken(t, prm, other, gave, p)
    _forget_draw(t, p)
    _forget_draw(t, other)


@numba.njit(cache=True)
def _combo(t, prm, q):
    """The Guarantee Joker on the other Joker: ``q`` draws the whole stock; the mode starts
    while the piles hold fewer than the threshold."""
    t.combo_used = True
    while t.stock_len:
        t.stock_len -= 1
        _hand_add(t, q, t.stock[t.stock_len])
        t.drawn_since[q] += 1
    _forget_draw(t, q)
    _rebuild_if_spent(t)
    if t.stock_len + t.pile_len < prm[P_THRESHOLD]:
        _start_mode(t, q)


@numba.njit(cache=True)
def _effect(t, prm, rules, p, c, combo_from):
    """Apply ``p``'s card ``c``: it may push a decision (a Five's or Seven's target) or a
    Jack round, or change who plays next (the ``next`` frame on top)."""
    if c >= STANDARD:
        if combo_from >= 0 and not t.combo_used:
            _combo(t, prm, combo_from)
            if prm[P_COMBO_REPLACES]:
                return
        _force_draw(t, prm, rules, _next_seat(t, prm, p, 1), 4)
        return
    rank = _rank(c)
    if rank == ACE:
        _force_draw(t, prm, rules, _next_seat(t, prm, p, 1), 4 if c == ACE_OF_SPADES else 2)
    elif rank == TWO:
        _set_next(t, _next_seat(t, prm, p, 2), 0)
    elif rank == FOUR_RANK:
        t.direction = -t.direction
    elif rank == FIVE_RANK:
        _push(t, FIVE, p, 0, 0, 0)
    elif rank == SEVEN_RANK:
        _push(t, SEVEN, p, 0, 0, 0)
    elif rank == TEN:
        _force_draw(t, prm, rules, _next_seat(t, prm, p, 1), 1)
        if t.terminated:  # the draw emptied the Guarantee Joker's victim's hand
            return
        _set_next(t, p, 1)
    elif rank == QUEEN:
        _push(t, JACK_ROUND, _next_seat(t, prm, p, 1), prm[P_PLAYERS], 0, 0)
    elif rank == KING:
        if c == KING_OF_HEARTS:
            _redeal(t, prm, rules, p)
        elif prm[P_TEAMS]:  # straight to the next ally
            k = 1
            while prm[P_TEAM + _next_seat(t, prm, p, k)] != prm[P_TEAM + p]:
                k += 1
            _set_next(t, _next_seat(t, prm, p, k), 0)
        else:
            _set_next(t, _next_seat(t, prm, p, prm[P_KING_STEPS]), 0)


@numba.njit(cache=True)
def _count_run(t, rules, c):
    """Four in a Row: cards of one number in a row; 1 when ``c`` is the fourth."""
    number = rules[c]
    if number == t.run_number:
        t.run_length += 1
        if t.run_length >= 4:
            t.run_length = 0
            return 1
    else:
        t.run_number = number
        t.run_length = 1
    return 0


@numba.njit(cache=True)
def _jack_round_on(t, prm, seat, left):
    if left:
        _push(t, JACK_ROUND, _next_seat(t, prm, seat, 1), left, 0, 0)


@numba.njit(cache=True)
def _resolve(t, prm, rules, kind, seat, a0, a1, a2):
    """An effect frame that reached the top."""
    if kind == EFFECT:
        c, cancelled = a0, a1
        if cancelled and (c != KING_OF_HEARTS or prm[P_THREE_CANCELS_KH]):
            return
        _effect(t, prm, rules, seat, c, a2)
    elif kind == FOUR:
        _push(t, BOTTOM, seat, prm[P_PLAYERS], 0, 0)
    elif kind == JACK_ROUND:
        base = seat * KINDS
        for s in range(4):
            if t.hands[base + s * 13 + JACK - 1]:
                _push(t, JACKS, seat, a0, 0, 0)
                return
        _jack_round_on(t, prm, seat, a0 - 1)
    else:  # NEXT: the turn passes to the seat an effect named, else the next one
        after = a0 if a0 >= 0 else _next_seat(t, prm, seat, 1)
        _push(t, TURN, after, a1, 0, 0)


@numba.njit(cache=True)
def _run_agenda(t, prm, rules):
    """Resolve effect frames on top of the agenda until a decision is at the top."""
    while not t.terminated and t.depth > 0:
        d = t.depth - 1
        kind = t.f_kind[d]
        if kind < EFFECT or kind == MODE:
            return
        t.depth = d
        _resolve(t, prm, rules, kind, t.f_seat[d], t.f_a0[d], t.f_a1[d], t.f_a2[d])


# ---------------------------------------------------------------- decisions
@numba.njit(cache=True)
def _decline_action(t, prm, extra):
    """``draw`` while drawing is the rule and possible, else ``pass``."""
    if _victim(t) >= 0 or (extra and not prm[P_TEN_AGAIN_DRAWS]) or not (
            t.stock_len > 0 or t.pile_len > 1):
        return PASS
    return DRAW


@numba.njit(cache=True)
def _turn_legal(t, prm, seat, extra, out):
    """Every card that fits (a player who can play must, wild cards aside), ``draw`` or
    ``pass`` when nothing must be played, then the jokers (always playable)."""
    base = seat * KINDS
    top = _top(t)
    locked = t.locked
    key = _rank(top) if locked else _number(top)
    k = 0
    must = False
    for c in range(STANDARD):
        if t.hands[base + c]:
            matched = _rank(c) if locked else _number(c)
            if t.free or _suit(c) == t.suit or matched == key or _rank(c) == EIGHT:
                out[k] = c
                k += 1
                if not _exempt(c):
                    must = True
    if not must:
        out[k] = _decline_action(t, prm, extra)
        k += 1
    if t.hands[base + RED_JOKER]:
        out[k] = PLAY_RJ
        k += 1
    if t.hands[base + BLACK_JOKER]:
        out[k] = PLAY_BJ
        k += 1
    return k


@numba.njit(cache=True)
def legal_actions(t, prm, out):
    """Write the top frame's legal action ids into ``out`` (ascending, as the engine lists
    them); return how many (0 once nothing is pending)."""
    if t.depth == 0:
        return 0
    d = t.depth - 1
    kind, seat = t.f_kind[d], t.f_seat[d]
    if kind == TURN:
        return _turn_legal(t, prm, seat, t.f_a0[d], out)
    if kind == SUIT:
        for s in range(4):
            out[s] = PLAY_SUIT0 + s
        return 4
    n = prm[P_PLAYERS]
    if kind == FIVE:
        for q in range(n):
            out[q] = TARGET0 + q
        return n
    if kind == SEVEN:
        k = 0
        for q in range(n):
            if q != seat:
                out[k] = TARGET0 + q
                k += 1
        return k
    base = seat * KINDS
    k = 0
    if kind == JACKS:
        for s in range(4):
            if t.hands[base + s * 13 + JACK - 1]:
                out[k] = s * 13 + JACK - 1
                k += 1
        return k
    if kind == BOTTOM:
        for c in range(KINDS):
            if t.hands[base + c]:
                out[k] = BOTTOM0 + c
                k += 1
        return k
    return 0


@numba.njit(cache=True)
def _draw_until_playable(t, seat):
    """``seat`` draws until a card that can be played comes (or nothing is left)."""
    _note_draw(t, seat)
    while True:
        c = _draw_one(t, seat)
        if c < 0:
            break
        t.stuck = 0
        if _playable(t, c):
            break


@numba.njit(cache=True)
def _pass(t, prm, seat):
    """The turn passes without a card; a whole round of it ends the mode."""
    _note_draw(t, seat)
    t.stuck += 1
    if t.stuck >= prm[P_PLAYERS] and _victim(t) >= 0:
        t.stuck = 0
        _end_mode(t)
    _push(t, TURN, _next_seat(t, prm, seat, 1), 0, 0, 0)


@numba.njit(cache=True)
def _drop(t, prm, rules, p, c):
    """``p`` drops ``c`` in their turn; then, in the engine's order: its suit (a wild),
    the Four in a Row it completed, its effect, the next turn (frames, the first on top)."""
    cancelled = t.three_live
    prev_top, prev_player = _top(t), t.owner
    _to_pile(t, prm, p, c)
    t.owner = p
    t.stuck = 0
    t.free = False
    t.drew_suit[p] = -1
    t.drew_rank[p] = -1
    t.drew_lock[p] = 0
    t.locked = cancelled and _number(c) == 6
    t.three_live = _rank(c) == THREE and not cancelled
    guarantee = prm[P_GUARANTEE]
    combo_from = -1
    if c == guarantee and prev_top == RED_JOKER + BLACK_JOKER - guarantee \
            and prev_player >= 0 and prev_player != p:
        combo_from = prev_player
    fours = _count_run(t, rules, c)
    if _victim(t) >= 0:
        _check_mode_end(t, prm)
    if t.hand_len[p] == 0:
        _finish(t, prm, rules, p)
        return
    _push(t, NEXT, p, -1, 0, 0)
    _push(t, EFFECT, p, c, 1 if cancelled else 0, combo_from)
    if fours:
        _push(t, FOUR, p, 0, 0, 0)
    if _wild(c):
        _push(t, SUIT, p, 0, 0, 0)


@numba.njit(cache=True)
def _jacks_apply(t, prm, rules, seat, left, top_jack):
    """``seat`` drops all their Jacks (ascending, ``top_jack`` last, on top)."""
    order = np.empty(4 * MAX_CARDS // 13 + 4, np.int64)
    count = 0
    skipped = False
    for s in range(4):
        c = s * 13 + JACK - 1
        for _ in range(t.hands[seat * KINDS + c]):
            if c == top_jack and not skipped:
                skipped = True
                continue
            order[count] = c
            count += 1
    order[count] = top_jack
    count += 1
    fours = 0
    for i in range(count):
        _to_pile(t, prm, seat, order[i])
        fours += _count_run(t, rules, order[i])
    t.owner = seat
    t.three_live = False
    t.locked = False
    t.free = False
    t.stuck = 0
    t.drew_suit[seat] = -1
    t.drew_rank[seat] = -1
    t.drew_lock[seat] = 0
    if _victim(t) >= 0:
        _check_mode_end(t, prm)
    if t.hand_len[seat] == 0:
        _finish(t, prm, rules, seat)
        return
    _jack_round_on(t, prm, seat, left - 1)
    for _ in range(fours):
        _push(t, FOUR, seat, 0, 0, 0)


@numba.njit(cache=True)
def _bottom_apply(t, prm, rules, seat, left, c):
    """``seat`` puts ``c`` under the pile; after the last seat of the round, the seats with
    no card left win."""
    _hand_remove(t, seat, c)
    for i in range(t.pile_len, 0, -1):
        t.pile[i] = t.pile[i - 1]
    t.pile[0] = c
    t.pile_len += 1
    t.pile_counts[c] += 1
    _face_up(t, prm, seat, c)
    left -= 1
    if _victim(t) >= 0:
        _check_mode_end(t, prm)
    if left:
        _push(t, BOTTOM, _next_seat(t, prm, seat, 1), left, 0, 0)
        return
    n = prm[P_PLAYERS]
    out = False
    for q in range(n):
        if t.hand_len[q] == 0:
            out = True
    if out:
        t.terminated = True
        for q in range(n):
            t.winners[q] = 0
        for q in range(n):
            if t.hand_len[q] == 0:
                for r in range(n):
                    if prm[P_TEAM + r] == prm[P_TEAM + q]:
                        t.winners[r] = 1


@numba.njit(cache=True)
def _apply(t, prm, rules, a):
    """The top frame (a decision) is popped and applied; then the effects it left on top
    are resolved."""
    t.depth -= 1
    d = t.depth
    kind, seat, a0 = t.f_kind[d], t.f_seat[d], t.f_a0[d]
    if kind == TURN:
        if a == DRAW:
            _draw_until_playable(t, seat)
            _push(t, TURN, seat, a0, 0, 0)  # still their turn: now a card fits
        elif a == PASS:
            _pass(t, prm, seat)
        else:
            _drop(t, prm, rules, seat, a if a < STANDARD else a - PLAY_RJ + RED_JOKER)
    elif kind == SUIT:
        t.suit = a - PLAY_SUIT0
        t.named[seat * 4 + a - PLAY_SUIT0] += 1
    elif kind == FIVE:
        _force_draw(t, prm, rules, a - TARGET0, 1)
    elif kind == SEVEN:
        _swap(t, prm, seat, a - TARGET0)
    elif kind == JACKS:
        _jacks_apply(t, prm, rules, seat, a0, a)
    else:  # BOTTOM
        _bottom_apply(t, prm, rules, seat, a0, a - BOTTOM0)
    _run_agenda(t, prm, rules)


@numba.njit(cache=True)
def _settle(t, prm, rules, buf):
    """Apply forced moves (one legal action) until a real decision or the end; enforce the
    turn limit; set ``current`` (-1 once over) and the legal mask."""
    while not t.terminated:
        if t.turn >= prm[P_MAX_TURNS]:
            t.truncated = True
            break
        k = legal_actions(t, prm, buf)
        if k != 1:
            t.current = t.f_seat[t.depth - 1]
            t.legal[:] = 0
            for i in range(k):
                t.legal[buf[i]] = 1
            return
        t.turn += 1
        _apply(t, prm, rules, buf[0])
    t.current = -1
    t.legal[:] = 0


@numba.njit(cache=True)
def new_game(t, prm, rules, game_seed):
    """Start the game ``BabyEatingEightsGame(seed=game_seed)`` starts: the first player
    drawn, the deck shuffled and dealt, forced moves applied."""
    t.game_seed = game_seed
    t.mti = seed(t.mt, game_seed)
    first, t.mti = randbelow(t.mt, t.mti, prm[P_PLAYERS])
    t.turn = 0
    t.terminated = False
    t.truncated = False
    t.winners[:] = 0
    _deal(t, prm, rules, first)
    buf = np.empty(NUM_ACTIONS, np.int64)
    _settle(t, prm, rules, buf)


@numba.njit(cache=True)
def step(t, prm, rules, a, buf):
    """The player to act plays action ``a`` (legal: the caller checks the mask)."""
    t.turn += 1
    _apply(t, prm, rules, a)
    _settle(t, prm, rules, buf)


@numba.njit(cache=True)
def returns(t, prm, out):
    """Each seat's reward at the end: +1 the winners' team, -1 the others (or, with the
    score reward, the table's mean cards left less the seat's, in team play the team's,
    over the hand size); 0 for all when not over or truncated."""
    n = prm[P_PLAYERS]
    for p in range(n):
        out[p] = 0.0
    if not t.terminated:
        return
    if prm[P_SCORE_REWARD]:
        teams = prm[P_TEAMS]
        scores = np.zeros(n, np.int64)
        for p in range(n):
            if teams:
                for q in range(n):
                    if q % teams == p % teams:
                        scores[p] += t.hand_len[q]
            else:
                scores[p] = t.hand_len[p]
        mean = float(scores.sum()) / n
        for p in range(n):
            out[p] = (mean - scores[p]) / prm[P_HAND]
    else:
        for p in range(n):
            out[p] = 1.0 if t.winners[p] else -1.0


@numba.njit(cache=True)
def hand_number(t):
    """Always 0: Baby-Eating Eights is one hand (no matches)."""
    return 0


@numba.njit(cache=True)
def match_totals(t, out):
    """No match totals: every seat's is 0."""
    out[:] = 0


# ---------------------------------------------------------------- the observation
@numba.njit(cache=True)
def _observe_agenda(t, prm, offs, seat, out):
    """What the agenda shows: the phase (the topmost decision), the pending effect's card
    and cancel, whether the turn is a Ten's extra drop, whose turn it is, the mode."""
    n = prm[P_PLAYERS]
    phase, effect, turn_frame = TURN, -1, -1
    for d in range(t.depth - 1, -1, -1):
        kind = t.f_kind[d]
        if kind < DECISIONS:
            phase = kind
            break
    for d in range(t.depth - 1, -1, -1):
        if t.f_kind[d] == EFFECT:
            effect = d
            break
    for d in range(t.depth - 1, -1, -1):
        if t.f_kind[d] == TURN or t.f_kind[d] == NEXT:
            turn_frame = d
            break
    out[offs[O_PHASE] + phase] = 1.0
    if turn_frame >= 0:
        extra = t.f_a0[turn_frame] if t.f_kind[turn_frame] == TURN else t.f_a1[turn_frame]
        if extra:
            out[offs[O_EXTRA_DROP]] = 1.0
        out[offs[O_ACTOR] + (t.f_seat[turn_frame] - seat) % n] = 1.0
    if effect >= 0:
        if t.f_a1[effect]:
            out[offs[O_EFFECT_CANCELLED]] = 1.0
        out[offs[O_EFFECT] + t.f_a0[effect]] = 1.0
    victim = _victim(t)
    if victim >= 0:
        out[offs[O_VICTIM] + (victim - seat) % n] = 1.0


@numba.njit(cache=True)
def _observe_table(t, prm, offs, scales, seat, out):
    """The table as it stands (the v1 part): hand, top, suit, flags, the run, allies,
    direction, who acts, sizes, discards, draws."""
    n = prm[P_PLAYERS]
    base = seat * KINDS
    off = offs[O_HAND]
    for c in range(KINDS):
        out[off + c] = scales[S_HAND_TABLE + t.hands[base + c]]
    if t.pile_len:
        out[offs[O_TOP] + _top(t)] = 1.0
    if 0 <= t.suit < 4:
        out[offs[O_SUIT] + t.suit] = 1.0
    if t.three_live:
        out[offs[O_THREE_LIVE]] = 1.0
    if t.locked:
        out[offs[O_LOCKED]] = 1.0
    if t.free:
        out[offs[O_FREE]] = 1.0
    if t.combo_used:
        out[offs[O_GUARANTEE_SPENT]] = 1.0
    _observe_agenda(t, prm, offs, seat, out)
    if t.run_length:
        out[offs[O_RUN_LENGTH]] = scaled(t.run_length, scales[S_RUN_LENGTH])
    if t.run_number:
        out[offs[O_RUN_NUMBER]] = scaled(t.run_number, scales[S_RUN_NUMBER])
    mine = prm[P_TEAM + seat]
    for k in range(1, n):
        if prm[P_TEAM + (seat + k) % n] == mine:
            out[offs[O_ALLIES] + k - 1] = 1.0
    if t.direction == 1:
        out[offs[O_DIRECTION]] = 1.0
    if t.current >= 0:
        out[offs[O_TO_ACT] + (t.current - seat) % n] = 1.0
    inv_sizes = scales[S_SIZES]
    for k in range(1, n):
        q = (seat + k) % n
        if t.hand_len[q]:
            out[offs[O_HAND_SIZES] + k - 1] = scaled(t.hand_len[q], inv_sizes)
    if t.stock_len:
        out[offs[O_STOCK]] = scaled(t.stock_len, inv_sizes)
    for k in range(1, n):
        q = (seat + k) % n
        s = t.drew_suit[q]
        if 0 <= s < 4:
            out[offs[O_DREW_SUIT] + 4 * (k - 1) + s] = 1.0
        r = t.drew_rank[q]
        if 1 <= r < 14:
            out[offs[O_DREW_RANK] + 13 * (k - 1) + r - 1] = 1.0


@numba.njit(cache=True)
def _observe_cards(t, prm, offs, scales, seat, out):
    """The card counts: the discards, what each other seat played and is known to hold, and
    the unseen cards (the deck less the hand, the pile and the cards known elsewhere)."""
    n = prm[P_PLAYERS]
    base = seat * KINDS
    discards, unseen = offs[O_DISCARDS], offs[O_UNSEEN]
    for c in range(KINDS):  # branch-free: a zero count writes the 0 already there
        on_pile = t.pile_counts[c]
        out[discards + c] = scales[S_COUNT_TABLE + on_pile]
        rest = prm[P_DECK + c] - on_pile - t.hands[base + c]
        for q in range(n):
            if q != seat:
                rest -= t.known[_known_at(prm, seat, q, c)]
        if rest > 0:
            out[unseen + c] = scales[S_COUNT_TABLE + rest]
    for k in range(1, n):
        q = (seat + k) % n
        played, known = offs[O_PLAYED] + KINDS * (k - 1), offs[O_KNOWN] + KINDS * (k - 1)
        qbase, kbase = q * KINDS, _known_at(prm, seat, q, 0)
        for c in range(KINDS):
            out[played + c] = scales[S_COUNT_TABLE + t.played[qbase + c]]
            out[known + c] = scales[S_COUNT_TABLE + t.known[kbase + c]]


@numba.njit(cache=True)
def _observe_memory(t, prm, offs, scales, seat, out):
    """The rest of the public history: suits named and cards drawn since the last play."""
    n = prm[P_PLAYERS]
    for k in range(1, n):
        q = (seat + k) % n
        for s in range(4):
            m = t.named[q * 4 + s]
            if m:
                out[offs[O_NAMED] + 4 * (k - 1) + s] = scaled(m, scales[S_NAMED])
        if t.drawn_since[q]:
            out[offs[O_DRAWN_SINCE] + k - 1] = scaled(t.drawn_since[q], scales[S_DRAWN_SINCE])


@numba.njit(cache=True)
def observe(t, prm, offs, scales, seat, out):
    """Write ``seat``'s v2 observation into ``out`` (zeroed here), feature for feature as
    the Python encoder writes it; ``scales`` as :func:`compile_config` reads them."""
    out[:] = 0.0
    _observe_table(t, prm, offs, scales, seat, out)
    _observe_cards(t, prm, offs, scales, seat, out)
    _observe_memory(t, prm, offs, scales, seat, out)


# ---------------------------------------------------------------- the heuristic
@numba.njit(cache=True)
def _play_score(t, prm, hints, seat, c):
    """:meth:`BabyEatingHeuristic._score`: hold the wild cards, play from the long suit,
    hurt the next player if an opponent (spare an ally)."""
    n = prm[P_PLAYERS]
    rank = _rank(c)
    score = 0.0
    if (rank == 0 or rank == EIGHT or c == KING_OF_HEARTS) and t.hand_len[seat] > 2:
        score = hints[H_WILD_HOLD]
    suit = _suit(c)
    if suit >= 0:
        same = 0
        base = seat * KINDS
        for x in range(suit * 13, suit * 13 + 13):
            if x != c:
                same += t.hands[base + x]
        score += 3.0 * same
    attack = hints[rank]
    if attack:
        nxt = (seat + t.direction) % n
        opponent = prm[P_TEAM + nxt] != prm[P_TEAM + seat]
        score += attack * (4.0 if opponent else -4.0)
    return score


@numba.njit(cache=True)
def _target(t, prm, buf, k):
    """The target of the fewest cards among the opponents (all the targets if none is one),
    a tie to the lower seat."""
    seat = t.current
    mine = prm[P_TEAM + seat]
    any_opponent = False
    for i in range(k):
        if prm[P_TEAM + buf[i] - TARGET0] != mine:
            any_opponent = True
    chosen, fewest = -1, 1 << 30
    for i in range(k):
        q = buf[i] - TARGET0
        if any_opponent and prm[P_TEAM + q] == mine:
            continue
        if t.hand_len[q] < fewest:
            chosen, fewest = buf[i], t.hand_len[q]
    return chosen


@numba.njit(cache=True)
def _bottom(t, hints, buf, k):
    """The card least worth keeping: not wild, no attack, of the thinnest suit (a joker
    as if of a suit of 9), a tie to the higher id."""
    seat = t.current
    base = seat * KINDS
    counts = np.zeros(4, np.int64)
    for c in range(STANDARD):
        counts[c // 13] += t.hands[base + c]
    chosen, best = -1, 1 << 30
    for i in range(k - 1, -1, -1):  # descending ids: a tie keeps the higher
        c = buf[i] - BOTTOM0
        rank = _rank(c)
        wild = rank == 0 or rank == EIGHT or c == KING_OF_HEARTS
        attack = hints[rank] != 0.0
        suit = _suit(c)
        key = (1 if wild else 0) * 1000 + (1 if attack else 0) * 100 + (
            counts[suit] if suit >= 0 else 9)
        if key < best:
            chosen, best = buf[i], key
    return chosen


@numba.njit(cache=True)
def heuristic_action(t, prm, rules, hints, buf):
    """What :class:`~eights.agents.baby_heuristic.BabyEatingHeuristic` plays for the seat
    to act: the suit held most; the target with the fewest cards; the bottom card least
    worth keeping; in a Jack round the Jack of the suit held most; else the card of the
    highest score (ties to the lower action id), else pass or draw."""
    k = legal_actions(t, prm, buf)
    if k == 1:
        return buf[0]
    seat = t.current
    kind = t.f_kind[t.depth - 1]
    if kind == SUIT:
        return PLAY_SUIT0 + best_suit(t, seat)
    if kind in (FIVE, SEVEN):
        return _target(t, prm, buf, k)
    if kind == BOTTOM:
        return _bottom(t, hints, buf, k)
    if kind == JACKS:
        best = best_suit(t, seat)
        for i in range(k):
            if buf[i] // 13 == best:
                return buf[i]
        return buf[0]
    chosen, best_score = -1, -1e18
    for i in range(k):
        a = buf[i]
        if a < STANDARD or a in (PLAY_RJ, PLAY_BJ):
            c = a if a < STANDARD else a - PLAY_RJ + RED_JOKER
            score = _play_score(t, prm, hints, seat, c)
            if score > best_score:  # ascending ids: a tie keeps the lower one
                chosen, best_score = a, score
    if chosen >= 0:
        return chosen
    for i in range(k):
        if buf[i] == PASS:
            return PASS
    for i in range(k):
        if buf[i] == DRAW:
            return DRAW
    return buf[0]


# ---------------------------------------------------------------- from the declarations
def _check_engine(engine: Any) -> None:
    """The ids, frames and card tables written above are the engine's (a change there
    fails here, not as a silent difference)."""
    from ..cards import RANK, SUIT
    from ..engines import baby_eating_eights as rules

    actions = engine.actions
    ids = (actions["suit"].id(0), engine.DRAW, engine.PASS, rules.PLAY_ACTION[RED_JOKER],
           rules.PLAY_ACTION[BLACK_JOKER], rules.TARGET_ACTION[0], rules.BOTTOM_ACTION[0],
           len(actions), rules.KING_OF_HEARTS, rules.ACE_OF_SPADES, rules.NUM_KINDS,
           rules.MAX_PLAYERS, rules.EXPANDED_DECK_SIZE)
    tables = (tuple(RANK), tuple(SUIT), rules.NUMBER, rules.WILD, rules.EXEMPT)
    mine = (tuple(c % 13 + 1 if c < STANDARD else 0 for c in range(KINDS)),
            tuple(c // 13 if c < STANDARD else -1 for c in range(KINDS)),
            tuple(6 if r == 9 else r for r in (c % 13 + 1 if c < STANDARD else 0
                                               for c in range(KINDS))),
            tuple(c >= STANDARD or c % 13 + 1 == EIGHT for c in range(KINDS)),
            tuple(c >= STANDARD or c % 13 + 1 == EIGHT or c == KING_OF_HEARTS
                  for c in range(KINDS)))
    frames = set(engine.frame_args)
    if ids != (PLAY_SUIT0, DRAW, PASS, PLAY_RJ, PLAY_BJ, TARGET0, BOTTOM0, NUM_ACTIONS,
               KING_OF_HEARTS, ACE_OF_SPADES, KINDS, MAX_PLAYERS, MAX_CARDS) \
            or tuple(engine.phases) != FRAMES[:DECISIONS] or frames != set(FRAMES) \
            or tables != mine:
        raise ValueError("baby_eating_eights core: the engine's action ids, frames or card "
                         "tables changed; the compiled core writes the old ones")


def constants(engine: Any, config: Any) -> tuple[np.ndarray, np.ndarray]:
    """The engine's declarations the core reads: the number each card counts as for Four
    in a Row (``rules``: Sixes and Nines one number with ``six_nine_four_in_a_row``), and
    the heuristic's weights (``hints``: attack by rank, jokers at 0, then the hold of a
    wild card), from its agent module."""
    from ..agents import baby_heuristic as agent
    from ..engines import baby_eating_eights as rules

    table = rules.NUMBER if config.six_nine_four_in_a_row else rules.RANK
    run = np.array([table[c] for c in range(KINDS)], np.int64)
    hints = np.zeros(NUM_HINTS, np.float64)
    for rank, weight in agent.ATTACK.items():
        hints[rank] = weight
    hints[H_WILD_HOLD] = agent.WILD_HOLD
    return run, hints


def _scales(engine: Any, config: Any) -> np.ndarray:
    """Each encoding's factor, read from the declared field of its feature as the encoder
    computes it (``1.0 / scale`` in float64; the card counts' factor in float32)."""
    from ..engines.encoding import CardCounts, CardList, Counts, PerSeat, Scaled

    expected = {"hand": CardList, "hand_sizes": PerSeat, "stock": Scaled,
                "discards": CardCounts, "unseen": CardCounts, "played": PerSeat,
                "known": PerSeat, "named": PerSeat, "drawn_since": PerSeat,
                "run_length": Scaled, "run_number": Scaled}
    fields, wrong = declared.encodings(engine, expected)
    if not wrong and not isinstance(fields["named"].each, Counts):
        wrong = ["named"]
    sizes = declared.number(fields["hand_sizes"].each.scale, config) if not wrong else 0.0
    copies = declared.number(fields["discards"].copies, config) if not wrong else 0.0
    if wrong or sizes != declared.number(fields["stock"].scale, config) or any(
            declared.number(c, config) != copies
            for c in (fields["unseen"].copies, fields["played"].each.copies,
                      fields["known"].each.copies, fields["hand"].copies)):
        raise ValueError(f"baby_eating_eights core: the features are not encoded as the "
                         f"compiled core writes them (hand sizes and the stock scaled alike, "
                         f"every card count by the decks){f': {wrong}' if wrong else ''}")
    scales = np.zeros(S_HAND_TABLE, np.float64)
    scales[S_SIZES] = 1.0 / sizes
    scales[S_RUN_LENGTH] = 1.0 / declared.number(fields["run_length"].scale, config)
    scales[S_RUN_NUMBER] = 1.0 / declared.number(fields["run_number"].scale, config)
    scales[S_NAMED] = 1.0 / fields["named"].each.scale
    scales[S_DRAWN_SINCE] = 1.0 / declared.number(fields["drawn_since"].each.scale, config)
    return np.concatenate([scales, count_tables(copies)])


def compile_config(engine: Any, config: Any, encoder: Any
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The config as the core's integer parameters (the deck's copies and the teams among
    them), the encoder's offsets in :data:`FEATURES` order, and the encodings' factors
    (read from the declarations, so a layout change shows up here as a missing feature)."""
    _check_engine(engine)
    missing = [f for f in FEATURES if f not in encoder.offsets]
    if missing:
        raise ValueError(f"baby_eating_eights core: the observation has no feature {missing}; "
                         f"the compiled core writes the v2 layout")
    n = config.num_players
    params = np.zeros(NUM_PARAMS, np.int64)
    params[P_PLAYERS] = n
    params[P_DECKS] = config.num_decks
    params[P_DECK_SIZE] = config.deck_size
    params[P_HAND] = config.hand_size
    params[P_TEAMS] = config.teams
    params[P_GUARANTEE] = RED_JOKER if config.guarantee_joker == "RJ" else BLACK_JOKER
    params[P_THRESHOLD] = config.guarantee_cards_per_player * n
    params[P_COMBO_REPLACES] = int(config.combo_replaces_draw_four)
    params[P_THREE_CANCELS_KH] = int(config.three_cancels_king_of_hearts)
    params[P_TEN_AGAIN_DRAWS] = int(config.ten_again_draws)
    params[P_KING_STEPS] = 2 if n == 2 and config.two_player_king == "again" else 3
    params[P_SCORE_REWARD] = int(config.reward == "score")
    params[P_MAX_TURNS] = config.max_turns
    params[P_SIX_NINE_RUN] = int(config.six_nine_four_in_a_row)
    game = engine(config, seed=0)
    params[P_DECK:P_DECK + KINDS] = game.deck_counts()
    params[P_TEAM:P_TEAM + n] = config.team_of()
    offsets = np.array([encoder.offsets[f] for f in FEATURES], np.int64)
    return params, offsets, _scales(engine, config)


def final_scores(record: np.void, config: Any) -> tuple[int, ...]:
    """The engine's ``final_scores()`` of a record (which keeps the hands' sizes, not the
    scores): the engine's own rule over them."""
    from ..engines.baby_eating_eights import BabyEatingEightsGame

    return BabyEatingEightsGame.scores_of_hands(config, record["hand_len"][:config.num_players])


def record_from_engine(engine: Any, records: np.ndarray, mt_value: int) -> None:
    """Write a Python ``BabyEatingEightsGame``'s position into ``records[0]`` (its later
    draws of chance from a Mersenne Twister seeded ``mt_value``): the hands in their list
    order, the stock and the pile, the agenda frame for frame, the flags, the draws on
    record and every seat's memory of the hand, so stepping the record and the engine
    with the same actions stays identical until the first draw of chance."""
    s = engine.state
    n = engine.num_players
    records[0] = np.zeros((), records.dtype)
    rec = records[0]
    for p, hand in enumerate(s.hands):
        rec["hand"][p * MAX_CARDS: p * MAX_CARDS + len(hand)] = hand
        np.add.at(rec["hands"], p * KINDS + np.asarray(hand, np.int64), 1)
        rec["hand_len"][p] = len(hand)
    rec["stock"][: len(s.stock)] = s.stock
    records["stock_len"][0] = len(s.stock)
    rec["pile"][: len(s.piles[0])] = s.piles[0]
    records["pile_len"][0] = len(s.piles[0])
    rec["pile_counts"][:] = np.frombuffer(bytes(s.pile_counts[0]), np.uint8)[:KINDS]
    records["suit"][0], records["owner"][0] = s.suits[0], s.owners[0]
    for d, frame in enumerate(s.agenda):
        kind = FRAMES.index(frame.kind)
        args = [0, 0, 0]
        if kind == NEXT:
            args[:2] = frame.args[0] if frame.args[0] is not None else -1, int(frame.args[1])
        else:
            args[: len(frame.args)] = [int(x) for x in frame.args]
        rec["f_kind"][d], rec["f_seat"][d] = kind, frame.seat
        rec["f_a0"][d], rec["f_a1"][d], rec["f_a2"][d] = args
    records["depth"][0] = len(s.agenda)
    records["current"][0] = engine.current_player
    records["direction"][0], records["stuck"][0] = s.direction, s.stuck
    records["first"][0] = s.first
    for name in ("three_live", "locked", "free", "run_number", "run_length", "combo_used"):
        records[name][0] = getattr(s, name)
    rec["drew_suit"][:n], rec["drew_rank"][:n] = s.drew_suit, s.drew_rank
    rec["drew_lock"][:n] = s.drew_lock
    records["turn"][0] = engine.turn
    records["terminated"][0], records["truncated"][0] = engine.terminated, engine.truncated
    for w in engine.winners:
        rec["winners"][w] = 1
    for q in range(n):
        memory = engine.memory(q)
        if q == 0:
            for p in range(n):
                rec["played"][p * KINDS: (p + 1) * KINDS] = np.frombuffer(
                    memory.played[p], np.uint8)
                rec["named"][p * 4: p * 4 + 4] = memory.named[p]
            rec["drawn_since"][:n] = memory.drawn
        for p in range(n):
            at = (q * n + p) * KINDS
            rec["known"][at: at + KINDS] = np.frombuffer(memory.known[p], np.uint8)
    legal = engine.legal_actions()
    rec["legal"][list(legal)] = 1
    records["mti"][0] = seed(records["mt"][0], mt_value)
