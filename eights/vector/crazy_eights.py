"""Crazy Eights, compiled: many tables in one record array, advanced by numba.

The same rules as :class:`eights.engines.crazy_eights.CrazyEightsGame`, on flat
arrays: each table is one record of :func:`state_dtype` (hands as copies per
card, the stock and the discard pile as card arrays with their lengths, the
one pending decision as ``frame``/``frame_seat``/``frame_card``, the public
memory of the ``*_v2`` observation). Randomness is the Python engine's own
(:mod:`eights.vector.mt`), so a table dealt from a game seed plays the game
``CrazyEightsGame(seed=game_seed)`` plays, decision for decision; the
differential tests (``tests/vector/test_crazy_eights.py``) hold them to it:
legal actions, observations, rewards and the end of every game.

What the Python engine declares is read, not copied: the card points
(``points_by_rank``), the attack ranks and action ids come from the engine
class, and every observation offset from the env version's encoder
(:class:`Tables` builds them once per config). Only the rules' control flow
is written again here, one small function per frame kind, as the engine has
one ``*_legal``/``*_apply`` pair per frame.

Frame kinds: 0 ``turn``, 1 ``suit``, 2 ``after_draw``; -1 once nothing is
pending (the game is over).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from .kernels import COUNT_TABLE, ahead, best_suit, count_tables, scaled, score_returns
from .mt import randbelow, seed, shuffle
from .records import fill_pile_record

TURN, SUIT, AFTER_DRAW, NONE = 0, 1, 2, -1
#: the engine's frame kinds in :data:`TURN`... order
FRAMES = ("turn", "suit", "after_draw")
PLAY_SUIT0, DRAW, PASS = 52, 56, 57
NUM_ACTIONS = 58
CARDS = 52

# params: the config as integers (index -> option)
(P_PLAYERS, P_DECKS, P_HAND, P_MATCH, P_SCORE_REWARD, P_MAX_TURNS, P_TARGET, P_KING,
 P_KEEP) = range(9)
NUM_PARAMS = 9

# scales: the observation's float numbers, then its card-count tables
S_TOTAL, S_TARGET, S_HAND_TABLE = range(3)
S_COUNT_TABLE = S_HAND_TABLE + COUNT_TABLE

# offsets: the observation's features, in the v2 layout's order
O_HAND, O_TOP, O_SUIT, O_PHASE, O_DRAWN, O_DIRECTION, O_TO_ACT, O_HAND_SIZES, O_STOCK, \
    O_DISCARDS, O_SCORES, O_DREW_SUIT, O_DREW_RANK, O_PLAYED, O_NAMED, O_DRAWN_SINCE, \
    O_UNSEEN = range(17)
#: the v2 features, in :data:`O_HAND`... order (the encoder's feature names)
FEATURES = ("hand", "top", "suit", "phase", "drawn", "direction", "to_act", "hand_sizes",
            "stock", "discards", "scores", "drew_suit", "drew_rank", "played", "named",
            "drawn_since", "unseen")


#: the largest table the record holds: every config shares one record type, so numba
#: compiles the core once, not once per (players, decks)
MAX_PLAYERS, MAX_DECKS = 8, 4


def state_dtype() -> np.dtype:
    """One table's record: every field the rules and the v2 observation read, sized for
    the largest table (:data:`MAX_PLAYERS`, :data:`MAX_DECKS`; a smaller one leaves the
    rest unused)."""
    n, size = MAX_PLAYERS, CARDS * MAX_DECKS
    return np.dtype([
        ("mt", np.uint32, 624), ("mti", np.int64), ("seeder", np.uint64),
        ("game_seed", np.uint64),
        ("hands", np.uint8, n * CARDS), ("hand_len", np.int16, n),
        ("stock", np.int8, size), ("stock_len", np.int16),
        ("pile", np.int8, size), ("pile_len", np.int16), ("pile_counts", np.uint8, CARDS),
        ("suit", np.int8), ("frame", np.int8), ("frame_seat", np.int8), ("frame_card", np.int8),
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
def _playable(t, c):
    rank = c % 13 + 1
    return rank == 8 or c // 13 == t.suit or rank == _top(t) % 13 + 1


@numba.njit(cache=True, inline="always")
def _can_draw(t):
    return t.stock_len > 0 or t.pile_len > 1


@numba.njit(cache=True, inline="always")
def _next_seat(t, prm, seat, steps):
    return ahead(seat, steps * t.direction, prm[P_PLAYERS])


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
    """The stock's top card into ``seat``'s hand (the stock rebuilt first if empty); -1 when
    nothing can be drawn."""
    if t.stock_len == 0:
        if t.pile_len <= 1:
            return -1
        _rebuild_stock(t)
    t.stock_len -= 1
    c = t.stock[t.stock_len]
    t.hands[seat * CARDS + c] += 1
    t.hand_len[seat] += 1
    t.drawn_since[seat] += 1
    return c


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
    t.first = first
    t.direction = 1
    t.stuck = 0
    t.drew_suit[:] = -1
    t.drew_rank[:] = -1
    t.frame, t.frame_seat, t.frame_card = TURN, first, -1
    t.played[:] = 0
    t.named[:] = 0
    t.drawn_since[:] = 0
    t.stock_len -= 1  # the starter
    c = t.stock[t.stock_len]
    t.pile[0] = c
    t.pile_len = 1
    t.pile_counts[c] = 1
    t.suit = c // 13


@numba.njit(cache=True)
def _end_hand(t, prm, points, winners, blocked):
    """Score the hand (a sole winner takes every other hand's points); end the game, or
    deal the match's next hand."""
    n = prm[P_PLAYERS]
    sole = -1
    count = 0
    for p in range(n):
        if winners[p]:
            count += 1
            sole = p
    if count == 1:
        gained = 0
        for p in range(n):
            if p != sole:
                gained += _hand_points(t, points, p)
        t.scores[sole] += gained
    if not prm[P_MATCH]:
        _finish(t, winners)
        return
    match_winners = np.zeros(n, np.bool_)
    decided = False
    for p in range(n):
        if t.scores[p] >= prm[P_TARGET]:
            match_winners[p] = True
            decided = True
    if decided:
        _finish(t, match_winners)
        return
    t.hand_number += 1
    _deal(t, prm, (t.first + 1) % n)


@numba.njit(cache=True)
def _pass(t, prm, points, seat, moved):
    n = prm[P_PLAYERS]
    t.stuck = 0 if moved else t.stuck + 1
    if t.stuck >= n:  # blocked: the lowest hands win
        best = 1 << 30
        for p in range(n):
            best = min(best, _hand_points(t, points, p))
        winners = np.zeros(n, np.bool_)
        for p in range(n):
            winners[p] = _hand_points(t, points, p) == best
        _end_hand(t, prm, points, winners, True)
        return
    t.frame, t.frame_seat = TURN, _next_seat(t, prm, seat, 1)


@numba.njit(cache=True)
def _play(t, prm, points, seat, c):
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
        _end_hand(t, prm, points, winners, False)
        return
    rank = c % 13 + 1
    t.frame_card = -1
    if rank == 8:
        t.frame, t.frame_seat = SUIT, seat
    elif rank == 11:  # Jack: a reverse, a skip with two players
        if n == 2:
            t.frame, t.frame_seat = TURN, seat
        else:
            t.direction = -t.direction
            t.frame, t.frame_seat = TURN, _next_seat(t, prm, seat, 1)
    elif rank == 12:  # Queen: the next player is skipped
        t.frame, t.frame_seat = TURN, _next_seat(t, prm, seat, 2)
    elif rank == 13:  # King: the next player draws and is skipped
        victim = _next_seat(t, prm, seat, 1)
        for _ in range(prm[P_KING]):
            if _draw_one(t, victim) < 0:
                break
        t.frame, t.frame_seat = TURN, _next_seat(t, prm, seat, 2)
    else:
        t.frame, t.frame_seat = TURN, _next_seat(t, prm, seat, 1)


# ---------------------------------------------------------------- frames
@numba.njit(cache=True)
def legal_actions(t, prm, out):
    """Write the pending decision's legal action ids into ``out`` (ascending, as the
    engine lists them: card plays, then draw or pass); return how many."""
    k = 0
    frame = t.frame
    if frame == TURN:
        hands = t.hands
        base = t.frame_seat * CARDS
        top_rank, suit = _top(t) % 13, t.suit
        c = 0
        for s in range(4):  # suit by rank, as the ids run: no division per card
            for r in range(13):
                if hands[base + c] and (r == 7 or s == suit or r == top_rank):
                    out[k] = c
                    k += 1
                c += 1
        if _can_draw(t):
            out[k] = DRAW
            k += 1
        elif k == 0:
            out[k] = PASS
            k += 1
    elif frame == SUIT:
        for s in range(4):
            out[k] = PLAY_SUIT0 + s
            k += 1
    elif frame == AFTER_DRAW:
        drawn = t.frame_card
        if not _playable(t, drawn):
            out[0] = PASS
            k = 1
        else:
            out[0] = drawn
            k = 1
            if prm[P_KEEP]:
                out[1] = PASS
                k = 2
    return k


@numba.njit(cache=True)
def _apply(t, prm, points, a):
    frame, seat = t.frame, t.frame_seat
    t.frame = NONE
    if frame == TURN:
        if a == DRAW:
            t.stuck = 0
            t.drew_suit[seat] = t.suit
            t.drew_rank[seat] = _top(t) % 13 + 1
            c = _draw_one(t, seat)
            t.frame, t.frame_seat, t.frame_card = AFTER_DRAW, seat, c
        elif a == PASS:
            _pass(t, prm, points, seat, False)
        else:
            _play(t, prm, points, seat, a)
    elif frame == SUIT:
        t.suit = a - PLAY_SUIT0
        t.named[seat * 4 + a - PLAY_SUIT0] += 1
        t.frame, t.frame_seat = TURN, _next_seat(t, prm, seat, 1)
    else:
        if a == PASS:
            _pass(t, prm, points, seat, True)
        else:
            _play(t, prm, points, seat, a)


@numba.njit(cache=True)
def _settle(t, prm, points, buf):
    """Apply forced moves (one legal action) until a real decision or the end; enforce the
    turn limit; set ``current`` (-1 once over)."""
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
    """Start the game ``CrazyEightsGame(seed=game_seed)`` starts: the first player drawn,
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
    """Each seat's reward at the end: +1 winners, -1 the others (or points about the table's
    mean / 100 with the score reward); 0 for all when not over or truncated."""
    score_returns(t, prm[P_PLAYERS], prm[P_SCORE_REWARD], 1.0, out)


# ---------------------------------------------------------------- the observation
@numba.njit(cache=True)
def observe(t, prm, offs, scales, seat, out):
    """Write ``seat``'s v2 observation into ``out`` (zeroed here), feature for feature as
    the Python encoder writes it. ``scales``: 1/total cards, 1/target score, then the
    card-count tables of :func:`~eights.vector.kernels.count_tables`."""
    out[:] = 0.0
    n = prm[P_PLAYERS]
    inv_total, inv_target = scales[S_TOTAL], scales[S_TARGET]
    hands, pile_counts, played = t.hands, t.pile_counts, t.played
    base = seat * CARDS
    off = offs[O_HAND]
    for c in range(CARDS):
        out[off + c] = scales[S_HAND_TABLE + hands[base + c]]
    if t.pile_len:
        out[offs[O_TOP] + t.pile[t.pile_len - 1]] = 1.0
    suit = t.suit
    if 0 <= suit < 4:
        out[offs[O_SUIT] + suit] = 1.0
    frame, current = t.frame, t.current
    out[offs[O_PHASE] + (frame if frame >= 0 else TURN)] = 1.0
    if seat == current and frame == AFTER_DRAW and t.frame_card >= 0:
        out[offs[O_DRAWN] + t.frame_card] = 1.0
    if t.direction == 1:
        out[offs[O_DIRECTION]] = 1.0
    if current >= 0:
        out[offs[O_TO_ACT] + ahead(current, n - seat, n)] = 1.0
    hand_len = t.hand_len
    for k in range(1, n):
        q = ahead(seat, k, n)
        if hand_len[q]:
            out[offs[O_HAND_SIZES] + k - 1] = scaled(hand_len[q], inv_total)
    if t.stock_len:
        out[offs[O_STOCK]] = scaled(t.stock_len, inv_total)
    decks = prm[P_DECKS]
    discards, unseen = offs[O_DISCARDS], offs[O_UNSEEN]
    for c in range(CARDS):  # branch-free: a zero count writes the 0 already there
        on_pile = pile_counts[c]
        out[discards + c] = scales[S_COUNT_TABLE + on_pile]
        out[unseen + c] = scales[S_COUNT_TABLE + decks - on_pile - hands[base + c]]
    scores = t.scores
    for k in range(n):
        x = scores[ahead(seat, k, n)]
        if x:
            out[offs[O_SCORES] + k] = scaled(x, inv_target)
    drew_suit, drew_rank, named, drawn_since = t.drew_suit, t.drew_rank, t.named, t.drawn_since
    for k in range(1, n):
        q = ahead(seat, k, n)
        s = drew_suit[q]
        if 0 <= s < 4:
            out[offs[O_DREW_SUIT] + 4 * (k - 1) + s] = 1.0
        r = drew_rank[q]
        if 1 <= r < 14:
            out[offs[O_DREW_RANK] + 13 * (k - 1) + r - 1] = 1.0
        at, qbase = offs[O_PLAYED] + CARDS * (k - 1), q * CARDS
        for c in range(CARDS):
            out[at + c] = scales[S_COUNT_TABLE + played[qbase + c]]
        for s in range(4):
            out[offs[O_NAMED] + 4 * (k - 1) + s] = scaled(named[q * 4 + s], 0.25)
        if drawn_since[q]:
            out[offs[O_DRAWN_SINCE] + k - 1] = scaled(drawn_since[q], 0.1)


# ---------------------------------------------------------------- the heuristic
@numba.njit(cache=True)
def heuristic_action(t, prm, points, attack, buf):
    """What :class:`~eights.agents.heuristic.PileHeuristic` plays for the seat to act
    (the same choice: card scores by ``play_score``, ties to the lower id; after an 8
    the suit held most, by ``best_suit``'s integer key)."""
    k = legal_actions(t, prm, buf)
    if k == 1:
        return buf[0]
    seat = t.current
    base = seat * CARDS
    if t.frame == SUIT:
        return PLAY_SUIT0 + best_suit(t, seat)
    n = prm[P_PLAYERS]
    nearest = 1 << 30
    for j in range(1, n):
        nearest = min(nearest, t.hand_len[(seat + j) % n])
    chosen, best_score, plays = -1, -1e18, 0
    for i in range(k):
        c = buf[i]
        if c >= CARDS:
            continue
        plays += 1
        rank = c % 13 + 1
        score = 0.0
        if rank == 8 and t.hand_len[seat] > 2:
            score += -40.0
        score += 0.5 * points[rank - 1]
        same_suit = -t.hands[base + c]  # the other cards of its suit (8s included)
        for x in range((c // 13) * 13, (c // 13) * 13 + 13):
            same_suit += t.hands[base + x]
        score += 3.0 * same_suit
        if attack[rank - 1]:
            score += attack[rank - 1] * (25.0 if nearest <= 2 else 2.0)
        if score > best_score:  # ascending ids: a tie keeps the lower one
            chosen, best_score = c, score
    if plays:
        return chosen
    for i in range(k):
        if buf[i] == DRAW:
            return DRAW
    return buf[0]


def constants(engine, config):
    """The engine's declarations the core reads: the card points by rank (the rules:
    scores, blocked hands) and the attack weights by rank (the heuristic)."""
    points = np.array(engine.points_by_rank, np.int64)
    attack = np.array([engine.attack_ranks.get(r, 0) for r in range(1, 14)], np.int64)
    return points, attack


def compile_config(engine, config, encoder):
    """The config as the core's integer parameters, the encoder's offsets in
    :data:`FEATURES` order, and the float scales the encoder uses (read from the
    declarations, so a layout change shows up here as a missing feature)."""
    missing = [f for f in FEATURES if f not in encoder.offsets]
    if missing:
        raise ValueError(f"crazy_eights core: the observation has no feature {missing}; the "
                         f"compiled core writes the v2 layout")
    params = np.zeros(NUM_PARAMS, np.int64)
    params[P_PLAYERS] = config.num_players
    params[P_DECKS] = config.num_decks
    params[P_HAND] = config.hand_size
    params[P_MATCH] = int(config.match)
    params[P_SCORE_REWARD] = int(config.reward == "score")
    params[P_MAX_TURNS] = config.max_turns
    params[P_TARGET] = config.target_score
    params[P_KING] = config.king_draw
    params[P_KEEP] = int(config.may_keep_drawn_card)
    offsets = np.array([encoder.offsets[f] for f in FEATURES], np.int64)
    scales = np.concatenate([[1.0 / (52 * config.num_decks), 1.0 / config.target_score],
                             count_tables(config.num_decks)])
    return params, offsets, scales


def record_from_engine(engine: Any, records: np.ndarray, mt_value: int) -> None:
    """Write a Python ``CrazyEightsGame``'s position into ``records[0]`` (its reshuffles
    drawn from a Mersenne Twister seeded ``mt_value``): the compiled search's start."""
    fill_pile_record(engine, records, mt_value)
    frame = engine.state.agenda[-1]
    records["frame"][0] = FRAMES.index(frame.kind)
    records["frame_seat"][0] = frame.seat
    records["frame_card"][0] = frame.args[0] if frame.kind == "after_draw" else -1
