"""Runeslingers part 4 on its board, clicks and typing only, in Debian's Chromium (issue 26, item 10).

A player sets up convert_ailments by hand: 2 Burn and 2 Curse exposed, an effect converting 1 ailment to Weaken
with the type taken off left unknown. The ruling asks which type comes off; the player answers in the ruling
itself until it is final, and the board's position now names the type. Screenshots at 1366 and 390 px go to
build/screenshots/runeslingers-part4/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from boardplay import answer_every_decision, ask, open_tab, stepper_to, warm_up

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "runeslingers-part4"


@pytest.fixture(scope="module", autouse=True)
def warm(live_server: str) -> None:
    warm_up(live_server, ("/api/situations", "/boards/runeslingers"))


def add_ailment(page: Any, path: str, label: str, instances: int) -> None:
    """Add an ailment type to the map at *path* through its chooser and set its instances with the stepper."""
    box = page.locator(f"fieldset[data-path='{path}'] .map-add").first
    box.locator("select").select_option(label=label)
    box.locator("button", has_text="Add").click()
    stepper_to(page, f"{path}.{label.lower()}", instances)


def set_up(page: Any, live_server: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """2 Burn and 2 Curse; convert 1 ailment to Weaken, the type taken off not stated."""
    open_tab(page, live_server, "runeslingers", "convert_ailments")
    add_ailment(page, "exposed", "Burn", 2)
    add_ailment(page, "exposed", "Curse", 2)
    page.locator(".seg[data-path='change'] label", has_text=re.compile("^Convert ailments$")).click()
    stepper_to(page, "amount", 1)
    page.locator("select[data-path='from_type']").select_option(label="unknown")
    page.locator("select[data-path='to_type']").select_option(label="Weaken")
    return ask(page)


def test_convert_ailments_which_type_comes_off_answered_in_place(page: Any, live_server: str) -> None:
    """The ruling asks the effect's controller which type comes off; answering it in place gives a final
    ruling converting 1 of that type to Weaken."""
    sent, ruling = set_up(page, live_server)
    assert sent["exposed"] == {"burn": 2, "curse": 2}
    assert sent["change"] == "convert" and sent["to_type"] == "weaken" and "from_type" not in sent
    assert [d["field"] for d in ruling["decisions"]] == ["from_type"]
    assert sorted(ruling["decisions"][0]["options"]) == ["burn", "curse"]
    assert page.inner_text("#ruling .badge").strip().lower() != "final"
    assert ruling["summary"].startswith("The effect's controller first chooses")
    final = answer_every_decision(page, ruling, {})
    taken = final["outcome"]
    assert taken["removed"] == 1 and taken["applied"] == 1
    assert taken["exposed"]["weaken"] == 1 and sum(taken["exposed"].values()) == 4
    assert "converted" in final["summary"] and "Weaken applied" in final["summary"]
    chosen = page.locator("select[data-path='from_type']").input_value().strip('"')
    assert chosen in ("burn", "curse") and taken["exposed"][chosen] == 1


@pytest.mark.parametrize("width", [1366, 390])
def test_screenshots(new_page: Any, live_server: str, width: int) -> None:
    """The decision answered, at both widths; nothing wider than the page."""
    with new_page(viewport={"width": width, "height": 900}) as pg:
        _, ruling = set_up(pg, live_server)
        answer_every_decision(pg, ruling, {})
        pg.evaluate("window.scrollTo(0, 0)")
        pg.wait_for_timeout(300)
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"convert_ailments-{width}.png"), full_page=True)
        assert pg.evaluate("document.documentElement.scrollWidth") <= width + 1
