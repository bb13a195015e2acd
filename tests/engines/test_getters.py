"""Getters cannot go blind: every attribute a declared view-field getter reads resolves.

A getter written as an expression (``"s.piles[0][-1]"``) is compiled from its text
(:func:`eights.engines.fields.compile_getter`), so a state attribute renamed in an engine
would fail only when a game reached the field. Here every getter expression of every
variant is parsed, and each attribute it reads on ``s`` (the state), ``g`` (the engine),
``g.state`` or ``g.config`` is looked up on the class it belongs to: the state's dataclass
fields, slots and properties; the engine's attributes, properties, methods and declared
instance attributes (class annotations such as ``current_player: int``); the config's
options.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from typing import Any

import pytest

from eights.engines import engine_class
from eights.engines.encoding import OneHot
from eights.engines.fields import ViewField
from eights.variants import REGISTRY


def _annotation(cls: type, name: str) -> Any:
    """The class annotation ``name`` of ``cls`` (or a base), evaluated; None if none."""
    for klass in cls.__mro__:
        annotations = vars(klass).get("__annotations__", {})
        if name in annotations:
            value = annotations[name]
            return (eval(value, vars(sys.modules[klass.__module__]))
                    if isinstance(value, str) else value)
    return None


def _has(cls: type, name: str) -> bool:
    """Whether instances of ``cls`` have ``name``: a class attribute, property, method or
    slot, a dataclass field, or a declared (annotated) instance attribute."""
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else ()
    declared = any(name in vars(k).get("__annotations__", {}) for k in cls.__mro__)
    return hasattr(cls, name) or name in fields or declared


def unresolved(engine: type, fields: tuple[ViewField, ...]) -> list[str]:
    """One line per attribute read by a getter expression that its class does not have."""
    state, config = _annotation(engine, "state"), engine.Config
    roots = {"s": state, "g": engine}
    members = {(engine, "state"): state, (engine, "config"): config}
    found = []

    def owner(node: ast.expr) -> type | None:
        if isinstance(node, ast.Name):
            return roots.get(node.id)
        if isinstance(node, ast.Attribute):
            cls = owner(node.value)
            return members.get((cls, node.attr)) if cls is not None else None
        return None

    for f in fields:
        if f.expr is None:  # a function: ordinary code, read by its tests
            continue
        for node in ast.walk(ast.parse(f.expr, mode="eval")):
            if isinstance(node, ast.Attribute):
                cls = owner(node.value)
                if cls is not None and not _has(cls, node.attr):
                    found.append(f"{engine.__name__}: view field {f.name!r} reads "
                                 f"{ast.unparse(node)!r} in {f.expr!r}, but {cls.__name__} "
                                 f"has no attribute {node.attr!r}")
    return found


@pytest.mark.parametrize("variant", REGISTRY)
def test_every_getter_expression_reads_attributes_that_exist(variant):
    engine = engine_class(variant)
    expressions = [f for f in engine.view_fields if f.expr is not None]
    assert len(expressions) >= 15
    assert unresolved(engine, engine.view_fields) == []


def test_every_variant_declares_its_state_class():
    for variant in REGISTRY:
        state = _annotation(engine_class(variant), "state")
        assert dataclasses.is_dataclass(state), variant


@pytest.mark.parametrize(("expr", "missing"), [
    ("s.pils[0][-1]", "'s.pils' in 's.pils[0][-1]', but PileState has no attribute 'pils'"),
    ("len(g.state.stok)", "'g.state.stok' in 'len(g.state.stok)', but PileState has no "
                          "attribute 'stok'"),
    ("g.config.king_drow", "'g.config.king_drow' in 'g.config.king_drow', but "
                           "CrazyEightsConfig has no attribute 'king_drow'"),
    ("g.curent_player", "'g.curent_player' in 'g.curent_player', but CrazyEightsGame has "
                        "no attribute 'curent_player'"),
])
def test_a_misspelt_getter_is_named_with_its_field_expression_and_attribute(expr, missing):
    engine = engine_class("crazy_eights")
    bad = ViewField("top", "card", "the top card", expr, OneHot(52))
    fields = tuple(bad if f.name == "top" else f for f in engine.view_fields)
    assert unresolved(engine, fields) == [
        f"CrazyEightsGame: view field 'top' reads {missing}"]
