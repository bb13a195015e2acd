"""Reading a results store while a tournament may be writing it.

A running tournament holds the store's lock (:class:`~eights.tournament.store.ResultsStore`
takes ``results.sqlite.lock`` for its whole run), so the web server cannot
open it the ordinary way. :class:`StoreReader` opens the SQLite file
read-only (``mode=ro``) and takes no lock: SQLite's WAL journal lets a reader
see every game committed so far while the writer goes on, and each query
sees the games that landed since the last one. Everything else (reading the
rows, rebuilding a game's record, the errors naming what is wrong with a
file) is the store's own code.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..config import ConfigError
from ..tournament.schedule import Tournament
from ..tournament.store import FORMAT, TABLES, ResultsStore, StoredGame, StoreError

#: the file a tournament's ``--out`` directory holds
STORE_FILE = "results.sqlite"


def store_path(given: str | Path) -> Path:
    """The SQLite file of ``given``: the file itself, or ``DIR/results.sqlite`` for an
    ``eights tournament --out DIR`` directory; a clear error when there is none."""
    path = Path(given)
    if path.is_dir():
        path = path / STORE_FILE
    if not path.is_file():
        raise ConfigError(f"--results {given}: no results store there (looked for {path}); "
                          f"give the --out directory of an eights tournament, e.g. "
                          f"runs/make-run after make run")
    return path


class StoreReader(ResultsStore):
    """A results store opened read-only, without the lock, beside whoever writes it."""

    def __init__(self, given: str | Path):
        path = store_path(given)
        self.path = path
        self.name = str(path)
        self.db = None
        self._lock = None
        with self._guard("open the results store"):
            self.db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                      isolation_level=None, check_same_thread=False)
            tables = {row[0] for row in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables >= TABLES:
            self.close()
            raise StoreError(f"{self.name} is not eights tournament results (tables: "
                             f"{', '.join(sorted(tables)) or 'none'})")
        meta = self.meta()
        if meta.get("format") != FORMAT:
            self.close()
            raise StoreError(f"{self.name} is not eights tournament results (its format is "
                             f"{meta.get('format')!r})")
        self.tournament = Tournament.from_dict(meta["tournament"])
        self.identity = {"tournament": meta["tournament"],
                         "agent_files": meta.get("agent_files", {})}

    def count(self) -> int:
        """Games stored so far (a cheap query, polled to see new games land)."""
        with self._guard("count its games"):
            return self._db.execute("SELECT count(*) FROM games").fetchone()[0]

    def game(self, index: int) -> StoredGame:
        """One stored game's row (its seats, winners, scores)."""
        for game in self.games():
            if game.index == index:
                return game
        raise KeyError(f"game {index} is not in {self.name}")
