"""The compiled cores' entry points under one name, picked by the table record's type.

Code that runs on any compiled core (the batched entry points of
:mod:`eights.vector.batch`, the search of :mod:`eights.vector.search`) calls
the functions here. Each is a numba ``overload``: when a kernel is
compiled for a record type, the overload finds the core whose
``state_dtype()`` that record is (:data:`COMPILED`) and
calls that core's function, so the choice costs nothing at run time and a
kernel is compiled, and cached on disk, once per core. Called from Python
they refuse: they exist for compiled code.

A core keeps these signatures (``rules`` and ``hints`` are what its
``constants(engine, config)`` returns):

* ``legal_actions(t, prm, out) -> k``: the legal ids, ascending, in ``out[:k]``;
* ``step(t, prm, rules, a, buf)``: the player to act plays ``a`` (legal);
* ``returns(t, prm, out)``: each seat's reward (0 until the game ends);
* ``heuristic_action(t, prm, rules, hints, buf) -> a``: the heuristic's choice;
* ``best_suit(t, seat) -> s``: the suit ``seat`` holds most, as the heuristic reckons it;
* ``hand_number(t) -> h``: the hand of a match being played (0 where there are no matches);
* ``match_totals(t, out)``: every seat's match total so far into ``out`` (one per seat);
  these two are :mod:`eights.vector.kernels`' for a core that does not define its own
  (every record with ``hand_number`` and ``scores`` reads them alike);
* ``new_game(t, prm, rules, game_seed)``: deal the game of that seed;
* ``observe(t, prm, offs, scales, seat, out)``: a seat's observation;

and a record with ``legal`` (the seat to act's legal mask, one entry per action id, all
0 once the game is over: the batched observations copy it), ``seeder``
(the table's stream of game seeds), ``current``, and for the search
``stock``/``stock_len``, the Mersenne Twister's ``mti`` and, where the search
deals in compiled code (``DEALS_COMPILED``, true unless the core says
otherwise), the pile games' ``hands`` (copies per seat and card id of the
standard deck) and ``hand_len``.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numba
from numba.extending import overload

from ..config import ConfigError
from . import kernels

#: variants with a compiled core -> the module that holds it (imported, and compiled, on
#: first use only)
COMPILED = {"crazy_eights": "eights.vector.crazy_eights",
            "livery_eights": "eights.vector.livery_eights",
            "jokers_of_death": "eights.vector.jokers_of_death",
            "baby_eating_eights": "eights.vector.baby_eating_eights",
            "crazier_eights": "eights.vector.crazier_eights"}


class NotCompiled(ConfigError):
    """A compiled core's refusal of an option config it does not play (its
    ``compile_config`` raises it, naming the option): ``make_tables(backend="auto")``
    then runs the Python engines, ``backend="compiled"`` passes it on."""


@functools.cache
def _record_types() -> tuple[tuple[Any, ModuleType], ...]:
    """(numba record type, core module) per compiled core."""
    found = []
    for name in COMPILED.values():
        core = importlib.import_module(name)
        found.append((numba.from_dtype(core.state_dtype()), core))
    return tuple(found)


def core_of(record_type: Any) -> ModuleType | None:
    """The core module whose table record has numba type ``record_type``."""
    for known, core in _record_types():
        if record_type == known:
            return core
    return None


def _dispatched(name: str, shared: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """A function that compiled code calls with a table record first: numba resolves it to
    the record's core's function ``name`` (an ``overload``), or to ``shared`` where the
    core has none; Python may not call it."""
    # (no annotations on these three: numba compares the typer's parameters with the
    # implementation's, annotations included)
    def stub(t, *args):
        raise TypeError(f"eights.vector.cores.{name} runs in compiled code only; call the "
                        f"variant's core module from Python")

    def typer(t, *args):
        core = core_of(t)
        if core is None:
            return None
        fn = getattr(core, name) if shared is None else getattr(core, name, shared)

        def impl(t, *args):
            return fn(t, *args)
        return impl

    stub.__name__ = name
    overload(stub)(typer)
    return stub


legal_actions = _dispatched("legal_actions")
step = _dispatched("step")
returns = _dispatched("returns")
heuristic_action = _dispatched("heuristic_action")
best_suit = _dispatched("best_suit")
new_game = _dispatched("new_game")
observe = _dispatched("observe")
hand_number = _dispatched("hand_number", kernels.hand_number)
match_totals = _dispatched("match_totals", kernels.match_totals)
