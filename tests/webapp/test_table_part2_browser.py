"""Issue 25 on the table board, by clicks and drags only: every table situation is set up from its schema.

A player opens the line of sight tab: the role selects are the fields the schema marks ``x-table-role`` (their
titles are the labels); the target is changed by its select, a unit is dragged by the mouse, a terrain piece is
drawn corner by corner and given its capacity, keywords with their X and an occupant from its card; the ruling
is the engine's for exactly that position. Then the shapes a ruling derives (``outcome.drawing``: a movement
template, the end position, the spot where the unit was stopped, the slide back) are drawn on the table with a
legend in the shape roles' own words (the engine's ``x-enum-labels``); the ruling here is canned (the move
situation is another helper's), intercepted on its way back from /api/resolve. Screenshots at 1366 and 390 px
go to build/screenshots/table-part2/.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from boardplay import ask, stepper_to

from engine.core import resolve
from engine.runewars_miniatures.table import Shape

pytestmark = pytest.mark.browser

GAME = "runewars-miniatures"
SVG = "[data-testid='table-svg']"
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "table-part2"


def _unit(uid: str, player: str, name: str, front: list[float], facing: float, files: int = 3) -> dict[str, Any]:
    return {"id": uid, "player": player, "name": name, "type": "infantry", "tray": {"width": 1.0, "depth": 1.0},
            "formation": [files], "front": front, "facing": facing}


SIGHT = {"game": GAME, "situation": "line_of_sight", "table": {"band": 3.0, "arc_degrees": 45},
         "units": [_unit("archers", "Waiqar", "Reanimate Archers", [0.0, 0.0], 0),
                   _unit("spearmen", "Daqan", "Spearmen", [0.0, 8.0], 180),
                   _unit("cavalry", "Daqan", "Oathsworn Cavalry", [5.0, 6.0], 180, 2)],
         "terrain": [], "unit": "archers", "target": "spearmen"}


def _fragment(position: dict[str, Any]) -> str:
    return "#p=" + base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")


def _open(browser: Any, base: str, width: int, fragment: str = "") -> tuple[Any, Any, list[str]]:
    # no service worker: it would answer /api/resolve itself, out of reach of the test's canned ruling
    context = browser.new_context(viewport={"width": width, "height": 900 if width > 500 else 844},
                                  has_touch=width < 500, service_workers="block")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    page.goto(f"{base}/boards/{GAME}{fragment}")
    page.wait_for_selector("#board[data-ready='true']")
    return context, page, errors


def _screen(page: Any, x: float, y: float) -> tuple[float, float]:
    """Return the page coordinates of table point (x, y) (the SVG draws y upward as −y)."""
    point: list[float] = page.evaluate(
        """([x, y]) => { const svg = document.querySelector("[data-testid='table-svg']");
             const p = svg.createSVGPoint(); p.x = x; p.y = -y;
             const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""", [x, y])
    return point[0], point[1]


def _drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    for i in range(1, 9):
        page.mouse.move(start[0] + (end[0] - start[0]) * i / 8, start[1] + (end[1] - start[1]) * i / 8)
    page.mouse.up()
    page.wait_for_timeout(250)


@pytest.mark.parametrize("width", [1366, 390])
def test_roles_from_the_schema_a_drag_and_a_terrain_card_by_clicks(browser: Any, live_server: str, width: int) -> None:
    context, page, errors = _open(browser, live_server, width, _fragment(SIGHT))
    try:
        page.wait_for_selector(f"{SVG} [data-unit='spearmen']")
        # the role selects are the schema's x-table-role fields, labelled with their titles
        acting = page.locator(".table-panels [data-table-role='acting']")
        assert acting.locator("label").inner_text() == "Unit tracing line of sight"
        assert page.locator(".table-panels [data-table-role='target'] label").inner_text() == "Target"
        page.select_option("select[data-path='target']", json.dumps("cavalry"))
        assert json.loads(page.input_value("select[data-path='target']")) == "cavalry"

        # the Spearmen dragged by the mouse two tray widths left
        page.locator(SVG).scroll_into_view_if_needed()
        _drag(page, _screen(page, 0.0, 8.5), _screen(page, -2.0, 8.5))
        front = json.loads(page.get_attribute(f"{SVG} [data-unit='spearmen']", "data-front") or "null")
        assert front[0] < -1.5, front

        # a terrain piece drawn corner by corner, its card opened by itself once finished
        page.get_by_role("button", name="Draw terrain").click()
        for corner in ((2.0, 2.0), (4.0, 2.0), (4.0, 4.0), (2.0, 4.0)):
            page.mouse.click(*_screen(page, *corner))
        page.get_by_role("button", name="Finish terrain").click()
        card = page.locator("[data-terrain-card]")
        card.wait_for()
        page.fill("input[data-path='terrain[0].kind']", "Ruined Tower")
        stepper_to(page, "terrain[0].capacity", 4)
        card.get_by_role("button", name="Add terrain keyword").click()
        page.select_option("select[data-path='terrain[0].keywords[0].keyword']", json.dumps("cover"))
        stepper_to(page, "terrain[0].keywords[0].value", 2)
        card.get_by_role("button", name="Add terrain keyword").click()
        page.select_option("select[data-path='terrain[0].keywords[1].keyword']", json.dumps("elevated"))
        page.select_option("select[data-path='terrain[0].occupant']", json.dumps("cavalry"))
        mark = page.locator(f"{SVG} [data-occupant-of]")
        assert (mark.text_content() or "").startswith("Oathsworn Cav")
        assert "in Ruined Tower" in (page.get_attribute(f"{SVG} [data-unit='cavalry']", "aria-label") or "")

        sent, ruling = ask(page)  # the engine's ruling for exactly this position
        assert sent["unit"] == "archers" and sent["target"] == "cavalry"
        assert sent["units"][1]["front"][0] < -1.5
        piece = sent["terrain"][0]
        assert piece["kind"] == "Ruined Tower" and piece["capacity"] == 4 and piece["occupant"] == "cavalry"
        assert piece["keywords"] == [{"keyword": "cover", "value": 2}, {"keyword": "elevated"}]
        assert any("Ruined Tower" in line for line in ruling["reading"])
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"roles-terrain-{width}.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors


def _drawing() -> list[dict[str, Any]]:
    shapes = [
        Shape(kind="outline", role="template", points=[[5.6, 3.0], [6.4, 3.0], [6.4, 9.0], [5.6, 9.0]],
              unit="reanimates", label="speed 2 straight"),
        Shape(kind="outline", role="start", points=[[5.0, 3.0], [7.0, 3.0], [7.0, 1.0], [5.0, 1.0]], unit="reanimates"),
        Shape(kind="outline", role="end", points=[[5.0, 6.0], [7.0, 6.0], [7.0, 4.0], [5.0, 4.0]], unit="reanimates",
              label="ends here"),
        Shape(kind="point", role="blocked", points=[[6.0, 7.0]], unit="reanimates", label="stopped"),
        Shape(kind="line", role="slide", points=[[6.0, 7.0], [6.0, 6.0]], unit="reanimates"),
    ]
    return [s.model_dump(mode="json", exclude_none=True) for s in shapes]


@pytest.mark.parametrize("width", [1366, 390])
def test_a_rulings_drawing_is_drawn_with_a_legend(browser: Any, live_server: str, width: int) -> None:
    context, page, errors = _open(browser, live_server, width)
    canned: list[dict[str, Any]] = []

    def answer(route: Any) -> None:
        body = route.request.post_data_json
        if not isinstance(body, dict) or body.get("situation") != "squaring_up":
            route.continue_()
            return
        ruling = resolve(body).to_json()
        ruling["outcome"]["drawing"] = _drawing()
        canned.append(ruling)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(ruling))

    try:
        page.route("**/api/resolve", answer)
        page.click("#tab-squaring_up")
        shapes = page.locator(f"{SVG} [data-testid='table-shapes']")
        shapes.locator("[data-shape='template']").wait_for()
        kinds = shapes.locator("[data-shape]").evaluate_all("els => els.map(e => [e.dataset.shape, e.tagName])")
        assert kinds == [["template", "polygon"], ["start", "polygon"], ["end", "polygon"], ["blocked", "circle"],
                         ["slide", "polyline"]]
        labels = shapes.locator("text").all_text_contents()
        assert labels == ["speed 2 straight", "ends here", "stopped"]
        legend = page.locator("#table-legend li").all_inner_texts()
        assert [t.strip() for t in legend] == ["Movement template", "Where it started", "Where it ends",
                                               "Where it was stopped", "Slid back along the template"]
        # the generated-form widgets beside the table: the cause is a segmented choice from the schema
        page.locator("fieldset[data-path='cause']").get_by_text("A shift", exact=True).click()
        with page.expect_response(lambda r: r.url.endswith("/api/resolve")
                                  and '"shift"' in (r.request.post_data or "")) as got:
            page.click("#resolve")
        assert got.value.json()["outcome"]["drawing"]
        page.wait_for_selector("#ruling .ruling")
        assert page.locator("#ruling dd[data-key='drawing']").count() == 0  # drawn, not listed
        assert canned
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(SVG).scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"drawing-{width}.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors
