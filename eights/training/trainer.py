"""Self-play training with MaskablePPO, for any variant, from one settings object.

:func:`train` builds ``n_envs`` :class:`SingleAgentEnv` copies (seeded
``seed + i``), each drawing its opponents from the same pool, and runs
sb3-contrib's ``MaskablePPO`` on them. Every ``checkpoint_every`` timesteps
(by default a fifth of the run: :meth:`TrainSettings.checkpoint_interval`)
the :class:`~eights.training.monitor.TrainingMonitor` writes a checkpoint,
hands it to the pool as a ``self`` opponent, and evaluates it against fixed
agents (CSV, and TensorBoard when installed). A run directory holds
everything::

    RUN/settings.json         what was asked for (resume reads the copy inside the checkpoint)
    RUN/checkpoints/step_*.zip one per checkpoint, also the self-play pool
    RUN/latest.zip            the newest checkpoint
    RUN/best.zip              the best by mean evaluation win rate
    RUN/final.zip             the model at the end of the run
    RUN/final.npz, best.npz   their policies exported for play (``eights export``)
    RUN/eval.csv              evaluation history
    RUN/learning_curve.png    win rate against timesteps
    RUN/tb/                   TensorBoard logs (when tensorboard is installed)

``resume`` continues from a checkpoint (or a run directory's latest.zip)
with its optimizer state and timestep count, until ``timesteps`` in total.
The model is rebuilt from the run's settings and only tensors are read from
the checkpoint (``weights_only``; its pickled ``data`` member is never read),
so the hyperparameters are the settings', overrides included, and a change of
``net_arch``, ``activation`` or game options that changes the network is refused.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import time
from pathlib import Path
from typing import Any

from ..config import ConfigError
from ..engines import engine_class
from .checkpoints import ACTIVATION_MODULES, read_metadata, restore_checkpoint
from .opponents import SELF, OpponentPool
from .single_agent import SingleAgentEnv

VEC_KINDS = ("auto", "dummy", "subproc", "batched", "ray", "vector")
#: the hidden layers' activations a run may take (``--activation``)
ACTIVATIONS = tuple(ACTIVATION_MODULES)
#: evaluations a run makes when its checkpoint interval is not given, so that even a short
#: run draws a learning curve (a fixed 100,000 evaluated a 20,000-step run at 0 and the end);
#: five, and the one at the start: an early evaluation is the dearest (an untrained policy
#: plays games to the turn limit), and six points already show the curve
CHECKPOINTS_PER_RUN = 5
#: the default interval's ceiling: a long run need not spend more time evaluating than this
MAX_CHECKPOINT_EVERY = 100_000


@dataclasses.dataclass
class TrainSettings:
    """Everything a training run needs; ``eights train`` fills it from its flags."""

    variant: str = "crazy_eights"
    num_players: int = 2
    timesteps: int = 1_000_000
    out: str = "runs/crazy_eights-2p"
    seed: int = 0
    opponents: str = "heuristic@0.5,random@0.1,self@0.4"
    eval_opponents: str = "random,heuristic"
    eval_games: int = 200
    #: None: :meth:`checkpoint_interval` scales it to the run
    checkpoint_every: int | None = None
    max_snapshots: int = 5
    #: 32 envs of 64 steps: the same 2,048-decision rollout as 8 x 256, but the policy
    #: runs on batches four times larger, 1.2x more learner decisions per second with no
    #: loss in strength (docs/training.md, measured with benchmarks/compare_runs.py)
    n_envs: int = 32
    #: how the envs step: ``eights.vector``'s compiled tables, opponents in batches (vector:
    #: 1.77x the learner decisions per CPU-second of the trainer of 2026-11-24 in crazy_eights
    #: 2p, benchmarks/training_speed.py), all in this process with the opponents of all envs
    #: answering together (batched: the same episodes as dummy, 1.16x dummy), one after
    #: another (dummy), one process each (subproc), one Ray actor each (ray), or the default
    #: auto: vector where the run can take it, else batched (:func:`env_kind`)
    vec: str = "auto"
    #: with ``vec="ray"``: the Ray cluster the envs play on (None: a local Ray)
    ray_address: str | None = None
    n_steps: int = 64
    batch_size: int = 512
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    net_arch: tuple[int, ...] = (256, 256)
    #: the hidden layers' activation, ``tanh`` (stable-baselines3's default) or ``relu``
    activation: str = "tanh"
    threads: int = 1
    time_limit_minutes: float | None = None
    progress: bool = True
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: the env version whose observation layout the model reads (None: the newest; a
    #: checkpoint records the number, so resuming and playing it read the same layout)
    observation_version: int | None = None
    #: the value network also reads the hidden cards (:mod:`eights.training.critic`);
    #: the policy, what is exported and played, never does
    privileged_critic: bool = False
    #: draw opponents by how often they still beat the learner (:mod:`eights.training.league`)
    league: bool = False
    #: a policy to start from (an exported .npz, a checkpoint or a shipped model's name):
    #: its weights become the learner's policy network (the value network starts afresh)
    init: str | None = None
    #: the network also reads the observation's small counts as thresholds
    #: (:mod:`eights.agents.count_bins`); a plain ``init`` policy starts reading them with
    #: zero weights, so it plays as before until it learns to use them
    count_bins: bool = False

    def check(self) -> None:
        cls = engine_class(self.variant)
        if self.init is not None:
            self._check_init()
        if self.observation_version is None:
            self.observation_version = cls.observation_version()
        config = cls.Config.from_options(num_players=self.num_players, **self.options)
        cls.encoder(config, self.observation_version)  # refuses a version the variant lacks
        self.options = config.portable(self.options)  # a card_file's content: resuming reads
        # the settings a checkpoint holds, and loading a model never opens a path named in it
        positive = ("timesteps", "eval_games", "checkpoint_every", "max_snapshots", "n_envs",
                    "n_steps", "batch_size", "n_epochs", "threads")
        for name in positive:
            value = getattr(self, name)
            if name == "checkpoint_every" and value is None:
                continue
            if not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name}={value!r} is not allowed; use a positive integer")
        if self.vec not in VEC_KINDS:
            raise ConfigError(f"vec={self.vec!r} is not allowed; use one of {', '.join(VEC_KINDS)}")
        if self.ray_address is not None and self.vec != "ray":
            raise ConfigError("a Ray address needs vec ray (--vec ray)")
        if self.vec == "vector" and self.privileged_critic:
            raise ConfigError("vec vector does not write the privileged critic's hidden cards; "
                              "train --privileged-critic with --vec batched (or auto, the default)")
        if (self.n_steps * self.n_envs) % self.batch_size:
            raise ConfigError(f"batch_size={self.batch_size} must divide n_steps * n_envs = "
                              f"{self.n_steps * self.n_envs} (PPO minibatches)")
        if not self.net_arch or any(w < 1 for w in self.net_arch):
            raise ConfigError(f"net_arch={self.net_arch!r}: give layer widths, e.g. 256,256")
        if self.activation not in ACTIVATIONS:
            raise ConfigError(f"activation={self.activation!r} is not allowed; use one of "
                              f"{', '.join(ACTIVATIONS)}")
        for name in ("privileged_critic", "league", "count_bins"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name}={getattr(self, name)!r} is not allowed; use True "
                                  f"or False")
        if self.count_bins and self.privileged_critic:
            raise ConfigError("count bins and the privileged critic do not train together: the "
                              "critic's hidden cards follow the observation where the bins go; "
                              "leave one out")
        if self.time_limit_minutes is not None and self.time_limit_minutes <= 0:
            raise ConfigError("time_limit_minutes must be positive")
        OpponentPool.parse(self.opponents).check(self.variant)
        OpponentPool.parse(self.eval_opponents).check(self.variant)

    def init_policy(self) -> tuple[Any, dict[str, Any], Path]:
        """The :attr:`init` policy's network, metadata and file."""
        from ..agents.count_bins import reads_count_bins
        from ..agents.policy import NumpyPolicy, check_model, resolve_model
        from .checkpoints import checkpoint_of, read_policy

        path = resolve_model(str(self.init), self.variant, self.num_players)
        path = checkpoint_of(path)
        net, meta = NumpyPolicy.load(path) if path.suffix == ".npz" else read_policy(path)
        if reads_count_bins(meta, repr(str(path))):  # bind them: the run must know
            check_model(net, meta, self.variant, path)
        return net, meta, path

    def _check_init(self) -> None:
        """The init policy must play this table: its variant and config, its network the
        shape of ``net_arch``; its observation version is the run's unless one is given."""
        from ..agents.policy import check_model, observation_version

        net, meta, path = self.init_policy()
        config = check_model(net, meta, self.variant, path)
        cls = engine_class(self.variant)
        wanted = cls.Config.from_options(num_players=self.num_players, **self.options)
        if config.to_dict() != wanted.to_dict():
            raise ConfigError(f"init policy {str(path)!r} plays the config {config.to_dict()}, "
                              f"not this run's {wanted.to_dict()}")
        version = observation_version(meta, repr(str(path)))
        if self.observation_version is None:
            self.observation_version = version
        elif self.observation_version != version:
            raise ConfigError(f"init policy {str(path)!r} reads observation version {version}, "
                              f"not {self.observation_version}; leave --observation-version "
                              f"out to take the policy's")
        hidden = tuple(w.shape[1] for w, _ in net.layers[:-1])
        if hidden != tuple(self.net_arch):
            raise ConfigError(f"init policy {str(path)!r} has hidden layers "
                              f"{','.join(map(str, hidden))}, not net_arch "
                              f"{','.join(map(str, self.net_arch))}; give --net-arch "
                              f"{','.join(map(str, hidden))}")
        if net.count_bins is not None and not self.count_bins:
            raise ConfigError(f"init policy {str(path)!r} reads count bins; give --count-bins "
                              f"to train it on")
        if net.activation != self.activation:
            raise ConfigError(f"init policy {str(path)!r} uses the activation "
                              f"{net.activation}, not {self.activation}; give --activation "
                              f"{net.activation}")

    def checkpoint_interval(self) -> int:
        """Timesteps between checkpoints: ``checkpoint_every`` when given, else a fifth of
        ``timesteps`` (:data:`CHECKPOINTS_PER_RUN`), at least one PPO rollout (the policy
        changes only once a rollout) and at most :data:`MAX_CHECKPOINT_EVERY`."""
        if self.checkpoint_every is not None:
            return self.checkpoint_every
        rollout = self.n_envs * self.n_steps
        share = -(-self.timesteps // CHECKPOINTS_PER_RUN)
        return min(MAX_CHECKPOINT_EVERY, max(rollout, share))

    def game_options(self) -> dict[str, Any]:
        return {"num_players": self.num_players, **self.options}

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["net_arch"] = list(self.net_arch)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainSettings:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown training settings {unknown}")
        data = dict(data)
        # a run from before the v2 envs trained on the v1 layout
        data.setdefault("observation_version", 1)
        if "net_arch" in data:
            data["net_arch"] = tuple(data["net_arch"])
        return cls(**data)


@dataclasses.dataclass
class TrainResult:
    run_dir: Path
    final: Path
    best: Path | None
    timesteps: int
    seconds: float
    evaluations: list[dict[str, Any]]


def make_env_fns(settings: TrainSettings, pool_text: str) -> list:
    """Factories of the seeded single-agent envs (picklable for ``SubprocVecEnv``)."""
    return [_EnvFactory(settings.variant, pool_text, settings.max_snapshots,
                        settings.game_options(), settings.seed + i,
                        settings.observation_version, settings.privileged_critic)
            for i in range(settings.n_envs)]


def env_kind(settings: TrainSettings) -> str:
    """The vector env a run steps: ``settings.vec``, with ``auto`` resolved.

    ``auto`` is ``vector`` where the compiled tables can play the whole run: no privileged
    critic (the tables do not write hidden cards), every opponent of the pool a kind the
    tables answer in batches (``self`` snapshots are policies), and a compiled core for
    the variant, its options and the observation version; else ``batched``, which plays
    anything.
    """
    if settings.vec != "auto":
        return settings.vec
    from ..vector.opponents import BATCHED, spec_kind
    from ..vector.tables import CompiledTables

    if settings.privileged_critic:
        return "batched"
    pool = OpponentPool.parse(settings.opponents, max_snapshots=settings.max_snapshots)
    if any(spec != SELF and spec_kind(spec) not in BATCHED for spec, _ in pool.entries):
        return "batched"
    try:  # refused: no core for the variant, an option it does not play
        CompiledTables(settings.variant, 1, settings.observation_version,
                       **settings.game_options())
    except ConfigError:
        return "batched"
    return "vector"


def vector_env(settings: TrainSettings) -> Any:
    """The run's envs as ``eights.vector`` tables (``--vec vector``): ``n_envs`` tables, the
    opponents drawn from the run's pool at every game and answering in batches."""
    from ..vector import make
    from ..vector.adapters import sb3_vec_env

    pool = OpponentPool.parse(settings.opponents, max_snapshots=settings.max_snapshots)
    return sb3_vec_env(make(settings.variant, settings.n_envs, pool, seed=settings.seed,
                            version=settings.observation_version, **settings.game_options()))


class _EnvFactory:
    def __init__(self, variant: str, pool: str, max_snapshots: int, options: dict, seed: int,
                 version: int | None = None, privileged: bool = False):
        self.variant, self.pool, self.max_snapshots = variant, pool, max_snapshots
        self.options, self.seed, self.version = options, seed, version
        self.privileged = privileged

    def __call__(self) -> SingleAgentEnv:
        env = SingleAgentEnv(self.variant,
                             OpponentPool.parse(self.pool, max_snapshots=self.max_snapshots),
                             version=self.version, privileged=self.privileged, **self.options)
        env.reset(seed=self.seed)
        return env


def policy_class(privileged_critic: bool, observation_size: int) -> tuple[Any, dict[str, Any]]:
    """MaskablePPO's policy and its extra keywords: the MLP (sb3-contrib's network, at less
    cost a step: :mod:`eights.training.policies`), or with a privileged critic the policy
    whose policy network reads the first ``observation_size`` features."""
    if not privileged_critic:
        from .policies import MaskedMlpPolicy

        return MaskedMlpPolicy, {}
    from .critic import PrivilegedCriticPolicy

    return PrivilegedCriticPolicy, {"observation_size": observation_size}


def _resume_path(resume: str) -> Path:
    path = Path(resume)
    if path.is_dir():
        path = path / "latest.zip"
    if not path.is_file():
        raise ConfigError(f"resume: {resume!r} is neither a checkpoint nor a run directory "
                          f"with latest.zip")
    return path


def train(settings: TrainSettings, console: Any = None,
          resume_from: Path | None = None) -> TrainResult:
    """Run a training run, or resume one from the checkpoint ``resume_from``.

    See the module docstring for what the run directory holds.
    """
    from ..extras import require_extra

    require_extra("train", "training")
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import set_random_seed
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    from .monitor import TrainingMonitor

    settings.check()
    settings = dataclasses.replace(settings, vec=env_kind(settings))
    run_dir = Path(settings.out)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "settings.json").write_text(json.dumps(settings.to_dict(), indent=2))
    torch.set_num_threads(settings.threads)
    set_random_seed(settings.seed)

    from .batched import BatchedOpponentsVecEnv

    def on_ray(fns: list) -> Any:
        from .ray_vec import RayVecEnv

        return RayVecEnv(fns, settings.ray_address)

    if settings.vec == "vector":  # its adapter reports each game's "episode" itself
        vec_env = vector_env(settings)
    else:
        vec_cls = {"dummy": DummyVecEnv, "subproc": SubprocVecEnv,
                   "batched": BatchedOpponentsVecEnv, "ray": on_ray}[settings.vec]
        vec_env = VecMonitor(vec_cls(make_env_fns(settings, settings.opponents)))
    bins = None
    if settings.count_bins:
        from ..agents.count_bins import CountBins
        from .count_bins_env import CountBinsVecEnv

        bins = CountBins.for_variant(
            settings.variant, engine_class(settings.variant).Config.from_options(
                **settings.game_options()), settings.observation_version)
        vec_env = CountBinsVecEnv(vec_env, bins)
    tb_dir = str(run_dir / "tb") if importlib.util.find_spec("tensorboard") else None
    cls = engine_class(settings.variant)
    observation_size = cls.encoder(cls.Config.from_options(**settings.game_options()),
                                   settings.observation_version).size
    policy, policy_kwargs = policy_class(settings.privileged_critic, observation_size)
    model = MaskablePPO(
        policy, vec_env, n_steps=settings.n_steps, batch_size=settings.batch_size,
        n_epochs=settings.n_epochs, learning_rate=settings.learning_rate,
        gamma=settings.gamma, gae_lambda=settings.gae_lambda, ent_coef=settings.ent_coef,
        policy_kwargs={"net_arch": list(settings.net_arch),
                       "activation_fn": getattr(torch.nn,
                                                ACTIVATION_MODULES[settings.activation]),
                       **policy_kwargs},
        seed=settings.seed, device="cpu", verbose=0, tensorboard_log=tb_dir,
    )
    if bins is not None:  # what checkpoints record: these inputs are bins, not observation
        model.policy.count_bins = bins.size
    if resume_from is None and settings.init is not None:
        from .checkpoints import load_policy_weights

        net = settings.init_policy()[0]
        if bins is not None and net.count_bins is None:
            net = net.with_count_bins(bins)
        load_policy_weights(model, net)
    if resume_from is not None:
        # the model is built from the run's settings; only tensors come from the file
        try:
            restore_checkpoint(model, resume_from)
        except BaseException:
            vec_env.close()
            raise
        if model.num_timesteps >= settings.timesteps:
            vec_env.close()
            raise ConfigError(f"the checkpoint has trained {model.num_timesteps} timesteps "
                              f"already; ask for more than that with --timesteps")
    monitor = TrainingMonitor(settings, run_dir, observation_size, console=console)
    # numpy's BLAS (the opponents' and evaluations' policies) gets the same threads: by
    # default OpenBLAS spreads a product of a few rows over every core, and on a busy
    # machine that took 7.7 ms for 8 rows against 78 us on one thread
    from threadpoolctl import threadpool_limits

    blas = threadpool_limits(settings.threads, user_api="blas")
    started = time.perf_counter()
    try:
        model.learn(total_timesteps=settings.timesteps - model.num_timesteps,
                    callback=monitor, reset_num_timesteps=resume_from is None,
                    tb_log_name="ppo")
    finally:
        vec_env.close()
        blas.restore_original_limits()
    final = monitor.finish(model)
    return TrainResult(run_dir, final, monitor.best_path, model.num_timesteps,
                       time.perf_counter() - started, monitor.evaluations)


