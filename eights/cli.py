"""eights: Crazy Eights games for reinforcement learning: tournaments, training, bots, play.

Run `eights COMMAND --help` for a command's options, defaults and examples.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from .agents import split_specs
from .config import ConfigError, parse_options
from .engines import VARIANTS, engine_class
from .tournament import AUTO_MIN_GAMES, BACKENDS, ENGINES
from .tournament.console import pairs_table as pairs_table
from .tournament.console import standings_table as standings_table
from .tournament.console import tournament_command as _tournament

#: examples at the end of each command's --help
EXAMPLES = {
    "tournament": """\
examples:
  eights tournament --agents random,greedy,heuristic,policy --games 100
  eights tournament --variant livery_eights --players 3 --agents random,heuristic --out runs/t1
  eights tournament --agents heuristic,ismcts:sims=200 --games 20 --backend process --workers 2""",
    "train": """\
examples:
  eights train --variant crazy_eights --players 2 --timesteps 20000 --out runs/tiny
  eights train --variant livery_eights --time-limit 30 --opponents heuristic@0.6,self@0.4
  eights train --resume runs/tiny --timesteps 40000
  eights train --league --privileged-critic --time-limit 60""",
    "distill": """\
examples:
  eights distill runs/tiny --search ismcts:sims=50 --games 32 --iterations 10
  eights distill runs/tiny --time-limit 60 --backend process --workers 8 --out runs/exit""",
    "export": """\
examples:
  eights export runs/tiny model.npz            # the run's best checkpoint
  eights export runs/tiny/latest.zip model.npz
  eights export runs/a runs/b runs/c ensemble.npz  # one file that plays their mean logits""",
    "play": """\
examples:
  eights play                                      # a match to 500 against the heuristic
  eights play --opponents policy --hand            # one hand against the shipped policy
  eights play --variant livery_eights --opponents heuristic,random --turn-time 30""",
    "variants": """\
example:
  eights variants""",
    "web": """\
examples:
  eights web                                # play in the browser at http://127.0.0.1:8000/
  eights web --results runs/make-run        # also watch its games and its leaderboard
  eights web --results runs/t1 --port 0     # any free port (the URL is printed)""",
}


def _summary(module_doc: str) -> str:
    """The paragraph after a module docstring's title: a variant's rules in a few lines."""
    paragraphs = module_doc.strip().split("\n\n")
    return " ".join(paragraphs[1].split()) if len(paragraphs) > 1 else ""


def _variants(args: argparse.Namespace, console: Console) -> int:
    """Each variant: its one-line summary, then its options as a table that fits the terminal."""
    from .envs import ENV_MODULES

    for variant in VARIANTS:
        cls = engine_class(variant)
        summary = _summary(sys.modules[cls.__module__].__doc__ or "")
        env = ENV_MODULES.get(variant, "").rsplit(".", 1)[-1]
        console.print(f"[bold]{variant}[/bold] (env {env})")
        console.print(summary.replace("``", ""), markup=False, highlight=False)
        table = Table(show_lines=False, expand=False)
        table.add_column("option", no_wrap=True, style="cyan")
        table.add_column("default", no_wrap=True)
        table.add_column("allowed", overflow="fold")
        table.add_column("meaning", overflow="fold")
        for row in cls.Config.option_rows():
            table.add_row(*row)
        console.print(table)
        console.print()
    console.print("Set an option with --option NAME=VALUE, e.g. eights tournament --variant "
                  "livery_eights --option hand_size=7", soft_wrap=True, markup=False)
    return 0


