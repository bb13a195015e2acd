"""The batched entry points of every compiled core, written once.

:class:`~eights.vector.tables.CompiledTables` calls these with a core's record
array: each runs one core function (:mod:`eights.vector.cores`, resolved by
the record's type when numba compiles it) over the tables in ``which``, so a
core supplies only the rules of one table.
"""

from __future__ import annotations

import numba
import numpy as np

from . import cores
from .mt import splitmix_next


@numba.njit(cache=True)
def reset_all(tables, prm, rules, seeds):
    """Seed each table's stream of game seeds and deal its first game."""
    for i in range(tables.shape[0]):
        t = tables[i]
        t.seeder = seeds[i]
        next_game(t, prm, rules)


@numba.njit(cache=True)
def next_game(t, prm, rules):
    """The table's next game, from its own stream of game seeds."""
    t.seeder, game_seed = splitmix_next(t.seeder)
    cores.new_game(t, prm, rules, game_seed)


@numba.njit(cache=True)
def next_games(tables, prm, rules, which):
    for j in range(which.shape[0]):
        next_game(tables[which[j]], prm, rules)


@numba.njit(cache=True)
def deal_many(tables, prm, rules, which, game_seeds):
    """Table ``which[j]`` deals the game of seed ``game_seeds[j]`` (its stream of game seeds
    untouched): ``Engine.reset(seed=...)``'s game."""
    for j in range(which.shape[0]):
        cores.new_game(tables[which[j]], prm, rules, game_seeds[j])


@numba.njit(cache=True)
def observe_many(tables, prm, offs, scales, which, seats, obs, masks):
    """Row ``j``: seat ``seats[j]``'s observation at table ``which[j]``, and its mask (zeros
    unless that seat is to act)."""
    for j in range(which.shape[0]):
        t = tables[which[j]]
        cores.observe(t, prm, offs, scales, seats[j], obs[j])
        if t.current == seats[j]:
            masks[j, :] = t.legal  # (every core keeps the mask of the seat to act)
        else:
            masks[j, :] = 0


@numba.njit(cache=True)
def step_many(tables, prm, rules, which, actions):
    """Each table's seat to act plays its action; if one is illegal, the index of the
    first such and no table moved, else -1."""
    num_actions = tables[0].legal.shape[0]
    for j in range(which.shape[0]):  # every action checked before any table moves
        t = tables[which[j]]
        a = actions[j]
        if t.current < 0 or not 0 <= a < num_actions or not t.legal[a]:
            return j
    buf = np.empty(num_actions, np.int64)
    for j in range(which.shape[0]):
        cores.step(tables[which[j]], prm, rules, actions[j], buf)
    return -1


@numba.njit(cache=True)
def heuristic_many(tables, prm, rules, hints, which, out):
    buf = np.empty(tables[0].legal.shape[0], np.int64)
    for j in range(which.shape[0]):
        out[j] = cores.heuristic_action(tables[which[j]], prm, rules, hints, buf)


@numba.njit(cache=True)
def heuristic_play_many(tables, prm, rules, hints, which, heuristic_seats):
    """At table ``which[j]``, the heuristic plays every seat ``s`` with
    ``heuristic_seats[j, s]`` while such a seat is to act (``Tables.play_heuristic``)."""
    choice_buf = np.empty(tables[0].legal.shape[0], np.int64)
    step_buf = np.empty(tables[0].legal.shape[0], np.int64)
    for j in range(which.shape[0]):
        t = tables[which[j]]
        while t.current >= 0 and heuristic_seats[j, t.current]:
            a = cores.heuristic_action(t, prm, rules, hints, choice_buf)
            cores.step(t, prm, rules, a, step_buf)


@numba.njit(cache=True)
def returns_many(tables, prm, which, out):
    for j in range(which.shape[0]):
        cores.returns(tables[which[j]], prm, out[j])
