"""Jokers of Death, compiled: many tables in one record array, advanced by numba.

The same rules as :class:`eights.engines.jokers_of_death.JokersOfDeathGame`, on
flat arrays, in the design of :mod:`eights.vector.livery_eights`: each table is
one record of :func:`state_dtype` (hands and the picked-up piles' zones as
copies per seat and card id, the stock and the discard piles as card arrays with
their lengths, the engine's agenda as a small stack of frames, the public
memory of the ``*_v2`` observation, each seat's ``known`` cards included).
Randomness is the Python engine's own (:mod:`eights.vector.mt`), drawn in the
engine's order (the first player, each hand's shuffle, every Aces-variant
recycle), so a table dealt from a game seed plays the game
``JokersOfDeathGame(seed=game_seed)`` plays, decision for decision; the
differential tests (``tests/vector/test_jokers_of_death.py``,
``scripts/vector_differential.py --variant jokers_of_death``) hold them to it.

What the Python engine declares is read, not copied: the card points and the
heuristic's weights come from the engine and the agent (:func:`constants`), the
action ids and frame kinds are checked against its action space and phases
(:func:`_check_engine`), and every observation offset and scale from the env
version's encoder and the declared view fields (:func:`compile_config`). Only
the rules' control flow is written again here, one small function per frame
kind, as the engine has one ``*_legal``/``*_apply`` pair per frame.

Frame kinds: 0 ``turn``, 1 ``answer``, 2 ``follow``, 3 ``suit``, 4 ``knock``,
5 ``direction``, 6 ``pile_hand`` (the order of the observation's phase one-hot),
7 ``end`` (an effect, resolved as soon as it is on top).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from . import declared
from .kernels import best_suit, count32, scaled, score_returns
from .mt import randbelow, seed, shuffle
from .records import fill_memory

TURN, ANSWER, FOLLOW, SUIT, KNOCK_FRAME, DIRECTION, PILE_HAND, END = range(8)
#: the engine's decision frame kinds in :data:`TURN`... order (checked against its phases)
FRAMES = ("turn", "answer", "follow", "suit", "knock", "direction", "pile_hand")
#: card ids: the 52 standard cards, then the red and the black Joker
KINDS, STANDARD = 54, 52
MAX_PILES = 5
PLAY_END = KINDS * MAX_PILES  # play ids are 5 * card + pile, below this
SUIT0, DRAW, PASS, KNOCK, STOP, REVERSE, KEEP, PICK_UP0 = 270, 274, 275, 276, 277, 278, 279, 280
NUM_ACTIONS = 285
ACE, TWO, EIGHT, TEN, JACK, KING = 1, 2, 8, 10, 11, 13
FOUR_OF_SPADES = 3 * 13 + 4 - 1
THREE_OF_DIAMONDS = 1 * 13 + 3 - 1
TWO_PENALTY, FOUR_PENALTY = 2, 4

# params: the config as integers (index -> option)
(P_PLAYERS, P_DECKS, P_JOKERS, P_PILES, P_HAND, P_MATCH, P_TARGET, P_SCORE_REWARD,
 P_AUTO_KNOCK, P_SWITCH, P_ACES, P_FREE, P_MAX_TURNS) = range(13)
NUM_PARAMS = 13

# offsets: the observation's features, in the v2 layout's order
(O_HAND, O_TOPS, O_SUITS, O_PENDING, O_OWNERS, O_KILLED, O_TO_PLAY, O_DECISION_PILE,
 O_PHASE, O_ACES, O_TENS, O_KNOCKED, O_DIRECTION, O_TO_ACT, O_HAND_SIZES, O_STOCK,
 O_PILE_CARDS, O_PICKED_UP, O_PENALTIES, O_SCORES, O_PLAYED, O_NAMED, O_DRAWN_SINCE,
 O_KNOWN, O_UNSEEN) = range(25)
#: the v2 features, in :data:`O_HAND`... order (the encoder's feature names)
FEATURES = ("hand", "tops", "suits", "pending", "owners", "killed", "to_play",
            "decision_pile", "phase", "aces", "tens", "knocked", "direction", "to_act",
            "hand_sizes", "stock", "pile_cards", "picked_up", "penalties", "scores", "played",
            "named", "drawn_since", "known", "unseen")

# scales: the encodings' factors, each read from the declared field of that feature
S_HAND, S_TOTAL, S_SCORE, S_COUNTS32, S_PENDING, S_ACES, S_NAMED, S_DRAWN = range(8)

# hints: the heuristic agent's weights (eights/agents/jokers_heuristic.py)
H_MEAN_POINTS, H_ATTACK_TWO, H_ATTACK_ACE, H_ATTACK_FOUR, H_KEEP_EIGHT = range(5)

#: the largest table the record holds: every config shares one record type, so numba
#: compiles the core once, not once per (players, decks)
MAX_PLAYERS, MAX_DECKS = 12, 8
MAX_CARDS = STANDARD * MAX_DECKS + 4
#: frames pending at once: a turn, a follow, a knock and a suit at most; room to spare
MAX_AGENDA = 16
#: a byte's most (the memory's counts stop there, as the engine's do)
COUNT_MAX = 255
#: the compiled search (:mod:`eights.vector.search`) deals the 52-card pile games' record in
#: compiled code; this one has 54 card ids, several piles and the picked-up zones, so the
#: search plays positions the Python determinizer dealt (``record_from_engine``) instead
DEALS_COMPILED = False


def state_dtype() -> np.dtype:
    """One table's record: every field the rules and the v2 observation read, sized for
    the largest table (:data:`MAX_PLAYERS`, :data:`MAX_DECKS`, five piles; a smaller one
    leaves the rest unused). ``agenda_*`` is the engine's agenda, bottom first;
    ``known`` is per observer, per seat, per card id."""
    n, size = MAX_PLAYERS, MAX_CARDS
    return np.dtype([
        ("mt", np.uint32, 624), ("mti", np.int64), ("seeder", np.uint64),
        ("game_seed", np.uint64),
        ("hands", np.uint8, n * KINDS), ("hand_len", np.int16, n),
        ("zones", np.uint8, n * KINDS), ("zone_len", np.int16, n),
        ("stock", np.int8, size), ("stock_len", np.int16),
        ("piles", np.int8, MAX_PILES * size), ("pile_len", np.int16, MAX_PILES),
        ("pile_counts", np.uint8, MAX_PILES * KINDS),
        ("suits", np.int8, MAX_PILES), ("pending", np.int32, MAX_PILES),
        ("owners", np.int8, MAX_PILES), ("killed", np.uint8, MAX_PILES),
        ("knocked", np.int8, n), ("penalties", np.int32, n),
        ("todo", np.int32), ("aces", np.int32), ("tens", np.int32), ("stuck", np.int32),
        ("fresh", np.uint8),
        ("agenda_kind", np.int8, MAX_AGENDA), ("agenda_seat", np.int8, MAX_AGENDA),
        ("agenda_arg", np.int8, MAX_AGENDA), ("agenda_len", np.int8),
        ("current", np.int8), ("direction", np.int8), ("first", np.int8),
        ("hand_number", np.int32), ("scores", np.int32, n),
        ("turn", np.int32), ("hand_start", np.int32),
        ("terminated", np.bool_), ("truncated", np.bool_),
        ("winners", np.uint8, n),
        ("played", np.uint8, n * KINDS), ("named", np.int32, n * 4),
        ("drawn_since", np.int32, n), ("known", np.uint8, n * n * KINDS),
        ("legal", np.uint8, NUM_ACTIONS),
    ])


# ---------------------------------------------------------------- cards and seats
@numba.njit(cache=True)
def _rank(c):
    return c % 13 + 1 if c < STANDARD else 0


@numba.njit(cache=True)
def _suit(c):
    """The suit (the colour a pile follows); -1 for a Joker."""
    return c // 13 if c < STANDARD else -1


@numba.njit(cache=True)
def _top(t, k):
    return t.piles[k * MAX_CARDS + t.pile_len[k] - 1] if t.pile_len[k] else -1


@numba.njit(cache=True)
def _next_seat(t, prm, seat):
    return (seat + t.direction) % prm[P_PLAYERS]


@numba.njit(cache=True)
def _live(t, prm):
    """Bit mask of the piles still in play."""
    live = 0
    for k in range(prm[P_PILES]):
        if not t.killed[k]:
            live |= 1 << k
    return live


@numba.njit(cache=True)
def _fits(t, c, k):
    """Whether ``c`` may go on pile ``k`` in an ordinary turn: an 8, the suit to follow or
    the top's rank; on an empty space any card but a Joker."""
    rank = _rank(c)
    if rank == 0:
        return False
    if t.pile_len[k] == 0 or rank == EIGHT:
        return True
    return _suit(c) == t.suits[k] or rank == _rank(_top(t, k))


