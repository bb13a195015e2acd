"""Validated, frozen game configurations.

Each variant declares its options once, as dataclass fields made with
:func:`option`; the field's metadata says what is allowed. One validator then
serves every variant: a bad value is refused with an error naming the option,
the value, and what is allowed, and an unknown option names the known ones.
Cross-option checks (enough cards to deal, say) go in a variant's
``check()``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from difflib import get_close_matches
from typing import Any, ClassVar


class ConfigError(ValueError):
    """A configuration value or option that the variant does not allow."""


#: the ending of an option that holds the hash of another option's content
#: (``card_set_sha256`` of ``card_set``)
HASH_SUFFIX = "_sha256"


def options_text(options: Mapping[str, Any]) -> str:
    """``name=value, ...`` for people; an option whose content has its hash beside it
    (``card_set``: a whole card file) shows by that hash alone."""
    return ", ".join(f"{k}={v}" for k, v in options.items()
                     if f"{k}{HASH_SUFFIX}" not in options) or "defaults"


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``" (did you mean 'heuristic'?)"`` for the known word closest to a misspelt one, or
    ``""`` when none is close: a typo should cost a glance, not a read of the whole list."""
    close = get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def parse_options(items: Iterable[str]) -> dict[str, object]:
    """Game options written ``name=value`` (the ``--option`` of ``eights play``, ``eights
    tournament`` ...) as a dict; a value is read as JSON where it parses (``5``, ``true``),
    else kept as text (``reward=score``). One parser for every command, so an option is
    written the same way to each; the config then validates names and values."""
    import json

    options: dict[str, object] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ConfigError(f"--option {item!r} must look like name=value, e.g. hand_size=5")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def option(default: Any, *, doc: str, choices: tuple | None = None,
           min: int | None = None, max: int | None = None, optional: bool = False) -> Any:
    """A config field: its default, a one-line ``doc``, and what values are allowed.

    ``choices`` lists the allowed values; ``min``/``max`` bound an int;
    ``optional`` also allows ``None`` (meaning "not set").
    """
    meta = {"doc": doc, "choices": choices, "min": min, "max": max, "optional": optional}
    return dataclasses.field(default=default, metadata=meta)


def _allowed_text(meta: Mapping[str, Any], kind: type) -> str:
    if meta["choices"] is not None:
        allowed = " or ".join(repr(c) for c in meta["choices"])
    elif meta["min"] is not None or meta["max"] is not None:
        lo = meta["min"] if meta["min"] is not None else "-inf"
        hi = meta["max"] if meta["max"] is not None else "any"
        allowed = f"an integer from {lo} to {hi}"
    else:
        allowed = f"a {kind.__name__}"
    return allowed + (" or None" if meta["optional"] else "")


_TYPES = {"int": int, "str": str, "float": float, "bool": bool}


def _declared_type(f: dataclasses.Field) -> type:
    """The type an option with no default value declares (``str`` for ``card_file: str``)."""
    name = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "int")
    return _TYPES.get(name.split("|")[0].strip(), int)


def seat_teams(num_players: int, teams: int) -> tuple[int, ...]:
    """Seat ``s`` in team ``s % teams`` (allies sit as far apart as the table allows); each
    seat its own team when ``teams`` is 0."""
    return (tuple(p % teams for p in range(num_players)) if teams
            else tuple(range(num_players)))


def check_teams(variant: str, num_players: int, teams: int) -> None:
    """Refuse a ``teams`` option that does not give every team two players or more."""
    n = num_players
    if teams and not 2 <= teams <= n // 2:
        raise ConfigError(
            f"{variant}: teams={teams} is not allowed with num_players={n}; every team needs "
            f"at least two players, so teams must be 0 (no teams) or from 2 to {n // 2}"
            if n >= 4 else
            f"{variant}: teams={teams} is not allowed with num_players={n}; teams need at "
            f"least 4 players (two teams of two), so teams must be 0")


@dataclasses.dataclass(frozen=True)
class GameConfig:
    """Base of every variant's config: validation, introspection, round-trip to a dict."""

    variant: ClassVar[str] = ""
    #: options that name a file, read once when the config is made: each maps to the options
    #: that then hold what was read, so a config (and every record, results store, model and
    #: protocol hello made from it) carries the content and never a path to open again
    FILE_OPTIONS: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    num_players: int = option(2, doc="players at the table", min=2, max=8)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            self._check_field(f, getattr(self, f.name))
        self.check()

    def _check_field(self, f: dataclasses.Field, value: Any) -> None:
        meta = f.metadata
        if value is None and meta.get("optional"):
            return
        kind = type(f.default) if f.default is not None else _declared_type(f)
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if ok and meta.get("choices") is not None:
            ok = value in meta["choices"]
        if ok and meta.get("min") is not None:
            ok = value >= meta["min"]
        if ok and meta.get("max") is not None:
            ok = value <= meta["max"]
        if not ok:
            raise ConfigError(
                f"{self.variant}: {f.name}={value!r} is not allowed; "
                f"{f.name} must be {_allowed_text(meta, kind)} ({meta['doc']})"
            )

    def check(self) -> None:
        """Checks across options; variants override and raise :class:`ConfigError`."""

    @property
    def plays_match(self) -> bool:
        """Whether the game is a match of several hands (``match``; a variant whose match
        is another option says so)."""
        return bool(getattr(self, "match", False))

    def goal(self) -> str:
        """One sentence saying what wins, for people at the table (``eights play``)."""
        return "One game: the first to empty their hand wins."

    def team_of(self) -> tuple[int, ...]:
        """Each seat's team: allies share a number and win together.

        Every seat is its own team unless a variant's config seats teams; tournaments read
        it to seat one agent per team, so team play compares agents, not mixed pairs.
        """
        return tuple(range(self.num_players))

    @classmethod
    def options(cls) -> dict[str, dataclasses.Field]:
        return {f.name: f for f in dataclasses.fields(cls)}

    @classmethod
    def from_options(cls, **options: Any) -> GameConfig:
        unknown = sorted(set(options) - set(cls.options()))
        if unknown:
            raise ConfigError(
                f"{cls.variant}: unknown option(s) {', '.join(unknown)}; "
                f"the options are {', '.join(cls.options())}"
            )
        return cls(**options)

    @classmethod
    def from_options_beside(cls, options: Mapping[str, Any], others: Sequence[str],
                            owner: str) -> GameConfig:
        """:meth:`from_options` for a caller with options of its own (an env, a wrapper).

        An unknown name is refused with both lists, so a misspelt env option is not
        reported as if only game options existed.
        """
        unknown = sorted(set(options) - set(cls.options()))
        if unknown:
            raise ConfigError(
                f"{cls.variant}: unknown option(s) {', '.join(unknown)}; the game options are "
                f"{', '.join(cls.options())} and the {owner} options are {', '.join(others)}")
        return cls(**options)

    @classmethod
    def refuse_files(cls, options: Mapping[str, Any], source: str) -> None:
        """Refuse stored or received ``options`` (a record, a model, a results file, a
        message) that name a file: opening a path that data names could read anything, or
        block on a FIFO, and the file may have changed since. Such data carries the content
        (:attr:`FILE_OPTIONS`)."""
        named = sorted(k for k in cls.FILE_OPTIONS if options.get(k) is not None)
        if named:
            name, held = named[0], " and ".join(cls.FILE_OPTIONS[named[0]])
            raise ConfigError(f"{cls.variant}: {source} names a file ({name}), which is "
                              f"never opened from stored or received data; give the content "
                              f"instead ({held}: a config made from the file holds them)")

    @classmethod
    def from_data(cls, options: Mapping[str, Any], source: str) -> GameConfig:
        """:meth:`from_options` for options read from ``source`` (a record, a model file, a
        message), which may not name a file to open (:meth:`refuse_files`)."""
        cls.refuse_files(options, source)
        return cls.from_options(**options)

    def portable(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The ``given`` options (those this config was made from) with each option that
        names a file replaced by the options holding what was read from it: what a
        tournament or a training run stores, so resuming never reads the file again."""
        out = {k: v for k, v in given.items() if k not in self.FILE_OPTIONS}
        for name, held in self.FILE_OPTIONS.items():
            if given.get(name) is not None:
                out |= {k: getattr(self, k) for k in held}
        return out

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def replace(self, **changes: Any) -> GameConfig:
        return type(self).from_options(**(self.to_dict() | changes))

    @classmethod
    def option_rows(cls) -> list[tuple[str, str, str, str]]:
        """``(option, default, allowed, meaning)`` per option, for docs, help and tables."""
        rows = []
        for f in dataclasses.fields(cls):
            kind = type(f.default) if f.default is not None else _declared_type(f)
            rows.append((f.name, repr(f.default), _allowed_text(f.metadata, kind),
                         f.metadata["doc"]))
        return rows

    @classmethod
    def describe(cls) -> str:
        """A Markdown table of the options, for docs."""
        rows = ["| option | default | allowed | meaning |", "| --- | --- | --- | --- |"]
        rows += [f"| `{name}` | `{default}` | {allowed} | {doc} |"
                 for name, default, allowed, doc in cls.option_rows()]
        return "\n".join(rows)
