"""A decide's view checked against the engine: some position of the game must fit it.

:func:`~eights.protocol.views.read_view` checks each field's form, the counts
per seat and that the cards fit the deck. A view can pass all that and still
describe no position: an empty agenda while a decision is asked, a drawn card
the rules cannot have dealt, a suit to follow that makes other actions legal
than the decide lists. An agent handed such a view fails in its own code, and
the frontend would read ``agent_error``, blaming the bot for its own message
(18 of 3,200 mutated decides did, all crazier_eights agendas).

So before an agent sees a decide's view, the engine deals a position from it
(:meth:`~eights.engines.base.Engine.determinize`, as search agents do; the
engine also checks that the position's legal actions are the decide's) and
builds that position's view for the seat. Every field the frontend sent must
come back as it was sent; the first that does not is refused as ``bad_view``
naming it. When no position can be dealt at all, the field named is the first
optional one without which a position can be, else ``legal`` (what the
engine compares the position with). One mechanism, the engine's own rules, so
no variant keeps a list of its impossible views.

The defaults the engines declare (:mod:`~eights.engines.defaults`) are ours, not the
frontend's: only sent fields are compared, and a view no position fits while
defaults were filled in goes to the agent as before (the session answers with
the heuristic if the agent then fails).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..engines import engine_class
from ..engines.base import PlayerView
from .errors import ProtocolError
from .views import _fields_of, field_to_json, read_view, rules_for

#: the seed of the deal a view is checked with: hidden cards do not change the seat's view,
#: so any deal does, and a fixed one makes the answer reproducible
CHECK_SEED = 0


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _rederived(view: PlayerView) -> PlayerView:
    """The seat's view of a position dealt from ``view`` (raises if none can be dealt)."""
    engine = engine_class(view.variant).determinize(view, random.Random(CHECK_SEED))
    return engine.view(view.seat)


def _dealable(data: Mapping[str, Any], view: PlayerView) -> bool:
    """Whether a position can be dealt from the view ``data`` describes."""
    try:
        _rederived(read_view(data, view.variant, view.config, view.legal_actions)[0])
    except Exception:  # any failure of the engine's means no position fits
        return False
    return True


def _culprit(data: Mapping[str, Any], view: PlayerView) -> str | None:
    """The first optional field sent without which a position can be dealt, if any."""
    for name in rules_for(view.variant):
        if name in data and name != "history" and _dealable(
                {k: v for k, v in data.items() if k != name}, view):
            return name
    return None


def _undealable(data: Mapping[str, Any], view: PlayerView, filled: tuple[str, ...],
                err: Exception) -> ProtocolError | None:
    """The refusal of a view no position fits (None: defaults filled in may be why)."""
    name = _culprit(data, view)
    if name is not None:
        return ProtocolError("bad_view", f"view.{name}: {_shown(data[name])} does not fit the "
                                         f"rest of the view: no {view.variant} position has "
                                         f"it with the other fields (one has them without "
                                         f"it); send what the game holds, or leave it out")
    if filled:
        return None
    reason = str(err) if isinstance(err, ValueError) else f"{type(err).__name__}: {err}"
    return ProtocolError("bad_view", f"legal: no {view.variant} position fits the view and "
                                     f"these legal actions together ({reason})")


def check_view_fits(data: Mapping[str, Any], view: PlayerView,
                    filled: tuple[str, ...] = ()) -> None:
    """Refuse (``bad_view``, naming the field) a decide's view that no position fits.

    ``data`` is the view's JSON as sent, ``view`` what
    :func:`~eights.protocol.views.read_view` made of it, ``filled`` the
    fields it filled in by default (never held against the frontend).
    """
    try:
        derived = _rederived(view)
    except Exception as err:  # the engine's own check, or its code meeting a position
        # that cannot be: either way no position fits
        refusal = _undealable(data, view, filled, err)
        if refusal is not None:
            raise refusal from None
        return
    cls = type(view)
    for name, kind in _fields_of(cls):
        if name in filled or getattr(view, name) == getattr(derived, name):
            continue
        rest = _shown(field_to_json(kind, getattr(derived, name), cls))
        raise ProtocolError("bad_view", f"view.{name}: {_shown(data[name])} does not fit the "
                                        f"rest of the view, whose position makes it {rest}")
