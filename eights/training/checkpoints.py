"""Checkpoints: stable-baselines3 zips that carry what game they play, written atomically.

A checkpoint is the zip ``MaskablePPO.save`` writes (policy, optimizer and
hyperparameters, so training can resume from it) plus one extra member,
``eights.json``: the variant, its config, the observation size, the
timesteps trained, and (format 2 on) the network: ``net_arch``,
``activation`` and the action count ``actions``.

Reading a checkpoint never unpickles anything from it. stable-baselines3's
own loader (``MaskablePPO.load``) unpickles the zip's ``data`` member, and a
pickle can run any code, so it is not used: play and export read
``eights.json`` as JSON and the weights in ``policy.pth`` with
``torch.load(weights_only=True)``, which accepts tensors and plain containers
and refuses everything else; resuming training also reads the optimizer state
in ``policy.optimizer.pth`` that way, into a model rebuilt from the run's
settings. ``data`` is never read. What is read is bounded as for exported
policies (:class:`~eights.agents.policy.ModelZip`): ``eights.json``,
``policy.pth`` and the records of torch's own zip inside it come to at most
:data:`~eights.agents.policy.MAX_MODEL_BYTES` together; resuming reads the
optimizer state as well, at most :data:`MAX_OPTIMIZER_BYTES` more.

Writes go to a temporary file in the same directory, are flushed to disk and
then renamed over the target, so a crash mid-write leaves the previous
checkpoint intact, never a truncated zip.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import re
import zipfile
from pathlib import Path
from typing import Any

from ..agents.policy import (
    MAX_MODEL_BYTES,
    MODELS_DIR,
    ModelZip,
    NumpyPolicy,
    check_model,
    parse_json,
)
from ..config import ConfigError

METADATA_MEMBER = "eights.json"
POLICY_MEMBER = "policy.pth"
OPTIMIZER_MEMBER = "policy.optimizer.pth"
#: 2 added the network (net_arch, activation, actions) to eights.json
FORMAT_VERSION = 2
#: the most eights.json may take
MAX_METADATA_BYTES = 2**20
#: the most the optimizer state may take when training resumes (Adam keeps two
#: numbers per weight, and policy.pth may take MAX_MODEL_BYTES)
MAX_OPTIMIZER_BYTES = 2 * MAX_MODEL_BYTES
#: torch.nn activation modules by the names eights.json uses
ACTIVATION_MODULES = {"tanh": "Tanh", "relu": "ReLU"}
#: the prefixes of the tensors in a policy.pth eights plays: the MLP and its heads
POLICY_PREFIX = "mlp_extractor.policy_net."
VALUE_PREFIX = "mlp_extractor.value_net."
KNOWN_PREFIXES = (POLICY_PREFIX, VALUE_PREFIX, "action_net.", "value_net.")


def network_metadata(model: Any) -> dict[str, Any]:
    """What eights.json says about ``model``'s network, so it can be read without pickles."""
    policy = model.policy
    arch = policy.net_arch
    arch = ({key: list(value) for key, value in arch.items()} if isinstance(arch, dict)
            else list(arch))
    inputs = int(model.observation_space.shape[0])
    bins = int(getattr(policy, "count_bins", 0))  # set by the trainer: the inputs after the
    # observation that are count bins (eights.agents.count_bins), not observation features
    seen = int(getattr(policy, "observation_size", inputs - bins))  # a privileged critic reads more
    network = {"net_arch": arch, "activation": policy.activation_fn.__name__.lower(),
               "observation_size": seen, "actions": int(model.action_space.n)}
    if bins:
        network["count_bins"] = True
    if seen + bins != inputs:
        network["privileged_features"] = inputs - seen - bins
    return network


