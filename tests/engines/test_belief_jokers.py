"""The ``voids`` belief of Jokers of Death (``eights.engines.determinizers.jokers_of_death``):
the moments read from hand-built histories (a draw that leaves two piles uncovered, a later
draw, a Joker's forced take, a take read as no answer, a follow, a pass, a hand switch, a
picked-up pile), the cover slack against the engine's own rule, and real games: the
evidence holds on the true hands of rule-abiding players, and weighted deals follow it
where uniform ones do not."""

from __future__ import annotations

import random

from eights.agents import make_agent
from eights.cards import SUIT, parse_card, parse_cards
from eights.engines import make_game
from eights.engines.determinizers import belief as b
from eights.engines.determinizers import jokers_of_death as jod
from eights.engines.jokers_of_death import JokersOfDeathGame, covers
from tests.engines.test_belief import ev

KINDS = JokersOfDeathGame.event_kinds
SPADES, HEARTS = 3, 2


def read(events: list[tuple], observer: int = 0, players: int = 3) -> list[b.Uncovered]:
    return jod.cover_evidence(events, observer, players, 3, KINDS)


def on(top: str) -> frozenset[int]:
    """The cards that fit a pile topped by ``top`` (its own suit to follow)."""
    c = parse_card(top)
    return jod.fitting(c, SUIT[c])


def cards(*texts: str) -> tuple[int, ...]:
    return tuple(parse_cards(list(texts)))


#: the piles turned up (5S, 9C, 3D); seat 0 (the observer) plays on each; play goes
#: counter-clockwise, so seat 2 is next, then seat 1
OPENING = [ev("deal", 0, arg=0), ev("starter", card="5S", arg=0),
           ev("starter", card="9C", arg=1), ev("starter", card="3D", arg=2),
           ev("play", 0, "7S", 0), ev("play", 0, "9S", 1), ev("play", 0, "6D", 2)]
#: seat 2 covers pile 1 only, then draws: its second card covers the other two
DREW_ON_TWO = [*OPENING, ev("play", 2, "6S", 0), ev("draw", 2), ev("draw", 2),
               ev("play", 2, "9D", 1), ev("play", 2, "6D", 2)]
#: the evidence of that draw: before its last card the hand could not cover 9S and 6D
TWO_PILES = (on("9S"), on("6D"))


# ---------------------------------------------------------------- moments
def test_a_draw_on_two_piles_is_read_before_its_last_card() -> None:
    """Two piles were left and the hand drew until it covered them: before the last card
    drawn it had no cover, and that card and the two played since are counted back."""
    assert read(DREW_ON_TWO) == [b.Uncovered(2, TWO_PILES, 1, cards("9D", "6D"))]
    assert read(DREW_ON_TWO, observer=2) == []  # a seat knows its own hand


def test_a_later_draw_relaxes_the_evidence_and_is_read_itself() -> None:
    later = [*DREW_ON_TWO, ev("play", 1, "9H", 0), ev("play", 1, "9C", 1),
             ev("play", 1, "4D", 2), ev("play", 0, "4H", 0), ev("play", 0, "4C", 1),
             ev("play", 0, "7D", 2), ev("draw", 2)]
    first, second = read(later)
    assert first == b.Uncovered(2, TWO_PILES, 2, cards("9D", "6D"))
    assert second == b.Uncovered(2, (on("4H"), on("4C"), on("7D")), 1, ())


def test_a_jokers_forced_take_is_no_evidence_but_counts_as_cards_taken() -> None:
    """Seat 2 kills two 4s of Spades with a Joker and must take four: no choice."""
    kill = [*DREW_ON_TWO, ev("play", 1, "4S", 0), ev("penalty", 1, arg=4),
            ev("play", 1, "9C", 1), ev("play", 1, "4D", 2),
            ev("play", 0, "4S", 0), ev("penalty", 0, arg=16),
            ev("play", 2, "RJ", 0), ev("kill", 2, arg=0), *[ev("draw", 2)] * 4,
            ev("take", 2, arg=4)]
    assert read(kill) == [b.Uncovered(2, TWO_PILES, 5, cards("9D", "6D", "RJ"))]


def test_taking_a_penalty_reads_as_holding_no_answer() -> None:
    """Answering is a choice, but taking costs cards: no 2 (any suit) in hand then; the two
    cards taken may be 2s."""
    two = [*OPENING[:-1], ev("play", 0, "2D", 2), ev("penalty", 0, arg=2),
           ev("draw", 2), ev("draw", 2), ev("take", 2, arg=2)]
    twos = frozenset(parse_cards(["2C", "2D", "2H", "2S"]))
    assert read(two) == [b.Uncovered(2, (twos,), 2, ())]
    four = parse_card("4S")
    assert jod.answering(four, False) == {four}  # its own 4 of Spades: no Joker
    assert jod.answering(four, True) == {four, *parse_cards(["RJ", "BJ"])}


