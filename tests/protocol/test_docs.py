"""docs/protocol.md stays true where running its commands cannot tell.

tests/test_docs_commands.py runs every command of the docs and wants exit
status 0; a bot answers a bad message with an ``error`` and still exits 0,
so here the messages the docs pipe into ``eights bot`` must get an
``action``, the minimal decide example must be answered, and the per-variant
tables of required fields and defaults must say what the code does.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from eights.engines import VARIANTS
from eights.engines.defaults import RequiredWhile
from eights.envs import pages
from eights.protocol import messages as m
from eights.protocol.session import BotSession
from eights.protocol.views import rules_for, view_fields
from tests.conftest import out_of_date
from tests.protocol.conftest import ROOT

DOC = ROOT / "docs" / "protocol.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
#: the documented commands that pipe messages into a bot, continuation lines joined
PIPED = [command for lang, body in BLOCK.findall(TEXT) if lang == "sh"
         for command in re.sub(r"\\\n", " ", body).splitlines() if "| eights bot" in command]


def test_the_docs_pipe_messages_into_a_bot() -> None:
    assert len(PIPED) == len(VARIANTS)


@pytest.mark.parametrize("command", PIPED, ids=[f"pipe{i}" for i in range(len(PIPED))])
def test_documented_messages_get_an_action(command: str) -> None:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    done = subprocess.run(["/bin/bash", "-c", command], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["type"] for r in replies] == ["ready", "action"], replies
    assert "WARNING" not in done.stderr, done.stderr  # the agent decided itself


def test_the_minimal_decide_example_is_answered() -> None:
    section = TEXT[TEXT.index("## Writing a frontend"):]
    example = json.loads(BLOCK.search(section).group(2))
    session = BotSession("heuristic")
    session.handle(m.encode(m.hello("crazy_eights", {"num_players": 2})))
    (reply,), _ = session.handle(m.encode(example))
    assert reply["type"] == "action" and reply["action"] in example["legal"], reply


def doc_table(variant: str) -> dict[str, tuple[str, str]]:
    """field -> (required column, default column) of the variant's table in the view section."""
    start = TEXT.index(f"#### {variant}\n")
    rows: dict[str, tuple[str, str]] = {}
    for line in TEXT[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = (cells[1], cells[2])
    return rows


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_view_tables_say_what_the_code_does(variant: str) -> None:
    rows = doc_table(variant)
    assert sorted(rows) == sorted(view_fields(variant))
    rules = rules_for(variant)
    for field, (required, default) in rows.items():
        rule = rules.get(field)
        if rule is None:
            assert (required, default) == ("**yes**", ""), field
        elif isinstance(rule, RequiredWhile):
            assert (required, default) == (rule.text, rule.default.text), field
        else:
            assert (required, default) == ("no", rule.text), field


def test_the_variants_a_hello_may_name_are_the_registrys() -> None:
    """The hello's ``variant`` row listed 3 of the 5 variants; it now points at a table made
    from the registry (``python -m eights.envs.pages``), which must be current."""
    stale = pages.stale_blocks(ROOT, None, DOC.relative_to(ROOT))
    assert stale == [], out_of_date("docs/protocol.md", f"generated blocks {', '.join(stale)}")
    block = next(match.group("body") for match in pages.BLOCK.finditer(TEXT)
                 if match.group("name") == "protocol-variants")
    assert re.findall(r"^\| `(\w+)` \|", block, re.M) == list(VARIANTS)
    (row,) = [line for line in TEXT.splitlines() if line.startswith("| `variant` | required")]
    assert "[the variants](#actions)" in row and not any(v in row for v in VARIANTS), row
