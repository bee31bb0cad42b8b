"""Search in a real browser (Debian's Chromium under Playwright): results as you type, "More results"
pages past the first 20, and the chip of a game named in the question is removable. The browser and
page fixtures are the shared ones of tests/webapp/conftest.py."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def _pids(page: Any) -> list[str]:
    pids: list[str] = page.locator("#results .hit a.cite").evaluate_all("els => els.map(e => e.dataset.pid)")
    return pids


def test_more_results_pages_past_the_first_20(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/search")
    page.fill("#q", "attack")
    page.wait_for_selector("#results[data-answered='attack|'] .hit")
    assert len(_pids(page)) == 20
    page.click("#more-results")
    page.locator("#results .hit").nth(20).wait_for()
    pids = _pids(page)
    assert len(pids) > 20 and len(set(pids)) == len(pids)  # the next page, no repeats
    assert page.locator("#summary").inner_text().startswith(f"1–{len(pids)} of ")


def test_the_server_rendered_next_page_works_too(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/search?q=attack&offset=20")
    assert page.locator("#results").get_attribute("start") == "21"
    assert len(_pids(page)) == 20
    page.click("#prev-page")
    page.wait_for_url("**offset=0**")
    assert page.locator("#results").get_attribute("start") == "1"


def test_the_game_chip_of_a_named_game_is_removable(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/search")
    page.fill("#q", "how many cards in a runeslingers deck")
    page.wait_for_selector("#game-chip[data-game='runeslingers']")
    assert all(pid.startswith("rs.") for pid in _pids(page))
    page.click("#game-chip")
    page.locator("#game-chip").wait_for(state="detached")
    page.locator("#results .hit").first.wait_for()
    assert "detect=0" in page.evaluate("location.search")
