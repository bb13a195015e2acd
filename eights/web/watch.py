"""Watch: a store's games listed and filtered, one replayed step by step, a bot's thinking.

A replay is computed once, when the page asks for it, as a list of frames:
the deal, then one frame after each decision of the stored record, each
with the sentences ``eights play`` says for the new events and the view of
the seat being watched (or every seat's, for the referee). The page steps
through the frames itself (step, back, play/pause, speed), so nothing is
computed while it plays.

The thinking of a ``policy`` or ``ismcts`` agent at a decision is computed
again at that view, when the page reaches it (:func:`thinking`): the policy's
probabilities over the legal moves, or the search's visit counts. The
search is random, so its counts are those of a new search from that view
(the stored game records decisions, not searches).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..agents import make_agent, spec_kind
from ..engines import engine_class
from ..engines.table import TableEngine
from ..play.text import action_phrase, cards_of, narration
from ..protocol.errors import ProtocolError
from ..tournament.store import StoredGame
from .store import StoreReader
from .tables import seat_json

#: agent kinds whose thinking the page can show, and what the numbers are
THINKERS = {"policy": "probability", "ismcts": "visits"}
#: most games a list holds (the newest kept); a filter narrows a longer store down
MAX_LISTED = 1000


def _name(seats: tuple[str, ...]) -> Callable[[int], str]:
    return lambda p: f"Player {p} ({seats[p]})" if 0 <= p < len(seats) else f"Player {p}"


def game_json(game: StoredGame) -> dict[str, Any]:
    """One row of the games list."""
    return {"index": game.index, "seats": list(game.seats), "winners": list(game.winners),
            "scores": list(game.scores), "turns": game.turns, "truncated": game.truncated,
            "forfeit": game.forfeit}


def list_games(store: StoreReader, agent: str | None = None, outcome: str = "any"
               ) -> dict[str, Any]:
    """The store's games, those ``agent`` played and had the ``outcome`` (from the agent's
    side for ``win`` and ``loss``; ``truncated`` and ``forfeit`` for anyone)."""
    if outcome in ("win", "loss") and not agent:
        raise ProtocolError("bad_value", f"games.outcome: {outcome!r} is from an agent's side; "
                                         f"choose the agent too")
    chosen = []
    for game in store.games():
        if agent and agent not in game.seats:
            continue
        mine = [k for k, s in enumerate(game.seats) if s == agent]
        won = any(k in game.winners for k in mine)
        keep = {"any": True, "win": won, "loss": bool(mine) and not won and not game.truncated,
                "truncated": game.truncated, "forfeit": game.forfeit >= 0}[outcome]
        if keep:
            chosen.append(game)
    t = store.tournament
    return {"type": "games", "store": store.name, "variant": t.variant,
            "agents": list(t.agents), "total": store.count(), "matching": len(chosen),
            "games": [game_json(g) for g in chosen[-MAX_LISTED:]]}


def _engine_at(store: StoreReader, index: int) -> tuple[TableEngine, tuple[str, ...], StoredGame]:
    """A new engine dealt for stored game ``index`` (no decision made yet)."""
    try:
        record = store.record(index)
        game = store.game(index)
    except KeyError as err:
        raise ProtocolError("bad_value", str(err).strip("'\"")) from None
    cls = engine_class(record.variant)
    engine = cls(cls.Config.from_data(record.config, "the stored game"), seed=record.seed,
                 deck=record.deck, first_player=record.first_player)
    engine.record_forced_moves()
    return engine, record.actions, game


def replay(store: StoreReader, index: int, seat: int | None) -> dict[str, Any]:
    """Every frame of stored game ``index`` as ``seat`` saw it (the referee's: ``None``)."""
    engine, actions, game = _engine_at(store, index)
    players = engine.num_players
    if seat is not None and not 0 <= seat < players:
        raise ProtocolError("bad_value", f"replay.seat: {seat} is not a seat of this "
                                         f"{players}-player game")
    name = _name(game.seats)
    low = engine.low_score_wins
    shown = range(players) if seat is None else (seat,)

    def events() -> list:
        return list(engine.events) if seat is None else engine.view(seat).history()

    heard = 0

    def frame(decision: dict[str, Any] | None) -> dict[str, Any]:
        nonlocal heard
        new = events()[heard:]
        heard += len(new)
        cards = cards_of(engine.view(0))
        sentences = narration(new, lambda e: engine.describe_event(e, name), name, cards, low)
        return {"decision": decision, "sentences": sentences,
                "views": [_without_fields(seat_json(engine.view(p), name)) for p in shown],
                "game_over": engine.game_over}

    frames = [frame(None)]
    for step, text in enumerate(actions):
        actor = engine.current_player
        view = engine.view(actor)
        decision = {"step": step, "actor": actor, "agent": game.seats[actor], "move": text,
                    "phrase": action_phrase(text, getattr(view, "phase", None), cards_of(view)),
                    "thinks": spec_kind(game.seats[actor]) in THINKERS}
        engine.step(text)
        frames.append(frame(decision))
    return {"type": "replay", "game": game_json(game), "seat": seat,
            "players": [name(p) for p in range(players)], "frames": frames}


#: the cached agents are shared by the server's worker threads: one asks at a time
_THINKING = threading.Lock()


def _without_fields(view: dict[str, Any]) -> dict[str, Any]:
    """A replay's view without its raw fields (the page shows the hand and the sentences; a
    replay has a view per seat per decision, and the fields would triple its size)."""
    return {k: v for k, v in view.items() if k != "fields"}


@functools.lru_cache(maxsize=16)
def _thinker(spec: str, variant: str) -> Any:
    """An agent to ask again (its model is loaded once per spec)."""
    return make_agent(spec, variant, seed=0)


def thinking(store: StoreReader, index: int, step: int) -> dict[str, Any]:
    """What the agent deciding at ``step`` of game ``index`` thinks of each legal move."""
    engine, actions, game = _engine_at(store, index)
    if not 0 <= step < len(actions):
        raise ProtocolError("bad_value", f"think.step: game {index} has decisions 0 to "
                                         f"{len(actions) - 1}")
    for text in actions[:step]:
        engine.step(text)
    actor = engine.current_player
    spec = game.seats[actor]
    kind = spec_kind(spec)
    if kind not in THINKERS:
        raise ProtocolError("bad_value", f"think: {spec} at step {step} is not a policy or a "
                                         f"search; it shows no thinking")
    view = engine.view(actor)
    with _THINKING:
        agent = _thinker(spec, engine.variant)
        values = (agent.action_probabilities(view) if kind == "policy"
                  else agent.visit_counts(view))
    return {"type": "think", "game": index, "step": step, "agent": spec,
            "measure": THINKERS[kind], "chosen": actions[step],
            "moves": _ranked(engine, view, values)}


def _ranked(engine: TableEngine, view: Any, values: np.ndarray) -> list[dict[str, Any]]:
    """Each legal move with its value, the largest first."""
    phase, cards = getattr(view, "phase", None), cards_of(view)
    rows: Iterable[tuple[float, str]] = ((float(values[a]), engine.action_text(a))
                                         for a in view.legal_actions)
    return [{"text": text, "phrase": action_phrase(text, phase, cards), "value": value}
            for value, text in sorted(rows, key=lambda r: -r[0])]
