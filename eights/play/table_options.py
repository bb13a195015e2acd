"""The options of a table a person sits at (``eights play`` and ``eights web``).

A person plays the rules' objective: the match, where the variant has one
(``--hand`` asks for one hand). The engines' defaults are the training game,
one hand. The turn limit (``max_turns``) counts the actions of each hand, so
a match is as long as its hands make it, and a long match between careful
players is not cut off.
"""

from __future__ import annotations

from typing import Any

from ..config import ConfigError
from ..engines import engine_class


def people_table_options(variant: str, options: dict[str, Any], hand: bool,
                         hand_flag: str = "") -> dict[str, Any]:
    """``options`` with the match on (off with ``hand``) where ``variant`` has one.
    ``hand_flag`` (``--hand``) names the one-hand switch in the error for a variant without a
    match."""
    has_match = "match" in engine_class(variant).Config.options()
    if hand and not has_match:
        flag = f"{hand_flag}: " if hand_flag else ""
        raise ConfigError(f"{flag}{variant} has no match; a game is already one hand")
    options = dict(options)
    if has_match and "match" not in options:
        options["match"] = not hand  # the rules' objective is the match
    return options
