"""The page in headless Chromium: a whole crazy_eights hand with keys only, a hand of every
other variant by clicking, a stored game replayed to the end in the referee's view, the
leaderboard, the live region's sentences, no hidden card in the DOM, and screenshots.

With ``EIGHTS_UPDATE_SCREENSHOTS=1`` the screenshots are written to docs/img (the README
shows them); otherwise to a temporary folder, checked as PNGs and left there.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from eights.engines import VARIANTS
from eights.web.play import PlayTable
from eights.web.server import WebServer

#: one browser for the module: its tests run on one xdist worker (make test's --dist loadgroup)
pytestmark = pytest.mark.xdist_group("web-browser")

ROOT = Path(__file__).resolve().parents[2]
#: decisions a hand may ask of the person before the test gives up on it
MAX_TURNS = 400
#: the options that keep a clicked hand short, by variant
SHORT = {"livery_eights": "hand_size=3", "baby_eating_eights": "hand_size=3",
         "jokers_of_death": "hand_size=4", "crazier_eights": "hand_size=3"}


def shot(browser: Any, name: str, tmp_path: Path) -> None:
    """Save a screenshot: to docs/img when asked (EIGHTS_UPDATE_SCREENSHOTS), else to tmp."""
    folder = ROOT / "docs" / "img" if os.environ.get("EIGHTS_UPDATE_SCREENSHOTS") else tmp_path
    path = folder / f"web-{name}.png"
    browser.save_screenshot(str(path))
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def wait(browser: Any, condition: Any, timeout: float = 30) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout, poll_frequency=0.02).until(condition)


def body(browser: Any, name: str) -> str | None:
    return browser.execute_script(f"return document.body.dataset.{name} || null")


def open_page(browser: Any, server: WebServer, view: str = "play") -> None:
    """A fresh page (a new query string: only the hash changing would not reload it)."""
    global _opened
    _opened += 1
    browser.get(f"{server.url}?page={_opened}#{view}")
    wait(browser, lambda b: body(b, "connected") == "true")


_opened = 0


def by_id(browser: Any, id_: str) -> Any:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.ID, id_)


def moves(browser: Any) -> list[tuple[str, int]]:
    from selenium.webdriver.common.by import By

    return [(b.get_attribute("data-move"), int(b.get_attribute("data-number")))
            for b in browser.find_elements(By.CSS_SELECTOR, "#moves button")]


def live_lines(browser: Any) -> list[str]:
    return browser.execute_script(
        "return [...document.querySelectorAll('#live p')].map(p => p.textContent)")


def next_turn(browser: Any, tables: int) -> str:
    """Wait for the table after ``tables`` tables: the person's turn or the game's end."""
    wait(browser, lambda b: int(body(b, "tables") or 0) > tables and (
        body(b, "myTurn") == "true" or body(b, "game") == "over"))
    return "over" if body(browser, "game") == "over" else "turn"


def hidden_words(table: PlayTable, public: set[int] = frozenset()) -> list[str]:
    """The texts and spoken names of the cards in the other seats' hands (one deck), less
    ``public``: cards the table saw face up earlier in the hand, which the narration names
    and which a reshuffled stock can deal back into a hand."""
    engine, seat = table.engine, table.session.seat
    cards = engine.cardset
    hidden = {c for p, hand in enumerate(engine.state.hands) if p != seat for c in hand}
    return [w for c in hidden - public for w in (cards.texts[c], cards.spoken(c))]


def assert_not_in_dom(browser: Any, words: list[str]) -> None:
    page = browser.page_source
    for word in words:
        pattern = re.escape(word) if " " in word else rf"(?<![\w-]){re.escape(word)}(?![\w-])"
        assert not re.search(pattern, page), f"{word} is in the page"


def test_a_whole_crazy_eights_hand_with_keys_only(browser: Any, server: WebServer,
                                                   tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    tables: list[PlayTable] = []
    server.on_play_message = lambda table, message: tables.append(table) if not tables else None
    try:
        open_page(browser, server)
        opponent = by_id(browser, "opponent-1")
        opponent.send_keys(Keys.CONTROL, "a")
        opponent.send_keys("policy")
        by_id(browser, "options").send_keys("num_decks=1")
        by_id(browser, "seed").send_keys("5", Keys.ENTER)  # Enter submits the form
        wait(browser, lambda b: b.switch_to.active_element.get_attribute("id") == "table-title")
        keys = ActionChains(browser)
        seen = 0
        asked_counts = False
        public: set[int] = set()  # every card seen on the discard pile so far
        for _ in range(MAX_TURNS):
            if next_turn(browser, seen) == "over":
                break
            seen = int(body(browser, "tables"))
            public.update(c for pile in tables[0].engine.state.piles for c in pile)
            assert_not_in_dom(browser, hidden_words(tables[0], public))
            if not asked_counts:  # E reads the card counts, as eights play says them
                keys.send_keys("e").perform()
                wait(browser, lambda b: live_lines(b)[-1].startswith("Card counts. Player 0 "
                                                                     "(you): "))
                asked_counts = True
            legal = moves(browser)
            texts = [t for t, _ in legal]
            if all(t.startswith("suit ") for t in texts):
                press = texts[0][-1].lower()  # C, D, H or S names the suit
            elif any(t.startswith("play") for t in texts):
                number = next(n for t, n in legal if t.startswith("play"))
                press = f"{number}{Keys.ENTER}"
            elif "draw" in texts:
                press = " "
            else:
                press = "p"
            keys.send_keys(press).perform()
            if seen == 3:
                shot(browser, "play", tmp_path)
        else:
            pytest.fail(f"the hand did not end within {MAX_TURNS} turns")
    finally:
        server.on_play_message = None
    lines = live_lines(browser)
    assert lines[0].startswith("Crazy Eights, 2 players. One hand:")
    assert "Opponents: Player 1 (policy)." in lines[0]
    assert any(re.fullmatch(r"Your moves: 1 .+\.", line) for line in lines)
    assert any(line.startswith("Your turn. The top card is ") for line in lines)
    assert lines[-2] in ("You win!", "Player 1 (policy) won.")
    assert lines[-1].startswith("Scores. Player 0 (you): ")
    live = by_id(browser, "live")
    assert live.get_attribute("role") == "log" and live.get_attribute("aria-live") == "polite"


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "crazy_eights"])
def test_a_hand_of_every_other_variant_by_clicking(browser: Any, server: WebServer,
                                                   variant: str) -> None:
    from selenium.webdriver.support.ui import Select

    open_page(browser, server)
    Select(by_id(browser, "variant")).select_by_value(variant)
    by_id(browser, "opponent-1").clear()
    by_id(browser, "opponent-1").send_keys("random")
    by_id(browser, "options").send_keys(SHORT.get(variant, ""))
    by_id(browser, "seed").send_keys("2")
    by_id(browser, "start").click()
    seen = 0
    for _ in range(MAX_TURNS):
        if next_turn(browser, seen) == "over":
            break
        seen = int(body(browser, "tables"))
        from selenium.webdriver.common.by import By

        buttons = browser.find_elements(By.CSS_SELECTOR, "#moves button")
        plays = [b for b in buttons if b.get_attribute("data-move").startswith("play")]
        (plays or buttons)[0].click()
    else:
        pytest.fail(f"{variant}: the hand did not end within {MAX_TURNS} turns")
    lines = live_lines(browser)
    assert lines[0].startswith(f"{variant.replace('_', ' ').title()}, 2 players.")
    assert any(line.startswith("Your moves: 1 ") for line in lines)
    assert lines[-1].startswith("Scores. ")


def test_a_stored_game_replayed_to_the_end_in_the_referee_s_view(
        browser: Any, server: WebServer, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    open_page(browser, server, "watch")
    by_id(browser, "list-games").click()
    wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#games tbody tr")) == 6)
    row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")
               if "policy" in r.text)
    row.find_element(By.TAG_NAME, "button").click()
    wait(browser, lambda b: by_id(b, "replay").is_displayed())
    assert by_id(browser, "view-as").get_attribute("value") == ""  # the referee's
    for _ in range(40):  # step to the policy's first decision: its probabilities show
        by_id(browser, "step").click()
        if "(policy)" in by_id(browser, "decision").text:
            break
    wait(browser, lambda b: by_id(b, "thinking").is_displayed())
    rows = browser.find_elements(By.CSS_SELECTOR, "#thinking-table tbody tr")
    assert rows and any("(chosen)" in r.text for r in rows)
    assert all(r.text.split()[-1].endswith("%") for r in rows)
    shot(browser, "watch", tmp_path)
    by_id(browser, "back").click()
    by_id(browser, "step").click()
    from selenium.webdriver.support.ui import Select

    Select(by_id(browser, "speed")).select_by_visible_text("fastest")
    by_id(browser, "play-pause").click()
    wait(browser, lambda b: body(b, "replayAtEnd") == "true", timeout=60)
    assert "the game is over" in by_id(browser, "position").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#replay-views .seat-view")) == 2
    narration = browser.execute_script(
        "return [...document.querySelectorAll('#replay-log li')].map(li => li.textContent)")
    assert narration[0].startswith("Hand 1 is dealt;")
    assert any(re.search(r"\b(wins|won|empties|goes out)\b", s) for s in narration[-4:])


def test_the_leaderboard_shows_the_standings_and_the_heatmap(
        browser: Any, server: WebServer, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    open_page(browser, server, "board")
    wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#standings tbody tr")) == 3)
    assert "All 6 games played." in by_id(browser, "board-progress").text
    first = browser.find_elements(By.CSS_SELECTOR, "#standings tbody tr")[0].text
    assert re.search(r"\[\d+\.\d%, \d+\.\d%\]", first)  # the win rate's interval
    cells = browser.find_elements(By.CSS_SELECTOR, "#heatmap tbody td")
    assert len(cells) == 9 and sum(c.text == "—" for c in cells) == 3
    shot(browser, "board", tmp_path)
