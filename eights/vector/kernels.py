"""Small compiled helpers shared by every core: choices over batches of masks, the suit a
hand holds most, the observation's scaled numbers and card counts, the pile games'
end-of-game rewards, the match a record is playing."""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def sample_legal(masks, uniforms, out):
    """Row ``j``: a legal action of ``masks[j]`` chosen uniformly by ``uniforms[j]`` (in
    [0, 1)): the ``floor(u * count)``-th legal id. One uniform per row, not one per action."""
    for j in range(masks.shape[0]):
        row = masks[j]
        count = 0
        for a in range(row.shape[0]):
            count += row[a] != 0
        if count == 0:
            out[j] = 0
            continue
        pick = min(int(uniforms[j] * count), count - 1)
        for a in range(row.shape[0]):
            if row[a]:
                if pick == 0:
                    out[j] = a
                    break
                pick -= 1


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action for every row of ``masks``."""
    out = np.empty(masks.shape[0], np.int64)
    sample_legal(masks, rng.random(masks.shape[0]), out)
    return out


@numba.njit(cache=True)
def best_suit(t, seat):
    """:func:`eights.agents.heuristic.best_suit` of ``seat``'s hand: the suit it holds most
    of (8s aside), a tie to the suit of higher cards (each card counts 100 + its rank), and
    a tie of those to the first suit; any core's record with ``hands`` (copies per seat and
    card id, the standard deck's ids first: jokers' ids after them are in no suit) and
    ``hand_len`` (one entry per seat), which give the stride between two seats' counts."""
    base = seat * (t.hands.shape[0] // t.hand_len.shape[0])
    best, best_key = 0, -1
    for s in range(4):
        key = 0
        for r in range(13):
            if r != 7:
                key += t.hands[base + s * 13 + r] * (100 + r + 1)
        if key > best_key:
            best, best_key = s, key
    return best


@numba.njit(cache=True, inline="always")
def ahead(seat, k, n):
    """The seat ``k`` places after ``seat`` at a table of ``n`` (``0 <= seat < n``,
    ``-n <= k <= n``): ``(seat + k) % n`` without the division, which costs more than the
    rest of an observation's loop over the seats."""
    q = seat + k
    if q >= n:
        return q - n
    return q + n if q < 0 else q


@numba.njit(cache=True, inline="always")
def scaled(x, inv):
    """A number as :class:`~eights.engines.encoding.Scaled` writes it: ``x * inv``, at most 1
    (float64 arithmetic)."""
    y = x * inv
    return y if y < 1.0 else 1.0


#: entries of a count table (:func:`count_tables`): every count a record's uint8 fields hold
COUNT_TABLE = 256


def count_tables(copies: int) -> np.ndarray:
    """Two tables a core appends to its observation's ``scales``, so the observation looks
    a card count's feature up instead of computing it: ``[0:256]`` the hand's value of
    ``k`` copies (``1/copies`` added ``k`` times in float32, as
    :class:`~eights.engines.encoding.Scaled` sums a hand's copies), ``[256:512]`` the byte-
    lane value of a count (:func:`count32`). A lookup is branch-free, where the loop it
    replaces mispredicted on every held card (a third of the crazy_eights observation's
    time). Stored as float64, which holds each float32 value exactly."""
    inv = np.float64(1.0 / copies)
    hand = np.zeros(COUNT_TABLE, np.float64)
    value = np.float32(0.0)
    for k in range(1, COUNT_TABLE):
        value = np.float32(np.float64(value) + inv)  # float64 sum, rounded: as compiled
        hand[k] = value
    counts = np.minimum(np.arange(COUNT_TABLE, dtype=np.float32) * np.float32(inv),
                        np.float32(1.0))
    return np.concatenate([hand, counts.astype(np.float64)])


@numba.njit(cache=True, inline="always")
def count32(m, inv32):
    """A card count as the encoder's byte-lane tables write it (:class:`~eights.engines.
    encoding.CardCounts`): float32 arithmetic, at most 1."""
    y = np.float32(m) * inv32
    one = np.float32(1.0)
    return y if y < one else one


@numba.njit(cache=True)
def score_returns(t, n, score_reward, sign, out):
    """Each seat's reward at the end, as the pile games' engines give it: +1 the winners, -1
    the others; with ``score_reward``, ``sign`` times the seat's points less the table's
    mean, / 100 (``sign`` -1 where fewer points are better); 0 for all when the game is not
    over or was truncated. ``t`` holds ``terminated``, ``winners`` and ``scores``."""
    for p in range(n):
        out[p] = 0.0
    if not t.terminated:
        return
    if score_reward:
        mean = 0.0
        for p in range(n):
            mean += t.scores[p]
        mean /= n
        for p in range(n):
            out[p] = sign * (t.scores[p] - mean) / 100.0
    else:
        for p in range(n):
            out[p] = 1.0 if t.winners[p] else -1.0


@numba.njit(cache=True)
def hand_number(t):
    """The hand of the match a record is playing (the search's hand horizon watches it):
    the core entry point of every core whose record keeps ``hand_number``."""
    return t.hand_number


@numba.njit(cache=True)
def match_totals(t, out):
    """Every seat's match total so far into ``out`` (its length: the seats), from a record
    that keeps ``scores``: a core entry point, as :func:`hand_number`."""
    for p in range(out.shape[0]):
        out[p] = t.scores[p]
