"""Moving on the RuneWars Miniatures table, as properties: a straight move and its reverse bring the unit home
(55.4), turning and shifting the whole table turns and shifts the ruling (the geometry has no favoured
direction), and a unit slid back after a collision never ends overlapping an obstacle and touches it (55.3)."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_geometry import turned_point

from engine.core import resolve
from engine.runewars_miniatures.movement import MovePosition, carry
from engine.runewars_miniatures.table import is_overlapping, overlaps, read_table
from engine.runewars_miniatures.templates import motion, read_templates, template_kind, template_speed

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _unit(uid: str, player: str, front: list[float], facing: float, files: int, ranks: int) -> dict[str, Any]:
    return {"id": uid, "player": player, "name": uid.title(), "formation": [files] * ranks, "front": front,
            "facing": facing}


def _move(units: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None, **kw: Any) -> dict[str, Any]:
    pos = {"game": "runewars-miniatures", "situation": "move", "table": {}, "units": units,
           "terrain": terrain or [], "unit": "mover", **kw}
    return resolve(pos).to_json()


coord = st.floats(-20, 20, allow_nan=False)
facing = st.floats(0, 359, allow_nan=False)


@SETTINGS
@given(x=coord, y=coord, face=facing, speed=st.integers(1, 5), files=st.integers(1, 4), ranks=st.integers(1, 3))
def test_straight_move_and_its_reverse_bring_the_unit_home(x: float, y: float, face: float, speed: int, files: int,
                                                           ranks: int) -> None:
    there = _move([_unit("mover", "Daqan", [x, y], face, files, ranks)], action="shift", speed=speed)
    assert there["legal"], there["summary"]
    end = there["outcome"]["final"]
    back = _move([_unit("mover", "Daqan", end["front"], end["facing"], files, ranks)], action="shift", speed=speed,
                 direction="backward")
    home = back["outcome"]["final"]["front"]
    assert math.dist(home, [x, y]) < 2e-3


@SETTINGS
@given(deg=st.floats(0, 359, allow_nan=False), dx=coord, dy=coord, speed=st.integers(1, 5),
       modifier=st.sampled_from([None, "turn", "wheel", "charge"]), gap=st.floats(0.5, 6, allow_nan=False))
def test_turning_the_whole_table_turns_the_ruling(deg: float, dx: float, dy: float, speed: int, modifier: str | None,
                                                 gap: float) -> None:
    units = [_unit("mover", "Daqan", [0.0, 0.0], 0.0, 3, 2), _unit("enemy", "Waiqar", [0.3, gap], 180.0, 3, 1)]
    rock = [[-3.0, 2.0], [-2.0, 2.0], [-2.0, 3.0], [-3.0, 3.0]]
    kw: dict[str, Any] = {"action": "march", "speed": speed, "bend": "left"}
    if modifier:
        kw["modifier"] = modifier
    plain = _move(units, [{"id": "rock", "polygon": rock}], **kw)
    moved_units = [dict(u, front=turned_point(u["front"], deg, dx, dy), facing=(u["facing"] + deg) % 360)
                   for u in units]
    moved_rock = [turned_point(p, deg, dx, dy) for p in rock]
    turned = _move(moved_units, [{"id": "rock", "polygon": moved_rock}], **kw)
    a, b = plain["outcome"], turned["outcome"]
    for key in ("collided", "collided_terrain", "stopped_by", "panic_tokens", "charge_target", "moves"):
        assert a[key] == b[key], key
    assert abs(a["distance"] - b["distance"]) < 2e-3
    assert math.dist(turned_point(a["final"]["front"], deg, dx, dy), b["final"]["front"]) < 3e-3
    assert abs((a["final"]["facing"] + deg - b["final"]["facing"] + 180) % 360 - 180) < 0.02


@SETTINGS
@given(ox=st.floats(-4, 4, allow_nan=False), oy=st.floats(1, 6, allow_nan=False), w=st.floats(0.2, 3),
       h=st.floats(0.2, 3), turn=st.floats(0, 90), speed=st.integers(1, 5),
       modifier=st.sampled_from([None, "turn", "wheel"]), bend=st.sampled_from(["left", "right"]))
def test_slid_back_unit_never_overlaps(ox: float, oy: float, w: float, h: float, turn: float, speed: int,
                                       modifier: str | None, bend: str) -> None:
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    poly = [[ox + px * c - py * s, oy + px * s + py * c] for px, py in ((0, 0), (w, 0), (w, h), (0, h))]
    units = [_unit("mover", "Daqan", [0.0, 0.0], 0.0, 2, 2)]
    kw: dict[str, Any] = {"action": "march", "speed": speed, "bend": bend}
    if modifier:
        kw["modifier"] = modifier
    pos = MovePosition.model_validate({"game": "runewars-miniatures", "situation": "move", "table": {},
                                       "units": units, "terrain": [{"id": "rock", "polygon": poly}],
                                       "unit": "mover", **kw})
    table = read_table(pos.table, pos.units, pos.terrain)
    unit = table.unit("mover")
    if overlaps(table):
        return  # the rock was placed on the unit: an illegal start, nothing moves
    kind = template_kind(modifier)
    templates = read_templates(pos.table)
    mv = motion(unit, "forward", kind, templates, template_speed(templates, kind, speed), bend)
    moved = carry(table, unit, mv)
    assert not is_overlapping(moved.final.shape, table.terrain[0].shape)
    if moved.blockers:
        assert moved.final.shape.distance(table.terrain[0].shape) <= 1e-6  # slid back to touch it, no further
