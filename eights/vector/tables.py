"""Many tables of one variant, advanced together: the multi-agent core of :mod:`eights.vector`.

:class:`Tables` is what every seat of every table sees and does, with no
opponents attached: each table has a seat to act (``current``, -1 once its
game is over), :meth:`Tables.observe` writes that seat's observation and mask
for every table into preallocated arrays, :meth:`Tables.step` applies one
action per table, :meth:`Tables.returns` gives the rewards of ended games.
The learner-facing env (:class:`eights.vector.env.VectorEnv`) puts opponents
on the other seats.

Two implementations share this interface: :class:`CompiledTables` (a numba
core, where a variant has one: :data:`COMPILED`) and :class:`PythonTables`
(one Python engine per table, for every variant and option). Both deal game
``k`` of table ``i`` from the same game seed (:meth:`Tables.game_seeds`), so
for the same actions they play the same games; the differential tests hold
them to it.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..config import ConfigError, GameConfig
from ..engines import engine_class
from ..engines.base import IllegalActionError
from ..variants import REGISTRY
from . import batch
from .cores import COMPILED, NotCompiled
from .mt import splitmix_next_py

#: the compiled variants whose entry points this process has compiled or loaded already
_READY: set[str] = set()


@functools.cache
def record_dtype(core: Any) -> np.dtype:
    """A core's record dtype, one object per core for the process: numba looks an
    argument's record type up by its dtype, and a dtype equal to the one it met first but
    not the same object costs a field-by-field comparison on every call (a one-table
    observe took 3.5 us instead of 1.6 in a process whose first tables were made
    elsewhere)."""
    return core.state_dtype()


def table_seeds(seed: int | None, num_tables: int) -> np.ndarray:
    """Each table's SplitMix64 starting state, from ``seed`` (``None``: fresh entropy):
    numpy's ``SeedSequence``, so nearby seeds give unrelated streams."""
    return np.random.SeedSequence(seed).generate_state(num_tables, np.uint64)


def game_seeds(seed: int | None, table: int, count: int, num_tables: int) -> list[int]:
    """The seeds of table ``table``'s first ``count`` games after ``reset(seed)``: game ``k``
    is ``Engine(seed=game_seeds(...)[k])``'s game (``seed`` must be an int to replay)."""
    state = int(table_seeds(seed, num_tables)[table])
    out = []
    for _ in range(count):
        state, game_seed = splitmix_next_py(state)
        out.append(game_seed)
    return out


