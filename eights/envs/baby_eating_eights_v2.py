"""Baby-Eating Eights: PettingZoo AEC environment (its tables are made from the engine)."""

from __future__ import annotations

from ..engines.baby_eating_eights import BabyEatingEightsGame
from . import baby_eating_eights_v1
from .base import variant_env
from .docs import MEMORY_LINE, MEMORY_NOTES

raw_env, env = variant_env(BabyEatingEightsGame, __name__, version=2)

DOC = baby_eating_eights_v1.DOC.next_version(__name__, MEMORY_LINE, MEMORY_NOTES)
__doc__ = DOC.docstring()
