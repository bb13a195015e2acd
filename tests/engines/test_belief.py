"""Beliefs (``eights.engines.determinizers.belief``): the evidence read from hand-built
histories, the weight of a deal, and ``Engine.determinize(..., belief=...)``: unchanged
without a belief, reproducible with one, following the evidence, refused where no variant's
deals read it."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from eights.cards import parse_card, parse_cards
from eights.engines import engine_class, make_game
from eights.engines.base import Engine, PlayerView
from eights.engines.determinizers import belief as b
from eights.engines.pile import _cards_that_fit
from tests.engines.test_determinize import positions

FITS = _cards_that_fit(8)


def fits(suit: int, rank: int, locked: bool = False) -> frozenset[int]:
    return FITS[suit][rank]


def ev(kind: str, player: int = -1, card: str | None = None, arg: int = -1) -> tuple:
    """One event as a history holds it: (kind, player, card id, arg)."""
    return (kind, player, -1 if card is None else parse_card(card), arg)


HEARTS, FIVE = 2, 5
#: a hand dealt, the 5 of hearts turned up, seat 1 draws on it (a choice), seat 0 plays on
DREW_ON_5H = [ev("deal", 0, arg=0), ev("starter", card="5H"), ev("play", 0, "9H"),
              ev("draw", 1), ev("pass", 1), ev("play", 0, "3H")]


# ---------------------------------------------------------------- void evidence
def test_a_draw_with_no_later_draw_allows_no_card_that_fitted() -> None:
    """Seat 1 drew on the 9 of hearts: none of its cards now fits hearts, a 9 or an 8."""
    (void,) = b.void_evidence(DREW_ON_5H, 0, fits, drawn_card_may_fit=False)
    assert void == b.AtMost(1, fits(HEARTS, 9), 0)
    assert {parse_card(c) for c in ("2H", "9C", "8S")} <= void.cards
    assert parse_card("5C") not in void.cards


def test_each_later_draw_lets_one_fitting_card_through() -> None:
    later = [*DREW_ON_5H, ev("draw", 1), ev("play", 1, "3C")]
    first, second = b.void_evidence(later, 0, fits, drawn_card_may_fit=False)
    assert (first.most, second.most) == (1, 0)
    assert second.cards == fits(HEARTS, 3)


def test_a_kept_drawn_card_may_fit_where_the_rules_allow() -> None:
    """Livery: the drawn card is kept (the turn ends), and it may fit."""
    (void,) = b.void_evidence(DREW_ON_5H, 0, fits, drawn_card_may_fit=True)
    assert void.most == 1


def test_cards_of_the_void_played_since_are_counted_off_it() -> None:
    """Seat 1 held no heart when it drew; a heart it played since came with a later draw (or
    was the one drawn then), so one card fewer of them may be in its hand now."""
    later = [*DREW_ON_5H, ev("draw", 1), ev("play", 1, "4H")]
    first, _ = b.void_evidence(later, 0, fits, drawn_card_may_fit=True)
    assert first == b.AtMost(1, fits(HEARTS, 9), 1)
    (kept,) = b.void_evidence([*DREW_ON_5H, ev("play", 1, "4C")], 0, fits, True)
    assert kept.most == 1  # a club is none of them


def test_forced_draws_are_no_evidence_but_count_as_later_draws() -> None:
    """A King's two draws (closed by the skip that counts them) were no choice."""
    king = [ev("deal", 0, arg=0), ev("starter", card="5H"), ev("play", 0, "KH"),
            ev("draw", 1), ev("draw", 1), ev("skip", 1, arg=2)]
    assert b.void_evidence(king, 0, fits) == []
    (void,) = b.void_evidence([*DREW_ON_5H, *king[2:]], 0, fits, drawn_card_may_fit=False)
    assert void.most == 2


def test_a_reshuffle_inside_forced_draws_does_not_end_them() -> None:
    king = [ev("deal", 0, arg=0), ev("starter", card="5H"), ev("play", 0, "KH"),
            ev("draw", 1), ev("reshuffle", arg=30), ev("draw", 1), ev("skip", 1, arg=2)]
    assert b.void_evidence(king, 0, fits) == []


