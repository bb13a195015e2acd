"""Expert iteration: the search's labels, the fit toward them, and a run end to end."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import time
import zipfile

import numpy as np
import pytest
import torch

from eights.agents import PolicyAgent, make_agent, play_game
from eights.cli import main
from eights.config import ConfigError
from eights.engines import make_game
from eights.training.checkpoints import load_model, read_metadata
from eights.training.distill import (
    DistillSettings,
    Labels,
    LabelTask,
    _mapper,
    distill,
    fit,
    fresh_fit,
    label_games,
    reused_labels,
    teacher,
)
from eights.training.trainer import TrainSettings, train
from tests.processes import HAS_PROC, children, kill_and_check_children_exit, reap, workers

TINY = {"timesteps": 512, "n_envs": 2, "n_steps": 64, "batch_size": 64, "n_epochs": 1,
        "checkpoint_every": 256, "eval_games": 2, "net_arch": (16, 16), "max_snapshots": 2,
        "opponents": "random", "eval_opponents": "random", "progress": False}


@pytest.fixture(scope="module")
def start(tmp_path_factory):
    out = tmp_path_factory.mktemp("start")
    return train(TrainSettings(variant="crazy_eights", out=str(out), seed=2, **TINY)).run_dir


@pytest.fixture(scope="module")
def privileged_start(tmp_path_factory):
    out = tmp_path_factory.mktemp("privileged")
    return train(TrainSettings(variant="livery_eights", out=str(out), seed=2,
                               privileged_critic=True, **TINY)).run_dir


def task(run_dir, seeds=(5, 6, 7), search="ismcts:sims=6", privileged=False,
         variant="crazy_eights"):
    meta = read_metadata(run_dir / "final.zip")
    return LabelTask(variant, dict(meta["config"]), str(run_dir / "final.npz"), search,
                     "heuristic,self", tuple(seeds), 2, privileged)


def test_labels_are_the_searchs_visits_over_the_legal_actions(start):
    labels = label_games(task(start))
    assert labels.games == 3 and len(labels) > 10
    assert labels.obs.shape == (len(labels), PolicyAgent(
        "crazy_eights", str(start / "final.npz"))._net.inputs)
    np.testing.assert_allclose(labels.targets.sum(axis=1), 1.0, rtol=1e-5)
    assert not labels.targets[~labels.masks].any()  # nothing on an illegal action
    assert (labels.masks.sum(axis=1) > 1).all()  # only positions with a choice
    assert set(np.unique(labels.outcomes)) <= {-1.0, 0.0, 1.0}
    again = label_games(task(start))
    for name in ("obs", "masks", "targets", "outcomes"):
        np.testing.assert_array_equal(getattr(again, name), getattr(labels, name))


def test_a_compiled_search_labels_on_its_own_and_a_python_one_with_the_policy(start):
    model = str(start / "final.npz")
    guided = teacher("ismcts:sims=6", model, "crazy_eights")
    assert guided.core == "python" and guided.prior is not None
    alone = teacher("ismcts:sims=200,core=compiled,belief=voids", model, "crazy_eights")
    assert alone.core == "compiled" and alone.prior is None
    search = "ismcts:sims=200,core=compiled,belief=voids,opponents=heuristic"
    labels = label_games(task(start, seeds=(8, 9), search=search))
    assert labels.games == 2 and len(labels) > 5
    np.testing.assert_allclose(labels.targets.sum(axis=1), 1.0, rtol=1e-5)
    assert not labels.targets[~labels.masks].any()
    # the labels are the compiled search's own visits at the learner's positions: the
    # same search, seeded alike, gives the same counts again
    again = label_games(task(start, seeds=(8, 9), search=search))
    np.testing.assert_array_equal(again.targets, labels.targets)


def test_a_search_the_variant_refuses_fails_before_any_labelling(start, tmp_path):
    with pytest.raises(ConfigError, match="playout=heuristic needs core=compiled"):
        distill(DistillSettings(start=str(start), out=str(tmp_path / "bad"),
                                search="ismcts:sims=5,playout=heuristic", progress=False))


def test_a_privileged_checkpoints_labels_carry_the_hidden_cards(privileged_start):
    from eights.training import SingleAgentEnv

    labels = label_games(task(privileged_start, seeds=(1,), privileged=True,
                              variant="livery_eights"))
    env = SingleAgentEnv("livery_eights", "random", privileged=True)
    assert labels.obs.shape[1] == env.observation_space.shape[0]
    model = load_model(privileged_start / "final.zip", for_training=True)
    fit(model, labels, DistillSettings(start="x", epochs=1), np.random.default_rng(0))


def test_fitting_moves_the_policy_toward_the_labels(start):
    labels = label_games(task(start, seeds=(1, 2, 3, 4)))
    model = load_model(start / "final.zip", for_training=True)
    settings = DistillSettings(start="x", epochs=1, learning_rate=3e-3, batch_size=64)
    rng = np.random.default_rng(0)
    t = labels.targets
    entropy = float(-(t * np.log(np.where(t > 0, t, 1.0))).sum(axis=1).mean())
    first, _ = fit(model, labels, settings, rng)
    for _ in range(40):
        last, value = fit(model, labels, settings, rng)
    # the cross-entropy's floor is the labels' own entropy: what is left above it (the KL
    # divergence from the search's distribution to the policy's) shrinks
    assert last - entropy < 0.6 * (first - entropy), (first, last, entropy)
    assert np.isfinite(value)


def test_fresh_fit_says_how_well_the_network_already_knows_the_labels(start):
    labels = label_games(task(start, seeds=(11, 12, 13, 14)))
    model = load_model(start / "final.zip", for_training=True)
    t = labels.targets
    entropy = float(-(t * np.log(np.where(t > 0, t, 1.0))).sum(axis=1).mean())
    before, agreed_before, value_before = fresh_fit(model, labels)
    assert before >= entropy - 1e-4 and 0.0 <= agreed_before <= 1.0
    assert value_before == pytest.approx(float(np.mean(
        (model.policy.predict_values(torch.as_tensor(labels.obs)).detach().numpy().ravel()
         - labels.outcomes) ** 2)), rel=1e-4)
    settings = DistillSettings(start="x", epochs=40, learning_rate=3e-3, batch_size=64)
    fit(model, labels, settings, np.random.default_rng(0))
    after, agreed_after, value_after = fresh_fit(model, labels)  # no longer fresh: learned
    assert after < before and agreed_after > agreed_before + 0.2, (
        before, after, agreed_before, agreed_after)
    assert value_after < value_before


@pytest.mark.parametrize("backend", ["process", "ray"])
def test_every_backend_gives_the_same_labels_in_the_same_order(start, backend):
    if backend == "ray":
        pytest.importorskip("ray")
    tasks = [task(start, seeds=(s,)) for s in (3, 4, 5)]
    serial = Labels.concat(list(map(label_games, tasks)))
    with _mapper(DistillSettings(start="x", backend=backend, workers=2)) as run:
        other = Labels.concat(list(run(label_games, tasks)))
    np.testing.assert_array_equal(other.targets, serial.targets)
    np.testing.assert_array_equal(other.obs, serial.obs)


def test_a_run_end_to_end(start, tmp_path):
    out = tmp_path / "exit"
    result = distill(DistillSettings(start=str(start), out=str(out), search="ismcts:sims=5",
                                     games=3, iterations=2, eval_games=4, progress=False))
    assert result.iterations == 2
    for name in ("settings.json", "distill.csv", "final.zip", "final.npz", "best.zip",
                 "best.npz", "iter_000.npz", "iter_002.npz"):
        assert (out / name).is_file(), name
    with open(out / "distill.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["iteration"]) for r in rows] == [0, 1, 2]
    assert all(int(r["positions"]) > 0 for r in rows[1:])
    assert rows[0]["agreement"] == rows[0]["fresh_policy_loss"] == ""
    assert rows[0]["fresh_value_loss"] == ""
    assert all(0.0 <= float(r["agreement"]) <= 1.0 and float(r["fresh_policy_loss"]) > 0
               and float(r["fresh_value_loss"]) >= 0 for r in rows[1:])
    meta = read_metadata(out / "final.zip")
    assert meta["distillation"]["iteration"] == 2
    assert meta["distillation"]["search"] == "ismcts:sims=5"
    assert meta["variant"] == "crazy_eights" and meta["training"]["variant"] == "crazy_eights"
    best = max(rows, key=lambda r: float(r["win_rate"]))
    assert read_metadata(out / "best.zip")["distillation"]["iteration"] == int(best["iteration"])
    game = make_game("crazy_eights", seed=1)
    play_game(game, [make_agent(f"policy:{out / 'final.npz'}", "crazy_eights"),
                     make_agent("heuristic", "crazy_eights")])
    assert game.game_over


def test_the_time_limit_stops_between_iterations(start, tmp_path):
    result = distill(DistillSettings(start=str(start), out=str(tmp_path / "t"),
                                     search="ismcts:sims=2", games=1, iterations=50,
                                     eval_games=2, time_limit_minutes=1e-6, progress=False))
    assert result.iterations == 0
    assert read_metadata(result.final)["distillation"]["iteration"] == 0


def test_the_command_runs_and_says_where_the_model_is(start, tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["distill", str(start), "--out", str(out), "--search", "ismcts:sims=3",
                 "--games", "2", "--iterations", "1", "--eval-games", "2",
                 "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "1 iterations" in said and str(out / "final.zip") in said
    assert json.loads((out / "settings.json").read_text())["search"] == "ismcts:sims=3"
    assert zipfile.is_zipfile(out / "final.zip")


@pytest.mark.parametrize("change, message", [
    ({"start": ""}, "checkpoint to start from"),
    ({"search": "heuristic"}, "ismcts spec"),
    ({"search": "ismcts:sims=5,prior=policy"}, "leave prior out"),
    ({"backend": "threads"}, "backend="),
    ({"ray_address": "auto"}, "needs backend ray"),
    ({"games": 0}, "games=0"),
    ({"learning_rate": -1.0}, "learning_rate"),
    ({"workers": 0}, "workers=0"),
])
def test_bad_settings_are_named(change, message):
    settings = DistillSettings(start="runs/x")
    for key, value in change.items():
        setattr(settings, key, value)
    with pytest.raises(ConfigError, match=message):
        settings.check()


def test_a_policy_alone_starts_a_run_with_a_new_value_network(tmp_path):
    from eights.agents.policy import MODELS_DIR, NumpyPolicy

    out = tmp_path / "shipped"
    result = distill(DistillSettings(start="livery_eights-2p", out=str(out),
                                     search="ismcts:sims=2", games=1, iterations=1,
                                     eval_games=2, progress=False))
    assert result.iterations == 1
    shipped, meta = NumpyPolicy.load(MODELS_DIR / "livery_eights-2p.npz")
    start, _ = NumpyPolicy.load(out / "iter_000.npz")  # the start's policy, unchanged
    for (w, b), (w0, b0) in zip(start.layers, shipped.layers, strict=True):
        np.testing.assert_array_equal(w, w0)
        np.testing.assert_array_equal(b, b0)
    assert read_metadata(out / "final.zip")["variant"] == meta["variant"]


def test_an_unknown_start_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="neither a checkpoint"):
        distill(DistillSettings(start="no-such-model", out=str(tmp_path / "n"), progress=False))


COMPILED_TEACHER = "ismcts:sims=50,core=compiled"


@pytest.fixture(scope="module")
def labelled(start, tmp_path_factory):
    """A one-iteration run labelled by a compiled search: its labels saved for reuse."""
    out = tmp_path_factory.mktemp("labelled") / "run"
    distill(DistillSettings(start=str(start), out=str(out), search=COMPILED_TEACHER,
                            games=2, iterations=1, eval_games=2, progress=False))
    return out


def test_a_run_saves_each_iterations_labels_and_what_they_fit(labelled):
    about = json.loads((labelled / "labels" / "about.json").read_text())
    assert about["variant"] == "crazy_eights" and about["search"] == COMPILED_TEACHER
    assert about["observation_version"] == 2 and about["privileged"] is False
    saved = Labels.load(labelled / "labels" / "iter_001.npz")
    assert saved.games == 2 and len(saved) > 0
    assert saved.obs.shape[1] == PolicyAgent("crazy_eights",
                                             str(labelled / "final.npz"))._net.inputs


def test_reused_labels_train_the_next_run_first(start, labelled, tmp_path, monkeypatch):
    import eights.training.distill as module

    seen = []
    real_fit = module.fit
    monkeypatch.setattr(module, "fit", lambda model, data, *a: seen.append(len(data))
                        or real_fit(model, data, *a))
    saved = Labels.load(labelled / "labels" / "iter_001.npz")
    out = tmp_path / "next"
    distill(DistillSettings(start=str(start), out=str(out), search=COMPILED_TEACHER, games=1,
                            iterations=1, eval_games=2, labels_from=(str(labelled),),
                            progress=False))
    new = Labels.load(out / "labels" / "iter_001.npz")
    assert seen == [len(saved) + len(new)]


@pytest.mark.parametrize("change, message", [
    ({"variant": "livery_eights"}, "made for variant 'crazy_eights'"),
    ({"config": {"num_players": 3}}, "made for config"),
    ({"observation_version": 1}, "made for observation_version 2"),
    ({"privileged": True}, "made for privileged False"),
])
def test_labels_for_another_network_are_refused(labelled, change, message):
    about = json.loads((labelled / "labels" / "about.json").read_text())
    with pytest.raises(ConfigError, match=message):
        reused_labels([str(labelled)], {**about, **change})


def test_only_a_compiled_searchs_labels_and_never_the_runs_own_are_reused(start, labelled,
                                                                           tmp_path):
    guided = tmp_path / "guided"
    (guided / "labels").mkdir(parents=True)
    about = json.loads((labelled / "labels" / "about.json").read_text())
    (guided / "labels" / "about.json").write_text(json.dumps({**about,
                                                              "search": "ismcts:sims=5"}))
    with pytest.raises(ConfigError, match="policy-guided search"):
        reused_labels([str(guided)], about)
    with pytest.raises(ConfigError, match=r"no .*about\.json"):
        reused_labels([str(tmp_path)], about)
    with pytest.raises(ConfigError, match="the run's own directory"):
        distill(DistillSettings(start=str(start), out=str(labelled), search=COMPILED_TEACHER,
                                labels_from=(str(labelled),), progress=False))
    assert (labelled / "labels" / "iter_001.npz").is_file()  # untouched


def test_the_command_takes_labels_from_earlier_runs(start, labelled, tmp_path):
    out = tmp_path / "cli"
    code = main(["distill", str(start), "--out", str(out), "--search", COMPILED_TEACHER,
                 "--games", "1", "--iterations", "1", "--eval-games", "2",
                 "--labels-from", f"{labelled},", "--no-progress"])
    assert code == 0
    assert json.loads((out / "settings.json").read_text())["labels_from"] == [str(labelled)]


@pytest.mark.skipif(not HAS_PROC, reason="finds child processes in /proc (Linux)")
def test_the_labelling_workers_of_a_killed_run_exit():
    """A distill run killed outright (SIGKILL, an out-of-memory kill) leaves no worker
    labelling on: its pool's workers watch the run's process as a tournament's do."""
    script = ("import sys, time\n"
              "from eights.training.distill import DistillSettings, _mapper\n"
              "with _mapper(DistillSettings(start='x', backend='process', workers=2)) as run:\n"
              "    jobs = run(time.sleep, [60, 60])\n"
              "    print('ready', flush=True)\n"
              "    list(jobs)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    spawned: dict[int, int] = {}
    try:
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers(spawned)) < 2:  # both workers up
            time.sleep(0.1)
            spawned = children(proc.pid)
        assert len(workers(spawned)) == 2, spawned
        kill_and_check_children_exit(proc, spawned)
    finally:
        reap(proc, spawned)
