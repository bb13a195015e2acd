"""Hostile checkpoints (.zip): no code runs when one is played, exported or resumed from.

stable-baselines3's loader unpickles a checkpoint's ``data`` member, and
``torch.load`` without ``weights_only`` unpickles ``policy.pth``: a file that
pickles a payload runs it. eights reads neither way: ``data`` is never read and
the tensors are loaded with ``weights_only=True``. The payload here creates a
marker file, so a test sees whether it ran.
"""

from __future__ import annotations

import base64
import io
import json
import pathlib
import pickle
import zipfile

import numpy as np
import pytest
import torch

from eights import ConfigError, make_game
from eights.agents import PolicyAgent
from eights.agents.policy import MAX_MODEL_BYTES, NumpyPolicy
from eights.cli import main
from eights.engines import engine_class
from eights.training import SingleAgentEnv
from eights.training.checkpoints import (
    METADATA_MEMBER,
    export_policy,
    load_model,
    read_metadata,
    read_policy,
    restore_checkpoint,
    save_checkpoint,
)
from eights.training.trainer import TrainSettings

VARIANT = "crazy_eights"
SETTINGS = TrainSettings(variant=VARIANT, net_arch=(16, 16), n_envs=1, n_steps=64,
                         batch_size=64, progress=False)


class Touch:
    """Unpickling this creates ``path``: the payload a hostile file would carry."""

    def __init__(self, path: pathlib.Path):
        self.path = path

    def __reduce__(self):
        return (pathlib.Path.touch, (self.path,))


def new_model(settings: TrainSettings = SETTINGS, seed: int = 0):
    from sb3_contrib import MaskablePPO

    return MaskablePPO("MlpPolicy", SingleAgentEnv(VARIANT), n_steps=settings.n_steps,
                       batch_size=settings.batch_size, seed=seed, device="cpu",
                       policy_kwargs={"net_arch": list(settings.net_arch)})


def run_metadata(timesteps: int = 128) -> dict:
    """What the trainer writes into eights.json (TrainingMonitor._metadata)."""
    config = engine_class(VARIANT).Config.from_options(num_players=2)
    return {"variant": VARIANT, "config": config.to_dict(),
            "observation_size": SingleAgentEnv(VARIANT).observation_space.shape[0],
            "observation_version": SingleAgentEnv(VARIANT).version,
            "timesteps": timesteps, "training": SETTINGS.to_dict()}


@pytest.fixture(scope="module")
def model():
    return new_model()


@pytest.fixture(scope="module")
def checkpoint(model, tmp_path_factory) -> pathlib.Path:
    return save_checkpoint(model, tmp_path_factory.mktemp("ck") / "good.zip", run_metadata())


def rewrite(source: pathlib.Path, target: pathlib.Path, **members: bytes | None) -> pathlib.Path:
    """A copy of the checkpoint zip with ``members`` replaced (None: left out)."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w") as out:
        for name in src.namelist():
            if name not in members:
                out.writestr(name, src.read(name))
        for name, data in members.items():
            if data is not None:
                out.writestr(name, data)
    return target


def evil_data(checkpoint: pathlib.Path, marker: pathlib.Path) -> bytes:
    """The checkpoint's ``data`` with a pickled payload where SB3 keeps the policy class."""
    with zipfile.ZipFile(checkpoint) as archive:
        data = json.loads(archive.read("data"))
    payload = base64.b64encode(pickle.dumps(Touch(marker))).decode()
    data["policy_class"][":serialized:"] = payload
    return json.dumps(data).encode()


def torch_bytes(obj) -> bytes:
    out = io.BytesIO()
    torch.save(obj, out)
    return out.getvalue()


@pytest.fixture()
def evil_data_zip(checkpoint, tmp_path) -> tuple[pathlib.Path, pathlib.Path]:
    marker = tmp_path / "ran"
    return rewrite(checkpoint, tmp_path / "evil.zip", data=evil_data(checkpoint, marker)), marker