@numba.njit(cache=True)
def _follows(t, c, k):
    """A card that may go on a Jack or King on pile ``k``: its suit, or an 8."""
    rank = _rank(c)
    return rank == EIGHT or (rank != 0 and _suit(c) == t.suits[k])


@numba.njit(cache=True)
def _covers(t, prm, seat):
    """Whether distinct cards of ``seat``'s hand can go one on each pile still to play
    (the engine's bipartite matching, ``covers``): Hall's condition on every set of those
    piles, each copy of a card its own vertex (at most 31 sets of at most five piles)."""
    todo = t.todo
    if todo == 0:
        return True
    base = seat * KINDS
    fit_of = np.zeros(KINDS, np.int64)
    for c in range(KINDS):
        if t.hands[base + c]:
            bits = 0
            for k in range(prm[P_PILES]):
                if todo >> k & 1 and _fits(t, c, k):
                    bits |= 1 << k
            fit_of[c] = bits
    piles = todo
    while piles:
        need = 0
        x = piles
        while x:
            need += 1
            x &= x - 1
        have = 0
        for c in range(KINDS):
            if fit_of[c] & piles:
                have += t.hands[base + c]
        if have < need:
            return False
        piles = (piles - 1) & todo
    return True


@numba.njit(cache=True)
def _jokers_held(t, seat):
    return t.hands[seat * KINDS + STANDARD] + t.hands[seat * KINDS + STANDARD + 1]


@numba.njit(cache=True)
def _points_of(counts, base, points):
    """Points of the cards counted in ``counts[base:base + KINDS]``."""
    total = 0
    for c in range(KINDS):
        total += counts[base + c] * points[_rank(c)]
    return total


# ---------------------------------------------------------------- the agenda
@numba.njit(cache=True)
def _push(t, kind, seat, arg):
    i = t.agenda_len
    t.agenda_kind[i], t.agenda_seat[i], t.agenda_arg[i] = kind, seat, arg
    t.agenda_len = i + 1


# ---------------------------------------------------------------- the memory
@numba.njit(cache=True)
def _remember_play(t, prm, seat, c):
    """The ``play`` event's fold: ``seat`` put ``c`` face up (from its hand, or from a
    picked-up pile: the engine logs both alike)."""
    n = prm[P_PLAYERS]
    at = seat * KINDS + c
    if t.played[at] < COUNT_MAX:
        t.played[at] += 1
    t.drawn_since[seat] = 0
    for o in range(n):
        i = (o * n + seat) * KINDS + c
        if t.known[i]:
            t.known[i] -= 1


@numba.njit(cache=True)
def _remember_taken(t, prm, seat, c):
    """A card every other seat saw go into ``seat``'s hand (``left_over``)."""
    n = prm[P_PLAYERS]
    for o in range(n):
        if o != seat:
            i = (o * n + seat) * KINDS + c
            if t.known[i] < COUNT_MAX:
                t.known[i] += 1


# ---------------------------------------------------------------- moves
@numba.njit(cache=True)
def _draw_one(t, seat):
    """The stock's top card to ``seat`` (-1 on an empty stock); a knock is undone."""
    if t.stock_len == 0:
        return -1
    t.stock_len -= 1
    c = t.stock[t.stock_len]
    t.hands[seat * KINDS + c] += 1
    t.hand_len[seat] += 1
    t.knocked[seat] = 0
    t.stuck = 0
    t.fresh = 0
    t.drawn_since[seat] += 1
    return c


@numba.njit(cache=True)
def _take(t, seat, count):
    """Take ``count`` penalty cards (as many as the stock holds)."""
    for _ in range(count):
        if _draw_one(t, seat) < 0:
            break
    t.stuck = 0


@numba.njit(cache=True)
def _put_on_pile(t, c, k):
    t.piles[k * MAX_CARDS + t.pile_len[k]] = c
    t.pile_len[k] += 1
    t.pile_counts[k * KINDS + c] += 1
    t.suits[k] = _suit(c)


@numba.njit(cache=True)
def _finish(t, prm, winners):
    t.terminated = True
    for p in range(prm[P_PLAYERS]):
        t.winners[p] = 1 if winners[p] else 0
    t.agenda_len = 0


@numba.njit(cache=True)
def _start_turn(t, prm, seat):
    """``seat``'s turn: an answer if a live pile has a penalty, else an ordinary turn on
    every live pile; a one-card hand not yet knocked for decides first."""
    t.aces = 0
    t.tens = 0
    attacked = 0
    for k in range(prm[P_PILES]):
        if t.pending[k] and not t.killed[k]:
            attacked |= 1 << k
    if attacked:
        t.todo = attacked
        _push(t, ANSWER, seat, -1)
    else:
        t.todo = _live(t, prm)
        t.fresh = 1
        _push(t, TURN, seat, -1)
    _knock_if_one(t, prm, seat)


@numba.njit(cache=True)
def _knock_if_one(t, prm, seat):
    """One card left, neither knocked nor declined for: the knock is decided first (the
    engine's ``_knock_if_one``)."""
    if _owes_knock(t, seat):
        _offer_knock(t, prm, seat)


