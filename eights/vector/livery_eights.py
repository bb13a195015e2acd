"""Livery Eights, compiled: many tables in one record array, advanced by numba.

The same rules as :class:`eights.engines.livery_eights.LiveryEightsGame`, on
flat arrays, in the design of :mod:`eights.vector.crazy_eights`: each table
is one record of :func:`state_dtype` (hands as copies per card, the stock and
the discard pile as card arrays with their lengths, the one pending decision
as ``frame``/``frame_seat`` and its arguments, the pending pick-up of stacked
2s, the public memory of the ``*_v2`` observation). Randomness is the Python
engine's own (:mod:`eights.vector.mt`), drawn in the engine's order (the first
player, the deal's shuffle, every reshuffle of an empty stock, each match
game's new shuffle), so a table dealt from a game seed plays the game
``LiveryEightsGame(seed=game_seed)`` plays, decision for decision; the
differential tests (``tests/vector/test_livery_eights.py``,
``scripts/vector_differential.py --variant livery_eights``) hold them to it.

What the Python engine declares is read, not copied: the card points and
the heuristic's attack ranks come from the engine class (:func:`constants`),
the action ids from its action space, and every observation offset and scale
from the env version's encoder and the declared view fields
(:func:`compile_config`). Only the rules' control flow is written again here,
one small function per frame kind, as the engine has one
``*_legal``/``*_apply`` pair per frame.

Frame kinds: 0 ``turn``, 1 ``suit``, 2 ``last_card``, 3 ``challenge`` (the
order of the observation's phase one-hot); -1 once nothing is pending (the
game is over).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from . import declared
from .kernels import COUNT_TABLE, best_suit, count_tables, scaled, score_returns
from .mt import randbelow, seed, shuffle
from .records import fill_pile_record

TURN, SUIT, LAST_CARD, CHALLENGE, NONE = 0, 1, 2, 3, -1
#: the engine's frame kinds in :data:`TURN`... order (checked against its phases)
FRAMES = ("turn", "suit", "last_card", "challenge")
PLAY_SUIT0, DRAW, PASS, CALL, CHALLENGE_ACTION = 52, 56, 57, 58, 59
NUM_ACTIONS = 60
CARDS = 52
ACE, TWO, EIGHT, QUEEN = 1, 2, 8, 12
#: cards a 2 adds to the pending pick-up (the engine's ``TWO_PICK_UP``, checked)
TWO_PICK_UP = 2

# params: the config as integers (index -> option)
(P_PLAYERS, P_DECKS, P_HAND, P_MATCH, P_SCORE_REWARD, P_MAX_TURNS, P_MATCH_GAMES,
 P_RESHUFFLE, P_MUST_STACK, P_PENALTY) = range(10)
NUM_PARAMS = 10

# offsets: the observation's features, in the v2 layout's order
O_HAND, O_TOP, O_SUIT, O_PHASE, O_PENDING, O_OFFENDER, O_DIRECTION, O_TO_ACT, O_HAND_SIZES, \
    O_STOCK, O_DISCARDS, O_SCORES, O_DREW_SUIT, O_DREW_RANK, O_PLAYED, O_NAMED, \
    O_DRAWN_SINCE, O_UNSEEN = range(18)
#: the v2 features, in :data:`O_HAND`... order (the encoder's feature names)
FEATURES = ("hand", "top", "suit", "phase", "pending", "offender", "direction", "to_act",
            "hand_sizes", "stock", "discards", "scores", "drew_suit", "drew_rank", "played",
            "named", "drawn_since", "unseen")

# scales: the encodings' factors, each read from the declared field of that feature
(S_SIZES, S_SCORES, S_PENDING, S_NAMED, S_DRAWN_SINCE, S_HAND_TABLE) = range(6)
#: the card-count tables (:func:`~eights.vector.kernels.count_tables`) after the factors
S_COUNT_TABLE = S_HAND_TABLE + COUNT_TABLE

#: the largest table the record holds: every config shares one record type, so numba
#: compiles the core once, not once per (players, decks)
MAX_PLAYERS, MAX_DECKS = 8, 4


def state_dtype() -> np.dtype:
    """One table's record: every field the rules and the v2 observation read, sized for
    the largest table (:data:`MAX_PLAYERS`, :data:`MAX_DECKS`; a smaller one leaves the
    rest unused). ``frame_next`` is who plays once a call or a challenge is settled,
    ``frame_offender`` the silent seat a ``challenge`` frame asks about."""
    n, size = MAX_PLAYERS, CARDS * MAX_DECKS
    return np.dtype([
        ("mt", np.uint32, 624), ("mti", np.int64), ("seeder", np.uint64),
        ("game_seed", np.uint64),
        ("hands", np.uint8, n * CARDS), ("hand_len", np.int16, n),
        ("stock", np.int8, size), ("stock_len", np.int16),
        ("pile", np.int8, size), ("pile_len", np.int16), ("pile_counts", np.uint8, CARDS),
        ("suit", np.int8), ("pending", np.int16),
        ("frame", np.int8), ("frame_seat", np.int8), ("frame_next", np.int8),
        ("frame_offender", np.int8),
        ("current", np.int8), ("direction", np.int8), ("stuck", np.int16), ("first", np.int8),
        ("hand_number", np.int32), ("scores", np.int32, n),
        ("drew_suit", np.int8, n), ("drew_rank", np.int8, n),
        ("turn", np.int32), ("hand_start", np.int32),
        ("terminated", np.bool_), ("truncated", np.bool_),
        ("winners", np.uint8, n),
        ("played", np.uint8, n * CARDS), ("named", np.int32, n * 4),
        ("drawn_since", np.int32, n),
        ("legal", np.uint8, NUM_ACTIONS),
    ])


# ---------------------------------------------------------------- moves
@numba.njit(cache=True, inline="always")
def _top(t):
    return t.pile[t.pile_len - 1]


@numba.njit(cache=True, inline="always")
def _next_seat(t, prm, seat, steps):
    return (seat + steps * t.direction) % prm[P_PLAYERS]


@numba.njit(cache=True, inline="always")
def _can_rebuild(t, prm):
    """Only the option rebuilds an empty stock (the rules make it a missed turn)."""
    return prm[P_RESHUFFLE] != 0 and t.pile_len > 1


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
def _draw_one(t, prm, seat):
    """The stock's top card into ``seat``'s hand (the stock rebuilt first where the option
    allows); -1 when nothing can be drawn."""
    if t.stock_len == 0:
        if not _can_rebuild(t, prm):
            return -1
        _rebuild_stock(t)
    t.stock_len -= 1
    c = t.stock[t.stock_len]
    t.hands[seat * CARDS + c] += 1
    t.hand_len[seat] += 1
    t.drawn_since[seat] += 1
    return c


@numba.njit(cache=True)
def _draw_many(t, prm, seat, count):
    """Up to ``count`` cards, stopping at the first that does not come (as the engine's
    ``_draw_many``)."""
    for _ in range(count):
        if _draw_one(t, prm, seat) < 0:
            break


@numba.njit(cache=True)
def _hand_points(t, points, seat):
    total = 0
    for c in range(CARDS):
        total += t.hands[seat * CARDS + c] * points[c % 13]
    return total


@numba.njit(cache=True)
def _finish(t, winners):
    t.terminated = True
    for p in range(winners.shape[0]):
        t.winners[p] = 1 if winners[p] else 0
    t.frame = NONE


@numba.njit(cache=True)
def _turn_up_starter(t, prm):
    """The engine's starter: an 8 on top goes under the stock (at most ``stock - 1`` times,
    so a stock of 8s keeps its last), the card turned up; an Ace, Queen or 2 acts on the
    first player as if the dealer had played it."""
    c = t.stock[t.stock_len - 1]
    for _ in range(t.stock_len - 1):
        if c % 13 + 1 != EIGHT:
            break
        for i in range(t.stock_len - 1, 0, -1):  # the top card to the bottom
            t.stock[i] = t.stock[i - 1]
        t.stock[0] = c
        c = t.stock[t.stock_len - 1]
    t.stock_len -= 1
    t.pile[0] = c
    t.pile_len = 1
    t.pile_counts[c] = 1
    t.suit = c // 13
    rank = c % 13 + 1
    if rank == ACE:
        t.frame_seat = _next_seat(t, prm, t.first, 1)
    elif rank == QUEEN:
        t.direction = -1
        t.frame_seat = _next_seat(t, prm, t.first, 2)
    elif rank == TWO:
        t.pending = TWO_PICK_UP


@numba.njit(cache=True)
def _deal(t, prm, first):
    """Deal a hand ``first`` starts: the deck shuffled (the stock array as the deck), the
    hands one card at a time from ``first``, the rest the stock (its top last), the starter
    turned up; the hand's memory forgotten."""
    t.hand_start = t.turn  # the turn limit counts this hand's actions
    n, size = prm[P_PLAYERS], CARDS * prm[P_DECKS]
    for i in range(size):
        t.stock[i] = i % CARDS
    t.mti = shuffle(t.mt, t.mti, t.stock, size)
    t.hands[:] = 0
    t.hand_len[:] = 0
    pos = 0
    for _ in range(prm[P_HAND]):
        for k in range(n):
            seat = (first + k) % n
            t.hands[seat * CARDS + t.stock[pos]] += 1
            t.hand_len[seat] += 1
            pos += 1
    rest = size - pos
    for i in range(rest):  # the stock is deck[pos:] reversed: its top is the next card
        t.pile[i] = t.stock[size - 1 - i]
    for i in range(rest):
        t.stock[i] = t.pile[i]
    t.stock_len = rest
    t.pile_len = 0
    t.pile_counts[:] = 0
    t.suit = -1
    t.pending = 0
    t.first = first
    t.direction = 1
    t.stuck = 0
    t.drew_suit[:] = -1
    t.drew_rank[:] = -1
    t.frame, t.frame_seat, t.frame_next, t.frame_offender = TURN, first, -1, -1
    t.played[:] = 0
    t.named[:] = 0
    t.drawn_since[:] = 0
    _turn_up_starter(t, prm)