def test_a_follow_drawn_for_is_read_with_the_card_that_came() -> None:
    """A Jack of Spades to follow: seat 2 drew two and played the 8 that came. Drawing is
    allowed holding a spade, but costs cards: read as holding none."""
    jack = [*OPENING, ev("play", 2, "JS", 0), ev("draw", 2), ev("draw", 2),
            ev("play", 2, "8H", 0), ev("suit", 2, arg=HEARTS), ev("play", 2, "9D", 1),
            ev("play", 2, "6D", 2)]
    (void,) = read(jack)
    assert void == b.Uncovered(2, (jod.following(SPADES),), 1, cards("8H", "9D", "6D"))
    hand = parse_cards(["QS", "2C"])
    assert b.violations(void, [[], [], hand], 8) == 1  # the spade and the 8 for one card
    assert b.violations(void, [[], [], hand[1:]], 8) == 0


def test_passes_on_an_empty_stock_say_no_cover_and_no_follow() -> None:
    turn = [*OPENING, ev("play", 2, "6S", 0), ev("pass", 2)]
    assert read(turn) == [b.Uncovered(2, TWO_PILES, 0, ())]
    jack = [*OPENING, ev("play", 2, "JS", 0), ev("pass", 2, arg=0), ev("play", 2, "9D", 1),
            ev("play", 2, "6D", 2)]
    assert read(jack) == [b.Uncovered(2, (jod.following(SPADES),), 0, cards("9D", "6D"))]


def test_draws_ended_by_a_pass_are_read_at_the_pass() -> None:
    """The stock ran out before the hand covered the piles: the pass says it all."""
    out = [*OPENING, ev("play", 2, "6S", 0), ev("draw", 2), ev("pass", 2)]
    assert read(out) == [b.Uncovered(2, TWO_PILES, 0, ())]


def switched(observer: int) -> list[tuple]:
    """Seat 1 plays the 3 of Diamonds after seat 2's draw: every hand goes on
    counter-clockwise (seat 2's to seat 1, seat 1's to seat 0, seat 0's to seat 2); the
    observer sees the hand it passes on, and seat 1 plays on with seat 2's old hand."""
    own = {0: ["AC", "KC"], 1: ["QH"], 2: ["JC"]}[observer]
    return [*DREW_ON_TWO, ev("play", 1, "3D", 2), ev("switch", 1), ev("hands_pass", arg=-1),
            *(ev("give", observer, c, (observer - 1) % 3) for c in own),
            ev("play", 1, "9C", 1), ev("play", 1, "7S", 0)]


def test_evidence_follows_a_switched_hand_to_its_new_holder() -> None:
    assert read(switched(0)) == [b.Uncovered(1, TWO_PILES, 1, cards("9D", "6D", "9C", "7S"))]


def test_evidence_of_a_hand_switched_to_the_observer_is_dropped() -> None:
    assert read(switched(1), observer=1) == []


def test_a_picked_up_pile_is_not_the_hand() -> None:
    """Free Discard Pile: seat 2 picks up pile 1 (9C, 9S) and plays it out on pile 0; those
    plays are not from its hand, and the empty space then takes any card."""
    pick = [*OPENING, ev("pick_up", 2, arg=1), ev("play", 2, "9S", 0),
            ev("play", 2, "9C", 0), ev("play", 2, "6D", 2), ev("draw", 2), ev("draw", 2),
            ev("play", 2, "4C", 0)]
    moments, elsewhere = jod.cover_moments(pick, 0, 3)
    assert elsewhere == {8, 9}
    space = jod.fitting(-1, -1)
    assert space == set(range(52))
    assert moments == [(12, 2, (on("9C"), space))]
    assert read(pick) == [b.Uncovered(2, (on("9C"), space), 1, cards("4C"))]


# ---------------------------------------------------------------- the slack
def test_the_slack_is_hall_s_rule_for_the_rules_example() -> None:
    """docs/rules/jokers_of_death.md #5: piles 5C 9D QH and a hand 7C 9H 6S 3S may draw (the
    9H is the only card for two piles); a 2D more covers them."""
    piles = (on("5C"), on("9D"), on("QH"))
    hand = parse_cards(["7C", "9H", "6S", "3S"])
    assert b.cover_slack(hand, piles) == 0
    assert b.cover_slack([*hand, parse_card("2D")], piles) == 1
    evidence = b.Uncovered(1, piles, 0)
    assert b.violations(evidence, [[], hand], 8) == 0
    assert b.weight([evidence], [[], [*hand, parse_card("2D")]], 8) == b.VOID_EPS
    assert not b.can_break(evidence, 0) and b.can_break(evidence, 3)


