"""Issue 28, the RuneWars Miniatures table board's friction, played as a player would, one test per item.

- Reset on a table tab gives an empty table (the sample table is still one pick away in the worked examples);
- a unit dropped 0.75 tray widths from an enemy's edge lands flush on it, as the hint above the table says;
- the terrain tools sit right above the table (not below the panels);
- every board's tab strip scrolls sideways with a visible cue (a fade and an arrow) at 1366 and 390 px, and the
  arrow reaches every tab;
- a touch drag (real touch emulation, and pointer events of type touch) moves a unit on a 390 px phone.

Screenshots go to build/screenshots/table-friction-*.png.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

GAME = "runewars-miniatures"
SVG = "[data-testid='table-svg']"
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def _open(browser: Any, base: str, width: int, tab: str = "contact", game: str = GAME) -> tuple[Any, Any, list[str]]:
    phone = width < 500
    context = browser.new_context(viewport={"width": width, "height": 844 if phone else 900},
                                  has_touch=phone, is_mobile=phone)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    page.goto(f"{base}/boards/{game}")
    page.wait_for_selector("#board[data-ready='true']")
    if tab:
        page.click(f"#tab-{tab}")
        page.wait_for_selector(f"{SVG} [data-unit]")
        page.wait_for_selector("#table-status p")  # the board has asked the engine about the table once
    return context, page, errors


def _to_screen(page: Any, x: float, y: float) -> tuple[float, float]:
    """Return the page coordinates of table point (x, y) (the SVG draws y upward as −y)."""
    point: list[float] = page.evaluate(
        """([x, y]) => { const svg = document.querySelector("[data-testid='table-svg']");
             const p = svg.createSVGPoint(); p.x = x; p.y = -y;
             const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""", [x, y])
    return point[0], point[1]


def _front(page: Any, uid: str) -> list[float]:
    front: list[float] = json.loads(page.get_attribute(f"{SVG} [data-unit='{uid}']", "data-front") or "null")
    return front


def _centre_table(page: Any) -> None:
    page.evaluate(f"document.querySelector(\"{SVG}\").scrollIntoView({{block: 'center'}})")


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"table-friction-{name}.png"), full_page=False)


@pytest.mark.parametrize("tab", ["contact", "line_of_sight", "squaring_up"])
def test_reset_on_a_table_tab_gives_an_empty_table(browser: Any, live_server: str, tab: str) -> None:
    context, page, errors = _open(browser, live_server, 1366, tab)
    try:
        assert page.locator(f"{SVG} [data-unit]").count() == 4  # the tab opens on the sample table
        page.fill("input[data-path='table.band']", "-3")
        page.click("#reset")
        page.wait_for_selector(SVG)
        assert page.locator(f"{SVG} [data-unit]").count() == 0
        assert page.locator(f"{SVG} [data-terrain]").count() == 0
        assert page.input_value("input[data-path='table.band']") == "3"  # the default sizes
        with page.expect_request(lambda r: r.url.endswith("/api/resolve")) as request:
            page.click("#resolve")
        sent = request.value.post_data_json
        page.wait_for_selector("#ruling .error")  # the engine asks for units, naming the field
        assert sent["units"] == [] and sent["terrain"] == [] and sent["table"] == {"band": 3, "arc_degrees": 45}
        # the sample is still one pick away: a worked example puts units back on the table
        page.select_option("#example-picker", index=1)
        page.wait_for_selector(f"{SVG} [data-unit]")
        assert page.locator(f"{SVG} [data-unit]").count() >= 2
    finally:
        context.close()
    assert not errors, errors


def test_reset_on_the_attack_table_gives_an_empty_table(browser: Any, live_server: str) -> None:
    context, page, errors = _open(browser, live_server, 1366, "")
    try:
        page.click("#tab-attack")
        page.get_by_text("From the table", exact=True).click()
        page.wait_for_selector(f"{SVG} [data-unit]")
        page.click("#reset")
        page.wait_for_selector(SVG)
        assert page.locator(f"{SVG} [data-unit]").count() == 0
        assert page.locator("select[data-path='attacker.unit']").input_value() in ("", "null")
    finally:
        context.close()
    assert not errors, errors


def test_a_drop_075_tray_widths_from_an_enemy_lands_flush_as_the_hint_says(browser: Any, live_server: str) -> None:
    context, page, errors = _open(browser, live_server, 1366)
    try:
        hint = page.locator(".table-layout .panel").first.inner_text()
        assert "within 1 tray width" in hint, hint
        # the Reanimate Archers (front edge y = 0, facing up) are dragged 6.25 trays up: their front edge ends
        # 0.75 tray widths short of the Spearmen's front edge (y = 7, facing down); they land flush on it
        assert _front(page, "archers") == [0, 0] and _front(page, "spearmen") == [0, 7]
        _centre_table(page)
        start = _to_screen(page, 0.2, -0.5)
        end = _to_screen(page, 0.2, 5.75)
        page.mouse.move(*start)
        page.mouse.down()
        for i in range(1, 11):
            page.mouse.move(start[0] + (end[0] - start[0]) * i / 10, start[1] + (end[1] - start[1]) * i / 10)
        page.mouse.up()
        page.wait_for_timeout(250)
        x, y = _front(page, "archers")
        assert abs(x) < 0.05 and abs(y - 7) < 1e-6, (x, y)
        status = page.locator("#table-status")
        status.get_by_text("Engaged: Reanimate Archers").wait_for()
        _shot(page, "snap-1366")
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("width", [1366, 390])
def test_the_terrain_tools_sit_right_above_the_table(browser: Any, live_server: str, width: int) -> None:
    context, page, errors = _open(browser, live_server, width)
    try:
        draw = page.get_by_role("button", name="Draw terrain")
        table = page.locator(SVG).bounding_box()
        button = draw.bounding_box()
        gap = table["y"] - (button["y"] + button["height"])
        assert 0 <= gap <= 40, f"the Draw terrain button is {gap:.0f} px from the table's top edge"
        draw.click()
        hint = page.locator("#table-tools")
        assert "0 so far" in hint.inner_text()
        _centre_table(page)
        for x, y in [(-4.5, -1.0), (-2.5, -1.0), (-3.5, 1.0)]:
            sx, sy = _to_screen(page, x, y)
            if width < 500:
                page.touchscreen.tap(sx, sy)
            else:
                page.mouse.click(sx, sy)
        assert "3 so far" in hint.inner_text()
        page.get_by_role("button", name="Finish terrain").click()
        assert page.locator(f"{SVG} [data-terrain]").count() == 2
        assert page.locator("input[data-path='terrain[1].kind']").count() == 1
        assert page.get_by_role("button", name="Draw terrain").is_visible()
        _shot(page, f"terrain-{width}")
    finally:
        context.close()
    assert not errors, errors


CUE_JS = """() => { const t = document.getElementById('situation-tabs');
  const wrap = document.getElementById('tabs-wrap');
  const box = t.getBoundingClientRect();
  const mask = wrap ? getComputedStyle(t).maskImage || getComputedStyle(t).webkitMaskImage : 'none';
  return {overflow: t.scrollWidth > t.clientWidth + 1, mask,
          hidden: [...t.querySelectorAll('.tab')].filter((b) => { const r = b.getBoundingClientRect();
            return r.left < box.left - 1 || r.right > box.right + 1; }).map((b) => b.textContent)}; }"""


@pytest.mark.parametrize("width", [1366, 390])
@pytest.mark.parametrize("game", ["runewars-miniatures", "runewars", "rune-age", "runeslingers"])
def test_every_tab_strip_shows_a_scroll_cue_and_reaches_every_tab(browser: Any, live_server: str, width: int,
                                                                   game: str) -> None:
    context, page, errors = _open(browser, live_server, width, "", game)
    try:
        state = page.evaluate(CUE_JS)
        if width < 500 and game == GAME:
            assert state["overflow"], "ten tabs fit on a phone?"
        if not state["overflow"]:
            assert not state["hidden"] and not page.locator("#tabs-right").is_visible()
            return
        assert page.locator("#tabs-right").is_visible(), "tabs are out of view and nothing says so"
        assert "gradient" in state["mask"], state["mask"]  # the fade on the side that hides tabs
        _shot(page, f"tabs-{game}-{width}")
        names = page.locator("#situation-tabs .tab")
        seen = set(names.all_inner_texts()) - set(state["hidden"])
        for _ in range(40):
            if not page.locator("#tabs-right").is_visible():
                break
            try:
                page.click("#tabs-right", timeout=2000)
            except PlaywrightTimeout:  # the strip reached its end while the arrow was being clicked: it hid
                break
            page.wait_for_timeout(450)
            seen |= set(names.all_inner_texts()) - set(page.evaluate(CUE_JS)["hidden"])
        page.wait_for_timeout(600)  # the last smooth scroll may still be running when the arrow hides
        seen |= set(names.all_inner_texts()) - set(page.evaluate(CUE_JS)["hidden"])
        assert seen == set(names.all_inner_texts())
        assert page.locator("#tabs-left").is_visible() and not page.locator("#tabs-right").is_visible()
    finally:
        context.close()
    assert not errors, errors


def test_a_touch_drag_moves_a_unit_on_a_phone(browser: Any, live_server: str) -> None:
    context, page, errors = _open(browser, live_server, 390)
    try:
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        assert page.evaluate(f"getComputedStyle(document.querySelector(\"{SVG}\")).touchAction") == "none"
        _centre_table(page)
        before = _front(page, "reanimates")
        x, y = _to_screen(page, before[0] + 0.2, before[1] - 0.5)
        to_x, to_y = _to_screen(page, before[0] - 2.0, before[1] - 2.5)
        scroll = page.evaluate("scrollY")
        # real touch input (the browser turns it into pointer events of type touch)
        cdp = context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for i in range(1, 11):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                {"x": x + (to_x - x) * i / 10, "y": y + (to_y - y) * i / 10}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        page.wait_for_timeout(300)
        after = _front(page, "reanimates")
        assert abs(after[0] - (before[0] - 2.2)) < 0.3 and abs(after[1] - (before[1] - 2.0)) < 0.3, (before, after)
        assert page.evaluate("scrollY") == scroll  # the page did not scroll under the finger
        # pointer events of type touch, as a touch screen's browser sends them
        x, y = _to_screen(page, after[0] + 0.2, after[1] - 0.5)
        tray = page.locator(f"{SVG} [data-unit='reanimates'] .tray").first
        tray.dispatch_event("pointerdown", {"pointerType": "touch", "pointerId": 7, "isPrimary": True,
                                            "clientX": x, "clientY": y, "bubbles": True})
        for i in range(1, 6):
            page.evaluate("""([x, y]) => window.dispatchEvent(new PointerEvent('pointermove',
                {pointerType: 'touch', pointerId: 7, isPrimary: true, clientX: x, clientY: y, bubbles: true}))""",
                          [x, y - 8 * i])
        page.evaluate("""([x, y]) => window.dispatchEvent(new PointerEvent('pointerup',
            {pointerType: 'touch', pointerId: 7, isPrimary: true, clientX: x, clientY: y, bubbles: true}))""",
                      [x, y - 40])
        page.wait_for_timeout(300)
        moved = _front(page, "reanimates")
        assert moved[1] > after[1] + 0.5, (after, moved)
        _shot(page, "touch-390")
    finally:
        context.close()
    assert not errors, errors
