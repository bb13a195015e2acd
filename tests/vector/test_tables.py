"""What every compiled core's tables refuse: ``CompiledTables.step`` on the shared batch
entry points (:mod:`eights.vector.batch`) checks each action before any table moves."""

from __future__ import annotations

import numpy as np
import pytest

from eights.config import ConfigError
from eights.engines.base import IllegalActionError
from eights.vector import CompiledTables, make_tables
from eights.vector.tables import COMPILED
from tests.vector.differential_script import differential

#: each core's cases on the worker of that core's own tests (one compile per core per run)
pytestmark = pytest.mark.parametrize("variant", [
    pytest.param(v, marks=pytest.mark.xdist_group(f"core-{v}")) for v in sorted(COMPILED)])


def _tables(variant: str, num_tables: int = 3) -> CompiledTables:
    tables = make_tables(variant, num_tables, "compiled")
    tables.reset(11)
    return tables


def _illegal(tables: CompiledTables, i: int) -> int:
    return int(np.flatnonzero(tables.state["legal"][i] == 0)[0])


def test_an_illegal_action_is_refused_naming_the_legal_ones(variant):
    tables = _tables(variant)
    before = tables.state.copy()
    legal = np.flatnonzero(tables.state["legal"][1])
    bad = _illegal(tables, 1)
    with pytest.raises(IllegalActionError) as caught:
        tables.step(np.array([1]), np.array([bad]))
    message = str(caught.value)
    assert f"action {bad} ({tables.texts[bad]!r}) is not legal" in message
    assert "table 1" in message
    for a in legal:
        assert tables.texts[a] in message
    assert tables.state.tobytes() == before.tobytes()  # nothing moved


@pytest.mark.parametrize("beyond", [-1, 0, 10**6])
def test_an_action_out_of_range_is_refused(variant, beyond):
    tables = _tables(variant, 1)
    action = -1 if beyond < 0 else tables.num_actions + beyond
    before = tables.state.copy()
    with pytest.raises(IllegalActionError, match=f"action {action} .*legal: "):
        tables.step(np.array([0]), np.array([action]))
    assert tables.state.tobytes() == before.tobytes()


def test_a_batch_with_an_illegal_action_moves_no_table(variant):
    """Every action is checked before any table moves, so a caller that catches the error
    and steps again never steps a table twice."""
    tables = _tables(variant, 3)
    before = tables.state.copy()
    first = int(np.flatnonzero(tables.state["legal"][0])[0])
    last = int(np.flatnonzero(tables.state["legal"][2])[0])
    with pytest.raises(IllegalActionError, match="table 1"):
        tables.step(np.arange(3), np.array([first, _illegal(tables, 1), last]))
    assert tables.state.tobytes() == before.tobytes()


def test_a_config_a_core_refuses_runs_on_the_engines_under_auto(variant, monkeypatch):
    """A core's NotCompiled (an option it does not play) sends backend="auto" to the Python
    engines and reaches the caller of backend="compiled" unchanged."""
    import importlib

    from eights.vector.cores import NotCompiled
    from eights.vector.tables import PythonTables

    core = importlib.import_module(COMPILED[variant])

    def refuse(engine, config, encoder):
        raise NotCompiled(f"{variant} core: no such option here")

    monkeypatch.setattr(core, "compile_config", refuse)
    assert isinstance(make_tables(variant, 2), PythonTables)
    with pytest.raises(NotCompiled, match="no such option"):
        make_tables(variant, 2, backend="compiled")


def test_deal_deals_the_engines_game_of_a_seed(variant):
    """``deal`` (what tournaments use) deals ``Engine.reset(seed=...)``'s game on both
    backends: the same observations, masks and seat to act, a seed up to 2**64 - 1."""
    from eights.vector.tables import PythonTables

    seeds = [0, 12345, 2**63 + 7, 2**64 - 1]
    compiled, python = make_tables(variant, 4, "compiled"), PythonTables(variant, 4)
    for tables in (compiled, python):
        tables.deal(np.arange(4), seeds)
    assert list(compiled.current) == list(python.current)
    rows = np.arange(4)
    seats = np.array(compiled.current, np.int64)
    got = [(np.zeros((4, t.observation_size), np.float32), np.zeros((4, t.num_actions), np.int8))
           for t in (compiled, python)]
    for tables, (obs, masks) in zip((compiled, python), got, strict=True):
        tables.observe(rows, seats, obs, masks)
    assert np.array_equal(got[0][0], got[1][0]) and np.array_equal(got[0][1], got[1][1])
    for i in range(4):
        assert list(compiled.legal_actions(i)) == list(python.legal_actions(i))


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True])
def test_deal_refuses_a_seed_out_of_range(variant, seed):
    with pytest.raises(ConfigError, match=r"game seed .* is an int from 0 to 2\*\*64 - 1"):
        make_tables(variant, 1, "compiled").deal(np.arange(1), [seed])


def test_play_heuristic_plays_what_rounds_of_heuristic_actions_play(variant):
    """The compiled ``play_heuristic`` (the heuristic's seats move on in one call, as the
    learner env uses it) leaves every table as the interface's loop of
    ``heuristic_actions`` and ``step`` does, and as the engines' tables do, over whole games
    where every seat but 0 is the heuristic's."""
    from eights.vector.tables import PythonTables, Tables

    n = 6
    fused, looped = make_tables(variant, n, "compiled"), make_tables(variant, n, "compiled")
    python = PythonTables(variant, n)
    every = (fused, looped, python)
    for tables in every:
        tables.reset(23)
    heuristic_seats = np.ones((n, fused.num_players), bool)
    heuristic_seats[:, 0] = False
    rows = np.arange(n)
    for _ in range(60):
        fused.play_heuristic(rows, heuristic_seats)
        for tables in (looped, python):
            Tables.play_heuristic(tables, rows, heuristic_seats)
        assert [list(t.current) for t in every[1:]] == [list(fused.current)] * 2
        assert set(fused.current) <= {0, -1}
        seats = np.zeros(n, np.int64)
        views = [(np.zeros((n, t.observation_size), np.float32),
                  np.zeros((n, t.num_actions), np.int8)) for t in every]
        for tables, (obs, masks) in zip(every, views, strict=True):
            tables.observe(rows, seats, obs, masks)
        for obs, masks in views[1:]:
            assert np.array_equal(obs, views[0][0]) and np.array_equal(masks, views[0][1])
        over = rows[fused.current < 0]
        if len(over):
            for tables in every:
                tables.next_game(over)
        acting = rows[fused.current == 0]
        first_legal = np.array([int(fused.legal_actions(int(i))[0]) for i in acting], np.int64)
        for tables in every:
            tables.step(acting, first_legal)


def test_an_older_observation_version_is_the_engines_feature_for_feature(variant):
    """The core writes the newest observation; ``version=1`` tables keep the v1 columns,
    which the differential comparison holds to the v1 Python encoder at every decision."""
    tables = make_tables(variant, 2, "compiled", version=1)
    assert tables.observation_size == make_tables(variant, 1, "python",
                                                  version=1).observation_size
    assert len(tables.columns) == tables.observation_size
    result = differential.compare({}, 40, variant=variant, seed=3, version=1)
    assert result.games == 40 and result.decisions > 0