def test_a_pass_without_a_draw_is_evidence_after_a_draw_it_is_not() -> None:
    stuck = [ev("deal", 0, arg=0), ev("starter", card="5H"), ev("play", 0, "7S"),
             ev("pass", 1)]
    assert b.void_evidence(stuck, 0, fits) == [b.AtMost(1, fits(3, 7), 0)]
    assert len(b.void_evidence(DREW_ON_5H, 0, fits)) == 1  # the draw, not its pass too


def test_a_named_suit_is_the_suit_to_follow() -> None:
    named = [ev("deal", 0, arg=0), ev("starter", card="5H"), ev("play", 0, "8H"),
             ev("suit", 0, arg=3), ev("draw", 1)]
    (void,) = b.void_evidence(named, 0, fits, drawn_card_may_fit=False)
    assert void.cards == fits(3, 8)


def test_own_draws_and_earlier_hands_say_nothing() -> None:
    assert b.void_evidence(DREW_ON_5H, 1, fits) == []  # seat 1 knows its own hand
    next_hand = [*DREW_ON_5H, ev("deal", 1, arg=1), ev("starter", card="2C")]
    assert b.void_evidence(next_hand, 0, fits) == []


# ---------------------------------------------------------------- named suits
def test_a_named_suit_is_read_with_the_cards_played_since() -> None:
    named = [ev("deal", 0, arg=0), ev("starter", card="5H"), ev("play", 1, "8H"),
             ev("suit", 1, arg=0), ev("play", 0, "4C"), ev("play", 1, "6C")]
    assert b.named_evidence(named, 0) == [b.NamedSuit(1, 0, (parse_card("6C"),))]
    assert b.named_evidence(named, 1) == []


def test_a_draw_since_hides_the_hand_a_suit_was_named_from() -> None:
    named = [ev("deal", 0, arg=0), ev("starter", card="5H"), ev("play", 1, "8H"),
             ev("suit", 1, arg=0), ev("draw", 1)]
    assert b.named_evidence(named, 0) == []


# ---------------------------------------------------------------- the weight
def test_the_weight_is_eps_to_the_violations() -> None:
    void = b.AtMost(1, fits(HEARTS, 9), 1)
    clean = [[], parse_cards(["2C", "3H"])]
    over = [[], parse_cards(["2H", "3H", "8C"])]
    assert b.weight([void], clean, 8) == 1.0
    assert b.weight([void], over, 8) == pytest.approx(b.VOID_EPS ** 2)
    named = b.NamedSuit(1, 0, (parse_card("4C"),))  # clubs: 4C and 2C against 3H
    assert b.weight([named], clean, 8) == 1.0
    short = [[], parse_cards(["3H", "4H", "8C"])]  # hearts 2, clubs 1 (4C): the 8 aside
    assert b.weight([named], short, 8) == pytest.approx(b.NAMED_EPS)


def choice_views(variant: str, num_players: int, games: int, seed: int,
                 act: Callable[[Engine, PlayerView], int | str]):
    """(game, view) at every decision with a choice of seeded games, each move ``act``'s
    (an action id or its text) for the seat to act: do not step the game."""
    game = make_game(variant, num_players=num_players, seed=seed)
    for g in range(games):
        game.reset(seed=seed + g)
        while not game.game_over:
            view = game.view(game.current_player)
            if len(view.legal_actions) > 1:
                yield game, view
            game.step(act(game, view))


# ---------------------------------------------------------------- determinize
#: the variants whose deals read the ``voids`` belief (Jokers of Death's own evidence:
#: tests/engines/test_belief_jokers.py)
BELIEF_VARIANTS = ("crazy_eights", "livery_eights", "crazier_eights", "jokers_of_death",
                   "baby_eating_eights")


def views(variant: str, games: int = 3, seed: int = 11):
    """Every view of the seat to act in seeded random games."""
    for game in positions(variant, {}, games, seed):
        yield game, game.view(game.current_player)


def deal(cls, view, seed: int, belief: str | None, infer: bool = True):
    engine = cls.determinize(view, random.Random(seed), infer, belief)
    return engine.turn, repr(engine.state)


@pytest.mark.parametrize("variant", BELIEF_VARIANTS)
def test_uniform_deals_are_the_deals_without_a_belief(variant: str) -> None:
    cls = engine_class(variant)
    for n, (_, view) in enumerate(views(variant, games=1)):
        assert deal(cls, view, n, "uniform") == deal(cls, view, n, None)


