"""Issue 25's moves on the table board, by clicks and drags only, at 1366 and 390 px wide.

Each test opens the board on its sample table (no worked example is loaded and no JSON is posted by the test),
drags units into place, sets the question with the board's own controls and presses "What happens now?":

- a march that collides with an enemy and slides back (the template, the blocked spot and the end drawn);
- a charge into an enemy's side: the ruling names the flank;
- a unit entering a terrain piece drawn on the table (capacity and Elevated set on its card, the "enter?"
  decision answered in place), then, on the line of sight tab, shooting from that Elevated terrain over a unit
  that blocks it without the keyword;
- a shift backward out of an engagement: disengage, 1 panic token.

Every ruling is screenshotted at both widths under build/screenshots/table-moves/: the whole page, the table
and the ruling alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from boardplay import ask, stepper_to

pytestmark = pytest.mark.browser

GAME = "runewars-miniatures"
SVG = "[data-testid='table-svg']"
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "table-moves"
WIDTHS = [1366, 390]

# The board's sample table (table.js EXAMPLE_TABLE), in tray widths: Reanimate Archers (Waiqar, 3 × 2) front
# edge at (0, 0) facing up; Spearmen (Daqan, 3 × 2) at (0, 7) facing down; Reanimates (Waiqar, 2 × 2) at (6, 3)
# facing up; Oathsworn Cavalry (Daqan, 2 trays 2 deep) at (10, 1) facing left; a Rocky Outcrop on the left.


def _open(browser: Any, base: str, width: int, tab: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 900 if width > 500 else 844},
                                  has_touch=width < 500, service_workers="block")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    page.goto(f"{base}/boards/{GAME}")
    page.wait_for_selector("#board[data-ready='true']")
    page.click(f"#tab-{tab}")
    page.wait_for_selector(f"#tab-{tab}[aria-selected='true']")
    page.wait_for_selector(f"{SVG} [data-unit='reanimates']")
    page.wait_for_selector("#table-status p")  # the board has measured the table once
    return context, page, errors


def _screen(page: Any, x: float, y: float) -> tuple[float, float]:
    """Return the page coordinates of table point (x, y) (the SVG draws y upward as −y)."""
    point: list[float] = page.evaluate(
        """([x, y]) => { const svg = document.querySelector("[data-testid='table-svg']");
             const p = svg.createSVGPoint(); p.x = x; p.y = -y;
             const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""", [x, y])
    return point[0], point[1]


def _centre(page: Any) -> None:
    """Scroll the table to the middle of the screen (a player scrolls it into view before touching it)."""
    page.evaluate("document.querySelector(\"[data-testid='table-svg']\").scrollIntoView({block: 'center'})")
    page.wait_for_timeout(100)


def _drag(page: Any, unit: str, grab: tuple[float, float], drop: tuple[float, float]) -> list[float]:
    """Drag *unit* by the mouse from table point *grab* (on one of its trays) to *drop*; return its new front."""
    _centre(page)
    start, end = _screen(page, *grab), _screen(page, *drop)
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('[data-unit]')?.dataset.unit",
                        list(start))
    assert hit == unit, f"{unit} is not under the finger at {grab}: {hit}"
    page.mouse.move(*start)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(start[0] + (end[0] - start[0]) * i / 10, start[1] + (end[1] - start[1]) * i / 10)
    page.mouse.up()
    page.wait_for_timeout(250)
    front: list[float] = json.loads(page.get_attribute(f"{SVG} [data-unit='{unit}']", "data-front") or "null")
    return front


def _near(got: list[float], want: tuple[float, float], tol: float = 0.2) -> bool:
    return abs(got[0] - want[0]) <= tol and abs(got[1] - want[1]) <= tol


def _role(page: Any, path: str, unit: str) -> None:
    page.select_option(f".table-panels select[data-path='{path}']", json.dumps(unit))


def _choice(page: Any, path: str, words: str) -> None:
    """Press a segmented choice of the Question panel (a radio's label), as a player taps it."""
    page.locator(f".table-panels fieldset[data-path='{path}']").get_by_text(words, exact=True).click()


def _steps(page: Any) -> str:
    return page.locator("#ruling .ruling").inner_text()


def _shot(page: Any, name: str, width: int, summary: str) -> None:
    """Screenshot the whole page with its ruling (the ruling checked for overflow on a phone first)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    wide = page.evaluate("""() => [...document.querySelectorAll('#ruling .ruling, #ruling .ruling *, .table-board *')]
        .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                     && !e.closest('svg')).map(e => e.tagName + '.' + e.className).slice(0, 5)""")
    assert not wide, f"cut off on the right at {width} px: {wide}"
    # the board's own facts under the table agree with the ruling before the picture is taken
    page.locator("#table-status", has_text=summary).wait_for()
    # a whole-page picture: the action bar (pinned to the top, or to the bottom on a phone) is laid in its place
    # in the page, not over the ruling wherever the page happened to be scrolled
    page.evaluate("document.querySelector('.actionbar').style.position = 'static'")
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.locator(SVG).screenshot(path=str(SHOTS / f"{name}-{width}-table.png"))
    page.locator("#ruling .ruling").screenshot(path=str(SHOTS / f"{name}-{width}-ruling.png"))


def _shapes(page: Any) -> dict[str, list[str]]:
    """Return the shapes drawn on the table: role -> the labels written at them."""
    page.wait_for_selector(f"{SVG} [data-testid='table-shapes'] [data-shape]")
    page.wait_for_timeout(300)  # the board's own ask about the same table may redraw them once more
    out: dict[str, list[str]] = {}
    for role in page.locator(f"{SVG} [data-testid='table-shapes'] [data-shape]").evaluate_all(
            "els => els.map(e => e.dataset.shape)"):
        out.setdefault(role, [])
    for role, text in page.locator(f"{SVG} [data-testid='table-shapes'] text").evaluate_all(
            "els => els.map(e => [e.getAttribute('class').replace(/.*role-/, ''), e.textContent])"):
        out.setdefault(role, []).append(text)
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_a_march_collides_and_slides_back(browser: Any, live_server: str, width: int) -> None:
    context, page, errors = _open(browser, live_server, width, "move")
    try:
        # the Spearmen are dragged into the Reanimates' path: front edge at (6, 6), facing them
        front = _drag(page, "spearmen", (0.0, 8.0), (6.0, 7.0))
        assert _near(front, (6.0, 6.0)), front
        _role(page, "unit", "reanimates")
        _choice(page, "action", "March")
        stepper_to(page, "speed", 5)
        sent, ruling = ask(page)
        assert sent["unit"] == "reanimates" and sent["speed"] == 5 and sent["action"] == "march"
        assert ruling["summary"] == ("Reanimates is stopped by Spearmen after 3 tray widths and slid back to touch "
                                     "it, colliding with Spearmen, taking 1 panic token.")
        text = _steps(page)
        assert "slid back along the template until it touches Spearmen" in text
        assert "takes 1 panic token" in text
        # the outcome reads names, never the units' handles
        assert page.locator("#ruling dd[data-key='stopped_by']").inner_text() == "Spearmen"
        drawn = _shapes(page)
        assert drawn["template"] == ["movement template"]
        assert drawn["blocked"] == ["end guide: would overlap Spearmen"]
        assert drawn["end"] == ["Reanimates after the move"]
        assert "slide" in drawn
        legend = [t.strip() for t in page.locator("#table-legend li").all_inner_texts()]
        assert {"Movement template", "Where it ends"} <= set(legend), legend
        _shot(page, "march-slides-back", width, ruling["summary"])
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("width", WIDTHS)
def test_a_charge_hits_a_flank(browser: Any, live_server: str, width: int) -> None:
    context, page, errors = _open(browser, live_server, width, "move")
    try:
        # the Oathsworn Cavalry, facing left, are dragged up one tray: level with the Reanimates' right side
        front = _drag(page, "cavalry", (11.0, 1.0), (11.0, 2.0))
        assert _near(front, (10.0, 2.0)), front
        _role(page, "unit", "cavalry")
        _choice(page, "action", "March")
        stepper_to(page, "speed", 3)
        _choice(page, "modifier", "Charge")
        sent, ruling = ask(page)
        assert sent["modifier"] == "charge" and sent["unit"] == "cavalry"
        assert "colliding with Reanimates" in ruling["summary"] and "attacking Reanimates" in ruling["summary"]
        assert ruling["outcome"]["flanking"] is True and ruling["outcome"]["target_edges"] == ["side"]
        text = _steps(page)
        assert "front edge hit Reanimates' side edge: it is flanking Reanimates" in text
        assert "makes a melee attack action against Reanimates" in text
        assert page.locator("#ruling dd[data-key='charge_target']").inner_text() == "Reanimates"
        assert set(_shapes(page)) >= {"template", "start", "end"}
        _shot(page, "charge-flank", width, ruling["summary"])
    finally:
        context.close()
    assert not errors, errors


def _draw_terrain(page: Any, corners: list[tuple[float, float]], name: str, capacity: int) -> Any:
    """Draw a terrain piece corner by corner, name it and give it a capacity and Elevated on its card."""
    page.get_by_role("button", name="Draw terrain").click()
    _centre(page)
    for corner in corners:
        page.mouse.click(*_screen(page, *corner))
    page.get_by_role("button", name="Finish terrain").click()
    card = page.locator("[data-terrain-card]")
    card.wait_for()
    page.fill("input[data-path='terrain[1].kind']", name)
    stepper_to(page, "terrain[1].capacity", capacity)
    card.get_by_role("button", name="Add terrain keyword").click()
    page.select_option("select[data-path='terrain[1].keywords[0].keyword']", json.dumps("elevated"))
    return card


@pytest.mark.parametrize("width", WIDTHS)
def test_a_unit_enters_elevated_terrain_then_shoots_from_it(browser: Any, live_server: str, width: int) -> None:
    context, page, errors = _open(browser, live_server, width, "move")
    try:
        # a hill drawn just in front of the Reanimates; they march into it
        _draw_terrain(page, [(4.6, 4.5), (7.4, 4.5), (7.4, 7.5), (4.6, 7.5)], "Barrow Hill", 4)
        _role(page, "unit", "reanimates")
        _choice(page, "action", "March")
        stepper_to(page, "speed", 3)
        sent, ruling = ask(page)
        assert sent["terrain"][1]["keywords"] == [{"keyword": "elevated"}] and sent["terrain"][1]["capacity"] == 4
        if ruling["decisions"]:  # "does it enter?" answered in place, with its own buttons
            box = page.locator("#ruling .decision[data-field='enter_terrain']")
            assert "whether Reanimates enters Barrow Hill" in box.inner_text()
            with page.expect_response(lambda r: r.url.endswith("/api/resolve")
                                      and '"enter_terrain"' in (r.request.post_data or "")) as got:
                box.locator(".answer.options button", has_text="yes").click()
            ruling = got.value.json()
            page.wait_for_selector("#ruling .badge:text-is('final')")
        assert ruling["summary"].endswith("and entering Barrow Hill.")
        assert ruling["outcome"]["final"]["front"] == [6.0, 7.0]
        assert page.locator("#ruling dd[data-key='entered']").inner_text() == "Barrow Hill"
        assert "Reanimates on the terrain" in _shapes(page)["end"]
        _shot(page, "enter-terrain", width, ruling["summary"])

        # the line of sight tab: the same hill drawn around the Reanimates, Elevated, occupied by them (its card);
        # the Reanimate Archers stand between them and the Spearmen
        page.click("#tab-line_of_sight")
        page.wait_for_selector("#tab-line_of_sight[aria-selected='true']")
        page.wait_for_selector(f"{SVG} [data-unit='reanimates']")
        assert _near(_drag(page, "archers", (0.0, -1.0), (6.0, 6.0)), (6.0, 7.0))
        assert _near(_drag(page, "spearmen", (0.0, 8.0), (6.0, 9.5)), (6.0, 8.5))
        _role(page, "unit", "reanimates")
        _role(page, "target", "spearmen")
        card = _draw_terrain(page, [(4.6, 0.6), (7.4, 0.6), (7.4, 3.4), (4.6, 3.4)], "Barrow Hill", 4)
        page.select_option("select[data-path='terrain[1].occupant']", json.dumps("reanimates"))
        assert "in Barrow Hill" in (page.get_attribute(f"{SVG} [data-unit='reanimates']", "aria-label") or "")
        sent, ruling = ask(page)
        assert sent["terrain"][1]["occupant"] == "reanimates"
        assert ruling["outcome"]["line_of_sight"] is True and ruling["outcome"]["blockers"] == []
        assert ruling["summary"] == ("Reanimates has line of sight to Spearmen; its firing arc is ignored in "
                                     "Barrow Hill.")
        assert "Barrow Hill is Elevated: other units and terrain do not block the line of sight" in _steps(page)
        _shot(page, "elevated-sight", width, ruling["summary"])

        # without Elevated, the Archers in between block it: named, not by their handle
        card.get_by_role("button", name="Remove terrain keyword 1").click()
        sent, ruling = ask(page)
        assert "keywords" not in sent["terrain"][1] or not sent["terrain"][1]["keywords"]
        assert ruling["outcome"]["line_of_sight"] is False and ruling["outcome"]["blockers"] == ["archers"]
        assert page.locator("#ruling dd[data-key='blockers']").inner_text() == "Reanimate Archers"
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("width", WIDTHS)
def test_a_shift_backward_disengages(browser: Any, live_server: str, width: int) -> None:
    context, page, errors = _open(browser, live_server, width, "engaged_shift")
    try:
        # the Spearmen dragged onto the Archers' front: they land flush, front to front, engaged
        front = _drag(page, "spearmen", (0.0, 8.0), (0.0, 1.3))
        assert _near(front, (0.0, 0.0), 0.01), front
        page.locator("#table-status", has_text="Engaged: Reanimate Archers").wait_for()
        _role(page, "unit", "archers")
        _choice(page, "direction", "Backward")
        stepper_to(page, "distance", 1)
        sent, ruling = ask(page)
        assert sent["direction"] == "backward" and sent["distance"] == 1
        assert ruling["summary"] == "Reanimate Archers disengages from Spearmen, and takes 1 panic token."
        assert ruling["outcome"]["kind"] == "disengage" and ruling["outcome"]["panic_tokens"] == 1
        assert "disengages from Spearmen" in _steps(page)
        assert page.locator("#ruling dd[data-key='disengaged_from']").inner_text() == "Spearmen"
        assert set(_shapes(page)) >= {"start", "path", "end"}
        _shot(page, "disengage", width, ruling["summary"])
    finally:
        context.close()
    assert not errors, errors
