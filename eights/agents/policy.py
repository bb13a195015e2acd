"""A trained model as an agent: ``"policy:PATH"``.

Specs:

* ``policy`` — the model shipped in the package for the variant and the
  table size it meets (``eights/models/<variant>-<n>p.npz``);
* ``policy:NAME`` — a shipped model by name (``policy:crazy_eights-2p``);
* ``policy:PATH`` — a checkpoint written by ``eights train`` (``.zip``, needs
  the ``train`` extra to load) or a policy exported from one (``.npz``, needs
  only numpy; ``eights export``);
* a ``?sample`` suffix samples from the policy's distribution instead of
  playing its most likely legal action.

The agent encodes the seat's view with the variant env's own encoder, so it
sees exactly what the learner saw in training, and masks illegal actions.

The network is read once out of the file and evaluated in numpy: a decision
costs about 20 µs that way, encoding included, against over a millisecond
through ``model.predict`` (measured for the shipped 2-player crazy_eights
model), which matters in tournaments and for self-play opponents. Shipped
models are exported ``.npz`` files, so playing them needs neither torch nor
stable-baselines3. A model made for another variant or table size is
refused with an error that says so.

Model files are read as data, never as code (see "What is safe to load" in
docs/agents.md): nothing in them is unpickled, and :class:`ModelZip` bounds
what a file can make us decompress to :data:`MAX_MODEL_BYTES`. A file that is
malformed, too large, or does not fit the variant is refused when the agent
is made (or, for ``policy`` alone, when it meets its table), not mid-game.
"""

from __future__ import annotations

import io
import json
import math
import os
import struct
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..config import ConfigError, GameConfig, options_text
from ..engines.base import PlayerView
from .base import Agent
from .count_bins import CountBins, reads_count_bins

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
SAMPLE_SUFFIX = "?sample"

#: the most a model file may make us decompress, in bytes: every member read
#: and all of them together (64 MiB; a shipped model is under 1 MB)
MAX_MODEL_BYTES = 64 * 2**20
#: the most members a model zip may list (an export has two per layer and its
#: metadata, a checkpoint seven)
MAX_MODEL_MEMBERS = 256
#: the most bytes a model zip's central directory (its list of members) may take
MAX_DIRECTORY_BYTES = 2**20
#: the most layers a policy network may have
MAX_LAYERS = 64
#: how a member may be compressed (what numpy and stable-baselines3 write); the
#: others (bzip2, lzma) decompress in steps we cannot bound
ALLOWED_COMPRESSION = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}

# a zip's end of central directory record, and zip64's end record and its locator
_END_RECORD = struct.Struct("<4s4H2LH")
_END_SIGNATURE = b"PK\x05\x06"
_ZIP64_END = struct.Struct("<4sQ2H2L4Q")
_ZIP64_END_SIGNATURE = b"PK\x06\x06"
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_LOCATOR_SIGNATURE = b"PK\x06\x07"


def shipped_models() -> list[str]:
    """Names of the models shipped inside the package."""
    return sorted({p.stem for suffix in ("npz", "zip") for p in MODELS_DIR.glob(f"*.{suffix}")})


def resolve_model(arg: str, variant: str, num_players: int) -> Path:
    """The model file a ``policy`` spec argument names (the shipped one for the table if empty)."""
    names = ", ".join(shipped_models()) or "none"
    if not arg:
        arg = f"{variant}-{num_players}p"
        for suffix in (".npz", ".zip"):
            if (MODELS_DIR / f"{arg}{suffix}").is_file():
                return MODELS_DIR / f"{arg}{suffix}"
        raise ConfigError(
            f"'policy' has no shipped model for {num_players}-player {variant}; shipped "
            f"models: {names}. Train one with `eights train --variant {variant} --players "
            f"{num_players}` and play it as policy:PATH, or use another agent "
            f"(random, greedy, heuristic, ismcts)")
    path = Path(arg).expanduser()
    if path.is_file():
        return path
    for suffix in (".npz", ".zip"):
        shipped = MODELS_DIR / f"{arg}{suffix}"
        if shipped.is_file():
            return shipped
    raise ConfigError(f"policy model {arg!r} is neither a file nor a shipped model; "
                      f"shipped models: {names}")


def _mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


