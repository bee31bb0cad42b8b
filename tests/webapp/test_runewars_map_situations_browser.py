"""Runewars retreat and diplomacy set up on the map (webapp/static/js/editors/runewars-map-situations.js), in
Debian's Chromium, by clicks only: the map is cleared, areas are added by tapping empty hexes, their units
set with the − / + buttons, a border changed by tapping its edge, the group or the neutral units added with
their buttons. The position sent is what the screen shows, the ruling is the engine's and names the one area
the units can go to; a decision is answered through its own control. A worked example fills the map."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from boardplay import answer_every_decision, ask, open_tab, stepper_to, warm_up

from engine.core import resolve

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "runewars-map-situations"


@pytest.fixture(scope="module", autouse=True)
def warm(live_server: str) -> None:
    """Let the server load the corpus and situations before the first page."""
    warm_up(live_server, ("/api/situations", "/api/examples?game=runewars", "/boards/runewars"))




def add_area(page: Any, slot: str, units: dict[str, int]) -> str:
    """Tap the empty hex `slot` ("col,row"); set the new area's units with − / +; return its name."""
    page.click(f"polygon.hex.empty[data-slot='{slot}']")
    name: str = page.inner_text(".area-details h4").split()[1]
    index = page.eval_on_selector_all("polygon.hex.area", "els => els.length") - 1
    for owner, n in units.items():
        stepper_to(page, f"map.areas[{index}].units.{owner}", n)
    return name


def pick(page: Any, path: str, label: str) -> None:
    page.locator(f".seg[data-path='{path}'] label", has_text=label).first.click()


def remove_all(page: Any, scope: str) -> None:
    while page.locator(f"{scope} button:has-text('Remove')").count():
        page.locator(f"{scope} button:has-text('Remove')").first.click()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def set_up_retreat(page: Any) -> None:
    """The Elves lose in A: B is theirs but behind a mountain, C holds an Uthuk unit, D is empty: only D."""
    page.click("#clear-map")
    assert page.locator("polygon.hex.area").count() == 0
    assert add_area(page, "2,2", {"elves": 2, "uthuk": 2}) == "A"          # the first area is the one left
    assert page.get_attribute("#make-hub", "aria-pressed") == "true"
    assert add_area(page, "1,2", {"elves": 1}) == "B"
    assert add_area(page, "3,2", {"uthuk": 1}) == "C"
    assert add_area(page, "2,1", {}) == "D"
    page.click("polygon.border[data-border='A-B']")                        # plain → mountain
    assert page.get_attribute("polygon.border[data-border='A-B']", "class") == "border mountain"
    pick(page, "season", "Fall")
    pick(page, "current_player", "Uthuk")
    pick(page, "group.kind", "Player")
    pick(page, "group.faction", "Latari Elves")
    remove_all(page, ".rw-map-situation fieldset.figure")
    page.click("#add-retreat-unit")
    page.click("#add-retreat-unit")


def test_retreat_set_up_on_the_map_goes_to_the_one_open_area(page: Any, live_server: str) -> None:
    open_tab(page, live_server, "runewars", "retreat")
    set_up_retreat(page)
    sent, ruling = ask(page)
    assert sent["from"] == "A"
    assert sent["group"] == {"kind": "player", "faction": "elves", "heroes": [],
                             "units": [{"id": "unit-1", "flying": False, "participated": True},
                                       {"id": "unit-2", "flying": False, "participated": True}]}
    areas = {a["id"]: a["units"] for a in sent["map"]["areas"]}
    assert areas == {"A": {"elves": 2, "uthuk": 2}, "B": {"elves": 1}, "C": {"uthuk": 1}, "D": {}}
    borders = {tuple(sorted(b[:2])): b[2] for b in sent["map"]["borders"]}
    assert borders == {("A", "B"): "mountain", ("A", "C"): "plain", ("A", "D"): "plain", ("C", "D"): "plain"}
    assert ruling["legal"] and not ruling["decisions"]
    assert ruling["outcome"]["options"] == ["D"]
    assert ruling["outcome"]["destination"] == "D"
    assert "retreat to D" in page.inner_text("#ruling .ruling-summary")
    shot(page, "retreat-1280")


