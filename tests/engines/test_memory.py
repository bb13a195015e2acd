"""What a seat remembers (eights/engines/memory.py) holds against the engine's true state.

Random games of every variant and option config: at every decision, for every seat, the
cards its memory knows in another hand are in that hand (as multisets), the cards it
remembers each seat playing are the ones the referee saw played, and the cards whose place
it does not know are exactly the hidden pool (the stock and the other hands) less the ones
it knows, never negative. The fold over a view's history gives the engine's memory, so a
protocol reader that folds the history a frontend sent remembers the same.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from eights.cards import NO_CARD
from eights.engines import make_game
from eights.engines.events import EventKind
from eights.engines.memory import fold, new_memory, remember, shared_folds, unseen
from eights.variants import REGISTRY

from ..conftest import every_option_config, sweep_id

GAMES = 2
#: decisions between two checks (and the last position of each game)
EVERY = 7


class Referee:
    """Each seat's memory had it seen every card (the unredacted log folded, incrementally):
    the truth of what was played, named and drawn."""

    def __init__(self, game):
        n, cards, suits = game.num_players, len(game.cardset), len(game.cardset.colour_codes)
        self.memories = [new_memory(seat, n, cards, suits) for seat in range(n)]

    def update(self, game) -> list:
        log = game.events
        for memory in self.memories:
            for event in log[memory.position:]:
                remember(memory, event, game.event_kinds[event.kind])
            memory.position = len(log)
        return self.memories


def _hidden_pool(game, seat: int) -> Counter:
    s = game.state
    pool = Counter(s.stock)
    for q, hand in enumerate(s.hands):
        if q != seat:
            pool.update(hand)
    return pool


def _check(game, referee: Referee, final: bool = False) -> None:
    s = game.state
    truth = referee.update(game)
    logged = len(game.events)
    for seat in range(game.num_players):
        memory = game.memory(seat)
        assert memory.position == logged
        for q in range(game.num_players):
            known = Counter({c: k for c, k in enumerate(memory.known[q]) if k}
                            if any(memory.known[q]) else ())
            assert not known - Counter(s.hands[q]), (seat, q, known, sorted(s.hands[q]))
            assert memory.played[q] == truth[seat].played[q]
            assert memory.named[q] == truth[seat].named[q]
            assert memory.drawn[q] == truth[seat].drawn[q]
        assert not any(memory.known[seat])
        pool = _hidden_pool(game, seat)
        for q in range(game.num_players):
            if q != seat and any(memory.known[q]):
                pool.subtract({c: k for c, k in enumerate(memory.known[q]) if k})
        assert min(pool.values(), default=0) >= 0
        expected = [pool[c] for c in range(len(game.cardset))]
        assert list(game.unseen(seat)) == expected
        if final:  # the protocol reader's fold over the view's history remembers the same
            again = fold(game.view(seat).history(), game.event_kinds, seat,
                         game.num_players, len(game.cardset), len(game.cardset.colour_codes))
            assert again.played == memory.played and again.known == memory.known
            assert again.named == memory.named and again.drawn == memory.drawn


@pytest.mark.parametrize("setup", every_option_config(), ids=sweep_id)
def test_the_memory_of_every_seat_holds_against_the_true_state(setup):
    variant, config = setup
    rng = random.Random(7)
    for g in range(GAMES):
        game = make_game(variant, seed=100 + g, **config)
        referee = Referee(game)
        decisions = 0
        while not game.game_over:
            if decisions % EVERY == 0:
                _check(game, referee)
            game.step(rng.choice(game.legal_actions()))
            decisions += 1
        _check(game, referee, final=True)


def test_a_restored_engine_folds_its_memory_again_from_the_restored_log():
    game = make_game("crazy_eights", seed=3)
    rng = random.Random(0)
    snap = game.snapshot()
    for _ in range(12):
        game.step(rng.choice(game.legal_actions()))
    before = game.memory(0).played[1][:]
    game.restore(snap)
    assert game.memory(0).position == len(game.events)
    assert not any(game.memory(0).played[1]) or before != game.memory(0).played[1]


@pytest.mark.parametrize("variant", sorted(REGISTRY))
def test_the_fields_folded_once_for_every_seat_are_the_ones_each_seat_folds_alone(variant):
    """The engine folds ``played``, ``named`` and ``drawn`` once for all seats (where
    memory.shared_folds allows): at every decision each seat's memory is its own
    history folded alone, as the protocol's reader folds it."""
    game = make_game(variant, seed=11)
    rng = random.Random(3)
    n, cards, suits = game.num_players, len(game.cardset), len(game.cardset.colour_codes)
    assert type(game)._shared_folds is not None  # (every shipped variant shares them)
    while not game.game_over:
        for seat in rng.sample(range(n), n):  # (the seats read in any order)
            alone = fold(game.view(seat).history(), game.event_kinds, seat, n, cards, suits)
            memory = game.memory(seat)
            assert (memory.played, memory.named, memory.drawn, memory.known) == (
                alone.played, alone.named, alone.drawn, alone.known), (seat, len(game.events))
        game.step(rng.choice(game.legal_actions()))


