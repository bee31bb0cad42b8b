"""Runewars Harvest, Fortify, Strategize, dragon runes and attribute tests: the arithmetic holds for any dials.

Harvest sets each dial to what the player's areas show, whatever it showed before, and a development costs 1 wood
and never comes with the wood dial at 0 (p. 33); Fortify's build costs 1 wood and 1 ore and its repair 1 ore, never
below 0 (p. 36); Strategize's Supremacy Bonus draws one Tactics card per image counted (p. 33); a dragon rune's two
tokens end in different areas or in the supply (p. 30); an attribute test draws as many Fate cards as the attribute
(p. 26).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve

dial = st.integers(min_value=0, max_value=12)


def harvest(before: tuple[int, int, int], shown: tuple[int, int, int], build: bool) -> dict[str, Any]:
    return {"game": "runewars", "situation": "harvest", "player": "waiqar",
            "dials": dict(zip(("food", "wood", "ore"), before, strict=True)),
            "produced": dict(zip(("food", "wood", "ore"), shown, strict=True)), "supremacy": True,
            "strongholds": [{"area": "4A", "development": "diplomat"}, {"area": "4B"}],
            "build": build, "build_area": "4B", "build_kind": "defensive"}


@settings(max_examples=60, deadline=None)
@given(st.tuples(dial, dial, dial), st.tuples(dial, dial, dial), st.booleans())
def test_harvest_sets_dials_to_what_the_areas_show(before: tuple[int, int, int], shown: tuple[int, int, int],
                                                   build: bool) -> None:
    ruling = resolve(harvest(before, shown, build)).to_json()
    out = ruling["outcome"]
    assert out["harvested"] == dict(zip(("food", "wood", "ore"), shown, strict=True))
    assert out["influence"] == 2                          # the diplomat, whatever the dials
    if not build:
        assert ruling["legal"] and out["dials"]["wood"] == shown[1]
    elif shown[1] == 0:                                   # a wood dial at 0 cannot build
        assert not ruling["legal"] and out["can_build"] is False
    else:
        assert ruling["legal"] and out["dials"]["wood"] == shown[1] - 1 and out["built"] == "4B"


@settings(max_examples=60, deadline=None)
@given(dial, dial, st.booleans(), st.booleans())
def test_fortify_costs_and_never_goes_below_zero(wood: int, ore: int, build: bool, repair: bool) -> None:
    pos: dict[str, Any] = {"game": "runewars", "situation": "fortify", "player": "daqan", "wood": wood, "ore": ore,
                           "map": {"areas": [{"id": "2A", "units": {"daqan": 1}},
                                             {"id": "2B", "stronghold": "daqan"}], "borders": []},
                           "damaged": ["2B"]}
    if build:
        pos["build"] = "2A"
    if repair:
        pos["repair"] = "2B"
    ruling = resolve(pos).to_json()
    out = ruling["outcome"]
    assert out["wood"] >= 0 and out["ore"] >= 0
    need_ore = int(build) + int(repair)
    affordable = (not build or wood > 0) and ore >= need_ore
    assert ruling["legal"] == affordable
    if affordable:
        assert (out["wood"], out["ore"]) == (wood - int(build), ore - need_ore)


@settings(max_examples=40, deadline=None)
@given(dial, dial, dial)
def test_strategize_tactics_cards_are_the_images_counted(food: int, wood: int, ore: int) -> None:
    pos = {"game": "runewars", "situation": "strategize", "player": "elves",
           "map": {"areas": [{"id": "1A", "units": {"elves": 1}}], "borders": []}, "moves": [],
           "supremacy": True, "tactics_images": {"food": food, "wood": wood, "ore": ore}}
    assert resolve(pos).to_json()["outcome"]["tactics_cards"] == food + wood + ore


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=5), st.sampled_from(["dragon", "false"]))
def test_dragon_rune_tokens_never_share_an_area(free: int, only: str) -> None:
    areas = [{"id": f"{i + 1}A", "units": {}} for i in range(free)] + [{"id": "9Z", "units": {"uthuk": 1}}]
    pos: dict[str, Any] = {"game": "runewars", "situation": "dragon_rune", "player": "elves",
                           "map": {"areas": areas, "borders": []}, "only": only}
    if free >= 2:
        pos["dragon_to"], pos["false_to"] = "1A", "2A"
    out = resolve(pos).to_json()["outcome"]
    assert len(out["legal_areas"]) == free
    placed = [a for a in (out["dragon_to"], out["false_to"]) if a]
    assert len(placed) == len(set(placed)) == min(free, 2)
    assert len(placed) + len(out["to_supply"]) == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=8), st.integers(min_value=1, max_value=8))
def test_attribute_test_draws_as_many_cards_as_the_attribute(wisdom: int, drawn: int) -> None:
    pos = {"game": "runewars", "situation": "quest", "player": "uthuk",
           "hero": {"name": "Hero", "strength": 1, "agility": 1, "wisdom": wisdom},
           "quest": {"name": "Q", "kind": "test", "attribute": "wisdom"}, "drawn": ["nothing"] * drawn}
    ruling = resolve(pos).to_json()
    assert ruling["outcome"]["fate_cards"] == wisdom
    assert ruling["legal"] == (drawn == wisdom)
