"""Crazier Eights, compiled: many tables in one record array, advanced by numba.

The same rules as :class:`eights.engines.crazier_eights.CrazierEightsGame`, on
flat arrays, in the design of :mod:`eights.vector.jokers_of_death`: each table
is one record of :func:`state_dtype` (hands as copies per seat and card id, the
draw pile, the discard pile, the event resolving and each seat's assets in play
as ordered card arrays with their lengths, the engine's agenda as a stack of
frames, the public memory of the ``*_v2`` observation with each seat's
``known`` cards). Randomness is the Python engine's own
(:mod:`eights.vector.mt`), drawn in the engine's order (the first player, each
game's shuffle, every reshuffle of the discard pile), so a table dealt from a
game seed plays the game ``CrazierEightsGame(seed=game_seed)`` plays, decision
for decision; the differential tests (``tests/vector/test_crazier_eights.py``,
``scripts/vector_differential.py --variant crazier_eights``) hold them to it.

**The cards are data.** A card set's compiled programs
(:mod:`eights.engines.crazier_cards`: flat steps, ``repeat`` unrolled, ``if``
and ``may`` as jumps) become one integer table, a row per card id
(:func:`constants`): its rank, colours, type, substitutions, what an event
needs to be played, and each trigger's steps as fixed-width rows of
:data:`OP_WIDTH` integers. The interpreter here (:func:`_run_resolve`) runs
those rows one frame at a time, as the engine's ``run_resolve`` runs the
tuples, so a user's card file plays compiled as ours does.

What the Python engine declares is read, not copied: the card rules from the
config's card set, the heuristic's card values from the agent's own
``card_value`` (:func:`constants`), the action ids and frame kinds checked
against the engine (:func:`_check_engine`), and every observation offset and
scale from the env version's encoder and the declared view fields
(:func:`compile_config`). Only the rules' control flow is written again here,
one small function per frame kind, as the engine has one
``*_legal``/``*_apply`` (or ``*_resolve``) per frame.

One difference of structure, none of behaviour: the engine deals a match's
next game from inside the handler that ended the last one and resolves the
new game's first frames there (a nested ``_run_agenda``); here the deal only
pushes the new game's ``turn`` and the agenda loop that called the handler
resolves it. The two agree whenever the handler does nothing after the game
ends, which holds for every step but a ``lose`` followed by more steps of the
same ability; :func:`compile_config` refuses such a card set in a match (the
Python tables play it).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from . import declared
from .cores import NotCompiled
from .kernels import (
    best_suit,  # noqa: F401 (the cores' contract: the search's playouts)
    count32,
    scaled,
    score_returns,
)
from .mt import randbelow, seed, shuffle
from .records import fill_memory

# frame kinds: the decisions in the order of the observation's phase one-hot, then the effects
(MAIN, NAME_COLOUR, TARGET, COLOUR, CHOOSE, ASK, ORDER,
 TURN, DRAW_PHASE, MAIN_PHASE, END_PHASE, NEXT_TURN, RUN, SETTLE) = range(14)
#: the engine's frame kinds in :data:`MAIN`... order (the decisions checked against its phases)
FRAMES = ("main", "name_colour", "target", "colour", "choose", "ask", "order",
          "turn", "draw_phase", "main_phase", "end_phase", "next_turn", "run", "settle")
DECISION_KINDS = 7
CARDS = 52
# action ids (checked against the engine's action space)
DISCARD0, PLAY0, END, COLOUR0, TARGET0, CHOOSE0, ORDER0, YES, NO = (
    0, 52, 104, 105, 109, 117, 169, 221, 222)
NUM_ACTIONS = 223
EIGHT = 8
BEGIN, DRAW, MAIN_P, END_P = range(4)  # the turn's phases (``s.phase``)
PLAY_T, BEGIN_TURN, END_TURN, OPPONENT_BEGIN_TURN = range(4)  # triggers
TRADE_WHO, TRADE_TAKE, TRADE_GIVE = 1, 2, 3

# the program's ops, each a row of OP_WIDTH ints: (op, a, b, c, d, e)
(OP_DRAW, OP_EXTRA, OP_CHOOSE_PLAYER, OP_CHOOSE_COLOUR, OP_DESTROY, OP_RESTORE, OP_TRADE,
 OP_LOOK, OP_REVEAL, OP_PLAY_FOUND, OP_LOSE, OP_TEST, OP_JUMP, OP_ASK) = range(1, 15)
OP_NAMES = {"draw": OP_DRAW, "discard_extra": OP_EXTRA, "choose_player": OP_CHOOSE_PLAYER,
            "choose_colour": OP_CHOOSE_COLOUR, "destroy": OP_DESTROY, "restore": OP_RESTORE,
            "trade": OP_TRADE, "look": OP_LOOK, "reveal": OP_REVEAL,
            "play_found": OP_PLAY_FOUND, "lose": OP_LOSE, "test": OP_TEST, "jump": OP_JUMP,
            "ask": OP_ASK}
OP_WIDTH = 6
WHO_CODES = {"you": 0, "chosen": 1, "each_opponent": 2, "each_player": 3, "turn_players": 4}
YOU, CHOSEN, EACH_OPPONENT, EACH_PLAYER, TURN_PLAYERS = range(5)
PLAYER_AMONG = {"opponents": 0, "any": 1}
AMONG_PLAYER_OPPONENTS = PLAYER_AMONG["opponents"]
CARD_AMONG = {"any": 0, "opponents": 1, "yours": 2}
AMONG_ANY, AMONG_OPPONENTS, AMONG_YOURS = range(3)
TEST_CODES = {"found_type": 0, "found_colour": 1, "hand_at_least": 2, "hand_at_most": 3}
FOUND_TYPE, FOUND_COLOUR, HAND_AT_LEAST, HAND_AT_MOST = range(4)
#: the most steps a trigger compiles to (the card files' own limit)
MAX_STEPS = 64

# the card table's columns (one row per card id)
(R_RANK, R_BITS, R_ASSET, R_SAVES, R_CHANGE_OPPONENT, R_CHANGE_ANY, R_NEED_RESTORE,
 R_NEED_DESTROY) = range(8)
R_NEED_DESTROY_COLUMNS = 3  # one per CARD_AMONG
R_LENGTH = R_NEED_DESTROY + R_NEED_DESTROY_COLUMNS  # four program lengths, one per trigger
R_PROGRAM = R_LENGTH + 4
RULE_COLUMNS = R_PROGRAM + 4 * MAX_STEPS * OP_WIDTH
# the heuristic's hints per card: its value, the value of playing it, whether its event grants
# extra discards, the hand size from which playing it can make its player lose (its own test)
H_VALUE, H_PLAY_VALUE, H_BOOSTS, H_UNSAFE_AT = range(4)

# params: the config as integers (index -> option)
P_PLAYERS, P_DECKS, P_HAND, P_TEAMS, P_GAMES, P_SCORE_REWARD, P_MAX_TURNS = range(7)
NUM_PARAMS = 7

# offsets: the observation's features, in the v2 layout's order
(O_HAND, O_TOP, O_FOLLOW, O_NAMED, O_ZONES, O_ALLY_HANDS, O_KNOWN_STOCK, O_LOOKING_AT,
 O_RESOLVING, O_DISCARDS, O_PHASE, O_TURN_PHASE, O_ABILITY, O_ASKS, O_LEAD, O_DISCARDS_LEFT,
 O_PLAYED, O_OUT, O_ALLIES, O_TO_ACT, O_HAND_SIZES, O_STOCK, O_DISCARD_SIZE, O_SCORES,
 O_PLAYED_CARDS, O_NAMED_COLOURS, O_DRAWN_SINCE, O_KNOWN, O_UNSEEN) = range(29)
#: the v2 features, in :data:`O_HAND`... order (the encoder's feature names)
FEATURES = ("hand", "top", "follow", "named", "zones", "ally_hands", "known_stock",
            "looking_at", "resolving", "discards", "phase", "turn_phase", "ability", "asks",
            "lead", "discards_left", "played", "out", "allies", "to_act", "hand_sizes",
            "stock", "discard_size", "scores", "played_cards", "named_colours", "drawn_since",
            "known", "unseen")
# scales: the encodings' factors, each read from the declared field of its feature
(S_COPIES, S_COUNTS32, S_DISCARDS_LEFT, S_SIZES, S_TOTAL, S_SCORES, S_NAMED,
 S_DRAWN_SINCE) = range(8)

#: the largest table the record holds: every config shares one record type
MAX_PLAYERS, MAX_DECKS = 8, 2
MAX_CARDS = CARDS * MAX_DECKS
#: the top cards of the draw pile a seat may know (a look or a reveal shows at most five)
MAX_KNOWN = 5
#: frames the agenda holds at most: a frame per asset in play that fires, with its order
#: frames, on top of a turn's (far more than any game reaches; :func:`_push` checks)
MAX_AGENDA = 4 * MAX_CARDS
#: a frame's arguments: an ability's (card, trigger, step, chosen player, chosen colour,
#: extra) and, for its decisions, what it asks (the view's ``asks``, set when pushed)
ARGS = 7
A_ASKS = 6
#: cards resolving at once (an event goes to the bottom before the next can be played)
MAX_RESOLVING = 8
COUNT_MAX = 255
#: the search deals positions with the Python determinizer (:mod:`eights.vector.search`)
DEALS_COMPILED = False


def state_dtype() -> np.dtype:
    """One table's record: every field the rules and the v2 observation read, sized for the
    largest table (a smaller one leaves the rest unused). ``mem_known[o, q]`` is what seat
    ``o`` knows to be in seat ``q``'s hand; ``bits`` the card set's colours per card id (the
    observation and the heuristic read them without the card table)."""
    n = MAX_PLAYERS
    return np.dtype([
        ("mt", np.uint32, 624), ("mti", np.int64), ("seeder", np.uint64),
        ("game_seed", np.uint64),
        ("hands", np.uint8, n * CARDS), ("hand_len", np.int16, n),
        ("zones", np.int8, n * MAX_CARDS), ("zone_len", np.int16, n),
        ("stock", np.int8, MAX_CARDS), ("stock_len", np.int16),
        ("pile", np.int8, MAX_CARDS), ("pile_len", np.int16), ("pile_counts", np.uint8, CARDS),
        ("resolving", np.int8, MAX_RESOLVING), ("resolving_len", np.int16),
        ("known", np.int8, n * MAX_KNOWN), ("known_len", np.int8, n),
        ("ag_kind", np.int8, MAX_AGENDA), ("ag_seat", np.int8, MAX_AGENDA),
        ("ag_args", np.int16, MAX_AGENDA * ARGS), ("ag_len", np.int16),
        ("lead", np.int8), ("phase", np.int8), ("named", np.int8), ("trade_taken", np.int8),
        ("discards", np.int16, n), ("played", np.int8, n), ("out", np.int8, n),
        ("lost_with", np.int16, n),
        ("first", np.int8), ("hand_number", np.int32), ("scores", np.int32, n),
        ("turn", np.int32), ("hand_start", np.int32),
        ("terminated", np.bool_), ("truncated", np.bool_),
        ("winners", np.uint8, n), ("current", np.int8),
        ("mem_played", np.uint8, n * CARDS), ("mem_named", np.int32, n * 4),
        ("mem_drawn", np.int32, n), ("mem_known", np.uint8, n * n * CARDS),
        ("bits", np.uint8, CARDS), ("legal", np.uint8, NUM_ACTIONS),
    ])


# ---------------------------------------------------------------- seats
@numba.njit(cache=True, inline="always")
def _team(prm, q):
    teams = prm[P_TEAMS]
    return q % teams if teams else q


@numba.njit(cache=True)
def _allies(t, prm, seat, out):
    """``seat``'s team still in the game, from ``seat`` on in seat order (``out[:k]``)."""
    n, k = prm[P_PLAYERS], 0
    mine = _team(prm, seat)
    for j in range(n):
        q = (seat + j) % n
        if _team(prm, q) == mine and not t.out[q]:
            out[k] = q
            k += 1
    return k


