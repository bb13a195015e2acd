"""The env pages in docs/envs/ match the code: their generated blocks are current."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eights.engines.encoding import Encoder
from eights.envs import pages
from eights.variants import REGISTRY
from tests.conftest import out_of_date

ROOT = Path(__file__).resolve().parents[2]
EXPECTED_BLOCKS = {"summary", "overview", "position", "actions", "observation", "notes",
                   "options", "history"}


@pytest.mark.parametrize("variant", REGISTRY)
def test_every_variant_has_a_page_whose_generated_blocks_are_current(variant):
    path = pages.page_path(ROOT, variant)
    text = path.read_text(encoding="utf-8")
    assert {m.group("name") for m in pages.BLOCK.finditer(text)} == EXPECTED_BLOCKS
    stale = pages.stale_blocks(ROOT, variant)
    assert stale == [], out_of_date(path.relative_to(ROOT), f"generated blocks {', '.join(stale)}")


@pytest.mark.parametrize("variant", REGISTRY)
def test_the_pages_observation_table_indexes_the_vector_the_env_returns(variant):
    """Read as a user would: the rows of the page's table tile the observation the env
    really returns at 2 players, each feature at the index the encoder writes it to."""
    from eights.envs import make_env

    text = pages.page_path(ROOT, variant).read_text(encoding="utf-8")
    block = next(m.group("body") for m in pages.BLOCK.finditer(text)
                 if m.group("name") == "observation")
    rows = [line.split("|")[1:3] for line in block.splitlines()
            if line.startswith("| ") and line[2].isdigit()]
    engine = pages.env_doc(variant).engine
    encoder: Encoder = engine.encoder(engine.Config.from_options(num_players=2))
    expected_start = 0
    for span, name in rows:
        first, _, last = span.strip().partition("-")
        start, stop = int(first), int(last or first) + 1
        assert start == expected_start == encoder.offsets[name.strip(" `")], name
        expected_start = stop
    env = make_env(variant, num_players=2)
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)["observation"]
    assert expected_start == encoder.size == observation.shape[0]


def test_check_reports_a_stale_page_and_the_rewrite_fixes_it(tmp_path, capsys):
    (tmp_path / "docs").mkdir()
    shutil.copytree(ROOT / "docs" / "envs", tmp_path / "docs" / "envs")
    page = tmp_path / "docs" / "envs" / "crazy_eights.md"
    page.write_text(page.read_text().replace("Discrete(", "Discrete(9"), encoding="utf-8")
    assert pages.main(["--root", str(tmp_path), "--check", "crazy_eights"]) == 1
    assert "out of date: overview" in capsys.readouterr().out
    assert pages.main(["--root", str(tmp_path), "crazy_eights"]) == 0
    assert page.read_text() == (ROOT / "docs" / "envs" / "crazy_eights.md").read_text()


def test_an_unknown_block_or_variant_is_refused(tmp_path, capsys):
    with pytest.raises(ValueError, match=r"unknown generated block 'bogus'; the blocks are "
                                         r"summary, overview"):
        pages.refreshed("<!-- generated: bogus -->\nx\n<!-- /generated -->", "crazy_eights",
                        "page.md")
    with pytest.raises(SystemExit):
        pages.main(["no_such_variant"])
    assert "unknown variant 'no_such_variant'; the variants are crazy_eights" in (
        capsys.readouterr().err)


@pytest.mark.parametrize("shared", pages.SHARED_PAGES, ids=str)
def test_the_shared_pages_are_current_and_list_every_gymnasium_id(shared):
    from eights.registration import GYM_IDS

    stale = pages.stale_blocks(ROOT, None, shared)
    assert stale == [], out_of_date(shared, f"generated blocks {', '.join(stale)}")
    text = (ROOT / shared).read_text(encoding="utf-8")
    if "<!-- generated: gym-ids -->" in text:
        assert all(f"`{env_id}`" in text for env_id in GYM_IDS.values())


def test_a_stale_shared_page_is_reported_and_rewritten(tmp_path, capsys):
    (tmp_path / "docs" / "envs").mkdir(parents=True)
    for variant in REGISTRY:
        shutil.copy(pages.page_path(ROOT, variant), pages.page_path(tmp_path, variant))
    for shared in pages.SHARED_PAGES:
        shutil.copy(ROOT / shared, tmp_path / shared)
    training = tmp_path / "docs" / "training.md"
    fresh = (ROOT / "docs" / "training.md").read_text()
    training.write_text(fresh.replace("| `crazier_eights` | `eights/CrazierEights-v2`", "| x"))
    assert pages.main(["--root", str(tmp_path), "--check"]) == 1
    assert "training.md: out of date: gym-ids" in " ".join(capsys.readouterr().out.split())
    assert pages.main(["--root", str(tmp_path)]) == 0
    assert training.read_text() == fresh
