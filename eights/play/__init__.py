"""A person at the keyboard against bots: ``eights play``. See :mod:`eights.play.session`."""

from .keys import KeySource, ScriptedKeys, TerminalKeys
from .session import PlaySession

__all__ = ["KeySource", "PlaySession", "ScriptedKeys", "TerminalKeys"]
