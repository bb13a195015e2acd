"""ISMCTS on a compiled core: the search of :class:`~eights.agents.ismcts.ISMCTSAgent`, in numba.

``ismcts:core=compiled`` runs the whole iteration (determinize, select,
expand, roll out, back up) in compiled code on the records of a variant's
compiled core (:data:`~eights.vector.tables.COMPILED`), where the Python
search steps a Python engine. The algorithm is the Python agent's:

* **determinization**: the hidden cards (the other hands and the stock) are
  dealt uniformly to the other seats' hand sizes, the rest shuffled into the
  stock; with ``infer`` each opponent whose draw record stands (it drew and
  has not played since) gets its cards that fitted then swapped for stock
  cards that did not, its last card spared (it may be the drawn one), as
  :meth:`PileDeterminizer._respect_draws
  <eights.engines.determinizers.pile.PileDeterminizer._respect_draws>` does.
  The public state comes from one Python determinization of the view per
  decision (:func:`template`), so what the view says is read by the same code;
* **selection** by UCB1 over availability counts, edges keyed by (seat,
  action); **expansion** of the untried legal action the playout policy
  would pick; **rollouts** by that policy (a random card play, wild cards
  last; after a wild card the suit held most; else draw or pass), in a match
  to the end of the hand the iteration started in (``horizon=hand``, the
  default: :func:`hand_returns` scores it) or of the match (``horizon=game``);
  **back-up** of each seat's return at the nodes it acted at.

With ``belief=voids`` every iteration's deal is weighed in compiled code by
the evidence the Python determinizer reads from the seat's history once per
decision (:func:`evidence_rows`, :func:`weight`, :func:`deal_weighted`: the
same weights and the same rejection sampling as
:meth:`~eights.engines.determinizers.base.Determinizer.deal_weighted`). An
opponent-model belief (``belief=heuristic``) draws ``deals=N`` deals of the
other hands (default :data:`DEFAULT_MODEL_DEALS`) by its Markov chain in
compiled code before the search (:mod:`eights.vector.choices`), and
``deals=N`` with another belief draws them in Python; every iteration then
plays one of them with the stock shuffled anew.

Baby-Eating Eights, Jokers of Death and Crazier Eights keep other records
(ordered hands, 54 card ids, several piles, ordered zones and an agenda of
abilities; their cores say ``DEALS_COMPILED = False``): there
every deal is the Python determinizer's (:meth:`Engine.determinize
<eights.engines.base.Engine.determinize>` with the belief, ``deals=N`` of
them, default :data:`DEFAULT_DEALS`, drawn once a decision and written by the
core's ``record_from_engine``), and every iteration plays one of them with its
stock shuffled anew (:func:`deal_position`). The rest of the search is the
same code on their cores.

Its randomness is its own (a SplitMix64 stream seeded from the agent's
generator), so for a seed it is deterministic, but it plays other games than
the Python search of the same seed. A ``prior`` stays with the Python search
(the agent refuses it with ``core=compiled``).
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numba
import numpy as np

from ..agents.heuristic import PileHeuristicModel
from ..config import ConfigError
from ..engines import engine_class
from ..engines.determinizers.belief import CANDIDATES, NAMED_EPS, VOID_EPS, AtMost, NamedSuit
from . import choices, cores
from .mt import uniform
from .records import CARDS

#: evidence row kinds (:func:`evidence_rows`)
AT_MOST, NAMED_SUIT = 0, 1
#: columns of an evidence row before its per-card part: kind, seat, limit or suit
EVIDENCE_CARDS = 3

#: what an action id is to the playout policy (:func:`playout_kinds`): another action, a
#: card play, a wild card's play; ``NAMES_SUIT + s`` names suit (colour) ``s``
OTHER, PLAYS, PLAYS_WILD, NAMES_SUIT = 0, 1, 2, 10

#: node arrays: key (seat * actions + action), first child, next sibling, visits, availability
K_KEY, K_CHILD, K_SIBLING, K_VISITS, K_AVAIL = range(5)


@numba.njit(cache=True)
def _below(rng, n):
    u, rng = uniform(rng)
    k = int(u * n)
    return (k if k < n else n - 1), rng


@numba.njit(cache=True)
def determinize(template_bytes, t, t_bytes, prm, seat, voids, deals, evidence, positions,
                hidden, counts, rng):
    """Deal ``template``'s hidden cards into ``t`` (a copy of it): one of ``positions``
    where the Python determinizer dealt whole records (:func:`deal_position`), one of
    ``deals`` where a belief drew the other hands, else :func:`deal_uniform`'s deal,
    weighed by ``evidence`` (:func:`deal_weighted`) where it holds any."""
    if positions.shape[0]:
        return deal_position(positions, t, t_bytes, rng)
    if deals.shape[0] == 0 and evidence.shape[0]:
        return deal_weighted(template_bytes, t, t_bytes, prm, seat, voids, evidence, hidden,
                             counts, rng)
    return deal_uniform(template_bytes, t, t_bytes, prm, seat, voids, deals, hidden, counts,
                        rng)


@numba.njit(cache=True)
def deal_weighted(template_bytes, t, t_bytes, prm, seat, voids, evidence, hidden, counts, rng):
    """A deal drawn in proportion to its weight under ``evidence``, as
    ``Determinizer.deal_weighted`` (:mod:`eights.engines.determinizers.base`) draws one:
    each of at most :data:`CANDIDATES` uniform deals is kept with probability its weight;
    when none is, one of them in proportion to its weight (dealt again from the generator
    state it was dealt from: a deal is a function of that state)."""
    none = np.zeros((0, 0), np.uint8)
    kept, total = rng, 0.0
    for i in range(CANDIDATES):
        start = rng
        rng = deal_uniform(template_bytes, t, t_bytes, prm, seat, voids, none, hidden, counts,
                           rng)
        w = weight(t[0], evidence)
        u, rng = uniform(rng)
        if u < w:
            return rng
        total += w
        u, rng = uniform(rng)
        if i == 0 or (w > 0.0 and u * total < w):
            kept = start
    deal_uniform(template_bytes, t, t_bytes, prm, seat, voids, none, hidden, counts, kept)
    return rng


@numba.njit(cache=True)
def weight(r, evidence):
    """:func:`eights.engines.determinizers.belief.weight` of the hands in record ``r``:
    ``VOID_EPS`` for each card a seat holds beyond an :class:`AtMost` row's limit,
    ``NAMED_EPS`` for each card a named suit falls short of the seat's longest suit (its
    hand with the cards it played since; 8s in no suit). Rows as :func:`evidence_rows`."""
    w = 1.0
    suits = np.zeros(4, np.int64)
    for e in range(evidence.shape[0]):
        kind, base, arg = evidence[e, 0], evidence[e, 1] * CARDS, evidence[e, 2]
        row = evidence[e, EVIDENCE_CARDS:]
        if kind == AT_MOST:
            held = 0
            for c in range(CARDS):
                if row[c]:
                    held += r.hands[base + c]
            if held > arg:
                w *= VOID_EPS ** (held - arg)
        else:
            suits[:] = 0
            for c in range(CARDS):
                if c % 13 != 7:
                    suits[c // 13] += r.hands[base + c] + row[c]
            short = suits.max() - suits[arg]
            if short:
                w *= NAMED_EPS ** short
    return w


@numba.njit(cache=True)
def deal_uniform(template_bytes, t, t_bytes, prm, seat, voids, deals, hidden, counts, rng):
    """Deal ``template``'s hidden cards into ``t`` (a copy of it): the other seats' hands
    and the stock from the cards they hold in the template, shuffled; then each seat
    with a row in ``voids`` (1 = a card it would not have drawn holding) swaps its void
    cards, its last dealt card spared, for random stock cards outside its void."""
    t_bytes[:] = template_bytes
    r = t[0]
    n = voids.shape[0]
    count = 0
    for p in range(n):
        if p == seat:
            continue
        for c in range(CARDS):
            for _ in range(r.hands[p * CARDS + c]):
                hidden[count] = c
                count += 1
            r.hands[p * CARDS + c] = 0
    for i in range(r.stock_len):
        hidden[count] = r.stock[i]
        count += 1
    if deals.shape[0]:
        return _deal_from(r, prm, seat, deals, hidden, count, counts, rng)
    for i in range(count - 1, 0, -1):
        j, rng = _below(rng, i + 1)
        hidden[i], hidden[j] = hidden[j], hidden[i]
    pos = 0
    last = counts[:n]  # (scratch: the card dealt last to each seat)
    last[:] = -1
    for p in range(n):
        if p == seat:
            continue
        for _ in range(r.hand_len[p]):
            c = hidden[pos]
            r.hands[p * CARDS + c] += 1
            last[p] = c
            pos += 1
    r.stock_len = count - pos
    for i in range(r.stock_len):
        r.stock[i] = hidden[pos + i]
    for p in range(n):
        if p == seat or voids[p, CARDS] == 0:  # column CARDS: the seat has a void at all
            continue
        spared = False
        for c in range(CARDS):
            k = r.hands[p * CARDS + c]
            if not k or not voids[p, c]:
                continue
            for _ in range(k):
                if not spared and c == last[p]:
                    spared = True
                    continue
                # a random stock card outside the void, if any
                free = 0
                for i in range(r.stock_len):
                    if not voids[p, r.stock[i]]:
                        free += 1
                if free == 0:
                    break
                pick, rng = _below(rng, free)
                for i in range(r.stock_len):
                    x = r.stock[i]
                    if not voids[p, x]:
                        if pick == 0:
                            r.stock[i] = c
                            r.hands[p * CARDS + c] -= 1
                            r.hands[p * CARDS + x] += 1
                            break
                        pick -= 1
    off, rng = _below(rng, 624)  # the reshuffles of this deal start elsewhere in the stream
    r.mti = off
    return rng


@numba.njit(cache=True)
def deal_position(positions, t, t_bytes, rng):
    """One of ``positions`` (whole records as bytes, each dealt by the Python determinizer)
    picked at random into ``t``, its stock shuffled anew and its generator's next draws
    (reshuffles, random picks of the rules) taken from elsewhere in its stream: the other
    hands are the belief's, the stock's order is nobody's."""
    k, rng = _below(rng, positions.shape[0])
    t_bytes[:] = positions[k]
    r = t[0]
    for i in range(r.stock_len - 1, 0, -1):
        j, rng = _below(rng, i + 1)
        r.stock[i], r.stock[j] = r.stock[j], r.stock[i]
    off, rng = _below(rng, 624)
    r.mti = off
    return rng