PLAY = EventKind("play", "a play", "{player} plays {card}.", card=True, flow=("hand", "table"))
TAKE = EventKind("take", "a take", "{player} takes {card}.", card=True, arg="seat",
                 visibility="player", flow=("hand:arg", "hand"))
GIVE = EventKind("give", "a give", "{player} gives {card}.", card=True, arg="seat",
                 visibility="player", flow=("hand", "hand:arg"))
KINDS = {"play": PLAY, "take": TAKE, "give": GIVE}


def test_a_card_seen_into_a_hand_is_known_until_seen_leaving_it():
    memory = new_memory(0, 3, 54, 4)
    remember(memory, ("give", 0, 5, 1), GIVE)      # seat 0 gives 5 to seat 1: it saw it
    assert memory.known[1][5] == 1
    remember(memory, ("play", 1, 5, -1), PLAY)     # seat 1 plays it: known no more
    assert memory.known[1][5] == 0 and memory.played[1][5] == 1


def test_an_unseen_card_leaving_a_hand_keeps_only_what_stays_certain():
    memory = new_memory(0, 3, 54, 4)
    for card in (5, 5, 9):
        remember(memory, ("give", 0, card, 1), GIVE)
    remember(memory, ("take", 2, NO_CARD, 1), TAKE)  # seat 2 took a card 0 did not see
    assert memory.known[1][5] == 1 and memory.known[1][9] == 0


def test_a_card_played_again_and_again_counts_up_to_a_byte_and_no_further():
    """A long game reshuffles a card back and plays it again: 300 plays of one card (an
    untrained policy's evaluation game ran to its turn limit so) keep the count at 255."""
    memory = new_memory(0, 2, 54, 4)
    for _ in range(300):
        remember(memory, ("play", 1, 7, -1), PLAY)
    assert memory.played[1][7] == 255


def test_unseen_is_the_deck_less_the_hand_the_table_and_the_known_cards():
    memory = new_memory(0, 2, 4, 4)
    memory.known = (bytes(4), bytes([0, 0, 1, 0]))
    assert unseen(memory, deck=(2, 2, 2, 2), hand=(0,), table=(0, 1, 0, 0)) == bytes(
        [1, 1, 1, 2])


@pytest.mark.parametrize("flow, arg, error", [
    (("hand", "nowhere"), "", "is not \\(from, to\\)"),
    (("hand", "hand:arg"), "count", "needs a seat arg"),
])
def test_a_bad_flow_is_refused_naming_what_is_allowed(flow, arg, error):
    with pytest.raises(ValueError, match=error):
        EventKind("x", "doc", "{player} x.", card=True, arg=arg, flow=flow)


@pytest.mark.parametrize("declared, error", [
    ({"flow": ("hand", "table"), "seen_only": True}, "seen_only is for a card only its player"),
    ({"seen_only": True, "visibility": "player"}, "seen_only is for a kind with a flow"),
    ({"passes_hands": True, "arg": "seat"}, "passes_hands needs a direction arg"),
    ({"shows": True, "arg": "count"}, "shows needs a player, a card and a seat arg"),
])
def test_a_memory_effect_without_what_it_reads_is_refused(declared, error):
    with pytest.raises(ValueError, match=error):
        EventKind("x", "doc", "{player} x.", card=True, **declared)


