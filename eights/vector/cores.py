"""The compiled cores' entry points under one name, picked by the table record's type.

Code that runs on any compiled core (the search of :mod:`eights.vector.search`)
calls :func:`legal_actions`, :func:`step`, :func:`returns` and
:func:`heuristic_action` here. Each is a numba ``overload``: when a kernel is
compiled for a record type, the overload finds the core whose
``state_dtype()`` that record is (:data:`~eights.vector.tables.COMPILED`) and
calls that core's function, so the choice costs nothing at run time and a
kernel is compiled, and cached on disk, once per core. Called from Python
they refuse: they exist for compiled code.

A core keeps these signatures (``rules`` and ``hints`` are what its
``constants(engine, config)`` returns):

* ``legal_actions(t, prm, out) -> k``: the legal ids, ascending, in ``out[:k]``;
* ``step(t, prm, rules, a, buf)``: the player to act plays ``a`` (legal);
* ``returns(t, prm, out)``: each seat's reward (0 until the game ends);
* ``heuristic_action(t, prm, rules, hints, buf) -> a``: the heuristic's choice.

and a record with the pile games' fields: ``hands`` (copies per seat and card
id), ``hand_len``, ``stock``/``stock_len``, ``current`` and the Mersenne
Twister's ``mti``.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any

import numba
from numba.extending import overload

from .tables import COMPILED


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


def _compiled_only(name: str):
    def stub(*args: Any) -> Any:
        raise TypeError(f"eights.vector.cores.{name} runs in compiled code only; call the "
                        f"variant's core module from Python")
    stub.__name__ = name
    return stub


legal_actions = _compiled_only("legal_actions")
step = _compiled_only("step")
returns = _compiled_only("returns")
heuristic_action = _compiled_only("heuristic_action")


@overload(legal_actions)
def _legal_actions(t, prm, out):
    core = core_of(t)
    if core is not None:
        fn = core.legal_actions

        def impl(t, prm, out):
            return fn(t, prm, out)
        return impl
    return None


@overload(step)
def _step(t, prm, rules, a, buf):
    core = core_of(t)
    if core is not None:
        fn = core.step

        def impl(t, prm, rules, a, buf):
            fn(t, prm, rules, a, buf)
        return impl
    return None


@overload(returns)
def _returns(t, prm, out):
    core = core_of(t)
    if core is not None:
        fn = core.returns

        def impl(t, prm, out):
            fn(t, prm, out)
        return impl
    return None


@overload(heuristic_action)
def _heuristic_action(t, prm, rules, hints, buf):
    core = core_of(t)
    if core is not None:
        fn = core.heuristic_action

        def impl(t, prm, rules, hints, buf):
            return fn(t, prm, rules, hints, buf)
        return impl
    return None