@numba.njit(cache=True)
def _deal_from(r, prm, seat, deals, hidden, count, counts, rng):
    """The other hands of one of ``deals`` (picked at random), the rest of the ``count``
    hidden cards in ``hidden`` shuffled into the stock."""
    n = deals.shape[1] // CARDS
    k, rng = _below(rng, deals.shape[0])
    left = counts[: CARDS]  # (scratch)
    left[:] = 0
    for i in range(count):
        left[hidden[i]] += 1
    for p in range(n):
        if p == seat:
            continue
        for c in range(CARDS):
            m = deals[k, p * CARDS + c]
            r.hands[p * CARDS + c] = m
            left[c] -= m
    size = 0
    for c in range(CARDS):
        for _ in range(left[c]):
            r.stock[size] = c
            size += 1
    r.stock_len = size
    for i in range(size - 1, 0, -1):
        j, rng = _below(rng, i + 1)
        r.stock[i], r.stock[j] = r.stock[j], r.stock[i]
    off, rng = _below(rng, 624)
    r.mti = off
    return rng


@numba.njit(cache=True)
def _playout_action(r, kinds, legal, k, rng):
    """The playout policy's pick among ``legal[:k]`` (the Python search's
    ``_playout_action``): a random card play, wild cards only when no other card is among
    them; else the suit the chooser holds most, when suits are named; else the first
    action. ``kinds`` says per action id what it is (:func:`playout_kinds`)."""
    plain, wild = 0, 0
    for i in range(k):
        kind = kinds[legal[i]]
        if kind == PLAYS:
            plain += 1
        elif kind == PLAYS_WILD:
            wild += 1
    if plain or wild:
        want = PLAYS if plain else PLAYS_WILD
        pick, rng = _below(rng, plain or wild)
        for i in range(k):
            if kinds[legal[i]] == want:
                if pick == 0:
                    return legal[i], rng
                pick -= 1
    if kinds[legal[0]] >= NAMES_SUIT:
        best = NAMES_SUIT + cores.best_suit(r, r.current)
        for i in range(k):  # the suit held most, if it is among the actions given
            if kinds[legal[i]] == best:
                return legal[i], rng
    return legal[0], rng


