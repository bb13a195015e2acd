"""Views with only the required fields: every built-in agent still answers a legal move.

A frontend in another language sends what a table shows; the bot fills in
the rest (the defaults the engines declare: eights/engines/defaults.py).
These tests cut real views down to their required fields, check the
filled-in defaults against the real
view where the sent fields fix them, and serve every agent kind on the
minimal views of every variant through a protocol session.
"""

from __future__ import annotations

import logging
import random

import jsonschema
import pytest

from eights.agents import AGENT_KINDS, Agent
from eights.agents.policy import shipped_models
from eights.engines import VARIANTS, make_game
from eights.engines.defaults import RequiredWhile
from eights.protocol import messages as m
from eights.protocol.errors import ProtocolError
from eights.protocol.session import BotSession
from eights.protocol.views import (
    read_view,
    required_now,
    rules_for,
    view_fields,
    view_from_json,
    view_to_json,
)
from eights.vector.search import searched_variants

#: a table each shipped policy model plays
PLAYERS = {"crazy_eights": 2, "livery_eights": 2, "baby_eating_eights": 4,
           "jokers_of_death": 3, "crazier_eights": 2}
AGENTS = ["random", "greedy", "heuristic", "policy", "ismcts:sims=15",
          "ismcts:sims=15,core=compiled,belief=voids"]


def minimal(view_json: dict, view) -> dict:
    """The fields of a view a frontend must send in its position (those every view needs,
    and those required while something holds, such as ``offender`` while ``challenge`` is
    legal)."""
    keep = set(required_now(view_json, view.variant, view.config, view.legal_actions))
    return {name: value for name, value in view_json.items() if name in keep}


def minimal_decide(game, id_: int) -> dict:
    view = game.view(game.current_player)
    msg = m.decide(view, id_, 1, None)
    return {**msg, "view": minimal(msg["view"], view)}


#: the decisions a search agent is asked (a crazier game played at random runs long)
SEARCH_DECISIONS = 40


