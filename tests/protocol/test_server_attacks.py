"""``eights serve`` beside clients that attack it: a good client must still connect and play.

The promises of docs/protocol.md ("What the server promises"), measured:

* idle connections from one address (more than every limit) keep nobody
  else out, and the ones that never say hello are gone after the hello
  timeout;
* clients flooding large valid decides, as fast as the server reads them,
  leave a good client's decisions fast. Its p99 latency beside them is
  compared with its p99 alone, in the same test: the difference must be
  under :data:`P99_BOUND`, and under the time one flood decide takes the
  server alone (so a good decision never waits for a flood decide to be
  worked through). On two shared cores, with four clients flooding 1 MiB
  decides (the attack of the issue, at the old default limit), the fair
  server's p99 was 12 to 28 ms, 0.15 to 0.35 of one flood decide's 70 to
  130 ms; the server before it gave 54 to 67 ms on a quiet machine and 130 to
  300 ms on a busy one. Timing alone cannot tell the two apart on every
  machine without flaking, so the mechanism is pinned down by
  tests/protocol/test_scheduler.py, whose checks are orderings, not times.

The server runs as ``eights serve`` in a process of its own and the
flooders in another, as in use, so only the server's own fairness is
measured. The quick versions run in ``make test``; the ``long`` ones (whole
minutes, more clients, every kind of flood at once) in ``make test-slow``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import statistics
import time

import pytest

from eights.protocol.server import ServerLimits, running_server
from tests.protocol.attacks import (
    Latency,
    flood_decide,
    flood_process,
    games_process,
    good_client,
    good_decides,
    idle_connections,
    needs_other_loopback,
    play_games,
    round_trips,
    serve_process,
    silent_sessions,
)

pytest.importorskip("websockets", reason="the server needs websockets")

#: the good client's p99 under attack may exceed its p99 alone by at most this (seconds)
P99_BOUND = 0.100
#: ... and by at most this share of the time one flood decide takes the server alone
SHARE_OF_A_FLOOD_DECIDE = 1.0
#: the address the attacks come from (Linux routes all of 127/8 to this machine)
ATTACKER = "127.0.0.2"
LARGEST = ServerLimits().max_message_bytes


def measure(url: str, flooders: int, seconds: float, *, kind: str = "valid",
            size: int = LARGEST, local_host: str | None = None
            ) -> tuple[Latency, Latency, float]:
    """The good client's latencies alone, then beside ``flooders`` for ``seconds``; and the
    seconds one flood decide takes alone (the median of three; 0 for other floods)."""
    decides = good_decides(600)  # sent again and again: the server keeps no state of them
    alone = Latency(asyncio.run(good_client(url, decides[:200])))
    flood_alone = (statistics.median(asyncio.run(round_trips(url, flood_decide(size), 3)))
                   if kind == "valid" else 0.0)
    with flood_process(url, flooders, size, seconds + 30, local_host, kind):
        time.sleep(0.5)  # the flooders connect and the server is busy with them
        end = time.monotonic() + seconds
        busy = Latency(asyncio.run(good_client(url, itertools.cycle(decides), deadline=end)))
    return alone, busy, flood_alone


def check_latency(alone: Latency, busy: Latency, flood_alone: float | None, what: str) -> None:
    bound = P99_BOUND
    if flood_alone is not None:
        bound = min(bound, flood_alone * SHARE_OF_A_FLOOD_DECIDE)
    report = (f"{what}: alone {alone}; under attack {busy}; allowed p99 {alone.p99:.1f} ms + "
              f"{bound * 1000:.1f} ms"
              + (f" (a flood decide alone takes {flood_alone * 1000:.1f} ms)"
                 if flood_alone is not None else ""))
    print(report)
    assert len(busy.samples) >= 100, report
    assert busy.p99 <= alone.p99 + bound * 1000, report


def test_clients_flooding_1_mib_decides_do_not_slow_a_good_client() -> None:
    """The issue's attack: four clients send valid 1 MiB decides (the old default limit, set
    here) as fast as the server takes them, beside a good client."""
    with serve_process("--max-message-bytes", str(1 << 20)) as url:
        alone, busy, flood_alone = measure(url, flooders=4, seconds=3.0, size=1 << 20)
    check_latency(alone, busy, flood_alone, "4 flooders of 1 MiB")


def test_clients_flooding_the_largest_valid_decides_do_not_slow_a_good_client() -> None:
    """At the default limits: four clients send the largest valid decides."""
    with serve_process() as url:
        alone, busy, _ = measure(url, flooders=4, seconds=3.0)
    check_latency(alone, busy, None, f"4 flooders of {LARGEST:,} bytes")


@needs_other_loopback
def test_idle_connections_from_one_address_keep_nobody_else_out() -> None:
    """Forty connections from one address that never say hello: at most its share is taken,
    the rest are refused, and a good client from another address plays while they hang."""
    limits = ServerLimits(hello_timeout=1.0)
    with running_server("heuristic", "crazy_eights", limits=limits) as srv:
        async def attack() -> None:
            outcomes, kept = await idle_connections(srv.url, 40, ATTACKER)
            assert outcomes["admitted"] <= limits.max_connections_per_ip, outcomes
            assert outcomes["admitted"] + outcomes["busy"] + outcomes["cut"] == 40, outcomes
            assert outcomes["busy"] + outcomes["cut"] >= 40 - limits.max_connections_per_ip
            result = await asyncio.to_thread(play_games, srv.url, 2, 5, time_limit=5)
            assert result["decisions"] > 0 and not result["failures"], result
            # the idle ones are closed once the hello timeout passes
            for ws in kept:
                await asyncio.wait_for(ws.wait_closed(), 10)
                assert ws.close_code == 1008

        asyncio.run(attack())
        # a client sees its socket closed a moment before the server's handler returns and
        # counts it out, so wait (boundedly) for the count rather than read it at once
        deadline = time.monotonic() + 10
        while srv.connections and time.monotonic() < deadline:
            time.sleep(0.02)
        assert srv.connections == 0


@needs_other_loopback
def test_a_server_full_of_silent_sessions_still_lets_a_new_client_in() -> None:
    """The crowd of the issue, at small limits: four addresses each open their whole share of
    sessions, say hello and go silent, filling every place (32 addresses x 8 at the default
    limits kept a good client out until the idle timeout, 300 s). A client from a fifth
    address still gets in and plays: the session idle longest, the crowd's first, is told
    ``busy`` and closed (code 1013), and only it."""
    limits = ServerLimits(max_connections=16, max_connections_per_ip=4)
    with running_server("heuristic", "crazy_eights", limits=limits) as srv:
        async def crowd_then_a_client() -> None:
            crowd = []
            for host in range(2, 6):
                crowd += await silent_sessions(srv.url, 4, f"127.0.0.{host}")
            assert srv.connections == limits.max_connections
            result = await asyncio.to_thread(play_games, srv.url, 1, 5, time_limit=5)
            assert result["decisions"] > 0 and not result["failures"], result
            reply = json.loads(await asyncio.wait_for(crowd[0].recv(), 10))
            assert reply["type"] == "error" and reply["code"] == "busy", reply
            assert "idle longest" in reply["message"], reply
            await asyncio.wait_for(crowd[0].wait_closed(), 10)
            assert crowd[0].close_code == 1013
            assert [ws.close_code for ws in crowd[1:]] == [None] * 15
            assert srv.evicted == 1
            for ws in crowd[1:]:
                await ws.close()

        asyncio.run(crowd_then_a_client())


@needs_other_loopback
@pytest.mark.long
def test_every_kind_of_flood_at_once_for_a_minute() -> None:
    """Eight flooders of the largest valid decides from one address (its whole share), four
    of messages over the limit and four of garbage from others, for a minute: the good
    client's latency stays bounded and its whole games, beside, lose nothing."""
    with serve_process() as url:
        decides = good_decides(3000)
        alone = Latency(asyncio.run(good_client(url, decides[:200])))
        with flood_process(url, 8, LARGEST, 90, ATTACKER), \
                flood_process(url, 4, 4 * LARGEST, 90, "127.0.0.3", "too_large"), \
                flood_process(url, 4, 100, 90, "127.0.0.4", "garbage"):
            time.sleep(2.0)
            player = games_process(url, 10)
            end = time.monotonic() + 60
            busy = Latency(asyncio.run(good_client(url, itertools.cycle(decides),
                                                   deadline=end)))
            out, err = player.communicate(timeout=120)
    check_latency(alone, busy, None, "8 valid, 4 too large, 4 garbage flooders for 60 s")
    assert player.returncode == 0, err
    games = json.loads(out)
    assert games["decisions"] > 0 and not games["failures"], games


