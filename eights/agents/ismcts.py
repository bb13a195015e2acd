"""Information-set Monte Carlo tree search: a search agent that plays from the view alone.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 2012). One tree of the observer's information
sets is grown over many iterations; each iteration

1. **determinizes**: asks the engine for a position consistent with the view
   (:meth:`~eights.engines.base.Engine.determinize`: own hand and public
   state as seen, hidden cards dealt at random; with ``belief=voids`` (the
   variants whose deals read it), drawn in proportion to how well the deal
   fits what every opponent's draws, passes (and named suits, Crazier Eights'
   unused discards, Jokers of Death's follows and takes) of the hand showed;
   with ``belief=heuristic``, in Crazy Eights, in proportion to how likely
   every opponent choice of the hand was had it played as the heuristic does:
   :mod:`eights.engines.determinizers.belief`);
2. **selects** down the tree with UCB1 using *availability* counts: a child
   is a candidate only if its action is legal in this determinization, and
   its exploration term counts the iterations in which it was available, not
   its parent's visits;
3. **expands** one untried legal action, the one the playout policy would
   pick among them (see :meth:`ISMCTSAgent._expand` for why not uniformly);
4. **rolls out** to the end of the game (in a match, of the hand: see
   *horizon* below) with a fast policy: a uniformly
   random card play when there is one (wild cards only when nothing else
   fits), the suit the chooser holds most of after a wild card, else the
   first other legal action (draw, pass); a game cut at the turn limit scores
   0 for everyone. Keeping wild cards and naming a held suit are what a
   player would do without thinking; against the heuristic they were worth
   about 14 points of win rate at 300 simulations (benchmarks/README.md);
5. **backs up** each node's reward for the player who acted at it, from
   ``engine.returns()``, so it is correct for any number of players.

**Horizon.** In a match (``match=True``) the game is many hands, and a
rollout to the match's end costs a whole match per iteration (about 20
times a single hand's in crazy_eights). With ``horizon=hand``, the default,
an iteration ends where the hand it started in ends: each seat's reward is
+1 if its points for that hand were the hand's best (the fewest where the
lowest total wins the match, else the most), -1 otherwise, and 0 for every
seat when all scored alike; a hand that ends the match gives the match's
own returns. ``horizon=game`` plays every rollout to the match's end. A
single hand (no match) is the same either way.

With a **prior** (``prior=policy``: a trained policy, see
:class:`~eights.agents.policy.PolicyAgent`), selection is PUCT over
availability, as AlphaZero selects with its policy network: every legal
action of a node is a candidate, scored ``Q + cp * P(a) * sqrt(A) / (1 + n)``
with ``P`` the prior's probability of the action for the seat acting in this
determinization (the observer's own at the root, each opponent's from its
own view of the dealt position: the policy doubles as the opponent model),
``A`` the iterations the action was available and ``n`` its visits; an
unvisited action scores ``cp * P(a) * sqrt(A)``, so the search tries first
what the policy would play and may never spend an iteration on a move the
policy rules out. Expansion and rollouts are as above.

Edges are keyed by (acting seat, action id): after a draw the same action
sequence can lead to the observer's decision in one determinization and an
opponent's in another, and their statistics must not mix.

The agent reads only the view it is given and draws all its randomness
(determinizations, expansion order, rollouts, the engines' own shuffles) from
``self.rng``, so with a simulation budget it is deterministic for a fixed
seed whatever the hidden cards are. A time budget depends on the machine's speed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..actions import SUIT_VERBS
from ..config import ConfigError, GameConfig
from ..engines import engine_class
from ..engines.base import Engine, PlayerView
from ..engines.determinizers.belief import BELIEFS
from .base import Agent
from .heuristic import PileHeuristicModel, best_suit

DEFAULT_SIMULATIONS = 300
DEFAULT_EXPLORATION = 1.0
#: PUCT's constant with a prior (AlphaZero's c_puct is of this order for rewards in [-1, 1])
DEFAULT_PRIOR_WEIGHT = 2.0
#: beliefs that are opponent models (:class:`~eights.engines.determinizers.belief.ChoiceModel`),
#: by name -> the model for a variant: the deals follow how likely the opponents' choices
#: were had they played as that model does
MODEL_BELIEFS = {"heuristic": PileHeuristicModel}
#: where the search runs (the ``core=`` option)
CORES = ("python", "compiled")
#: how the search plays the other seats (the ``opponents=`` option)
OPPONENT_MODELS = ("ucb", "heuristic")
#: the rollouts' policy (the ``playout=`` option)
PLAYOUTS = ("fast", "heuristic")
#: where an iteration of a match ends (the ``horizon=`` option; module docstring)
HORIZONS = ("hand", "game")


class _Node:
    """One edge of the tree and the information set it leads to."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        #: (seat * number of actions + action id) -> child
        self.children: dict[int, _Node] = {}


