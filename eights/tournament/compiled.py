"""Tournament games between built-in agents on a compiled core: many games at once.

Where every seat of a tournament is ``random``, ``greedy`` or ``heuristic`` and
the variant has a compiled core of :mod:`eights.vector` that plays its options,
a game needs no Python engine and no views. :class:`CompiledGames` deals each
scheduled game on a table of the core from the game's deal seed (the very
cards ``Engine.reset(seed=...)`` deals), answers every table whose heuristic
seat is to act in one compiled call (the heuristic the differential tests hold
to the Python agent's choices), draws the random and greedy seats' moves from
their own generators seeded as the tournament seeds the Python agents (so
the same numbers pick the same moves), and steps every table in one call. A
game's result is therefore the Python path's to the bit: winners, ranks,
scores, turns and the actions stored; only the seconds differ. The tests
compare the two paths game for game.

``eights tournament --engine`` chooses: ``python`` never plays here,
``compiled`` always does (and says why it cannot), ``auto`` (the default)
does from :data:`AUTO_MIN_GAMES` games on, where loading the core (and, the
first time on a machine, compiling it) costs less than it saves.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import numpy as np

from ..agents import _kind_and_arg
from ..agents.greedy import card_plays
from ..config import ConfigError
from ..engines import engine_class
from .play import ACTION_SEPARATOR, GameResult
from .schedule import ScheduledGame, Tournament

#: how ``eights tournament`` plays its games (``--engine``)
ENGINES = ("auto", "python", "compiled")
#: the agent kinds the compiled path plays (plain specs, no arguments)
COMPILED_KINDS = ("random", "greedy", "heuristic")
#: tables of the core a worker plays at once
COMPILED_LANES = 256
#: ``--engine auto`` plays compiled from this many games on: for fewer, loading the core
#: from numba's cache (about two CPU seconds a process; a minute the first time on a
#: machine) costs more than the Python engines spend on the games
AUTO_MIN_GAMES = 2000

_GREEDY, _HEURISTIC = COMPILED_KINDS.index("greedy"), COMPILED_KINDS.index("heuristic")


def compiled_refusal(tournament: Tournament) -> str | None:
    """Why ``tournament``'s games cannot be played on a compiled core, or ``None``: an
    agent the core does not play, or an option config its core refuses
    (:class:`~eights.vector.cores.NotCompiled`, found without compiling anything)."""
    import importlib

    from ..vector.cores import COMPILED, NotCompiled

    if tournament.variant not in COMPILED:
        return f"{tournament.variant} has no compiled core"
    for spec in dict.fromkeys(tournament.agents):
        kind, arg = _kind_and_arg(spec)
        if kind not in COMPILED_KINDS or arg:
            return (f"agent {spec!r} is not one of {', '.join(COMPILED_KINDS)} (the agents "
                    f"the compiled core plays)")
    engine, config = engine_class(tournament.variant), tournament.config()
    try:
        importlib.import_module(COMPILED[tournament.variant]).compile_config(
            engine, config, engine.encoder(config))
    except NotCompiled as err:
        return str(err)
    return None


def plays_compiled(tournament: Tournament, engine: str, games: int) -> bool:
    """Whether ``games`` of ``tournament`` play on the compiled core under ``--engine
    engine``; ``compiled`` where they cannot raises :class:`ConfigError` saying why."""
    if engine not in ENGINES:
        raise ConfigError(f"engine={engine!r} is not allowed; use one of {', '.join(ENGINES)}")
    if engine == "python":
        return False
    refusal = compiled_refusal(tournament)
    if engine == "compiled" and refusal is not None:
        raise ConfigError(f"--engine compiled: {refusal}; use --engine auto or python")
    return refusal is None and (engine == "compiled" or games >= AUTO_MIN_GAMES)


class CompiledGames:
    """Plays a tournament's scheduled games on :data:`COMPILED_LANES` tables of its core
    (:func:`compiled_refusal` says where it cannot)."""

    def __init__(self, tournament: Tournament, lanes: int = COMPILED_LANES):
        from ..vector.tables import CompiledTables

        refusal = compiled_refusal(tournament)
        if refusal is not None:
            raise ConfigError(f"the compiled core cannot play this tournament: {refusal}")
        self.tournament = tournament
        options = dict(tournament.options, num_players=tournament.num_players)
        self.tables = CompiledTables(tournament.variant, lanes, **options)
        self.lanes = lanes
        self._texts = engine_class(tournament.variant).actions.texts
        self._plays = card_plays(tournament.variant)  # what greedy prefers, as it reads it

    def play_many(self, games: Sequence[ScheduledGame]) -> list[GameResult]:
        results: list[GameResult] = []
        for start in range(0, len(games), self.lanes):
            results.extend(self._play(games[start:start + self.lanes]))
        return results

    def _play(self, games: Sequence[ScheduledGame]) -> list[GameResult]:
        tables, n = self.tables, self.tournament.num_players
        count = len(games)
        started = time.perf_counter()
        kinds = np.array([[COMPILED_KINDS.index(_kind_and_arg(spec)[0]) for spec in g.seats]
                          for g in games], np.int64).reshape(count, n)
        rngs = [[random.Random(seed) for seed in g.agent_seeds] for g in games]
        decisions = np.zeros((count, n), np.int64)
        think = np.zeros((count, n))
        played: list[list[int]] = [[] for _ in games]
        tables.deal(np.arange(count), [g.deal_seed for g in games])
        current = tables.current
        active = np.flatnonzero(current[:count] >= 0)
        clock = time.perf_counter
        while active.size:
            asked = clock()
            seats = current[active].astype(np.int64)
            kind = kinds[active, seats]
            actions = np.empty(active.size, np.int64)
            heuristic = kind == _HEURISTIC
            if heuristic.any():
                actions[heuristic] = tables.heuristic_actions(active[heuristic])
            if not heuristic.all():
                simple = ~heuristic
                actions[simple] = self._simple_choices(active[simple], seats[simple],
                                                       kind[simple], rngs)
            share = (clock() - asked) / active.size
            tables.step(active, actions)
            np.add.at(decisions, (active, seats), 1)
            np.add.at(think, (active, seats), share)
            for i, action in zip(active.tolist(), actions.tolist(), strict=True):
                played[i].append(action)
            active = active[current[active] >= 0]
        seconds = (time.perf_counter() - started) / count
        return [self._result(g, i, played[i], decisions[i], think[i], seconds)
                for i, g in enumerate(games)]

    def _simple_choices(self, tables: np.ndarray, seats: np.ndarray, kinds: np.ndarray,
                        rngs: list[list[random.Random]]) -> np.ndarray:
        """What :class:`~eights.agents.RandomAgent` or :class:`~eights.agents.GreedyAgent`
        with each seat's generator plays at each of ``tables``: greedy's lowest-id card play
        where it has one (no draw from its generator), else the legal action at
        ``rng.randrange(number legal)`` in ascending order: the same draws from the same
        numbers."""
        legal = self.tables.state["legal"][tables] != 0
        out = np.empty(len(tables), np.int64)
        playable = legal & self._plays
        greedy = (kinds == _GREEDY) & playable.any(axis=1)
        out[greedy] = playable[greedy].argmax(axis=1)
        draw = np.flatnonzero(~greedy)
        if draw.size:
            counts = legal[draw].sum(axis=1)
            picks = np.array([rngs[t][q].randrange(k) for t, q, k in
                              zip(tables[draw].tolist(), seats[draw].tolist(), counts.tolist(),
                                  strict=True)], np.int64)
            # the picks-th legal id: how many legal ids come before the (picks + 1)-th
            out[draw] = (np.cumsum(legal[draw], axis=1) <= picks[:, None]).sum(axis=1)
        return out

    def _result(self, game: ScheduledGame, table: int, played: list[int],
                decisions: np.ndarray, think: np.ndarray, seconds: float) -> GameResult:
        tables = self.tables
        n = self.tournament.num_players
        return GameResult(
            index=game.index,
            winners=tuple(tables.winners(table)),
            ranks=tables.ranks(table),
            scores=tables.final_scores(table),
            truncated=bool(tables.truncated(np.array([table]))[0]),
            turns=tables.turns(table),
            actions=ACTION_SEPARATOR.join(self._texts[a] for a in played),
            seconds=seconds,
            forfeit=-1,
            decisions=tuple(int(x) for x in decisions),
            think=tuple(float(x) for x in think),
            failures=({},) * n,
        )
