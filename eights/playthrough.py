"""Playthroughs: a whole seeded game as text: every view, the observation and mask of the
seat to act, every legal action list and event (each written by its declared kind,
:func:`eights.engines.events.event_text`).

OpenSpiel keeps such files per game; so do we (``tests/playthroughs/``). A
change to the rules, the views or the notation shows up as a diff to review
instead of a surprise. Regenerate them with
``EIGHTS_UPDATE_PLAYTHROUGHS=1 pytest tests/test_playthroughs.py`` after
checking that the diff is intended.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from .engines import make_game
from .engines.base import PlayerView
from .engines.events import event_text
from .engines.fields import value_text


def view_text(view: PlayerView) -> str:
    """A view's fields, one line, each written by its declared kind (cards in notation)."""
    kinds = type(view).field_kinds
    return " ".join(f"{name}={value_text(kind, getattr(view, name), view.cardset)}"
                    for name, kind in kinds.items())


def observation_text(observation: np.ndarray) -> str:
    """An observation vector, sparse: ``index=value`` for every non-zero feature."""
    return " ".join(f"{i}={observation[i]:.4g}" for i in np.flatnonzero(observation))


def playthrough(variant: str, seed: int, actions_seed: int = 0, **config: Any) -> str:
    """Play one game with seeded random decisions and write down everything.

    Decisions are uniform among the card plays when there are any, else among
    all legal actions: uniform over everything draws so often that games run
    to thousands of turns.
    """
    game = make_game(variant, seed=seed, **config)
    encoder = game.encoder(game.config)
    rng = random.Random(actions_seed)
    lines = [f"variant: {variant}", f"config: {game.config.to_dict()}", f"seed: {seed}",
             f"actions_seed: {actions_seed}", ""]
    shown = 0
    while True:
        log = game.events
        for e in log[shown:]:
            lines.append(f"  event: {event_text(e, game.event_kinds, game.cardset)}")
        shown = len(log)
        if game.game_over:
            break
        lines.append(f"turn {game.turn}: player {game.current_player} to act")
        for seat in range(game.num_players):
            lines.append(f"  view {seat}: {view_text(game.view(seat))}")
        legal = game.legal_texts()
        lines.append(f"  observation {game.current_player}: "
                     f"{observation_text(encoder.encode(game, game.current_player))}")
        lines.append(f"  mask: {' '.join(map(str, np.flatnonzero(game.legal_mask())))}")
        lines.append(f"  legal: {', '.join(legal)}")
        plays = [t for t in legal if t.startswith("play ")] or legal
        choice = plays[rng.randrange(len(plays))]
        lines.append(f"  action: {choice}")
        game.step(choice)
    lines.append(f"terminated: {game.terminated} truncated: {game.truncated}")
    lines.append(f"winners: {list(game.winners)} scores: {list(game.final_scores())} "
                 f"returns: {game.returns()}")
    lines.append(f"record: {game.record().to_json()}")
    return "\n".join(lines) + "\n"
