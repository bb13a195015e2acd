"""Incoming messages checked against the protocol's own ``schema.json``, errors made plain.

``schema.json`` states the shape of every message and of each variant's view;
it is the one statement of that shape, so the reader checks against it
instead of repeating it by hand (a hand-written check drifts from the schema
a bot author reads). What the schema cannot know stays hand-written beside
the reader: that a card exists in this game's deck, that a seat is below the
hello's ``num_players``, per-seat lengths, cards conserved, legal texts that
parse.

The schema is compiled once per process into one ``jsonschema_rs`` validator
(Rust) per definition asked for (a message type, a variant's view), with local
``$ref`` inlined and an ``anyOf`` of a type and null folded into a type list,
so that an error's schema path leads straight to the node that failed. A long
decide (history of 1,000 events) takes about 0.2 ms to check where the
pure-Python ``jsonschema`` took about 400 ms; a refused message costs the same
(its error is worded from the Rust error, never by validating again).

JSON Schema counts ``1.0`` as an integer; the protocol wants integers written
as integers (Python reads ``1.0`` as a float, which no seat or count may be).
:func:`loads_float` (the JSON reader's ``parse_float``) reads such a number as
:class:`IntegralFloat`, which :func:`check` probes: where the schema allows
any number (a config option) it passes, elsewhere it is refused as ``1.0``.

A failure becomes the :class:`ProtocolError` a bot author can act on: the
shallowest error, into the one branch of a ``oneOf`` whose tag (an event's
``kind``) matches, as ``missing_field``, ``unknown_field`` or ``bad_value``
with one line naming the path (``view.hand[0]``), the value and what is
allowed (a schema node's ``title`` where it has one, else words made from its
keywords).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

import jsonschema_rs

from .errors import ProtocolError

SCHEMA_FILE = "schema.json"
#: values shown in an error are cut to this many characters
SHOWN = 60
#: error kinds that only say "none of the branches fit" (their context says why)
BRANCHES = ("anyOf", "oneOf")


def load_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message, shipped beside this module."""
    return json.loads(resources.files(__package__).joinpath(SCHEMA_FILE).read_text("utf-8"))


class IntegralFloat(float):
    """A JSON number written with a fraction or exponent whose value is whole (``1.0``):
    a number, never an integer. The Rust validator cannot take it (a float subclass), so
    :func:`check` finds and probes it; Python reads it as the float it is."""

    def __repr__(self) -> str:
        return repr(float(self))


def loads_float(text: str) -> float:
    """The JSON reader's ``parse_float``: a whole value is an :class:`IntegralFloat`."""
    value = float(text)
    return IntegralFloat(value) if value.is_integer() else value


# ------------------------------------------------------------------ the validator
def _inline(node: Any, defs: Mapping[str, Any], depth: int = 0) -> Any:
    """``node`` with every local ``$ref`` replaced by its definition (ours are not recursive),
    and every ``anyOf`` of one schema and null folded into that schema."""
    if depth > 50:
        raise ValueError("schema.json: $ref nested over 50 deep; is a definition recursive?")
    if isinstance(node, list):
        return [_inline(x, defs, depth + 1) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _inline(v, defs, depth + 1) for k, v in node.items()
           if k not in ("$ref", "$defs")}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = _inline(defs[ref.removeprefix("#/$defs/")], defs, depth + 1)
        clash = set(out) & set(target) - {"description", "title", "default"}
        out = {"allOf": [target], **out} if clash else {**target, **out}
    return _fold_null(out)


def _fold_null(node: dict[str, Any]) -> dict[str, Any]:
    """``{"anyOf": [S, {"type": "null"}]}`` as S that also allows null (a type list, or null in
    an enum): the same values, one schema to try instead of two."""
    options = node.get("anyOf")
    if not (isinstance(options, list) and len(options) == 2 and {"type": "null"} in options):
        return node
    other = options[1] if options[0] == {"type": "null"} else options[0]
    if not isinstance(other, dict) or "anyOf" in other or "allOf" in other:
        return node
    rest = {k: v for k, v in node.items() if k != "anyOf"}
    if set(rest) & set(other) - {"description", "title", "default"}:
        return node
    if isinstance(other.get("type"), str) and "enum" not in other and "const" not in other:
        return {**other, **rest, "type": [other["type"], "null"]}
    if "enum" in other and "type" not in other:
        return {**other, **rest, "enum": [*other["enum"], None]}
    return node


