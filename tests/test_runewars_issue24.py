"""Runewars rulings a player can trust (issue 24): the loser of a battle retreats to an area of the battle's own
map (named when the rules leave one, asked when they leave several), impossible numbers and words outside a
vocabulary are refused naming their path, and every vocabulary is published as an enum with player-word labels.

Each position goes through the command line (``runecodex resolve -``), as a player's file would.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.core import resolve

ROOT = Path(__file__).resolve().parents[1]
UNITS = [{"type": "Archer", "class": "triangle"}, {"type": "Archer", "class": "triangle"}]
DEFENDERS = [{"type": "Footman", "class": "triangle"}, {"type": "Footman", "class": "triangle"},
             {"type": "Knight", "class": "hexagon"}]


def battle(areas: list[dict[str, Any]], borders: list[list[str]], **extra: Any) -> dict[str, Any]:
    """The Elves attack 5B with 2 Archers and lose to 3 Daqan units; the map around 5B as given."""
    return {"game": "runewars", "situation": "battle", "attacker": {"faction": "elves", "units": UNITS},
            "defender": {"faction": "daqan", "stronghold": None, "units": DEFENDERS}, "area": "5B",
            "map": {"areas": areas, "borders": borders}, **extra}


def cli(position: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.cli", "resolve", "-", "--json"], cwd=ROOT,
                          input=json.dumps(position), capture_output=True, text=True, timeout=120, check=False)


def ruling(position: dict[str, Any]) -> dict[str, Any]:
    done = cli(position)
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return out


FIELD: list[dict[str, Any]] = [{"id": "5B", "units": {"elves": 2, "daqan": 3}}, {"id": "5A", "units": {"elves": 1}},
                               {"id": "5C"}, {"id": "6B", "units": {"daqan": 2}}]
EDGES: list[list[str]] = [["5B", "5A", "plain"], ["5B", "5C", "plain"], ["5B", "6B", "plain"]]


def test_the_loser_retreats_to_the_one_area_of_the_battles_map_the_rules_allow() -> None:
    """Before: 'the attacker retreats', marked final, never saying where."""
    r = ruling(battle(FIELD, EDGES))
    assert r["outcome"]["retreat_to"] == "5A" and r["outcome"]["retreat_options"] == ["5A"]
    assert not r["decisions"]
    assert "retreats to 5A" in r["summary"]


def test_several_allowed_areas_are_a_decision_on_the_same_map() -> None:
    areas = [*FIELD[:2], {"id": "5C", "stronghold": "elves"}, FIELD[3]]
    r = ruling(battle(areas, EDGES))
    [d] = r["decisions"]
    assert (d["field"], d["options"], d["who"]) == ("retreat_to", ["5A", "5C"], "the Elves player")
    assert "5A or 5C" in r["summary"]
    answered = ruling(battle(areas, EDGES, retreat_to="5C"))
    assert answered["outcome"]["retreat_to"] == "5C" and not answered["decisions"]


def test_without_a_map_the_destination_is_still_a_decision_not_a_final_ruling() -> None:
    position = battle(FIELD, EDGES)
    del position["map"], position["area"]
    r = ruling(position)
    assert [d["field"] for d in r["decisions"]] == ["retreat_to"]
    assert "still to be chosen" in r["summary"]


def test_a_friendly_area_behind_a_mountain_is_not_called_unfriendly() -> None:
    r = ruling(battle([FIELD[0], FIELD[1], FIELD[2]], [["5B", "5A", "mountain"], ["5B", "5C", "plain"]]))
    step = next(s["text"] for s in r["steps"] if s["text"].startswith("Leaving 5B"))
    assert "no adjacent friendly area can be reached" in step and "no adjacent area is friendly" not in step
    assert r["outcome"]["retreat_to"] == "5C"


@pytest.mark.parametrize(("change", "path"), [
    (lambda p: p.update(area="9Z"), "area"),
    (lambda p: p["defender"].update(stronghold={"strength": -1}), "defender.stronghold.strength"),
    (lambda p: p["attacker"].update(faction="orcs"), "attacker.faction"),
    (lambda p: p["map"]["borders"][0].__setitem__(2, "lava"), "map.borders[0][2]"),
])
def test_impossible_input_is_refused_naming_its_path(change: Any, path: str) -> None:
    position = battle([dict(a) for a in FIELD], [list(b) for b in EDGES])
    change(position)
    done = cli(position)
    assert done.returncode == 2, done.stdout
    assert path in done.stderr, done.stderr


def test_a_negative_bid_is_unreadable_input_not_a_ruling() -> None:
    """A bid below 0 cannot be put in a fist: refused naming the field (it was ruled on as an illegal bid)."""
    position = {"game": "runewars", "situation": "influence_bid", "players": [
        {"faction": "daqan", "influence": 3, "bid": -1}, {"faction": "elves", "influence": 2, "bid": 1}]}
    done = cli(position)
    assert done.returncode == 2
    assert "players[0].bid" in done.stderr


def test_every_vocabulary_is_an_enum_with_player_word_labels() -> None:
    done = subprocess.run([sys.executable, "-m", "engine.cli", "situations", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    listing = json.loads(done.stdout)
    rows = listing if isinstance(listing, list) else listing.get("situations", [])
    found: list[tuple[str, str]] = []

    def visit(node: Any, where: str) -> None:
        if isinstance(node, dict):
            if "enum" in node and any(isinstance(v, str) for v in node["enum"]) and len(node["enum"]) > 1:
                found.append((where, "x-enum-labels" if "x-enum-labels" in node else "missing"))
            for k, v in node.items():
                visit(v, f"{where}.{k}")
        elif isinstance(node, list):
            for v in node:
                visit(v, where)

    for row in rows:
        if row.get("game") == "runewars":
            visit(row.get("schema", {}).get("properties", {}), row["situation"])
            visit(row.get("schema", {}).get("$defs", {}), row["situation"])
    assert found
    assert [w for w, state in found if state == "missing"] == []


def test_the_reading_names_factions_and_units_as_the_player_does() -> None:
    r = resolve(battle(FIELD, EDGES)).to_json()
    text = " ".join(r["reading"])
    assert "The attacker (Elves): Archer 1 (triangle) and Archer 2 (triangle)." in r["reading"]
    assert "Area 5A: 1 Elves." in r["reading"]
    assert "elves" not in text
