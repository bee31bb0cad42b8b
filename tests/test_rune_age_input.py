"""Rune Age input the engine refuses rather than rules on (issue 24, cases 1 and 5), through the CLI as a user runs it:
a Resolution bonus whose card is not in that army, and numbers outside what the rules allow."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(position: dict[str, Any], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "engine.cli", "resolve", str(path), "--json"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=False)


def siege(bonuses: list[dict[str, Any]]) -> dict[str, Any]:
    """The position of case 1 after the cards were removed: Knight against Footman and Reanimate, at a city."""
    return {"game": "rune-age", "situation": "siege", "scenario": "runewars", "target": {"kind": "city"},
            "attacker": {"player": "Uthuk", "army": [{"name": "Knight", "strength": 3}],
                         "resolution_bonuses": bonuses},
            "defender": {"player": "Elves", "army": [{"name": "Footman", "strength": 2},
                                                     {"name": "Reanimate", "strength": 1}]}}


@pytest.mark.parametrize(("bonuses", "words"), [
    ([{"strength": 2}], "names no card"),
    ([{"source": "Flesh Ripper", "strength": 2}], "'Flesh Ripper'"),
    ([{"source": "Knight", "strength": 1}, {"source": "Knight", "strength": 1}], "no other copy"),
])
def test_a_bonus_without_its_card_is_unreadable_and_names_its_path(bonuses: list[dict[str, Any]], words: str,
                                                                    tmp_path: Path) -> None:
    proc = run(siege(bonuses), tmp_path)
    assert proc.returncode == 2, proc.stdout
    error = json.loads(proc.stdout)
    assert error["path"] == f"attacker.resolution_bonuses[{len(bonuses) - 1}].source"
    assert words in error["error"] and "outside the army" in error["error"]


def test_a_bonus_from_outside_the_army_counts_and_is_read(tmp_path: Path) -> None:
    proc = run(siege([{"source": "A Time for War", "strength": 2}]), tmp_path)
    ruling = json.loads(proc.stdout)
    assert ruling["outcome"]["attacker_strength"] == 5
    assert "Resolution bonuses of the attacker: +2 from A Time for War (outside the army)." in ruling["reading"]
    flagged = run(siege([{"source": "Dragon Rune", "outside": True, "strength": 1}]), tmp_path)
    assert json.loads(flagged.stdout)["outcome"]["attacker_strength"] == 4


def test_the_siege_reads_what_it_rules_on(tmp_path: Path) -> None:
    ruling = json.loads(run(siege([{"source": "Knight", "strength": 1}]), tmp_path).stdout)
    assert ruling["reading"] == ["Scenario: Runewars.", "Besieged: a city, auto-defense 0.",
                                 "Attacker: Uthuk, Knight (3).", "Resolution bonuses of the attacker: +1 from Knight.",
                                 "Defender: Elves, Footman (2) and Reanimate (1).",
                                 "No Resolution bonuses of the defender."]


@pytest.mark.parametrize(("path", "value"), [
    (("target", "strength"), -5), (("army", 0, "strength"), -1), (("target", "strength"), 100),
])
def test_out_of_range_numbers_are_refused_not_clamped(path: tuple[Any, ...], value: int, tmp_path: Path) -> None:
    position: dict[str, Any] = {"game": "rune-age", "situation": "battle", "target": {"kind": "enemy", "strength": 4},
                                "army": [{"name": "Knight", "strength": 3}]}
    holder: Any = position
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    proc = run(position, tmp_path)
    assert proc.returncode == 2
    error = json.loads(proc.stdout)
    assert error["path"] == ".".join(str(p) for p in path).replace(".0.", "[0].")
    assert str(value) in error["error"] and "out of range" in error["error"]
