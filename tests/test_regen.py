"""``make regen`` remakes every generated file, and the docs say so.

Each generated file has a staleness test that names ``make regen`` (the message of
:func:`tests.conftest.out_of_date`): the env pages (tests/envs/test_pages.py,
tests/protocol/test_docs.py), schema.json's view definitions
(tests/protocol/test_messages.py), the golden playthroughs (tests/test_playthroughs.py)
and the layout fingerprints (tests/envs/test_layout.py). So the command must run each
generator.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the generators, as the regen recipe runs them
GENERATORS = (
    "$(PY) -m eights.envs.layout",
    "$(PY) -m eights.envs.pages",
    "$(PY) -m eights.protocol.schema_views --write",
    "EIGHTS_UPDATE_PLAYTHROUGHS=1 $(PY) -m pytest",
)


def recipe(target: str) -> str:
    """The recipe of a Makefile target, continuation lines joined."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    match = re.search(rf"^{target}:[^\n]*\n((?:\t[^\n]*\n)+)", text, re.M)
    assert match, f"the Makefile has no {target} target"
    return " ".join(match.group(1).split())


def test_make_regen_runs_every_generator_fingerprints_first():
    steps = recipe("regen")
    at = [steps.find(command) for command in GENERATORS]
    assert -1 not in at, [c for c, i in zip(GENERATORS, at, strict=True) if i < 0]
    assert at == sorted(at)
    assert "tests/test_playthroughs.py" in steps


def test_the_readme_and_the_architecture_name_make_regen():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tests = readme[readme.index("## Tests"):]
    assert "make regen" in tests.split("\n## ")[0]
    assert "make regen" in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
