"""The PettingZoo AEC environment shared by every variant.

An :class:`EightsEnv` wraps one engine. Who acts is the engine's answer
(``agent_selection`` follows :attr:`Engine.current_player`, out of turn
included); observations are ``{"observation", "action_mask"}`` built from the
seat's :class:`~eights.engines.base.PlayerView` by the variant's encoder;
rewards come at the end (+1 winners, -1 others, or points with
``reward="score"``); a game whose hand runs past ``max_turns`` actions is truncated.

A game can end before anybody acts (one-card hands where the deal or the
starter already decides it): ``reset`` then leaves every agent terminated
(or truncated) with the engine's returns as rewards and ``agent_selection``
on the first of them, so ``agent_iter()`` yields each agent once to observe
its end and step ``None``, as after any other ending.

``env.step(action)`` takes an action id: a Python ``int`` or a numpy integer
from 0 to ``action_space.n - 1`` (a ``bool``, a float, a ``Decimal`` or
``Fraction``, an action's text or anything else is refused with a
``TypeError`` naming its type), or ``None`` for an agent that is terminated
or truncated, as PettingZoo has it.

What an illegal action does is the env option ``illegal_action``:

* ``"raise"`` (the default): :class:`~eights.engines.base.IllegalActionError`
  naming the action and the legal ones, and the game is left as it was. An
  agent that ignores the mask is a bug, and this shows it at once.
* ``"terminate"``: as PettingZoo's ``TerminateIllegalWrapper``, the game ends
  there. The acting agent gets ``illegal_reward`` (-1), the others 0, every
  agent is terminated, every agent's info has ``illegal_action`` (the
  action's text) and ``illegal_agent`` (who played it), and the masks are all
  zeros. Frameworks that probe an env with unmasked random actions (RLlib's
  env check) need it. Actions outside the action space still raise, as
  PettingZoo's ``AssertOutOfBoundsWrapper`` does.

What ``render()`` shows is the env option ``render_seat``: a table shows
what one seat may see, so by default (``None``) it is the view of the agent
to act (``agent_selection``): its own hand, the other hands as card counts.
An int seat (``render_seat=0``) or an agent name (``"player_0"``) always
shows that seat's view, for a person watching that seat; ``"referee"`` shows
every hand. Any other value is refused when the env is made.

The env options (``render_mode``, ``render_seat``, ``illegal_action``,
``illegal_reward``, ``backend``) are keywords of ``env()`` next to the game's
config options; a name that is neither is refused with both lists.

``backend`` says where the game is played (:mod:`eights.envs.tables`):
``"python"`` (the default) on the variant's engine, ``"compiled"`` on one
table of its compiled core of :mod:`eights.vector`: the same games from the
same seeds, observation for observation (an older version's as the newest
one's columns), several times faster a decision; no stacked decks, and
``env.engine`` a replayed copy for reading.

``env()`` returns this class itself rather than wrapping it in PettingZoo's
``OrderEnforcingWrapper`` and ``AssertOutOfBoundsWrapper``: it makes both
checks itself (calls before ``reset`` and out-of-range actions raise clear
errors), and each wrapper layer forwards every attribute read through
``__getattr__``, which cost more than the game itself on every step.

``reset(seed=..., options={"deck": [...], "first_player": k})`` starts from a
stacked deck, as the engine does. Other keys are ignored, as Gymnasium envs do,
except that one resembling these (``firstplayer``) is warned about by name.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..actions import ActionError, is_action_id
from ..config import ConfigError, did_you_mean
from ..engines.base import Engine, IllegalActionError
from ..engines.table import TableEngine
from ..variants import REGISTRY
from .tables import make_table

RESET_OPTIONS = ("deck", "first_player")
#: keywords of ``env()`` that configure the env rather than the game
ENV_OPTIONS = ("render_mode", "render_seat", "illegal_action", "illegal_reward", "backend")
ILLEGAL_ACTION_MODES = ("raise", "terminate")
#: the ``render_seat`` that shows every hand
REFEREE = "referee"


def module_name(engine_cls: type[Engine], version: int | None = None) -> str:
    """The env's versioned name (``crazy_eights_v1``): ``version``'s, else the variant's
    registered one."""
    if version is None:
        return REGISTRY[engine_cls.variant].env_name
    return f"{engine_cls.variant}_v{version}"


def check_illegal_reward(value: Any) -> float:
    """``illegal_reward`` as a float; a bool, a non-number or a non-finite number is refused."""
    number = isinstance(value, (int, float, np.integer, np.floating))
    if isinstance(value, bool) or not (number and np.isfinite(value)):
        raise ConfigError(f"illegal_reward={value!r} is not allowed; use a finite number "
                          f"such as -1")
    return float(value)


def check_render_seat(value: Any, agents: list[str]) -> int | None:
    """The seat ``render_seat`` names (an int seat or an agent name), ``None`` for the
    referee, or ``-1`` for the agent to act (``render_seat=None``); else a ConfigError."""
    if value is None:
        return -1
    if isinstance(value, str):
        if value == REFEREE:
            return None
        if value in agents:
            return agents.index(value)
    if is_action_id(value) and 0 <= value < len(agents):  # an int seat, as ids are ints
        return int(value)
    raise ConfigError(
        f"render_seat={value!r} is not allowed; use None (the agent to act), a seat from 0 "
        f"to {len(agents) - 1}, an agent name ({agents[0]} .. {agents[-1]}) or "
        f"{REFEREE!r} (every hand)")


def warn_misspelt_reset_options(options: dict) -> None:
    """Warn about a reset option that looks like a misspelling of ``deck`` or ``first_player``.

    Other keys pass silently, as Gymnasium envs ignore the reset options they do not
    know: an options dict may carry keys for other wrappers, and PettingZoo's
    ``api_test`` probes ``reset`` with ``options={"options": 1}``, which must not
    warn. A near miss (``firstplayer``) would silently deal a different game, so
    it is named with the option it resembles.
    """
    for key in sorted(set(options) - set(RESET_OPTIONS), key=str):
        hint = did_you_mean(key, RESET_OPTIONS) if isinstance(key, str) else ""
        if hint:
            warnings.warn(f"reset option {key!r} is not used{hint}; the reset options are "
                          f"{', '.join(RESET_OPTIONS)}", stacklevel=3)


def action_type_error(action: Any, num_actions: int) -> TypeError:
    """The error for an ``env.step`` action that is not an action id."""
    hint = ""
    if isinstance(action, str):
        hint = "; for an action's text use env.unwrapped.engine.parse_action(text)"
    elif action is None:
        hint = "; None is only for an agent that is terminated or truncated"
    return TypeError(
        f"action {action!r} ({type(action).__name__}) is not an action id: an action is an "
        f"int from 0 to {num_actions - 1}, a Python int or a numpy integer (not a bool)"
        f"{hint}")


class EightsEnv(AECEnv):
    """AEC env over an ``eights`` engine; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"], "is_parallelizable": False, "render_fps": 1,
    }

    def __init__(self, engine_cls: type[TableEngine],
                 render_mode: str | None = None, illegal_action: str = "raise",
                 illegal_reward: float = -1.0, render_seat: int | str | None = None,
                 backend: str = "python", *, version: int | None = None, **options: Any):
        super().__init__()
        #: the env version: which observation layout it writes (the fields declared since it)
        self.version = engine_cls.observation_version() if version is None else version
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode={render_mode!r} is not allowed; use one of "
                f"{', '.join(self.metadata['render_modes'])} or None"
            )
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ConfigError(f"illegal_action={illegal_action!r} is not allowed; use one of "
                              f"{', '.join(map(repr, ILLEGAL_ACTION_MODES))}")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = check_illegal_reward(illegal_reward)
        self.config = engine_cls.Config.from_options_beside(options, ENV_OPTIONS, "env")
        self._table = make_table(backend, engine_cls(self.config, seed=0), self.config,
                                 self.version)
        self.metadata = dict(self.metadata, name=module_name(engine_cls, self.version))
        n = self.config.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._render_seat = check_render_seat(render_seat, self.possible_agents)
        self.render_seat = render_seat
        num_actions = len(engine_cls.actions)
        self._num_actions = num_actions
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._seed_rng: np.random.Generator | None = None
        self._stopped = False  # ended by an illegal action (illegal_action="terminate")
        self.agents: list[str] = []

    @property
    def backend(self) -> str:
        """Where the game is played (:mod:`eights.envs.tables`): ``"python"`` or
        ``"compiled"``."""
        return self._table.backend

    @property
    def engine(self) -> Engine:
        """The game's engine (with ``backend="compiled"`` a copy replayed to the table's
        position, for reading: see :mod:`eights.envs.tables`)."""
        return self._table.engine

    @property
    def encoder(self) -> Any:
        """The observation encoder of this env's version and config."""
        return self._table.encoder

    # PettingZoo asks for spaces through these methods.
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._seed_rng is None:
            self._seed_rng, _ = seeding.np_random(seed)
        game_seed = int(self._seed_rng.integers(2**63 - 1))
        options = dict(options or {})
        warn_misspelt_reset_options(options)
        self._table.deal(game_seed, options.get("deck"), options.get("first_player"))
        self._stopped = False
        self._skip_agent_selection = None  # PettingZoo's mark while dead agents step
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        # where the game ended in the deal, every agent is done and the first steps out first
        self.agent_selection = self.agents[0]
        self._sync()

    def _sync(self) -> None:
        """Point agent_selection at the table's player; hand out rewards at the end."""
        seat = self._table.current  # -1 once the game is over
        if seat >= 0:
            self.agent_selection = self.possible_agents[seat]
            return
        returns, terminated, truncated, winners, scores = self._table.outcome()
        for agent in self.agents:
            seat = self._seat[agent]
            self.rewards[agent] = returns[seat]
            self.terminations[agent] = terminated
            self.truncations[agent] = truncated
            self.infos[agent] = {"winners": list(winners), "scores": list(scores)}
        self._accumulate_rewards()

    def _require_reset(self, what: str) -> None:
        if self._seed_rng is None:
            raise RuntimeError(f"{what} was called before reset(); call env.reset() first")

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat.get(agent)
        if seat is None or self._seed_rng is None:
            self._require_reset("observe()")
            raise KeyError(f"agent {agent!r} is not in this env; agents are "
                           f"{', '.join(self.possible_agents)}")
        # agent_selection is the table's player while it has legal actions (see _sync)
        return self._table.observation(seat, agent == self.agent_selection
                                       and not self._stopped)

    def step(self, action: int | None) -> None:
        if self._seed_rng is None:
            self._require_reset("step()")
        agent = self.agent_selection
        try:
            dead = self.terminations[agent] or self.truncations[agent]
        except KeyError:
            raise RuntimeError("step() was called after every agent stepped out of the "
                               "finished game; call env.reset() to play again") from None
        if dead:
            self._was_dead_step(action)
            return
        if type(action) is not int and not is_action_id(action):
            raise action_type_error(action, self._num_actions)
        try:
            self._table.play(action)
        except IllegalActionError:
            # the engine refuses before changing anything, so the game is as it was
            if self.illegal_action == "raise" or not self._in_action_space(action):
                raise
            self._stop_on_illegal(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._sync()
        if self.render_mode == "human":
            self.render()

    def _in_action_space(self, action: Any) -> bool:
        try:
            self.engine.actions.coerce(action)
        except ActionError:
            return False
        return True

    def _stop_on_illegal(self, agent: str, action: Any) -> None:
        """End the game for ``illegal_action="terminate"``: ``illegal_reward`` to ``agent``."""
        text = self.engine.action_text(self.engine.actions.coerce(action))
        self._stopped = True
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        for other in self.agents:
            self.terminations[other] = True
            self.infos[other] = {**self.infos[other], "illegal_action": text,
                                 "illegal_agent": agent}
        self._accumulate_rewards()

    def render(self) -> str | None:
        self._require_reset("render()")
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode; pass render_mode='ansi' "
                          "or 'human' to env()", stacklevel=2)
            return None
        seat = self._render_seat
        if seat == -1:
            seat = self._seat[self.agent_selection]
        text = self.engine.render(seat)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass


