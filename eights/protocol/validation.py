"""Incoming messages checked against the protocol's own ``schema.json``, errors made plain.

``schema.json`` states the shape of every message and of each variant's view;
it is the one statement of that shape, so the reader checks against it
instead of repeating it by hand (a hand-written check drifts from the schema
a bot author reads). What the schema cannot know stays hand-written beside
the reader: that a card exists in this game's deck, that a seat is below the
hello's ``num_players``, per-seat lengths, cards conserved, legal texts that
parse.

The schema is compiled once per process into one jsonschema validator per
definition asked for (a message type, a variant's view), and made cheap to
run without changing what it accepts: local ``$ref`` are inlined, an
``anyOf`` of a type and null becomes a type list, and integers are JSON
integers (not ``1.0``, which Python reads as a float). jsonschema takes tens
of microseconds per subschema step, and a decide repeats almost all of the
last one (its history, most fields), so the validator remembers the values
each subschema found valid (a property's value, an array's item, an ``if``'s
verdict by the properties it reads; 16,384 in all) and validates only what is
new: a decide costs what changed since the last, plus about a microsecond per
history event to find it known (``benchmarks/protocol_read.py``).

A failure becomes the :class:`ProtocolError` a bot author can act on: the
most relevant of jsonschema's errors (:func:`jsonschema.exceptions.best_match`:
the shallowest first), as ``missing_field``, ``unknown_field`` or
``bad_value`` with one line naming the path (``view.hand[0]``), the value and
what is allowed (a schema node's ``title`` where it has one, else words made
from its keywords).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from .errors import ProtocolError

SCHEMA_FILE = "schema.json"
#: the JSON Schema draft schema.json is written in, and jsonschema's validator of it
BASE = jsonschema.Draft202012Validator
#: values shown in an error are cut to this many characters
SHOWN = 60


def load_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message, shipped beside this module."""
    return json.loads(resources.files(__package__).joinpath(SCHEMA_FILE).read_text("utf-8"))


# ------------------------------------------------------------------ the validator
def _is_integer(checker: Any, value: Any) -> bool:
    """A JSON integer as Python reads it: an int, never a bool or a float such as 1.0."""
    return isinstance(value, int) and not isinstance(value, bool)


#: arrays up to this long are remembered whole (a hand, the legal actions), longer ones by item
MAX_KEYED = 16
#: values remembered as valid, all subschemas together, before the memory starts over: a
#: remembered value's key takes well under 1 KB, so the memory stays under about 16 MB
MAX_REMEMBERED = 1 << 14


def _key(item: Any) -> Any:
    """A hashable stand-in for ``item`` that equals another's only when the two are the same
    JSON value (types included: ``True`` is not ``1``, ``1.0`` is not ``1``). A scalar, an
    object or a short array has one; a long array has none (it is validated each time, its
    items remembered one by one), and hashing the key of a value that holds arrays or objects
    fails (it is not remembered)."""
    if isinstance(item, dict):  # one flat tuple: the container, names, values, their types
        return (dict, *item, *item.values(), *map(type, item.values()))
    if isinstance(item, list):
        return (list, *item, *map(type, item)) if len(item) <= MAX_KEYED else None
    return type(item), item


