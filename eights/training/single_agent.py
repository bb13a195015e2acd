"""A single-agent Gymnasium env over any ``eights`` variant, for stable-baselines3.

The learner holds one seat; every other seat is played by an opponent drawn
from an :class:`~eights.training.opponents.OpponentPool` at each reset (built-in
agents, search, or earlier checkpoints of the learner itself). With
``seat=None`` the learner's seat is drawn at each reset from the env's seeded
``np_random``, so a policy learns every seat while ``reset(seed=s)`` always
deals the same episode (Gymnasium's ``check_env`` checks exactly that; a seat
taken from an episode counter would not be reproducible from the seed).

Between two learner decisions the opponents play out of sight: ``step``
applies the learner's action, then lets the engine's current player act
until it is the learner's turn again or the game ends. The reward is the
learner's end-of-game return (+1 win, -1 loss, or points with
``reward="score"``); a game whose hand runs past ``max_turns`` actions is truncated
with reward 0.
A deal that ends before the learner's first decision (the opponents go out
at once) has nothing to learn from and Gymnasium cannot start an episode
finished, so ``reset`` deals again.

Observations are the variant env's observation vector (the same encoder as
the PettingZoo env, so a policy trained here plays there and through
:class:`~eights.agents.policy.PolicyAgent`). Masks come from
:meth:`action_masks`, the method sb3-contrib's ``MaskablePPO`` looks for.

With ``privileged=True`` (a training option, off by default) each observation
is followed by the hidden cards: every opponent's hand and the stock's next
card (:class:`~eights.training.privileged.PrivilegedFeatures`), for a critic
that reads them while the policy does not
(:class:`~eights.training.critic.PrivilegedCriticPolicy`). The observation
space grows by :attr:`privileged_size` features; :attr:`observation_size` is
still the seat's own observation, the part a policy may read.

``render_mode="ansi"`` renders the table as the learner sees it, as text;
``"rgb_array"`` draws that text as a picture (:mod:`eights.envs.picture`), the
mode stable-baselines3's ``make_vec_env`` asks for. Neither shows a hidden card.

A mask-unaware algorithm may choose an illegal action. With
``illegal_action="terminate"`` (the default, as PettingZoo's
``TerminateIllegalWrapper``) the episode ends there with reward
``illegal_reward`` and ``info["illegal_action"]`` names the action; the game
itself is never changed by it. ``illegal_action="raise"`` raises
:class:`~eights.engines.base.IllegalActionError` instead.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..actions import is_action_id
from ..config import ConfigError
from ..engines import engine_class
from ..engines.base import IllegalActionError
from ..envs.base import check_illegal_reward
from ..envs.picture import TablePicture, rows_for
from .opponents import OpponentPool
from .privileged import PrivilegedFeatures

#: the same names as the PettingZoo envs' ``illegal_action`` (there "raise" is the default)
ILLEGAL_ACTION_MODES = ("terminate", "raise")


class SingleAgentEnv(gym.Env):
    """One learner seat against a pool of opponents; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    #: the wrapper's own keywords; every other keyword is a game config option
    WRAPPER_OPTIONS = ("variant", "opponents", "seat", "illegal_action", "illegal_reward",
                       "render_mode", "version", "privileged")

    def __init__(self, variant: str, opponents: OpponentPool | str = "random",
                 seat: int | None = None, illegal_action: str = "terminate",
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 version: int | None = None, privileged: bool = False, **options: Any):
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ConfigError(f"illegal_action={illegal_action!r} is not allowed; use one of "
                              f"{', '.join(ILLEGAL_ACTION_MODES)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode={render_mode!r} is not allowed; use one of "
                              f"{', '.join(map(repr, self.metadata['render_modes']))} or None")
        cls = engine_class(variant)
        self.variant = variant
        self.config = cls.Config.from_options_beside(options, self.WRAPPER_OPTIONS, "wrapper")
        self.engine = cls(self.config, seed=0)
        #: the env version whose observation it gives (None: the newest)
        self.version = cls.observation_version() if version is None else version
        self.encoder = cls.encoder(self.config, self.version)
        n = self.config.num_players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < n):
            raise ConfigError(f"seat={seat!r} is not at this table; use 0..{n - 1} or None "
                              f"to draw the seat at each reset")
        self.fixed_seat = seat
        self.pool = opponents if isinstance(opponents, OpponentPool) else OpponentPool.parse(
            opponents)
        self.pool.check(variant)
        self.illegal_action = illegal_action
        self.illegal_reward = check_illegal_reward(illegal_reward)
        self.render_mode = render_mode
        if not isinstance(privileged, bool):
            raise ConfigError(f"privileged={privileged!r} is not allowed; use True (append "
                              f"the hidden cards, for a training critic) or False")
        #: the hidden cards appended to each observation, with ``privileged=True``
        self.privileged = PrivilegedFeatures(variant, self.config) if privileged else None
        #: the seat's own observation: the leading features, all a policy may read
        self.observation_size = self.encoder.size
        #: the privileged features after it (0 without ``privileged``)
        self.privileged_size = 0 if self.privileged is None else self.privileged.size
        num_actions = len(cls.actions)
        self.observation_space = spaces.Box(
            0.0, 1.0, (self.observation_size + self.privileged_size,), dtype=np.float32)
        self.action_space = spaces.Discrete(num_actions)
        self._mask = np.zeros(num_actions, dtype=bool)
        self.seat = 0 if seat is None else seat
        self._opponents: list[Any] = []
        self._started = False
        self._picture: TablePicture | None = None  # made at the first rgb_array render

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None,
              options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        options = dict(options or {})
        n = self.config.num_players
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(n))
        deck, first = options.pop("deck", None), options.pop("first_player", None)
        if options:
            raise ConfigError(f"reset options {sorted(options)} are not used; the reset "
                              f"options are deck, first_player")
        self._opponents = self.pool.draw(self.variant, n - 1, self.np_random)
        self._started = True
        for _ in range(100):
            self.engine.reset(seed=int(self.np_random.integers(2**63 - 1)), deck=deck,
                              first_player=first)
            self._play_opponents()
            if not self.engine.game_over:
                return self._observation(), self._info()
            if deck is not None:
                break
        raise RuntimeError(f"the game ended before seat {self.seat} had a decision "
                           f"(deck={deck is not None}); a Gymnasium episode needs at least one")

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if not self._started:
            raise RuntimeError("step() was called before reset(); call env.reset() first")
        engine = self.engine
        if engine.game_over:
            raise RuntimeError("step() was called after the episode ended; call env.reset()")
        if not is_action_id(action):
            raise TypeError(f"action {action!r} ({type(action).__name__}) is not an action id: "
                            f"an int from 0 to {self.action_space.n - 1}, a Python int or a "
                            f"numpy integer")
        a = int(action)
        if a not in engine.legal_actions():
            if self.illegal_action == "raise":
                engine.step(a)  # raises IllegalActionError naming the action and the legal ones
            text = engine.action_text(a) if 0 <= a < self.action_space.n else repr(action)
            self._started = False
            info = self._info()
            info["illegal_action"] = text
            return self._observation(), self.illegal_reward, True, False, info
        engine.step(a)
        self._play_opponents()
        return self.outcome()

    def play_learner(self, action: int) -> tuple | None:
        """The first half of :meth:`step`, for a vector env that plays the opponents of all
        its envs together (:mod:`eights.training.batched`): apply the learner's action and
        return None, or :meth:`step`'s whole result when the action ends the episode as
        illegal. Then :meth:`pending_opponent` and :meth:`outcome`."""
        engine = self.engine
        if (self._started and not engine.game_over and is_action_id(action)
                and int(action) in engine.legal_actions()):
            engine.step(int(action))
            return None
        return self.step(action)  # every refusal and illegal action, exactly as step says

    def pending_opponent(self) -> tuple[Any, Any] | None:
        """The opponent to act now and its view, or None when the learner must decide or the
        game is over."""
        engine = self.engine
        if engine.game_over or engine.current_player == self.seat:
            return None
        p = engine.current_player
        return self._opponents[(p - self.seat - 1) % self.config.num_players], engine.view(p)

    def outcome(self) -> tuple[np.ndarray, float, bool, bool, dict]:
        """:meth:`step`'s result once the opponents have played to the learner's turn."""
        engine = self.engine
        terminated, truncated = engine.terminated, engine.truncated
        reward = engine.returns()[self.seat] if terminated else 0.0
        if terminated or truncated:
            self._started = False
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner as booleans (all False once the episode is over)."""
        mask = self._mask
        mask[:] = False
        engine = self.engine
        if not engine.game_over and engine.current_player == self.seat:
            mask[list(engine.legal_actions())] = True
        return mask.copy()

    def set_snapshots(self, paths: list[str]) -> None:
        """The learner's newest checkpoints, for the pool's ``self`` opponents.

        A method on the env so the trainer reaches it through ``VecEnv.env_method``,
        in this process or a subprocess alike.
        """
        self.pool.set_snapshots(paths)

    def set_priorities(self, priorities: dict[str, float] | None) -> None:
        """A league's multipliers of the pool's weights
        (:meth:`~eights.training.opponents.OpponentPool.set_priorities`), reached through
        ``VecEnv.env_method`` as :meth:`set_snapshots` is."""
        self.pool.set_priorities(priorities)

    def render(self) -> str | np.ndarray | None:
        """The table as the learner sees it: text (``"ansi"``) or that text drawn as an RGB
        array (``"rgb_array"``, what ``make_vec_env`` and video recorders ask for)."""
        if self.render_mode is None:
            return None
        text = self.engine.render(self.seat)
        if self.render_mode == "ansi":
            return text
        if self._picture is None:
            self._picture = TablePicture(rows_for(self.config.num_players))
        return self._picture(text)

    # ------------------------------------------------------------------ helpers
    def _play_opponents(self) -> None:
        """Let the other seats act until the learner must decide or the game is over."""
        while (turn := self.pending_opponent()) is not None:
            agent, view = turn
            self.engine.step(agent.act(view))

    def _observation(self) -> np.ndarray:
        seen = self.encoder.encode(self.engine, self.seat)
        if self.privileged is None:
            return seen
        return np.concatenate((seen, self.privileged.encode(self.engine, self.seat)))

    def _info(self) -> dict:
        info: dict[str, Any] = {"seat": self.seat,
                                "opponents": [a.name for a in self._opponents]}
        engine = self.engine
        if engine.game_over:
            info["winners"] = list(engine.winners)
            info["scores"] = list(engine.final_scores())
            info["is_success"] = self.seat in engine.winners
        return info


__all__ = ["ILLEGAL_ACTION_MODES", "IllegalActionError", "SingleAgentEnv"]
