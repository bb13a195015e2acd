"""The shared mechanism of determinization: constraints as data, one deal, the deal-again loop.

A :class:`Determinizer` is made for one view and one fresh engine. It reads
what every deal must respect once (:attr:`Determinizer.constraints`, a
:class:`DealConstraints`); :meth:`Determinizer.deal` then puts one candidate
position on the engine, and :meth:`Determinizer.determinize` (what
``Engine.determinize`` delegates to) deals until the position asks the seat
to act a real question, then checks it against the view.

The split is there so that a weighting layer can wrap it: deal several
candidates (:meth:`~Determinizer.deal`, copying what it keeps) and score each
by how likely the observed play was under an opponent model, reading the
constraints to know which cards were free to go where.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .belief import (
    CANDIDATES,
    AtMost,
    ChoiceHistory,
    ChoiceModel,
    Evidence,
    choice_weight,
)

if TYPE_CHECKING:
    from ..table import TableEngine, TableState

#: deals :meth:`Determinizer.determinize` tries to give another seat to act a real choice
DEAL_TRIES = 50


@dataclasses.dataclass(frozen=True)
class DealConstraints:
    """What a deal of the cards hidden from one seat must respect, as data.

    ``hidden``: every card hidden from ``seat`` (one entry per copy, ascending id): the
    other hands it cannot see and the part of the stock it has not seen.
    ``hand_sizes``: per seat, how many hidden cards its hand holds; 0 for a hand ``seat``
    sees (its own, an ally's). The rest of ``hidden`` is the stock (:attr:`stock_size`).
    ``placed``: (card, seat) pairs, hidden cards known to be in that seat's hand (the
    observer put them there and has not seen them leave); already within ``hidden`` and
    the hand sizes, so every deal honours all of them.
    ``barred``: seat -> cards it is known not to hold (it emptied its hand of Jacks); it is
    dealt none of them while the pool has other cards.
    ``void``: seat -> cards it would not have drawn holding (``infer_from_draws``, while its
    draw record stands); they are swapped out of its hand for stock cards while the stock
    has cards outside both its ``void`` and its ``barred`` set.
    """

    seat: int
    hidden: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    placed: tuple[tuple[int, int], ...] = ()
    barred: Mapping[int, frozenset[int]] = dataclasses.field(default_factory=dict)
    void: Mapping[int, frozenset[int]] = dataclasses.field(default_factory=dict)

    @property
    def stock_size(self) -> int:
        """The hidden cards in no hand: the stock, or its part the seat has not seen."""
        return len(self.hidden) - sum(self.hand_sizes)


def placeable(placed: Iterable[tuple[int, int]], hidden: Iterable[int],
              hand_sizes: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The (card, seat) pairs of ``placed`` that fit, in order: a card still in the hidden
    pool (copies counted), for a seat whose hand has hidden room left (none for a hand the
    seat sees). What a history proves may outrun what is left: a card given and then
    played unseen, a hand since emptied."""
    left, room, kept = Counter(hidden), list(hand_sizes), []
    for c, p in placed:
        if room[p] > 0 and left[c] > 0:
            left[c] -= 1
            room[p] -= 1
            kept.append((c, p))
    return tuple(kept)


def with_memory(constraints: DealConstraints, view: Any) -> DealConstraints:
    """``constraints`` with the cards the view's memory knows in other hands placed too
    (``known_cards``, the v2 public history): a dealt engine remembers what the view does
    (``remember_view``), so its hands must hold what that memory says they hold. Copies the
    variant's own reading placed already are not placed twice."""
    known = getattr(view, "known_cards", None)
    if not known or not any(map(any, known)):
        return constraints
    have = Counter(constraints.placed)
    extra = [(card, q) for q, counts in enumerate(known) if any(counts)
             for card, k in enumerate(counts) if k for _ in range(max(0, k - have[card, q]))]
    if not extra:
        return constraints
    return dataclasses.replace(constraints, placed=placeable(
        [*constraints.placed, *extra], constraints.hidden, constraints.hand_sizes))


def barring_voids(constraints: DealConstraints,
                  evidence: Iterable[Evidence]) -> DealConstraints:
    """``constraints`` with the cards of every void that leaves a seat no room
    (:class:`~.belief.AtMost` of ``most`` 0) barred from that seat's hand, where it holds
    hidden cards: it is dealt none of them while the pool has others, as a seat emptied of
    Jacks is dealt no Jack."""
    barred = dict(constraints.barred)
    for e in evidence:
        if isinstance(e, AtMost) and not e.most and constraints.hand_sizes[e.seat]:
            barred[e.seat] = barred.get(e.seat, frozenset()) | e.cards
    return dataclasses.replace(constraints, barred=barred)


