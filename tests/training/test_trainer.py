"""A tiny training run end to end: checkpoints, evaluation, curve, export, reload, resume."""

from __future__ import annotations

import csv
import json
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from torch import nn

from eights.agents import PolicyAgent, make_agent, play_game
from eights.cli import main
from eights.config import ConfigError
from eights.engines import make_game
from eights.training import OpponentPool, SingleAgentEnv
from eights.training.checkpoints import (
    METADATA_MEMBER,
    export_policy,
    load_model,
    read_metadata,
    save_checkpoint,
)
from eights.training.evaluate import Evaluation
from eights.training.monitor import eval_summary
from eights.training.trainer import TrainSettings, resume_settings, train

BUILT_IN_CARDS = (Path(__file__).resolve().parents[2] / "eights" / "data"
                  / "crazier_eights.toml").read_text(encoding="utf-8")

TINY = {"timesteps": 768, "n_envs": 2, "n_steps": 64, "batch_size": 64, "n_epochs": 1,
        "checkpoint_every": 256, "eval_games": 4, "net_arch": (16, 16), "max_snapshots": 2,
        "opponents": "random@1,self@1", "progress": False}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    settings = TrainSettings(variant="livery_eights", out=str(out), seed=3, **TINY)
    return train(settings)


def eval_rows(run_dir):
    with open(run_dir / "eval.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_a_run_writes_every_artefact(run):
    d = run.run_dir
    for name in ("settings.json", "latest.zip", "final.zip", "final.npz", "best.zip",
                 "best.npz", "eval.csv", "learning_curve.png"):
        assert (d / name).is_file(), name
    assert (d / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert run.timesteps >= 768
    steps = sorted({int(r["timesteps"]) for r in eval_rows(d)})
    assert steps[:4] == [0, 256, 512, 768]
    assert {r["opponent"] for r in eval_rows(d)} == {"random", "heuristic"}
    assert len(list((d / "checkpoints").glob("step_*.zip"))) == 2  # pruned to max_snapshots
    assert not list(d.rglob(".*tmp*"))


def test_checkpoints_carry_what_game_they_play(run):
    meta = read_metadata(run.final)
    assert meta["variant"] == "livery_eights"
    assert meta["config"]["num_players"] == 2
    assert meta["timesteps"] == run.timesteps
    assert meta["training"]["opponents"] == "random@1,self@1"
    assert meta["observation_size"] == SingleAgentEnv("livery_eights").observation_space.shape[0]


@pytest.mark.parametrize("name", ["final.zip", "final.npz"])
def test_a_trained_model_reloads_and_plays_legal_moves_in_every_seat(run, name):
    spec = f"policy:{run.run_dir / name}"
    engine = make_game("livery_eights", num_players=2)
    for game in range(6):
        engine.reset(seed=game)
        agents = [make_agent(spec, "livery_eights"), make_agent("random", "livery_eights")]
        if game % 2:
            agents.reverse()
        play_game(engine, agents)  # play_game's engine.step refuses an illegal action
        assert engine.game_over


def test_numpy_play_matches_stable_baselines_predict(run):
    model = load_model(run.final)
    zip_agent = PolicyAgent("livery_eights", str(run.final))
    npz_agent = PolicyAgent("livery_eights", str(run.run_dir / "final.npz"))
    engine = make_game("livery_eights", seed=5)
    checked = 0
    while not engine.game_over:
        view = engine.view(engine.current_player)
        action = zip_agent.act(view)
        assert npz_agent.act(view) == action
        if len(view.legal_actions) > 1:
            obs = zip_agent._encoder.encode_view(view)
            mask = np.zeros(len(engine.actions), dtype=bool)
            mask[list(view.legal_actions)] = True
            predicted, _ = model.predict(obs, action_masks=mask, deterministic=True)
            assert int(predicted) == action
            checked += 1
        engine.step(action)
    assert checked > 3


def test_sampled_play_is_seeded_and_legal(run):
    spec = f"policy:{run.run_dir / 'final.npz'}?sample"
    agent = make_agent(spec, "livery_eights", seed=1)
    game = make_game("livery_eights", seed=2)
    view = game.view(game.current_player)
    probs = agent.action_probabilities(view)
    assert probs.sum() == pytest.approx(1.0)
    assert set(np.flatnonzero(probs)) <= set(view.legal_actions)
    first = [agent.act(view) for _ in range(20)]
    agent.seed(1)
    assert [agent.act(view) for _ in range(20)] == first


def test_resume_continues_without_repeating(run, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(run.run_dir, copy)
    settings, path = resume_settings(str(copy), {"timesteps": 1280, "out": str(copy)})
    assert path == copy / "latest.zip"
    assert settings.variant == "livery_eights" and settings.seed == 3
    resumed = train(settings, resume_from=path)
    assert resumed.timesteps >= 1280
    steps = [int(r["timesteps"]) for r in eval_rows(copy) if r["opponent"] == "random"]
    assert steps == sorted(set(steps))
    assert max(steps) == resumed.timesteps
    assert read_metadata(copy / "latest.zip")["timesteps"] == resumed.timesteps


def test_resume_refuses_another_game_or_no_more_steps(run):
    with pytest.raises(ConfigError, match="cannot resume"):
        resume_settings(str(run.run_dir), {"variant": "crazy_eights"})
    settings, path = resume_settings(str(run.run_dir), {"timesteps": 100})
    with pytest.raises(ConfigError, match="already"):
        train(settings, resume_from=path)
    with pytest.raises(ConfigError, match="neither"):
        resume_settings(str(run.run_dir / "missing"), {})


def test_a_crash_while_saving_keeps_the_previous_checkpoint(run, tmp_path):
    model = load_model(run.final, for_training=True)
    target = tmp_path / "latest.zip"
    save_checkpoint(model, target, {"variant": "livery_eights", "step": 1})

    class Crash(RuntimeError):
        pass

    def broken_save(path, *args, **kwargs):
        with open(path, "wb") as handle:
            handle.write(b"PK\x03\x04 half a zip")
        raise Crash

    model.save = broken_save
    with pytest.raises(Crash):
        save_checkpoint(model, target, {"variant": "livery_eights", "step": 2})
    assert read_metadata(target)["step"] == 1
    load_model(target)
    assert [p.name for p in tmp_path.iterdir()] == ["latest.zip"]


def test_models_for_another_game_are_refused(run, tmp_path):
    with pytest.raises(ConfigError, match="trained for 'livery_eights'"):
        PolicyAgent("crazy_eights", str(run.final))
    agent = PolicyAgent("livery_eights", str(run.final))
    engine = make_game("livery_eights", num_players=3, seed=0)
    with pytest.raises(ConfigError, match="2-player"):
        agent.act(engine.view(engine.current_player))
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ConfigError, match="not a model zip"):
        PolicyAgent("livery_eights", str(bad))
    foreign = tmp_path / "foreign.zip"
    with zipfile.ZipFile(foreign, "w") as archive:
        archive.writestr("data", "{}")
    with pytest.raises(ConfigError, match=METADATA_MEMBER):
        PolicyAgent("livery_eights", str(foreign))
    with pytest.raises(ConfigError, match="neither a file nor a shipped model"):
        PolicyAgent("livery_eights", str(tmp_path / "nothing.zip"))
    with pytest.raises(ConfigError, match=r"must end in \.npz"):
        export_policy(run.final, tmp_path / "x.zip")


def test_self_play_snapshots_become_sampling_policy_opponents(run):
    pool = OpponentPool.parse("self@1,random@1e-9", max_snapshots=1)
    rng = np.random.default_rng(0)
    assert [a.name for a in pool.draw("livery_eights", 3, rng)] == ["random"] * 3
    pool.set_snapshots([str(run.run_dir / "best.zip"), str(run.final)])
    assert pool.snapshots == [str(run.final)]
    (agent,) = pool.draw("livery_eights", 1, rng)
    assert isinstance(agent, PolicyAgent) and agent.sample
    assert agent.path == run.final


def test_cli_train_and_resume(tmp_path, capsys):
    out = tmp_path / "cli"
    args = ["train", "--variant", "crazy_eights", "--timesteps", "256", "--n-envs", "2",
            "--n-steps", "64", "--batch-size", "64", "--epochs", "1", "--checkpoint-every",
            "128", "--eval-games", "2", "--net-arch", "8", "--opponents", "random",
            "--eval-opponents", "random", "--out", str(out), "--no-progress",
            "--option", "hand_size=5"]
    assert main(args) == 0
    assert "final model" in capsys.readouterr().out
    assert read_metadata(out / "final.zip")["config"]["hand_size"] == 5
    assert json.loads((out / "settings.json").read_text())["options"] == {"hand_size": 5}
    assert main(["train", "--resume", str(out), "--timesteps", "384", "--no-progress"]) == 0
    assert read_metadata(out / "latest.zip")["timesteps"] >= 384


def test_cli_train_reports_bad_settings(capsys):
    assert main(["train", "--timesteps", "0", "--no-progress"]) == 2
    assert "timesteps=0" in capsys.readouterr().out
    assert main(["train", "--opponents", "wizard", "--no-progress"]) == 2
    assert "wizard" in capsys.readouterr().out


def test_cli_export(run, tmp_path, capsys):
    out = tmp_path / "exported.npz"
    assert main(["export", str(run.final), str(out)]) == 0
    assert "policy:" in capsys.readouterr().out
    game = make_game("livery_eights", seed=9)
    view = game.view(game.current_player)
    exported = PolicyAgent("livery_eights", str(out))
    assert exported.metadata["timesteps"] == run.timesteps
    assert exported.act(view) == PolicyAgent("livery_eights", str(run.final)).act(view)
    assert main(["export", str(tmp_path / "none.zip"), str(out)]) == 2


def test_cli_export_takes_a_run_directory(run, tmp_path, capsys):
    out = tmp_path / "from_dir.npz"
    assert main(["export", str(run.run_dir), str(out)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"from {run.run_dir / 'best.zip'}" in said
    assert PolicyAgent("livery_eights", str(out)).metadata["variant"] == "livery_eights"
    empty = tmp_path / "empty_run"
    empty.mkdir()
    assert main(["export", str(empty), str(out)]) == 2
    assert "holds no checkpoint (best.zip, final.zip, latest.zip)" in " ".join(
        capsys.readouterr().out.split())


def test_the_default_checkpoint_interval_scales_to_the_run():
    # the README's quick run: a fixed 100,000 evaluated it only at 0 and 20,000 steps
    assert TrainSettings(timesteps=20_000).checkpoint_interval() == 4_000
    assert TrainSettings(timesteps=8_000).checkpoint_interval() == 2_048  # one rollout
    assert TrainSettings(timesteps=400_000).checkpoint_interval() == 80_000
    assert TrainSettings(timesteps=5_000_000).checkpoint_interval() == 100_000
    assert TrainSettings(timesteps=20_000, checkpoint_every=500).checkpoint_interval() == 500
    with pytest.raises(ConfigError, match="checkpoint_every=0"):
        TrainSettings(checkpoint_every=0).check()


def test_a_run_without_an_interval_draws_a_curve(tmp_path, capsys):
    settings = {**TINY, "checkpoint_every": None, "eval_games": 2, "timesteps": 512}
    result = train(TrainSettings(variant="crazy_eights", out=str(tmp_path), seed=1,
                                 eval_opponents="random", **settings), console=Console())
    steps = sorted({int(r["timesteps"]) for r in eval_rows(result.run_dir)})
    assert steps == [0, 128, 256, 384, 512]  # one rollout of 2 envs x 64 steps apart
    assert "checkpoints and evaluations every 128 timesteps" in capsys.readouterr().out


def test_truncated_evaluation_games_are_reported_as_such():
    assert eval_summary(Evaluation("random", 200, 0.0, 33)) == (
        "random 0.0% (33 of 200 games truncated)")
    assert eval_summary(Evaluation("heuristic", 200, 82.0, 0)) == "heuristic 41.0%"


def test_training_settings_keep_a_card_files_content_not_its_path(tmp_path):
    """The settings a checkpoint carries hold the card set itself, so resuming (or loading
    the model) never reads the file again."""
    cards = tmp_path / "my_cards.toml"
    cards.write_text(BUILT_IN_CARDS, encoding="utf-8")
    settings = TrainSettings(variant="crazier_eights", options={"card_file": str(cards)})
    settings.check()
    assert set(settings.options) == {"card_set", "card_set_sha256"}
    assert settings.options["card_set"] == BUILT_IN_CARDS


def test_resuming_from_settings_that_name_a_card_file_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "cards.fifo"
    os.mkfifo(fifo)
    checkpoint = tmp_path / "latest.zip"
    with zipfile.ZipFile(checkpoint, "w") as archive:
        archive.writestr("eights.json", json.dumps({"training": {
            "variant": "crazier_eights", "options": {"card_file": str(fifo)}}}))
    with pytest.raises(ConfigError, match=r"crazier_eights: the training settings in "
                                          r"'.*latest\.zip' names a file \(card_file\), which "
                                          r"is never opened"):
        resume_settings(str(tmp_path), {})


def test_a_relu_network_trains_exports_and_plays_as_it_was_trained(tmp_path):
    """``activation="relu"``: the checkpoint's network, its export and the model that
    stable-baselines3 loads all use ReLU, and the numpy player plays what the model
    predicts; a bad name, or another activation on resume, is refused."""
    out = tmp_path / "relu"
    settings = TrainSettings(variant="crazy_eights", out=str(out), seed=4, activation="relu",
                             **{**TINY, "timesteps": 256, "checkpoint_every": 256})
    result = train(settings)
    assert read_metadata(result.final)["activation"] == "relu"
    model = load_model(result.final)
    assert isinstance(model.policy.mlp_extractor.policy_net[1], nn.ReLU)
    agent = PolicyAgent("crazy_eights", str(out / "final.npz"))
    assert agent._net.activation == "relu"
    engine = make_game("crazy_eights", seed=6)
    checked = 0
    while not engine.game_over:
        view = engine.view(engine.current_player)
        action = agent.act(view)
        if len(view.legal_actions) > 1:
            mask = np.zeros(len(engine.actions), dtype=bool)
            mask[list(view.legal_actions)] = True
            predicted, _ = model.predict(agent._encoder.encode_view(view), action_masks=mask,
                                         deterministic=True)
            assert int(predicted) == action
            checked += 1
        engine.step(action)
    assert checked > 3
    with pytest.raises(ConfigError, match="activation='gelu' is not allowed; use one of "
                                          "tanh, relu"):
        TrainSettings(variant="crazy_eights", activation="gelu").check()
    with pytest.raises(ConfigError, match="uses relu with activation='tanh'"):
        resume_settings(str(out), {"activation": "tanh"})
