"""Hostile exported policies (.npz): read as data, bounded, and checked when the agent is made.

A model file is something people download and pass to ``policy:PATH``, so
loading one must not run code (no pickles), must not let a small file make us
allocate gigabytes (a zip bomb, or an array header that lies), and must refuse
a file that does not fit the game with a clear error at load time, not
mid-game.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import pathlib
import struct
import tracemalloc
import zipfile
import zlib

import numpy as np
import pytest

from eights import ConfigError, make_game
from eights.agents import PolicyAgent
from eights.agents.policy import (
    MAX_DIRECTORY_BYTES,
    MAX_MODEL_BYTES,
    MAX_MODEL_MEMBERS,
    MODELS_DIR,
    NumpyPolicy,
)

SHIPPED = MODELS_DIR / "crazy_eights-2p.npz"
OBS, ACTIONS = 348, 58  # crazy_eights with its default config (crazy_eights_v2: the
# shipped model's layout, whose metadata the small models here start from)
MIB = 2**20


class Touch:
    """Unpickling this creates ``path``: the payload a hostile file would carry."""

    def __init__(self, path: pathlib.Path):
        self.path = path

    def __reduce__(self):
        return (pathlib.Path.touch, (self.path,))


def shipped_meta() -> dict:
    """The shipped model's metadata, for small test networks that read the observation
    alone (the shipped network also reads count bins: ``eights.agents.count_bins``)."""
    with np.load(SHIPPED, allow_pickle=False) as data:
        meta = json.loads(str(data["metadata"]))
    meta.pop("count_bins", None)
    return meta


def npy(array: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, array, allow_pickle=True)
    return out.getvalue()


def write_npz(path: pathlib.Path, meta: dict | None, arrays: dict[str, np.ndarray]) -> pathlib.Path:
    """An .npz as numpy writes it: one ``NAME.npy`` member per array, deflated."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        if meta is not None:
            archive.writestr("metadata.npy", npy(np.array(json.dumps(meta))))
        for name, array in arrays.items():
            archive.writestr(f"{name}.npy", npy(array))
    return path


def layers_of(*widths: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    arrays = {}
    for k, (a, b) in enumerate(itertools.pairwise(widths)):
        arrays[f"w{k}"] = rng.normal(size=(a, b)).astype(np.float32)
        arrays[f"b{k}"] = rng.normal(size=b).astype(np.float32)
    return arrays


def small_meta(layers: int = 2, **changes) -> dict:
    meta = shipped_meta()
    meta.update(layers=layers, **changes)
    return meta


def write_raw_zip(path: pathlib.Path, members: list[tuple[str, int, bytes, int, int]]) -> None:
    """A zip written by hand: ``(name, method, compressed bytes, crc, size)`` per member.

    It lets a test declare a member of 2 GiB that is 2 MiB on disk, without
    compressing 2 GiB.
    """
    directory = b""
    with open(path, "wb") as out:
        for name, method, payload, crc, size in members:
            offset = out.tell()
            encoded = name.encode()
            out.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, method, 0, 33, crc,
                                  len(payload), size, len(encoded), 0) + encoded)
            out.write(payload)
            directory += struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, method, 0, 33,
                                     crc, len(payload), size, len(encoded), 0, 0, 0, 0, 0,
                                     offset) + encoded
        start = out.tell()
        out.write(directory)
        out.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(members), len(members),
                              len(directory), start, 0))


@pytest.fixture(scope="module")
def bomb(tmp_path_factory) -> pathlib.Path:
    """A 2 MiB .npz whose ``w0`` is 2 GiB of float32 zeros, valid (CRC included)."""
    path = tmp_path_factory.mktemp("bomb") / "bomb.npz"
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f4", "fortran_order": False, "shape": (2**29,)})
    header = header.getvalue()
    # a full flush resets the compressor, so each 1 MiB block of zeros compresses to the
    # same bytes and the stream is that block repeated
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = compressor.compress(header) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(bytes(MIB)) + compressor.flush(zlib.Z_FULL_FLUSH)
    stream = head + block * 2048 + compressor.flush()
    crc, zeros = zlib.crc32(header), bytes(MIB)
    for _ in range(2048):
        crc = zlib.crc32(zeros, crc)
    meta = npy(np.array(json.dumps(small_meta(layers=1))))
    write_raw_zip(path, [
        ("metadata.npy", zipfile.ZIP_STORED, meta, zlib.crc32(meta), len(meta)),
        ("w0.npy", zipfile.ZIP_DEFLATED, stream, crc, len(header) + 2**31),
        ("b0.npy", zipfile.ZIP_STORED, npy(np.zeros(ACTIONS, np.float32)), 0, 0),
    ])
    return path


