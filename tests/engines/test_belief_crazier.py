"""The ``voids`` belief of Crazier Eights (``eights.engines.determinizers.crazier_eights``):
the evidence read from hand-built histories (a main phase ended with a discard left, the
colour named for an 8), what is no evidence (draws, forced or not, and the seat's own and
its allies' main phases), what a Trade or a restored top card makes unsound, and the
weight of a named colour over multicoloured and wild cards. Dealing with the belief is
tested with the other variants' in ``test_belief.py``."""

from __future__ import annotations

import random

from eights.engines.crazier_cards import BEGIN_TURN, END_TURN
from eights.engines.crazier_eights import CrazierEightsGame
from eights.engines.determinizers import belief as b
from eights.engines.determinizers.crazier_eights import (
    PLAYED,
    hands_moved,
    unused_discard_moments,
)
from tests.engines.crazier_helpers import new_game, step

G = CrazierEightsGame
CS = G.cardset
GAME = G(seed=1)
PURPLE, GREEN, BLUE, ORANGE = range(4)


def card(text: str) -> int:
    return CS.parse(text)


def ev(kind: str, player: int = -1, text: str | None = None, arg: int = -1) -> tuple:
    """One event as a history holds it: (kind, player, card id, arg)."""
    return (kind, player, -1 if text is None else card(text), arg)


def fits(top: str, named: int = -1) -> frozenset[int]:
    return GAME.discardable(card(top), named)


def evidence(events: list[tuple], observer: int = 0, teams: tuple[int, ...] = (0, 1)
             ) -> list[b.Evidence]:
    """What ``observer`` reads of ``events`` (as the determinizer does, without a view)."""
    engine = GAME if teams == (0, 1) else G(num_players=len(teams), teams=max(teams) + 1,
                                            seed=1)
    moments = unused_discard_moments(events, observer, engine.discardable, teams,
                                     engine.turn_players)
    found = [*b.at_most(events, moments, hands_moved=hands_moved, played=PLAYED),
             *b.named_evidence(events, observer, named="named", played=PLAYED,
                               hands_moved=hands_moved)]
    return [e for e in found if teams[e.seat] != teams[observer]]


#: a game dealt, 7G turned up; seat 0 discards 7B; seat 1 draws and ends its main phase
#: without discarding; seat 0's next turn begins
ENDED_ON_7B = [ev("deal", 0, arg=0), ev("starter", text="7G"), ev("turn", 0),
               ev("draw", 0, "2P"), ev("discard", 0, "7B"), ev("turn", 1), ev("draw", 1),
               ev("turn", 0)]


# ---------------------------------------------------------------- a discard left
def test_the_discard_rule_is_the_engines() -> None:
    """Blue or a 7 or an 8 on 7B; only orange or an 8 once orange is named for an 8."""
    on_7b = fits("7B")
    assert {card(c) for c in ("2B", "7P", "8G", "9B", "JB", "KG")} <= on_7b
    assert not {card(c) for c in ("5G", "6O", "AP")} & on_7b
    assert fits("8P", ORANGE) == frozenset(
        c for c in range(len(CS)) if ORANGE in CS.colours_of[c] or CS.rank[c] == 8)


def test_a_main_phase_ended_with_a_discard_left_allows_no_card_that_fitted() -> None:
    assert evidence(ENDED_ON_7B) == [b.AtMost(1, fits("7B"), 0)]


def test_every_later_draw_lets_one_fitting_card_through_forced_ones_too() -> None:
    """Seat 0's Hex (8P) makes seat 1 draw two; seat 1 draws its turn's card: three."""
    later = [*ENDED_ON_7B, ev("draw", 0), ev("event", 0, "8P"), ev("chosen", 0, arg=1),
             ev("draw", 1), ev("draw", 1), ev("settled", 0, "8P"), ev("turn", 1),
             ev("draw", 1)]
    assert evidence(later) == [b.AtMost(1, fits("7B"), 3)]


def test_a_fitting_card_played_since_used_up_one_of_the_draws() -> None:
    """Seat 1 draws once more, then discards 2B, which fitted on 7B: that card came from
    the draw, so it still holds none of those cards (the second main phase used its
    discard: no evidence)."""
    played = [*ENDED_ON_7B, ev("draw", 0), ev("turn", 1), ev("draw", 1),
              ev("discard", 1, "2B"), ev("turn", 0)]
    assert evidence(played) == [b.AtMost(1, fits("7B"), 0)]
    not_fitting = [*ENDED_ON_7B, ev("draw", 0), ev("turn", 1), ev("draw", 1),
                   ev("asset", 1, "6O"), ev("turn", 0)]
    assert evidence(not_fitting) == [b.AtMost(1, fits("7B"), 1), b.AtMost(1, fits("7B"), 0)]


