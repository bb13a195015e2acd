"""The training callback: progress, checkpoints, the self-play pool, evaluation, curves.

stable-baselines3 calls :class:`TrainingMonitor` after every vectorized
step. Every ``settings.checkpoint_interval()`` timesteps (and once at the
start, so the learning curve begins at the untrained policy) it

1. writes ``checkpoints/step_<timesteps>.zip`` and ``latest.zip`` atomically;
2. hands the newest checkpoints to every env's opponent pool (``self``);
3. evaluates the checkpoint against each evaluation opponent on fixed deals
   and appends the rates to ``eval.csv`` (and TensorBoard's ``eval/`` tags); the
   log line says how many games were truncated (cut at the turn limit, counted
   as not won), so a low rate from unfinished games is not read as losses;
4. keeps ``best.zip``, the checkpoint with the best mean evaluation rate.

A ``time_limit_minutes`` budget stops training cleanly at the next step.

Progress is an :class:`~eights.progress.ProgressReport`: a live bar on a
terminal, and plain ``steps`` lines (done, rate, time left) when the output
is a log or a pipe, where a live bar would show nothing.
"""

from __future__ import annotations

import csv
import shutil
import time
from pathlib import Path
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

from .. import __version__
from ..agents.policy import PolicyAgent
from ..progress import ProgressReport
from .checkpoints import export_policy, save_checkpoint
from .curves import plot_learning_curve
from .evaluate import Evaluation, evaluate
from .league import League
from .opponents import OpponentPool
from .products import backend_name

EVAL_FIELDS = ("timesteps", "seconds", "opponent", "games", "win_rate", "ci_low", "ci_high",
               "truncated")
#: evaluation deals start here, far from the training envs' seeds
EVAL_SEED = 1_000_000


def eval_summary(result: Evaluation) -> str:
    """``random 41.0%``, or ``random 0.0% (33 of 200 games truncated)``: a truncated game
    counts as not won, so the rate alone would read unfinished games as losses."""
    text = f"{result.opponent} {result.win_rate:.1%}"
    if result.truncated:
        text += f" ({result.truncated} of {result.games} games truncated)"
    return text


def _member_label(name: str) -> str:
    """``self step_000012345`` for a snapshot's spec, the spec itself for any other member."""
    if name.startswith("policy:") and name.endswith("?sample"):
        return f"self {Path(name[len('policy:'):-len('?sample')]).stem}"
    return name


#: how the start of a run names the env it steps (``TrainSettings.vec``, resolved)
ENV_NAMES = {"vector": "eights.vector tables, --vec vector",
             "batched": "Python engines, opponents batched, --vec batched"}