@numba.njit(cache=True)
def _owes_knock(t, seat):
    """``seat`` holds one card it has neither knocked nor declined for."""
    return t.hand_len[seat] == 1 and t.knocked[seat] == 0


@numba.njit(cache=True)
def _offer_knock(t, prm, seat):
    if prm[P_AUTO_KNOCK]:
        t.knocked[seat] = 1
    else:
        _push(t, KNOCK_FRAME, seat, -1)


@numba.njit(cache=True)
def _turn_up(t, k):
    """The stock's top card turned up as pile ``k``; a Joker goes under the stock first
    (at most once per card of the stock, as the engine's loop)."""
    for _ in range(t.stock_len):
        c = t.stock[t.stock_len - 1]
        if _rank(c) != 0:
            break
        for i in range(t.stock_len - 1, 0, -1):
            t.stock[i] = t.stock[i - 1]
        t.stock[0] = c
    t.stock_len -= 1
    _put_on_pile(t, t.stock[t.stock_len], k)


@numba.njit(cache=True)
def _clear_hand(t):
    """Everything a new hand starts without: hands, zones, piles, knocks, penalties and the
    last hand's memory (element by element: a slice assignment costs numba a compiled
    helper per array type)."""
    for i in range(MAX_PLAYERS * KINDS):
        t.hands[i] = 0
        t.zones[i] = 0
        t.played[i] = 0
    for i in range(MAX_PLAYERS * MAX_PLAYERS * KINDS):
        t.known[i] = 0
    for p in range(MAX_PLAYERS):
        t.hand_len[p] = 0
        t.zone_len[p] = 0
        t.knocked[p] = 0
        t.penalties[p] = 0
        t.drawn_since[p] = 0
        for s in range(4):
            t.named[p * 4 + s] = 0
    for k in range(MAX_PILES):
        t.pile_len[k] = 0
        t.suits[k] = -1
        t.pending[k] = 0
        t.owners[k] = -1
        t.killed[k] = 0
    for i in range(MAX_PILES * KINDS):
        t.pile_counts[i] = 0


@numba.njit(cache=True)
def _deal(t, prm, first):
    """Deal a hand ``first`` starts: the deck (its decks in id order, then the Jokers)
    shuffled in the stock array, one card at a time counter-clockwise from ``first``, the
    rest the stock (its top last), the piles turned up; the hand's memory forgotten."""
    t.hand_start = t.turn  # the turn limit counts this hand's actions
    n, piles = prm[P_PLAYERS], prm[P_PILES]
    standard = STANDARD * prm[P_DECKS]
    size = standard + prm[P_JOKERS]
    for i in range(standard):
        t.stock[i] = i % STANDARD
    for j in range(prm[P_JOKERS]):
        t.stock[standard + j] = STANDARD + j % 2
    t.mti = shuffle(t.mt, t.mti, t.stock, size)
    _clear_hand(t)
    pos = 0
    for _ in range(prm[P_HAND]):
        for k in range(n):
            seat = (first - k) % n
            t.hands[seat * KINDS + t.stock[pos]] += 1
            t.hand_len[seat] += 1
            pos += 1
    rest = size - pos
    for i in range(rest):  # the stock is deck[pos:] reversed: its top is the next card
        t.piles[i] = t.stock[size - 1 - i]
    for i in range(rest):
        t.stock[i] = t.piles[i]
    t.stock_len = rest
    t.first = first
    t.direction = -1
    t.stuck = 0
    t.agenda_len = 0
    for k in range(piles):
        _turn_up(t, k)
    _start_turn(t, prm, first)


@numba.njit(cache=True)
def _end_hand(t, prm, rules, out):
    """Score the hand (``out``: who played their last card after knocking; -1: stopped or
    blocked), then end the game or deal the match's next hand."""
    n = prm[P_PLAYERS]
    points = np.zeros(n, np.int64)
    best = 1 << 40
    for q in range(n):
        points[q] = (_points_of(t.hands, q * KINDS, rules) + t.penalties[q]
                     + _points_of(t.zones, q * KINDS, rules))
        t.scores[q] += points[q]
        best = min(best, points[q])
    winners = np.zeros(n, np.bool_)
    for q in range(n):
        winners[q] = q == out if out >= 0 else points[q] == best
    t.agenda_len = 0
    t.todo = 0
    if not prm[P_MATCH]:
        _finish(t, prm, winners)
        return
    top, low = t.scores[0], t.scores[0]
    for q in range(1, n):
        top = max(top, t.scores[q])
        low = min(low, t.scores[q])
    if top >= prm[P_TARGET]:
        at_top = 0
        for q in range(n):
            at_top += t.scores[q] == top
        if at_top == 1:
            for q in range(n):
                winners[q] = t.scores[q] == low
            _finish(t, prm, winners)
            return
    t.hand_number += 1
    _deal(t, prm, (t.first - 1) % n)


@numba.njit(cache=True)
def _next_turn(t, prm, seat):
    """The turn after ``seat``'s: each Ace played in it skips one player."""
    q = seat
    for _ in range(t.aces):
        q = _next_seat(t, prm, q)
    _start_turn(t, prm, _next_seat(t, prm, q))


@numba.njit(cache=True)
def _switch_hands(t, prm):
    """The Hand Switching variant's 3 of Diamonds: each hand goes to the next player in the
    direction of play, knocks are cleared; each seat knows the hand it passed on, and what
    it knew of a hand it now knows of the next seat's."""
    n = prm[P_PLAYERS]
    old = np.empty(n * KINDS, np.int64)
    sizes = np.empty(n, np.int64)
    known = np.empty(n * n * KINDS, np.int64)
    for i in range(n * KINDS):
        old[i] = t.hands[i]
    for i in range(n * n * KINDS):
        known[i] = t.known[i]
    for q in range(n):
        sizes[q] = t.hand_len[q]
    for q in range(n):
        to = _next_seat(t, prm, q)
        for c in range(KINDS):
            t.hands[to * KINDS + c] = old[q * KINDS + c]
        t.hand_len[to] = sizes[q]
    for o in range(n):
        for q in range(n):
            src = (o * n + (q - t.direction) % n) * KINDS
            dst = (o * n + q) * KINDS
            for c in range(KINDS):
                t.known[dst + c] = 0 if q == o else known[src + c]
    for o in range(n):  # the seat's own gives: the hand it passed on
        to = _next_seat(t, prm, o)
        if to != o:
            dst = (o * n + to) * KINDS
            for c in range(KINDS):
                m = t.known[dst + c] + old[o * KINDS + c]
                t.known[dst + c] = m if m < COUNT_MAX else COUNT_MAX
    for q in range(n):
        t.knocked[q] = 0


