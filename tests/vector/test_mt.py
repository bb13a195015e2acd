"""eights.vector.mt draws what the Python engines' GameRandom draws, from the same seed.

The compiled cores deal from these functions, so every differential test of
:mod:`eights.vector` rests on them: the state after seeding word for word,
then ``randrange`` and ``shuffle`` in any interleaving, across the seeds'
edge cases (one 32-bit word, two words, the largest game seed SplitMix64
hands out).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from eights.engines.base import GameRandom
from eights.vector import mt

SEEDS = [0, 1, 12345, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 2, 2**63 - 1]
#: bounds for randbelow: 1 (always 0), powers of two and their neighbours, a deck, the top
BOUNDS = [1, 2, 3, 4, 5, 7, 8, 9, 52, 104, 208, 2**16, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1]


def seeded(seed_value: int) -> tuple[np.ndarray, int]:
    state = np.zeros(mt.N, np.uint32)
    return state, mt.seed(state, np.uint64(seed_value))


@pytest.mark.parametrize("seed_value", [*SEEDS, 2**63, 2**64 - 1])
def test_seed_gives_random_randoms_state(seed_value):
    state, mti = seeded(seed_value)
    words = GameRandom(seed_value).getstate()[1]
    assert state.tolist() == list(words[: mt.N])
    assert mti == words[mt.N]


@pytest.mark.parametrize("seed_value", SEEDS)
def test_randbelow_and_shuffle_follow_game_random(seed_value):
    state, mti = seeded(seed_value)
    reference = GameRandom(seed_value)
    # more than 624 words, so the state twists several times between the checks
    for round_ in range(3):
        for n in BOUNDS:
            value, mti = mt.randbelow(state, mti, n)
            assert value == reference.randrange(n), (round_, n)
        for length in (0, 1, 2, 52, 104, 156):
            cards = (np.arange(208) % 52).astype(np.int8)
            expected = [int(c) for c in cards[:length]]
            mti = mt.shuffle(state, mti, cards, length)
            reference.shuffle(expected)
            assert cards[:length].tolist() == expected, (round_, length)
            assert cards[length:].tolist() == (np.arange(length, 208) % 52).tolist()
    # the whole state still agrees after the mixed draws
    words = reference.getstate()[1]
    assert state.tolist() == list(words[: mt.N]) and mti == words[mt.N]


def test_next_u32_is_getrandbits_32():
    state, mti = seeded(7)
    reference = random.Random(7)
    for _ in range(2000):
        word, mti = mt.next_u32(state, mti)
        assert word == reference.getrandbits(32)


@pytest.mark.parametrize("start", [0, 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15, 123456789])
def test_splitmix_next_equals_python(start):
    compiled, python = start, start
    for _ in range(50):
        # (a uint64 as the cores pass it: numba types a Python int below 2**63 as int64)
        compiled, game_seed = mt.splitmix_next(np.uint64(compiled))
        python, expected = mt.splitmix_next_py(python)
        assert int(compiled) == python
        assert int(game_seed) == expected
        assert 0 <= expected < 2**63