@functools.cache
def _schema() -> dict[str, Any]:
    return load_schema()


@dataclasses.dataclass(frozen=True)
class Definition:
    """One definition of schema.json, inlined, and its compiled validator; ``slices`` holds,
    for each property that is a plain array (``items`` and nothing else to check: a view's
    ``history``), a validator of such an array, so a long one is checked a slice at a time."""

    schema: dict[str, Any]
    rust: Any
    slices: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def is_valid(self, data: Any) -> bool:
        return self.rust.is_valid(data)


#: keywords a plain array property may have besides ``items``: none of them checks anything
_ANNOTATIONS = {"type", "items", "description", "title", "default"}


def _plain_arrays(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Validators of ``schema``'s properties whose values are arrays checked item by item only
    (no length, uniqueness or ``contains``): a slice of such an array is valid exactly when
    all its items are."""
    return {name: jsonschema_rs.Draft202012Validator(node)
            for name, node in schema.get("properties", {}).items()
            if isinstance(node, dict) and node.get("type") == "array" and "items" in node
            and set(node) <= _ANNOTATIONS}


@functools.cache
def validator(name: str) -> Definition:
    """The validator of ``$defs/<name>`` (a message type, or ``<variant>_view``), built once per
    process. A message's view is checked as an object here: its fields are the variant's, which
    only the hello names (:func:`~eights.protocol.views.read_view` checks them)."""
    defs = dict(_schema()["$defs"])
    if name not in defs:
        raise KeyError(f"schema.json has no definition {name!r}")
    defs["view"] = {"type": "object", "description": defs["view"].get("description", "")}
    schema = _inline(defs[name], defs)
    return Definition(schema, jsonschema_rs.Draft202012Validator(schema), _plain_arrays(schema))


#: items of a plain array checked in one call. The Rust check holds the interpreter for its
#: whole run (about 0.4 us an event): a 1 MiB view's 21,000 events in one call stopped every
#: other thread (a server's light decisions) for 8 ms; a slice takes about 0.2 ms.
SLICE = 512


def check(data: Any, name: str, root: str = "") -> None:
    """Refuse ``data`` unless it fits ``$defs/<name>``, with the most relevant error as a
    :class:`ProtocolError`; ``root`` names ``data`` in the message (``view``; "" for a whole
    message, whose fields are then named bare: ``id``, ``legal[0]``).

    A plain array longer than :data:`SLICE` (a long ``history``) is checked a slice at a
    time, so no single call holds the interpreter long; the verdict and the error are those
    of one whole check (a bad slice is checked again in place of the array's first slice,
    its indices shifted back to the whole array's)."""
    definition = validator(name)
    long = ([field for field in definition.slices
             if isinstance(data.get(field), list) and len(data[field]) > SLICE]
            if isinstance(data, dict) else [])
    if not long:
        _check_whole(definition, data, name, root)
        return
    head = {**data, **{field: data[field][:SLICE] for field in long}}
    _check_whole(definition, head, name, root)
    for field in long:
        items, slice_check = data[field], definition.slices[field]
        for start in range(SLICE, len(items), SLICE):
            part = items[start:start + SLICE]
            try:
                valid = slice_check.is_valid(part)
            except ValueError:  # an IntegralFloat: the whole check probes it
                valid = False
            if not valid:
                _check_whole(definition, {**head, field: part}, name, root, (field, start))


def _check_whole(definition: Definition, data: Any, name: str, root: str,
                 shift: tuple[str, int] | None = None) -> None:
    """One call of the Rust check on ``data``; ``shift`` (field, start) says ``data[field]`` is
    a slice of the message's array from index ``start``, for the error's path."""
    try:
        errors = list(definition.rust.iter_errors(data))
        shown: dict[tuple, Any] = {}
    except ValueError:  # an IntegralFloat inside (or a value no JSON reader makes)
        data, shown = _probed(data)
        errors = list(definition.rust.iter_errors(data))
    if errors:
        raise protocol_error(_best(errors, definition.schema), root, root or name,
                             definition.schema, shown, shift)


def _probed(data: Any) -> tuple[Any, dict[tuple, Any]]:
    """``data`` with every :class:`IntegralFloat` ``x`` replaced by ``x + 0.5``, which any
    number position accepts and every integer position refuses, and each one's path to the
    value to show."""
    shown: dict[tuple, Any] = {}

    def walk(value: Any, path: tuple) -> Any:
        if isinstance(value, IntegralFloat):
            shown[path] = value
            return float(value) + 0.5
        if isinstance(value, dict):
            return {k: walk(v, (*path, k)) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, (*path, i)) for i, v in enumerate(value)]
        if isinstance(value, (str, int, float, bool)) or value is None:
            return value
        raise TypeError(f"{type(value).__name__} is not a JSON value")

    return walk(data, ()), shown


def _relevance(err: Any) -> tuple[int, bool]:
    return len(err.instance_path), err.kind.name in BRANCHES


def _best(errors: Sequence[Any], schema: Mapping[str, Any]) -> Any:
    """The most relevant error: the shallowest, one that names a keyword before one that only
    says no branch fit; within a tagged ``oneOf`` or ``anyOf``, the branch the tag names."""
    best = min(errors, key=_relevance)
    while best.kind.name in BRANCHES and isinstance(best.instance, dict):
        branches = _node(schema, best.schema_path)
        tag = _tag(branches)
        value = best.instance.get(tag) if tag else None
        chosen = [i for i, b in enumerate(branches) if tag in b["properties"]
                  and b["properties"][tag]["const"] == value]
        if len(chosen) != 1 or not best.kind.context[chosen[0]]:
            break
        best = min(best.kind.context[chosen[0]], key=_relevance)
    return best


def _tag(branches: Any) -> str | None:
    """The property that tells a ``oneOf``'s or ``anyOf``'s branches apart (an event's
    ``kind``): one every branch fixes with a ``const``, if there is one."""
    names = None
    for branch in branches:
        fixed = {k for k, v in (branch.get("properties", {}) if isinstance(branch, dict)
                                else {}).items() if isinstance(v, dict) and "const" in v}
        names = fixed if names is None else names & fixed
    return min(names) if names else None


# ------------------------------------------------------------------ errors in words
def _path(root: str, parts: Sequence[Any], top: str) -> str:
    """``view.hand[0]``: where the error is, below ``root`` (a whole message's is "": its
    fields go bare, ``legal[1]``); ``top`` names the checked value itself (its type)."""
    text = root
    for part in parts:
        if isinstance(part, int) or not str(part).isidentifier():
            text += f"[{part!r}]"  # an index, or a key such as a card's text
        else:
            text += f".{part}" if text else part
    return text or top


def _shown(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= SHOWN else shown[:SHOWN - 3] + "..."


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


_TYPE_WORDS = {"integer": "integer", "number": "number", "string": "string",
               "boolean": "true or false", "array": "array", "object": "object",
               "null": "null"}


def words(schema: Any) -> str:
    """What ``schema`` allows, in words: its ``title`` if it has one, else made from its
    keywords ("a non-empty array of non-empty strings without repeats")."""
    if not isinstance(schema, dict):
        return "nothing" if schema is False else "anything"
    if "title" in schema:
        nullable = None in schema.get("enum", ()) or "null" in schema.get("type", ())
        return schema["title"] + (", or null" if nullable and "null" not in schema["title"]
                                  else "")
    if "const" in schema:
        return _shown(schema["const"])
    if "enum" in schema:
        values = [v for v in schema["enum"] if v is not None]
        return ("one of " + ", ".join(map(_shown, values))
                + (", or null" if None in schema["enum"] else ""))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(dict.fromkeys(words(s) for s in schema[key]))
    types = schema.get("type", ["string"] if "pattern" in schema else [])
    types = [types] if isinstance(types, str) else list(types)
    nullable = "null" in types and len(types) > 1
    said = [_type_words(t, schema) for t in types if not (nullable and t == "null")]
    if not said:
        return "a value"
    return " or ".join(said) + (", or null" if nullable else "")


def _type_words(kind: str, schema: Mapping[str, Any]) -> str:
    if kind == "integer" or kind == "number":
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return f"{_a(kind)} from {low} to {high}"
        if low is not None:
            return f"{_a(kind)} of at least {low}"
        return _a(kind) if high is None else f"{_a(kind)} of at most {high}"
    if kind == "string":
        text = "a non-empty string" if schema.get("minLength", 0) >= 1 else "a string"
        if "pattern" in schema:
            text += f" matching {schema['pattern']}"
        return text
    if kind == "array":
        text = "a non-empty array" if schema.get("minItems", 0) >= 1 else "an array"
        if isinstance(schema.get("items"), dict):
            text += " of " + _plural(words(schema["items"]))
        return text + (" without repeats" if schema.get("uniqueItems") else "")
    if kind == "object":
        return "an object"
    return _TYPE_WORDS.get(kind, kind)


def _plural(text: str) -> str:
    """"a card like 10H" -> "cards like 10H" (good enough for the words above)."""
    for article in ("a non-empty ", "an ", "a "):
        if text.startswith(article):
            head, _, tail = text.removeprefix(article).partition(" ")
            return (("non-empty " if article == "a non-empty " else "") + head + "s"
                    + (" " + tail if tail else ""))
    return text


def _node(schema: Any, parts: Sequence[Any]) -> Any:
    """The schema node at ``parts`` (an error's schema path) of the inlined ``schema``."""
    for part in parts:
        schema = schema[part]
    return schema


def _condition(parts: Sequence[Any], schema: Mapping[str, Any]) -> str:
    """The description of the ``if``/``then`` that made a field required, if it has one."""
    node: Any = schema
    found = ""
    for part in parts:
        if part == "then" and isinstance(node, dict):
            found = node.get("description", found)
        node = node[part]
    return found


def protocol_error(err: Any, root: str, top: str, schema: Mapping[str, Any],
                   shown: Mapping[tuple, Any] | None = None,
                   shift: tuple[str, int] | None = None) -> ProtocolError:
    """``err`` (a ``jsonschema_rs`` error) as a one-line :class:`ProtocolError`: ``root``
    prefixes the paths below the checked value, ``top`` names the value itself, ``schema``
    is the inlined one checked against, ``shown`` the values to show at probed paths,
    ``shift`` (field, start) the array checked from index ``start`` (:func:`check`)."""
    parts = list(err.instance_path)
    instance = (shown or {}).get(tuple(parts), err.instance)
    if shift is not None and len(parts) > 1 and parts[0] == shift[0]:
        parts[1] += shift[1]
    path = _path(root, parts, top)
    keyword, node = err.kind.name, _node(schema, err.schema_path[:-1])
    if err.schema_path[-1] == "dependentRequired":  # reported as a "required" kind
        keyword = "dependentRequired"
    if keyword == "additionalProperties" and isinstance(instance, dict):
        allowed = [k for k in node.get("properties", {}) if not (k == "type" and not parts)]
        extra = [k for k in instance if k not in node.get("properties", {})]
        return ProtocolError("unknown_field", f"{path}: unknown field(s) "
                                              f"{', '.join(map(repr, extra))}; the fields are "
                                              f"{', '.join(allowed)}")
    if keyword == "required" and isinstance(instance, dict):
        missing = [k for k in node["required"] if k not in instance]
        fields = [k for k in node.get("properties", {}) if k != "type"]
        why = _condition(err.schema_path, schema)
        return ProtocolError("missing_field", f"{path}: missing field(s) {', '.join(missing)}"
                                              + (f" ({why})" if why else "")
                                              + (f"; the fields are {', '.join(fields)}"
                                                 if fields else ""))
    if keyword == "dependentRequired" and isinstance(instance, dict):
        sent, needed = next((k, [d for d in deps if d not in instance])
                            for k, deps in node["dependentRequired"].items() if k in instance
                            and any(d not in instance for d in deps))
        return ProtocolError("missing_field", f"{path}: {sent} is sent without "
                                              f"{', '.join(needed)}; send both or neither")
    wanted = words(node)
    if keyword == "propertyNames":  # a key of the object at path
        path += " key"
        instance = err.kind.error.instance
    elif keyword in BRANCHES and isinstance(instance, dict):
        tag = _tag(node[keyword])
        if tag is not None and tag in instance:  # no branch has this tag: name the tags
            path, instance = _path(root, [*parts, tag], top), instance[tag]
            wanted = "one of " + ", ".join(_shown(b["properties"][tag]["const"])
                                           for b in node[keyword])
    return ProtocolError("bad_value", f"{path}: {_shown(instance)} is not allowed; it "
                                      f"must be {wanted}")