@numba.njit(cache=True)
def _child(nodes, parent, key):
    c = nodes[parent, K_CHILD]
    while c >= 0:
        if nodes[c, K_KEY] == key:
            return c
        c = nodes[c, K_SIBLING]
    return -1


@numba.njit(cache=True, nogil=True)
def iterate(template_bytes, t, t_bytes, prm, rules, hints, kinds, seat, voids, deals,
            evidence, positions, modelled, heuristic_playouts, by_hand, low_wins, c_explore,
            nodes, rewards, size, hidden, counts, legal, buf, path, actors, returns, totals,
            rng, iterations):
    """Run ``iterations`` ISMCTS iterations on the tree in ``nodes``/``rewards`` (``size``
    nodes used, node 0 the root); return the new size and generator state. With
    ``modelled`` the other seats play as the core's heuristic does (``hints`` its
    constants), in the tree (their edges kept, so later nodes still tell their moves
    apart) and in the rollouts; else by UCB1 and the playout policy as the searcher. With
    ``heuristic_playouts`` every seat's rollout moves are the heuristic's. With ``by_hand``
    (a match) an iteration ends with the hand it started in, scored by the hand's points
    (:func:`hand_returns`; ``low_wins``: the fewest are the best), ``totals`` its
    scratch."""
    n_actions = legal.shape[0]
    for _ in range(iterations):
        rng = determinize(template_bytes, t, t_bytes, prm, seat, voids, deals, evidence,
                          positions, hidden, counts, rng)
        r = t[0]
        node = 0
        depth = 0
        expanded = False
        hand = cores.hand_number(r)
        if by_hand:
            cores.match_totals(r, totals)
        while r.current >= 0 and not expanded and (not by_hand or
                                                   cores.hand_number(r) == hand):
            actor = r.current
            base = actor * n_actions
            if modelled and actor != seat:
                action = cores.heuristic_action(r, prm, rules, hints, buf)
                child = _child(nodes, node, base + action)
                if child < 0:
                    child = size
                    size += 1
                    nodes[child, K_KEY] = base + action
                    nodes[child, K_CHILD] = -1
                    nodes[child, K_SIBLING] = nodes[node, K_CHILD]
                    nodes[child, K_VISITS] = 0
                    nodes[child, K_AVAIL] = 1
                    rewards[child] = 0.0
                    nodes[node, K_CHILD] = child
                    expanded = True
                cores.step(r, prm, rules, action, buf)
                path[depth] = child
                actors[depth] = actor
                depth += 1
                node = child
                continue
            k = cores.legal_actions(r, prm, legal)
            untried = 0
            for i in range(k):
                if _child(nodes, node, base + legal[i]) < 0:
                    buf[untried] = legal[i]
                    untried += 1
            if untried:
                action, rng = _playout_action(r, kinds, buf, untried, rng)
                for i in range(k):
                    sibling = _child(nodes, node, base + legal[i])
                    if sibling >= 0:
                        nodes[sibling, K_AVAIL] += 1
                child = size
                size += 1
                nodes[child, K_KEY] = base + action
                nodes[child, K_CHILD] = -1
                nodes[child, K_SIBLING] = nodes[node, K_CHILD]
                nodes[child, K_VISITS] = 0
                nodes[child, K_AVAIL] = 1
                rewards[child] = 0.0
                nodes[node, K_CHILD] = child
                expanded = True
            else:
                best_value, child, action = -1e300, -1, -1
                for i in range(k):
                    c = _child(nodes, node, base + legal[i])
                    nodes[c, K_AVAIL] += 1
                    visits = nodes[c, K_VISITS]
                    value = rewards[c] / visits + c_explore * np.sqrt(
                        np.log(nodes[c, K_AVAIL]) / visits)
                    if value > best_value:
                        best_value, child, action = value, c, legal[i]
            cores.step(r, prm, rules, action, buf)
            path[depth] = child
            actors[depth] = actor
            depth += 1
            node = child
        while r.current >= 0 and (not by_hand or cores.hand_number(r) == hand):  # the rollout
            if (modelled and r.current != seat) or heuristic_playouts:
                action = cores.heuristic_action(r, prm, rules, hints, buf)
            else:
                k = cores.legal_actions(r, prm, legal)
                action, rng = _playout_action(r, kinds, legal, k, rng)
            cores.step(r, prm, rules, action, buf)
        if r.current >= 0:  # (by_hand) the hand is over and the match goes on
            hand_returns(r, totals, low_wins, returns)
        else:
            cores.returns(r, prm, returns)
        for i in range(depth):
            nodes[path[i], K_VISITS] += 1
            rewards[path[i]] += returns[actors[i]]
    return size, rng


