"""The table as a picture: ``render_mode="rgb_array"``.

Tools built for pixel envs ask for pictures: stable-baselines3's
``make_vec_env`` makes every env with ``render_mode="rgb_array"``, and video
recorders (Gymnasium's ``RecordVideo``, SB3's ``VecVideoRecorder``) write the
frames. The picture is the text render (``render_mode="ansi"``) drawn in a
monospace font on a felt-green table, so it shows exactly what that text shows,
one seat's view, and never a hidden card: it is made from the text, not from
the game.

Every frame of one env has the same size (video needs that): a fixed grid of
:data:`COLUMNS` characters by a number of rows fixed when the env is made;
longer lines wrap, and rows past the grid are cut with an ellipsis. The figure
is built once per env and only its text changes, so a frame costs one Agg draw
(a few milliseconds).
"""

from __future__ import annotations

import textwrap

import numpy as np

#: characters per row of the picture
COLUMNS = 100
#: rows beyond one per seat: the header, the piles, and the wrapped list of legal actions
EXTRA_ROWS = 12
FONT_SIZE = 10  # points
DPI = 100
#: DejaVu Sans Mono's advance (0.602 em) and a line of 1.25 em, in points per character
CHAR_WIDTH, LINE_HEIGHT = 0.61 * FONT_SIZE, 1.25 * FONT_SIZE
MARGIN = 8  # points
FELT, INK = "#1d5e3a", "#f4f1e6"


def rows_for(num_players: int) -> int:
    """The picture's rows for a table of ``num_players``: one line per seat and the rest."""
    return num_players + EXTRA_ROWS


def fit(text: str, rows: int, columns: int = COLUMNS) -> list[str]:
    """``text`` as at most ``rows`` lines of at most ``columns`` characters: long lines wrap
    (continuations indented), and a last row of ``...`` marks lines that did not fit."""
    lines = [piece for line in text.splitlines()
             for piece in (textwrap.wrap(line, columns, subsequent_indent="    ") or [""])]
    if len(lines) > rows:
        lines = [*lines[:rows - 1], "..."]
    return lines


class TablePicture:
    """Draws a table's text as an RGB array of a fixed size (see the module docstring)."""

    def __init__(self, rows: int, columns: int = COLUMNS):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        self.rows, self.columns = rows, columns
        width = columns * CHAR_WIDTH + 2 * MARGIN
        height = rows * LINE_HEIGHT + 2 * MARGIN
        figure = Figure(figsize=(width / 72, height / 72), dpi=DPI, facecolor=FELT)
        self._canvas = FigureCanvasAgg(figure)
        self._text = figure.text(MARGIN / width, 1 - MARGIN / height, "", family="monospace",
                                 fontsize=FONT_SIZE, color=INK, va="top", ha="left",
                                 linespacing=LINE_HEIGHT / FONT_SIZE)

    def __call__(self, text: str) -> np.ndarray:
        """The picture of ``text``: a ``uint8`` array of shape (height, width, 3)."""
        self._text.set_text("\n".join(fit(text, self.rows, self.columns)))
        self._canvas.draw()
        return np.asarray(self._canvas.buffer_rgba())[..., :3].copy()


__all__ = ["COLUMNS", "TablePicture", "fit", "rows_for"]
