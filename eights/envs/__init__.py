"""PettingZoo AEC environments, one versioned module per variant.

>>> from eights.envs import crazy_eights_v1
>>> env = crazy_eights_v1.env(num_players=2)

or by variant id, for code that picks the variant at run time:

>>> from eights.envs import make_env
>>> env = make_env("crazy_eights", num_players=2, illegal_action="terminate")

There is no ``parallel_env``: turns are sequential and players may act out
of turn, so the envs are not parallelizable (``metadata["is_parallelizable"]``
is False).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..config import ConfigError
from ..variants import REGISTRY

if TYPE_CHECKING:  # pettingzoo is imported with the variant module, not with this package
    from pettingzoo import AECEnv

#: variant id -> its env module (from :mod:`eights.variants`)
ENV_MODULES = {v.id: v.env for v in REGISTRY.values()}


def env_module(variant: str) -> ModuleType:
    """The env module (``env``, ``raw_env``) of a variant id."""
    if variant not in ENV_MODULES:
        raise ConfigError(f"variant {variant!r} is not known; the variants are "
                          f"{', '.join(ENV_MODULES)}")
    return import_module(ENV_MODULES[variant])


def make_env(variant: str, **options: Any) -> AECEnv:
    """The AEC env of a variant id, as its module's ``env(**options)`` makes it.

    ``options`` are the env options (``render_mode``, ``render_seat``,
    ``illegal_action``, ``illegal_reward``, ``backend``) and the game's config options
    (``num_players=4``);
    an unknown variant or option is refused naming the known ones.
    """
    return env_module(variant).env(**options)


def __getattr__(name: str) -> ModuleType:
    for module in ENV_MODULES.values():
        if module.rsplit(".", 1)[1] == name:
            return import_module(module)
    raise AttributeError(name)


__all__ = ["ENV_MODULES", "env_module", "make_env"]