@numba.njit(cache=True)
def _opponents(t, prm, seat, out):
    """The other teams' players still in the game, in turn order after ``seat``."""
    n, k = prm[P_PLAYERS], 0
    mine = _team(prm, seat)
    for j in range(1, n):
        q = (seat + j) % n
        if _team(prm, q) != mine and not t.out[q]:
            out[k] = q
            k += 1
    return k


@numba.njit(cache=True)
def _in_order(t, prm, seat, out):
    """Every player still in the game, in turn order from ``seat``."""
    n, k = prm[P_PLAYERS], 0
    for j in range(n):
        q = (seat + j) % n
        if not t.out[q]:
            out[k] = q
            k += 1
    return k


@numba.njit(cache=True)
def _candidates(t, prm, seat, among, out):
    """The seats whose in-play cards ``seat`` may destroy (``among``: any, opponents,
    yours)."""
    if among == AMONG_YOURS:
        out[0] = seat
        return 1
    if among == AMONG_OPPONENTS:
        return _opponents(t, prm, seat, out)
    return _in_order(t, prm, seat, out)


# ---------------------------------------------------------------- the agenda
@numba.njit(cache=True)
def _push(t, kind, seat, a0, a1, a2, a3, a4, a5):
    """Put a frame on top of the agenda (the engine's ``push``): decided or resolved next."""
    k = t.ag_len
    if k >= MAX_AGENDA:
        raise ValueError("crazier_eights core: the agenda outgrew its record")
    t.ag_kind[k] = kind
    t.ag_seat[k] = seat
    base = k * ARGS
    t.ag_args[base] = a0
    t.ag_args[base + 1] = a1
    t.ag_args[base + 2] = a2
    t.ag_args[base + 3] = a3
    t.ag_args[base + 4] = a4
    t.ag_args[base + 5] = a5
    t.ag_args[base + A_ASKS] = 0
    t.ag_len = k + 1


@numba.njit(cache=True)
def _push_ask(t, rules, kind, seat, card, trigger, pc, target, colour, extra):
    """Push an ability's decision frame with what it asks, by the code of the engine's
    ``ability_ask`` (its ``ASKS``): read once here, so the observation needs no card table."""
    op = _op(rules, card, trigger, pc, 0)
    if kind == ASK:
        asks = 10
    elif kind == COLOUR:
        asks = 3
    elif kind == TARGET:
        asks = 5 if op == OP_DESTROY else 2 if op == OP_TRADE else 1
    elif op == OP_TRADE:
        asks = 7 if extra == TRADE_TAKE else 8
    elif op == OP_DESTROY:
        asks = 4
    elif op == OP_RESTORE:
        asks = 6
    else:
        asks = 9
    _push(t, kind, seat, card, trigger, pc, target, colour, extra)
    t.ag_args[(t.ag_len - 1) * ARGS + A_ASKS] = asks


@numba.njit(cache=True, inline="always")
def _arg(t, k, i):
    return np.int64(t.ag_args[k * ARGS + i])


@numba.njit(cache=True, inline="always")
def _op(rules, card, trigger, pc, field):
    return rules[card, R_PROGRAM + (trigger * MAX_STEPS + pc) * OP_WIDTH + field]


@numba.njit(cache=True, inline="always")
def _length(rules, card, trigger):
    return rules[card, R_LENGTH + trigger]


# ---------------------------------------------------------------- the memory
@numba.njit(cache=True, inline="always")
def _known_at(o, q, c):
    return (o * MAX_PLAYERS + q) * CARDS + c


@numba.njit(cache=True)
def _forget(t):
    """A new game: nothing of the last one is remembered."""
    t.mem_played[:] = 0
    t.mem_named[:] = 0
    t.mem_drawn[:] = 0
    t.mem_known[:] = 0


@numba.njit(cache=True)
def _leaves(t, prm, o, q, c):
    """Seat ``o`` sees card ``c`` leave ``q``'s hand (-1: a card it did not see: one copy of
    each card it knew there is no longer certain)."""
    if c >= 0:
        i = _known_at(o, q, c)
        if t.mem_known[i]:
            t.mem_known[i] -= 1
        return
    base = _known_at(o, q, 0)
    for x in range(CARDS):
        if t.mem_known[base + x]:
            t.mem_known[base + x] -= 1


@numba.njit(cache=True)
def _gains(t, o, q, c):
    """Seat ``o`` sees card ``c`` go into ``q``'s hand."""
    if q != o:
        i = _known_at(o, q, c)
        if t.mem_known[i] < COUNT_MAX:
            t.mem_known[i] += 1


@numba.njit(cache=True)
def _shows(t, o, q, c):
    """Seat ``o`` sees card ``c`` in ``q``'s hand (a look at it, a card seen drawn)."""
    if 0 <= q != o:
        i = _known_at(o, q, c)
        if not t.mem_known[i]:
            t.mem_known[i] = 1


@numba.njit(cache=True)
def _remember_table(t, prm, q, c):
    """Card ``c`` goes face up from ``q``'s hand (a discard, a play, a loser's hand):
    every seat counts it and knows it left that hand."""
    i = q * CARDS + c
    if t.mem_played[i] < COUNT_MAX:
        t.mem_played[i] += 1
    t.mem_drawn[q] = 0
    for o in range(prm[P_PLAYERS]):
        _leaves(t, prm, o, q, c)


@numba.njit(cache=True)
def _remember_named(t, q, colour):
    if q >= 0 and colour >= 0:
        t.mem_named[q * 4 + colour] += 1


# ---------------------------------------------------------------- cards
@numba.njit(cache=True)
def _zone_has(t, q, c):
    base, i, k = q * MAX_CARDS, 0, t.zone_len[q]
    while i < k and t.zones[base + i] != c:
        i += 1
    return i < k


@numba.njit(cache=True)
def _zone_remove(t, q, c):
    """Take the first copy of ``c`` out of ``q``'s zone (the rest keep their order)."""
    base, k = q * MAX_CARDS, t.zone_len[q]
    for i in range(k):
        if t.zones[base + i] == c:
            for j in range(i, k - 1):
                t.zones[base + j] = t.zones[base + j + 1]
            t.zone_len[q] = k - 1
            return


@numba.njit(cache=True)
def _zone_add(t, q, c):
    t.zones[q * MAX_CARDS + t.zone_len[q]] = c
    t.zone_len[q] += 1


@numba.njit(cache=True)
def _hand_add(t, q, c):
    t.hands[q * CARDS + c] += 1
    t.hand_len[q] += 1


@numba.njit(cache=True)
def _hand_remove(t, q, c):
    t.hands[q * CARDS + c] -= 1
    t.hand_len[q] -= 1


@numba.njit(cache=True)
def _under(t, c):
    """Put ``c`` on the bottom of the discard pile (the engine's move to ``UNDER``)."""
    for i in range(t.pile_len, 0, -1):
        t.pile[i] = t.pile[i - 1]
    t.pile[0] = c
    t.pile_len += 1
    t.pile_counts[c] += 1


@numba.njit(cache=True)
def _to_bottom(t, c):
    """:meth:`_to_bottom`: under the discard pile; its top when the pile was empty (then
    the colour named for an 8 no longer applies)."""
    _under(t, c)
    if t.pile_len == 1:
        t.named = -1


@numba.njit(cache=True)
def _reshuffle(t):
    """The discard pile but its top card, shuffled, goes under the draw pile."""
    rest = t.pile_len - 1
    if rest < 0:
        rest = 0
    scratch = np.empty(max(rest, 1), np.int8)
    for i in range(rest):
        scratch[i] = t.pile[i]
    t.mti = shuffle(t.mt, t.mti, scratch, rest)
    k = t.stock_len
    for i in range(k - 1, -1, -1):  # the stock moves up; the shuffled cards go beneath
        t.stock[i + rest] = t.stock[i]
    for i in range(rest):
        t.stock[i] = scratch[i]
    t.stock_len = k + rest
    if t.pile_len:
        top = t.pile[t.pile_len - 1]
        t.pile[0] = top
        t.pile_len = 1
        t.pile_counts[:] = 0
        t.pile_counts[top] = 1


@numba.njit(cache=True)
def _forget_known_at(t, prm, depth):
    """Every seat's known top cards lose the one at ``depth`` (it left the draw pile's top)."""
    for q in range(prm[P_PLAYERS]):
        k = t.known_len[q]
        if k > depth:
            base = q * MAX_KNOWN
            for i in range(depth, k - 1):
                t.known[base + i] = t.known[base + i + 1]
            t.known_len[q] = k - 1


