"""``render_mode="rgb_array"``: the text render drawn as a picture of a fixed size."""

from __future__ import annotations

import numpy as np

from eights.envs.picture import COLUMNS, TablePicture, fit, rows_for
from eights.training import SingleAgentEnv


def test_long_lines_wrap_and_rows_past_the_grid_are_cut() -> None:
    text = "top\n" + "legal: " + ", ".join(["play 8S pile 3"] * 20) + "\nlast"
    lines = fit(text, rows=50)
    assert lines[0] == "top" and lines[-1] == "last" and len(lines) > 3
    assert all(len(line) <= COLUMNS for line in lines)
    assert lines[2].startswith("    ")  # a continuation is indented
    cut = fit(text, rows=3)
    assert cut == [*lines[:2], "..."]


def test_the_picture_is_the_learners_text_and_keeps_its_size() -> None:
    env = SingleAgentEnv("crazy_eights", "random", num_players=3, render_mode="rgb_array")
    text_env = SingleAgentEnv("crazy_eights", "random", num_players=3, render_mode="ansi")
    draw = TablePicture(rows_for(3))
    env.reset(seed=4)
    text_env.reset(seed=4)
    shapes = set()
    for _ in range(5):
        frame = env.render()
        assert frame.dtype == np.uint8 and frame.shape[2] == 3
        # drawn from the seat's text: it shows what that shows and no hidden card
        assert np.array_equal(frame, draw(text_env.render()))
        shapes.add(frame.shape)
        action = int(np.flatnonzero(env.action_masks())[0])
        _, _, done, cut, _ = env.step(action)
        text_env.step(action)
        if done or cut:
            break
    assert len(shapes) == 1
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 2  # ink on the felt