def save_checkpoint(model: Any, path: str | os.PathLike, metadata: dict[str, Any]) -> Path:
    """Save ``model`` with ``metadata`` (and its network's shape) at ``path``, atomically."""
    final = Path(path)
    if final.suffix != ".zip":
        raise ConfigError(f"checkpoint path {str(final)!r} must end in .zip")
    network = network_metadata(model)
    clashes = [key for key in network if key in metadata and metadata[key] != network[key]]
    if clashes:
        raise ConfigError(f"checkpoint metadata {', '.join(clashes)} do not match the model's "
                          f"network ({', '.join(f'{k}={network[k]!r}' for k in clashes)})")
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.with_name(f".{final.stem}.{os.getpid()}.tmp.zip")
    try:
        model.save(tmp)
        with zipfile.ZipFile(tmp, "a") as archive:
            archive.writestr(METADATA_MEMBER, json.dumps(
                {"format": FORMAT_VERSION, **metadata, **network}, indent=2, sort_keys=True))
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)
    return final


def _open(path: str | os.PathLike, budget: int = MAX_MODEL_BYTES) -> ModelZip:
    return ModelZip(path, repr(str(path)), "a model zip", budget)


def _metadata_of(archive: ModelZip) -> dict[str, Any]:
    if not archive.has(METADATA_MEMBER):
        raise ConfigError(f"{archive.name} is not an eights checkpoint (it has no "
                          f"{METADATA_MEMBER}); train one with `eights train`")
    return parse_json(archive.read(METADATA_MEMBER, MAX_METADATA_BYTES),
                      f"{archive.name}'s {METADATA_MEMBER}")


def read_metadata(path: str | os.PathLike) -> dict[str, Any]:
    """The ``eights.json`` of a checkpoint; a clear error for anything else."""
    with _open(path) as archive:
        return _metadata_of(archive)


def _read_tensors(archive: ModelZip, member: str, limit: int = MAX_MODEL_BYTES) -> dict:
    """A ``torch.save``d dict of tensors, loaded with ``weights_only=True`` within ``limit``."""
    raw = archive.read(member, limit)
    where = f"{archive.name}: {member}"
    # torch's own zip inside the member: what its records decompress to counts against the
    # same budget, and torch's legacy (non-zip) format, whose pickle declares the storage
    # sizes, is refused
    room = min(limit, archive.remaining)
    with ModelZip(raw, where, "a torch zip file (torch.save's format)", room) as inner:
        inner.check_all(room)
        archive.remaining -= inner.declared_total()
    import torch

    try:
        loaded = torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as err:
        found = re.search(r"WeightsUnpickler error: ([^\n]*?\.)(?:\s|$)", str(err))
        raise ConfigError(
            f"{where} holds Python objects, not only tensors: eights reads weights with "
            f"torch.load(weights_only=True) and never unpickles anything else, since a "
            f"pickle can run code ({found.group(1) if found else 'refused by torch'})"
        ) from None
    except Exception as err:  # a hostile file can make torch fail in any way
        raise ConfigError(f"{where} is unreadable ({type(err).__name__}: "
                          f"{str(err).splitlines()[0] if str(err) else ''})") from None
    if not isinstance(loaded, dict):
        raise ConfigError(f"{where} holds a {type(loaded).__name__}, not a state dict")
    return loaded


def _hidden_layers(state: dict, prefix: str, where: str) -> list[int]:
    """The indices of the Linear layers under ``prefix`` (a Sequential), in order."""
    indices = set()
    for key in state:
        if isinstance(key, str) and key.startswith(prefix):
            index, _, param = key[len(prefix):].partition(".")
            if not index.isdigit() or param not in ("weight", "bias"):
                raise ConfigError(f"{where} has a tensor {key!r}; an MLP's layers are "
                                  f"{prefix}<index>.weight and .bias")
            indices.add(int(index))
    return sorted(indices)


def _tensor(state: dict, key: str, where: str) -> Any:
    import torch

    value = state.get(key)
    if not isinstance(value, torch.Tensor):
        raise ConfigError(f"{where} lacks the tensor {key!r}" if value is None else
                          f"{where}: {key!r} is a {type(value).__name__}, not a tensor")
    if value.layout != torch.strided or not value.is_floating_point():
        raise ConfigError(f"{where}: {key!r} has dtype {value.dtype} and layout "
                          f"{value.layout}, not a dense float tensor")
    try:
        return value.detach().to(torch.float32).numpy()
    except (RuntimeError, TypeError) as err:
        raise ConfigError(f"{where}: {key!r} is unreadable ({err})") from None