#: the opponent pool of ``eights train --league`` when ``--opponents`` is not given: the
#: learner's checkpoints and every built-in agent, reweighted as the learner gets better
LEAGUE_OPPONENTS = "heuristic,greedy,random,self@2"

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
                                                    "evaluations (default a fifth of "
                                                    "--timesteps, at least one rollout, at "
                                                    "most 100,000)"),
    "--max-snapshots": ("max_snapshots", int, "newest checkpoints kept as 'self' opponents "
                                              "(default 5)"),
    "--n-envs": ("n_envs", int, "parallel envs (default 32)"),
    "--vec": ("vec", str, "auto (the default: vector where the run can take it, else "
                          "batched), vector (eights.vector's compiled tables, the "
                          "opponents answering in batches), batched (one process, the "
                          "opponents of all envs answering together; plays any opponent "
                          "and the privileged critic), dummy (one process, one env after "
                          "another), subproc (one process per env) or ray (Ray actors, "
                          "one CPU each, sharing the envs)"),
    "--ray-address": ("ray_address", str, "with --vec ray: the Ray cluster the games run on "
                                          "(default: a local Ray)"),
    "--n-steps": ("n_steps", int, "steps per env per PPO rollout (default 64)"),
    "--batch-size": ("batch_size", int, "PPO minibatch size (default 512)"),
    "--epochs": ("n_epochs", int, "PPO epochs per rollout (default 4)"),
    "--lr": ("learning_rate", float, "learning rate (default 3e-4)"),
    "--gamma": ("gamma", float, "discount (default 0.99)"),
    "--ent-coef": ("ent_coef", float, "entropy bonus (default 0.01)"),
    "--net-arch": ("net_arch", lambda text: tuple(int(w) for w in text.split(",")),
                   "hidden layer widths (default 256,256)"),
    "--activation": ("activation", str, "the hidden layers' activation: tanh (the default) "
                                        "or relu"),
    "--threads": ("threads", int, "torch threads (default 1, fastest for small MLPs)"),
    "--observation-version": ("observation_version", int,
                              "the env version whose observation the model reads (default: "
                              "the newest, 2; 1 for the layout of the v1 envs)"),
    "--time-limit": ("time_limit_minutes", float, "stop after this many minutes"),
    "--init": ("init", str, "start the policy from a trained one: an exported .npz, a "
                            "checkpoint or a shipped model's name (the value network starts "
                            "afresh; its observation version is the run's)"),
}


def _add_flags(parser: argparse.ArgumentParser, flags: dict) -> None:
    """One option per entry of a flag table (``TRAIN_FLAGS``, ``DISTILL_FLAGS``), None when
    not given so the settings' own default holds."""
    for flag, (field, kind, text) in flags.items():
        parser.add_argument(flag, dest=field, type=kind, default=None, help=text)


def _given(args: argparse.Namespace, flags: dict) -> dict:
    """The settings fields of a flag table that the command line gave."""
    return {field: getattr(args, field) for field, _, _ in flags.values()
            if getattr(args, field) is not None}


def _train(args: argparse.Namespace, console: Console) -> int:
    from .extras import require_extra

    require_extra("train", "eights train")
    from .training.trainer import TrainSettings, resume_settings, train

    given = _given(args, TRAIN_FLAGS)
    if args.variant is not None:
        given["variant"] = args.variant
    if args.option:
        given["options"] = parse_options(args.option)
    if args.no_progress:
        given["progress"] = False
    if args.privileged_critic:
        given["privileged_critic"] = True
    if args.count_bins:
        given["count_bins"] = True
    if args.league:
        given["league"] = True
        if args.resume is None:
            given.setdefault("opponents", LEAGUE_OPPONENTS)
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


def _comma_list(text: str) -> tuple[str, ...]:
    """A flag's comma-separated items (empty ones dropped)."""
    return tuple(filter(None, text.split(",")))


#: ``eights distill`` flag -> (DistillSettings field, type, help)
DISTILL_FLAGS = {
    "--out": ("out", str, "run directory (default runs/distill)"),
    "--search": ("search", str, "the labelling search, an ismcts spec without prior (the "
                                "policy being distilled guides it, unless core=compiled; "
                                "default ismcts:sims=50)"),
    "--opponents": ("opponents", str, "opponents in the labelling games; 'self' is the "
                                      "current policy (default heuristic,self)"),
    "--games": ("games", int, "labelling games per iteration (default 32)"),
    "--iterations": ("iterations", int, "iterations at most (default 10)"),
    "--epochs": ("epochs", int, "passes over the labels per iteration (default 4)"),
    "--batch-size": ("batch_size", int, "minibatch size (default 256)"),
    "--lr": ("learning_rate", float, "learning rate (default 1e-4)"),
    "--value-weight": ("value_weight", float, "the value loss's weight (default 0.5)"),
    "--window": ("window", int, "iterations of labels trained on (default 3)"),
    "--eval-games": ("eval_games", int, "evaluation games per iteration (default 200)"),
    "--eval-opponent": ("eval_opponent", str, "the agent evaluated against (default "
                                              "heuristic)"),
    "--seed": ("seed", int, "seed of the labelling games and the minibatches (default 0)"),
    "--time-limit": ("time_limit_minutes", float, "start no iteration after this many minutes"),
    "--backend": ("backend", str, "where the labelling games run: serial, process or ray"),
    "--workers": ("workers", int, "processes or Ray tasks at once (default: the CPUs)"),
    "--ray-address": ("ray_address", str, "a Ray cluster to label on (with --backend ray)"),
    "--labels-from": ("labels_from", _comma_list,
                      "earlier runs' directories (comma-separated) whose saved labels of a "
                      "core=compiled search start the window"),
}


def _distill(args: argparse.Namespace, console: Console) -> int:
    from .extras import require_extra

    require_extra("train", "eights distill")
    from .training.distill import DistillSettings, distill

    given = _given(args, DISTILL_FLAGS)
    settings = DistillSettings(start=args.start, progress=not args.no_progress, **given)
    result = distill(settings, console=console)
    last = result.rows[-1]
    console.print(f"{result.iterations} iterations in {result.seconds / 60:.1f} min; final "
                  f"model {result.final} ({last['win_rate']:.1%} against "
                  f"{last['opponent']}), best {result.best}; curve "
                  f"{result.run_dir / 'distill.csv'}", soft_wrap=True)
    return 0


def _export(args: argparse.Namespace, console: Console) -> int:
    from .extras import require_extra
    from .training.checkpoints import policy_source

    sources = args.sources
    if any(policy_source(source).suffix != ".npz" for source in sources):
        require_extra("train", "eights export (it reads checkpoints)")
    from .training.checkpoints import checkpoint_of, export_ensemble, export_policy

    if len(sources) == 1:
        if policy_source(sources[0]).suffix == ".npz":
            raise ConfigError(f"{sources[0]!r} is already an exported policy; give two or more "
                              f"to export their ensemble")
        source = checkpoint_of(sources[0])
        out = export_policy(source, args.out)
    else:
        source, out = f"{len(sources)} policies (their mean logits)", export_ensemble(
            sources, args.out)
    console.print(f"wrote {out} from {source} ({out.stat().st_size / 1024:.0f} kB); play "
                  f"it with --agents policy:{out}", soft_wrap=True)
    return 0


#: the longest --turn-time, in seconds (a day): a longer wait overflows the key reader's timer
MAX_TURN_TIME = 86400


def _play(args: argparse.Namespace, console: Console) -> int:
    from .agents import check_agent_spec, make_agent
    from .engines import make_game
    from .play import PlaySession, TerminalKeys
    from .play.table_options import people_table_options

    specs = split_specs(args.opponents)
    if not specs:
        raise ConfigError("--opponents needs at least one agent, e.g. heuristic")
    players = len(specs) + 1
    if not 0 <= args.seat < players:
        raise ConfigError(f"--seat {args.seat} is not at a {players}-player table; "
                          f"seats are 0 to {players - 1}")
    if args.turn_time is not None and not 0 < args.turn_time <= MAX_TURN_TIME:  # nan too
        raise ConfigError(f"--turn-time {args.turn_time:g} is not allowed; give seconds, "
                          f"a number > 0 and at most {MAX_TURN_TIME}")
    if sys.stdin is None:  # started with standard input closed (<&-): no keys can come
        raise ConfigError("eights play reads your keys from standard input, which is closed; "
                          "run it at a terminal or pipe keys to it")
    options = parse_options(args.option or [])
    if "num_players" in options:  # the seats are yours and one per --opponents entry
        raise ConfigError(f"--option num_players is not allowed here: the table has your seat "
                          f"and one per --opponents entry ({players} players now); list one "
                          f"agent per opponent seat, e.g. --opponents heuristic,random")
    options = people_table_options(args.variant, options, args.hand, "--hand")
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


# ---------------------------------------------------------------- bot protocol
def _serve(args: argparse.Namespace, console: Console) -> int:
    """``eights serve``: lend a built-in agent to WebSocket frontends until interrupted."""
    import asyncio
    import dataclasses

    from .protocol.server import BotServer, ServerLimits, serve, tune_process_for_serving

    limits = ServerLimits(**{f.name: getattr(args, f.name)
                             for f in dataclasses.fields(ServerLimits)})
    server = BotServer(args.agent, args.variant, host=args.host, port=args.port, limits=limits,
                       seed=args.seed, workers=args.workers)

    def ready(server: BotServer) -> None:
        tune_process_for_serving()
        console.print(f"serving {server.agent_spec} playing {server.variant} at {server.url} "
                      f"(Ctrl-C stops)", markup=False, highlight=False, soft_wrap=True)

    try:
        asyncio.run(serve(server, ready))
    except KeyboardInterrupt:
        return 0
    except OSError as err:
        raise ConfigError(f"cannot listen on {args.host}:{args.port}: {err}") from None
    return 0


def _web(args: argparse.Namespace, console: Console) -> int:
    """``eights web``: the browser table (play, watch, leaderboard) until interrupted."""
    import asyncio
    import dataclasses

    from .protocol.server import ServerLimits, serve
    from .web.server import WebServer

    limits = ServerLimits(**{f.name: getattr(args, f.name)
                             for f in dataclasses.fields(ServerLimits)})
    server = WebServer(args.results or [], host=args.host, port=args.port, limits=limits)

    def ready(server: WebServer) -> None:
        stores = ", ".join(server.store_names) or "none (give --results DIR to watch games)"
        console.print(f"eights web at {server.url} (stores: {stores}; Ctrl-C stops)",
                      markup=False, highlight=False, soft_wrap=True)

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
    """The ``serve``, ``web`` and ``bot`` subcommands (docs/protocol.md, docs/web.md): ``web``
    takes ``serve``'s limits, with the same options."""
    import dataclasses

    from .protocol.server import (
        DEFAULT_WORKERS,
        LIMIT_RANGES,
        PORTS,
        WORKERS,
        ServerLimits,
        option_name,
    )
    from .protocol.stdio import add_arguments

    s = sub.add_parser("serve", help="serve an agent to bot-protocol clients over WebSocket")
    s.add_argument("--agent", default="heuristic", help="agent spec (default heuristic)")
    s.add_argument("--variant", default="crazy_eights", choices=list(VARIANTS))
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=PORTS.parse, default=8765,
                   help="port (default 8765; 0 picks one)")
    limit_help = {
        "max_message_bytes": "refuse longer messages",
        "decision_timeout": "seconds a decision may take before the session ends",
        "idle_timeout": "close a session silent this many seconds after its hello",
        "hello_timeout": "seconds a new connection has for the opening handshake, and again "
                         "for its hello",
        "max_connections": "sessions at once",
        "max_connections_per_ip": "sessions at once from one address (an IPv6 /64)",
        "max_errors": "end a session after this many bad messages in a row",
    }
    defaults = ServerLimits()
    for field in dataclasses.fields(ServerLimits):  # every limit is an option (_serve reads them)
        default = getattr(defaults, field.name)
        s.add_argument(option_name(field.name), dest=field.name,
                       type=LIMIT_RANGES[field.name].parse, default=default,
                       help=f"{limit_help[field.name]} (default {default:,g})")
    s.add_argument("--workers", type=WORKERS.parse, default=DEFAULT_WORKERS,
                   help=f"threads that read and answer messages, fairest first "
                        f"(default {DEFAULT_WORKERS})")
    s.add_argument("--seed", type=int, help="seed the agents, for reproducible play")
    s.set_defaults(func=_serve)
    w = sub.add_parser("web", help="a table in the browser: play bots, watch stored games, "
                                   "see the leaderboard",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog=EXAMPLES["web"])
    w.add_argument("--results", action="append", metavar="STORE",
                   help="a tournament's --out directory (or its results.sqlite) to watch; "
                        "repeatable; read while a tournament may still be writing it")
    w.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    w.add_argument("--port", type=PORTS.parse, default=8000,
                   help="port (default 8000; 0 picks a free one and prints the URL)")
    for field in dataclasses.fields(ServerLimits):  # the bot server's limits, same options
        default = getattr(defaults, field.name)
        w.add_argument(option_name(field.name), dest=field.name,
                       type=LIMIT_RANGES[field.name].parse, default=default,
                       help=f"{limit_help[field.name]} (default {default:,g})")
    w.set_defaults(func=_web)
    b = sub.add_parser("bot", help="a bot-protocol bot on stdin/stdout (JSON lines)")
    add_arguments(b)
    b.set_defaults(func=_bot)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eights", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"eights {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    t = sub.add_parser("tournament", help="round-robin of agents: ratings, win rates, report",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES["tournament"])
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
    t.add_argument("--engine", default="auto", choices=list(ENGINES),
                   help="play games between random, greedy and heuristic agents on the "
                        "variant's compiled core (compiled), on the Python engines (python), or "
                        f"compiled from {AUTO_MIN_GAMES:,} games on (auto, the default); the "
                        "results are the same")
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
    tr = sub.add_parser("train", help="MaskablePPO self-play training with checkpoints",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES["train"])
    tr.add_argument("--variant", choices=list(VARIANTS),
                    help="variant to train (default crazy_eights)")
    _add_flags(tr, TRAIN_FLAGS)
    tr.add_argument("--option", action="append", metavar="NAME=VALUE",
                    help="a game option, e.g. --option hand_size=5 (repeatable)")
    tr.add_argument("--resume", metavar="CHECKPOINT",
                    help="continue from a checkpoint zip or a run directory's latest.zip")
    tr.add_argument("--privileged-critic", action="store_true",
                    help="the value network also reads the hidden cards while training (the "
                         "policy, what is exported and played, never does)")
    tr.add_argument("--count-bins", action="store_true",
                    help="the network also reads the observation's small counts (hand sizes, "
                         "the stock, draws) as thresholds; an --init policy without them "
                         "starts with zero weights on them")
    tr.add_argument("--league", action="store_true",
                    help=f"draw opponents by how often they still beat the learner (PFSP); "
                         f"the pool defaults to {LEAGUE_OPPONENTS}")
    tr.add_argument("--no-progress", action="store_true", help="no progress bar")
    tr.set_defaults(func=_train)
    di = sub.add_parser("distill", help="expert iteration: a search guided by a trained "
                                         "policy labels its games, the policy learns the labels",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES["distill"])
    di.add_argument("start", help="a checkpoint zip written by eights train, or its run "
                                  "directory")
    _add_flags(di, DISTILL_FLAGS)
    di.add_argument("--no-progress", action="store_true", help="no progress bar")
    di.set_defaults(func=_distill)
    ex = sub.add_parser("export", help="write a checkpoint's policy (or an ensemble of "
                                       "several) as a torch-free .npz",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES["export"])
    ex.add_argument("sources", nargs="+", metavar="SOURCE",
                    help="a checkpoint zip written by eights train or its run directory; "
                         "several (checkpoints, run directories, exported .npz files or "
                         "shipped model names) make one ensemble that plays their mean "
                         "logits")
    ex.add_argument("out", help="the .npz to write")
    ex.set_defaults(func=_export)
    pl = sub.add_parser("play", help="play against bots at the keyboard (screen-reader friendly)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES["play"])
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
    v = sub.add_parser("variants", help="list the variants and their options",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES["variants"])
    v.set_defaults(func=_variants)
    _add_protocol_commands(sub)
    return parser


def _version() -> str:
    """The installed distribution's version (the source tree's when run uninstalled)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("eights")
    except PackageNotFoundError:
        from . import __version__

        return __version__


#: the width of output that is not a terminal (a pipe, a log): rich would fold tables at 80
#: columns there, an agent's name over three lines, where nobody's screen sets a width
LOG_WIDTH = 200


def make_console() -> Console:
    """The console of the command: a terminal's own width; elsewhere :data:`LOG_WIDTH`, or
    ``COLUMNS`` where it is set."""
    console = Console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(width=LOG_WIDTH)
    return console


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # for the report's provenance
    console = make_console()
    try:
        return args.func(args, console)
    except ConfigError as err:
        from rich.markup import escape

        console.print(f"[red]error:[/red] {escape(str(err))}", markup=True, soft_wrap=True)
        return 2


if __name__ == "__main__":
    sys.exit(main())
