"""Runewars part 4 on its board (issue 26): a Harvest order set up by clicks and typing only, in Debian's Chromium.

The Waiqar player harvests with the Supremacy Bonus: his dials go to what his areas show (food up, wood down), his
diplomat gives 2 influence, and the board asks in place whether he builds a development, where and which one, until
the ruling is final. Screenshots at 1366 and 390 px land in build/screenshots/runewars-part4/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from boardplay import ask, open_tab, stepper_to, warm_up

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "runewars-part4"


@pytest.fixture(scope="module", autouse=True)
def warm(live_server: str) -> None:
    """Let the server load the corpus and situations before the first page."""
    warm_up(live_server, ("/api/situations", "/boards/runewars"))


def pick(page: Any, path: str, label: str) -> None:
    """Press a segmented button of the field at path."""
    page.locator(f".seg[data-path='{path}'] label", has_text=re.compile(f"^{re.escape(label)}$")).click()


def answer_with(page: Any, label: str) -> dict[str, Any]:
    """Press the answer button `label` of the first open decision; return the new ruling."""
    box = page.locator("#ruling .decision").first
    with page.expect_response(lambda r: r.url.endswith("/api/resolve")) as answer:
        box.locator(".answer button", has_text=label).first.click()
    page.wait_for_timeout(100)
    page.wait_for_selector("#ruling .ruling")
    ruling: dict[str, Any] = answer.value.json()
    return ruling


def test_harvest_set_up_by_hand_and_answered_in_place(page: Any, live_server: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    open_tab(page, live_server, "runewars", "harvest")
    pick(page, "player", "Waiqar")
    for key, value in (("food", 2), ("wood", 4), ("ore", 2)):
        stepper_to(page, f"dials.{key}", value)
    for key, value in (("food", 4), ("wood", 3), ("ore", 2)):
        stepper_to(page, f"produced.{key}", value)
    pick(page, "supremacy", "yes")
    page.click("#editor button:has-text('Add stronghold')")
    page.fill(".field[data-path='strongholds[0].area'] input", "4A")
    pick(page, "strongholds[0].development", "Diplomat")
    page.click("#editor button:has-text('Add stronghold')")
    page.fill(".field[data-path='strongholds[1].area'] input", "4B")
    sent, ruling = ask(page)
    assert sent["dials"] == {"food": 2, "wood": 4, "ore": 2} and sent["produced"] == {"food": 4, "wood": 3, "ore": 2}
    assert [s["area"] for s in sent["strongholds"]] == ["4A", "4B"]
    out = ruling["outcome"]
    assert out["harvested"] == {"food": 4, "wood": 3, "ore": 2} and out["influence"] == 2
    assert [d["field"] for d in ruling["decisions"]] == ["build"]
    assert page.inner_text("#ruling .badge").strip().lower() == "needs a decision"
    summary = page.inner_text("#ruling .ruling-summary").strip()
    assert summary == ruling["summary"] and "food 4, wood 3, ore 2" in summary
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "harvest-asks-1366.png"), full_page=True)
    # he builds: the area and the development are asked next, each answered with its own button
    ruling = answer_with(page, "Yes")
    fields = [d["field"] for d in ruling["decisions"]]
    assert fields == ["build_area", "build_kind"]
    ruling = answer_with(page, "4B")
    assert [d["field"] for d in ruling["decisions"]] == ["build_kind"]
    ruling = answer_with(page, "Training ground")
    assert not ruling["decisions"] and ruling["legal"]
    assert page.inner_text("#ruling .badge").strip().lower() == "final"
    out = ruling["outcome"]
    assert out["dials"] == {"food": 4, "wood": 2, "ore": 2} and out["built"] == "4B"
    assert "he builds a development in 4B" in page.inner_text("#ruling .ruling-summary")
    page.screenshot(path=str(SHOTS / "harvest-final-1366.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / "harvest-final-390.png"), full_page=True)
    # a wood dial at 0: he cannot build, and the ruling says so without asking
    stepper_to(page, "produced.wood", 0)
    sent, ruling = ask(page)
    assert not ruling["legal"] and ruling["summary"].startswith("Illegal: he cannot build a development")
