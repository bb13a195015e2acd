"""Expert iteration: a search labels the learner's positions, the network learns its labels.

Expert iteration (Anthony, Tian & Barber, "Thinking Fast and Slow with Deep
Learning and Tree Search", NeurIPS 2017) improves a policy network with a
search that uses it: the search, guided by the network, plays better than the
network alone, so training the network toward the search's choices makes it
better, and the better network guides a better search. Each iteration of
:func:`distill`:

1. **plays** ``games`` games from the learner's seat (rotating), the
   learner sampling from its current policy and the other seats drawn from
   ``opponents`` (``self`` is the current policy); at each of the learner's
   decisions with a choice, **the search labels the position**: ISMCTS from
   the learner's view with the current policy as its prior (the spec's
   ``prior=`` is set to it, :mod:`eights.agents.ismcts`) gives its visit
   counts, and the game's end gives the outcome for the learner's seat. A
   ``core=compiled`` search labels without the prior (:func:`teacher`): the
   policy then imitates a search stronger than it on its own (DAgger, Ross,
   Gordon & Bagnell 2011: the learner's own positions, the expert's labels);
2. **trains** the network on the labels of the last ``window`` iterations
   (earlier runs' saved labels first, with ``labels_from``):
   the policy toward the search's visit distribution (cross-entropy over the
   legal actions) and the value toward the outcomes (squared error, weighted
   by ``value_weight``), with the checkpoint's own optimizer;
3. **checkpoints** the network (a checkpoint ``eights train`` could resume
   from, with a ``distillation`` record in its ``eights.json``), exports its
   policy, and **evaluates** it against ``eval_opponent`` on the deals
   ``eights train`` evaluates on; ``distill.csv`` keeps the curve and
   ``best.zip`` the best iteration.

The labelling games are independent, so they run on ``backend``: ``serial``
(this process), ``process`` (a pool of ``workers`` processes) or ``ray``
(tasks on a Ray cluster at ``ray_address``, or on a local Ray). Every game's
deal and randomness come from its seed, so the labels are the same on every
backend. A checkpoint trained with a privileged critic gets its value labels
with the privileged features of the labelled position
(:mod:`eights.training.privileged`). ``time_limit_minutes`` stops the run
between iterations (an iteration is never cut, so its labels are not lost).

The run directory::

    OUT/settings.json              what was asked for
    OUT/checkpoints/iter_NNN.zip   one per iteration (iter_000: the start)
    OUT/iter_NNN.npz               their exported policies, what the search is guided by
    OUT/labels/iter_NNN.npz        each iteration's labels (``labels_from`` reuses them)
    OUT/labels/about.json          what they fit: variant, table, observation, search
    OUT/distill.csv                per iteration: positions, losses (and on the new labels
                                   before training on them, :func:`fresh_fit`), evaluation
    OUT/best.zip, best.npz         the best iteration by its evaluation
    OUT/final.zip, final.npz       the last
"""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..config import ConfigError
from ..engines import engine_class

if TYPE_CHECKING:
    from ..agents.ismcts import ISMCTSAgent

BACKENDS = ("serial", "process", "ray")
#: what a checkpoint's eights.json says of its network: written again from the network itself
NETWORK_KEYS = ("format", "net_arch", "activation", "actions", "privileged_features")
#: first deal of the labelling games: apart from training's own deals and its evaluation's
LABEL_SEED = 3_000_000_000
#: deals per (seed, iteration): a run may label up to this many games an iteration
GAMES_PER_ITERATION_MAX = 100_000
CSV_FIELDS = ("iteration", "seconds", "games", "positions", "policy_loss", "value_loss",
              "fresh_policy_loss", "agreement", "fresh_value_loss",
              "opponent", "eval_games", "win_rate", "ci_low", "ci_high")


