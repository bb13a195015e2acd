"""The sample Node.js bot (examples/bots/random_bot.js) plays whole games through the protocol."""

from __future__ import annotations

import logging
import shutil

import pytest

from eights.agents import make_agent, play_game
from eights.engines import make_game
from tests.protocol.conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("node") is None,
                                reason="node is not on PATH (the sample bot is a Node.js script)")


@pytest.mark.parametrize("variant", ["crazy_eights", "livery_eights", "baby_eating_eights"])
def test_the_node_bot_plays_whole_games(variant: str, monkeypatch, caplog) -> None:
    monkeypatch.chdir(ROOT)
    bot = make_agent("exec:node examples/bots/random_bot.js 7", variant, seed=1)
    try:
        for g in range(2):
            bot.seed(g)
            game = play_game(make_game(variant, seed=g, num_players=3),
                             [make_agent("heuristic", variant, g), bot,
                              make_agent("random", variant, g)])
            assert game.game_over
            bot.game_over(game.view(1), game.winners)
    finally:
        bot.close()
    assert bot.decisions > 0 and not bot.failures
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
