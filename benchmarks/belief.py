"""Belief quality: how much probability a determinizer's deals put on the true hidden cards.

    .venv/bin/python benchmarks/belief.py                                  # every variant
    .venv/bin/python benchmarks/belief.py --variants crazy_eights --games 20 --deals 100

A search agent acts on deals of the hidden cards (``Engine.determinize``);
the better those deals match the real hands, the better it plays (a search
told the opponent's hand wins 85.9% against the heuristic in crazy_eights,
against about 58% for one dealing uniformly). This script measures that
match directly, before any search: heuristic players play ``--games``
seeded games at the variant's usual table; at every ``--every``-th decision
the seat to act deals ``--deals`` positions from its view with each method,
and for every other seat and every card the deals give the probability that
the seat holds the card. Two figures per method:

* **log-likelihood per card** of the true hands under those probabilities
  (mean over seats and cards of ``log p`` where the seat holds the card and
  ``log(1 - p)`` where it does not; probabilities clipped to ``1/(2 deals)``
  from 0 and 1, so one deal's miss is not infinite): higher is better;
* **mass on the hand**: the mean probability given to the cards a seat
  really holds (1.0 would be a perfect read; uniform dealing gives about
  the seat's share of the hidden pool).

Methods: ``uniform`` (every consistent deal alike: ``infer_from_draws`` off),
``infer`` (an opponent who drew holds no card it could have played then:
what ISMCTS uses by default) and, where the variant's deals read one,
``belief`` (``infer`` with ``belief="voids"``: a deal drawn in proportion to
how little it breaks what every draw, pass and named suit of the hand says
(in crazier_eights, every main phase ended with a discard left), from up to
32 candidates; :mod:`eights.engines.determinizers.belief`) and, where the
variant's deals read the opponents' choices, ``heuristic`` (``infer`` with the
heuristic's opponent model: a deal as likely as every play, draw and named
suit of the hand was had its holder played as the heuristic does), and
``heuristic-compiled`` (the same model's chain in compiled code, as
``ismcts:core=compiled,belief=heuristic`` deals: 2,000 steps from a plain
deal, 20 between the deals it keeps; :mod:`eights.vector.choices`).

The deals are seeded from ``--seed``; the games from seed 9,000,000 on, a
range no training, evaluation or documented figure uses.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from rich.console import Console
from rich.table import Table

from eights.agents import make_agent
from eights.agents.heuristic import PileHeuristicModel
from eights.engines import VARIANTS, engine_class, make_game
from eights.engines.base import Engine, PlayerView

#: the table size each variant is usually played (and shipped) at
TABLES = {"crazy_eights": 2, "livery_eights": 2, "crazier_eights": 2, "jokers_of_death": 3,
          "baby_eating_eights": 4}
#: first deal of the measured games (fresh: see the module docstring)
GAME_SEED = 9_000_000

#: a determinizer: a view and a generator -> the hands of a position consistent with the view
Method = Callable[[PlayerView, random.Random], Sequence[Sequence[int]]]


class CompiledModelDeals:
    """The heuristic model's deals as the compiled search draws them
    (:meth:`~eights.vector.search.CompiledSearch._model_deals`): one chain per view, its
    deals handed out one a call."""

    def __init__(self, variant: str) -> None:
        self.cls = engine_class(variant)
        self.model = PileHeuristicModel(variant)
        self.view: PlayerView | None = None
        self.hands: list[list[list[int]]] = []
        self.searches: dict = {}

    def __call__(self, view: PlayerView, rng: random.Random) -> Sequence[Sequence[int]]:
        if view is not self.view or not self.hands:
            from eights.vector.search import CompiledSearch

            search = self.searches.get(view.config)
            if search is None:
                search = self.searches[view.config] = CompiledSearch(self.cls.variant,
                                                                     view.config)
            game = self.cls.determinize(view, rng, True, None)
            deals = search._model_deals(game, view, rng, True, self.model, None)
            if not len(deals):  # no choice to weigh: the chain deals as infer does
                return game.state.hands
            n, cards = view.num_players, deals.shape[1] // view.num_players
            self.view, self.hands = view, [
                [list(np.repeat(np.arange(cards), row[p * cards:(p + 1) * cards]))
                 for p in range(n)] for row in deals[::-1]]
        return self.hands.pop()


def methods(variant: str) -> dict[str, Method]:
    """The determinizers measured for ``variant``, by name."""
    cls = engine_class(variant)
    found: dict[str, Method] = {
        "uniform": lambda view, rng: cls.determinize(view, rng, False).state.hands,
        "infer": lambda view, rng: cls.determinize(view, rng, True).state.hands}
    if "voids" in getattr(cls.determinizer, "beliefs", ()):
        found["belief"] = lambda view, rng: cls.determinize(view, rng, True,
                                                            "voids").state.hands
    if getattr(cls.determinizer, "reads_choices", False):
        model = PileHeuristicModel(variant)
        found["heuristic"] = lambda view, rng: cls.determinize(view, rng, True,
                                                               model).state.hands
        found["heuristic-compiled"] = CompiledModelDeals(variant)
    return found


@dataclass
class Score:
    """Running sums of one method's figures."""

    loglik: float = 0.0
    cards: int = 0
    mass: float = 0.0
    hands: int = 0
    positions: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def loglik_per_card(self) -> float:
        return self.loglik / self.cards if self.cards else math.nan

    @property
    def mass_on_hand(self) -> float:
        return self.mass / self.hands if self.hands else math.nan