@numba.njit(cache=True)
def _end_hand(t, prm, points, winners):
    """Everyone scores the points left in hand (the one who went out holds none); end the
    game, or the match after ``match_games`` hands (the lowest totals win), or deal the
    match's next hand."""
    n = prm[P_PLAYERS]
    for p in range(n):
        t.scores[p] += _hand_points(t, points, p)
    if not prm[P_MATCH]:
        _finish(t, winners)
        return
    if t.hand_number + 1 >= prm[P_MATCH_GAMES]:
        best = t.scores[0]
        for p in range(1, n):
            best = min(best, t.scores[p])
        match_winners = np.zeros(n, np.bool_)
        for p in range(n):
            match_winners[p] = t.scores[p] == best
        _finish(t, match_winners)
        return
    t.hand_number += 1
    _deal(t, prm, (t.first + 1) % n)


@numba.njit(cache=True)
def _pass_turn(t, prm, points, seat):
    """A missed turn (empty stock, nothing playable): blocked once every seat in a row has
    missed one, and then the lowest hands win."""
    n = prm[P_PLAYERS]
    t.stuck += 1
    if t.stuck >= n:
        best = 1 << 30
        for p in range(n):
            best = min(best, _hand_points(t, points, p))
        winners = np.zeros(n, np.bool_)
        for p in range(n):
            winners[p] = _hand_points(t, points, p) == best
        _end_hand(t, prm, points, winners)
        return
    t.frame, t.frame_seat = TURN, _next_seat(t, prm, seat, 1)