@numba.njit(cache=True)
def hand_returns(r, totals, low_wins, out):
    """A finished hand of a match: +1 the seats whose points for it (their totals now less
    ``totals``, before the hand) were the best, -1 the others, 0 for all when alike; as
    :func:`eights.agents.ismcts.hand_returns`. ``out`` holds the hand's points on the way
    (nothing is allocated: it runs once an iteration)."""
    n = totals.shape[0]
    cores.match_totals(r, out)
    best = 0.0
    for p in range(n):
        out[p] -= totals[p]
        if p == 0 or (out[p] < best if low_wins else out[p] > best):
            best = out[p]
    alike = True
    for p in range(n):
        if out[p] != best:
            alike = False
    for p in range(n):
        out[p] = 0.0 if alike else (1.0 if out[p] == best else -1.0)


@numba.njit(cache=True)
def root_visits(nodes, seat, out):
    """The root's visits per action of ``seat`` (0 for actions never tried)."""
    out[:] = 0
    c = nodes[0, K_CHILD]
    while c >= 0:
        key = nodes[c, K_KEY]
        if key // out.shape[0] == seat:
            out[key % out.shape[0]] = nodes[c, K_VISITS]
        c = nodes[c, K_SIBLING]


# ---------------------------------------------------------------- the Python side
#: iterations between two looks at the clock under a time budget
_CHUNK = 16
#: deals an opponent-model belief draws per decision unless ``deals=`` of the ismcts spec says
DEFAULT_DEALS = 32
#: the same for the heuristic model's chain in compiled code (:func:`model_deals`)
DEFAULT_MODEL_DEALS = 256
#: that chain's steps from its plain first deal, and between two deals it keeps
MODEL_BURN_IN, MODEL_STEPS = 2000, 20


