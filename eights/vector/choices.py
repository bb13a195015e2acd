"""The heuristic opponent model's belief (``belief=heuristic``), in compiled code.

``Engine.determinize(view, rng, belief=model)`` deals the other hands in
proportion to how likely the opponents' choices were under the model
(:meth:`~eights.engines.determinizers.base.Determinizer.deal_by_model`): a
Metropolis-Hastings chain that swaps one hidden card of an opponent's hand
with a stock card and keeps the swap with probability ``min(1, w_new /
w_old)``, ``w`` the product of the model's likelihoods over the opponents'
choices, each hand rebuilt backwards from the deal
(:func:`~eights.engines.determinizers.belief.choice_weight`). In Python one
weight costs tens of microseconds, so a search affords a few hundred steps a
decision and the chain barely forgets its start.

Here the same chain runs in numba for the pile games' heuristic
(:class:`~eights.agents.heuristic.PileHeuristicModel`): :func:`history_arrays`
flattens a :class:`~eights.engines.determinizers.belief.ChoiceHistory` once
a decision, :func:`choice_weight` is the Python weight step for step (the
same hands rebuilt in the same list order, the same float sums of
:func:`~eights.agents.heuristic.play_score`, so given the same uniforms it
returns the same number: the tests check it), and :func:`model_deals` walks
the chain and writes every ``steps``-th state as a deal of the other hands,
the rows :func:`eights.vector.search.iterate` plays (its ``deals``).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from ..agents.heuristic import ATTACK_ANYTIME, ATTACK_NEAR_OUT, KEEP_WILD
from ..cards import RANK, SUIT
from .mt import uniform

#: a step's hand change (column ``KIND``): a card played (it was in the hand before), a
#: card drawn (it was not), neither
PLAY, DRAW, OTHER = 0, 1, 2
#: a step's choice (column ``CHOICE``): none, a play, a draw, a named suit
NO_CHOICE, PLAYED, DREW, NAMED = -1, 0, 1, 2
#: step columns: seat, hand change, card, the drawn card the table saw (or -1), choice,
#: the card played or suit named, the fewest cards another seat held then
SEAT, KIND, CARD, SEEN, CHOICE, OBSERVED, NEAREST = range(7)
#: the rank the heuristic keeps (the 8s it plays last and leaves out of a suit's count)
EIGHT = 8
#: card id -> suit and rank, as :mod:`eights.cards` numbers them
SUIT_OF = np.asarray(SUIT, np.int64)
RANK_OF = np.asarray(RANK, np.int64)
_KINDS = {"play": PLAY, "draw": DRAW}
_CHOICES = {"play": PLAYED, "draw": DREW, "suit": NAMED}


def history_arrays(history: Any, cards: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``history.steps`` (last first) as arrays: the step rows (columns :data:`SEAT` to
    :data:`NEAREST`), per step the cards a kept unseen draw cannot have been (0/1 per card
    id below ``cards``), and the cards that fitted the pile at its choice."""
    steps = history.steps
    rows = np.zeros((len(steps), 7), np.int64)
    unfit = np.zeros((len(steps), cards), np.uint8)
    fitting = np.zeros((len(steps), cards), np.uint8)
    for i, (player, kind, card, seen, not_drawn, choice) in enumerate(steps):
        rows[i, :CHOICE] = player, _KINDS.get(kind, OTHER), card, seen
        rows[i, CHOICE] = NO_CHOICE
        unfit[i, list(not_drawn)] = 1
        if choice is not None:
            rows[i, CHOICE:] = _CHOICES[choice.kind], choice.observed, choice.nearest
            fitting[i, list(choice.fitting)] = 1
    return rows, unfit, fitting


def model_constants(engine: Any, slip: float) -> tuple[np.ndarray, np.ndarray, float]:
    """What :func:`likelihood` reads of the engine class and the model: the points per rank,
    the attack value per rank (0 for none), the slip."""
    points = np.asarray(engine.points_by_rank, np.float64)
    attack = np.zeros(14, np.float64)
    for rank, value in engine.attack_ranks.items():
        attack[rank] = value
    return points, attack, float(slip)


@numba.njit(cache=True)
def _best_suit(hand, size):
    """:func:`eights.agents.heuristic.best_suit` of ``hand[:size]``."""
    counts = np.zeros(4, np.int64)
    for j in range(size):
        c = hand[j]
        if RANK_OF[c] != EIGHT and SUIT_OF[c] >= 0:
            counts[SUIT_OF[c]] += 100 + RANK_OF[c]
    best = 0
    for s in range(1, 4):
        if counts[s] > counts[best]:
            best = s
    return best


@numba.njit(cache=True)
def likelihood(choice, observed, fitting, nearest, hand, size, points, attack, slip):
    """:meth:`PileHeuristicModel.likelihood <eights.agents.heuristic.PileHeuristicModel
    .likelihood>` of one choice by a seat holding ``hand[:size]``."""
    if choice == NAMED:
        agrees = _best_suit(hand, size) == observed
    else:
        suits = np.zeros(4, np.int64)
        for j in range(size):
            if SUIT_OF[hand[j]] >= 0:
                suits[SUIT_OF[hand[j]]] += 1
        best, best_score, plays = -1, 0.0, 0
        for j in range(size):
            c = hand[j]
            if not fitting[c]:
                continue
            plays += 1
            rank = RANK_OF[c]
            score = 0.0
            if rank == EIGHT and size > 2:
                score += KEEP_WILD
            score += 0.5 * points[rank - 1]
            copies = 0
            for k in range(size):
                copies += hand[k] == c
            score += 3.0 * (suits[SUIT_OF[c]] - copies)
            if attack[rank]:
                score += attack[rank] * (ATTACK_NEAR_OUT if nearest <= 2 else ATTACK_ANYTIME)
            if best < 0 or score > best_score or (score == best_score and c < best):
                best, best_score = c, score
        # a draw agrees when nothing fits; a play, when it is the heuristic's pick
        agrees = (choice == DREW) == (plays == 0) and (plays == 0 or best == observed)
    return 1.0 - slip if agrees else slip


