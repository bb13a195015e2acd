"""examples/rllib_ppo.py answers ``--help`` without importing Ray (which takes most of a minute).

Apart from test_rllib_ppo.py, which is skipped where RLlib is not installed: this
holds either way.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "rllib_ppo.py"

#: runs the script as ``__main__`` with the given flags, then says whether Ray was imported
PROBE = """
import runpy, sys
sys.argv = [sys.argv[1], *sys.argv[2:]]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit as done:
    code = done.code
print("ray imported:", any(m == "ray" or m.startswith("ray.") for m in sys.modules))
print("exit:", code)
"""


def probe(*flags: str) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE, str(SCRIPT), *flags],
                          capture_output=True, text=True, timeout=120, check=False)
    return done.stdout + done.stderr


def test_help_does_not_import_ray() -> None:
    out = probe("--help")
    assert "--iterations" in out and "exit: 0" in out
    assert "ray imported: False" in out


def test_a_bad_flag_is_refused_before_ray_is_imported() -> None:
    out = probe("--iterations", "0")
    assert "--iterations must be at least 1" in out and "exit: 2" in out
    assert "ray imported: False" in out
