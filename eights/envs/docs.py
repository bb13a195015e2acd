"""The env module docstrings, written from the declarations.

A variant's env module states its summary and version history in words;
the tables (spaces, options, the action table from the action blocks, the
observation table from the declared view fields) are made here from the
engine itself, so the docstring cannot drift from the code.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engines.table import TableEngine

ENV_OPTIONS_ROW = (
    '`render_mode` (None, "ansi", "human"), `render_seat` (whose view `render()` shows: None, '
    'the agent to act; a seat 0..n-1 or agent name; "referee", every hand), `illegal_action` '
    '("raise": IllegalActionError, game unchanged; "terminate": the game ends, '
    '`illegal_reward` (-1) to the agent that played it, 0 to the others), `illegal_reward` (-1)')


def env_docstring(engine: type[TableEngine], module: str, summary: str, rewards: str,
                  notes: str, history: Sequence[tuple[int, str]],
                  players: Sequence[int] = (2, 3, 4)) -> str:
    """The docstring of ``module`` (``eights.envs.crazy_eights_v1``): summary, spaces,
    options, action and observation tables, notes, version history."""
    name = module.rsplit(".", 1)[1]
    Config = engine.Config
    sizes = ", ".join(f"{engine.encoder(Config.from_options(num_players=n)).size} at {n} players"
                      for n in players)
    n_actions = len(engine.actions)
    options = ", ".join(f"`{o}` ({d})" for o, d, _, _ in Config.option_rows())
    shown = engine.encoder(Config.from_options(num_players=2))
    lines = [
        summary.strip(), "",
        "| | |", "| --- | --- |",
        f"| Import | `from eights.envs import {name}` |",
        "| Agents | `player_0` .. `player_{n-1}` |",
        f"| Actions | Discrete({n_actions}) |",
        f"| Observations | Dict(`observation`: Box(0, 1, (size,), float32), `action_mask`: "
        f"Box(0, 1, ({n_actions},), int8)); size {sizes} |",
        f"| Rewards | {rewards} |",
        f"| Options | {options} |",
        f"| Env options | {ENV_OPTIONS_ROW} |",
        "", "## Action space", "",
        engine.actions.table(), "",
        "Steps with one legal action are applied by the engine and never reach an agent.",
        "", "## Observation space", "",
        "Made from the view's declared fields (`eights.engines.fields`): every feature is in "
        "[0, 1]; seats are relative to the observer. With 2 players:", "",
        shown.table(), "",
        "Per-seat features have n (or n - 1, the opponents) entries; indices after them "
        "shift accordingly. `action_mask` is all zeros for a seat that is not to act.",
        "", notes.strip(), "",
        "## Version history", "",
        *[f"* v{v}: {text}" for v, text in history],
    ]
    return "\n".join(lines) + "\n"
