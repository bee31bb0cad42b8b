"""The Runewars board in Debian's Chromium (issue 24): one battle, one map, by clicks only (case 4), and a seeded
random walk of at least 200 of a player's operations over its tabs and the hex map (tests/webapp/boardmodel.py):
add and remove areas and units, change a side's faction or an area's units, select areas, switch tabs, reset,
import; after each one the position sent is what the controls show, the attacker and defender change only through
their own choices, export -> import -> export is identity, and the ruling's reading names what the board shows.
Screenshots of the battle's ruling at 1366 and 390 px go to build/screenshots/runewars-board/."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from boardmodel import Op, walk, walk_seeds
from boardplay import ask, open_tab, stepper_to, warm_up

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "runewars-board"
SEEDS = [24, 2024, 7]


@pytest.fixture(scope="module", autouse=True)
def warm(live_server: str) -> None:
    """Let the server load the corpus and situations before the first page."""
    warm_up(live_server, ("/api/situations", "/api/examples?game=runewars", "/boards/runewars"))


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def pick(page: Any, path: str, label: str) -> None:
    page.locator(f".seg[data-path='{path}'] label", has_text=label).first.click()


def area_index(page: Any, name: str) -> int:
    names: list[str] = page.eval_on_selector_all("polygon.hex.area", "els => els.map(e => e.dataset.area)")
    order: list[str] = page.evaluate("""async () => {
        const p = (await import('/static/js/share.js')).readFromLocation();
        return (p.map && p.map.areas || []).map(a => a.id); }""")
    assert name in names
    return order.index(name)


# ------------------------------------------------------------------------------------------ case 4, clicks only

def test_case_4_the_loser_retreats_to_an_area_of_the_battles_own_map(page: Any, live_server: str) -> None:
    """Battle → Reset: the Uthuk attack the Daqan in B and lose. The ruling names C, the one Uthuk area beside B
    (it used to say only "the attacker retreats", FINAL). An Uthuk unit added to D makes two areas: the ruling asks,
    the answer is tapped, and it shows as "The loser retreats to" beside the same map."""
    open_tab(page, live_server, "runewars", "battle")
    page.click("#reset")
    page.wait_for_selector("polygon.hex.area[data-area='B']")
    assert "⚔" in page.text_content("svg.hexmap")
    sent, ruling = ask(page)
    assert (sent["area"], sent["attacker"]["faction"], sent["defender"]["faction"]) == ("B", "uthuk", "daqan")
    assert ruling["outcome"]["winner"] == "defender" and ruling["outcome"]["retreat_to"] == "C"
    assert "retreats to C" in page.inner_text("#ruling .ruling-summary")
    assert page.inner_text("#ruling .badge").strip().lower() == "final"
    assert any("Area C: 1 Uthuk" in line for line in ruling["reading"])
    shot(page, "case-4-named-1366")
    page.click("polygon.hex.area[data-area='D']")
    stepper_to(page, f"map.areas[{area_index(page, 'D')}].units.uthuk", 1)
    sent, ruling = ask(page)
    assert ruling["outcome"]["retreat_options"] == ["C", "D"]
    [decision] = ruling["decisions"]
    assert decision["field"] == "retreat_to" and decision["who"] == "the Uthuk player"
    assert page.inner_text("#ruling .badge").strip().lower() != "final"
    box = page.locator("#ruling .decision[data-field='retreat_to']")
    with page.expect_response(lambda r: r.url.endswith("/api/resolve")) as answer:
        box.locator(".answer.options button", has_text="D").first.click()
    final = answer.value.json()
    assert final["outcome"]["retreat_to"] == "D" and not final["decisions"]
    page.wait_for_timeout(300)
    chosen = page.eval_on_selector(".field[data-path='retreat_to'] select", "el => el.selectedOptions[0].textContent")
    assert chosen == "D"
    assert page.inner_text("#ruling .badge").strip().lower() == "final"


# ------------------------------------------------------------------------------------------ the model-based walk

TABS = ["battle", "retreat", "diplomacy", "mobilize", "influence_bid", "play_order"]


class RunewarsBoard:
    """The adapter of the Runewars board for :func:`boardmodel.walk`: operations by clicks only."""

    def __init__(self, live_server: str) -> None:
        self.base = live_server

    # -- what the screen shows
    def shown(self, page: Any) -> dict[str, Any]:
        """The position as the controls show it, read from the DOM: the sides, tokens and map of a battle;
        other tabs are checked through their own controls in the existing tests, so their position is the one
        the page writes (read back through share.js after the DOM has settled)."""
        page.wait_for_timeout(250)  # the board writes the URL 150 ms after the last change
        tab = page.get_attribute("#situation-tabs [aria-selected='true']", "data-situation")
        sent: dict[str, Any] = page.evaluate("async () => (await import('/static/js/share.js')).readFromLocation()")
        if tab != "battle":
            return sent
        dom: dict[str, Any] = page.evaluate("""() => {
            const seg = (p) => { const i = document.querySelector(`.seg[data-path='${p}'] input:checked`);
                                 if (!i) return null; try { return JSON.parse(i.value); } catch { return i.value; } };
            const tokens = (side) => [...document.querySelectorAll(`.side-${side} .token`)].map(li => ({
                id: li.querySelector('.token-name').textContent,
                routed: li.querySelector('input[type=checkbox]').checked}));
            const hexes = [...document.querySelectorAll('polygon.hex.area')].map(p => p.dataset.area);
            const hub = [...document.querySelectorAll('polygon.hex.area.target')].map(p => p.dataset.area);
            return {attacker: seg('attacker.faction'), defender: seg('defender.faction'), att: tokens('attacker'),
                    dfd: tokens('defender'), hexes, hub};
        }""")
        out = dict(sent)
        att, dfd = dict(sent.get("attacker", {})), dict(sent.get("defender", {}))
        assert dom["attacker"] in (att.get("faction"), None), (dom, att)
        assert dom["defender"] in (dfd.get("faction"), None), (dom, dfd)
        att["units"] = [self._token(u, a) for u, a in zip(dom["att"], att.get("units", []), strict=True)]
        dfd["units"] = [self._token(u, a) for u, a in zip(dom["dfd"], dfd.get("units", []), strict=True)]
        out["attacker"], out["defender"] = att, dfd
        areas = [a["id"] for a in (sent.get("map") or {}).get("areas", [])]
        assert sorted(dom["hexes"]) == sorted(areas), (dom["hexes"], areas)
        assert dom["hub"] == ([sent["area"]] if sent.get("area") in areas else []), (dom["hub"], sent.get("area"))
        return out

    @staticmethod
    def _token(dom: dict[str, Any], sent: dict[str, Any]) -> dict[str, Any]:
        unit = dict(sent)
        unit["id"] = dom["id"]
        if dom["routed"]:
            unit["routed"] = True
        else:
            unit.pop("routed", None)
        return unit

    def roles(self, page: Any) -> dict[str, Any]:
        tab = page.get_attribute("#situation-tabs [aria-selected='true']", "data-situation")
        if tab != "battle":
            return {"tab": tab}
        page.wait_for_timeout(250)
        pos = page.evaluate("async () => (await import('/static/js/share.js')).readFromLocation()")
        return {"tab": tab, "attacker": pos["attacker"].get("faction"), "defender": pos["defender"].get("faction")}

    def items(self, page: Any) -> list[str]:
        areas: list[str] = page.eval_on_selector_all("polygon.hex.area",
                                                     "els => els.map(e => `Area ${e.dataset.area}:`)")
        tokens: list[str] = page.eval_on_selector_all(".battle-sides .token-name", "els => els.map(e => e.textContent)")
        return [*areas, *tokens]

    # -- operations
    def ops(self) -> list[Op]:
        return [
            Op("switch tab", self.switch_tab, roles=True, weight=1),
            Op("reset", self.reset, roles=True, weight=0.5),
            Op("add a unit token", self.add_token, weight=3),
            Op("remove a unit token", self.remove_token, weight=2),
            Op("rout a token", self.rout_token, weight=1),
            Op("change the attacking faction", self.attacker_faction, roles=True, weight=1),
            Op("change the defending side", self.defender_faction, roles=True, weight=1),
            Op("select an area", self.select_area, weight=3),
            Op("add an area", self.add_area, weight=1.5),
            Op("remove the selected area", self.remove_area, weight=0.7),
            Op("change units in the selected area", self.area_units, weight=3),
            Op("move the battle here", self.make_hub, weight=0.7),
            Op("cycle a border", self.cycle_border, weight=1),
            Op("toggle the stronghold", self.stronghold, weight=1),
            Op("pick the retreat area", self.retreat_to, weight=1),
            Op("import the exported position", self.reimport, weight=0.5),
        ]

    @staticmethod
    def _on_battle(page: Any) -> bool:
        return page.get_attribute("#situation-tabs [aria-selected='true']", "data-situation") == "battle"

    def switch_tab(self, page: Any, rng: random.Random) -> bool:
        now = page.get_attribute("#situation-tabs [aria-selected='true']", "data-situation")
        target = "battle" if now != "battle" and rng.random() < 0.7 else rng.choice(TABS)
        page.click(f"#tab-{target}")
        page.wait_for_selector(f"#tab-{target}[aria-selected='true']")
        return True

    def reset(self, page: Any, rng: random.Random) -> bool:
        page.click("#reset")
        page.wait_for_timeout(100)
        return True

    def add_token(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page):
            return False
        side = rng.choice(["attacker", "defender"])
        if page.locator(f".side-{side} .token").count() >= 9:
            return False
        page.click(f"button[data-add='{side}-{rng.choice(['triangle', 'circle', 'rectangle', 'hexagon'])}']")
        return True

    def remove_token(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page):
            return False
        tokens = page.locator(".battle-sides .token button:has-text('Remove')")
        if not tokens.count():
            return False
        tokens.nth(rng.randrange(tokens.count())).click()
        return True

    def rout_token(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page):
            return False
        boxes = page.locator(".battle-sides .token input[type=checkbox]")
        if not boxes.count():
            return False
        boxes.nth(rng.randrange(boxes.count())).click()
        return True

    def attacker_faction(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page):
            return False
        labels = page.locator(".seg[data-path='attacker.faction'] label")
        labels.nth(rng.randrange(labels.count())).click()
        return True

    def defender_faction(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page):
            return False
        labels = page.locator(".seg[data-path='defender.faction'] label")
        labels.nth(rng.randrange(labels.count())).click()
        return True

    def select_area(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page):
            return False
        hexes = page.locator("polygon.hex.area")
        if not hexes.count():
            return False
        hexes.nth(rng.randrange(hexes.count())).click()
        return True

    def add_area(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page):
            return False
        empty = page.locator("polygon.hex.empty")
        if not empty.count() or page.locator("polygon.hex.area").count() >= 9:
            return False
        empty.nth(rng.randrange(empty.count())).click()
        return True

    def remove_area(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page) or not page.locator(".area-details h4").count():
            return False
        if page.locator("polygon.hex.area").count() <= 2:
            return False
        page.click(".area-details button:has-text('Remove the area')")
        return True

    def area_units(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page) or not page.locator(".area-details .unit-counts").count():
            return False
        steppers = page.locator(".area-details .unit-counts .stepper")
        box = steppers.nth(rng.randrange(steppers.count()))
        box.locator("button.step").nth(rng.randrange(2)).click()
        return True

    def make_hub(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page) or not page.locator("#make-hub").count():
            return False
        page.click("#make-hub")
        return True

    def cycle_border(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page):
            return False
        borders = page.locator("polygon.border")
        if not borders.count():
            return False
        borders.nth(rng.randrange(borders.count())).click()
        return True

    def stronghold(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page) or not page.locator(".seg[data-path='defender.stronghold']").count():
            return False
        labels = page.locator(".seg[data-path='defender.stronghold'] label")
        labels.nth(rng.randrange(labels.count())).click()
        return True

    def retreat_to(self, page: Any, rng: random.Random) -> bool:
        if not self._on_battle(page):
            return False
        sel = page.locator(".field[data-path='retreat_to'] select")
        values: list[str] = sel.evaluate("el => [...el.options].map(o => o.value)")
        sel.select_option(value=rng.choice(values))
        return True

    def reimport(self, page: Any, rng: random.Random) -> bool:
        from boardmodel import export_import_export

        export_import_export(page)
        return True


@pytest.mark.parametrize("seed", walk_seeds(SEEDS))
def test_random_walk_of_the_runewars_board(page: Any, live_server: str, seed: int) -> None:
    open_tab(page, live_server, "runewars", "battle")
    known = [f"Area {c}:" for c in "ABCDEFGHIJ"]
    record = walk(page, RunewarsBoard(live_server), seed, steps=200, known_items=known)
    assert len(record.done) == 200


# ------------------------------------------------------------------------------------------ screenshots

@pytest.mark.parametrize("width", [1366, 390])
def test_screenshots_of_the_battle_ruling(new_page: Any, live_server: str, width: int) -> None:
    with new_page(viewport={"width": width, "height": 900}) as pg:
        open_tab(pg, live_server, "runewars", "battle")
        pg.click("#reset")
        pick(pg, "attacker.faction", "Uthuk")
        _, ruling = ask(pg)
        assert ruling["reading"]
        assert pg.locator("#ruling .reading").count() == 1
        shot(pg, f"battle-ruling-{width}")
        pg.locator("#ruling").screenshot(path=str(SHOTS / f"battle-ruling-only-{width}.png"))
        wide = pg.evaluate("document.documentElement.scrollWidth")
        assert wide <= width + 1, f"the battle board is {wide} px wide at {width}"
