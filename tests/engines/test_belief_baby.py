"""Baby-Eating Eights' ``voids`` belief: the evidence read from hand-built histories (an effect's
forced draws, the Six and Nine lock, a Seven's swap, a King of Hearts' redeal), the evidence
of real games holding on the true hands, and ``determinize(..., belief="voids")``:
reproducible, keeping the view, following the evidence more than uniform deals."""

from __future__ import annotations

import random

from eights.cards import RANK, parse_card, parse_cards
from eights.engines import engine_class, make_game
from eights.engines.determinizers import belief as b
from eights.engines.determinizers.base import DealConstraints, barring_voids
from tests.engines.replay_corpus import choose
from tests.engines.test_belief import choice_views, ev

G = engine_class("baby_eating_eights")
#: how the variant's declared events move cards (a take is a card come, a give its echo)
FLOWS = b.flows_of(G.event_kinds)
ENGINE = make_game("baby_eating_eights", num_players=4, seed=0)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def fits(suit: int, rank: int, locked: bool = False) -> frozenset[int]:
    """The engine's rule, as data: the cards a seat that drew there did not hold."""
    return ENGINE.draw_excludes(suit, rank, locked)


def voids(events: list[tuple], observer: int = 0) -> list[b.AtMost]:
    return b.void_evidence(events, observer, fits, True, FLOWS)


def named(events: list[tuple], observer: int = 0) -> list[b.NamedSuit]:
    return b.named_evidence(events, observer, FLOWS)


START = [ev("deal", 1, arg=0), ev("starter", card="5D")]
#: seat 1 draws until a playable card comes (the 5C, played): it held no diamond or Five
DREW_UNTIL_5C = [*START, ev("draw", 1), ev("draw", 1), ev("draw", 1), ev("play", 1, "5C")]


# ---------------------------------------------------------------- what the draws say
def test_a_draw_until_playable_is_read_once_and_the_played_card_is_gone() -> None:
    """The run's last draw says all: nothing fitted, the drawn card that did was played."""
    assert voids(DREW_UNTIL_5C) == [b.AtMost(1, fits(DIAMONDS, 5), 0)]
    kept = [*DREW_UNTIL_5C[:-1], ev("play", 1, "8S")]  # a wild played, the drawn card kept
    assert voids(kept) == [b.AtMost(1, fits(DIAMONDS, 5), 1)]
    assert parse_card("8S") not in fits(DIAMONDS, 5)  # 8s, jokers and KH may be held back
    assert voids(DREW_UNTIL_5C, observer=1) == []


def test_an_effects_forced_draws_are_no_evidence_and_count_as_cards_come() -> None:
    """An Ace's two draws, closed by ``forced_draw``: no choice, so no void; for an earlier
    void they are two cards that may fit. Unclosed (the old log), they would read as
    chosen and say seat 2 held no diamond, which it may."""
    ace = [ev("play", 0, "AC"), ev("draw", 1), ev("draw", 1), ev("forced_draw", 1, arg=2),
           ev("play", 1, "2C")]
    assert voids([*DREW_UNTIL_5C, *ace]) == [b.AtMost(1, fits(DIAMONDS, 5), 2)]
    on_diamonds = [*START, ev("play", 1, "AD"), ev("draw", 2), ev("draw", 2),
                   ev("forced_draw", 2, arg=2), ev("play", 2, "3D")]
    assert voids(on_diamonds) == []
    unclosed = [e for e in on_diamonds if e[0] != "forced_draw"]
    assert voids(unclosed) == [b.AtMost(2, fits(DIAMONDS, 1), 0)]


def test_draws_right_after_an_effects_draws_are_the_drawers_own() -> None:
    """A Joker's four, then the drawer cannot match and draws on: those draws are evidence,
    and a pass right after a forced draw is too (nothing was left to draw)."""
    joker = [*START, ev("play", 0, "RJ"), ev("suit", 0, arg=HEARTS), *[ev("draw", 1)] * 4,
             ev("forced_draw", 1, arg=4)]
    drew_on = [*joker, ev("draw", 1), ev("play", 1, "4H")]
    assert voids(drew_on) == [b.AtMost(1, fits(HEARTS, 0), 0)]
    assert voids([*joker, ev("pass", 1)]) == [b.AtMost(1, fits(HEARTS, 0), 0)]


def test_the_six_and_nine_lock_narrows_what_a_draw_says() -> None:
    """On a Six locked by a Three, a Nine of another suit could not be played: drawing
    says nothing of Nines."""
    locked = [ev("deal", 1, arg=0), ev("starter", card="5S"), ev("play", 0, "3S"),
              ev("play", 1, "6S"), ev("locked", 1, "6S"), ev("draw", 2), ev("play", 2, "6H")]
    (void,) = voids(locked)
    assert void == b.AtMost(2, fits(SPADES, 6, True), 0)
    assert parse_card("9H") not in void.cards
    assert {parse_card("6H"), parse_card("9S")} <= void.cards
    unlocked = [e for e in locked if e[0] != "locked"]
    assert parse_card("9H") in voids(unlocked)[0].cards


def test_a_card_taken_in_a_sevens_swap_counts_as_one_come() -> None:
    """Seat 1 drew; a Seven's swap then gave it a card the observer cannot see (its take;
    the give beside it re-tells the same move), and the card it lost may be any."""
    swap = [ev("play", 3, "7C"), ev("swap", 3, arg=1), ev("take", 3, arg=1),
            ev("give", 1, arg=3), ev("take", 1, arg=3), ev("give", 3, arg=1)]
    assert voids([*DREW_UNTIL_5C, *swap]) == [b.AtMost(1, fits(DIAMONDS, 5), 1)]
    seen = [*swap[:2], ev("take", 3, arg=1), ev("give", 1, arg=3), ev("take", 1, arg=3),
            ev("give", 3, "2D", 1)]  # the observer is seat 3: it saw its 2D go to seat 1
    assert b.void_evidence([*DREW_UNTIL_5C, *seen], 3, fits, True, FLOWS) == [
        b.AtMost(1, fits(DIAMONDS, 5), 1)]


def test_a_redeal_starts_the_evidence_anew_on_the_king_of_hearts() -> None:
    """Every hand is new: seat 1's void of before says nothing; its draw on the King says
    it held no heart and no King."""
    redeal = [ev("play", 2, "5H"), ev("play", 3, "KH"), ev("redeal", 3, "KH", 6),
              ev("draw", 1), ev("play", 1, "KS")]
    king = RANK[parse_card("KH")]
    assert voids([*DREW_UNTIL_5C, *redeal]) == [b.AtMost(1, fits(HEARTS, king), 0)]


# ---------------------------------------------------------------- named suits
def test_a_named_suit_holds_with_cards_put_under_the_pile_but_not_across_a_swap() -> None:
    eight = [*START, ev("play", 1, "8D"), ev("suit", 1, arg=SPADES), ev("play", 2, "2S"),
             ev("play", 1, "3S"), ev("bottom", 1, "4H")]
    assert named(eight) == [b.NamedSuit(1, SPADES, tuple(parse_cards(["3S", "4H"])))]
    swapped = [*eight, ev("play", 2, "7S"), ev("swap", 2, arg=1), ev("take", 2, arg=1),
               ev("give", 1, arg=2), ev("take", 1, arg=2), ev("give", 2, arg=1)]
    assert named(swapped) == []
    assert named([*eight, ev("draw", 1)]) == []


def test_jokers_are_in_no_suit() -> None:
    """A hand of two jokers and a heart holds hearts most: jokers count in no suit."""
    hand = parse_cards(["RJ", "BJ", "2H"])
    assert b.weight([b.NamedSuit(1, HEARTS, ())], [[], hand], 8) == 1.0


# ---------------------------------------------------------------- certain voids
def test_voids_leaving_no_room_are_barred_where_the_seat_holds_hidden_cards() -> None:
    """Seat 1's two voids of room 0 add up; seat 2's of room 1 is left to the weight; seat
    0's hand is the observer's own (no hidden cards), so nothing is barred there."""
    constraints = DealConstraints(seat=0, hidden=tuple(range(12)), hand_sizes=(0, 3, 3),
                                  barred={2: frozenset({9})})
    evidence = [b.AtMost(1, frozenset({1, 2}), 0), b.AtMost(1, frozenset({3}), 0),
                b.AtMost(2, frozenset({4}), 0), b.AtMost(2, frozenset({5}), 1),
                b.AtMost(0, frozenset({6}), 0), b.NamedSuit(1, 0, ())]
    assert barring_voids(constraints, evidence).barred == {
        1: frozenset({1, 2, 3}), 2: frozenset({4, 9})}
    assert G.determinizer.certain_voids
    assert not engine_class("crazy_eights").determinizer.certain_voids  # one may draw there


# ---------------------------------------------------------------- real games
def test_every_void_read_in_real_games_holds_on_the_true_hands() -> None:
    """The rules forbid drawing or passing while a card must be played, so every void read
    from a seat's history is true of the real hands: forced draws, swaps, blind draws out
    of the Guarantee Joker's victim, locks and redeals included."""
    checked = 0
    for g in range(4):
        game = make_game("baby_eating_eights", num_players=4, seed=g,
                         guarantee_cards_per_player=10)
        rng = random.Random(g)
        while not game.game_over:
            seat = game.turn % 4
            view = game.view(seat)
            dealer = G.determinizer(G.unstarted_for(view, 0), view)
            for e in dealer.read_evidence():
                if isinstance(e, b.AtMost):
                    assert not b.violations(e, game.state.hands, 8), (g, game.turn, seat, e)
                    checked += 1
            game.step(choose(sorted(game.legal_texts()), rng))
    assert checked >= 300


def views(games: int, seed: int):
    """The view of the seat to act at each decision with a choice of seeded random games."""
    rng = random.Random(seed)
    return choice_views("baby_eating_eights", 4, games, seed,
                        lambda game, _view: choose(sorted(game.legal_texts()), rng))


def test_belief_deals_are_reproducible_keep_the_view_and_uniform_is_no_belief() -> None:
    checked = 0
    for n, (game, view) in enumerate(views(1, 21)):
        if n % 3:
            continue
        checked += 1
        first = G.determinize(view, random.Random(n), True, "voids")
        again = G.determinize(view, random.Random(n), True, "voids")
        assert repr(first.state) == repr(again.state)
        assert first.legal_actions() == view.legal_actions
        assert sorted(first.state.hands[view.seat]) == sorted(view.hand)
        assert [len(h) for h in first.state.hands] == [len(h) for h in game.state.hands]
        assert repr(G.determinize(view, random.Random(n), True, "uniform").state) == repr(
            G.determinize(view, random.Random(n), True).state)
    assert checked >= 10


def test_belief_deals_follow_the_voids_uniform_ones_do_not() -> None:
    """Deals that break a void leaving no room (most 0) of some opponent: most uniform deals
    of views with two such voids do, few weighted ones (the rules make those voids certain,
    so the belief deals around them: ``certain_voids``)."""
    bad = {None: 0, "voids": 0}
    total = 0
    for n, (_, view) in enumerate(views(8, 40)):
        dealer = G.determinizer(G.unstarted_for(view, 0), view)
        strict = [e for e in dealer.read_evidence() if isinstance(e, b.AtMost) and not e.most]
        if n % 2 or len(strict) < 2:
            continue
        total += 1
        for belief in bad:
            hands = G.determinize(view, random.Random(n), False, belief).state.hands
            bad[belief] += any(b.violations(e, hands, 8) for e in strict)
    assert total >= 20
    assert bad[None] * 2 >= total and bad["voids"] * 10 <= bad[None], (bad, total)
