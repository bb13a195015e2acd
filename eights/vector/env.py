"""The learner's view of many tables: one seat per table, opponents answering in batches.

:class:`VectorEnv` is what ``eights.vector.make`` returns. Every table has
one learner seat (rotating by one seat each game, table ``i`` starting at
seat ``i % num_players``, so a batch covers every seat); the others are
played by the opponents (:mod:`eights.vector.opponents`), one batched call
per round for all tables waiting on an opponent. ``step(actions)`` takes one
action per table and returns when every table is back at the learner's
decision:

* ``obs`` (``num_envs x observation_size`` float32) and ``masks``
  (``num_envs x num_actions`` int8) are written in place into arrays made
  once (the returned arrays are those arrays: copy them to keep them);
* ``rewards``: the learner's reward where its game ended this step, else 0;
* ``terminated`` / ``truncated``: whose game ended (won or lost; or cut at
  the turn limit) this step;
* auto-reset, Gymnasium's ``SAME_STEP`` convention: a table whose game
  ended is dealt its next game at once, ``obs`` is the new game's first
  observation, and ``infos["final_obs"]`` (with the flags
  ``infos["_final_obs"]``) holds the learner's last observation of the
  ended game (``final_obs`` too is an array the env keeps: rows are valid where
  flagged at that step); ``infos["game_seed"]`` names each table's game (the
  seed that replays it in the AEC env).

A game that ends before the learner's first decision (one-card hands) is not
an episode: its table is dealt again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..config import ConfigError
from .opponents import HeuristicOpponent, Opponent, make_opponent
from .tables import Tables, make_tables


class VectorEnv:
    """``num_envs`` tables of one variant, a learner seat at each; see the module docstring."""

    #: nothing is drawn (Gymnasium and stable-baselines3 read the attribute)
    render_mode = None

    def __init__(self, variant: str, num_envs: int, opponents: str | Sequence[str] = "heuristic",
                 *, backend: str = "auto", seed: int | None = None, version: int | None = None,
                 **options: Any) -> None:
        self.tables: Tables = make_tables(variant, num_envs, backend, version, **options)
        core = self.tables
        self.variant = variant
        self.num_envs = core.num_tables
        self.num_players = n = core.num_players
        self.observation_size = core.observation_size
        self.num_actions = core.num_actions
        self._seed = seed
        #: the opponents made so far, by spec, and their order (a seat's opponent is an index)
        self._made: dict[str, Opponent] = {}
        self._names: list[str] = []
        #: per opponent index, whether it is the compiled heuristic (its seats' moves are
        #: played in a row in one call: :meth:`_play_heuristic_seats`)
        self._is_heuristic = np.zeros(0, bool)
        #: a pool the opponents are drawn from at every game (``members()``: names and weights)
        self.pool: Any = None
        if callable(getattr(opponents, "members", None)):
            self.pool = opponents
            self._pool_rng = np.random.default_rng(seed)
            fixed: list[int] = []
        else:
            specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
            if len(specs) != n - 1:
                raise ConfigError(f"eights.vector: {len(specs)} opponents for a {n}-player "
                                  f"table; give one spec for every opponent seat, or {n - 1} "
                                  f"(one per seat after the learner's, in turn order)")
            fixed = [self._opponent(spec, k) for k, spec in enumerate(specs)]
        #: per table, the opponent (an index into :attr:`opponent_names`) at each seat after
        #: the learner's (column 0: the next seat)
        self.seated = np.zeros((self.num_envs, n - 1), np.int64)
        self.seated[:] = fixed if fixed else 0
        if self.pool is not None:
            for name, _ in self.pool.members():  # a bad spec fails now, not mid-rollout
                self._opponent(name, len(self._names))
        self.learner = np.arange(self.num_envs, dtype=np.int64) % n
        self.obs = np.zeros((self.num_envs, self.observation_size), np.float32)
        self.masks = np.zeros((self.num_envs, self.num_actions), np.int8)
        #: each table's learner's last observation of its last ended game (rows valid where
        #: ``infos["_final_obs"]`` flags them at the step that ended it)
        self.final_obs = np.zeros_like(self.obs)
        #: rows the opponents' observations and the final ones are written into
        self._scratch_obs = np.zeros_like(self.obs)
        self._scratch_masks = np.zeros_like(self.masks)
        self._all = np.arange(self.num_envs, dtype=np.int64)
        self.episodes = 0
        self._started = False

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every table (``seed``: the tables' streams of game seeds; ``None`` the one
        given to ``make``); the first observations and masks."""
        self.tables.reset(self._seed if seed is None else seed)
        self.learner = self._all % self.num_players
        self._seat_opponents(self._all)
        self._started = True
        self._advance(self._all, dealt=True)
        self.tables.observe(self._all, self.learner, self.obs, self.masks)
        return self.obs, {"game_seed": self.tables.game_seeds()}

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                  dict[str, Any]]:
        """Every table's learner plays ``actions[i]``; see the module docstring."""
        if not self._started:
            raise RuntimeError("eights.vector: call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ConfigError(f"eights.vector: step takes one integer action per table, an "
                              f"array of shape ({self.num_envs},); got {actions.dtype} "
                              f"{actions.shape}")
        self.tables.step(self._all, actions)
        ended = self._advance(self._all, dealt=False)
        rewards = np.zeros(self.num_envs, np.float32)
        terminated = np.zeros(self.num_envs, bool)
        truncated = np.zeros(self.num_envs, bool)
        infos: dict[str, Any] = {}
        if len(ended):
            seats = self.learner[ended]
            rewards[ended] = self.tables.returns(ended)[np.arange(len(ended)), seats]
            terminated[ended] = self.tables.terminated(ended)
            truncated[ended] = self.tables.truncated(ended)
            scratch = self._scratch_obs[: len(ended)]
            self.tables.observe(ended, seats, scratch, self._scratch_masks[: len(ended)])
            self.final_obs[ended] = scratch
            flags = np.zeros(self.num_envs, bool)
            flags[ended] = True
            infos["final_obs"], infos["_final_obs"] = self.final_obs, flags
            self.episodes += len(ended)
            infos["episode_info"] = self._episode_infos(ended, seats)
            self.learner[ended] = (self.learner[ended] + 1) % self.num_players
            self.tables.next_game(ended)
            self._seat_opponents(ended)
            self._advance(ended, dealt=True)
        self.tables.observe(self._all, self.learner, self.obs, self.masks)
        infos["game_seed"] = self.tables.game_seeds()
        return self.obs, rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions at every table, as booleans (MaskablePPO's name)."""
        return self.masks.astype(bool)

    # ------------------------------------------------------------------ the opponents
    def _advance(self, tables: np.ndarray, dealt: bool) -> np.ndarray:
        """Let the opponents play at ``tables`` until each is at its learner's decision or
        over; return the tables whose game is over (before the next deal). A game over
        before the learner acted (a one-card deal; ``dealt``: ``tables`` were just dealt)
        is dealt again."""
        core = self.tables
        n = self.num_players
        ended: list[np.ndarray] = []
        pending = np.asarray(tables, np.int64)
        fresh = np.zeros(self.num_envs, bool)  # its learner has not acted in this game yet
        fresh[pending] = dealt
        obs, masks = self._scratch_obs, self._scratch_masks
        while len(pending):
            self._play_heuristic_seats(pending)
            current = core.current[pending]
            over = pending[current < 0]
            if len(over):
                redeal = over[fresh[over]]
                finished = over[~fresh[over]]
                if len(finished):
                    ended.append(finished)
                if len(redeal):
                    self.learner[redeal] = (self.learner[redeal] + 1) % n
                    core.next_game(redeal)
                    self._seat_opponents(redeal)
                pending = np.concatenate([pending[current >= 0], redeal])
                continue
            waiting = pending[current != self.learner[pending]]
            if not len(waiting):
                break
            relative = (core.current[waiting] - self.learner[waiting]) % n
            who = self.seated[waiting, relative - 1]
            for k in np.unique(who):
                group = waiting[who == k]
                opponent = self._made[self._names[k]]
                if opponent.reads_observation:
                    core.observe(group, core.current[group], obs[: len(group)],
                                 masks[: len(group)])
                actions = opponent.act(group, obs[: len(group)], masks[: len(group)])
                core.step(group, actions)
            pending = waiting
        if not ended:
            return np.empty(0, np.int64)
        return np.sort(np.concatenate(ended))

    def _play_heuristic_seats(self, tables: np.ndarray) -> None:
        """Let the heuristic's seats at ``tables`` play their moves in a row in one call to
        the tables (:meth:`Tables.play_heuristic`) rather than one round of the loop each:
        the same moves, since a table's moves do not depend on the others'."""
        if not self._is_heuristic.any():
            return
        n = self.num_players
        relative = (np.arange(n)[None, :] - self.learner[tables, None]) % n
        seated = self.seated[tables[:, None], np.maximum(relative - 1, 0)]
        heuristic_seats = (relative > 0) & self._is_heuristic[seated]
        if heuristic_seats.any():
            self.tables.play_heuristic(tables, heuristic_seats)

    # ------------------------------------------------------------------ who plays
    @property
    def opponent_names(self) -> list[str]:
        """The opponents' specs, in the order :attr:`seated` indexes them."""
        return list(self._names)

    def _opponent(self, spec: str, k: int) -> int:
        """The index of the opponent ``spec`` (made on first use; ``k`` seeds it)."""
        if spec not in self._made:
            self._made[spec] = make_opponent(spec, self.tables,
                                             None if self._seed is None else self._seed + 1 + k)
            self._names.append(spec)
            self._is_heuristic = np.append(
                self._is_heuristic, isinstance(self._made[spec], HeuristicOpponent))
        return self._names.index(spec)

    def _seat_opponents(self, tables: np.ndarray) -> None:
        """With a pool, draw the opponents of each of ``tables``' new games by weight (as
        :meth:`OpponentPool.draw <eights.training.opponents.OpponentPool.draw>` does for
        one env)."""
        if self.pool is None or not len(tables):
            return
        members = self.pool.members()
        weights = np.array([w for _, w in members], np.float64)
        picks = self._pool_rng.choice(len(members), size=(len(tables), self.num_players - 1),
                                      p=weights / weights.sum())
        index = np.array([self._opponent(name, len(self._names)) for name, _ in members])
        self.seated[tables] = index[picks]

    def set_snapshots(self, paths: Sequence[str]) -> None:
        """The pool's ``self`` checkpoints (what ``eights train`` calls after each one)."""
        self.pool.set_snapshots(paths)
        self._forget_unused()

    def set_priorities(self, priorities: dict[str, float] | None) -> None:
        """The pool's league priorities (what ``eights train --league`` calls)."""
        self.pool.set_priorities(priorities)

    def _forget_unused(self) -> None:
        """Drop the opponents no longer in the pool and at no table (old snapshots)."""
        members = {name for name, _ in self.pool.members()}
        seated = {self._names[k] for k in np.unique(self.seated)}
        for name in list(self._made):
            if name not in members and name not in seated:
                del self._made[name]  # its index stays taken: seated rows keep their meaning

    def _episode_infos(self, ended: np.ndarray, seats: np.ndarray) -> list[dict[str, Any]]:
        """What :class:`~eights.training.SingleAgentEnv` tells at a game's end, per ended
        table: the learner's seat, its opponents' names, the winners, whether it won."""
        out = []
        for i, seat in zip(ended, seats, strict=True):
            winners = self.tables.winners(int(i))
            out.append({"seat": int(seat),
                        "opponents": [self._names[k] for k in self.seated[i]],
                        "winners": winners, "is_success": int(seat) in winners})
        return out



def make(variant: str, num_envs: int, opponents: str | Sequence[str] = "heuristic",
         **kwargs: Any) -> VectorEnv:
    """``num_envs`` tables of ``variant`` with a learner seat each and ``opponents`` (one
    agent spec for every other seat, or one per seat in turn order) answering in batches.

    ``backend``: ``"auto"`` (the compiled core where the variant has one, else the Python
    engines), ``"compiled"`` or ``"python"``; ``seed``: the tables' game seeds; ``version``:
    the observation version (``None``: the newest; a compiled core writes the newest and
    the tables keep an older version's columns); the other keywords are
    the variant's options (``num_players=3``...).
    """
    return VectorEnv(variant, num_envs, opponents, **kwargs)
