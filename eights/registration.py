"""Gymnasium ids for the single-agent wrapper, registered when ``eights`` is imported.

Every variant gets ``eights/<CamelCaseVariant>-v<N>``, the version of its
PettingZoo module (``crazy_eights_v2``); every older version keeps its id::

    import gymnasium
    import eights  # registers the ids
    env = gymnasium.make("eights/CrazyEights-v2", opponents="heuristic", num_players=2)

``gymnasium.make("eights:eights/CrazyEights-v2")`` imports ``eights`` itself
first, for code that only holds an id string. Keywords to ``make`` go to
:class:`~eights.training.single_agent.SingleAgentEnv`: its own (``opponents``,
``seat``, ``illegal_action``, ``illegal_reward``, ``render_mode``) and the
game's config options.

Why on import rather than a ``gymnasium.envs`` entry point: Gymnasium 1.0
dropped its entry-point plugin loader, so such an entry point would never be
read; registering on import is what Gymnasium documents now. It stays cheap:
the entry point is a string, so nothing of the wrapper, its agents, torch or
stable-baselines3 is imported until an env is made; only Gymnasium's own
registry module is.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from .variants import REGISTRY

#: the wrapper every id makes; ``variant`` is bound per id
ENTRY_POINT = "eights.training.single_agent:SingleAgentEnv"
NAMESPACE = "eights"


def gym_id(variant: str, version: int | None = None) -> str:
    """The Gymnasium id of a variant's env ``version`` (``None``: its registered, newest
    one), versioned as its PettingZoo module: ``crazy_eights`` -> ``eights/CrazyEights-v2``."""
    name = "".join(part.capitalize() for part in variant.split("_"))
    return f"{NAMESPACE}/{name}-v{version or REGISTRY[variant].env_version}"


#: variant id -> its newest Gymnasium id, for every variant
GYM_IDS = {variant: gym_id(variant) for variant in REGISTRY}


def register_envs() -> None:
    """Register every version's id of every variant with Gymnasium (``-v1`` gives the v1
    observation layout, as the ``<variant>_v1`` module does); ids already registered are
    left as they are.

    Skipping known ids keeps a re-import (``importlib.reload``) from printing
    Gymnasium's "Overriding environment" warning.
    """
    for variant, newest in REGISTRY.items():
        for version in range(1, newest.env_version + 1):
            env_id = gym_id(variant, version)
            if env_id not in registry:
                register(id=env_id, entry_point=ENTRY_POINT,
                         kwargs={"variant": variant, "version": version})


__all__ = ["ENTRY_POINT", "GYM_IDS", "gym_id", "register_envs"]
