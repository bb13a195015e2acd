"""The results store: rows replay their games, and files it cannot use are refused clearly."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

from eights import replay
from eights.config import ConfigError
from eights.tournament import ResultsStore, StoreError, TablePlayer, Tournament

T = Tournament("crazy_eights", ("random", "heuristic"), games=4, seed=3)


def fill(store: ResultsStore, count: int) -> list:
    return fill_with(T, store, count)


def fill_with(t: Tournament, store: ResultsStore, count: int) -> list:
    """Play and store the first ``count`` games of ``t``'s schedule; their results."""
    player = TablePlayer(t)
    results = []
    for game in t.schedule()[:count]:
        result = player.play(game)
        store.add(game, result)
        results.append(result)
    return results


def store_then_edit(path, sql: str) -> None:
    """Create an empty store at ``path``, then change it behind its back with ``sql``."""
    ResultsStore(path, T).close()
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


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
    with pytest.raises(StoreError, match=r"is damaged \(.*\); move it away or pass --restart"):
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
    store_then_edit(path, "UPDATE meta SET value = '\"chess-results\"' WHERE key = 'format'")
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


# ------------------------------------------------------------ hostile files
def tables(path) -> set[str]:
    db = sqlite3.connect(path)
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    db.close()
    return names


def killed_start_of_an_older_eights(path, kind: str) -> None:
    """What a start killed before its first commit left, as older versions could leave it."""
    if kind == "empty file":
        path.write_bytes(b"")
        return
    db = sqlite3.connect(path)
    if kind == "no tables":
        db.execute("PRAGMA journal_mode=WAL")  # writes the header, creates no table
    if kind in ("meta only", "both tables, no metadata"):
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    if kind == "both tables, no metadata":
        db.executescript(VERSION_1_GAMES.replace("CREATE TABLE meta", "CREATE TABLE IF NOT "
                                                 "EXISTS meta"))
    db.commit()
    db.close()


@pytest.mark.parametrize("kind", ["empty file", "no tables", "meta only",
                                  "both tables, no metadata"])
def test_a_store_whose_start_was_killed_is_started_afresh(tmp_path, kind):
    path = tmp_path / "results.sqlite"
    killed_start_of_an_older_eights(path, kind)
    with ResultsStore(path, T) as store:
        assert store.done() == set()
        assert store.meta()["format"] == "eights-tournament"
        fill(store, 2)
    with ResultsStore(path, T) as store:
        assert store.done() == {0, 1}


def test_a_started_store_with_no_games_is_still_checked(tmp_path):
    """Metadata makes a store: only a file with nothing in it counts as never started."""
    path = tmp_path / "results.sqlite"
    ResultsStore(path, T).close()
    other = Tournament("crazy_eights", ("random", "greedy"), games=4, seed=3)
    with pytest.raises(StoreError, match="different tournament"):
        ResultsStore(path, other)


#: opens a store, killing the process (os._exit, no cleanup) as the metadata is written
KILL_WHILE_CREATING = """
import os, sys
from eights.tournament import store, Tournament

def killed(self, values):
    os._exit(9)

store.ResultsStore._set_meta = killed
store.ResultsStore(sys.argv[1], Tournament("crazy_eights", ("random", "heuristic"), games=4,
                                           seed=3))
"""


