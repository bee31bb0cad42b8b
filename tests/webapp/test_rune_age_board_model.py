"""Model-based test of the Rune Age board (issue 24): a seeded random walk of 200 operations a player does (add a
card by button or by drag, remove one, add, retarget and remove bonuses, change strengths, switch the target's
kind, switch tabs among all the situations, reset), checking after each one that the position sent is the one the
controls show, that roles change only through their controls, that export -> import -> export is identity, and that
the ruling's reading names exactly the cards and bonuses the board shows (tests/webapp/boardmodel.py).

On the board before the fix, the walk finds case 1: a bonus whose card was removed stays in the position with
no card on screen (the reading names a card the board does not show).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

import pytest
from boardmodel import Op, walk, walk_seeds
from boardplay import open_tab, warm_up

pytestmark = pytest.mark.browser

TABS = ["battle", "siege", "ability_limits", "combat_wounds", "dragon_runes", "event_phase", "spend_gold",
        "spend_influence", "monument_victory", "siege_turns"]
PALETTE = ["Footman", "Archer", "Knight", "Siege Engine", "Storm Sorceress", "Darnati Warrior", "Forest Guardian",
           "Berserker", "Flesh Ripper", "Reanimate", "Skeleton Archer", "Dark Knight", "Battle Cry"]
OUTSIDE = "\u0000outside"


def current(page: Any) -> str:
    return str(page.get_attribute(".tab[aria-selected='true']", "data-situation"))


def _pick(page: Any, rng: random.Random, selector: str) -> Any | None:
    found = page.locator(selector)
    n = found.count()
    return found.nth(rng.randrange(n)) if n else None


def _click(selector: str) -> Any:
    def run(page: Any, rng: random.Random) -> bool:
        if current(page) not in ("battle", "siege"):
            return False
        target = _pick(page, rng, selector)
        if target is None:
            return False
        target.click()
        return True
    return run


def drag_card(page: Any, rng: random.Random) -> bool:
    if current(page) not in ("battle", "siege"):
        return False
    card = _pick(page, rng, ".cards.hand li.card")
    zone = _pick(page, rng, ".dropzone[data-dropzone]")
    if card is None or zone is None:
        return False
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    page.mouse.move(box["x"] + 8, box["y"] + box["height"] / 2)
    page.mouse.down()
    zone.scroll_into_view_if_needed()
    to = zone.bounding_box()
    box = card.bounding_box()
    page.mouse.move(box["x"] + 30, box["y"] + box["height"] / 2, steps=3)
    page.mouse.move(to["x"] + to["width"] / 2, to["y"] + min(20, to["height"] / 2), steps=5)
    page.mouse.up()
    return True


def retarget_bonus(page: Any, rng: random.Random) -> bool:
    if current(page) not in ("battle", "siege"):
        return False
    sel = _pick(page, rng, ".bonuses li.bonus select")
    if sel is None:
        return False
    values = sel.locator("option").evaluate_all("os => os.map(o => o.value)")
    sel.select_option(value=rng.choice(values))
    return True


def name_outside_bonus(page: Any, rng: random.Random) -> bool:
    if current(page) not in ("battle", "siege"):
        return False
    box = _pick(page, rng, ".bonuses li.bonus .field.text input")
    if box is None:
        return False
    box.fill(rng.choice(["A Time for War", "Dragon Rune", "Tact and Diplomacy", ""]))
    return True


def switch_kind(page: Any, rng: random.Random) -> bool:
    if current(page) not in ("battle", "siege"):
        return False
    label = _pick(page, rng, ".seg[data-path='target.kind'] label")
    if label is None:
        return False
    label.click()
    return True


def switch_tab(page: Any, rng: random.Random) -> bool:
    # battle and siege hold the cards; the other tabs are visited too, but less often than these two
    name = rng.choice(TABS + ["battle", "siege"] * 4)
    page.click(f"#tab-{name}")
    page.wait_for_selector(f"#tab-{name}[aria-selected='true']")
    return True


def reset(page: Any, rng: random.Random) -> bool:
    page.click("#reset")
    return True


def set_faction(page: Any, rng: random.Random) -> bool:
    if current(page) != "battle":
        return False
    label = _pick(page, rng, ".seg[data-path='attacker_faction'] label")
    if label is None:
        return False
    label.click()
    return True


def name_player(page: Any, rng: random.Random) -> bool:
    if current(page) != "siege":
        return False
    side = rng.choice(["attacker", "defender"])
    page.fill(f".field[data-path='{side}.player'] input", rng.choice(["Uthuk", "Elves", "Daqan", "Waiqar"]))
    return True


# ------------------------------------------------------------------------------ reading the screen

def _int(page: Any, path: str) -> int | None:
    box = page.locator(f".stepper[data-path='{path}'] input")
    if not box.count():
        return None
    text = box.first.input_value()
    return int(text) if text.strip() else None


def _army(page: Any, zone: str) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = page.eval_on_selector_all(
        f".dropzone[data-dropzone='{zone}'] li.card",
        """els => els.map(e => {
             const c = {name: e.querySelector('.card-name').textContent,
                        strength: parseInt(e.querySelector('.card-strength').textContent, 10),
                        kind: e.querySelector('.card-kind').textContent};
             if (e.querySelector('input[type=checkbox]').checked) c.cannot_be_destroyed = true;
             return c; })""")
    return cards


def _bonuses(page: Any, path: str) -> list[dict[str, Any]]:
    rows = page.locator(f".field[data-path^='{path}['][data-path$='].source']")
    out = []
    for i in range(rows.count()):
        value = json.loads(page.locator(f".field[data-path='{path}[{i}].source'] select").input_value())
        bonus: dict[str, Any] = {}
        if value == OUTSIDE:
            bonus["outside"] = True
            typed = page.locator(f".field[data-path='{path}[{i}].outside'] input")
            if typed.count() and typed.input_value().strip():
                bonus["source"] = typed.input_value()
        elif value is not None:
            bonus["source"] = value
        bonus["strength"] = _int(page, f"{path}[{i}].strength")
        out.append(bonus)
    return out


def _checked(page: Any, path: str) -> Any:
    radio = page.locator(f".seg[data-path='{path}'] input:checked")
    return json.loads(radio.input_value()) if radio.count() else None


def _text(page: Any, path: str) -> str:
    box = page.locator(f".field[data-path='{path}'] input")
    return box.input_value() if box.count() else ""


def _normal(value: Any) -> Any:
    """Drop what a player cannot tell from absent: empty text, empty lists, false flags, nothing."""
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()
                if not (v is None or v is False or (isinstance(v, str | list) and not v))}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


class RuneAgeBoard:
    """The adapter of the Rune Age board for :func:`boardmodel.walk`."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.seen: dict[str, Any] = {}   # the roles of every tab visited, as last shown

    def ops(self) -> list[Op]:
        return [
            Op("add a card", _click(".cards.hand button[data-add]"), weight=3),
            Op("drag a card", drag_card, weight=1),
            Op("remove a card", _click(".dropzone button:has-text('Remove')"), weight=3),
            Op("add a bonus", _click("button:has-text('Add a Resolution bonus')"), weight=2),
            Op("remove a bonus", _click(".bonuses li.bonus button:has-text('Remove')"), weight=1),
            Op("retarget a bonus", retarget_bonus, weight=2),
            Op("name a bonus from outside", name_outside_bonus, weight=1),
            Op("bonus strength +", _click(".bonuses .stepper button.step:has-text('+')")),
            Op("target strength -", _click(".stepper[data-path='target.strength'] button.step:has-text('−')")),
            Op("switch the target's kind", switch_kind, weight=2),
            Op("switch tab", switch_tab, weight=2),
            Op("reset", reset, roles=True, weight=0.5),
            Op("pick the attacker's faction", set_faction, roles=True),
            Op("name a siege player", name_player, roles=True),
        ]

    def shown(self, page: Any) -> dict[str, Any]:
        name = current(page)
        if name == "battle":
            pos = self._battle(page)
        elif name == "siege":
            pos = self._siege(page)
        else:
            return self._generic(page, name)
        return {"game": "rune-age", "situation": name, **pos}

    def _battle(self, page: Any) -> dict[str, Any]:
        target = {"kind": _checked(page, "target.kind"), "name": _text(page, "target.name"),
                  "strength": _int(page, "target.strength"), "attrition_icons": _int(page, "target.attrition_icons")}
        faction = page.locator(".field[data-path='target.faction'] select")
        if faction.count():
            target["faction"] = json.loads(faction.input_value())
        pos: dict[str, Any] = {"attacker_faction": _checked(page, "attacker_faction"), "target": target,
                               "army": _army(page, "army"), "resolution_bonuses": _bonuses(page, "resolution_bonuses"),
                               "already_attacked_this_round": page.locator(
                                   ".field[data-path='already_attacked_this_round'] input").is_checked()}
        if page.locator(".field[data-path='attrition_skulls?'] input").is_checked() if page.locator(
                ".field[data-path='attrition_skulls?'] input").count() else False:
            icons = target["attrition_icons"] or 0
            pos["attrition_skulls"] = [_int(page, f"attrition_skulls[{i}]") for i in range(icons)]
            pos["destroyed_by_attrition"] = page.eval_on_selector_all(
                ".field[data-path='destroyed_by_attrition'] input:checked",
                "els => els.map(e => e.nextElementSibling.textContent.replace(/ \\(\\d+\\)$/, ''))")
        return pos

    def _siege(self, page: Any) -> dict[str, Any]:
        scenario = page.locator(".field[data-path='scenario'] select")
        kind = _checked(page, "target.kind")
        target: dict[str, Any] = {"kind": kind, "name": _text(page, "target.name")}
        key = "damage" if kind == "home_realm" else "auto_defense"
        target[key] = _int(page, f"target.{key}")
        if kind == "city":
            target["exhausted"] = page.locator(".field[data-path='target.exhausted'] input").is_checked()
        sides = {side: {"player": _text(page, f"{side}.player"), "army": _army(page, side),
                        "resolution_bonuses": _bonuses(page, f"{side}.resolution_bonuses")}
                 for side in ("attacker", "defender")}
        return {"scenario": json.loads(scenario.input_value()), "target": target, **sides}

    def _generic(self, page: Any, name: str) -> dict[str, Any]:
        """A generated form: every leaf of the position sent must have a control at its path showing its value
        (returned as the position when so, else with the leaf that has none)."""
        from boardmodel import sent_position

        sent = sent_position(page)
        missing = []
        for path, value in _leaves(sent):
            if path in ("game", "situation"):
                continue
            control = page.locator(f"[data-path='{path}']")
            if not control.count():
                missing.append(path)
                continue
            if isinstance(value, (int, str)) and not isinstance(value, bool):
                shown = control.first.evaluate(
                    """el => { const i = el.matches('input, select') ? el
                                 : el.querySelector('input[type=radio]:checked') || el.querySelector('input, select');
                               return i ? i.value : null; }""")
                if shown not in (str(value), json.dumps(value)):
                    missing.append(f"{path} shows {shown!r}, not {value!r}")
        return {**sent, "_not_on_screen": missing} if missing else sent

    def normal(self, position: dict[str, Any]) -> Any:
        """Compare positions as a player sees them (see :func:`_normal`)."""
        return _normal(position)

    def roles(self, page: Any) -> Mapping[str, Any]:
        """Return the roles of every tab visited: switching tabs and back must find them as they were."""
        name = current(page)
        if name == "battle":
            self.seen["battle"] = {"attacker": _checked(page, "attacker_faction")}
        if name == "siege":
            self.seen["siege"] = {"attacker": _text(page, "attacker.player"),
                                  "defender": _text(page, "defender.player")}
        return dict(self.seen)

    def items(self, page: Any) -> Iterable[str]:
        if current(page) not in ("battle", "siege"):
            return []
        names: list[str] = page.eval_on_selector_all(".dropzone li.card .card-name",
                                                     "els => els.map(e => e.textContent)")
        return names


def _leaves(value: Any, path: str = "") -> Iterable[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{path}[{i}]")
    else:
        yield path, value


@pytest.mark.parametrize("seed", walk_seeds([24, 2024]))
def test_the_rune_age_board_is_its_position(page: Any, live_server: str, seed: int) -> None:
    warm_up(live_server, ["/boards/rune-age", "/api/situations", "/api/examples?game=rune-age"])
    open_tab(page, live_server, "rune-age", "battle")
    board = RuneAgeBoard(page)
    board.roles(page)
    page.click("#tab-siege")
    board.roles(page)    # both tabs with roles are known before the walk starts
    record = walk(page, board, seed, steps=200, known_items=PALETTE)
    assert len(record.done) == 200
