"""Properties of the RuneWars Miniatures table rulings (contact, line of sight, range, squaring up).

- Contact is symmetric: listing the units in another order changes no engagement, contacted edge or flank.
- Range is symmetric in its distance (the closest points are the same pair, 64.3), though the bands
  reached (*at*/*within*) depend on which end holds the ruler.
- Every ruling is invariant under moving and rotating the whole table (units, facings and terrain together).
- Line of sight is monotone: taking a unit or a terrain piece off the table never hides the target.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_geometry import turned_table

from engine.core import resolve
from engine.examples import EXAMPLES as EXAMPLE_ROOT

ROOT = Path(__file__).resolve().parent
TABLE_FILES = sorted(
    p for folder in (EXAMPLE_ROOT / "runewars-miniatures", ROOT.parent.parent / "shared" / "examples-new"
                     / "runewars-miniatures")
    for p in (folder.glob("*.json") if folder.is_dir() else [])
    if p.name.split("-")[0] in ("contact", "line_of_sight", "range", "squaring_up")
)
POSITIONS = [pos for pos in (json.loads(p.read_text())["position"] for p in TABLE_FILES)
             if "play_area" not in pos]  # a play area is a rectangle along the axes: it does not turn with the table
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _unit(uid: str, player: str, front: tuple[float, float], facing: float, files: int = 2, ranks: int = 2,
          width: float = 1.0, depth: float = 1.0) -> dict[str, Any]:
    return {"id": uid, "player": player, "name": uid.title(), "tray": {"width": width, "depth": depth},
            "formation": [files] * ranks, "front": [front[0], front[1]], "facing": facing}


def _stable(answer: dict[str, Any]) -> dict[str, Any]:
    """Return the parts of an outcome that do not depend on where the table stands."""
    o = answer["outcome"]
    keep = ("engaged", "allied_touching", "unengaged", "contacted_edges", "corner_only", "flanking", "in_arc",
            "line_of_sight", "blockers", "range", "at", "within", "beyond", "squares_up", "target", "collision",
            "counts", "pivot", "enemy_edge", "slide_options", "panic_tokens", "overlaps")
    out: dict[str, Any] = {k: o[k] for k in keep if k in o}
    for k in ("distance", "farthest"):
        if k in o:
            out[k] = round(o[k], 2)
    return {"legal": answer["legal"], "outcome": out, "decisions": len(answer["decisions"])}


@SETTINGS
@given(index=st.integers(0, max(0, len(POSITIONS) - 1)), degrees=st.floats(0, 360),
       dx=st.floats(-40, 40), dy=st.floats(-40, 40))
def test_rulings_do_not_depend_on_where_the_table_stands(index: int, degrees: float, dx: float, dy: float) -> None:
    pos = POSITIONS[index]
    assert _stable(resolve(turned_table(pos, degrees, dx, dy)).to_json()) == _stable(resolve(pos).to_json())


@SETTINGS
@given(index=st.integers(0, max(0, len(POSITIONS) - 1)), data=st.data())
def test_contact_does_not_depend_on_the_order_units_are_listed(index: int, data: st.DataObject) -> None:
    pos = copy.deepcopy(POSITIONS[index])
    pos["situation"] = "contact"
    if len(pos["units"]) < 2:
        return
    shuffled = copy.deepcopy(pos)
    shuffled["units"] = data.draw(st.permutations(pos["units"]))
    a, b = resolve(pos).to_json(), resolve(shuffled).to_json()
    assert a["legal"] == b["legal"]
    if not a["legal"]:
        return
    oa, ob = a["outcome"], b["outcome"]
    for key in ("engaged", "allied_touching", "corner_only", "flanking"):
        assert _pairs(oa[key], key) == _pairs(ob[key], key), key
    assert oa["contacted_edges"] == ob["contacted_edges"]
    assert set(oa["unengaged"]) == set(ob["unengaged"])


def _pairs(pairs: list[list[str]], key: str) -> set[Any]:
    """Return pairs as a set: undirected for engagement and touching, directed for flanks and corners."""
    if key in ("engaged", "allied_touching"):
        return {frozenset(p) for p in pairs}
    return {tuple(p) for p in pairs}


TWO_UNITS = st.tuples(st.integers(-12, 12), st.integers(-12, 12), st.sampled_from([0, 90, 180, 270, 30, 135]),
                      st.integers(1, 4), st.integers(1, 3))


@SETTINGS
@given(first=TWO_UNITS, second=TWO_UNITS, band=st.sampled_from([1.0, 2.5, 3.0, 4.0]))
def test_range_distance_is_the_same_measured_from_either_unit(first: tuple[int, int, int, int, int],
                                                               second: tuple[int, int, int, int, int],
                                                               band: float) -> None:
    units = [_unit("a", "Daqan", (first[0] / 2, first[1] / 2), first[2], first[3], first[4]),
             _unit("b", "Waiqar", (second[0] / 2, second[1] / 2), second[2], second[3], second[4])]
    pos = {"game": "runewars-miniatures", "situation": "range", "table": {"band": band}, "units": units,
           "unit": "a", "target": "b"}
    there = resolve(pos).to_json()
    back = resolve({**pos, "unit": "b", "target": "a"}).to_json()
    assert there["legal"] == back["legal"]
    if there["legal"]:
        assert there["outcome"]["distance"] == back["outcome"]["distance"]
        assert there["outcome"]["range"] == back["outcome"]["range"]
        assert there["outcome"]["beyond"] == back["outcome"]["beyond"]


BLOCKER = st.tuples(st.sampled_from(["unit", "terrain"]), st.integers(-16, 16), st.integers(2, 14),
                    st.integers(1, 5), st.integers(1, 3), st.sampled_from([0, 45, 90, 200]))


@SETTINGS
@given(target=st.tuples(st.integers(-10, 10), st.integers(4, 18), st.sampled_from([0, 90, 180, 225])),
       blockers=st.lists(BLOCKER, min_size=1, max_size=5), drop=st.integers(0, 4), arc=st.sampled_from([30, 45, 60]))
def test_removing_a_blocker_never_hides_the_target(target: tuple[int, int, int],
                                                   blockers: list[tuple[str, int, int, int, int, int]],
                                                   drop: int, arc: float) -> None:
    units = [_unit("archers", "Waiqar", (0.0, 0.0), 0, 3, 2), _unit("target", "Daqan", (target[0] / 2, target[1]),
                                                                     target[2], 3, 2)]
    terrain: list[dict[str, Any]] = []
    for i, (kind, x, y, w, d, facing) in enumerate(blockers):
        if kind == "unit":
            units.append(_unit(f"u{i}", "Daqan" if i % 2 else "Waiqar", (x / 2, y / 2), facing, w, d))
        else:
            x0, y0 = x / 2, y / 2
            terrain.append({"id": f"t{i}", "kind": "Rocks", "polygon": [[x0, y0], [x0 + w, y0], [x0 + w, y0 + d / 2],
                                                                         [x0, y0 + d]]})
    pos = {"game": "runewars-miniatures", "situation": "line_of_sight", "table": {"arc_degrees": arc},
           "units": units, "terrain": terrain, "unit": "archers", "target": "target"}
    before = resolve(pos).to_json()
    if not before["legal"]:
        return
    ids = [u["id"] for u in units[2:]] + [t["id"] for t in terrain]
    gone = ids[drop % len(ids)]
    fewer = {**pos, "units": [u for u in units if u["id"] != gone], "terrain": [t for t in terrain if t["id"] != gone]}
    after = resolve(fewer).to_json()
    assert after["legal"]
    assert after["outcome"]["in_arc"] == before["outcome"]["in_arc"]
    if before["outcome"]["line_of_sight"]:
        assert after["outcome"]["line_of_sight"]
    assert set(after["outcome"]["blockers"]) <= set(before["outcome"]["blockers"]) - {gone}
    witness = after["outcome"]["witness"]
    assert (witness is not None) == after["outcome"]["line_of_sight"]
