"""ISMCTS on the compiled cores (``ismcts:core=compiled``, eights/vector/search.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import eights
from eights.agents import make_agent
from eights.agents.ismcts import ISMCTSAgent
from eights.config import ConfigError
from eights.engines.determinizers import belief
from eights.vector import crazy_eights as ce
from eights.vector import search
from eights.vector.tables import CompiledTables

#: no evidence to weigh deals by (a uniform deal)
_NO_EVIDENCE = np.zeros((0, search.EVIDENCE_CARDS + ce.CARDS), np.int64)
#: no positions dealt in Python (the compiled deal)
_NO_POSITIONS = np.zeros((0, 1), np.uint8)
#: the cores whose deals are the Python determinizer's positions
_POSITION_DEALT = [v for v in search.searched_variants()
                   if not search.deals_compiled(CompiledTables(v, 1).core)]


def _positions(num_players: int, games: int, seed: int, variant: str = "crazy_eights"):
    """Views of the seat to act at every decision of heuristic games."""
    game = eights.make_game(variant, num_players=num_players)
    agent = make_agent("heuristic", variant)
    for k in range(games):
        game.reset(seed=seed + k)
        while not game.game_over:
            view = game.view(game.current_player)
            yield game, view
            game.step(agent.act(view))


@pytest.mark.parametrize("variant", search.searched_variants())
@pytest.mark.parametrize("num_players", [2, 3])
def test_plays_whole_games_with_legal_actions(variant, num_players):
    # where the Python determinizer deals (a belief's deals drawn before the search, 32 a
    # decision by default: most of the test's time), 4 deals show the same
    deals = ",deals=4" if variant in _POSITION_DEALT else ""
    agent = make_agent(f"ismcts:sims=40,core=compiled,belief=voids{deals}", variant, seed=3)
    game = eights.make_game(variant, num_players=num_players)
    for k in range(2):
        game.reset(seed=100 + k)
        while not game.game_over:
            view = game.view(game.current_player)
            action = agent.act(view)
            assert action in view.legal_actions
            game.step(action)


@pytest.mark.parametrize("variant", search.searched_variants())
@pytest.mark.parametrize("num_players", [2, 4])
def test_a_position_from_the_engine_plays_on_as_the_engine(variant, num_players):
    """``record_from_engine`` writes a determinized position the core continues exactly as
    the Python engine does (same seat to act, same legal actions, move after move) until a
    reshuffle or another draw of chance, which the record's own generator draws."""
    tables = CompiledTables(variant, 1, num_players=num_players)
    core, records = tables.core, np.zeros(1, tables.state.dtype)
    legal, buf = np.zeros(tables.num_actions, np.int64), np.zeros(tables.num_actions, np.int64)
    rng, compared, frames = random.Random(5), 0, set()
    for game, view in _positions(num_players, 3, 300, variant):
        position = game.determinize(view, rng, True, None)
        core.record_from_engine(position, records, 7)
        for _ in range(6):
            if position.game_over or not position.state.stock:
                break
            frames.add(position.state.agenda[-1].kind)
            assert records["current"][0] == position.current_player
            k = core.legal_actions(records[0], tables.params, legal)
            assert tuple(legal[:k]) == tuple(position.legal_actions())
            action = rng.choice(position.legal_actions())
            rolls = position.rng.getstate()
            position.step(action)
            core.step(records[0], tables.params, tables.rules, action, buf)
            compared += 1
            if position.rng.getstate() != rolls:  # a draw of chance: the record draws its own
                break
    assert compared > 100 and len(frames) >= 2


def test_visits_sum_to_the_simulations_and_are_reproducible():
    for _game, view in list(_positions(2, 1, 7))[:12]:
        if len(view.legal_actions) < 2:
            continue
        counts = [ISMCTSAgent(seed=11, simulations=60, core="compiled").visit_counts(view)
                  for _ in range(2)]
        assert np.array_equal(counts[0], counts[1])
        assert counts[0].sum() == 60
        assert set(np.flatnonzero(counts[0])) <= set(view.legal_actions)


class _OneByOne:
    """An executor that runs the trees one after another on the calling thread."""

    def __init__(self, *_args, **_kwargs) -> None:
        pass

    def map(self, fn, items):
        return [fn(i) for i in items]


