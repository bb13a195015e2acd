"""examples/rllib_ppo.py: its glue passes RLlib's env check, and a tiny run trains and saves.

Skipped only where RLlib cannot be imported (the ``rllib`` extra is not installed).
RLlib is imported by the tests that use it, not by this module: importing it
costs about 6 CPU-seconds, which every test worker would pay at collection;
the tests share the ``ray`` group, so one worker runs them all and pays it once.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from eights.envs import make_env
from tests.conftest import available_variants

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("ray") is None
                       or importlib.util.find_spec("ray.rllib") is None,
                       reason="RLlib is not installed; pip install -e '.[rllib]'"),
    pytest.mark.xdist_group("ray"),
]

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "rllib_ppo.py"


def load_recipe():
    spec = importlib.util.spec_from_file_location("rllib_ppo", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


recipe = load_recipe()


@pytest.mark.parametrize("variant", available_variants())
def test_the_glue_passes_rllibs_env_check(variant: str) -> None:
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    env = recipe.masked_env_class()({"variant": variant, "num_players": 3})
    for _ in range(10):  # each check steps one unmasked random action
        check_multiagent_environments(env)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(300):
        (agent, o), = obs.items()
        assert env.observation_spaces[agent].contains(o)
        assert o["action_mask"].dtype == np.float32 and o["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, _, terminated, truncated, _ = env.step({agent: action})
        if terminated["__all__"] or truncated["__all__"]:
            obs, _ = env.reset()


def test_without_the_glue_rllibs_check_meets_an_illegal_action() -> None:
    """Why the recipe sets illegal_action="terminate": the default raises in RLlib's check."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    env = PettingZooEnv(make_env("crazy_eights"))
    with pytest.raises(ValueError, match="step"):
        for _ in range(50):  # a random action is illegal most of the time
            check_multiagent_environments(env)


@pytest.mark.parametrize("argv, message", [
    (["--variant", "uno"], "invalid choice"),
    (["--num-players", "9"], "num_players=9 is not allowed"),
    (["--option", "hand_size"], "NAME=VALUE"),
    (["--option", "colour=red"], "unknown option"),
    (["--iterations", "0"], "--iterations must be at least 1"),
    (["--batch-size", "64", "--minibatch-size", "128"], "--minibatch-size must not exceed"),
    (["--address", "auto", "--num-cpus", "1"], "--num-cpus is for a local Ray"),
])
def test_bad_flags_are_refused_before_ray_starts(argv, message, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        recipe.parse_args(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_options_reach_the_env_config() -> None:
    args = recipe.parse_args(["--variant", "livery_eights", "--option", "hand_size=3",
                              "--option", "match=true"])
    config = recipe.build_config(args)
    assert config.env_config == {"variant": "livery_eights", "num_players": 2,
                                 "hand_size": 3, "match": True}


def documented_run() -> list[str]:
    """docs/training.md's two-iteration command, as written (its docs-commands check is
    this test: one run of Ray, not two)."""
    text = (ROOT / "docs" / "training.md").read_text()
    found = re.findall(r"^<!-- commands: skip \(run as written, and its output checked, by "
                       r"tests/examples/test_rllib_ppo\.py\) -->\n```sh\npython (.*)$",
                       text, re.MULTILINE)
    assert len(found) == 1, "docs/training.md marks one block as run by this test"
    return found[0].split()


def test_the_documented_run_prints_progress_and_saves(tmp_path: Path) -> None:
    script, *argv = documented_run()
    assert ROOT / script == SCRIPT
    out = Path(argv[argv.index("--out") + 1])
    batch = int(argv[argv.index("--batch-size") + 1])
    run = subprocess.run([sys.executable, str(SCRIPT), *argv], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = re.findall(r"^iter +(\d+)  return (\S+)  p0 (\S+)  len (\S+)  timesteps (\d+)$",
                       run.stdout, re.MULTILINE)
    assert [(int(i), int(t)) for i, *_, t in lines] == [(1, batch), (2, 2 * batch)]
    # short games: episodes finish in the first iteration, so the means are numbers
    assert all(float(length) > 0 for *_, length, _ in lines)
    assert abs(float(lines[-1][2])) <= 1.0
    assert (tmp_path / out / "rllib_checkpoint.json").is_file()