def test_draws_are_no_evidence_forced_or_not() -> None:
    """Seat 1 draws (its turn's card, then two by a Hex) and discards every turn: nothing."""
    drawn = [ev("deal", 0, arg=0), ev("starter", text="7G"), ev("turn", 0), ev("draw", 0),
             ev("event", 0, "8P"), ev("chosen", 0, arg=1), ev("draw", 1), ev("draw", 1),
             ev("settled", 0, "8P"), ev("turn", 1), ev("draw", 1), ev("discard", 1, "5G"),
             ev("turn", 0)]
    assert evidence(drawn) == []


def test_a_discard_granted_and_left_is_evidence_one_used_is_not() -> None:
    """Queen Guinevere grants seat 1 a second discard: one discard leaves one unused, on
    the card it discarded; two leave none."""
    extra = [ev("deal", 0, arg=0), ev("starter", text="7G"), ev("turn", 1),
             ev("trigger", 1, "QP", BEGIN_TURN), ev("extra", 1, "QP", 1), ev("draw", 1),
             ev("discard", 1, "5G")]
    assert evidence([*extra, ev("turn", 0)]) == [b.AtMost(1, fits("5G"), 0)]
    assert evidence([*extra, ev("discard", 1, "5P"), ev("turn", 0)]) == []


def test_the_end_phase_shows_the_main_phase_over_a_main_phase_going_on_shows_nothing() -> None:
    ongoing = ENDED_ON_7B[:-1]
    assert evidence(ongoing) == []
    ended = [*ongoing, ev("trigger", 1, "9P", END_TURN), ev("chosen", 1, arg=0),
             ev("draw", 0)]
    assert evidence(ended) == [b.AtMost(1, fits("7B"), 0)]


def test_the_colour_named_for_an_8_is_what_fits() -> None:
    named = [ev("deal", 0, arg=0), ev("starter", text="7G"), ev("turn", 0),
             ev("draw", 0), ev("discard", 0, "8P"), ev("named", 0, arg=ORANGE),
             ev("turn", 1), ev("draw", 1), ev("turn", 0)]
    assert evidence(named) == [b.AtMost(1, fits("8P", ORANGE), 0)]


def test_own_and_allies_main_phases_say_nothing() -> None:
    assert evidence(ENDED_ON_7B, observer=1) == []
    # four seats, two teams: seat 1's ally 3 sees its hand as seat 1 does
    teams = (0, 1, 0, 1)
    turn = [ev("deal", 1, arg=0), ev("starter", text="7G"), ev("turn", 1), ev("draw", 1),
            ev("draw", 3), ev("turn", 2)]
    assert evidence(turn, observer=3, teams=teams) == []
    assert evidence(turn, observer=0, teams=teams) == [b.AtMost(1, fits("7G"), 0),
                                                       b.AtMost(3, fits("7G"), 0)]


def test_an_allys_first_main_phase_event_ends_the_earlier_main_phase_on_its_pile() -> None:
    """Seat 1 ends its main phase with its discard left on 7G; its ally 3 then discards 5G
    (and 3's own discard is used up): the evidence is seat 1's, on 7G."""
    teams = (0, 1, 0, 1)
    turn = [ev("deal", 1, arg=0), ev("starter", text="7G"), ev("turn", 1), ev("draw", 1),
            ev("draw", 3), ev("discard", 3, "5G"), ev("turn", 2)]
    assert evidence(turn, observer=0, teams=teams) == [b.AtMost(1, fits("7G"), 0)]


def test_a_restored_top_card_leaves_the_pile_unknown_until_the_next_discard() -> None:
    """Restoration (JP) takes the asset on top: what lies under it was not tracked."""
    restored = [ev("deal", 0, arg=0), ev("starter", text="6O"), ev("turn", 0), ev("draw", 0),
                ev("event", 0, "JP"), ev("restore", 0, "6O"), ev("settled", 0, "JP"),
                ev("turn", 1), ev("draw", 1), ev("turn", 0), ev("draw", 0),
                ev("discard", 0, "2O"), ev("turn", 1), ev("draw", 1), ev("turn", 0)]
    assert evidence(restored) == [b.AtMost(1, fits("2O"), 0)]