@pytest.fixture()
def evil_weights_zip(checkpoint, tmp_path) -> tuple[pathlib.Path, pathlib.Path]:
    marker = tmp_path / "ran"
    with zipfile.ZipFile(checkpoint) as archive:
        state = torch.load(io.BytesIO(archive.read("policy.pth")), weights_only=True)
    state["action_net.bias"] = Touch(marker)
    path = rewrite(checkpoint, tmp_path / "evil.zip", data=evil_data(checkpoint, marker),
                   **{"policy.pth": torch_bytes(state)})
    return path, marker


def test_the_payloads_are_live(evil_data_zip, evil_weights_zip):
    """What the tests defend against: stable-baselines3's loader and a plain unpickle run them."""
    from sb3_contrib import MaskablePPO

    path, marker = evil_data_zip
    with pytest.raises(Exception):  # noqa: B017 - it fails after the payload has run
        MaskablePPO.load(path)
    assert marker.exists()
    marker.unlink()
    path, marker = evil_weights_zip
    with zipfile.ZipFile(path) as archive:
        torch.load(io.BytesIO(archive.read("policy.pth")), weights_only=False)
    assert marker.exists()


def test_an_evil_data_member_is_never_read(evil_data_zip, tmp_path, capsys, monkeypatch):
    """The weights and eights.json are fine, so the model plays; the payload never runs."""
    path, marker = evil_data_zip
    agent = PolicyAgent(VARIANT, str(path))
    game = make_game(VARIANT, seed=1)
    view = game.view(game.current_player)
    assert agent.act(view) in view.legal_actions
    monkeypatch.chdir(tmp_path)
    assert main(["tournament", "--agents", f"random,policy:{path}", "--games", "2",
                 "--no-progress"]) == 0
    assert main(["export", str(path), str(tmp_path / "x.npz")]) == 0
    assert PolicyAgent(VARIANT, str(tmp_path / "x.npz")).act(view) == agent.act(view)
    load_model(path)
    restore_checkpoint(new_model(), path)
    assert not marker.exists()


def test_evil_weights_are_refused_without_running(evil_weights_zip, tmp_path, capsys,
                                                  monkeypatch):
    path, marker = evil_weights_zip
    with pytest.raises(ConfigError, match=r"policy\.pth holds Python objects, not only tensors"):
        PolicyAgent(VARIANT, str(path))
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["tournament", "--agents", f"random,policy:{path}", "--games", "2",
                 "--no-progress"]) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert "weights_only=True" in said and "never unpickles" in said
    assert main(["export", str(path), str(tmp_path / "x.npz")]) == 2
    assert "holds Python objects" in " ".join(capsys.readouterr().out.split())
    assert not (tmp_path / "x.npz").exists()
    for load in (lambda: load_model(path), lambda: restore_checkpoint(new_model(), path)):
        with pytest.raises(ConfigError, match="holds Python objects"):
            load()
    assert not marker.exists()


def test_an_evil_optimizer_state_is_refused_when_resuming(checkpoint, tmp_path):
    marker = tmp_path / "ran"
    path = rewrite(checkpoint, tmp_path / "evil.zip",
                   **{"policy.optimizer.pth": torch_bytes({"state": Touch(marker)})})
    PolicyAgent(VARIANT, str(path))  # play does not read the optimizer state
    with pytest.raises(ConfigError, match=r"policy\.optimizer\.pth holds Python objects"):
        restore_checkpoint(new_model(), path)
    assert not marker.exists()


def test_play_export_and_reload_match_the_model(model, checkpoint, tmp_path):
    net, meta = read_policy(checkpoint)
    assert meta["net_arch"] == [16, 16] and meta["activation"] == "tanh"
    assert meta["actions"] == len(engine_class(VARIANT).actions)
    obs = np.random.default_rng(0).random((6, net.inputs), dtype=np.float32)
    with torch.no_grad():
        expected = model.policy.get_distribution(torch.as_tensor(obs)).distribution.logits
    logits = torch.log_softmax(torch.as_tensor(net.logits(obs)), dim=-1)
    np.testing.assert_allclose(logits.numpy(), expected.numpy(), atol=1e-5)
    np.testing.assert_array_equal(net.logits(obs), NumpyPolicy.from_sb3(model.policy).logits(obs))
    reloaded = load_model(checkpoint)
    for key, value in model.policy.state_dict().items():
        assert torch.equal(reloaded.policy.state_dict()[key], value), key
    assert reloaded.num_timesteps == 128
    exported, _ = NumpyPolicy.load(export_policy(checkpoint, tmp_path / "x.npz"))
    np.testing.assert_array_equal(exported.logits(obs), net.logits(obs))


def test_resuming_restores_weights_optimizer_and_timesteps(checkpoint):
    trained = new_model()
    trained.learn(64)
    path = save_checkpoint(trained, checkpoint.with_name("trained.zip"), run_metadata(64))
    fresh = new_model(seed=5)
    meta = restore_checkpoint(fresh, path)
    assert meta["timesteps"] == fresh.num_timesteps == 64
    for key, value in trained.policy.state_dict().items():
        assert torch.equal(fresh.policy.state_dict()[key], value), key
    saved = trained.policy.optimizer.state_dict()["state"]
    for index, values in fresh.policy.optimizer.state_dict()["state"].items():
        for name, value in values.items():
            assert torch.equal(value, saved[index][name]), (index, name)


def test_resuming_needs_a_run_checkpoint_that_fits_the_settings(model, checkpoint, tmp_path):
    bare = save_checkpoint(model, tmp_path / "bare.zip", {"variant": VARIANT})
    with pytest.raises(ConfigError, match="was not written by `eights train`"):
        restore_checkpoint(new_model(), bare)
    wider = new_model(TrainSettings(variant=VARIANT, net_arch=(32,), n_steps=64,
                                    batch_size=64))
    with pytest.raises(ConfigError, match=r"policy\.pth does not fit the network of these "
                                          r"settings \(size mismatch"):
        restore_checkpoint(wider, checkpoint)
    meta = run_metadata()
    del meta["timesteps"]
    untimed = save_checkpoint(model, tmp_path / "untimed.zip", meta)
    with pytest.raises(ConfigError, match="no timestep count to resume from"):
        restore_checkpoint(new_model(), untimed)


def test_a_checkpoint_from_before_the_network_metadata_still_plays(model, checkpoint, tmp_path):
    """Format 1 said no activation or net_arch: they come from the training settings."""
    meta = read_metadata(checkpoint)
    for key in ("activation", "net_arch", "actions"):
        del meta[key]
    meta["format"] = 1
    old = rewrite(checkpoint, tmp_path / "old.zip",
                  **{METADATA_MEMBER: json.dumps(meta).encode()})
    net, _ = read_policy(old)
    assert net.activation == "tanh"
    obs = np.ones(net.inputs, np.float32)
    np.testing.assert_array_equal(net.logits(obs), read_policy(checkpoint)[0].logits(obs))
    del meta["training"]
    unknown = rewrite(checkpoint, tmp_path / "unknown.zip",
                      **{METADATA_MEMBER: json.dumps(meta).encode()})
    with pytest.raises(ConfigError, match="does not say which activation its network uses"):
        PolicyAgent(VARIANT, str(unknown))


def test_metadata_that_contradicts_the_weights_is_refused(checkpoint, tmp_path):
    for key, value, message in [
        ("net_arch", [16, 8], r"hidden layers \[16, 16\], but its eights\.json says \[16, 8\]"),
        ("actions", 99, "its network has 58 outputs, but its eights.json says actions=99"),
        ("observation_size", 10, "has 348 inputs, but its eights.json says observation_size"),
        ("activation", "gelu", "activation 'gelu' is not supported"),
        ("variant", "livery_eights", "was trained for 'livery_eights', not 'crazy_eights'"),
    ]:
        meta = read_metadata(checkpoint)
        meta[key] = value
        path = rewrite(checkpoint, tmp_path / f"{key}.zip",
                       **{METADATA_MEMBER: json.dumps(meta).encode()})
        with pytest.raises(ConfigError, match=message):
            PolicyAgent(VARIANT, str(path))