@numba.njit(cache=True)
def _draw_one(t, prm, seat):
    """The top card of the draw pile into ``seat``'s hand (the discard pile reshuffled
    first when it ran out); -1 when nothing can be drawn. A seat that knew the card sees it
    go into that hand."""
    if t.stock_len == 0:
        if t.pile_len <= 1:
            return -1
        _reshuffle(t)
    t.stock_len -= 1
    c = np.int64(t.stock[t.stock_len])
    _hand_add(t, seat, c)
    t.mem_drawn[seat] += 1
    for q in range(prm[P_PLAYERS]):
        if t.known_len[q] and q != seat and t.known[q * MAX_KNOWN] == c:
            _shows(t, q, seat, c)
    _forget_known_at(t, prm, 0)
    return c


# ---------------------------------------------------------------- the end
@numba.njit(cache=True)
def _finish(t, prm, winners):
    t.terminated = True
    for p in range(prm[P_PLAYERS]):
        t.winners[p] = 1 if winners[p] else 0


@numba.njit(cache=True)
def _game_over(t, prm, rules, winners):
    """Score the game (a point per card in hand; the winners none), then end the match or
    deal the next game (the most points go first)."""
    n = prm[P_PLAYERS]
    for q in range(n):
        if winners[q]:
            points = 0
        elif t.out[q]:
            points = t.lost_with[q]
        else:
            points = t.hand_len[q]
        t.scores[q] += points
    t.ag_len = 0
    if t.hand_number + 1 >= prm[P_GAMES]:
        if prm[P_GAMES] == 1:
            _finish(t, prm, winners)
        else:
            low = t.scores[0]
            for q in range(1, n):
                low = min(low, t.scores[q])
            best = np.zeros(n, np.bool_)
            for q in range(n):
                best[q] = t.scores[q] == low
            _finish(t, prm, best)
        return
    t.hand_number += 1
    top = t.scores[0]
    for q in range(1, n):
        top = max(top, t.scores[q])
    first = 0
    for k in range(1, n + 1):
        q = (t.first + k) % n
        if t.scores[q] == top:
            first = q
            break
    _deal(t, prm, rules, first)


@numba.njit(cache=True)
def _team_wins(t, prm, rules, p):
    """``p``'s team (those still in) wins."""
    n = prm[P_PLAYERS]
    seats = np.empty(n, np.int64)
    k = _allies(t, prm, p, seats)
    winners = np.zeros(n, np.bool_)
    for i in range(k):
        winners[seats[i]] = True
    _game_over(t, prm, rules, winners)


@numba.njit(cache=True)
def _won(t, prm, rules, p):
    """``p`` has no cards left: its team wins now."""
    if t.hand_len[p]:
        return False
    _team_wins(t, prm, rules, p)
    return True


@numba.njit(cache=True)
def _impossible_draw(t, prm, rules):
    """Chapter 6: the game is over; the fewest cards in hand win, with their teams."""
    n = prm[P_PLAYERS]
    fewest = 1 << 30
    for q in range(n):
        if not t.out[q]:
            fewest = min(fewest, t.hand_len[q])
    teams = np.zeros(n, np.bool_)
    for q in range(n):
        if not t.out[q] and t.hand_len[q] == fewest:
            teams[_team(prm, q)] = True
    winners = np.zeros(n, np.bool_)
    for q in range(n):
        winners[q] = not t.out[q] and teams[_team(prm, q)]
    _game_over(t, prm, rules, winners)


@numba.njit(cache=True)
def _draw(t, prm, rules, seat, count, cause):
    """``seat`` draws ``count`` cards, ``cause`` (a seat; -1 the draw phase) causing it,
    after its substitution abilities; False when a draw was impossible (the game is over)."""
    if cause >= 0:
        change = 0
        enemy = _team(prm, cause) != _team(prm, seat)
        base = seat * MAX_CARDS
        for i in range(t.zone_len[seat]):
            c = t.zones[base + i]
            change += rules[c, R_CHANGE_ANY]
            if enemy:
                change += rules[c, R_CHANGE_OPPONENT]
        if change:
            count = max(0, count + change)
    for _ in range(count):
        if _draw_one(t, prm, seat) < 0:
            _impossible_draw(t, prm, rules)
            return False
    return True


@numba.njit(cache=True)
def _lose(t, prm, rules, p):
    """``p`` loses: a card that saves it is destroyed instead; else its team leaves the
    game, hands and assets to the bottom of the discard pile."""
    if t.out[p]:
        return
    base = p * MAX_CARDS
    for i in range(t.zone_len[p]):
        c = t.zones[base + i]
        if rules[c, R_SAVES]:
            _zone_remove(t, p, c)
            _under(t, c)
            return
    n = prm[P_PLAYERS]
    team = np.empty(n, np.int64)
    k = _allies(t, prm, p, team)
    for j in range(k):
        q = team[j]
        t.lost_with[q] = t.hand_len[q]
        for c in range(CARDS):  # sorted: by card id
            for _ in range(t.hands[q * CARDS + c]):
                _hand_remove(t, q, c)
                _to_bottom(t, c)
                _remember_table(t, prm, q, c)
        zone = q * MAX_CARDS
        while t.zone_len[q]:
            c = t.zones[zone]
            _zone_remove(t, q, c)
            _to_bottom(t, c)
        t.known_len[q] = 0
        t.out[q] = 1
    if _teams_in(t, prm) == 1:
        winners = np.zeros(n, np.bool_)
        for q in range(n):
            winners[q] = not t.out[q]
        _game_over(t, prm, rules, winners)
        return
    # their pending decisions and abilities go; an event resolving still settles
    lead_out = t.out[t.lead] != 0
    kept = 0
    for i in range(t.ag_len):
        kind, seat = t.ag_kind[i], t.ag_seat[i]
        keep = kind == SETTLE or (not t.out[seat] and not (kind == ORDER
                                                            and t.out[_arg(t, i, 0)]))
        if keep and lead_out and TURN <= kind <= NEXT_TURN:
            keep = False
        if keep:
            _copy_frame(t, i, kept)
            kept += 1
    t.ag_len = kept
    if lead_out:
        _insert_bottom(t, NEXT_TURN, t.lead)


@numba.njit(cache=True)
def _teams_in(t, prm):
    """How many teams still have a player in the game."""
    n = prm[P_PLAYERS]
    seen = np.zeros(n, np.bool_)
    count = 0
    for q in range(n):
        if not t.out[q]:
            k = _team(prm, q)
            if not seen[k]:
                seen[k] = True
                count += 1
    return count


@numba.njit(cache=True)
def _copy_frame(t, src, dst):
    if src == dst:
        return
    t.ag_kind[dst] = t.ag_kind[src]
    t.ag_seat[dst] = t.ag_seat[src]
    for j in range(ARGS):
        t.ag_args[dst * ARGS + j] = t.ag_args[src * ARGS + j]


@numba.njit(cache=True)
def _insert_bottom(t, kind, seat):
    """A frame under every other one (the engine's ``kept.insert(0, ...)``)."""
    for i in range(t.ag_len, 0, -1):
        _copy_frame(t, i - 1, i)
    t.ag_kind[0] = kind
    t.ag_seat[0] = seat
    for j in range(ARGS):
        t.ag_args[j] = 0
    t.ag_len += 1


# ---------------------------------------------------------------- the deal
@numba.njit(cache=True)
def _deal(t, prm, rules, first):
    """Deal a game ``first`` starts: the deck shuffled, the hands one card at a time from
    ``first``, the next card turned up as the discard pile; ``first``'s turn on the agenda
    (resolved by the agenda loop that follows)."""
    t.hand_start = t.turn  # the turn limit counts this hand's actions
    n, size = prm[P_PLAYERS], CARDS * prm[P_DECKS]
    deck = np.empty(size, np.int8)
    for i in range(size):
        deck[i] = i % CARDS
    t.mti = shuffle(t.mt, t.mti, deck, size)
    t.hands[:] = 0
    t.hand_len[:] = 0
    pos = 0
    for _ in range(prm[P_HAND]):
        for k in range(n):
            _hand_add(t, (first + k) % n, deck[pos])
            pos += 1
    rest = size - pos
    for i in range(rest):  # the stock is deck[pos:] reversed: its top is the next card
        t.stock[i] = deck[size - 1 - i]
    t.stock_len = rest
    t.pile_len = 0
    t.pile_counts[:] = 0
    t.resolving_len = 0
    t.zone_len[:] = 0
    t.known_len[:] = 0
    t.out[:] = 0
    t.lost_with[:] = 0
    t.discards[:] = 0
    t.played[:] = 0
    t.first = first
    t.lead = first
    t.named = -1
    t.phase = BEGIN
    t.ag_len = 0
    _forget(t)
    t.stock_len -= 1
    c = t.stock[t.stock_len]
    t.pile[0] = c
    t.pile_len = 1
    t.pile_counts[c] = 1
    _push(t, TURN, first, 0, 0, 0, 0, 0, 0)


# ---------------------------------------------------------------- the turn
@numba.njit(cache=True)
def _trigger(t, prm, rules, lead, own, others):
    """Queue the abilities a condition of ``lead``'s turn triggers: the turn's players'
    first, then the others' in turn order; several of one player's that differ are ordered
    by the player taking the turn (an ally orders its own)."""
    n = prm[P_PLAYERS]
    seats = np.empty(2 * n, np.int64)
    k = _allies(t, prm, lead, seats)
    k += _opponents(t, prm, lead, seats[k:])
    mine = _team(prm, lead)
    for j in range(k - 1, -1, -1):  # the last group first: the first resolves first
        q = seats[j]
        trigger = own if _team(prm, q) == mine else others
        if trigger < 0:
            continue
        base, fired, first, distinct = q * MAX_CARDS, 0, -1, False
        for i in range(t.zone_len[q]):
            c = t.zones[base + i]
            if _length(rules, c, trigger):
                _push(t, RUN, q, c, trigger, 0, -1, -1, 0)
                fired += 1
                if first < 0:
                    first = c
                elif c != first:
                    distinct = True
        if distinct:
            decider = q if _team(prm, q) == mine else lead
            _push(t, ORDER, decider, q, trigger, fired, 0, 0, 0)


@numba.njit(cache=True)
def _turn_resolve(t, prm, rules, lead):
    """The beginning phase: the turn's counters (a discard for each of ``lead``'s team, no
    play yet), then the abilities it triggers."""
    n = prm[P_PLAYERS]
    for q in range(n):
        t.discards[q] = 0
        t.played[q] = 0
    mine = np.empty(n, np.int64)
    for j in range(_allies(t, prm, lead, mine)):
        t.discards[mine[j]] = 1
    t.lead = lead
    t.phase = BEGIN
    _push(t, DRAW_PHASE, lead, 0, 0, 0, 0, 0, 0)
    _trigger(t, prm, rules, lead, BEGIN_TURN, OPPONENT_BEGIN_TURN)


