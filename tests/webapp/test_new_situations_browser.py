"""The 17 situations of contract 0.2 on their boards (issue 14), in Debian's Chromium.

Each new situation is a tab with a form generated from its JSON Schema. A player sets a position up through
clicks and typing only (never by loading an example), reads the summary first, and answers every decision
through its own control until the ruling is final: Rune Age's Spend Influence, a Runeslingers card paid
for, a Runewars influence bid with a tie, a RuneWars Miniatures morale test with panic tokens. Every tab is
readable (the schema's titles and descriptions, no raw keys or JSON paths, 44 px tap targets on a phone),
and the first worked example of each of the 17 loads and resolves to a ruling with a summary. Screenshots
of one new tab per game at 1280 and 390 px land in build/screenshots/new-situations/."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from boardplay import answer_every_decision, ask, open_tab, stepper_to, warm_up

from engine.core import resolve
from engine.examples import EXAMPLES as EXAMPLE_ROOT

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "new-situations"

NEW = {
    "rune-age": ["spend_influence", "combat_wounds", "siege_turns", "ability_limits", "dragon_runes"],
    "runeslingers": ["pay_cost", "boons", "keyword", "trigger_order", "end_of_turn"],
    "runewars": ["combat_round", "retreat", "diplomacy", "duel", "influence_bid", "victory_card"],
    "runewars-miniatures": ["morale_test"],
}
ALL = [(game, name) for game, names in NEW.items() for name in names]
# free answers (decisions without options): typed into the decision's own input
FREE: dict[str, str] = {"target_enemy": "Sam", "retained_cards": "Knight, Knight, Archer, Scout, Mystic, Gold, Gold"}
SCENARIOS = EXAMPLE_ROOT


@pytest.fixture(scope="module", autouse=True)
def warm(live_server: str) -> None:
    """Let the server load the corpus and situations before the first page."""
    warm_up(live_server, ("/api/situations", "/api/examples?game=runewars", "/boards/runewars"))




def summary_leads(page: Any, ruling: dict[str, Any]) -> None:
    """The summary sentence comes first after the ruling's heading, in big type."""
    assert ruling["summary"].strip()
    first = page.eval_on_selector("#ruling .ruling", "el => el.children[1].className")
    assert first == "ruling-summary"
    assert page.inner_text("#ruling .ruling-summary").strip() == ruling["summary"].strip()
    size = page.eval_on_selector("#ruling .ruling-summary", "el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 18


def answer_with(page: Any, label: str) -> dict[str, Any]:
    """Press the answer button `label` of the first open decision; return the new ruling."""
    box = page.locator("#ruling .decision").first
    with page.expect_response(lambda r: r.url.endswith("/api/resolve")) as answer:
        box.locator(".answer button", has_text=label).first.click()
    page.wait_for_timeout(100)
    page.wait_for_selector("#ruling .ruling")
    ruling: dict[str, Any] = answer.value.json()
    return ruling


def pick(page: Any, path: str, label: str) -> None:
    """Press a segmented button of the field at path."""
    page.locator(f".seg[data-path='{path}'] label", has_text=re.compile(f"^{re.escape(label)}$")).click()


def url_position(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(
        "() => JSON.parse(decodeURIComponent(escape(atob(location.hash.slice(3).replace(/-/g,'+')"
        ".replace(/_/g,'/')))))")
    return out


# ------------------------------------------------------------------ set up through clicks, per game

def test_rune_age_spend_influence_set_up_by_hand(page: Any, live_server: str) -> None:
    """A 3-influence city exhausted to buy a 2-cost card: 2 spent, 1 lost (no carry-over)."""
    open_tab(page, live_server, "rune-age", "spend_influence")
    assert page.locator("#editor .field[data-path='exhaust[0].name']").count() == 0   # blank, not an example
    page.fill(".field[data-path='player'] input", "Elves")
    page.click("#editor button:has-text('Add exhausted card')")
    page.fill(".field[data-path='exhaust[0].name'] input", "Riverwatch")
    stepper_to(page, "exhaust[0].influence", 3)
    page.click("#editor button:has-text('Add purchase')")
    page.fill(".field[data-path='purchases[0].name'] input", "Darnati Warrior")
    stepper_to(page, "purchases[0].cost", 2)
    sent, ruling = ask(page)
    assert sent["exhaust"] == [{"name": "Riverwatch", "influence": 3}]
    assert sent["purchases"] == [{"name": "Darnati Warrior", "cost": 2}]
    assert sent["timing"] == "perform_actions"                 # the default, shown as the chosen value
    out = ruling["outcome"]
    assert (out["influence"], out["cost"], out["lost"]) == (3, 2, 1)
    assert not ruling["decisions"] and ruling["legal"]
    summary_leads(page, ruling)
    assert "2 of 3 influence" in ruling["summary"]
    # removing the purchase removes it from the position: nothing bought, all 3 lost
    page.click("#editor button[aria-label='Remove purchase 1']")
    sent, ruling = ask(page)
    assert "purchases" not in sent or sent["purchases"] == []
    assert ruling["outcome"]["lost"] == 3


def test_runeslingers_pay_cost_set_up_by_hand(page: Any, live_server: str) -> None:
    """Emily turns her ready concentration for the 1 light her runespell costs."""
    open_tab(page, live_server, "runeslingers", "pay_cost")
    page.fill(".field[data-path='player'] input", "Emily")
    page.fill(".field[data-path='card.name'] input", "Illustrative spell")
    pick(page, "card.type", "Runespell")
    stepper_to(page, "card.light_cost", 1)
    page.click("#editor button:has-text('Add concentration')")
    page.fill(".field[data-path='concentrations[0].id'] input", "c1")
    page.check(".field[data-path='concentrations[0].exposed'] input[type=checkbox]")
    page.check(".field[data-path='concentrations[0].ready'] input[type=checkbox]")
    page.click("#editor button:has-text('Add concentration used')")
    page.fill(".field[data-path='use[0]'] input", "c1")
    pick(page, "place_on.kind", "Concentration")
    page.fill(".field[data-path='place_on.id'] input", "c1")
    sent, ruling = ask(page)
    assert sent["concentrations"] == [{"id": "c1", "exposed": True, "ready": True}]
    assert sent["use"] == ["c1"] and sent["place_on"] == {"kind": "concentration", "id": "c1"}
    assert ruling["legal"] and not ruling["decisions"]
    out = ruling["outcome"]
    assert (out["light_created"], out["light_spent"], out["light_left"]) == (1, 1, 0)
    summary_leads(page, ruling)
    assert ruling["summary"].startswith("Emily can play Illustrative spell")
    # a cost of 2 with one concentration: not enough light, said in words
    stepper_to(page, "card.light_cost", 2)
    sent, ruling = ask(page)
    assert not ruling["legal"] and ruling["summary"].startswith("Illegal:")


def test_runewars_influence_bid_tie_answered_through_its_control(page: Any, live_server: str) -> None:
    """Daqan and the Elves both bid 1: the tie is a decision, answered with its own button."""
    open_tab(page, live_server, "runewars", "influence_bid")
    assert page.locator("#editor .seg[data-path='players[0].faction']").count() == 1   # one blank player
    pick(page, "players[0].faction", "Daqan")
    stepper_to(page, "players[0].influence", 3)
    stepper_to(page, "players[0].bid", 1)
    page.click("#editor button:has-text('Add player')")
    pick(page, "players[1].faction", "Latari Elves")
    stepper_to(page, "players[1].influence", 3)
    stepper_to(page, "players[1].bid", 1)
    sent, ruling = ask(page)
    assert [p["faction"] for p in sent["players"]] == ["daqan", "elves"]
    assert "tie_choice" not in sent
    summary_leads(page, ruling)
    assert [d["field"] for d in ruling["decisions"]] == ["tie_choice"]
    assert page.inner_text("#ruling .badge").strip().lower() == "needs a decision"
    buttons = page.eval_on_selector_all("#ruling .decision .answer button", "els => els.map(e => e.textContent)")
    assert buttons == ["Daqan", "Latari Elves"]          # factions as printed
    ruling = answer_with(page, "Latari Elves")
    assert url_position(page)["tie_choice"] == "elves"
    assert not ruling["decisions"] and ruling["outcome"]["selected"] == "elves"
    assert page.inner_text("#ruling .badge").strip().lower() == "final"
    summary_leads(page, ruling)
    assert ruling["summary"].startswith("Elves is singled out by the highest bid of 1")
    # the answer shows in the form as the tie-breaker's value
    checked = page.eval_on_selector(".seg[data-path='tie_choice'] input:checked + label", "el => el.textContent")
    assert checked == "Latari Elves"


def test_rwm_morale_test_with_panic_tokens_answered_through_controls(page: Any, live_server: str) -> None:
    """Two morale icons and two panic tokens: spend one (severity 3), draw 3 cards, choose the one resolved."""
    open_tab(page, live_server, "runewars-miniatures", "morale_test")
    pick(page, "cause", "An attack's morale icons")
    stepper_to(page, "morale_icons", 2)
    page.fill(".field[data-path='unit.name'] input", "Reanimates")
    stepper_to(page, "unit.panic_tokens", 2)
    page.fill(".field[data-path='opponent'] input", "Daqan")
    sent, ruling = ask(page)
    summary_leads(page, ruling)
    assert [d["field"] for d in ruling["decisions"]] == ["panic_tokens_spent"]
    ruling = answer_with(page, "1")
    assert url_position(page)["panic_tokens_spent"] == 1
    assert ruling["outcome"]["severity"] == 3 and ruling["outcome"]["cards_drawn"] == 3
    # the three cards drawn are entered in the form; two show at most 3 icons
    for i, (name, kind, icons) in enumerate([("Fear 2", "Fear", 2), ("Doubt 4", "Doubt", 4),
                                             ("Confusion 3", "Confusion", 3)]):
        page.click("#editor button:has-text('Add morale card drawn')")
        page.fill(f".field[data-path='drawn[{i}].name'] input", name)
        pick(page, f"drawn[{i}].type", kind)
        stepper_to(page, f"drawn[{i}].morale_icons", icons)
    sent, ruling = ask(page)
    assert [c["morale_icons"] for c in sent["drawn"]] == [2, 4, 3]
    assert [d["field"] for d in ruling["decisions"]] == ["chosen"]
    labels = page.eval_on_selector_all("#ruling .decision .answer button", "els => els.map(e => e.textContent)")
    assert labels == ["Morale card drawn 1: Fear 2", "Morale card drawn 3: Confusion 3"]   # cards, not indexes
    ruling = answer_with(page, "Confusion 3")
    assert url_position(page)["chosen"] == 2
    # the form shows the answer as the card it names, not as an index
    shown = page.eval_on_selector(".field[data-path='chosen'] select", "el => el.selectedOptions[0].textContent")
    assert shown == "Morale card drawn 3: Confusion 3"
    assert page.inner_text(".field[data-path='chosen'] label") == "Card resolved"
    assert not ruling["decisions"] and ruling["legal"]
    assert page.inner_text("#ruling .badge").strip().lower() == "final"
    summary_leads(page, ruling)
    assert "Confusion 3" in ruling["summary"]
    # the form's own control changes the card resolved
    page.select_option(".field[data-path='chosen'] select", label="Morale card drawn 1: Fear 2")
    sent, again = ask(page)
    assert sent["chosen"] == 0 and "Fear 2" in again["summary"]


# ------------------------------------------------------------------------------ every new situation

RAW = re.compile(r"[a-z]+_[a-z_]+|\w\[\d+\]|\b[a-z]{2,}\.[a-z_]{2,}\b|\(JSON\)|State ")


@pytest.mark.parametrize("game", list(NEW))
def test_new_tabs_read_as_a_player_reads_them(page: Any, live_server: str, game: str) -> None:
    """Every new tab: titles from the schema, described fields, no raw key or JSON path, clear list buttons."""
    page.goto(f"{live_server}/boards/{game}")
    page.wait_for_selector("#board[data-ready='true']")
    for name in NEW[game]:
        page.click(f"#tab-{name}")
        # open every list once, so that the fields of one item are on screen too
        for _ in range(2):
            adds = page.locator("#editor fieldset.array > button:has-text('Add ')")
            for i in range(adds.count()):
                adds.nth(i).click()
        words = page.eval_on_selector_all(
            "#editor label, #editor legend, #editor button, #editor .hint, #editor option",
            "els => els.map(e => e.textContent.trim()).filter(Boolean)")
        raw = [w for w in words if RAW.search(w)]
        assert not raw, (game, name, raw)
        assert page.locator("#editor .hint").count() >= 1, (game, name)
        actions = page.eval_on_selector_all("#editor ol.items .item-actions button",
                                            "els => els.map(e => e.textContent)")
        for text in actions:
            assert text in ("↑", "↓") or text.startswith("Remove "), text


@pytest.mark.parametrize(("game", "situation"), ALL)
def test_first_worked_example_of_each_new_situation_resolves(page: Any, live_server: str, game: str,
                                                              situation: str) -> None:
    """Load the first worked example, resolve: a summary first and no error; every decision answered in place."""
    open_tab(page, live_server, game, situation)
    page.select_option("#example-picker", index=1)
    sent, ruling = ask(page)
    assert sent["situation"] == situation
    assert page.locator("#ruling .error").count() == 0
    summary_leads(page, ruling)
    if ruling["legal"]:
        answer_every_decision(page, ruling, FREE)


def test_new_tabs_tap_targets_on_a_phone(phone: Any, live_server: str) -> None:
    """On a phone every button, segmented choice and input of a new tab is at least 44 px high."""
    small: list[tuple[str, str, float]] = []
    for game, names in NEW.items():
        phone.goto(f"{live_server}/boards/{game}")
        phone.wait_for_selector("#board[data-ready='true']")
        for name in names:
            phone.click(f"#tab-{name}")
            adds = phone.locator("#editor fieldset.array > button:has-text('Add ')")
            for i in range(adds.count()):
                adds.nth(i).click()
            for text, height in phone.eval_on_selector_all(
                    "#editor button, #editor .segmented label, #editor input:not([type=radio]):not([type=checkbox]),"
                    " #editor select, #editor .field.check",
                    "els => els.filter(e => e.offsetParent).map(e => [e.textContent || e.getAttribute('data-path')"
                    " || '', e.getBoundingClientRect().height])"):
                if height < 44:
                    small.append((name, text, height))
            assert phone.evaluate("document.documentElement.scrollWidth") <= 391, (game, name)
    assert not small, small[:10]


def _open_decisions() -> list[tuple[str, dict[str, Any]]]:
    """Return (name, position) of every scenario of a new situation whose ruling asks the players something."""
    out = []
    for path in sorted(SCENARIOS.glob("*/*.json")):
        position = json.loads(path.read_text(encoding="utf-8"))["position"]
        if position.get("situation") not in NEW.get(position.get("game"), []):
            continue
        ruling = resolve(position).to_json()
        if ruling["legal"] and ruling["decisions"]:
            out.append((path.stem, position))
    return out


OPEN = _open_decisions()


def test_every_open_decision_of_the_new_situations_is_answered_through_its_control(page: Any,
                                                                                     live_server: str) -> None:
    """Every scenario of the 17 whose ruling asks something: opened from its share link, each decision is
    answered with its own control (buttons, a select, checkboxes or a typed answer) until the ruling is final."""
    assert len(OPEN) >= 15
    kinds: set[str] = set()
    for name, position in OPEN:
        encoded = base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")
        page.goto("about:blank")
        with page.expect_response(lambda r: r.url.endswith("/api/resolve")) as first:
            page.goto(f"{live_server}/boards/{position['game']}#p={encoded}")
        page.wait_for_selector("#ruling .ruling .decision")
        ruling = first.value.json()
        for d in ruling["decisions"]:
            kinds.add("options" if d.get("options") else "free")
        labels = page.eval_on_selector_all("#ruling .decision .answer button, #ruling .decision .answer option",
                                           "els => els.map(e => e.textContent)")
        assert not [t for t in labels if "{" in t or "_" in t], (name, labels)     # no raw JSON as an answer
        final = answer_every_decision(page, ruling, FREE)
        assert final["legal"], (name, final["summary"])
        summary_leads(page, final)
    assert kinds == {"options", "free"}


def test_rune_age_siege_turns_played_through_its_decisions(page: Any, live_server: str) -> None:
    """The Assault is played out through the ruling's own buttons: play, then pass, pass: over."""
    open_tab(page, live_server, "rune-age", "siege_turns")
    page.fill(".field[data-path='attacker'] input", "Uthuk")
    page.fill(".field[data-path='defender'] input", "Elves")
    stepper_to(page, "hands.attacker", 2)
    stepper_to(page, "hands.defender", 1)
    _sent, ruling = ask(page)
    summary_leads(page, ruling)
    assert ruling["decisions"][0]["field"] == "sequence[0]"
    assert page.eval_on_selector_all("#ruling .decision .answer button", "els => els.map(e => e.textContent)") == [
        "Attacker, play"]
    ruling = answer_with(page, "Attacker, play")
    assert url_position(page)["sequence"] == [{"by": "attacker", "action": "play"}]
    assert page.locator(".field[data-path='sequence[0].card'] input").count() == 1   # the play is on the form
    ruling = answer_with(page, "Pass")        # the defender passes
    ruling = answer_with(page, "Pass")        # the attacker passes: both have passed
    assert not ruling["decisions"] and ruling["outcome"]["assault_over"] is True
    assert [e["by"] for e in url_position(page)["sequence"]] == ["attacker", "defender", "attacker"]
    assert page.inner_text("#ruling .badge").strip().lower() == "final"


SCREENS = {"rune-age": "spend_influence", "runeslingers": "pay_cost", "runewars": "influence_bid",
           "runewars-miniatures": "morale_test"}


@pytest.mark.parametrize("width", [1280, 390])
def test_screenshots_of_new_tabs(new_page: Any, live_server: str, width: int) -> None:
    """One new tab per game with its worked example resolved, at both widths; nothing wider than the page."""
    with new_page(viewport={"width": width, "height": 900}) as pg:
        for game, name in SCREENS.items():
            open_tab(pg, live_server, game, name)
            pg.select_option("#example-picker", index=1)
            pg.click("#resolve")
            pg.wait_for_selector("#ruling .ruling")
            pg.wait_for_timeout(400)
            SHOTS.mkdir(parents=True, exist_ok=True)
            pg.screenshot(path=str(SHOTS / f"{game}-{name}-{width}.png"), full_page=True)
            assert pg.evaluate("document.documentElement.scrollWidth") <= width + 1, (game, name)
            tab = pg.locator(f"#tab-{name}").bounding_box()
            assert tab["x"] >= 0 and tab["x"] + tab["width"] <= width, (game, name, tab)   # the tab in view


def test_generated_words_unit(page: Any, live_server: str) -> None:
    """The generator's words, checked in the page's own modules: hints, titles, option labels."""
    page.goto(f"{live_server}/boards/runewars")
    page.wait_for_selector("#board[data-ready='true']")
    got = page.evaluate("""async () => {
      const sf = await import('/static/js/schemaform.js');
      const an = await import('/static/js/answers.js');
      const timing = {enum: ['perform_actions', 'discard_hand'], description:
        'perform_actions: a Spend Influence action; discard_hand: keeping cards in turn step 3.'};
      const morale = {game: 'runewars-miniatures', situation: 'morale_test', drawn: [
        {name: 'Fear 2', morale_icons: 2}, {name: 'Doubt 4', morale_icons: 4}]};
      const schema = {properties: {drawn: {type: 'array', items: {title: 'Morale card drawn'}},
                                   chosen: {type: 'integer', title: 'Card resolved (index in drawn)'}}};
      return {
        hint: sf.hintOf(timing),
        json: sf.hintOf({description: 'Instances of each type, e.g. {"burn": 5}; null when none.'}),
        tuple: sf.hintOf({description: '[area, area, plain|mountain|water]; two areas are adjacent.'}),
        title: sf.titleOf({anyOf: [{type: 'string', title: 'Destination'}, {type: 'null'}]}, 'destination'),
        untitled: sf.titleOf({type: 'integer'}, 'panic_tokens'),
        index: [...an.indexWords({field: 'chosen', options: [0, 1]}, morale, schema.properties.chosen, schema)],
        entries: [...an.entryWords([{by: 'defender', action: 'play'}, {by: 'defender', action: 'pass'}])],
        single: [...an.entryWords([{by: 'attacker', action: 'play'}])],
        kinds: an.entryWords([{curse: 2}, {burn: 2}]),
      };
    }""")
    assert got["hint"] == "Perform actions: a Spend Influence action; Discard hand: keeping cards in turn step 3."
    assert got["json"] == "Instances of each type, e.g. burn 5; none when none."
    assert got["tuple"] == "Two areas are adjacent."
    assert (got["title"], got["untitled"]) == ("Destination", "Panic tokens")
    assert got["index"] == [["0", "Morale card drawn 1: Fear 2"], ["1", "Morale card drawn 2: Doubt 4"]]
    assert [w for _, w in got["entries"]] == ["Play", "Pass"]
    assert [w for _, w in got["single"]] == ["Attacker, play"]
    assert got["kinds"] is None          # different kinds: each reads "Curse 2", "Burn 2" on its own


def test_a_position_error_names_the_field_in_the_forms_words(page: Any, live_server: str) -> None:
    """A blank Runeslingers card placed on a concentration without naming it: the error points at the field
    by its labels ("Placement › Concentration"), never by its JSON path, and marks it."""
    open_tab(page, live_server, "runeslingers", "pay_cost")
    with page.expect_response(lambda r: r.url.endswith("/api/resolve")) as answer:
        page.click("#resolve")
    assert answer.value.status == 400 and answer.value.json()["path"] == "place_on.id"
    page.wait_for_selector("#ruling .error")
    text = page.inner_text("#ruling .error")
    assert "Placement › Concentration" in text and "place_on" not in text
    assert page.locator("#editor .error-field[data-path='place_on.id']").count() >= 1
