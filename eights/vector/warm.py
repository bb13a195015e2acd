"""Compile every kernel of ``eights.vector`` ahead of use: ``python -m eights.vector.warm``.

numba compiles a core on its first use and caches it on disk (the package's
docstring), so a fresh install pays the compile time once, wherever it first
uses a core. That is a few seconds to a minute and a half per core, about five
CPU-minutes for all five with their searches, and where several processes
start together (a test suite's workers, a tournament's process backend, a
training run's subprocess envs) each one that misses the cache may compile the
same kernels again. This command pays it up front, once: every core's batched
entry points (:meth:`CompiledTables._warm_up
<eights.vector.tables.CompiledTables._warm_up>`), the compiled search on that
core (:mod:`eights.vector.search`, with the belief's weighed deals and, where
the core deals in compiled code, the heuristic model's chain), and the sparse
products of training (:mod:`eights.vector.sparse`), one variant per process,
``--jobs`` at a time. Run again, it loads what is cached and says so.

``make test`` runs it before the suite, so no test's duration includes a compile
(it moves the compile time more than it saves: docs/vector.md).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import TextIO

import numpy as np

from ..config import ConfigError
from .cores import COMPILED

#: the variants by their compile time, longest first (the pool starts those first)
SLOWEST_FIRST = ("crazier_eights", "baby_eating_eights", "jokers_of_death", "crazy_eights",
                 "livery_eights")
#: the search specs run on one game per variant: every kernel the search has on a core (the
#: second where an opponent model may deal: crazy_eights)
SEARCHES = ("ismcts:sims=4,core=compiled,belief=voids,opponents=heuristic,playout=heuristic",
            "ismcts:sims=4,core=compiled,belief=heuristic")
#: decisions of that game searched (enough for an opponent's choice the model weighs)
DECISIONS = 12


def _kernels(modules: Sequence[ModuleType]) -> Iterator[object]:
    """Every numba dispatcher the modules define."""
    from numba.core.dispatcher import Dispatcher

    for module in modules:
        for value in vars(module).values():
            if isinstance(value, Dispatcher):
                yield value


def _misses(modules: Sequence[ModuleType]) -> int:
    """How many signatures the modules' kernels compiled rather than loaded so far."""
    return sum(sum(k.stats.cache_misses.values()) for k in _kernels(modules))


def warm_variant(variant: str) -> tuple[str, float, int]:
    """Compile (or load) every kernel ``variant`` uses; return it, the CPU seconds spent
    and how many kernel signatures were compiled rather than loaded from the cache."""
    import importlib

    from ..agents import make_agent
    from ..engines import engine_class
    from . import batch, choices, kernels, mt, search, sparse
    from .tables import CompiledTables

    started = time.process_time()
    core = importlib.import_module(COMPILED[variant])
    modules = (core, batch, choices, kernels, mt, search, sparse)
    CompiledTables(variant, 1)
    engine = engine_class(variant)
    # every table size shares one record type, so the default table compiles them all
    game = engine(engine.Config.from_options(), seed=1)
    agents = [make_agent(SEARCHES[0], variant=variant, seed=1)]
    with contextlib.suppress(ConfigError):  # the model belief's chain, where the variant's
        agents.append(make_agent(SEARCHES[1], variant=variant, seed=1))  # deals read choices
    moves = random.Random(1)
    searched = 0
    while not game.game_over and searched < DECISIONS:
        legal = game.legal_actions()
        if len(legal) > 1:
            view = game.view(game.current_player)
            for agent in agents:
                agent.act(view)
            searched += 1
        game.step(moves.choice(legal))
    sparse.SparseRows.of(np.eye(2, dtype=np.float32))
    return variant, time.process_time() - started, _misses(modules)


def warm(variants: Sequence[str], jobs: int, out: TextIO | None = None) -> float:
    """Warm ``variants``, ``jobs`` processes at a time, the slowest first; print a line per
    variant as it finishes and return the CPU seconds spent in all."""
    unknown = [v for v in variants if v not in COMPILED]
    if unknown:
        raise ConfigError(f"no compiled core for {', '.join(map(repr, unknown))}; the "
                          f"compiled variants are {', '.join(COMPILED)}")
    if jobs < 1:
        raise ConfigError(f"--jobs is {jobs}; give 1 or more processes")
    order = sorted(dict.fromkeys(variants), key=SLOWEST_FIRST.index)
    stream = out if out is not None else sys.stdout
    total = 0.0

    def report(result: tuple[str, float, int]) -> None:
        nonlocal total
        variant, seconds, compiled = result
        total += seconds
        what = f"compiled {compiled} kernel signatures" if compiled else "loaded from the cache"
        print(f"eights.vector.warm: {variant}: {what} in {seconds:.1f} CPU s", file=stream,
              flush=True)

    if jobs == 1 or len(order) == 1:
        for variant in order:
            report(warm_variant(variant))
    else:
        with concurrent.futures.ProcessPoolExecutor(
                min(jobs, len(order)), mp_context=multiprocessing.get_context("spawn")) as pool:
            for done in concurrent.futures.as_completed(
                    [pool.submit(warm_variant, v) for v in order]):
                report(done.result())
    return total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m eights.vector.warm",
        description="Compile every compiled core's kernels and its search (or load them from "
                    "numba's disk cache), so later processes start at once.")
    parser.add_argument("--variants", default=",".join(COMPILED),
                        help=f"comma-separated (default all: {','.join(COMPILED)})")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes at a time (default: the CPUs)")
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    started = time.perf_counter()
    try:
        cpu = warm(variants, args.jobs)
    except ConfigError as err:
        parser.error(str(err))
    wall = time.perf_counter() - started
    print(f"eights.vector.warm: {len(variants)} variant(s) in {wall:.1f} s ({cpu:.1f} CPU s)",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
