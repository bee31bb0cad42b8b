"""Boards a player can trust (issue 13), in Debian's Chromium: every position is set up through clicks and
taps only (never by loading an example), the position sent is compared with what the screen shows, and
the ruling is read as a player reads it (its summary first, the numbers that matter, every decision
answered through its own control until the ruling is final). Screenshots of every board and of the
rulebook site at 1280 and 390 px land in build/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from boardplay import answer_every_decision, ask, stepper_to, warm_up

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def open_board(page: Any, base: str, game: str) -> None:
    page.goto(f"{base}/boards/{game}")
    page.wait_for_selector("#board[data-ready='true']")


@pytest.fixture(scope="module", autouse=True)
def warm(live_server: str) -> None:
    """Let the server load the corpus, situations and index before the first page (a cold start on a busy
    machine can take longer than a page's timeout)."""
    warm_up(live_server, ("/api/situations", "/api/search?q=attack", "/boards/runewars-miniatures"))



def summary_leads(page: Any, ruling: dict[str, Any]) -> None:
    """The summary sentence is the first thing of the ruling after its heading, in big type."""
    first = page.eval_on_selector("#ruling .ruling", "el => el.children[1].className")
    assert first == "ruling-summary"
    assert page.inner_text("#ruling .ruling-summary").strip() == ruling["summary"].strip()
    size = page.eval_on_selector("#ruling .ruling-summary", "el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 18


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


# ------------------------------------------------------------------------- RuneWars Miniatures

def test_rwm_side_flank_attack(page: Any, live_server: str) -> None:
    """The attacker's front on the defender's left side: flanking, +1 die; threat 2 × 2 hits = 4 damage."""
    open_board(page, live_server, "runewars-miniatures")
    assert page.locator(".edge[data-unit='defender']").count() == 4
    page.click(".edge[data-unit='defender'][data-edge='left']")
    assert page.inner_text("#contact-sentence") == (
        "Attacker's front touches the defender's left side: flanking (+1 die).")
    sent, ruling = ask(page)
    att = sent["attacker"]
    assert (att["contacted_edge"], att["flanking"], att["flanked_by_defender"]) == ("front", True, False)
    assert sent["ui_contact"] == {"attacker_edge": "front", "defender_edge": "left"}
    out = ruling["outcome"]
    assert (out["threat"], out["extra_dice"], out["damage"]) == (2, 1, 4)
    assert ruling["legal"]
    summary_leads(page, ruling)
    assert page.inner_text("#ruling dd[data-key='extra_dice']") == "1"
    # the flanking die is asked; answered with its own buttons, then every other decision until final
    assert any(d["field"] == "attacker.flanking_die" for d in ruling["decisions"])
    final = answer_every_decision(page, ruling, {"attacker.morale_card": "Panic"})
    sent_now = page.evaluate("() => JSON.parse(atob(location.hash.slice(3).replace(/-/g,'+').replace(/_/g,'/')))")
    assert sent_now["attacker"]["flanking_die"] in ("blue", "red")
    assert final["legal"]


def test_rwm_rear_flank_attack(page: Any, live_server: str) -> None:
    """The attacker's front on the defender's rear: flanking too; 3 hits × threat 2 = 6 damage."""
    open_board(page, live_server, "runewars-miniatures")
    page.click(".edge[data-unit='defender'][data-edge='rear']")
    assert "touches the defender's rear: flanking" in page.inner_text("#contact-sentence")
    stepper_to(page, "results.hit", 3)
    sent, ruling = ask(page)
    assert sent["results"]["hit"] == 3
    out = ruling["outcome"]
    assert (out["threat"], out["extra_dice"], out["damage"]) == (2, 1, 6)
    summary_leads(page, ruling)
    # the defender's front against the attacker's side: the defender flanks, no flanking die
    page.click(".edge[data-unit='defender'][data-edge='front']")
    page.click(".edge[data-unit='attacker'][data-edge='right']")
    assert "the defender is flanking the attacker" in page.inner_text("#contact-sentence")
    sent, ruling = ask(page)
    assert (sent["attacker"]["contacted_edge"], sent["attacker"]["flanking"],
            sent["attacker"]["flanked_by_defender"]) == ("side", False, True)
    assert ruling["outcome"]["extra_dice"] == 0
    assert ruling["outcome"]["rerolls"]["full_rank"] == 0


def test_rwm_ranged_at_target_engaged_with_ally(page: Any, live_server: str) -> None:
    """A ranged attack hides the contact controls and sends none of them; shooting into a melee with an ally."""
    open_board(page, live_server, "runewars-miniatures")
    page.click(".seg[data-path='attack_type'] label:has-text('Ranged')")
    assert page.locator(".edge").count() == 0
    assert page.locator("#contact-sentence").count() == 0
    labels = page.eval_on_selector_all("#editor label, #editor legend", "els => els.map(e => e.textContent)")
    assert not [t for t in labels if "flank" in t.lower()], labels
    page.click("label:has-text('Target engaged with your other unit')")
    page.fill(".field[data-path='defender.engaged_with_allies[0]'] input", "Rune Golems")
    stepper_to(page, "attacker.range", 3)
    sent, ruling = ask(page)
    att = sent["attacker"]
    for gone in ("contacted_edge", "flanking", "flanked_by_defender", "flanking_die"):
        assert gone not in att
    assert "ui_contact" not in sent
    assert (sent["attack_type"], att["range"], att["engaged"]) == ("ranged", 3, False)
    assert sent["defender"]["engaged_with_allies"] == ["Rune Golems"]
    assert ruling["legal"]
    assert "rwm.65.3" in ruling["cites"]
    summary_leads(page, ruling)
    answer_every_decision(page, ruling, {"attacker.morale_card": "Panic"})
    # the attacker engaged: a player-readable illegal ruling
    page.click("label:has-text('Attacker engaged (with any enemy)')")
    sent, ruling = ask(page)
    assert not ruling["legal"]
    assert ruling["summary"].startswith("Illegal:")


def test_rwm_ranks_on_screen_are_the_ranks_sent(page: Any, live_server: str) -> None:
    """Add a rank to the defender, then take a tray away: the position sent is the grid on screen."""
    open_board(page, live_server, "runewars-miniatures")
    page.click(".defender-trays .tray[data-rank='2'][data-tray='2']")   # a third rank of 3 trays
    page.click(".defender-trays .tray[data-rank='2'][data-tray='1']")   # … cut to 2: a partial back rank
    on = page.eval_on_selector_all(
        ".defender-trays .tray.on", "els => els.map(e => [+e.dataset.rank, +e.dataset.tray])")
    screen = [sum(1 for r, _ in on if r == k) for k in range(3)]
    sent, _ = ask(page)
    assert sent["defender"]["ranks"] == screen == [3, 3, 2]


def test_edge_pickers_and_borders_are_big_enough_to_tap(phone: Any, live_server: str) -> None:
    """On a phone: edge pickers and the border buttons of a map area are at least 44 px; hex labels read."""
    boxes = "els => els.map(e => e.getBoundingClientRect().toJSON())"
    open_board(phone, live_server, "runewars-miniatures")
    for box in phone.eval_on_selector_all(".edge", boxes):
        assert box["width"] >= 44 and box["height"] >= 44, box
    open_board(phone, live_server, "runewars")
    for box in phone.eval_on_selector_all("svg.battle-map .hex-label", boxes):
        assert box["height"] >= 12, box          # the area names are drawn at a readable size
    phone.click("#tab-mobilize")
    phone.locator("polygon[data-area='A']").tap()
    assert phone.locator(".border-button").count() >= 2
    for box in phone.eval_on_selector_all(".border-button", boxes):
        assert box["height"] >= 44, box
    for box in phone.eval_on_selector_all(".map-scroll .hex-label", boxes):
        assert box["height"] >= 12, box
    before = phone.locator(".border-button").first.inner_text()
    phone.locator(".border-button").first.tap()
    assert phone.locator(".border-button").first.inner_text() != before   # plain → mountain → water → none


# ------------------------------------------------------------------------------------ Rune Age

def army_on_screen(page: Any) -> list[str]:
    names: list[str] = page.eval_on_selector_all(".dropzone[data-dropzone='army'] .card .card-name",
                                                 "els => els.map(e => e.textContent)")
    return names


def test_rune_age_battle_after_swapping_cards(page: Any, live_server: str) -> None:
    """Take every card out, pick the Daqan, add theirs, add a bonus from one card and swap that card out."""
    open_board(page, live_server, "rune-age")
    stepper_to(page, "target.attrition_icons", 0)
    while page.locator(".dropzone[data-dropzone='army'] button:has-text('Remove')").count():
        page.locator(".dropzone[data-dropzone='army'] button:has-text('Remove')").first.click()
    page.click(".seg[data-path='attacker_faction'] label:has-text('Daqan')")
    hand = page.eval_on_selector_all(".cards.hand .card-name", "els => els.map(e => e.textContent)")
    assert {"Footman", "Knight"} <= set(hand) and "Reanimate" not in hand
    for name in ("Footman", "Footman", "Knight"):
        page.click(f"button[aria-label='Add {name} to the army']")
    page.click("button:has-text('Add a Resolution bonus')")
    page.select_option(".field[data-path='resolution_bonuses[0].source'] select", label="Knight")
    stepper_to(page, "resolution_bonuses[0].strength", 2)
    sent, ruling = ask(page)
    assert sent["resolution_bonuses"] == [{"source": "Knight", "strength": 2}]
    # swap the Knight for an Archer: the bonus that named the Knight goes with it
    page.click("button[aria-label='Remove Knight from Army']")
    assert page.locator(".field[data-path='resolution_bonuses[0].source']").count() == 0
    page.click("button[aria-label='Add Archer to the army']")
    sent, ruling = ask(page)
    assert [c["name"] for c in sent["army"]] == army_on_screen(page) == ["Footman", "Footman", "Archer"]
    assert "resolution_bonuses" not in sent
    assert "destroyed_by_attrition" not in sent or not sent["destroyed_by_attrition"]
    assert sent["attacker_faction"] == "daqan"
    assert ruling["outcome"]["army_strength"] == 6
    summary_leads(page, ruling)
    assert "Knight" not in page.inner_text("#ruling .ruling-summary")


def test_rune_age_removed_victim_leaves_the_position(page: Any, live_server: str) -> None:
    """An attrition victim whose card is taken out of the army is no longer sent."""
    open_board(page, live_server, "rune-age")
    victims = page.locator(".field[data-path='destroyed_by_attrition'] input[type=checkbox]:checked")
    assert victims.count() == 1
    while page.locator("button[aria-label='Remove Reanimate from Army']").count():
        page.locator("button[aria-label='Remove Reanimate from Army']").first.click()
    sent, ruling = ask(page)
    assert "Reanimate" not in [c["name"] for c in sent["army"]]
    assert "Reanimate" not in (sent.get("destroyed_by_attrition") or [])
    assert ruling["legal"], ruling["outcome"].get("violations")


# --------------------------------------------------------------------------------- Runeslingers

def test_runeslingers_pierce_on_a_blocking_runeslinger(page: Any, live_server: str) -> None:
    open_board(page, live_server, "runeslingers")
    page.click(".seg[data-path='damage_type'] label:has-text('Pierce')")
    page.click(".seg[data-path='block.declared'] label:has-text('Blocks')")
    stepper_to(page, "block.value", 3)
    sent, ruling = ask(page)
    assert sent["damage_type"] == "pierce"
    assert sent["block"]["declared"] is True and sent["block"]["value"] == 3
    assert "missing field" not in page.inner_text("#ruling")
    assert ruling["legal"], ruling["outcome"].get("violations")
    summary_leads(page, ruling)
    # "Blocks" with the value never touched still reads: the value has a default
    page.click(".seg[data-path='block.declared'] label:has-text('Not decided yet')")
    page.click(".seg[data-path='block.declared'] label:has-text('Blocks')")
    sent, ruling = ask(page)
    assert "value" in sent["block"]


# ------------------------------------------------------------------------------------- Runewars

def test_runewars_battle_set_up_on_the_map(page: Any, live_server: str) -> None:
    """Tap the contested area; its controller and stronghold defend; units are added as tokens."""
    open_board(page, live_server, "runewars")
    assert page.get_attribute("#situation-tabs [aria-selected='true']", "data-situation") == "battle"
    page.click("polygon[data-area='Thelgrim']")
    assert "Battle in Thelgrim" in page.inner_text("#contested-line")
    page.click(".seg[data-path='attacker.faction'] label:has-text('Daqan')")
    for _ in range(3):
        page.click("button[data-add='attacker-triangle']")
    page.click("button[data-add='defender-circle']")
    page.click("button[data-add='defender-hexagon']")
    tokens = page.locator(".side-attacker .token")
    assert tokens.count() == 3
    page.locator(".side-attacker .token").nth(2).locator("button:has-text('Remove')").click()
    sent, ruling = ask(page)
    assert sent["defender"]["faction"] == "uthuk"
    assert sent["defender"]["stronghold"] == {"strength": 3}
    assert sent["attacker"]["faction"] == "daqan"
    assert len(sent["attacker"]["units"]) == page.locator(".side-attacker .token").count() == 2
    assert [u["class"] for u in sent["defender"]["units"]] == ["circle", "hexagon"]
    out = ruling["outcome"]
    assert (out["attacker_strength"], out["winner"]) == (2, "defender")
    assert out["defender_strength"] >= 2 + 3
    summary_leads(page, ruling)
    assert page.inner_text("#ruling dd[data-key='winner']").strip() not in ("defender", "")


# ------------------------------------------------------------------------------- every board

def test_generated_forms_have_no_state_switches(page: Any, live_server: str) -> None:
    """No "State …" switch on any tab of any board; every tab renders without a script error."""
    for game in ("rune-age", "runewars-miniatures", "runewars", "runeslingers"):
        open_board(page, live_server, game)
        names = page.eval_on_selector_all("#situation-tabs [role=tab]", "els => els.map(e => e.dataset.situation)")
        for name in names:
            page.click(f"#tab-{name}")
            labels = page.eval_on_selector_all("#editor label, #editor legend", "els => els.map(e => e.textContent)")
            assert not [t for t in labels if t.startswith("State ")], (game, name)


def test_citation_tap_previews_then_opens(phone: Any, live_server: str) -> None:
    open_board(phone, live_server, "runewars-miniatures")
    phone.click("#resolve")
    phone.wait_for_selector("#ruling .ruling")
    link = phone.locator("#ruling .steps a.cite").first
    link.scroll_into_view_if_needed()
    url = phone.url
    link.tap()
    phone.wait_for_selector("#rule-preview:not([hidden]) .preview-actions")
    assert phone.url == url
    text = phone.inner_text("#rule-preview")
    assert "null" not in text and "undefined" not in text
    link.tap()
    phone.wait_for_url(lambda u: u != url)


def test_rule_page_shows_faq_and_errata(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/rules/ra.a-player-s-turn.4?here=1")
    notes = page.inner_text(".faq-notes")
    assert "hands are refilled after the Event" in notes
    assert "everyone draws up to five after the Event" in notes
    assert page.get_attribute("link[rel~=icon]", "href").endswith(".svg")


BOARDS = ["rune-age", "runewars-miniatures", "runewars", "runeslingers"]


@pytest.mark.parametrize("width", [1280, 390])
def test_screenshots(new_page: Any, live_server: str, width: int) -> None:
    """Every board with its ruling, the boards list, a rule page and the rulebook site, at both widths."""
    with new_page(viewport={"width": width, "height": 900}) as pg:
        for game in BOARDS:
            open_board(pg, live_server, game)
            pg.click("#resolve")
            pg.wait_for_selector("#ruling .ruling")
            pg.wait_for_timeout(400)
            shot(pg, f"boards/{game}-{width}")
            wide = pg.evaluate("document.documentElement.scrollWidth")
            assert wide <= width + 1, f"{game} is {wide} px wide at {width}"
        pg.goto(f"{live_server}/boards/")
        shot(pg, f"boards/index-{width}")
        pg.goto(f"{live_server}/rules/ra.a-player-s-turn.4?here=1")
        shot(pg, f"site/rule-page-{width}")
        site = pg.goto(f"{live_server}/site/")
        if site is not None and site.ok:
            shot(pg, f"site/index-{width}")
            assert pg.locator(".rc-top a:has-text('Boards')").count() == 1
            assert pg.get_attribute("link[rel~=icon]", "href")
            first = pg.get_attribute(".rc-top a:has-text('Boards')", "href")
            assert first == "/boards/"
            # the site's search takes a dotted paragraph id straight to its paragraph
            pg.goto(f"{live_server}/site/search.html?q=rwm.10.4")
            pg.wait_for_url(lambda u: u.endswith("#rwm.10.4"))
            shot(pg, f"site/paragraph-{width}")