@numba.njit(cache=True)
def _recycle_aces(t, prm):
    """The Aces variant: every live pile with an Ace on top sends its other cards back into
    the stock, shuffled with it."""
    piles = prm[P_PILES]
    for k in range(piles):
        if not t.killed[k] and (t.pile_len[k] == 0 or _rank(_top(t, k)) != ACE):
            return
    size = t.stock_len
    for k in range(piles):
        if t.killed[k]:
            continue
        base = k * MAX_CARDS
        top = t.piles[base + t.pile_len[k] - 1]
        for i in range(t.pile_len[k] - 1):
            t.stock[size] = t.piles[base + i]
            size += 1
        t.piles[base] = top
        t.pile_len[k] = 1
        for c in range(KINDS):
            t.pile_counts[k * KINDS + c] = 0
        t.pile_counts[k * KINDS + top] = 1
        t.pending[k] = 0
    if size == t.stock_len:
        return
    t.mti = shuffle(t.mt, t.mti, t.stock, size)
    t.stock_len = size


@numba.njit(cache=True)
def _kill(t, prm, seat, k, before):
    """A Joker on a 4 of Spades: the pile leaves play; on two or more 4s of Spades in a
    row its player takes four for each one the Joker does not neutralise."""
    t.killed[k] = 1
    t.pending[k] = 0
    extra = before // FOUR_PENALTY
    if extra > 1:
        _take(t, seat, extra)


@numba.njit(cache=True)
def _place(t, prm, seat, c, k, kind):
    """``seat`` puts ``c`` on pile ``k`` (``kind``: TURN, ANSWER or FOLLOW), the card's
    effect applies, and what comes next is pushed as the engine pushes it. True when
    ``seat`` knocked and went out: the caller ends the hand (one call of
    :func:`_end_hand` in :func:`_apply` keeps the compiled closures small)."""
    t.todo &= ~(1 << k)
    before = t.pending[k]
    t.hands[seat * KINDS + c] -= 1
    t.hand_len[seat] -= 1
    _put_on_pile(t, c, k)
    _remember_play(t, prm, seat, c)
    t.owners[k] = seat
    t.stuck = 0
    t.fresh = 0
    rank = _rank(c)
    if kind == ANSWER:
        if rank == 0:
            _kill(t, prm, seat, k, before)
        elif rank == TWO:
            t.pending[k] = before + TWO_PENALTY
        else:
            t.pending[k] = before * FOUR_PENALTY
    elif rank == TWO:
        t.pending[k] = TWO_PENALTY
    elif c == FOUR_OF_SPADES:
        t.pending[k] = FOUR_PENALTY
    if rank == ACE:
        t.aces += 1
    elif rank == TEN:
        t.tens += 1
    if t.hand_len[seat] == 0 and t.knocked[seat] == 1:
        return True
    if kind == TURN:
        _push(t, TURN if t.todo else END, seat, -1)
    elif kind == ANSWER:
        _push(t, ANSWER if t.todo else END, seat, -1)
    if kind != ANSWER and rank in (JACK, KING):
        _push(t, FOLLOW, seat, k)
    if c == THREE_OF_DIAMONDS and kind != ANSWER and prm[P_SWITCH]:
        _switch_hands(t, prm)
    _knock_if_one(t, prm, seat)
    if rank == EIGHT:
        _push(t, SUIT, seat, k)
    if prm[P_ACES]:  # (an answer places no Ace, but a Joker's kill may leave only Aces)
        _recycle_aces(t, prm)
    return False


# ---------------------------------------------------------------- frames: legal actions
@numba.njit(cache=True)
def _with_stop(t, seat, out, k):
    """Two Jokers in hand: ``stop`` joins the legal actions (kept ascending by the
    callers, which add it in its place)."""
    if _jokers_held(t, seat) >= 2:
        out[k] = STOP
        return k + 1
    return k


@numba.njit(cache=True)
def _turn_legal(t, prm, seat, out):
    base = seat * KINDS
    k = 0
    for c in range(KINDS):
        if t.hands[base + c]:
            for j in range(prm[P_PILES]):
                if t.todo >> j & 1 and _fits(t, c, j):
                    out[k] = c * MAX_PILES + j
                    k += 1
    if not _covers(t, prm, seat):
        out[k] = DRAW if t.stock_len else PASS
        k += 1
    k = _with_stop(t, seat, out, k)
    if t.fresh and prm[P_FREE]:
        full = 0
        for j in range(prm[P_PILES]):
            if t.pile_len[j] and not t.killed[j]:
                full += 1
        if full > 1:
            for j in range(prm[P_PILES]):
                if t.pile_len[j] and not t.killed[j]:
                    out[k] = PICK_UP0 + j
                    k += 1
    return k


@numba.njit(cache=True)
def _answer_legal(t, prm, seat, out):
    base = seat * KINDS
    k = 0
    for c in range(KINDS):
        if not t.hands[base + c]:
            continue
        rank = _rank(c)
        for j in range(prm[P_PILES]):
            if not t.todo >> j & 1:
                continue
            top = _top(t, j)
            if (_rank(top) == TWO and rank == TWO) or (top == FOUR_OF_SPADES and (
                    c == FOUR_OF_SPADES or (rank == 0 and t.owners[j] != seat))):
                out[k] = c * MAX_PILES + j
                k += 1
    out[k] = DRAW
    return _with_stop(t, seat, out, k + 1)


@numba.njit(cache=True)
def _follow_legal(t, seat, pile, out):
    base = seat * KINDS
    k = 0
    for c in range(KINDS):
        if t.hands[base + c] and _follows(t, c, pile):
            out[k] = c * MAX_PILES + pile
            k += 1
    if t.stock_len:
        out[k] = DRAW
        k += 1
    elif k == 0:
        out[k] = PASS
        k += 1
    return _with_stop(t, seat, out, k)


@numba.njit(cache=True)
def _pile_hand_legal(t, prm, seat, space, out):
    base = seat * KINDS
    k = 0
    for c in range(KINDS):
        if t.zones[base + c]:
            for j in range(prm[P_PILES]):
                if j != space and not t.killed[j] and t.pile_len[j] and _fits(t, c, j):
                    out[k] = c * MAX_PILES + j
                    k += 1
    if k == 0:
        out[k] = PASS
        k += 1
    return _with_stop(t, seat, out, k)


@numba.njit(cache=True)
def legal_actions(t, prm, out):
    """Write the pending decision's legal action ids into ``out`` (ascending, as the
    engine lists them); return how many."""
    if t.terminated or t.agenda_len == 0:
        return 0
    i = t.agenda_len - 1
    kind, seat, arg = np.int64(t.agenda_kind[i]), np.int64(t.agenda_seat[i]), \
        np.int64(t.agenda_arg[i])
    if kind == TURN:
        return _turn_legal(t, prm, seat, out)
    if kind == ANSWER:
        return _answer_legal(t, prm, seat, out)
    if kind == FOLLOW:
        return _follow_legal(t, seat, arg, out)
    if kind == SUIT:
        for s in range(4):
            out[s] = SUIT0 + s
        return _with_stop(t, seat, out, np.int64(4))
    if kind == KNOCK_FRAME:
        out[0], out[1] = PASS, KNOCK
        return _with_stop(t, seat, out, np.int64(2))
    if kind == DIRECTION:
        out[0] = STOP
        k = 1 if _jokers_held(t, seat) >= 2 else 0
        out[k], out[k + 1] = REVERSE, KEEP
        return k + 2
    if kind == PILE_HAND:
        return _pile_hand_legal(t, prm, seat, arg, out)
    return 0