class TrainingMonitor(BaseCallback):
    """See the module docstring."""

    def __init__(self, settings: Any, run_dir: Path, observation_size: int,
                 console: Any = None):
        super().__init__(verbose=0)
        self.settings = settings
        self.run_dir = run_dir
        self.observation_size = observation_size
        self.console = console
        self.checkpoint_dir = run_dir / "checkpoints"
        self.csv_path = run_dir / "eval.csv"
        self.best_path: Path | None = None
        self.best_score = -1.0
        self.evaluations: list[dict[str, Any]] = []
        self.eval_opponents = [spec for spec, _ in OpponentPool.parse(
            settings.eval_opponents).entries]
        #: the learner's results per opponent, with ``settings.league``
        self.league = League() if settings.league else None
        self._pool = OpponentPool.parse(settings.opponents, max_snapshots=settings.max_snapshots)
        self._progress: ProgressReport | None = None
        self._next_checkpoint = 0
        self._last_checkpoint = -1
        self._started = 0.0

    # -------------------------------------------------------------- lifecycle
    def _on_training_start(self) -> None:
        self._started = time.perf_counter()
        every = self.settings.checkpoint_interval()
        envs = ENV_NAMES.get(self.settings.vec, f"--vec {self.settings.vec}")
        self._log(f"{self.settings.n_envs} envs ({envs}); "
                  f"checkpoints and evaluations every {every:,} timesteps")
        self._log(f"the network's products through {backend_name()}")
        self._load_history()
        self._push_snapshots()
        if self.settings.progress:
            limit = self.settings.time_limit_minutes
            self._progress = ProgressReport(
                f"{self.settings.variant} {self.settings.num_players}p",
                int(self.settings.timesteps), unit="steps", console=self.console,
                deadline=None if limit is None else time.monotonic() + 60.0 * limit)
            self._progress.start()
            self._progress.update(int(self.num_timesteps))
        if not self.evaluations:  # a fresh run: the curve starts at the untrained policy
            self._checkpoint()
        self._next_checkpoint = (self.num_timesteps // every + 1) * every

    def _on_step(self) -> bool:
        if self.league is not None:
            for info in self.locals.get("infos", ()):
                self.league.record_info(info)
        if self._progress is not None and self.n_calls % 16 == 0:
            self._progress.update(int(self.num_timesteps))
        if self.num_timesteps >= self._next_checkpoint:
            self._checkpoint()
            every = self.settings.checkpoint_interval()
            self._next_checkpoint = (self.num_timesteps // every + 1) * every
        limit = self.settings.time_limit_minutes
        if limit is not None and time.perf_counter() - self._started >= 60.0 * limit:
            self._log(f"time limit of {limit:g} minutes reached at "
                      f"{self.num_timesteps:,} timesteps; stopping")
            return False
        return True

    def _on_rollout_end(self) -> None:
        """Between rollouts, the league's priorities go to every env's pool."""
        if self.league is not None and self.training_env is not None:
            self.training_env.env_method("set_priorities",
                                         self.league.priorities(self._league_members()))

    def _league_members(self) -> list[str]:
        return [name for name, _ in self._pool.members()]

    def league_table(self) -> dict[str, dict[str, float]]:
        """The league's figures per member, a snapshot named ``self step_N`` (its file's
        step) rather than by its path."""
        if self.league is None:
            return {}
        table = self.league.table(self._league_members())
        return {_member_label(name): row for name, row in table.items()}

    def finish(self, model: Any) -> Path:
        """After ``learn``: the last checkpoint and evaluation, ``final.zip``, the curve."""
        if self.num_timesteps != self._last_checkpoint:
            self.model = model
            self._checkpoint()
        if self._progress is not None:
            self._progress.update(int(self.num_timesteps))
            self._progress.close()
        final = self.run_dir / "final.zip"
        shutil.copyfile(self.run_dir / "latest.zip", final)
        export_policy(final, final.with_suffix(".npz"))
        if self.best_path is not None:
            export_policy(self.best_path, self.best_path.with_suffix(".npz"))
        plot_learning_curve(self.csv_path, self.run_dir / "learning_curve.png",
                            title=f"{self.settings.variant}, {self.settings.num_players} "
                                  f"players", chance=1.0 / self.settings.num_players)
        return final

    # -------------------------------------------------------------- checkpoints
    def _metadata(self) -> dict[str, Any]:
        return {
            "variant": self.settings.variant,
            "config": self.training_env_config(),
            "observation_size": self.observation_size,
            "observation_version": self.settings.observation_version,
            "timesteps": int(self.num_timesteps),
            "eights_version": __version__,
            "training": self.settings.to_dict(),
            **({"league": self.league_table()} if self.league is not None else {}),
        }

    def training_env_config(self) -> dict[str, Any]:
        from ..engines import engine_class

        cls = engine_class(self.settings.variant)
        return cls.Config.from_options(**self.settings.game_options()).to_dict()

    def _checkpoint(self) -> None:
        steps = int(self.num_timesteps)
        path = save_checkpoint(self.model, self.checkpoint_dir / f"step_{steps:09d}.zip",
                               self._metadata())
        shutil.copyfile(path, self.run_dir / ".latest.tmp.zip")
        (self.run_dir / ".latest.tmp.zip").replace(self.run_dir / "latest.zip")
        self._last_checkpoint = steps
        self._prune()
        self._push_snapshots()
        self._evaluate(path, steps)

    def _snapshot_paths(self) -> list[str]:
        """Checkpoints up to now, oldest first (a resumed run ignores later ones)."""
        paths = sorted(self.checkpoint_dir.glob("step_*.zip"))
        return [str(p) for p in paths if int(p.stem[5:]) <= self.num_timesteps]

    def _prune(self) -> None:
        """Keep the newest ``max_snapshots`` step checkpoints: the pool never uses older ones.

        eval.csv keeps their figures, and best.zip keeps the best of them.
        """
        paths = sorted(self.checkpoint_dir.glob("step_*.zip"))
        for old in paths[: -self.settings.max_snapshots]:
            old.unlink()

    def _push_snapshots(self) -> None:
        paths = self._snapshot_paths()
        self._pool.set_snapshots(paths)
        if paths and self.training_env is not None:
            self.training_env.env_method("set_snapshots", paths)

    # -------------------------------------------------------------- evaluation
    def _evaluate(self, path: Path, steps: int) -> None:
        agent = PolicyAgent(self.settings.variant, str(path))
        rates, parts = [], []
        seconds = time.perf_counter() - self._started
        for opponent in self.eval_opponents:
            result = evaluate(agent, opponent, self.settings.variant, self.settings.eval_games,
                              seed=EVAL_SEED, **self.settings.game_options())
            lo, hi = result.interval()
            row = {"timesteps": steps, "seconds": round(seconds, 1), "opponent": opponent,
                   "games": result.games, "win_rate": round(result.win_rate, 4),
                   "ci_low": round(lo, 4), "ci_high": round(hi, 4),
                   "truncated": result.truncated}
            self._append_row(row)
            rates.append(result.win_rate)
            parts.append(eval_summary(result))
            self.logger.record(f"eval/win_rate_vs_{opponent}", result.win_rate)
        self.logger.dump(steps)
        self._log(f"{steps:>10,} timesteps: win rate vs {', '.join(parts)}")
        if self.league is not None and self.league.episodes:
            self._log("league (learner's recent win rate, priority, share of seats): " + ", ".join(
                f"{name} {row['win_rate']:.0%} {row['priority']:.2f} {row['share']:.0%}"
                for name, row in self.league_table().items()))
        score = sum(rates) / len(rates)
        if score > self.best_score:
            self.best_score = score
            self.best_path = self.run_dir / "best.zip"
            shutil.copyfile(path, self.run_dir / ".best.tmp.zip")
            (self.run_dir / ".best.tmp.zip").replace(self.best_path)

    def _append_row(self, row: dict[str, Any]) -> None:
        new = not self.csv_path.exists()
        with open(self.csv_path, "a", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=EVAL_FIELDS)
            if new:
                writer.writeheader()
            writer.writerow(row)
        self.evaluations.append(row)

    def _load_history(self) -> None:
        """On resume: earlier evaluations (for best.zip and the curve), newer rows dropped."""
        if not self.csv_path.exists():
            return
        with open(self.csv_path, newline="") as handle:
            rows = [r for r in csv.DictReader(handle)
                    if int(r["timesteps"]) <= self.num_timesteps]
        with open(self.csv_path, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=EVAL_FIELDS)
            writer.writeheader()
            writer.writerows(rows)
        self.evaluations = rows
        by_step: dict[int, list[float]] = {}
        for r in rows:
            by_step.setdefault(int(r["timesteps"]), []).append(float(r["win_rate"]))
        if by_step and (self.run_dir / "best.zip").exists():
            self.best_score = max(sum(v) / len(v) for v in by_step.values())
            self.best_path = self.run_dir / "best.zip"
        self._last_checkpoint = max(by_step, default=-1)

    def _log(self, message: str) -> None:
        if self._progress is not None:
            self._progress.console.log(message)
        elif self.console is not None:
            self.console.log(message)


__all__ = ["EVAL_FIELDS", "TrainingMonitor", "eval_summary"]
