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
