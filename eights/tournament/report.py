"""The tournament report: one HTML page with the standings, the pairwise table,
a win-rate heatmap and the rating history, the two plots as PNGs beside it.

The head-to-head table lists each pair of agents once, the better-placed
agent first (the heatmap is the full matrix). The rating history is drawn
at the end of each round, where every table has played the same number of
games: the history is one pass over the games in schedule order, and
within a round the schedule plays table after table, so points inside a
round would show agents' ratings moving in blocks as their tables come up
rather than anything about the agents. Its last point is the order-free
rating of the standings (:mod:`eights.tournament.ratings`).

The page says where it came from, so a report passed around can be checked and
rerun: the eights version, when it was written, the command line (when the
caller gives it: ``eights tournament`` does) and the SHA-256 of every model
file a ``policy`` agent played.
"""

from __future__ import annotations

import hashlib
import html
import math
import shlex
import textwrap
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from ..config import ConfigError, options_text
from .results import PairResult, TournamentResult
from .text import failures_text, interval, number

HEATMAP = "winrate_heatmap.png"
HISTORY = "rating_history.png"


def write_report(result: TournamentResult, out: str | Path,
                 command: Sequence[str] | None = None) -> Path:
    """Write ``report.html``, ``winrate_heatmap.png`` and ``rating_history.png`` to ``out``;
    ``command`` is the command line that ran the tournament, for the page to show."""
    import matplotlib

    matplotlib.use("Agg")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    plot_heatmap(result, out / HEATMAP)
    plot_history(result, out / HISTORY)
    page = out / "report.html"
    tmp = out / ".report.html.tmp"
    tmp.write_text(render_html(result, command))
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


def pairs_once(result: TournamentResult) -> list[PairResult]:
    """Each pair of agents once, from the better-placed agent's side, in standing order."""
    place = {a: i for i, a in enumerate(result.ranking())}
    ordered = sorted(result.pairs, key=lambda p: (place.get(p.agent, len(place)),
                                                  place.get(p.opponent, len(place))))
    seen: set[frozenset[str]] = set()
    once = []
    for p in ordered:
        key = frozenset((p.agent, p.opponent))
        if key not in seen:
            seen.add(key)
            once.append(p)
    return once


#: longest agent name a plot shows whole; longer ones (paths, commands) keep both ends
LABEL_CHARS = 28


def _label(result: TournamentResult, agent: str) -> str:
    """``3 heuristic``: place in the standings and the name, shortened to fit a plot."""
    place = result.ranking().index(agent) + 1
    name = agent if len(agent) <= LABEL_CHARS else f"{agent[:10]}...{agent[-(LABEL_CHARS - 13):]}"
    return f"{place} {name}" + (" (never started)" if result.standing(agent).never_started
                                else "")