class _Memory:
    """The values each subschema has found valid, by the subschema's id (the subschema is kept
    beside its set, so the id stays its own). A value's validity depends on the value and the
    subschema alone (schema.json has no ``unevaluated*`` keywords or dynamic references), so a
    value seen before, in this message or an earlier one, need not be validated again: a
    history repeats its events, and each decide repeats the history of the one before."""

    def __init__(self) -> None:
        self.sets: dict[int, tuple[Any, set[Any]]] = {}
        #: for a ``contains`` subschema: whether each item seen matched it (either way)
        self.verdicts: dict[int, tuple[Any, dict[Any, bool]]] = {}
        self.by_properties: dict[int, tuple[Any, list[tuple[str, Any, set[Any]]]]] = {}
        self.count = 0

    def valid(self, subschema: Any) -> set[Any]:
        return self.sets.setdefault(id(subschema), (subschema, set()))[1]

    def property_sets(self, properties: Mapping[str, Any]) -> list[tuple[str, Any, set[Any]]]:
        """(name, subschema, its set) for each of a ``properties`` keyword's subschemas."""
        found = self.by_properties.get(id(properties))
        if found is None:
            found = self.by_properties[id(properties)] = (properties, [
                (name, sub, self.valid(sub)) for name, sub in properties.items()])
        return found[1]

    def verdicts_of(self, subschema: Any) -> dict[Any, bool]:
        return self.verdicts.setdefault(id(subschema), (subschema, {}))[1]

    def remember(self, valid: set[Any] | dict[Any, bool], key: Any, verdict: bool = True
                 ) -> None:
        if self.count >= MAX_REMEMBERED:
            self.forget()
        if isinstance(valid, dict):
            valid[key] = verdict
        else:
            valid.add(key)
        self.count += 1

    def forget(self) -> None:
        for _, valid in self.sets.values():
            valid.clear()
        for _, verdicts in self.verdicts.values():
            verdicts.clear()
        self.count = 0


_MEMORY = _Memory()


def forget() -> None:
    """Forget every value found valid (benchmarks/protocol_read.py times reads without it)."""
    _MEMORY.forget()


def _known(valid: set[Any], value: Any) -> bool:
    """Whether ``value`` is in ``valid`` (a value without a hashable key never is)."""
    try:
        return _key(value) in valid
    except TypeError:  # an array or object inside
        return False


def _checked(validator: Any, value: Any, subschema: Any, path: Any, valid: set[Any],
             bad: set[Any] | None = None, schema_path: Any = None
             ) -> Iterator[ValidationError]:
    """``validator.descend`` into ``value``, unless ``subschema`` found the same value valid
    before (``valid``, its set in :data:`_MEMORY`) or bad in this array (``bad``)."""
    key = _key(value)
    try:
        if key is not None and (key in valid or (bad is not None and key in bad)):
            return
    except TypeError:  # unhashable: an array or object inside
        key = None
    errors = list(validator.descend(value, subschema, path=path, schema_path=schema_path))
    if errors:
        if key is not None and bad is not None:
            bad.add(key)
        yield from errors
    elif key is not None:
        _MEMORY.remember(valid, key)


_ITEMS = BASE.VALIDATORS["items"]


