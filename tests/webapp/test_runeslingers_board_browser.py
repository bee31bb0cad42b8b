"""The Runeslingers board, played with clicks only in Debian's Chromium (issue 24).

* Case 3: a ladder rung's Effect is a choice in a player's words; a word outside it ("counter" for "discard",
  brought in through Import) is refused (HTTP 400 naming ``plays[1].effect``, shown at the rung's Effect), never
  ruled on.
* Case 5: Health "-3" typed on the Damage tab is sent as typed and refused at the field, never clamped to 1.
* A model-based walk (:mod:`boardmodel`) of at least 200 operations across the Damage, Ailment phase and Ladder
  tabs: add and remove rungs, edit names, numbers and choices, switch tab, reset, import a worked example; after
  every operation the position sent equals the one the controls show, and the ruling's reading names every
  card the board shows.
* Screenshots of a ruling with its reading at 1366 and 390 px (build/screenshots/runeslingers-*.png).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest
from boardmodel import Op, walk, walk_seeds
from boardplay import ask, open_tab, warm_up

from engine.examples import example_files, load_example

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
TABS = ("damage", "ailment_phase", "ladder")
SEEDS = (24, 2403)


@pytest.fixture(scope="module", autouse=True)
def warm(live_server: str) -> None:
    warm_up(live_server, ("/api/situations", "/api/examples?game=runeslingers", "/boards/runeslingers"))


def refused(page: Any) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """Press "What happens now?" on a position the engine refuses: (position sent, status, answer)."""
    with (page.expect_request(lambda r: r.url.endswith("/api/resolve")) as request,
          page.expect_response(lambda r: r.url.endswith("/api/resolve")) as answer):
        page.click("#resolve")
    page.wait_for_selector("#ruling .error")
    body: dict[str, Any] = answer.value.json()
    return request.value.post_data_json, answer.value.status, body


def import_text(page: Any, text: str) -> None:
    """Paste a position into the Import dialog and load it."""
    page.click("#import")
    page.fill("#import-text", text)
    page.click("#import-load")


# ------------------------------------------------------------------------------------------ case 3

def test_the_ladder_effect_is_a_choice_and_a_word_outside_it_is_refused(page: Any, live_server: str) -> None:
    """Issue 24, case 3, clicks only: the Effect of a rung is a choice in a player's words; "discard" makes
    Flaming Fists fizzle; the same ladder with "counter" (pasted through Import) is refused at the Effect,
    with no ruling and no FINAL badge."""
    open_tab(page, live_server, "runeslingers", "ladder")
    effect = page.locator("select[data-path='plays[1].effect']")
    assert page.locator("input[data-path='plays[1].effect']").count() == 0   # no free text
    words = effect.locator("option").all_inner_texts()
    assert "Discards its target" in words and "Conceals its target" in words and "counter" not in " ".join(words)
    effect.select_option(label="Discards its target")
    sent, ruling = ask(page)
    assert sent["plays"][1]["effect"] == "discard"
    assert ruling["outcome"]["fizzled"] == ["Flaming Fists"]
    assert "discards its target" in " ".join(ruling["reading"]).lower()
    assert page.inner_text("#ruling .badge").strip().lower() == "final"

    bad = {**sent, "plays": [sent["plays"][0], {**sent["plays"][1], "effect": "counter"}]}
    import_text(page, json.dumps(bad))
    sent, status, body = refused(page)
    assert sent["plays"][1]["effect"] == "counter"
    assert status == 400 and body["path"] == "plays[1].effect" and "'counter'" in body["error"]
    assert page.locator("#ruling .badge").count() == 0 and page.locator("#ruling .ruling").count() == 0
    at_field = page.locator("[data-path='plays[1].effect'].error-field .field-error")
    assert "'counter'" in at_field.inner_text()


def test_an_unstated_effect_is_asked_for_not_guessed(page: Any, live_server: str) -> None:
    """A rung whose Effect is left "Not stated" and targets a lower rung: the ruling asks what it does."""
    open_tab(page, live_server, "runeslingers", "ladder")
    page.locator("select[data-path='plays[1].effect']").select_option(label="Not stated (the ruling asks)")
    sent, ruling = ask(page)
    assert "effect" not in sent["plays"][1]
    assert [d["field"] for d in ruling["decisions"]] == ["plays[1].effect"]
    assert "fizzle" not in ruling["summary"]
    assert page.inner_text("#ruling .badge").strip().lower() != "final"


# ------------------------------------------------------------------------------------------ case 5

def test_a_health_typed_out_of_range_is_refused_at_the_field(page: Any, live_server: str) -> None:
    """Issue 24, case 5, clicks only: Damage tab, Health "-3": the board sends -3 (not 1) and shows the
    engine's refusal naming health at the Health control; no ruling."""
    open_tab(page, live_server, "runeslingers", "damage")
    health = page.locator("input[data-path='target.health']")
    health.click()
    health.press("Control+A")
    health.type("-3")
    page.locator("input[data-path='amount']").click()   # leaving the field commits it
    assert health.input_value() == "-3"
    sent, status, body = refused(page)
    assert sent["target"]["health"] == -3
    assert status == 400 and body["path"] == "target.health"
    assert body["error"].startswith("health -3 is out of range")
    assert page.locator("#ruling .ruling").count() == 0
    at_field = page.locator(".stepper[data-path='target.health'].error-field .field-error")
    assert "health -3" in at_field.inner_text()
    assert "Health" in page.inner_text("#ruling .error-where")