def variant_env(engine_cls: type[TableEngine], module: str, version: int
                ) -> tuple[type[EightsEnv], Callable[..., AECEnv]]:
    """A variant module's ``raw_env`` class and ``env`` function, PettingZoo style, for env
    ``version`` (the module's ``_v<N>``: its observation layout, see
    :meth:`~eights.engines.table.TableEngine.encoder`).

    ``env`` returns the raw env itself: it checks call order and action
    bounds on its own (see the module docstring).
    """
    if not module.endswith(f"_v{version}"):
        raise ValueError(f"variant_env: module {module!r} is not version {version}; an env "
                         f"module is named <variant>_v<version>")

    class raw_env(EightsEnv):  # PettingZoo names the unwrapped env class raw_env
        def __init__(self, **options: Any):
            super().__init__(engine_cls, version=version, **options)

    def env(**options: Any) -> AECEnv:
        """The env. ``options`` are the env options (``render_mode``, ``render_seat``,
        ``illegal_action``, ``illegal_reward``, ``backend``; see :class:`EightsEnv` and
        :mod:`eights.envs.base`) and the game's config options (``num_players=4``)."""
        return raw_env(**options)

    raw_env.__module__ = env.__module__ = module
    raw_env.__qualname__, env.__qualname__ = "raw_env", "env"  # pickle finds them by name
    return raw_env, env

