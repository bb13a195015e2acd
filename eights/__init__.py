"""eights: reinforcement-learning environments, agents and tournaments for Crazy Eights games.

>>> import eights
>>> game = eights.make_game("crazy_eights", num_players=2, seed=1)
>>> game.legal_texts()  # doctest: +SKIP
['play 4C', 'play 8S', 'draw']

Importing ``eights`` registers the Gymnasium ids of the single-agent wrapper
(``gymnasium.make("eights/CrazyEights-v1")``); see :mod:`eights.registration`.
"""

from .config import ConfigError
from .engines import VARIANTS, GameRecord, IllegalActionError, make_game, replay, stacked_game
from .registration import GYM_IDS, register_envs

register_envs()

__version__ = "0.1.0"

__all__ = ["GYM_IDS", "VARIANTS", "ConfigError", "GameRecord", "IllegalActionError", "make_game",
           "replay", "stacked_game"]
