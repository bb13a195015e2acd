"""The one registration of every variant: its engine, env, heuristic and docs.

Every registry of the package reads this table (the engines' ``VARIANTS``,
the envs' ``ENV_MODULES``, the agents' heuristics, the Gymnasium ids, the
tests' variant list), so a new variant is registered by one entry here.
Targets are ``"module:attribute"`` strings, imported on first use: naming a
variant costs no import of its engine, env or agent.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Variant:
    """One variant's registration."""

    #: the id everything names it by (``make_game("crazy_eights")``)
    id: str
    #: its rules engine, ``"module:class"``
    engine: str
    #: its PettingZoo module (``env``, ``raw_env``), versioned as PettingZoo's are
    env: str
    #: its heuristic agent, ``"module:class"``
    heuristic: str
    #: its rules in our own words, relative to the repository root
    docs: str
    #: one line for tables and help texts
    summary: str

    @property
    def env_name(self) -> str:
        """The env module's own name, e.g. ``crazy_eights_v1``."""
        return self.env.rsplit(".", 1)[1]

    @property
    def env_version(self) -> int:
        return int(self.env_name.rsplit("_v", 1)[1])


_PILE_HEURISTIC = "eights.agents.heuristic:PileHeuristic"

REGISTRY: dict[str, Variant] = {v.id: v for v in (
    Variant("crazy_eights", "eights.engines.crazy_eights:CrazyEightsGame",
            "eights.envs.crazy_eights_v2", _PILE_HEURISTIC, "docs/rules/crazy_eights.md",
            "2-8 players, two decks, J reverse, Q skip, K draw two, match to 500"),
    Variant("livery_eights", "eights.engines.livery_eights:LiveryEightsGame",
            "eights.envs.livery_eights_v2", _PILE_HEURISTIC, "docs/rules/livery_eights.md",
            "5 cards, A skip, Q reverse, stacking 2s, a 'last card' call, 5-game match"),
    Variant("baby_eating_eights", "eights.engines.baby_eating_eights:BabyEatingEightsGame",
            "eights.envs.baby_eating_eights_v2",
            "eights.agents.baby_heuristic:BabyEatingHeuristic",
            "docs/rules/baby_eating_eights.md",
            "54 cards, an effect on nearly every card, the Guarantee Joker, teams"),
    Variant("jokers_of_death", "eights.engines.jokers_of_death:JokersOfDeathGame",
            "eights.envs.jokers_of_death_v2",
            "eights.agents.jokers_heuristic:JokersOfDeathHeuristic",
            "docs/rules/jokers_of_death.md",
            "three piles, 20 cards, Twos and the 4 of Spades, pile-killing Jokers, to 105"),
    Variant("crazier_eights", "eights.engines.crazier_eights:CrazierEightsGame",
            "eights.envs.crazier_eights_v2",
            "eights.agents.crazier_heuristic:CrazierEightsHeuristic",
            "docs/rules/crazier_eights.md",
            "52 unique cards as data: events and assets, turn phases, abilities, teams"),
)}


__all__ = ["REGISTRY", "Variant"]
