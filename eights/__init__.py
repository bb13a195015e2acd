"""eights: reinforcement-learning environments, agents and tournaments for Crazy Eights games.

>>> import eights
>>> game = eights.make_game("crazy_eights", num_players=2, seed=1)
>>> game.legal_texts()  # doctest: +SKIP
['play 4C', 'play 8S', 'draw']
"""

from .config import ConfigError
from .engines import VARIANTS, GameRecord, IllegalActionError, make_game, replay

__version__ = "0.1.0"

__all__ = ["VARIANTS", "ConfigError", "GameRecord", "IllegalActionError", "make_game", "replay"]
