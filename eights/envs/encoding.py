"""Observation vectors made from a :class:`~eights.engines.pile.PileView`.

The encoder reads the view and nothing else, so an observation can hold no
more than the seat may know. Every feature is scaled into ``[0, 1]``; seats
are relative to the observer (the next seat in clockwise order first), so a
policy learned in one seat plays in any other.

The layout is computed once per config; :meth:`PileEncoder.table` prints it
as the Markdown table the env docstrings carry.
"""

from __future__ import annotations

import numpy as np

from ..cards import NUM_STANDARD
from ..engines._pile_v0 import PHASE_NAMES, PileConfig, PileView

_PENDING_SCALE = 20.0


class PileEncoder:
    """Encodes a pile variant's :class:`PileView` into a float32 vector."""

    def __init__(self, config: PileConfig, score_scale: float, *, cards: int = NUM_STANDARD,
                 phases: tuple[str, ...] = PHASE_NAMES, total_cards: int | None = None):
        n = config.num_players
        self.num_decks = config.num_decks
        self.cards = cards
        self.phases = phases
        self.total_cards = total_cards or 52 * config.num_decks
        self.score_scale = float(score_scale)
        parts = [
            ("hand", cards, "copies of each card in the observer's hand / num_decks"),
            ("top", cards, "one-hot: the top card of the discard pile"),
            ("suit", 4, "one-hot: the suit to follow (C, D, H, S), an 8's choice included"),
            ("phase", len(phases), "one-hot: " + ", ".join(phases)),
            ("drawn", cards, "one-hot: the card the observer just drew, while deciding "
                             "whether to play it"),
            ("pending", 1, f"cards the player to act must pick up (stacked 2s) / "
                           f"{_PENDING_SCALE:g}, at most 1"),
            ("direction", 1, "1 clockwise, 0 reversed"),
            ("to_act", n, "one-hot: who acts now, relative seat (0 = observer)"),
            ("hand_sizes", n - 1, "each opponent's hand size / total cards, relative seat order"),
            ("offender", n - 1, "one-hot: the opponent whose missed call may be challenged"),
            ("drew_suit", 4 * (n - 1), "per opponent (4 each), one-hot: the suit to follow when "
                                       "it last drew rather than play, until it plays again"),
            ("drew_rank", 13 * (n - 1), "per opponent (13 each), one-hot: the top card's rank "
                                        "then (A first)"),
            ("stock", 1, "stock size / total cards"),
            ("discards", cards, "copies of each card in the discard pile / num_decks"),
            ("scores", n, f"match scores / {score_scale:g}, at most 1, observer first"),
        ]
        parts += self.extra_parts(config)
        self.parts = parts
        self.offsets: dict[str, int] = {}
        pos = 0
        for name, width, _ in parts:
            self.offsets[name] = pos
            pos += width
        self.size = pos

    def extra_parts(self, config: PileConfig) -> list[tuple[str, int, str]]:
        """A variant's own features after the shared ones (name, width, meaning)."""
        return []

    def encode_extra(self, view: PileView, out: np.ndarray) -> None:
        """Write :meth:`extra_parts` into ``out``; nothing for the shared layout."""

    def table(self) -> str:
        rows = ["| index | feature | meaning |", "| --- | --- | --- |"]
        for name, width, doc in self.parts:
            start = self.offsets[name]
            span = str(start) if width == 1 else f"{start}-{start + width - 1}"
            rows.append(f"| {span} | `{name}` | {doc} |")
        return "\n".join(rows)

    def encode(self, engine, seat: int) -> np.ndarray:
        return self.encode_view(engine.view(seat))

    def encode_view(self, view: PileView) -> np.ndarray:
        """A fresh observation vector for ``view``.

        One-hot and scaled entries are gathered into index/value lists and
        written with one fancy-index assignment: per-element numpy writes
        would cost more than the whole engine step.
        """
        o = self.offsets
        inv_decks = 1.0 / self.num_decks
        total = self.total_cards
        n = len(view.hand_sizes)
        seat = view.seat
        idx = [o["top"] + view.top, o["phase"] + self.phases.index(view.phase), o["pending"],
               o["direction"], o["stock"]]
        val = [1.0, 1.0, min(view.pending_draw / _PENDING_SCALE, 1.0),
               1.0 if view.direction == 1 else 0.0, view.stock_size / total]
        if view.active_suit >= 0:  # none while anything may be played
            idx.append(o["suit"] + view.active_suit)
            val.append(1.0)
        if view.drawn_card >= 0:
            idx.append(o["drawn"] + view.drawn_card)
            val.append(1.0)
        if view.current_player >= 0:
            idx.append(o["to_act"] + (view.current_player - seat) % n)
            val.append(1.0)
        if view.offender >= 0 and view.offender != seat:
            idx.append(o["offender"] + (view.offender - seat) % n - 1)
            val.append(1.0)
        sizes, scores, scale = view.hand_sizes, view.scores, self.score_scale
        drew_suit, drew_rank = view.drew_on_suit, view.drew_on_rank
        hs, sc, ds, dr = o["hand_sizes"], o["scores"], o["drew_suit"], o["drew_rank"]
        for k in range(n):
            other = (seat + k) % n
            if k:
                idx.append(hs + k - 1)
                val.append(sizes[other] / total)
                if drew_suit[other] >= 0:
                    idx.append(ds + 4 * (k - 1) + drew_suit[other])
                    val.append(1.0)
                if drew_rank[other] >= 1:  # a joker on top has no rank
                    idx.append(dr + 13 * (k - 1) + drew_rank[other] - 1)
                    val.append(1.0)
            idx.append(sc + k)
            val.append(min(scores[other] / scale, 1.0))
        hand, prev = o["hand"], -1
        for c in view.hand:  # sorted, so copies of a card are adjacent
            if c == prev:
                val[-1] += inv_decks
            else:
                idx.append(hand + c)
                val.append(inv_decks)
                prev = c
        out = np.zeros(self.size, dtype=np.float32)
        out[idx] = val
        d, cards = o["discards"], self.cards
        out[d:d + cards] = view.discard_counts[:cards]
        if self.num_decks != 1:
            out[d:d + cards] *= inv_decks
        self.encode_extra(view, out)
        return out