def test_a_determinized_engine_remembers_what_the_view_remembers():
    """Search and the protocol's consistency check deal a position from a view: the seat's
    memory comes with it, so the dealt position's view shows the same public history."""
    game = make_game("crazy_eights", seed=5)
    rng = random.Random(1)
    for _ in range(15):
        game.step(rng.choice(game.legal_actions()))
    view = game.view(game.current_player)
    dealt = type(game).determinize(view, random.Random(0)).view(view.seat)
    for name in ("played_cards", "named_suits", "drawn_since_play", "unseen_cards"):
        assert getattr(dealt, name) == getattr(view, name), name


def _play_until(variant: str, found, seeds=range(40), **config):
    """The first seeded random game (and its events' index) where ``found(game, start)``
    holds right after a step; ``start`` is where that step's events begin."""
    for seed in seeds:
        game = make_game(variant, seed=seed, **config)
        rng = random.Random(seed)
        while not game.game_over:
            start = len(game.events)
            game.step(rng.choice(game.legal_actions()))
            if found(game, start):
                return game, start
    raise AssertionError(f"{variant}: no game of the seeds reached the scenario")


def _events_of(game, start: int, kind: str) -> list:
    return [e for e in game.events[start:] if e.kind == kind]


def test_a_sevens_swap_is_known_to_both_its_seats_and_to_nobody_else():
    """Baby Eating Eights' Seven: each of the two seats saw the card it lost, so it knows it
    in the other's hand (if still there); a third seat knows neither."""
    game, start = _play_until(
        "baby_eating_eights", lambda g, i: bool(_events_of(g, i, "swap")), num_players=3)
    swap = _events_of(game, start, "swap")[0]
    p, t = swap.player, swap.arg
    gave = next(e.card for e in _events_of(game, start, "give") if e.player == p)
    got = next(e.card for e in _events_of(game, start, "give") if e.player == t)
    assert game.memory(p).known[t][gave] >= 1
    assert game.memory(t).known[p][got] >= 1
    third = next(q for q in range(3) if q not in (p, t))
    assert not any(game.memory(third).known[p]) and not any(game.memory(third).known[t])


def test_a_redeal_starts_a_new_hand_for_the_memory():
    """The King of Hearts redeals every card: nothing of the last deal is remembered."""
    game, _ = _play_until(
        "baby_eating_eights", lambda g, i: bool(_events_of(g, i, "redeal")), num_players=2)
    redeal = len(game.events) - 1 - [e.kind for e in game.events][::-1].index("redeal")
    after = game.events[redeal + 1:]
    for seat in range(2):
        memory = game.memory(seat)
        played = Counter(e.card for e in after if e.kind == "play" and e.player != seat)
        assert sum(map(sum, memory.played)) == sum(
            1 for e in after if e.kind in ("play", "bottom"))
        assert all(memory.played[1 - seat][c] == k for c, k in played.items())


def test_a_picked_up_pile_left_over_is_known_in_its_players_hand_to_every_seat():
    """Jokers of Death's Free Discard Pile: the cards of a picked-up pile its player could
    not play out go into its hand face up, so every other seat knows them there."""
    game, start = _play_until(
        "jokers_of_death", lambda g, i: bool(_events_of(g, i, "left_over")),
        num_players=3, free_discard_pile=True)
    left = _events_of(game, start, "left_over")
    p = left[0].player
    cards = Counter(e.card for e in left)
    for seat in range(3):
        if seat != p:
            known = Counter({c: k for c, k in enumerate(game.memory(seat).known[p]) if k})
            assert not cards - known, (seat, cards, known)


def test_a_hand_switch_moves_what_each_seat_knows_to_the_next_hand():
    """Jokers of Death's 3 of Diamonds: each seat knows the hand it passed on in the next
    seat's hand, and only that."""
    game, start = _play_until(
        "jokers_of_death", lambda g, i: bool(_events_of(g, i, "hands_pass")),
        num_players=3, hand_switching=True)
    gives = [e for e in game.events[start:] if e.kind == "give"]
    for seat in range(3):
        passed = Counter(e.card for e in gives if e.player == seat)
        nxt = gives[[e.player for e in gives].index(seat)].arg
        known = Counter({c: k for c, k in enumerate(game.memory(seat).known[nxt]) if k})
        assert known == passed - (passed - Counter(game.state.hands[nxt]))
        assert not any(game.memory(seat).known[3 - seat - nxt])


