"""The options of a table a person sits at (``eights play`` and ``eights web``).

A person plays the rules' objective: the match, where the variant has one
(``--hand`` asks for one hand). The engines' defaults are the training game,
one hand under a turn limit (``max_turns``) sized to cut off a hand that never
ends; the limit counts every action of the game, so in a match it counts all
its hands, and a long Crazy Eights match between careful players passes 2,000
actions (3 of 100 two-player heuristic matches to 500 did; random players
take about 8,000). A person's match gets a limit no real match reaches,
unless the person sets one.
"""

from __future__ import annotations

from typing import Any

from ..config import ConfigError
from ..engines import engine_class

#: the turn limit of a person's match: applied actions, forced ones included (a
#: two-player Crazy Eights match to 500 between random players took at most
#: 13,905 in 20; heuristic players 2,171 at most in 100)
MATCH_TURN_LIMIT = 100_000


def people_table_options(variant: str, options: dict[str, Any], hand: bool,
                         hand_flag: str = "") -> dict[str, Any]:
    """``options`` with the match on (off with ``hand``) where ``variant`` has one, and a
    match-sized turn limit where the match is on and ``options`` sets none.
    ``hand_flag`` (``--hand``) names the one-hand switch in the error for a variant without a
    match."""
    has_match = "match" in engine_class(variant).Config.options()
    if hand and not has_match:
        flag = f"{hand_flag}: " if hand_flag else ""
        raise ConfigError(f"{flag}{variant} has no match; a game is already one hand")
    options = dict(options)
    if has_match and "match" not in options:
        options["match"] = not hand  # the rules' objective is the match
    if options.get("match") and "max_turns" not in options:
        options["max_turns"] = MATCH_TURN_LIMIT
    return options