@dataclasses.dataclass
class DistillSettings:
    """Everything an expert-iteration run needs; ``eights distill`` fills it from its flags."""

    #: an ``eights train`` checkpoint or run directory (its best.zip, else final, else
    #: latest), or an exported policy (.npz) or shipped model's name, whose value network
    #: then starts afresh
    start: str = ""
    out: str = "runs/distill"
    #: the search that labels, an ``ismcts`` spec without ``prior`` (the current policy)
    search: str = "ismcts:sims=50"
    opponents: str = "heuristic,self"
    games: int = 32
    iterations: int = 10
    epochs: int = 4
    batch_size: int = 256
    learning_rate: float = 1e-4
    value_weight: float = 0.5
    window: int = 3
    eval_games: int = 200
    eval_opponent: str = "heuristic"
    seed: int = 0
    time_limit_minutes: float | None = None
    backend: str = "serial"
    workers: int | None = None
    ray_address: str | None = None
    #: earlier runs' directories whose saved labels (``labels/``) start the window: a
    #: compiled search's labels do not depend on the policy, so they stay good for a
    #: network of the same variant, table and observation
    labels_from: tuple[str, ...] = ()
    progress: bool = True

    def check(self) -> None:
        if not self.start:
            raise ConfigError("distill needs a checkpoint to start from: a .zip written by "
                              "eights train, or its run directory")
        for name in ("games", "iterations", "epochs", "batch_size", "window", "eval_games"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name}={value!r} is not allowed; use a positive integer")
        if self.games > GAMES_PER_ITERATION_MAX:
            raise ConfigError(f"games={self.games} is not allowed; at most "
                              f"{GAMES_PER_ITERATION_MAX:,} labelling games an iteration")
        for name in ("learning_rate", "value_weight"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not value >= 0 or value != value:
                raise ConfigError(f"{name}={value!r} is not allowed; use a number >= 0")
        if self.time_limit_minutes is not None and not self.time_limit_minutes > 0:
            raise ConfigError("time_limit_minutes must be positive")
        if self.backend not in BACKENDS:
            raise ConfigError(f"backend={self.backend!r} is not allowed; use one of "
                              f"{', '.join(BACKENDS)}")
        if self.ray_address is not None and self.backend != "ray":
            raise ConfigError("a Ray address needs backend ray")
        if self.workers is not None and (isinstance(self.workers, bool) or self.workers < 1):
            raise ConfigError(f"workers={self.workers!r} is not allowed; use a positive integer")
        kind, _, arg = self.search.partition(":")
        if kind != "ismcts":
            raise ConfigError(f"search={self.search!r} is not allowed; the labelling search "
                              f"is an ismcts spec, e.g. ismcts:sims=50")
        if "prior=" in arg:
            raise ConfigError(f"search={self.search!r}: leave prior out; the search is "
                              f"guided by the policy being distilled")


@dataclasses.dataclass(frozen=True)
class LabelTask:
    """One batch of labelling games, all a worker needs (picklable)."""

    variant: str
    options: dict[str, Any]
    model: str
    search: str
    opponents: str
    seeds: tuple[int, ...]
    observation_version: int
    privileged: bool


@dataclasses.dataclass
class Labels:
    """What the search said at the learner's positions, and how each game ended."""

    obs: np.ndarray
    masks: np.ndarray
    targets: np.ndarray
    outcomes: np.ndarray
    games: int

    @classmethod
    def concat(cls, parts: Sequence[Labels]) -> Labels:
        return cls(*(np.concatenate([getattr(p, f) for p in parts])
                     for f in ("obs", "masks", "targets", "outcomes")),
                   games=sum(p.games for p in parts))

    def __len__(self) -> int:
        return len(self.outcomes)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, obs=self.obs, masks=self.masks, targets=self.targets,
                            outcomes=self.outcomes, games=np.int64(self.games))

    @classmethod
    def load(cls, path: Path) -> Labels:
        with np.load(path) as data:
            return cls(data["obs"], data["masks"], data["targets"], data["outcomes"],
                       games=int(data["games"]))


#: what a run's ``labels/about.json`` records: what its labels fit
LABEL_KEYS = ("variant", "config", "observation_version", "privileged", "search")


