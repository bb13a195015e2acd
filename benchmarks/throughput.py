"""Throughput of eights' engine and envs next to OpenSpiel, RLCard and PettingZoo.

Every measurement plays whole games with uniformly random legal actions and
counts *decisions* (one choice of one agent: one engine ``step`` or one env
``step`` with an action) per second of wall-clock time, resets and observation
building included, for a fixed time budget each. Run it from the repository::

    .venv/bin/python benchmarks/throughput.py              # ~3 s per measurement
    .venv/bin/python benchmarks/throughput.py --quick      # CI-sized, ~0.3 s each
    .venv/bin/python benchmarks/throughput.py --json out.json

What each row counts is in ``benchmarks/README.md``. Seeds are fixed, so two
runs play the same games (as many as fit in the budget).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

SEED = 20240601
DEFAULT_SECONDS = 3.0
QUICK_SECONDS = 0.3

#: the target checks: two ratios of decisions/s and one absolute rate
TARGETS = {
    "aec_vs_rlcard_uno": 2.0,
    "aec_decisions_per_s": 50_000.0,
    "engine_vs_openspiel": 1.0,
    "baby_aec_4p_decisions_per_s": 20_000.0,
}

# A play function plays one game from a seed and returns
# (decisions, {counter: count}); _measure sums the counters over the timed games.
PlayFn = Callable[[int], tuple[int, dict[str, int]]]


def _measure(play: PlayFn, seconds: float, max_games: int | None, seed: int) -> dict[str, Any]:
    """Play games ``seed``, ``seed + 1``, ... until ``seconds`` pass (or ``max_games``).

    One untimed warm-up game comes first. At least one game is always timed.
    """
    play(seed - 1)
    games = decisions = 0
    totals: dict[str, int] = {}
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        d, counts = play(seed + games)
        decisions += d
        games += 1
        for key, value in counts.items():
            totals[key] = totals.get(key, 0) + value
        now = time.perf_counter()
        if now >= deadline or (max_games is not None and games >= max_games):
            break
    elapsed = now - start
    return {
        "decisions_per_s": decisions / elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_game": decisions / games,
        "games": games,
        "decisions": decisions,
        "seconds": elapsed,
        "totals": totals,
    }


def _per_game(result: dict[str, Any], **names: str) -> dict[str, Any]:
    """Turn the summed counters into per-game figures: ``new_key="counter"``."""
    totals = result.pop("totals")
    for new_key, counter in names.items():
        result[new_key] = totals.get(counter, 0) / result["games"]
    return result


# ---------------------------------------------------------------- measurements
def bench_engine(seconds: float = DEFAULT_SECONDS, *, variant: str = "crazy_eights",
                 num_players: int = 2, seed: int = SEED,
                 max_games: int | None = None) -> dict[str, Any]:
    """Our raw rules engine: ``legal_actions()`` then ``step()``, no observations.

    The engine applies single-option steps (a forced pass) itself; they are not
    decisions. ``steps_per_game`` counts them too; ``truncated_fraction`` is the
    share of games cut at the engine's ``max_turns``.
    """
    import eights

    g = eights.make_game(variant, num_players=num_players)
    rng = random.Random(seed)

    def play(game_seed: int) -> tuple[int, dict[str, int]]:
        g.reset(seed=game_seed)
        d = 0
        while not g.game_over:
            la = g.legal_actions()
            g.step(la[rng.randrange(len(la))])
            d += 1
        return d, {"steps": g.turn, "truncated": int(g.truncated)}

    result = _measure(play, seconds, max_games, seed)
    return _per_game(result, steps_per_game="steps", truncated_fraction="truncated")


def _aec_game(env: Any, game_seed: int, rng: random.Random) -> int:
    """One game of a PettingZoo AEC env with random legal actions; returns the decisions."""
    env.reset(seed=game_seed)
    d = 0
    for _agent in env.agent_iter():
        obs, _rew, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        d += 1
    return d


def bench_aec(seconds: float = DEFAULT_SECONDS, *, env_name: str = "crazy_eights_v1",
              num_players: int = 2, seed: int = SEED,
              max_games: int | None = None) -> dict[str, Any]:
    """Our PettingZoo AEC env loop (``agent_iter`` / ``last`` / ``step``).

    Raises ImportError when ``eights.envs.<env_name>`` does not exist (yet).
    """
    module = importlib.import_module(f"eights.envs.{env_name}")
    env = module.env(num_players=num_players)
    rng = random.Random(seed)

    def play(game_seed: int) -> tuple[int, dict[str, int]]:
        return _aec_game(env, game_seed, rng), {}

    return _per_game(_measure(play, seconds, max_games, seed))


def bench_openspiel(seconds: float = DEFAULT_SECONDS, *, num_players: int = 2,
                    observe: bool = True, seed: int = SEED,
                    max_games: int | None = None) -> dict[str, Any]:
    """OpenSpiel ``crazy_eights`` through pyspiel, chance nodes sampled in Python.

    Decisions are the non-chance ``apply_action`` calls, single-option ones
    included (``single_option_per_game`` of them); with ``observe`` each
    decision also builds ``observation_tensor(player)``. ``no_winner_fraction``
    is the share of games where nobody went out: OpenSpiel never reshuffles by
    default, so a game also ends once the stock is out and every player passes
    (or after ``max_turns`` = 100 card plays).
    """
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": num_players})
    rng = random.Random(seed)

    def play(_game_seed: int) -> tuple[int, dict[str, int]]:
        state = game.new_initial_state()
        d = chance = single = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                chance += 1
                continue
            if observe:
                state.observation_tensor(state.current_player())
            la = state.legal_actions()
            if len(la) == 1:
                single += 1
            state.apply_action(la[rng.randrange(len(la))])
            d += 1
        no_winner = int(max(state.returns()) < 0)  # the player who went out scores 0
        return d, {"chance": chance, "single": single, "no_winner": no_winner}

    result = _measure(play, seconds, max_games, seed)
    return _per_game(result, chance_steps_per_game="chance",
                     single_option_per_game="single", no_winner_fraction="no_winner")


def bench_rlcard_uno(seconds: float = DEFAULT_SECONDS, *, seed: int = SEED,
                     max_games: int | None = None) -> dict[str, Any]:
    """RLCard ``uno`` (2 players): ``reset`` / ``step``; each step builds RLCard's state dict."""
    import rlcard

    env = rlcard.make("uno", config={"seed": seed})
    rng = random.Random(seed)

    def play(_game_seed: int) -> tuple[int, dict[str, int]]:
        state, _pid = env.reset()
        d = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _pid = env.step(legal[rng.randrange(len(legal))])
            d += 1
        return d, {}

    return _per_game(_measure(play, seconds, max_games, seed))


