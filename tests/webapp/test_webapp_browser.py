"""The app in a real browser (Debian's Chromium driven by Playwright): set up positions through the UI,
resolve them, follow and preview the cited rules, search, share a position by URL, and show hostile
names as text. Screenshots of every board land in build/screenshots/."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from engine.core import load_situations, resolve
from engine.corpus import get_corpus

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "boards"
HOSTILE = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'


def needs(game: str, situation: str) -> None:
    if (game, situation) not in load_situations():
        pytest.skip(f"{game}/{situation} is not registered by the engine yet")


def open_board(page: Any, base: str, game: str, fragment: str = "") -> None:
    page.goto(f"{base}/boards/{game}{fragment}")
    page.wait_for_selector("#board[data-ready='true']")


def position_in_url(page: Any) -> dict[str, Any]:
    """Decode the position the page put in its URL fragment (#p=<base64url JSON>)."""
    fragment = page.evaluate("location.hash")
    raw = fragment.split("p=", 1)[1]
    return json.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))


def ask(page: Any) -> dict[str, Any]:
    """Press "What happens now?", wait for the ruling and return the engine's answer to the same position."""
    with page.expect_response(lambda r: r.url.endswith("/api/resolve")) as answer:
        page.click("#resolve")
    ruling: dict[str, Any] = answer.value.json()
    page.wait_for_selector("#ruling .ruling")
    page.wait_for_timeout(200)  # the fragment is written after a short pause
    position = position_in_url(page)
    want = resolve(position).to_json()
    assert {k: v for k, v in ruling.items() if k != "links"} == want
    return ruling


def outcome_text(page: Any, key: str) -> str:
    return str(page.inner_text(f"#ruling dd[data-key='{key}']")).strip()


def check_citations(page: Any, ruling: dict[str, Any]) -> None:
    """Every cited paragraph has a link to its page; one link previews and opens its paragraph."""
    corpus = get_corpus()
    for pid in ruling["cites"]:
        link = page.locator(f"#ruling .steps a.cite[data-pid='{pid}'], #ruling a.cite[data-pid='{pid}']").first
        assert link.get_attribute("href") == ruling["links"][pid]
        assert ruling["links"][pid] in (f"/rules/{pid}",) or ruling["links"][pid].endswith(f"#{pid}")
    pid = ruling["steps"][0]["cites"][0]
    page.hover(f"#ruling .steps a.cite[data-pid='{pid}']")
    page.wait_for_selector("#rule-preview:not([hidden]) .preview-text")
    # the preview shows the rule as running prose (YAML line breaks folded), led by its short form
    assert page.inner_text("#rule-preview .preview-text").split() == corpus.text_of(pid).split()
    assert corpus.locator(pid) in page.inner_text("#rule-preview .preview-locator")


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


# ------------------------------------------------------------------------------------------ Rune Age

def test_rune_age_battle_built_with_buttons_and_drag(page: Any, live_server: str) -> None:
    open_board(page, live_server, "rune-age")
    while page.locator(".army .card button:has-text('Remove')").count():
        page.locator(".army .card button:has-text('Remove')").first.click()
    while page.locator("button[aria-label^='Remove bonus']").count():
        page.locator("button[aria-label^='Remove bonus']").first.click()
    page.click(".seg[data-path='attacker_faction'] label:has-text('Daqan')")  # the Daqan cards at hand
    page.click("label:has-text('Instant')")
    page.fill("input[data-path='target.name']", "Barbarian Raid")
    page.fill("input[data-path='target.strength']", "8")
    page.fill("input[data-path='target.attrition_icons']", "0")
    page.click("button[aria-label='Add Knight to the army']")
    # drag the Footman from the hand into the army with the pointer
    card = page.locator(".hand .card", has_text="Footman").locator(".card-name")
    box = card.bounding_box()
    zone = page.locator("[data-dropzone='army']").bounding_box()
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    page.mouse.down()
    page.mouse.move(box["x"] + 40, box["y"] + 40, steps=5)
    page.mouse.move(zone["x"] + zone["width"] / 2, zone["y"] + 30, steps=10)
    page.mouse.up()
    assert page.locator(".army .card-name").all_inner_texts() == ["Knight", "Footman"]
    ruling = ask(page)
    assert ruling["outcome"]["winner"] == "target"
    assert outcome_text(page, "home_realm_damage") == "3"
    assert any(pid.startswith("rafaq.") for pid in ruling["cites"]), "the erratum on Instants is cited"
    check_citations(page, ruling)
    # follow a citation to its page
    pid = ruling["cites"][0]
    page.click(f"#ruling .steps a.cite[data-pid='{pid}']", modifiers=[])
    page.wait_for_load_state()
    assert page.locator(f"[id='{pid}']").count() == 1


