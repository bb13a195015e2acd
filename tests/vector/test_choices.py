"""The heuristic model's belief in compiled code (eights/vector/choices.py) against Python's."""

from __future__ import annotations

import random

import numpy as np
import pytest

import eights
from eights.agents import make_agent
from eights.agents.heuristic import PileHeuristicModel
from eights.engines.determinizers import belief
from eights.vector import choices, mt
from eights.vector.records import CARDS


class _Stream:
    """``random.Random``'s ``random()`` drawn from the compiled weight's SplitMix64 stream,
    so the Python weight picks the unseen draws' cards the compiled one picks."""

    def __init__(self, state: int) -> None:
        self.state = np.uint64(state)

    def random(self) -> float:
        u, self.state = mt.uniform(self.state)
        self.state = np.uint64(self.state)
        return u


def _informative(num_players: int, games: int, seed: int):
    """(view, dealer, history) at the decisions whose history shows an opponent's choice."""
    game = eights.make_game("crazy_eights", num_players=num_players)
    agent = make_agent("heuristic", "crazy_eights")
    for k in range(games):
        game.reset(seed=seed + k)
        while not game.game_over:
            view = game.view(game.current_player)
            dealer = type(game).determinizer(
                type(game).determinize(view, random.Random(0), True, None), view, True)
            history = dealer.choices()
            if history.informative:
                yield view, dealer, history
            game.step(agent.act(view))


def _hands(hands_list, n, capacity):
    hands = np.zeros((n, capacity), np.int64)
    sizes = np.zeros(n, np.int64)
    for p, hand in enumerate(hands_list):
        hands[p, :len(hand)] = hand
        sizes[p] = len(hand)
    return hands, sizes


@pytest.mark.parametrize("num_players", [2, 3])
def test_the_compiled_weight_is_the_pythons(num_players):
    """Given the same uniforms for the unseen draws, :func:`choices.choice_weight` returns
    :func:`belief.choice_weight`'s number exactly, on true hands and on random deals."""
    model = PileHeuristicModel("crazy_eights")
    points, attack, slip = choices.model_constants(model.engine, model.slip)
    compared, disagreed = 0, 0
    for view, dealer, history in _informative(num_players, 3, 900):
        rows, unfit, fitting = choices.history_arrays(history, CARDS)
        rng = random.Random(view.turn)
        for _ in range(3):
            dealt, _stock = dealer.deal_hidden(rng)
            hands, sizes = _hands(dealt, num_players, 110)
            state = rng.getrandbits(64)
            expected = belief.choice_weight(history, dealt, model, _Stream(state))
            got, _ = choices.choice_weight(rows, unfit, fitting, hands, sizes, view.seat,
                                           points, attack, slip, np.zeros_like(hands),
                                           np.zeros_like(sizes), np.uint64(state))
            assert got == expected
            compared += 1
            disagreed += expected <= slip  # some choice the heuristic would not have made
    assert compared > 100 and 20 < disagreed < compared


def test_model_deals_keep_every_hard_constraint_and_lean_on_the_model():
    """The chain's deals give each opponent its hand size, only hidden cards, its placed
    cards, none it is barred from; and they weigh more under the model than plain deals."""
    model = PileHeuristicModel("crazy_eights")
    points, attack, slip = choices.model_constants(model.engine, model.slip)
    chained = plain = 0.0
    for view, dealer, history in list(_informative(2, 2, 950))[::5]:
        rows, unfit, fitting = choices.history_arrays(history, CARDS)
        c = dealer.constraints
        rng = random.Random(view.turn)
        dealt, stock = dealer.deal_hidden(rng)
        hands, sizes = _hands(dealt, 2, len(c.hidden) + 1)
        deals = np.zeros((16, 2 * CARDS), np.uint8)
        choices.model_deals(rows, unfit, fitting, hands, sizes, np.zeros(2, np.int64),
                            np.asarray(stock, np.int64), np.zeros((2, CARDS), np.uint8),
                            view.seat, points, attack, slip, 200, 10, deals, np.uint64(5))
        hidden = np.bincount(c.hidden, minlength=CARDS)
        other = 1 - view.seat
        for row in deals:
            hand = row[other * CARDS:(other + 1) * CARDS]
            assert hand.sum() == c.hand_sizes[other]
            assert (hand <= hidden).all()
            assert not row[view.seat * CARDS:(view.seat + 1) * CARDS].any()
            listed = [[], []]
            listed[other] = list(np.repeat(np.arange(CARDS), hand))
            chained += belief.choice_weight(history, listed, model, random.Random(1))
        for _ in range(len(deals)):
            plain += belief.choice_weight(history, dealer.deal_hidden(rng)[0], model,
                                          random.Random(1))
    assert chained > 2 * plain


_REBUILT_PAST_WIDTH = """
import random, sys
import numpy as np
import eights
from eights.agents import make_agent
from eights.agents.heuristic import PileHeuristicModel
from eights.vector import choices, search
from eights.vector.records import CARDS

game = eights.make_game("crazy_eights", num_players=2, num_decks=1)
agent = make_agent("heuristic", "crazy_eights")
game.reset(seed=7)
while not game.game_over:
    view = game.view(game.current_player)
    E = type(game)
    dealer = E.determinizer(E.determinize(view, random.Random(0), True, None), view, True)
    history = dealer.choices()
    if history.informative:
        rows, _, _ = choices.history_arrays(history, CARDS)
        width = len(dealer.constraints.hidden) + 1  # the chain's hands array
        for p in range(2):
            size = most = view.hand_sizes[p]
            for row in rows:
                if row[choices.SEAT] == p and p != view.seat:
                    size += {choices.PLAY: 1, choices.DRAW: -1}.get(int(row[choices.KIND]), 0)
                    most = max(most, size)
            if most > width:
                deals = search.model_deals(dealer, view.seat, 2,
                                           PileHeuristicModel("crazy_eights"), 4,
                                           random.Random(0))
                assert (deals.reshape(4, 2, CARDS).sum(axis=2)[:, 1 - view.seat]
                        == view.hand_sizes[1 - view.seat]).all()
                print("rebuilt", most, "cards in a hands array of", width)
                sys.exit(0)
    game.step(agent.act(view))
sys.exit("no position rebuilt a hand past the hands array's width")
"""


def test_the_chain_rebuilds_a_hand_larger_than_any_held_now_within_its_scratch(tmp_path):
    """A seat that played many cards and drew few held more cards earlier in the hand than
    the chain's hands array holds now: the weight's backwards rebuild must have room for
    them (it once wrote past its scratch, a heap error seen in a long strength run). Run
    with numba's bounds checks, compiled afresh, on the first such position of a game."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", _REBUILT_PAST_WIDTH], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("rebuilt ")
