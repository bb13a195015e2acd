"""The batched opponents' choices: a policy's greedy and sampled answers over masks."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from eights.vector.opponents import PolicyOpponent


class _FixedNet:
    """A network that gives every row the same logits."""

    def __init__(self, logits: np.ndarray) -> None:
        self.row = np.asarray(logits, np.float32)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        return np.tile(self.row, (len(obs), 1))


def _opponent(logits, sample: bool, seed: int = 0) -> PolicyOpponent:
    opponent = PolicyOpponent.__new__(PolicyOpponent)  # no tables needed to answer
    opponent.agent = SimpleNamespace(_net=_FixedNet(logits), sample=sample)
    opponent.rng = np.random.default_rng(seed)
    return opponent


LOGITS = [2.0, 0.5, 3.0, -1.0, 1.0, 0.0]
MASK = np.array([1, 1, 0, 1, 1, 0], np.uint8)  # the best logit (2) is illegal


def test_greedy_answers_the_best_legal_action():
    rows = 5
    actions = _opponent(LOGITS, sample=False).act(np.arange(rows), np.zeros((rows, 3)),
                                                 np.tile(MASK, (rows, 1)))
    assert actions.tolist() == [0] * rows


def test_samples_follow_the_softmax_of_the_legal_logits():
    rows = 40_000
    actions = _opponent(LOGITS, sample=True, seed=3).act(
        np.arange(rows), np.zeros((rows, 3)), np.tile(MASK, (rows, 1)))
    counts = np.bincount(actions, minlength=len(LOGITS))
    assert counts[MASK == 0].sum() == 0
    legal = np.exp(np.where(MASK == 1, LOGITS, -np.inf))
    expected = rows * legal / legal.sum()
    chi_square = (((counts - expected) ** 2)[MASK == 1] / expected[MASK == 1]).sum()
    assert chi_square < 16.3  # 3 degrees of freedom: p = 0.001
