"""The JSON Schema of each variant's view and events, made from its declarations.

``schema.json`` (beside this module) holds the schema of every message. Its
per-variant view definitions (``$defs/<variant>_view``) are not written by
hand: each is made here from the variant's view class (the fields and their
protocol kinds, from :mod:`eights.engines.fields`), each field's declared
meaning, and the defaults the engine declares for the fields a frontend may
leave out (:mod:`eights.engines.defaults`). Its event definitions
(``$defs/<variant>_event``, one branch per declared kind with its arguments
typed) are made from the variant's event kinds (:mod:`eights.engines.events`),
and the protocol version it names from :data:`~eights.protocol.messages.PROTOCOL`.
A test checks that ``schema.json`` holds exactly what this module makes;
after changing a variant's fields or events, rewrite it with::

    python -m eights.protocol.schema_views --write
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from typing import Any

from ..engines import VARIANTS, engine_class
from ..engines.base import PlayerView
from ..engines.cardset import STANDARD
from ..engines.defaults import NOT_CONSTANT, RequiredWhile
from ..engines.events import ARG_KINDS, EventKind
from .messages import PROTOCOL
from .views import PILE_INNER_KINDS, required_fields, rules_for, view_class, view_fields

SCHEMA_FILE = "schema.json"


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


#: the JSON Schema of a value of each protocol field kind (``phase``: see :func:`_kind_schema`)
KIND_SCHEMAS: dict[str, dict[str, Any]] = {
    "int": {"type": "integer"},
    "count": _ref("count"),
    "bool": {"type": "boolean"},
    "seat": _nullable(_ref("seat")),
    "card": _nullable(_ref("card")),
    "cards": _array(_ref("card")),
    "seen_cards": _array(_ref("card")),
    "counts": _array(_ref("count")),
    "ints": _array({"type": "integer"}),
    "suit": _nullable(_ref("suit")),
    "seat_cards": _array(_array(_ref("card"))),
    "seat_suits": _array(_nullable(_ref("suit"))),
    "seat_ranks": _array(_nullable(_ref("rank"))),
    "card_counts": {"type": "object", "propertyNames": _ref("card"),
                    "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 255}},
    "unseen_counts": {"type": "object", "propertyNames": _ref("card"),
                      "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 255}},
    "seat_card_counts": _array({"type": "object", "propertyNames": _ref("card"),
                                "additionalProperties": {"type": "integer", "minimum": 1,
                                                         "maximum": 255}}),
    "seat_suit_counts": _array({"type": "object", "propertyNames": _ref("suit"),
                                "additionalProperties": {"type": "integer", "minimum": 1}}),
    "frames": _array(_ref("frame")),
}
KIND_SCHEMAS.update({f"pile_{inner}": _array(KIND_SCHEMAS[inner]) for inner in PILE_INNER_KINDS})

#: the fields every view has (:class:`PlayerView`), in the protocol's words
CORE_MEANINGS: dict[str, str] = {
    "seat": "The seat this view belongs to (in a decide, the seat to decide).",
    "current_player": "The seat to act (`null` once the game is over); in a decide, equal to "
                      "`seat`.",
    "hand": "This seat's cards, in any order (our frontends sort them by suit then rank).",
    "hand_sizes": "Cards in each seat's hand, in seat order.",
    "scores": "Each seat's points (match totals in a match).",
    "turn": "Actions applied so far, forced ones included.",
    "hand_turns": ("Actions applied in this hand, forced ones included (`turn` in a game of "
                   "one hand): the turn limit, `max_turns`, counts them."),
    "game_over": "Whether the game has ended.",
    "history": ("The public events so far, oldest first; in a match, those of this hand, "
                "from its `deal` on (what a seat remembers starts again with each hand) "
                "(see [Events](#events))."),
}


def _kind_schema(name: str, kind: str, cls: type[PlayerView]) -> dict[str, Any]:
    if name == "seat":  # the reader's own seat is never null
        return _ref("seat")
    if kind == "phase":
        return {"enum": list(cls.phase_names)}
    return dict(KIND_SCHEMAS[kind])


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _meanings(variant: str) -> dict[str, str]:
    declared = getattr(engine_class(variant), "view_fields", ())
    meanings = {f.name: _sentence(f.doc) for f in declared if not f.core}
    meanings.update(CORE_MEANINGS)
    return meanings


def _cell(text: str) -> str:
    """A sentence as a Markdown table cell: no leading capital, no closing full stop."""
    text = text.strip().removesuffix(".")
    return (text[:1].lower() + text[1:]).replace("|", "\\|")


def view_table(variant: str) -> str:
    """docs/protocol.md's table of ``variant``'s view fields: whether each is required, what
    a reader takes it to be when it is left out, and what it means, all from the engine's
    declarations (the same words as ``schema.json``'s descriptions)."""
    cls = view_class(variant)
    meanings, rules = _meanings(variant), rules_for(variant)
    rows = ["| field | required | when left out | meaning |", "| --- | --- | --- | --- |"]
    for name in view_fields(variant):
        meaning = _cell(meanings.get(name, ""))
        if cls.field_kinds.get(name) == "phase":
            meaning += ": " + ", ".join(f"`{phase}`" for phase in cls.phase_names)
        rule = rules.get(name)
        if rule is None:
            required, left_out = "**yes**", ""
        elif isinstance(rule, RequiredWhile):
            required, left_out = rule.text, rule.default.text
        else:
            required, left_out = "no", rule.text
        rows.append(f"| `{name}` | {required} | {left_out} | {meaning} |")
    return "\n".join(rows)


def view_definition(variant: str) -> dict[str, Any]:
    """``$defs/<variant>_view``: every field of the variant's view with its schema, its
    meaning and, for a field a frontend may leave out, what is assumed then."""
    cls = view_class(variant)
    kinds = dict(cls.field_kinds)
    meanings = _meanings(variant)
    rules = rules_for(variant)
    fields = view_fields(variant)
    properties: dict[str, Any] = {}
    for name in fields:
        schema = (_array(_ref(f"{variant}_event")) if name == "history"
                  else _kind_schema(name, kinds[name], cls))
        text = meanings.get(name, "")
        if kinds.get(name) == "frames":
            text += " Frame kinds and their arguments: " + ", ".join(
                f"`{kind}` ({', '.join(args) or 'none'})" for kind, args in cls.frame_args.items()
            ) + "."
        rule = rules.get(name)
        default = rule.default if isinstance(rule, RequiredWhile) else rule
        if isinstance(rule, RequiredWhile):
            text += f" Required {rule.text}; else left out: {default.text}."
        elif rule is not None:
            text += f" Left out: {default.text}."
        entry: dict[str, Any] = {"description": text.strip()} if text.strip() else {}
        entry.update(schema)
        if default is not None and default.constant is not NOT_CONSTANT:
            entry["default"] = default.constant
        properties[name] = entry
    definition: dict[str, Any] = {
        "description": f"What one seat may know in {variant}: its hand, everything public, "
                       f"and the public history. Only the fields in required must be sent; a "
                       f"bot fills in the others (each says its default).",
        "type": "object",
        "properties": properties,
        "required": required_fields(variant, fields),
    }
    if "stock_size" in properties and "discard_counts" in properties:
        definition["dependentRequired"] = {"stock_size": ["discard_counts"]}
    conditions = [{"if": rule.view_schema, "then": {"required": [name]}}
                  for name, rule in rules.items()
                  if isinstance(rule, RequiredWhile) and rule.view_schema is not None]
    if conditions:
        definition["allOf"] = conditions
    definition["additionalProperties"] = False
    return definition


#: the JSON Schema of an event's ``arg`` of each declared kind (:data:`ARG_KINDS`)
ARG_SCHEMAS: dict[str, dict[str, Any]] = {
    "seat": _nullable(_ref("seat")),
    "suit": _nullable(_ref("suit")),
    "pile": _nullable(_ref("count")),
    "count": _nullable(_ref("count")),
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
    "direction": {"enum": [1, -1]},
}
assert set(ARG_SCHEMAS) == set(ARG_KINDS), "every arg kind has its schema"
NULL = {"type": "null"}


def event_kind_schema(kind: EventKind) -> dict[str, Any]:
    """One declared event kind: its name, and each slot typed (null where it has none)."""
    arg_doc = f" arg: {ARG_KINDS[kind.arg]}." if kind.arg else ""
    hidden = " Its card is null for every seat but its player." if (
        kind.visibility == "player") else ""
    return {
        "description": _sentence(kind.doc) + hidden + arg_doc,
        "type": "object",
        "properties": {
            "kind": {"const": kind.name},
            "player": _nullable(_ref("seat")) if kind.player else NULL,
            "card": _nullable(_ref("card")) if kind.card else NULL,
            "arg": ARG_SCHEMAS[kind.arg] if kind.arg else NULL,
        },
        "required": ["kind", "player", "card", "arg"],
        "additionalProperties": False,
    }


def event_definition(variant: str) -> dict[str, Any]:
    """``$defs/<variant>_event``: one branch per event kind the variant declares."""
    kinds = engine_class(variant).event_kinds
    return {
        "description": f"One event of {variant}'s history, as the seat may see it: a kind the "
                       f"variant declares, each argument of its declared kind (a suit or "
                       f"colour as its code, a card in text) and null where the kind has "
                       f"none or the card is hidden from this seat.",
        "oneOf": [event_kind_schema(kinds[name]) for name in sorted(kinds)],
    }


STANDARD_CARD = "(A|[2-9]|10|J|Q|K)[CDHS]|RJ|BJ"


def card_definitions() -> dict[str, dict[str, Any]]:
    """``$defs/card`` and ``$defs/suit``: the cards and suits of every variant's notation
    (the standard cards, and a variant's own card set such as Crazier Eights' colours)."""
    patterns, codes, words = [STANDARD_CARD], list(STANDARD.colour_codes), []
    examples: list[tuple[str, str]] = []  # (variant, cards like its) for the titles
    colours: list[tuple[str, tuple[str, ...]]] = []
    for variant in VARIANTS:
        cards = engine_class(variant).cardset
        if cards is STANDARD:
            continue
        examples.append((variant, f"{cards.texts[9]}, {cards.texts[24]}"))
        colours.append((variant, tuple(cards.colour_codes)))
        ranks = sorted({t[:-1] for t in cards.texts}, key=lambda r: (len(r), r))
        patterns.append(f"({'|'.join(ranks)})[{''.join(cards.colour_codes)}]")
        codes += [c for c in cards.colour_codes if c not in codes]
        words.append(f"{variant}: rank then colour ({', '.join(cards.colour_codes)})")
    return {
        "card": {"title": "a card like 10H, QS or RJ"
                          + "".join(f" ({v}: {e})" for v, e in examples),
                 "description": "A card in text notation: rank (A, 2-10, J, Q, K) then suit "
                                "(C, D, H, S), or a joker RJ / BJ"
                                + "".join(f"; {w}" for w in words) + ".",
                 "type": "string", "pattern": "^(" + "|".join(patterns) + ")$"},
        "suit": {"title": "a suit " + ", ".join(STANDARD.colour_codes)
                          + "".join(f" ({v}: {', '.join(c)})" for v, c in colours),
                 "description": "A suit letter (a colour's code in a variant with colours).",
                 "enum": codes},
    }


def with_view_definitions(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with every variant's view and event definitions made anew (listed in
    ``view`` and ``event``), the card and suit definitions of every variant's notation, and
    the protocol version of :data:`PROTOCOL` (its id, title, hello and ready)."""
    defs = dict(schema["$defs"])
    defs.update(card_definitions())
    for variant in VARIANTS:
        defs[f"{variant}_view"] = view_definition(variant)
        defs[f"{variant}_event"] = event_definition(variant)
    defs["view"] = dict(defs["view"], anyOf=[_ref(f"{v}_view") for v in VARIANTS])
    defs["event"] = {"description": "One event of a view's history: see each variant's.",
                     "anyOf": [_ref(f"{v}_event") for v in VARIANTS]}
    for message in ("hello", "ready"):
        props = dict(defs[message]["properties"])
        props["protocol"] = dict(props["protocol"], const=PROTOCOL)
        defs[message] = dict(defs[message], properties=props)
    return dict(schema, **{"$id": f"urn:eights:bot-protocol:{PROTOCOL}",
                           "title": f"eights bot protocol, version {PROTOCOL}", "$defs": defs})


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m eights.protocol.schema_views",
        description="Check (or rewrite) the per-variant view definitions of schema.json.")
    parser.add_argument("--write", action="store_true", help="rewrite schema.json in place")
    args = parser.parse_args(argv)
    path = resources.files(__package__).joinpath(SCHEMA_FILE)
    current = path.read_text("utf-8")
    made = schema_text(with_view_definitions(json.loads(current)))
    if made == current:
        print(f"{SCHEMA_FILE}: the view definitions match the declared fields")
        return 0
    if args.write:
        with resources.as_file(path) as file:
            file.write_text(made, encoding="utf-8")
        print(f"{SCHEMA_FILE}: view definitions rewritten from the declared fields")
        return 0
    print(f"{SCHEMA_FILE}: the view definitions differ from the declared fields; run "
          f"python -m eights.protocol.schema_views --write", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
