"""Small compiled helpers shared by every core: choices over batches of masks."""

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
