"""The Rune Age board played with clicks only, as issue 24 wrote cases 1 and 5: a removed card's bonus must not keep
counting (nor a Home Realm's name survive the switch to a city), and an impossible number is sent as typed and refused
at its field, never clamped."""

from __future__ import annotations

from typing import Any

import pytest
from boardplay import ask, open_tab, warm_up

pytestmark = pytest.mark.browser


def remove_all(page: Any, side: str) -> None:
    buttons = page.locator(f".dropzone[data-dropzone='{side}'] button:has-text('Remove')")
    while buttons.count():
        buttons.first.click()


def test_case_1_a_removed_card_takes_its_bonus_and_a_city_is_no_home_realm(page: Any, live_server: str) -> None:
    """Siege → Reset → City → remove every card on both sides → Knight to the attacker, Footman and Reanimate to the
    defender → What happens now? Strength 3 against 3: the defender holds the city, and nothing else is counted."""
    warm_up(live_server, ["/boards/rune-age", "/api/situations"])
    open_tab(page, live_server, "rune-age", "siege")
    page.click("#reset")
    page.click(".seg[data-path='target.kind'] label:has-text('City')")
    remove_all(page, "attacker")
    remove_all(page, "defender")
    page.click("button[aria-label='Add Knight to the attacker']")
    page.click("button[aria-label='Add Footman to the defender']")
    page.click("button[aria-label='Add Reanimate to the defender']")
    assert page.locator(".bonuses li").count() == 0, "a bonus outlived its card"
    sent, ruling = ask(page)
    assert "resolution_bonuses" not in sent["attacker"] or sent["attacker"]["resolution_bonuses"] == []
    assert sent["target"] == {"kind": "city", "auto_defense": 0}   # the name "Elf Home Realm" is gone
    out = ruling["outcome"]
    assert (out["attacker_strength"], out["defender_strength"], out["winner"]) == (3, 3, "defender")
    assert "Home Realm" not in ruling["summary"]
    shown = page.inner_text("#ruling")
    assert "Attacker: Uthuk, Knight (3)." in shown
    assert "No Resolution bonuses of the attacker." in shown
    assert "Defender: Elves, Footman (2) and Reanimate (1)." in shown


def test_the_book_siege_bonus_is_battle_cry_on_the_card_list(page: Any, live_server: str) -> None:
    """The board's example plays Battle Cry as a card, and its bonus goes when Battle Cry is removed."""
    open_tab(page, live_server, "rune-age", "siege")
    page.click("#reset")
    _sent, ruling = ask(page)
    assert ruling["outcome"]["attacker_strength"] == 7
    page.click("button[aria-label='Remove Battle Cry from Attacker']")
    assert page.locator(".side-attacker .bonuses li").count() == 0
    _sent, ruling = ask(page)
    assert ruling["outcome"]["attacker_strength"] == 5


def test_case_5_a_negative_enemy_strength_is_refused_at_its_field(page: Any, live_server: str) -> None:
    """Battle → Enemy strength typed as -5 → What happens now? The board sends -5 and shows the refusal at the
    field; it never turns -5 into 0."""
    open_tab(page, live_server, "rune-age", "battle")
    field = page.locator(".stepper[data-path='target.strength'] input")
    field.fill("-5")
    field.press("Tab")
    assert field.input_value() == "-5"
    with (page.expect_request(lambda r: r.url.endswith("/api/resolve")) as request,
          page.expect_response(lambda r: r.url.endswith("/api/resolve")) as answer):
        page.click("#resolve")
    assert request.value.post_data_json["target"]["strength"] == -5
    assert answer.value.status == 400
    assert answer.value.json()["path"] == "target.strength"
    page.wait_for_selector("#ruling .error")
    assert "-5" in page.inner_text("#ruling .error")
    at_field = page.locator(".error-field[data-path='target.strength'] .field-error")
    assert at_field.count() == 1 and "-5" in at_field.inner_text()
    # the fix: a strength the rules allow, and the refusal leaves the field
    field.fill("4")
    field.press("Tab")
    sent, _ruling = ask(page)
    assert sent["target"]["strength"] == 4
    assert page.locator(".field-error").count() == 0


@pytest.mark.parametrize("width", [1366, 390])
def test_screenshot_of_the_siege_ruling_with_its_reading(new_page: Any, live_server: str, width: int) -> None:
    """The ruling of case 1's siege with what it read, at a desktop and a phone width (build/screenshots/)."""
    from pathlib import Path

    with new_page(viewport={"width": width, "height": 900}) as page:
        open_tab(page, live_server, "rune-age", "siege")
        page.click("#reset")
        _sent, ruling = ask(page)
        reading = page.locator("#ruling").inner_text()
        assert all(line in reading for line in ruling["reading"])
        out = Path(__file__).resolve().parents[2] / "build" / "screenshots"
        out.mkdir(parents=True, exist_ok=True)
        page.locator("#ruling").screenshot(path=str(out / f"rune-age-siege-ruling-{width}.png"))
