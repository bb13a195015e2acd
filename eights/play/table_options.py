"""The options of a table a person sits at (``eights play`` and ``eights web``).

A person plays the rules' objective: the match, where the variant has one
(``--hand`` asks for one hand). The engines' default is the training game, one
hand; their turn limit (``max_turns``, 0 by default) then cuts one hand that
never ends, or a whole match at a limit no real match reaches
(:func:`eights.config.max_turns_option`), so the match needs no limit of its own
here.
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