def positions(variant: str, games: int, rate: float, seed: int = 0):
    """Games played at random, yielding a ``rate`` of their decision points."""
    rng = random.Random(seed)
    for g in range(games):
        game = make_game(variant, seed=seed * 100 + g, num_players=PLAYERS[variant])
        while not game.game_over:
            if rng.random() < rate:
                yield game
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("spec", AGENTS)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_agent_answers_a_legal_move_on_minimal_views(variant: str, spec: str,
                                                            caplog) -> None:
    if spec == "policy" and f"{variant}-{PLAYERS[variant]}p" not in shipped_models():
        pytest.skip(f"no policy model is shipped for {variant} at {PLAYERS[variant]} players")
    if "core=compiled" in spec and variant not in searched_variants():
        pytest.skip(f"{variant} has no compiled core to search on")
    session = BotSession(spec, seed=3)
    config = make_game(variant, seed=0, num_players=PLAYERS[variant]).config.to_dict()
    (ready,), _ = session.handle(m.encode(m.hello(variant, config)))
    assert ready["type"] == "ready", ready
    asked = 0
    search = spec.startswith("ismcts")
    for game in positions(variant, games=4 if search else 3, rate=0.2 if search else 0.5):
        msg = minimal_decide(game, asked + 1)
        assert set(msg["view"]) < set(view_fields(variant))
        (reply,), _ = session.handle(m.encode(msg))
        assert reply["type"] == "action", reply
        assert reply["action"] in msg["legal"]
        asked += 1
        if search and asked == SEARCH_DECISIONS:
            break
    assert asked > 10
    # the agent decided itself: no default left it without a consistent position
    assert session.fallbacks == 0
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("whole", [True, False], ids=["whole", "minimal"])
def test_the_heuristic_belief_searches_on_whole_and_minimal_views(whole: bool, caplog) -> None:
    """Crazy Eights' opponent model reads the history a whole view sends, and deals as
    uniform where a minimal view sends none: the search answers legally either way."""
    session = BotSession("ismcts:sims=15,belief=heuristic", seed=3)
    config = make_game("crazy_eights", seed=0, num_players=2).config.to_dict()
    (ready,), _ = session.handle(m.encode(m.hello("crazy_eights", config)))
    assert ready["type"] == "ready", ready
    asked = 0
    for game in positions("crazy_eights", games=2, rate=0.3):
        view = game.view(game.current_player)
        msg = m.decide(view, asked + 1, 1, None) if whole else minimal_decide(game, asked + 1)
        (reply,), _ = session.handle(m.encode(msg))
        assert reply["type"] == "action", reply
        assert reply["action"] in msg["legal"]
        asked += 1
    assert asked > 5
    assert session.fallbacks == 0
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("variant", ["crazy_eights", "livery_eights"])
def test_the_heuristic_plays_the_same_on_minimal_and_whole_views(variant: str) -> None:
    """It reads only required fields, so leaving the rest out changes nothing."""
    full, bare = BotSession("heuristic"), BotSession("heuristic")
    for session in (full, bare):
        session.handle(m.encode(m.hello(variant, {"num_players": PLAYERS[variant]})))
    for i, game in enumerate(positions(variant, games=4, rate=0.5)):
        msg = m.decide(game.view(game.current_player), i + 1, 1, None)
        (a,), _ = full.handle(m.encode(msg))
        (b,), _ = bare.handle(m.encode(minimal_decide(game, i + 1)))
        assert a == b


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_defaults_equal_the_real_view_where_the_sent_fields_fix_them(variant: str) -> None:
    fixed = ["game_over", "phase", "drawn_card", "teams", "guarantee_joker", "pending_draw",
             "hand_number", "offender"]
    checked = 0
    agendas = [0, 0]  # defaulted agendas unlike, like the real one
    for game in positions(variant, games=6, rate=0.3, seed=1):
        view = game.view(game.current_player)
        data = view_to_json(view)
        back, filled = read_view(minimal(data, view), variant, view.config,
                                 view.legal_actions)
        assert "history" in filled and back.hand == view.hand
        for name in fixed:
            if name in filled:
                assert getattr(back, name) == getattr(view, name), (name, view)
        if "agenda" in filled:
            # the decision at hand (the agenda's top frame: its kind and seat) is fixed by the
            # phase and the player to act
            assert back.agenda[-1][:2] == view.agenda[-1][:2]
            agendas[back.agenda == view.agenda] += 1
        if variant == "baby_eating_eights" and view.phase == "play":
            assert back.actor == view.actor  # during play so is whose turn it is
        if sum(getattr(view, "discard_counts", ())) == 1:  # only the starter: nothing unknown
            assert (back.discard_counts, back.stock_size) == (view.discard_counts,
                                                              view.stock_size)
        # with the history sent, the direction and the first player follow from it
        with_history = {**minimal(data, view), "history": data["history"]}
        back = view_from_json(with_history, variant, view.config, view.legal_actions)
        assert (getattr(back, "direction", 0), back.first_player) == (
            getattr(view, "direction", 0), view.first_player)
        checked += 1
    assert checked > 20
    # a defaulted agenda is the real one, bar the rare position the sent fields cannot tell
    # (19 of 297 in baby_eating_eights; none in jokers_of_death or crazier_eights)
    assert agendas[0] <= agendas[1] // 10, f"defaulted agendas unlike/like: {agendas}"


def test_a_hand_is_read_in_any_order() -> None:
    game = make_game("crazy_eights", seed=4)
    view = game.view(game.current_player)
    data = minimal(view_to_json(view), view)
    back = view_from_json({**data, "hand": data["hand"][::-1]}, "crazy_eights", view.config,
                          view.legal_actions)
    assert back.hand == view.hand


def refused(data: dict, variant: str, config: dict, legal: tuple[int, ...] = ()) -> ProtocolError:
    game = make_game(variant, seed=0, **config)
    with pytest.raises(ProtocolError) as info:
        view_from_json(data, variant, game.config, legal)
    return info.value


