"""The strength and tournament benchmark scripts run end to end on a few games.

They assert nothing about speed (figures belong in the benchmarks' output,
not in timed tests), only that the scripts work and the backends agree.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest

from eights.engines import make_game

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"eights_bench_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass looks its module up while it is made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_strength_prints_pairwise_rates(capsys):
    assert load("strength").main(["--games", "10", "--agents", "random,heuristic",
                                  "--variants", "crazy_eights"]) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "95% CI" in out


def test_tournament_throughput_runs_serial_and_processes(capsys):
    assert load("tournament").main(["--games", "20", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "process" in out
    assert out.count(" python ") == 3 and out.count(" compiled ") == 2  # built-in agents


def test_tournament_throughput_compares_lockstep_policy_play(capsys):
    assert load("tournament").main(["--games", "4", "--workers", "2", "--agents",
                                    "policy,heuristic"]) == 0
    out = capsys.readouterr().out
    assert "policy vs heuristic" in out and "lanes" in out


def test_strength_against_tables_of_copies(capsys):
    assert load("strength").main(["--games", "8", "--agents", "random,heuristic", "--players",
                                  "4", "--variants", "baby_eating_eights"]) == 0
    assert "3 x heuristic" in capsys.readouterr().out


def test_strength_against_one_opponent_only(capsys):
    """--against seats each agent against copies of that spec alone: no row for the
    opponent's own games against the others."""
    assert load("strength").main(["--games", "6", "--agents", "random,greedy", "--players",
                                  "3", "--variants", "crazy_eights", "--against",
                                  "heuristic"]) == 0
    out = capsys.readouterr().out
    assert out.count("2 x heuristic") == 2 and "2 x random" not in out
    with pytest.raises(SystemExit):
        load("strength").main(["--agents", "random", "--against", "heuristic"])


