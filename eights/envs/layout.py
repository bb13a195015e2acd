"""Layout fingerprints: each env version's observation and action layout, checked in.

A trained model reads features by offset and writes actions by id, so an env
version's layout is a promise: the observation's fields (names, offsets,
widths, the phases a phase one-hot stands for) and the action space's blocks
(names, templates, id ranges) may not change while the version stays the
same. One rule added to an engine (a phase behind an option that is off) once
widened an observation from 239 to 240 features and broke the shipped model,
and nothing but a hard-coded 239 in a test noticed.

So each registered env version has a fingerprint in ``eights/envs/layouts/``
(``crazy_eights_v1.json``): its layout at the default config, in full, and a
sha256 digest of its layout at the largest table the config accepts.
``python -m eights.envs.layout`` writes the fingerprints of versions that have
none (``make regen`` runs it) and refuses to rewrite one that differs: a
changed layout is a new env version (a new ``<variant>_v<N+1>`` module with
its version-history line), never a new fingerprint for the old one.
``--check`` writes nothing and reports every difference, which is what the test
suite runs (``tests/envs/test_layout.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..config import ConfigError, GameConfig
from ..variants import REGISTRY

#: the directory of the fingerprints, inside the package (they ship with it)
LAYOUTS = Path(__file__).resolve().parent / "layouts"
REGEN = "make regen"


def engine_of(variant: str) -> Any:
    from ..engines import engine_class

    return engine_class(variant)


def versions(variant: str) -> range:
    """The env versions of ``variant`` with a fingerprint: 1 to its registered (newest) one;
    every one stays importable (``eights.envs.<variant>_v<N>``)."""
    return range(1, REGISTRY[variant].env_version + 1)


def observation_fields(engine: Any, config: GameConfig,
                       version: int | None = None) -> list[dict[str, Any]]:
    """The observation's fields at ``config`` and env ``version`` (``None``: the newest), in
    order: feature name, offset, width and (for a phase one-hot) the phases its features
    stand for."""
    encoder = engine.encoder(config, version)
    fields = []
    for name, width, _ in encoder.parts:
        field: dict[str, Any] = {"feature": name, "offset": encoder.offsets[name],
                                 "width": width}
        if encoder.labels[name]:
            field["values"] = list(encoder.labels[name])
        fields.append(field)
    return fields


def action_blocks(engine: Any) -> list[dict[str, Any]]:
    """The action space's blocks, in id order: name, text template, first and last id."""
    return [{"block": b.name, "template": b.template, "first": b.start, "last": b.stop - 1}
            for b in engine.actions.blocks.values()]


def largest_table(engine: Any) -> GameConfig:
    """The default config at the most players its validator accepts."""
    meta = engine.Config.options()["num_players"].metadata
    for n in range(meta["max"], meta["min"] - 1, -1):
        try:
            return engine.Config.from_options(num_players=n)
        except ConfigError:
            continue
    raise ConfigError(f"{engine.variant}: no table size is accepted with the default options")


def digest(engine: Any, config: GameConfig, version: int | None = None) -> str:
    """A sha256 of the observation and action layout at ``config`` (canonical JSON)."""
    layout = {"observation": observation_fields(engine, config, version),
              "actions": action_blocks(engine)}
    return hashlib.sha256(json.dumps(layout, sort_keys=True).encode()).hexdigest()


def env_name(variant: str, version: int | None = None) -> str:
    """``crazy_eights_v1``: the env module of ``variant``'s ``version`` (``None``: the
    registered one)."""
    return REGISTRY[variant].env_name if version is None else f"{variant}_v{version}"


def fingerprint(variant: str, version: int | None = None) -> dict[str, Any]:
    """The fingerprint of ``variant``'s env ``version`` (``None``: the registered one), as
    it is now."""
    engine = engine_of(variant)
    version = REGISTRY[variant].env_version if version is None else version
    config = engine.Config.from_options()
    largest = largest_table(engine)
    fields = observation_fields(engine, config, version)
    return {
        "env": env_name(variant, version),
        "variant": variant,
        "config": "the defaults",
        "num_players": config.num_players,
        "observation_size": engine.encoder(config, version).size,
        "observation": fields,
        "num_actions": len(engine.actions),
        "actions": action_blocks(engine),
        "largest_table": {"num_players": largest.num_players,
                          "observation_size": engine.encoder(largest, version).size,
                          "sha256": digest(engine, largest, version)},
    }


def path_of(env_name: str, root: Path = LAYOUTS) -> Path:
    return root / f"{env_name}.json"


def text_of(print_: dict[str, Any]) -> str:
    """The fingerprint as JSON with one field or block a line (a change is a one-line diff)."""
    lines = []
    for key, value in print_.items():
        if isinstance(value, list):
            items = ",\n".join(f"  {json.dumps(item)}" for item in value)
            lines.append(f"{json.dumps(key)}: [\n{items}\n ]")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}")
    return "{\n " + ",\n ".join(lines) + "\n}\n"


def fingerprinted(root: Path = LAYOUTS) -> list[tuple[str, int]]:
    """Every ``(env module name, version)`` with a fingerprint under ``root``."""
    return sorted((p.stem, int(p.stem.rsplit("_v", 1)[1])) for p in root.glob("*_v*.json"))


# ------------------------------------------------------------------ differences
def _field_text(f: dict[str, Any] | None) -> str:
    if f is None:
        return "nothing"
    return f"{f['feature']!r} (offset {f['offset']}, width {f['width']})"