def holds(hands: Sequence[Sequence[int]], seat: int, kinds: int) -> list[bool]:
    """Whether ``seat`` holds at least one copy of each card id in ``hands``."""
    held = [False] * kinds
    for card in hands[seat]:
        held[card] = True
    return held


def score_position(game: Engine, view: PlayerView, deal: Method, deals: int,
                   rng: random.Random, score: Score) -> None:
    """Add one position's figures: ``deals`` deals of ``view``, against ``game``'s hands."""
    kinds = len(game.cardset)
    others = [q for q in range(game.num_players) if q != view.seat]
    counts = {q: [0] * kinds for q in others}
    for _ in range(deals):
        dealt = deal(view, rng)
        for q in others:
            for card, held in enumerate(holds(dealt, q, kinds)):
                counts[q][card] += held
    eps = 1.0 / (2 * deals)
    for q in others:
        truth = holds(game.state.hands, q, kinds)
        if not any(truth):
            continue
        mass = 0.0
        for card in range(kinds):
            p = min(max(counts[q][card] / deals, eps), 1.0 - eps)
            score.loglik += math.log(p) if truth[card] else math.log(1.0 - p)
            mass += p if truth[card] else 0.0
        score.cards += kinds
        score.mass += mass / sum(truth)
        score.hands += 1
    score.positions += 1


def measure(variant: str, games: int, deals: int, every: int, seed: int,
            players: int | None = None) -> dict[str, Score]:
    """Each method's score over ``games`` heuristic games of ``variant``."""
    n = players or TABLES[variant]
    scores = {name: Score() for name in methods(variant)}
    dealers = methods(variant)
    agents = [make_agent("heuristic", variant, seed=seed + k) for k in range(n)]
    game = make_game(variant, num_players=n, seed=GAME_SEED)
    for g in range(games):
        game.reset(seed=GAME_SEED + g)
        decision = 0
        while not game.game_over:
            view = game.view(game.current_player)
            if len(view.legal_actions) > 1:
                decision += 1
                if decision % every == 0:
                    for name, deal in dealers.items():
                        rng = random.Random(seed * 1_000_003 + g * 1009 + decision)
                        try:
                            score_position(game, view, deal, deals, rng, scores[name])
                        except ValueError as err:  # a view the method cannot deal
                            scores[name].failures.append(f"game {g}, decision {decision}: {err}")
            game.step(agents[game.current_player].act(view))
    return scores


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--games", type=int, default=20, help="heuristic games a variant")
    parser.add_argument("--deals", type=int, default=100, help="deals a position and method")
    parser.add_argument("--every", type=int, default=3,
                        help="measure every N-th decision with a choice (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and players")
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant(s) {', '.join(unknown)}; the variants are "
                     f"{', '.join(VARIANTS)}")
    if args.games < 1 or args.deals < 2 or args.every < 1:
        parser.error("--games and --every must be at least 1, --deals at least 2")
    table = Table(title=f"belief quality: {args.games} heuristic games a variant, "
                        f"{args.deals} deals a position (higher is better)")
    for col in ("variant", "players", "method", "positions", "log-likelihood per card",
                "mass on the hand", "failures"):
        table.add_column(col, justify="left" if col in ("variant", "method") else "right")
    for variant in variants:
        scores = measure(variant, args.games, args.deals, args.every, args.seed)
        for name, score in scores.items():
            table.add_row(variant, str(TABLES[variant]), name, f"{score.positions:,}",
                          f"{score.loglik_per_card:.4f}", f"{score.mass_on_hand:.3f}",
                          str(len(score.failures)))
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
