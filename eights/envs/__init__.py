"""PettingZoo AEC environments, one versioned module per variant.

>>> from eights.envs import crazy_eights_v0
>>> env = crazy_eights_v0.env(num_players=2)
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from ..config import ConfigError

ENV_MODULES = {
    "crazy_eights": "eights.envs.crazy_eights_v0",
    "livery_eights": "eights.envs.livery_eights_v0",
    "baby_eating_eights": "eights.envs.baby_eating_eights_v0",
}


def env_module(variant: str) -> ModuleType:
    """The env module (``env``, ``raw_env``) of a variant id."""
    if variant not in ENV_MODULES:
        raise ConfigError(f"variant {variant!r} is not known; the variants are "
                          f"{', '.join(ENV_MODULES)}")
    return import_module(ENV_MODULES[variant])


def __getattr__(name: str) -> ModuleType:
    for module in ENV_MODULES.values():
        if module.rsplit(".", 1)[1] == name:
            return import_module(module)
    raise AttributeError(name)
