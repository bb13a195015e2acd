"""Throughput of eights' engine and envs next to OpenSpiel, RLCard and PettingZoo.

Every measurement plays whole games with uniformly random legal actions and
counts *decisions* (one choice of one agent: one engine ``step`` or one env
``step`` with an action) per second of this process's CPU time, resets and
observation building included, for a fixed CPU-time budget each. The rows are
interleaved: each plays for a slice of at most :data:`SLICE` seconds in turn,
round after round, so a machine that is busier for a while slows every row
alike and the ratios between rows hold. Run it from the repository::

    .venv/bin/python benchmarks/throughput.py              # ~3 CPU s per measurement
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
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

SEED = 20240601
DEFAULT_SECONDS = 3.0
QUICK_SECONDS = 0.3
#: CPU seconds a row plays in one turn before the next row plays
SLICE = 0.25

#: the default (v2) AEC row of each variant; each is measured again with
#: ``backend="compiled"`` (the game on one table of the variant's compiled core) as
#: ``<key>_compiled``
AEC_V2 = {"crazy": "aec_2p_v2", "livery": "livery_aec_2p", "baby": "baby_aec_4p",
          "jokers": "jokers_aec_3p", "crazier": "crazier_aec_2p"}
#: per other variant: its vector row and its AEC row (the ``*_vector_vs_aec`` checks)
VECTOR_PAIRS = {short: (vector, AEC_V2[short]) for short, vector in (
    ("livery", "livery_vector_2p"), ("baby", "baby_vector_4p"),
    ("jokers", "jokers_vector_3p"), ("crazier", "crazier_vector_2p"))}

#: the target checks: ratios of decisions/s and absolute rates
TARGETS = {
    "aec_vs_rlcard_uno_core": 1.4,
    "aec_vs_rlcard_uno": 2.0,
    "aec_decisions_per_s": 50_000.0,
    "engine_vs_openspiel": 1.0,
    "baby_aec_4p_decisions_per_s": 20_000.0,
    "jokers_aec_3p_vs_rlcard_uno": 0.35,
    "crazier_aec_2p_vs_rlcard_uno": 0.4,
    "vector_decisions_per_s": 1_000_000.0,
    "vector_vs_aec_v2": 20.0,
    # every other variant's compiled core against its own AEC loop
    **{f"{short}_vector_vs_aec": 10.0 for short in VECTOR_PAIRS},
    # #29: every AEC env at least level with RLCard's uno env, crazy_eights 2p 2x: the
    # envs with backend="compiled"
    **{f"{short}_aec_compiled_vs_rlcard_uno": 2.0 if short == "crazy" else 1.0
       for short in AEC_V2},
}

# A play function plays one game from a seed and returns
# (decisions, {counter: count}); a Row sums the counters over the timed games.
PlayFn = Callable[[int], tuple[int, dict[str, int]]]


class Row:
    """One measurement being played: its games, decisions, counters and CPU time so far.

    ``play`` plays the game of a seed; the row plays seeds ``seed``,
    ``seed + 1``, ... after one untimed warm-up game. ``per_game`` names the
    per-game figures of the result: ``new_key="counter"`` is the counter's
    sum over the timed games divided by the games. ``extra`` is copied into
    the result.
    """

    def __init__(self, play: PlayFn, seed: int, extra: dict[str, Any] | None = None,
                 **per_game: str):
        self.play, self.seed, self.per_game = play, seed, per_game
        self.extra = dict(extra or {})
        self.games = self.decisions = 0
        self.cpu = 0.0
        self.totals: dict[str, int] = {}
        play(seed - 1)  # warm-up

    def run(self, budget: float, max_games: int | None = None) -> None:
        """Play whole games for ``budget`` CPU seconds (at least one game)."""
        start = time.process_time()
        while True:
            d, counts = self.play(self.seed + self.games)
            self.decisions += d
            self.games += 1
            for key, value in counts.items():
                self.totals[key] = self.totals.get(key, 0) + value
            used = time.process_time() - start
            if used >= budget or (max_games is not None and self.games >= max_games):
                break
        self.cpu += used

    def done(self, seconds: float, max_games: int | None) -> bool:
        return self.cpu >= seconds or (max_games is not None and self.games >= max_games)

    def result(self) -> dict[str, Any]:
        cpu = max(self.cpu, 1e-9)
        out = {
            "decisions_per_s": self.decisions / cpu,
            "games_per_s": self.games / cpu,
            "decisions_per_game": self.decisions / self.games,
            "games": self.games,
            "decisions": self.decisions,
            "seconds": self.cpu,
        }
        for new_key, counter in self.per_game.items():
            out[new_key] = self.totals.get(counter, 0) / self.games
        return {**out, **self.extra}


def interleave(rows: Sequence[Row], seconds: float, max_games: int | None = None) -> None:
    """Play ``rows`` in turns of at most :data:`SLICE` CPU seconds until each has had
    ``seconds`` (or ``max_games`` games)."""
    while True:
        waiting = [row for row in rows if not row.done(seconds, max_games)]
        if not waiting:
            return
        for row in waiting:
            left = max_games - row.games if max_games is not None else None
            row.run(min(SLICE, seconds - row.cpu), left)


# ---------------------------------------------------------------- measurements
def row_engine(*, variant: str = "crazy_eights", num_players: int = 2,
               seed: int = SEED) -> Row:
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

    return Row(play, seed, steps_per_game="steps", truncated_fraction="truncated")


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


def row_aec(*, env_name: str = "crazy_eights_v1", num_players: int = 2,
            seed: int = SEED, backend: str = "python") -> Row:
    """Our PettingZoo AEC env loop (``agent_iter`` / ``last`` / ``step``), its game on the
    Python engine or (``backend="compiled"``) on one table of the compiled core.

    Raises ImportError when ``eights.envs.<env_name>`` does not exist (yet).
    """
    module = importlib.import_module(f"eights.envs.{env_name}")
    env = module.env(num_players=num_players, backend=backend)
    rng = random.Random(seed)

    def play(game_seed: int) -> tuple[int, dict[str, int]]:
        return _aec_game(env, game_seed, rng), {}

    return Row(play, seed)


#: tables a vector row advances together, and the rounds (one decision per table) a
#: "game" of the row plays
VECTOR_TABLES = 1024
VECTOR_ROUNDS = 20


def row_vector(*, variant: str = "crazy_eights", num_players: int = 2,
               tables: int = VECTOR_TABLES, backend: str = "compiled",
               seed: int = SEED) -> Row:
    """``eights.vector``'s tables, every seat played by uniformly random legal actions: each
    round writes the observation and mask of every table's seat to act, picks, and steps
    all tables; ended games are dealt again at once. A "game" of this row is
    :data:`VECTOR_ROUNDS` rounds. ``memory_mb``: the tables' state, observations and masks.
    """
    from eights.vector.kernels import random_actions
    from eights.vector.tables import make_tables

    core = make_tables(variant, tables, backend, num_players=num_players)
    core.reset(seed)
    every = np.arange(tables)
    obs = np.zeros((tables, core.observation_size), np.float32)
    masks = np.zeros((tables, core.num_actions), np.int8)
    rng = np.random.default_rng(seed)

    def play(_seed: int) -> tuple[int, dict[str, int]]:
        for _ in range(VECTOR_ROUNDS):
            core.observe(every, core.current, obs, masks)
            core.step(every, random_actions(masks, rng))
            over = np.flatnonzero(core.current < 0)
            if len(over):
                core.next_game(over)
        return VECTOR_ROUNDS * tables, {}

    state = getattr(core, "state", None)
    size = obs.nbytes + masks.nbytes + (state.nbytes if state is not None else 0)
    return Row(play, seed, extra={"tables": tables, "memory_mb": size / 2**20})


def row_vector_learner(*, variant: str = "crazy_eights", num_players: int = 2,
                       tables: int = VECTOR_TABLES, opponents: str = "heuristic",
                       seed: int = SEED) -> Row:
    """``eights.vector.make``: a random learner at every table against batched ``opponents``
    (the compiled heuristic); decisions count the learner's only (the opponents' moves are
    the env's work), as a trainer sees them."""
    from eights.vector import make
    from eights.vector.kernels import random_actions

    env = make(variant, tables, opponents, num_players=num_players, seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)

    def play(_seed: int) -> tuple[int, dict[str, int]]:
        for _ in range(VECTOR_ROUNDS):
            env.step(random_actions(env.masks, rng))
        return VECTOR_ROUNDS * tables, {}

    return Row(play, seed, extra={"tables": tables})


