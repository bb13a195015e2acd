"""The strength figures quoted around the docs are the measured ones.

docs/agents.md (and benchmarks/README.md for search) is where each strength
figure is recorded with how it was measured. The README's variants table,
docs/benchmarks.md and the env pages quote those figures; when a model is
retrained and agents.md gets new figures, a quote left behind fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDS = [ROOT / "docs" / "agents.md", ROOT / "benchmarks" / "README.md"]
QUOTING = [ROOT / "README.md", ROOT / "docs" / "benchmarks.md",
           *sorted((ROOT / "docs" / "envs").glob("*.md"))]
#: a win rate and its 95% interval on one line: "87.5% | 86.0%-88.9%" or "87.5% (86.0-88.9)"
WITH_INTERVAL = re.compile(r"(?<![\d.])(\d{1,3}\.\d)%[\s|(\[]*(\d{1,3}\.\d)%?[-, ]+(\d{1,3}\.\d)%?")
RATE = re.compile(r"(?<![\d.])(\d{1,3}\.\d)%")
#: rows of a quoting page's tables that hold win rates (not throughput or targets)
WIN_RATE_ROW = re.compile(r"^\|.*\b(random|heuristic|greedy|policy|ismcts)\b.*%", re.IGNORECASE)


def recorded() -> tuple[set[str], set[tuple[str, str, str]]]:
    """Every win rate the records hold, and every (rate, low, high) they give together."""
    rates: set[str] = set()
    triples: set[tuple[str, str, str]] = set()
    for path in RECORDS:
        text = path.read_text(encoding="utf-8").replace("\n", " ")  # prose wraps lines
        rates |= set(RATE.findall(text))
        triples |= set(WITH_INTERVAL.findall(text))
    return rates, triples


def quoted(path: Path) -> list[tuple[int, str]]:
    """(line number, a quoted figure) for every win rate in a win-rate table row of ``path``:
    ``"87.5% (86.0-88.9)"`` for a rate with its interval, ``"95.2%"`` for one without."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not WIN_RATE_ROW.match(line):
            continue
        triples = WITH_INTERVAL.findall(line)
        out += [(n, f"{r}% ({lo}-{hi})") for r, lo, hi in triples]
        inside = {x for t in triples for x in t}
        out += [(n, f"{r}%") for r in RATE.findall(line) if r not in inside]
    return out


@pytest.mark.parametrize("page", QUOTING, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_win_rate_the_page_quotes_is_one_the_records_hold(page):
    rates, triples = recorded()
    known = {f"{r}% ({lo}-{hi})" for r, lo, hi in triples} | {f"{r}%" for r in rates}
    figures = quoted(page)
    assert figures, f"{page.name}: no win-rate table found"
    missing = [f"line {n}: {figure}" for n, figure in figures if figure not in known]
    assert not missing, (f"{page.relative_to(ROOT)} quotes figures docs/agents.md does not "
                         f"record: {', '.join(missing)}")