def test_a_look_at_a_hand_is_known_to_the_looker_and_to_nobody_else():
    """Crazier Eights' Trade: its player looks at the target's hand, so it knows every card
    there (less the one it takes); the other seats see only that it looked."""
    game, start = _play_until(
        "crazier_eights", lambda g, i: bool(_events_of(g, i, "looks_at_hand")), num_players=3)
    look = _events_of(game, start, "looks_at_hand")[0]
    p, q = look.player, look.arg
    seen = Counter(e.card for e in _events_of(game, start, "sees") if e.player == p)
    assert seen, "the look logs the cards seen"
    known = Counter({c: k for c, k in enumerate(game.memory(p).known[q]) if k})
    assert known == seen & Counter(game.state.hands[q])
    third = 3 - p - q
    shown = [e for e in game.view(third).history()[start:] if e.kind == "sees"]
    assert shown and all(e.card == NO_CARD for e in shown if e.player != third)


def test_a_card_seen_on_the_draw_pile_is_known_in_its_drawers_hand():
    """A card a seat saw on top of the draw pile (a look, a reveal) and another seat then
    drew is known in that seat's hand."""
    def drawn_seen(g, i):
        return any(e.kind == "sees" and e.arg == d.player for e in g.events[i:]
                   for d in g.events[i:] if d.kind == "draw")

    game, start = _play_until("crazier_eights", drawn_seen, num_players=3)
    sees = next(e for e in _events_of(game, start, "sees")
                if any(d.kind == "draw" and d.player == e.arg for d in game.events[start:]))
    if sees.card in game.state.hands[sees.arg]:
        assert game.memory(sees.player).known[sees.arg][sees.card]


KNOWS = {"baby_eating_eights": {"num_players": 3},
         "jokers_of_death": {"num_players": 3, "hand_switching": True},
         "crazier_eights": {"num_players": 3}}


@pytest.mark.parametrize("variant", sorted(KNOWS))
def test_a_determinized_engine_deals_the_cards_its_memory_knows_into_their_hands(variant):
    """A dealt engine starts from the view's memory, so its hands hold what that memory
    knows in them (else its unseen counts would not be the dealt hidden pool)."""
    def knows(g, _):
        return not g.game_over and any(any(k) for k in g.memory(g.current_player).known)

    game, _ = _play_until(variant, knows, **KNOWS[variant])
    view = game.view(game.current_player)
    for seed in range(5):
        dealt = type(game).determinize(view, random.Random(seed))
        for q, counts in enumerate(view.known_cards):
            assert not Counter({c: k for c, k in enumerate(counts) if k}) - Counter(
                dealt.state.hands[q])
        assert dealt.view(view.seat).unseen_cards == view.unseen_cards


def test_a_feature_name_taken_twice_is_refused_naming_the_field():
    """Crazier Eights has a ``played`` feature of its own: the memory's must not shadow it
    (its docs table and layout look features up by name)."""
    from eights.engines.encoding import Encoder, Flag
    from eights.engines.fields import ViewField

    fields = [ViewField("a", "bool", "a", "True", Flag(), feature="played"),
              ViewField("b", "bool", "b", "True", Flag(), feature="played")]
    with pytest.raises(ValueError, match="feature name 'played' is taken"):
        Encoder(fields, make_game("crazy_eights").config)


def test_a_private_card_put_face_up_keeps_every_seat_folding_its_own_memory():
    """Where a seat's redacted history changes what it counts as played (a card only its
    player sees, put face up), the engine cannot fold those counts once for all seats."""
    hidden = EventKind("play", "a hidden play", "{player} plays a card.", card=True,
                       visibility="player", flow=("hand", "table"))
    assert shared_folds({"play": PLAY, "take": TAKE, "give": GIVE}, {"take", "give"})
    assert shared_folds({"play": hidden}, {"play"}) is None