class _Horizon:
    """Where one iteration ends: the game's end, or in a match with ``by_hand`` the end of
    the hand it started in (the module docstring's *horizon*)."""

    __slots__ = ("hand", "totals")

    def __init__(self, game: Engine, by_hand: bool) -> None:
        s = game.state
        #: the hand the iteration started in (None: it plays to the game's end); only a
        #: match (``match``, or crazier_eights' ``games``) ever deals another
        self.hand = s.hand_number if by_hand else None
        #: every seat's match total before this hand's points
        self.totals = tuple(s.scores) if by_hand else ()

    def playing(self, game: Engine) -> bool:
        return not game.game_over and (self.hand is None or
                                       game.state.hand_number == self.hand)

    def returns(self, game: Engine) -> list[float]:
        """The game's returns once it is over (or cut), else the hand's: +1 the seats with
        the hand's best points, -1 the others, 0 for all when they scored alike."""
        if game.game_over or self.hand is None:
            return game.returns()
        return hand_returns([now - before for now, before in
                             zip(game.state.scores, self.totals, strict=True)],
                            type(game).low_score_wins)


def hand_returns(points: Sequence[int], low_score_wins: bool) -> list[float]:
    """+1 the seats whose points for a hand were the best (the fewest when the lowest total
    wins), -1 the others; 0 for all when every seat scored alike."""
    best = min(points) if low_score_wins else max(points)
    if all(p == best for p in points):
        return [0.0] * len(points)
    return [1.0 if p == best else -1.0 for p in points]


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS over the engine's determinizations; see the module docstring."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, *, simulations: int = DEFAULT_SIMULATIONS,
                 time_ms: float | None = None, exploration: float = DEFAULT_EXPLORATION,
                 infer: bool = True, prior: Agent | None = None,
                 prior_weight: float = DEFAULT_PRIOR_WEIGHT, belief: str = "uniform",
                 core: str = "python", deals: int | None = None, opponents: str = "ucb",
                 playout: str = "fast", horizon: str = "hand", threads: int = 1):
        super().__init__(seed)
        if horizon not in HORIZONS:
            raise ConfigError(f"ismcts: horizon={horizon!r} is not allowed; horizon is "
                              f"{SPEC_OPTIONS['horizon'][2]}")
        if playout not in PLAYOUTS:
            raise ConfigError(f"ismcts: playout={playout!r} is not allowed; playout is "
                              f"{SPEC_OPTIONS['playout'][2]}")
        if playout != "fast" and core != "compiled":
            raise ConfigError(f"ismcts: playout={playout} needs core=compiled (its heuristic "
                              f"plays the rollouts in compiled code)")
        if opponents not in OPPONENT_MODELS:
            raise ConfigError(f"ismcts: opponents={opponents!r} is not allowed; opponents is "
                              f"{SPEC_OPTIONS['opponents'][2]}")
        if opponents != "ucb" and core != "compiled":
            raise ConfigError(f"ismcts: opponents={opponents} needs core=compiled (its "
                              f"heuristic plays the opponents in compiled code)")
        if core not in CORES:
            raise ConfigError(f"ismcts: core={core!r} is not allowed; core is "
                              f"{SPEC_OPTIONS['core'][2]}")
        if core == "compiled" and prior is not None:
            raise ConfigError("ismcts: core=compiled searches without a prior; a prior needs "
                              "core=python (the default)")
        if deals is not None:
            _check("deals", deals, int, 1)
        _check("threads", threads, int, 1)
        if threads > 1 and core != "compiled":
            raise ConfigError(f"ismcts: threads={threads} needs core=compiled (its iterations "
                              f"run without Python's lock, a tree per thread)")
        if belief not in BELIEFS and belief not in MODEL_BELIEFS:
            raise ConfigError(f"ismcts: belief={belief!r} is not allowed; belief is "
                              f"{SPEC_OPTIONS['belief'][2]}")
        _check("sims", simulations, int, 1)
        if time_ms is not None:
            _check("ms", time_ms, (int, float), 0, strict=True)
        _check("c", exploration, (int, float), 0)
        _check("cp", prior_weight, (int, float), 0)
        if prior is not None and not callable(getattr(prior, "action_probabilities", None)):
            raise ConfigError(f"ismcts: the prior {prior.name!r} gives no action probabilities; "
                              f"a prior is a trained policy (prior=policy or prior=MODEL)")
        self.simulations = simulations
        self.time_ms = time_ms
        self.exploration = float(exploration)
        #: the policy whose probabilities guide selection (PUCT), or None for UCB1
        self.prior = prior
        self.prior_weight = float(prior_weight)
        #: deal opponents who drew no card they could have played then
        #: (:meth:`Engine.determinize`'s ``infer_from_draws``)
        self.infer = infer
        #: how the hidden cards are weighted (:data:`~eights.engines.determinizers.belief.BELIEFS`;
        #: ``None`` for ``uniform``, the determinizer's plain deal)
        self.belief = None if belief == "uniform" else belief
        #: variant -> the opponent model a model belief deals by
        self._models: dict[str, object] = {}
        #: variant -> what the playout policy knows of each action id
        self._tables: dict[str, Playout] = {}
        #: ``python`` (the engines) or ``compiled`` (:mod:`eights.vector.search`)
        self.core = core
        #: with core=compiled and a belief: the deals it draws per decision (None: voids
        #: weighed in compiled code every iteration, 256 by an opponent model's compiled
        #: chain, 32 whole positions where the core's deal is Python's)
        self.deals = deals
        #: table config -> its compiled search (made on first use)
        self._compiled: dict[object, object] = {}
        #: how the search plays the other seats: ``ucb`` (each by UCB1 over its own moves in
        #: the tree, the playout policy after) or ``heuristic`` (as the heuristic would)
        self.opponents = opponents
        #: the rollouts' policy: ``fast`` (a random card play, wild cards last) or
        #: ``heuristic`` (every seat as the heuristic plays)
        self.playout = playout
        #: ``hand``: in a match an iteration ends with its hand; ``game``: with the match
        self.horizon = horizon
        #: trees grown at once, a thread each (root parallelization; core=compiled)
        self.threads = threads

    def __getstate__(self) -> dict[str, object]:
        """A copy or a pickle leaves the compiled searches behind: they hold the compiled
        core's module and a thread pool, neither of which copies, and keep nothing a
        decision needs between decisions (their scratch is rewritten by every search), so
        the copy makes its own on first use and, from the same generator state, plays the
        same moves."""
        state = self.__dict__.copy()
        state["_compiled"] = {}
        return state

    def check_table(self, config: GameConfig) -> None:
        """A prior's model must fit the table (a 2-player model cannot guide a 3-player
        search)."""
        if self.prior is not None:
            self.prior.check_table(config)

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        visits = self.visit_counts(view)
        return max(legal, key=lambda a: visits[a])

    def visit_counts(self, view: PlayerView) -> np.ndarray:
        """Search from ``view`` and return the root's visits of each action (an array over
        all action ids: 0 for the illegal ones and for legal ones never tried).

        What :meth:`act` plays is the most visited action; the counts themselves are the
        search's policy, what expert iteration (:mod:`eights.training.distill`) trains a
        network toward. With one legal action there is nothing to search: it gets 1.
        """
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"ismcts: seat {view.seat} is not the one to act in this view")
        engine = engine_class(view.variant)
        counts = np.zeros(len(engine.actions), dtype=np.float64)
        if len(legal) == 1:
            counts[legal[0]] = 1.0
            return counts
        if self.prior is not None:
            self.prior.check_table(view.config)  # a wrong table fails before the search
        if self.core == "compiled":
            belief = self.belief_for(view.variant) if self.belief else None
            return self._compiled_search(view).visit_counts(
                view, self.rng, self.simulations, self.time_ms, self.exploration, self.infer,
                belief, self.deals, self.opponents, self.playout, self.horizon == "hand",
                self.threads)
        root = self._search(view, engine)
        me = view.seat * len(engine.actions)
        for a in legal:
            child = root.children.get(me + a)
            if child is not None:
                counts[a] = child.visits
        return counts

    def _compiled_search(self, view: PlayerView) -> object:
        """The compiled search for the view's table (made once per config)."""
        search = self._compiled.get(view.config)
        if search is None:
            from ..vector.search import CompiledSearch

            search = self._compiled[view.config] = CompiledSearch(view.variant, view.config)
        return search

    # ------------------------------------------------------------------ search
    def _search(self, view: PlayerView, engine: type[Engine]) -> _Node:
        """Grow the tree from ``view`` within the budget; return its root."""
        root = _Node()
        table = self._playout_table(view.variant, engine)
        belief = self.belief_for(view.variant)
        if self.time_ms is not None:
            deadline = time.perf_counter() + self.time_ms / 1000.0
            while True:
                self._iterate(root, engine.determinize(view, self.rng, self.infer, belief),
                              table)
                if time.perf_counter() >= deadline:
                    break
        else:
            for _ in range(self.simulations):
                self._iterate(root, engine.determinize(view, self.rng, self.infer, belief),
                              table)
        return root

    def belief_for(self, variant: str) -> object:
        """What ``Engine.determinize`` is given as the belief: the name, or for a model
        belief (:data:`MODEL_BELIEFS`) the variant's model, made once."""
        make = MODEL_BELIEFS.get(self.belief or "")
        if make is None:
            return self.belief
        model = self._models.get(variant)
        if model is None:
            model = self._models[variant] = make(variant)
        return model

    def _iterate(self, root: _Node, game: Engine, table: Playout) -> None:
        """One iteration on one determinization: select, expand, roll out, back up (to the
        end of the hand or of the game: the module docstring's horizon)."""
        horizon = _Horizon(game, self.horizon == "hand")
        if self.prior is None:
            path, actors = self._descend(root, game, table, horizon)
        else:
            path, actors = self._descend_with_prior(root, game, horizon)
        self._rollout(game, table, horizon)
        returns = horizon.returns(game)
        for node, seat in zip(path, actors, strict=True):
            node.visits += 1
            node.reward += returns[seat]

    def _descend(self, root: _Node, game: Engine, table: Playout,
                 horizon: _Horizon) -> tuple[list[_Node], list[int]]:
        """Select with availability-UCB until an untried action, expand it; the path taken."""
        width = len(game.actions)
        node = root
        path: list[_Node] = []
        actors: list[int] = []
        while horizon.playing(game):
            seat = game.current_player
            base = seat * width
            legal = game.legal_actions()
            expansion = self._expand(game, node.children, base, legal, table)
            if expansion is None:
                action, node = self._select(node.children, base, legal, self.exploration)
            else:
                action, node = expansion
            game.step(action)
            path.append(node)
            actors.append(seat)
            if expansion is not None:
                break
        return path, actors

    def _descend_with_prior(self, root: _Node, game: Engine,
                            horizon: _Horizon) -> tuple[list[_Node], list[int]]:
        """Select by PUCT (module docstring) until an action never visited, which is the
        expansion; the path taken. Every legal action of a node it meets gets a child, so
        each counts its availability from the first time it is legal."""
        width = len(game.actions)
        node = root
        path: list[_Node] = []
        actors: list[int] = []
        cp = self.prior_weight
        while horizon.playing(game):
            seat = game.current_player
            base = seat * width
            legal = game.legal_actions()
            children = node.children
            probs = (None if len(legal) == 1
                     else self.prior.action_probabilities(game.view(seat)))
            best_value, best_action, best = -math.inf, -1, None
            for a in legal:
                child = children.get(base + a)
                if child is None:
                    child = children[base + a] = _Node()
                    child.avail = 0
                child.avail += 1
                p = 1.0 if probs is None else float(probs[a])
                explore = cp * p * math.sqrt(child.avail)
                if child.visits:
                    value = child.reward / child.visits + explore / (1 + child.visits)
                else:
                    value = explore
                if value > best_value:
                    best_value, best_action, best = value, a, child
            assert best is not None
            game.step(best_action)
            path.append(best)
            actors.append(seat)
            if best.visits == 0:
                break
        return path, actors

    def _expand(self, game: Engine, children: dict[int, _Node], base: int,
                legal: tuple[int, ...], table: Playout) -> tuple[int, _Node] | None:
        """Add a child for an untried legal action, or None when all are tried.

        The untried action is the one the playout policy would pick among
        them (a card before a wild card before a draw). An opponent's node
        meets new cards in almost every determinization, so it expands nearly
        every time it is reached: drawn uniformly, the opponent would draw
        instead of playing about one time in four and the search would count
        on blunders the playouts never make. The new child starts with one
        availability (this iteration); its tried siblings count it too.
        """
        untried = [a for a in legal if base + a not in children]
        if not untried:
            return None
        action = self._playout_action(game, untried, table)
        for a in legal:
            sibling = children.get(base + a)
            if sibling is not None:
                sibling.avail += 1
        child = children[base + action] = _Node()
        return action, child

    @staticmethod
    def _select(children: dict[int, _Node], base: int, legal: tuple[int, ...],
                c: float) -> tuple[int, _Node]:
        """The available child with the highest UCB1 score, its availability counted."""
        best_value = -math.inf
        best_action, best = -1, None
        for a in legal:
            child = children[base + a]
            child.avail += 1
            value = child.reward / child.visits + c * math.sqrt(
                math.log(child.avail) / child.visits)
            if value > best_value:
                best_value, best_action, best = value, a, child
        assert best is not None
        return best_action, best

    def _rollout(self, game: Engine, table: Playout, horizon: _Horizon) -> None:
        """Finish the game (or the hand) fast with the playout policy (module docstring,
        step 4)."""
        while horizon.playing(game):
            game.step(self._playout_action(game, game.legal_actions(), table))

    def _playout_action(self, game: Engine, actions: Sequence[int], table: Playout) -> int:
        """The playout policy's pick among ``actions`` (all legal now in ``game``).

        A random card play, wild cards only when no other card is among
        them; else the suit the chooser holds most of, when suits are named;
        else the first action (draw, pass).
        """
        plays, wild, suit_of = table
        cards = [a for a in actions if plays[a]]
        if cards:
            cards = [a for a in cards if not wild[a]] or cards
            return cards[int(self.rng.random() * len(cards))]
        if suit_of[actions[0]] >= 0:
            want = best_suit(game.view(game.current_player).hand)
            for a in actions:
                if suit_of[a] == want:
                    return a
        return actions[0]

    def _playout_table(self, variant: str, engine: type[Engine]) -> Playout:
        """Per action id: plays a card, plays a wild card, names which suit (once per variant)."""
        table = self._tables.get(variant)
        if table is None:
            table = self._tables[variant] = playout_table(engine)
        return table