def evidence_rows(evidence: Any) -> np.ndarray:
    """The rows :func:`weight` reads, one per piece of ``evidence`` (:class:`AtMost` or
    :class:`NamedSuit`): kind, seat, the limit or the suit named, then per card id the
    cards the limit counts (0/1) or the copies played since the suit was named."""
    rows = np.zeros((len(evidence), EVIDENCE_CARDS + CARDS), np.int64)
    for row, e in zip(rows, evidence, strict=True):
        if isinstance(e, AtMost):
            row[:EVIDENCE_CARDS] = AT_MOST, e.seat, e.most
            row[EVIDENCE_CARDS + np.fromiter(e.cards, np.int64)] = 1
        elif isinstance(e, NamedSuit):
            row[:EVIDENCE_CARDS] = NAMED_SUIT, e.seat, e.suit
            np.add.at(row, EVIDENCE_CARDS + np.asarray(e.since, np.int64), 1)
        else:
            raise TypeError(f"the compiled search weighs AtMost and NamedSuit evidence, "
                            f"not {type(e).__name__}")
    return rows


def playout_kinds(engine: Any) -> np.ndarray:
    """Per action id of ``engine``, what :func:`_playout_action` reads: :data:`PLAYS`,
    :data:`PLAYS_WILD`, ``NAMES_SUIT + s`` or :data:`OTHER`, from the Python search's own
    reading of the notation (:func:`~eights.agents.ismcts.playout_table`)."""
    from ..agents.ismcts import playout_table

    table = playout_table(engine)
    kinds = np.full(len(table.plays), OTHER, np.int64)
    for a, (plays, wild, suit) in enumerate(zip(*table, strict=True)):
        if plays:
            kinds[a] = PLAYS_WILD if wild else PLAYS
        elif suit >= 0:
            kinds[a] = NAMES_SUIT + suit
    return kinds


def searched_variants() -> list[str]:
    """The variants this search plays: every variant with a compiled core."""
    from .tables import COMPILED

    return list(COMPILED)