def test_rune_age_decisions_are_answered_and_resolved_again(page: Any, live_server: str) -> None:
    open_board(page, live_server, "rune-age")
    page.click("label:has-text('Enemy')")
    page.fill("input[data-path='target.attrition_icons']", "1")
    if page.is_checked("text=The attrition die has been rolled"):
        page.uncheck("text=The attrition die has been rolled")
    ruling = ask(page)
    assert ruling["decisions"] and "roll the attrition die" in ruling["decisions"][0]["choose"]
    page.fill(".decision input[type='number']", "1")
    page.click("button:has-text('Answer and resolve again')")
    page.wait_for_selector(".decision:has-text('participating unit')")
    page.locator(".decision input[type='checkbox']").first.check()
    page.click(".decision button:has-text('Choose these')")
    page.wait_for_selector("#ruling .ruling:not(:has(.decision))")
    page.wait_for_timeout(300)
    position = position_in_url(page)
    assert position["attrition_skulls"] == [1] and len(position["destroyed_by_attrition"]) == 1
    want = resolve(position).to_json()
    assert not want["decisions"]
    assert outcome_text(page, "army_strength") == str(want["outcome"]["army_strength"])


def test_rune_age_siege_has_two_armies_side_by_side(page: Any, live_server: str) -> None:
    open_board(page, live_server, "rune-age")
    page.click("#tab-siege")
    page.click("button[aria-label='Add Knight to the defender']")
    left = page.locator(".side-attacker").bounding_box()
    right = page.locator(".side-defender").bounding_box()
    assert right["x"] > left["x"] + left["width"] - 1 and abs(right["y"] - left["y"]) < 5
    ruling = ask(page)
    assert ruling["situation"] == "siege"
    assert "Knight" in page.inner_text(".side-defender")
    check_citations(page, ruling)


def test_generic_panels_resolve_every_other_situation(page: Any, live_server: str) -> None:
    open_board(page, live_server, "rune-age")
    page.click("#tab-spend_gold")
    page.click("button:has-text('Add gold card')")
    page.click("button:has-text('Add gold card')")
    page.click("button:has-text('Add purchase')")
    page.fill("input[data-path='purchases[0].name']", "Necromancer")
    page.fill("input[data-path='purchases[0].cost']", "2")
    ruling = ask(page)
    assert ruling["situation"] == "spend_gold" and ruling["steps"]
    # a worked example (a scenario file) loads into a generated form and resolves
    page.click("#tab-event_phase")
    page.select_option("#example-picker", index=1)
    ruling = ask(page)
    assert ruling["situation"] == "event_phase"
    examples = json.loads(page.evaluate("fetch('/api/examples?game=rune-age&situation=event_phase')"
                                        ".then(r => r.text())"))["examples"]
    assert position_in_url(page) == examples[0]["position"]


# ------------------------------------------------------------------------------ RuneWars Miniatures

def test_runewars_miniatures_trays_edge_and_icons(page: Any, live_server: str) -> None:
    needs("runewars-miniatures", "attack")
    open_board(page, live_server, "runewars-miniatures")
    page.click(".attacker-trays .tray[data-rank='0'][data-tray='2']")   # front rank 3 wide
    page.click(".edge[data-unit='attacker'][data-edge='left']")   # the attacker's side touches the defender
    page.fill("input[data-path='results.hit']", "3")
    ruling = ask(page)
    position = position_in_url(page)
    assert position["attacker"]["ranks"][0] == 3 and position["attacker"]["contacted_edge"] == "side"
    assert position["results"]["hit"] == 3
    assert page.get_attribute(".edge[data-unit='attacker'].left", "aria-pressed") == "true"
    assert position["attacker"]["flanked_by_defender"] is True and position["attacker"]["flanking"] is False
    for key in ("threat", "damage", "wounds"):
        if key in ruling["outcome"]:
            assert outcome_text(page, key) == str(ruling["outcome"][key])
    check_citations(page, ruling)


# ----------------------------------------------------------------------------------------- Runewars

def test_runewars_map_editor_areas_borders_and_movers(page: Any, live_server: str) -> None:
    needs("runewars", "mobilize")
    open_board(page, live_server, "runewars")
    page.click("#tab-mobilize")
    page.click("polygon[data-slot='3,1']")             # a new area beside B
    new_id = page.get_attribute("polygon.selected", "data-area")
    page.click(f"polygon[data-border='B-{new_id}']")      # plain -> mountain
    page.click("#make-target")
    ruling = ask(page)
    position = position_in_url(page)
    assert position["target_area"] == new_id
    assert next(b for b in position["map"]["borders"] if set(b[:2]) == {"B", new_id})[2] == "mountain"
    assert ruling["situation"] == "mobilize"
    check_citations(page, ruling)


# ------------------------------------------------------------------------------------- Runeslingers

def test_runeslingers_field_damage_and_ladder(page: Any, live_server: str) -> None:
    open_board(page, live_server, "runeslingers")
    page.fill("input[data-path='target.health']", "3")
    page.fill("input[data-path='amount']", "7")
    page.click("label:has-text('Direct')")
    ruling = ask(page)
    assert position_in_url(page)["damage_type"] == "direct"
    assert outcome_text(page, "health") == str(ruling["outcome"]["health"])
    check_citations(page, ruling)
    page.click("#tab-ladder")
    page.click("#add-rung")
    page.fill("input[data-path='plays[2].card']", "Counterspell")
    page.fill("input[data-path='plays[2].player']", "you")
    ruling = ask(page)
    assert "Counterspell" in ruling["outcome"]["resolution_order"]


