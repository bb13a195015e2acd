"""The ``eights`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from .config import ConfigError
from .engines import VARIANTS, engine_class
from .tournament import RoundRobinResult, round_robin


def _tournament(args: argparse.Namespace, console: Console) -> int:
    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                  transient=True) as bar:
        task = bar.add_task(f"{args.variant}, {args.players} players", total=None)
        result = round_robin(
            args.variant, specs, num_players=args.players, games=args.games, seed=args.seed,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    console.print(results_table(result))
    return 0


def results_table(result: RoundRobinResult) -> Table:
    table = Table(title=f"{result.variant}, {result.num_players} players, "
                        f"{result.games_per_table} games per table, seats rotated")
    table.add_column("agent")
    table.add_column("games", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI", justify="right", no_wrap=True, min_width=11)
    ranking = result.ranking()
    specs = [r.spec for r in ranking]
    if result.num_players == 2:
        for spec in specs:
            table.add_column(f"vs {spec}", justify="right")
    for r in ranking:
        lo, hi = r.interval()
        row = [r.spec, str(r.games), f"{r.win_rate:.1%}", f"{lo:.1%}-{hi:.1%}"]
        if result.num_players == 2:
            for other in specs:
                w, g = r.versus.get(other, (0, 0))
                row.append(f"{w / g:.1%}" if g else "-")
        table.add_row(*row)
    return table


def _variants(args: argparse.Namespace, console: Console) -> int:
    for variant in VARIANTS:
        cls = engine_class(variant)
        console.print(f"[bold]{variant}[/bold]: {cls.__doc__.strip().splitlines()[0]}"
                      if cls.__doc__ else variant)
        console.print(cls.Config.describe(), markup=False)
        console.print()
    return 0


#: ``eights train`` flag -> (TrainSettings field, type, help)
TRAIN_FLAGS = {
    "--players": ("num_players", int, "players at the table (default 2)"),
    "--timesteps": ("timesteps", int, "learner decisions to train in total (default 1,000,000)"),
    "--out": ("out", str, "run directory (default runs/VARIANT-Np)"),
    "--seed": ("seed", int, "seed of the envs, the network and the opponents (default 0)"),
    "--opponents": ("opponents", str, "opponent pool, spec@weight list; 'self' is the learner's "
                                      "checkpoints (default heuristic@0.5,random@0.1,self@0.4)"),
    "--eval-opponents": ("eval_opponents", str, "agents to evaluate against (default "
                                                "random,heuristic)"),
    "--eval-games": ("eval_games", int, "games per evaluation opponent (default 200)"),
    "--checkpoint-every": ("checkpoint_every", int, "timesteps between checkpoints and "
                                                    "evaluations (default 100,000)"),
    "--max-snapshots": ("max_snapshots", int, "newest checkpoints kept as 'self' opponents "
                                              "(default 5)"),
    "--n-envs": ("n_envs", int, "parallel envs (default 8)"),
    "--vec": ("vec", str, "dummy (one process) or subproc (one process per env)"),
    "--n-steps": ("n_steps", int, "steps per env per PPO rollout (default 256)"),
    "--batch-size": ("batch_size", int, "PPO minibatch size (default 512)"),
    "--epochs": ("n_epochs", int, "PPO epochs per rollout (default 4)"),
    "--lr": ("learning_rate", float, "learning rate (default 3e-4)"),
    "--gamma": ("gamma", float, "discount (default 0.99)"),
    "--ent-coef": ("ent_coef", float, "entropy bonus (default 0.01)"),
    "--net-arch": ("net_arch", lambda text: tuple(int(w) for w in text.split(",")),
                   "hidden layer widths (default 256,256)"),
    "--threads": ("threads", int, "torch threads (default 1, fastest for small MLPs)"),
    "--time-limit": ("time_limit_minutes", float, "stop after this many minutes"),
}


def _train(args: argparse.Namespace, console: Console) -> int:
    try:
        from .training.trainer import TrainSettings, resume_settings, train
    except ImportError as err:
        raise ConfigError(f"training needs the train extra ({err.name} is missing); "
                          f"install it with: pip install 'eights[train]'") from None
    given = {field: getattr(args, field) for field, _, _ in TRAIN_FLAGS.values()
             if getattr(args, field) is not None}
    if args.variant is not None:
        given["variant"] = args.variant
    if args.option:
        given["options"] = _parse_options(args.option)
    if args.no_progress:
        given["progress"] = False
    resume_from = None
    if args.resume:
        settings, resume_from = resume_settings(args.resume, given)
    else:
        settings = TrainSettings(**given)
        if "out" not in given:
            settings.out = f"runs/{settings.variant}-{settings.num_players}p"
    result = train(settings, console=console, resume_from=resume_from)
    console.print(f"trained {result.timesteps:,} timesteps in {result.seconds / 60:.1f} min; "
                  f"final model {result.final}, best {result.best}, curve "
                  f"{result.run_dir / 'learning_curve.png'}")
    return 0


def _export(args: argparse.Namespace, console: Console) -> int:
    try:
        from .training.checkpoints import export_policy
    except ImportError as err:
        raise ConfigError(f"export reads checkpoints with the train extra ({err.name} is "
                          f"missing); install it with: pip install 'eights[train]'") from None
    out = export_policy(args.checkpoint, args.out)
    console.print(f"wrote {out} ({out.stat().st_size / 1024:.0f} kB); play it with "
                  f"--agents policy:{out}")
    return 0


def _parse_options(items: Sequence[str]) -> dict[str, object]:
    """``key=value`` game options; values are read as JSON where they parse (ints, bools)."""
    import json

    options: dict[str, object] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ConfigError(f"--option {item!r} must look like name=value, e.g. hand_size=5")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eights", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tournament", help="round-robin of agents, with a win-rate table")
    t.add_argument("--variant", default="crazy_eights", choices=list(VARIANTS))
    t.add_argument("--players", type=int, default=2)
    t.add_argument("--agents", default="random,greedy,heuristic",
                   help="comma-separated agent specs, e.g. random,heuristic")
    t.add_argument("--games", type=int, default=200, help="games per table")
    t.add_argument("--seed", type=int, default=0)
    t.set_defaults(func=_tournament)
    tr = sub.add_parser("train", help="MaskablePPO self-play training with checkpoints")
    tr.add_argument("--variant", choices=list(VARIANTS),
                    help="variant to train (default crazy_eights)")
    for flag, (field, kind, text) in TRAIN_FLAGS.items():
        tr.add_argument(flag, dest=field, type=kind, default=None, help=text)
    tr.add_argument("--option", action="append", metavar="NAME=VALUE",
                    help="a game option, e.g. --option hand_size=5 (repeatable)")
    tr.add_argument("--resume", metavar="CHECKPOINT",
                    help="continue from a checkpoint zip or a run directory's latest.zip")
    tr.add_argument("--no-progress", action="store_true", help="no progress bar")
    tr.set_defaults(func=_train)
    ex = sub.add_parser("export", help="write a checkpoint's policy as a torch-free .npz")
    ex.add_argument("checkpoint", help="a checkpoint zip written by eights train")
    ex.add_argument("out", help="the .npz to write")
    ex.set_defaults(func=_export)
    v = sub.add_parser("variants", help="list the variants and their options")
    v.set_defaults(func=_variants)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console()
    try:
        return args.func(args, console)
    except ConfigError as err:
        console.print(f"[red]error:[/red] {err}", markup=True)
        return 2


if __name__ == "__main__":
    sys.exit(main())
