"""Crazy Eights: PettingZoo AEC environment (the tables below are filled in from the engine)."""

from __future__ import annotations

from ..engines.crazy_eights import CrazyEightsGame
from .base import variant_env
from .docs import EnvDoc

raw_env, env = variant_env(CrazyEightsGame, __name__, version=1)

DOC = EnvDoc(
    CrazyEightsGame, __name__,
    summary="""
Crazy Eights: PettingZoo AEC environment.

2-8 players shed their hands onto one discard pile, matching its rank or
suit; 8s are wild and name the suit; J reverses (a skip with two players),
Q skips, K makes the next player draw two. Rules and how they are read here:
``docs/rules/crazy_eights.md``.
""",
    rewards='+1 winner(s), -1 others at the end; `reward="score"`: points vs the table '
            'mean / 100',
    notes="""
`drew_suit`/`drew_rank` say what an opponent did not play on when it last drew
(a player who draws may well hold no card of that suit or rank); they clear
when it plays. `drawn` is seen only by the player deciding about its drawn card.
""",
    history=[
        (0, "the first release: one observation layout shared by the pile variants."),
        (1, "the table core: the observation holds only this variant's fields (no "
            "`pending` or `offender`; `phase` has this variant's three phases), laid out "
            "from the declared view fields; actions and games unchanged."),
    ])
__doc__ = DOC.docstring()