def plot_heatmap(result: TournamentResult, path: Path) -> None:
    import matplotlib.pyplot as plt
    import numpy as np

    agents, matrix = rate_matrix(result)
    labels = [_label(result, a) for a in agents]
    data = np.array(matrix, dtype=float)
    size = 1.2 + 0.9 * len(agents)
    width = size + 2.0 + 0.075 * max(len(label) for label in labels)  # room for the labels
    fig, ax = plt.subplots(figsize=(width, size + 0.4))
    image = ax.imshow(np.ma.masked_invalid(data), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(agents)), labels=[str(k) for k in range(1, len(agents) + 1)])
    ax.set_yticks(range(len(agents)), labels=labels)
    ax.set_xlabel("opponent (by place)")
    ax.set_ylabel("agent")
    for i in range(len(agents)):
        for j in range(len(agents)):
            if not math.isnan(data[i, j]):
                ax.text(j, i, f"{data[i, j]:.0%}", ha="center", va="center",
                        color="white" if abs(data[i, j] - 0.5) > 0.3 else "black")
    fig.colorbar(image, ax=ax, label="finished ahead of the opponent")
    ax.set_title(textwrap.fill(_title(result), int(9 * width)), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_history(result: TournamentResult, path: Path) -> None:
    """Each agent's rating at the end of each round (and at the last game rated)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    per_round = result.tournament.games_per_round
    rounds = [h.games / per_round for h in result.history]
    marker = "o" if len(rounds) <= 30 else None
    for agent in result.ranking():
        mu = [h.ratings[agent].mu for h in result.history]
        lo = [h.ratings[agent].interval[0] for h in result.history]
        hi = [h.ratings[agent].interval[1] for h in result.history]
        (line,) = ax.plot(rounds, mu, label=_label(result, agent), marker=marker, markersize=3)
        ax.fill_between(rounds, lo, hi, color=line.get_color(), alpha=0.12)
    ax.set_xlabel(f"rounds played (a round: one deal at each of the "
                  f"{len(result.tournament.tables())} tables in every seating, "
                  f"{per_round:,} games)")
    ax.set_ylabel("openskill rating (mu, 95% band)")
    ax.set_title(f"{_title(result)}\nrating after each round", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _title(result: TournamentResult) -> str:
    return f"{result.tournament.describe()}: {result.games_played:,} games"


def model_hashes(result: TournamentResult) -> dict[str, str]:
    """Each ``policy`` agent spec -> the SHA-256 of the model file it played (a file that
    is gone by now is left out: the standings still stand)."""
    from ..agents.policy import resolve_model

    t = result.tournament
    hashes = {}
    for spec in t.agents:
        kind, _, arg = spec.split("#", 1)[0].partition(":")
        if kind != "policy":
            continue
        try:
            path = resolve_model(arg.split("?", 1)[0], t.variant, t.num_players)
        except ConfigError:
            continue
        hashes[spec] = f"{path.name} sha256:{hashlib.sha256(path.read_bytes()).hexdigest()}"
    return hashes


def provenance_html(result: TournamentResult, command: Sequence[str] | None) -> str:
    """The page's last section: version, date, command line and model hashes."""
    from .. import __version__

    e = html.escape
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    items = [f"<li>eights {e(__version__)}, written {when}</li>"]
    if command:
        items.append(f"<li>command: <code>{e(shlex.join(command))}</code></li>")
    items += [f"<li>{e(spec)}: <code>{e(digest)}</code></li>"
              for spec, digest in model_hashes(result).items()]
    return f"<h2>Provenance</h2>\n<ul>{''.join(items)}</ul>"


def render_html(result: TournamentResult, command: Sequence[str] | None = None) -> str:
    e = html.escape
    t = result.tournament
    rows = []
    rank = 0
    for s in result.standings:
        failures = f"<td>{e(failures_text(s.failures, s.forfeits, s.never_started))}</td>"
        if s.never_started:
            rows.append(f"<tr><td>-</td><td>{e(s.agent)}</td>"
                        + "<td>-</td>" * 3 + f"<td>{s.games:,}</td>" + "<td>-</td>" * 4
                        + f"{failures}</tr>")
            continue
        rank += 1
        rows.append(
            f"<tr><td>{rank}</td><td>{e(s.agent)}</td><td>{number(s.rating)}</td>"
            f"<td>{interval(s.rating_low, s.rating_high)}</td><td>{number(s.ordinal)}</td>"
            f"<td>{s.games:,}</td><td>{number(s.win_rate, '.1%')}</td>"
            f"<td>{interval(s.win_low, s.win_high, '.1%')}</td><td>{number(s.margin, '+.1f')}</td>"
            f"<td>{interval(s.margin_low, s.margin_high)}</td>{failures}</tr>")
    pair_rows = []
    for p in pairs_once(result):
        pair_rows.append(
            f"<tr><td>{e(p.agent)}</td><td>{e(p.opponent)}</td><td>{p.games:,}</td>"
            f"<td>{number(p.rate, '.1%')}</td><td>{interval(p.rate_low, p.rate_high, '.1%')}</td>"
            f"<td>{number(p.margin, '+.1f')}</td><td>{interval(p.margin_low, p.margin_high)}</td>"
            f"</tr>")
    unranked = ""
    if any(s.never_started for s in result.standings):
        unranked = ("<p>An agent marked <em>never started</em> had no decision of its own: "
                    "its bot failed to start every time it was needed, so its games were "
                    "played by fallback moves or forfeited. It is listed last and unranked; "
                    "its games still count for its opponents.</p>")
    options = options_text(t.options)
    status = (f"all {result.games_played:,} games played" if result.complete
              else f"partial: {result.games_played:,} of {result.games_total:,} games played")
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
<p>{e(t.describe())}; seed {t.seed}; options: {e(options)}; {e(status)}.</p>
<h2>Standings</h2>
<p>Sorted by the conservative rating (mu &minus; 3 sigma) of openskill's Plackett-Luce
model over finishing orders. Win rates count a win shared among the seats an agent
holds; margins are points (signed so that more is better) minus the other seats' mean.
Intervals are 95%, written [low, high]; a win rate's interval never leaves [0%, 100%].
Failures are what an agent counted against itself (an external bot's fallback
moves, restarts and their causes) and its forfeits.</p>
<table><thead><tr><th>#</th><th>agent</th><th>rating</th><th>95% CI</th><th>mu&minus;3&sigma;</th>
<th>games</th><th>win rate</th><th>95% CI</th><th>margin</th><th>95% CI</th><th>failures</th>
</tr></thead>
<tbody>{''.join(rows)}</tbody></table>
{unranked}
<h2>Head to head</h2>
<p>Each pair once, the better-placed agent first: how often it finished ahead of the
opponent in the games both played (ties count half), and the mean points margin
between them. The heatmap shows every agent against every other.</p>
<img src="{HEATMAP}" alt="win-rate heatmap">
<table><thead><tr><th>agent</th><th>opponent</th><th>games</th><th>ahead</th><th>95% CI</th>
<th>margin</th><th>95% CI</th></tr></thead><tbody>{''.join(pair_rows)}</tbody></table>
<h2>Rating history</h2>
<p>Each agent's rating at the end of each round (one deal at every table in every
seating), where every table has played equally; the last point is the last game
rated. Points inside a round are not drawn: the schedule plays a round table by
table, so they would show whose tables came first, not how the agents compare.</p>
<img src="{HISTORY}" alt="rating history">
<p>Raw data: <code>results.sqlite</code> (one row per game, replayable),
<code>summary.json</code>, <code>standings.csv</code>, <code>pairs.csv</code>,
<code>rating_history.csv</code>.</p>
{provenance_html(result, command)}
</body></html>
"""