def peak_allocation(load) -> tuple[int, BaseException | None]:
    """The most bytes ``load()`` had allocated at once, and what it raised."""
    tracemalloc.start()
    try:
        load()
        raised = None
    except Exception as err:
        raised = err
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak, raised


def test_the_bomb_is_real(bomb):
    """What the test defends against: the member decompresses to 2 GiB (read 8 MiB of it)."""
    assert bomb.stat().st_size < 3 * MIB
    with zipfile.ZipFile(bomb) as archive:
        assert archive.getinfo("w0.npy").file_size > 2**31
        with archive.open("w0.npy") as member:
            assert np.lib.format.read_magic(member) == (1, 0)
            shape, _, _ = np.lib.format.read_array_header_1_0(member)
            assert shape == (2**29,)
            assert member.read(8 * MIB) == bytes(8 * MIB)


def test_a_zip_bomb_is_refused_before_it_is_decompressed(bomb):
    peak, raised = peak_allocation(lambda: PolicyAgent("crazy_eights", str(bomb)))
    assert isinstance(raised, ConfigError)
    assert "'w0.npy' would decompress to 2048.0 MiB" in str(raised)
    assert "MAX_MODEL_BYTES" in str(raised)
    assert peak < 16 * MIB, f"allocated {peak / MIB:.0f} MiB"


def test_an_array_header_that_claims_more_than_the_file_holds_is_refused(tmp_path):
    """numpy allocates from the header's shape; the member holds 16 bytes, not 1 GiB."""
    lying = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        lying, {"descr": "<f4", "fortran_order": False, "shape": (2**28,)})
    arrays = layers_of(OBS, ACTIONS)
    path = write_npz(tmp_path / "liar.npz", small_meta(layers=1), {})
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("w0.npy", lying.getvalue() + bytes(16))
        archive.writestr("b0.npy", npy(arrays["b0"]))
    peak, raised = peak_allocation(lambda: PolicyAgent("crazy_eights", str(path)))
    assert isinstance(raised, ConfigError)
    assert "declares shape (268435456,)" in str(raised)
    assert peak < 16 * MIB, f"allocated {peak / MIB:.0f} MiB"


def test_members_may_not_add_up_to_more_than_the_limit(tmp_path):
    """Each member under the limit, together over it: refused before any is read."""
    per = MAX_MODEL_BYTES // 2 + MIB
    members = []
    for name in ("metadata", "w0", "b0"):
        data = npy(np.array(json.dumps(small_meta(layers=1)))) if name == "metadata" else b""
        size = len(data) if name == "metadata" else per
        members.append((f"{name}.npy", zipfile.ZIP_STORED, data, zlib.crc32(data), size))
    path = tmp_path / "sum.npz"
    write_raw_zip(path, members)
    with pytest.raises(ConfigError, match=r"its arrays would decompress to 66\.0 MiB together; "
                                          r"at most 64\.0 MiB more"):
        NumpyPolicy.load(path)


def test_a_pickle_in_an_npz_is_never_unpickled(tmp_path):
    marker = tmp_path / "ran"
    payload = np.array([Touch(marker)], dtype=object)
    path = write_npz(tmp_path / "pickle.npz", small_meta(layers=1),
                     {"w0": payload, "b0": np.zeros(ACTIONS, np.float32)})
    with pytest.raises(ConfigError, match=r"array 'w0' holds Python objects \(a pickle\)"):
        PolicyAgent("crazy_eights", str(path))
    assert not marker.exists()
    np.load(path, allow_pickle=True)["w0"]  # the payload is live: unpickling runs it
    assert marker.exists()


@pytest.mark.parametrize(("drop", "message"), [
    ("activation", "its metadata lacks activation"),
    ("config", "its metadata lacks config"),
    ("layers", "its metadata lacks layers"),
])
def test_metadata_must_name_what_the_network_needs(tmp_path, drop, message):
    meta = small_meta()
    del meta[drop]
    path = write_npz(tmp_path / "m.npz", meta, layers_of(OBS, 8, ACTIONS))
    with pytest.raises(ConfigError, match=message):
        PolicyAgent("crazy_eights", str(path))


