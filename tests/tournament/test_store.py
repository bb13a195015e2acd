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


#: the games table as eights wrote it before decisions and failures were recorded
VERSION_1_GAMES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    idx INTEGER PRIMARY KEY, table_idx INTEGER NOT NULL, deal INTEGER NOT NULL,
    seating INTEGER NOT NULL, seats TEXT NOT NULL, deal_seed INTEGER NOT NULL,
    agent_seeds TEXT NOT NULL, winners TEXT NOT NULL, ranks TEXT NOT NULL, scores TEXT NOT NULL,
    truncated INTEGER NOT NULL, turns INTEGER NOT NULL, actions TEXT NOT NULL,
    seconds REAL NOT NULL, forfeit INTEGER NOT NULL,
    finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
"""
OLD_COLUMNS = ("idx, table_idx, deal, seating, seats, deal_seed, agent_seeds, winners, ranks, "
               "scores, truncated, turns, actions, seconds, forfeit")


def test_a_store_from_an_older_eights_opens_and_resumes(tmp_path):
    import json

    from eights.tournament import RESULTS_FILE, run_tournament

    t = Tournament("crazy_eights", ("random", "greedy", "heuristic"), games=6, seed=3)
    straight = run_tournament(t, tmp_path / "straight", report=False)
    half = t.total_games // 2
    old = tmp_path / "old" / RESULTS_FILE
    old.parent.mkdir()
    db = sqlite3.connect(old)
    db.executescript(VERSION_1_GAMES)
    meta = {"format": "eights-tournament", "format_version": 1, "tournament": t.to_dict(),
            "agent_files": {}}
    db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                   [(k, json.dumps(v, sort_keys=True)) for k, v in meta.items()])
    db.execute(f"ATTACH DATABASE '{tmp_path / 'straight' / RESULTS_FILE}' AS straight")
    db.execute(f"INSERT INTO games ({OLD_COLUMNS}) SELECT {OLD_COLUMNS} FROM straight.games "
               f"WHERE idx < {half}")
    db.commit()
    db.close()

    resumed = run_tournament(t, tmp_path / "old")  # report too: it reads every column
    assert (resumed.resumed, resumed.played_now) == (half, t.total_games - half)
    assert [(s.agent, s.wins, s.rating, s.margin) for s in resumed.standings] == [
        (s.agent, s.wins, s.rating, s.margin) for s in straight.standings]
    assert all(s.failures == {} and not s.never_started for s in resumed.standings)
    played = "SELECT idx, seats, deal_seed, winners, ranks, scores, turns, actions FROM games"
    db = sqlite3.connect(tmp_path / "straight" / RESULTS_FILE)
    expected = db.execute(f"{played} ORDER BY idx").fetchall()
    db.close()
    db = sqlite3.connect(old)
    assert db.execute(f"{played} ORDER BY idx").fetchall() == expected  # the same games
    got = db.execute("SELECT idx, decisions, failures FROM games ORDER BY idx").fetchall()
    db.close()
    assert all(d is None and f is None for idx, d, f in got if idx < half)
    assert all(json.loads(f) == [{}, {}] and len(json.loads(d)) == 2
               for idx, d, f in got if idx >= half)
    with ResultsStore(old, t) as store:  # opening it again changes nothing
        assert len(store.done()) == t.total_games