# ------------------------------------------------------------------------------------------ the walk

READ_SCREEN = """() => {
  const ed = document.getElementById('editor');
  const out = {};
  const put = (path, value) => {
    const keys = [];
    path.replace(/([^.[\\]]+)|\\[(\\d+)\\]/g, (m, k, i) => { keys.push(i !== undefined ? +i : k); return m; });
    let o = out;
    keys.forEach((k, n) => {
      if (n === keys.length - 1) { o[k] = value; return; }
      if (o[k] === undefined) o[k] = typeof keys[n + 1] === 'number' ? [] : {};
      o = o[k];
    });
  };
  for (const el of ed.querySelectorAll('input.num[data-path]')) {
    const v = el.value.trim();
    if (v === '') continue;
    const p = el.dataset.path;
    const n = /^-?\\d+$/.test(v) ? parseInt(v, 10) : v;
    // a count of 0 shown is the count left out
    const counts = /^(exposed|concealed|remove|target\\.ailments|target\\.concealed)\\./;
    if ((counts.test(p) || p === 'target.boons') && n === 0) continue;
    put(p, n);
  }
  for (const fs of ed.querySelectorAll('fieldset.seg[data-path]')) {
    const on = fs.querySelector('input:checked');
    if (!on) continue;
    const v = JSON.parse(on.value);
    if (v === 'unknown' || (typeof v === 'string' && v.startsWith('\\u0000'))) continue;
    put(fs.dataset.path, v);
  }
  for (const el of ed.querySelectorAll('select[data-path]')) {
    if (el.id === 'example-picker') continue;
    const v = JSON.parse(el.value);
    if (v === '' || v === null) continue;
    put(el.dataset.path, v);
  }
  for (const el of ed.querySelectorAll('input[type=text][data-path]')) {
    const p = el.dataset.path;
    if (/\\.targets$/.test(p)) { put(p, el.value.split(',').map((x) => x.trim()).filter(Boolean)); continue; }
    if (el.value === '' && !/\\.(card|player)$/.test(p)) continue;
    put(p, el.value);
  }
  for (const box of ed.querySelectorAll('.field.check[data-path]')) {
    const c = box.querySelector('input[type=checkbox]');
    if (box.dataset.path === 'block.already_blocked_this_turn' && !c.checked) continue;
    put(box.dataset.path, c.checked);
  }
  return out;
}"""

