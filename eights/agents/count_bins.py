"""Count bins: the small counts of an observation as thresholds a network reads at once.

The observation holds a count as one scaled feature: an opponent's hand size is
``cards / 104`` in a two-deck crazy_eights game, so one card and two differ by
0.0096. A policy must tell them apart sharply (an opponent about to go out is
played against differently), and a tanh MLP can only do that with first-layer
weights in the hundreds, which PPO's small Adam steps do not reach in a run
(some 24 at most over 100 million decisions at a learning rate of 1e-4). Count
bins give the network the same counts as thresholds, ``count >= 1``,
``count >= 2``, ..., each 0 or 1, appended after the observation:

* ``hand``: the observer's own hand size (the sum of its copies per card);
* ``hand_sizes``: each opponent's hand size, next seat first;
* ``stock``: the cards left in the stock;
* ``drawn_since``: each opponent's cards drawn since it last played one.

They are a property of the model, not of the env: the observation stays the
declared layout of its version, every env and compiled core writes it
unchanged, and a model trained with count bins (``eights train --count-bins``)
records ``count_bins`` in its metadata; :class:`~eights.agents.policy.NumpyPolicy`
then appends the bins before its first layer, and the trainer's envs append
them for the network they train. Every count is decoded from the features the
observation already holds (scaled counts are rounded back to whole cards), so
the bins say nothing the observation does not.

Measured in crazy_eights 2p (docs/training.md, "Counts a network can read"): the same 45-minute
fine-tuning of the shipped policy, with and without bins, won 60.6% and 57.7%
of 6,000 games against the heuristic.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from ..config import ConfigError
from ..engines.encoding import CardList, PerSeat, Scaled, scale_of

#: the metadata key of a model that reads count bins
METADATA_KEY = "count_bins"

#: per feature, the counts told apart (``count >= t`` for each ``t``), in the order the
#: bins follow the observation: small counts one by one, the stock's in widening steps
THRESHOLDS: dict[str, tuple[int, ...]] = {
    "hand": tuple(range(1, 13)),
    "hand_sizes": tuple(range(1, 13)),
    "stock": (1, 2, 3, 4, 6, 8, 12, 16, 24, 32),
    "drawn_since": tuple(range(1, 6)),
}


@dataclasses.dataclass(frozen=True)
class _Count:
    """One count feature of the observation: where it is and how to read it back."""

    feature: str
    offset: int
    width: int
    #: what the stored feature is multiplied by to give the count
    scale: float
    #: the count is the sum of the features (a hand's copies per card), not each one
    summed: bool
    thresholds: tuple[int, ...]

    @property
    def size(self) -> int:
        return (1 if self.summed else self.width) * len(self.thresholds)

    @functools.cached_property
    def edges(self) -> np.ndarray:
        """:attr:`thresholds` as the array :meth:`CountBins.apply` compares with, made once."""
        return np.asarray(self.thresholds, np.float32)


@dataclasses.dataclass(frozen=True)
class CountBins:
    """The bins of one variant's observation at one config and version (see the module
    docstring). :meth:`apply` appends them to one observation or a batch of them."""

    observation_size: int
    counts: tuple[_Count, ...]

    @classmethod
    def for_variant(cls, variant: str, config: Any, version: int | None = None) -> CountBins:
        """The bins of ``variant``'s observation for ``config`` at ``version`` (None: the
        latest), from the encoder's declared fields."""
        from ..engines import engine_class

        engine = engine_class(variant)
        encoder = engine.encoder(config, version)
        declared = {f.feature or f.name: f.encoding for f in engine.view_fields}
        widths = {feature: width for feature, width, _ in encoder.parts}
        counts = []
        for feature, thresholds in THRESHOLDS.items():
            if feature not in encoder.offsets:
                continue  # an older version, or a variant without it
            encoding = declared[feature]
            each = encoding.each if isinstance(encoding, PerSeat) else encoding
            if isinstance(each, CardList):
                scale, summed = scale_of(each.copies, config), True
            elif isinstance(each, Scaled):
                scale, summed = scale_of(each.scale, config), False
            else:
                raise ConfigError(f"{variant}: the feature {feature!r} is encoded as "
                                  f"{type(each).__name__}; count bins read a scaled count or "
                                  f"a card list")
            counts.append(_Count(feature, encoder.offsets[feature], widths[feature], scale,
                                 summed, thresholds))
        return cls(encoder.size, tuple(counts))

    @property
    def size(self) -> int:
        """How many bins follow the observation."""
        return sum(c.size for c in self.counts)

    def apply(self, obs: np.ndarray) -> np.ndarray:
        """``obs`` (one observation, or rows of them) with the bins appended, float32."""
        obs = np.asarray(obs, dtype=np.float32)
        if obs.shape[-1] != self.observation_size:
            raise ConfigError(f"count bins read observations of {self.observation_size} "
                              f"features, not {obs.shape[-1]}")
        rows = obs.reshape(-1, self.observation_size)
        parts = [rows]
        for c in self.counts:
            block = rows[:, c.offset:c.offset + c.width]
            values = block.sum(axis=1, keepdims=True) if c.summed else block
            counts = np.rint(values * c.scale)
            bins = counts[:, :, None] >= c.edges
            parts.append(bins.reshape(len(rows), -1).astype(np.float32))
        out = np.concatenate(parts, axis=1)
        return out.reshape(*obs.shape[:-1], out.shape[-1])


def reads_count_bins(meta: dict[str, Any], name: str = "the model") -> bool:
    """Whether a model's metadata says it reads count bins (absent: it does not)."""
    value = meta.get(METADATA_KEY, False)
    if not isinstance(value, bool):
        raise ConfigError(f"model {name}'s metadata {METADATA_KEY!r} is {value!r}; it is true "
                          f"or false")
    return value
