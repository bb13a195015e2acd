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
    '`illegal_reward` (-1) to the agent that played it, 0 to the others), `illegal_reward` (-1)')


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

    def overview(self) -> str:
        """The table of import, agents, spaces, rewards and options."""
        engine, Config = self.engine, self.engine.Config
        sizes = ", ".join(
            f"{engine.encoder(Config.from_options(num_players=n)).size} at {n} players"
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
        shown = self.engine.encoder(self.engine.Config.from_options(num_players=2))
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
