"""A Python engine's position written into a compiled core's table record.

The compiled search (:mod:`eights.vector.search`) reads a view the Python way
(one ``Engine.determinize`` per decision) and then searches on the compiled
core, so each core can take a position from its Python engine:
``core.record_from_engine(engine, records, mt_value)``. The pile games share
most of their record (hands, stock, pile, suit, turn order, scores, standing
draws); :func:`fill_pile_record` writes that part, and each core adds its
frames and its own fields.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .mt import seed as mt_seed

#: the standard deck's card ids
CARDS = 52


def fill_pile_record(engine: Any, records: np.ndarray, mt_value: int) -> None:
    """Write the pile-game fields of ``engine``'s position into ``records[0]`` (the rest
    zeroed), its reshuffles drawn from a Mersenne Twister seeded ``mt_value``."""
    s = engine.state
    n = engine.num_players
    records[0] = np.zeros((), records.dtype)
    rec = records[0]
    for p, hand in enumerate(s.hands):
        np.add.at(rec["hands"], p * CARDS + np.asarray(hand, np.int64), 1)
        rec["hand_len"][p] = len(hand)
    rec["stock"][: len(s.stock)] = s.stock
    records["stock_len"][0] = len(s.stock)
    rec["pile"][: len(s.piles[0])] = s.piles[0]
    records["pile_len"][0] = len(s.piles[0])
    rec["pile_counts"][:] = np.frombuffer(bytes(s.pile_counts[0]), np.uint8)[:CARDS]
    records["suit"][0] = s.suits[0]
    records["current"][0] = engine.current_player
    records["direction"][0], records["stuck"][0] = s.direction, s.stuck
    records["first"][0], records["hand_number"][0] = s.first, s.hand_number
    rec["scores"][:n], rec["drew_suit"][:n], rec["drew_rank"][:n] = (
        s.scores, s.drew_suit, s.drew_rank)
    records["turn"][0], records["hand_start"][0] = engine.turn, engine.hand_start_turn
    records["mti"][0] = mt_seed(records["mt"][0], mt_value)


def fill_memory(engine: Any, rec: np.ndarray, cards: int, seats: int,
                names: tuple[str, str, str, str] = ("played", "named", "drawn_since", "known")
                ) -> None:
    """Write ``engine``'s public memory into the record ``rec``: the shared counts (cards
    played, suits named, cards drawn since a play) as the seat to act remembers them (a
    determinized position knows the searching seat's), and every seat's ``known`` cards in
    every other hand at ``(observer * seats + seat) * cards``. ``names``: the record's
    fields for the four, in that order."""
    played, named, drawn, known_field = names
    n = engine.num_players
    shared = engine.memory(engine.current_player if engine.current_player >= 0 else 0)
    for q in range(n):
        rec[played][q * cards: (q + 1) * cards] = np.frombuffer(shared.played[q], np.uint8)
        rec[named][q * 4: q * 4 + 4] = shared.named[q]
        rec[drawn][q] = shared.drawn[q]
    for o in range(n):
        known = engine.memory(o).known
        for q in range(n):
            at = (o * seats + q) * cards
            rec[known_field][at: at + cards] = np.frombuffer(known[q], np.uint8)
