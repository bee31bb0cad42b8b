"""Entering terrain another unit touches (RuneWars Miniatures 81.8.b3).

- A unit marching into terrain an enemy touches collides with that enemy: 1 panic token per such enemy; an
  allied unit touching the piece causes nothing; a unit that does not enter (or is not told to) collides with
  neither.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import resolve

GAME = "runewars-miniatures"
RUINS = {"id": "ruins", "kind": "Ruins", "polygon": [[-2, 3], [2, 3], [2, 6], [-2, 6]], "capacity": 6}
SPOTS = {"top": ([0.0, 6.0], 180.0), "right": ([2.5, 5.0], 0.0), "left": ([-2.5, 5.0], 0.0)}


def _unit(uid: str, player: str, front: list[float], facing: float, files: int) -> dict[str, Any]:
    return {"id": uid, "player": player, "name": uid.title(), "type": "infantry", "tray": {"width": 1.0, "depth": 1.0},
            "formation": [files, files], "front": front, "facing": facing}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spots=st.lists(st.sampled_from(sorted(SPOTS)), min_size=1, max_size=3, unique=True),
       players=st.lists(st.sampled_from(["Waiqar", "Daqan"]), min_size=3, max_size=3),
       enter=st.sampled_from([True, False, None]))
def test_entering_terrain_collides_with_each_enemy_touching_it(spots: list[str], players: list[str],
                                                               enter: bool | None) -> None:
    units = [_unit("spearmen", "Daqan", [0, 0], 0, 3)]
    for spot, player in zip(spots, players, strict=False):
        front, facing = SPOTS[spot]
        units.append(_unit(f"{spot}-unit", player, front, facing, 2 if spot == "top" else 1))
    pos: dict[str, Any] = {"game": GAME, "situation": "move", "table": {}, "units": units, "terrain": [RUINS],
                           "unit": "spearmen", "action": "march", "speed": 5}
    if enter is not None:
        pos["enter_terrain"] = enter
    answer = resolve(pos).to_json()
    assert answer["legal"]
    out = answer["outcome"]
    enemies = sorted(u["id"] for u in units[1:] if u["player"] != "Daqan")
    if enter:
        assert out["entered"] == "ruins"
        assert sorted(out["collided"]) == enemies
        assert out["panic_tokens"] == len(enemies)
    else:
        assert out["collided"] == []
        assert out["panic_tokens"] == 0
