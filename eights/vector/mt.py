"""Python's ``random.Random``, compiled: the same numbers from the same seed, inside numba.

The Python engines draw every shuffle and random pick from
:class:`~eights.engines.base.GameRandom` (a ``random.Random``: MT19937 seeded
by ``init_by_array`` over the seed's 32-bit words, ``_randbelow`` by
rejection over ``getrandbits``, ``shuffle`` as Fisher-Yates from the end).
The compiled cores of :mod:`eights.vector` draw through these functions, so a
compiled table dealt from a game seed deals the very cards the Python engine
deals from that seed, and every reshuffle after it. That is what makes the
differential tests exact (the same seeds and actions give the same games),
and what lets a user replay a vector table's game in the AEC env.

The state is a record field: ``mt`` (624 ``uint32``) and ``mti`` (the next
word's index). Arithmetic runs in ``uint64`` and is masked to 32 bits. From
Python, pass seeds and SplitMix64 states as ``np.uint64``: numba types a plain
int as ``int64``, which refuses the upper half of the range.

New game seeds come from SplitMix64 (Steele, Lea & Flood 2014), one stream per
table, so tables reset inside compiled code without a call back to Python;
:func:`splitmix_next_py` is the same step in Python, for tests and for
:meth:`~eights.vector.env.VectorTables.game_seeds`.
"""

from __future__ import annotations

import numba
import numpy as np

N = 624
M = 397
_MASK32 = np.uint64(0xFFFFFFFF)
_UPPER = np.uint64(0x80000000)
_LOWER = np.uint64(0x7FFFFFFF)
_MATRIX_A = np.uint64(0x9908B0DF)
_MASK63 = (1 << 63) - 1


@numba.njit(cache=True, inline="always")
def _u(x):
    return np.uint64(x) & _MASK32


@numba.njit(cache=True)
def _init_genrand(mt, s):
    mt[0] = np.uint32(s)
    for i in range(1, N):
        prev = np.uint64(mt[i - 1])
        mt[i] = np.uint32((np.uint64(1812433253) * (prev ^ (prev >> np.uint64(30)))
                           + np.uint64(i)) & _MASK32)


@numba.njit(cache=True)
def seed(mt, seed_value):
    """Seed like ``random.Random(seed_value)`` for an int ``0 <= seed_value < 2**64``
    (``init_by_array`` over its 32-bit words, least significant first); returns the
    index to keep beside the state (``mti``)."""
    value = np.uint64(seed_value)
    low = value & _MASK32
    high = value >> np.uint64(32)
    key_length = 2 if high else 1
    _init_genrand(mt, 19650218)
    i, j = 1, 0
    for _ in range(max(N, key_length)):
        prev = np.uint64(mt[i - 1])
        key = low if j == 0 else high
        value = ((np.uint64(mt[i]) ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1664525))
                                      & _MASK32)) + key + np.uint64(j)) & _MASK32
        mt[i] = np.uint32(value)
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= key_length:
            j = 0
    for _ in range(N - 1):
        prev = np.uint64(mt[i - 1])
        value = ((np.uint64(mt[i]) ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1566083941))
                                      & _MASK32)) - np.uint64(i)) & _MASK32
        mt[i] = np.uint32(value)
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = np.uint32(0x80000000)
    return N


@numba.njit(cache=True)
def _twist(mt):
    for kk in range(N):
        y = (np.uint64(mt[kk]) & _UPPER) | (np.uint64(mt[(kk + 1) % N]) & _LOWER)
        value = np.uint64(mt[(kk + M) % N]) ^ (y >> np.uint64(1))
        if y & np.uint64(1):
            value ^= _MATRIX_A
        mt[kk] = np.uint32(value)


@numba.njit(cache=True)
def next_u32(mt, mti):
    """The next 32-bit word and the new index (MT19937's ``genrand_uint32``)."""
    if mti >= N:
        _twist(mt)
        mti = 0
    y = np.uint64(mt[mti])
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    y ^= y >> np.uint64(18)
    return y & _MASK32, mti + 1


@numba.njit(cache=True)
def randbelow(mt, mti, n):
    """``random.Random._randbelow(n)`` for ``1 <= n < 2**32``: ``(value, new mti)``."""
    k = 0
    x = n
    while x:
        k += 1
        x >>= 1
    while True:
        word, mti = next_u32(mt, mti)
        r = np.int64(word >> np.uint64(32 - k))
        if r < n:
            return r, mti


@numba.njit(cache=True)
def shuffle(mt, mti, cards, length):
    """``random.Random.shuffle`` of ``cards[:length]`` in place; returns the new ``mti``."""
    for i in range(length - 1, 0, -1):
        j, mti = randbelow(mt, mti, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return mti


@numba.njit(cache=True)
def splitmix_next(state):
    """SplitMix64: ``(the next state, a game seed below 2**63)``."""
    state = np.uint64(state) + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return state, z >> np.uint64(1)


@numba.njit(cache=True)
def uniform(state):
    """A float in [0, 1) from SplitMix64 (53 bits of :func:`splitmix_next`'s output) and
    the new state: the search's and the beliefs' own stream."""
    state, x = splitmix_next(state)
    return (x >> np.uint64(10)) * (1.0 / 9007199254740992.0), state


def splitmix_next_py(state: int) -> tuple[int, int]:
    """:func:`splitmix_next` in Python: ``(the next state, a game seed below 2**63)``."""
    mask = (1 << 64) - 1
    state = (state + 0x9E3779B97F4A7C15) & mask
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    z ^= z >> 31
    return state, z >> 1
