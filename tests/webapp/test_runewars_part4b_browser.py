"""Acquire Power on the Runewars board, set up by clicks and typing only (issue 26, item 6).

The Uthuk player resolves Acquire Power with its Supremacy Bonus and wants the Waiqar player's Title card, which
carries 2 influence. The board asks how much he spends (0, or more than 2 up to what he holds); he answers 3 in
place and the ruling turns final: the card is his with 3 on it. Screenshots at 1366 and 390 px land in
build/screenshots/runewars-part4b/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from boardplay import ask, open_tab, stepper_to, warm_up

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "runewars-part4b"


@pytest.fixture(scope="module", autouse=True)
def warm(live_server: str) -> None:
    """Let the server load the corpus and situations before the first page."""
    warm_up(live_server, ("/api/situations", "/boards/runewars"))


def pick(page: Any, path: str, label: str) -> None:
    """Press a segmented button of the field at *path*."""
    page.locator(f".seg[data-path='{path}'] label", has_text=re.compile(f"^{re.escape(label)}$")).click()


def set_up(page: Any) -> None:
    """The Uthuk player: 3 influence, 1 icon on his dials, the Supremacy Bonus, the Waiqar player's Title card."""
    pick(page, "player", "Uthuk Y'llan")
    stepper_to(page, "influence", 3)
    stepper_to(page, "icons", 1)
    pick(page, "supremacy", "yes")
    page.fill(".field.text[data-path='title'] input", "Captain of the Heroes' League")
    pick(page, "holder", "Waiqar")
    stepper_to(page, "on_title", 2)


@pytest.mark.parametrize("width", [1366, 390])
def test_acquire_power_title_outbid_answered_in_place(new_page: Any, live_server: str, width: int) -> None:
    """The spend is a decision answered with its own button; the answer makes the ruling final."""
    with new_page(viewport={"width": width, "height": 900}) as page:
        open_tab(page, live_server, "runewars", "acquire_power")
        set_up(page)
        sent, ruling = ask(page)
        assert sent["holder"] == "waiqar" and sent["title"] == "Captain of the Heroes' League"
        assert "spend" not in sent
        assert [d["field"] for d in ruling["decisions"]] == ["spend"]
        assert page.inner_text("#ruling .badge").strip().lower() == "needs a decision"
        buttons = page.eval_on_selector_all("#ruling .decision .answer button", "els => els.map(e => e.textContent)")
        assert buttons == ["0", "3", "4"]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"acquire-power-decision-{width}.png"), full_page=True)
        box = page.locator("#ruling .decision").first
        with page.expect_response(lambda r: r.url.endswith("/api/resolve")) as answer:
            box.locator(".answer button", has_text=re.compile("^3$")).click()
        page.wait_for_selector("#ruling .ruling")
        ruling = answer.value.json()
        page.wait_for_timeout(100)
        assert not ruling["decisions"]
        assert page.inner_text("#ruling .badge").strip().lower() == "final"
        assert ruling["outcome"]["title_taken"] is True and ruling["outcome"]["on_title_after"] == 3
        assert ruling["outcome"]["influence_after"] == 1 and ruling["outcome"]["taken_from"] == "waiqar"
        assert page.inner_text("#ruling .ruling-summary").strip() == ruling["summary"].strip()
        page.screenshot(path=str(SHOTS / f"acquire-power-final-{width}.png"), full_page=True)