def row_openspiel(*, num_players: int = 2, observe: bool = True, seed: int = SEED) -> Row:
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

    return Row(play, seed, chance_steps_per_game="chance", single_option_per_game="single",
               no_winner_fraction="no_winner")


def row_rlcard_uno(*, seed: int = SEED) -> Row:
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

    return Row(play, seed)


PETTINGZOO_CLASSIC = ("texas_holdem_v4", "leduc_holdem_v4")


def row_pettingzoo_classic(*, names: Sequence[str] = PETTINGZOO_CLASSIC,
                           seed: int = SEED) -> Row:
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

        return Row(play, seed, extra={"env": name})
    raise ImportError("; ".join(f"{', '.join(envs)}: {msg}" for msg, envs in errors.items()))


def _alone(make_row: Callable[..., Row]) -> Callable[..., dict[str, Any]]:
    """``bench_*(seconds, seed=..., max_games=..., **options)``: one row measured alone."""

    def bench(seconds: float = DEFAULT_SECONDS, *, seed: int = SEED,
              max_games: int | None = None, **options: Any) -> dict[str, Any]:
        row = make_row(seed=seed, **options)
        interleave([row], seconds, max_games)
        return row.result()

    bench.__name__ = make_row.__name__.replace("row_", "bench_")
    bench.__doc__ = make_row.__doc__
    return bench


bench_engine = _alone(row_engine)
bench_aec = _alone(row_aec)
bench_openspiel = _alone(row_openspiel)
bench_rlcard_uno = _alone(row_rlcard_uno)
bench_pettingzoo_classic = _alone(row_pettingzoo_classic)
bench_vector = _alone(row_vector)
bench_vector_learner = _alone(row_vector_learner)


# ----------------------------------------------------------------------- runner
#: key -> (label, players, row maker, options); the order of the table
MEASUREMENTS: dict[str, tuple[str, str, Callable[..., Row], dict[str, Any]]] = {
    "engine_2p": ("eights engine crazy_eights (raw)", "2", row_engine, {}),
    "aec_2p": ("eights AEC crazy_eights_v1", "2", row_aec, {}),
    "aec_4p": ("eights AEC crazy_eights_v1", "4", row_aec, {"num_players": 4}),
    # the default envs (v2: the public history in the observation); crazy_eights_v1 above
    # stays the README's comparison with the peers
    "aec_2p_v2": ("eights AEC crazy_eights_v2", "2", row_aec, {"env_name": "crazy_eights_v2"}),
    "baby_aec_4p": ("eights AEC baby_eating_eights_v2", "4", row_aec,
                    {"env_name": "baby_eating_eights_v2", "num_players": 4}),
    "livery_aec_2p": ("eights AEC livery_eights_v2", "2", row_aec,
                      {"env_name": "livery_eights_v2"}),
    "jokers_aec_3p": ("eights AEC jokers_of_death_v2", "3", row_aec,
                      {"env_name": "jokers_of_death_v2", "num_players": 3}),
    "crazier_aec_2p": ("eights AEC crazier_eights_v2", "2", row_aec,
                       {"env_name": "crazier_eights_v2"}),
    "vector_2p": (f"eights.vector crazy_eights, {VECTOR_TABLES} tables", "2", row_vector, {}),
    # every compiled core has a vector row: the same row maker, its variant named
    "livery_vector_2p": (f"eights.vector livery_eights, {VECTOR_TABLES} tables", "2",
                         row_vector, {"variant": "livery_eights"}),
    "baby_vector_4p": (f"eights.vector baby_eating_eights, {VECTOR_TABLES} tables", "4",
                       row_vector, {"variant": "baby_eating_eights", "num_players": 4}),
    "jokers_vector_3p": (f"eights.vector jokers_of_death, {VECTOR_TABLES} tables", "3",
                         row_vector, {"variant": "jokers_of_death", "num_players": 3}),
    "crazier_vector_2p": (f"eights.vector crazier_eights, {VECTOR_TABLES} tables", "2",
                          row_vector, {"variant": "crazier_eights"}),
    "vector_learner_2p": (f"eights.vector.make vs heuristic, {VECTOR_TABLES} tables", "2",
                          row_vector_learner, {}),
    "openspiel_2p": ("OpenSpiel crazy_eights + obs tensor", "2", row_openspiel, {}),
    "openspiel_2p_no_obs": ("OpenSpiel crazy_eights, no obs", "2", row_openspiel,
                            {"observe": False}),
    "openspiel_5p": ("OpenSpiel crazy_eights + obs tensor", "5", row_openspiel,
                     {"num_players": 5}),
    "rlcard_uno": ("RLCard uno env", "2", row_rlcard_uno, {}),
    "pettingzoo_classic": ("PettingZoo classic", "2", row_pettingzoo_classic, {}),
}
MEASUREMENTS.update({  # the AEC_V2 rows again on the compiled core
    f"{key}_compiled": (f"{MEASUREMENTS[key][0]}, backend=compiled", MEASUREMENTS[key][1],
                        row_aec, {**MEASUREMENTS[key][3], "backend": "compiled"})
    for key in AEC_V2.values()})


