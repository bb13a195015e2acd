"""The results store: rows replay their games, and files it cannot use are refused clearly."""

from __future__ import annotations

import sqlite3

import pytest

from eights import replay
from eights.tournament import ResultsStore, StoreError, TablePlayer, Tournament

T = Tournament("crazy_eights", ("random", "heuristic"), games=4, seed=3)


def fill(store: ResultsStore, count: int) -> list:
    player = TablePlayer(T)
    results = []
    for game in T.schedule()[:count]:
        result = player.play(game)
        store.add(game, result)
        results.append(result)
    return results


def test_rows_replay_their_games_exactly(tmp_path):
    path = tmp_path / "results.sqlite"
    with ResultsStore(path, T) as store:
        results = fill(store, 4)
    with ResultsStore(path, T) as store:
        assert store.done() == {0, 1, 2, 3}
        stored = list(store.games())
        for result, row in zip(results, stored, strict=True):
            assert (row.winners, row.ranks, row.scores, row.turns) == (
                result.winners, result.ranks, result.scores, result.turns)
            engine = replay(store.record(row.index))
            assert engine.game_over and engine.winners == row.winners
            assert engine.final_scores() == row.scores
        with pytest.raises(KeyError, match="game 99"):
            store.record(99)


def test_a_game_is_stored_once(tmp_path):
    with ResultsStore(tmp_path / "r.sqlite", T) as store:
        fill(store, 1)
        game = T.schedule()[0]
        with pytest.raises(sqlite3.IntegrityError):
            store.add(game, TablePlayer(T).play(game))


def test_a_file_that_is_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "results.sqlite"
    path.write_bytes(b"this is a text file, not a database\n" * 100)
    with pytest.raises(StoreError, match="is not a results database that eights can read"):
        ResultsStore(path, T)


def test_a_truncated_database_is_refused(tmp_path):
    path = tmp_path / "results.sqlite"
    with ResultsStore(path, T) as store:
        fill(store, 4)
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\x00" * 50 + data[150:1000])
    with pytest.raises(StoreError, match="not a results database"):
        ResultsStore(path, T)


def test_another_programs_database_is_refused(tmp_path):
    path = tmp_path / "results.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE customers (id INTEGER, name TEXT)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match=r"SQLite database of something else .*customers"):
        ResultsStore(path, T)


def test_a_database_of_another_format_is_refused(tmp_path):
    path = tmp_path / "results.sqlite"
    ResultsStore(path, T).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '\"chess-results\"' WHERE key = 'format'")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="not eights tournament results"):
        ResultsStore(path, T)


def test_a_different_tournament_is_refused_and_restart_replaces_it(tmp_path):
    path = tmp_path / "results.sqlite"
    with ResultsStore(path, T) as store:
        fill(store, 2)
    other = Tournament("crazy_eights", ("random", "greedy"), games=4, seed=3)
    with pytest.raises(StoreError, match=r"different tournament .*agents: .*--restart"):
        ResultsStore(path, other)
    with ResultsStore(path, other, restart=True) as store:
        assert store.done() == set()


def test_a_changed_model_file_is_a_different_tournament(tmp_path):
    model = tmp_path / "model.npz"
    from eights.agents.policy import MODELS_DIR

    model.write_bytes((MODELS_DIR / "crazy_eights-2p.npz").read_bytes())
    t = Tournament("crazy_eights", ("random", f"policy:{model}"), games=2)
    ResultsStore(tmp_path / "r.sqlite", t).close()
    model.write_bytes((MODELS_DIR / "livery_eights-2p.npz").read_bytes())
    with pytest.raises(StoreError, match=r"model file of policy:.* has changed"):
        ResultsStore(tmp_path / "r.sqlite", t)
