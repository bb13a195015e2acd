"""A view holds only what its seat may see, and what it holds does not change.

An in-process agent gets the view object itself, so hiding cards in what
the view *returns* is not enough: nothing *reachable* from it (attributes,
slots, containers, closures) may be the engine, its full event log, its
state, or an event showing a card of another seat's private event.
"""

from __future__ import annotations

import copy
import dataclasses
import gc
import pickle
import random
import sys
import types
from collections import deque

import pytest

from eights.engines import make_game
from eights.engines.base import Event, SeatHistory
from eights.protocol.views import sent_history, view_from_json, view_to_json
from tests.conftest import config_id, configs

#: kinds of objects the walk does not enter: they are shared by every view alike
SHARED = (type, types.ModuleType, types.BuiltinFunctionType, types.CodeType)


def _module_dicts(cache: dict[int, set[int]] = {}) -> set[int]:  # noqa: B006 (the cache)
    """The ids of every loaded module's namespace (made again only when a module loads: a
    few thousand modules, a walk per position would spend most of its time here)."""
    count = len(sys.modules)
    if count not in cache:
        cache.clear()
        cache[count] = {id(vars(m)) for m in list(sys.modules.values()) if m is not None}
    return cache[count]


def reachable(root: object, limit: int = 200_000) -> list[object]:
    """Every object reachable from ``root``, breadth-first through ``gc.get_referents``.

    Classes, modules, code and builtins are not entered. A function is entered
    through its closure and defaults, not its module's globals (which hold
    caches any code may keep); a bound method through its ``__self__``.
    """
    module_dicts = _module_dicts()
    seen = {id(root): root}
    queue = deque([root])
    while queue:
        obj = queue.popleft()
        if isinstance(obj, types.FunctionType):
            refs = [obj.__closure__, obj.__defaults__, obj.__kwdefaults__]
        else:
            refs = gc.get_referents(obj)
        for ref in refs:
            if ref is None or isinstance(ref, SHARED) or id(ref) in module_dicts:
                continue
            if id(ref) not in seen:
                seen[id(ref)] = ref
                queue.append(ref)
                assert len(seen) < limit, "the walk from the view reaches too much"
    return list(seen.values())


def leaks(view, engine, walked: list[object] | None = None) -> list[str]:
    """What reachable from ``view`` (``walked``: that walk, if made already) shows more than
    ``view.seat`` may see."""
    seat = view.seat
    s = engine.state
    forbidden = {id(engine): "the engine", id(engine.__dict__): "the engine's attributes",
                 id(engine._log): "the engine's full log", id(s): "the engine's state",
                 id(s.stock): "the stock", id(engine.rng): "the engine's generator"}
    for p, hand in enumerate(s.hands):
        forbidden[id(hand)] = f"player {p}'s hand list"
    for p, own in enumerate(engine._own):
        if p != seat:
            forbidden[id(own)] = f"player {p}'s private events"
    out = []
    for obj in walked if walked is not None else reachable(view):
        if id(obj) in forbidden:
            out.append(forbidden[id(obj)])
        elif (type(obj) in (tuple, Event) and len(obj) == 4 and obj[0] in engine.private_events
              and obj[1] != seat and isinstance(obj[2], int) and obj[2] >= 0):
            out.append(f"player {obj[1]}'s {obj[0]} of card {obj[2]}")
    return out


def random_positions(variant: str, config: dict, games: int, seed: int, rate: float = 0.1):
    """Random positions of random games (a ``rate`` of the decisions, the ends included),
    some reached by a restore."""
    game = make_game(variant, seed=0, **config)
    rng = random.Random(seed)
    for g in range(games):
        game.reset(seed=seed * 100 + g)
        snaps = []
        while not game.game_over:
            if rng.random() < rate:
                yield game, rng
            if rng.random() < 0.05:
                snaps.append(game.snapshot())
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])
        yield game, rng
        for snap in reversed(snaps[-2:]):
            game.restore(snap)
            yield game, rng


@pytest.mark.parametrize("pair", configs(), ids=config_id)
def test_nothing_reachable_from_a_view_shows_a_hidden_card(pair: tuple[str, dict]) -> None:
    variant, config = pair
    checked = private_seen = 0
    # (each position walks everything reachable from a view: a few dozen a config)
    for game, rng in random_positions(variant, config, games=8, seed=1, rate=0.05):
        seat = rng.randrange(game.num_players)
        view = game.view(seat)
        walked = reachable(view)
        assert leaks(view, game, walked) == []
        # the walk does find the seat's own private cards, so it would find others'
        private_seen += any(type(o) in (tuple, Event) and len(o) == 4 and o[1] == seat
                            and o[0] in game.private_events and o[2] >= 0 for o in walked)
        checked += 1
    assert checked >= 20 and private_seen > 0