@pytest.mark.parametrize("variant", BELIEF_VARIANTS)
def test_belief_deals_are_reproducible_and_keep_the_view(variant: str) -> None:
    cls = engine_class(variant)
    for n, (game, view) in enumerate(views(variant, games=1)):
        first = cls.determinize(view, random.Random(n), True, "voids")
        assert repr(first.state) == repr(cls.determinize(view, random.Random(n), True,
                                                          "voids").state)
        assert first.legal_actions() == view.legal_actions
        assert sorted(first.state.hands[view.seat]) == sorted(view.hand)
        assert [len(h) for h in first.state.hands] == [len(h) for h in game.state.hands]


def broken(variant: str, belief: str | None, deals: int = 8, games: int = 4
           ) -> tuple[int, int]:
    """(deals that break some void of a seat that drew nothing since, deals) over the views
    of ``games`` seeded heuristic games."""
    from eights.agents import make_agent

    cls = engine_class(variant)
    game = make_game(variant, num_players=2, seed=0)
    agents = [make_agent("heuristic", variant, seed=k) for k in range(2)]
    bad = total = 0
    for g in range(games):
        game.reset(seed=g)
        while not game.game_over:
            view = game.view(game.current_player)
            dealer = cls.determinizer(cls.unstarted_for(view, 0), view)
            strict = [e for e in dealer.read_evidence()
                      if isinstance(e, b.AtMost) and e.most == 0]
            if strict and len(view.legal_actions) > 1:
                for k in range(deals):
                    hands = cls.determinize(view, random.Random(k), False, belief).state.hands
                    bad += any(b.violations(e, hands, 8) for e in strict)
                    total += 1
            game.step(agents[game.current_player].act(view))
    return bad, total


@pytest.mark.parametrize(("variant", "games"), [("crazy_eights", 4), ("crazier_eights", 1)])
def test_belief_deals_follow_the_voids_uniform_ones_do_not(variant: str, games: int) -> None:
    """An opponent that drew (Crazy Eights) or ended its main phase with a discard left
    (Crazier Eights) and has drawn nothing since is dealt a card that fitted then in most
    uniform deals, and (soft evidence, up to 32 candidates) in few weighted."""
    uniform_bad, total = broken(variant, None, games=games)
    voids_bad, _ = broken(variant, "voids", games=games)
    assert total >= 40
    assert voids_bad * 10 <= uniform_bad


def test_a_belief_a_variant_does_not_read_is_refused_naming_those_that_do(
        monkeypatch) -> None:
    """Every variant reads ``voids`` now; one whose deals did not would refuse it, naming the
    variants whose deals do."""
    game = make_game("jokers_of_death", seed=1)
    monkeypatch.setattr(type(game).determinizer, "beliefs", ("uniform",))
    view = game.view(game.current_player)
    with pytest.raises(ValueError, match=r"jokers_of_death: belief='voids' is not allowed; its "
                                         r"deals take 'uniform'; belief='voids' is read in "
                                         r"crazy_eights, livery_eights, baby_eating_eights, "
                                         r"crazier_eights$"):
        type(game).determinize(view, random.Random(0), belief="voids")
    type(game).determinize(view, random.Random(0), belief="uniform")


def test_an_unknown_belief_is_refused_naming_the_beliefs() -> None:
    game = make_game("crazy_eights", seed=1)
    with pytest.raises(ValueError, match=r"belief='hunch' is not allowed; its deals take "
                                         r"'uniform' or 'voids'; the beliefs are uniform, voids"):
        type(game).determinize(game.view(game.current_player), random.Random(0),
                               belief="hunch")


def test_a_belief_weighs_at_least_one_candidate() -> None:
    game = make_game("crazy_eights", seed=1)
    view = game.view(game.current_player)
    cls = type(game)
    dealer = cls.determinizer(cls.unstarted_for(view, 0), view)
    with pytest.raises(ValueError, match="candidates=0 is not allowed; a belief weighs at "
                                         "least 1 candidate deal"):
        dealer.deal_weighted(random.Random(0), [b.AtMost(1, frozenset(), 0)], 0)
