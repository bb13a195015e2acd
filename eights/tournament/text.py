"""How a tournament's figures are written for people: intervals and failure counts.

The console tables and the HTML report share these, so both say the same
thing the same way. An interval is written ``[low, high]``, never
``low-high``: with a hyphen between them a negative bound (a margin can be
below zero) reads as a range that starts somewhere else. A ``±`` is shown
only for an interval that is symmetric about its value, and is never
negative; a clipped interval (a win rate near 0% or 100%) is written out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from .failures import FAILED_START, FALLBACK, RESTART

#: kind -> (one, many); kinds not listed are written as their name
LABELS = {
    FALLBACK: ("fallback", "fallbacks"),
    RESTART: ("restart", "restarts"),
    FAILED_START: ("failed start", "failed starts"),
    "forfeit": ("forfeit", "forfeits"),
    "crash": ("crash", "crashes"),
    "timeout": ("timeout", "timeouts"),
    "handshake": ("bad hello", "bad hellos"),
    "malformed": ("malformed answer", "malformed answers"),
    "illegal": ("illegal move", "illegal moves"),
    "refused": ("refusal", "refusals"),
    "flood": ("output flood", "output floods"),
    # the bot failed max_restarts times in a row, or max_failures_per_game times in a game,
    # so it is not asked again that game
    "gave_up": ("skipped decision", "skipped decisions"),
    # past max_failures in all: stopped for good, every later decision forfeits
    "retired": ("decision after retirement", "decisions after retirement"),
}
#: what the agent did about its failures, listed first; the causes follow in brackets
CONSEQUENCES = (FAILED_START, FALLBACK, RESTART)


def count(kind: str, n: int) -> str:
    """``1 restart``, ``12 fallbacks``."""
    one, many = LABELS.get(kind, (kind.replace("_", " "),) * 2)
    return f"{n:,} {one if n == 1 else many}"


def failures_text(failures: Mapping[str, int], forfeits: int = 0,
                  never_started: bool = False) -> str:
    """``12 fallbacks, 1 restart (11 timeouts, 1 crash)``; empty when nothing went wrong.

    Forfeits come from the games (an agent may forfeit without failing), so a
    ``forfeit`` kind the agent counted itself is not repeated.
    """
    head = [count(kind, failures[kind]) for kind in CONSEQUENCES if failures.get(kind)]
    if forfeits:
        head.append(count("forfeit", forfeits))
    causes = sorted(((n, kind) for kind, n in failures.items()
                     if n > 0 and kind not in CONSEQUENCES and kind != "forfeit"),
                    key=lambda item: (-item[0], item[1]))
    text = ", ".join(head)
    if causes:
        listed = ", ".join(count(kind, n) for n, kind in causes)
        text = f"{text} ({listed})" if text else listed
    if never_started:
        return f"never started: {text}" if text else "never started"
    return text


def number(x: float | None, fmt: str = ".1f") -> str:
    """``x`` in ``fmt``, or ``-`` for a figure that does not exist yet (NaN)."""
    return "-" if x is None or math.isnan(x) else f"{x:{fmt}}"


def interval(low: float, high: float, fmt: str = ".1f") -> str:
    """``[low, high]``; ``-`` while there is no interval."""
    if math.isnan(low) or math.isnan(high):
        return "-"
    return f"[{low:{fmt}}, {high:{fmt}}]"


def plus_minus(value: float, low: float, high: float, fmt: str) -> str:
    """``value ±half`` of a symmetric 95% interval; ``value [low, high]`` of a clipped one.

    Just the value while there is no interval. The half-width is never
    negative, whichever way round the bounds come.
    """
    if math.isnan(value):
        return "-"
    if math.isnan(low) or math.isnan(high):
        return f"{value:{fmt}}"
    below, above = value - low, high - value
    if not math.isclose(below, above, rel_tol=1e-6, abs_tol=1e-9):
        return f"{value:{fmt}} {interval(low, high, fmt.lstrip('+'))}"
    return f"{value:{fmt}} ±{abs(high - low) / 2:.1f}"


__all__ = ["count", "failures_text", "interval", "number", "plus_minus"]
