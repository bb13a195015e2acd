"""Fixtures of the web tests: a small results store, a running server, a WebSocket client,
and one headless Chromium shared by a module's browser tests.

The browser tests need Debian's ``chromium`` and ``chromium-driver`` (``/usr/bin/chromium``,
``/usr/bin/chromedriver``) and ``selenium`` (the ``dev`` extra). Where they are missing the
tests skip saying what to install, except under ``make test`` (which installs them as root
and sets :data:`REQUIRE_BROWSER`), where a missing browser is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eights.tournament.runner import run_tournament
from eights.tournament.schedule import Tournament
from eights.web.server import WebServer, running_web_server

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: set by `make test`: a missing browser fails the browser tests instead of skipping them
REQUIRE_BROWSER = "EIGHTS_REQUIRE_BROWSER"
INSTALL = ("apt-get install -y chromium chromium-driver (Debian; /usr/bin/chromium and "
           "/usr/bin/chromedriver) and pip install -e '.[dev]' (selenium)")
#: the store's tournament: a policy and a search to show thinking, a cheap bot beside them
AGENTS = ("random", "policy", "ismcts:sims=8")


@pytest.fixture(scope="session")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tournament's directory: 3 tables x 2 games of 2-player crazy_eights."""
    out = tmp_path_factory.mktemp("web-store") / "runs" / "demo"  # the page says runs/demo
    run_tournament(Tournament(variant="crazy_eights", agents=AGENTS, num_players=2, games=2,
                              seed=1), out, report=False)
    return out


@pytest.fixture(scope="module")
def server(store_dir: Path) -> Iterator[WebServer]:
    with running_web_server([store_dir]) as web:
        yield web


def ws_url(server: WebServer) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


class Client:
    """A WebSocket client that reads JSON messages (the page's side, without a browser)."""

    def __init__(self, server: WebServer, **kwargs: Any):
        from websockets.sync.client import connect

        self.ws = connect(ws_url(server), **kwargs).__enter__()
        self.welcome = self.recv()
        assert self.welcome["type"] == "welcome"

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        return json.loads(self.ws.recv(timeout=timeout))

    def until(self, kind: str, timeout: float = 30) -> dict[str, Any]:
        """The next message of type ``kind`` (others before it are dropped)."""
        while True:
            message = self.recv(timeout)
            if message["type"] == kind:
                return message

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def client(server: WebServer) -> Iterator[Client]:
    c = Client(server)
    yield c
    c.close()


def _missing() -> str | None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package")
    return ", ".join(missing) or None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module, driven through /usr/bin/chromedriver (named
    explicitly, so Selenium Manager never looks for or downloads a driver)."""
    missing = _missing()
    if missing:
        message = f"the browser tests need {missing}: {INSTALL}"
        if os.environ.get(REQUIRE_BROWSER):
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1100", "--disable-extensions", "--no-first-run",
                "--disable-background-networking", "--disable-component-update"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=shutil.which(CHROMEDRIVER)
                                              or CHROMEDRIVER), options=options)
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
