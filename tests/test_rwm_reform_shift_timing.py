"""Reform, shift while engaged and same-timing order: properties on the table, and bad input refused by path.

- Reforming to a facing and back, about the same point, puts the unit back where it stood (68.1, 68.2).
- Turning the whole table turns the ruling: the same verdict, the end position turned with it.
- A legal reposition keeps the very contacted edges the ``contact`` situation finds (73.3, 73.3.b1).
- Both players' effects with one timing: the first player's all come first, whatever order they are listed in
  (83.10, 40.1).
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_geometry import turned_table

from engine.core import resolve
from engine.errors import UnreadableInputError
from engine.examples import EXAMPLES
from engine.runewars_miniatures.reform import moved, tray_centre
from engine.runewars_miniatures.table import build_unit, rotate

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FOLDER = EXAMPLES / "runewars-miniatures"
TABLE_FILES = sorted(p for p in FOLDER.glob("*.json") if p.name.split("-")[0] in ("reform", "engaged_shift"))
G = "runewars-miniatures"


def _unit(uid: str, player: str, front: tuple[float, float], facing: float, formation: list[int],
          width: float = 1.0) -> dict[str, Any]:
    return {"id": uid, "player": player, "name": uid.title(), "tray": {"width": width, "depth": 1.0},
            "formation": formation, "front": list(front), "facing": facing}


def _turn(pos: dict[str, Any], degrees: float) -> dict[str, Any]:
    """Return the position turned clockwise by *degrees* about the origin (a stated new facing turns too)."""
    out = turned_table(pos, degrees)
    if out["situation"] == "reform":
        out["facing"] = (out["facing"] + degrees) % 360
    return out


@SETTINGS
@given(files=st.integers(1, 4), ranks=st.integers(1, 3), start=st.floats(0, 359), to=st.floats(0, 359),
       x=st.floats(-20, 20), y=st.floats(-20, 20))
def test_reform_there_and_back_returns_the_unit(files: int, ranks: int, start: float, to: float, x: float,
                                                y: float) -> None:
    pos: dict[str, Any] = {"game": G, "situation": "reform", "table": {},
                           "units": [_unit("spearmen", "Daqan", (x, y), start, [files] * ranks)],
                           "unit": "spearmen", "facing": to}
    there = resolve(pos).to_json()
    assert there["legal"] and there["outcome"]["reforms"]
    back = copy.deepcopy(pos)
    back["units"][0]["front"], back["units"][0]["facing"] = there["outcome"]["final"]["front"], to
    back["facing"] = start
    home = resolve(back).to_json()["outcome"]["final"]["front"]
    assert math.dist(home, [x, y]) < 0.01  # rounded to 3 decimals on the way


@SETTINGS
@given(files=st.integers(1, 4), ranks=st.integers(1, 3), tray=st.integers(1, 12), start=st.floats(0, 359),
       turn=st.floats(-179, 179))
def test_turning_about_a_tray_and_back_returns_the_unit(files: int, ranks: int, tray: int, start: float,
                                                        turn: float) -> None:
    unit = build_unit("u", 0, "Daqan", "U", 1.0, 1.0, tuple(tuple(range(files)) for _ in range(ranks)), (1.0, 2.0),
                      start)
    n = (tray - 1) % len(unit.cells) + 1
    there = moved(unit, rotate(unit.front, tray_centre(unit, n), turn), start + turn)
    assert math.dist(tray_centre(there, n), tray_centre(unit, n)) < 1e-9
    home = moved(there, rotate(there.front, tray_centre(there, n), -turn), start)
    assert math.dist(home.front, unit.front) < 1e-9


def _stable(answer: dict[str, Any]) -> dict[str, Any]:
    o = answer["outcome"]
    keep = ("reforms", "engaged_with", "blocked_by", "new_contacts", "lost_contacts", "changed_edges", "kind",
            "stopped_by", "repositioned_with", "disengaged_from", "panic_tokens", "pivot_tray")
    return {"legal": answer["legal"], **{k: o[k] for k in keep if k in o},
            "moved": round(o.get("moved", 0.0), 2)}


@SETTINGS
@given(index=st.integers(0, len(TABLE_FILES) - 1), degrees=st.floats(0, 360))
def test_turning_the_whole_table_turns_the_ruling(index: int, degrees: float) -> None:
    pos = json.loads(TABLE_FILES[index].read_text())["position"]
    plain, turned = resolve(pos).to_json(), resolve(_turn(pos, degrees)).to_json()
    assert _stable(turned) == _stable(plain)
    final, turned_final = plain["outcome"]["final"], turned["outcome"]["final"]
    if final is not None:
        want = rotate((final["front"][0], final["front"][1]), (0.0, 0.0), degrees)
        assert math.dist(want, turned_final["front"]) < 0.01
        assert abs((turned_final["facing"] - final["facing"] - degrees + 180) % 360 - 180) < 0.02


@SETTINGS
@given(files=st.integers(1, 4), enemy_files=st.integers(1, 5), offset=st.floats(-2, 2), shift=st.floats(0.05, 3),
       direction=st.sampled_from(["left", "right"]), facing=st.sampled_from([0, 90, 30]))
def test_a_legal_reposition_keeps_the_contacted_edges(files: int, enemy_files: int, offset: float, shift: float,
                                                     direction: str, facing: float) -> None:
    units = [_unit("spearmen", "Daqan", (0.0, 0.0), 0, [files, files]),
             _unit("reanimates", "Waiqar", (offset, 0.0), 180, [enemy_files])]
    base = {"game": G, "table": {}, "units": units}
    contact = resolve({**base, "situation": "contact"}).to_json()
    if not contact["outcome"]["engaged"]:
        return
    pos = _turn({**base, "situation": "engaged_shift", "unit": "spearmen", "direction": direction,
                 "distance": shift}, facing)
    answer = resolve(pos).to_json()
    if not (answer["legal"] and answer["outcome"]["kind"] == "reposition") or answer["outcome"]["stopped_by"]:
        return
    after = copy.deepcopy(pos)
    sideways = shift if direction == "right" else -shift  # exact, not the outcome's rounded coordinates
    after["units"][0]["front"] = list(rotate((sideways, 0.0), (0.0, 0.0), facing))
    after["situation"] = "contact"
    for key in ("unit", "direction", "distance"):
        del after[key]
    again = resolve(after).to_json()["outcome"]
    assert again["contacted_edges"] == contact["outcome"]["contacted_edges"]


@SETTINGS
@given(order=st.permutations([0, 1, 2, 3]))
def test_first_player_effects_come_first_whatever_the_listing(order: list[int]) -> None:
    effects = [{"whose": w, "name": n, "timing": "after", "event": "attack", "place": p} for w, n, p in (
        ("first_player", "Banner", 1), ("second_player", "Dread", 1), ("first_player", "Horn", 2),
        ("second_player", "Chill", 2))]
    pos = {"game": G, "situation": "same_timing", "first_player": "Daqan", "second_player": "Waiqar",
           "effects": [effects[i] for i in order]}
    names = [r["name"] for r in resolve(pos).to_json()["outcome"]["order"]]
    assert names == ["Banner", "Horn", "Dread", "Chill"]


# --------------------------------------------------------------------------------------------- bad input

def _example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FOLDER / f"{name}.json").read_text())["position"]
    return data


@pytest.mark.parametrize(("name", "change", "path"), [
    ("reform-engaged-about-a-tray", {"pivot_tray": 3}, "pivot_tray"),
    ("reform-engaged-about-a-tray", {"pivot_tray": 0}, "pivot_tray"),
    ("reform-free-quarter-turn", {"facing": 360}, "facing"),
    ("reform-free-quarter-turn", {"unit": "nobody"}, "unit"),
    ("engaged_shift-disengage-one-panic", {"distance": 0}, "distance"),
    ("engaged_shift-disengage-one-panic", {"direction": "sideways"}, "direction"),
    ("same_timing-first-player-resolves-first", {"second_player": "Waiqar"}, "second_player"),
])
def test_bad_input_names_the_path(name: str, change: dict[str, Any], path: str) -> None:
    pos = {**_example(name), **change}
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos)
    assert err.value.path == path


def test_a_timing_word_without_its_event_is_refused() -> None:
    pos = _example("same_timing-first-player-resolves-first")
    del pos["effects"][0]["event"]
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos)
    assert err.value.path == "effects[0].event"


def test_an_attack_step_effect_with_a_timing_word_is_refused() -> None:
    pos = _example("same_timing-attack-steps-and-chosen-order")
    pos["effects"][0]["timing"] = "after"
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos)
    assert err.value.path == "effects[0].timing"


@pytest.mark.parametrize("name", ["reform-free-quarter-turn", "engaged_shift-disengage-one-panic"])
def test_an_overlapping_start_is_ruled_illegal(name: str) -> None:
    pos = _example(name)
    pos["units"][1]["front"] = [0.2, -0.3]
    answer = resolve(pos).to_json()
    assert not answer["legal"] and answer["outcome"]["overlaps"]
