"""Determinizers: positions dealt from a seat's view, one class per variant.

A search agent cannot see the cards hidden from its seat, so it plays out
positions that agree with everything its seat knows and deal the rest at
random (:meth:`eights.engines.base.Engine.determinize`). Rebuilding a position
from a view is a job of its own, apart from playing the rules forward, so it
lives here rather than in the engine classes:

* :mod:`.base`: :class:`~.base.Determinizer`, the shared mechanism (the
  deal-again loop, the legal-actions check, the errors) and
  :class:`~.base.DealConstraints`, what a deal must respect, as data;
* :mod:`.pile`: what the single-discard-pile games share (the hidden pool,
  the discard pile from its counts, reading draws as "could not play");
* one module per variant, named as its engine module, holding only what that
  variant's view adds.

One package rather than a ``<variant>_determinizer.py`` beside each engine:
the determinizers form one small hierarchy (base, pile, variants) that reads
best side by side, and the engine modules keep only the rules. An engine class
names its determinizer (``determinizer = CrazyEightsDeterminizer``); these
modules never import an engine module, so the engines can import them, and
they reach the rules only through the engine they fill (its documented
position interface, :class:`~eights.engines.table.TableEngine`).
"""

from __future__ import annotations

from .base import DEAL_TRIES, DealConstraints, Determinizer

__all__ = ["DEAL_TRIES", "DealConstraints", "Determinizer"]
