"""The learning-curve plot: evaluation win rate against timesteps, one line per opponent."""

from __future__ import annotations

import csv
from pathlib import Path


def plot_learning_curve(csv_path: Path, png_path: Path, title: str = "",
                        chance: float | None = None) -> Path:
    """Draw ``eval.csv`` as a PNG, with each rate's 95% interval shaded.

    ``chance`` draws the rate a coin-flipping seat would get (``1/n``).
    """
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on training machines
    import matplotlib.pyplot as plt

    series: dict[str, list[tuple[int, float, float, float]]] = {}
    with open(csv_path, newline="") as handle:
        for row in csv.DictReader(handle):
            series.setdefault(row["opponent"], []).append(
                (int(row["timesteps"]), float(row["win_rate"]), float(row["ci_low"]),
                 float(row["ci_high"])))
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for opponent, points in series.items():
        points.sort()
        steps = [p[0] for p in points]
        line, = ax.plot(steps, [p[1] for p in points], marker="o", markersize=3,
                        label=f"vs {opponent}")
        ax.fill_between(steps, [p[2] for p in points], [p[3] for p in points],
                        color=line.get_color(), alpha=0.15)
    if chance is not None:
        ax.axhline(chance, color="grey", linestyle="--", linewidth=1, label="chance")
    ax.set_xlabel("timesteps (learner decisions)")
    ax.set_ylabel("evaluation win rate")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    png_path = Path(png_path)
    fig.savefig(png_path)
    plt.close(fig)
    return png_path