class Playout(NamedTuple):
    """What the playout policy needs to know of each action id, read from the notation."""

    plays: tuple[bool, ...]
    wild: tuple[bool, ...]
    suit_of: tuple[int, ...]


def playout_table(engine: type[Engine]) -> Playout:
    """``play <card>`` actions, those whose card has the engine's ``wild_rank``, and the
    actions that name a suit or colour (``suit X``, ``colour X``)."""
    wild_rank = getattr(engine, "wild_rank", None)
    cards = engine.cardset
    plays, wild, suit_of = [], [], []
    for text in engine.actions.texts:
        words = text.split()
        is_play = words[0] == "play"
        plays.append(is_play)
        wild.append(is_play and len(words) == 2 and cards.rank[cards.parse(words[1])] == wild_rank)
        suit_of.append(cards.colour_codes.index(words[1]) if words[0] in SUIT_VERBS else -1)
    return Playout(tuple(plays), tuple(wild), tuple(suit_of))


# ---------------------------------------------------------------------- specs
#: spec option -> (constructor argument, how to read it, what is allowed)
SPEC_OPTIONS: dict[str, tuple[str, type, str]] = {
    "sims": ("simulations", int, "simulations per decision, an integer >= 1"),
    "ms": ("time_ms", float, "milliseconds per decision, a number > 0 (wins over sims)"),
    "c": ("exploration", float, "the UCB exploration constant, a number >= 0"),
    "infer": ("infer", int, "1 to read an opponent's draw as 'could not play' (default), 0 not"),
    "prior": ("prior", str, "the policy that guides selection: 'policy' (the shipped model for "
                            "the table) or a model (a shipped name or a file); none by default"),
    "cp": ("prior_weight", float, "PUCT's constant with a prior, a number >= 0 (default 2)"),
    "core": ("core", str, "where the search runs: 'python' (the engines, the default) or "
                          "'compiled' (eights.vector's numba cores, every variant; no "
                          "prior)"),
    "deals": ("deals", int, "with core=compiled and a belief: the deals of the hidden hands "
                            "the belief draws per decision, an integer >= 1 (default: 256 "
                            "for belief=heuristic, drawn by its chain in compiled code; "
                            "32 drawn in Python for jokers_of_death and baby_eating_eights; "
                            "belief=voids without it weighs every iteration's deal in "
                            "compiled code)"),
    "opponents": ("opponents", str, "how the search plays the other seats: 'ucb' (the "
                                    "default: each by UCB1 over its own moves, the playout "
                                    "policy in rollouts) or 'heuristic' (as the heuristic "
                                    "would, in the tree and the rollouts; core=compiled)"),
    "playout": ("playout", str, "the rollouts' policy: 'fast' (the default: a random card "
                                "play, wild cards last) or 'heuristic' (every seat as the "
                                "heuristic plays; core=compiled)"),
    "threads": ("threads", int, "with core=compiled: trees grown at once, each on a thread "
                                "of its own from the same deals, their root visits summed "
                                "(root parallelization), an integer >= 1 (default 1); sims "
                                "are shared out among them, ms is every tree's"),
    "horizon": ("horizon", str, "in a match, where an iteration ends: 'hand' (the default: "
                                "the hand it started in, scored by the hand's points) or "
                                "'game' (the match's end)"),
    "belief": ("belief", str, f"how opponents' hidden cards are dealt: "
                              f"{' or '.join([*BELIEFS, *MODEL_BELIEFS])} (default uniform; "
                              f"voids, where a variant's deals read it: weighted by what the "
                              f"opponents' draws, passes and suits showed they lacked; "
                              f"heuristic, in crazy_eights: by how likely their plays were had "
                              f"they played as the heuristic does)"),
}


