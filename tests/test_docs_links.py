"""Every relative link of README.md, docs/ and the notebooks leads somewhere.

A link to a file must name one that exists; a link with ``#anchor`` into a
Markdown file must name one of its headings (as GitHub makes their ids) or an
explicit ``<a id="...">``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
         *sorted((ROOT / "notebooks").glob("*.ipynb"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
EXPLICIT_ID = re.compile(r'<a id="([^"]+)"')


def markdown_of(path: Path) -> str:
    """A page's Markdown without its code blocks (a notebook's Markdown cells)."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
    return FENCE.sub("", text)


def github_id(heading: str) -> str:
    """The id GitHub gives a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors_of(path: Path) -> set[str]:
    text = markdown_of(path)
    headings = re.findall(r"^#+\s+(.*)$", text, re.MULTILINE)
    return {github_id(h) for h in headings} | set(EXPLICIT_ID.findall(text))


def test_github_ids_are_made_as_github_makes_them():
    assert github_id("The Crazier Eights heuristic") == "the-crazier-eights-heuristic"
    assert (github_id("`eights train`: MaskablePPO self-play")
            == "eights-train-maskableppo-self-play")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page):
    broken = []
    for target in LINK.findall(markdown_of(page)):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        linked = (page.parent / file).resolve() if file else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors_of(linked):
            broken.append(f"{target}: no heading or <a id> {anchor!r} in {linked.name}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)
