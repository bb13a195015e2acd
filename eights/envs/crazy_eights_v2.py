"""Crazy Eights: PettingZoo AEC environment (the tables below are filled in from the engine)."""

from __future__ import annotations

from ..engines.crazy_eights import CrazyEightsGame
from . import crazy_eights_v1
from .base import variant_env
from .docs import MEMORY_LINE, MEMORY_NOTES

raw_env, env = variant_env(CrazyEightsGame, __name__, version=2)

DOC = crazy_eights_v1.DOC.next_version(__name__, MEMORY_LINE, MEMORY_NOTES)
__doc__ = DOC.docstring()
