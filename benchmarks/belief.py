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

With ``--probe-games N`` two more rows measure what the observation itself
tells: ``probe-v1`` and ``probe-v2`` are small networks (one hidden layer of
256) trained to read every other seat's hand (whether it holds each card)
from the acting seat's observation vector of that version alone, on ``N``
heuristic games of their own (seeds from 13,000,000 on; a tenth held out to
pick the epoch), then scored on the same positions and in the same way as the
deals (their probabilities clipped as a method's of ``--deals`` deals are).
Where ``probe-v2`` reads the hands no better than ``probe-v1``, the public
history the v2 observation adds carries little a policy could use that the
v1 features did not already hold.

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
#: first deal of the games the observation probes learn from
PROBE_SEED = 13_000_000
#: the observation versions the probes read
PROBE_VERSIONS = (1, 2)

#: a determinizer: a view and a generator -> the hands of a position consistent with the view
Method = Callable[[PlayerView, random.Random], Sequence[Sequence[int]]]


class CompiledModelDeals:
    """The heuristic model's deals as the compiled search draws them
    (:func:`~eights.vector.search.model_deals`): one chain per view, its
    deals handed out one a call."""

    def __init__(self, variant: str) -> None:
        self.cls = engine_class(variant)
        self.model = PileHeuristicModel(variant)
        self.view: PlayerView | None = None
        self.hands: list[list[list[int]]] = []

    def __call__(self, view: PlayerView, rng: random.Random) -> Sequence[Sequence[int]]:
        if view is not self.view or not self.hands:
            from eights.vector.search import DEFAULT_MODEL_DEALS, model_deals

            game = self.cls.determinize(view, rng, True, None)
            deals = model_deals(self.cls.determinizer(game, view, True), view.seat,
                                view.num_players, self.model, DEFAULT_MODEL_DEALS, rng)
            if not len(deals):  # no choice to weigh: the chain deals as infer does
                return game.state.hands
            n, cards = view.num_players, deals.shape[1] // view.num_players
            self.view, self.hands = view, [
                [list(np.repeat(np.arange(cards), row[p * cards:(p + 1) * cards]))
                 for p in range(n)] for row in deals[::-1]]
        return self.hands.pop()


def _positions(variant: str, n: int, games: int, first: int, seed: int,
               ) -> tuple[dict[int, np.ndarray], np.ndarray, np.ndarray]:
    """Every decision with a choice in ``games`` heuristic games from deal ``first``: the
    acting seat's observation at each probe version, whether each later seat (in seat
    order after it) holds each card, and each row's game (to hold games out whole)."""
    cls = engine_class(variant)
    agents = [make_agent("heuristic", variant, seed=seed + k) for k in range(n)]
    game = make_game(variant, num_players=n, seed=first)
    encoders = {v: cls.encoder(game.config, v) for v in PROBE_VERSIONS}
    kinds = len(game.cardset)
    rows: dict[int, list[np.ndarray]] = {v: [] for v in PROBE_VERSIONS}
    targets, game_of = [], []
    for g in range(games):
        game.reset(seed=first + g)
        while not game.game_over:
            seat = game.current_player
            view = game.view(seat)
            if len(view.legal_actions) > 1:
                for v, encoder in encoders.items():
                    rows[v].append(encoder.encode(game, seat))
                targets.append(np.concatenate(
                    [holds(game.state.hands, (seat + k) % n, kinds) for k in range(1, n)]))
                game_of.append(g)
            game.step(agents[seat].act(view))
    return ({v: np.asarray(r, np.float32) for v, r in rows.items()},
            np.asarray(targets, np.float32), np.asarray(game_of))


class ObservationProbe:
    """Reads the other seats' hands from one observation version (see the module
    docstring): ``probabilities(game, view)`` gives, per other seat, the chance it holds
    each card."""

    def __init__(self, variant: str, version: int, inputs: np.ndarray, targets: np.ndarray,
                 game_of: np.ndarray, seed: int, epochs: int = 30) -> None:
        import torch
        from torch import nn

        torch.manual_seed(seed)
        self.cls, self.version, self.torch = engine_class(variant), version, torch
        held = game_of % 10 == 0  # a tenth of the games, whole, picks the epoch
        x, y = torch.from_numpy(inputs), torch.from_numpy(targets)
        self.net = nn.Sequential(nn.Linear(x.shape[1], 256), nn.Tanh(),
                                 nn.Linear(256, y.shape[1]))
        optimizer = torch.optim.Adam(self.net.parameters(), lr=1e-3)
        loss_of = nn.BCEWithLogitsLoss()
        fit_x, fit_y = x[~torch.from_numpy(held)], y[~torch.from_numpy(held)]
        val_x, val_y = x[torch.from_numpy(held)], y[torch.from_numpy(held)]
        generator = torch.Generator().manual_seed(seed)
        best, best_state = math.inf, None
        for _ in range(epochs):
            order = torch.randperm(len(fit_x), generator=generator)
            for start in range(0, len(order), 512):
                batch = order[start:start + 512]
                optimizer.zero_grad()
                loss_of(self.net(fit_x[batch]), fit_y[batch]).backward()
                optimizer.step()
            with torch.no_grad():
                loss = float(loss_of(self.net(val_x), val_y))
            if loss < best:
                best = loss
                best_state = {k: t.clone() for k, t in self.net.state_dict().items()}
        self.net.load_state_dict(best_state)

    def probabilities(self, game: Engine, view: PlayerView) -> dict[int, list[float]]:
        n, kinds = game.num_players, len(game.cardset)
        encoder = self.cls.encoder(game.config, self.version)
        with self.torch.no_grad():
            x = self.torch.from_numpy(encoder.encode(game, view.seat))[None]
            p = self.torch.sigmoid(self.net(x))[0].tolist()
        return {(view.seat + k) % n: p[(k - 1) * kinds:k * kinds] for k in range(1, n)}


def probes(variant: str, games: int, seed: int, players: int | None = None,
           ) -> dict[str, ObservationProbe]:
    """A probe per observation version, each trained on the same ``games`` games."""
    n = players or TABLES[variant]
    inputs, targets, game_of = _positions(variant, n, games, PROBE_SEED, seed)
    return {f"probe-v{v}": ObservationProbe(variant, v, inputs[v], targets, game_of, seed)
            for v in PROBE_VERSIONS}


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


def dealt_probabilities(view: PlayerView, deal: Method, deals: int, rng: random.Random,
                        num_players: int, kinds: int) -> dict[int, list[float]]:
    """Per other seat, the share of ``deals`` deals of ``view`` that give it each card."""
    others = [q for q in range(num_players) if q != view.seat]
    counts = {q: [0] * kinds for q in others}
    for _ in range(deals):
        dealt = deal(view, rng)
        for q in others:
            for card, held in enumerate(holds(dealt, q, kinds)):
                counts[q][card] += held
    return {q: [k / deals for k in counts[q]] for q in others}


def score_position(game: Engine, view: PlayerView, probabilities: dict[int, list[float]],
                   deals: int, score: Score) -> None:
    """Add one position's figures: per other seat the chance it holds each card (from
    ``deals`` deals, or a probe's clipped as theirs are), against ``game``'s hands."""
    kinds = len(game.cardset)
    eps = 1.0 / (2 * deals)
    for q, chances in probabilities.items():
        truth = holds(game.state.hands, q, kinds)
        if not any(truth):
            continue
        mass = 0.0
        for card in range(kinds):
            p = min(max(chances[card], eps), 1.0 - eps)
            score.loglik += math.log(p) if truth[card] else math.log(1.0 - p)
            mass += p if truth[card] else 0.0
        score.cards += kinds
        score.mass += mass / sum(truth)
        score.hands += 1
    score.positions += 1


def measure(variant: str, games: int, deals: int, every: int, seed: int,
            players: int | None = None, probe_games: int = 0) -> dict[str, Score]:
    """Each method's score over ``games`` heuristic games of ``variant`` (and each
    observation probe's, trained on ``probe_games`` other games, where that is not 0)."""
    n = players or TABLES[variant]
    dealers = methods(variant)
    readers = probes(variant, probe_games, seed, n) if probe_games else {}
    scores = {name: Score() for name in [*dealers, *readers]}
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
                            chances = dealt_probabilities(view, deal, deals, rng, n,
                                                          len(game.cardset))
                        except ValueError as err:  # a view the method cannot deal
                            scores[name].failures.append(f"game {g}, decision {decision}: {err}")
                            continue
                        score_position(game, view, chances, deals, scores[name])
                    for name, probe in readers.items():
                        score_position(game, view, probe.probabilities(game, view), deals,
                                       scores[name])
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
    parser.add_argument("--probe-games", type=int, default=0,
                        help="train observation probes (v1, v2) on this many games and score "
                             "them too (default 0: none)")
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant(s) {', '.join(unknown)}; the variants are "
                     f"{', '.join(VARIANTS)}")
    if args.games < 1 or args.deals < 2 or args.every < 1 or args.probe_games < 0:
        parser.error("--games and --every must be at least 1, --deals at least 2, "
                     "--probe-games at least 0")
    if 0 < args.probe_games < 10:
        parser.error("--probe-games: give at least 10 (a tenth of them, whole games, is "
                     "held out)")
    table = Table(title=f"belief quality: {args.games} heuristic games a variant, "
                        f"{args.deals} deals a position (higher is better)")
    for col in ("variant", "players", "method", "positions", "log-likelihood per card",
                "mass on the hand", "failures"):
        table.add_column(col, justify="left" if col in ("variant", "method") else "right")
    for variant in variants:
        scores = measure(variant, args.games, args.deals, args.every, args.seed,
                         probe_games=args.probe_games)
        for name, score in scores.items():
            table.add_row(variant, str(TABLES[variant]), name, f"{score.positions:,}",
                          f"{score.loglik_per_card:.4f}", f"{score.mass_on_hand:.3f}",
                          str(len(score.failures)))
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
