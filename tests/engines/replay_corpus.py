"""A corpus of seeded random games, to show a rewritten engine plays exactly the same games.

Each config below plays games 0..N-1: game ``i`` is dealt with ``seed=i`` and
its decisions come from ``random.Random(1_000_003 * i + 17)`` (a play three
times in four when one is legal, so games reach the special cards). Every
game is reduced to one digest of what a player or referee could observe
through the public API: at each decision the seat to act, the sorted legal
texts and the choice; then the referee's full event log with card texts;
then the outcome. Action ids and view objects are left out on purpose: a
rewrite may renumber the one and reshape the other without changing a game.

The digests were recorded from the engines before the port onto the new
core (crazier_eights', written on the core, from the core before its events
were declared; jokers_of_death's again after the knock after a draw, rules #14,
changed 132 and 452 of their games; baby_eating_eights' again after its draw pile was
remade the moment it runs out, rules #7, which changed 15-51% of their games; a game
no rule change touched keeps the digest recorded before the port); ``check`` replays them
with the code of today::

    .venv/bin/python -m tests.engines.replay_corpus record [--games N] [--jobs J]
    .venv/bin/python -m tests.engines.replay_corpus check [--games N] [--jobs J] [--config NAME ...]
    .venv/bin/python -m tests.engines.replay_corpus check --show CONFIG INDEX

``--show`` prints the hashed text of one game, to diff it against the same
command run in a checkout of the recorded code.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import eights
from eights.cards import card_text

#: name -> (variant, options): the configs the corpus covers
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "crazy-2p": ("crazy_eights", {"num_players": 2}),
    "crazy-4p": ("crazy_eights", {"num_players": 4}),
    "crazy-3p-match": ("crazy_eights", {"num_players": 3, "match": True, "target_score": 60}),
    "crazy-2p-keep": ("crazy_eights", {"num_players": 2, "may_keep_drawn_card": True}),
    "livery-2p": ("livery_eights", {"num_players": 2}),
    "livery-4p": ("livery_eights", {"num_players": 4}),
    "livery-3p-match": ("livery_eights", {"num_players": 3, "match": True, "match_games": 2}),
    "livery-2p-loose": ("livery_eights", {"num_players": 2, "reshuffle_empty_stock": True,
                                          "must_stack_twos": False}),
    "baby-2p": ("baby_eating_eights", {"num_players": 2}),
    "baby-4p": ("baby_eating_eights", {"num_players": 4}),
    "baby-4p-teams": ("baby_eating_eights", {"num_players": 4, "teams": 2}),
    "baby-7p": ("baby_eating_eights", {"num_players": 7}),
    "baby-3p-options": ("baby_eating_eights", {
        "num_players": 3, "guarantee_joker": "BJ", "combo_replaces_draw_four": True,
        "three_cancels_king_of_hearts": False, "ten_again_draws": False,
        "six_nine_four_in_a_row": False}),
    "baby-2p-literal": ("baby_eating_eights", {"num_players": 2, "two_player_king": "literal"}),
    # recorded from the table core itself (these two were written on it): guards later
    # rewrites (declared events, a compiled core) the same way
    "jokers-3p": ("jokers_of_death", {"num_players": 3}),
    "jokers-4p-options": ("jokers_of_death", {
        "num_players": 4, "match": True, "target_score": 40, "hand_switching": True,
        "five_pile": True, "aces": True, "free_discard_pile": True}),
    "crazier-2p": ("crazier_eights", {"num_players": 2}),
    "crazier-4p-teams": ("crazier_eights", {"num_players": 4, "teams": 2}),
    # short turn limits: games cut off mid-hand (and mid-effect) must stay the same too
    "crazy-3p-short": ("crazy_eights", {"num_players": 3, "max_turns": 40}),
    "livery-4p-short": ("livery_eights", {"num_players": 4, "max_turns": 30}),
    "baby-4p-short": ("baby_eating_eights", {"num_players": 4, "max_turns": 50}),
}

#: games recorded per config
DEFAULT_GAMES = 10_000
#: games per task handed to a worker: small enough for even progress, large enough to be cheap
CHUNK = 250
CORPUS_DIR = Path(__file__).with_suffix("")
DIGEST_CHARS = 12


# ------------------------------------------------------------------ one game
def decision_rng(index: int) -> random.Random:
    """The decision generator of game ``index``, apart from the deal's seed so both can vary."""
    return random.Random(1_000_003 * index + 17)


def choose(texts: Sequence[str], rng: random.Random) -> str:
    """A random legal text, biased towards plays so games reach the special cards."""
    plays = [t for t in texts if t.startswith("play ")]
    if plays and rng.random() < 0.75:
        return plays[rng.randrange(len(plays))]
    return texts[rng.randrange(len(texts))]


#: event kinds logged since the corpus was recorded that only re-tell, for what a seat
#: remembers (the v2 public history), a move the recorded events and decisions already fix:
#: left out of the hashed text, so the recorded games still check every other event
MEMORY_ONLY_EVENTS = frozenset({"hands_pass", "left_over", "sees", "returned"})
#: every kind left out of the hashed text: the memory's, and the closing event of Baby-Eating
#: Eights' forced draws (``forced_draw``, for a belief that must tell them from chosen ones),
#: which re-tells draws the recorded events already hold
RETOLD_EVENTS = MEMORY_ONLY_EVENTS | {"forced_draw"}


def event_line(kind: str, player: int, card: int, arg: Any) -> str:
    """One referee event as text; card texts, not ids, so a renumbering would not matter."""
    shown = card_text(card) if card >= 0 else "-"
    return f"E{kind},{player},{shown},{arg}\n"


def end_line(game: Any) -> str:
    """The outcome: how it ended, who won, the points, the rewards and the turns applied."""
    return (f"END {game.terminated} {game.truncated} {list(game.winners)} "
            f"{list(game.final_scores())} {list(game.returns())} {game.turn}\n")


def play(config: str, index: int, lines: list[str]) -> Any:
    """Play game ``index`` of ``config`` to the end, appending its decision lines to ``lines``.

    The lines are appended as the game goes, so a crash keeps the decisions before it.
    """
    variant, options = CONFIGS[config]
    game = eights.make_game(variant, seed=index, **options)
    rng = decision_rng(index)
    while not game.game_over:
        texts = sorted(game.legal_texts())
        choice = choose(texts, rng)
        lines.append(f"P{game.current_player}|{'|'.join(texts)}>{choice}\n")
        game.step(choice)
    return game


def transcript(config: str, index: int) -> tuple[list[str], str]:
    """The text hashed for one game, line by line, and how it ended.

    The ending is ``terminated``, ``truncated`` (the turn limit) or ``error``:
    an exception is written as a last line instead of raised, so a crashing
    rewrite shows up as a changed game that ``--show`` can print, not as a
    traceback that stops the whole check.
    """
    lines: list[str] = []
    try:
        game = play(config, index, lines)
        lines.extend(event_line(*event) for event in game.events
                     if event[0] not in RETOLD_EVENTS)
        lines.append(end_line(game))
    except Exception as err:
        lines.append(f"ERROR {type(err).__name__}: {err}\n")
        return lines, "error"
    return lines, "truncated" if game.truncated else "terminated"


def digest(lines: Iterable[str]) -> str:
    """The short digest stored per game: enough bits to tell any two games apart here."""
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode())
    return h.hexdigest()[:DIGEST_CHARS]


def game_digest(config: str, index: int) -> str:
    """The digest of game ``index`` of ``config`` as the code of today plays it."""
    return digest(transcript(config, index)[0])


# ------------------------------------------------------------------ many games
@dataclass
class Chunk:
    """The digests of games ``start..start+len(digests)-1`` of one config."""

    config: str
    start: int
    digests: list[str]
    endings: Counter[str]


def run_chunk(task: tuple[str, int, int]) -> Chunk:
    """Digest games ``start..stop-1`` of a config (a worker's task, so it takes one tuple)."""
    config, start, stop = task
    digests: list[str] = []
    endings: Counter[str] = Counter()
    for index in range(start, stop):
        lines, ending = transcript(config, index)
        digests.append(digest(lines))
        endings[ending] += 1
    return Chunk(config, start, digests, endings)