@numba.njit(cache=True)
def _end_play(t, seat, nxt):
    """``nxt`` plays, unless ``seat`` is left one card: then it says "last card" or not."""
    if t.hand_len[seat] == 1:
        t.frame, t.frame_seat, t.frame_next = LAST_CARD, seat, nxt
    else:
        t.frame, t.frame_seat = TURN, nxt


@numba.njit(cache=True)
def _play(t, prm, points, seat, c):
    """Discard ``c``; going out ends the hand before any trick or call."""
    n = prm[P_PLAYERS]
    t.hands[seat * CARDS + c] -= 1
    t.hand_len[seat] -= 1
    t.pile[t.pile_len] = c
    t.pile_len += 1
    t.pile_counts[c] += 1
    t.suit = c // 13
    t.stuck = 0
    t.drew_suit[seat] = -1
    t.drew_rank[seat] = -1
    if t.played[seat * CARDS + c] < 255:
        t.played[seat * CARDS + c] += 1
    t.drawn_since[seat] = 0
    if t.hand_len[seat] == 0:
        winners = np.zeros(n, np.bool_)
        winners[seat] = True
        _end_hand(t, prm, points, winners)
        return
    rank = c % 13 + 1
    if rank == EIGHT:
        t.frame, t.frame_seat = SUIT, seat
        return
    if rank == ACE:  # the next seat misses its turn
        nxt = _next_seat(t, prm, seat, 2)
    elif rank == QUEEN:  # the new direction's neighbour plays next
        t.direction = -t.direction
        nxt = _next_seat(t, prm, seat, 1)
    elif rank == TWO:
        t.pending += TWO_PICK_UP
        nxt = _next_seat(t, prm, seat, 1)
    else:
        nxt = _next_seat(t, prm, seat, 1)
    _end_play(t, seat, nxt)


