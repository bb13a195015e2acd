"""The ``eights`` command."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from .agents import split_specs
from .config import ConfigError
from .engines import VARIANTS, engine_class
from .tournament import BACKENDS, TournamentResult


def _tournament(args: argparse.Namespace, console: Console) -> int:
    from .tournament import Tournament, run_tournament

    tournament = Tournament(
        variant=args.variant, agents=tuple(split_specs(args.agents)), num_players=args.players,
        games=args.games, seed=args.seed, options=_parse_options(args.option or []),
        duplicate=not args.no_duplicate, seating=args.seating,
    )
    console.print(f"{tournament.describe()}: {tournament.total_games:,} games"
                  + (f", results in {args.out}" if args.out else ""), soft_wrap=True)
    columns = ("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True,
                  disable=args.no_progress) as bar:
        task = bar.add_task("games", total=tournament.total_games)
        try:
            result = run_tournament(
                tournament, args.out, backend=args.backend, workers=args.workers,
                ray_address=args.ray_address, restart=args.restart, report=not args.no_report,
                progress=lambda done, total: bar.update(task, completed=done),
            )
        except KeyboardInterrupt:
            bar.stop()
            where = (f"the finished games are stored in {args.out}; the same command resumes"
                     if args.out else "nothing was stored (no --out)")
            console.print(f"interrupted: {where}", soft_wrap=True)
            return 130
    console.print(standings_table(result))
    console.print(pairs_table(result))
    rate = result.played_now / result.seconds if result.seconds else 0.0
    console.print(f"{result.played_now:,} games played in {result.seconds:.1f} s "
                  f"({rate:,.0f} games/s, {args.backend})"
                  + (f"; {result.resumed:,} already stored" if result.resumed else ""),
                  soft_wrap=True)
    if args.out:
        report = "" if args.no_report else f", report {Path(args.out) / 'report.html'}"
        console.print(f"results in {Path(args.out) / 'results.sqlite'}{report}", soft_wrap=True)
    return 0


def _plus_minus(value: float, low: float, high: float, fmt: str) -> str:
    """``value ±half`` of a symmetric 95% interval; just the value while there is none."""
    if math.isnan(low) or math.isnan(high):
        return f"{value:{fmt}}"
    return f"{value:{fmt}} ±{(high - low) / 2:.1f}"


def standings_table(result: TournamentResult) -> Table:
    """The standings as a rich table: ratings, win rates and margins with 95% intervals."""
    table = Table(title=f"standings after {result.games_played:,} games "
                        f"(intervals are 95%)")
    table.add_column("#", justify="right")
    table.add_column("agent", overflow="fold")
    for name in ("rating", "win rate", "95% CI", "margin", "games"):
        table.add_column(name, justify="right", no_wrap=True)
    for rank, s in enumerate(result.standings, 1):
        table.add_row(str(rank), s.agent, _plus_minus(s.rating, s.rating_low, s.rating_high, ".1f"),
                      f"{s.win_rate:.1%}", f"{s.win_low:.1%}-{s.win_high:.1%}",
                      _plus_minus(s.margin, s.margin_low, s.margin_high, "+.1f"), f"{s.games:,}")
    return table


def pairs_table(result: TournamentResult) -> Table:
    """How often each agent (row) finished ahead of each other (column), ties counting half.

    Columns are headed by standing number, so long specs (paths, commands) stay readable.
    """
    agents = result.ranking()
    title = ("head to head: row's win rate against column" if result.tournament.num_players == 2
             else "head to head: how often row finished ahead of column")
    table = Table(title=title)
    table.add_column("agent", overflow="fold")
    for k in range(1, len(agents) + 1):
        table.add_column(f"vs {k}", justify="right", no_wrap=True)
    for k, a in enumerate(agents, 1):
        cells = []
        for b in agents:
            pair = result.pair(a, b)
            cells.append("-" if pair is None else f"{pair.rate:.0%}")
        table.add_row(f"{k} {a}", *cells)
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


def _play(args: argparse.Namespace, console: Console) -> int:
    from .agents import check_agent_spec, make_agent
    from .engines import make_game
    from .play import PlaySession, TerminalKeys

    specs = split_specs(args.opponents)
    if not specs:
        raise ConfigError("--opponents needs at least one agent, e.g. heuristic")
    players = len(specs) + 1
    if not 0 <= args.seat < players:
        raise ConfigError(f"--seat {args.seat} is not at a {players}-player table; "
                          f"seats are 0 to {players - 1}")
    if args.turn_time is not None and args.turn_time <= 0:
        raise ConfigError(f"--turn-time {args.turn_time:g} is not allowed; give seconds > 0")
    options = _parse_options(args.option or [])
    has_match = "match" in engine_class(args.variant).Config.options()
    if args.hand and not has_match:
        raise ConfigError(f"--hand: {args.variant} has no match; a game is already one hand")
    if has_match and "match" not in options:
        options["match"] = not args.hand  # the rules' objective is the match
    engine = make_game(args.variant, num_players=players, seed=args.seed, **options)
    for spec in specs:  # every bot can play this table, before the first card
        check_agent_spec(spec, args.variant, config=engine.config)
    bot_seats = [p for p in range(players) if p != args.seat]
    bots = {p: make_agent(spec, args.variant, seed=None if args.seed is None else args.seed + p)
            for p, spec in zip(bot_seats, specs, strict=True)}

    def say(text: str) -> None:
        print(text, flush=True)

    try:
        with TerminalKeys() as keys:
            return PlaySession(engine, args.seat, bots, keys, say,
                               turn_time=args.turn_time).run()
    finally:
        for bot in bots.values():
            bot.close()


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


# ---------------------------------------------------------------- bot protocol
def _serve(args: argparse.Namespace, console: Console) -> int:
    """``eights serve``: lend a built-in agent to WebSocket frontends until interrupted."""
    import asyncio

    from .protocol.server import BotServer, ServerLimits, serve

    limits = ServerLimits(max_message_bytes=args.max_message_bytes,
                          decision_timeout=args.decision_timeout, idle_timeout=args.idle_timeout,
                          max_connections=args.max_connections)
    server = BotServer(args.agent, args.variant, host=args.host, port=args.port, limits=limits,
                       seed=args.seed)

    def ready(server: BotServer) -> None:
        console.print(f"serving {server.agent_spec} playing {server.variant} at {server.url} "
                      f"(Ctrl-C stops)", markup=False, highlight=False, soft_wrap=True)

    try:
        asyncio.run(serve(server, ready))
    except KeyboardInterrupt:
        return 0
    except OSError as err:
        raise ConfigError(f"cannot listen on {args.host}:{args.port}: {err}") from None
    return 0


def _bot(args: argparse.Namespace, console: Console) -> int:
    """``eights bot``: a protocol bot on stdin/stdout."""
    from .protocol.stdio import run

    return run(args)


def _add_protocol_commands(sub: argparse._SubParsersAction) -> None:
    """The ``serve`` and ``bot`` subcommands (docs/protocol.md)."""
    from .protocol.messages import DEFAULT_MAX_MESSAGE_BYTES
    from .protocol.stdio import add_arguments

    s = sub.add_parser("serve", help="serve an agent to bot-protocol clients over WebSocket")
    s.add_argument("--agent", default="heuristic", help="agent spec (default heuristic)")
    s.add_argument("--variant", default="crazy_eights", choices=list(VARIANTS))
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks one)")
    s.add_argument("--max-message-bytes", type=int, default=DEFAULT_MAX_MESSAGE_BYTES,
                   help=f"refuse longer messages (default {DEFAULT_MAX_MESSAGE_BYTES:,})")
    s.add_argument("--decision-timeout", type=float, default=10.0,
                   help="seconds a decision may take before the session ends (default 10)")
    s.add_argument("--idle-timeout", type=float, default=300.0,
                   help="close a connection silent this many seconds (default 300)")
    s.add_argument("--max-connections", type=int, default=256,
                   help="connections at once (default 256)")
    s.add_argument("--seed", type=int, help="seed the agents, for reproducible play")
    s.set_defaults(func=_serve)
    b = sub.add_parser("bot", help="a bot-protocol bot on stdin/stdout (JSON lines)")
    add_arguments(b)
    b.set_defaults(func=_bot)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eights", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tournament", help="round-robin of agents: ratings, win rates, report")
    t.add_argument("--variant", default="crazy_eights", choices=list(VARIANTS))
    t.add_argument("--players", type=int, default=2, help="players at each table (default 2)")
    t.add_argument("--agents", default="random,greedy,heuristic",
                   help="comma-separated agent specs, e.g. random,heuristic,ismcts:sims=200")
    t.add_argument("--games", type=int, default=200,
                   help="games per table, rounded up to whole sets of seatings (default 200)")
    t.add_argument("--seed", type=int, default=0, help="seed of the deals and agents")
    t.add_argument("--out", metavar="DIR",
                   help="store every game in DIR/results.sqlite (the same command resumes), "
                        "and write the summary and an HTML report there")
    t.add_argument("--backend", default="serial", choices=list(BACKENDS),
                   help="where games run: this process, local processes, or Ray")
    t.add_argument("--workers", type=int, help="processes or Ray tasks at once (default: cores)")
    t.add_argument("--ray-address", help="address of a running Ray cluster (default: a local Ray)")
    t.add_argument("--seating", default="rotate", choices=["rotate", "permute"],
                   help="each table plays every rotation (default) or permutation of its seats")
    t.add_argument("--no-duplicate", action="store_true",
                   help="a fresh deal every game instead of replaying each deal per seating")
    t.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="a game option, e.g. --option hand_size=5 (repeatable)")
    t.add_argument("--restart", action="store_true",
                   help="discard the results already in --out and start again")
    t.add_argument("--no-report", action="store_true", help="skip the HTML report")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
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
    pl = sub.add_parser("play", help="play against bots at the keyboard (screen-reader friendly)")
    pl.add_argument("--variant", default="crazy_eights", choices=list(VARIANTS))
    pl.add_argument("--opponents", default="heuristic",
                    help="one agent spec per opponent seat, e.g. heuristic,policy (default "
                         "heuristic)")
    pl.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    pl.add_argument("--seed", type=int, help="seed of the deal (default: random)")
    pl.add_argument("--turn-time", type=float, metavar="SECONDS",
                    help="a turn timer: when it runs out, you draw (or pass)")
    pl.add_argument("--hand", action="store_true",
                    help="play a single hand instead of the variant's match (crazy_eights: to "
                         "500 points; livery_eights: 5 games)")
    pl.add_argument("--option", action="append", metavar="NAME=VALUE",
                    help="a game option, e.g. --option hand_size=5 (repeatable)")
    pl.set_defaults(func=_play)
    v = sub.add_parser("variants", help="list the variants and their options")
    v.set_defaults(func=_variants)
    _add_protocol_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console()
    try:
        return args.func(args, console)
    except ConfigError as err:
        console.print(f"[red]error:[/red] {err}", markup=True, soft_wrap=True)
        return 2


if __name__ == "__main__":
    sys.exit(main())
