"""The engines still play the recorded games: a quick slice of the replay corpus.

The corpus (``tests/engines/replay_corpus/``) holds the digests of 10,000
seeded random games per config, recorded before the engines were ported
onto the new core; any change to what a game shows (legal moves, events,
outcome) changes its digest. Here the first games of each config are
replayed; ``python -m tests.engines.replay_corpus check`` replays them all.
"""

from __future__ import annotations

import pytest

from tests.engines import replay_corpus

#: games replayed per config: about a second for all configs together
GAMES = 60


@pytest.mark.parametrize("config", list(replay_corpus.CONFIGS))
def test_games_match_the_recorded_corpus(config: str) -> None:
    """The first ``GAMES`` games of ``config`` have the digests recorded before the port."""
    bad = replay_corpus.mismatches(config, GAMES)
    assert not bad, (
        f"{config}: {len(bad)} of the first {GAMES} games differ from the recorded corpus; "
        f"the first is game {bad[0]}. Show it with `{replay_corpus.show_command(config, bad[0])}` "
        f"and diff that against the same command in a checkout of the recorded code."
    )