@numba.njit(cache=True)
def _draw_turn(t, prm, seat):
    """Pick up the pending 2s (as many as come), or one card noted as a draw; the turn ends
    either way, and counts as a move for the blocked table."""
    t.stuck = 0
    if t.pending:
        _draw_many(t, prm, seat, t.pending)
        t.pending = 0
    else:
        t.drew_suit[seat] = t.suit
        t.drew_rank[seat] = _top(t) % 13 + 1
        _draw_one(t, prm, seat)
    t.frame, t.frame_seat = TURN, _next_seat(t, prm, seat, 1)


# ---------------------------------------------------------------- frames
@numba.njit(cache=True)
def _turn_legal(t, prm, out):
    base = t.frame_seat * CARDS
    k = 0
    if t.pending:  # only a 2 goes on a pending 2; draw takes the whole pick-up instead
        for s in range(4):
            c = s * 13 + TWO - 1
            if t.hands[base + c]:
                out[k] = c
                k += 1
        if k == 0 or not prm[P_MUST_STACK]:
            out[k] = DRAW
            k += 1
        return k
    top_rank, suit = _top(t) % 13 + 1, t.suit
    for c in range(CARDS):
        if t.hands[base + c]:
            rank = c % 13 + 1
            if rank in (EIGHT, top_rank) or c // 13 == suit:
                out[k] = c
                k += 1
    if k == 0:  # must play if you can; else pick up one, or miss the turn
        out[0] = DRAW if t.stock_len > 0 or _can_rebuild(t, prm) else PASS
        k = 1
    return k


@numba.njit(cache=True)
def legal_actions(t, prm, out):
    """Write the pending decision's legal action ids into ``out`` (ascending, as the
    engine lists them); return how many."""
    frame = t.frame
    if frame == TURN:
        return _turn_legal(t, prm, out)
    if frame == SUIT:
        for s in range(4):
            out[s] = PLAY_SUIT0 + s
        return 4
    if frame == LAST_CARD:
        out[0], out[1] = PASS, CALL
        return 2
    if frame == CHALLENGE:
        out[0], out[1] = PASS, CHALLENGE_ACTION
        return 2
    return 0


@numba.njit(cache=True)
def _challenge_apply(t, prm, seat, a):
    """A challenge makes the offender pick up the penalty; a pass asks the next seat, until
    the chance comes round to the offender and play goes on."""
    offender, nxt = t.frame_offender, t.frame_next
    if a == CHALLENGE_ACTION:
        _draw_many(t, prm, offender, prm[P_PENALTY])
        t.frame, t.frame_seat = TURN, nxt
        return
    following = _next_seat(t, prm, seat, 1)
    if following == offender:
        t.frame, t.frame_seat = TURN, nxt
    else:
        t.frame, t.frame_seat = CHALLENGE, following


@numba.njit(cache=True)
def _apply(t, prm, points, a):
    frame, seat = t.frame, t.frame_seat
    t.frame = NONE
    if frame == TURN:
        if a == DRAW:
            _draw_turn(t, prm, seat)
        elif a == PASS:
            _pass_turn(t, prm, points, seat)
        else:
            _play(t, prm, points, seat, a)
    elif frame == SUIT:
        t.suit = a - PLAY_SUIT0
        t.named[seat * 4 + a - PLAY_SUIT0] += 1
        _end_play(t, seat, _next_seat(t, prm, seat, 1))
    elif frame == LAST_CARD:
        if a == CALL:
            t.frame, t.frame_seat = TURN, t.frame_next
        else:  # silent: the others may challenge, the next seat first
            t.frame, t.frame_seat = CHALLENGE, _next_seat(t, prm, seat, 1)
            t.frame_offender = seat
    else:
        _challenge_apply(t, prm, seat, a)