def _policy_layers(state: dict, where: str) -> list[tuple[Any, Any]]:
    """The policy network's (weight (in, out), bias) layers, the action head last."""
    strange = [key for key in state
               if not isinstance(key, str) or not key.startswith(KNOWN_PREFIXES)]
    if strange:
        raise ConfigError(f"{where} holds tensors eights does not play ({strange[:3]}); "
                          f"PolicyAgent plays the MLP policies `eights train` writes")
    names = [f"{POLICY_PREFIX}{i}" for i in _hidden_layers(state, POLICY_PREFIX, where)]
    _hidden_layers(state, VALUE_PREFIX, where)
    layers = []
    for name in [*names, "action_net"]:
        weight, bias = _tensor(state, f"{name}.weight", where), _tensor(state, f"{name}.bias",
                                                                        where)
        layers.append((weight.T.copy() if weight.ndim == 2 else weight, bias))
    return layers


def _activation(meta: dict[str, Any], where: str) -> str:
    if "activation" in meta:
        return meta["activation"]
    if isinstance(meta.get("training"), dict):
        return "tanh"  # eights train never sets one: stable-baselines3's default, Tanh
    raise ConfigError(
        f"{where} does not say which activation its network uses: its {METADATA_MEMBER} has "
        f"neither 'activation' nor the settings of `eights train`, and the weights alone do "
        f"not tell. Save it again with eights.training.checkpoints.save_checkpoint")


def _policy_of(meta: dict[str, Any], state: dict, where: str) -> NumpyPolicy:
    """The policy network in ``state``, checked against what ``meta`` says of it."""
    layers, activation = _policy_layers(state, where), _activation(meta, where)
    try:
        net = NumpyPolicy(layers, activation)
    except ConfigError as err:
        raise ConfigError(f"{where}: {err}") from None
    hidden = [w.shape[1] for w, _ in net.layers[:-1]]
    arch = meta.get("net_arch", (meta.get("training") or {}).get("net_arch"))
    if isinstance(arch, dict):
        arch = arch.get("pi")
    if arch is not None and arch != hidden:
        raise ConfigError(f"{where}: its policy has hidden layers {hidden}, but its "
                          f"{METADATA_MEMBER} says {arch}")
    # a model with count bins takes more inputs than its observation (check_model counts them)
    sizes = [] if meta.get("count_bins") is True else [("observation_size", net.inputs)]
    for key, value in (*sizes, ("actions", net.outputs)):
        if key in meta and meta[key] != value:
            raise ConfigError(f"{where}: its network has {value} "
                              f"{'inputs' if key == 'observation_size' else 'outputs'}, but "
                              f"its {METADATA_MEMBER} says {key}={meta[key]!r}")
    return net


def read_policy(path: str | os.PathLike) -> tuple[NumpyPolicy, dict[str, Any]]:
    """A checkpoint's policy network and metadata, for play and export; unpickles nothing.

    Reads only ``eights.json`` and ``policy.pth`` (tensors only), within
    :data:`~eights.agents.policy.MAX_MODEL_BYTES`.
    """
    from ..extras import require_extra

    require_extra("train", f"reading the checkpoint {str(path)!r}")
    with _open(path) as archive:
        meta = _metadata_of(archive)
        state = _read_tensors(archive, POLICY_MEMBER)
    return _policy_of(meta, state, repr(str(path))), meta


