"""Progress of a long run: a live bar on a terminal, plain lines everywhere else.

rich's live bar draws nothing when the output is not a terminal (a CI log,
``nohup``, a pipe), so a long run there used to be silent until it ended.
:class:`ProgressReport` draws the bar on a terminal (and in Jupyter) and
otherwise prints lines such as::

    games 120/600 (20%), 35.2 games/s, 13 s left

every 10% or every 30 s, whichever comes first, and once at the end, each
flushed at once so a log shows it as it happens. ``eights tournament`` and
``eights train`` both use it; ``enabled=False`` (their ``--no-progress``)
silences it.

The rate counts only the work done since the first :meth:`~ProgressReport.update`,
so games a resumed tournament found stored do not make it look fast.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from rich.console import Console

#: plain lines: one each time another tenth is done, or after this many seconds
EVERY_FRACTION = 0.1
EVERY_SECONDS = 30.0


def format_duration(seconds: float) -> str:
    """``<1 s``, ``13 s``, ``4 min 5 s``, ``12 min``, ``1 h 12 min``: less precise as it grows."""
    if not math.isfinite(seconds):
        return "?"
    if 0 < seconds < 0.5:
        return "<1 s"
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    if whole < 600:
        minutes, secs = divmod(whole, 60)
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    minutes = round(whole / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def format_rate(rate: float) -> str:
    """Three significant figures or so: ``2,345``, ``35.2``, ``0.21``."""
    if rate >= 100:
        return f"{rate:,.0f}"
    if rate >= 1:
        return f"{rate:.1f}"
    return f"{rate:.2g}"


def live_capable(console: Console) -> bool:
    """Whether a live bar shows on ``console``: Jupyter, or a terminal rich animates.

    That is rich's own test (``is_interactive``: a terminal that is not dumb,
    unless ``TTY_INTERACTIVE`` says otherwise), so the bar is used exactly
    where rich would draw it.
    """
    return bool(console.is_jupyter or console.is_interactive)


class ProgressReport:
    """Reports ``done`` of ``total`` units of work; use it as a context manager.

    ``label`` starts each line (and names the bar), ``unit`` names what is
    counted. ``live`` forces the bar on or off (default: on where it shows).
    ``deadline`` (a time on ``clock``) is when the work stops anyway, as a
    training time limit does: the time left is then the sooner of the two.
    ``clock`` is for tests.
    """

    def __init__(self, label: str, total: int, *, unit: str = "games",
                 console: Console | None = None, enabled: bool = True,
                 transient: bool = False, live: bool | None = None,
                 every_fraction: float = EVERY_FRACTION, every_seconds: float = EVERY_SECONDS,
                 deadline: float | None = None,
                 clock: Callable[[], float] = time.monotonic):
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise ValueError(f"total={total!r} is not allowed; give a count >= 0")
        if not 0 < every_fraction <= 1 or every_seconds <= 0:
            raise ValueError("every_fraction must be in (0, 1] and every_seconds > 0")
        self.label = label
        self.total = total
        self.unit = unit
        self.console = console if console is not None else Console()
        self.enabled = enabled
        self.live = live_capable(self.console) if live is None else live
        self.transient = transient
        self.every_fraction = every_fraction
        self.every_seconds = every_seconds
        self.clock = clock
        self.deadline = deadline
        self.done = 0
        self._base: tuple[int, float] | None = None
        self._printed: tuple[int, float] | None = None
        self._bar: Any = None
        self._task: Any = None
        self._closed = False

    # ------------------------------------------------------------ lifecycle
    def __enter__(self) -> ProgressReport:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def start(self) -> None:
        """Show the bar (on a terminal); plain lines need nothing until the first update."""
        if not (self.enabled and self.live) or self._bar is not None:
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._bar = Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
            f"{{task.fields[rate]}} {self.unit}/s", TimeElapsedColumn(), TimeRemainingColumn(),
            console=self.console, transient=self.transient)
        self._task = self._bar.add_task(self.label, total=self.total, rate="-")
        self._bar.start()

    def close(self) -> None:
        """Stop the bar, or print the final line if the last state was not printed yet."""
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)
            self._bar.stop()
        elif self.enabled and self._base is not None and (
                self._printed is None or self._printed[0] != self.done):
            self._line(self.clock())

    # -------------------------------------------------------------- updates
    def update(self, done: int) -> None:
        """``done`` units finished so far; the first call is where the rate starts."""
        self.done = done
        if not self.enabled or self._closed:
            return
        now = self.clock()
        if self._base is None:
            self._base = (done, now)
            self._printed = (done, now)
            if self._bar is not None:
                self._bar.reset(self._task, total=self.total, completed=done, rate="-")
            return
        if self._bar is not None:
            rate = self.rate(now)
            self._bar.update(self._task, completed=done,
                             rate="-" if rate is None else format_rate(rate))
            return
        assert self._printed is not None
        last_done, last_time = self._printed
        finished = done >= self.total > last_done
        stale = now - last_time >= self.every_seconds and done != last_done
        if finished or stale or self._tenth(done) > self._tenth(last_done):
            self._line(now)

    def rate(self, now: float | None = None) -> float | None:
        """Units per second since the first update; None before any progress."""
        if self._base is None:
            return None
        base_done, base_time = self._base
        elapsed = (self.clock() if now is None else now) - base_time
        if self.done <= base_done or elapsed <= 0:
            return None
        return (self.done - base_done) / elapsed

    def log(self, message: str) -> None:
        """Print a message (above the bar on a terminal), even with progress turned off."""
        self.console.print(message, markup=False, highlight=False, soft_wrap=True)
        self._flush()

    # ------------------------------------------------------------ internals
    def _tenth(self, done: int) -> int:
        if self.total <= 0:
            return 0
        return math.floor(done / self.total / self.every_fraction + 1e-9)

    def line(self, now: float | None = None) -> str:
        """The plain progress line for the current state."""
        now = self.clock() if now is None else now
        percent = 100.0 if self.total <= 0 else 100.0 * self.done / self.total
        text = f"{self.label} {self.done:,}/{self.total:,} ({math.floor(percent)}%)"
        rate = self.rate(now)
        if rate is not None:
            text += f", {format_rate(rate)} {self.unit}/s"
            if self.done < self.total:
                left = (self.total - self.done) / rate
                if self.deadline is not None and self.deadline - now < left:
                    text += f", {format_duration(max(0.0, self.deadline - now))} left (time limit)"
                else:
                    text += f", {format_duration(left)} left"
        return text

    def _line(self, now: float) -> None:
        self._printed = (self.done, now)
        self.console.print(self.line(now), markup=False, highlight=False, soft_wrap=True)
        self._flush()

    def _flush(self) -> None:
        flush = getattr(self.console.file, "flush", None)
        if flush is not None:
            flush()


__all__ = ["ProgressReport", "format_duration", "format_rate", "live_capable"]