def test_retreat_with_a_choice_is_answered_in_place(page: Any, live_server: str) -> None:
    """Open the mountain again: B (friendly) is the only area; make B hostile and both empty areas open."""
    open_tab(page, live_server, "runewars", "retreat")
    set_up_retreat(page)
    page.click("polygon.hex.area[data-area='B']")
    stepper_to(page, "map.areas[1].units.elves", 0)                          # B is empty now
    for _ in range(3):
        page.click("polygon.border[data-border='A-B']")                    # mountain → water → none → plain
    assert page.get_attribute("polygon.border[data-border='A-B']", "class") == "border plain"
    _, ruling = ask(page)
    assert ruling["outcome"]["options"] == ["B", "D"]
    assert [d["field"] for d in ruling["decisions"]] == ["destination"]
    final = answer_every_decision(page, ruling, {})
    assert final["outcome"]["destination"] == "B"
    # the answer shows beside the map as the chosen destination
    shown = page.eval_on_selector(".field[data-path='destination'] select", "el => el.selectedOptions[0].textContent")
    assert shown == "B"


def set_up_diplomacy(page: Any) -> None:
    """Daqan treat with 2 neutral units in A: B is Daqan's, D behind a mountain, C empty: they can only go to C."""
    page.click("#clear-map")
    assert add_area(page, "2,2", {"daqan": 2, "neutral": 2}) == "A"
    assert add_area(page, "1,2", {"daqan": 1}) == "B"
    assert add_area(page, "3,2", {}) == "C"
    assert add_area(page, "2,3", {}) == "D"
    page.click("polygon.border[data-border='A-D']")                        # plain → mountain
    pick(page, "player", "Daqan")
    pick(page, "season", "Spring")
    stepper_to(page, "influence", 3)
    stepper_to(page, "spend", 2)
    stepper_to(page, "units_in_area", 2)
    remove_all(page, ".rw-map-situation fieldset.figure")
    page.click("#add-neutral")
    page.click("#add-neutral")
    remove_all(page, ".fate-cards")
    page.click("#add-card-rout")
    page.click("#add-card-hostile")
    pick(page, "chosen", "not chosen yet")


def test_diplomacy_set_up_on_the_map_routs_the_neutrals_to_the_one_open_area(page: Any, live_server: str) -> None:
    open_tab(page, live_server, "runewars", "diplomacy")
    set_up_diplomacy(page)
    # the player's units in the area and his count on the map are one number, set from either side
    page.click("polygon.hex.area[data-area='A']")
    stepper_to(page, "units_in_area", 3)
    assert page.input_value(".stepper[data-path='map.areas[0].units.daqan'] input") == "3"
    stepper_to(page, "map.areas[0].units.daqan", 2)
    assert page.input_value(".stepper[data-path='units_in_area'] input") == "2"
    sent, ruling = ask(page)
    assert sent["area"] == "A"
    assert sent["drawn"] == ["rout", "hostile"] and sent["chosen"] is None
    assert [n["id"] for n in sent["neutral_units"]] == ["neutral-1", "neutral-2"]
    assert {a["id"]: a["units"] for a in sent["map"]["areas"]} == {
        "A": {"daqan": 2, "neutral": 2}, "B": {"daqan": 1}, "C": {}, "D": {}}
    assert ["A", "D", "mountain"] in sent["map"]["borders"]
    assert [(d["field"], d["options"]) for d in ruling["decisions"]] == [("chosen", [0, 1])]
    final = answer_every_decision(page, ruling, {})                         # the first card: rout
    out = final["outcome"]
    assert (out["result"], out["neutral_options"], out["neutral_destination"]) == ("neutrals_retreat", ["C"], "C")
    assert "routed to C" in page.inner_text("#ruling .ruling-summary")
    checked = page.eval_on_selector(".seg[data-path='chosen'] input:checked + label", "el => el.textContent")
    assert checked == "1: rout"
    shot(page, "diplomacy-1280")


