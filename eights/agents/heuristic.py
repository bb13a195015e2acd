"""Rule-based agents: what a careful human player does, written down.

:class:`PileHeuristic` plays every single-pile variant (Crazy Eights, Livery
Eights) from the :class:`~eights.engines.pile.PlayerView` alone:

* it keeps 8s (wild) for when nothing else fits, unless it is close to going out;
* it plays from its longest suit, so the suit it leaves on the pile is one it
  can follow again, and it sheds high-point cards first;
* it saves the cards that hurt the next player (a draw card, a skip) for when
  an opponent is close to going out;
* after an 8 it names the suit it holds most of;
* it stacks 2s rather than picking up, always calls "last card", and always
  challenges a missed call.

Card effects and points come from the engine class, never from a copy of the rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import RANK, SUIT
from ..engines import engine_class
from ..engines.base import PlayerView
from ..engines.determinizers.belief import Choice
from .base import Agent

KEEP_WILD = -40.0
ATTACK_NEAR_OUT = 25.0
ATTACK_ANYTIME = 2.0


def best_suit(hand: Sequence[int]) -> int:
    """The suit to name after an 8: the one ``hand`` holds most of (8s aside)."""
    # each card counts 100 plus its rank, so a tie in cards goes to the suit of higher
    # cards; integers, so the key does not depend on the order the hand lists them
    counts = [0] * 4
    for c in hand:
        if RANK[c] != 8 and SUIT[c] >= 0:
            counts[SUIT[c]] += 100 + RANK[c]
    return max(range(4), key=lambda s: counts[s])


class PileHeuristic(Agent):
    """Heuristic for single-pile variants; see the module docstring."""

    name = "heuristic"

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        engine = engine_class(view.variant)
        texts = engine.actions.texts
        for wanted in ("last card", "challenge"):
            for a in legal:
                if texts[a] == wanted:
                    return a
        actions = engine.actions
        suit, play, draw = actions["suit"], actions["play"], actions["draw"].id()
        if any(a in suit for a in legal):
            return suit.id(self._best_suit(view))
        plays = [a for a in legal if a in play]
        if not plays:
            return draw if draw in legal else legal[0]
        return max(plays, key=lambda a: (self._score(view, engine, actions.value(a)), -a))

    @staticmethod
    def _best_suit(view: PlayerView) -> int:
        return best_suit(view.hand)

    def _score(self, view: PlayerView, engine: type, c: int) -> float:
        n = view.num_players
        nearest = min(view.hand_sizes[(view.seat + k) % n] for k in range(1, n))
        return play_score(engine, view.hand, c, nearest)


def play_score(engine: type, hand: Sequence[int], c: int, nearest: int,
               suit_counts: Sequence[int] | None = None) -> float:
    """How much :class:`PileHeuristic` wants to play card ``c`` from ``hand`` when the
    shortest other hand holds ``nearest`` cards (the module docstring's rules);
    ``suit_counts`` (cards of ``hand`` per suit) saves counting them again."""
    rank = RANK[c]
    score = 0.0
    if rank == 8 and len(hand) > 2:
        score += KEEP_WILD
    score += 0.5 * engine.points_by_rank[rank - 1]
    if suit_counts is None:
        same_suit = sum(1 for h in hand if SUIT[h] == SUIT[c] and h != c)
    else:  # as counted above: no copy of c counts
        same_suit = suit_counts[SUIT[c]] - hand.count(c)
    score += 3.0 * same_suit
    attack = engine.attack_ranks.get(rank, 0)
    if attack:
        score += attack * (ATTACK_NEAR_OUT if nearest <= 2 else ATTACK_ANYTIME)
    return score


class PileHeuristicModel:
    """:class:`PileHeuristic` as an opponent model for a belief (``belief=heuristic``;
    :class:`~eights.engines.determinizers.belief.ChoiceModel`): a seat plays, draws and
    names suits as the heuristic would, except with probability :attr:`slip` (spread
    over its other choices). The slip keeps a deal possible when an opponent plays
    otherwise, so the belief only leans on the heuristic's habits, and is the right
    model's measure of how far from them an opponent may stray."""

    name = "heuristic"

    def __init__(self, variant: str, slip: float = 0.05) -> None:
        if not 0.0 < slip < 1.0:
            raise ValueError(f"heuristic model: slip={slip!r} is not allowed; "
                             f"it is a probability strictly between 0 and 1")
        self.engine = engine_class(variant)
        self.slip = slip

    def likelihood(self, choice: Choice, hand: Sequence[int]) -> float:
        """1 - slip when the heuristic holding ``hand`` makes ``choice``, else slip."""
        if choice.kind == "suit":
            agrees = best_suit(hand) == choice.observed
        else:
            fitting = choice.fitting
            plays = [c for c in hand if c in fitting]
            if choice.kind == "draw" or not plays:
                agrees = choice.kind == "draw" and not plays
            else:
                engine, nearest = self.engine, choice.nearest
                counts = [0, 0, 0, 0]
                for c in hand:
                    counts[SUIT[c]] += 1
                best = max(plays, key=lambda c: (play_score(engine, hand, c, nearest, counts),
                                                 -c))
                agrees = best == choice.observed
        return 1.0 - self.slip if agrees else self.slip