NAMES = ("Eva", "Flaming Fists", "Stone Trap", "Dispel", "Ice Shard", "Chain Bolt", "Iron Golem", "Recall")
PLAYERS = ("you", "opponent", "Emily", "Sam")


class RuneslingersBoard:
    """The walk's view of the Runeslingers board: its operations by clicks and keys, and the screen read back."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.examples = {t: [load_example(p)["position"] for p in example_files("runeslingers")
                             if p.name.startswith({"ailment_phase": "ailments-", "damage": "damage-",
                                                   "ladder": "ladder-"}[t])] for t in TABS}
        self.examples["ailment_phase"] = [e for e in self.examples["ailment_phase"]
                                          if e["situation"] == "ailment_phase"]

    def tab(self) -> str:
        value: str = self.page.get_attribute("#situation-tabs [aria-selected='true']", "data-situation")
        return value

    # -------------------------------------------------------------------------------- reading the screen
    def shown(self, page: Any) -> dict[str, Any]:
        pos: dict[str, Any] = page.evaluate(READ_SCREEN)
        return {"game": "runeslingers", "situation": self.tab(), **pos}

    def roles(self, page: Any) -> Mapping[str, Any]:
        # the roles on this board: who played each rung (changed only through its own Player field)
        return {}

    def items(self, page: Any) -> Iterable[str]:
        if self.tab() == "damage":
            names = page.locator("input[data-path='target.name'], input[data-path='target.controller.name']")
            return [v for v in names.evaluate_all("els => els.map(e => e.value)") if v.strip()]
        if self.tab() != "ladder":
            return []
        cards = page.locator("input[data-path$='.card']").evaluate_all("els => els.map(e => e.value)")
        targets = page.locator("input[data-path$='.targets']").evaluate_all(
            "els => els.flatMap(e => e.value.split(',').map(x => x.trim()))")
        return [v for v in [*cards, *targets] if v.strip()]

    # -------------------------------------------------------------------------------- operations
    def ops(self) -> list[Op]:
        return [Op("switch tab", self.switch_tab, weight=1.5), Op("reset", self.reset, weight=0.5),
                Op("import an example", self.import_example, weight=0.7),
                Op("add a rung", self.add_rung, weight=1.5), Op("remove a rung", self.remove_rung),
                Op("move a rung", self.move_rung, weight=0.7), Op("name a card", self.name_card, weight=1.5),
                Op("choose an effect", self.choose_effect, weight=1.5), Op("set targets", self.set_targets),
                Op("set a player", self.set_player), Op("state more about a play", self.state_more, weight=0.5),
                Op("tap a stepper", self.tap_stepper, weight=3), Op("type a number", self.type_number, weight=1.5),
                Op("pick a choice", self.pick_choice, weight=2), Op("tick a box", self.tick_box, weight=0.5)]

    def switch_tab(self, page: Any, rng: random.Random) -> bool:
        page.click(f"#tab-{rng.choice(TABS)}")
        return True

    def reset(self, page: Any, rng: random.Random) -> bool:
        page.click("#reset")
        return True

    def import_example(self, page: Any, rng: random.Random) -> bool:
        import_text(page, json.dumps(rng.choice(self.examples[self.tab()])))
        return True

    def _rungs(self, page: Any) -> int:
        if self.tab() != "ladder":
            return -1
        n: int = page.locator("li.rung").count()
        return n

    def add_rung(self, page: Any, rng: random.Random) -> bool:
        if self._rungs(page) < 0 or self._rungs(page) >= 6:
            return False
        page.click("#add-rung")
        return True

    def remove_rung(self, page: Any, rng: random.Random) -> bool:
        n = self._rungs(page)
        if n <= 1:
            return False
        page.click(f"button[aria-label='Remove rung {rng.randrange(n) + 1}']")
        return True

    def move_rung(self, page: Any, rng: random.Random) -> bool:
        n = self._rungs(page)
        if n <= 1:
            return False
        i = rng.randrange(n - 1) + 1
        page.click(f"button[aria-label='Move rung {i + 1} down']")
        return True

    def name_card(self, page: Any, rng: random.Random) -> bool:
        n = self._rungs(page)
        if n <= 0:
            return False
        page.fill(f"input[data-path='plays[{rng.randrange(n)}].card']", rng.choice(NAMES))
        return True

    def set_player(self, page: Any, rng: random.Random) -> bool:
        n = self._rungs(page)
        if n <= 0:
            return False
        page.fill(f"input[data-path='plays[{rng.randrange(n)}].player']", rng.choice(PLAYERS))
        return True

    def set_targets(self, page: Any, rng: random.Random) -> bool:
        n = self._rungs(page)
        if n <= 0:
            return False
        names = rng.sample(NAMES, rng.randrange(3))
        page.fill(f"input[data-path='plays[{rng.randrange(n)}].targets']", ", ".join(names))
        return True

    def choose_effect(self, page: Any, rng: random.Random) -> bool:
        n = self._rungs(page)
        if n <= 0:
            return False
        box = page.locator(f"select[data-path='plays[{rng.randrange(n)}].effect']")
        labels = box.locator("option").all_inner_texts()
        box.select_option(label=rng.choice(labels))
        return True

    def state_more(self, page: Any, rng: random.Random) -> bool:
        buttons = page.locator("li.rung details button")
        if self._rungs(page) <= 0 or not buttons.count():
            return False
        i = rng.randrange(buttons.count())
        buttons.nth(i).evaluate("b => b.closest('details').open = true")
        buttons.nth(i).click()
        return True

    def tap_stepper(self, page: Any, rng: random.Random) -> bool:
        steppers = page.locator("#editor .stepper:visible")
        if not steppers.count():
            return False
        box = steppers.nth(rng.randrange(steppers.count()))
        box.locator("button.step").nth(rng.randrange(2)).click()
        return True

    def type_number(self, page: Any, rng: random.Random) -> bool:
        inputs = page.locator("#editor input.num:visible")
        if not inputs.count():
            return False
        box = inputs.nth(rng.randrange(inputs.count()))
        box.fill(str(rng.randrange(0, 25)))
        box.press("Tab")
        return True

    def pick_choice(self, page: Any, rng: random.Random) -> bool:
        labels = page.locator("#editor fieldset.seg:visible label")
        if not labels.count():
            return False
        labels.nth(rng.randrange(labels.count())).click()
        return True

    def tick_box(self, page: Any, rng: random.Random) -> bool:
        boxes = page.locator("#editor .field.check:visible label")
        if not boxes.count():
            return False
        boxes.nth(rng.randrange(boxes.count())).click()
        return True


@pytest.mark.parametrize("seed", walk_seeds(SEEDS))
def test_a_random_walk_keeps_the_screen_and_the_position_one(page: Any, live_server: str, seed: int) -> None:
    """At least 200 operations per seed; the invariants of boardmodel hold after each one."""
    open_tab(page, live_server, "runeslingers", "ladder")
    record = walk(page, RuneslingersBoard(page), seed, steps=200, known_items=NAMES)
    assert len(record.done) >= 200
    assert {"switch tab", "add a rung", "remove a rung", "reset", "import an example"} <= set(record.done)


# ------------------------------------------------------------------------------------------ screenshots

@pytest.mark.parametrize(("width", "height"), [(1366, 900), (390, 844)])
def test_screenshots_of_a_ruling_with_its_reading(new_page: Any, live_server: str, width: int,
                                                  height: int) -> None:
    with new_page(viewport={"width": width, "height": height}) as pg:
        open_tab(pg, live_server, "runeslingers", "ladder")
        _, ruling = ask(pg)
        text = pg.inner_text("#ruling")
        for line in ruling["reading"]:
            assert line in text
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"runeslingers-ladder-{width}.png"), full_page=True)
        open_tab(pg, live_server, "runeslingers", "damage")
        _, ruling = ask(pg)
        pg.screenshot(path=str(SHOTS / f"runeslingers-damage-{width}.png"), full_page=True)
