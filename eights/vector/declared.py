"""What a compiled core reads of its engine's declared view fields when it compiles a config.

Each core writes the v2 observation itself, so its ``compile_config`` checks
that every feature it writes is still declared with the encoding it writes
(:func:`encodings`) and takes each factor from the declaration
(:func:`number`): a changed layout is refused by name instead of written
wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def number(value: Any, config: Any) -> float:
    """A declared scale or copy count: a number, or a function of the config."""
    return float(value(config) if callable(value) else value)


def encodings(engine: Any, expected: Mapping[str, type]) -> tuple[dict[str, Any], list[str]]:
    """The engine's encodings by feature name, and the features of ``expected`` (name ->
    encoding class) that are missing or declared with another encoding."""
    fields = {f.feature or f.name: f.encoding for f in engine.view_fields}
    wrong = [f for f, kind in expected.items() if not isinstance(fields.get(f), kind)]
    return fields, wrong