@pytest.mark.parametrize("spec", ["sims=301,core=compiled,threads=3",
                                  "sims=2,core=compiled,threads=3",  # a tree left a bare root
                                  "sims=200,core=compiled,belief=heuristic,"
                                  "opponents=heuristic,threads=2"])
def test_trees_on_threads_are_the_trees_grown_one_by_one(spec, monkeypatch):
    """``threads=N`` shares the simulations out among N trees and sums their roots; each
    tree owns its scratch, so the threads (which run the compiled iterations at once,
    without Python's lock) give exactly what growing the same trees one by one gives."""
    views = [v for _g, v in _positions(2, 2, 23) if len(v.legal_actions) > 1][::3][:8]
    threaded = [make_agent(f"ismcts:{spec}", "crazy_eights", seed=4).visit_counts(v)
                for v in views]
    monkeypatch.setattr(search, "ThreadPoolExecutor", _OneByOne)
    one_by_one = [make_agent(f"ismcts:{spec}", "crazy_eights", seed=4).visit_counts(v)
                  for v in views]
    sims = int(spec.split(",")[0].removeprefix("sims="))
    for a, b, view in zip(threaded, one_by_one, views, strict=True):
        assert np.array_equal(a, b)
        assert a.sum() == sims and set(np.flatnonzero(a)) <= set(view.legal_actions)


def test_threads_grow_every_tree_under_a_time_budget(monkeypatch):
    """Under ``ms=`` every tree runs chunk after chunk until the clock (one chunk each is
    what a tree that stopped at once would show), and the visits are all the trees'."""
    _game, view = next((g, v) for g, v in _positions(2, 1, 9) if len(v.legal_actions) > 2)
    grown = []
    real = search.Tree.grow
    monkeypatch.setattr(search.Tree, "grow",
                        lambda tree, *a: grown.append(real(tree, *a)) or grown[-1])
    agent = make_agent("ismcts:ms=100,core=compiled,threads=2", "crazy_eights", seed=1)
    counts = agent.visit_counts(view)
    visits = []
    for nodes in grown:
        root = np.zeros(len(counts), np.int64)
        search.root_visits(nodes, view.seat, root)
        visits.append(int(root.sum()))
    assert len(visits) == 2 and min(visits) > search._CHUNK
    assert counts.sum() == sum(visits)


@pytest.mark.parametrize("spec", ["ismcts:threads=2", "ismcts:core=compiled,threads=0",
                                  "ismcts:core=compiled,threads=1.5"])
def test_threads_are_refused_where_they_cannot_run(spec):
    with pytest.raises(ConfigError, match="threads"):
        make_agent(spec, "crazy_eights")


def test_a_time_budget_grows_the_tree():
    """Chunk after chunk (the generator's state handed from one to the next whatever its
    value: a state of 2**63 or more once failed to pass back into the compiled code)."""
    _game, view = next((g, v) for g, v in _positions(2, 1, 9) if len(v.legal_actions) > 2)
    ISMCTSAgent(seed=0, simulations=2, core="compiled").visit_counts(view)  # compiled now
    for seed in range(4):
        counts = ISMCTSAgent(seed=seed, time_ms=200, core="compiled").visit_counts(view)
        # more than one chunk (about 15,000 simulations on a quiet machine; 32 would be a
        # machine 500 times slower)
        assert counts.sum() > search._CHUNK