# ---------------------------------------------------------------- frames: applying
@numba.njit(cache=True)
def _pass_turn(t, prm, seat):
    """``pass`` in a turn (the stock is empty): the turn ends; True when it blocks the
    table (a whole round of turns in a row with nothing placed, drawn or picked up: the
    hand ends; the engine's ``_blocked``)."""
    if t.fresh:  # nothing placed, drawn or picked up this turn: one more stuck turn
        t.stuck += 1
        if t.stuck >= prm[P_PLAYERS]:
            return True
    t.todo = 0
    _push(t, END, seat, -1)
    return False


@numba.njit(cache=True)
def _pick_up(t, seat, k):
    """The Free Discard Pile variant: pile ``k`` becomes ``seat``'s second hand (its zone),
    to be played out on the other piles before the first hand."""
    base = k * MAX_CARDS
    for i in range(t.pile_len[k]):
        t.zones[seat * KINDS + t.piles[base + i]] += 1
    t.zone_len[seat] += t.pile_len[k]
    t.pile_len[k] = 0
    for c in range(KINDS):
        t.pile_counts[k * KINDS + c] = 0
    t.suits[k] = -1
    t.owners[k] = -1
    t.pending[k] = 0
    t.stuck = 0
    t.fresh = 0
    _push(t, PILE_HAND, seat, k)


@numba.njit(cache=True)
def _pile_hand_apply(t, prm, rules, seat, space, a):
    """A card of the picked-up pile goes on another pile with no effect (an 8 still names
    the suit); played out, the first hand plays an ordinary turn. ``pass``: the cards left
    join the hand, their points a penalty, and the turn ends."""
    zone = seat * KINDS
    if a == PASS:
        t.penalties[seat] += _points_of(t.zones, zone, rules)
        for c in range(KINDS):
            for _ in range(t.zones[zone + c]):
                _remember_taken(t, prm, seat, c)
            t.hands[zone + c] += t.zones[zone + c]
            t.zones[zone + c] = 0
        t.hand_len[seat] += t.zone_len[seat]
        t.zone_len[seat] = 0
        t.knocked[seat] = 0
        t.todo = 0
        _push(t, END, seat, -1)
        _knock_if_one(t, prm, seat)
        return
    c, j = a // MAX_PILES, a % MAX_PILES
    t.zones[zone + c] -= 1
    t.zone_len[seat] -= 1
    _put_on_pile(t, c, j)
    _remember_play(t, prm, seat, c)
    t.owners[j] = seat
    t.pending[j] = 0
    if t.zone_len[seat]:
        _push(t, PILE_HAND, seat, space)
    else:
        t.todo = _live(t, prm)
        _push(t, TURN, seat, -1)
    if _rank(c) == EIGHT:
        _push(t, SUIT, seat, j)


@numba.njit(cache=True)
def _take_penalties(t, prm, seat):
    """``draw`` in an answer: take the cards for every pile not answered."""
    count = 0
    for k in range(prm[P_PILES]):
        if t.todo >> k & 1:
            count += t.pending[k]
            t.pending[k] = 0
    t.todo = 0
    _take(t, seat, count)
    _push(t, END, seat, -1)
    _knock_if_one(t, prm, seat)


@numba.njit(cache=True)
def _draw_to_follow(t, seat, pile):
    """``draw`` on a Jack or King: draw until a card that fits comes (returned, to be
    played), or -1 once the stock is out."""
    while t.stock_len:
        c = _draw_one(t, seat)
        if _follows(t, c, pile):
            return c
    return -1


@numba.njit(cache=True)
def _apply(t, prm, rules, a):
    """Pop the top frame and apply ``a`` to it, as the engine's ``<kind>_apply``; then
    resolve the ``end`` frames that come to the top (a turn over: the direction after a
    10, else the next turn). The frames' handlers only say what to place and whether the
    hand ends: :func:`_place` and :func:`_end_hand` are called once each, here (numba
    links and optimizes a callee into every caller, so fewer call sites compile faster)."""
    t.agenda_len -= 1
    i = t.agenda_len
    kind, seat, arg = np.int64(t.agenda_kind[i]), np.int64(t.agenda_seat[i]), \
        np.int64(t.agenda_arg[i])
    card, pile, place = np.int64(-1), np.int64(-1), np.int64(-1)
    ends = a == STOP  # two Jokers shown: the hand stops now (at any decision)
    if ends:
        pass
    elif kind == TURN:
        if a == DRAW:  # draw until distinct cards of the hand fit every pile to play
            while t.stock_len and not _covers(t, prm, seat):
                _draw_one(t, seat)
            _push(t, TURN, seat, -1)
            _knock_if_one(t, prm, seat)
        elif a == PASS:
            ends = _pass_turn(t, prm, seat)
        elif a >= PICK_UP0:
            _pick_up(t, seat, a - PICK_UP0)
        else:
            card, pile, place = a // MAX_PILES, a % MAX_PILES, TURN
    elif kind == ANSWER:
        if a == DRAW:
            _take_penalties(t, prm, seat)
        else:
            card, pile, place = a // MAX_PILES, a % MAX_PILES, ANSWER
    elif kind == FOLLOW:
        if a == DRAW:
            card = _draw_to_follow(t, seat, arg)
            if card >= 0 and _owes_knock(t, seat):
                # an empty hand drew its one card: knock first, then follow again
                _push(t, FOLLOW, seat, arg)
                _offer_knock(t, prm, seat)
                card = -1
        elif a != PASS:
            card = a // MAX_PILES
        if card >= 0:
            pile, place = arg, FOLLOW
    elif kind == SUIT:
        t.suits[arg] = a - SUIT0
        t.named[seat * 4 + a - SUIT0] += 1
    elif kind == KNOCK_FRAME:
        t.knocked[seat] = 1 if a == KNOCK else -1
    elif kind == DIRECTION:
        if a == REVERSE:
            t.direction = -t.direction
        _next_turn(t, prm, seat)
    else:
        _pile_hand_apply(t, prm, rules, seat, arg, a)
    out = np.int64(-1)
    if place >= 0 and _place(t, prm, seat, card, pile, place):
        ends, out = True, seat
    if ends:
        _end_hand(t, prm, rules, out)
    while not t.terminated and t.agenda_len and t.agenda_kind[t.agenda_len - 1] == END:
        t.agenda_len -= 1
        seat = np.int64(t.agenda_seat[t.agenda_len])
        if t.tens:
            _push(t, DIRECTION, seat, -1)
        else:
            _next_turn(t, prm, seat)