class ModelZip:
    """A model file's zip archive, read without trusting it.

    Before :mod:`zipfile` parses the archive, its end record is checked, so the
    member list it parses is small (:data:`MAX_DIRECTORY_BYTES`,
    :data:`MAX_MODEL_MEMBERS`). Each member is read only if the size it
    declares fits the budget: every member at most ``limit`` bytes and all the
    members read together at most ``budget`` (both :data:`MAX_MODEL_BYTES` unless
    given), and reading never decompresses more than that declared size, so a
    zip bomb is refused before it costs memory. ``source`` is a path or the
    bytes of a zip held in memory (a member of another zip); ``name`` is what
    errors call it; ``kind`` what the file should have been ("a model zip").
    """

    def __init__(self, source: str | os.PathLike | bytes, name: str = "",
                 kind: str = "a model zip", budget: int = MAX_MODEL_BYTES):
        self.name = name or repr(str(source))
        self.remaining = budget
        if isinstance(source, bytes):
            handle: Any = io.BytesIO(source)
        else:
            path = Path(source)
            if not path.is_file():
                raise ConfigError(f"model file {str(path)!r} does not exist")
            handle = open(path, "rb")  # noqa: SIM115 - closed by close()
        try:
            self._check_end_record(handle)
            self.archive = zipfile.ZipFile(handle)
        except zipfile.BadZipFile as err:
            handle.close()
            raise ConfigError(f"{self.name} is not {kind} (corrupt or another format: "
                              f"{err})") from None
        except BaseException:
            handle.close()
            raise
        self._handle = handle
        if len(self.archive.infolist()) > MAX_MODEL_MEMBERS:
            self.close()
            raise ConfigError(f"{self.name} lists more than {MAX_MODEL_MEMBERS} members; a "
                              f"model file has a few")

    def _check_end_record(self, handle: Any) -> None:
        """Refuse a zip whose member list is too long to parse, before zipfile parses it.

        This finds the end record as :mod:`zipfile` does (the last 22 bytes, else
        the last signature in the final 64 kB), and a zip64 end record (which
        torch writes) both where :mod:`zipfile` looks for it and where its
        locator points, and bounds the member count and list size of each.
        """
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        span = min(size, _END_RECORD.size + 0xFFFF)
        handle.seek(size - span)
        tail = handle.read(span)
        at = len(tail) - _END_RECORD.size
        if not (at >= 0 and tail[at:at + 4] == _END_SIGNATURE and tail[-2:] == b"\0\0"):
            at = tail.rfind(_END_SIGNATURE)
            if at < 0 or len(tail) - at < _END_RECORD.size:
                raise zipfile.BadZipFile("no end of central directory record")
        end = size - span + at  # where the end record starts in the file
        fields = _END_RECORD.unpack_from(tail, at)
        claims = [(fields[4], fields[5])]  # (members, list size)
        if end >= _ZIP64_LOCATOR.size:
            handle.seek(end - _ZIP64_LOCATOR.size)
            signature, _, offset, _ = _ZIP64_LOCATOR.unpack(handle.read(_ZIP64_LOCATOR.size))
            if signature == _ZIP64_LOCATOR_SIGNATURE:
                for start in (end - _ZIP64_LOCATOR.size - _ZIP64_END.size, offset):
                    handle.seek(max(start, 0))
                    record = handle.read(_ZIP64_END.size)
                    if len(record) == _ZIP64_END.size and record[:4] == _ZIP64_END_SIGNATURE:
                        fields = _ZIP64_END.unpack(record)
                        claims.append((fields[7], fields[8]))
        for members, directory in claims:
            if members > MAX_MODEL_MEMBERS:
                raise ConfigError(f"{self.name} lists {members} members; a model file has at "
                                  f"most {MAX_MODEL_MEMBERS}")
            if directory > MAX_DIRECTORY_BYTES:
                raise ConfigError(f"{self.name}'s list of members takes {_mib(directory)}; a "
                                  f"model file's takes at most {_mib(MAX_DIRECTORY_BYTES)}")

    def __enter__(self) -> ModelZip:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.archive.close()
        self._handle.close()

    def has(self, member: str) -> bool:
        return member in self.archive.NameToInfo

    def declared_total(self) -> int:
        """The uncompressed size all members declare together."""
        return sum(info.file_size for info in self.archive.infolist())

    def check_all(self, limit: int = MAX_MODEL_BYTES) -> None:
        """Refuse the archive unless every member could be read within ``limit`` in all."""
        for info in self.archive.infolist():
            self._info(info.filename, limit)
        if self.declared_total() > limit:
            raise ConfigError(f"{self.name}'s members hold {_mib(self.declared_total())} "
                              f"uncompressed; at most {_mib(limit)} is read from a model "
                              f"file (MAX_MODEL_BYTES)")

    def reserve(self, members: list[str], what: str) -> None:
        """Refuse now unless ``members`` (all present) fit the budget together."""
        total = sum(self._info(member, self.remaining).file_size for member in members)
        if total > self.remaining:
            raise ConfigError(
                f"{self.name}: {what} would decompress to {_mib(total)} together; at most "
                f"{_mib(self.remaining)} more may be read from a model file (MAX_MODEL_BYTES "
                f"is {_mib(MAX_MODEL_BYTES)}), so they are not read")

    def _info(self, member: str, limit: int) -> zipfile.ZipInfo:
        try:
            info = self.archive.getinfo(member)
        except KeyError:
            raise ConfigError(f"{self.name} has no member {member!r}") from None
        if info.compress_type not in ALLOWED_COMPRESSION:
            raise ConfigError(
                f"{self.name}: member {member!r} uses compression method "
                f"{info.compress_type}; model files are "
                f"{' or '.join(ALLOWED_COMPRESSION.values())}")
        if info.flag_bits & 0x1:
            raise ConfigError(f"{self.name}: member {member!r} is encrypted")
        if info.file_size > min(limit, self.remaining):
            allowed = min(limit, self.remaining)
            raise ConfigError(
                f"{self.name}: member {member!r} would decompress to {_mib(info.file_size)}; "
                f"at most {_mib(allowed)} more may be read from a model file "
                f"(MAX_MODEL_BYTES is {_mib(MAX_MODEL_BYTES)}), so it is not read")
        return info

    def read(self, member: str, limit: int = MAX_MODEL_BYTES) -> bytes:
        """A member's bytes, if its declared size fits; never more than that size."""
        info = self._info(member, limit)
        try:
            with self.archive.open(info) as stream:
                data = stream.read(info.file_size)  # zipfile stops at the declared size
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as err:
            raise ConfigError(f"{self.name}: member {member!r} is unreadable ({err})") from None
        if len(data) != info.file_size:
            raise ConfigError(f"{self.name}: member {member!r} is truncated")
        self.remaining -= len(data)
        return data

    def read_array(self, key: str, kinds: str, limit: int = MAX_MODEL_BYTES) -> np.ndarray:
        """The array ``key`` of an ``.npz``, of a dtype kind in ``kinds`` (``"f"``, ``"U"``).

        The ``.npy`` header is read first: an array that would hold Python objects
        (a pickle) is refused, and so is one whose header declares more data than
        the member holds, so nothing is allocated from a header's word alone.
        """
        member = f"{key}.npy"
        if not self.has(member):
            raise ConfigError(f"{self.name} has no array {key!r}")
        info = self._info(member, limit)
        fmt = np.lib.format
        try:
            with self.archive.open(info) as stream:
                version = fmt.read_magic(stream)
                if version == (1, 0):
                    shape, _, dtype = fmt.read_array_header_1_0(stream)
                elif version == (2, 0):
                    shape, _, dtype = fmt.read_array_header_2_0(stream)
                else:
                    raise ValueError(f"unsupported .npy format version {version}")
                header = stream.tell()
                if dtype.hasobject:
                    raise ConfigError(
                        f"{self.name}: array {key!r} holds Python objects (a pickle); "
                        f"model arrays hold numbers and are read without unpickling")
                if dtype.kind not in kinds or dtype.fields is not None:
                    raise ConfigError(f"{self.name}: array {key!r} has dtype {dtype}, not "
                                      f"{'a float' if kinds == 'f' else 'a string'}")
                if any(n < 0 for n in shape):
                    raise ValueError(f"negative shape {shape}")
                declared = math.prod(shape) * dtype.itemsize
                if header + declared != info.file_size:
                    raise ConfigError(
                        f"{self.name}: array {key!r} declares shape {shape} ({declared} "
                        f"bytes) but its member holds {info.file_size - header}")
                stream.seek(0)
                array = fmt.read_array(stream, allow_pickle=False)
        except ConfigError:
            raise
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, TypeError,
                SyntaxError) as err:
            raise ConfigError(f"{self.name}: array {key!r} is unreadable ({err})") from None
        self.remaining -= info.file_size
        return array


