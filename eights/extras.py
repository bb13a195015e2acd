"""Optional extras: a clear one-line error when a feature's packages are missing.

Training and reading checkpoints need torch and stable-baselines3 (the ``train``
extra); tournaments on Ray need ``ray``. They are not installed by ``make run``
or a plain ``pip install eights``, so a command that needs them must say, in one
line, how to install them, rather than end in an ImportError traceback. Inside
this repository the right command installs into ``.venv`` with the constraints
file (which pins the CPU build of torch); elsewhere it is ``pip install`` of the
extra.
"""

from __future__ import annotations

import importlib
import logging
from pathlib import Path
from typing import Any

from .config import ConfigError

#: extra -> the modules it provides, imported in this order
EXTRAS: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib"),
    "ray": ("ray",),
}
REPO_ROOT = Path(__file__).resolve().parent.parent


class MissingExtraError(ConfigError):
    """A feature needs an optional extra that is not installed."""


def install_command(extra: str) -> str:
    """The command that installs ``extra``: into this checkout's .venv, or from the index."""
    if (REPO_ROOT / "constraints.txt").is_file() and (REPO_ROOT / "pyproject.toml").is_file():
        return (f'.venv/bin/python -m pip install -c constraints.txt -e ".[{extra}]"'
                f" (from {REPO_ROOT})")
    return f'pip install "eights[{extra}]"'


def require_extra(extra: str, feature: str) -> None:
    """Import ``extra``'s modules, or raise :class:`MissingExtraError` naming the command."""
    if extra not in EXTRAS:
        raise ValueError(f"extra {extra!r} is not known; the extras are {', '.join(EXTRAS)}")
    for module in EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError:
            raise MissingExtraError(
                f"{feature} needs the {extra} extra ({module} is not installed); install it "
                f"with: {install_command(extra)}") from None


def connect_ray(address: str | None, num_cpus: int | None, feature: str) -> tuple[Any, bool]:
    """Ray, connected: to the cluster at ``address``, or to a local Ray started here with
    ``num_cpus`` CPUs; and whether this call started it (then the caller shuts it down).
    A Ray already initialized in this process is used as it is."""
    require_extra("ray", feature)
    import ray

    if ray.is_initialized():
        return ray, False
    if address is None:
        ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
    else:
        ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    return ray, True


__all__ = ["EXTRAS", "MissingExtraError", "connect_ray", "install_command", "require_extra"]
