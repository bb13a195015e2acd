"""Crazier Eights: PettingZoo AEC environment (the tables below are filled in from the engine)."""

from __future__ import annotations

from ..engines.crazier_eights import CrazierEightsGame
from . import crazier_eights_v1
from .base import variant_env
from .docs import MEMORY_LINE, MEMORY_NOTES

raw_env, env = variant_env(CrazierEightsGame, __name__, version=2)

DOC = crazier_eights_v1.DOC.next_version(__name__, MEMORY_LINE, MEMORY_NOTES)
__doc__ = DOC.docstring()