@numba.njit(cache=True)
def _draw_phase_resolve(t, prm, rules, lead):
    """The draw phase: each of the team draws a card (an impossible draw ends the game)."""
    t.phase = DRAW
    n = prm[P_PLAYERS]
    mine = np.empty(n, np.int64)
    for j in range(_allies(t, prm, lead, mine)):
        if not _draw(t, prm, rules, mine[j], 1, -1):
            return
    _push(t, MAIN_PHASE, lead, 0, 0, 0, 0, 0, 0)


@numba.njit(cache=True)
def _main_phase_resolve(t, prm, lead):
    """The main phase: a ``main`` decision for each of the team in seat order, then the end."""
    t.phase = MAIN_P
    _push(t, END_PHASE, lead, 0, 0, 0, 0, 0, 0)
    n = prm[P_PLAYERS]
    mine = np.empty(n, np.int64)
    k = _allies(t, prm, lead, mine)
    for j in range(k - 1, -1, -1):
        _push(t, MAIN, mine[j], 0, 0, 0, 0, 0, 0)


@numba.njit(cache=True)
def _end_phase_resolve(t, prm, rules, lead):
    """The end phase: the next turn after the abilities it triggers."""
    t.phase = END_P
    _push(t, NEXT_TURN, lead, 0, 0, 0, 0, 0, 0)
    _trigger(t, prm, rules, lead, END_TURN, -1)


@numba.njit(cache=True)
def _next_turn_resolve(t, prm, lead):
    """The next team's turn: the next seat clockwise on another team still in."""
    following = np.empty(prm[P_PLAYERS], np.int64)
    if _opponents(t, prm, lead, following):
        _push(t, TURN, following[0], 0, 0, 0, 0, 0, 0)


@numba.njit(cache=True)
def _settle_resolve(t, c):
    """The event has had its effect: it goes to the bottom of the discard pile."""
    k = t.resolving_len
    for i in range(k):
        if t.resolving[i] == c:
            for j in range(i, k - 1):
                t.resolving[j] = t.resolving[j + 1]
            break
    t.resolving_len = k - 1
    _to_bottom(t, c)


# ---------------------------------------------------------------- abilities
@numba.njit(cache=True)
def _destroyable(t, prm, seat, among):
    """Whether a card in play among ``among``'s seats can be destroyed."""
    seats = np.empty(prm[P_PLAYERS], np.int64)
    held = 0
    for j in range(_candidates(t, prm, seat, among, seats)):
        held += t.zone_len[seats[j]]
    return held > 0


@numba.njit(cache=True)
def _restorable(t, rules):
    """Whether an asset lies in the discard pile to restore."""
    c = 0
    while c < CARDS and not (t.pile_counts[c] and rules[c, R_ASSET]):
        c += 1
    return c < CARDS


@numba.njit(cache=True)
def _can(t, prm, rules, card, trigger, pc, seat):
    """Whether the step at ``pc`` can happen at all (else its "you may" is not asked)."""
    op = _op(rules, card, trigger, pc, 0)
    if op == OP_DESTROY:
        return _destroyable(t, prm, seat, _op(rules, card, trigger, pc, 1))
    if op == OP_RESTORE:
        return _restorable(t, rules)
    if op == OP_LOOK:
        return t.stock_len > 0 or t.pile_len > 1
    return True


@numba.njit(cache=True)
def _test(t, rules, card, trigger, pc, seat, target, colour):
    """An ``if`` step's test: a hand's size, or the type or colour of the draw pile's top."""
    kind, value = _op(rules, card, trigger, pc, 1), _op(rules, card, trigger, pc, 2)
    if kind in (HAND_AT_LEAST, HAND_AT_MOST):
        who = seat if _op(rules, card, trigger, pc, 3) == YOU else target
        if who < 0:
            return False
        size = t.hand_len[who]
        return size >= value if kind == HAND_AT_LEAST else size <= value
    if t.stock_len == 0:
        return False
    top = t.stock[t.stock_len - 1]
    if kind == FOUND_TYPE:
        return rules[top, R_ASSET] == value
    want = colour if value == -2 else value
    return want >= 0 and (rules[top, R_BITS] >> want) & 1 != 0


@numba.njit(cache=True)
def _see(t, prm, seat, count, everyone):
    """``seat`` looks at (only it learns them) or, with ``everyone``, reveals the top
    ``count`` cards; False when there is none. Fewer cards than that in the draw pile: the
    discard pile but its top card goes under it first (clarification 4)."""
    if t.stock_len < count and t.pile_len > 1:
        _reshuffle(t)
    seen = min(count, t.stock_len)
    for q in range(prm[P_PLAYERS]):
        if (everyone or q == seat) and seen > t.known_len[q]:
            for i in range(seen):
                t.known[q * MAX_KNOWN + i] = t.stock[t.stock_len - 1 - i]
            t.known_len[q] = seen
    return seen > 0


@numba.njit(cache=True)
def _bottom(t, prm, c, count):
    """Put ``c`` (one of the top ``count`` cards) on the bottom of the draw pile."""
    k = t.stock_len
    at = -1
    for i in range(max(0, k - count), k):
        if t.stock[i] == c:
            at = i
    depth = k - 1 - at
    for i in range(at, 0, -1):
        t.stock[i] = t.stock[i - 1]
    t.stock[0] = c
    _forget_known_at(t, prm, depth)


@numba.njit(cache=True)
def _play_found(t, prm, rules, seat):
    """The draw pile's top card into ``seat``'s play, if it is an asset."""
    if t.stock_len and rules[t.stock[t.stock_len - 1], R_ASSET]:
        t.stock_len -= 1
        _zone_add(t, seat, t.stock[t.stock_len])
        _forget_known_at(t, prm, 0)


@numba.njit(cache=True)
def _who(t, prm, who, seat, target, out):
    """The seats a ``draw`` step names (``out[:k]``; who: you, chosen, each opponent, each
    player, the players taking the turn)."""
    if who == YOU:
        out[0] = seat
        return 1
    if who == CHOSEN:
        if target >= 0 and not t.out[target]:
            out[0] = target
            return 1
        return 0
    if who == EACH_OPPONENT:
        return _opponents(t, prm, seat, out)
    if who == EACH_PLAYER:
        return _in_order(t, prm, seat, out)
    return _allies(t, prm, t.lead, out)


@numba.njit(cache=True)
def _run_resolve(t, prm, rules, seat, card, trigger, pc, target, colour):
    """Carry out an ability from its step ``pc`` until a step asks its controller (that
    decision's frame goes on top) or the ability is done."""
    length = _length(rules, card, trigger)
    seats = np.empty(prm[P_PLAYERS], np.int64)
    while pc < length and not t.terminated and not t.out[seat]:
        op = _op(rules, card, trigger, pc, 0)
        a = _op(rules, card, trigger, pc, 1)
        if op == OP_DRAW:
            for j in range(_who(t, prm, a, seat, target, seats)):
                if not _draw(t, prm, rules, seats[j], _op(rules, card, trigger, pc, 2), seat):
                    return
        elif op == OP_EXTRA:
            t.discards[seat] += a
        elif op in (OP_CHOOSE_PLAYER, OP_TRADE):
            _push_ask(t, rules, TARGET, seat, card, trigger, pc, target, colour,
                  TRADE_WHO if op == OP_TRADE else 0)
            return
        elif op == OP_CHOOSE_COLOUR:
            _push_ask(t, rules, COLOUR, seat, card, trigger, pc, target, colour, 0)
            return
        elif op in (OP_DESTROY, OP_RESTORE):  # a must-step with nothing to choose
            if _can(t, prm, rules, card, trigger, pc, seat):
                _push_ask(t, rules, CHOOSE, seat, card, trigger, pc, target, colour, 0)
                return
        elif op == OP_LOOK:
            if _see(t, prm, seat, a, False) and _op(rules, card, trigger, pc, 2):
                _push_ask(t, rules, CHOOSE, seat, card, trigger, pc, target, colour, 0)
                return
        elif op == OP_REVEAL:
            _see(t, prm, seat, a, True)
        elif op == OP_PLAY_FOUND:
            _play_found(t, prm, rules, seat)
        elif op == OP_LOSE:
            who = seat if a == YOU else target
            if who >= 0:
                _lose(t, prm, rules, who)
        elif op == OP_TEST:
            if a <= FOUND_COLOUR and t.stock_len == 0:
                pc = _op(rules, card, trigger, pc, 5)  # nothing revealed: neither branch
                continue
            if not _test(t, rules, card, trigger, pc, seat, target, colour):
                pc = _op(rules, card, trigger, pc, 4)
                continue
        elif op == OP_JUMP:
            pc = a
            continue
        elif op == OP_ASK:
            if _can(t, prm, rules, card, trigger, pc + 1, seat):
                _push_ask(t, rules, ASK, seat, card, trigger, pc, target, colour, 0)
                return
            pc = a
            continue
        pc += 1


@numba.njit(cache=True)
def _then(t, seat, card, trigger, pc, target, colour):
    """Go on with an ability after its decision, from step ``pc``."""
    _push(t, RUN, seat, card, trigger, pc, target, colour, 0)


@numba.njit(cache=True)
def _destroy(t, q, c):
    _zone_remove(t, q, c)
    _to_bottom(t, c)


@numba.njit(cache=True)
def _restore(t, seat, c):
    """Take ``c`` from the discard pile (its lowest copy) into ``seat``'s zone; taking the
    top card makes the next one the top (clarification 8)."""
    k = t.pile_len
    at = 0
    for i in range(k):
        if t.pile[i] == c:
            at = i
            break
    for j in range(at, k - 1):
        t.pile[j] = t.pile[j + 1]
    t.pile_len = k - 1
    t.pile_counts[c] -= 1
    _zone_add(t, seat, c)
    if at == k - 1:
        t.named = -1


# ---------------------------------------------------------------- decisions: legal
@numba.njit(cache=True, inline="always")
def _fits(rules, c, top, named):
    """Whether ``c`` may be discarded on ``top`` with ``named`` the colour named for it."""
    if rules[c, R_RANK] == EIGHT or top < 0:
        return True
    if named >= 0:
        return (rules[c, R_BITS] >> named) & 1 != 0
    return rules[c, R_RANK] == rules[top, R_RANK] or (rules[c, R_BITS] & rules[top, R_BITS]) != 0


@numba.njit(cache=True)
def _playable(t, prm, rules, seat, c):
    """An asset always; an event whose abilities must choose a card only when there is one
    to choose (the sixth clarification)."""
    if rules[c, R_ASSET]:
        return True
    if rules[c, R_NEED_RESTORE] and not _restorable(t, rules):
        return False
    for among in range(R_NEED_DESTROY_COLUMNS):
        if rules[c, R_NEED_DESTROY + among] and not _destroyable(t, prm, seat, among):
            return False
    return True


@numba.njit(cache=True)
def _main_legal(t, prm, rules, p, out):
    """A main phase's choices: discards while one is left, plays once a turn, the end."""
    k = 0
    base = p * CARDS
    if t.discards[p] > 0:
        top = t.pile[t.pile_len - 1] if t.pile_len else -1
        for c in range(CARDS):
            if t.hands[base + c] and _fits(rules, c, top, t.named):
                out[k] = DISCARD0 + c
                k += 1
    if not t.played[p]:
        for c in range(CARDS):
            if t.hands[base + c] and _playable(t, prm, rules, p, c):
                out[k] = PLAY0 + c
                k += 1
    out[k] = END
    return k + 1


@numba.njit(cache=True)
def _target_legal(t, prm, rules, top, out):
    """A player to choose: whose copy to destroy, an opponent, or any player still in."""
    seat = t.ag_seat[top]
    card, trigger, pc, extra = _arg(t, top, 0), _arg(t, top, 1), _arg(t, top, 2), _arg(t, top, 5)
    op, among = _op(rules, card, trigger, pc, 0), _op(rules, card, trigger, pc, 1)
    seats = np.empty(prm[P_PLAYERS], np.int64)
    if op == OP_DESTROY:
        c, m = extra - 1, 0
        for j in range(_candidates(t, prm, seat, among, seats)):
            if _zone_has(t, seats[j], c):
                seats[m] = seats[j]
                m += 1
    elif op == OP_TRADE or among == AMONG_PLAYER_OPPONENTS:
        m = _opponents(t, prm, seat, seats)
    else:
        m = _in_order(t, prm, seat, seats)
    flags = np.zeros(MAX_PLAYERS, np.bool_)
    for j in range(m):
        flags[seats[j]] = True
    k = 0
    for q in range(MAX_PLAYERS):
        if flags[q]:
            out[k] = TARGET0 + q
            k += 1
    return k


@numba.njit(cache=True)
def _choose_legal(t, prm, rules, top, out):
    """A card to choose: in play (destroy), an asset in the discard pile (restore), in a hand
    (trade), among the top cards looked at (to the bottom, or none)."""
    seat = t.ag_seat[top]
    card, trigger, pc = _arg(t, top, 0), _arg(t, top, 1), _arg(t, top, 2)
    target, extra = _arg(t, top, 3), _arg(t, top, 5)
    op, a = _op(rules, card, trigger, pc, 0), _op(rules, card, trigger, pc, 1)
    held = np.zeros(CARDS, np.bool_)
    k = 0
    if op == OP_DESTROY:
        seats = np.empty(prm[P_PLAYERS], np.int64)
        for j in range(_candidates(t, prm, seat, a, seats)):
            q = seats[j]
            for i in range(t.zone_len[q]):
                held[t.zones[q * MAX_CARDS + i]] = True
    elif op == OP_RESTORE:
        for c in range(CARDS):
            held[c] = t.pile_counts[c] != 0 and rules[c, R_ASSET] != 0
    elif op == OP_TRADE:
        if extra == TRADE_TAKE:
            for c in range(CARDS):
                held[c] = t.hands[target * CARDS + c] != 0
        else:  # a card held before the Trade: the hand less the card taken
            for c in range(CARDS):
                copies = t.hands[seat * CARDS + c] - (1 if c == t.trade_taken else 0)
                held[c] = copies > 0
    else:  # look: a card to put on the bottom, or none
        for i in range(max(0, t.stock_len - a), t.stock_len):
            held[t.stock[i]] = True
        for c in range(CARDS):
            if held[c]:
                out[k] = CHOOSE0 + c
                k += 1
        out[k] = NO
        return k + 1
    for c in range(CARDS):
        if held[c]:
            out[k] = CHOOSE0 + c
            k += 1
    return k


@numba.njit(cache=True)
def _order_legal(t, top, out):
    """Which of one player's abilities firing together goes first (each card once)."""
    count = _arg(t, top, 2)
    held = np.zeros(CARDS, np.bool_)
    for i in range(top - count, top):
        held[_arg(t, i, 0)] = True
    k = 0
    for c in range(CARDS):
        if held[c]:
            out[k] = ORDER0 + c
            k += 1
    return k


@numba.njit(cache=True)
def legal_actions(t, prm, out):
    """The legal action ids of the decision at hand in ``out`` (ascending); how many. Read
    from the mask :func:`_settle` keeps (the rules need the card table to list them)."""
    k = 0
    for a in range(NUM_ACTIONS):
        if t.legal[a]:
            out[k] = a
            k += 1
    return k


@numba.njit(cache=True)
def _legal(t, prm, rules, out):
    """Write the pending decision's legal action ids into ``out`` (ascending, as the engine
    lists them); return how many."""
    if t.ag_len == 0:
        return 0
    top = t.ag_len - 1
    kind = t.ag_kind[top]
    if kind == MAIN:
        return _main_legal(t, prm, rules, t.ag_seat[top], out)
    if kind in (NAME_COLOUR, COLOUR):
        for s in range(4):
            out[s] = COLOUR0 + s
        return 4
    if kind == TARGET:
        return _target_legal(t, prm, rules, top, out)
    if kind == CHOOSE:
        return _choose_legal(t, prm, rules, top, out)
    if kind == ASK:
        out[0], out[1] = YES, NO
        return 2
    if kind == ORDER:
        return _order_legal(t, top, out)
    return 0


# ---------------------------------------------------------------- decisions: apply
@numba.njit(cache=True)
def _main_apply(t, prm, rules, p, a):
    """A discard (an 8 asks for a colour), a play (an asset into play, an event resolved
    before the phase goes on) or the end of the phase; going out wins at once."""
    if a == END:
        return
    if a < PLAY0:  # a discard
        c = a - DISCARD0
        t.discards[p] -= 1
        _hand_remove(t, p, c)
        t.pile[t.pile_len] = c
        t.pile_len += 1
        t.pile_counts[c] += 1
        _remember_table(t, prm, p, c)
        t.named = -1
        if _won(t, prm, rules, p):
            return
        _push(t, MAIN, p, 0, 0, 0, 0, 0, 0)
        if rules[c, R_RANK] == EIGHT:
            _push(t, NAME_COLOUR, p, 0, 0, 0, 0, 0, 0)
        return
    c = a - PLAY0
    t.played[p] = 1
    _hand_remove(t, p, c)
    _remember_table(t, prm, p, c)
    if rules[c, R_ASSET]:
        _zone_add(t, p, c)
        if not _won(t, prm, rules, p):
            _push(t, MAIN, p, 0, 0, 0, 0, 0, 0)
        return
    if t.resolving_len >= MAX_RESOLVING:
        raise ValueError("crazier_eights core: more events resolving than its record holds")
    t.resolving[t.resolving_len] = c
    t.resolving_len += 1
    if _won(t, prm, rules, p):  # (the last card wins before its effect: clarification 7)
        return
    _push(t, MAIN, p, 0, 0, 0, 0, 0, 0)
    _push(t, SETTLE, p, c, 0, 0, 0, 0, 0)
    _push(t, RUN, p, c, PLAY_T, 0, -1, -1, 0)


@numba.njit(cache=True)
def _target_apply(t, prm, rules, seat, card, trigger, pc, target, colour, extra, a):
    """The player chosen: whose copy goes (destroy), whose hand a Trade looks at, or the
    ability's chosen player."""
    q = a - TARGET0
    if _op(rules, card, trigger, pc, 0) == OP_DESTROY:
        _destroy(t, q, extra - 1)
        _then(t, seat, card, trigger, pc + 1, target, colour)
        return
    if _op(rules, card, trigger, pc, 0) == OP_TRADE:
        base = q * CARDS
        for c in range(CARDS):
            if t.hands[base + c]:
                _shows(t, seat, q, c)
        stage = TRADE_TAKE if t.hand_len[q] else TRADE_GIVE
        _push_ask(t, rules, CHOOSE, seat, card, trigger, pc, q, colour, stage)
        return
    _then(t, seat, card, trigger, pc + 1, q, colour)


@numba.njit(cache=True)
def _choose_apply(t, prm, rules, seat, card, trigger, pc, target, colour, extra, a):
    """The card chosen: destroyed (asking whose copy when several hold one), restored, taken
    or given in a Trade (each seat remembering what it saw move), or put on the bottom."""
    if a == NO:
        _then(t, seat, card, trigger, pc + 1, target, colour)
        return
    c = a - CHOOSE0
    op = _op(rules, card, trigger, pc, 0)
    if op == OP_DESTROY:
        seats = np.empty(prm[P_PLAYERS], np.int64)
        holders, holder = 0, -1
        for j in range(_candidates(t, prm, seat, _op(rules, card, trigger, pc, 1), seats)):
            if _zone_has(t, seats[j], c):
                holders += 1
                if holder < 0:
                    holder = seats[j]
        if holders > 1:
            _push_ask(t, rules, TARGET, seat, card, trigger, pc, target, colour,
                      c + 1)
            return
        _destroy(t, holder, c)
    elif op == OP_RESTORE:
        _restore(t, seat, c)
    elif op == OP_TRADE:
        n = prm[P_PLAYERS]
        if extra == TRADE_TAKE:
            _hand_remove(t, target, c)
            _hand_add(t, seat, c)
            for o in range(n):  # "take": the taker sees the card, the others do not
                _leaves(t, prm, o, target, c if o == seat else -1)
            _gains(t, target, seat, c)  # "taken": the one it came from sees it go
            if t.hand_len[seat] > 1:  # it held a card before: it gives one of those
                t.trade_taken = c
                _push_ask(t, rules, CHOOSE, seat, card, trigger, pc, target, colour,
                          TRADE_GIVE)
                return
        else:
            t.trade_taken = -1
            _hand_remove(t, seat, c)
            _hand_add(t, target, c)
            for o in range(n):  # "give": the giver sees the card, the others do not
                _leaves(t, prm, o, seat, c if o == seat else -1)
            _gains(t, seat, target, c)
            _leaves(t, prm, target, seat, c)  # "given": the one it goes to sees it come
    else:  # look: put it on the bottom
        _bottom(t, prm, c, _op(rules, card, trigger, pc, 1))
    _then(t, seat, card, trigger, pc + 1, target, colour)


