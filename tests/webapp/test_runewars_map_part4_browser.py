"""The Runewars Strategize order and receiving a dragon rune, each set up on the shared hex map by taps only (no
worked example loaded), in Debian's Chromium. Strategize: the Daqan player builds five areas, activates one, taps
a Footman's move from A into the friendly B and a Knight's start in C leaving its destination to the ruling, which
asks where (B or D: the mountain stops the way into E); the answer is tapped in place and the ruling is final.
Dragon rune: the tokens, the false rune discarded and the dragon rune's place are tapped; the false rune's place
is asked and answered in place. Screenshots at 1366 and 390 px land in
build/screenshots/runewars-map-part4/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from boardplay import answer_every_decision, ask, open_tab, stepper_to, warm_up

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "runewars-map-part4"


@pytest.fixture(scope="module", autouse=True)
def warm(live_server: str) -> None:
    """Let the server load the corpus and situations before the first page."""
    warm_up(live_server, ("/api/situations", "/boards/runewars"))


def add_area(page: Any, slot: str, units: dict[str, int]) -> str:
    """Tap the empty hex `slot` ("col,row"); set the new area's units with − / +; return its name."""
    page.click(f"polygon.hex.empty[data-slot='{slot}']")
    name: str = page.inner_text(".area-details h4").split()[1]
    index = page.eval_on_selector_all("polygon.hex.area", "els => els.length") - 1
    for owner, n in units.items():
        stepper_to(page, f"map.areas[{index}].units.{owner}", n)
    return name


def tap(page: Any, area: str) -> None:
    page.click(f"polygon.hex.area[data-area='{area}']")


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_strategize_moves_tapped_on_the_map_and_the_knights_way_answered_in_place(page: Any, live_server: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    open_tab(page, live_server, "runewars", "strategize")
    page.click("#clear-map")
    assert page.locator("polygon.hex.area").count() == 0
    assert page.locator("#editor fieldset.figure").count() == 0        # the moves go with the map
    assert add_area(page, "1,2", {"daqan": 1}) == "A"
    assert add_area(page, "2,2", {"daqan": 1}) == "B"
    assert add_area(page, "3,2", {"daqan": 1}) == "C"
    assert add_area(page, "3,3", {}) == "D"
    assert add_area(page, "4,2", {}) == "E"
    page.click("polygon.border[data-border='C-E']")                        # plain → mountain
    page.locator(".seg[data-path='player'] label", has_text="Daqan").first.click()
    # one activation token, tapped on the map
    page.click("#tap-activate")
    tap(page, "B")
    page.click("#tap-activate")
    # the Footman: A → B; the Knight: from C, where to is left to the ruling (tapping C again)
    page.click("#add-move")
    tap(page, "A")
    tap(page, "B")
    page.fill(".field[data-path='moves[0].figure'] input", "Footman 1")
    page.click("#add-move")
    tap(page, "C")
    tap(page, "C")
    page.fill(".field[data-path='moves[1].figure'] input", "Knight")
    map_text = page.text_content("svg.hexmap") or ""
    assert "◆" in map_text and "1⇢" in map_text and "⇢1" in map_text
    sent, ruling = ask(page)
    assert sent["activated"] == ["B"]
    moves = [(m["figure"], m["from"], m.get("to")) for m in sent["moves"]]
    assert moves == [("Footman 1", "A", "B"), ("Knight", "C", None)]
    assert ["C", "E", "mountain"] in sent["map"]["borders"]
    assert ruling["legal"] and [d["field"] for d in ruling["decisions"]] == ["moves[1].to"]
    assert page.inner_text("#ruling .badge").strip().lower() == "needs a decision"
    shot(page, "strategize-asks-1366")
    assert ruling["outcome"]["moves"]["Knight"]["options"] == ["B", "D"]      # not E, behind the mountain
    final = answer_every_decision(page, ruling, {})                        # the first option: B
    assert final["legal"] and final["outcome"]["moves"]["Knight"]["to"] == "B"
    page.wait_for_timeout(300)
    chosen = page.eval_on_selector(".field[data-path='moves[1].to'] select", "el => el.selectedOptions[0].textContent")
    assert chosen == "B"                                                    # the answer shows on the board
    assert "⇢2" in (page.text_content("svg.hexmap") or "")                  # two figures now arrive in B
    shot(page, "strategize-final-1366")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "strategize-final-390")
    page.evaluate("document.querySelector('svg.hexmap').scrollIntoView({block: 'center'})")
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / "strategize-map-390.png"))             # the viewport: the map itself


def test_dragon_rune_tokens_tapped_on_the_map_and_the_places_answered_in_place(page: Any, live_server: str) -> None:
    """The Elves receive a dragon rune: their dragon rune lies in A, a false rune in B (discarded first, tapped);
    B is an empty area of their home realm, C holds Uthuk units. The dragon rune is tapped into B; where the false
    rune goes is left to the ruling, which asks (D only: B now holds the dragon rune, C is the enemy's) and the
    answer is tapped in place."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_tab(page, live_server, "runewars", "dragon_rune")
    page.click("#clear-map")
    assert page.locator("polygon.hex.area").count() == 0 and page.locator("#editor fieldset.figure").count() == 0
    assert add_area(page, "1,2", {"elves": 1}) == "A"
    assert add_area(page, "2,2", {}) == "B"
    page.locator(".seg[data-path='map.areas[1].home_realm'] label", has_text="Latari Elves").first.click()
    assert add_area(page, "3,2", {"uthuk": 1}) == "C"
    assert add_area(page, "2,3", {}) == "D"
    page.locator(".seg[data-path='player'] label", has_text="Latari Elves").first.click()
    page.click("#add-rune")
    tap(page, "A")
    page.locator(".seg[data-path='runes[0].kind'] label", has_text="Dragon rune").first.click()
    page.click("#add-rune")
    tap(page, "B")
    page.locator(".seg[data-path='runes[1].kind'] label", has_text="False rune").first.click()
    page.click("#tap-discard")
    tap(page, "B")
    page.click("#tap-discard")
    page.click("button.tap-area[data-for='dragon_to']")
    tap(page, "B")
    map_text = page.text_content("svg.hexmap") or ""
    assert "◈" in map_text and "◇" in map_text and "✕" in map_text and "→◈" in map_text
    sent, ruling = ask(page)
    assert [(r["area"], r.get("kind")) for r in sent["runes"]] == [("A", "dragon"), ("B", "false")]
    assert sent["discard"] == ["B"] and sent["dragon_to"] == "B" and "false_to" not in sent
    assert ruling["legal"] and [d["field"] for d in ruling["decisions"]] == ["false_to"]
    shot(page, "dragon-rune-asks-1366")
    final = answer_every_decision(page, ruling, {})
    assert final["legal"] and final["outcome"]["false_to"] == "D" and final["outcome"]["dragon_to"] == "B"
    page.wait_for_timeout(300)
    chosen = page.eval_on_selector(".field[data-path='false_to'] select", "el => el.selectedOptions[0].textContent")
    assert chosen == "D" and "→◇" in (page.text_content("svg.hexmap") or "")
    shot(page, "dragon-rune-final-1366")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "dragon-rune-final-390")
    page.evaluate("document.querySelector('svg.hexmap').scrollIntoView({block: 'center'})")
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / "dragon-rune-map-390.png"))
