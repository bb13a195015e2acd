"""Optional extras: a missing one is a one-line error naming the install command."""

from __future__ import annotations

import sys

import pytest

from eights.config import ConfigError
from eights.extras import MissingExtraError, install_command, require_extra


def test_inside_the_checkout_the_command_installs_into_the_venv_with_the_constraints():
    assert install_command("train") == (
        '.venv/bin/python -m pip install -c constraints.txt -e ".[train]"'
        f" (from {install_command.__globals__['REPO_ROOT']})")


def test_a_missing_module_names_the_extra_and_the_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)
    with pytest.raises(MissingExtraError, match=r"training needs the train extra \(sb3_contrib "
                                                r"is not installed\); install it with: "):
        require_extra("train", "training")
    assert issubclass(MissingExtraError, ConfigError)  # the CLI prints it as one line


def test_an_unknown_extra_is_a_programming_error():
    with pytest.raises(ValueError, match="extra 'gpu' is not known; the extras are train, ray"):
        require_extra("gpu", "x")


def test_the_ray_backend_without_ray(monkeypatch):
    from eights.tournament import Tournament, run_tournament

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(MissingExtraError, match=r"--backend ray needs the ray extra"):
        run_tournament(Tournament("crazy_eights", ("random", "greedy"), games=2),
                       backend="ray")
