"""The RuneWars Miniatures table board in a real browser (Debian's Chromium under Playwright).

A player drags the Spearmen against the Reanimates' side: the board (asking the engine) reads "flanking";
then the attack is resolved from that same table. Screenshots of the table board at desktop and phone width
are saved under build/screenshots/.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
GAME = "runewars-miniatures"


def _unit(uid: str, player: str, name: str, front: list[float], facing: float) -> dict[str, Any]:
    return {"id": uid, "player": player, "name": name, "type": "infantry", "tray": {"width": 1.0, "depth": 1.0},
            "formation": [2, 2], "front": front, "facing": facing}


APART = {"game": GAME, "situation": "contact", "table": {"band": 3.0, "arc_degrees": 45},
         "units": [_unit("spearmen", "Daqan", "Spearmen", [-3.0, -1.0], 90),
                   _unit("reanimates", "Waiqar", "Reanimates", [0.0, 0.0], 0)],
         "terrain": [{"id": "rocks", "kind": "Rocky Outcrop", "polygon": [[3, 3], [5, 3], [5.5, 5], [3, 5]]}]}


def fragment(position: dict[str, Any]) -> str:
    raw = base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")
    return f"#p={raw}"


def open_table(browser: Any, base: str, width: int, height: int,
               position: dict[str, Any]) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 500)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    page.goto(f"{base}/boards/{GAME}{fragment(position)}")
    page.wait_for_selector("#board[data-ready='true']")
    page.wait_for_selector("[data-testid='table-svg'] [data-unit='spearmen']")
    return context, page, errors


def world_to_screen(page: Any, x: float, y: float) -> tuple[float, float]:
    """Return the page coordinates of table point (x, y) (the SVG draws y upward as −y)."""
    point: list[float] = page.evaluate(
        """([x, y]) => { const svg = document.querySelector("[data-testid='table-svg']");
             const p = svg.createSVGPoint(); p.x = x; p.y = -y;
             const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""", [x, y])
    return point[0], point[1]


def test_drag_into_a_side_contact_reads_flanking_then_attacks_from_the_table(browser: Any, live_server: str) -> None:
    context, page, errors = open_table(browser, live_server, 1280, 900, APART)
    try:
        # the Spearmen (front edge at x = −3, facing +x) are dragged ~1.9 trays right: they snap flush on x = −1
        page.wait_for_selector("#table-status p")  # the board has asked the engine about the table once
        page.evaluate("document.querySelector(\"[data-testid='table-svg']\").scrollIntoView({block: 'center'})")
        start = world_to_screen(page, -4.0, -1.0)
        end = world_to_screen(page, -2.1, -1.05)
        page.mouse.move(*start)
        page.mouse.down()
        for i in range(1, 11):
            page.mouse.move(start[0] + (end[0] - start[0]) * i / 10, start[1] + (end[1] - start[1]) * i / 10)
        page.mouse.up()
        status = page.locator("#table-status")
        status.locator(".flank").wait_for()
        assert "Spearmen is flanking Reanimates" in status.inner_text()
        assert "Engaged: Spearmen (front) with Reanimates (side)" in status.inner_text()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "table-board-1280.png"), full_page=True)

        # the same table, resolved as a melee attack
        page.click("#tab-attack")
        page.get_by_text("From the table", exact=True).click()
        page.wait_for_selector("[data-testid='table-svg'] [data-unit='spearmen']")
        page.fill("[data-path='results.hit'] input", "2")
        with page.expect_response(lambda r: r.url.endswith("/api/resolve") and r.request.post_data is not None
                                  and '"attack"' in r.request.post_data) as answer:
            page.click("#resolve")
        ruling = answer.value.json()
        page.wait_for_selector("#ruling .ruling")
        assert ruling["legal"], ruling["summary"]
        proof = ruling["outcome"]["from_table"]
        assert proof["flanking"] is True and proof["contacted_edges"] == ["front"]
        assert ruling["outcome"]["extra_dice"] == 1
        assert "Reanimates" in page.inner_text("#ruling")
    finally:
        context.close()
    assert not errors, errors


def test_table_board_on_a_phone_with_keyboard_moves(browser: Any, live_server: str) -> None:
    context, page, errors = open_table(browser, live_server, 390, 844, APART)
    try:
        unit = page.locator("[data-unit='spearmen']")
        unit.focus()
        for _ in range(2):
            page.keyboard.press("Shift+ArrowRight")  # a whole tray width each
        page.locator("#table-status .flank").wait_for()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "table-board-390.png"), full_page=True)
        page.keyboard.press("r")
        page.locator("[data-unit='spearmen'][aria-label*='facing 105']").wait_for()
        # turning in place about the front edge's midpoint swings the Spearmen into the Reanimates
        page.locator("#table-status", has_text="overlap").wait_for()
    finally:
        context.close()
    assert not errors, errors
