"""Round-robin tournaments: schedules, a results store, backends, ratings and reports.

>>> from eights.tournament import Tournament, run_tournament
>>> result = run_tournament(Tournament("crazy_eights", ("random", "heuristic"), games=20))
>>> result.ranking()[0]
'heuristic'

``standings_table(result)`` and ``pairs_table(result)`` are the rich tables the
``eights tournament`` command prints (``rich.console.Console().print(...)``).
"""

from .backends import BACKENDS, run_games
from .compiled import AUTO_MIN_GAMES, ENGINES
from .console import pairs_table, standings_table
from .play import GameResult, TablePlayer, TournamentError
from .ratings import Rating, rate
from .results import PairResult, Standing, TournamentResult, summarize
from .runner import RESULTS_FILE, run_tournament
from .schedule import ScheduledGame, Tournament, derive_seed
from .stats import mean_interval, wilson_interval
from .store import ResultsStore, StoreError

__all__ = [
    "AUTO_MIN_GAMES", "BACKENDS", "ENGINES", "RESULTS_FILE", "GameResult", "PairResult",
    "Rating", "ResultsStore",
    "ScheduledGame", "Standing", "StoreError", "TablePlayer", "Tournament", "TournamentError",
    "TournamentResult", "derive_seed", "mean_interval", "pairs_table", "rate", "run_games",
    "run_tournament", "standings_table", "summarize", "wilson_interval",
]
