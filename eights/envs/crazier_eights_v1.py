"""Crazier Eights: PettingZoo AEC environment (the tables below are filled in from the engine)."""

from __future__ import annotations

from ..engines.crazier_eights import CrazierEightsGame
from .base import variant_env
from .docs import EnvDoc

raw_env, env = variant_env(CrazierEightsGame, __name__, version=1)

DOC = EnvDoc(
    CrazierEightsGame, __name__,
    summary="""
Crazier Eights: PettingZoo AEC environment.

2 to 8 players with seven cards each play a deck of 52 unique cards, each an
event or an asset with abilities of its own (our card set, a TOML file; the
``card_file`` option loads another). A turn has a beginning, a draw, a main
and an end phase: in the main phase a player may discard one card (colour or
rank; 8s wild) and play one card for its effect, in either order, plus the
extra discards abilities grant. Assets in play act at the beginning or end of
turns or change what other cards do. Every choice an ability asks for (a
player, a card, a colour, yes or no, the order of simultaneous abilities) is
one step. Rules and how they are read here: ``docs/rules/crazier_eights.md``.
""",
    rewards='+1 winner(s) (a whole team), -1 others at the end; `reward="score"`: points vs '
            'the table mean / 100 (fewer points is better)',
    notes="""
Card texts are rank then colour code: `P` purple (eye), `G` green (ankh),
`B` blue (moon), `O` orange (sun); `7G` is the green seven. The decision at
hand is the top frame of `agenda` (`main`, `name_colour`, `target`, `colour`,
`choose`, `ask`, `order`); `follow` holds the colours a discard may have.
""",
    history=[
        (1, "the first release, on the table core."),
    ],
    players=(2, 3, 4))
__doc__ = DOC.docstring()
