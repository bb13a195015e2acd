"""The results store: one SQLite row per finished game, committed as it finishes.

The file names the tournament it belongs to (its definition and the model
files of its ``policy`` agents), so the same command run again resumes it:
the games already stored are skipped and the rest are played. A kill at any
moment loses at most the games still being played; WAL journaling keeps
every committed row through it. A file that is not SQLite, an SQLite file
of something else, or the results of a different tournament are refused
with an error that says which.

Each row keeps the deal seed and every decision in text notation, so
:meth:`ResultsStore.record` rebuilds a :class:`~eights.engines.base.GameRecord`
that replays the game exactly, and per seat the decisions asked and the
failures the agent counted in that game (fallback moves, restarts...).

**Older stores.** Columns are only ever added, and nullable: a store written
by an older eights gets the missing columns when it is opened (``ALTER
TABLE ... ADD COLUMN``, no row is rewritten) and resumes as before; its old
rows have the new columns empty (NULL), which reads as "not recorded". An
older eights can still read and resume a store that has them, so the
format version stays 1.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import ConfigError
from ..engines.base import GameRecord
from .play import ACTION_SEPARATOR, GameResult
from .schedule import ScheduledGame, Tournament, agent_files

FORMAT = "eights-tournament"
FORMAT_VERSION = 1

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
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
);
"""
#: columns added after version 1 was first written: name -> SQL type (all nullable)
ADDED_COLUMNS = {
    "decisions": "TEXT",  # JSON list: per seat, the decisions its agent was asked for
    "failures": "TEXT",   # JSON list: per seat, {kind: count} counted in this game
}


class StoreError(ConfigError):
    """The results file cannot be used for this tournament."""


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
    """Results of one tournament in an SQLite file (or in memory when ``path`` is None)."""

    def __init__(self, path: str | Path | None, tournament: Tournament, *,
                 restart: bool = False):
        self.path = Path(path) if path is not None else None
        self.tournament = tournament
        self.identity = {"tournament": tournament.to_dict(),
                         "agent_files": agent_files(tournament)}
        if self.path is not None and restart:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        target = ":memory:" if self.path is None else str(self.path)
        try:
            self.db = sqlite3.connect(target)
            self._open()
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{self.path} is not a results database that eights can read "
                             f"({err}); give another --out, or --restart to replace it") from None

    def _open(self) -> None:
        names = {row[0] for row in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not names:
            self.db.executescript(SCHEMA)
            self._set_meta({"format": FORMAT, "format_version": FORMAT_VERSION,
                            **self.identity})
            self.db.commit()
        elif "meta" not in names or "games" not in names:
            raise StoreError(f"{self.path} is an SQLite database of something else (tables: "
                             f"{', '.join(sorted(names))}), not eights tournament results; "
                             f"give another --out")
        else:
            self._check_meta()
        self._add_missing_columns()
        if self.path is not None:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")

    def _add_missing_columns(self) -> None:
        """Bring a store written by an older eights up to date (see the module docstring)."""
        have = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        missing = [(name, kind) for name, kind in ADDED_COLUMNS.items() if name not in have]
        for name, kind in missing:
            self.db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
        if missing:
            self.db.commit()

    def _set_meta(self, values: dict[str, Any]) -> None:
        self.db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                            [(k, json.dumps(v, sort_keys=True)) for k, v in values.items()])

    def meta(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM meta")}

    def _check_meta(self) -> None:
        meta = self.meta()
        if meta.get("format") != FORMAT:
            raise StoreError(f"{self.path} is not eights tournament results (its format is "
                             f"{meta.get('format')!r}); give another --out")
        if meta.get("format_version") != FORMAT_VERSION:
            raise StoreError(f"{self.path} holds results in format version "
                             f"{meta.get('format_version')}, this eights writes version "
                             f"{FORMAT_VERSION}; give another --out, or --restart")
        differences = []
        stored, here = meta.get("tournament", {}), self.identity["tournament"]
        for key in sorted(set(stored) | set(here)):
            if stored.get(key) != here.get(key):
                differences.append(f"{key}: {stored.get(key)!r} there, {here.get(key)!r} here")
        stored_files = meta.get("agent_files", {})
        for spec, digest in self.identity["agent_files"].items():
            if stored_files.get(spec) not in (None, digest):
                differences.append(f"the model file of {spec} has changed")
        if differences:
            raise StoreError(f"{self.path} holds the results of a different tournament ("
                             f"{'; '.join(differences)}); give another --out, or --restart "
                             f"to discard those results")

    # ----------------------------------------------------------------- rows
    def done(self) -> set[int]:
        """Indices of the games already stored."""
        return {row[0] for row in self.db.execute("SELECT idx FROM games")}

    def add(self, game: ScheduledGame, result: GameResult) -> None:
        """Store one finished game and commit it."""
        if game.index != result.index:
            raise ValueError(f"result of game {result.index} given for game {game.index}")
        self.db.execute(
            "INSERT INTO games (idx, table_idx, deal, seating, seats, deal_seed, agent_seeds, "
            "winners, ranks, scores, truncated, turns, actions, seconds, forfeit, decisions, "
            "failures) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game.index, game.table, game.deal, game.seating, json.dumps(game.seats),
             game.deal_seed, json.dumps(game.agent_seeds),
             json.dumps(result.winners), json.dumps(result.ranks), json.dumps(result.scores),
             int(result.truncated), result.turns, result.actions, result.seconds,
             result.forfeit, _json_or_null(result.decisions),
             _json_or_null(result.failures)))
        self.db.commit()

    def games(self) -> Iterator[StoredGame]:
        """Every stored game in schedule order (the order ratings are computed in)."""
        rows = self.db.execute(
            "SELECT idx, table_idx, deal, seats, deal_seed, winners, ranks, scores, truncated, "
            "turns, forfeit, decisions, failures FROM games ORDER BY idx")
        for (idx, table, deal, seats, seed, winners, ranks, scores, truncated, turns, lost,
             decisions, failures) in rows:
            yield StoredGame(idx, table, deal, tuple(json.loads(seats)), seed,
                             tuple(json.loads(winners)), tuple(json.loads(ranks)),
                             tuple(json.loads(scores)), bool(truncated), turns, lost,
                             None if decisions is None else tuple(json.loads(decisions)),
                             None if failures is None else tuple(json.loads(failures)))

    def record(self, index: int) -> GameRecord:
        """The replayable record of stored game ``index``."""
        row = self.db.execute("SELECT deal_seed, actions FROM games WHERE idx = ?",
                              (index,)).fetchone()
        if row is None:
            raise KeyError(f"game {index} is not in {self.path or 'the store'}")
        seed, actions = row
        t = self.tournament
        return GameRecord(variant=t.variant, config=t.config().to_dict(), seed=seed,
                          deck=None, first_player=None,
                          actions=tuple(actions.split(ACTION_SEPARATOR)) if actions else ())

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _json_or_null(values: tuple) -> str | None:
    """A per-seat tuple as JSON; NULL when the result did not carry it (an empty tuple)."""
    return json.dumps(values) if values else None