@needs_other_loopback
@pytest.mark.long
def test_hundreds_of_idle_connections_renewed_for_a_minute() -> None:
    """At the default limits, one address keeps 300 connections open and reopens each as the
    server closes it, for a minute; a good client from another address still gets in at
    once and plays whole games, again and again."""
    with running_server("heuristic", "crazy_eights") as srv:
        limits = srv.limits
        stop = asyncio.Event()

        async def attacker(tally: dict) -> None:
            while not stop.is_set():
                outcomes, kept = await idle_connections(srv.url, 300, ATTACKER)
                tally["rounds"] += 1
                tally["admitted_max"] = max(tally["admitted_max"], outcomes["admitted"])
                await asyncio.sleep(0.5)
                for ws in kept:
                    await ws.close()

        async def main() -> None:
            tally = {"rounds": 0, "admitted_max": 0}
            attack = asyncio.create_task(attacker(tally))
            await asyncio.sleep(2)
            end = time.monotonic() + 60
            rounds = 0
            while time.monotonic() < end:
                result = await asyncio.to_thread(play_games, srv.url, 1, rounds, time_limit=5)
                assert result["decisions"] > 0 and not result["failures"], result
                assert result["seconds"] < 30, result
                rounds += 1
            stop.set()
            await asyncio.wait_for(attack, 60)
            assert tally["rounds"] >= 3 and rounds >= 3, (tally, rounds)
            assert tally["admitted_max"] <= limits.max_connections_per_ip, tally

        asyncio.run(main())