def test_a_played_history_reads_as_the_hand_built_one_and_weighted_deals_follow_it() -> None:
    """The engine's own log of :data:`ENDED_ON_7B`: seat 1 holds 5G 6O 2P and draws 3O, none
    of which fits 7B, and ends. Seat 0 reads that; its true hand weighs 1, and weighted
    deals give seat 1 no card that fitted far more often than uniform ones."""
    game = new_game(["7B 2G 3G", "5G 6O 2P"], "7G", stock="9G 3O 4G 5O")
    step(game, "discard 7B", "end", "end")
    view = game.view(0)
    dealer = G.determinizer(G.unstarted_for(view, 0), view)
    found = dealer.read_evidence()
    assert found == [b.AtMost(1, fits("7B"), 0)]
    assert dealer.weight(game, found) == 1.0

    def clean(belief: str | None) -> int:
        return sum(not fits("7B") & set(G.determinize(view, random.Random(k),
                                                      belief=belief).state.hands[1])
                   for k in range(40))

    assert clean("voids") >= 36 and clean(None) <= 12  # (measured 38 and 8)


# ---------------------------------------------------------------- hands moved
TRADE = [ev("event", 0, "10G"), ev("chosen", 0, arg=1), ev("looks_at_hand", 0, arg=1),
         ev("take", 0, arg=1), ev("taken", 1, arg=0), ev("give", 0, arg=1),
         ev("given", 1, arg=0), ev("settled", 0, "10G")]


def test_a_trade_drops_the_evidence_from_before_it_of_both_its_seats() -> None:
    """Seat 0 trades with seat 1 after seat 1's main phase: seat 1's hand changed by a card
    no draw counts, so what its main phase showed no longer holds; later evidence does."""
    traded = [*ENDED_ON_7B, ev("draw", 0), *TRADE, ev("turn", 1), ev("draw", 1),
              ev("turn", 0)]
    assert evidence(traded) == [b.AtMost(1, fits("7B"), 0)]  # (the second main phase's)
    assert hands_moved(ev("take", 0, arg=1)) == (0, 1)
    assert hands_moved(ev("loses", 2, arg=1)) == (2,)  # (its arg is a count, not a seat)
    assert hands_moved(ev("draw", 1)) == ()


def test_a_seat_that_lost_leaves_no_evidence() -> None:
    lost = [*ENDED_ON_7B, ev("draw", 0), ev("event", 0, "7P"), ev("chosen", 0, arg=1),
            ev("loses", 1, arg=12)]
    assert evidence(lost) == []


# ---------------------------------------------------------------- named colours
NAMED = [ev("deal", 0, arg=0), ev("starter", text="7G"), ev("turn", 1), ev("draw", 1),
         ev("discard", 1, "8P"), ev("named", 1, arg=BLUE), ev("asset", 1, "KG")]


def test_a_named_colour_is_read_with_the_cards_played_since() -> None:
    assert evidence(NAMED) == [b.NamedSuit(1, BLUE, (card("KG"),))]
    assert evidence([*NAMED, ev("turn", 0), ev("draw", 0), *TRADE]) == []
    assert evidence([*NAMED, ev("turn", 0), ev("draw", 0), ev("turn", 1),
                     ev("draw", 1)]) == []


def test_a_named_colour_counts_multicoloured_cards_in_each_colour_wild_ones_in_none() -> None:
    """Blue named; KG (green and blue) counts for both, 8s and JB (every colour) for none."""
    view = GAME.view(GAME.current_player)
    dealer = G.determinizer(G.unstarted_for(view, 0), view)
    named = b.NamedSuit(1, BLUE, (card("KG"),))
    assert dealer.suits_of(card("KG")) == (GREEN, BLUE)
    assert dealer.suits_of(card("8O")) == dealer.suits_of(card("JB")) == ()

    def shortfall(hand: str) -> int:
        return b.violations(named, [[], CS.parse_many(hand)], -1, dealer.suits_of)

    assert shortfall("2B 8O JB") == 0  # blue 2 (KG, 2B), green 1
    assert shortfall("2G 3G 8O") == 2  # green 3 (KG, 2G, 3G), blue 1
    assert b.weight([named], [[], CS.parse_many("2G")], -1,
                    suits_of=dealer.suits_of) == b.NAMED_EPS