@numba.njit(cache=True)
def _order_apply(t, frame, a):
    """The chosen ability on top, the order frame under it (when the others still differ),
    the rest below in their order. ``frame`` is the popped order frame's index."""
    count = _arg(t, frame, 2)
    card = a - ORDER0
    start = t.ag_len - count
    pick = start
    for i in range(start, t.ag_len):
        if _arg(t, i, 0) == card:
            pick = i
            break
    seat, controller, trigger = t.ag_seat[frame], _arg(t, frame, 0), _arg(t, frame, 1)
    # the chosen frame, kept aside in the slot past the top (the popped order frame's)
    _copy_frame(t, pick, frame)
    for i in range(pick, t.ag_len - 1):
        _copy_frame(t, i + 1, i)
    t.ag_len -= 1
    first, distinct = -1, False
    for i in range(start, t.ag_len):
        c = _arg(t, i, 0)
        if first < 0:
            first = c
        elif c != first:
            distinct = True
    if distinct:  # the chosen frame sits in the slot above the order frame pushed now
        _push(t, ORDER, seat, controller, trigger, count - 1, 0, 0, 0)
    else:
        _copy_frame(t, frame, t.ag_len)
    t.ag_len += 1


@numba.njit(cache=True)
def _apply(t, prm, rules, a):
    """Pop the decision on top, apply ``a`` by its kind, resolve the effects that follow."""
    top = t.ag_len - 1
    kind, seat = t.ag_kind[top], np.int64(t.ag_seat[top])
    card, trigger, pc = _arg(t, top, 0), _arg(t, top, 1), _arg(t, top, 2)
    target, colour, extra = _arg(t, top, 3), _arg(t, top, 4), _arg(t, top, 5)
    t.ag_len = top
    if kind == MAIN:
        _main_apply(t, prm, rules, seat, a)
    elif kind == NAME_COLOUR:
        t.named = a - COLOUR0
        _remember_named(t, seat, a - COLOUR0)
    elif kind == COLOUR:
        _remember_named(t, seat, a - COLOUR0)
        _then(t, seat, card, trigger, pc + 1, target, a - COLOUR0)
    elif kind == TARGET:
        _target_apply(t, prm, rules, seat, card, trigger, pc, target, colour, extra, a)
    elif kind == CHOOSE:
        _choose_apply(t, prm, rules, seat, card, trigger, pc, target, colour, extra, a)
    elif kind == ASK:
        if a == YES:
            _then(t, seat, card, trigger, pc + 1, target, colour)
        else:
            _then(t, seat, card, trigger, _op(rules, card, trigger, pc, 1), target, colour)
    else:
        _order_apply(t, top, a)
    _run_agenda(t, prm, rules)


@numba.njit(cache=True)
def _run_agenda(t, prm, rules):
    """Resolve effect frames on top of the agenda until a decision is at the top."""
    while not t.terminated and t.ag_len:
        top = t.ag_len - 1
        kind = t.ag_kind[top]
        if kind < DECISION_KINDS:
            return
        seat = np.int64(t.ag_seat[top])
        card, trigger, pc = _arg(t, top, 0), _arg(t, top, 1), _arg(t, top, 2)
        target, colour = _arg(t, top, 3), _arg(t, top, 4)
        t.ag_len = top
        if kind == TURN:
            _turn_resolve(t, prm, rules, seat)
        elif kind == DRAW_PHASE:
            _draw_phase_resolve(t, prm, rules, seat)
        elif kind == MAIN_PHASE:
            _main_phase_resolve(t, prm, seat)
        elif kind == END_PHASE:
            _end_phase_resolve(t, prm, rules, seat)
        elif kind == NEXT_TURN:
            _next_turn_resolve(t, prm, seat)
        elif kind == RUN:
            _run_resolve(t, prm, rules, seat, card, trigger, pc, target, colour)
        else:
            _settle_resolve(t, card)


@numba.njit(cache=True)
def _settle(t, prm, rules, buf):
    """Apply forced moves (one legal action) until a real decision or the end; enforce the
    turn limit; set ``current`` (-1 once over) and the legal mask."""
    while not t.terminated:
        if t.turn - t.hand_start >= prm[P_MAX_TURNS]:  # (this hand's actions)
            t.truncated = True
            break
        k = _legal(t, prm, rules, buf)
        if k != 1:
            t.current = t.ag_seat[t.ag_len - 1]
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
    """Start the game ``CrazierEightsGame(seed=game_seed)`` starts: the first player drawn,
    the deck shuffled and dealt, the first turn's frames resolved, forced moves applied."""
    t.game_seed = game_seed
    t.mti = seed(t.mt, game_seed)
    first, t.mti = randbelow(t.mt, t.mti, prm[P_PLAYERS])
    t.scores[:] = 0
    t.hand_number = 0
    t.turn = 0
    t.terminated = False
    t.truncated = False
    t.winners[:] = 0
    t.trade_taken = -1
    for c in range(CARDS):  # (the card set's colours, which the observation reads)
        t.bits[c] = rules[c, R_BITS]
    _deal(t, prm, rules, first)
    _run_agenda(t, prm, rules)
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
    """Each seat's reward at the end: +1 winners, -1 the others (or, with the score reward,
    minus each total's distance from the table's mean / 100: fewer points is better); 0
    for all when not over or truncated."""
    score_returns(t, prm[P_PLAYERS], prm[P_SCORE_REWARD], -1.0, out)


# ---------------------------------------------------------------- the observation
@numba.njit(cache=True)
def _add_card(out, at, inv):
    """One more copy of a card in a card list's features (float32 sums, as the encoder's)."""
    out[at] = np.float32(out[at] + inv)


@numba.njit(cache=True)
def _observe_cards(t, prm, offs, scales, seat, out):
    """The cards in view: the hand, the discard pile's top and what it lets follow, every
    seat's assets in play, the allies' hands, the draw pile's top cards known, the hand a
    Trade looks at, the event resolving and the discard pile's counts."""
    n, inv = prm[P_PLAYERS], scales[S_COPIES]
    base = seat * CARDS
    for c in range(CARDS):
        for _ in range(t.hands[base + c]):
            _add_card(out, offs[O_HAND] + c, inv)
    if t.pile_len:
        top = t.pile[t.pile_len - 1]
        out[offs[O_TOP] + top] = 1.0
    follow = 0
    if t.named >= 0:
        follow = 1 << t.named
        out[offs[O_NAMED] + t.named] = 1.0
    elif t.pile_len:
        follow = t.bits[t.pile[t.pile_len - 1]]
    for k in range(4):
        if (follow >> k) & 1:
            out[offs[O_FOLLOW] + k] = 1.0
    mine = _team(prm, seat)
    for k in range(n):
        q = (seat + k) % n
        for i in range(t.zone_len[q]):
            _add_card(out, offs[O_ZONES] + k * CARDS + t.zones[q * MAX_CARDS + i], inv)
        if k and _team(prm, q) == mine:
            for c in range(CARDS):
                for _ in range(t.hands[q * CARDS + c]):
                    _add_card(out, offs[O_ALLY_HANDS] + (k - 1) * CARDS + c, inv)
    for i in range(t.known_len[seat]):
        _add_card(out, offs[O_KNOWN_STOCK] + t.known[seat * MAX_KNOWN + i], inv)
    if seat == t.current and t.ag_len:
        top = t.ag_len - 1
        if t.ag_kind[top] == CHOOSE and _arg(t, top, 5) == TRADE_TAKE:
            q = _arg(t, top, 3)
            for c in range(CARDS):
                for _ in range(t.hands[q * CARDS + c]):
                    _add_card(out, offs[O_LOOKING_AT] + c, inv)
    for i in range(t.resolving_len):
        _add_card(out, offs[O_RESOLVING] + t.resolving[i], inv)
    inv32 = np.float32(scales[S_COUNTS32])
    for c in range(CARDS):
        if t.pile_counts[c]:
            out[offs[O_DISCARDS] + c] = count32(t.pile_counts[c], inv32)


@numba.njit(cache=True)
def _observe_table(t, prm, offs, scales, seat, out):
    """The decision at hand and the turn: phase, ability and what it asks, who leads, the
    seats' discards left, plays and losses, allies, who acts, sizes and scores."""
    n = prm[P_PLAYERS]
    phase, ability, asks = 0, -1, 0
    if t.ag_len:
        top = t.ag_len - 1
        kind = t.ag_kind[top]
        if kind < DECISION_KINDS:
            phase = kind
        if kind in (TARGET, COLOUR, CHOOSE, ASK):
            ability, asks = _arg(t, top, 0), _arg(t, top, A_ASKS)
    out[offs[O_PHASE] + phase] = 1.0
    if 0 <= t.phase < 4:
        out[offs[O_TURN_PHASE] + t.phase] = 1.0
    if ability >= 0:
        out[offs[O_ABILITY] + ability] = 1.0
    out[offs[O_ASKS] + asks] = 1.0
    if t.lead >= 0:
        out[offs[O_LEAD] + (t.lead - seat) % n] = 1.0
    mine = _team(prm, seat)
    for k in range(n):
        q = (seat + k) % n
        if t.discards[q]:
            out[offs[O_DISCARDS_LEFT] + k] = scaled(t.discards[q], scales[S_DISCARDS_LEFT])
        if t.played[q]:
            out[offs[O_PLAYED] + k] = 1.0
        if t.out[q]:
            out[offs[O_OUT] + k] = 1.0
        if t.scores[q]:
            out[offs[O_SCORES] + k] = scaled(t.scores[q], scales[S_SCORES])
        if k:
            if _team(prm, q) == mine:
                out[offs[O_ALLIES] + k - 1] = 1.0
            if t.hand_len[q]:
                out[offs[O_HAND_SIZES] + k - 1] = scaled(t.hand_len[q], scales[S_SIZES])
    if t.current >= 0:
        out[offs[O_TO_ACT] + (t.current - seat) % n] = 1.0
    if t.stock_len:
        out[offs[O_STOCK]] = scaled(t.stock_len, scales[S_TOTAL])
    if t.pile_len:
        out[offs[O_DISCARD_SIZE]] = scaled(t.pile_len, scales[S_TOTAL])


