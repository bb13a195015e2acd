"""The WebSocket server: many games at once, strict limits, and no client can stall another.

Servers run on a background thread (``running_server``) on a free port;
clients are ExternalAgents on threads, or raw asyncio clients that misbehave
on purpose. Timing assertions have wide margins: the point is that a good
game finishes while the stalled clients are still hanging, not a speed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import threading
import time

import pytest

from eights.agents import make_agent, play_game
from eights.engines import make_game
from eights.protocol import messages as m
from eights.protocol.server import ServerLimits, running_server
from tests.protocol.attacks import needs_other_loopback, play_games

websockets = pytest.importorskip("websockets", reason="the server needs websockets")
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

VARIANT = "crazy_eights"
LIMIT = 64 * 1024
#: another loopback address, for a second client address (Linux routes all of 127/8 locally)
OTHER_HOST = "127.0.0.2"



def hello_text(num_players: int = 2) -> str:
    config = make_game(VARIANT, seed=0, num_players=num_players).config.to_dict()
    return m.encode(m.hello(VARIANT, config, name="tests"))


def decide_text(seed: int = 1, id_: int = 1) -> tuple[str, list[str]]:
    game = make_game(VARIANT, seed=seed)
    return m.encode(m.decide(game.view(game.current_player), id_, 1, 1000)), game.legal_texts()


def test_the_server_serves_several_games_at_once(server) -> None:
    bots = [make_agent(server.url, VARIANT, seed=s) for s in range(4)]
    game = make_game(VARIANT, seed=9)
    for bot in bots:  # all four connect and say hello before any plays on
        bot.act(game.view(game.current_player))
    assert server.connections == 4
    results: list[dict] = []
    threads = [threading.Thread(target=lambda s=s: results.append(play_games(server.url, 2, s)))
               for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for bot in bots:
        bot.close()
    assert len(results) == 4
    assert all(r["decisions"] > 0 and not r["failures"] for r in results)
    assert server.sessions == 8


async def expect_error(ws, code: str) -> dict:
    reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert reply["type"] == "error" and reply["code"] == code, reply
    return reply


def test_oversized_messages_and_unknown_fields_are_refused_with_an_error(server) -> None:
    async def client() -> None:
        async with connect(server.url, max_size=None, proxy=None) as ws:
            await ws.send(hello_text())
            assert json.loads(await ws.recv())["type"] == "ready"
            await ws.send(" " * (LIMIT + 1))
            err = await expect_error(ws, "too_large")
            assert f"over the limit of {LIMIT:,} bytes" in err["message"]
            decide, legal = decide_text()
            data = json.loads(decide)
            await ws.send(json.dumps({**data, "priority": "high"}))
            err = await expect_error(ws, "unknown_field")
            assert "'priority'" in err["message"] and "id, game, view" in err["message"]
            assert err["id"] == 1
            await ws.send(json.dumps({**data, "view": {**data["view"], "others": []}}))
            err = await expect_error(ws, "unknown_field")
            assert "view: unknown field(s) 'others'" in err["message"]
            await ws.send(decide)  # the session goes on after refused messages
            reply = json.loads(await ws.recv())
            assert reply["type"] == "action" and reply["action"] in legal
            await ws.send(" " * (4 * LIMIT + 1))  # past the hard cap: not even read
            with pytest.raises(ConnectionClosed) as info:
                await asyncio.wait_for(ws.recv(), 10)
            assert info.value.rcvd.code == 1009

    asyncio.run(client())


def test_a_stalled_and_a_garbage_client_do_not_hold_up_a_good_one(server) -> None:
    """Stalled clients (mid-handshake, after hello, mid-message) and a client sending garbage
    as fast as it can sit beside a good one, whose games finish while they still hang."""

    async def stalled_mid_handshake() -> asyncio.StreamWriter:
        host, port = server.url.removeprefix("ws://").split(":")
        _, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n")
        await writer.drain()
        return writer

    async def stalled_mid_message(forever: asyncio.Event):
        ws = await connect(server.url, proxy=None)
        await ws.send(hello_text())
        await ws.recv()

        async def fragments():
            yield '{"type": "decide", '
            await forever.wait()  # the rest of the message never comes

        sending = asyncio.create_task(ws.send(fragments()))
        return ws, sending

    async def garbage(stop: asyncio.Event, counts: dict) -> None:
        junk = [("not json", "bad_json"), ('{"type": "launch"}', "unknown_type"),
                ("x" * (LIMIT + 10), "too_large"), ('{"type": "bye", "extra": 1}', "unknown_field")]
        async with connect(server.url, proxy=None, max_size=None) as ws:
            while not stop.is_set():
                for text, code in junk:
                    await ws.send(text)
                    await expect_error(ws, code)
                    counts["errors"] += 1
                # a good message before max_errors (5) keeps it connected
                await ws.send(hello_text())
                await ws.recv()

    async def main() -> None:
        forever, stop = asyncio.Event(), asyncio.Event()
        counts = {"errors": 0}
        raw = await stalled_mid_handshake()
        quiet = await connect(server.url, proxy=None)
        await quiet.send(hello_text())  # then never another word, and never reads
        halfway, sending = await stalled_mid_message(forever)
        babbler = asyncio.create_task(garbage(stop, counts))
        await asyncio.sleep(0.2)
        # every decision answered within the bot's time limit, or it would be a failure
        result = await asyncio.to_thread(play_games, server.url, 3, 7, time_limit=5)
        stop.set()
        await asyncio.wait_for(babbler, 20)
        assert result["decisions"] > 0 and not result["failures"], result
        assert counts["errors"] > 10
        # the stalled clients were never cut off: they stalled the whole time
        assert quiet.state.name == "OPEN" and halfway.state.name == "OPEN"
        assert not raw.is_closing()
        forever.set()
        sending.cancel()
        for ws in (quiet, halfway):
            await ws.close()
        raw.close()

    asyncio.run(main())


def test_a_client_that_never_says_hello_is_closed_after_the_hello_timeout() -> None:
    limits = ServerLimits(hello_timeout=0.5)
    with running_server("random", VARIANT, limits=limits) as srv:
        async def client() -> None:
            async with connect(srv.url, proxy=None) as ws:
                err = await expect_error(ws, "timeout")
                assert "no hello answered with ready within 0.5 s" in err["message"]
                with pytest.raises(ConnectionClosed) as info:
                    await asyncio.wait_for(ws.recv(), 10)
                assert info.value.rcvd.code == 1008

        asyncio.run(client())


def test_bad_messages_do_not_put_off_the_hello_timeout() -> None:
    """Garbage before the hello is answered, but the clock for the hello keeps running: the
    session ends with a timeout while garbage is still coming (one message every 0.2 s, up
    to 100; a timeout put off by each would never come before they run out)."""
    limits = ServerLimits(hello_timeout=1.0, max_errors=1000)
    with running_server("random", VARIANT, limits=limits) as srv:
        async def client() -> None:
            async with connect(srv.url, proxy=None) as ws:
                async def read() -> list[str]:
                    codes = []
                    with contextlib.suppress(ConnectionClosed):
                        while True:
                            codes.append(json.loads(await ws.recv())["code"])
                    return codes

                reader = asyncio.create_task(read())
                sent = 0
                with contextlib.suppress(ConnectionClosed):
                    while not reader.done() and sent < 100:
                        await ws.send("not json")
                        sent += 1
                        await asyncio.sleep(0.2)
                assert sent < 100, "the garbage put the hello timeout off"
                codes = await asyncio.wait_for(reader, 10)
                assert codes[0] == "bad_json" and codes[-1] == "timeout", codes
                assert set(codes[:-1]) == {"bad_json"} and len(codes) > 2, codes

        asyncio.run(client())


def test_a_session_silent_after_its_hello_is_closed_after_the_idle_timeout() -> None:
    limits = ServerLimits(idle_timeout=0.5, hello_timeout=30)
    with running_server("random", VARIANT, limits=limits) as srv:
        async def client() -> None:
            async with connect(srv.url, proxy=None) as ws:
                await ws.send(hello_text())
                assert json.loads(await ws.recv())["type"] == "ready"
                err = await expect_error(ws, "timeout")
                assert "no message for 0.5 s" in err["message"]
                with pytest.raises(ConnectionClosed) as info:
                    await asyncio.wait_for(ws.recv(), 10)
                assert info.value.rcvd.code == 1008

        asyncio.run(client())


@needs_other_loopback
def test_beyond_max_connections_per_ip_a_client_is_told_busy() -> None:
    """Two sessions from 127.0.0.1 fill its share; 127.0.0.2 still gets in."""
    limits = ServerLimits(max_connections_per_ip=2)
    with running_server("random", VARIANT, limits=limits) as srv:
        async def client() -> None:
            async with connect(srv.url, proxy=None) as a, connect(srv.url, proxy=None) as b:
                for ws in (a, b):
                    await ws.send(hello_text())
                    assert json.loads(await ws.recv())["type"] == "ready"
                async with connect(srv.url, proxy=None) as third:
                    err = await expect_error(third, "busy")
                    assert "127.0.0.1 already has 2 connections open, the limit per address" \
                        in err["message"]
                    with pytest.raises(ConnectionClosed) as info:
                        await asyncio.wait_for(third.recv(), 10)
                    assert info.value.rcvd.code == 1013
                async with connect(srv.url, proxy=None, local_addr=(OTHER_HOST, 0)) as other:
                    await other.send(hello_text())
                    assert json.loads(await other.recv())["type"] == "ready"
            await asyncio.sleep(0.2)  # the closed sessions give their places back
            async with connect(srv.url, proxy=None) as again:
                await again.send(hello_text())
                assert json.loads(await again.recv())["type"] == "ready"

        asyncio.run(client())
    assert srv.refused == 1


@needs_other_loopback
def test_sockets_far_past_the_limit_are_cut_and_stalled_handshakes_end() -> None:
    """Raw sockets that never finish the handshake: twice the per-address limit are held (for
    the hello timeout), the rest cut at once; a client from elsewhere is served throughout."""
    limits = ServerLimits(max_connections_per_ip=2, hello_timeout=1.0)
    with running_server("random", VARIANT, limits=limits) as srv:
        host, port = srv.url.removeprefix("ws://").split(":")

        async def raw() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
            return await asyncio.open_connection(host, int(port), local_addr=(OTHER_HOST, 0))

        async def client() -> None:
            held = [await raw() for _ in range(4)]
            await asyncio.sleep(0.1)
            reader, writer = await raw()  # the fifth: cut without a word
            with contextlib.suppress(ConnectionResetError):
                assert await asyncio.wait_for(reader.read(100), 5) == b""
            writer.close()
            async with connect(srv.url, proxy=None) as ws:  # 127.0.0.1 is not held up
                await ws.send(hello_text())
                assert json.loads(await ws.recv())["type"] == "ready"
            for reader, writer in held:  # the server ends each stalled handshake
                with contextlib.suppress(ConnectionResetError):
                    assert await asyncio.wait_for(reader.read(100), 10) == b""
                writer.close()

        asyncio.run(client())
    assert srv.cut == 1


def test_garbage_alone_ends_the_session() -> None:
    with running_server("random", VARIANT, limits=ServerLimits(max_errors=3)) as srv:
        async def client() -> None:
            async with connect(srv.url, proxy=None) as ws:
                for _ in range(3):
                    await ws.send("garbage")
                    await expect_error(ws, "bad_json")
                await expect_error(ws, "too_many_errors")
                with pytest.raises(ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 10)

        asyncio.run(client())


def test_a_full_server_closes_its_longest_idle_session_to_let_a_client_in() -> None:
    """At max_connections, a new client no longer waits out the others' idle timeout: the
    session idle longest is told busy and closed (code 1013), and the new one is served."""
    with running_server("random", VARIANT, limits=ServerLimits(max_connections=1)) as srv:
        async def client() -> None:
            async with connect(srv.url, proxy=None) as first:
                await first.send(hello_text())
                await first.recv()
                async with connect(srv.url, proxy=None) as second:
                    err = await expect_error(first, "busy")
                    assert "limit of 1 connections" in err["message"]
                    assert "idle longest" in err["message"]
                    with pytest.raises(ConnectionClosed) as info:
                        await asyncio.wait_for(first.recv(), 10)
                    assert info.value.rcvd.code == 1013
                    await second.send(hello_text())
                    assert json.loads(await second.recv())["type"] == "ready"

        asyncio.run(client())
    assert srv.evicted == 1 and srv.refused == 0


def test_a_session_in_a_decision_is_not_evicted(monkeypatch) -> None:
    """A full server whose every session is in a decision tells the new client busy."""
    from eights.agents import AGENT_KINDS, RandomAgent

    thinking = threading.Event()

    class Slow(RandomAgent):
        """Holds its decision until the test lets it go."""

        def act(self, view):
            thinking.set()
            release.wait(10)
            return super().act(view)

    release = threading.Event()
    monkeypatch.setitem(AGENT_KINDS, "slow", lambda variant, arg, seed: Slow(seed))
    with running_server("slow", VARIANT, limits=ServerLimits(max_connections=1)) as srv:
        async def client() -> None:
            text, legal = decide_text()
            async with connect(srv.url, proxy=None) as first:
                await first.send(hello_text())
                await first.recv()
                await first.send(text)
                assert await asyncio.to_thread(thinking.wait, 10)
                async with connect(srv.url, proxy=None) as second:
                    err = await expect_error(second, "busy")
                    assert "every one of them in a decision" in err["message"]
                release.set()
                reply = json.loads(await asyncio.wait_for(first.recv(), 10))
                assert reply["type"] == "action" and reply["action"] in legal, reply

        asyncio.run(client())
    assert srv.evicted == 0 and srv.refused == 1


def test_a_server_refuses_other_variants_and_bad_specs() -> None:
    with running_server("heuristic", "livery_eights") as srv:
        bot = make_agent(srv.url + "?on_error=forfeit", VARIANT)
        game = make_game(VARIANT, seed=1)
        with pytest.raises(Exception, match=r"unsupported_variant.*plays livery_eights"):
            bot.act(game.view(game.current_player))
        bot.close()
    with pytest.raises(Exception, match="'nobody' is not known"), \
            running_server("nobody", VARIANT):
        pass


def test_eights_serve_command() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "eights.cli", "serve", "--agent", "heuristic",
                             "--variant", "livery_eights", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "serving heuristic playing livery_eights at ws://127.0.0.1:" in line, (
            line + proc.stderr.read() if proc.poll() is not None else line)
        url = line.split(" at ")[1].split()[0]
        results: list = []
        bot_thread = threading.Thread(target=lambda: results.append(play_game(
            make_game("livery_eights", seed=1), [make_agent(url, "livery_eights", 1),
                                                 make_agent("random", "livery_eights", 2)])))
        bot_thread.start()
        bot_thread.join(60)
        assert results and results[0].game_over
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_decision_past_the_decision_timeout_ends_the_session(monkeypatch) -> None:
    from eights.agents import AGENT_KINDS, RandomAgent

    class Sleepy(RandomAgent):
        """Thinks for 1.5 s about every decision."""

        def act(self, view):
            time.sleep(1.5)
            return super().act(view)

    monkeypatch.setitem(AGENT_KINDS, "sleepy", lambda variant, arg, seed: Sleepy(seed))
    limits = ServerLimits(decision_timeout=0.3)
    with running_server("sleepy", VARIANT, limits=limits) as srv:
        async def client() -> None:
            game = make_game(VARIANT, seed=3, first_player=0)
            async with connect(srv.url, proxy=None) as ws:
                await ws.send(hello_text())
                await ws.recv()
                await ws.send(m.encode(m.decide(game.view(0), 1, 1, 1000)))
                err = await expect_error(ws, "timeout")
                assert "longer than 0.3 s" in err["message"]
                with pytest.raises(ConnectionClosed) as info:
                    await asyncio.wait_for(ws.recv(), 10)
                assert info.value.rcvd.code == 1011

        asyncio.run(client())


def test_eights_serve_answers_bad_config_for_a_table_its_agent_cannot_play() -> None:
    """``eights serve --agent policy`` has no model for three players: the hello says so."""
    proc = subprocess.Popen([sys.executable, "-m", "eights.cli", "serve", "--agent", "policy",
                             "--variant", VARIANT, "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "serving policy playing crazy_eights" in line, line
        url = line.split(" at ")[1].split()[0]

        async def client() -> None:
            async with connect(url, proxy=None) as ws:
                await ws.send(hello_text(num_players=3))
                err = await expect_error(ws, "bad_config")
                assert "no shipped model for 3-player crazy_eights" in err["message"]
                assert "shipped models:" in err["message"]
                assert "crazy_eights-2p" in err["message"]
                await ws.send(hello_text(num_players=2))  # the session goes on
                assert json.loads(await ws.recv())["type"] == "ready"

        asyncio.run(client())
    finally:
        proc.terminate()
        proc.wait(10)


# ------------------------------------------------------------------ numbers out of range
#: (ServerLimits field, a value it refuses): every field has some
BAD_LIMITS = [
    ("idle_timeout", float("nan")), ("idle_timeout", float("inf")), ("idle_timeout", 0),
    ("idle_timeout", -1.0), ("idle_timeout", 86_401), ("decision_timeout", float("nan")),
    ("decision_timeout", 0.0), ("hello_timeout", "5"), ("hello_timeout", None),
    ("max_connections", 0), ("max_connections", 2.5), ("max_connections", True),
    ("max_connections", 70_000), ("max_connections_per_ip", -1), ("max_connections_per_ip", 0),
    ("max_message_bytes", 10), ("max_message_bytes", 1 << 40), ("max_message_bytes", 2048.0),
    ("max_errors", 0), ("max_errors", float("inf")), ("max_connections", 10**400),
    ("idle_timeout", 10**400),  # too large for a float, even
]


def test_every_server_limit_is_checked() -> None:
    import dataclasses

    assert {field for field, _ in BAD_LIMITS} == {f.name for f in dataclasses.fields(ServerLimits)}


@pytest.mark.parametrize(("field", "value"), BAD_LIMITS)
def test_server_limits_refuse_values_out_of_range(field: str, value: object) -> None:
    from eights.config import ConfigError

    flag = "--" + field.replace("_", "-")
    with pytest.raises(ConfigError) as info:
        ServerLimits(**{field: value})
    text = str(info.value)
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    assert text.startswith(f"server limit {field} (eights serve {flag}): {shown} is not "
                           f"allowed; it must be "), text
    assert ("an integer from" in text) != ("a finite number above 0" in text), text


def test_server_limits_take_values_in_range() -> None:
    limits = ServerLimits(idle_timeout=86_400, hello_timeout=0.001, max_connections=1,
                          max_connections_per_ip=65_536, max_message_bytes=1024, max_errors=1)
    assert limits.hello_timeout == 0.001


@pytest.mark.parametrize(("option", "value"), [("port", 65_536), ("port", -1), ("port", 80.0),
                                                ("workers", 0), ("workers", 65)])
def test_bot_server_refuses_a_bad_port_or_worker_count(option: str, value: object) -> None:
    from eights.config import ConfigError
    from eights.protocol.server import BotServer

    with pytest.raises(ConfigError, match=rf"^{option}: {value!r} is not allowed; it must be an "
                                          rf"integer from"):
        BotServer("random", VARIANT, **{option: value})


#: (eights serve option, a value it refuses): every numeric option has some
BAD_SERVE_OPTIONS = [
    ("--idle-timeout", "nan"), ("--idle-timeout", "1e400"), ("--idle-timeout", "-3"),
    ("--port", "99999"), ("--port", "-1"), ("--decision-timeout", "inf"),
    ("--decision-timeout", "0"), ("--hello-timeout", "0"), ("--hello-timeout", "NaN"),
    ("--max-connections", "0"), ("--max-connections", "1.5"), ("--max-connections-per-ip", "x"),
    ("--max-connections-per-ip", "0"), ("--max-message-bytes", "-5"),
    ("--max-message-bytes", "100"), ("--max-errors", "0"), ("--workers", "0"),
    ("--workers", "1000"), ("--seed", "1.5"), ("--max-connections", "9" * 400),
]


def numeric_options(command: str) -> set[str]:
    """The options of ``eights COMMAND`` that take a number."""
    from eights.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.choices and command in a.choices).choices[command]
    return {a.option_strings[-1] for a in sub._actions
            if a.option_strings and a.type is not None and a.type not in (str, str.upper)}


def test_every_numeric_serve_option_is_checked() -> None:
    assert {option for option, _ in BAD_SERVE_OPTIONS} == numeric_options("serve")


@pytest.mark.parametrize(("option", "value"), BAD_SERVE_OPTIONS)
def test_eights_serve_refuses_numbers_out_of_range(option: str, value: str, capsys) -> None:
    from eights.cli import main

    # an unknown agent fails too, so a value wrongly taken ends the command instead of serving
    with pytest.raises(SystemExit) as info:
        main(["serve", "--agent", "nobody", option, value])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"eights serve: error: argument {option}: " in err, err
    if option != "--seed":
        shown = value if len(value) <= 40 else value[:37] + "..."
        assert f"{shown} is not allowed; it must be " in err, err


def test_eights_serve_bad_numbers_are_errors_not_tracebacks() -> None:
    for option, value in [("--port", "99999"), ("--idle-timeout", "nan")]:
        done = subprocess.run([sys.executable, "-m", "eights.cli", "serve", option, value],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done
        assert f"error: argument {option}: {value} is not allowed" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("peer", "address"), [
    (("127.0.0.1", 5000), "127.0.0.1"),
    (("::ffff:10.1.2.3", 5000, 0, 0), "10.1.2.3"),  # an IPv4 client of a dual-stack socket
    (("2001:db8:1:2:aaaa::1", 5000, 0, 0), "2001:db8:1:2::/64"),  # its whole /64
    (("2001:db8:1:2:bbbb::9", 6000, 0, 0), "2001:db8:1:2::/64"),
    (("fe80::1%eth0", 5000, 0, 2), "fe80::/64"),
    ("/run/eights.sock", "/run/eights.sock"),
])
def test_connections_are_counted_by_address_and_ipv6_by_its_64(peer, address) -> None:
    from eights.protocol.server import client_address

    assert client_address(peer) == address