PETTINGZOO_CLASSIC = ("texas_holdem_v4", "leduc_holdem_v4")


def bench_pettingzoo_classic(seconds: float = DEFAULT_SECONDS, *,
                             names: Sequence[str] = PETTINGZOO_CLASSIC, seed: int = SEED,
                             max_games: int | None = None) -> dict[str, Any]:
    """The first of PettingZoo's own classic card envs that imports, same loop as ours.

    Raises ImportError naming what is missing when none imports (they need
    rlcard, and pygame for rendering).
    """
    errors: dict[str, list[str]] = {}  # message -> env names
    for name in names:
        try:
            module = importlib.import_module(f"pettingzoo.classic.{name}")
        except ImportError as err:
            errors.setdefault(str(err), []).append(name)
            continue
        env = module.env()
        rng = random.Random(seed)

        def play(game_seed: int, env: Any = env, rng: random.Random = rng
                 ) -> tuple[int, dict[str, int]]:
            return _aec_game(env, game_seed, rng), {}

        result = _per_game(_measure(play, seconds, max_games, seed))
        result["env"] = name
        return result
    raise ImportError("; ".join(f"{', '.join(envs)}: {msg}" for msg, envs in errors.items()))


# ----------------------------------------------------------------------- runner
#: key -> (label, players, function, kwargs); the order of the table
MEASUREMENTS: dict[str, tuple[str, str, Callable[..., dict[str, Any]], dict[str, Any]]] = {
    "engine_2p": ("eights engine crazy_eights (raw)", "2", bench_engine, {}),
    "aec_2p": ("eights AEC crazy_eights_v1", "2", bench_aec, {}),
    "aec_4p": ("eights AEC crazy_eights_v1", "4", bench_aec, {"num_players": 4}),
    "baby_aec_4p": ("eights AEC baby_eating_eights_v1", "4", bench_aec,
                    {"env_name": "baby_eating_eights_v1", "num_players": 4}),
    "livery_aec_2p": ("eights AEC livery_eights_v1", "2", bench_aec,
                      {"env_name": "livery_eights_v1"}),
    "openspiel_2p": ("OpenSpiel crazy_eights + obs tensor", "2", bench_openspiel, {}),
    "openspiel_2p_no_obs": ("OpenSpiel crazy_eights, no obs", "2", bench_openspiel,
                            {"observe": False}),
    "openspiel_5p": ("OpenSpiel crazy_eights + obs tensor", "5", bench_openspiel,
                     {"num_players": 5}),
    "rlcard_uno": ("RLCard uno env", "2", bench_rlcard_uno, {}),
    "pettingzoo_classic": ("PettingZoo classic", "2", bench_pettingzoo_classic, {}),
}