@numba.njit(cache=True)
def _observe_memory(t, prm, offs, scales, seat, out):
    """The public history: each other seat's cards played, colours named, cards drawn since
    its last play and cards known in its hand; the cards whose place the seat does not
    know."""
    n, decks = prm[P_PLAYERS], prm[P_DECKS]
    inv32 = np.float32(scales[S_COUNTS32])
    unseen = np.empty(CARDS, np.int64)
    for c in range(CARDS):
        unseen[c] = decks - t.pile_counts[c] - t.hands[seat * CARDS + c]
    for i in range(t.resolving_len):
        unseen[t.resolving[i]] -= 1
    for q in range(n):
        for i in range(t.zone_len[q]):
            unseen[t.zones[q * MAX_CARDS + i]] -= 1
    for k in range(1, n):
        q = (seat + k) % n
        at = k - 1
        played, known = q * CARDS, _known_at(seat, q, 0)
        for c in range(CARDS):
            m = t.mem_played[played + c]
            if m:
                out[offs[O_PLAYED_CARDS] + at * CARDS + c] = count32(m, inv32)
            m = t.mem_known[known + c]
            if m:
                out[offs[O_KNOWN] + at * CARDS + c] = count32(m, inv32)
                unseen[c] -= m
        for s in range(4):
            m = t.mem_named[q * 4 + s]
            if m:
                out[offs[O_NAMED_COLOURS] + at * 4 + s] = scaled(m, scales[S_NAMED])
        if t.mem_drawn[q]:
            out[offs[O_DRAWN_SINCE] + at] = scaled(t.mem_drawn[q], scales[S_DRAWN_SINCE])
    for c in range(CARDS):
        if unseen[c] > 0:
            out[offs[O_UNSEEN] + c] = count32(unseen[c], inv32)


@numba.njit(cache=True)
def observe(t, prm, offs, scales, seat, out):
    """Write ``seat``'s v2 observation into ``out`` (zeroed here), feature for feature as
    the Python encoder writes it; ``scales`` as :func:`compile_config` reads them."""
    out[:] = 0.0
    _observe_cards(t, prm, offs, scales, seat, out)
    _observe_table(t, prm, offs, scales, seat, out)
    _observe_memory(t, prm, offs, scales, seat, out)


# ---------------------------------------------------------------- the heuristic
@numba.njit(cache=True)
def _best_colour(t, seat):
    """:meth:`CrazierEightsHeuristic._best_colour`: the colour ``seat`` holds most among its
    cards but 8s (a multicoloured card counts for each of its colours), ties to the first."""
    counts = np.zeros(4, np.int64)
    base = seat * CARDS
    for c in range(CARDS):
        k = t.hands[base + c]
        if k and c % 13 + 1 != EIGHT:
            for col in range(4):
                if (t.bits[c] >> col) & 1:
                    counts[col] += k
    best = 0
    for col in range(1, 4):
        if counts[col] > counts[best]:
            best = col
    return best


@numba.njit(cache=True)
def _discard_cost(t, hints, seat, c):
    """Lower is better: 8s last; then cards worth playing later; then a colour held least of
    goes first."""
    cost = 0.0
    if c % 13 + 1 == EIGHT:
        cost += 100.0
    if not t.played[seat]:
        cost += max(0.0, hints[c, H_VALUE])
    colour, held, base = c // 13, 0, seat * CARDS
    for x in range(CARDS):
        if t.hands[base + x] and (t.bits[x] >> colour) & 1:
            held += t.hands[base + x]
    cost -= 0.5 * (t.hand_len[seat] - held)
    return cost


@numba.njit(cache=True)
def _heuristic_main(t, hints, seat, buf, k):
    """Boost first (an event granting discards, while a discard is to come), then discard
    (the cheapest), then the best safe play worth it, else end the phase."""
    size = t.hand_len[seat]
    any_discard = False
    for i in range(k):
        any_discard |= buf[i] < PLAY0
    chosen, best = -1, -1e300
    if any_discard:
        for i in range(k):
            a = buf[i]
            if PLAY0 <= a < END:
                c = a - PLAY0
                if hints[c, H_BOOSTS] and size < hints[c, H_UNSAFE_AT] \
                        and hints[c, H_VALUE] > best:
                    chosen, best = a, hints[c, H_VALUE]
        if chosen >= 0:
            return chosen
        lowest = 1e300
        for i in range(k):
            a = buf[i]
            if a < PLAY0:
                cost = _discard_cost(t, hints, seat, a)
                if cost < lowest:
                    chosen, lowest = a, cost
        return chosen
    for i in range(k):
        a = buf[i]
        if PLAY0 <= a < END:
            c = a - PLAY0
            value = hints[c, H_PLAY_VALUE]
            if size < hints[c, H_UNSAFE_AT] and value > -1.0 and value > best:
                chosen, best = a, value
    return chosen if chosen >= 0 else END


@numba.njit(cache=True)
def _destroy_value(t, prm, rules, hints, seat, c):
    """The heuristic's worth of destroying ``c``: an opponent's asset by its value, its own
    at a loss."""
    mine = _zone_has(t, seat, c)
    theirs = False
    for q in range(prm[P_PLAYERS]):
        if _team(prm, q) != _team(prm, seat) and _zone_has(t, q, c):
            theirs = True
    value = hints[c, H_VALUE] if rules[c, R_ASSET] else 0.0
    return value if theirs else (-value if mine else 0.0)


@numba.njit(cache=True)
def _heuristic_choose(t, prm, rules, hints, seat, top, buf, k):
    """A card to choose: none to the bottom of the draw pile; the opponents' best asset to
    destroy; the best asset to restore; an 8 or the best card to take, and to give back the
    card least useful (8s kept)."""
    card, trigger, pc, extra = _arg(t, top, 0), _arg(t, top, 1), _arg(t, top, 2), \
        _arg(t, top, 5)
    op = _op(rules, card, trigger, pc, 0)
    if op == OP_LOOK:
        return NO
    chosen = -1
    best, best_eight = 0.0, False
    for i in range(k):
        a = buf[i]
        if not CHOOSE0 <= a < ORDER0:
            continue
        c = a - CHOOSE0
        eight = c % 13 + 1 == EIGHT
        if op == OP_DESTROY:
            value = _destroy_value(t, prm, rules, hints, seat, c)
            better = chosen < 0 or value > best
        elif op == OP_RESTORE:
            value = hints[c, H_VALUE]
            better = chosen < 0 or value > best
        elif extra == TRADE_TAKE:  # the greatest (is an 8, value)
            value = hints[c, H_VALUE]
            better = chosen < 0 or (eight and not best_eight) or (
                eight == best_eight and value > best)
        else:  # give: the least (is an 8, value)
            value = hints[c, H_VALUE]
            better = chosen < 0 or (best_eight and not eight) or (
                eight == best_eight and value < best)
        if better:
            chosen, best, best_eight = a, value, eight
    return chosen


@numba.njit(cache=True)
def heuristic_action(t, prm, rules, hints, buf):
    """What :class:`~eights.agents.crazier_heuristic.CrazierEightsHeuristic` plays for the
    seat to act, decision by decision as its handlers do."""
    k = legal_actions(t, prm, buf)
    if k == 1:
        return buf[0]
    top = t.ag_len - 1
    kind, seat = t.ag_kind[top], np.int64(t.ag_seat[top])
    if kind == MAIN:
        return _heuristic_main(t, hints, seat, buf, k)
    if kind in (NAME_COLOUR, COLOUR):
        return COLOUR0 + _best_colour(t, seat)
    if kind == TARGET:  # the opponent closest to going out (any seat when none is one)
        chosen, pool_enemies = -1, False
        for i in range(k):
            q = buf[i] - TARGET0
            enemy = _team(prm, q) != _team(prm, seat)
            if chosen < 0:
                better = True
            elif enemy != pool_enemies:
                better = enemy
            else:
                better = t.hand_len[q] < t.hand_len[chosen]
            if better:
                chosen, pool_enemies = q, enemy
        return TARGET0 + chosen
    if kind == CHOOSE:
        return _heuristic_choose(t, prm, rules, hints, seat, top, buf, k)
    if kind == ASK:
        card, trigger, pc = _arg(t, top, 0), _arg(t, top, 1), _arg(t, top, 2)
        if _op(rules, card, trigger, pc + 1, 0) == OP_DESTROY:
            for q in range(prm[P_PLAYERS]):
                if _team(prm, q) != _team(prm, seat) and t.zone_len[q]:
                    return YES
            return NO
        return YES
    if kind == ORDER:  # the most valuable first, ties to the lowest id
        chosen, best = buf[0], hints[buf[0] - ORDER0, H_VALUE]
        for i in range(1, k):
            value = hints[buf[i] - ORDER0, H_VALUE]
            if value > best:
                chosen, best = buf[i], value
        return chosen
    return buf[0]


# ---------------------------------------------------------------- from the declarations
def _check_engine(engine: Any) -> None:
    """The ids and frames written above are the engine's (a change there fails here, not as
    a silent difference)."""
    from ..engines import crazier_abilities as abilities
    from ..engines import crazier_actions as actions
    from ..engines import crazier_cards as cards

    ids = (actions.DISCARD_ID[0], actions.PLAY_ID[0], actions.END_ID, actions.COLOUR_ID[0],
           actions.TARGET_ID[0], actions.CHOOSE_ID[0], actions.ORDER_ID[0], actions.YES,
           actions.NO, actions.NUM_ACTIONS)
    if ids != (DISCARD0, PLAY0, END, COLOUR0, TARGET0, CHOOSE0, ORDER0, YES, NO, NUM_ACTIONS) \
            or tuple(engine.phases) != FRAMES[:DECISION_KINDS] \
            or set(engine.frame_args) != set(FRAMES) \
            or cards.MAX_PROGRAM_STEPS != MAX_STEPS or set(OP_NAMES) != set(
                cards.PRIMITIVES) - {"repeat", "if"} | {"test", "jump", "ask"} \
            or (abilities.TRADE_WHO, abilities.TRADE_TAKE, abilities.TRADE_GIVE) != (
                TRADE_WHO, TRADE_TAKE, TRADE_GIVE) \
            or actions.MAX_PLAYERS != MAX_PLAYERS:
        raise ValueError("crazier_eights core: the engine's action ids, frames or steps "
                         "changed; the compiled core writes the old ones")