def test_the_tables_and_the_metadata_are_created_in_one_transaction(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "results.sqlite"
    proc = subprocess.run([sys.executable, "-c", KILL_WHILE_CREATING, str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 9, proc.stderr
    assert path.exists()
    assert tables(path) == set()  # the tables went with the metadata (the journal undid them)
    with ResultsStore(path, T) as store:
        assert store.done() == set()
        assert store.meta()["format"] == "eights-tournament"


def test_a_damaged_page_is_refused_with_what_to_do(tmp_path):
    path = tmp_path / "results.sqlite"
    with ResultsStore(path, T) as store:
        fill(store, 4)
    data = bytearray(path.read_bytes())
    assert len(data) >= 4 * 4096  # a page in the middle, not the header
    middle = len(data) // 2
    data[middle:middle + 300] = b"\xa5" * 300
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=r"results.sqlite is damaged \(.+\); move it away or "
                                         r"pass --restart to start over"):
        ResultsStore(path, T)
    with ResultsStore(path, T, restart=True) as store:
        assert store.done() == set()


def test_a_page_found_damaged_while_reading_gives_the_same_message(tmp_path, monkeypatch):
    path = tmp_path / "results.sqlite"
    with ResultsStore(path, T) as store:
        fill(store, 4)
    data = bytearray(path.read_bytes())
    last_page = len(data) - 4096  # the games table's, which opening the store does not read
    data[last_page:last_page + 300] = b"\xa5" * 300
    path.write_bytes(bytes(data))
    monkeypatch.setattr(ResultsStore, "_check_intact", lambda self: None)  # not seen at open
    with ResultsStore(path, T) as store, pytest.raises(StoreError, match=r"is damaged \("
                                                       r"database disk image is malformed\)"):
        list(store.games())


@pytest.mark.parametrize(("column", "value", "problem"), [
    ("winners", "[1,", "its winners is not valid JSON"),
    ("seats", '"random"', "its seats is 'random', not a list of str"),
    ("failures", "{oops", "its failures is not valid JSON"),
])
def test_a_row_that_is_not_valid_json_names_its_game(tmp_path, column, value, problem):
    path = tmp_path / "results.sqlite"
    with ResultsStore(path, T) as store:
        fill(store, 4)
        store.db.execute(f"UPDATE games SET {column} = ? WHERE idx = 2", (value,))
        with pytest.raises(StoreError) as caught:
            list(store.games())
    message = str(caught.value)
    assert f"the row of game 2 is damaged ({problem}" in message
    assert "DELETE FROM games WHERE idx = 2" in message and "--restart" in message


def test_damaged_metadata_is_refused(tmp_path):
    path = tmp_path / "results.sqlite"
    store_then_edit(path, "UPDATE meta SET value = '{\"agents\": ' WHERE key = 'tournament'")
    with pytest.raises(StoreError, match=r"is damaged \(its metadata 'tournament' is not "
                                         r"valid JSON"):
        ResultsStore(path, T)


def test_a_full_disk_keeps_the_finished_games(tmp_path):
    path = tmp_path / "results.sqlite"
    player = TablePlayer(Tournament("crazy_eights", ("random", "heuristic"), games=400, seed=3))
    schedule = player.tournament.schedule()
    with ResultsStore(path, player.tournament) as store:
        pages = store.db.execute("PRAGMA page_count").fetchone()[0]
        store.db.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk is full soon
        with pytest.raises(StoreError) as caught:
            for game in schedule:
                store.add(game, player.play(game))
        kept = len(store.done())
    message = str(caught.value)
    assert 0 < kept < len(schedule)
    assert message.startswith(f"cannot store game {kept}: the disk holding {path} is full "
                              f"(database or disk is full); the {kept} finished games stored "
                              f"so far are kept: free some space, then run the same command")
    with ResultsStore(path, player.tournament) as store:
        assert store.done() == set(range(kept))


def read_only_connect(monkeypatch):
    """Open every store as SQLite opens a file it may not write (root ignores chmod)."""
    from eights.tournament import store as module

    connect = sqlite3.connect

    def read_only(target, **kwargs):
        return connect(f"file:{target}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(module.sqlite3, "connect", read_only)


def test_a_read_only_store_is_refused_before_anything_is_played(tmp_path, monkeypatch):
    path = tmp_path / "results.sqlite"
    with ResultsStore(path, T) as store:
        fill(store, 2)
    read_only_connect(monkeypatch)
    with pytest.raises(StoreError, match=r"cannot open the results store: .*results.sqlite is "
                                         r"read-only \(attempt to write a readonly database\); "
                                         r".*make it writable, or give another --out"):
        ResultsStore(path, T)


def test_a_read_only_file_system_is_said_so(tmp_path, monkeypatch):
    import errno
    import os

    from eights.tournament import store as module

    def refuse(path, *args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr(module.os, "open", refuse)
    with pytest.raises(StoreError, match=r"is on a read-only file system \(Read-only file "
                                         r"system\); eights writes its results there: give a "
                                         r"writable --out"):
        ResultsStore(tmp_path / "results.sqlite", T)


def chmod_protects(tmp_path) -> bool:
    """Whether a file without write permission is read-only here (not to root, usually)."""
    probe = tmp_path / "probe"
    probe.write_text("")
    probe.chmod(0o444)
    try:
        with open(probe, "w"):
            return False
    except PermissionError:
        return True
    finally:
        probe.chmod(0o644)


def test_a_read_only_file_or_directory_is_refused(tmp_path):
    if not chmod_protects(tmp_path):
        pytest.skip("this user writes read-only files anyway (root); the tests above "
                    "make SQLite open the store read-only instead")
    out = tmp_path / "out"
    path = out / "results.sqlite"
    with ResultsStore(path, T) as store:
        fill(store, 1)
    path.chmod(0o444)
    try:
        with pytest.raises(StoreError, match=rf"cannot open the results store: {path} is "
                                             rf"read-only \(attempt to write a readonly"):
            ResultsStore(path, T)
    finally:
        path.chmod(0o644)
    out.chmod(0o555)
    try:
        with pytest.raises(StoreError, match=rf"{out}, the directory of results.sqlite, is "
                                             rf"read-only"):
            ResultsStore(path, T)  # its lock file is there already
        with pytest.raises(StoreError, match=rf"lock file {out}/other.sqlite.lock: {out} is "
                                             rf"read-only for this user"):
            ResultsStore(out / "other.sqlite", T)
        with pytest.raises(StoreError, match=rf"directory {out}/sub: {out} is read-only"):
            ResultsStore(out / "sub" / "results.sqlite", T)
    finally:
        out.chmod(0o755)


def test_one_store_is_used_by_one_run_at_a_time(tmp_path):
    import os

    path = tmp_path / "results.sqlite"
    with ResultsStore(path, T) as first:
        fill(first, 1)
        with pytest.raises(StoreError, match=rf"results.sqlite is in use by another eights run "
                                             rf"\(pid {os.getpid()} on .+\); wait for it"):
            ResultsStore(path, T)
        with pytest.raises(StoreError, match="in use by another eights run"):
            ResultsStore(path, T, restart=True)  # not even to discard it
        assert first.done() == {0}
    with ResultsStore(path, T) as second:  # closing released it
        assert second.done() == {0}


BUILT_IN_CARDS = (Path(__file__).resolve().parents[2] / "eights" / "data"
                  / "crazier_eights.toml").read_text(encoding="utf-8")
#: a rule change: whatever did one card (a draw, a discard, a look) does two
RULE_CHANGE = ("count = 1 }", "count = 2 }")


def with_card_file(cards: Path) -> Tournament:
    """A Crazier Eights tournament on the card file ``cards`` (what the command line makes)."""
    return Tournament("crazier_eights", ("random", "heuristic"), games=4, seed=1,
                      options={"card_file": str(cards), "hand_size": 4})


def crazier_with_own_cards(tmp_path) -> tuple[Tournament, Path]:
    cards = tmp_path / "my_cards.toml"
    cards.write_text(BUILT_IN_CARDS, encoding="utf-8")
    return with_card_file(cards), cards


def test_resuming_after_the_card_file_changed_is_refused_naming_both_hashes(tmp_path):
    """A tournament reads its card file once and stores the card set itself: resumed after
    an edit (a kill, an edit, the same command), it is refused, not mixed with other rules."""
    t, cards = crazier_with_own_cards(tmp_path)
    assert "card_file" not in t.options and t.options["card_set"] == BUILT_IN_CARDS
    path = tmp_path / "results.sqlite"
    with ResultsStore(path, t) as store:
        fill_with(t, store, 2)  # then killed
    before = hashlib.sha256(cards.read_bytes()).hexdigest()
    cards.write_text(BUILT_IN_CARDS.replace(*RULE_CHANGE), encoding="utf-8")
    after = hashlib.sha256(cards.read_bytes()).hexdigest()
    with pytest.raises(StoreError, match=rf"different tournament \(options\.card_set has "
                                         rf"changed \(SHA-256 {before} there, {after} here\)\); "
                                         rf"give another --out, or --restart"):
        ResultsStore(path, with_card_file(cards))
    cards.write_text(BUILT_IN_CARDS, encoding="utf-8")  # the same cards again: it resumes
    with ResultsStore(path, with_card_file(cards)) as store:
        assert store.done() == {0, 1}


def test_stored_games_replay_after_the_card_file_is_edited_or_deleted(tmp_path):
    t, cards = crazier_with_own_cards(tmp_path)
    path = tmp_path / "results.sqlite"
    with ResultsStore(path, t) as store:
        results = fill_with(t, store, 4)
    for change in ("edited", "deleted"):
        if change == "edited":
            cards.write_text(BUILT_IN_CARDS.replace(*RULE_CHANGE), encoding="utf-8")
        else:
            cards.unlink()
        with ResultsStore(path, t) as store:  # the tournament read its file once
            stored = Tournament.from_dict(store.meta()["tournament"])  # or the store alone
        with ResultsStore(path, stored) as store:
            for result in results:
                engine = replay(store.record(result.index))
                assert engine.game_over or engine.truncated, change
                assert (engine.winners, engine.turn) == (result.winners, result.turns), change


def test_a_results_file_naming_a_card_file_is_refused_without_opening_it(tmp_path):
    """What a results file says is data: a card_file in it (a FIFO here, which would block)
    is refused, never opened."""
    fifo = tmp_path / "cards.fifo"
    os.mkfifo(fifo)
    data = {"variant": "crazier_eights", "agents": ["random", "heuristic"],
            "options": {"card_file": str(fifo)}}
    with pytest.raises(ConfigError, match=r"crazier_eights: the tournament's options names a "
                                          r"file \(card_file\), which is never opened"):
        Tournament.from_dict(data)