def test_every_layer_the_metadata_names_must_be_there(tmp_path):
    arrays = layers_of(OBS, 8, ACTIONS)
    del arrays["b1"]
    path = write_npz(tmp_path / "m.npz", small_meta(), arrays)
    with pytest.raises(ConfigError, match="says 2 layers but it lacks the arrays b1"):
        PolicyAgent("crazy_eights", str(path))
    path = write_npz(tmp_path / "none.npz", None, layers_of(OBS, 8, ACTIONS))
    with pytest.raises(ConfigError, match="has no array 'metadata'"):
        PolicyAgent("crazy_eights", str(path))


@pytest.mark.parametrize(("layers", "count", "message"), [
    ({"w0": np.ones((OBS, 8)), "b0": np.ones(8), "w1": np.ones((9, ACTIONS)),
      "b1": np.ones(ACTIONS)}, 2, "layer 1 takes 9 inputs but layer 0 gives 8 outputs"),
    ({"w0": np.ones((OBS, ACTIONS)), "b0": np.ones(ACTIONS + 1)}, 1,
     rf"layer 0 has weights \({OBS}, 58\) and biases \(59,\)"),
    ({"w0": np.ones(OBS), "b0": np.ones(ACTIONS)}, 1, rf"layer 0 has weights \({OBS},\)"),
    ({"w0": np.ones((100, ACTIONS)), "b0": np.ones(ACTIONS)}, 1,
     f"first layer takes 100 inputs, but crazy_eights with its config gives {OBS}"),
    ({"w0": np.ones((OBS, 60)), "b0": np.ones(60)}, 1,
     "last layer gives 60 outputs, but crazy_eights has 58 actions"),
    ({"w0": np.ones((OBS, ACTIONS), np.int64), "b0": np.ones(ACTIONS)}, 1,
     "array 'w0' has dtype int64, not a float"),
])
def test_wrong_shapes_are_refused_when_the_agent_is_made(tmp_path, layers, count, message):
    path = write_npz(tmp_path / "shape.npz", small_meta(layers=count), layers)
    with pytest.raises(ConfigError, match=message):
        PolicyAgent("crazy_eights", str(path))


def test_the_observation_size_must_be_the_encoders_for_the_config(tmp_path):
    path = write_npz(tmp_path / "obs.npz", small_meta(layers=1, observation_size=100),
                     layers_of(100, ACTIONS))
    with pytest.raises(ConfigError, match="says it takes 100 observation features, but "
                                          "crazy_eights with its config"):
        PolicyAgent("crazy_eights", str(path))
    meta = small_meta(layers=1)
    meta["config"]["num_players"] = 3  # three players see more: OBS is the 2-player size
    path = write_npz(tmp_path / "config.npz", meta, layers_of(OBS, ACTIONS))
    with pytest.raises(ConfigError, match=rf"takes {OBS} observation features, but crazy_eights "
                                          r"with its config .* gives \d+"):
        PolicyAgent("crazy_eights", str(path))
    meta["config"]["num_players"] = 99
    path = write_npz(tmp_path / "bad_config.npz", meta, layers_of(OBS, ACTIONS))
    with pytest.raises(ConfigError, match="config is not a crazy_eights config"):
        PolicyAgent("crazy_eights", str(path))


def test_the_shipped_policy_agent_checks_its_table_at_check_table(tmp_path):
    """``policy`` alone loads for the table it meets, in check_table, before any move."""
    agent = PolicyAgent("crazy_eights")
    game = make_game("crazy_eights", num_players=2, seed=0)
    agent.check_table(game.config)
    bins = agent._net.count_bins.size if agent._net.count_bins else 0
    assert agent._net.inputs == OBS + bins and agent._net.outputs == ACTIONS