def _first_field_change(old: Sequence[dict], new: Sequence[dict]) -> str | None:
    """The first field that differs, in words: where it is and what changed."""
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else None
        b = new[i] if i < len(new) else None
        if a == b:
            continue
        if a is None or b is None or a["feature"] != b["feature"]:
            return f"field {i} was {_field_text(a)}, is {_field_text(b)}"
        changes = [f"{key} {a[key]} -> {b[key]}" for key in ("offset", "width")
                   if a[key] != b[key]]
        was, now = a.get("values", []), b.get("values", [])
        added = [v for v in now if v not in was]
        removed = [v for v in was if v not in now]
        changes += [f"+ value {v!r}" for v in added] + [f"- value {v!r}" for v in removed]
        if not added and not removed and was != now:
            changes.append(f"values reordered {was} -> {now}")
        return f"field {i} {a['feature']!r} (offset {a['offset']}): {', '.join(changes)}"
    return None


def _first_block_change(old: Sequence[dict], new: Sequence[dict]) -> str | None:
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else None
        b = new[i] if i < len(new) else None
        if a != b:
            def shown(x: dict | None) -> str:
                return ("nothing" if x is None else
                        f"{x['block']!r} `{x['template']}` (ids {x['first']}-{x['last']})")
            return f"action block {i} was {shown(a)}, is {shown(b)}"
    return None


def differences(stored: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """What changed between a stored fingerprint and the layout now, first change first."""
    found = []
    field = _first_field_change(stored["observation"], current["observation"])
    if field is not None or stored["observation_size"] != current["observation_size"]:
        found.append(f"the observation at the defaults ({stored['num_players']} players): "
                     f"{field or 'same fields'}; size {stored['observation_size']} -> "
                     f"{current['observation_size']}")
    block = _first_block_change(stored["actions"], current["actions"])
    if block is not None:
        found.append(f"the action space: {block}; {stored['num_actions']} -> "
                     f"{current['num_actions']} actions")
    old, new = stored["largest_table"], current["largest_table"]
    if not found and old != new:
        found.append(f"the layout at {old['num_players']} players (the largest table): digest "
                     f"differs (size {old['observation_size']} -> {new['observation_size']}, "
                     f"{new['num_players']} players now)")
    return found


def unversioned_change(variant: str, stored: dict[str, Any], current: dict[str, Any],
                       path: Path) -> str:
    """The message for a layout that changed under its version: what, and what to do (a
    field for a new version is declared ``since`` it)."""
    newest = REGISTRY[variant].env_version
    nxt = f"{variant}_v{newest + 1}"
    return (f"{stored['env']}'s layout differs from its fingerprint {path.name}: "
            + "; ".join(differences(stored, current))
            + f". A layout or action space never changes under a released version: add "
            f"eights/envs/{nxt}.py (its EnvDoc history with a line for v{newest + 1} "
            f"saying what changed; a new field declared since={newest + 1}), register it "
            f"in eights/variants.py, then run `{REGEN}`")


def shown(path: Path) -> str:
    """``path`` from the repository root where it is in the package's checkout."""
    try:
        return path.resolve().relative_to(LAYOUTS.parents[2]).as_posix()
    except ValueError:
        return str(path)


def missing(env_name: str, root: Path = LAYOUTS) -> str:
    """The message for an env version without a fingerprint (the test suite's staleness
    pattern: which file, what differs, the command that remakes it)."""
    return (f"{shown(path_of(env_name, root))} is out of date (no fingerprint of {env_name}): "
            f"run `{REGEN}` and review the diff")


def check_version(variant: str, version: int, root: Path = LAYOUTS) -> tuple[str, str]:
    """``("ok" | "missing" | "changed", message)`` for ``variant``'s env ``version``."""
    name = env_name(variant, version)
    path = path_of(name, root)
    if not path.is_file():
        return "missing", missing(name, root)
    stored = json.loads(path.read_text(encoding="utf-8"))
    current = fingerprint(variant, version)
    if stored != current:
        return "changed", unversioned_change(variant, stored, current, path)
    return "ok", f"{path.name}: up to date"


def check(variant: str, root: Path = LAYOUTS) -> tuple[str, str]:
    """:func:`check_version` of every env version of ``variant``: the first that is not
    ok, else ok (the messages of all, one a line)."""
    results = [check_version(variant, version, root) for version in versions(variant)]
    for state, message in results:
        if state != "ok":
            return state, message
    return "ok", "\n".join(message for _, message in results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m eights.envs.layout",
        description="Write the layout fingerprint of every registered env version that has "
                    "none (eights/envs/layouts/<env>.json); refuse one whose layout changed.")
    parser.add_argument("--root", type=Path, default=LAYOUTS,
                        help="the fingerprints' directory (default: the package's)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a fingerprint is missing or differs")
    args = parser.parse_args(argv)
    status = 0
    for variant in REGISTRY:
        for version in versions(variant):
            state, message = check_version(variant, version, args.root)
            if state == "missing" and not args.check:
                path = path_of(env_name(variant, version), args.root)
                args.root.mkdir(parents=True, exist_ok=True)
                path.write_text(text_of(fingerprint(variant, version)), encoding="utf-8")
                print(f"{path.name}: written")
            elif state == "ok":
                print(message)
            else:
                print(f"error: {message}", file=sys.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