def run_all(seconds: float, *, seed: int = SEED, max_games: int | None = None,
            only: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """Every measurement (or those in ``only``); a skipped one is ``{"skipped": reason}``."""
    results: dict[str, dict[str, Any]] = {}
    for key, (_label, _players, fn, kwargs) in MEASUREMENTS.items():
        if only is not None and key not in only:
            continue
        try:
            results[key] = fn(seconds, seed=seed, max_games=max_games, **kwargs)
        except ImportError as err:
            results[key] = {"skipped": f"not available ({err})"}
    return results


def ratios(results: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The target checks: value, target and PASS / MISS (n/a when a row was skipped)."""

    def rate(key: str) -> float | None:
        return results.get(key, {}).get("decisions_per_s")

    aec, uno, engine, ospiel = (rate(k) for k in ("aec_2p", "rlcard_uno", "engine_2p",
                                                  "openspiel_2p"))
    values = {
        "aec_vs_rlcard_uno": aec / uno if aec and uno else None,
        "aec_decisions_per_s": aec,
        "engine_vs_openspiel": engine / ospiel if engine and ospiel else None,
        "baby_aec_4p_decisions_per_s": rate("baby_aec_4p"),
    }
    out = {}
    for name, value in values.items():
        target = TARGETS[name]
        status = "n/a" if value is None else ("PASS" if value >= target else "MISS")
        out[name] = {"value": value, "target": target, "status": status}
    return out


def environment() -> dict[str, Any]:
    """Versions and machine facts printed with the figures."""

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    cpu_model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "eights": version("eights"),
        "open_spiel": version("open_spiel"),
        "rlcard": version("rlcard"),
        "pettingzoo": version("pettingzoo"),
        "cpu_count": os.cpu_count(),
        "cpu": cpu_model,
        "platform": platform.platform(),
    }


def _fmt(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def report(results: dict[str, dict[str, Any]], checks: dict[str, dict[str, Any]],
           env: dict[str, Any], seconds: float) -> None:
    """Print the environment, the figures and the target checks as rich tables."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:  # piped or redirected: rich would wrap at 80 columns
        console.width = 130
    console.print(
        f"Python {env['python']}, numpy {env['numpy']}, OpenSpiel {env['open_spiel']}, "
        f"RLCard {env['rlcard']}, PettingZoo {env['pettingzoo']}; "
        f"{env['cpu_count']} CPUs ({env['cpu']}); ~{seconds:g} s per measurement"
    )
    table = Table(title="Random-play throughput (decisions = an agent's choices)")
    for col in ("measurement", "players", "decisions/s", "games/s", "decisions/game",
                "games", "notes"):
        table.add_column(col, justify="left" if col in ("measurement", "notes") else "right")
    for key, result in results.items():
        label, players, _fn, _kwargs = MEASUREMENTS[key]
        if "skipped" in result:
            table.add_row(label, players, "-", "-", "-", "-", result["skipped"])
            continue
        notes = []
        if "env" in result:
            label = f"{label} {result['env']}"
        if "steps_per_game" in result:
            notes.append(f"{result['steps_per_game']:.0f} steps/game incl. forced")
        if "truncated_fraction" in result:
            notes.append(f"{result['truncated_fraction']:.0%} cut at max_turns")
        if "single_option_per_game" in result:
            notes.append(f"{result['single_option_per_game']:.0f} single-option/game")
        if "no_winner_fraction" in result:
            notes.append(f"{result['no_winner_fraction']:.0%} nobody out")
        table.add_row(label, players, _fmt(result["decisions_per_s"]),
                      _fmt(result["games_per_s"], 1), _fmt(result["decisions_per_game"], 1),
                      str(result["games"]), ", ".join(notes))
    console.print(table)

    checks_table = Table(title="Targets")
    for col in ("check", "value", "target", "result"):
        checks_table.add_column(col, justify="left" if col == "check" else "right")
    labels = {
        "aec_vs_rlcard_uno": ("our AEC env loop (2p) / RLCard uno", 2),
        "aec_decisions_per_s": ("our AEC env loop (2p), decisions/s", 0),
        "baby_aec_4p_decisions_per_s": ("baby_eating_eights AEC loop (4p), decisions/s", 0),
        "engine_vs_openspiel": ("our raw engine / OpenSpiel + obs (2p)", 2),
    }
    for name, check in checks.items():
        label, digits = labels[name]
        ratio = digits > 0
        value = _fmt(check["value"], digits) + ("x" if ratio and check["value"] else "")
        target = ">= " + _fmt(check["target"], digits) + ("x" if ratio else "")
        style = {"PASS": "green", "MISS": "red"}.get(check["status"], "yellow")
        checks_table.add_row(label, value, target, f"[{style}]{check['status']}[/{style}]")
    console.print(checks_table)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=None,
                        help=f"time budget per measurement (default {DEFAULT_SECONDS:g}; "
                             f"{QUICK_SECONDS:g} with --quick)")
    parser.add_argument("--quick", action="store_true", help="CI-sized run")
    parser.add_argument("--seed", type=int, default=SEED, help="base seed (default %(default)s)")
    parser.add_argument("--only", nargs="+", choices=list(MEASUREMENTS), metavar="NAME",
                        help=f"run only these measurements: {', '.join(MEASUREMENTS)}")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures here")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (
        QUICK_SECONDS if args.quick else DEFAULT_SECONDS)
    if seconds <= 0:
        parser.error("--seconds must be positive")

    env = environment()
    results = run_all(seconds, seed=args.seed, only=args.only)
    checks = ratios(results)
    report(results, checks, env, seconds)
    if args.json is not None:
        payload: dict[str, Any] = {
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "command": " ".join(["benchmarks/throughput.py",
                             *(sys.argv[1:] if argv is None else argv)]),
            "seconds": seconds,
            "seed": args.seed,
            "environment": env,
            "results": results,
            "targets": checks,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
