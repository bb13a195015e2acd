"""Helpers shared by the tournament tests."""

from __future__ import annotations

import sqlite3

from eights.agents import RandomAgent
from eights.tournament import RESULTS_FILE


def stored_games(out) -> list[tuple]:
    """The games stored in the run directory ``out``, in order, as the store holds them."""
    db = sqlite3.connect(out / RESULTS_FILE)
    rows = db.execute("SELECT idx, seats, deal_seed, winners, ranks, scores, turns, actions "
                      "FROM games ORDER BY idx").fetchall()
    db.close()
    return rows


class Misbehaving(RandomAgent):
    """A random agent that counts its decisions each game (``asked``) and, before playing
    each, calls :meth:`misbehave`, which a test overrides."""

    def seed(self, seed):
        super().seed(seed)
        self.asked = 0

    def act(self, view):
        self.asked += 1
        self.misbehave()
        return super().act(view)

    def misbehave(self) -> None:
        raise NotImplementedError
