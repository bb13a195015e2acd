"""Round-robin tournaments: schedules, a results store, backends, ratings and reports.

>>> from eights.tournament import Tournament, run_tournament
>>> result = run_tournament(Tournament("crazy_eights", ("random", "heuristic"), games=20))
>>> result.ranking()[0]
'heuristic'
"""

from .backends import BACKENDS, run_games
from .play import GameResult, TablePlayer, TournamentError
from .ratings import Rating, rate
from .results import PairResult, Standing, TournamentResult, summarize
from .runner import RESULTS_FILE, run_tournament
from .schedule import ScheduledGame, Tournament, derive_seed
from .stats import mean_interval, wilson_interval
from .store import ResultsStore, StoreError

__all__ = [
    "BACKENDS", "RESULTS_FILE", "GameResult", "PairResult", "Rating", "ResultsStore",
    "ScheduledGame", "Standing", "StoreError", "TablePlayer", "Tournament", "TournamentError",
    "TournamentResult", "derive_seed", "mean_interval", "rate", "run_games", "run_tournament",
    "summarize", "wilson_interval",
]
