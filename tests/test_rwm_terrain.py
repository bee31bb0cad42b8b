"""Occupied terrain, terrain keywords, range to an edge and deployment on the RuneWars Miniatures table.

- A unit on Elevated terrain traces line of sight over every other unit and terrain piece (81.9).
- Range to a unit that occupies terrain covering its trays is never longer than range to its trays (81.7).
- Deployment rulings do not depend on where the table stands (units, terrain and areas turned together).
- A position the table cannot hold is refused with the path of the offending field, never a crash.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_geometry import turned_table

from engine.core import resolve
from engine.errors import UnreadableInputError

GAME = "runewars-miniatures"
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _unit(uid: str, player: str, front: tuple[float, float], facing: float, files: int = 2,
          ranks: int = 2) -> dict[str, Any]:
    return {"id": uid, "player": player, "name": uid.title(), "formation": [files] * ranks,
            "front": [front[0], front[1]], "facing": facing}


def _box(tid: str, x0: float, y0: float, x1: float, y1: float, **kw: Any) -> dict[str, Any]:
    return {"id": tid, "kind": tid.title(), "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], **kw}


def _hill(occupant: str = "archers", **kw: Any) -> dict[str, Any]:
    return _box("hill", -2, -1, 2, 2, capacity=4, keywords=[{"keyword": "elevated"}], occupant=occupant, **kw)


@SETTINGS
@given(x=st.floats(-6, 6), y=st.floats(4, 9), w=st.floats(0.5, 8), h=st.floats(0.3, 2),
       facing=st.floats(0, 360), unit_in_way=st.booleans())
def test_line_of_sight_from_elevated_terrain_is_never_blocked(x: float, y: float, w: float, h: float, facing: float,
                                                               unit_in_way: bool) -> None:
    units = [_unit("archers", "Waiqar", (0, 1.5), 180), _unit("spearmen", "Daqan", (0, 14), 180, 3, 2)]
    terrain = [_hill(), _box("wall", x - w / 2, y - h / 2, x + w / 2, y + h / 2)]
    if unit_in_way:
        units.append(_unit("golem", "Daqan", (-x, 11.5), facing, 1, 1))
    pos = {"game": GAME, "situation": "line_of_sight", "table": {"arc_degrees": 45}, "units": units,
           "terrain": terrain, "unit": "archers", "target": "spearmen"}
    answer = resolve(pos).to_json()
    if not answer["legal"]:  # the golem may land on the wall: that table is refused, not blocked
        return
    assert answer["outcome"]["line_of_sight"] is True
    assert answer["outcome"]["blockers"] == []


@SETTINGS
@given(dx=st.floats(-10, 10), dy=st.floats(5, 15), facing=st.floats(0, 360), margin=st.floats(0, 2))
def test_range_to_occupied_terrain_is_never_longer_than_to_the_unit(dx: float, dy: float, facing: float,
                                                                    margin: float) -> None:
    target = _unit("spearmen", "Daqan", (dx, dy), facing)
    base = {"game": GAME, "situation": "range", "table": {"band": 3.0},
            "units": [_unit("archers", "Waiqar", (0, 0), 0), target], "unit": "archers", "target": "spearmen"}
    plain = resolve(base).to_json()["outcome"]
    corners = [c for tray in _trays(target) for c in tray]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    ruin = _box("ruin", min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin, capacity=4,
                occupant="spearmen")
    held = resolve({**base, "terrain": [ruin]}).to_json()
    if not held["legal"]:  # the ruin reaches the archers
        return
    assert held["outcome"]["distance"] <= plain["distance"] + 1e-3
    assert (held["outcome"]["range"] or 99) <= (plain["range"] or 99)


def _trays(unit: dict[str, Any]) -> list[list[tuple[float, float]]]:
    rad = math.radians(unit["facing"])
    f = (math.sin(rad), math.cos(rad))
    r = (f[1], -f[0])
    files, ranks = unit["formation"][0], len(unit["formation"])
    fx, fy = unit["front"]
    out = []
    for u, v in ((-files / 2, 0), (files / 2, 0), (files / 2, -ranks), (-files / 2, -ranks)):
        out.append((fx + u * r[0] + v * f[0], fy + u * r[1] + v * f[1]))
    return [out]


AREAS = [{"id": "blue", "player": "Daqan", "polygon": [[-18, -9], [18, -9], [18, -5], [-18, -5]]},
         {"id": "red", "player": "Waiqar", "polygon": [[-18, 5], [18, 5], [18, 9], [-18, 9]]}]


@SETTINGS
@given(degrees=st.floats(0, 360), dx=st.floats(-30, 30), dy=st.floats(-30, 30), y=st.floats(-9, -3),
       x=st.floats(-20, 20), facing=st.sampled_from([0.0, 30.0, 90.0, 180.0]))
def test_deployment_does_not_depend_on_where_the_table_stands(degrees: float, dx: float, dy: float, y: float,
                                                              x: float, facing: float) -> None:
    pos = {"game": GAME, "situation": "deployment", "table": {}, "deployment_areas": AREAS,
           "units": [_unit("spearmen", "Daqan", (x, y), facing), _unit("archers", "Waiqar", (0, 6), 180)]}
    a, b = resolve(pos).to_json(), resolve(turned_table(pos, degrees, dx, dy)).to_json()
    assert a["legal"] == b["legal"]
    assert [(u["unit"], u["legal"], u["area"]) for u in a["outcome"]["units"]] == \
        [(u["unit"], u["legal"], u["area"]) for u in b["outcome"]["units"]]


def _sight(terrain: list[dict[str, Any]], units: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"game": GAME, "situation": "line_of_sight", "table": {"arc_degrees": 45},
            "units": units or [_unit("archers", "Waiqar", (0, 1.5), 180), _unit("spearmen", "Daqan", (0, 14), 180)],
            "terrain": terrain, "unit": "archers", "target": "spearmen"}


@pytest.mark.parametrize(("position", "message", "path"), [
    (_sight([_box("hill", 10, 10, 12, 12, capacity=4, occupant="archers")]), "over the terrain",
     "terrain[0].occupant"),
    (_sight([_box("hill", -2, -1, 2, 2, capacity=3, occupant="archers")]), "more than the capacity",
     "terrain[0].occupant"),
    (_sight([_box("hill", -2, -1, 2, 2, occupant="archers")]), "no capacity", "terrain[0].occupant"),
    (_sight([_hill(), _box("ruin", -2, 2, 2, 4, capacity=4, occupant="archers")]), "already occupies",
     "terrain[1].occupant"),
    (_sight([{"id": "flat", "polygon": [[0, 5], [1, 5], [2, 5]]}]), "crosses itself or has no area",
     "terrain[0].polygon"),
    ({"game": GAME, "situation": "range", "table": {"band": 3}, "units": [_unit("archers", "Waiqar", (0, 0), 0)],
      "unit": "archers", "to_edge": "top"}, "missing field 'play_area'", "play_area"),
    ({"game": GAME, "situation": "range", "table": {"band": 3}, "units": [_unit("archers", "Waiqar", (0, 0), 0)],
      "unit": "archers", "to_edge": "deployment", "deployment_area": "green", "deployment_areas": AREAS},
     "names no deployment area", "deployment_area"),
    ({"game": GAME, "situation": "deployment", "table": {}, "units": [_unit("a", "Daqan", (0, -6), 0)],
      "deployment_areas": [{"id": "x", "player": "Daqan", "polygon": [[0, 0], [1, 1], [0, 1], [1, 0]]}]},
     "crosses itself", "deployment_areas[0].polygon"),
    ({"game": GAME, "situation": "deployment", "table": {}, "units": [_unit("a", "Daqan", (0, -6), 0)],
      "deployment_areas": AREAS, "order": ["a", "b"]}, "names no unit", "order[1]"),
])
def test_a_table_the_rules_cannot_read_is_refused_with_its_path(position: dict[str, Any], message: str,
                                                                 path: str) -> None:
    with pytest.raises(UnreadableInputError) as err:
        resolve(position)
    assert message in str(err.value)
    assert err.value.path == path


def test_an_occupant_is_not_an_overlap_and_engages_through_its_terrain() -> None:
    pos = {"game": GAME, "situation": "contact", "table": {},
           "units": [_unit("knights", "Waiqar", (0, -1), 0, 2, 1), _unit("spearmen", "Daqan", (0, 1.5), 180)],
           "terrain": [_box("ruin", -2, -1, 2, 2, capacity=4, occupant="spearmen")]}
    answer = resolve(pos).to_json()
    assert answer["legal"]
    assert answer["outcome"]["engaged"] == [["knights", "spearmen"]]
    assert answer["outcome"]["contacted_edges"]["spearmen"] == {"knights": ["front"]}
    assert answer["outcome"]["flanking"] == []