@numba.njit(cache=True)
def new_game(t, prm, rules, game_seed):
    """Start the game ``JokersOfDeathGame(seed=game_seed)`` starts: the first player drawn,
    the deck shuffled and dealt, forced moves applied."""
    t.game_seed = game_seed
    t.mti = seed(t.mt, game_seed)
    first, t.mti = randbelow(t.mt, t.mti, prm[P_PLAYERS])
    for p in range(MAX_PLAYERS):
        t.scores[p] = 0
        t.winners[p] = 0
    t.hand_number = 0
    t.turn = 0
    t.terminated = False
    t.truncated = False
    _deal(t, prm, first)
    buf = np.empty(NUM_ACTIONS, np.int64)
    step(t, prm, rules, np.int64(-1), buf)


@numba.njit(cache=True)
def step(t, prm, rules, a, buf):
    """The player to act plays action ``a`` (legal: the caller checks the mask), then the
    forced moves (one legal action) are applied until a real decision or the end, with
    the turn limit enforced; ``current`` (-1 once over) and the legal mask are set.
    ``a = -1`` applies the forced moves only (a new deal's): one function for both, as a
    separate settling function would be compiled into every caller once more."""
    if a >= 0:
        t.turn += 1
        _apply(t, prm, rules, a)
    while not t.terminated:
        if t.turn - t.hand_start >= prm[P_MAX_TURNS]:  # (this hand's actions)
            t.truncated = True
            break
        k = legal_actions(t, prm, buf)
        if k != 1:
            t.current = t.agenda_seat[t.agenda_len - 1]
            for i in range(NUM_ACTIONS):
                t.legal[i] = 0
            for i in range(k):
                t.legal[buf[i]] = 1
            return
        t.turn += 1
        _apply(t, prm, rules, buf[0])
    t.current = -1
    for i in range(NUM_ACTIONS):
        t.legal[i] = 0


@numba.njit(cache=True)
def returns(t, prm, out):
    """Each seat's reward at the end: +1 winners, -1 the others (or, with the score reward,
    minus each total's distance from the table's mean / 100: fewer points is better); 0
    for all when not over or truncated."""
    score_returns(t, prm[P_PLAYERS], prm[P_SCORE_REWARD], -1.0, out)


# ---------------------------------------------------------------- the observation
@numba.njit(cache=True)
def _card_list(counts, base, at, inv, out):
    """A :class:`CardList`: each copy adds ``inv`` to its card's feature (float32 sums)."""
    for c in range(KINDS):
        m = counts[base + c]
        if m:
            v = np.float32(out[at + c])
            for _ in range(m):
                v = np.float32(v + inv)
            out[at + c] = v


@numba.njit(cache=True)
def _card_counts(counts, base, at, inv32, out):
    """A :class:`CardCounts`: each card's copies as a float32, at most 1."""
    for c in range(KINDS):
        m = counts[base + c]
        if m:
            out[at + c] = count32(m, inv32)


@numba.njit(cache=True)
def _observe_piles(t, prm, offs, scales, seat, out):
    """The per-pile features: tops, suits, penalties, owners, killed, to play, the pile a
    decision is about, every pile's cards."""
    n, piles = prm[P_PLAYERS], prm[P_PILES]
    inv32 = np.float32(scales[S_COUNTS32])
    top_frame = t.agenda_kind[t.agenda_len - 1] if t.agenda_len else -1
    decision = -1
    if top_frame in (FOLLOW, SUIT):
        decision = t.agenda_arg[t.agenda_len - 1]
    for k in range(piles):
        top = _top(t, k)
        if top >= 0:
            out[offs[O_TOPS] + KINDS * k + top] = 1.0
        if 0 <= t.suits[k] < 4:
            out[offs[O_SUITS] + 4 * k + t.suits[k]] = 1.0
        if t.pending[k]:
            out[offs[O_PENDING] + k] = scaled(t.pending[k], scales[S_PENDING])
        if t.owners[k] >= 0:
            out[offs[O_OWNERS] + n * k + (t.owners[k] - seat) % n] = 1.0
        if t.killed[k]:
            out[offs[O_KILLED] + k] = 1.0
        if t.todo >> k & 1:
            out[offs[O_TO_PLAY] + k] = 1.0
        if k == decision:
            out[offs[O_DECISION_PILE] + k] = 1.0
        _card_counts(t.pile_counts, KINDS * k, offs[O_PILE_CARDS] + KINDS * k, inv32, out)


@numba.njit(cache=True)
def _observe_seats(t, prm, offs, scales, seat, out):
    """The hand, the phase, this turn's Aces and Tens, and the per-seat features."""
    n = prm[P_PLAYERS]
    _card_list(t.hands, seat * KINDS, offs[O_HAND], scales[S_HAND], out)
    for q in range(n):
        _card_list(t.zones, q * KINDS, offs[O_PICKED_UP], scales[S_HAND], out)
    phase = TURN
    if t.agenda_len and not t.terminated:
        phase = t.agenda_kind[t.agenda_len - 1]
    out[offs[O_PHASE] + phase] = 1.0
    if t.aces:
        out[offs[O_ACES]] = scaled(t.aces, scales[S_ACES])
    if t.tens:
        out[offs[O_TENS]] = 1.0
    if t.direction == 1:
        out[offs[O_DIRECTION]] = 1.0
    if t.current >= 0:
        out[offs[O_TO_ACT] + (t.current - seat) % n] = 1.0
    if t.stock_len:
        out[offs[O_STOCK]] = scaled(t.stock_len, scales[S_TOTAL])
    for k in range(n):
        q = (seat + k) % n
        if t.knocked[q] == 1:
            out[offs[O_KNOCKED] + k] = 1.0
        if t.penalties[q]:
            out[offs[O_PENALTIES] + k] = scaled(t.penalties[q], scales[S_SCORE])
        if t.scores[q]:
            out[offs[O_SCORES] + k] = scaled(t.scores[q], scales[S_SCORE])
        if k and t.hand_len[q]:
            out[offs[O_HAND_SIZES] + k - 1] = scaled(t.hand_len[q], scales[S_TOTAL])