def test_determinize_keeps_the_public_state_and_respects_standing_draws():
    """Every deal keeps the seat's hand, the other hands' sizes, the pile and every card
    of the deck; an opponent whose draw record stands holds none of the cards that
    fitted then beyond its spared last card, while the stock has others to give."""
    seen_void = 0
    for game, view in _positions(2, 4, 20):
        if view.current_player != view.seat or len(view.legal_actions) < 2:
            continue
        searcher = search.CompiledSearch("crazy_eights", view.config)
        tree = searcher.trees[0]
        rng = random.Random(0)
        position = game.determinize(view, rng, True, None)
        ce.record_from_engine(position, searcher.template, 5)
        voids = np.zeros((2, ce.CARDS + 1), np.uint8)  # (rows: the table's seats)
        other = 1 - view.seat
        if view.drew_on_suit[other] >= 0:
            for c in position.draw_excludes(view.drew_on_suit[other], view.drew_on_rank[other]):
                voids[other, c] = 1
            voids[other, ce.CARDS] = 1
        template = searcher.template[0]
        state = np.uint64(1)
        for _ in range(5):
            state = np.uint64(search.determinize(
                searcher.template.view(np.uint8), tree.scratch,
                tree.scratch.view(np.uint8), searcher.params, view.seat, voids,
                np.zeros((0, 2 * ce.CARDS), np.uint8), _NO_EVIDENCE, _NO_POSITIONS,
                tree.hidden,
                tree.counts, state))
            dealt = tree.scratch[0]
            hands = dealt["hands"].reshape(ce.MAX_PLAYERS, ce.CARDS)[:2]
            assert np.array_equal(hands[view.seat],
                                  template["hands"].reshape(ce.MAX_PLAYERS, ce.CARDS)[view.seat])
            assert hands[other].sum() == view.hand_sizes[other]
            assert dealt["stock_len"] == view.stock_size
            assert np.array_equal(dealt["pile_counts"], template["pile_counts"])
            cards = np.bincount(dealt["stock"][: dealt["stock_len"]], minlength=ce.CARDS)
            cards = cards + hands.astype(np.int64).sum(axis=0) + dealt["pile_counts"]
            assert (cards == 2).all()  # two decks: every card twice
            if voids[other, ce.CARDS]:
                void = voids[other, : ce.CARDS].astype(bool)
                held = int(hands[other][void].sum())
                stock = dealt["stock"][: dealt["stock_len"]]
                free = int((~void[stock]).sum())
                assert held <= 1 or free == 0
                seen_void += 1
    assert seen_void  # the games had standing draws to respect


@pytest.mark.parametrize("spec", ["ismcts:core=compiled,prior=policy", "ismcts:core=gpu",
                                  "ismcts:core=compiled,deals=0"])
def test_refuses_what_it_cannot_search(spec):
    with pytest.raises(ConfigError, match=r"core|deals"):
        make_agent(spec, "crazy_eights")


def test_every_variant_is_searched_on_its_compiled_core():
    assert sorted(search.searched_variants()) == sorted(eights.VARIANTS)


def test_refuses_a_variant_without_a_compiled_core_it_searches(monkeypatch):
    from eights.vector import tables

    without = {v: m for v, m in tables.COMPILED.items() if v != "crazier_eights"}
    monkeypatch.setattr(tables, "COMPILED", without)
    with pytest.raises(ConfigError, match="no compiled core it searches"):
        make_agent("ismcts:core=compiled", "crazier_eights")


def _evidence_positions(games: int, seed: int):
    """(game, view, searcher, evidence) at the decisions of the seat to act whose
    history holds evidence about the other hand."""
    for game, view in _positions(2, games, seed):
        if view.current_player != view.seat or len(view.legal_actions) < 2:
            continue
        searcher = search.CompiledSearch("crazy_eights", view.config)
        position = game.determinize(view, random.Random(0), True, None)
        evidence = searcher.engine.determinizer(position, view, True).evidence()
        if evidence:
            ce.record_from_engine(position, searcher.template, 5)
            yield position, view, searcher, evidence


def test_the_compiled_weight_is_the_beliefs():
    """:func:`search.weight` of a record gives :func:`belief.weight` of the same hands, for
    every piece of void and named-suit evidence the heuristic's games show."""
    kinds, broken = set(), 0
    for position, view, searcher, evidence in _evidence_positions(6, 50):
        tree = searcher.trees[0]
        rows = search.evidence_rows(evidence)
        kinds.update(type(e).__name__ for e in evidence)
        rng = random.Random(view.turn)
        for _ in range(4):
            dealt = type(position).determinize(view, rng, True, None)
            ce.record_from_engine(dealt, tree.scratch, 1)
            expected = belief.weight(evidence, dealt.state.hands, dealt.wild_rank)
            assert search.weight(tree.scratch[0], rows) == pytest.approx(expected)
            broken += expected < 1
    assert kinds == {"AtMost", "NamedSuit"} and broken


