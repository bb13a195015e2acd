"""Where an AEC env's game is played: a Python engine, or one table of a compiled core.

:class:`~eights.envs.base.EightsEnv` keeps the PettingZoo bookkeeping (agents,
rewards, terminations, illegal actions, rendering) and asks its *table* for
the game: deal a seed, who acts, a seat's observation and mask, play an
action, the outcome. Two tables keep that interface:

* :class:`EngineTable` (``backend="python"``, the default): the variant's
  Python engine, for every variant, option, observation version and stacked
  deck;
* :class:`CompiledTable` (``backend="compiled"``): one table of the variant's
  compiled core of :mod:`eights.vector`, which plays the very games the engine
  plays from the same seed (the differential tests hold every observation,
  mask and reward to the engine's), at a fraction of the cost of a decision.
  It deals from seeds only, and gives an older observation version as the
  newest one's columns. Its ``engine`` is the Python engine replayed to the
  table's position when read
  (``render()``, an illegal action's message, code that reads
  ``env.unwrapped.engine``): a reading copy, which costs a replay of the game
  so far and must not be stepped.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..config import ConfigError, GameConfig
from ..engines.base import Engine

#: the env's ``backend`` values
BACKENDS = ("python", "compiled")

#: (returns, terminated, truncated, winners, final scores) of an ended game
Outcome = tuple[Sequence[float], bool, bool, list[int], list[int]]


class EngineTable:
    """The game on the variant's Python engine."""

    backend = "python"

    def __init__(self, engine: Engine, config: GameConfig, version: int) -> None:
        self.engine = engine
        self._config, self._version = config, version
        self._make_buffers()

    def _make_buffers(self) -> None:
        """The encoder and the mask's bytes: masks are written into the bytes and returned as
        a copy of their int8 view. Neither is pickled (the view must stay on its own bytes):
        :meth:`__setstate__` makes them again."""
        self.encoder = type(self.engine).encoder(self._config, self._version)
        n = len(type(self.engine).actions)
        self._mask_bytes = bytearray(n)
        self._mask_zeros = bytes(n)
        self._mask_view = np.frombuffer(self._mask_bytes, dtype=np.int8)

    _BUFFERS = ("encoder", "_mask_bytes", "_mask_zeros", "_mask_view")

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._BUFFERS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._make_buffers()

    def deal(self, game_seed: int, deck: Any, first_player: Any) -> None:
        self.engine.reset(seed=game_seed, deck=deck, first_player=first_player)

    @property
    def current(self) -> int:
        """The seat to act, -1 once the game is over."""
        return self.engine.current_player

    def observation(self, seat: int, acting: bool) -> dict[str, np.ndarray]:
        """``seat``'s observation, and its mask where it is ``acting`` (else zeros)."""
        engine = self.engine
        raw = self._mask_bytes
        raw[:] = self._mask_zeros
        if acting:
            for a in engine._legal_now:  # a few ids: cheaper than numpy's put or indexing
                raw[a] = 1
        return {"observation": self.encoder.encode(engine, seat),
                "action_mask": self._mask_view.copy()}

    def play(self, action: Any) -> None:
        """The seat to act plays ``action``; an illegal one raises the engine's
        :class:`~eights.engines.base.IllegalActionError` and changes nothing."""
        self.engine.step(action)

    def outcome(self) -> Outcome:
        engine = self.engine
        return (engine.returns(), engine.terminated, engine.truncated, list(engine.winners),
                list(engine.final_scores()))