@numba.njit(cache=True)
def _observe_memory(t, prm, offs, scales, seat, out):
    """The public history: per other seat its cards played, suits named, cards drawn since
    it last played and the cards this seat knows in its hand; the cards unseen."""
    n, decks = prm[P_PLAYERS], prm[P_DECKS]
    inv32 = np.float32(scales[S_COUNTS32])
    for k in range(1, n):
        q = (seat + k) % n
        _card_counts(t.played, q * KINDS, offs[O_PLAYED] + KINDS * (k - 1), inv32, out)
        for s in range(4):
            m = t.named[q * 4 + s]
            if m:
                out[offs[O_NAMED] + 4 * (k - 1) + s] = scaled(m, scales[S_NAMED])
        if t.drawn_since[q]:
            out[offs[O_DRAWN_SINCE] + k - 1] = scaled(t.drawn_since[q], scales[S_DRAWN])
        _card_counts(t.known, (seat * n + q) * KINDS, offs[O_KNOWN] + KINDS * (k - 1),
                     inv32, out)
    unseen = offs[O_UNSEEN]
    for c in range(KINDS):
        rest = decks if c < STANDARD else prm[P_JOKERS] // 2
        rest -= t.hands[seat * KINDS + c]
        for k in range(prm[P_PILES]):
            rest -= t.pile_counts[KINDS * k + c]
        for q in range(n):
            rest -= t.zones[q * KINDS + c]
            if q != seat:
                rest -= t.known[(seat * n + q) * KINDS + c]
        if rest > 0:
            out[unseen + c] = count32(rest, inv32)


@numba.njit(cache=True)
def observe(t, prm, offs, scales, seat, out):
    """Write ``seat``'s v2 observation into ``out`` (zeroed here), feature for feature as
    the Python encoder writes it; ``scales`` as :func:`compile_config` reads them."""
    for i in range(out.shape[0]):
        out[i] = 0.0
    _observe_piles(t, prm, offs, scales, seat, out)
    _observe_seats(t, prm, offs, scales, seat, out)
    _observe_memory(t, prm, offs, scales, seat, out)


# ---------------------------------------------------------------- the heuristic
@numba.njit(cache=True)
def _play_score(t, prm, rules, hints, seat, a, per_pile):
    """:meth:`JokersOfDeathHeuristic._score`: the most constrained pile first, 8s kept for
    piles nothing else fits, points shed, the attack cards played on a close next player."""
    c, k = a // MAX_PILES, a % MAX_PILES
    fitting = per_pile[k]
    rank = _rank(c)
    score = -3.0 * fitting + rules[rank] / 4
    if rank == EIGHT and fitting > 1:
        score += hints[H_KEEP_EIGHT]
    nxt = t.hand_len[(seat + t.direction) % prm[P_PLAYERS]]
    threat = 2.0 if nxt <= 3 else 1.0
    if c == FOUR_OF_SPADES:
        score += hints[H_ATTACK_FOUR] * threat
    elif rank == TWO:
        score += hints[H_ATTACK_TWO] * threat
    elif rank == ACE:
        score += hints[H_ATTACK_ACE] * threat
    return score


@numba.njit(cache=True)
def heuristic_action(t, prm, rules, hints, buf):
    """What :class:`~eights.agents.jokers_heuristic.JokersOfDeathHeuristic` plays for the
    seat to act: stop with two Jokers when its hand is worth less than the smallest other
    hand is likely to hold; knock; turn play towards the neighbour with more cards after a
    10; name the suit held most after an 8; answer with the lowest play; draw as soon as a
    pile cannot be matched; else the play of the highest score (ties to the lower id)."""
    k = legal_actions(t, prm, buf)
    if k == 1:
        return buf[0]
    seat = np.int64(t.current)
    n = prm[P_PLAYERS]
    has = np.zeros(NUM_ACTIONS, np.bool_)
    plays = 0
    for i in range(k):
        has[buf[i]] = True
        plays += buf[i] < PLAY_END
    if has[STOP]:
        others = 1 << 30
        for q in range(n):
            if q != seat:
                others = min(others, t.hand_len[q])
        if _points_of(t.hands, seat * KINDS, rules) < others * hints[H_MEAN_POINTS]:
            return STOP
    if has[KNOCK]:
        return KNOCK
    if has[REVERSE]:
        ahead = t.hand_len[(seat + t.direction) % n]
        behind = t.hand_len[(seat - t.direction) % n]
        return REVERSE if behind > ahead else KEEP
    if has[SUIT0]:
        return SUIT0 + best_suit(t, seat)
    phase = t.agenda_kind[t.agenda_len - 1]
    if phase == ANSWER:
        return buf[0] if plays else DRAW
    if has[DRAW] and phase == TURN:
        return DRAW
    if not plays:
        return DRAW if has[DRAW] else PASS
    per_pile = np.zeros(MAX_PILES, np.int64)
    for i in range(k):
        if buf[i] < PLAY_END:
            per_pile[buf[i] % MAX_PILES] += 1
    chosen, best = -1, -1e300
    for i in range(k):
        a = buf[i]
        if a < PLAY_END:
            score = _play_score(t, prm, rules, hints, seat, a, per_pile)
            if score > best:  # ascending ids: a tie keeps the lower one
                chosen, best = a, score
    return chosen


# ---------------------------------------------------------------- from the declarations
def _check_engine(engine: Any) -> None:
    """The ids, frames and cards written above are the engine's (a change there fails here,
    not as a silent difference)."""
    from ..engines import jokers_of_death as rules

    actions = engine.actions
    ids = (rules.PLAY_ID[1][2], actions["suit"].id(0), rules.DRAW, rules.PASS, rules.KNOCK,
           rules.STOP, rules.REVERSE, rules.KEEP, rules.PICK_UP_ID[0], len(actions))
    expected = (1 * MAX_PILES + 2, SUIT0, DRAW, PASS, KNOCK, STOP, REVERSE, KEEP, PICK_UP0,
                NUM_ACTIONS)
    if ids != expected or tuple(engine.phases) != FRAMES or rules.MAX_PILES != MAX_PILES \
            or (rules.FOUR_OF_SPADES, rules.THREE_OF_DIAMONDS) != (
                FOUR_OF_SPADES, THREE_OF_DIAMONDS) \
            or (rules.TWO_PENALTY, rules.FOUR_PENALTY) != (TWO_PENALTY, FOUR_PENALTY) \
            or rules.MAX_PLAYERS > MAX_PLAYERS or len(engine.cardset) != KINDS \
            or (rules.RED_JOKER, rules.BLACK_JOKER) != (STANDARD, STANDARD + 1):
        raise ValueError("jokers_of_death core: the engine's action ids, frames or special "
                         "cards changed; the compiled core writes the old ones")


def constants(engine: Any, config: Any) -> tuple[np.ndarray, np.ndarray]:
    """The engine's declarations the core reads: the card points by rank, Jokers (rank 0)
    first (the rules: hand scores, blocked and stopped hands); and the heuristic agent's
    weights (:data:`H_MEAN_POINTS`... order)."""
    from ..agents import jokers_heuristic as agent
    from ..engines import jokers_of_death as rules

    if set(agent.ATTACK) != {TWO, ACE}:
        raise ValueError(f"jokers_of_death core: the heuristic's attack ranks are "
                         f"{sorted(agent.ATTACK)}; the compiled heuristic weighs 2s and Aces")
    points = np.array(rules.POINTS_BY_RANK, np.int64)
    hints = np.array([agent.MEAN_POINTS, agent.ATTACK[TWO], agent.ATTACK[ACE],
                      agent.ATTACK_FOUR, agent.KEEP_EIGHT], np.float64)
    return points, hints