def test_compare_runs_reads_two_runs_and_plots_them(tmp_path, capsys):
    import json

    for name, envs, rates in (("a", 8, (0.2, 0.4, 0.5)), ("b", 32, (0.2, 0.45, 0.55))):
        run = tmp_path / name
        run.mkdir()
        (run / "settings.json").write_text(json.dumps(
            {"variant": "crazy_eights", "num_players": 2, "n_envs": envs, "seed": 2,
             "out": str(run)}))
        rows = ["timesteps,seconds,opponent,games,win_rate,ci_low,ci_high,truncated"]
        rows += [f"{k * 1000},{k * 60},heuristic,400,{r},{r - 0.05},{r + 0.05},0"
                 for k, r in enumerate(rates)]
        (run / "eval.csv").write_text("\n".join(rows) + "\n")
    png = tmp_path / "curves.png"
    assert load("compare_runs").main([str(tmp_path / "a"), str(tmp_path / "b"),
                                      "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "n_envs=8" in out and "n_envs=32" in out and png.stat().st_size > 0
    assert "36.7%" in out and "40.0%" in out  # the last three evaluations' means


def test_ablation_trains_each_config_and_measures_it(tmp_path, capsys):
    assert load("ablation").main(["--configs", "base,critic", "--seeds", "1", "--minutes",
                                  "0.02", "--games", "10", "--procs", "1", "--eval-games", "2",
                                  "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "base: mean" in out and "critic: mean" in out
    assert (tmp_path / "critic-1" / "final.npz").is_file()


def test_ablation_distill_spends_the_rest_of_the_time_on_expert_iteration(tmp_path, capsys,
                                                                         monkeypatch):
    """The distill config trains PPO, then distills from its final checkpoint, and measures
    the distilled policy, not the PPO one."""
    script = load("ablation")
    measured = []
    real = script.measure
    monkeypatch.setattr(script, "measure",
                        lambda model, *rest: measured.append(model) or real(model, *rest))
    assert script.main(["--configs", "distill", "--seeds", "2", "--minutes", "0.05",
                        "--games", "6", "--procs", "1", "--eval-games", "2",
                        "--teacher", "ismcts:sims=3", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "distill: mean" in out
    assert measured == [str(tmp_path / "distill-2" / "distill" / "final.npz")]
    about = json.loads((tmp_path / "distill-2" / "distill" / "settings.json").read_text())
    assert about["search"] == "ismcts:sims=3" and about["opponents"] == "heuristic"
    assert (tmp_path / "distill-2" / "distill" / "labels" / "iter_001.npz").is_file()


def test_ablation_refuses_a_distill_share_outside_zero_and_one(capsys):
    with pytest.raises(SystemExit):
        load("ablation").main(["--distill-share", "1"])
    assert "must lie between 0 and 1" in capsys.readouterr().err


def test_training_speed_compares_vector_envs_and_revisions(capsys):
    """Today's trainer in this process beside a revision's (here HEAD's files, exported)
    in a subprocess."""
    assert load("training_speed").main(["--timesteps", "256", "--repeats", "1", "--n-envs",
                                        "4", "--n-steps", "32", "--vecs",
                                        "dummy@HEAD,batched"]) == 0
    out = capsys.readouterr().out
    assert "round 1, dummy@HEAD: 256 decisions" in out and "round 1, batched: 256" in out
    assert "per CPU-second" in out


@pytest.mark.xdist_group("core-crazy_eights")
def test_training_speed_trains_todays_kinds_on_the_observation_asked_for(capsys, monkeypatch):
    script = load("training_speed")
    from eights.training import trainer

    versions = []
    real = trainer.TrainSettings

    def recorded(**kwargs):
        versions.append(kwargs.get("observation_version"))
        return real(**kwargs)

    monkeypatch.setattr(trainer, "TrainSettings", recorded)
    assert script.main(["--timesteps", "256", "--repeats", "1", "--n-envs", "4",
                        "--n-steps", "32", "--vecs", "vector", "--observation-version",
                        "1"]) == 0
    assert versions == [1, 1]  # the warm-up and the timed run
    assert "today's kinds on the v1 observation" in capsys.readouterr().out


def test_training_speed_names_a_revision_it_cannot_export():
    with pytest.raises(SystemExit, match="cannot export revision 'no-such-rev'"):
        load("training_speed").main(["--vecs", "dummy@no-such-rev", "--timesteps", "256"])


@pytest.mark.xdist_group("core-crazy_eights")
def test_vector_training_compares_the_envs_in_turns(capsys):
    script = load("vector_training")
    assert script.main(["--timesteps", "256", "--repeats", "1", "--kinds", "dummy,vector"]) == 0
    out = capsys.readouterr().out
    for kind in ("dummy", "batched", "vector"):
        assert f"round 1, {kind}: 2,048 learner decisions" in out
    assert "vector: " in out and "x dummy, " in out and "x batched" in out
    with pytest.raises(SystemExit):
        script.main(["--kinds", "subproc"])


def test_rating_order_rates_the_same_games_in_several_orders(capsys):
    assert load("rating_order").main(["--games", "6", "--shuffles", "3",
                                      "--agents", "random,heuristic"]) == 0
    out = capsys.readouterr().out
    assert "6 games (6 a pair)" in out and "one pass, tau=0:" in out
    assert "eights (mean of orders): 1 distinct ranking over 3 orders" in out


def test_memory_reports_first_and_further_envs(capsys, tmp_path):
    import json

    out_json = tmp_path / "memory.json"
    assert load("memory").main(["--envs", "2", "--only", "crazy_eights 2p", "jokers_of_death 3p",
                                "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "crazy_eights 2p" in out and "per further env" in out
    results = json.loads(out_json.read_text())["results"]
    assert set(results) == {"crazy_eights 2p", "jokers_of_death 3p"}
    for row in results.values():  # the shared encoder is paid by the first env only
        assert row["first_env_kib"] > row["per_env_kib"] > 0


def test_protocol_read_times_short_and_long_decides(capsys):
    """The rows print (``--seconds`` only bounds how long each is timed: a row reads its
    decide at least once however slow the machine, and no figure is checked)."""
    assert load("protocol_read").main(["--seconds", "0.01", "--variants", "livery_eights"]) == 0
    out = capsys.readouterr().out
    for word in ("livery_eights", "short", "long", "games", "µs per read"):
        assert word in out


def test_belief_scores_a_perfect_read_above_uniform_dealing(capsys, monkeypatch):
    """A dealer that deals the true hands scores mass 1 and the best log-likelihood; the
    uniform deal scores less; the script prints a row per variant and method."""
    belief = load("belief")
    game = make_game("crazy_eights", seed=9)
    for _ in range(4):
        game.step(game.legal_actions()[0])
    view = game.view(game.current_player)

    def truth(view, rng):
        copy = make_game("crazy_eights", seed=9)
        copy.restore(game.snapshot())
        return copy.state.hands

    perfect, uniform = belief.Score(), belief.Score()
    for deal, score in ((truth, perfect), (belief.methods("crazy_eights")["uniform"], uniform)):
        chances = belief.dealt_probabilities(view, deal, 10, random.Random(1), 2,
                                             len(game.cardset))
        belief.score_position(game, view, chances, 10, score)
    assert perfect.mass_on_hand == pytest.approx(1.0 - 1 / 20)
    assert uniform.mass_on_hand < 0.5 and uniform.loglik_per_card < perfect.loglik_per_card
    monkeypatch.setenv("COLUMNS", "200")  # one line a row
    assert belief.main(["--variants", "livery_eights", "--games", "1", "--deals", "4"]) == 0
    out = capsys.readouterr().out
    assert "livery_eights" in out and "uniform" in out and "infer" in out


def test_belief_measures_the_compiled_heuristic_chain():
    """crazy_eights' methods include the compiled chain's deals, and they read the hands
    better than uniform dealing does."""
    belief = load("belief")
    scores = belief.measure("crazy_eights", 2, 20, 4, 0)
    compiled, uniform = scores["heuristic-compiled"], scores["uniform"]
    assert compiled.positions == uniform.positions > 3 and not compiled.failures
    assert compiled.mass_on_hand > uniform.mass_on_hand


def test_belief_probes_read_the_hands_from_each_observation_version(capsys, monkeypatch):
    """The observation probes train on their own games, are scored on the measured
    positions like the deals, and read the hands better than uniform dealing; the script
    prints their rows and refuses too few probe games."""
    belief = load("belief")
    scores = belief.measure("crazy_eights", 2, 20, 4, 0, probe_games=100)
    for name in ("probe-v1", "probe-v2"):
        assert scores[name].positions == scores["uniform"].positions > 3
        assert scores[name].loglik_per_card > scores["uniform"].loglik_per_card
    monkeypatch.setenv("COLUMNS", "200")
    assert belief.main(["--variants", "livery_eights", "--games", "1", "--deals", "4",
                        "--probe-games", "10"]) == 0
    assert "probe-v2" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        belief.main(["--variants", "livery_eights", "--probe-games", "5"])
