"""The web server without a browser: its static files, its JSON messages and their errors,
the limits, a played game's every message (no hidden card), Watch and the Leaderboard, and
reading a store while a running tournament holds its lock."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from eights.protocol.server import ServerLimits
from eights.tournament.store import ResultsStore, StoreError
from eights.web.play import PlayTable
from eights.web.server import WebServer, running_web_server
from eights.web.store import StoreReader

from .conftest import Client, ws_url


def get(server: WebServer, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(f"{server.url.rstrip('/')}{path}", timeout=10) as reply:
            return reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


# ----------------------------------------------------------------- HTTP
def test_the_page_and_its_modules_are_served_with_a_strict_policy(server: WebServer) -> None:
    status, headers, body = get(server, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    page = body.decode()
    assert 'type="module" src="/app.js"' in page
    for module in re.findall(r'from "\./([\w.]+)"', get(server, "/app.js")[2].decode()):
        status, headers, _ = get(server, f"/{module}")
        assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert get(server, "/style.css")[1]["Content-Type"].startswith("text/css")
    # nothing is fetched from elsewhere: no absolute URL in any file of the page
    for path, data in server.files.items():
        assert not re.search(rb"(src|href)=\"(https?:)?//", data), path


@pytest.mark.parametrize("path", ["/nope.js", "/../server.py", "/%2e%2e/server.py",
                                  "/static/../server.py", "/__init__.py"])
def test_only_the_page_s_files_are_served(server: WebServer, path: str) -> None:
    assert get(server, path)[0] == 404


def test_a_page_of_another_site_may_not_open_the_socket(server: WebServer) -> None:
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus, match="403"):
        Client(server, origin="http://evil.example")
    Client(server, origin=f"http://127.0.0.1:{server.port}").close()  # its own page may


# ------------------------------------------------------------- messages
def test_the_welcome_lists_the_variants_agents_and_stores(client: Client) -> None:
    welcome = client.welcome
    assert {v["name"] for v in welcome["variants"]} >= {"crazy_eights", "livery_eights"}
    assert "policy" in welcome["agents"] and "ismcts" in welcome["agents"]
    (store,) = welcome["stores"]
    assert store["variant"] == "crazy_eights" and "policy" in store["agents"]


@pytest.mark.parametrize(("message", "code", "says"), [
    ("not json", "bad_json", "not a JSON message"),
    ("[1]", "bad_json", "JSON object"),
    ({"type": "hello"}, "unknown_type", "'hello'"),
    ({"type": "key"}, "missing_field", "'key'"),
    ({"type": "key", "key": "p", "extra": 1}, "unknown_field", "'extra'"),
    ({"type": "move", "index": "one"}, "bad_value", "integer"),
    ({"type": "move", "index": True}, "bad_value", "integer"),
    ({"type": "key", "key": "p"}, "out_of_order", "no game"),
    ({"type": "leave"}, "out_of_order", "no game"),
    ({"type": "games", "store": 5}, "bad_value", "not a store"),
    ({"type": "games", "store": 0, "outcome": "win"}, "bad_value", "choose the agent"),
    ({"type": "replay", "store": 0, "game": 999}, "bad_value", "999"),
    ({"type": "think", "store": 0, "game": 0, "step": 100000}, "bad_value", "decisions"),
    ({"type": "start", "variant": "crazy_eights", "opponents": ["nonsense"]}, "bad_config",
     "nonsense"),
    ({"type": "start", "variant": "crazy_eights", "opponents": ["cmd:python bot.py"]},
     "bad_config", "built-in agents only"),
    ({"type": "start", "variant": "crazier_eights", "opponents": ["random"],
      "options": {"card_file": "/etc/passwd"}}, "bad_config", "names a file"),
    ({"type": "start", "variant": "nope", "opponents": ["random"]}, "bad_config", "variants"),
    ({"type": "start", "variant": "crazy_eights", "opponents": ["random"], "seat": 3},
     "bad_config", "seat 3"),
])
def test_a_bad_message_gets_the_protocol_s_named_error(client: Client, message: Any, code: str,
                                                       says: str) -> None:
    client.send(message)
    reply = client.until("error")
    assert reply["code"] == code and says in reply["message"], reply


def test_a_message_over_the_limit_is_refused_and_bad_ones_in_a_row_end_the_session(
        store_dir: Path) -> None:
    from websockets.exceptions import ConnectionClosed

    limits = ServerLimits(max_message_bytes=1024, max_errors=3)
    with running_web_server([store_dir], limits=limits) as web:
        c = Client(web)
        c.send({"type": "key", "key": "x" * 3000})
        assert c.until("error")["code"] == "too_large"
        c.send("{")
        assert c.until("error")["code"] == "bad_json"
        c.send("{")
        assert c.until("error")["code"] == "too_many_errors"
        with pytest.raises(ConnectionClosed):
            c.recv(5)


def test_a_silent_session_is_closed_after_the_idle_timeout(store_dir: Path) -> None:
    from websockets.exceptions import ConnectionClosed

    with running_web_server([store_dir], limits=ServerLimits(idle_timeout=0.3)) as web:
        c = Client(web)
        reply = c.until("error", timeout=10)
        assert reply["code"] == "timeout" and "no message for 0.3 s" in reply["message"]
        with pytest.raises(ConnectionClosed):
            c.recv(5)


def test_connections_beyond_the_limit_per_address_are_told_busy(store_dir: Path) -> None:
    from websockets.sync.client import connect

    with running_web_server([store_dir], limits=ServerLimits(max_connections_per_ip=1)) as web:
        first = Client(web)
        with connect(ws_url(web)) as second:
            reply = json.loads(second.recv(timeout=10))
        assert reply["type"] == "error" and reply["code"] == "busy"
        first.close()


# ----------------------------------------------------------------- play
def _card_words(engine: Any, cards: set[int]) -> list[str]:
    cs = engine.cardset
    return [w for c in cards for w in (cs.texts[c], cs.spoken(c))]


def test_every_message_of_a_played_game_shows_only_what_the_seat_may_see(
        server: WebServer, client: Client) -> None:
    seen: list[tuple[dict[str, Any], list[str]]] = []

    def inspect(table: PlayTable, message: dict[str, Any]) -> None:
        engine = table.engine
        hidden = {c for p, hand in enumerate(engine.state.hands) if p != table.session.seat
                  for c in hand}
        seen.append((json.loads(json.dumps(message)), _card_words(engine, hidden)))

    server.on_play_message = inspect
    try:
        client.send({"type": "start", "variant": "crazy_eights", "opponents": ["random"],
                     "seed": 11, "hand": True, "options": {"num_decks": "1"}})
        assert client.until("started")["players"] == 2
        says: list[str] = []
        while True:
            message = client.recv()
            if message["type"] == "say":
                says.append(message["text"])
            elif message["type"] == "table" and message["moves"]:
                moves = message["moves"]
                assert [m["number"] for m in moves] == list(range(1, len(moves) + 1))
                plays = [m for m in moves if m["text"].startswith("play")]
                client.send({"type": "move", "index": (plays or moves)[0]["number"]})
            elif message["type"] == "over":
                break
    finally:
        server.on_play_message = None
    assert message["game_over"]
    assert says[0].startswith("Crazy Eights, 2 players.")
    assert any(s.startswith("Your turn. The top card is") for s in says)
    assert any(s.startswith("Your moves: 1 ") for s in says)
    assert says[-2] in ("You win!", "Player 1 (random) won.") and says[-1].startswith("Scores.")
    assert len(seen) > 20
    for message, hidden in seen:
        text = json.dumps(message)
        strings = [s for s in re.findall(r'"((?:[^"\\]|\\.)*)"', text)]
        for word in hidden:
            if " " in word:  # a spoken name: "the six of clubs"
                assert word not in text, (word, message)
            else:  # a card's text: "6C", as a whole string or word
                assert not any(re.search(rf"(^|\W){re.escape(word)}($|\W)", s)
                               for s in strings), (word, message)


def test_keys_are_eights_play_s(client: Client) -> None:
    client.send({"type": "start", "variant": "crazy_eights", "opponents": ["heuristic"],
                 "seed": 3, "hand": True})
    client.until("started")
    while not client.until("say")["text"].startswith("Your moves: "):
        pass
    client.send({"type": "key", "key": "E"})
    assert client.until("say")["text"].startswith("Card counts. Player 0 (you): 7 cards; "
                                                  "Player 1 (heuristic): 7 cards; stock:")
    client.send({"type": "key", "key": "?"})
    assert client.until("say")["text"].startswith("Keys: Space draw. P pass.")
    client.send({"type": "key", "key": "not a key"})
    assert client.until("error")["code"] == "bad_value"
    client.send({"type": "key", "key": " "})
    assert client.until("say")["text"].startswith("Player 0 (you) draws ")
    client.send({"type": "leave"})
    texts = []
    while (message := client.recv())["type"] != "over":
        texts.append(message.get("text"))
    assert "Input ended; leaving the game." in texts


# ---------------------------------------------------------------- watch
def test_games_are_listed_and_filtered(client: Client) -> None:
    client.send({"type": "games", "store": 0})
    everything = client.until("games")
    assert everything["total"] == 6 == len(everything["games"])
    client.send({"type": "games", "store": 0, "agent": "policy", "outcome": "win"})
    won = client.until("games")
    assert won["games"] and all(
        any(g["seats"][w] == "policy" for w in g["winners"]) for g in won["games"])
    client.send({"type": "games", "store": 0, "agent": "policy", "outcome": "loss"})
    lost = client.until("games")
    assert won["matching"] + lost["matching"] == 4  # policy played 4 games, none truncated


def test_a_replay_ends_where_the_stored_game_ended(client: Client, store_dir: Path) -> None:
    store = StoreReader(store_dir)
    game = store.game(0)
    actions = store.record(0).actions
    store.close()
    client.send({"type": "replay", "store": 0, "game": 0, "seat": None})
    replay = client.until("replay")
    frames = replay["frames"]
    assert len(frames) == len(actions) + 1 and frames[0]["decision"] is None
    assert [f["decision"]["move"] for f in frames[1:]] == list(actions)
    assert frames[-1]["game_over"] and not frames[-2]["game_over"]
    assert len(frames[-1]["views"]) == 2  # the referee sees every hand
    assert any("won" in s or "wins" in s or "goes out" in s or "empties" in s
               for s in frames[-1]["sentences"]), frames[-1]["sentences"]
    assert replay["game"]["winners"] == list(game.winners)
    client.send({"type": "replay", "store": 0, "game": 0, "seat": 1})
    seat = client.until("replay")
    assert all([v["seat"] for v in f["views"]] == [1] for f in seat["frames"])


def test_thinking_is_the_policy_s_probabilities_and_the_search_s_visits(client: Client) -> None:
    client.send({"type": "replay", "store": 0, "game": 0})
    replay = client.until("replay")
    kinds = {}
    for game in range(6):
        client.send({"type": "replay", "store": 0, "game": game})
        for frame in client.until("replay")["frames"][1:]:
            d = frame["decision"]
            if d["thinks"] and d["agent"] not in kinds:
                client.send({"type": "think", "store": 0, "game": game, "step": d["step"]})
                kinds[d["agent"]] = client.until("think")
    assert replay["frames"]
    policy, search = kinds["policy"], kinds["ismcts:sims=8"]
    assert policy["measure"] == "probability"
    assert sum(m["value"] for m in policy["moves"]) == pytest.approx(1.0)
    assert search["measure"] == "visits" and all(float(m["value"]).is_integer()
                                                 for m in search["moves"])
    values = [m["value"] for m in policy["moves"]]
    assert values == sorted(values, reverse=True)
    client.send({"type": "think", "store": 0, "game": 0,
                 "step": next(f["decision"]["step"] for f in replay["frames"][1:]
                              if not f["decision"]["thinks"])})
    assert "shows no thinking" in client.until("error")["message"]


# ----------------------------------------------------- a store being written
def test_the_board_follows_a_tournament_that_holds_the_store_s_lock(tmp_path: Path) -> None:
    out = tmp_path / "live"
    command = [sys.executable, "-m", "eights", "tournament", "--agents", "random,greedy",
               "--games", "20000", "--out", str(out), "--no-progress", "--no-report"]
    writer = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (out / "results.sqlite").exists() or _count(out) < 1:
            assert writer.poll() is None, writer.stderr.read().decode()
            assert time.monotonic() < deadline
            time.sleep(0.1)
        reader = StoreReader(out)  # read-only, no lock: opens beside the writer
        with pytest.raises(StoreError, match=r"already|lock|running|pid"):
            ResultsStore(out / "results.sqlite", reader.tournament)  # the writer holds it
        reader.close()
        with running_web_server([out]) as web:
            c = Client(web)
            c.send({"type": "board", "store": 0})
            first = c.until("board")
            later = c.until("board", timeout=30)  # sent again as games land
            assert later["games_played"] > first["games_played"] > 0
            assert later["standings"][0]["text"]["win_ci"].startswith("[")
            assert len(later["matrix"]) == 2 and later["matrix"][0][1] is not None
            c.close()
    finally:
        writer.kill()
        writer.wait()


def _count(out: Path) -> int:
    try:
        store = StoreReader(out)
    except Exception:
        return 0
    try:
        return store.count()
    finally:
        store.close()


# ------------------------------------------------------------------ CLI
def test_the_command_refuses_a_store_that_does_not_exist(tmp_path: Path) -> None:
    from eights.cli import main

    assert main(["web", "--results", str(tmp_path / "nope"), "--port", "0"]) == 2
    assert main(["web", "--results", str(tmp_path), "--port", "0"]) == 2


def test_the_wheel_ships_every_file_of_the_page() -> None:
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())[
        "tool"]["setuptools"]["package-data"]["eights"]
    static = root / "eights" / "web" / "static"
    files = [p.relative_to(root / "eights").as_posix() for p in static.rglob("*") if p.is_file()]
    assert "web/static/index.html" in files
    unshipped = [f for f in files if not any(fnmatch.fnmatch(f, p) for p in patterns)]
    assert not unshipped, f"package-data misses {unshipped}"
    assert all("/" not in f.removeprefix("web/static/") for f in files), \
        "web/static/* ships no subfolder: add a pattern for it"


def test_eights_web_on_port_0_prints_a_url_that_serves_the_page(store_dir: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "eights", "web", "--results", str(store_dir),
                             "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert url and "stores: " in line and "demo" in line, line
        with urllib.request.urlopen(url.group(0), timeout=10) as reply:
            assert b"<title>eights web</title>" in reply.read()
    finally:
        proc.terminate()
        proc.wait(10)