def test_weights_that_do_not_fit_the_variant_are_refused_at_load(model, tmp_path):
    """A checkpoint made for another variant (another observation size and action count):
    refused by PolicyAgent and export."""
    from sb3_contrib import MaskablePPO

    other = MaskablePPO("MlpPolicy", SingleAgentEnv("livery_eights"), n_steps=64,
                        batch_size=64, device="cpu", policy_kwargs={"net_arch": [8]})
    meta = run_metadata()
    meta["observation_size"] = other.observation_space.shape[0]
    path = save_checkpoint(other, tmp_path / "other.zip", meta)
    with pytest.raises(ConfigError, match=f"takes {meta['observation_size']} observation "
                                          f"features, but crazy_eights"):
        PolicyAgent(VARIANT, str(path))
    assert main(["export", str(path), str(tmp_path / "x.npz")]) == 2


def test_policy_pth_that_is_not_a_state_dict_or_has_strange_tensors(checkpoint, tmp_path):
    cases = [
        (torch_bytes([torch.zeros(2)]), "holds a list, not a state dict"),
        (torch_bytes({"features_extractor.cnn.weight": torch.zeros(2)}),
         "holds tensors eights does not play"),
        (torch_bytes({"action_net.weight": torch.zeros(58, 239, dtype=torch.int32),
                      "action_net.bias": torch.zeros(58)}),
         "has dtype torch.int32 and layout torch.strided, not a dense float tensor"),
        (torch_bytes({"action_net.weight": torch.zeros(58, 239).to_sparse(),
                      "action_net.bias": torch.zeros(58)}), "layout torch.sparse_coo"),
        (torch_bytes({"action_net.weight": torch.zeros(58, 239)}),
         "lacks the tensor 'action_net.bias'"),
        (b"not a zip at all", r"not a torch zip file \(torch\.save's format\)"),
    ]
    legacy = io.BytesIO()
    torch.save({"action_net.bias": torch.zeros(58)}, legacy, _use_new_zipfile_serialization=False)
    cases.append((legacy.getvalue(), "not a torch zip file"))
    for k, (data, message) in enumerate(cases):
        path = rewrite(checkpoint, tmp_path / f"case{k}.zip", **{"policy.pth": data})
        with pytest.raises(ConfigError, match=message):
            PolicyAgent(VARIANT, str(path))
    path = rewrite(checkpoint, tmp_path / "none.zip", **{"policy.pth": None})
    with pytest.raises(ConfigError, match=r"has no member 'policy\.pth'"):
        PolicyAgent(VARIANT, str(path))


def test_a_policy_pth_bomb_is_refused_before_it_is_decompressed(checkpoint, tmp_path):
    """Outside: a deflated member that declares more than the limit. Inside: torch's own zip."""
    big = tmp_path / "outer.zip"
    with zipfile.ZipFile(checkpoint) as src, zipfile.ZipFile(big, "w") as out:
        for name in src.namelist():
            if name != "policy.pth":
                out.writestr(name, src.read(name))
        with out.open(zipfile.ZipInfo("policy.pth"), "w") as member:
            member._compress_type = zipfile.ZIP_DEFLATED
            chunk = bytes(2**20)
            for _ in range(MAX_MODEL_BYTES // 2**20 + 1):
                member.write(chunk)
    with pytest.raises(ConfigError, match=r"'policy\.pth' would decompress to 65\.0 MiB"):
        PolicyAgent(VARIANT, str(big))
    with zipfile.ZipFile(checkpoint) as archive:
        raw = archive.read("policy.pth")
    inner = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw)) as src, zipfile.ZipFile(inner, "w") as out:
        for name in src.namelist():
            out.writestr(name, src.read(name))
        out.writestr("archive/data/99", bytes(MAX_MODEL_BYTES + 2**20), zipfile.ZIP_DEFLATED)
    path = rewrite(checkpoint, tmp_path / "inner.zip", **{"policy.pth": inner.getvalue()})
    with pytest.raises(ConfigError, match=r"policy\.pth: member 'archive/data/99' would "
                                          r"decompress to 65\.0 MiB"):
        PolicyAgent(VARIANT, str(path))


def test_save_checkpoint_refuses_metadata_that_contradicts_the_model(model, tmp_path):
    with pytest.raises(ConfigError, match="observation_size do not match the model's network"):
        save_checkpoint(model, tmp_path / "x.zip", {"variant": VARIANT, "observation_size": 7})
    assert not list(tmp_path.iterdir())