@numba.njit(cache=True)
def _remove_at(hand, size, i):
    for k in range(i, size - 1):
        hand[k] = hand[k + 1]
    return size - 1


@numba.njit(cache=True)
def choice_weight(rows, unfit, fitting, hands, sizes, observer, points, attack, slip, work,
                  work_sizes, rng):
    """:func:`~eights.engines.determinizers.belief.choice_weight` of the hands
    ``hands[p, :sizes[p]]`` (``work``/``work_sizes`` scratch, ``work`` with a place per
    card a hand held at any step: ``hands``' width plus the steps, as
    :func:`model_deals` sizes it): each
    opponent's hand rebuilt backwards through the steps, a kept unseen draw's card picked
    at random (one uniform of the stream ``rng`` per pick, as the Python weight draws one
    ``rng.random()``); returns the weight and the new stream state."""
    n = sizes.shape[0]
    for p in range(n):
        work_sizes[p] = sizes[p] if p != observer else 0
        for j in range(work_sizes[p]):
            work[p, j] = hands[p, j]
    w = 1.0
    for i in range(rows.shape[0]):
        p = rows[i, SEAT]
        hand = work[p]
        size = work_sizes[p]
        kind = rows[i, KIND]
        if kind == PLAY:
            hand[size] = rows[i, CARD]
            size += 1
        elif kind == DRAW:
            seen = rows[i, SEEN]
            at = -1
            if seen >= 0:
                for j in range(size):
                    if hand[j] == seen:
                        at = j
                        break
            if at >= 0:
                size = _remove_at(hand, size, at)
            elif size:
                fit = 0
                for j in range(size):
                    fit += unfit[i, hand[j]] == 0
                u, rng = uniform(rng)
                if fit:
                    k = int(u * fit)
                    for j in range(size):
                        if unfit[i, hand[j]] == 0:
                            if k == 0:
                                at = j
                                break
                            k -= 1
                else:
                    at = int(u * size)
                size = _remove_at(hand, size, at)
        work_sizes[p] = size
        if rows[i, CHOICE] != NO_CHOICE:
            w *= likelihood(rows[i, CHOICE], rows[i, OBSERVED], fitting[i], rows[i, NEAREST],
                            hand, size, points, attack, slip)
            if w == 0.0:
                return 0.0, rng
    return w, rng


@numba.njit(cache=True)
def _walk(rows, unfit, fitting, hands, sizes, fixed, stock, barred, observer, points, attack,
          slip, work, work_sizes, weight, steps, rng):
    """``steps`` Metropolis-Hastings swaps of a movable hidden card of an opponent's hand
    (past its ``fixed`` placed cards) with a stock card it may hold (not ``barred``), each
    kept with probability ``min(1, w_new / w_old)`` (pseudo-marginal: the accepted
    estimate is kept), as ``Determinizer._walk`` does."""
    n = sizes.shape[0]
    movable = np.zeros(n, np.int64)
    m = 0
    for p in range(n):
        if sizes[p] > fixed[p]:
            movable[m] = p
            m += 1
    if m == 0 or stock.shape[0] == 0:
        return weight, rng
    for _ in range(steps):
        u, rng = uniform(rng)
        p = movable[int(u * m)]
        u, rng = uniform(rng)
        i = fixed[p] + int(u * (sizes[p] - fixed[p]))
        u, rng = uniform(rng)
        j = int(u * stock.shape[0])
        if barred[p, stock[j]]:
            continue
        hands[p, i], stock[j] = stock[j], hands[p, i]
        new, rng = choice_weight(rows, unfit, fitting, hands, sizes, observer, points, attack,
                                 slip, work, work_sizes, rng)
        u, rng = uniform(rng)
        if new >= weight or u * weight < new:
            weight = new
        else:
            hands[p, i], stock[j] = stock[j], hands[p, i]
    return weight, rng


@numba.njit(cache=True)
def model_deals(rows, unfit, fitting, hands, sizes, fixed, stock, barred, observer, points,
                attack, slip, burn_in, steps, deals, rng):
    """Walk the chain from ``hands`` (``burn_in`` steps), then write ``deals.shape[0]``
    deals ``steps`` steps apart: per row the copies of each card id in each opponent's
    hand (``deals[k, p * cards + c]``; ``cards`` = the row's length / the seats).
    Returns the stream state."""
    n = sizes.shape[0]
    cards = deals.shape[1] // n
    # a hand rebuilt backwards gains a card at each play it undoes, so it may hold more
    # than any hand holds now (a seat that played ten cards and drew none): one more
    # place per step of the history bounds it
    work = np.zeros((n, hands.shape[1] + rows.shape[0]), hands.dtype)
    work_sizes = np.zeros_like(sizes)
    weight, rng = choice_weight(rows, unfit, fitting, hands, sizes, observer, points, attack,
                                slip, work, work_sizes, rng)
    weight, rng = _walk(rows, unfit, fitting, hands, sizes, fixed, stock, barred, observer,
                        points, attack, slip, work, work_sizes, weight, burn_in, rng)
    for k in range(deals.shape[0]):
        if k:
            weight, rng = _walk(rows, unfit, fitting, hands, sizes, fixed, stock, barred,
                                observer, points, attack, slip, work, work_sizes, weight,
                                steps, rng)
        for p in range(n):
            if p == observer:
                continue
            for j in range(sizes[p]):
                deals[k, p * cards + hands[p, j]] += 1
    return rng