def resume_settings(resume: str, overrides: dict[str, Any]) -> tuple[TrainSettings, Path]:
    """The settings of the run a checkpoint belongs to, with ``overrides`` applied.

    Returns the settings and the checkpoint to pass to :func:`train` as ``resume_from``.
    """
    path = _resume_path(resume)
    meta = read_metadata(path)
    saved = meta.get("training")
    if not saved:
        raise ConfigError(f"{str(path)!r} has no training settings to resume from")
    if isinstance(saved, dict):
        engine_class(saved.get("variant", "crazy_eights")).Config.refuse_files(
            saved.get("options") or {}, f"the training settings in {str(path)!r}")
    settings = TrainSettings.from_dict(saved)
    for key, value in overrides.items():
        if key in ("variant", "num_players") and value != getattr(settings, key):
            raise ConfigError(f"cannot resume a {settings.num_players}-player "
                              f"{settings.variant} checkpoint as {key}={value!r}")
        if key == "activation" and value != settings.activation:
            raise ConfigError(f"cannot resume a checkpoint whose network uses "
                              f"{settings.activation} with activation={value!r}")
        if key == "count_bins" and value != settings.count_bins:
            raise ConfigError(f"cannot resume a checkpoint whose network reads "
                              f"{'count bins' if settings.count_bins else 'no count bins'} "
                              f"with count_bins={value!r}; start a new run from it with "
                              f"--init {str(path)!r}")
        setattr(settings, key, value)
    return settings, path


__all__ = ["CHECKPOINTS_PER_RUN", "MAX_CHECKPOINT_EVERY", "VEC_KINDS", "TrainResult",
           "TrainSettings", "make_env_fns", "policy_class", "resume_settings", "train"]