def _restore(model: Any, state: dict, optimizer: dict | None, meta: dict[str, Any],
             where: str, resuming: bool = False) -> None:
    """Put the checkpoint's tensors, optimizer state and timestep count into ``model``.

    ``resuming`` requires the timestep count (training continues from it).
    """
    try:
        model.policy.load_state_dict(state)
    except RuntimeError as err:
        raise ConfigError(f"{where}: its {POLICY_MEMBER} does not fit the network of these "
                          f"settings ({str(err).splitlines()[-1].strip()})") from None
    if optimizer is not None:
        opt = model.policy.optimizer
        try:
            opt.load_state_dict(optimizer)
        except (ValueError, KeyError, TypeError, RuntimeError) as err:
            raise ConfigError(f"{where}: its {OPTIMIZER_MEMBER} does not fit this model's "
                              f"optimizer ({err})") from None
        for param, values in opt.state.items():
            for name, value in values.items():
                if getattr(value, "ndim", 0) and value.shape != param.shape:
                    raise ConfigError(f"{where}: its {OPTIMIZER_MEMBER} holds {name} of shape "
                                      f"{tuple(value.shape)} for a weight of shape "
                                      f"{tuple(param.shape)}")
    steps = meta.get("timesteps")
    if type(steps) is int and steps >= 0:
        model.num_timesteps = steps
    elif resuming:
        raise ConfigError(f"{where}: its {METADATA_MEMBER} has no timestep count to resume "
                          f"from (timesteps={steps!r})")


def restore_checkpoint(model: Any, path: str | os.PathLike) -> dict[str, Any]:
    """Load a run's checkpoint into ``model`` (built from the run's settings) to resume it.

    Reads the policy and optimizer tensors with ``weights_only=True`` and the
    timestep count from ``eights.json``; never the pickled ``data`` member.
    Returns the metadata.
    """
    where = repr(str(path))
    with _open(path, MAX_MODEL_BYTES + MAX_OPTIMIZER_BYTES) as archive:
        meta = _metadata_of(archive)
        if not isinstance(meta.get("training"), dict):
            raise ConfigError(f"{where} was not written by `eights train` (its "
                              f"{METADATA_MEMBER} has no training settings); training resumes "
                              f"only from a run's own checkpoints")
        state = _read_tensors(archive, POLICY_MEMBER)
        optimizer = _read_tensors(archive, OPTIMIZER_MEMBER, MAX_OPTIMIZER_BYTES)
    _restore(model, state, optimizer, meta, where, resuming=True)
    return meta


#: the training settings load_model passes on to MaskablePPO, and their types
HYPERPARAMETERS = {"n_steps": int, "batch_size": int, "n_epochs": int, "seed": int,
                   "learning_rate": float, "gamma": float, "gae_lambda": float,
                   "ent_coef": float}


def _hyperparameters(meta: dict[str, Any], where: str) -> dict[str, Any]:
    training = meta.get("training")
    if not isinstance(training, dict):
        return {}
    chosen = {}
    for key, kind in HYPERPARAMETERS.items():
        value = training.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                kind is int and not isinstance(value, int)):
            raise ConfigError(f"{where}: training setting {key}={value!r} is not a number")
        chosen[key] = kind(value)
    return chosen


def load_model(path: str | os.PathLike, env: Any = None, for_training: bool = False) -> Any:
    """A ``MaskablePPO`` from a checkpoint, on the CPU, unpickling nothing.

    The model is built from ``eights.json`` (the network and the training
    settings) and gets the tensors of ``policy.pth``, and with
    ``for_training`` also the optimizer state and the timestep count. Without
    ``env`` its spaces are the checkpoint's (observations in [0, 1]).
    """
    from ..extras import require_extra

    require_extra("train", f"reading the checkpoint {str(path)!r}")
    import numpy as np
    import torch.nn as nn
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    where = repr(str(path))
    with _open(path, MAX_MODEL_BYTES + (MAX_OPTIMIZER_BYTES if for_training else 0)) as archive:
        meta = _metadata_of(archive)
        state = _read_tensors(archive, POLICY_MEMBER)
        optimizer = (_read_tensors(archive, OPTIMIZER_MEMBER, MAX_OPTIMIZER_BYTES)
                     if for_training else None)
    net = _policy_of(meta, state, where)
    value_layers = _hidden_layers(state, VALUE_PREFIX, where)
    arch = {"pi": [w.shape[1] for w, _ in net.layers[:-1]],
            "vf": [int(_tensor(state, f"{VALUE_PREFIX}{i}.bias", where).shape[0])
                   for i in value_layers]}
    kwargs = {"policy_kwargs": {"net_arch": arch,
                                "activation_fn": getattr(nn, ACTIVATION_MODULES[net.activation])},
              "device": "cpu", "verbose": 0, **_hyperparameters(meta, where)}
    privileged = meta.get("privileged_features", 0)
    if type(privileged) is not int or privileged < 0:
        raise ConfigError(f"{where}: privileged_features={privileged!r} is not a count")
    from .trainer import policy_class

    policy, extra = policy_class(privileged > 0, net.inputs)
    kwargs["policy_kwargs"].update(extra)
    if env is None:  # as stable-baselines3's loader does, with the spaces from the tensors
        model = MaskablePPO(policy, None, _init_setup_model=False, **kwargs)
        model.observation_space = spaces.Box(0.0, 1.0, (net.inputs + privileged,),
                                             dtype=np.float32)
        model.action_space = spaces.Discrete(net.outputs)
        model.n_envs = 1
        model._setup_model()
    else:
        model = MaskablePPO(policy, env, **kwargs)
    _restore(model, state, optimizer, meta, where)
    return model