def reused_labels(run_dirs: Sequence[str], about: dict[str, Any]) -> list[Labels]:
    """The saved labels of earlier runs, each iteration's in order, if they fit a network
    described by ``about`` (:data:`LABEL_KEYS`): the same variant, table, observation and
    privileged features, and a compiled search (a guided search's labels describe the
    policy that guided it, not the one being trained now)."""
    found: list[Labels] = []
    for run_dir in run_dirs:
        folder = Path(run_dir) / "labels"
        info = folder / "about.json"
        if not info.is_file():
            raise ConfigError(f"labels from {run_dir!r}: no {info} (a distill run saves its "
                              f"labels there)")
        saved = json.loads(info.read_text())
        for key in LABEL_KEYS[:-1]:
            if saved.get(key) != json.loads(json.dumps(about[key])):  # as saved: lists
                raise ConfigError(f"labels from {run_dir!r} were made for {key} "
                                  f"{saved.get(key)!r}, this run trains {about[key]!r}")
        if "core=compiled" not in saved.get("search", ""):
            raise ConfigError(f"labels from {run_dir!r} are a policy-guided search's "
                              f"({saved.get('search')!r}); only a core=compiled search's "
                              f"labels can train another policy")
        found.extend(Labels.load(f) for f in sorted(folder.glob("iter_*.npz")))
    return found


def teacher(search: str, model: str, variant: str) -> ISMCTSAgent:
    """The search that labels: ISMCTS guided by the policy being distilled (``prior=``), or,
    with ``core=compiled``, the compiled search on its own (the compiled core evaluates no
    network, and runs tens of times the simulations in the same time): then the policy
    learns to imitate a search that is stronger than it without its help."""
    from ..agents.ismcts import ismcts_from_spec

    arg = search.partition(":")[2]
    agent = ismcts_from_spec(arg, variant=variant)
    if agent.core == "compiled":
        return agent
    return ismcts_from_spec(",".join(filter(None, (arg, f"prior={model}"))), variant=variant)


def label_games(task: LabelTask) -> Labels:
    """Play ``task``'s games and label the learner's positions (the module docstring, 1)."""
    from ..agents.policy import PolicyAgent
    from .opponents import OpponentPool
    from .privileged import PrivilegedFeatures

    cls = engine_class(task.variant)
    config = cls.Config.from_options(**task.options)
    n = config.num_players
    encoder = cls.encoder(config, task.observation_version)
    privileged = PrivilegedFeatures(task.variant, config) if task.privileged else None
    learner = PolicyAgent(task.variant, f"{task.model}?sample")
    search = teacher(task.search, task.model, task.variant)
    pool = OpponentPool.parse(task.opponents)
    pool.set_snapshots([task.model])
    obs, masks, targets, outcomes = [], [], [], []
    for seed in task.seeds:
        rng = np.random.default_rng(seed)
        seat = seed % n
        opponents = pool.draw(task.variant, n - 1, rng)
        learner.seed(seed)
        search.seed(seed + 1)
        game = cls(config, seed=seed)
        first = len(outcomes)
        while not game.game_over:
            p = game.current_player
            view = game.view(p)
            if p != seat:
                game.step(opponents[(p - seat - 1) % n].act(view))
                continue
            if len(view.legal_actions) > 1:
                visits = search.visit_counts(view)
                seen = encoder.encode(game, seat)
                if privileged is not None:
                    seen = np.concatenate((seen, privileged.encode(game, seat)))
                mask = np.zeros(len(visits), dtype=bool)
                mask[list(view.legal_actions)] = True
                obs.append(seen)
                masks.append(mask)
                targets.append((visits / visits.sum()).astype(np.float32))
                outcomes.append(0.0)
            game.step(learner.act(view))
        result = float(game.returns()[seat])
        for k in range(first, len(outcomes)):
            outcomes[k] = result
    size = encoder.size + (privileged.size if privileged is not None else 0)
    actions = len(cls.actions)
    return Labels(np.asarray(obs, dtype=np.float32).reshape(-1, size),
                  np.asarray(masks, dtype=bool).reshape(-1, actions),
                  np.asarray(targets, dtype=np.float32).reshape(-1, actions),
                  np.asarray(outcomes, dtype=np.float32), games=len(task.seeds))