#: (sent with no legal actions, it names the phase: legal actions unknown, any phase could be)
CRAZY = {"seat": 0, "current_player": 0, "hand": ["AS", "8D"], "hand_sizes": [2, 3],
         "top": "9D", "active_suit": "D", "phase": "play"}


@pytest.mark.parametrize(("change", "config", "code", "words"), [
    ({"stock_size": 90}, {}, "missing_field",
     ["stock_size is sent without discard_counts", "send both or neither"]),
    ({"stock_size": 90, "discard_counts": {"9D": 1}}, {}, "bad_value",
     ["view.stock_size: 90", "less the hands' 5 and the discards' 1: 98"]),
    ({"discard_counts": {"5D": 1}}, {}, "bad_value",
     ["view.discard_counts", "the top one (9D) included"]),
    ({"hand": ["9D", "8D"], "discard_counts": {"9D": 2}}, {}, "bad_value",
     ["view.hand", "makes 3 9D, the deck 2", "hello's config"]),
    ({"hand_sizes": [2, 60]}, {"num_decks": 1}, "bad_value",
     ["view.hand_sizes", "the deck's 52 cards"]),
])
def test_optional_fields_sent_must_fit_the_rest(change: dict, config: dict, code: str,
                                                words: list[str]) -> None:
    err = refused({**CRAZY, **change}, "crazy_eights", config)
    assert err.code == code, err.message
    for word in words:
        assert word in err.message, err.message


def test_livery_needs_the_offender_while_a_challenge_is_legal() -> None:
    data = {"seat": 0, "current_player": 0, "hand": ["AS", "8D"], "hand_sizes": [2, 1],
            "top": "9D", "active_suit": "D", "pending_draw": 0}
    actions = make_game("livery_eights", seed=0).actions
    legal = tuple(sorted(actions.parse(t) for t in ("pass", "challenge")))
    err = refused(data, "livery_eights", {}, legal)
    assert err.code == "missing_field"
    assert ("offender, required in livery_eights while `phase` is `challenge` (in a decide: "
            "while `legal` holds `challenge`)") in err.message
    game = make_game("livery_eights", seed=0)
    view = view_from_json({**data, "offender": 1}, "livery_eights", game.config, legal)
    assert (view.offender, view.phase) == (1, "challenge")
    err = refused({k: v for k, v in data.items() if k != "pending_draw"}, "livery_eights", {},
                  legal)
    assert err.code == "missing_field" and "pending_draw" in err.message


def test_a_missing_phase_is_the_one_phase_that_offers_the_legal_actions() -> None:
    """crazy_eights: a draw's pass with a play is `after draw`; plays alone (nothing left to
    draw) fit a turn and `after draw` alike, so the phase must be sent, and the refusal
    names both; sent, it is taken as it is."""
    actions = make_game("crazy_eights", seed=0).actions
    data = {k: v for k, v in CRAZY.items() if k != "phase"}
    config = make_game("crazy_eights", seed=0).config
    after_draw = tuple(sorted(actions.parse(t) for t in ("play 8D", "pass")))
    view = view_from_json(data, "crazy_eights", config, after_draw)
    assert (view.phase, view.drawn_card) == ("after draw", actions.parse("play 8D"))
    plays = tuple(sorted(actions.parse(t) for t in ("play 8D", "play AS")))
    err = refused(data, "crazy_eights", {}, plays)
    assert err.code == "missing_field", err.message
    assert "missing field phase" in err.message and "'play' or 'after draw'" in err.message
    assert view_from_json({**data, "phase": "play"}, "crazy_eights", config, plays).phase == "play"


def test_a_frame_kind_must_declare_the_blocks_it_offers() -> None:
    from eights.engines.crazy_eights import CrazyEightsGame

    with pytest.raises(TypeError, match="offers must name the blocks of each frame kind"):
        type("Bad", (CrazyEightsGame,), {"offers": {"turn": ("play", "draw")}})
    with pytest.raises(TypeError, match="offers names blocks the action space lacks: knock"):
        type("Bad", (CrazyEightsGame,), {"offers": {**CrazyEightsGame.offers,
                                                    "suit": ("knock",)}})


