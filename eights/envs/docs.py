"""The env module docstrings, written from the declarations.

A variant's env module states its summary and version history in words;
the tables (spaces, options, the action table from the action blocks, the
observation table from the declared view fields) are made here from the
engine itself, so the docstring cannot drift from the code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..engines.table import TableEngine

ENV_OPTIONS_ROW = (
    '`render_mode` (None, "ansi", "human"), `render_seat` (whose view `render()` shows: None, '
    'the agent to act; a seat 0..n-1 or agent name; "referee", every hand), `illegal_action` '
    '("raise": IllegalActionError, game unchanged; "terminate": the game ends, '
    '`illegal_reward` (-1) to the agent that played it, 0 to the others), `illegal_reward` (-1), '
    '`backend` ("python": the engine; "compiled": one table of the compiled core, the same '
    'games, several times faster, every version, no stacked decks)')


#: the version-history line of every variant's v2: the public history, and why
MEMORY_LINE = (
    "public history: per opponent the cards it played this hand (`played`), the suits it "
    "named (`named`), the cards it drew since it last played (`drawn_since`), where the "
    "variant can show them the cards known to be in its hand (`known`), and the copies of "
    "every card whose place the observer does not know (`unseen`), appended after the v1 "
    "features; a player at a real table remembers what it saw, and v1 kept only each "
    "opponent's last draw (#27). Actions and games unchanged; v1 stays available.")
#: what the v2 envs' notes add
MEMORY_NOTES = """
The public history (v2) is folded from the events this seat saw (its view's
`seen_events`; `eights.engines.memory`): nothing it could not see reaches it.
"""


@dataclasses.dataclass(frozen=True)
class EnvDoc:
    """What an env module says in words; the tables are made from the engine.

    The module docstring (:meth:`docstring`) and the env's page in
    ``docs/envs/`` (:mod:`eights.envs.pages`) are both built from one of these,
    so neither can drift from the code or from the other.
    """

    engine: type[TableEngine]
    #: the env module's dotted name, e.g. ``eights.envs.crazy_eights_v1``
    module: str
    summary: str
    rewards: str
    notes: str
    history: Sequence[tuple[int, str]]
    #: the table sizes whose observation sizes are listed
    players: Sequence[int] = (2, 3, 4)

    @property
    def name(self) -> str:
        return self.module.rsplit(".", 1)[1]

    @property
    def version(self) -> int:
        """The env version (the module's ``_v<N>``): the observation layout it documents."""
        return int(self.name.rsplit("_v", 1)[1])

    def next_version(self, module: str, line: str, notes: str = "") -> EnvDoc:
        """This doc for the env ``module`` of the next version: the same words, ``notes``
        added, and ``line`` (what changed, and why) added to the version history."""
        return dataclasses.replace(
            self, module=module, notes="\n\n".join(x for x in (self.notes.strip(), notes.strip())
                                                   if x),
            history=[*self.history, (self.version + 1, line)])

    def overview(self) -> str:
        """The table of import, agents, spaces, rewards and options."""
        engine, Config = self.engine, self.engine.Config
        sizes = ", ".join(
            f"{engine.encoder(Config.from_options(num_players=n), self.version).size} at {n} "
            f"players"
            for n in self.players)
        n_actions = len(engine.actions)
        options = ", ".join(f"`{o}` ({d})" for o, d, _, _ in Config.option_rows())
        return "\n".join([
            "| | |", "| --- | --- |",
            f"| Import | `from eights.envs import {self.name}` |",
            "| Agents | `player_0` .. `player_{n-1}` |",
            f"| Actions | Discrete({n_actions}) |",
            f"| Observations | Dict(`observation`: Box(0, 1, (size,), float32), `action_mask`: "
            f"Box(0, 1, ({n_actions},), int8)); size {sizes} |",
            f"| Rewards | {self.rewards} |",
            f"| Options | {options} |",
            f"| Env options | {ENV_OPTIONS_ROW} |",
        ])

    def action_space(self) -> str:
        return "\n".join([
            self.engine.actions.table(), "",
            "Steps with one legal action are applied by the engine and never reach an agent."])

    def observation_space(self) -> str:
        shown = self.engine.encoder(self.engine.Config.from_options(num_players=2),
                                    self.version)
        return "\n".join([
            "Made from the view's declared fields (`eights.engines.fields`): every feature is "
            "in [0, 1]; seats are relative to the observer. With 2 players:", "",
            shown.table(), "",
            "Per-seat features have n (or n - 1, the opponents) entries; indices after them "
            "shift accordingly. `action_mask` is all zeros for a seat that is not to act."])

    def version_history(self) -> str:
        return "\n".join(f"* v{v}: {text}" for v, text in self.history)

    def docstring(self) -> str:
        """The module docstring: summary, spaces, options, action and observation tables,
        notes, version history."""
        return "\n".join([
            self.summary.strip(), "", self.overview(),
            "", "## Action space", "", self.action_space(),
            "", "## Observation space", "", self.observation_space(),
            "", self.notes.strip(), "",
            "## Version history", "", self.version_history(),
        ]) + "\n"
