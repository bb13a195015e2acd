"""Games between built-in agents on a compiled core (:mod:`eights.tournament.compiled`):
the Python path's results to the bit, chosen by ``--engine``."""

from __future__ import annotations

import pytest

from eights.config import ConfigError
from eights.tournament import TablePlayer, Tournament, run_tournament
from eights.tournament.compiled import AUTO_MIN_GAMES, CompiledGames, plays_compiled
from eights.vector.cores import COMPILED

#: each variant at its usual table, and an option config that reaches more of its rules
CASES = [
    ("crazy_eights", 2, {}), ("crazy_eights", 3, {"match": True, "max_turns": 60}),
    ("livery_eights", 2, {}), ("livery_eights", 3, {"match": True, "reward": "score"}),
    ("jokers_of_death", 3, {}), ("jokers_of_death", 3, {"free_discard_pile": True,
                                                        "hand_switching": True}),
    ("baby_eating_eights", 4, {}), ("baby_eating_eights", 4, {"teams": 2}),
    ("crazier_eights", 2, {}), ("crazier_eights", 3, {"games": 3, "teams": 0}),
]


def _compared(result):
    """Everything a stored game holds but the seconds."""
    return result._replace(seconds=0.0, think=())


@pytest.mark.parametrize("variant,players,options", [
    pytest.param(v, n, o, marks=pytest.mark.xdist_group(f"core-{v}"),
                 id=f"{v}-{n}p-{'-'.join(o) or 'default'}") for v, n, o in CASES])
def test_compiled_games_are_the_python_games(variant, players, options):
    """Same deals, same agent seeds: the same winners, ranks, scores, turns, truncations,
    decisions per seat and actions, game for game."""
    tournament = Tournament(variant, ("random", "greedy", "heuristic"), num_players=players,
                            games=max(6, 24 // players), seed=5, options=options)
    games = tournament.schedule()
    python = TablePlayer(tournament).play_many(games)
    player = TablePlayer(tournament, compiled=True)
    assert isinstance(player._compiled, CompiledGames)
    compiled = player.play_many(games)
    assert [_compared(r) for r in compiled] == [_compared(r) for r in python]
    assert all(len(r.think) == players for r in compiled)


@pytest.mark.xdist_group("core-crazy_eights")
def test_a_run_stores_the_same_results_either_way(tmp_path):
    """End to end through the store and the summary, more games than one batch of tables."""
    tournament = Tournament("crazy_eights", ("random", "heuristic", "greedy#b"), games=100,
                            seed=3)
    python = run_tournament(tournament, tmp_path / "python", engine="python", report=False)
    compiled = run_tournament(tournament, tmp_path / "compiled", engine="compiled",
                              report=False)
    assert tournament.total_games > 256
    assert compiled.ranking() == python.ranking()
    assert [(s.agent, s.wins, s.games) for s in compiled.standings] == \
        [(s.agent, s.wins, s.games) for s in python.standings]


def test_auto_plays_compiled_from_its_threshold_with_built_in_agents_only():
    built_in = Tournament("crazy_eights", ("random", "heuristic"), games=10)
    assert not plays_compiled(built_in, "auto", AUTO_MIN_GAMES - 1)
    assert plays_compiled(built_in, "auto", AUTO_MIN_GAMES)
    assert plays_compiled(built_in, "compiled", 1)
    assert not plays_compiled(built_in, "python", 10**6)
    searched = Tournament("crazy_eights", ("random", "ismcts:sims=5"), games=10)
    assert not plays_compiled(searched, "auto", 10**6)


@pytest.mark.parametrize("agents,named", [(("random", "ismcts:sims=5"), "ismcts:sims=5"),
                                          (("heuristic", "policy"), "policy")])
def test_compiled_refuses_other_agents_naming_them(agents, named):
    tournament = Tournament("crazy_eights", agents, games=10)
    with pytest.raises(ConfigError, match=f"--engine compiled: agent '{named}' is not one of "
                                          f"random, greedy, heuristic"):
        plays_compiled(tournament, "compiled", 10)


def test_an_unknown_engine_is_refused():
    tournament = Tournament("crazy_eights", ("random", "heuristic"), games=10)
    with pytest.raises(ConfigError, match="engine='numba' is not allowed; use one of auto, "
                                          "python, compiled"):
        run_tournament(tournament, engine="numba", report=False)


def test_every_variant_has_a_core_the_tournaments_can_use():
    from eights.variants import REGISTRY

    assert set(REGISTRY) == set(COMPILED)


@pytest.mark.xdist_group("core-crazy_eights")
def test_a_config_the_core_refuses_plays_on_the_engines_under_auto(monkeypatch):
    """A core's NotCompiled (an option it does not play) leaves ``auto`` on the Python
    engines and stops ``compiled`` with the core's reason."""
    import eights.vector.crazy_eights as core
    from eights.vector.cores import NotCompiled

    def refuse(*args, **kwargs):
        raise NotCompiled("crazy_eights core: not this option")

    monkeypatch.setattr(core, "compile_config", refuse)
    tournament = Tournament("crazy_eights", ("random", "heuristic"), games=4, seed=1)
    assert not plays_compiled(tournament, "auto", 10**6)
    with pytest.raises(ConfigError, match="--engine compiled: crazy_eights core: not this "
                                          "option; use --engine auto or python"):
        plays_compiled(tournament, "compiled", 4)


def test_the_command_takes_the_engine_and_says_where_the_games_ran(capsys):
    from eights.cli import main

    args = ["tournament", "--agents", "random,heuristic", "--games", "10", "--no-progress"]
    assert main([*args, "--engine", "compiled"]) == 0
    assert "games/s, serial, on the compiled core)" in " ".join(capsys.readouterr().out.split())
    assert main([*args, "--engine", "python"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "10 games played" in out and "games/s, serial)" in out
    assert main(["tournament", "--agents", "random,ismcts:sims=2", "--games", "2",
                 "--no-progress", "--engine", "compiled"]) != 0
    said = capsys.readouterr()
    assert "--engine compiled: agent 'ismcts:sims=2' is not one of random, greedy, " \
        "heuristic" in " ".join((said.out + said.err).split())


@pytest.mark.xdist_group("core-crazy_eights")
def test_worker_processes_play_compiled_with_the_same_results(tmp_path):
    """The process backend hands the engine choice to its workers (each loads the core)."""
    tournament = Tournament("crazy_eights", ("random", "heuristic"), games=40, seed=8)
    python = run_tournament(tournament, tmp_path / "python", engine="python", report=False)
    compiled = run_tournament(tournament, tmp_path / "compiled", backend="process", workers=2,
                              engine="compiled", report=False)
    assert compiled.compiled and not python.compiled
    assert [(s.agent, s.wins, s.games) for s in compiled.standings] == \
        [(s.agent, s.wins, s.games) for s in python.standings]