def test_fitting_and_the_slack_agree_with_the_engine() -> None:
    """On the positions of random games: :func:`fitting` is the engine's ``fits``, and a
    hand has no cover (slack at most 0) exactly where the engine's ``covers`` says so."""
    rng = random.Random(3)
    checked = 0
    for seed in range(3):
        game = make_game("jokers_of_death", seed=seed, free_discard_pile=True)
        while not game.game_over and game.turn < 150:
            s = game.state
            live = [k for k in range(len(s.piles)) if not s.killed[k]]
            piles = [jod.fitting(s.piles[k][-1] if s.piles[k] else -1, s.suits[k])
                     for k in live]
            for k, fit in zip(live, piles, strict=True):
                assert fit == {c for c in range(54) if game.fits(c, k)}
            for hand in s.hands:
                counts = hand.count
                engine = covers([[c for c in set(hand) if c in fit] for fit in piles], counts)
                assert (b.cover_slack(hand, piles) > 0) == engine
                checked += 1
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])
    assert checked > 300


# ---------------------------------------------------------------- real games
def heuristic_views(config: dict, games: int, every: int = 2):
    """(game, view) for every seat at every ``every``-th decision of seeded heuristic games."""
    game = make_game("jokers_of_death", seed=0, **config)
    agents = [make_agent("heuristic", "jokers_of_death", seed=k)
              for k in range(game.num_players)]
    for g in range(games):
        game.reset(seed=g)
        step = 0
        while not game.game_over:
            if step % every == 0:
                for seat in range(game.num_players):
                    yield game, game.view(seat)
            view = game.view(game.current_player)
            game.step(agents[game.current_player].act(view))
            step += 1


def evidence_of(view) -> list[b.Evidence]:
    cls = JokersOfDeathGame
    return cls.determinizer(cls.unstarted_for(view, 0), view).read_evidence()


def test_the_evidence_holds_on_the_true_hands_of_players_who_keep_the_rules() -> None:
    """The heuristic follows, answers and draws only when it cannot play, so nothing read
    from its games may break its real hands: through hand switches, picked-up piles, the
    Aces' recycling and two-player skips."""
    found = 0
    for config in ({}, {"num_players": 2, "hand_switching": True, "free_discard_pile": True,
                        "aces": True}):
        for game, view in heuristic_views(config, games=2):
            for e in evidence_of(view):
                assert b.violations(e, game.state.hands, 8) == 0, (view.seat, e)
                found += 1
    assert found > 100


def test_belief_deals_follow_the_evidence_uniform_ones_do_not() -> None:
    """Where an opponent's draws say something its hand could break, uniform deals break it
    often (counted in cards too many) and weighted ones seldom (measured 154 against 15)."""
    cls = JokersOfDeathGame
    uniform_bad = voids_bad = total = 0
    for game, view in heuristic_views({}, games=2, every=3):
        if view.seat != game.current_player:
            continue
        evidence = evidence_of(view)
        if not evidence:
            continue
        for k in range(4):
            for belief in (None, "voids"):
                hands = cls.determinize(view, random.Random(k), False, belief).state.hands
                bad = sum(b.violations(e, hands, 8) for e in evidence)
                if belief is None:
                    uniform_bad += bad
                    total += 1
                else:
                    voids_bad += bad
    assert total >= 40
    assert uniform_bad >= total // 4
    assert voids_bad * 5 <= uniform_bad


def test_the_weighted_deal_reads_the_view_alone() -> None:
    """Two games that differ only in the cards of the other hands deal alike under the
    belief: its evidence comes from the seat's own history."""
    cls = JokersOfDeathGame
    for game, view in heuristic_views({}, games=1, every=5):
        if view.seat != game.current_player or not evidence_of(view):
            continue
        other = make_game("jokers_of_death", seed=0)
        other.restore(game.snapshot())
        other._log[:] = game._log  # the same public history
        s = other.state
        p = next(q for q in range(other.num_players) if q != view.seat and s.hands[q])
        s.hands[p][0], s.stock[0] = s.stock[0], s.hands[p][0]
        assert other.view(view.seat) == view and s.hands != game.state.hands
        dealt = [repr(cls.determinize(v, random.Random(7), False, "voids").state)
                 for v in (view, other.view(view.seat))]
        assert dealt[0] == dealt[1]
        return
    raise AssertionError("no view with evidence")