def test_too_many_members_or_a_huge_member_list_is_refused_before_parsing(tmp_path):
    many = tmp_path / "many.npz"
    with zipfile.ZipFile(many, "w") as archive:
        for k in range(MAX_MODEL_MEMBERS + 1):
            archive.writestr(f"x{k}.npy", b"")
    with pytest.raises(ConfigError, match=f"lists {MAX_MODEL_MEMBERS + 1} members"):
        PolicyAgent("crazy_eights", str(many))
    long = tmp_path / "long.npz"
    with zipfile.ZipFile(long, "w") as archive:
        for k in range(MAX_DIRECTORY_BYTES // 30_000 + 1):
            archive.writestr(f"{k}{'x' * 30_000}.npy", b"")
    with pytest.raises(ConfigError, match="list of members takes"):
        PolicyAgent("crazy_eights", str(long))


def test_only_stored_or_deflated_members_are_read(tmp_path):
    path = tmp_path / "bz.npz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_BZIP2) as archive:
        archive.writestr("metadata.npy", npy(np.array(json.dumps(small_meta(layers=1)))))
    with pytest.raises(ConfigError, match="compression method 12; model files are stored or "
                                          "deflated"):
        PolicyAgent("crazy_eights", str(path))


def test_not_a_zip_is_a_clear_error(tmp_path):
    path = tmp_path / "junk.npz"
    path.write_bytes(b"\x93NUMPY not an archive")
    with pytest.raises(ConfigError, match=r"is not an exported eights policy \(.npz\) "
                                          r"\(corrupt or another format"):
        PolicyAgent("crazy_eights", str(path))


def test_a_valid_small_export_loads_and_plays(tmp_path):
    """The checks refuse what is wrong, not what is unusual: one hidden layer of 8 plays."""
    path = write_npz(tmp_path / "ok.npz", small_meta(), layers_of(OBS, 8, ACTIONS))
    agent = PolicyAgent("crazy_eights", str(path))
    game = make_game("crazy_eights", seed=4)
    view = game.view(game.current_player)
    assert agent.act(view) in view.legal_actions


def crazier_model(tmp_path: pathlib.Path, **options) -> pathlib.Path:
    """A small crazier_eights .npz whose metadata's config holds ``options``."""
    from eights.engines import engine_class

    cls = engine_class("crazier_eights")
    size = cls.encoder(cls.Config(num_players=2), 1).size  # (no observation_version: v1)
    meta = {"variant": "crazier_eights", "activation": "tanh", "layers": 2,
            "observation_size": size, "config": {"num_players": 2, **options}}
    return write_npz(tmp_path / "crazier.npz", meta, layers_of(size, 8, len(cls.actions)))


def test_a_model_naming_a_card_file_is_refused_without_opening_it(tmp_path):
    """Loading a model never opens a path named inside it: a FIFO there would hang a
    blocking open, so the card_file is refused before anything could open it."""
    fifo = tmp_path / "cards.fifo"
    os.mkfifo(fifo)
    path = crazier_model(tmp_path, card_file=str(fifo))
    with pytest.raises(ConfigError, match=r"^crazier_eights: model '.*crazier\.npz''s config "
                                          r"names a file \(card_file\), which is never opened"):
        PolicyAgent("crazier_eights", str(path))


def test_a_model_carries_its_card_set_and_plays_it_without_the_file(tmp_path):
    cards = tmp_path / "my_cards.toml"
    text = (MODELS_DIR.parent / "data" / "crazier_eights.toml").read_text(encoding="utf-8")
    cards.write_text(text.replace('name = "Castle"', 'name = "Keep"'), encoding="utf-8")
    config = make_game("crazier_eights", card_file=str(cards), seed=1).config
    path = crazier_model(tmp_path, card_set=config.card_set,
                         card_set_sha256=config.card_set_sha256)
    cards.unlink()
    agent = PolicyAgent("crazier_eights", str(path))
    game = make_game("crazier_eights", card_set=config.card_set, seed=1)
    view = game.view(game.current_player)
    assert agent.act(view) in view.legal_actions


def test_a_model_reads_the_observation_version_its_metadata_names(tmp_path):
    """A v2 model (348 features) plays from the v2 observation; a model that names no
    version read v1 (239 features, as the models shipped before 2026-11-28 do), so the
    same layers without the number are refused as the wrong size, and a version the
    variant lacks is named."""
    v2 = small_meta(observation_size=348, observation_version=2)
    agent = PolicyAgent("crazy_eights", str(write_npz(tmp_path / "v2.npz", v2,
                                                      layers_of(348, 8, ACTIONS))))
    game = make_game("crazy_eights", seed=4)
    view = game.view(game.current_player)
    assert agent.act(view) in view.legal_actions
    assert agent._encoder.size == 348
    unversioned = small_meta(observation_size=348)
    del unversioned["observation_version"]
    with pytest.raises(ConfigError, match=r"says it takes 348 observation features, but "
                                          r"crazy_eights .* gives 239"):
        PolicyAgent("crazy_eights", str(write_npz(tmp_path / "v1.npz", unversioned,
                                                  layers_of(348, 8, ACTIONS))))
    with pytest.raises(ConfigError, match=r"observation version 9 is not one of 1 to 2"):
        PolicyAgent("crazy_eights", str(write_npz(
            tmp_path / "v9.npz", small_meta(observation_version=9), layers_of(OBS, 8, ACTIONS))))