def deals_compiled(core: Any) -> bool:
    """Whether the search deals ``core``'s hidden cards in compiled code: a core that keeps
    the 52-card pile games' record (:func:`deal_uniform` deals its ``hands`` and
    ``stock``), unless it says ``DEALS_COMPILED = False`` (Baby-Eating Eights' ordered
    hands, Jokers of Death's 54 card ids, Crazier Eights' zones and abilities), where
    the Python determinizer deals whole positions instead (:func:`deal_position`)."""
    return bool(getattr(core, "DEALS_COMPILED", True))


class Decision(NamedTuple):
    """What every tree of one decision's search reads (:func:`iterate`'s arguments before
    its tree), shared by the threads of a root-parallel search: none writes it."""

    template_bytes: np.ndarray
    params: Any
    rules: Any
    hints: Any
    kinds: np.ndarray
    seat: int
    voids: np.ndarray
    deals: np.ndarray
    evidence: np.ndarray
    positions: np.ndarray
    modelled: bool
    heuristic_playouts: bool
    by_hand: bool
    low_wins: bool
    exploration: float


class Tree:
    """One search tree and the scratch its iterations write: a deal's record, the hidden
    cards, the legal actions, the descent's path. A root-parallel search grows one per
    thread, so no two threads share a buffer."""

    def __init__(self, dtype: np.dtype, hidden_size: int, num_actions: int,
                 num_players: int) -> None:
        self.scratch = np.zeros(1, dtype)
        self.hidden = np.zeros(hidden_size, np.int8)
        #: scratch for a deal: cards left per id, or the card dealt last per seat
        self.counts = np.zeros(CARDS, np.int64)
        self.legal = np.zeros(num_actions, np.int64)
        self.buf = np.zeros(num_actions, np.int64)
        #: an iteration's descent, node and actor per step: no longer than the tree's nodes
        #: (each step enters a deeper one), so sized with the tree (:meth:`grow`)
        self.path = np.zeros(0, np.int64)
        self.actors = np.zeros(0, np.int64)
        self.returns = np.zeros(num_players, np.float64)
        self.totals = np.zeros(num_players, np.float64)

    def grow(self, decision: Decision, simulations: int, deadline: float | None,
             state: np.uint64) -> np.ndarray:
        """A new tree for ``decision``: ``simulations`` iterations, or until ``deadline``
        (``time.perf_counter``) in chunks of :data:`_CHUNK`; its node rows, node 0 the
        root."""
        capacity = simulations + 1 if deadline is None else 4096
        nodes = np.zeros((capacity, 5), np.int64)
        rewards = np.zeros(capacity, np.float64)
        nodes[0, K_CHILD] = -1
        size = 1
        scratch_bytes = self.scratch.view(np.uint8)

        def run(count: int) -> None:
            nonlocal size, state
            if len(self.path) < len(nodes):
                self.path = np.zeros(len(nodes), np.int64)
                self.actors = np.zeros(len(nodes), np.int64)
            d = decision
            size, state = iterate(d.template_bytes, self.scratch, scratch_bytes, d.params,
                                  d.rules, d.hints, d.kinds, d.seat, d.voids, d.deals,
                                  d.evidence, d.positions, d.modelled, d.heuristic_playouts,
                                  d.by_hand, d.low_wins, d.exploration,
                                  nodes, rewards, size, self.hidden, self.counts, self.legal,
                                  self.buf, self.path, self.actors, self.returns, self.totals,
                                  state, count)
            state = np.uint64(state)  # (numba returns a Python int: typed int64 if passed on)

        if deadline is None:
            run(simulations)
        else:
            while True:
                if size + _CHUNK >= len(nodes):
                    nodes = np.concatenate([nodes, np.zeros_like(nodes)])
                    rewards = np.concatenate([rewards, np.zeros_like(rewards)])
                run(_CHUNK)
                if time.perf_counter() >= deadline:
                    break
        return nodes[:size]


