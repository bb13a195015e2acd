"""A Python engine's mid-game position, written into a compiled core's record, plays on as the
engine does: the check the cores whose search deals whole positions share
(``record_from_engine``; :mod:`eights.vector.search`'s ``DEALS_COMPILED = False``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from eights.engines import engine_class
from eights.vector import CompiledTables


def play_on_from_engine_positions(variant: str, core: ModuleType, options: dict[str, Any],
                                  game_seeds: range, most_steps: int) -> tuple[int, int]:
    """For each game seed, play the engine a random number of random steps (up to
    ``most_steps``), write its position into a table with the engine's generator state, then
    play both on with the same random actions to the end of the game, comparing the seat to
    act, the end flags, every seat's observation and mask, and the returns after every
    step. Returns (positions started, steps compared)."""
    engine_type = engine_class(variant)
    tables = CompiledTables(variant, 1, **options)
    rng = random.Random(9)
    compared = starts = 0
    for game_seed in game_seeds:
        engine = engine_type(tables.config, seed=game_seed)
        for _ in range(rng.randrange(3, most_steps)):  # a position somewhere in the game
            if engine.game_over:
                break
            engine.step(rng.choice(engine.legal_actions()))
        if engine.game_over:
            continue
        starts += 1
        compared += play_on_from_engine(engine, core, tables,
                                        lambda game: rng.choice(game.legal_actions()))
    return starts, compared


def play_on_from_engine(engine: Any, core: ModuleType, tables: CompiledTables,
                        choose: Callable[[Any], int]) -> int:
    """Write ``engine``'s position (and its generator state) into ``tables``' one table and
    play both on with ``choose``'s actions to the end of the game, comparing the seat to
    act, the end flags, every seat's observation and mask, and the returns after every
    step. Returns the steps compared."""
    encoder = type(engine).encoder(tables.config, None)
    n = tables.num_players
    rows, seats = np.zeros(n, np.int64), np.arange(n)
    obs = np.zeros((n, tables.observation_size), np.float32)
    masks = np.zeros((n, tables.num_actions), np.int8)
    core.record_from_engine(engine, tables.state, 7)
    state = engine.rng.getstate()[1]  # (the record draws what the engine draws)
    tables.state["mt"][0], tables.state["mti"][0] = state[:624], state[624]
    compared = 0
    while True:
        assert tables.current[0] == engine.current_player
        assert tables.terminated(rows[:1])[0] == engine.terminated
        assert tables.truncated(rows[:1])[0] == engine.truncated
        tables.observe(rows, seats, obs, masks)
        for seat in range(n):
            assert np.array_equal(obs[seat], encoder.encode(engine, seat)), seat
            assert tuple(np.flatnonzero(masks[seat])) == (
                tuple(engine.legal_actions()) if seat == engine.current_player else ())
        assert np.array_equal(tables.returns(rows[:1])[0], np.float32(engine.returns()))
        if engine.game_over:
            return compared
        action = choose(engine)
        engine.step(action)
        tables.step(rows[:1], np.array([action]))
        compared += 1
