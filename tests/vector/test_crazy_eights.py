"""The compiled crazy_eights core plays the Python engine's games, decision for decision.

The comparison itself lives in ``scripts/vector_differential.py`` (one copy),
which runs it at full size (10,000 games per config); here every config runs
a CI-sized count (:data:`GAMES`), and the corners each config is there for
are checked to occur. Then the core's refusals: illegal actions, bad tables.
"""

from __future__ import annotations

import numpy as np
import pytest

from eights.config import ConfigError
from eights.engines.base import IllegalActionError
from eights.vector import CompiledTables, PythonTables, make_tables
from tests.vector.differential_script import differential

CONFIGS = differential.CONFIGS["crazy_eights"]

#: games compared per config (8 tables each, random legal actions, a quarter of them the
#: heuristic's). Measured CPU cost per game on the 2-core dev machine (numba cache warm):
#: default 16 ms, 3p 27, 5p_1deck_5cards 30, match_score 81 (about 4 hands a match),
#: keep_king4_3decks 40, max_turns_30 3, 2p_1deck_20cards 26, 8p 99, hand_size_1 6,
#: max_turns_1 0.5: about 43 CPU s for these counts, the whole file about 50.
GAMES = {
    "default": 600,
    "3p": 200,
    "5p_1deck_5cards": 150,
    "match_score": 60,
    "keep_king4_3decks": 120,
    "max_turns_30": 300,
    "match_max_turns_20": 200,
    "2p_1deck_20cards": 200,
    "8p": 50,
    "hand_size_1": 300,
    "max_turns_1": 300,
}

#: the tables' reset seed (the script's default is 0: other games)
SEED = 2024

#: the corners a config is there to reach, counted over its games (each must occur)
CORNERS = {
    "max_turns_30": ("truncated",),
    "match_max_turns_20": ("truncated", "cut_in_a_later_hand"),
    "2p_1deck_20cards": ("reshuffles",),
    "5p_1deck_5cards": ("reshuffles",),
    "8p": ("reshuffles",),
    "max_turns_1": ("no_decision", "truncated", "terminated"),
}


def test_every_config_has_a_game_count():
    assert set(GAMES) == set(CONFIGS)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_compiled_tables_play_the_python_engines_games(name):
    result = differential.compare(CONFIGS[name], GAMES[name], seed=SEED)
    assert result.games == GAMES[name]
    assert (result.decisions > 0 and result.heuristic > 0) or name == "max_turns_1"
    assert result.counts["terminated"] + result.counts["truncated"] == result.games
    if CONFIGS[name].get("match"):
        assert result.counts["hands"] > result.games  # matches of several hands
    for corner in CORNERS.get(name, ()):
        assert result.counts[corner] > 0, (corner, dict(result.counts))


def test_the_script_reports_counts_and_exits_0(capsys):
    assert differential.main(["--games", "3", "--configs", "default", "max_turns_1",
                              "--every", "2"]) == 0
    out = capsys.readouterr().out
    assert "default: 2 games" in out  # a progress line
    assert "all identical: 6 games" in out


def test_the_script_names_the_first_mismatch_and_exits_1(monkeypatch, capsys):
    class Broken(CompiledTables):
        def observe(self, tables, seats, obs, masks):
            super().observe(tables, seats, obs, masks)
            obs[-1, 3] += 0.5  # the last row's fourth hand card

    monkeypatch.setattr(differential, "CompiledTables", Broken)
    assert differential.main(["--games", "2", "--configs", "3p"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH in 3p" in out and "observation at hand[3]" in out
    assert "the engine reset(seed=" in out and "then the actions [" in out


# ------------------------------------------------------------------ refusals
# (an illegal action, one out of range, a batch with one illegal action: every compiled core
# alike, in tests/vector/test_tables.py)
def test_an_ended_table_refuses_every_action():
    tables = make_tables("crazy_eights", 1, "compiled", hand_size=1, max_turns=1)
    for seed in range(100):  # a deal truncated by its forced first draw
        tables.reset(seed)
        if tables.current[0] < 0:
            break
    assert tables.current[0] < 0
    before = tables.state.copy()
    with pytest.raises(IllegalActionError, match="its game is over; deal its next game"):
        tables.step(np.array([0]), np.array([56]))
    assert tables.state.tobytes() == before.tobytes()


@pytest.mark.parametrize(("args", "kwargs", "words"), [
    (("crazy_eights", 4), {"backend": "gpu"}, "backend='gpu'"),
    (("crazy_eights", 0), {}, "num_envs=0"),
    (("crazy_eights", -2), {}, "num_envs=-2"),
    (("crazy_eights", 2.0), {}, "num_envs=2.0"),
    (("crazy_eights", True), {}, "num_envs=True"),
    (("no_such_eights", 4), {}, "unknown variant 'no_such_eights'"),
    (("crazy_eights", 4), {"backend": "compiled", "num_players": 9}, "num_players"),
])
def test_make_tables_refuses(args, kwargs, words):
    with pytest.raises(ConfigError) as caught:
        make_tables(*args, **kwargs)
    assert words in str(caught.value)


def test_compiled_tables_refuse_a_variant_with_no_core():
    with pytest.raises(ConfigError, match="'no_such_eights' has no compiled core"):
        CompiledTables("no_such_eights", 2)


def test_auto_takes_the_compiled_core_where_there_is_one():
    assert isinstance(make_tables("crazy_eights", 2), CompiledTables)
    assert isinstance(make_tables("crazier_eights", 2), CompiledTables)
    assert isinstance(make_tables("crazier_eights", 2, version=1), CompiledTables)
    assert isinstance(make_tables("crazy_eights", 2, "python"), PythonTables)


def test_an_older_field_the_newest_layout_changed_is_refused_by_name():
    """A compiled core gives an older version by taking columns of the newest: a field
    whose width changed cannot be taken, and the tables say which and where to go."""
    from types import SimpleNamespace

    from eights.vector.tables import older_columns

    newest = SimpleNamespace(size=6, offsets={"hand": 0, "top": 4},
                             parts=[("hand", 4, None), ("top", 2, None)])
    older = SimpleNamespace(size=5, offsets={"top": 0, "hand": 2},
                            parts=[("top", 2, None), ("hand", 3, None)])
    with pytest.raises(ConfigError, match=r"field 'hand' is not in the newest version as it "
                                          r"is \(width 3\); use backend='python'"):
        older_columns(older, newest, "crazy_eights")
    older.parts[1], older.size = ("hand", 4, None), 6
    assert older_columns(older, newest, "crazy_eights").tolist() == [4, 5, 0, 1, 2, 3]
    assert older_columns(newest, newest, "crazy_eights") is None
