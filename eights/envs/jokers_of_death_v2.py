"""Jokers of Death: PettingZoo AEC environment (the tables below are filled in from the engine)."""

from __future__ import annotations

from ..engines.jokers_of_death import JokersOfDeathGame
from . import jokers_of_death_v1
from .base import variant_env
from .docs import MEMORY_LINE, MEMORY_NOTES

raw_env, env = variant_env(JokersOfDeathGame, __name__, version=2)

DOC = jokers_of_death_v1.DOC.next_version(__name__, MEMORY_LINE, MEMORY_NOTES)
__doc__ = DOC.docstring()
