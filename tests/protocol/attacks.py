"""Misbehaving clients of ``eights serve``, and a good client that times its decisions.

The server tests (tests/protocol/test_server_attacks.py) use these, and so
does a person measuring the server by hand, against a server started with
``eights serve --port 0`` (which prints the port it took)::

    python -m tests.protocol.attacks latency ws://127.0.0.1:PORT --flooders 4 --seconds 10
    python -m tests.protocol.attacks sizes --games 20

``latency`` plays decisions as a good client while ``--flooders`` clients
send large valid decides as fast as the server takes them (their bytes set by
``--flood-bytes``; ``--kind too_large`` or ``garbage`` floods with messages
over the limit or garbage instead), and prints the good client's latencies;
``sizes`` plays real games of every variant and prints the largest decide
message of each table (docs/protocol.md, "What the server promises", quotes
both). ``flood`` and ``games`` are the flooders and a whole-games player on
their own, which the tests run as processes.

The flooders run in a process of their own, niced: they stand for clients on
other machines, so their work must not compete with the server's for its
cores, nor with the good client's for one interpreter. The server runs in
its own process too (``eights serve``), as it does in use.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from eights.agents import make_agent
from eights.engines import make_game
from eights.protocol import messages as m

ROOT = Path(__file__).resolve().parents[2]
VARIANT = "crazy_eights"
def _can_bind(host: str) -> bool:
    import socket

    try:
        with socket.socket() as sock:
            sock.bind((host, 0))
    except OSError:
        return False
    return True


#: the tests of limits per address connect from other loopback addresses, 127.0.0.2-254
needs_other_loopback = pytest.mark.skipif(
    not (_can_bind("127.0.0.2") and _can_bind("127.0.0.254")),
    reason="127.0.0.2-254 are not local addresses here (Linux routes all of 127/8 to the "
           "machine; others may not)")


#: a public event of an ordinary size, repeated to make a long (valid) history
PAD_EVENT = {"kind": "pass", "player": 1, "card": None, "arg": None}


def hello_text(variant: str = VARIANT, **config: object) -> str:
    return m.encode(m.hello(variant, make_game(variant, seed=0, **config).config.to_dict(),
                            name="attacks"))


def good_decides(count: int, seed: int = 1, variant: str = VARIANT) -> list[str]:
    """``count`` decide messages of real heuristic games, full views, as our frontends send."""
    out: list[str] = []
    game_no = 0
    while len(out) < count:
        game = make_game(variant, seed=seed * 1000 + game_no)
        agents = [make_agent("heuristic", variant, p) for p in range(game.num_players)]
        while not game.game_over and len(out) < count:
            view = game.view(game.current_player)
            out.append(m.encode(m.decide(view, len(out) + 1, game_no + 1, 5000)))
            game.step(agents[game.current_player].act(view))
        game_no += 1
    return out


def flood_decide(target_bytes: int, variant: str = VARIANT) -> str:
    """A valid decide of about ``target_bytes`` (under it): a real view, its history padded.

    Every byte of it is read and checked by the server, and it is answered
    with an action: what a frontend may send, only longer than any real game.
    """
    game = make_game(variant, seed=3)
    message = m.decide(game.view(game.current_player), 1, 1, None)
    base = len(m.encode(message))
    per_event = len(m.encode(PAD_EVENT)) + 1
    message["view"]["history"] += [PAD_EVENT] * max(0, (target_bytes - base) // per_event)
    return m.encode(message)


# ------------------------------------------------------------------ mutated views
def mutated(value: object, rng: random.Random, cards: Sequence[str]) -> object:
    """``value`` changed a little, keeping its JSON shape: a flag flipped, a number moved, a
    card swapped, an item dropped, repeated or changed, an array emptied. What a frontend
    with a bug in its bookkeeping sends: it passes the schema, but may fit no position."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return max(0, value + rng.choice((-2, -1, 1, 2)))
    if value is None:
        return rng.choice((0, cards[0]))
    if isinstance(value, str):
        return rng.choice(cards)
    if isinstance(value, list):
        items = list(value)
        how = rng.randrange(4)
        if how == 0 or not items:
            return []
        i = rng.randrange(len(items))
        if how == 1:
            del items[i]
        elif how == 2:
            items.append(copy.deepcopy(items[i]))
        else:
            items[i] = mutated(items[i], rng, cards)
        return items
    if isinstance(value, dict):
        if not value:
            return {cards[0]: 1}
        out = dict(value)
        key = rng.choice(list(out))
        if rng.random() < 0.5:
            del out[key]
        else:
            out[key] = mutated(out[key], rng, cards)
        return out
    return value