def fit(model: Any, data: Labels, settings: DistillSettings,
        rng: np.random.Generator) -> tuple[float, float]:
    """Train ``model``'s policy toward ``data``'s visit distributions and its value toward
    the outcomes; the mean policy and value losses of the last epoch."""
    import torch as th

    policy = model.policy
    policy.set_training_mode(True)
    optimizer = policy.optimizer
    for group in optimizer.param_groups:
        group["lr"] = settings.learning_rate
    obs, masks = th.as_tensor(data.obs), th.as_tensor(data.masks)
    targets, outcomes = th.as_tensor(data.targets), th.as_tensor(data.outcomes)
    losses = (0.0, 0.0)
    for _ in range(settings.epochs):
        order = rng.permutation(len(data))
        sums, batches = [0.0, 0.0], 0
        for start in range(0, len(order), settings.batch_size):
            idx = th.as_tensor(order[start:start + settings.batch_size])
            logits, latent_vf = _masked_logits(policy, obs[idx], masks[idx])
            policy_loss = -(targets[idx] * th.log_softmax(logits, -1)).sum(-1).mean()
            value_loss = th.nn.functional.mse_loss(policy.value_net(latent_vf).flatten(),
                                                   outcomes[idx])
            loss = policy_loss + settings.value_weight * value_loss
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            sums[0] += policy_loss.item()
            sums[1] += value_loss.item()
            batches += 1
        losses = (sums[0] / batches, sums[1] / batches)
    policy.set_training_mode(False)
    return losses


def fresh_fit(model: Any, data: Labels) -> tuple[float, float, float]:
    """How well the network knows labels it has not trained on: the policy's cross-entropy
    to them, how often its likeliest action is the search's most visited, and the value
    network's squared error to the games' outcomes. Taken on each iteration's new labels
    before the network trains on them, so a loss that falls only on the window it trains
    on (memorised) shows apart from one that falls here (learned)."""
    import torch as th

    policy = model.policy
    policy.set_training_mode(False)
    with th.no_grad():
        targets = th.as_tensor(data.targets)
        logits, latent_vf = _masked_logits(policy, th.as_tensor(data.obs),
                                           th.as_tensor(data.masks))
        loss = -(targets * th.log_softmax(logits, -1)).sum(-1).mean().item()
        agreement = (logits.argmax(-1) == targets.argmax(-1)).float().mean().item()
        value_loss = th.nn.functional.mse_loss(policy.value_net(latent_vf).flatten(),
                                               th.as_tensor(data.outcomes)).item()
    return loss, agreement, value_loss


def _masked_logits(policy: Any, obs: Any, masks: Any) -> tuple[Any, Any]:
    """The policy's logits over the actions, the illegal ones masked out, and the value
    network's latent (for the value loss)."""
    latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(obs))
    return policy.action_net(latent_pi).masked_fill(~masks, -1e9), latent_vf


@dataclasses.dataclass
class DistillResult:
    run_dir: Path
    final: Path
    best: Path
    iterations: int
    seconds: float
    rows: list[dict[str, Any]]