def test_baby_eating_eights_needs_the_phase() -> None:
    game = make_game("baby_eating_eights", seed=0)
    data = minimal(view_to_json(game.view(0)), game.view(0))
    del data["phase"]
    err = refused(data, "baby_eating_eights", {})
    assert err.code == "missing_field" and "phase" in err.message


def test_the_heuristic_answers_when_the_agent_fails_on_defaults(monkeypatch, caplog) -> None:
    class Picky(Agent):
        """Fails on a view without a history, as a search might on defaults that do not fit."""

        def act(self, view):
            if not view.history():
                raise ValueError("no consistent deal")
            return view.legal_actions[0]

    monkeypatch.setitem(AGENT_KINDS, "picky", lambda variant, arg, seed: Picky(seed))
    session = BotSession("picky")
    session.handle(m.encode(m.hello("crazy_eights", {})))
    game = make_game("crazy_eights", seed=2)
    msg = minimal_decide(game, 1)
    with caplog.at_level(logging.WARNING, logger="eights.protocol.session"):
        (reply,), _ = session.handle(m.encode(msg))
    assert reply["type"] == "action" and reply["action"] in msg["legal"]
    assert session.fallbacks == 1
    (record,) = caplog.records
    for words in ("'picky' could not decide 1", "ValueError: no consistent deal",
                  "left out", "discard_counts", "history", "the heuristic answers"):
        assert words in record.getMessage()
    whole = m.decide(game.view(game.current_player), 2, 1, None)
    (reply,), _ = session.handle(m.encode(whole))  # nothing left out: its own answer
    assert reply["action"] == game.legal_texts()[0] and session.fallbacks == 1


# ------------------------------------------------------------------ the schema


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_minimal_messages_are_valid_and_each_required_field_is_needed(variant: str) -> None:
    schema = m.load_schema()
    validator = jsonschema.Draft202012Validator(schema)
    # a decide does not name its variant: a view is checked against its variant's definition
    views = jsonschema.Draft202012Validator({"$defs": schema["$defs"],
                                             "$ref": f"#/$defs/{variant}_view"})
    game = next(positions(variant, games=1, rate=0.2))
    msg = minimal_decide(game, 1)
    assert validator.is_valid(msg), [e.message for e in validator.iter_errors(msg)]
    assert views.is_valid(msg["view"])
    rules = rules_for(variant)
    for name in msg["view"]:
        cut = {k: v for k, v in msg["view"].items() if k != name}
        with pytest.raises(ProtocolError, match=name):
            view_from_json(cut, variant, game.config, game.legal_actions())
        rule = rules.get(name)
        if rule is None or (rule.view_schema is not None
                            and jsonschema.Draft202012Validator(rule.view_schema).is_valid(cut)):
            assert not views.is_valid(cut), name
        else:
            # required here by what the view's schema cannot see: the legal actions, or a
            # phase the reader derives from them (left out here)
            assert isinstance(rule, RequiredWhile) and ("phase" not in cut
                                                        or rule.view_schema is None), name
    if "stock_size" not in msg["view"] and "discard_counts" not in msg["view"]:
        # (optional: then it needs discard_counts)
        assert not views.is_valid({**msg["view"], "stock_size": 3})


def test_the_schema_needs_the_offender_while_a_challenge_is_legal() -> None:
    validator = jsonschema.Draft202012Validator(m.load_schema())
    msg = {"type": "decide", "id": 1, "game": 1, "time_limit_ms": None,
           "legal": ["pass", "challenge"],
           "view": {"seat": 0, "current_player": 0, "hand": ["AS"], "hand_sizes": [1, 1],
                    "top": "9D", "active_suit": "D", "pending_draw": 0}}
    assert not validator.is_valid(msg)
    assert validator.is_valid({**msg, "view": {**msg["view"], "offender": 1}})