# ------------------------------------------------------------------------------- search, share, XSS

def test_search_as_you_type_with_game_filter(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/")
    page.fill("#q", "attrition die")
    page.wait_for_selector("#results .hit")
    assert page.locator("#results .hit mark").count() >= 1
    page.select_option("#game", "runeslingers")
    page.wait_for_selector("#results[data-answered='attrition die|runeslingers']")
    corpus = get_corpus()
    for pid in page.locator("#results .hit a.cite").evaluate_all("els => els.map(e => e.dataset.pid)"):
        assert corpus.paragraphs[pid].game == "runeslingers"
    assert "game=runeslingers" in page.evaluate("location.search")
    page.select_option("#game", "rune-age")
    page.wait_for_selector("#results[data-answered='attrition die|rune-age'] .hit")
    first = page.locator("#results .hit a.cite").first
    pid = first.get_attribute("data-pid")
    first.click()
    page.wait_for_load_state()
    assert page.locator(f"[id='{pid}']").count() == 1


def test_shared_url_restores_and_resolves_the_position(page: Any, live_server: str) -> None:
    position = {"game": "rune-age", "situation": "battle", "attacker_faction": "daqan",
                "target": {"kind": "city", "name": "Dawnsmoor", "strength": 6},
                "army": [{"name": "Knight", "strength": 3, "kind": "unit"},
                         {"name": "Knight", "strength": 3, "kind": "unit"}]}
    raw = base64.urlsafe_b64encode(json.dumps(position, separators=(",", ":")).encode()).decode().rstrip("=")
    open_board(page, live_server, "rune-age", f"#p={raw}")
    page.wait_for_selector("#ruling .ruling")
    assert page.input_value("input[data-path='target.name']") == "Dawnsmoor"
    want = resolve(position).to_json()
    assert want["outcome"]["winner"] == "army"
    assert outcome_text(page, "winner") == "The army"   # the situation's words for the value
    # the screen is the position: the board states the attrition icons its field shows (0, the default)
    shown = {**position, "target": {**position["target"], "attrition_icons": 0}}
    assert position_in_url(page) == shown
    assert resolve(shown).to_json()["outcome"] == want["outcome"]
    # the Share button gives the same position back
    page.click("#share")
    shared = page.input_value("#share-url").split("#p=", 1)[1]
    assert json.loads(base64.urlsafe_b64decode(shared + "=" * (-len(shared) % 4))) == shown


def test_hostile_names_are_shown_as_text(page: Any, live_server: str) -> None:
    open_board(page, live_server, "rune-age")
    page.click("summary:has-text('Make a card')")
    page.fill("input[data-path='new-card-name']", HOSTILE)
    page.click("#new-card-add")
    page.click(f"button[aria-label='Add {HOSTILE} to the army']")
    ask(page)
    assert page.evaluate("window.__xss") is None
    assert HOSTILE in page.inner_text(".army")
    assert HOSTILE in page.inner_text("#ruling") or "Assault" in page.inner_text("#ruling")
    position = {"game": "rune-age", "situation": "battle", "target": {"kind": "enemy", "name": HOSTILE,
                                                                      "strength": 1},
                "army": [{"name": HOSTILE, "strength": 2}]}
    raw = base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")
    open_board(page, live_server, "rune-age", f"#p={raw}")
    page.wait_for_selector("#ruling .ruling")
    assert HOSTILE in page.inner_text("#ruling .steps")
    assert page.evaluate("window.__xss") is None


def test_import_json_loads_a_position(page: Any, live_server: str) -> None:
    open_board(page, live_server, "runeslingers")
    position = {"game": "runeslingers", "situation": "ailment_phase", "exposed": {"burn": 2}, "power": 3}
    page.click("#import")
    page.fill("#import-text", json.dumps(position))
    page.click("#import-load")
    assert page.get_attribute("#tab-ailment_phase", "aria-selected") == "true"
    assert page.input_value("input[data-path='exposed.burn']") == "2"
    ruling = ask(page)
    assert ruling["situation"] == "ailment_phase"
    page.click("#import")
    page.fill("#import-text", "[1, 2")
    page.click("#import-load")
    assert page.inner_text("#import-error").strip()


# ------------------------------------------------------------------------------------- screenshots

MAIN = {"rune-age": "battle", "runewars-miniatures": "attack", "runewars": "battle", "runeslingers": "damage"}


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("game", list(MAIN))
def test_board_screenshots_with_a_ruling(browser: Any, live_server: str, game: str, width: int) -> None:
    needs(game, MAIN[game])
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  device_scale_factor=1, is_mobile=width < 600, has_touch=width < 600)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    open_board(pg, live_server, game)
    ask(pg)
    button = pg.locator("#resolve").bounding_box()
    assert button["height"] >= 44 and button["width"] <= width
    overflow = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
    shoot(pg, f"{game}-{width}")
    context.close()
    assert not errors, errors