def test_worked_examples_fill_the_map(page: Any, live_server: str) -> None:
    """Every worked example of both situations loads onto the map (each area beside the ones it borders)."""
    with urllib.request.urlopen(f"{live_server}/api/examples?game=runewars", timeout=60) as resp:
        examples = json.loads(resp.read())["examples"]
    for situation in ("retreat", "diplomacy"):
        open_tab(page, live_server, "runewars", situation)
        mine = [e for e in examples if e["situation"] == situation]
        count = page.locator("#example-picker option").count() - 1
        assert count == len(mine) >= 2
        for i in range(1, count + 1):
            page.select_option("#example-picker", index=i)
            page.wait_for_selector("polygon.hex.area")
            sent, ruling = ask(page)
            # the board sends the example's position (its defaults filled in, plus the hex slots of the map)
            assert sent["map"] == mine[i - 1]["position"]["map"], mine[i - 1]["title"]
            assert ruling == {**resolve(mine[i - 1]["position"]).to_json(), "links": ruling["links"]}
            shown = page.eval_on_selector_all("polygon.hex.area", "els => els.map(e => e.dataset.area)")
            assert sorted(shown) == sorted(a["id"] for a in sent["map"]["areas"])
            drawn = {tuple(sorted(b.split("-", 1))) for b in page.eval_on_selector_all(
                "polygon.border:not(.none)", "els => els.map(e => e.dataset.border)")}
            assert drawn == {tuple(sorted(b[:2])) for b in sent["map"]["borders"]}, situation
            assert ruling["summary"] and page.locator("#ruling .error").count() == 0


def test_phone_boards_fit_and_tap_targets(phone: Any, live_server: str) -> None:
    """At 390 px: no sideways page scroll, every control of the two boards at least 44 px high."""
    for situation, set_up in (("retreat", set_up_retreat), ("diplomacy", set_up_diplomacy)):
        open_tab(phone, live_server, "runewars", situation)
        set_up(phone)
        phone.click("#resolve")
        phone.wait_for_selector("#ruling .ruling")
        small = [(t, hgt) for t, hgt in phone.eval_on_selector_all(
            "#editor button, #editor .segmented label, #editor input:not([type=radio]):not([type=checkbox]),"
            " #editor select, #editor .field.check",
            "els => els.filter(e => e.offsetParent).map(e => [e.textContent, e.getBoundingClientRect().height])")
            if hgt < 44]
        assert not small, small[:5]
        boxes = "els => els.map(e => e.getBoundingClientRect().toJSON())"
        for box in phone.eval_on_selector_all(".map-scroll polygon.hex", boxes):
            assert box["width"] >= 44 and box["height"] >= 44, box
        assert phone.evaluate("document.documentElement.scrollWidth") <= 391
        shot(phone, f"{situation}-390")


def test_keyboard_adds_and_selects_areas(page: Any, live_server: str) -> None:
    """An empty hex and an area are reached with Tab and activated with Enter."""
    open_tab(page, live_server, "runewars", "retreat")
    page.click("#clear-map")
    page.focus("polygon.hex.empty[data-slot='2,2']")
    page.keyboard.press("Enter")
    assert page.locator("polygon.hex.area[data-area='A']").count() == 1
    page.focus("polygon.hex.empty[data-slot='1,2']")
    page.keyboard.press("Enter")
    page.focus("polygon.hex.area[data-area='A']")
    page.keyboard.press("Enter")
    assert page.inner_text(".area-details h4").startswith("Area A")
