"""An engaged unit's shift on the Move tab is the engaged shift's own ruling (RuneWars Miniatures 73.2-73.5).

- Whatever the direction, speed and stated straight template lengths, ``move`` with a shift of an engaged unit
  gives the same legality, end position, panic tokens and reposition/disengage as ``engaged_shift`` asked to
  shift that way by the template's length: one ruling, reached from either tab.
- A movement modifier with an engaged unit's shift is refused with the path of the modifier, never a crash.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import resolve
from engine.errors import UnreadableInputError

GAME = "runewars-miniatures"
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _units(offset: float, enemy_files: int) -> list[dict[str, Any]]:
    """The Spearmen (2 trays) front to front with the Reanimates, the Reanimates slid sideways by *offset*."""
    tray = {"width": 1.0, "depth": 1.0}
    return [{"id": "spearmen", "player": "Daqan", "name": "Spearmen", "type": "infantry", "tray": tray,
             "formation": [2], "front": [0, 0], "facing": 0},
            {"id": "reanimates", "player": "Waiqar", "name": "Reanimates", "type": "infantry", "tray": tray,
             "formation": [enemy_files], "front": [offset, 0], "facing": 180}]


@SETTINGS
@given(direction=st.sampled_from(["forward", "backward", "left", "right"]), speed=st.integers(1, 3),
       lengths=st.lists(st.sampled_from([0.25, 0.5, 1.0, 1.5, 2.0, 3.0]), min_size=3, max_size=3),
       offset=st.sampled_from([-1.0, -0.5, 0.0, 0.5, 1.0]), enemy_files=st.integers(1, 4))
def test_move_rules_an_engaged_shift_as_engaged_shift_does(direction: str, speed: int, lengths: list[float],
                                                           offset: float, enemy_files: int) -> None:
    units = _units(offset, enemy_files)
    move = resolve({"game": GAME, "situation": "move", "table": {"straight": lengths}, "units": units,
                    "terrain": [], "unit": "spearmen", "action": "shift", "speed": speed,
                    "direction": direction}).to_json()
    shift = resolve({"game": GAME, "situation": "engaged_shift", "table": {}, "units": units, "terrain": [],
                     "unit": "spearmen", "direction": direction, "distance": lengths[speed - 1]}).to_json()
    mv, sh = move["outcome"], shift["outcome"]
    assert move["legal"] == shift["legal"]
    assert mv["final"] == sh["final"]
    assert mv["panic_tokens"] == sh["panic_tokens"]
    assert mv["shift_kind"] == sh["kind"]
    assert (mv["repositioned_with"], mv["disengaged_from"]) == (sh["repositioned_with"], sh["disengaged_from"])
    assert mv["stopped_by"] == sh["stopped_by"]
    assert move["summary"] == shift["summary"]
    assert any(c.startswith("rwm.73.") for c in move["cites"])


@pytest.mark.parametrize("modifier", ["turn", "wheel", "charge"])
def test_a_modifier_with_an_engaged_shift_is_refused(modifier: str) -> None:
    pos = {"game": GAME, "situation": "move", "table": {}, "units": _units(0.0, 3), "terrain": [],
           "unit": "spearmen", "action": "shift", "speed": 1, "direction": "backward", "modifier": modifier,
           "bend": "left"}
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos)
    assert err.value.path == "modifier"