def mutated_decides(variant: str, positions: int, seed: int = 0
                    ) -> Iterator[tuple[str, dict]]:
    """(field, decide) for every field of the full view of ``positions`` decision points of
    random games, that field mutated (:func:`mutated`); seeded."""
    rng = random.Random(seed)
    seen = 0
    for g in itertools.count():
        game = make_game(variant, seed=seed * 1000 + g)
        cards = list(game.cardset.texts)
        while not game.game_over and seen < positions:
            message = m.decide(game.view(game.current_player), seen + 1, g + 1, None)
            for field in message["view"]:
                view = {**message["view"], field: mutated(message["view"][field], rng, cards)}
                yield field, {**message, "view": view}
            seen += 1
            legal = game.legal_actions()
            game.step(legal[rng.randrange(len(legal))])
        if seen >= positions:
            return


# ------------------------------------------------------------------ a server
@contextlib.contextmanager
def serve_process(*options: str, agent: str = "heuristic",
                  variant: str = VARIANT) -> Iterator[str]:
    """``eights serve`` in a process of its own on a free port; yields its URL."""
    proc = subprocess.Popen([sys.executable, "-m", "eights.cli", "serve", "--agent", agent,
                             "--variant", variant, "--port", "0", *options],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = proc.stdout.readline()
        if " at ws://" not in line:
            proc.kill()
            raise RuntimeError(f"eights serve did not start: {line}{proc.stderr.read()}")
        yield line.split(" at ")[1].split()[0]
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


# ------------------------------------------------------------------ clients
def _connect(url: str, **options: object):
    from websockets.asyncio.client import connect

    return connect(url, proxy=None, max_size=None, open_timeout=30, **options)


async def good_client(url: str, decides: Iterable[str], *, pause: float = 0.0,
                      deadline: float | None = None) -> list[float]:
    """Send ``decides`` one at a time, each after the last is answered; the seconds of each.

    Every answer must be an action for the decision's id. Stops early at
    ``deadline`` (a ``time.monotonic()``).
    """
    latencies = []
    async with _connect(url) as ws:
        await ws.send(hello_text())
        reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert reply["type"] == "ready", reply
        for text in decides:
            if deadline is not None and time.monotonic() > deadline:
                break
            start = time.perf_counter()
            await ws.send(text)
            reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
            latencies.append(time.perf_counter() - start)
            assert reply["type"] == "action", reply
            if pause:
                await asyncio.sleep(pause)
        await ws.send(m.encode(m.bye()))
    return latencies


async def round_trips(url: str, text: str, count: int) -> list[float]:
    """Seconds for each of ``count`` answers to ``text``, sent alone one after another."""
    async with _connect(url) as ws:
        await ws.send(hello_text())
        await ws.recv()
        out = []
        for _ in range(count):
            start = time.perf_counter()
            await ws.send(text)
            reply = json.loads(await asyncio.wait_for(ws.recv(), 60))
            out.append(time.perf_counter() - start)
            assert reply["type"] == "action", reply
        await ws.send(m.encode(m.bye()))
    return out


async def flooder(url: str, text: str, stop: asyncio.Event, answered: list[int],
                  local_host: str | None = None) -> None:
    """Send ``text`` again and again without waiting, reading the answers as they come.

    A server that ends the session (too many bad messages) is connected to
    again; one that refuses the connection is tried again after a moment.
    """
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    options = {"local_addr": (local_host, 0)} if local_host else {}
    while not stop.is_set():
        try:
            async with _connect(url, **options) as ws:
                await ws.send(hello_text())
                await ws.recv()

                async def read(ws=ws) -> None:
                    async for reply in ws:
                        if json.loads(reply)["type"] == "action":
                            answered[0] += 1

                reader = asyncio.create_task(read())
                try:
                    while not stop.is_set():
                        await ws.send(text)
                finally:
                    reader.cancel()
        except (ConnectionClosed, InvalidHandshake, OSError):
            await asyncio.sleep(0.05)


async def idle_connections(url: str, count: int, local_host: str | None = None,
                           wait: float = 0.5) -> tuple[Counter, list]:
    """Open ``count`` connections at once and say nothing; how each fared, and the open ones.

    ``admitted``: open and unanswered after ``wait`` seconds (kept open,
    returned); ``busy``: told so; ``cut``: the connection failed.
    """
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage

    options = {"local_addr": (local_host, 0)} if local_host else {}
    outcomes: Counter = Counter()
    kept = []

    async def one() -> None:
        try:
            ws = await _connect(url, **options)
        except (TimeoutError, InvalidHandshake, InvalidMessage, OSError):
            outcomes["cut"] += 1
            return
        try:
            reply = json.loads(await asyncio.wait_for(ws.recv(), wait))
            outcomes[reply.get("code", reply["type"])] += 1
            await ws.close()
        except TimeoutError:
            outcomes["admitted"] += 1
            kept.append(ws)
        except ConnectionClosed:
            outcomes["cut"] += 1

    await asyncio.gather(*(one() for _ in range(count)))
    return outcomes, kept


async def silent_sessions(url: str, count: int, local_host: str) -> list:
    """``count`` sessions from ``local_host``, opened one after another: each says hello, is
    answered ``ready`` and then says nothing more (returned open, oldest first)."""
    out = []
    for _ in range(count):
        ws = await _connect(url, local_addr=(local_host, 0))
        await ws.send(hello_text())
        reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert reply["type"] == "ready", reply
        out.append(ws)
    return out


def play_games(url: str, games: int, seed: int, **options: object) -> dict:
    """An ExternalAgent on ``url`` plays ``games`` games against random: what it saw."""
    from eights.agents import play_game

    spec = url + ("?" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
    bot = make_agent(spec, VARIANT, seed=seed)
    start = time.monotonic()
    try:
        for g in range(games):
            bot.seed(g)
            game = play_game(make_game(VARIANT, seed=seed * 100 + g),
                             [bot, make_agent("random", VARIANT, g)])
            assert game.game_over
        return {"decisions": bot.decisions, "failures": dict(bot.failures),
                "seconds": time.monotonic() - start}
    finally:
        bot.close()


#: what a flooder sends: the largest valid decide, a message over the limit (read and refused),
#: or garbage
FLOODS = ("valid", "too_large", "garbage")


def flood_text(kind: str, size: int) -> str:
    if kind == "valid":
        return flood_decide(size)
    if kind == "too_large":
        return " " * size
    if kind == "garbage":
        return "{" * min(size, 100)
    raise ValueError(f"flood kind {kind!r} is not one of {', '.join(FLOODS)}")


async def flood(url: str, clients: int, text: str, seconds: float,
                local_host: str | None = None) -> int:
    """``clients`` flooders of ``text`` for ``seconds``; the decisions they got answered."""
    stop = asyncio.Event()
    answered = [0]
    tasks = [asyncio.create_task(flooder(url, text, stop, answered, local_host))
             for _ in range(clients)]
    await asyncio.sleep(seconds)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return answered[0]


@contextlib.contextmanager
def flood_process(url: str, clients: int, size: int, seconds: float,
                  local_host: str | None = None, kind: str = "valid"
                  ) -> Iterator[subprocess.Popen]:
    """:func:`flood` in a process of its own; yields once it is about to connect."""
    args = [sys.executable, "-m", "tests.protocol.attacks", "flood", url, "--flooders",
            str(clients), "--flood-bytes", str(size), "--seconds", str(seconds), "--kind", kind]
    if local_host:
        args += ["--from", local_host]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = proc.stdout.readline()
        if not line.startswith("flooding"):
            raise RuntimeError(f"the flooders did not start: {line}{proc.stderr.read()}")
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.wait(30)


def games_process(url: str, games: int) -> subprocess.Popen:
    """:func:`play_games` in a process of its own (its result, JSON, on its stdout)."""
    return subprocess.Popen([sys.executable, "-m", "tests.protocol.attacks", "games", url,
                             "--games", str(games)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


@dataclass
class Latency:
    """A good client's decision latencies, in milliseconds."""

    samples: list[float]

    @property
    def p50(self) -> float:
        return statistics.median(self.samples) * 1000

    @property
    def p99(self) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000

    def __str__(self) -> str:
        if not self.samples:
            return "no decisions"
        return f"p50 {self.p50:.1f} ms, p99 {self.p99:.1f} ms over {len(self.samples)}"


def measure(url: str, flooders: int, seconds: float, size: int, *, kind: str = "valid",
            local_host: str | None = None) -> tuple[Latency, Latency, float]:
    """The good client's latencies alone, then beside ``flooders`` for ``seconds``; and the
    seconds one flood decide takes the server alone (the median of three; 0 for floods that
    are not valid decides). benchmarks/server_latency.py reports them; the tests only check
    that every decision is answered."""
    decides = good_decides(600)  # sent again and again: the server keeps no state of them
    alone = Latency(asyncio.run(good_client(url, decides[:200])))
    flood_alone = (statistics.median(asyncio.run(round_trips(url, flood_decide(size), 3)))
                   if kind == "valid" else 0.0)
    with flood_process(url, flooders, size, seconds + 30, local_host, kind):
        time.sleep(0.5)  # the flooders connect and the server is busy with them
        end = time.monotonic() + seconds
        busy = Latency(asyncio.run(good_client(url, itertools.cycle(decides), deadline=end)))
    return alone, busy, flood_alone


# ------------------------------------------------------------------ sizes
def largest_decides(games: int, tables: list[tuple[str, dict]] | None = None,
                    agent: str = "random") -> list[tuple[str, dict, int, int]]:
    """(variant, config, bytes, history events) of the largest decide of ``games`` games."""
    out = []
    for variant, config in tables or SIZE_TABLES:
        largest, events = 0, 0
        for g in range(games):
            game = make_game(variant, seed=g, **config)
            agents = [make_agent(agent, variant, g * 100 + p) for p in range(game.num_players)]
            while not game.game_over:
                view = game.view(game.current_player)
                size = len(m.encode(m.decide(view, m.MAX_ID, g, 5000)).encode())
                if size > largest:
                    largest, events = size, len(view.history())
                game.step(agents[game.current_player].act(view))
        out.append((variant, config, largest, events))
    return out


#: the tables measured: the longest games (random play, matches that run to max_turns),
#: the most players, the most cards and the most events per turn each variant allows
SIZE_TABLES: list[tuple[str, dict]] = [
    ("crazy_eights", {"match": True}),
    ("crazy_eights", {"match": True, "num_players": 8, "num_decks": 4, "hand_size": 20}),
    ("crazy_eights", {"match": True, "king_draw": 10}),
    ("livery_eights", {"match": True, "num_players": 8}),
    ("livery_eights", {"match": True, "num_players": 8, "num_decks": 4, "hand_size": 20,
                       "last_card_penalty": 10}),
    ("baby_eating_eights", {"num_players": 8, "deck_type": "expanded"}),
    ("baby_eating_eights", {"num_players": 17}),
]


# ------------------------------------------------------------------ command line
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.protocol.attacks",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["latency", "flood", "sizes", "games"])
    parser.add_argument("url", nargs="?", help="the server (latency, flood)")
    parser.add_argument("--flooders", type=int, default=4)
    parser.add_argument("--flood-bytes", type=int, default=1 << 20)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--from", dest="local_host", help="the flooders' source address")
    parser.add_argument("--kind", choices=FLOODS, default="valid", help="what the flooders send")
    parser.add_argument("--games", type=int, default=20,
                        help="games per table (sizes), or games to play (games)")
    parser.add_argument("--variant", help="measure only this variant's tables (sizes)")
    args = parser.parse_args(argv)
    if args.command == "sizes":
        tables = [t for t in SIZE_TABLES if args.variant in (None, t[0])]
        for variant, config, size, events in largest_decides(args.games, tables):
            print(f"{variant} {json.dumps(config)}: {size:,} bytes, {events:,} events",
                  flush=True)
        return 0
    if args.url is None:
        parser.error(f"{args.command} needs the server's URL")
    if args.command == "games":
        print(json.dumps(play_games(args.url, args.games, 11, time_limit=2)), flush=True)
        return 0
    if args.command == "flood":
        # the flooders stand for clients on other machines: their own CPU is not the
        # server's to share, so they yield the cores to it (and to the good client)
        with contextlib.suppress(OSError, AttributeError):
            os.nice(10)
        text = flood_text(args.kind, args.flood_bytes)  # built before the clock starts
        print("flooding", flush=True)
        answered = asyncio.run(flood(args.url, args.flooders, text, args.seconds,
                                     args.local_host))
        print(f"the flooders got {answered} answers", flush=True)
        return 0
    decides = good_decides(3000)
    quiet = Latency(asyncio.run(good_client(args.url, decides[:300])))
    print(f"alone: {quiet}", flush=True)
    if args.flooders:
        with flood_process(args.url, args.flooders, args.flood_bytes, args.seconds + 5,
                           args.local_host, args.kind):
            time.sleep(1)
            end = time.monotonic() + args.seconds
            busy = Latency(asyncio.run(good_client(args.url, itertools.cycle(decides),
                                                   deadline=end)))
        print(f"beside {args.flooders} flooders of {args.flood_bytes:,} bytes: {busy}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