class Determinizer:
    """Deals positions consistent with one seat's view onto one engine.

    A variant subclass says what is hidden (:meth:`read_constraints`) and how a
    position is laid out from the view (:meth:`position`). The engine is changed only
    through its position interface (``empty_state``, ``set_position``, ``set_pile``,
    ``remember_view``, ``open_choices``, ``settle_position``; see
    :class:`~eights.engines.table.TableEngine`) and its public rule queries.
    """

    #: the beliefs (:data:`~.belief.BELIEFS`) this variant's deals can be weighted by; a
    #: variant that reads the evidence of its history (:meth:`evidence`) adds its own
    beliefs: ClassVar[tuple[str, ...]] = ("uniform",)
    #: whether this variant reads its opponents' choices (:meth:`read_choices`), so its
    #: deals can be weighted by an opponent model (``belief=`` a :class:`~.belief.ChoiceModel`)
    reads_choices: ClassVar[bool] = False
    #: Markov-chain steps a model belief takes from the last deal of a view to the next,
    #: and before the first (the chain forgets the uniform deal it starts from)
    CHAIN_STEPS: ClassVar[int] = 6
    CHAIN_BURN_IN: ClassVar[int] = 150
    #: (view, model) -> the chain's state: the hidden hands, the stock and their weight
    _chains: ClassVar[dict[str, tuple[Any, Any, list[list[int]], list[int], float]]] = {}
    #: the rules make a void certain (no seat may draw or pass while a card must be played),
    #: so a belief deals around the voids that leave a seat no room (:func:`barring_voids`)
    #: instead of drawing deals until one misses them: where several seats have such voids
    #: few uniform deals miss them all, and :data:`~.belief.CANDIDATES` would mostly run out
    certain_voids: ClassVar[bool] = False
    #: view -> its evidence, for the last view read: a search deals from one view many times
    _evidence_cache: ClassVar[dict[str, tuple[Any, tuple[Evidence, ...]]]] = {}

    def __init__(self, engine: TableEngine, view: Any, infer_from_draws: bool = False) -> None:
        self.engine = engine
        self.view = view
        #: read public draws as "could not play" (see ``Engine.determinize``)
        self.infer_from_draws = infer_from_draws
        #: what every deal respects; reading it refuses a view that does not fit the deck
        self.constraints = with_memory(self.read_constraints(), view)
        #: hidden hands and stock to deal instead of random ones (:meth:`deal_by_model`)
        self._preset: tuple[list[list[int]], list[int]] | None = None

    @classmethod
    def determinize(cls, engine_class: type[TableEngine], view: Any, rng: random.Random,
                    infer_from_draws: bool = False, belief: str | ChoiceModel | None = None,
                    candidates: int = CANDIDATES) -> TableEngine:
        """A new ``engine_class`` engine consistent with ``view`` (``Engine.determinize``).

        When another seat is to act, the engine asked it a real question (two or more
        legal actions, never one), so a deal that leaves it a single legal action is
        dealt again, up to :data:`DEAL_TRIES` times; after that the engine applies the
        forced move as always and the position moves on from the view's. When the seat
        itself is to act its own hand fixes its choices, and the new engine's legal
        actions must equal the view's. The new engine's event log and decisions start
        empty: its past is not needed to play on.

        ``belief`` (one of :attr:`beliefs`; ``None`` or ``"uniform"``: every consistent
        deal alike) deals up to ``candidates`` positions and keeps one in proportion to its
        weight under the evidence of the seat's history (:meth:`deal_weighted`). A
        :class:`~.belief.ChoiceModel` (where :attr:`reads_choices`) deals in proportion to
        how likely the opponents' choices were under it (:meth:`deal_by_model`).
        """
        variant = engine_class.variant
        if view.variant != variant:
            raise ValueError(f"{variant}: cannot determinize a {view.variant} view")
        if view.game_over:
            raise ValueError(f"{variant}: the game in this view is over; "
                             f"there is nothing to determinize")
        engine_class.check_belief(belief)
        engine = engine_class.unstarted_for(view, rng.getrandbits(63))
        engine.remember_view(view)  # the seat's memory of the table goes on from the view's
        dealer = cls(engine, view, infer_from_draws)
        if belief is None or belief == "uniform":
            dealer.deal_asking(rng)
        elif not isinstance(belief, str):
            dealer.deal_by_model(rng, belief)
        else:
            dealer.deal_weighted(rng, dealer.evidence(), candidates)
        engine.settle_position()
        if view.legal_actions and engine.legal_actions() != view.legal_actions:
            raise ValueError(
                f"{variant}: the determinized position allows "
                f"{', '.join(engine.legal_texts())} but the view lists "
                f"{', '.join(engine.actions.texts_of(view.legal_actions))}")
        return engine

    def deal_asking(self, rng: random.Random) -> TableEngine:
        """Deal until the position asks a real question (see :meth:`determinize`), at most
        :data:`DEAL_TRIES` times; the last deal stands."""
        for _ in range(DEAL_TRIES):
            self.deal(rng)
            if self.view.legal_actions or len(self.engine.open_choices()) > 1:
                break
        return self.engine

    def deal_weighted(self, rng: random.Random, evidence: Sequence[Evidence],
                      candidates: int) -> TableEngine:
        """Put on :attr:`engine` a deal drawn in proportion to its :meth:`weight` (at most 1),
        dealing at most ``candidates`` positions (:meth:`deal_asking`).

        Rejection sampling: each candidate is kept with probability its weight, which draws
        exactly from the weighted deals and stops at the first deal that fits the evidence
        (most do, so a belief costs a few deals, not ``candidates``: a deal costs about as
        much as the search's playout step it feeds). When every candidate is refused, one
        of them is drawn in proportion to its weight (importance resampling, one pass:
        candidate ``i`` replaces the kept one with probability ``w_i / (w_1 + ... + w_i)``,
        so only a replacing candidate is copied). With :attr:`certain_voids` the candidates
        are dealt around the voids that leave a seat no room (:func:`barring_voids`), and the
        weight judges the rest.
        """
        if candidates < 1:
            raise ValueError(f"{self.engine.variant}: candidates={candidates} is not allowed; "
                             f"a belief weighs at least 1 candidate deal")
        if not evidence:
            return self.deal_asking(rng)
        if self.certain_voids:
            self.constraints = barring_voids(self.constraints, evidence)
        kept: TableState | None = None
        total = 0.0
        for _ in range(candidates):
            w = self.weight(self.deal_asking(rng), evidence)
            if rng.random() < w:
                return self.engine
            total += w
            if kept is None or (w > 0 and rng.random() * total < w):
                kept = self.engine.state.copy()
        assert kept is not None
        self.engine.set_position(kept)
        return self.engine

    def deal_by_model(self, rng: random.Random, model: ChoiceModel) -> TableEngine:
        """Put on :attr:`engine` a deal drawn in proportion to the likelihood of the
        opponents' choices under ``model`` (:func:`~.belief.choice_weight`).

        Strong models make most uniform deals nearly impossible, so rather than weigh
        independent candidates this runs one Metropolis-Hastings chain per view (kept
        between the calls a search makes for one decision): a step swaps one hidden
        card of an opponent's hand (none the view placed there) with a stock card it may
        hold, and is kept with probability ``min(1, w_new / w_old)``. The weight is a
        random, unbiased estimate (the unseen draws' cards are picked at random), so the
        chain keeps the estimate it accepted (pseudo-marginal). Every hard constraint
        holds: the chain starts from a plain deal and only moves cards the deal may move.
        """
        history = self.choices()
        if not history.informative:
            return self.deal_asking(rng)
        key = type(self).__name__
        chain = self._chains.get(key)
        if chain is None or chain[0] is not self.view or chain[1] is not model:
            hands, stock = self.deal_hidden(rng)
            weight = choice_weight(history, hands, model, rng)
            steps = self.CHAIN_BURN_IN
        else:
            _, _, hands, stock, weight = chain
            hands, stock = [list(h) for h in hands], list(stock)
            steps = self.CHAIN_STEPS
        hands, stock, weight = self._walk(rng, history, model, hands, stock, weight, steps)
        self._chains[key] = (self.view, model, hands, stock, weight)
        for _ in range(DEAL_TRIES):
            rng.shuffle(stock)
            self._preset = ([list(h) for h in hands], list(stock))
            self.deal(rng)
            if self.view.legal_actions or len(self.engine.open_choices()) > 1:
                break
            hands, stock, weight = self._walk(rng, history, model, hands, stock, weight,
                                              self.CHAIN_STEPS)
        self._preset = None
        return self.engine

    def _walk(self, rng: random.Random, history: ChoiceHistory, model: ChoiceModel,
              hands: list[list[int]], stock: list[int], weight: float,
              steps: int) -> tuple[list[list[int]], list[int], float]:
        """``steps`` Metropolis-Hastings swaps (:meth:`deal_by_model`) from ``hands``."""
        c = self.constraints
        fixed = [0] * len(hands)
        for _card, p in c.placed:
            fixed[p] += 1  # deal_hidden puts a hand's placed cards first
        movable = [p for p, hand in enumerate(hands) if len(hand) > fixed[p]]
        if not movable or not stock:
            return hands, stock, weight
        for _ in range(steps):
            p = movable[int(rng.random() * len(movable))]
            i = fixed[p] + int(rng.random() * (len(hands[p]) - fixed[p]))
            j = int(rng.random() * len(stock))
            if stock[j] in c.barred.get(p, ()):
                continue
            hands[p][i], stock[j] = stock[j], hands[p][i]
            new = choice_weight(history, hands, model, rng)
            if new >= weight or rng.random() * weight < new:
                weight = new
            else:
                hands[p][i], stock[j] = stock[j], hands[p][i]
        return hands, stock, weight

    def choices(self) -> ChoiceHistory:
        """The opponents' choices of the view's hand (:meth:`read_choices`), read once per
        view (a search asks again)."""
        key = type(self).__name__ + ".choices"
        cached = self._evidence_cache.get(key)
        if cached is not None and cached[0] is self.view:
            return cached[1]  # type: ignore[return-value]
        found = self.read_choices()
        self._evidence_cache[key] = (self.view, found)  # type: ignore[assignment]
        return found

    def read_choices(self) -> ChoiceHistory:
        """The choices a model belief weighs; a variant that :attr:`reads_choices` says."""
        raise NotImplementedError(f"{self.engine.variant}: no opponent model reads this "
                                  f"variant's choices")

    def evidence(self) -> tuple[Evidence, ...]:
        """What the seat's history says of the hidden hands (:mod:`.belief`), read once per
        view (:meth:`read_evidence`; the last view's is kept, as a search asks again)."""
        key = type(self).__name__
        cached = self._evidence_cache.get(key)
        if cached is not None and cached[0] is self.view:
            return cached[1]
        found = tuple(self.read_evidence())
        self._evidence_cache[key] = (self.view, found)
        return found

    def read_evidence(self) -> Sequence[Evidence]:
        """The evidence a belief weighs deals by; a variant with beliefs reads its history."""
        return ()

    def weight(self, engine: TableEngine, evidence: Sequence[Evidence]) -> float:
        """A dealt candidate's weight under ``evidence`` (1.0: as likely as any)."""
        return 1.0

    def unseen_copies(self, counted: Iterable[Sequence[int]] = (),
                      cards: Iterable[int] = ()) -> list[int]:
        """Copies of each card id the seat cannot see: the full deck less the copies per
        card of each of ``counted`` (piles the view counts) and one copy per card of
        ``cards`` (hands and zones it sees). Raises ``ValueError`` naming the card when the
        view shows more copies than the deck holds, so a corrupt or foreign view fails
        here rather than deep inside a search."""
        engine = self.engine
        copies = [0] * len(engine.cardset)
        for c in engine.full_deck():
            copies[c] += 1
        for pile in counted:
            for c, m in enumerate(pile):
                copies[c] -= m
        for c in cards:
            copies[c] -= 1
        if min(copies) < 0:
            c = copies.index(min(copies))
            raise ValueError(f"{engine.variant}: the view shows {-copies[c]} more "
                             f"{engine.cardset.text(c)} than {engine.describe_deck()} hold")
        return copies

    def deal(self, rng: random.Random) -> TableEngine:
        """Put one candidate position on :attr:`engine`, replacing the last, and return it.

        Not settled: forced moves are not applied, so the position is the view's. A caller
        that keeps several candidates copies each (``engine.state.copy()``) before the next.
        """
        self.position(rng)
        return self.engine

    def read_constraints(self) -> DealConstraints:
        """What is hidden from the view's seat and what its history proves about it;
        ``ValueError`` when the view's cards do not fit the deck."""
        raise NotImplementedError(f"{self.engine.variant}: determinize is not implemented")

    def position(self, rng: random.Random) -> None:
        """Set the engine's position: the view's public fields and known hands as they are,
        the hidden cards dealt from ``rng`` (:meth:`deal_hidden`)."""
        raise NotImplementedError(f"{self.engine.variant}: determinize is not implemented")

    def deal_hidden(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """The hidden cards dealt by :attr:`constraints`: per seat the hidden cards of its
        hand (empty for a hand the seat sees), and the rest in random order (the stock).

        The placed cards go first; then the pool is shuffled, each barred seat takes the
        first cards it may hold, and the other hands take the next cards by seat.
        """
        if self._preset is not None:  # a model belief's chain chose them (deal_by_model)
            return self._preset
        c = self.constraints
        pool = list(c.hidden)
        dealt: list[list[int]] = [[] for _ in c.hand_sizes]
        for card, p in c.placed:
            pool.remove(card)
            dealt[p].append(card)
        rng.shuffle(pool)
        for p in sorted(c.barred):
            barred = c.barred[p]
            take = [i for i, card in enumerate(pool) if card not in barred]
            for i in reversed(take[:c.hand_sizes[p] - len(dealt[p])]):
                dealt[p].append(pool.pop(i))
        for p, size in enumerate(c.hand_sizes):
            need = size - len(dealt[p])
            dealt[p] += pool[:need]
            del pool[:need]
        return dealt, pool

