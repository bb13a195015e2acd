"""Opponent-model beliefs (``belief=`` a ``ChoiceModel``): the choices read from a history,
the hands rebuilt at each of them, the heuristic's model agreeing with the heuristic, and
``Engine.determinize`` dealing by a model: reproducible, keeping the view, closer to the
true hands than uniform deals, and refused where a variant's choices are not read."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from eights.agents import make_agent
from eights.agents.heuristic import PileHeuristicModel
from eights.cards import RANK, parse_card, parse_cards
from eights.engines import engine_class, make_game
from eights.engines.determinizers import belief as b
from tests.engines.test_belief import DREW_ON_5H, choice_views, ev, fits

HEARTS, CLUBS, SPADES = 2, 0, 3


class Recorder:
    """A model that remembers the hand it was asked about at each choice (and agrees)."""

    name = "recorder"

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, list[int]]] = []

    def likelihood(self, choice: b.Choice, hand: Sequence[int]) -> float:
        self.asked.append((choice.kind, choice.observed, sorted(hand)))
        return 0.5


# ---------------------------------------------------------------- reading choices
def test_plays_draws_and_named_suits_are_choices_a_drawn_card_played_is_not() -> None:
    events = [*DREW_ON_5H, ev("draw", 1), ev("play", 1, "3C"), ev("play", 0, "3S"),
              ev("play", 1, "8D"), ev("suit", 1, arg=CLUBS)]
    history = b.choice_history(events, 0, fits, (4, 6), drawn_card_may_fit=False)
    chosen = [(c.seat, c.kind, c.observed) for c in history.choices if c is not None]
    assert chosen == [(1, "draw", -1), (1, "draw", -1), (1, "play", parse_card("8D")),
                      (1, "suit", CLUBS)]
    # the second draw's card was seen played at once; the first, kept, did not fit
    draws = [i for i, e in enumerate(history.events) if e[0] == "draw"]
    assert [history.drawn[i] for i in draws] == [-1, parse_card("3C")]
    assert history.not_drawn[draws[0]] == fits(HEARTS, 9)
    play_8d = history.choices[-2]
    assert play_8d.fitting == fits(SPADES, 3) and play_8d.nearest == 4


def test_forced_draws_are_no_choice() -> None:
    king = [ev("deal", 0, arg=0), ev("starter", card="5H"), ev("play", 0, "KH"),
            ev("draw", 1), ev("draw", 1), ev("skip", 1, arg=2)]
    history = b.choice_history(king, 0, fits, (6, 9), drawn_card_may_fit=False)
    assert not history.informative
    assert all(not nd for nd in history.not_drawn)


def test_hands_are_rebuilt_backwards_at_each_choice() -> None:
    """Seat 1 holds 4C 9C now: before naming clubs it held them, before the 8 the 8 too,
    before its seen draw not the 3C it drew and played, before its kept draw one card
    fewer: one that did not fit the 9 of hearts, and 4C is the only such card."""
    events = [*DREW_ON_5H, ev("draw", 1), ev("play", 1, "3C"), ev("play", 0, "3S"),
              ev("play", 1, "8D"), ev("suit", 1, arg=CLUBS)]
    history = b.choice_history(events, 0, fits, (4, 2), drawn_card_may_fit=False)
    recorder = Recorder()
    hands = [[], parse_cards(["4C", "9C"])]
    assert b.choice_weight(history, hands, recorder, random.Random(0)) == 0.5 ** 4
    assert recorder.asked == [
        ("suit", CLUBS, sorted(parse_cards(["4C", "9C"]))),
        ("play", parse_card("8D"), sorted(parse_cards(["4C", "9C", "8D"]))),
        ("draw", -1, sorted(parse_cards(["4C", "9C", "8D"]))),
        ("draw", -1, sorted(parse_cards(["9C", "8D"]))),
    ]


def test_a_model_that_rules_a_deal_out_weighs_it_zero() -> None:
    class Never:
        name = "never"

        def likelihood(self, choice: b.Choice, hand: Sequence[int]) -> float:
            return 0.0

    history = b.choice_history(DREW_ON_5H, 0, fits, (5, 8), drawn_card_may_fit=False)
    assert b.choice_weight(history, [[], parse_cards(["2C"] * 8)], Never(),
                           random.Random(0)) == 0.0


# ---------------------------------------------------------------- the heuristic's model
def test_the_heuristic_model_agrees_with_the_heuristic_on_every_choice() -> None:
    """At every decision of seeded heuristic games, the choice the heuristic made has the
    model's likelihood 1 - slip in the heuristic's own hand, and every other play slip."""
    variant = "crazy_eights"
    model = PileHeuristicModel(variant, slip=0.1)
    cls = engine_class(variant)
    actions = cls.actions
    game = make_game(variant, num_players=3, seed=0)
    agents = [make_agent("heuristic", variant, seed=k) for k in range(3)]
    checked = 0
    for g in range(3):
        game.reset(seed=g)
        while not game.game_over:
            view = game.view(game.current_player)
            action = agents[view.seat].act(view)
            if view.phase == "play" and len(view.legal_actions) > 1:
                n = view.num_players
                nearest = min(view.hand_sizes[(view.seat + k) % n] for k in range(1, n))
                fitting = cls.draw_excludes(cls, view.active_suit, RANK[view.top])
                kind = "draw" if actions.texts[action] == "draw" else "play"
                observed = actions.value(action) if kind == "play" else -1
                choice = b.Choice(view.seat, kind, observed, fitting, nearest)
                assert model.likelihood(choice, view.hand) == pytest.approx(0.9)
                for other in view.legal_actions:
                    if other != action and actions.texts[other] != "draw":
                        wrong = b.Choice(view.seat, "play", actions.value(other), fitting,
                                         nearest)
                        assert model.likelihood(wrong, view.hand) == pytest.approx(0.1)
                checked += 1
            game.step(action)
    assert checked >= 50


def test_a_slip_outside_0_and_1_is_refused() -> None:
    with pytest.raises(ValueError, match=r"slip=1\.0 is not allowed; it is a probability "
                                         r"strictly between 0 and 1"):
        PileHeuristicModel("crazy_eights", slip=1.0)


# ---------------------------------------------------------------- dealing by a model
def heuristic_views(games: int, seed: int = 0):
    """(game, view) at every real decision of seeded 2-player heuristic games."""
    agents = [make_agent("heuristic", "crazy_eights", seed=k) for k in range(2)]
    return choice_views("crazy_eights", 2, games, seed,
                        lambda _game, view: agents[view.seat].act(view))


def test_model_deals_are_reproducible_and_keep_the_view() -> None:
    cls = engine_class("crazy_eights")
    model = PileHeuristicModel("crazy_eights")
    for n, (game, view) in enumerate(heuristic_views(1)):
        first = cls.determinize(view, random.Random(n), True, model)
        again = cls.determinize(view, random.Random(n), True, PileHeuristicModel("crazy_eights"))
        assert repr(first.state) == repr(again.state)
        assert first.legal_actions() == view.legal_actions
        assert sorted(first.state.hands[view.seat]) == sorted(view.hand)
        assert [len(h) for h in first.state.hands] == [len(h) for h in game.state.hands]
        assert sorted(first.state.hands[1 - view.seat] + first.state.stock) == sorted(
            game.state.hands[1 - view.seat] + game.state.stock)


def test_model_deals_put_more_of_the_true_hand_in_the_opponents_hand_than_uniform() -> None:
    """Against the heuristic, deals by its model hold more of the opponent's real cards
    (every other decision of 10 games, 8 deals each: 1.26 to 1.56 times as many as uniform
    deals over six seeds of the games, 1.36 at this one)."""
    cls = engine_class("crazy_eights")
    model = PileHeuristicModel("crazy_eights")
    hits = {"uniform": 0, "model": 0}
    for n, (game, view) in enumerate(heuristic_views(10, seed=40)):
        if n % 2:
            continue
        other = 1 - view.seat
        truth = game.state.hands[other]
        for k in range(8):
            for name, belief in (("uniform", None), ("model", model)):
                dealt = cls.determinize(view, random.Random(n * 100 + k), True, belief)
                hits[name] += sum(1 for c in dealt.state.hands[other] if c in truth)
    assert hits["model"] > 1.15 * hits["uniform"]


def test_a_variant_whose_choices_are_not_read_refuses_a_model_naming_those_read() -> None:
    game = make_game("livery_eights", seed=1)
    with pytest.raises(ValueError, match=r"livery_eights: belief='heuristic' \(an opponent "
                                         r"model\) is not allowed; .* crazy_eights does"):
        type(game).determinize(game.view(game.current_player), random.Random(0),
                               belief=PileHeuristicModel("livery_eights"))