def model_from_policy(path: str | os.PathLike) -> tuple[Any, dict[str, Any]]:
    """A ``MaskablePPO`` whose policy is an exported ``.npz`` (a shipped model, say) and whose
    value network is new, with the export's metadata; to train further from a policy alone
    (``eights distill`` does). The value network takes the policy's hidden layers."""
    from ..extras import require_extra

    require_extra("train", f"training from the policy {str(path)!r}")
    import numpy as np
    import torch.nn as nn
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    from .policies import MaskedMlpPolicy

    net, meta = NumpyPolicy.load(path)
    hidden = [w.shape[1] for w, _ in net.layers[:-1]]
    model = MaskablePPO(MaskedMlpPolicy, None, _init_setup_model=False, device="cpu", verbose=0,
                        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden},
                                       "activation_fn": getattr(
                                           nn, ACTIVATION_MODULES[net.activation])})
    model.observation_space = spaces.Box(0.0, 1.0, (net.inputs,), dtype=np.float32)
    model.action_space = spaces.Discrete(net.outputs)
    model.n_envs = 1
    model._setup_model()
    load_policy_weights(model, net)
    return model, meta


def load_policy_weights(model: Any, net: NumpyPolicy) -> None:
    """Put ``net``'s layers into ``model``'s policy network and action head (the value
    network keeps its own); the shapes must match, which is checked."""
    import torch

    state = model.policy.state_dict()
    names = [f"{POLICY_PREFIX}{2 * k}" for k in range(len(net.layers) - 1)] + ["action_net"]
    for name, (weight, bias) in zip(names, net.layers, strict=True):
        for key, value in ((f"{name}.weight", weight.T), (f"{name}.bias", bias)):
            if key not in state or tuple(state[key].shape) != value.shape:
                raise ConfigError(f"the policy's layer {key} is {value.shape}, the model's "
                                  f"{tuple(state[key].shape) if key in state else 'absent'}")
            state[key] = torch.as_tensor(value.copy())
    model.policy.load_state_dict(state)


#: the checkpoints of a run directory an export takes, in order of preference
RUN_CHECKPOINTS = ("best.zip", "final.zip", "latest.zip")


def checkpoint_of(path: str | os.PathLike) -> Path:
    """``path`` itself, or for a run directory its best checkpoint (else final, else latest)."""
    path = Path(path)
    if not path.is_dir():
        return path
    for name in RUN_CHECKPOINTS:
        if (path / name).is_file():
            return path / name
    raise ConfigError(f"the run directory {str(path)!r} holds no checkpoint "
                      f"({', '.join(RUN_CHECKPOINTS)}); give a checkpoint .zip")


def export_policy(checkpoint: str | os.PathLike, out: str | os.PathLike) -> Path:
    """Write a checkpoint's policy network as a numpy ``.npz`` (atomically).

    ``checkpoint`` is a checkpoint zip or a run directory (its ``best.zip``, else
    ``final.zip``, else ``latest.zip``).

    The export is what the package ships: a few hundred kB, and
    :class:`~eights.agents.policy.PolicyAgent` plays it without torch. It
    keeps the checkpoint's metadata (variant, config, training settings) but
    not the value network or the optimizer, so training cannot resume from it.
    The checkpoint is read as :func:`read_policy` reads it (no pickles) and must
    fit its variant, as :func:`~eights.agents.policy.check_model` checks.
    """
    final = _npz_path(out)
    net, meta, _ = _checked_policy(checkpoint_of(checkpoint))
    return _write_npz(net, meta, final)