class CompiledSearch:
    """ISMCTS for one table config on the compiled core; see the module docstring."""

    def __init__(self, variant: str, config: Any) -> None:
        from .tables import COMPILED, CompiledTables

        if variant not in COMPILED:
            raise ConfigError(f"ismcts: core=compiled searches {', '.join(COMPILED)}; "
                              f"{variant!r} has no compiled core (use core=python, the "
                              f"default)")
        tables = CompiledTables(variant, 1, **config.to_dict())
        self.engine = engine_class(variant)
        self.core, self.params, self.rules = tables.core, tables.params, tables.rules
        #: whether deals are compiled (:func:`deals_compiled`), else whole positions
        self.compiled_deals = deals_compiled(self.core)
        self.hints = tables.hints
        self.kinds = playout_kinds(self.engine)
        self.n = config.num_players
        self.template = np.zeros(1, tables.state.dtype)
        self._dtype, self._hidden_size = tables.state.dtype, CARDS * config.num_decks
        self._num_actions = tables.num_actions
        #: one scratch per tree a search grows at once (``threads``); the first serves one
        self.trees = [self._tree()]
        #: runs the other trees of a root-parallel search (made on first use)
        self._pool: ThreadPoolExecutor | None = None
        self._pool_size = 0

    def _tree(self) -> Tree:
        return Tree(self._dtype, self._hidden_size, self._num_actions, self.n)

    def visit_counts(self, view: Any, rng: random.Random, simulations: int,
                     time_ms: float | None, exploration: float, infer: bool,
                     belief: Any = None, num_deals: int | None = None,
                     opponents: str = "ucb", playout: str = "fast",
                     by_hand: bool = True, threads: int = 1) -> np.ndarray:
        """The root's visits per action after the search (the budget: ``time_ms`` if set,
        else ``simulations`` iterations). With ``belief="voids"`` and no ``num_deals``,
        every iteration's deal is weighed by the view's evidence in compiled code; with
        another belief (an opponent model, as ``Engine.determinize`` takes it) or a
        ``num_deals``, that many deals of the other hands (default :data:`DEFAULT_DEALS`)
        are drawn by it first (in Python, inside the time budget) and every iteration
        plays one of them, the stock shuffled anew. On a core that does not deal in
        compiled code (:func:`deals_compiled`) every belief, ``None`` included, deals
        that way, whole positions. In a match with ``by_hand`` (the agent's
        ``horizon=hand``) an iteration ends with the hand it started in.

        ``threads`` > 1 grows that many trees at once from the same deals, each on a
        thread of its own with a generator of its own (root parallelization: the
        compiled iterations hold no lock), and sums their roots' visits. The
        simulations are shared out among the trees; a time budget is every tree's. For
        a seed the result is the same however the threads are scheduled."""
        started = time.perf_counter()
        game = self.engine.determinize(view, rng, infer, None)
        self.core.record_from_engine(game, self.template, rng.getrandbits(32))
        if self.compiled_deals:
            voids, deals, evidence = self._compiled_deals(game, view, rng, infer, belief,
                                                          num_deals)
            positions = np.zeros((0, self.template.itemsize), np.uint8)
        else:
            voids = np.zeros((self.n, CARDS + 1), np.uint8)
            deals = np.zeros((0, self.n * CARDS), np.uint8)
            evidence = np.zeros((0, EVIDENCE_CARDS + CARDS), np.int64)
            positions = self._positions(view, rng, infer, belief, num_deals)
        while len(self.trees) < threads:
            self.trees.append(self._tree())
        shares = [simulations // threads + (i < simulations % threads) for i in range(threads)]
        states = [np.uint64(rng.getrandbits(64)) for _ in range(threads)]
        deadline = None if time_ms is None else started + time_ms / 1000.0
        decision = Decision(self.template.view(np.uint8), self.params, self.rules,
                            self.hints, self.kinds, view.seat, voids, deals, evidence,
                            positions, opponents == "heuristic", playout == "heuristic",
                            by_hand, bool(self.engine.low_score_wins), float(exploration))

        def grow(i: int) -> np.ndarray:
            return self.trees[i].grow(decision, shares[i], deadline, states[i])

        if threads == 1:
            grown = [grow(0)]
        else:
            if self._pool_size < threads:
                self._pool = ThreadPoolExecutor(threads, thread_name_prefix="ismcts")
                self._pool_size = threads
            grown = list(self._pool.map(grow, range(threads)))  # type: ignore[union-attr]
        #: the last search's first tree (rows as :func:`iterate` writes them), to inspect
        self.nodes = grown[0]
        total = np.zeros(self._num_actions, np.int64)
        counts = np.zeros(self._num_actions, np.int64)
        for nodes in grown:
            root_visits(nodes, view.seat, counts)
            total += counts
        return total.astype(np.float64)

    def _compiled_deals(self, game: Any, view: Any, rng: random.Random, infer: bool,
                        belief: Any, num_deals: int | None,
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What :func:`determinize` reads on a core it deals in compiled code: the standing
        draws' voids, a belief's deals of the other hands, the evidence rows."""
        voids = np.zeros((self.n, CARDS + 1), np.uint8)
        if infer:
            for p, suit in enumerate(view.drew_on_suit):
                if p != view.seat and suit >= 0:
                    for c in game.draw_excludes(suit, view.drew_on_rank[p]):
                        voids[p, c] = 1
                    voids[p, CARDS] = 1
        deals = np.zeros((0, self.n * CARDS), np.uint8)
        evidence = np.zeros((0, EVIDENCE_CARDS + CARDS), np.int64)
        dealer = self.engine.determinizer(game, view, infer) if belief is not None else None
        if belief == "voids" and num_deals is None:
            evidence = evidence_rows(dealer.evidence())
        elif isinstance(belief, PileHeuristicModel) and dealer.reads_choices:
            deals = model_deals(dealer, view.seat, self.n, belief,
                                num_deals or DEFAULT_MODEL_DEALS, rng)
        elif belief is not None:
            num_deals = num_deals or DEFAULT_DEALS
            deals = np.zeros((num_deals, self.n * CARDS), np.uint8)
            for k in range(num_deals):
                dealt = self.engine.determinize(view, rng, infer, belief)
                for p, hand in enumerate(dealt.state.hands):
                    if p != view.seat:
                        np.add.at(deals[k], p * CARDS + np.asarray(hand, np.int64), 1)
        return voids, deals, evidence

    def _positions(self, view: Any, rng: random.Random, infer: bool, belief: Any,
                   num_deals: int | None) -> np.ndarray:
        """``num_deals`` (default :data:`DEFAULT_DEALS`) positions the Python determinizer
        deals from ``view`` under ``belief``, as the core's records (bytes, one row each),
        for :func:`deal_position`."""
        records = np.zeros(num_deals or DEFAULT_DEALS, self.template.dtype)
        for k in range(len(records)):
            dealt = self.engine.determinize(view, rng, infer, belief)
            self.core.record_from_engine(dealt, records[k:k + 1], rng.getrandbits(32))
        return records.view(np.uint8).reshape(len(records), -1)


def model_deals(dealer: Any, seat: int, num_players: int, model: PileHeuristicModel,
                num_deals: int, rng: random.Random) -> np.ndarray:
    """``num_deals`` deals of the hands other than ``seat``'s, as copies per seat and card
    id, drawn by the heuristic model's chain in compiled code (:func:`choices.model_deals`)
    from ``dealer`` (a pile game's determinizer of the view): :data:`MODEL_BURN_IN` steps
    from a plain deal, then :data:`MODEL_STEPS` between deals. No rows (every iteration
    dealt as without a model) when no opponent made a choice the model weighs."""
    history = dealer.choices()
    if not history.informative:
        return np.zeros((0, num_players * CARDS), np.uint8)
    rows, unfit, fitting = choices.history_arrays(history, CARDS)
    c = dealer.constraints
    hidden_hands, stock = dealer.deal_hidden(rng)
    hands = np.zeros((num_players, len(c.hidden) + 1), np.int64)
    sizes = np.zeros(num_players, np.int64)
    for p, hand in enumerate(hidden_hands):
        hands[p, :len(hand)] = hand
        sizes[p] = len(hand)
    fixed = np.zeros(num_players, np.int64)
    for _card, p in c.placed:
        fixed[p] += 1  # deal_hidden puts a hand's placed cards first
    barred = np.zeros((num_players, CARDS), np.uint8)
    for p, cards in c.barred.items():
        barred[p, list(cards)] = 1
    points, attack, slip = choices.model_constants(model.engine, model.slip)
    deals = np.zeros((num_deals, num_players * CARDS), np.uint8)
    choices.model_deals(rows, unfit, fitting, hands, sizes, fixed, np.asarray(stock, np.int64),
                        barred, seat, points, attack, slip, MODEL_BURN_IN, MODEL_STEPS, deals,
                        np.uint64(rng.getrandbits(64)))
    return deals