@numba.njit(cache=True)
def _settle(t, prm, points, buf):
    """Apply forced moves (one legal action) until a real decision or the end; enforce the
    turn limit; set ``current`` (-1 once over) and the legal mask."""
    while not t.terminated:
        if t.turn - t.hand_start >= prm[P_MAX_TURNS]:  # (this hand's actions)
            t.truncated = True
            break
        k = legal_actions(t, prm, buf)
        if k != 1:
            t.current = t.frame_seat
            t.legal[:] = 0
            for i in range(k):
                t.legal[buf[i]] = 1
            return
        t.turn += 1
        _apply(t, prm, points, buf[0])
    t.current = -1
    t.legal[:] = 0


@numba.njit(cache=True)
def new_game(t, prm, points, game_seed):
    """Start the game ``LiveryEightsGame(seed=game_seed)`` starts: the first player drawn,
    the deck shuffled and dealt, forced moves applied."""
    t.game_seed = game_seed
    t.mti = seed(t.mt, game_seed)
    first, t.mti = randbelow(t.mt, t.mti, prm[P_PLAYERS])
    t.scores[:] = 0
    t.hand_number = 0
    t.turn = 0
    t.terminated = False
    t.truncated = False
    t.winners[:] = 0
    _deal(t, prm, first)
    buf = np.empty(NUM_ACTIONS, np.int64)
    _settle(t, prm, points, buf)


@numba.njit(cache=True)
def step(t, prm, points, a, buf):
    """The player to act plays action ``a`` (legal: the caller checks the mask)."""
    t.turn += 1
    _apply(t, prm, points, a)
    _settle(t, prm, points, buf)


@numba.njit(cache=True)
def returns(t, prm, out):
    """Each seat's reward at the end: +1 winners, -1 the others (or, with the score reward,
    minus each total's distance from the table's mean / 100: fewer points is better); 0
    for all when not over or truncated."""
    score_returns(t, prm[P_PLAYERS], prm[P_SCORE_REWARD], -1.0, out)


# ---------------------------------------------------------------- the observation
@numba.njit(cache=True)
def _observe_table(t, prm, offs, scales, seat, out):
    """The features of the table as it stands (the v1 part): hand, top, suit, phase, the
    pending pick-up, the offender, direction, who acts, sizes, discards, scores, draws."""
    n = prm[P_PLAYERS]
    base = seat * CARDS
    off = offs[O_HAND]
    for c in range(CARDS):
        out[off + c] = scales[S_HAND_TABLE + t.hands[base + c]]
    if t.pile_len:
        out[offs[O_TOP] + t.pile[t.pile_len - 1]] = 1.0
    if 0 <= t.suit < 4:
        out[offs[O_SUIT] + t.suit] = 1.0
    frame, current = t.frame, t.current
    out[offs[O_PHASE] + (frame if frame >= 0 else TURN)] = 1.0
    if t.pending:
        out[offs[O_PENDING]] = scaled(t.pending, scales[S_PENDING])
    if frame == CHALLENGE:
        k = (t.frame_offender - seat) % n - 1
        if k >= 0:
            out[offs[O_OFFENDER] + k] = 1.0
    if t.direction == 1:
        out[offs[O_DIRECTION]] = 1.0
    if current >= 0:
        out[offs[O_TO_ACT] + (current - seat) % n] = 1.0
    inv_sizes = scales[S_SIZES]
    for k in range(1, n):
        q = (seat + k) % n
        if t.hand_len[q]:
            out[offs[O_HAND_SIZES] + k - 1] = scaled(t.hand_len[q], inv_sizes)
    if t.stock_len:
        out[offs[O_STOCK]] = scaled(t.stock_len, inv_sizes)
    for k in range(n):
        x = t.scores[(seat + k) % n]
        if x:
            out[offs[O_SCORES] + k] = scaled(x, scales[S_SCORES])
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
    """The card counts: the discards, what each other seat played, and the unseen cards."""
    n, decks = prm[P_PLAYERS], prm[P_DECKS]
    base = seat * CARDS
    discards, unseen = offs[O_DISCARDS], offs[O_UNSEEN]
    for c in range(CARDS):  # branch-free: a zero count writes the 0 already there
        on_pile = t.pile_counts[c]
        out[discards + c] = scales[S_COUNT_TABLE + on_pile]
        out[unseen + c] = scales[S_COUNT_TABLE + decks - on_pile - t.hands[base + c]]
    for k in range(1, n):
        at, qbase = offs[O_PLAYED] + CARDS * (k - 1), ((seat + k) % n) * CARDS
        for c in range(CARDS):
            out[at + c] = scales[S_COUNT_TABLE + t.played[qbase + c]]