class CompiledTable:
    """The game on one table of the variant's compiled core (see the module docstring)."""

    backend = "compiled"

    def __init__(self, engine: Engine, config: GameConfig, version: int) -> None:
        self._shadow = engine
        self._config, self._version = config, version
        self._game_seed = 0
        self._played: list[int] = []
        self._replayed = -1  # actions the shadow engine has replayed; -1: not dealt yet
        self._build()

    def _build(self, state: np.ndarray | None = None) -> None:
        from ..vector import batch
        from ..vector.tables import CompiledTables

        variant = type(self._shadow).variant
        try:
            self._tables = tables = CompiledTables(variant, 1, self._version,
                                                   **self._config.to_dict())
        except ConfigError as err:
            raise ConfigError(f"backend='compiled': {err}") from None
        if state is not None:
            tables.state[:] = state
        self.encoder = type(self._shadow).encoder(self._config, self._version)
        record = tables.state
        self._current = record["current"]
        # memoryviews: an item read or written through one costs a fraction of numpy's
        self._legal = memoryview(record["legal"][0])
        self._one = one = np.zeros(1, np.int64)
        seat, action = np.zeros(1, np.int64), np.zeros(1, np.int64)
        self._seat, self._action = memoryview(seat), memoryview(action)
        obs = np.zeros((1, tables.observation_size), np.float32)
        masks = np.zeros((1, tables.num_actions), np.int8)
        self._obs, self._mask, self._no_mask = obs[0], masks[0], np.zeros_like(masks[0])
        self._returns = np.zeros((1, tables.num_players), np.float64)  # as the engines'
        # the compiled calls with their arrays bound: a decision makes two of them (an
        # older observation version goes through the tables, which take its columns)
        self._observe = functools.partial(batch.observe_many, record, tables.params,
                                          tables.offsets, tables.scales, one, seat, obs,
                                          masks) if tables.columns is None else \
            functools.partial(tables.observe, one, seat, obs, masks)
        self._step = functools.partial(batch.step_many, record, tables.params, tables.rules,
                                       one, action)
        self._returns_of = functools.partial(batch.returns_many, record, tables.params, one,
                                             self._returns)

    def __getstate__(self) -> dict[str, Any]:
        keep = ("_shadow", "_config", "_version", "_game_seed", "_played", "_replayed")
        return {**{k: self.__dict__[k] for k in keep}, "state": self._tables.state.copy()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        record = state.pop("state")
        self.__dict__.update(state)
        self._build(record)

    @property
    def engine(self) -> Engine:
        """The Python engine at the table's position (replayed when behind; read it, do
        not step it)."""
        shadow = self._shadow
        if self._replayed < 0:
            shadow.reset(seed=self._game_seed)
            self._replayed = 0
        for action in self._played[self._replayed:]:
            shadow.step(action)
        self._replayed = len(self._played)
        return shadow

    def deal(self, game_seed: int, deck: Any, first_player: Any) -> None:
        if deck is not None or first_player is not None:
            raise ConfigError("backend='compiled' deals from seeds only; a stacked deck or a "
                              "first_player needs backend='python'")
        self._tables.deal(self._one, [game_seed])
        self._game_seed, self._played, self._replayed = game_seed, [], -1

    @property
    def current(self) -> int:
        return int(self._current[0])

    def observation(self, seat: int, acting: bool) -> dict[str, np.ndarray]:
        self._seat[0] = seat
        self._observe()
        return {"observation": self._obs.copy(),
                "action_mask": (self._mask if acting else self._no_mask).copy()}

    def play(self, action: Any) -> None:
        a = int(action)
        legal = self._legal
        if 0 <= a < len(legal) and legal[a]:
            self._action[0] = a
            self._step()
            self._played.append(a)
            return
        self.engine.step(action)  # at this position the engine refuses it, with its message
        raise RuntimeError(f"the compiled table refused action {a} that the "  # pragma: no cover
                           f"{type(self._shadow).variant} engine plays; please report it")

    def outcome(self) -> Outcome:
        self._returns_of()
        record = self._tables.state
        return ([float(x) for x in self._returns[0]], bool(record["terminated"][0]),
                bool(record["truncated"][0]), self._tables.winners(0),
                list(self._tables.final_scores(0)))


def make_table(backend: str, engine: Engine, config: GameConfig,
               version: int) -> EngineTable | CompiledTable:
    """The table of ``backend`` (:data:`BACKENDS`)."""
    if backend == "python":
        return EngineTable(engine, config, version)
    if backend == "compiled":
        return CompiledTable(engine, config, version)
    raise ConfigError(f"backend={backend!r} is not allowed; use one of "
                      f"{', '.join(map(repr, BACKENDS))}")