def parse_json(data: bytes, name: str) -> dict[str, Any]:
    """A JSON object from a model file, or a clear error."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError) as err:
        raise ConfigError(f"{name} is not valid JSON ({err})") from None
    if not isinstance(value, dict):
        raise ConfigError(f"{name} is not a JSON object")
    return value


class NumpyPolicy:
    """The action logits of a stable-baselines3 MLP policy, evaluated in numpy.

    It is made from a loaded policy (:meth:`from_sb3`), from the tensors of a
    checkpoint's ``policy.pth`` (:func:`eights.training.checkpoints.read_policy`) or
    from an exported ``.npz`` (:meth:`load`), which needs neither torch nor
    stable-baselines3. Each layer is ``(weight, bias)`` with the weight shaped
    ``(inputs, outputs)``; each layer's inputs must be the previous one's outputs.
    With :attr:`count_bins` (bound by :func:`check_model` for a model whose metadata
    says so) :meth:`logits` appends the bins to the observation before the first layer.
    """

    ACTIVATIONS = ("tanh", "relu")

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str):
        if activation not in self.ACTIVATIONS:
            raise ConfigError(f"activation {activation!r} is not supported; PolicyAgent plays "
                              f"MLP policies with {' or '.join(self.ACTIVATIONS)}")
        if not 1 <= len(layers) <= MAX_LAYERS:
            raise ConfigError(f"a policy has 1 to {MAX_LAYERS} layers, not {len(layers)}")
        for k, (w, b) in enumerate(layers):
            if w.ndim != 2 or b.ndim != 1 or b.shape[0] != w.shape[1]:
                raise ConfigError(f"layer {k} has weights {w.shape} and biases {b.shape}; a "
                                  f"layer is (inputs, outputs) weights and (outputs,) biases")
            if k and w.shape[0] != layers[k - 1][0].shape[1]:
                raise ConfigError(f"layer {k} takes {w.shape[0]} inputs but layer {k - 1} "
                                  f"gives {layers[k - 1][0].shape[1]} outputs")
            if w.size == 0:
                raise ConfigError(f"layer {k} has no weights (shape {w.shape})")
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.activation = activation
        #: the count bins the first layer reads after the observation (None: none)
        self.count_bins: CountBins | None = None

    @property
    def inputs(self) -> int:
        return self.layers[0][0].shape[0]

    @property
    def outputs(self) -> int:
        return self.layers[-1][0].shape[1]

    @classmethod
    def from_sb3(cls, policy: Any) -> NumpyPolicy:
        import torch.nn as nn

        layers, activations = [], set()
        for module in [*policy.mlp_extractor.policy_net, policy.action_net]:
            if isinstance(module, nn.Linear):
                layers.append((module.weight.detach().cpu().numpy().T.copy(),
                               module.bias.detach().cpu().numpy().copy()))
            else:  # by the torch module it is (a FastTanh is an nn.Tanh)
                known = [name for name, kind in (("tanh", nn.Tanh), ("relu", nn.ReLU))
                         if isinstance(module, kind)]
                activations.add(known[0] if known else type(module).__name__.lower())
        if len(activations) > 1:
            raise ConfigError(f"policy mixes activations {sorted(activations)}; PolicyAgent "
                              f"plays MLPs with one activation")
        return cls(layers, activations.pop() if activations else "tanh")

    @classmethod
    def averaged(cls, nets: list[NumpyPolicy]) -> NumpyPolicy:
        """One MLP whose logits are the mean of ``nets``' logits: an ensemble in one file.

        Independently trained policies err in different places, and averaging
        their logits plays about a point better than any one of them
        (docs/agents.md, "Ensembles"). Written as one network, the ensemble
        plays wherever a policy plays, with no new file format: the members'
        first layers side by side, their hidden layers block-diagonal (no unit
        reads another member's), their last layers' outputs summed and divided
        by their number. A forward pass costs what the members' cost together.
        """
        if len(nets) < 2:
            raise ConfigError("an ensemble averages two or more policies")
        first = nets[0]
        for k, net in enumerate(nets[1:], 1):
            shape = [w.shape for w, _ in net.layers]
            if (net.activation != first.activation or len(net.layers) != len(first.layers)
                    or net.inputs != first.inputs or net.outputs != first.outputs):
                raise ConfigError(
                    f"policy {k} of the ensemble ({len(net.layers)} layers {shape}, "
                    f"{net.activation}) does not fit policy 0 ({len(first.layers)} layers "
                    f"{[w.shape for w, _ in first.layers]}, {first.activation}): members "
                    f"need the same inputs, outputs, depth and activation")
            if net.count_bins != first.count_bins:
                raise ConfigError(f"policy {k} of the ensemble reads "
                                  f"{'count bins' if net.count_bins else 'no count bins'}, "
                                  f"policy 0 {'count bins' if first.count_bins else 'none'}; "
                                  f"members read the same inputs")
        last = len(first.layers) - 1
        layers = []
        for k in range(last + 1):
            weights = [net.layers[k][0] for net in nets]
            biases = [net.layers[k][1] for net in nets]
            if k == last:
                rows = np.concatenate(weights, axis=0) if k else np.sum(weights, axis=0)
                layers.append((rows / len(nets), np.mean(biases, axis=0)))
            elif k == 0:
                layers.append((np.concatenate(weights, axis=1), np.concatenate(biases)))
            else:
                block = np.zeros((sum(w.shape[0] for w in weights),
                                  sum(w.shape[1] for w in weights)), np.float32)
                row = col = 0
                for w in weights:
                    block[row:row + w.shape[0], col:col + w.shape[1]] = w
                    row, col = row + w.shape[0], col + w.shape[1]
                layers.append((block, np.concatenate(biases)))
        ensemble = cls(layers, first.activation)
        ensemble.count_bins = first.count_bins
        return ensemble

    def with_count_bins(self, bins: CountBins) -> NumpyPolicy:
        """This policy reading ``bins`` after its observation, with zero weights from them:
        it plays as before, and a run that starts from it can learn to use them."""
        if self.count_bins is not None:
            raise ConfigError("the policy reads count bins already")
        (w0, b0), rest = self.layers[0], self.layers[1:]
        if w0.shape[0] != bins.observation_size:
            raise ConfigError(f"the policy takes {w0.shape[0]} inputs, the bins read "
                              f"observations of {bins.observation_size}")
        padded = np.concatenate([w0, np.zeros((bins.size, w0.shape[1]), np.float32)])
        net = NumpyPolicy([(padded, b0), *rest], self.activation)
        net.count_bins = bins
        return net

    def save(self, path: str | Path, metadata: dict[str, Any]) -> Path:
        """Write the weights and ``metadata`` as one ``.npz`` (a few hundred kB)."""
        arrays: dict[str, np.ndarray] = {}
        for k, (w, b) in enumerate(self.layers):
            arrays[f"w{k}"], arrays[f"b{k}"] = w, b
        meta = dict(metadata, activation=self.activation, layers=len(self.layers))
        path = Path(path)
        with open(path, "wb") as handle:  # a handle: numpy would append .npz to the name
            np.savez_compressed(handle, metadata=np.array(json.dumps(meta, sort_keys=True)),
                                **arrays)
        return path

    #: what an exported policy's metadata must hold
    NPZ_KEYS = ("activation", "config", "layers", "observation_size", "variant")

    @classmethod
    def load(cls, path: str | Path) -> tuple[NumpyPolicy, dict[str, Any]]:
        """An exported policy and its metadata, read without unpickling anything.

        The file's arrays must be ``metadata`` (the JSON text) and ``w{k}``/``b{k}``
        for each of its ``layers``, within :data:`MAX_MODEL_BYTES`.
        """
        name = repr(str(path))
        kind = "an exported eights policy (.npz)"
        with ModelZip(path, name, kind) as archive:
            text = archive.read_array("metadata", "U")
            if text.shape != ():
                raise ConfigError(f"{name}: 'metadata' is not one string")
            meta = parse_json(str(text).encode(), f"{name}'s metadata")
            missing = [key for key in cls.NPZ_KEYS if key not in meta]
            if missing:
                raise ConfigError(f"{name} is not {kind}: its metadata lacks "
                                  f"{', '.join(missing)}")
            count = meta["layers"]
            if type(count) is not int or not 1 <= count <= MAX_LAYERS:
                raise ConfigError(f"{name}: metadata 'layers' is {count!r}; give 1 to "
                                  f"{MAX_LAYERS}")
            keys = [f"{p}{k}" for k in range(count) for p in "wb"]
            absent = [key for key in keys if not archive.has(f"{key}.npy")]
            if absent:
                raise ConfigError(f"{name} is not {kind}: its metadata says {count} layers "
                                  f"but it lacks the arrays {', '.join(absent)}")
            archive.reserve([f"{key}.npy" for key in keys], "its arrays")
            layers = [(archive.read_array(f"w{k}", "f"), archive.read_array(f"b{k}", "f"))
                      for k in range(count)]
        try:
            return cls(layers, meta["activation"]), meta
        except ConfigError as err:
            raise ConfigError(f"{name}: {err}") from None

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """The action logits of one observation or of rows of them."""
        x = obs if self.count_bins is None else self.count_bins.apply(obs)
        last = len(self.layers) - 1
        for k, (weight, bias) in enumerate(self.layers):
            x = x @ weight + bias
            if k < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        return x


def observation_version(meta: dict[str, Any], name: str = "the model") -> int:
    """The env version whose observation a model reads, from its metadata: a model from
    before the v2 envs says none and read the v1 layout."""
    version = meta.get("observation_version", 1)
    if type(version) is not int or version < 1:
        raise ConfigError(f"model {name}'s metadata 'observation_version' is {version!r}; "
                          f"give an env version from 1")
    return version


def check_model(net: NumpyPolicy, meta: dict[str, Any], variant: str, path: Any) -> GameConfig:
    """Refuse a network that does not fit ``variant`` with the config its metadata names.

    Returns that config. The first layer must take the variant encoder's
    observation size for the config, and the last must give the variant's
    action count, so a wrong file fails when it is loaded, not mid-game.
    """
    from ..engines import engine_class

    name = repr(str(path))
    if meta.get("variant") != variant:
        raise ConfigError(f"model {name} was trained for {meta.get('variant')!r}, "
                          f"not {variant!r}")
    cls = engine_class(variant)
    options = meta.get("config")
    if not isinstance(options, dict):
        raise ConfigError(f"model {name}'s metadata has no game config")
    cls.Config.refuse_files(options, f"model {name}'s config")  # loading opens no path in it
    try:
        config = cls.Config.from_options(**options)
    except (ConfigError, TypeError) as err:
        raise ConfigError(f"model {name}'s config is not a {variant} config ({err})") from None
    version = observation_version(meta, name)
    try:
        size = cls.encoder(config, version).size
    except ConfigError as err:
        raise ConfigError(f"model {name}: {err}") from None
    declared = meta.get("observation_size")
    if declared != size:
        raise ConfigError(f"model {name} says it takes {declared!r} observation features, but "
                          f"{variant} with its config {options_text(options)} gives {size}")
    bins = CountBins.for_variant(variant, config, version) if reads_count_bins(meta, name) else None
    inputs = size + (bins.size if bins is not None else 0)
    if net.inputs != inputs:
        also = f" and {bins.size} count bins" if bins is not None else ""
        raise ConfigError(f"model {name}'s first layer takes {net.inputs} inputs, but {variant} "
                          f"with its config gives {size} observation features{also}")
    net.count_bins = bins
    actions = len(cls.actions)
    if net.outputs != actions:
        raise ConfigError(f"model {name}'s last layer gives {net.outputs} outputs, but "
                          f"{variant} has {actions} actions")
    return config


class PolicyAgent(Agent):
    """Plays a trained checkpoint; see the module docstring."""

    def __init__(self, variant: str, arg: str = "", seed: int | None = None):
        super().__init__(seed)
        self.variant = variant
        self.sample = arg.endswith(SAMPLE_SUFFIX)
        self.model_arg = arg[: -len(SAMPLE_SUFFIX)] if self.sample else arg
        self.name = f"policy:{arg}" if arg else "policy"
        self._loaded_for: int | None = None
        self._net: NumpyPolicy | None = None
        self.metadata: dict[str, Any] = {}
        self._encoder: Any = None
        self._encoder_config: Any = None
        if self.model_arg:  # an explicit model loads (and fails) now, not mid-game
            self._load(resolve_model(self.model_arg, variant, 0))

    def _load(self, path: Path) -> None:
        if path.suffix == ".npz":
            net, meta = NumpyPolicy.load(path)
        else:
            from ..training.checkpoints import read_policy

            net, meta = read_policy(path)
        config = check_model(net, meta, self.variant, path)
        self.metadata = meta
        self.path = path
        self._net = net
        self._loaded_for = config.num_players

    def check_table(self, config: GameConfig) -> None:
        """Load the model for this table now and refuse a table it was not trained for."""
        n = config.num_players
        if self._net is None:
            self._load(resolve_model(self.model_arg, self.variant, n))
        if n != self._loaded_for:
            raise ConfigError(f"model {str(self.path)!r} plays {self._loaded_for}-player "
                              f"{self.variant}, not {n} players")
        if config is not self._encoder_config:
            from ..engines import engine_class

            encoder = engine_class(self.variant).encoder(
                config, observation_version(self.metadata))
            if encoder.size != self.metadata["observation_size"]:
                raise ConfigError(
                    f"model {str(self.path)!r} expects {self.metadata['observation_size']} "
                    f"observation features, this game's encoder gives {encoder.size}; the "
                    f"model was trained with config {options_text(self.metadata['config'])}")
            if self._net.count_bins is not None:  # read back at this table's scales (a
                # two-deck model at a one-deck table counts one copy a card, not two)
                self._net.count_bins = CountBins.for_variant(
                    self.variant, config, observation_version(self.metadata))
            self._encoder, self._encoder_config = encoder, config

    def _ready(self, view: PlayerView) -> None:
        """The model and encoder for the view's table (checked once per config)."""
        if view.config is not self._encoder_config:
            self.check_table(view.config)

    def action_probabilities(self, view: PlayerView) -> np.ndarray:
        """The policy's distribution over all actions, zero on illegal ones."""
        self._ready(view)
        logits = self._net.logits(self._encoder.encode_view(view)).astype(np.float64)
        legal = list(view.legal_actions)
        probs = np.zeros_like(logits)
        z = logits[legal] - logits[legal].max()
        e = np.exp(z)
        probs[legal] = e / e.sum()
        return probs

    def act(self, view: PlayerView) -> int:
        self._ready(view)  # first, so a wrong table fails at once, not at the first choice
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        return self._pick(view, self._net.logits(self._encoder.encode_view(view)))

    def _pick(self, view: PlayerView, logits: np.ndarray) -> int:
        """The action for ``view`` given the network's ``logits`` for it: the most likely
        legal one, or with ``?sample`` one drawn from the legal actions' softmax."""
        legal = view.legal_actions
        if not self.sample:
            return max(legal, key=lambda a: logits[a])
        chosen = logits.astype(np.float64)[list(legal)]
        e = np.exp(chosen - chosen.max())
        probs = e / e.sum()
        r, acc = self.rng.random(), 0.0
        for a, p in zip(legal, probs, strict=True):
            acc += p
            if r < acc:
                return a
        return legal[-1]


def act_together(turns: list[tuple[Agent, PlayerView]]) -> list[int]:
    """Each agent's action for its view, policies answering in batches: the policy agents
    that play the same model file share one forward pass over all their views (what the
    trainer's opponents do, :mod:`eights.training.batched`); every other agent acts alone.

    Each agent still picks with its own random generator, in the order given, so the
    actions are those each would take alone (up to the last bits of the batched matrix
    product).
    """
    actions: list[int | None] = [None] * len(turns)
    groups: dict[tuple[str, int], list[int]] = {}
    for k, (agent, view) in enumerate(turns):
        if isinstance(agent, PolicyAgent) and len(view.legal_actions) > 1:
            agent._ready(view)
            groups.setdefault((str(agent.path), agent._encoder.size), []).append(k)
        else:
            actions[k] = agent.act(view)
    for members in groups.values():
        first = turns[members[0]][0]
        obs = np.stack([turns[k][0]._encoder.encode_view(turns[k][1]) for k in members])
        logits = first._net.logits(obs)
        for row, k in enumerate(members):
            agent, view = turns[k]
            actions[k] = agent._pick(view, logits[row])
    return actions  # type: ignore[return-value]


__all__ = ["MAX_MODEL_BYTES", "MODELS_DIR", "ModelZip", "NumpyPolicy", "PolicyAgent",
           "act_together", "check_model", "resolve_model", "shipped_models"]