def _scales(engine: Any, config: Any) -> np.ndarray:
    """Each encoding's factor, read from the declared field of its feature as the encoder
    computes it (``1.0 / scale`` in float64; the card counts' factor in float32)."""
    from ..engines.encoding import CardCounts, CardList, Counts, PerPile, PerSeat, Scaled

    expected = {"hand": CardList, "picked_up": CardList, "hand_sizes": PerSeat,
                "stock": Scaled, "scores": PerSeat, "penalties": PerSeat,
                "pile_cards": PerPile, "unseen": CardCounts, "played": PerSeat,
                "known": PerSeat, "pending": PerPile, "aces": Scaled, "named": PerSeat,
                "drawn_since": PerSeat}
    fields, wrong = declared.encodings(engine, expected)
    if not wrong:
        copies = declared.number(fields["unseen"].copies, config)
        same_copies = [fields["hand"].copies, fields["picked_up"].copies,
                       fields["pile_cards"].each.copies, fields["played"].each.copies,
                       fields["known"].each.copies]
        total = declared.number(fields["stock"].scale, config)
        score = declared.number(fields["scores"].each.scale, config)
        if any(declared.number(c, config) != copies for c in same_copies) \
                or declared.number(fields["hand_sizes"].each.scale, config) != total \
                or declared.number(fields["penalties"].each.scale, config) != score \
                or not isinstance(fields["named"].each, Counts):
            wrong = ["copies or scales"]
    if wrong:
        raise ValueError(f"jokers_of_death core: the features are not encoded as the compiled "
                         f"core writes them (hand sizes and the stock scaled alike, scores and "
                         f"penalties alike, every card count by the decks): {wrong}")
    scales = np.zeros(8, np.float64)
    scales[S_HAND] = 1.0 / copies
    scales[S_TOTAL] = 1.0 / total
    scales[S_SCORE] = 1.0 / score
    scales[S_COUNTS32] = np.float32(1.0 / copies)
    scales[S_PENDING] = 1.0 / declared.number(fields["pending"].each.scale, config)
    scales[S_ACES] = 1.0 / declared.number(fields["aces"].scale, config)
    scales[S_NAMED] = 1.0 / fields["named"].each.scale
    scales[S_DRAWN] = 1.0 / declared.number(fields["drawn_since"].each.scale, config)
    return scales


def compile_config(engine: Any, config: Any, encoder: Any
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The config as the core's integer parameters, the encoder's offsets in
    :data:`FEATURES` order, and the encodings' factors (read from the declarations, so a
    layout change shows up here as a missing feature). Every option is played."""
    _check_engine(engine)
    missing = [f for f in FEATURES if f not in encoder.offsets]
    if missing:
        raise ValueError(f"jokers_of_death core: the observation has no feature {missing}; "
                         f"the compiled core writes the v2 layout")
    if config.decks > MAX_DECKS or config.num_players > MAX_PLAYERS:
        raise ValueError(f"jokers_of_death core: the record holds {MAX_DECKS} decks and "
                         f"{MAX_PLAYERS} players at most")
    params = np.zeros(NUM_PARAMS, np.int64)
    params[P_PLAYERS] = config.num_players
    params[P_DECKS] = config.decks
    params[P_JOKERS] = config.jokers
    params[P_PILES] = config.piles
    params[P_HAND] = config.hand_size
    params[P_MATCH] = int(config.match)
    params[P_TARGET] = config.target_score
    params[P_SCORE_REWARD] = int(config.reward == "score")
    params[P_AUTO_KNOCK] = int(config.auto_knock)
    params[P_SWITCH] = int(config.hand_switching)
    params[P_ACES] = int(config.aces)
    params[P_FREE] = int(config.free_discard_pile)
    params[P_MAX_TURNS] = config.max_turns
    offsets = np.array([encoder.offsets[f] for f in FEATURES], np.int64)
    return params, offsets, _scales(engine, config)


#: frame kind -> its number in the record (``end`` included)
_FRAME_IDS = {**{kind: i for i, kind in enumerate(FRAMES)}, "end": END}


def record_from_engine(engine: Any, records: np.ndarray, mt_value: int) -> None:
    """Write a Python ``JokersOfDeathGame``'s position into ``records[0]`` (its later shuffles
    drawn from a Mersenne Twister seeded ``mt_value``): the compiled search's start. The
    public memory is the engine's: the shared counts as the seat to act remembers them
    (a determinized position knows the searching seat's), ``known`` per seat."""
    s = engine.state
    n = engine.num_players
    records[0] = np.zeros((), records.dtype)
    rec = records[0]
    for p in range(n):
        np.add.at(rec["hands"], p * KINDS + np.asarray(s.hands[p], np.int64), 1)
        rec["hand_len"][p] = len(s.hands[p])
        np.add.at(rec["zones"], p * KINDS + np.asarray(s.zones[p], np.int64), 1)
        rec["zone_len"][p] = len(s.zones[p])
    rec["stock"][: len(s.stock)] = s.stock
    records["stock_len"][0] = len(s.stock)
    for k, pile in enumerate(s.piles):
        rec["piles"][k * MAX_CARDS: k * MAX_CARDS + len(pile)] = pile
        rec["pile_len"][k] = len(pile)
        rec["pile_counts"][k * KINDS: (k + 1) * KINDS] = np.frombuffer(
            bytes(s.pile_counts[k]), np.uint8)[:KINDS]
    piles = len(s.piles)
    rec["suits"][:piles], rec["pending"][:piles] = s.suits, s.pending
    rec["owners"][:piles], rec["killed"][:piles] = s.owners, s.killed
    rec["suits"][piles:], rec["owners"][piles:] = -1, -1
    rec["knocked"][:n], rec["penalties"][:n], rec["scores"][:n] = (
        s.knocked, s.penalties, s.scores)
    for name in ("todo", "aces", "tens", "stuck", "fresh", "direction", "first",
                 "hand_number"):
        records[name][0] = getattr(s, name)
    records["agenda_len"][0] = len(s.agenda)
    for i, frame in enumerate(s.agenda):
        rec["agenda_kind"][i] = _FRAME_IDS[frame.kind]
        rec["agenda_seat"][i] = frame.seat
        rec["agenda_arg"][i] = frame.args[0] if frame.args else -1
    records["current"][0] = engine.current_player
    records["turn"][0] = engine.turn
    records["hand_start"][0] = engine.hand_start_turn
    records["terminated"][0], records["truncated"][0] = engine.terminated, engine.truncated
    for p in engine.winners:
        rec["winners"][p] = 1
    fill_memory(engine, rec, KINDS, n)
    rec["legal"][np.asarray(engine.legal_actions(), np.int64)] = 1
    records["mti"][0] = seed(records["mt"][0], mt_value)
