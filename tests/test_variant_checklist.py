"""Every registered variant has every file docs/architecture.md's checklist lists.

The checklist is a table between ``<!-- variant-checklist -->`` markers; its
"where" column is either a path glob with ``<variant>`` in it (at least one
file must match) or `` `file` names it`` (the file must hold the
variant's id as a name of its own, or its start: ``crazy_eights_view``), or
"the registration's `heuristic`" (it must import as an agent class). A new
variant that forgets a row fails here, naming it.
"""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

import pytest

from eights.agents.base import Agent
from eights.variants import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
TABLE = re.compile(r"<!-- variant-checklist -->\n(.*?)<!-- /variant-checklist -->", re.S)
NAMES = re.compile(r"^`([^`]+)` names it$")
GLOB = re.compile(r"^`([^`]*<variant>[^`]*)`$")


def checklist() -> list[tuple[str, str, str]]:
    """The rows of the doc's checklist: (what, where, by)."""
    found = TABLE.search(DOC.read_text())
    assert found, "docs/architecture.md has no <!-- variant-checklist --> table"
    rows = []
    for line in found.group(1).splitlines()[2:]:  # past the header and its rule
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        assert len(cells) == 3, f"checklist row {line!r} has not 3 cells"
        rows.append((cells[0], cells[1], cells[2]))
    return rows


def missing(where: str, variant: str) -> str | None:
    """Why ``variant`` lacks the checklist's ``where`` (``None``: it has it)."""
    if match := GLOB.match(where):
        pattern = match.group(1).replace("<variant>", variant)
        return None if list(ROOT.glob(pattern)) else f"no file matches {pattern}"
    if match := NAMES.match(where):
        path = ROOT / match.group(1)
        named = re.search(rf"(?<![a-z_]){variant}(?![a-z])", path.read_text())
        return None if named else f"{path.name} does not name it"
    if where == "the registration's `heuristic`":
        module, _, name = REGISTRY[variant].heuristic.partition(":")
        cls = getattr(import_module(module), name, None)
        return None if isinstance(cls, type) and issubclass(cls, Agent) else (
            f"{REGISTRY[variant].heuristic} is not an agent class")
    raise AssertionError(f"the checklist's where {where!r} is not a form this test reads")


def test_the_checklist_counts_what_the_issue_says() -> None:
    """About ten hand-written files and four kinds of generated file."""
    rows = checklist()
    by = [row[2] for row in rows]
    assert by.count("hand") >= 8 and by.count("`make regen`") == 4, by
    assert set(by) == {"hand", "`make regen`"}


@pytest.mark.parametrize("variant", sorted(REGISTRY))
def test_every_variant_has_every_item_of_the_checklist(variant: str) -> None:
    gaps = [f"{what} ({where}): {why}" for what, where, _ in checklist()
            if (why := missing(where, variant))]
    assert not gaps, f"{variant} lacks: " + "; ".join(gaps)


def test_a_missing_item_is_named(tmp_path, monkeypatch) -> None:
    """The check can fail: a variant with none of the files is told which."""
    assert missing("`docs/rules/<variant>.md`", "no_such_variant") == (
        "no file matches docs/rules/no_such_variant.md")
    assert missing("`tests/conftest.py` names it", "no_such_variant") == (
        "conftest.py does not name it")
