"""Issue 24, case 2, with clicks only: on the RuneWars Miniatures table, selecting, tapping or dragging a unit
never changes who attacks and who defends (nor the measuring unit, its target or the moving unit); the roles
change through their own selects only, and an attack's attacker and defender are never of one army.

A player opens the board, picks the Attack tab, "From the table", drags the defending unit a few pixels, taps
it and renames it: the Attacker and Defender selects still say what they said, and the ruling reads the same
roles.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from boardplay import ask

pytestmark = pytest.mark.browser

GAME = "runewars-miniatures"
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def _open(browser: Any, base: str, width: int = 1366, height: int = 900) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 500)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    page.goto(f"{base}/boards/{GAME}")
    page.wait_for_selector("#board[data-ready='true']")
    return context, page, errors


def _role(page: Any, path: str) -> Any:
    value = page.locator(f"select[data-path='{path}']").input_value()
    return json.loads(value)


def _roles(page: Any, paths: tuple[str, ...]) -> dict[str, Any]:
    return {p: _role(page, p) for p in paths}


def _drag(page: Any, uid: str, dx: float, dy: float) -> None:
    box = page.locator(f"[data-testid='table-svg'] [data-unit='{uid}'] .tray").first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 6):
        page.mouse.move(x + dx * i / 5, y + dy * i / 5)
    page.mouse.up()
    page.wait_for_timeout(250)


def _tap(page: Any, uid: str) -> None:
    page.locator(f"[data-testid='table-svg'] [data-unit='{uid}'] .tray").first.click()
    page.wait_for_timeout(150)


def _player(page: Any, uid: str) -> str:
    """Return the army of a unit as its label on the table says it ("Spearmen (Daqan), facing …")."""
    label = page.locator(f"[data-testid='table-svg'] [data-unit='{uid}']").get_attribute("aria-label") or ""
    found = re.search(r"\(([^()]+)\)", label)
    return found.group(1) if found else ""


def test_dragging_or_tapping_the_defender_keeps_the_roles(browser: Any, live_server: str) -> None:
    context, page, errors = _open(browser, live_server)
    try:
        page.click("#tab-attack")
        page.get_by_text("From the table", exact=True).click()
        page.wait_for_selector("[data-testid='table-svg'] [data-unit]")
        paths = ("attacker.unit", "defender.unit")
        before = _roles(page, paths)
        attacker, defender = before["attacker.unit"], before["defender.unit"]
        assert attacker and defender and attacker != defender
        assert _player(page, attacker) != _player(page, defender)

        _drag(page, defender, 6, 4)  # a few pixels
        assert _roles(page, paths) == before, "dragging the defender changed the roles"

        _tap(page, defender)  # tap it to edit its name
        assert _roles(page, paths) == before, "tapping the defender changed the roles"
        name = page.locator(".table-panels input[data-path$='name']")
        name.fill("Renamed Spearmen")
        assert _roles(page, paths) == before, "renaming the defender changed the roles"
        label = page.locator(f"[data-testid='table-svg'] [data-unit='{defender}'] .unit-label").text_content()
        assert label is not None and label.startswith("Renamed")

        # every other unit, tapped and dragged: the roles stay
        for uid in page.locator("[data-testid='table-svg'] [data-unit]").evaluate_all(
                "els => els.map(e => e.dataset.unit)"):
            _tap(page, uid)
            _drag(page, uid, -5, 3)
            assert _roles(page, paths) == before, f"tapping or dragging {uid} changed the roles"

        # the Defender select offers no unit of the attacker's army, nor the Attacker select one of the defender's
        for path, other in (("defender.unit", attacker), ("attacker.unit", defender)):
            offered = [json.loads(v) for v in page.locator(f"select[data-path='{path}'] option").evaluate_all(
                "els => els.map(e => e.value)")]
            assert all(_player(page, uid) != _player(page, other) for uid in offered if uid), (path, offered)

        # the ruling reads the same attacker and defender
        page.fill("[data-path='results.hit'] input", "1")
        sent, ruling = ask(page)
        assert sent["attacker"]["unit"] == attacker and sent["defender"]["unit"] == defender
        text = " ".join(ruling["reading"])
        assert "Renamed Spearmen" in text
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize(("situation", "paths"), [("line_of_sight", ("unit", "target")), ("range", ("unit", "target")),
                                                  ("squaring_up", ("active",))])
def test_selecting_a_unit_on_a_table_tab_keeps_the_roles(browser: Any, live_server: str, situation: str,
                                                         paths: tuple[str, ...]) -> None:
    context, page, errors = _open(browser, live_server)
    try:
        page.click(f"#tab-{situation}")
        page.wait_for_selector("[data-testid='table-svg'] [data-unit]")
        before = _roles(page, paths)
        assert all(before.values())
        for uid in page.locator("[data-testid='table-svg'] [data-unit]").evaluate_all(
                "els => els.map(e => e.dataset.unit)"):
            _tap(page, uid)
            page.locator(f"[data-testid='table-svg'] [data-unit='{uid}']").focus()
            page.keyboard.press("ArrowLeft")
            assert _roles(page, paths) == before, f"selecting {uid} on {situation} changed the roles"
        # the roles change through their own control
        if len(paths) == 2:
            page.click("[data-role-swap]")
            assert _roles(page, paths) == {paths[0]: before[paths[1]], paths[1]: before[paths[0]]}
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("width", [1366, 390])
def test_screenshot_of_a_table_ruling_with_its_reading(browser: Any, live_server: str, width: int) -> None:
    context, page, errors = _open(browser, live_server, width, 900 if width > 500 else 844)
    try:
        page.click("#tab-attack")
        page.get_by_text("From the table", exact=True).click()
        page.wait_for_selector("[data-testid='table-svg'] [data-unit]")
        page.fill("[data-path='results.hit'] input", "2")
        _sent, ruling = ask(page)
        assert page.locator("#ruling .reading").count() == 1
        for line in ruling["reading"]:
            assert line in page.inner_text("#ruling")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#ruling").screenshot(path=str(SHOTS / f"rwm-table-ruling-{width}.png"))
        page.screenshot(path=str(SHOTS / f"rwm-table-board-{width}.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors
