"""Golden playthroughs: a seeded game per variant and config, compared to the stored text.

``EIGHTS_UPDATE_PLAYTHROUGHS=1`` rewrites the stored texts (``make regen`` runs this file
so)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from eights.playthrough import playthrough
from tests.conftest import available_variants, out_of_date

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "tests" / "playthroughs"
CASES = [
    ("crazy_eights", 3, {"num_players": 2}),
    ("crazy_eights", 4, {"num_players": 4}),
    ("crazy_eights", 5, {"num_players": 3, "match": True, "target_score": 60}),
    ("livery_eights", 3, {"num_players": 2}),
    ("livery_eights", 4, {"num_players": 4}),
    ("livery_eights", 5, {"num_players": 3, "match": True, "match_games": 2}),
    ("baby_eating_eights", 3, {"num_players": 2}),
    ("baby_eating_eights", 4, {"num_players": 4}),
    ("baby_eating_eights", 5, {"num_players": 4, "teams": 2}),
    ("baby_eating_eights", 6, {"num_players": 7}),
    ("jokers_of_death", 3, {"num_players": 3}),
    ("jokers_of_death", 3, {"num_players": 2, "hand_size": 10}),
    ("jokers_of_death", 8, {"num_players": 3, "match": True, "target_score": 50,
                            "hand_size": 5}),
    ("jokers_of_death", 3, {"num_players": 3, "hand_switching": True, "hand_size": 10}),
    ("jokers_of_death", 10, {"num_players": 4, "five_pile": True, "hand_size": 8}),
    ("jokers_of_death", 5, {"num_players": 3, "aces": True, "hand_size": 10}),
    ("jokers_of_death", 6, {"num_players": 3, "free_discard_pile": True, "hand_size": 5}),
    ("crazier_eights", 3, {"num_players": 2}),
    ("crazier_eights", 6, {"num_players": 3, "hand_size": 5}),
    ("crazier_eights", 8, {"num_players": 4, "teams": 2, "hand_size": 4}),
    ("crazier_eights", 12, {"num_players": 2, "games": 2, "hand_size": 4}),
]


def case_id(case: tuple) -> str:
    variant, seed, config = case
    return f"{variant}-seed{seed}-" + "-".join(f"{k}{v}" for k, v in config.items())


@pytest.mark.parametrize("case", [c for c in CASES if c[0] in available_variants()], ids=case_id)
def test_playthrough_matches_golden_file(case: tuple) -> None:
    variant, seed, config = case
    text = playthrough(variant, seed=seed, **config)
    path = HERE / f"{case_id(case)}.txt"
    if os.environ.get("EIGHTS_UPDATE_PLAYTHROUGHS"):
        path.write_text(text)
    if not path.exists():
        pytest.fail(out_of_date(path.relative_to(ROOT), "missing"))
    if text != path.read_text():
        old = path.read_text().splitlines()
        line = next((i for i, (a, b) in enumerate(zip(old, text.splitlines(), strict=False))
                     if a != b), min(len(old), len(text.splitlines())))
        pytest.fail(out_of_date(path.relative_to(ROOT), f"the game differs from line {line + 1}"))
