"""``scripts/vector_differential.py`` loaded once as a module, for every core's tests.

The script is not in a package (it is run as a file), so each compiled core's
test module (``tests/vector/test_<variant>.py``) imports it from here:
``from tests.vector.differential_script import differential``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "vector_differential.py"
_NAME = "eights_scripts_vector_differential"


def load() -> ModuleType:
    """The script as a module (loaded on first call, then the same one)."""
    if _NAME not in sys.modules:
        spec = importlib.util.spec_from_file_location(_NAME, SCRIPT)
        module = importlib.util.module_from_spec(spec)
        sys.modules[_NAME] = module  # (its dataclasses look their module up while made)
        spec.loader.exec_module(module)
    return sys.modules[_NAME]


differential = load()