def test_the_walk_finds_a_leak() -> None:
    """The check itself can fail: a history sharing the engine's log is caught."""
    game = make_game("crazy_eights", num_players=2, seed=3)
    rng = random.Random(0)
    while not any(e[0] == "draw" and e[1] == 1 for e in game._log):
        legal = game.legal_actions()
        game.step(legal[rng.randrange(len(legal))])
    view = game.view(0)
    assert leaks(view, game) == []
    view.seen_events = history = SeatHistory([], 0, 0)
    history._public, history._length = game._log, len(game._log)  # the old design
    found = leaks(view, game)
    assert "the engine's full log" in found
    assert any(f.startswith("player 1's draw of card") for f in found)


def reference_history(engine, seat: int) -> list[Event]:
    """The log as ``seat`` sees it, straight from the engine's full log."""
    return [Event(k, p, -1 if k in engine.private_events and p != seat else c, a)
            for k, p, c, a in engine._log]


@pytest.mark.parametrize("pair", configs()[::3], ids=config_id)
def test_histories_are_redacted_and_never_change(pair: tuple[str, dict]) -> None:
    variant, config = pair
    game = make_game(variant, seed=5, **config)
    rng = random.Random(5)
    kept = []
    for g in range(2):
        game.reset(seed=50 + g)
        while not game.game_over:
            seat = rng.randrange(game.num_players)
            view = game.view(seat)
            assert view.history() == reference_history(game, seat)
            assert len(view.seen_events) == len(game._log)
            kept.append((view, view.history()))
            if rng.random() < 0.2:  # try another line of play, then come back
                snap = game.snapshot()
                for _ in range(rng.randrange(1, 6)):
                    if game.game_over:
                        break
                    legal = game.legal_actions()
                    game.step(legal[rng.randrange(len(legal))])
                    game.view(seat)
                game.restore(snap)
                assert game.view(seat).history() == view.history()
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])
        for seat in range(game.num_players):
            assert game.view(seat).history() == reference_history(game, seat)
    for view, history in kept:  # later play, restores and resets changed no earlier view
        assert view.history() == history
    view, history = kept[-1]
    view.history().append(Event("play", 0, 0, -1))  # a copy: changing it changes nothing
    assert view.history() == history


@pytest.mark.parametrize("pair", configs()[:1] + configs()[-1:], ids=config_id)
def test_copies_and_the_protocol_carry_the_same_history(pair: tuple[str, dict]) -> None:
    variant, config = pair
    for game, rng in random_positions(variant, config, games=2, seed=7, rate=0.04):
        seat = rng.randrange(game.num_players)
        view = game.view(seat)
        history = view.history()
        assert dataclasses.asdict(view)["seen_events"] == history
        assert copy.deepcopy(view).seen_events == history
        again = pickle.loads(pickle.dumps(view))
        assert again == view and again.history() == history
        assert leaks(again, game) == []
        sent = view_from_json(view_to_json(view), variant, view.config, view.legal_actions)
        assert sent.history() == sent_history(view)  # (a match's: this hand's)


def test_a_history_made_from_a_log_keeps_its_own_redacted_copy() -> None:
    log = [("deal", 0, -1, 0), ("draw", 1, 12, -1), ("draw", 0, 30, -1), ("play", 1, 12, -1)]
    history = SeatHistory(log, 3, 0, frozenset({"draw"}))
    expected = [Event("deal", 0, -1, 0), Event("draw", 1, -1, -1), Event("draw", 0, 30, -1)]
    assert history.events() == expected and len(history) == 3
    assert all(ref is not log for ref in reachable(history))
    log.clear()
    assert history.events() == expected
    with pytest.raises(ValueError, match="length 5 is not within the log's 4 events"):
        SeatHistory([("deal", 0, -1, 0)] * 4, 5, 0)


def test_seat_history_refuses_a_seat_not_at_the_table() -> None:
    game = make_game("crazy_eights", num_players=3, seed=1)
    for seat in (-1, 3):
        with pytest.raises(ValueError, match=r"seat .* is not at this table: seats are 0\.\.2"):
            game.seat_history(seat)


def test_determinized_engines_start_their_own_histories() -> None:
    game = make_game("livery_eights", num_players=3, seed=2)
    rng = random.Random(2)
    for _ in range(10):
        legal = game.legal_actions()
        game.step(legal[rng.randrange(len(legal))])
    view = game.view(game.current_player)
    history = view.history()
    det = type(game).determinize(view, rng)
    assert det.view(view.seat).history() == []
    legal = det.legal_actions()
    det.step(legal[0])
    assert view.history() == history
    assert leaks(det.view(view.seat), det) == []