class Tables:
    """The interface both implementations keep; see the module docstring."""

    variant: str
    config: GameConfig
    num_tables: int
    num_players: int
    num_actions: int
    observation_size: int
    #: the seat to act at each table (-1 where the game is over)
    current: np.ndarray

    def reset(self, seed: int | None = None) -> None:
        raise NotImplementedError

    def observe(self, tables: np.ndarray, seats: np.ndarray, obs: np.ndarray,
                masks: np.ndarray) -> None:
        """Write seat ``seats[j]``'s observation and mask at table ``tables[j]`` into row
        ``j`` of ``obs`` and ``masks``."""
        raise NotImplementedError

    def step(self, tables: np.ndarray, actions: np.ndarray) -> None:
        """Table ``tables[j]``'s seat to act plays ``actions[j]``; if any action is not
        legal, :class:`IllegalActionError` names it and no table moves."""
        raise NotImplementedError

    def heuristic_actions(self, tables: np.ndarray) -> np.ndarray:
        """What the built-in heuristic plays for the seat to act at each of ``tables``."""
        raise NotImplementedError

    def play_heuristic(self, tables: np.ndarray, heuristic_seats: np.ndarray) -> None:
        """At each of ``tables``, let the heuristic play while the seat to act is one of its
        seats (``heuristic_seats[j, seat]``), until another seat is to act or the game is
        over: the moves one :meth:`heuristic_actions` and :meth:`step` a round would make,
        in one call."""
        pending = np.asarray(tables, np.int64)
        rows = np.arange(len(pending))
        while len(pending):
            current = self.current[pending]
            playing = current >= 0
            playing[playing] = heuristic_seats[rows[playing], current[playing]]
            pending, rows = pending[playing], rows[playing]
            if len(pending):
                self.step(pending, self.heuristic_actions(pending))

    def returns(self, tables: np.ndarray) -> np.ndarray:
        """Each seat's reward at each of ``tables`` (rows), 0 where not over."""
        raise NotImplementedError

    def terminated(self, tables: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def truncated(self, tables: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def next_game(self, tables: np.ndarray) -> None:
        """Deal each of ``tables`` its next game (from its own stream of game seeds)."""
        raise NotImplementedError

    def winners(self, table: int) -> list[int]:
        """The seats that won the game over at ``table`` (none where it was cut or runs)."""
        raise NotImplementedError

    def deal(self, tables: np.ndarray, game_seeds: Sequence[int]) -> None:
        """Table ``tables[j]`` deals the game ``Engine.reset(seed=game_seeds[j])`` deals (a
        seed from 0 to 2**64 - 1); the table's own stream of game seeds is untouched."""
        raise NotImplementedError

    def legal_actions(self, table: int) -> np.ndarray:
        """The legal action ids of the seat to act at ``table``, ascending (none once over)."""
        raise NotImplementedError

    def final_scores(self, table: int) -> tuple[int, ...]:
        """The engine's ``final_scores()`` of the game at ``table``."""
        raise NotImplementedError

    def ranks(self, table: int) -> tuple[int, ...]:
        """The engine's ``ranks()`` of the game at ``table``: each seat's finishing place."""
        raise NotImplementedError

    def turns(self, table: int) -> int:
        """The decisions the game at ``table`` has applied (the engine's ``turn``)."""
        raise NotImplementedError

    def game_seeds(self) -> np.ndarray:
        """The seed of the game each table is playing (``Engine.reset(seed=...)`` replays it),
        as ``uint64``."""
        raise NotImplementedError

    def game_seed(self, table: int) -> int:
        """The seed of the game table ``table`` is playing."""
        return int(self.game_seeds()[table])


def _check_game_seed(game_seed: Any) -> None:
    if isinstance(game_seed, bool) or not isinstance(game_seed, (int, np.integer)) \
            or not 0 <= int(game_seed) < 2 ** 64:
        raise ConfigError(f"eights.vector: game seed {game_seed!r} is not allowed; a game seed "
                          f"is an int from 0 to 2**64 - 1")


def _check_actions(legal_row: np.ndarray, table: int, action: int, texts: Sequence[str]) -> None:
    if not (0 <= action < len(legal_row)) or not legal_row[action]:
        legal = [texts[a] for a in np.flatnonzero(legal_row)]
        shown = texts[action] if 0 <= action < len(texts) else str(action)
        raise IllegalActionError(f"table {table}: action {action} ({shown!r}) is not legal "
                                 f"now; legal: {', '.join(legal)}")


class PythonTables(Tables):
    """One Python engine per table: every variant and option, the reference the compiled
    cores are tested against."""

    def __init__(self, variant: str, num_tables: int, version: int | None = None,
                 **options: Any) -> None:
        engine = engine_class(variant)
        self.variant = variant
        self.config = engine.Config.from_options(**options)
        self.num_tables = num_tables
        self.num_players = self.config.num_players
        self.num_actions = len(engine.actions)
        self.encoder = engine.encoder(self.config, version)
        self.observation_size = self.encoder.size
        self._engine_class = engine
        self.engines = [engine(self.config, seed=0) for _ in range(num_tables)]
        self._streams = np.zeros(num_tables, np.uint64)
        self._seeds = np.zeros(num_tables, np.uint64)
        self.current = np.full(num_tables, -1, np.int64)
        self._heuristic: Any = None

    def reset(self, seed: int | None = None) -> None:
        self._streams = table_seeds(seed, self.num_tables).copy()
        self.next_game(np.arange(self.num_tables))

    def next_game(self, tables: np.ndarray) -> None:
        for i in tables:
            state, game_seed = splitmix_next_py(int(self._streams[i]))
            self._streams[i] = state
            self._seeds[i] = game_seed
            self.engines[i].reset(seed=game_seed)
            self.current[i] = self.engines[i].current_player

    def game_seeds(self) -> np.ndarray:
        return self._seeds.copy()

    def observe(self, tables, seats, obs, masks) -> None:
        for j, (i, seat) in enumerate(zip(tables, seats, strict=True)):
            engine = self.engines[i]
            obs[j] = self.encoder.encode(engine, int(seat))
            masks[j] = 0
            if engine.current_player == seat:
                masks[j, engine.legal_actions()] = 1

    def step(self, tables, actions) -> None:
        for i, a in zip(tables, actions, strict=True):
            engine = self.engines[i]
            engine.step(int(a))
            self.current[i] = engine.current_player

    def heuristic_actions(self, tables) -> np.ndarray:
        if self._heuristic is None:
            from ..agents import make_agent

            self._heuristic = make_agent("heuristic", variant=self.variant)
        agent = self._heuristic
        return np.array([agent.act(self.engines[i].view(self.engines[i].current_player))
                         for i in tables], np.int64)

    def returns(self, tables) -> np.ndarray:
        return np.array([self.engines[i].returns() for i in tables], np.float32).reshape(
            len(tables), self.num_players)

    def terminated(self, tables) -> np.ndarray:
        return np.array([self.engines[i].terminated for i in tables], bool)

    def truncated(self, tables) -> np.ndarray:
        return np.array([self.engines[i].truncated for i in tables], bool)

    def winners(self, table: int) -> list[int]:
        engine = self.engines[table]
        return list(engine.winners) if engine.terminated else []

    def deal(self, tables, game_seeds) -> None:
        for i, game_seed in zip(tables, game_seeds, strict=True):
            _check_game_seed(game_seed)
            self._seeds[i] = game_seed
            self.engines[i].reset(seed=int(game_seed))
            self.current[i] = self.engines[i].current_player

    def legal_actions(self, table: int) -> np.ndarray:
        return np.asarray(self.engines[table].legal_actions(), np.int64)

    def final_scores(self, table: int) -> tuple[int, ...]:
        return tuple(int(x) for x in self.engines[table].final_scores())

    def ranks(self, table: int) -> tuple[int, ...]:
        return tuple(self.engines[table].ranks())

    def turns(self, table: int) -> int:
        return int(self.engines[table].turn)


def older_columns(encoder: Any, newest: Any, variant: str) -> np.ndarray | None:
    """Where an older observation version's features sit in the newest one's, feature by
    feature (None when ``encoder`` is the newest): every older version's field is a
    newest field of the same name and width, written alike, so a compiled core, which
    writes the newest, gives an older version by taking these columns (the differential
    tests hold them to the older Python encoder)."""
    if encoder.size == newest.size and encoder.offsets == newest.offsets:
        return None
    columns = []
    for name, width, _ in encoder.parts:
        kept = next((w for n, w, _ in newest.parts if n == name), None)
        if kept != width:
            raise ConfigError(f"eights.vector: the {variant} observation's field {name!r} "
                              f"is not in the newest version as it is (width {width}); "
                              f"use backend='python' for this version")
        start = newest.offsets[name]
        columns.extend(range(start, start + width))
    return np.array(columns, np.intp)


class CompiledTables(Tables):
    """A variant's numba core (:data:`COMPILED`) over one record array of tables."""

    def __init__(self, variant: str, num_tables: int, version: int | None = None,
                 **options: Any) -> None:
        import importlib

        if variant not in COMPILED:
            raise ConfigError(f"eights.vector: {variant!r} has no compiled core; compiled: "
                              f"{', '.join(sorted(COMPILED))} (the others run on "
                              f"backend='python')")
        engine = engine_class(variant)
        self.core = core = importlib.import_module(COMPILED[variant])
        self._engine_class = engine
        self.variant = variant
        self.config = config = engine.Config.from_options(**options)
        self.num_tables = num_tables
        self.num_players = config.num_players
        self.num_actions = len(engine.actions)
        self.texts = engine.actions.texts
        encoder, newest = engine.encoder(config, version), engine.encoder(config, None)
        self.observation_size = encoder.size
        self._written_size = newest.size  # what the core writes: the newest observation
        self.params, self.offsets, self.scales = core.compile_config(engine, config, newest)
        #: the columns of the newest observation that an older ``version`` keeps, in its
        #: order; None when the newest is asked for
        self.columns = older_columns(encoder, newest, variant)
        #: rows the core writes the newest observation into before an older version's
        #: columns are taken (grown when one call observes more rows than tables)
        self._written = None if self.columns is None else \
            np.zeros((num_tables, newest.size), np.float32)
        #: what the core reads of the engine's declarations (its ``constants``): ``rules``
        #: goes to every entry point that moves a table, ``hints`` to the heuristic besides
        self.rules, self.hints = core.constants(engine, config)
        self.state = np.zeros(num_tables, record_dtype(core))
        self._mask_row = np.empty(self.num_actions, np.int8)
        if variant not in _READY:
            self._warm_up()
            _READY.add(variant)

    def _warm_up(self) -> None:
        """Compile (or load from numba's disk cache) every entry point on one scratch table,
        and say so on stderr when it compiled: the first use in a fresh install pays it."""
        started = time.perf_counter()
        scratch = np.zeros(1, self.state.dtype)
        one, seat = np.zeros(1, np.int64), np.zeros(1, np.int64)
        obs = np.zeros((1, self._written_size), np.float32)
        masks = np.zeros((1, self.num_actions), np.int8)
        batch.reset_all(scratch, self.params, self.rules, np.zeros(1, np.uint64))
        batch.observe_many(scratch, self.params, self.offsets, self.scales, one, seat, obs, masks)
        actions = np.full(1, -1, np.int64)
        batch.heuristic_many(scratch, self.params, self.rules, self.hints, one, actions)
        batch.step_many(scratch, self.params, self.rules, one, actions)
        batch.heuristic_play_many(scratch, self.params, self.rules, self.hints, one,
                                  np.zeros((1, self.num_players), np.bool_))
        batch.returns_many(scratch, self.params, one, np.zeros((1, self.num_players), np.float32))
        batch.next_games(scratch, self.params, self.rules, one)
        batch.deal_many(scratch, self.params, self.rules, one, np.zeros(1, np.uint64))
        entry = (batch.reset_all, batch.observe_many, batch.heuristic_many, batch.step_many,
                 batch.returns_many, batch.next_games, batch.deal_many)
        if any(sum(f.stats.cache_misses.values()) for f in entry):
            print(f"eights.vector: compiled the {self.variant} core in "
                  f"{time.perf_counter() - started:.1f} s (cached in "
                  f"{entry[0].stats.cache_path} for later processes)", file=sys.stderr)

    @property
    def current(self) -> np.ndarray:  # type: ignore[override]
        return self.state["current"]

    def reset(self, seed: int | None = None) -> None:
        batch.reset_all(self.state, self.params, self.rules,
                            table_seeds(seed, self.num_tables))

    def next_game(self, tables) -> None:
        batch.next_games(self.state, self.params, self.rules,
                             np.asarray(tables, np.int64))

    def game_seeds(self) -> np.ndarray:
        return self.state["game_seed"].copy()

    def observe(self, tables, seats, obs, masks) -> None:
        tables = np.asarray(tables, np.int64)
        written = obs
        if self._written is not None:
            if len(self._written) < len(tables):
                self._written = np.zeros((len(tables), self._written_size), np.float32)
            written = self._written[: len(tables)]
        batch.observe_many(self.state, self.params, self.offsets, self.scales, tables,
                           np.asarray(seats, np.int64), written, masks)
        if self._written is not None:
            np.take(written, self.columns, axis=1, out=obs)

    def step(self, tables, actions) -> None:
        tables = np.asarray(tables, np.int64)
        actions = np.asarray(actions, np.int64)
        bad = batch.step_many(self.state, self.params, self.rules, tables, actions)
        if bad >= 0:
            i = int(tables[bad])
            if self.state["current"][i] < 0:
                raise IllegalActionError(f"table {i}: its game is over; deal its next game "
                                         f"(next_game) before stepping it")
            self._mask_row[:] = self.state["legal"][i]
            _check_actions(self._mask_row, i, int(actions[bad]), self.texts)

    def heuristic_actions(self, tables) -> np.ndarray:
        tables = np.asarray(tables, np.int64)
        out = np.empty(len(tables), np.int64)
        batch.heuristic_many(self.state, self.params, self.rules, self.hints, tables, out)
        return out

    def play_heuristic(self, tables, heuristic_seats) -> None:
        batch.heuristic_play_many(self.state, self.params, self.rules, self.hints,
                                  np.asarray(tables, np.int64),
                                  np.ascontiguousarray(heuristic_seats, np.bool_))

    def returns(self, tables) -> np.ndarray:
        tables = np.asarray(tables, np.int64)
        out = np.zeros((len(tables), self.num_players), np.float32)
        batch.returns_many(self.state, self.params, tables, out)
        return out

    def terminated(self, tables) -> np.ndarray:
        return self.state["terminated"][np.asarray(tables, np.int64)]

    def truncated(self, tables) -> np.ndarray:
        return self.state["truncated"][np.asarray(tables, np.int64)]

    def winners(self, table: int) -> list[int]:
        if not self.state["terminated"][table]:
            return []
        return [int(p) for p in np.flatnonzero(self.state["winners"][table])]

    def deal(self, tables, game_seeds) -> None:
        for game_seed in game_seeds:
            _check_game_seed(game_seed)
        batch.deal_many(self.state, self.params, self.rules, np.asarray(tables, np.int64),
                        np.asarray([int(s) for s in game_seeds], np.uint64))

    def legal_actions(self, table: int) -> np.ndarray:
        return np.flatnonzero(self.state["legal"][table])

    def final_scores(self, table: int) -> tuple[int, ...]:
        """Read from the record: a core whose record keeps no ``scores`` says how
        (its ``final_scores(record, config)``)."""
        reader = getattr(self.core, "final_scores", None)
        if reader is not None:
            return reader(self.state[table], self.config)
        return tuple(int(x) for x in self.state["scores"][table][:self.num_players])

    def ranks(self, table: int) -> tuple[int, ...]:
        if not self.state["terminated"][table]:
            return (0,) * self.num_players
        return self._engine_class.ranks_from(self.winners(table), self.final_scores(table))

    def turns(self, table: int) -> int:
        return int(self.state["turn"][table])


def make_tables(variant: str, num_tables: int, backend: str = "auto",
                version: int | None = None, **options: Any) -> Tables:
    """``backend``: ``"compiled"`` (the numba core; refused where a variant has none),
    ``"python"`` (the engines) or ``"auto"`` (compiled where it exists and plays the
    options: a core's :class:`NotCompiled` falls back to the engines). Either writes the
    observation ``version`` asked for (``None``: the newest)."""
    if variant not in REGISTRY:
        raise ConfigError(f"eights.vector: unknown variant {variant!r}; variants: "
                          f"{', '.join(REGISTRY)}")
    if isinstance(num_tables, bool) or not isinstance(num_tables, (int, np.integer)) \
            or num_tables < 1:
        raise ConfigError(f"eights.vector: num_envs={num_tables!r} is not allowed; it is an "
                          f"int of at least 1")
    if backend not in ("auto", "compiled", "python"):
        raise ConfigError(f"eights.vector: backend={backend!r} is not allowed; backend is "
                          f"'auto', 'compiled' or 'python'")
    if backend == "python" or (backend == "auto" and variant not in COMPILED):
        return PythonTables(variant, int(num_tables), version, **options)
    try:
        return CompiledTables(variant, int(num_tables), version, **options)
    except NotCompiled:
        if backend == "compiled":
            raise
        return PythonTables(variant, int(num_tables), version, **options)
