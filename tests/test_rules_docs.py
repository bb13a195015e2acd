"""Every numbered interpretation in docs/rules/<variant>.md is pinned by a scenario test.

A test pins interpretation N by saying "Pins docs/rules/<variant>.md #N" (or "#N, #M")
in tests/engines/test_<variant>.py. A new interpretation without a test, or a number
skipped, fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import available_variants

ROOT = Path(__file__).resolve().parents[1]


def interpretation_numbers(variant: str) -> list[int]:
    text = (ROOT / "docs" / "rules" / f"{variant}.md").read_text(encoding="utf-8")
    section = text[text.index("## Interpretations") + 3:]
    section = section.split("\n## ", 1)[0]
    return [int(n) for n in re.findall(r"^(\d+)\. ", section, re.M)]


def pinned_numbers(variant: str) -> set[int]:
    tests = (ROOT / "tests" / "engines" / f"test_{variant}.py").read_text(encoding="utf-8")
    pinned: set[int] = set()
    for match in re.finditer(rf"Pins docs/rules/{variant}\.md ((?:#\d+(?:, | and |,)?)+)",
                             tests):
        pinned |= {int(n) for n in re.findall(r"#(\d+)", match.group(1))}
    return pinned


@pytest.mark.parametrize("variant", available_variants())
def test_every_interpretation_is_numbered_and_pinned(variant: str) -> None:
    numbers = interpretation_numbers(variant)
    assert numbers and numbers == list(range(1, len(numbers) + 1)), numbers
    missing = sorted(set(numbers) - pinned_numbers(variant))
    assert not missing, f"docs/rules/{variant}.md interpretations with no test: {missing}"
    assert pinned_numbers(variant) <= set(numbers), "a test pins a number the docs lack"