def distill(settings: DistillSettings, console: Any = None) -> DistillResult:
    """Run expert iteration from ``settings.start``; see the module docstring."""
    from ..extras import require_extra

    require_extra("train", "eights distill")
    import torch

    from ..agents.count_bins import reads_count_bins
    from ..agents.ismcts import ismcts_from_spec
    from ..agents.policy import NumpyPolicy, PolicyAgent, check_model, observation_version
    from ..progress import ProgressReport
    from .checkpoints import (
        checkpoint_of,
        export_policy,
        load_model,
        model_from_policy,
        read_metadata,
        save_checkpoint,
    )
    from .evaluate import evaluate
    from .monitor import EVAL_SEED
    from .opponents import OpponentPool

    settings.check()
    start = _start_path(settings.start, checkpoint_of)
    if start.suffix == ".npz":  # a policy alone: its value network starts afresh
        model, meta = model_from_policy(start)
        meta = {k: v for k, v in meta.items() if k not in ("layers", "activation")}
    else:
        meta = read_metadata(start)
        model = load_model(start, for_training=True)
    if reads_count_bins(meta, repr(str(start))):
        raise ConfigError(f"{str(start)!r} reads count bins; eights distill trains on the "
                          f"observation alone: start it from a model without them, or train "
                          f"this one on with eights train --resume")
    check_model(NumpyPolicy.from_sb3(model.policy), meta, meta.get("variant", ""), start)
    variant = meta["variant"]
    options = dict(meta["config"])
    version = observation_version(meta)
    OpponentPool.parse(settings.opponents).check(variant)
    # a spec the variant refuses fails here, not in the first labelling worker
    ismcts_from_spec(settings.search.partition(":")[2], variant=variant)
    run_dir = Path(settings.out)
    if any(Path(d).resolve() == run_dir.resolve() for d in settings.labels_from):
        raise ConfigError(f"labels from {settings.out!r}: the run's own directory, whose "
                          f"labels it overwrites; write the new run to another --out")
    about = {"variant": variant, "config": options, "observation_version": version,
             "privileged": bool(meta.get("privileged_features")), "search": settings.search}
    window: list[Labels] = reused_labels(settings.labels_from, about)
    torch.set_num_threads(1)
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    (run_dir / "settings.json").write_text(json.dumps(dataclasses.asdict(settings), indent=2))
    csv_path = run_dir / "distill.csv"
    if csv_path.exists():
        csv_path.unlink()
    label_dir = run_dir / "labels"
    label_dir.mkdir(exist_ok=True)
    for old_labels in label_dir.glob("iter_*.npz"):
        old_labels.unlink()
    (label_dir / "about.json").write_text(json.dumps(about, indent=2))
    log = console.log if console is not None else (lambda *a: None)
    started = time.perf_counter()
    rng = np.random.default_rng(settings.seed)
    rows: list[dict[str, Any]] = []
    best: tuple[float, int] = (-1.0, 0)

    def checkpoint(iteration: int, extra: dict[str, Any]) -> Path:
        record = {"iteration": iteration, "from": start.name, "search": settings.search,
                  "opponents": settings.opponents, **extra}
        path = save_checkpoint(model, run_dir / "checkpoints" / f"iter_{iteration:03d}.zip",
                               {**{k: v for k, v in meta.items() if k not in NETWORK_KEYS},
                                "distillation": record})
        return export_policy(path, run_dir / f"iter_{iteration:03d}.npz")

    def measure(iteration: int, npz: Path, games: int, positions: int,
                losses: tuple[float, float] | None,
                fresh: tuple[float, float] | None) -> None:
        nonlocal best
        agent = PolicyAgent(variant, str(npz))
        result = evaluate(agent, settings.eval_opponent, variant, settings.eval_games,
                          seed=EVAL_SEED, **options)
        low, high = result.interval()
        row = {"iteration": iteration, "seconds": round(time.perf_counter() - started, 1),
               "games": games, "positions": positions,
               "policy_loss": "" if losses is None else round(losses[0], 4),
               "value_loss": "" if losses is None else round(losses[1], 4),
               "fresh_policy_loss": "" if fresh is None else round(fresh[0], 4),
               "agreement": "" if fresh is None else round(fresh[1], 4),
               "fresh_value_loss": "" if fresh is None else round(fresh[2], 4),
               "opponent": settings.eval_opponent, "eval_games": result.games,
               "win_rate": round(result.win_rate, 4), "ci_low": round(low, 4),
               "ci_high": round(high, 4)}
        with open(csv_path, "a", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
            if handle.tell() == 0:
                writer.writeheader()
            writer.writerow(row)
        rows.append(row)
        if result.win_rate > best[0]:
            best = (result.win_rate, iteration)
        what = (f"{positions:,} positions from {games} games, "
                f"{fresh[1]:.1%} of them on the search's choice before training"
                if fresh is not None else f"the start, {start.name}")
        log(f"iteration {iteration} ({what}): win rate vs {settings.eval_opponent} "
            f"{result.win_rate:.1%} [{low:.1%}, {high:.1%}]")

    current = checkpoint(0, {"positions": 0})
    measure(0, current, 0, 0, None, None)
    if window:
        log(f"{sum(len(w) for w in window):,} labelled positions reused from "
            f"{', '.join(settings.labels_from)}")
    done = 0
    with _mapper(settings) as run_tasks:
        for iteration in range(1, settings.iterations + 1):
            limit = settings.time_limit_minutes
            if limit is not None and time.perf_counter() - started >= 60.0 * limit:
                log(f"time limit of {limit:g} minutes reached after {done} iterations")
                break
            seeds = [LABEL_SEED + settings.seed * settings.iterations * GAMES_PER_ITERATION_MAX
                     + (iteration - 1) * GAMES_PER_ITERATION_MAX + g
                     for g in range(settings.games)]
            tasks = [LabelTask(variant, options, str(current), settings.search,
                               settings.opponents, tuple(chunk), version,
                               bool(meta.get("privileged_features")))
                     for chunk in _chunks(seeds, _parts(settings))]
            progress = ProgressReport(f"labelling, iteration {iteration}", settings.games,
                                      console=console, enabled=settings.progress)
            parts = []
            with progress:
                for labels in run_tasks(label_games, tasks):
                    parts.append(labels)
                    progress.update(sum(p.games for p in parts))
            labels = Labels.concat(parts)
            labels.save(label_dir / f"iter_{iteration:03d}.npz")
            window = [*window, labels][-settings.window:]
            fresh = fresh_fit(model, labels)
            losses = fit(model, Labels.concat(window), settings, rng)
            current = checkpoint(iteration, {"positions": len(labels),
                                             "policy_loss": round(losses[0], 4),
                                             "value_loss": round(losses[1], 4)})
            measure(iteration, current, labels.games, len(labels), losses, fresh)
            done = iteration
    last = run_dir / "checkpoints" / f"iter_{done:03d}.zip"
    for name, source in (("final", last),
                         ("best", run_dir / "checkpoints" / f"iter_{best[1]:03d}.zip")):
        shutil.copyfile(source, run_dir / f"{name}.zip")
        shutil.copyfile(source.parent.parent / f"{source.stem}.npz", run_dir / f"{name}.npz")
    return DistillResult(run_dir, run_dir / "final.zip", run_dir / "best.zip", done,
                         time.perf_counter() - started, rows)


def _start_path(start: str, checkpoint_of: Callable[[str], Path]) -> Path:
    """The file to start from: a checkpoint or an exported policy, a run directory's best
    checkpoint, or a shipped model's name (``crazy_eights-2p``)."""
    path = Path(start)
    if path.exists():
        return checkpoint_of(path)
    from ..agents.policy import MODELS_DIR, shipped_models

    for suffix in (".zip", ".npz"):
        if (MODELS_DIR / f"{start}{suffix}").is_file():
            return MODELS_DIR / f"{start}{suffix}"
    raise ConfigError(f"start {start!r} is neither a checkpoint, an exported policy, a run "
                      f"directory nor a shipped model ({', '.join(shipped_models())})")


def _parts(settings: DistillSettings) -> int:
    """How many tasks an iteration's games are split into: one per worker, and more for
    the pools so a slow batch does not hold the others up."""
    if settings.backend == "serial":
        return 1
    return min(settings.games, 4 * (settings.workers or _default_workers()))


def _default_workers() -> int:
    from ..tournament.backends import default_workers

    return default_workers()


def _chunks(items: Sequence[int], parts: int) -> list[list[int]]:
    size = -(-len(items) // parts)
    return [list(items[k:k + size]) for k in range(0, len(items), size)]


class _mapper:
    """A context giving ``run(fn, tasks)``: the results of ``fn`` over ``tasks``, in the
    tasks' order (so every backend trains on the same labels in the same order), on the
    settings' backend; the pool or the Ray connection lives as long as the run."""

    def __init__(self, settings: DistillSettings):
        self.settings = settings
        self._close: Callable[[], None] = lambda: None

    def __enter__(self) -> Callable[[Callable, Sequence], Iterator]:
        backend, workers = self.settings.backend, self.settings.workers
        if backend == "serial":
            return lambda fn, tasks: map(fn, tasks)
        if backend == "process":
            from ..tournament.backends import watched_pool

            pool = watched_pool(workers or _default_workers())  # gone when this run is
            self._close = lambda: pool.shutdown(wait=True, cancel_futures=True)
            return lambda fn, tasks: pool.map(fn, tasks)
        from ..extras import connect_ray

        ray, started = connect_ray(self.settings.ray_address, workers or _default_workers(),
                                   "distill's ray backend")
        if started:
            self._close = ray.shutdown

        def run(fn: Callable, tasks: Sequence) -> Iterator:
            remote = ray.remote(num_cpus=1)(fn)
            for ref in [remote.remote(t) for t in tasks]:  # in order: the same labels anywhere
                yield ray.get(ref)

        return run

    def __exit__(self, *exc: Any) -> None:
        self._close()


__all__ = ["BACKENDS", "DistillResult", "DistillSettings", "LabelTask", "Labels", "distill",
           "fit", "fresh_fit", "label_games", "reused_labels", "teacher"]