def test_weighted_deals_follow_the_evidence():
    """The compiled weighted deals keep the public state and weigh more, on average, than
    uniform deals of the same positions: they follow what the history shows."""
    uniform_total = weighted_total = 0.0
    for _position, view, searcher, evidence in _evidence_positions(4, 60):
        tree = searcher.trees[0]
        rows = search.evidence_rows(evidence)
        other = 1 - view.seat
        voids = np.zeros((2, ce.CARDS + 1), np.uint8)
        no_deals = np.zeros((0, 2 * ce.CARDS), np.uint8)
        for given, total in ((_NO_EVIDENCE, "uniform"), (rows, "weighted")):
            state = np.uint64(7)
            for _ in range(20):
                state = np.uint64(search.determinize(
                    searcher.template.view(np.uint8), tree.scratch,
                    tree.scratch.view(np.uint8), searcher.params, view.seat, voids,
                    no_deals, given, _NO_POSITIONS, tree.hidden, tree.counts, state))
                dealt = tree.scratch[0]
                assert dealt["hands"][other * ce.CARDS:(other + 1) * ce.CARDS].sum() == (
                    view.hand_sizes[other])
                w = search.weight(dealt, rows)
                if total == "uniform":
                    uniform_total += w
                else:
                    weighted_total += w
    assert weighted_total > 1.2 * uniform_total


@pytest.mark.parametrize("belief", ["voids", "heuristic"])
def test_a_belief_deals_the_other_hands_from_its_own_draws(belief):
    """With a belief every iteration plays one of the deals it drew: the opponent's hands
    the search meets are among them, and the search still plays legal actions."""
    agent = make_agent(f"ismcts:sims=30,core=compiled,belief={belief},deals=4",
                       "crazy_eights", seed=2)
    for _game, view in list(_positions(2, 1, 30))[:15]:
        if len(view.legal_actions) > 1:
            counts = agent.visit_counts(view)
            assert counts.sum() == 30
            assert set(np.flatnonzero(counts)) <= set(view.legal_actions)


def test_voids_without_deals_weigh_every_iteration_in_compiled_code():
    agent = make_agent("ismcts:sims=50,core=compiled,belief=voids", "crazy_eights", seed=4)
    searched = 0
    for _position, view, _searcher, _evidence in _evidence_positions(2, 70):
        counts = agent.visit_counts(view)
        assert counts.sum() == 50
        assert set(np.flatnonzero(counts)) <= set(view.legal_actions)
        searched += 1
    assert searched


def test_deal_from_keeps_every_card_and_takes_a_given_hand():
    _game, view = next((g, v) for g, v in _positions(2, 1, 40) if len(v.legal_actions) > 2)
    searcher = search.CompiledSearch("crazy_eights", view.config)
    tree = searcher.trees[0]
    game = eights.make_game("crazy_eights")
    position = type(game).determinize(view, random.Random(1), True, "voids")
    ce.record_from_engine(position, searcher.template, 5)
    other = 1 - view.seat
    deals = np.zeros((1, 2 * ce.CARDS), np.uint8)
    np.add.at(deals[0], other * ce.CARDS + np.asarray(position.state.hands[other]), 1)
    search.determinize(searcher.template.view(np.uint8), tree.scratch,
                       tree.scratch.view(np.uint8), searcher.params, view.seat,
                       np.zeros((2, ce.CARDS + 1), np.uint8), deals, _NO_EVIDENCE,
                       _NO_POSITIONS, tree.hidden, tree.counts, np.uint64(3))
    dealt = tree.scratch[0]
    hands = dealt["hands"].reshape(ce.MAX_PLAYERS, ce.CARDS)[:2]
    assert np.array_equal(hands[other], deals[0, other * ce.CARDS:(other + 1) * ce.CARDS])
    cards = np.bincount(dealt["stock"][: dealt["stock_len"]], minlength=ce.CARDS)
    cards = cards + hands.astype(np.int64).sum(axis=0) + dealt["pile_counts"]
    assert (cards == 2).all()