@numba.njit(cache=True)
def _observe_memory(t, prm, offs, scales, seat, out):
    """The rest of the public history: suits named and cards drawn since the last play."""
    n = prm[P_PLAYERS]
    for k in range(1, n):
        q = (seat + k) % n
        for s in range(4):
            out[offs[O_NAMED] + 4 * (k - 1) + s] = scaled(t.named[q * 4 + s], scales[S_NAMED])
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
def _play_score(t, points, attack, seat, c, nearest):
    """:func:`eights.agents.heuristic.play_score`: keep 8s, shed points, play from the long
    suit, save the attack cards for an opponent close to going out."""
    base = seat * CARDS
    rank = c % 13 + 1
    score = 0.0
    if rank == EIGHT and t.hand_len[seat] > 2:
        score += -40.0
    score += 0.5 * points[rank - 1]
    same_suit = -t.hands[base + c]  # the other cards of its suit (every copy of c aside)
    for x in range((c // 13) * 13, (c // 13) * 13 + 13):
        same_suit += t.hands[base + x]
    score += 3.0 * same_suit
    if attack[rank - 1]:
        score += attack[rank - 1] * (25.0 if nearest <= 2 else 2.0)
    return score


@numba.njit(cache=True)
def heuristic_action(t, prm, points, attack, buf):
    """What :class:`~eights.agents.heuristic.PileHeuristic` plays for the seat to act: "last
    card" and "challenge" whenever legal, the suit held most after an 8, else the card of
    the highest ``play_score`` (ties to the lower id), else draw."""
    k = legal_actions(t, prm, buf)
    if k == 1:
        return buf[0]
    for wanted in (CALL, CHALLENGE_ACTION):
        for i in range(k):
            if buf[i] == wanted:
                return wanted
    seat = t.current
    if t.frame == SUIT:
        return PLAY_SUIT0 + best_suit(t, seat)
    n = prm[P_PLAYERS]
    nearest = 1 << 30
    for j in range(1, n):
        nearest = min(nearest, t.hand_len[(seat + j) % n])
    chosen, best_score = -1, -1e18
    for i in range(k):
        c = buf[i]
        if c < CARDS:
            score = _play_score(t, points, attack, seat, c, nearest)
            if score > best_score:  # ascending ids: a tie keeps the lower one
                chosen, best_score = c, score
    if chosen >= 0:
        return chosen
    for i in range(k):
        if buf[i] == DRAW:
            return DRAW
    return buf[0]


# ---------------------------------------------------------------- from the declarations
def _check_engine(engine: Any) -> None:
    """The ids, frames and tricks written above are the engine's (a change there fails
    here, not as a silent difference)."""
    from ..engines import livery_eights as rules

    actions = engine.actions
    ids = (actions["suit"].id(0), engine.DRAW, engine.PASS, actions["last_card"].id(),
           actions["challenge"].id(), len(actions))
    if ids != (PLAY_SUIT0, DRAW, PASS, CALL, CHALLENGE_ACTION, NUM_ACTIONS) \
            or tuple(engine.phases) != FRAMES or rules.TWO_PICK_UP != TWO_PICK_UP \
            or engine.wild_rank != EIGHT:
        raise ValueError("livery_eights core: the engine's action ids, frames or tricks "
                         "changed; the compiled core writes the old ones")


def constants(engine: Any, config: Any) -> tuple[np.ndarray, np.ndarray]:
    """The engine's declarations the core reads: the card points by rank (the rules:
    scores, blocked hands) and the attack weights by rank (the heuristic)."""
    points = np.array(engine.points_by_rank, np.int64)
    attack = np.array([engine.attack_ranks.get(r, 0) for r in range(1, 14)], np.int64)
    return points, attack


def _scales(engine: Any, config: Any) -> np.ndarray:
    """Each encoding's factor, read from the declared field of its feature as the encoder
    computes it (``1.0 / scale`` in float64; the card counts' factor in float32)."""
    from ..engines.encoding import CardCounts, CardList, PerSeat, Scaled

    expected = {"hand": CardList, "hand_sizes": PerSeat, "stock": Scaled, "scores": PerSeat,
                "discards": CardCounts, "unseen": CardCounts, "played": PerSeat,
                "pending": Scaled, "named": PerSeat, "drawn_since": PerSeat}
    fields, wrong = declared.encodings(engine, expected)
    sizes = declared.number(fields["hand_sizes"].each.scale, config) if not wrong else 0.0
    copies = declared.number(fields["discards"].copies, config) if not wrong else 0.0
    if wrong or sizes != declared.number(fields["stock"].scale, config) or any(
            declared.number(c, config) != copies
            for c in (fields["unseen"].copies, fields["played"].each.copies,
                      fields["hand"].copies)):
        raise ValueError(f"livery_eights core: the features are not encoded as the compiled "
                         f"core writes them (hand sizes and the stock scaled alike, every "
                         f"card count by the decks){f': {wrong}' if wrong else ''}")
    scales = np.zeros(S_HAND_TABLE, np.float64)
    scales[S_SIZES] = 1.0 / sizes
    scales[S_SCORES] = 1.0 / declared.number(fields["scores"].each.scale, config)
    scales[S_PENDING] = 1.0 / declared.number(fields["pending"].scale, config)
    scales[S_NAMED] = 1.0 / declared.number(fields["named"].each.scale, config)
    scales[S_DRAWN_SINCE] = 1.0 / declared.number(fields["drawn_since"].each.scale, config)
    return np.concatenate([scales, count_tables(copies)])


def compile_config(engine: Any, config: Any, encoder: Any
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The config as the core's integer parameters, the encoder's offsets in
    :data:`FEATURES` order, and the encodings' factors (read from the declarations, so a
    layout change shows up here as a missing feature)."""
    _check_engine(engine)
    missing = [f for f in FEATURES if f not in encoder.offsets]
    if missing:
        raise ValueError(f"livery_eights core: the observation has no feature {missing}; the "
                         f"compiled core writes the v2 layout")
    params = np.zeros(NUM_PARAMS, np.int64)
    params[P_PLAYERS] = config.num_players
    params[P_DECKS] = config.num_decks
    params[P_HAND] = config.hand_size
    params[P_MATCH] = int(config.match)
    params[P_SCORE_REWARD] = int(config.reward == "score")
    params[P_MAX_TURNS] = config.max_turns
    params[P_MATCH_GAMES] = config.match_games
    params[P_RESHUFFLE] = int(config.reshuffle_empty_stock)
    params[P_MUST_STACK] = int(config.must_stack_twos)
    params[P_PENALTY] = config.last_card_penalty
    offsets = np.array([encoder.offsets[f] for f in FEATURES], np.int64)
    return params, offsets, _scales(engine, config)


def record_from_engine(engine: Any, records: np.ndarray, mt_value: int) -> None:
    """Write a Python ``LiveryEightsGame``'s position into ``records[0]`` (its reshuffles
    drawn from a Mersenne Twister seeded ``mt_value``): the compiled search's start. A
    ``last_card`` frame carries who plays next, a ``challenge`` frame the silent seat too."""
    fill_pile_record(engine, records, mt_value)
    records["pending"][0] = engine.state.pending[0]
    frame = engine.state.agenda[-1]
    records["frame"][0] = FRAMES.index(frame.kind)
    records["frame_seat"][0] = frame.seat
    records["frame_next"][0] = records["frame_offender"][0] = -1
    if frame.kind == "last_card":
        records["frame_next"][0] = frame.args[0]
    elif frame.kind == "challenge":
        records["frame_offender"][0], records["frame_next"][0] = frame.args