def tasks(config: str, games: int) -> list[tuple[str, int, int]]:
    """The chunks of one config's games, in game order."""
    return [(config, start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]


def compute(configs: Sequence[str], games: dict[str, int],
            jobs: int) -> Iterator[tuple[str, list[str], Counter[str], float]]:
    """Per config, in order: its digests, how its games ended (counts), and the seconds.

    With ``jobs > 1`` a pool works through all configs' chunks at once; the
    results come back in order, so each config is reported when its last
    chunk is in (its seconds then count from when the previous one finished).
    """
    all_tasks = [t for c in configs for t in tasks(c, games[c])]
    pool = Pool(jobs) if jobs > 1 else None
    try:
        results = pool.imap(run_chunk, all_tasks) if pool else map(run_chunk, all_tasks)
        by_config = {c: len(tasks(c, games[c])) for c in configs}
        for config in configs:
            t0 = time.perf_counter()
            digests: list[str] = []
            endings: Counter[str] = Counter()
            for _ in range(by_config[config]):
                chunk = next(results)
                digests.extend(chunk.digests)
                endings.update(chunk.endings)
            seconds = time.perf_counter() - t0
            yield config, digests, endings, seconds
    finally:
        if pool:
            pool.close()
            pool.join()


def progress(config: str, games: int, seconds: float, endings: Counter[str]) -> None:
    """One progress line per config on stderr (stdout keeps the results), with the endings.

    The share of truncated games says how much of the corpus ends at the
    turn limit rather than by the rules.
    """
    cut = endings["truncated"] / max(games, 1)
    print(f"{config:18} {games:6} games {seconds:8.1f} s  truncated {endings['truncated']} "
          f"({cut:.2%}), errors {endings['error']}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ storage
def corpus_path(config: str) -> Path:
    """Where a config's digests are stored."""
    return CORPUS_DIR / f"{config}.txt"


def header(config: str, games: int) -> str:
    """The first line of a corpus file: what was played, so a changed config is caught."""
    variant, options = CONFIGS[config]
    return f"# {variant} {json.dumps(options)} games={games}"


def write_corpus(config: str, digests: list[str]) -> None:
    """Store one config's digests, in game order, after its header."""
    CORPUS_DIR.mkdir(parents=True, exist_ok=True)
    text = "\n".join([header(config, len(digests)), *digests]) + "\n"
    corpus_path(config).write_text(text)


def read_corpus(config: str) -> list[str]:
    """One config's stored digests; refuses a file recorded with other options."""
    head, *digests = corpus_path(config).read_text().splitlines()
    if head != header(config, len(digests)):
        raise ValueError(f"{corpus_path(config)}: header {head!r} does not match "
                         f"the config {header(config, len(digests))!r}")
    return digests


# ------------------------------------------------------------------ comparison
def mismatches(config: str, games: int | None = None) -> list[int]:
    """Indexes of the first ``games`` games (all stored if None) whose digest changed.

    Run in this process, for the test; ``check`` spreads the same work over a pool.
    """
    stored = read_corpus(config)[:games]
    return differing([game_digest(config, i) for i in range(len(stored))], stored)


def differing(got: Sequence[str], stored: Sequence[str]) -> list[int]:
    """Indexes where recomputed digests differ from the stored ones (same length)."""
    return [i for i, (a, b) in enumerate(zip(got, stored, strict=True)) if a != b]


def show_command(config: str, index: int) -> str:
    """The command that prints one game's hashed text, for an assertion message."""
    return f".venv/bin/python -m tests.engines.replay_corpus check --show {config} {index}"


def show(config: str, index: int) -> int:
    """Print one game's hashed text and whether its digest matches the stored one."""
    lines, _ = transcript(config, index)
    sys.stdout.writelines(lines)
    got = digest(lines)
    path = corpus_path(config)
    stored = read_corpus(config) if path.exists() else []
    want = stored[index] if index < len(stored) else None
    print(f"# {config} game {index}: digest {got}, stored {want}", file=sys.stderr)
    return 0 if got == want else 1


# ------------------------------------------------------------------ CLI
def record(configs: Sequence[str], games: int, jobs: int) -> int:
    """Play and store every config's games; refuses to store a config where a game crashed."""
    for config, digests, endings, seconds in compute(configs, dict.fromkeys(configs, games),
                                                     jobs):
        progress(config, len(digests), seconds, endings)
        if endings["error"]:
            print(f"{config}: {endings['error']} games raised an exception; not stored. "
                  "`check --show CONFIG INDEX` prints a game up to its ERROR line.",
                  file=sys.stderr)
            return 1
        write_corpus(config, digests)
    return 0


def check(configs: Sequence[str], games: int | None, jobs: int) -> int:
    """Replay stored games with today's code; exit status 1 on any changed game."""
    stored = {c: read_corpus(c)[:games] for c in configs}
    failed = False
    for config, digests, endings, seconds in compute(
            configs, {c: len(s) for c, s in stored.items()}, jobs):
        bad = differing(digests, stored[config])
        progress(config, len(digests), seconds, endings)
        line = f"{config:18} {len(digests):6} games checked, {len(bad)} mismatches"
        if bad:
            failed = True
            line += f"; first mismatch: game {bad[0]} ({show_command(config, bad[0])})"
        print(f"{line}  [{seconds:.1f} s]", flush=True)
    print("FAILED: some games changed" if failed else "OK: every game is the same")
    return 1 if failed else 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line: ``record`` or ``check``, see the module docstring."""
    parser = argparse.ArgumentParser(prog="python -m tests.engines.replay_corpus",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["record", "check"])
    parser.add_argument("--games", type=int, default=None,
                        help=f"games per config (record: {DEFAULT_GAMES}; check: all stored)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--config", nargs="+", choices=list(CONFIGS), default=list(CONFIGS),
                        help="only these configs")
    parser.add_argument("--show", nargs=2, metavar=("CONFIG", "INDEX"),
                        help="check: print one game's hashed text instead")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; its exit status is 1 when a checked game changed."""
    args = parse_args(argv)
    started = time.perf_counter()
    print(f"engines from {Path(eights.__file__).parent}", file=sys.stderr)
    if args.command == "record":
        games = DEFAULT_GAMES if args.games is None else args.games
        status = record(args.config, games, args.jobs)
    elif args.show:
        config, index = args.show
        if config not in CONFIGS:
            raise SystemExit(f"unknown config {config!r}; the configs are {', '.join(CONFIGS)}")
        return show(config, int(index))
    else:
        status = check(args.config, args.games, args.jobs)
    print(f"total {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