@pytest.mark.parametrize("variant", _POSITION_DEALT)
@pytest.mark.parametrize("belief", [None, "voids"])
def test_a_position_dealt_in_python_keeps_it_but_the_stock_order(variant, belief):
    """On a core the search does not deal in compiled code, an iteration's position is one
    the Python determinizer dealt (with the belief), byte for byte but for the stock's
    order and the generator's place in its stream: the stock holds the same cards."""
    positions_seen = 0
    for _game, view in list(_positions(3, 1, 80, variant))[::7]:
        searcher = search.CompiledSearch(variant, view.config)
        tree = searcher.trees[0]
        positions = searcher._positions(view, random.Random(view.turn), True, belief, 3)
        records = positions.view(searcher.template.dtype).reshape(-1)
        state, picked = np.uint64(11), set()
        for _ in range(12):
            state = np.uint64(search.deal_position(positions, tree.scratch,
                                                   tree.scratch.view(np.uint8), state))
            dealt = tree.scratch[0]
            k = next(k for k, r in enumerate(records)
                     if all(np.array_equal(r[f], dealt[f]) for f in records.dtype.names
                            if f not in ("stock", "mti")))
            picked.add(k)
            size = dealt["stock_len"]
            assert sorted(dealt["stock"][:size]) == sorted(records[k]["stock"][:size])
            for p, hand in enumerate(view.hand_sizes):
                assert dealt["hand_len"][p] == hand
        assert len(picked) > 1
        positions_seen += 1
    assert positions_seen > 3


def _replies(nodes: np.ndarray, seat: int, num_actions: int) -> list[int]:
    """Per move of ``seat`` at the root, the distinct replies of another seat the tree keeps
    right under it."""
    replies = []
    move = nodes[0, search.K_CHILD]
    while move >= 0:
        child, seen = nodes[move, search.K_CHILD], set()
        while child >= 0:
            if nodes[child, search.K_KEY] // num_actions != seat:
                seen.add(nodes[child, search.K_KEY])
            child = nodes[child, search.K_SIBLING]
        replies.append(len(seen))
        move = nodes[move, search.K_SIBLING]
    return replies


@pytest.mark.parametrize("variant", search.searched_variants())
def test_modelled_opponents_answer_as_the_heuristic_would(variant):
    """With opponents=heuristic and one deal of the other hands (deals=1), the opponent's
    reply to a root move varies only with what chance does first (a card it must draw
    when nothing fits, the card the searcher drew, what it may call on a last card): far
    fewer replies per root move than UCB1 opponents try."""
    n = len(eights.make_game(variant).actions)
    mean = {}
    for opponents in ("heuristic", "ucb"):
        agent = make_agent(f"ismcts:sims=300,core=compiled,belief=voids,deals=1,"
                           f"opponents={opponents}", variant, seed=5)
        replies = []
        for _game, view in list(_positions(2, 2, 50, variant))[:60]:
            if len(view.legal_actions) > 1:
                counts = agent.visit_counts(view)
                assert counts.sum() == 300
                assert set(np.flatnonzero(counts)) <= set(view.legal_actions)
                replies += [r for r in _replies(agent._compiled[view.config].nodes, view.seat, n)
                            if r]
        mean[opponents] = np.mean(replies)
    assert mean["ucb"] > 1.5 * mean["heuristic"], mean


@pytest.mark.parametrize(("spec", "option"), [
    ("ismcts:opponents=heuristic", "opponents"),
    ("ismcts:core=compiled,opponents=policy", "opponents"),
    ("ismcts:playout=heuristic", "playout"),
    ("ismcts:core=compiled,playout=greedy", "playout"),
])
def test_opponent_models_and_playouts_are_refused_where_they_cannot_run(spec, option):
    with pytest.raises(ConfigError, match=option):
        make_agent(spec, "crazy_eights")


@pytest.mark.parametrize("variant", search.searched_variants())
def test_heuristic_playouts_play_whole_games(variant):
    """Every seat's rollouts by the heuristic, the opponents modelled in the tree too: the
    search still returns its simulations on legal actions, and reproducibly."""
    spec = "ismcts:sims=60,core=compiled,belief=voids,opponents=heuristic,playout=heuristic"
    for _game, view in list(_positions(3, 1, 70, variant))[:25]:
        if len(view.legal_actions) > 1:
            counts = [make_agent(spec, variant, seed=9).visit_counts(view) for _ in range(2)]
            assert np.array_equal(counts[0], counts[1])
            assert counts[0].sum() == 60
            assert set(np.flatnonzero(counts[0])) <= set(view.legal_actions)