def _distinct_items(validator: Any, items: Any, instance: Any,
                    schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    """The ``items`` keyword, each distinct item validated once per process (the first bad
    copy's index is the one named): a history repeats its events, and a bot's decides
    repeat the history they sent before."""
    if not (isinstance(items, dict) and "prefixItems" not in schema
            and validator.is_type(instance, "array")):
        yield from _ITEMS(validator, items, instance, schema)
        return
    valid, bad = _MEMORY.valid(items), set()
    for index, item in enumerate(instance):
        if not _known(valid, item):  # (a generator per item only where one is needed)
            yield from _checked(validator, item, items, index, valid, bad)


def _known_properties(validator: Any, properties: Any, instance: Any,
                      schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    """The ``properties`` keyword, a value found valid once not validated again (a view's
    seat, turn and top card repeat from one decide to the next)."""
    if not validator.is_type(instance, "object"):
        return
    for name, subschema, valid in _MEMORY.property_sets(properties):
        if name in instance and not _known(valid, instance[name]):
            yield from _checked(validator, instance[name], subschema, name, valid,
                                schema_path=name)


def _remembered_contains(validator: Any, contains: Any, instance: Any,
                         schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    """The ``contains`` keyword, each item's match remembered either way (only the verdict
    counts there): ``legal`` is searched for ``challenge`` in every decide. Its errors are
    jsonschema's own keyword's."""
    if not validator.is_type(instance, "array"):
        return
    verdicts = _MEMORY.verdicts_of(contains)
    matcher = None
    matches = 0
    for item in instance:
        key = _key(item)
        try:
            verdict = verdicts.get(key) if key is not None else None
        except TypeError:
            key = verdict = None
        if verdict is None:
            matcher = matcher or validator.evolve(schema=contains)
            verdict = matcher.is_valid(item)
            if key is not None:
                _MEMORY.remember(verdicts, key, verdict)
        matches += verdict
    low, high = schema.get("minContains", 1), schema.get("maxContains", len(instance))
    if matches > high:
        yield ValidationError(f"Too many items match the given schema (expected at most "
                              f"{high})", validator="maxContains", validator_value=high)
    elif not matches and low:
        yield ValidationError(f"{instance!r} does not contain items matching the given schema")
    elif matches < low:
        yield ValidationError(f"Too few items match the given schema (expected at least {low} "
                              f"but only {matches} matched)", validator="minContains",
                              validator_value=low)


_ADDITIONAL = BASE.VALIDATORS["additionalProperties"]


def _known_names(validator: Any, names: Any, instance: Any,
                 schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    """The ``propertyNames`` keyword, each name found valid once not validated again (a
    card-count object's keys are cards)."""
    if not validator.is_type(instance, "object"):
        return
    valid = _MEMORY.valid(names)
    for name in instance:
        if (str, name) not in valid:
            yield from _checked(validator, name, names, None, valid)


def _known_additional(validator: Any, additional: Any, instance: Any,
                      schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    """The ``additionalProperties`` keyword, a value found valid once not validated again
    (a card-count object's counts); ``false`` is jsonschema's own keyword."""
    if not (isinstance(additional, dict) and validator.is_type(instance, "object")):
        yield from _ADDITIONAL(validator, additional, instance, schema)
        return
    known = schema.get("properties", {})
    patterns = schema.get("patternProperties")
    if patterns:  # not in schema.json; jsonschema's own keyword then
        yield from _ADDITIONAL(validator, additional, instance, schema)
        return
    valid = _MEMORY.valid(additional)
    for name, value in instance.items():
        if name not in known and not _known(valid, value):
            yield from _checked(validator, value, additional, name, valid)


#: keywords that say nothing about validity (an ``if`` made of these and ``required`` and
#: ``properties`` looks at the named properties only)
ANNOTATIONS = frozenset({"description", "title", "default", "$comment"})


def _if_verdict(validator: Any, if_schema: Any, instance: Any) -> bool:
    """Whether ``instance`` passes ``if_schema``; remembered by the values of the properties
    it looks at when it is made of ``required`` and ``properties`` alone (as every condition
    of schema.json is: "while ``legal`` holds ``challenge``", "while ``phase`` is ...")."""
    if (isinstance(if_schema, dict) and isinstance(instance, dict)
            and set(if_schema) <= {"required", "properties"} | ANNOTATIONS):
        names = sorted({*if_schema.get("required", ()), *if_schema.get("properties", {})})
        keys = tuple(_key(instance[n]) if n in instance else (None, None) for n in names)
        if None not in keys:
            verdicts = _MEMORY.verdicts_of(if_schema)
            try:
                verdict = verdicts.get(keys)
            except TypeError:  # a value holding arrays or objects
                return validator.evolve(schema=if_schema).is_valid(instance)
            if verdict is None:
                verdict = validator.evolve(schema=if_schema).is_valid(instance)
                _MEMORY.remember(verdicts, keys, verdict)
            return verdict
    return validator.evolve(schema=if_schema).is_valid(instance)


def _remembered_if(validator: Any, if_schema: Any, instance: Any,
                   schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    """The ``if`` keyword (with its ``then`` and ``else``), its verdict remembered
    (:func:`_if_verdict`)."""
    branch = "then" if _if_verdict(validator, if_schema, instance) else "else"
    if branch in schema:
        yield from validator.descend(instance, schema[branch], schema_path=branch)


Validator = jsonschema.validators.extend(
    BASE, validators={"items": _distinct_items, "properties": _known_properties,
                      "contains": _remembered_contains, "if": _remembered_if,
                      "propertyNames": _known_names,
                      "additionalProperties": _known_additional},
    type_checker=BASE.TYPE_CHECKER.redefine("integer", _is_integer))


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


@functools.cache
def validator(name: str) -> Any:
    """The validator of ``$defs/<name>`` (a message type, or ``<variant>_view``), built once per
    process. A message's view is checked as an object here: its fields are the variant's, which
    only the hello names (:func:`~eights.protocol.views.read_view` checks them)."""
    defs = dict(_schema()["$defs"])
    if name not in defs:
        raise KeyError(f"schema.json has no definition {name!r}")
    defs["view"] = {"type": "object", "description": defs["view"].get("description", "")}
    return Validator(_inline(defs[name], defs), format_checker=None)


def check(data: Any, name: str, root: str = "") -> None:
    """Refuse ``data`` unless it fits ``$defs/<name>``, with the most relevant error as a
    :class:`ProtocolError`; ``root`` names ``data`` in the message (``view``; "" for a whole
    message, whose fields are then named bare: ``id``, ``legal[0]``)."""
    checker = validator(name)
    err = best_match(checker.iter_errors(data))
    if err is not None:
        raise protocol_error(err, root, root or name, checker.schema)


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
            return " or ".join(words(s) for s in schema[key])
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


def _outermost(err: ValidationError) -> ValidationError:
    """The error of the whole value at ``err``'s place (an ``anyOf``'s, not one branch's)."""
    while err.parent is not None and list(err.parent.absolute_path) == list(err.absolute_path):
        err = err.parent
    return err


def _condition(err: ValidationError, root_schema: Mapping[str, Any]) -> str:
    """The description of the ``if``/``then`` that made a field required, if it has one."""
    node: Any = root_schema
    found = ""
    for part in err.absolute_schema_path:
        if part == "then" and isinstance(node, dict):
            found = node.get("description", found)
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
    return found


def protocol_error(err: ValidationError, root: str, top: str,
                   schema: Mapping[str, Any]) -> ProtocolError:
    """``err`` as a one-line :class:`ProtocolError`: ``root`` prefixes the paths below the
    checked value, ``top`` names the value itself, ``schema`` is the one checked against."""
    path = _path(root, err.absolute_path, top)
    instance = err.instance
    if err.validator == "additionalProperties" and isinstance(instance, dict):
        allowed = [k for k in err.schema.get("properties", {}) if not (k == "type" and not
                                                                      err.absolute_path)]
        extra = [k for k in instance if k not in err.schema.get("properties", {})]
        return ProtocolError("unknown_field", f"{path}: unknown field(s) "
                                              f"{', '.join(map(repr, extra))}; the fields are "
                                              f"{', '.join(allowed)}")
    if err.validator == "required" and isinstance(instance, dict):
        missing = [k for k in err.validator_value if k not in instance]
        fields = [k for k in err.schema.get("properties", {}) if k != "type"]
        why = _condition(err, schema)
        return ProtocolError("missing_field", f"{path}: missing field(s) {', '.join(missing)}"
                                              + (f" ({why})" if why else "")
                                              + (f"; the fields are {', '.join(fields)}"
                                                 if fields else ""))
    if err.validator == "dependentRequired" and isinstance(instance, dict):
        sent, needed = next((k, [d for d in deps if d not in instance])
                            for k, deps in err.validator_value.items() if k in instance
                            and any(d not in instance for d in deps))
        return ProtocolError("missing_field", f"{path}: {sent} is sent without "
                                              f"{', '.join(needed)}; send both or neither")
    whole = _outermost(err)
    if "propertyNames" in err.relative_schema_path:  # a key of the object at path
        path += " key"
    return ProtocolError("bad_value", f"{path}: {_shown(whole.instance)} is not allowed; it "
                                      f"must be {words(whole.schema)}")

