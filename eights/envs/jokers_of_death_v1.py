"""Jokers of Death: PettingZoo AEC environment (the tables below are filled in from the engine)."""

from __future__ import annotations

from ..engines.jokers_of_death import JokersOfDeathGame
from .base import variant_env
from .docs import EnvDoc

raw_env, env = variant_env(JokersOfDeathGame, __name__, version=1)

DOC = EnvDoc(
    JokersOfDeathGame, __name__,
    summary="""
Jokers of Death (Insane Eights): PettingZoo AEC environment.

2 or more players with 20 cards each play one card on each of three discard
piles per turn (each placement is one step: which card, which pile),
matching suit or rank; 8s are wild. 2s and the 4 of Spades must be answered
in kind or paid for in cards, a Joker kills a pile topped by the previous
player's 4 of Spades, Jacks and Kings must be followed, Aces skip, 10s let
their player reverse the direction. A player left with one card knocks; the
hand ends when a player who knocked plays their last card. Rules and how
they are read here: ``docs/rules/jokers_of_death.md``.
""",
    rewards='+1 winner(s), -1 others at the end; `reward="score"`: points vs the table '
            'mean / 100 (fewer points is better)',
    notes="""
Piles are numbered 1 to 3 (1 to 5 with `five_pile`) in action texts and in
the per-pile features, which are in pile order for every observer. A killed
pile keeps its cards (`pile_cards`) and is never to play again. `to_play`
marks the piles still to play (or to answer) this turn; `decision_pile`
the pile a Jack's or King's follow or an 8's suit is about.
""",
    history=[
        (1, "the first release, on the table core."),
    ],
    players=(2, 3, 4))
__doc__ = DOC.docstring()
