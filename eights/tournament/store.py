"""The results store: one SQLite row per finished game, committed as it finishes.

The file names the tournament it belongs to (its definition and the model
files of its ``policy`` agents), so the same command run again resumes it:
the games already stored are skipped and the rest are played. A file that
is not SQLite, an SQLite file of something else, or the results of a
different tournament are refused with an error that says which.

Each row keeps the deal seed and every decision in text notation, so
:meth:`ResultsStore.record` rebuilds a :class:`~eights.engines.base.GameRecord`
that replays the game exactly (a card set is in the tournament's options as
its text, never as a path, so a card file edited or deleted since changes
nothing; a resume with another card set is refused naming both hashes), and
per seat the decisions asked and the failures the agent counted in that game
(fallback moves, restarts...).

**What it guarantees.**

- *Every finished game is committed* before the next result is taken (WAL
  journal), so a kill at any moment loses at most the games being played.
- *A kill at any moment leaves a store the same command resumes.* A new
  store's tables and metadata are created in one transaction, so a file is
  either complete or has no tables; a file with no tables, or with only
  this store's tables and nothing in them (what a killed start of an older
  eights left), is a store that never started and is created afresh.
- *One run per store.* An open store holds an exclusive lock on
  ``<file>.lock`` (``flock``; ``msvcrt.locking`` on Windows). The operating
  system releases it when the process ends, however it ends, so a killed
  run leaves no stale lock; a second run is refused with the holder's pid.
- *Every failure of the file is a* :class:`StoreError` that says what
  happened and what to do: damaged (checked with ``PRAGMA quick_check`` when
  opened, and whenever SQLite finds a bad page), a row that is not valid
  JSON (naming the game), a full disk (the finished games are kept), a
  read-only file or directory, a lock held by another program.

**Older stores.** Columns are only ever added, and nullable: a store written
by an older eights gets the missing columns when it is opened (``ALTER
TABLE ... ADD COLUMN``, no row is rewritten) and resumes as before; its old
rows have the new columns empty (NULL), which reads as "not recorded". An
older eights can still read and resume a store that has them, so the
format version stays 1.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import socket
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import HASH_SUFFIX, ConfigError
from ..engines.base import GameRecord
from .play import ACTION_SEPARATOR, GameResult
from .schedule import ScheduledGame, Tournament, agent_files

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

FORMAT = "eights-tournament"
FORMAT_VERSION = 1

#: the tables of a new store, created (with its metadata) in one transaction
SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE games (
    idx INTEGER PRIMARY KEY,
    table_idx INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    seating INTEGER NOT NULL,
    seats TEXT NOT NULL,
    deal_seed INTEGER NOT NULL,
    agent_seeds TEXT NOT NULL,
    winners TEXT NOT NULL,
    ranks TEXT NOT NULL,
    scores TEXT NOT NULL,
    truncated INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    actions TEXT NOT NULL,
    seconds REAL NOT NULL,
    forfeit INTEGER NOT NULL,
    finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
)""",
)
TABLES = frozenset({"meta", "games"})
#: columns added after version 1 was first written: name -> SQL type (all nullable)
ADDED_COLUMNS = {
    "decisions": "TEXT",  # JSON list: per seat, the decisions its agent was asked for
    "failures": "TEXT",   # JSON list: per seat, {kind: count} counted in this game
}
#: the lock file next to a store: ``results.sqlite.lock``
LOCK_SUFFIX = ".lock"
#: the byte locked on Windows, past anything written to the lock file
_WINDOWS_LOCK_OFFSET = 1 << 20


class StoreError(ConfigError):
    """The results file cannot be used for this tournament, or stopped working."""


@dataclass(frozen=True)
class StoredGame:
    """A row of the store: the scheduled game and what happened in it."""

    index: int
    table: int
    deal: int
    seats: tuple[str, ...]
    deal_seed: int
    winners: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    truncated: bool
    turns: int
    #: the seat that forfeited, else -1
    forfeit: int = -1
    #: per seat; None in rows stored by an eights that did not record them
    decisions: tuple[int, ...] | None = None
    failures: tuple[dict[str, int], ...] | None = None


