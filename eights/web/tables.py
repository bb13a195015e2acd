"""What the page is sent about a table: one seat's view, never the state.

Every value here is read from a :class:`~eights.engines.base.PlayerView`
(the engine built it for that seat alone) through the bot protocol's writer
(:func:`~eights.protocol.views.view_to_json`) and ``eights play``'s
sentences (:mod:`eights.play.text`), so the page can show nothing the seat
may not see. The events are not repeated in the view (``history`` is left
out): the page hears them as sentences when they happen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..engines.base import PlayerView
from ..play.text import (
    action_phrase,
    cards_of,
    counts_sentence,
    scores_sentence,
    table_sentence,
    top_card_sentence,
)
from ..protocol.views import view_to_json

#: view fields the page does not list as they are: counts over every card of the deck
#: (what the seat knows of them is already in the sentences) and the agenda's bookkeeping
BULKY = ("discard_counts", "unseen_cards", "played_cards", "named_suits", "history")


def seat_json(view: PlayerView, name: Callable[[int], str]) -> dict[str, Any]:
    """The seat's view for the page: its fields, its hand with each card's spoken name,
    and the sentences ``eights play`` reads for the table (top card, counts, cards in
    play, scores)."""
    fields = view_to_json(view)
    cards = cards_of(view)
    shown = {k: v for k, v in fields.items() if k not in BULKY}
    return {
        "seat": view.seat,
        "current_player": view.current_player,
        "hand": [{"text": cards.texts[c], "spoken": cards.spoken(c)} for c in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "phase": getattr(view, "phase", None),
        "top": top_card_sentence(view),
        "counts": counts_sentence(view, name),
        "in_play": table_sentence(view, name),
        "scores": scores_sentence(view, name),
        "fields": shown,
    }


def moves_json(moves: Sequence[str], view: PlayerView) -> list[dict[str, Any]]:
    """Each legal move: its text (what the page sends back as its number) and its phrase."""
    phase = getattr(view, "phase", None)
    cards = cards_of(view)
    return [{"number": i, "text": m, "phrase": action_phrase(m, phase, cards)}
            for i, m in enumerate(moves, 1)]
