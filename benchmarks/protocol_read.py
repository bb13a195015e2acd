"""CPU time a bot spends reading one decide, per variant, for short and long histories.

    .venv/bin/python benchmarks/protocol_read.py                 # ~1 CPU s per row
    .venv/bin/python benchmarks/protocol_read.py --seconds 0.2 --variants crazy_eights

A bot reads every decide before its agent thinks: :func:`~eights.protocol.messages.parse_message`
(size, JSON, the message's shape against ``schema.json``) then what
:class:`~eights.protocol.session.BotSession` does with it before the agent acts:
the legal texts parsed and :func:`~eights.protocol.views.read_view` (the view's
shape, its semantic checks, the defaults filled in). This times exactly that, so
a change to how messages are checked shows as microseconds per decide.

Rows per variant (each a real decide of a seeded random game, full view, as our
frontends send it): ``short``, the game's first decision; ``long``, the last
decision of the longest of a few games; ``games``, every decide of a few other
games read once each, in order (what a session meets: each decide repeats the
last one's history and adds a few events; a mean per decide); and, for
crazy_eights, ``flood``, a
decide padded to 256 KiB with public events (the largest the server reads at
its default limit, what ``benchmarks/server_latency.py`` floods with). Each row
is timed for ``--seconds`` of the process's CPU time, after one untimed read
(validators compiled, deck counts cached): ``µs per read``. The validator
remembers nothing between reads, so a decide costs the same read once or again.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.protocol.attacks

from eights.engines import VARIANTS, engine_class, make_game
from eights.protocol import messages as m
from eights.protocol.server import ServerLimits
from eights.protocol.views import read_view
from tests.protocol.attacks import flood_decide

#: games played per variant to find a long history (the longest is kept)
GAMES = 6


def games(variant: str, seed: int = 7) -> list[list[str]]:
    """The decide texts of ``GAMES`` seeded random games of ``variant``, game by game."""
    rng = random.Random(seed)
    out = []
    for g in range(GAMES):
        game = make_game(variant, seed=seed * 100 + g)
        texts = []
        while not game.game_over:
            texts.append(m.encode(m.decide(game.view(game.current_player), game.turn + 1, g,
                                           None)))
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])
        out.append(texts)
    return out


def decides(variant: str, seed: int = 7) -> dict[str, str]:
    """The ``short`` and ``long`` decide texts of ``variant`` (seeded random games)."""
    played = games(variant, seed)
    return {"short": played[0][0], "long": max((g[-1] for g in played), key=len)}


def per_game_decide(variant: str, seed: int = 8) -> tuple[float, int]:
    """Microseconds of CPU time per decide over whole games read in order, each decide once
    (what a session meets: a few new events per decide), and how many were read."""
    config = make_game(variant, seed=0).config
    played = [t for g in games(variant, seed) for t in g]
    start = time.process_time()
    for text in played:
        read(text, variant, config)
    return (time.process_time() - start) / len(played) * 1e6, len(played)


def read(text: str, variant: str, config) -> None:
    """What a bot session does with a decide before its agent acts."""
    msg = m.parse_message(text, "frontend", ServerLimits().max_message_bytes)
    actions = engine_class(variant).actions
    legal = tuple(sorted(actions.parse(t) for t in msg["legal"]))
    read_view(msg["view"], variant, config, legal)


def per_read(text: str, variant: str, seconds: float) -> tuple[float, int]:
    """Microseconds of CPU time per read of ``text``, and how many reads were timed."""
    config = make_game(variant, seed=0).config
    read(text, variant, config)  # warm: validators, deck counts, caches
    reads, start = 0, time.process_time()
    while True:
        read(text, variant, config)
        reads += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return spent / reads * 1e6, reads


def rows(variants: Sequence[str], seconds: float) -> list[dict]:
    out = []
    for variant in variants:
        texts = decides(variant)
        if variant == "crazy_eights":
            texts["flood"] = flood_decide(ServerLimits().max_message_bytes, variant)
        for name, text in texts.items():
            micros, reads = per_read(text, variant, seconds)
            events = m.parse_message(text, "frontend", 1 << 30)["view"]["history"]
            out.append({"variant": variant, "history": name, "events": len(events),
                        "bytes": len(text), "us": micros, "reads": reads})
        micros, reads = per_game_decide(variant)
        out.append({"variant": variant, "history": "games", "events": None, "bytes": None,
                    "us": micros, "reads": reads})
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="CPU seconds each row is timed for (default 1)")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be above 0")
    table = Table(title="CPU time per decide read (parse_message + read_view)")
    for col in ("variant", "history", "events", "bytes", "µs per read", "reads"):
        table.add_column(col, justify="left" if col in ("variant", "history") else "right")
    for r in rows(args.variants, args.seconds):
        table.add_row(r["variant"], r["history"], *(
            "" if r[k] is None else f"{r[k]:,.0f}" for k in ("events", "bytes", "us", "reads")))
    Console(width=100).print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