class ResultsStore:
    """Results of one tournament in an SQLite file (or in memory when ``path`` is None).

    Opening a file locks it for this process until :meth:`close` (see the
    module docstring); every problem with the file raises :class:`StoreError`.
    """

    def __init__(self, path: str | Path | None, tournament: Tournament, *,
                 restart: bool = False):
        self.path = Path(path) if path is not None else None
        self.name = str(self.path) if self.path is not None else "the in-memory results store"
        self.tournament = tournament
        self.identity = {"tournament": tournament.to_dict(),
                         "agent_files": agent_files(tournament)}
        self.db: sqlite3.Connection | None = None
        self._lock: _RunLock | None = None
        try:
            if self.path is not None:
                directory = self.path.parent
                try:
                    directory.mkdir(parents=True, exist_ok=True)
                except OSError as err:
                    raise _os_failure(err, f"create the directory {directory}",
                                      _existing_ancestor(directory)) from err
                self._lock = _RunLock(Path(f"{self.path}{LOCK_SUFFIX}"), self.name)
                if restart:
                    self._remove_files()
            with self._guard("open the results store"):
                # autocommit: transactions are explicit, so the schema is created in one
                self.db = sqlite3.connect(":memory:" if self.path is None else str(self.path),
                                          isolation_level=None)
                self._open()
        except BaseException:
            self.close()
            raise

    def _remove_files(self) -> None:
        assert self.path is not None
        for suffix in ("", "-wal", "-shm", "-journal"):
            file = Path(f"{self.path}{suffix}")
            try:
                file.unlink(missing_ok=True)
            except OSError as err:
                raise _os_failure(err, f"remove {file} for --restart", file.parent) from err

    def _open(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        names = self._tables()
        if names and names <= TABLES and all(self._empty(name) for name in ("meta", "games")
                                             if name in names):
            # what a start killed before its first commit left (an older eights created the
            # tables and the metadata in separate transactions): nothing to keep
            for name in names:
                db.execute(f"DROP TABLE {name}")
            names = set()
        if not names:
            for statement in SCHEMA:
                db.execute(statement)
            self._set_meta({"format": FORMAT, "format_version": FORMAT_VERSION,
                            **self.identity})
        elif not names >= TABLES:
            raise StoreError(f"{self.name} is an SQLite database of something else (tables: "
                             f"{', '.join(sorted(names))}), not eights tournament results; "
                             f"give another --out")
        else:
            self._check_intact()
            self._check_meta()
        self._add_missing_columns()
        # a store opened read-only (its file write-protected) reads until its first write:
        # this write of nothing says so now, before any game is played
        db.execute("UPDATE meta SET value = value WHERE 0")
        db.execute("COMMIT")
        if self.path is not None:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")

    def _tables(self) -> set[str]:
        return {row[0] for row in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _empty(self, table: str) -> bool:
        return self._db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() is None

    def _check_intact(self) -> None:
        """Refuse a damaged file now rather than after the games still to play."""
        problems = [" ".join(str(row[0]).replace("*** in database main ***", "").split())
                    for row in self._db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise self._damaged(f"PRAGMA quick_check: {'; '.join(problems[:3])}")

    def _add_missing_columns(self) -> None:
        """Bring a store written by an older eights up to date (see the module docstring)."""
        have = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        for name, kind in ADDED_COLUMNS.items():
            if name not in have:
                self._db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")

    def _set_meta(self, values: dict[str, Any]) -> None:
        self._db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                             [(k, json.dumps(v, sort_keys=True)) for k, v in values.items()])

    def meta(self) -> dict[str, Any]:
        with self._guard("read its metadata"):
            rows = self._db.execute("SELECT key, value FROM meta").fetchall()
        meta = {}
        for key, value in rows:
            try:
                meta[key] = json.loads(value)
            except (TypeError, ValueError) as err:
                raise self._damaged(f"its metadata {key!r} is not valid JSON: {err}") from None
        return meta

    def _check_meta(self) -> None:
        meta = self.meta()
        if meta.get("format") != FORMAT:
            raise StoreError(f"{self.name} is not eights tournament results (its format is "
                             f"{meta.get('format')!r}); give another --out")
        if meta.get("format_version") != FORMAT_VERSION:
            raise StoreError(f"{self.name} holds results in format version "
                             f"{meta.get('format_version')}, this eights writes version "
                             f"{FORMAT_VERSION}; give another --out, or --restart")
        stored, stored_files = meta.get("tournament", {}), meta.get("agent_files", {})
        for key, value in (("tournament", stored), ("agent_files", stored_files)):
            if not isinstance(value, dict):
                raise self._damaged(f"its metadata {key!r} is {value!r}, not a mapping")
        differences = _differences(stored, self.identity["tournament"])
        for spec, digest in self.identity["agent_files"].items():
            if stored_files.get(spec) not in (None, digest):
                differences.append(f"the model file of {spec} has changed")
        if differences:
            raise StoreError(f"{self.name} holds the results of a different tournament ("
                             f"{'; '.join(differences)}); give another --out, or --restart "
                             f"to discard those results")

    # ----------------------------------------------------------------- rows
    def done(self) -> set[int]:
        """Indices of the games already stored."""
        with self._guard("read its games"):
            return {row[0] for row in self._db.execute("SELECT idx FROM games")}

    def add(self, game: ScheduledGame, result: GameResult) -> None:
        """Store one finished game and commit it.

        A game stored twice is a caller's mistake and raises
        :class:`sqlite3.IntegrityError`; the file's failures raise :class:`StoreError`.
        """
        if game.index != result.index:
            raise ValueError(f"result of game {result.index} given for game {game.index}")
        with self._guard(f"store game {game.index}"):
            self._db.execute(  # one statement in autocommit mode: committed when it returns
                "INSERT INTO games (idx, table_idx, deal, seating, seats, deal_seed, "
                "agent_seeds, winners, ranks, scores, truncated, turns, actions, seconds, "
                "forfeit, decisions, failures) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.index, game.table, game.deal, game.seating, json.dumps(game.seats),
                 game.deal_seed, json.dumps(game.agent_seeds),
                 json.dumps(result.winners), json.dumps(result.ranks),
                 json.dumps(result.scores), int(result.truncated), result.turns,
                 result.actions, result.seconds, result.forfeit,
                 _json_or_null(result.decisions), _json_or_null(result.failures)))

    def games(self) -> Iterator[StoredGame]:
        """Every stored game in schedule order (the order the rating history follows)."""
        with self._guard("read its games"):
            rows = self._db.execute(
                "SELECT idx, table_idx, deal, seats, deal_seed, winners, ranks, scores, "
                "truncated, turns, forfeit, decisions, failures FROM games ORDER BY idx")
            for (idx, table, deal, seats, seed, winners, ranks, scores, truncated, turns, lost,
                 decisions, failures) in rows:
                yield StoredGame(
                    idx, table, deal, self._list(idx, "seats", seats, str), seed,
                    self._list(idx, "winners", winners, int),
                    self._list(idx, "ranks", ranks, int),
                    self._list(idx, "scores", scores, int), bool(truncated), turns, lost,
                    self._list(idx, "decisions", decisions, int, nullable=True),
                    self._list(idx, "failures", failures, dict, nullable=True))

    def _list(self, idx: int, column: str, text: Any, item: type, *,
              nullable: bool = False) -> Any:
        """A JSON list column of row ``idx`` as a tuple; a damaged value names its game."""
        if text is None and nullable:
            return None
        try:
            value = json.loads(text)
        except (TypeError, ValueError) as err:
            raise self._damaged_row(idx, f"its {column} is not valid JSON: {err}") from None
        if not isinstance(value, list) or not all(
                isinstance(v, item) and not isinstance(v, bool) for v in value):
            raise self._damaged_row(idx, f"its {column} is {_short(value)}, not a list of "
                                         f"{item.__name__}")
        return tuple(value)

    def record(self, index: int) -> GameRecord:
        """The replayable record of stored game ``index``."""
        with self._guard(f"read game {index}"):
            row = self._db.execute("SELECT deal_seed, actions FROM games WHERE idx = ?",
                                   (index,)).fetchone()
        if row is None:
            raise KeyError(f"game {index} is not in {self.name}")
        seed, actions = row
        if not isinstance(actions, str) or not isinstance(seed, int):
            raise self._damaged_row(index, f"its deal seed {_short(seed)} or its actions "
                                           f"{_short(actions)} are not what was stored")
        t = self.tournament
        return GameRecord(variant=t.variant, config=t.config().to_dict(), seed=seed,
                          deck=None, first_player=None,
                          actions=tuple(actions.split(ACTION_SEPARATOR)) if actions else ())

    # --------------------------------------------------------------- errors
    @property
    def _db(self) -> sqlite3.Connection:
        if self.db is None:
            raise StoreError(f"{self.name} is closed")
        return self.db

    @contextlib.contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn SQLite's failures of the file into a :class:`StoreError` saying what to do."""
        try:
            yield
        except (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.NotSupportedError):
            raise  # the caller's mistakes, not the file's
        except sqlite3.DatabaseError as err:
            if self.db is not None and self.db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self.db.rollback()
            raise self._failure(err, doing) from err

    def _failure(self, err: sqlite3.DatabaseError, doing: str) -> StoreError:
        kind, name = _kind(err), self.name
        if kind == "notadb":
            return StoreError(f"{name} is not a results database that eights can read ({err}); "
                              f"give another --out, or --restart to replace it")
        if kind == "corrupt":
            return self._damaged(str(err))
        if kind == "full":
            return StoreError(f"cannot {doing}: the disk holding {name} is full ({err}); "
                              f"{self._kept()}: free some space, then run the same command "
                              f"to resume")
        if kind in ("readonly", "perm"):
            what = name
            if self.path is not None and not os.access(self.path.parent, os.W_OK):
                what = f"{self.path.parent}, the directory of {self.path.name},"
            return StoreError(f"cannot {doing}: {what} is read-only ({err}); eights writes "
                              f"every finished game there: make it writable, or give another "
                              f"--out")
        if kind == "cantopen":
            return StoreError(f"cannot open {name} ({err}): it must be a file in a writable "
                              f"directory; give another --out")
        if kind == "busy":
            return StoreError(f"cannot {doing}: {name} is locked by another program ({err}); "
                              f"close whatever has it open (an sqlite3 shell, a viewer), then "
                              f"run the same command again; {self._kept()}")
        if kind == "ioerr":
            return StoreError(f"cannot {doing}: reading or writing {name} failed ({err}); "
                              f"check the disk, then run the same command to resume; "
                              f"{self._kept()}")
        return StoreError(f"cannot {doing}: SQLite failed on {name} ({err}); run the same "
                          f"command again to resume, or --restart to start over")

    def _damaged(self, what: str) -> StoreError:
        return StoreError(f"{self.name} is damaged ({what}); move it away or pass --restart "
                          f"to start over")

    def _damaged_row(self, idx: int, what: str) -> StoreError:
        return StoreError(
            f"{self.name}: the row of game {idx} is damaged ({what}); delete that row and run "
            f"the same command to play the game again (sqlite3 {self.name} "
            f"\"DELETE FROM games WHERE idx = {idx}\"), or pass --restart to start over")

    def _kept(self) -> str:
        """How many finished games the file keeps, for messages about a failure."""
        try:
            count = self._db.execute("SELECT count(*) FROM games").fetchone()[0]
        except (sqlite3.Error, StoreError):
            return "the finished games stored so far are kept"
        return f"the {count:,} finished game{'s' if count != 1 else ''} stored so far are kept"

    # ------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """Close the file and release its lock (a second call does nothing)."""
        try:
            if self.db is not None:
                self.db.close()
        finally:
            self.db = None
            if self._lock is not None:
                self._lock.release()
                self._lock = None

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _RunLock:
    """An exclusive lock on a store's lock file, held while the store is open.

    The lock file keeps the holder's pid and host for the message a second
    run gets. It is left in place: removing it could let two runs lock two
    different files of the same name.
    """

    def __init__(self, path: Path, store: str):
        self.path = path
        try:
            self.fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise _os_failure(err, f"create the lock file {path}", path.parent) from err
        try:
            locked = _try_lock(self.fd)
        except OSError as err:  # a file system that cannot lock (some network mounts)
            log.warning("cannot lock %s (%s): make sure no other eights run uses %s",
                        path, err.strerror or err, store)
            locked = True
        if not locked:
            holder = self._holder()
            self.release()
            raise StoreError(f"{store} is in use by another eights run ({holder}); wait for "
                             f"it to finish, or stop it, then run the same command to resume; "
                             f"or give another --out")
        with contextlib.suppress(OSError):  # only a message reads it
            os.ftruncate(self.fd, 0)
            os.write(self.fd, f"pid {os.getpid()} on {socket.gethostname()}\n".encode())

    def _holder(self) -> str:
        try:
            with open(self.path, encoding="utf-8", errors="replace") as file:
                text = file.read(200).strip()
        except OSError:
            text = ""
        return text or "its pid is unknown"

    def release(self) -> None:
        if self.fd is None:
            return
        with contextlib.suppress(OSError):
            _unlock(self.fd)
        os.close(self.fd)
        self.fd = None


def _try_lock(fd: int) -> bool:
    """Lock ``fd`` exclusively; False if another process holds it."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    import msvcrt

    os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError as err:
        if err.errno in (errno.EACCES, errno.EDEADLOCK):
            return False
        raise
    finally:
        os.lseek(fd, 0, os.SEEK_SET)
    return True


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return
    import msvcrt

    os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
    msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


#: SQLite's primary result codes for what can go wrong with a file
_SQLITE_CODES = {3: "perm", 5: "busy", 6: "busy", 8: "readonly", 10: "ioerr", 11: "corrupt",
                 13: "full", 14: "cantopen", 26: "notadb"}
#: the same from the messages, for Pythons without ``sqlite_errorcode`` (before 3.11)
_SQLITE_MESSAGES = {"file is not a database": "notadb",
                    "database disk image is malformed": "corrupt",
                    "database or disk is full": "full",
                    "attempt to write a readonly database": "readonly",
                    "unable to open database file": "cantopen",
                    "database is locked": "busy", "database table is locked": "busy",
                    "disk I/O error": "ioerr", "access permission denied": "perm"}


def _kind(err: sqlite3.Error) -> str:
    code = getattr(err, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _SQLITE_CODES:
        return _SQLITE_CODES[code & 0xFF]
    text = str(err)
    return next((kind for fragment, kind in _SQLITE_MESSAGES.items() if fragment in text),
                "other")


def _os_failure(err: OSError, doing: str, where: Path) -> StoreError:
    """A :class:`StoreError` for a file system call that failed on the way to the store."""
    reason = err.strerror or str(err)
    if err.errno == errno.EROFS:
        return StoreError(f"cannot {doing}: {where} is on a read-only file system ({reason}); "
                          f"eights writes its results there: give a writable --out")
    if err.errno in (errno.EACCES, errno.EPERM):
        return StoreError(f"cannot {doing}: {where} is read-only for this user ({reason}); "
                          f"make it writable, or give another --out")
    if err.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return StoreError(f"cannot {doing}: the disk holding {where} is full ({reason}); "
                          f"free some space, then run the same command (the finished games "
                          f"are kept)")
    return StoreError(f"cannot {doing} ({reason}); give another --out")


def _existing_ancestor(path: Path) -> Path:
    """The nearest of ``path`` and its parents that exists (where a mkdir failed)."""
    while not path.exists() and path.parent != path:
        path = path.parent
    return path


def _differences(stored: dict[str, Any], here: dict[str, Any], within: str = "") -> list[str]:
    """What differs between the stored tournament and this one, key by key (the game options
    one by one). A content with its hash beside it (``card_set`` and ``card_set_sha256``) is
    told by the two hashes, not by pages of text."""
    out = []
    for key in sorted(set(stored) | set(here)):
        there_value, here_value = stored.get(key), here.get(key)
        if there_value == here_value or f"{key}{HASH_SUFFIX}" in stored.keys() | here.keys():
            continue
        if isinstance(there_value, dict) and isinstance(here_value, dict):
            out += _differences(there_value, here_value, f"{within}{key}.")
        elif key.endswith(HASH_SUFFIX):
            out.append(f"{within}{key.removesuffix(HASH_SUFFIX)} has changed (SHA-256 "
                       f"{there_value} there, {here_value} here)")
        else:
            out.append(f"{within}{key}: {_short(there_value, 80)} there, "
                       f"{_short(here_value, 80)} here")
    return out


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 3]}..."


def _json_or_null(values: tuple) -> str | None:
    """A per-seat tuple as JSON; NULL when the result did not carry it (an empty tuple)."""
    return json.dumps(values) if values else None