def _allowed() -> str:
    return "; ".join(f"{key}: {doc}" for key, (_, _, doc) in SPEC_OPTIONS.items())


def _check(key: str, value: object, kind: type | tuple[type, ...], low: float,
           strict: bool = False) -> None:
    """Refuse a budget or constant out of range, naming the spec option and what is allowed."""
    ok = isinstance(value, kind) and not isinstance(value, bool) and (
        value > low if strict else value >= low) and math.isfinite(value)  # type: ignore[operator]
    if not ok:
        raise ConfigError(f"ismcts: {key}={value!r} is not allowed; {key} is "
                          f"{SPEC_OPTIONS[key][2]}")


def ismcts_from_spec(arg: str, seed: int | None = None,
                     variant: str | None = None) -> ISMCTSAgent:
    """An agent from a spec's argument (after ``ismcts:``): ``"sims=200,c=0.5"``, ``"ms=50"``,
    ``"sims=200,prior=policy"`` (a prior needs the ``variant``, whose model it loads).

    An empty argument (the plain ``"ismcts"`` spec) gives the defaults.
    """
    kwargs: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in arg.split(","))):
        key, eq, text = (s.strip() for s in item.partition("="))
        if key not in SPEC_OPTIONS or not eq:
            raise ConfigError(f"ismcts: {item!r} is not an option; write key=value with the "
                              f"keys {_allowed()}")
        name, kind, doc = SPEC_OPTIONS[key]
        if name in kwargs:
            raise ConfigError(f"ismcts: {key} is given twice in {arg!r}")
        try:
            kwargs[name] = kind(text)
        except ValueError:
            raise ConfigError(f"ismcts: {key}={text!r} is not allowed; {key} is {doc}") from None
        if name == "infer":
            if kwargs[name] not in (0, 1):
                raise ConfigError(f"ismcts: {key}={text!r} is not allowed; {key} is {doc}")
            kwargs[name] = bool(kwargs[name])
        if name == "prior":
            kwargs[name] = _prior(str(kwargs[name]), variant, seed)
    agent = ISMCTSAgent(seed, **kwargs)  # type: ignore[arg-type]
    if variant is not None:
        try:
            engine_class(variant).check_belief(agent.belief_for(variant))
        except ValueError as err:
            raise ConfigError(f"ismcts: {err}") from None
        if agent.core == "compiled":
            from ..vector.search import searched_variants

            if variant not in searched_variants():
                raise ConfigError(f"ismcts: core=compiled searches "
                                  f"{', '.join(searched_variants())}; {variant!r} has no "
                                  f"compiled core it searches (core=python, the default, "
                                  f"searches every variant)")
    return agent


def _prior(model: str, variant: str | None, seed: int | None) -> Agent:
    """The policy a ``prior=`` option names (``policy``: the shipped model for the table)."""
    if not model:
        raise ConfigError(f"ismcts: prior= is not allowed; prior is {SPEC_OPTIONS['prior'][2]}")
    if variant is None:
        raise ConfigError("ismcts: a prior needs the variant whose model it loads")
    from .policy import PolicyAgent

    return PolicyAgent(variant, "" if model == "policy" else model, seed)
