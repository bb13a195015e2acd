"""The server's default message limit holds the largest decide of a real game, with room.

A decide's size grows with its view's history, and a hand's history with its
turns (a match's JSON carries the current hand's: ``sent_history``), so the
largest decides are the last ones of the longest hands, which random players
make, up to the ``max_turns`` of a hand (2000 by default). docs/protocol.md
("What the server promises") quotes the measurement, made by ``python -m
tests.protocol.attacks sizes``; these tests fail if views grow past what it
says (a new field, a chattier history), so the limit and the docs are looked
at again.
"""

from __future__ import annotations

import pytest

from eights.agents import make_agent
from eights.engines import make_game
from eights.protocol import messages as m
from eights.protocol.server import DEFAULT_SERVER_MAX_MESSAGE_BYTES
from eights.protocol.session import BotSession
from tests.protocol.attacks import SIZE_TABLES, largest_decides

#: the default limit holds a default-options game's largest decide this many times over
MARGIN_AT_DEFAULT_OPTIONS = 2


def hand_end_decides(variant: str, seed: int, **config: object) -> list[str]:
    """The decide message of every hand's last decision in a game of random players (a
    hand's history is longest there)."""
    game = make_game(variant, seed=seed, **config)
    agents = [make_agent("random", variant, seed * 100 + p) for p in range(game.num_players)]
    ends, view = [], None
    while not game.game_over:
        last, view = view, game.view(game.current_player)
        if last is not None and view.hand_number != last.hand_number:
            ends.append(last)
        game.step(agents[game.current_player].act(view))
    ends.append(view)
    return [m.encode(m.decide(v, m.MAX_ID, m.MAX_ID, 5000)) for v in ends]


def test_a_match_run_to_max_turns_fits_the_default_limit_twice_over() -> None:
    """A crazy_eights match of random players, its hands each under the 2,000-action limit
    of a hand: its views carry the history of their hand only, the longest a hand of
    default options makes. The largest decide fits the limit twice, and is answered."""
    texts = hand_end_decides("crazy_eights", 0, match=True)
    game = make_game("crazy_eights", seed=0, match=True)
    assert len(texts) >= 2  # more than one hand
    largest = max(texts, key=len)
    size = len(largest.encode())
    assert 10_000 < size <= DEFAULT_SERVER_MAX_MESSAGE_BYTES / MARGIN_AT_DEFAULT_OPTIONS, size
    session = BotSession("heuristic", max_message_bytes=DEFAULT_SERVER_MAX_MESSAGE_BYTES)
    session.handle(m.encode(m.hello("crazy_eights", game.config.to_dict())))
    (reply,), _ = session.handle(largest)
    assert reply["type"] == "action", reply


@pytest.mark.long
def test_the_largest_decides_of_every_table_measured_fit_the_default_limit() -> None:
    """Every table docs/protocol.md measures: each largest decide fits the limit, those of
    default options twice over."""
    for variant, config, size, events in largest_decides(5, SIZE_TABLES):
        print(f"{variant} {config}: {size:,} bytes, {events:,} events")
        assert size <= DEFAULT_SERVER_MAX_MESSAGE_BYTES, (variant, config, size)
        if set(config) <= {"match", "num_players", "deck_type"}:
            assert size * MARGIN_AT_DEFAULT_OPTIONS <= DEFAULT_SERVER_MAX_MESSAGE_BYTES, (
                variant, config, size)
