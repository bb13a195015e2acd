"""The rules engines, one module per variant, and the registry that names them.

Nothing here knows about RL: envs, agents, the protocol and tournaments all
ask these engines. :func:`make_game` is the one way to get an engine by name.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..config import ConfigError
from ..variants import REGISTRY
from .base import Engine, Event, GameRecord, IllegalActionError, PlayerView

#: variant id -> "module:class", imported on first use (from :mod:`eights.variants`)
VARIANTS: dict[str, str] = {v.id: v.engine for v in REGISTRY.values()}


def engine_class(variant: str) -> type[Engine]:
    """The engine class of a variant id; a clear error for an unknown one."""
    if variant not in VARIANTS:
        raise ConfigError(
            f"variant {variant!r} is not known; the variants are {', '.join(VARIANTS)}"
        )
    module, name = VARIANTS[variant].split(":")
    return getattr(import_module(module), name)


def make_game(variant: str, *, seed: int | None = None, deck: Any = None,
              first_player: int | None = None, **config: Any) -> Engine:
    """A new game of ``variant``; ``config`` holds the variant's options."""
    return engine_class(variant)(seed=seed, deck=deck, first_player=first_player, **config)


def stacked_game(variant: str, hands: Any, turned_up: Any, stock: Any = (), *,
                 first_player: int = 0, seed: int | None = None, **config: Any) -> Engine:
    """A new game of ``variant`` dealt from a stacked deck: ``hands`` in seat order, the
    ``turned_up`` card (or each pile's), ``stock`` top first; see ``TableEngine.stacked``.

    >>> game = stacked_game("crazy_eights", ["7C QD 7H", "2S 3S 4S"], "9H", hand_size=3)
    >>> game.legal_texts()
    ['play 7H', 'draw']
    """
    return engine_class(variant).stacked(hands, turned_up, stock, first_player=first_player,
                                         seed=seed, **config)


def replay(record: GameRecord) -> Engine:
    """Replay a :class:`GameRecord` of any variant."""
    return engine_class(record.variant).replay(record)


__all__ = [
    "VARIANTS", "Engine", "Event", "GameRecord", "IllegalActionError", "PlayerView",
    "engine_class", "make_game", "replay", "stacked_game",
]