def run_all(seconds: float, *, seed: int = SEED, max_games: int | None = None,
            only: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """Every measurement (or those in ``only``), interleaved; a skipped one is
    ``{"skipped": reason}``."""
    rows: dict[str, Row] = {}
    skipped: dict[str, dict[str, Any]] = {}
    for key, (_label, _players, make_row, options) in MEASUREMENTS.items():
        if only is not None and key not in only:
            continue
        try:
            rows[key] = make_row(seed=seed, **options)
        except ImportError as err:
            skipped[key] = {"skipped": f"not available ({err})"}
    interleave(list(rows.values()), seconds, max_games)
    return {key: rows[key].result() if key in rows else skipped[key]
            for key in MEASUREMENTS if key in rows or key in skipped}


def ratios(results: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The target checks: value, target and PASS / MISS (n/a when a row was skipped)."""

    def rate(key: str) -> float | None:
        return results.get(key, {}).get("decisions_per_s")

    aec, uno, engine, ospiel = (rate(k) for k in ("aec_2p", "rlcard_uno", "engine_2p",
                                                  "openspiel_2p"))
    values = {
        "aec_vs_rlcard_uno_core": aec / uno if aec and uno else None,
        "aec_vs_rlcard_uno": aec / uno if aec and uno else None,
        "aec_decisions_per_s": aec,
        "engine_vs_openspiel": engine / ospiel if engine and ospiel else None,
        "baby_aec_4p_decisions_per_s": rate("baby_aec_4p"),
        "jokers_aec_3p_vs_rlcard_uno": (rate("jokers_aec_3p") / uno
                                        if rate("jokers_aec_3p") and uno else None),
        "crazier_aec_2p_vs_rlcard_uno": (rate("crazier_aec_2p") / uno
                                         if rate("crazier_aec_2p") and uno else None),
        "vector_decisions_per_s": rate("vector_2p"),
        "vector_vs_aec_v2": (rate("vector_2p") / rate("aec_2p_v2")
                             if rate("vector_2p") and rate("aec_2p_v2") else None),
        **{f"{short}_vector_vs_aec": (rate(vector) / rate(aec)
                                      if rate(vector) and rate(aec) else None)
           for short, (vector, aec) in VECTOR_PAIRS.items()},
        **{f"{short}_aec_compiled_vs_rlcard_uno": (rate(f"{key}_compiled") / uno
                                                   if rate(f"{key}_compiled") and uno
                                                   else None)
           for short, key in AEC_V2.items()},
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
        f"{env['cpu_count']} CPUs ({env['cpu']}); ~{seconds:g} CPU s per measurement, "
        f"interleaved in turns of {SLICE:g} s"
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
        "aec_vs_rlcard_uno_core": ("our AEC env loop (2p) / RLCard uno (table core)", 2),
        "aec_vs_rlcard_uno": ("our AEC env loop (2p) / RLCard uno (first goal)", 2),
        "aec_decisions_per_s": ("our AEC env loop (2p), decisions/s", 0),
        "baby_aec_4p_decisions_per_s": ("baby_eating_eights AEC loop (4p), decisions/s", 0),
        "jokers_aec_3p_vs_rlcard_uno": ("jokers_of_death AEC loop (3p) / RLCard uno", 2),
        "crazier_aec_2p_vs_rlcard_uno": ("crazier_eights AEC loop (2p) / RLCard uno", 2),
        "engine_vs_openspiel": ("our raw engine / OpenSpiel + obs (2p)", 2),
        "vector_decisions_per_s": (f"eights.vector crazy_eights (2p, {VECTOR_TABLES} tables), "
                                   f"decisions/s", 0),
        "vector_vs_aec_v2": ("eights.vector / our AEC crazy_eights_v2 loop (2p)", 2),
        **{f"{short}_vector_vs_aec": (
            f"eights.vector / our AEC loop, {MEASUREMENTS[vector][0].split()[1].rstrip(',')} "
            f"({MEASUREMENTS[vector][1]}p)", 2) for short, (vector, _) in VECTOR_PAIRS.items()},
        **{f"{short}_aec_compiled_vs_rlcard_uno": (
            f"{MEASUREMENTS[key][0].removeprefix('eights AEC ')} ({MEASUREMENTS[key][1]}p) / "
            f"RLCard uno", 2) for short, key in AEC_V2.items()},
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
                        help=f"CPU seconds per measurement (default {DEFAULT_SECONDS:g}; "
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
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
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
