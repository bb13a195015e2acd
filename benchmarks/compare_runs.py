"""Compare training runs: learning curves side by side, and what each run bought.

Reads each run directory's ``eval.csv`` and ``settings.json`` (written by
``eights train``) and prints, per run, its settings that differ, the learner
decisions it trained, its rate (decisions per second of its wall time), and its
evaluation rates against one opponent: the last three evaluations' mean and the
best. With ``--plot`` it draws both views of the curves into one PNG: the rate
against learner decisions (sample efficiency) and against minutes (what a time
budget buys). Runs meant for comparison should run at the same time on the same
machine, so they share its load.

    python benchmarks/compare_runs.py runs/a runs/b --opponent heuristic --plot curves.png
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path


def read_run(run_dir: Path, opponent: str) -> dict:
    """A run's settings and its evaluation curve against ``opponent``."""
    settings = json.loads((run_dir / "settings.json").read_text())
    points = []
    with open(run_dir / "eval.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["opponent"] == opponent:
                points.append((int(row["timesteps"]), float(row["seconds"]),
                               float(row["win_rate"]), float(row["ci_low"]),
                               float(row["ci_high"])))
    if not points:
        raise SystemExit(f"{run_dir}: eval.csv has no evaluation against {opponent!r}")
    points.sort()
    return {"dir": run_dir, "settings": settings, "points": points}


def label(run: dict, keys: list[str]) -> str:
    s = run["settings"]
    return " ".join(f"{k}={s[k]}" for k in keys) or str(run["dir"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run directories of eights train")
    parser.add_argument("--opponent", default="heuristic", help="evaluation opponent to compare")
    parser.add_argument("--plot", type=Path, help="write the curves to this PNG")
    args = parser.parse_args(argv)
    runs = [read_run(d, args.opponent) for d in args.runs]
    keys = sorted(k for k in runs[0]["settings"]
                  if k not in ("out", "progress")
                  and len({json.dumps(r["settings"].get(k)) for r in runs}) > 1)
    print(f"{'run':<32} {'decisions':>10} {'minutes':>8} {'per s':>7} "
          f"{'last 3 vs ' + args.opponent:>20} {'best':>7}")
    for run in runs:
        steps, seconds = run["points"][-1][:2]
        rate = steps / seconds if seconds else 0.0
        last = [p[2] for p in run["points"][-3:]]
        best = max(p[2] for p in run["points"])
        print(f"{label(run, keys):<32} {steps:>10,} {seconds / 60:>8.1f} {rate:>7,.0f} "
              f"{sum(last) / len(last):>20.1%} {best:>7.1%}")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, (by_steps, by_time) = plt.subplots(1, 2, figsize=(11, 4), dpi=100, sharey=True)
        for run in runs:
            points = run["points"]
            name = label(run, keys)
            for ax, x in ((by_steps, [p[0] for p in points]),
                          (by_time, [p[1] / 60 for p in points])):
                line, = ax.plot(x, [p[2] for p in points], marker="o", markersize=3, label=name)
                ax.fill_between(x, [p[3] for p in points], [p[4] for p in points],
                                color=line.get_color(), alpha=0.12)
        by_steps.set_xlabel("learner decisions")
        by_time.set_xlabel("minutes (both runs at once on one 2-core machine)")
        by_steps.set_ylabel(f"evaluation win rate vs {args.opponent}")
        for ax in (by_steps, by_time):
            ax.grid(alpha=0.3)
            ax.legend(loc="lower right")
        fig.suptitle(f"{runs[0]['settings']['variant']}, "
                     f"{runs[0]['settings']['num_players']} players")
        fig.tight_layout()
        fig.savefig(args.plot)
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
