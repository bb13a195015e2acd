"""The tournament report: one HTML page with the standings, the pairwise table,
a win-rate heatmap and the rating history, the two plots as PNGs beside it."""

from __future__ import annotations

import html
import math
from pathlib import Path

from .results import TournamentResult

HEATMAP = "winrate_heatmap.png"
HISTORY = "rating_history.png"


def write_report(result: TournamentResult, out: str | Path) -> Path:
    """Write ``report.html``, ``winrate_heatmap.png`` and ``rating_history.png`` to ``out``."""
    import matplotlib

    matplotlib.use("Agg")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    plot_heatmap(result, out / HEATMAP)
    plot_history(result, out / HISTORY)
    page = out / "report.html"
    tmp = out / ".report.html.tmp"
    tmp.write_text(render_html(result))
    tmp.replace(page)
    return page


def rate_matrix(result: TournamentResult) -> tuple[list[str], list[list[float]]]:
    """Agents in standing order and ``m[i][j]``: how often agent i finished ahead of agent j."""
    agents = result.ranking()
    matrix = [[math.nan] * len(agents) for _ in agents]
    index = {a: i for i, a in enumerate(agents)}
    for p in result.pairs:
        matrix[index[p.agent]][index[p.opponent]] = p.rate
    return agents, matrix


def plot_heatmap(result: TournamentResult, path: Path) -> None:
    import matplotlib.pyplot as plt
    import numpy as np

    agents, matrix = rate_matrix(result)
    data = np.array(matrix, dtype=float)
    size = 1.2 + 0.9 * len(agents)
    fig, ax = plt.subplots(figsize=(size + 2.5, size))
    image = ax.imshow(np.ma.masked_invalid(data), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(agents)), labels=agents, rotation=35, ha="right")
    ax.set_yticks(range(len(agents)), labels=agents)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    for i in range(len(agents)):
        for j in range(len(agents)):
            if not math.isnan(data[i, j]):
                ax.text(j, i, f"{data[i, j]:.0%}", ha="center", va="center",
                        color="white" if abs(data[i, j] - 0.5) > 0.3 else "black")
    fig.colorbar(image, ax=ax, label="finished ahead of the opponent")
    ax.set_title(_title(result), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_history(result: TournamentResult, path: Path) -> None:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    games = [h.games for h in result.history]
    for agent in result.ranking():
        mu = [h.ratings[agent].mu for h in result.history]
        lo = [h.ratings[agent].interval[0] for h in result.history]
        hi = [h.ratings[agent].interval[1] for h in result.history]
        (line,) = ax.plot(games, mu, label=agent)
        ax.fill_between(games, lo, hi, color=line.get_color(), alpha=0.12)
    ax.set_xlabel("games rated (schedule order)")
    ax.set_ylabel("openskill rating (mu, 95% band)")
    ax.set_title(_title(result), fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _title(result: TournamentResult) -> str:
    return f"{result.tournament.describe()}: {result.games_played:,} games"


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.1%}"


def _num(x: float, digits: int = 1) -> str:
    return "-" if x is None or math.isnan(x) else f"{x:.{digits}f}"


def render_html(result: TournamentResult) -> str:
    e = html.escape
    t = result.tournament
    rows = []
    for rank, s in enumerate(result.standings, 1):
        rows.append(
            f"<tr><td>{rank}</td><td>{e(s.agent)}</td><td>{_num(s.rating)}</td>"
            f"<td>{_num(s.rating_low)}&ndash;{_num(s.rating_high)}</td><td>{_num(s.ordinal)}</td>"
            f"<td>{s.games:,}</td><td>{_pct(s.win_rate)}</td>"
            f"<td>{_pct(s.win_low)}&ndash;{_pct(s.win_high)}</td><td>{_num(s.margin)}</td>"
            f"<td>{_num(s.margin_low)}&ndash;{_num(s.margin_high)}</td></tr>")
    pair_rows = []
    for p in result.pairs:
        pair_rows.append(
            f"<tr><td>{e(p.agent)}</td><td>{e(p.opponent)}</td><td>{p.games:,}</td>"
            f"<td>{_pct(p.rate)}</td><td>{_pct(p.rate_low)}&ndash;{_pct(p.rate_high)}</td>"
            f"<td>{_num(p.margin)}</td><td>{_num(p.margin_low)}&ndash;{_num(p.margin_high)}</td>"
            f"</tr>")
    options = ", ".join(f"{k}={v}" for k, v in t.options.items()) or "defaults"
    status = ("complete" if result.complete
              else f"partial: {result.games_played:,} of {result.games_total:,} games")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>eights tournament: {e(t.variant)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border-bottom: 1px solid #ddd; padding: 0.3em 0.8em; text-align: right; }}
th:nth-child(-n+2), td:nth-child(-n+2) {{ text-align: left; }}
img {{ max-width: 100%; }}
</style></head><body>
<h1>{e(t.variant)}: {t.num_players}-player round-robin</h1>
<p>{e(t.describe())}; seed {t.seed}; options: {e(options)}. {e(status)}.</p>
<h2>Standings</h2>
<p>Sorted by the conservative rating (mu &minus; 3 sigma) of openskill's Plackett-Luce
model over finishing orders. Win rates count a win shared among the seats an agent
holds; margins are points (signed so that more is better) minus the other seats' mean.
Intervals are 95%.</p>
<table><thead><tr><th>#</th><th>agent</th><th>rating</th><th>95% CI</th><th>mu&minus;3&sigma;</th>
<th>games</th><th>win rate</th><th>95% CI</th><th>margin</th><th>95% CI</th></tr></thead>
<tbody>{''.join(rows)}</tbody></table>
<h2>Head to head</h2>
<p>How often the agent finished ahead of the opponent in the games both played (ties
count half), and the mean points margin between them.</p>
<img src="{HEATMAP}" alt="win-rate heatmap">
<table><thead><tr><th>agent</th><th>opponent</th><th>games</th><th>ahead</th><th>95% CI</th>
<th>margin</th><th>95% CI</th></tr></thead><tbody>{''.join(pair_rows)}</tbody></table>
<h2>Rating history</h2>
<img src="{HISTORY}" alt="rating history">
<p>Raw data: <code>results.sqlite</code> (one row per game, replayable),
<code>summary.json</code>, <code>standings.csv</code>, <code>pairs.csv</code>,
<code>rating_history.csv</code>.</p>
</body></html>
"""