def _op_row(op: tuple) -> list[int]:
    """A compiled step (the card file compiler's tuple) as :data:`OP_WIDTH` integers."""
    name = op[0]
    row = [OP_NAMES[name], 0, 0, 0, 0, 0]
    if name == "draw":
        row[1:3] = WHO_CODES[op[1]], op[2]
    elif name in ("discard_extra", "reveal", "jump", "ask"):
        row[1] = op[1]
    elif name == "choose_player":
        row[1] = PLAYER_AMONG[op[1]]
    elif name == "destroy":
        row[1] = CARD_AMONG[op[1]]
    elif name == "look":
        row[1:3] = op[1], int(op[2])
    elif name == "lose":
        row[1] = WHO_CODES[op[1]]
    elif name == "test":
        test, kind = op[1], TEST_CODES[op[1][0]]
        value = int(test[1] == "asset") if kind == FOUND_TYPE else test[1]
        who = WHO_CODES[test[2]] if len(test) > 2 else YOU
        row[1:] = kind, value, who, op[2], op[3]
    return row


def card_table(cards: Any) -> np.ndarray:
    """A card set's rules as the compiled interpreter reads them: a row per card id (its
    rank, colours, type, substitutions, what an event needs, and each trigger's steps)."""
    table = np.zeros((CARDS, RULE_COLUMNS), np.int64)
    cardset = cards.cardset
    for c in range(CARDS):
        row = table[c]
        row[R_RANK] = cardset.rank[c]
        row[R_BITS] = sum(1 << k for k in cardset.colours_of[c])
        row[R_ASSET] = int(cards.is_asset[c])
        row[R_SAVES] = int(cards.saves[c])
        for cause, change in cards.draw_change[c]:
            row[R_CHANGE_ANY if cause == "any" else R_CHANGE_OPPONENT] += change
        for need in cards.needs[c]:
            if need[0] == "restore":
                row[R_NEED_RESTORE] = 1
            else:
                row[R_NEED_DESTROY + CARD_AMONG[need[1]]] = 1
        for trigger, program in enumerate(cards.programs[c]):
            row[R_LENGTH + trigger] = len(program)
            for pc, op in enumerate(program):
                at = R_PROGRAM + (trigger * MAX_STEPS + pc) * OP_WIDTH
                row[at:at + OP_WIDTH] = _op_row(op)
    return table


def _hints(cards: Any) -> np.ndarray:
    """What the heuristic reads of each card, from the agent itself: its value, the value
    of playing it, whether it grants discards, and the hand size from which its own test
    can make its player lose (``_safe``)."""
    from ..agents.crazier_heuristic import CrazierEightsHeuristic, card_value
    from ..engines.crazier_cards import PLAY

    agent = CrazierEightsHeuristic()
    hints = np.zeros((CARDS, 4), np.float64)
    for c in range(CARDS):
        hints[c, H_VALUE] = card_value(cards, c)
        hints[c, H_PLAY_VALUE] = agent._play_value(None, cards, c)
        hints[c, H_BOOSTS] = float(agent._grants_discards(cards, c))
        hints[c, H_UNSAFE_AT] = min(
            (op[1][1] for op in cards.programs[c][PLAY] if op[0] == "test"
             and op[1][0] == "hand_at_least" and op[1][2] == "you"), default=1 << 30)
    return hints


def constants(engine: Any, config: Any) -> tuple[np.ndarray, np.ndarray]:
    """The card set's rules as a table (:func:`card_table`) and the heuristic's per-card
    hints, both read from the config's cards and the agent."""
    return card_table(config.cards), _hints(config.cards)


def _scales(engine: Any, config: Any) -> np.ndarray:
    """Each encoding's factor, read from the declared field of its feature as the encoder
    computes it (``1.0 / scale`` in float64; the card counts' factor in float32)."""
    from ..engines.encoding import CardCounts, CardList, Counts, PerSeat, Scaled

    lists = ("hand", "zones", "ally_hands", "known_stock", "looking_at", "resolving")
    counts = ("discards", "played_cards", "known", "unseen")
    expected = {**{f: (CardList, PerSeat) for f in lists},
                **{f: (CardCounts, PerSeat) for f in counts},
                "discards_left": PerSeat, "hand_sizes": PerSeat, "stock": Scaled,
                "discard_size": Scaled, "scores": PerSeat, "named_colours": PerSeat,
                "drawn_since": PerSeat}
    fields, wrong = declared.encodings(engine, expected)

    def inner(feature: str) -> Any:
        field = fields[feature]
        return field.each if isinstance(field, PerSeat) else field

    if not wrong:
        copies = {declared.number(inner(f).copies, config) for f in lists + counts}
        kinds_ok = all(isinstance(inner(f), CardList) for f in lists) and all(
            isinstance(inner(f), CardCounts) for f in counts) and isinstance(
            inner("named_colours"), Counts)
        if len(copies) != 1 or not kinds_ok or declared.number(
                fields["stock"].scale, config) != declared.number(
                fields["discard_size"].scale, config):
            wrong = ["the card lists and counts by one number of copies, the draw and discard "
                     "piles' sizes by one scale"]
    if wrong:
        raise ValueError(f"crazier_eights core: the features are not encoded as the compiled "
                         f"core writes them: {wrong}")
    scales = np.zeros(8, np.float64)
    copies = declared.number(inner("hand").copies, config)
    scales[S_COPIES] = 1.0 / copies
    scales[S_COUNTS32] = np.float32(1.0 / copies)
    scales[S_DISCARDS_LEFT] = 1.0 / declared.number(inner("discards_left").scale, config)
    scales[S_SIZES] = 1.0 / declared.number(inner("hand_sizes").scale, config)
    scales[S_TOTAL] = 1.0 / declared.number(fields["stock"].scale, config)
    scales[S_SCORES] = 1.0 / declared.number(inner("scores").scale, config)
    scales[S_NAMED] = 1.0 / declared.number(inner("named_colours").scale, config)
    scales[S_DRAWN_SINCE] = 1.0 / declared.number(inner("drawn_since").scale, config)
    return scales


def _loses_then_goes_on(cards: Any) -> bool:
    """Whether an ability of the card set has steps after a ``lose`` (in a match the core
    would run them before the next game's first frames, the engine after: module
    docstring)."""
    return any(op[0] == "lose" and pc < len(program) - 1
               for programs in cards.programs for program in programs
               for pc, op in enumerate(program))


def compile_config(engine: Any, config: Any, encoder: Any
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The config as the core's integer parameters, the encoder's offsets in
    :data:`FEATURES` order, and the encodings' factors (read from the declarations, so a
    layout change shows up here as a missing feature)."""
    _check_engine(engine)
    missing = [f for f in FEATURES if f not in encoder.offsets]
    if missing:
        raise ValueError(f"crazier_eights core: the observation has no feature {missing}; the "
                         f"compiled core writes the v2 layout")
    if config.games > 1 and _loses_then_goes_on(config.cards):
        raise NotCompiled("crazier_eights core: a card set with steps after a lose step is "
                          "played by the Python engines in a match (games > 1)")
    params = np.zeros(NUM_PARAMS, np.int64)
    params[P_PLAYERS] = config.num_players
    params[P_DECKS] = config.decks
    params[P_HAND] = config.hand_size
    params[P_TEAMS] = config.teams
    params[P_GAMES] = config.games
    params[P_SCORE_REWARD] = int(config.reward == "score")
    params[P_MAX_TURNS] = config.max_turns
    offsets = np.array([encoder.offsets[f] for f in FEATURES], np.int64)
    return params, offsets, _scales(engine, config)


_FRAME_IDS = {kind: i for i, kind in enumerate(FRAMES)}


def record_from_engine(engine: Any, records: np.ndarray, mt_value: int) -> None:
    """Write a Python ``CrazierEightsGame``'s position into ``records[0]`` (its later shuffles
    drawn from a Mersenne Twister seeded ``mt_value``): the compiled search's start. The
    public memory is the engine's: the shared counts as the seat to act remembers them
    (a determinized position knows the searching seat's), ``known`` per seat."""
    from ..engines.crazier_abilities import ability_ask

    s = engine.state
    n = engine.num_players
    records[0] = np.zeros((), records.dtype)
    rec = records[0]
    for p in range(n):
        np.add.at(rec["hands"], p * CARDS + np.asarray(s.hands[p], np.int64), 1)
        rec["hand_len"][p] = len(s.hands[p])
        rec["zones"][p * MAX_CARDS: p * MAX_CARDS + len(s.zones[p])] = s.zones[p]
        rec["zone_len"][p] = len(s.zones[p])
        rec["known"][p * MAX_KNOWN: p * MAX_KNOWN + len(s.known[p])] = s.known[p]
        rec["known_len"][p] = len(s.known[p])
    rec["stock"][: len(s.stock)] = s.stock
    records["stock_len"][0] = len(s.stock)
    discard, resolving = s.piles
    rec["pile"][: len(discard)] = discard
    records["pile_len"][0] = len(discard)
    rec["pile_counts"][:] = np.frombuffer(bytes(s.pile_counts[0]), np.uint8)[:CARDS]
    rec["resolving"][: len(resolving)] = resolving
    records["resolving_len"][0] = len(resolving)
    for name in ("lead", "phase", "named", "trade_taken", "first", "hand_number"):
        records[name][0] = getattr(s, name)
    for name in ("discards", "played", "out", "lost_with", "scores"):
        rec[name][:n] = getattr(s, name)
    records["ag_len"][0] = len(s.agenda)
    for i, frame in enumerate(s.agenda):
        rec["ag_kind"][i] = _FRAME_IDS[frame.kind]
        rec["ag_seat"][i] = frame.seat
        args = list(frame.args) + [0] * (ARGS - len(frame.args))
        args[A_ASKS] = ability_ask(engine.programs, frame)[1]
        rec["ag_args"][i * ARGS: (i + 1) * ARGS] = args
    records["current"][0] = engine.current_player
    records["turn"][0] = engine.turn
    records["hand_start"][0] = engine.hand_start_turn
    records["terminated"][0], records["truncated"][0] = engine.terminated, engine.truncated
    for p in engine.winners:
        rec["winners"][p] = 1
    fill_memory(engine, rec, CARDS, MAX_PLAYERS,
                ("mem_played", "mem_named", "mem_drawn", "mem_known"))
    rec["bits"][:] = [sum(1 << k for k in colours) for colours in engine.cardset.colours_of]
    rec["legal"][np.asarray(engine.legal_actions(), np.int64)] = 1
    records["mti"][0] = seed(records["mt"][0], mt_value)
