"""Livery Eights: PettingZoo AEC environment (the tables below are filled in from the engine)."""

from __future__ import annotations

from ..engines.livery_eights import LiveryEightsGame
from .base import variant_env
from .docs import EnvDoc

raw_env, env = variant_env(LiveryEightsGame, __name__, version=1)

DOC = EnvDoc(
    LiveryEightsGame, __name__,
    summary="""
Livery Eights: PettingZoo AEC environment.

The Worshipful Company's Crazy Eights: 5 cards each, one deck; you must play
if you can, else pick up one card; 8s are wild and nominate a suit, Aces skip
the next player, Queens reverse, 2s stack (+2 each); a player left with one
card must call "last card" before the next player acts, or anyone may
challenge them for a two-card penalty. Lowest points win; a match is five
games. Rules and how they are read here: ``docs/rules/livery_eights.md``.
""",
    rewards='+1 winner(s), -1 others at the end; `reward="score"`: minus points vs the '
            'table mean / 100',
    notes="""
`drew_suit`/`drew_rank` say what an opponent did not play on when it last drew
(a player who draws may well hold no card of that suit or rank); they clear
when it plays.
""",
    history=[
        (0, "the first release: one observation layout shared by the pile variants."),
        (1, "the table core: the observation holds only this variant's fields (no "
            "`drawn`; `phase` has this variant's four phases), laid out from the declared "
            "view fields; actions and games unchanged."),
    ])
__doc__ = DOC.docstring()
