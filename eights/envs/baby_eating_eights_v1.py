"""Baby-Eating Eights: PettingZoo AEC environment (its tables are made from the engine)."""

from __future__ import annotations

from ..engines.baby_eating_eights import BabyEatingEightsGame
from .base import variant_env
from .docs import EnvDoc

raw_env, env = variant_env(BabyEatingEightsGame, __name__, version=1)

DOC = EnvDoc(
    BabyEatingEightsGame, __name__,
    summary="""
Baby-Eating Eights: PettingZoo AEC environment.

Crazy Eights grown wild: 54 cards with two jokers told apart, six cards
each, and an effect on nearly every card (Aces and Jokers make the next
player draw, Twos and Kings skip, Fours reverse, Fives and Sevens pick a
target, Tens drop again, Queens start a round of Jacks, the King of Hearts
redeals everything); Four in a Row, the Guarantee Joker combo, teams and an
expanded deck. You must play if you can (Eights, Jokers and the King of
Hearts may be held back); if you cannot, you draw until you can. Rules and
how they are read here: ``docs/rules/baby_eating_eights.md``.
""",
    rewards='+1 winners (a whole team wins together), -1 others; `reward="score"`: by cards '
            'left',
    notes="""
`actor` is whose turn it is; `to_act` who acts now (they differ in a Jack
round and in Four in a Row). The view also carries the agenda (what is
pending, every frame public), which the observation summarises in `phase`,
`effect`, `effect_cancelled` and `extra_drop`.
""",
    history=[
        (0, "the first release: the pile variants' shared layout plus this variant's parts."),
        (1, "the table core: the observation holds only this variant's fields (no `drawn`, "
            "`pending` or `offender`, which were always 0 here), laid out from the declared "
            "view fields; actions and games unchanged."),
    ])
__doc__ = DOC.docstring()
