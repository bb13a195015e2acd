"""Checkpoints: stable-baselines3 zips that carry what game they play, written atomically.

A checkpoint is the zip ``MaskablePPO.save`` writes (policy, optimizer and
hyperparameters, so training can resume from it) plus one extra member,
``eights.json``: the variant, its config, the observation size and the
timesteps trained. stable-baselines3 ignores the extra member on load;
:class:`~eights.agents.policy.PolicyAgent` reads it to refuse a model made
for another game instead of playing nonsense.

Writes go to a temporary file in the same directory, are flushed to disk and
then renamed over the target, so a crash mid-write leaves the previous
checkpoint intact, never a truncated zip.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path
from typing import Any

from ..config import ConfigError

METADATA_MEMBER = "eights.json"
FORMAT_VERSION = 1


def save_checkpoint(model: Any, path: str | os.PathLike, metadata: dict[str, Any]) -> Path:
    """Save ``model`` with ``metadata`` at ``path`` (a ``.zip``), atomically."""
    final = Path(path)
    if final.suffix != ".zip":
        raise ConfigError(f"checkpoint path {str(final)!r} must end in .zip")
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.with_name(f".{final.stem}.{os.getpid()}.tmp.zip")
    try:
        model.save(tmp)
        with zipfile.ZipFile(tmp, "a") as archive:
            archive.writestr(METADATA_MEMBER, json.dumps(
                {"format": FORMAT_VERSION, **metadata}, indent=2, sort_keys=True))
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)
    return final


def read_metadata(path: str | os.PathLike) -> dict[str, Any]:
    """The ``eights.json`` of a checkpoint; a clear error for anything else."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"model file {str(p)!r} does not exist")
    try:
        with zipfile.ZipFile(p) as archive:
            if METADATA_MEMBER not in archive.namelist():
                raise ConfigError(f"{str(p)!r} is not an eights checkpoint (it has no "
                                  f"{METADATA_MEMBER}); train one with `eights train`")
            return json.loads(archive.read(METADATA_MEMBER))
    except zipfile.BadZipFile:
        raise ConfigError(f"{str(p)!r} is not a model zip (corrupt or another format)") from None


def load_model(path: str | os.PathLike, env: Any = None, for_training: bool = False) -> Any:
    """A ``MaskablePPO`` from a checkpoint, on the CPU.

    For play (``for_training=False``) the schedules saved with the model are
    replaced by constants, so a model loads even where the pickled training
    schedules would not.
    """
    from ..extras import require_extra

    require_extra("train", f"reading the checkpoint {str(path)!r}")
    from sb3_contrib import MaskablePPO

    read_metadata(path)
    custom = None if for_training else {
        "learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0}
    return MaskablePPO.load(path, env=env, device="cpu", custom_objects=custom)


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
    """
    from ..agents.policy import NumpyPolicy

    final = Path(out)
    if final.suffix != ".npz":
        raise ConfigError(f"export path {str(final)!r} must end in .npz")
    checkpoint = checkpoint_of(checkpoint)
    meta = read_metadata(checkpoint)
    net = NumpyPolicy.from_sb3(load_model(checkpoint).policy)
    tmp = final.with_name(f".{final.stem}.{os.getpid()}.tmp.npz")
    try:
        net.save(tmp, meta)
        os.replace(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)
    return final


__all__ = ["METADATA_MEMBER", "RUN_CHECKPOINTS", "checkpoint_of", "export_policy", "load_model",
           "read_metadata", "save_checkpoint"]
