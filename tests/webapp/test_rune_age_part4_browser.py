"""Rune Age part 4 (issue 26) on its board, in Debian's Chromium: Barbarian Invasion set up by clicks and
typing only (never by loading an example), each player's one chance to destroy gold answered in place, in turn
order, until the ruling is final. Screenshots at 1366 and 390 px land in build/screenshots/rune-age-part4/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from boardplay import ask, open_tab, warm_up

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "rune-age-part4"


@pytest.fixture(scope="module", autouse=True)
def warm(live_server: str) -> None:
    """Let the server load the corpus and situations before the first page."""
    warm_up(live_server, ("/api/situations", "/boards/rune-age"))


def answer(page: Any, label: str) -> dict[str, Any]:
    """Press the answer button *label* of the open decision; return the new ruling."""
    box = page.locator("#ruling .decision").first
    with page.expect_response(lambda r: r.url.endswith("/api/resolve")) as resp:
        box.locator(".answer button", has_text=label).first.click()
    page.wait_for_timeout(100)
    page.wait_for_selector("#ruling .ruling")
    ruling: dict[str, Any] = resp.value.json()
    return ruling


def set_up(page: Any, base: str) -> dict[str, Any]:
    """Three players, from the first player clockwise, and the gold in their hands; return the first ruling."""
    open_tab(page, base, "rune-age", "barbarian_invasion")
    hands = {"Uthuk": [2, 1], "Elves": [1], "Daqan": []}
    for i, (name, gold) in enumerate(hands.items()):
        if i:
            page.click("#editor button:has-text('Add player')")
        page.fill(f".field[data-path='players[{i}].player'] input", name)
        for j, value in enumerate(gold):
            page.locator(f"[data-path='players[{i}].gold_in_hand'] button:has-text('Add gold card')").first.click()
            box = page.locator(f".stepper[data-path='players[{i}].gold_in_hand[{j}]']").first
            now = int(box.locator("input").input_value() or 1)
            for _ in range(value - now):
                box.locator("button.step").nth(1).click()
    page.locator(".seg[data-path='hits'] label", has_text="fewest").click()
    sent, ruling = ask(page)
    assert [p["player"] for p in sent["players"]] == ["Uthuk", "Elves", "Daqan"]
    assert sent["players"][0]["gold_in_hand"] == [2, 1] and "destroys" not in sent["players"][0]
    return ruling


def test_barbarian_invasion_answered_in_turn_order(page: Any, live_server: str) -> None:
    """Each player is asked once, first player first, with one button per number of gold cards he can destroy;
    the Elves and Daqan tie on none destroyed and resolve the card clockwise from the first player."""
    ruling = set_up(page, live_server)
    assert page.inner_text("#ruling .badge").strip().lower() == "needs a decision"
    asked = []
    for name, label in (("Uthuk", "2"), ("Elves", "0"), ("Daqan", "0")):
        decision = ruling["decisions"][0]
        asked.append(decision["who"])
        assert decision["field"].endswith(".destroys") and decision["who"] == name
        buttons = page.eval_on_selector_all("#ruling .decision .answer button", "els => els.map(e => e.textContent)")
        assert buttons[0] == "0" and len(buttons) == len(decision["options"])
        ruling = answer(page, label)
    assert asked == ["Uthuk", "Elves", "Daqan"]
    assert not ruling["decisions"]
    assert page.inner_text("#ruling .badge").strip().lower() == "final"
    assert ruling["outcome"]["hit_in_order"] == ["Elves", "Daqan"]
    assert page.inner_text("#ruling .ruling-summary").strip() == ruling["summary"]
    assert "rafaq.faq.scenarios.runewars.5" in ruling["cites"]


@pytest.mark.parametrize("width", [1366, 390])
def test_screenshots(new_page: Any, live_server: str, width: int) -> None:
    """The set-up tab with its first decision open, at both widths; nothing wider than the page."""
    with new_page(viewport={"width": width, "height": 900}) as pg:
        set_up(pg, live_server)
        pg.wait_for_timeout(300)
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"barbarian_invasion-{width}.png"), full_page=True)
        assert pg.evaluate("document.documentElement.scrollWidth") <= width + 1