def export_ensemble(sources: list[str | os.PathLike], out: str | os.PathLike) -> Path:
    """Write the policies of ``sources`` as one ``.npz`` that plays their mean logits.

    Each source is an exported ``.npz``, the name of a shipped model
    (``crazy_eights-2p``), a checkpoint zip or a run directory (as
    :func:`export_policy` reads it); all must play the same variant with the
    same config and observation version, through networks of one shape
    (:meth:`~eights.agents.policy.NumpyPolicy.averaged`). The file keeps the
    first source's metadata and lists every member's name and SHA-256 under
    ``ensemble``, so a reader can tell what it averages.
    """
    final = _npz_path(out)
    if len(sources) < 2:
        raise ConfigError("an ensemble averages two or more policies; export one with "
                          "eights export CHECKPOINT OUT.npz")
    nets, members = [], []
    first: dict[str, Any] = {}
    for source in sources:
        net, meta, path = _checked_policy(source)
        if not first:
            first = meta
        for key in ("variant", "config", "observation_version", "observation_size"):
            if meta.get(key) != first.get(key):
                raise ConfigError(
                    f"{str(path)!r} has {key} {meta.get(key)!r} but {str(sources[0])!r} has "
                    f"{first.get(key)!r}: an ensemble's members play the same game and read "
                    f"the same observation")
        nets.append(net)
        members.append({"source": path.name, "sha256": _sha256(path)})
    meta = {key: value for key, value in first.items() if key not in ("activation", "layers")}
    meta["ensemble"] = members
    return _write_npz(NumpyPolicy.averaged(nets), meta, final)


def policy_source(source: str | os.PathLike) -> Path:
    """The file or run directory ``source`` names: itself, or a shipped model by its name
    (``crazy_eights-2p``). A ``.npz`` is read without torch, anything else as a checkpoint."""
    path = Path(source)
    if not path.exists() and (MODELS_DIR / f"{source}.npz").is_file():
        return MODELS_DIR / f"{source}.npz"
    return path


def _checked_policy(source: str | os.PathLike) -> tuple[NumpyPolicy, dict[str, Any], Path]:
    """The policy of ``source`` (an exported ``.npz``, a shipped model's name, a checkpoint
    zip or a run directory), its metadata and the file read, checked to fit its variant."""
    path = policy_source(source)
    if path.suffix == ".npz":
        net, meta = NumpyPolicy.load(path)
    else:
        path = checkpoint_of(path)
        net, meta = read_policy(path)
    variant = meta.get("variant")
    if not isinstance(variant, str):
        raise ConfigError(f"{str(path)!r}'s metadata names no variant")
    check_model(net, meta, variant, path)
    return net, meta, path


def _npz_path(out: str | os.PathLike) -> Path:
    final = Path(out)
    if final.suffix != ".npz":
        raise ConfigError(f"export path {str(final)!r} must end in .npz")
    return final


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(2**20), b""):
            digest.update(block)
    return digest.hexdigest()


def _write_npz(net: NumpyPolicy, meta: dict[str, Any], final: Path) -> Path:
    """``net`` and ``meta`` saved to ``final`` through a temporary file and a rename."""
    tmp = final.with_name(f".{final.stem}.{os.getpid()}.tmp.npz")
    try:
        net.save(tmp, meta)
        os.replace(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)
    return final


__all__ = ["MAX_OPTIMIZER_BYTES", "METADATA_MEMBER", "RUN_CHECKPOINTS", "checkpoint_of",
           "export_ensemble", "export_policy", "load_model", "load_policy_weights",
           "model_from_policy", "policy_source", "read_metadata", "read_policy",
           "restore_checkpoint", "save_checkpoint"]
