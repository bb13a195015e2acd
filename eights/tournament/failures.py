"""Each agent's failures over a tournament, and whether its bot ever really played.

Every stored game keeps, per seat, the decisions the agent was asked for and
what it counted against itself during that game
(:meth:`~eights.agents.Agent.failure_counts`: an external bot's ``fallback``
moves, ``restart`` s, ``failed_start`` s and the failures behind them, such
as ``timeout`` or ``crash``). :class:`FailureTally` adds them up per agent.

**Never started.** An agent never started when at least one start of its
bot failed (the program died before answering the hello, could not be
started, or refused or missed the hello) and not one decision it was asked
for was its own: each was a fallback move or a forfeit. Its figures then
measure the fallback, not the bot, so the standings list it after every
ranked agent, unranked. A bot that started but then answered every decision
wrongly did start: it is ranked, with its failures counted. Rows stored by
an eights that did not record decisions leave the question open, and the
agent is ranked as before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

#: kinds the standings treat specially; every other kind is a cause (crash, timeout, ...)
FALLBACK = "fallback"
RESTART = "restart"
FAILED_START = "failed_start"


@dataclass
class FailureTally:
    """One agent's failures and decisions, summed over the seats it held."""

    counts: Counter[str] = field(default_factory=Counter)
    #: decisions asked for, or None once a game did not record them
    decisions: int | None = 0
    #: decisions that were not the agent's own: fallback moves and forfeits
    unanswered: int = 0

    def add(self, decisions: int | None, failures: Mapping[str, int] | None,
            forfeited: bool) -> None:
        """One seat of one game; ``None`` for what an older row did not record."""
        if failures:
            self.counts.update(failures)
        if decisions is None or self.decisions is None:
            self.decisions = None
        else:
            self.decisions += decisions
        self.unanswered += (failures or {}).get(FALLBACK, 0) + int(forfeited)

    @property
    def never_started(self) -> bool:
        return (self.counts[FAILED_START] > 0 and self.decisions is not None
                and 0 < self.decisions <= self.unanswered)

    def as_dict(self) -> dict[str, int]:
        """The counts by kind, sorted, without zeros."""
        return {kind: n for kind, n in sorted(self.counts.items()) if n > 0}
