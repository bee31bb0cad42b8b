"""RuneWars Miniatures situations are typed (issue 23): one Position model each, resolvers as the book's steps.

A player's mistake is still a clear one-line refusal naming the value's own path, from the CLI as from the API,
for both kinds of attack position: facts stated, or read from the table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.core import load_situations
from engine.model import Outcome, Position

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "engine" / "runewars_miniatures"
GAME = "runewars-miniatures"
UNITS = [{"id": "a", "player": "p", "front": [0, 0], "facing": 0, "files": 2, "ranks": 2},
         {"id": "b", "player": "q", "front": [0, 1], "facing": 180, "formation": [2, [1]]}]


def test_every_situation_declares_a_position_model() -> None:
    mine = {name: sit for (game, name), sit in load_situations().items() if game == GAME}
    assert len(mine) >= 14 and {"reform", "engaged_shift", "same_timing", "deployment", "move"} <= set(mine)
    for name, sit in mine.items():
        assert sit.model is not None and issubclass(sit.model, Position), name


def test_outcomes_are_typed() -> None:
    from engine.runewars_miniatures import attack, contact, squaring
    assert issubclass(attack.AttackOutcome, Outcome)
    assert issubclass(contact.ContactOutcome, Outcome)
    assert issubclass(squaring.SquaringOutcome, Outcome)


def _attack(**fields: Any) -> dict[str, Any]:
    return {"game": GAME, "situation": "attack", "attack_type": "melee", "defender": {"defense": 2},
            "results": {"hit": 2}, **fields}


@pytest.mark.parametrize(("position", "message", "path"), [
    (_attack(attacker={"ranks": [3, 3], "contacted_edge": "front", "brutal": [1, True]}),
     "expected integer, got bool True", "attacker.brutal[1]"),
    (_attack(attacker={"ranks": [3, 4], "contacted_edge": "front"}), "rank 2 has 4 trays", "attacker.ranks[1]"),
    (_attack(attacker={"contacted_edge": "front"}), "missing field 'ranks'", "attacker.ranks"),
    (_attack(attack_type="ranged", attacker={"ranks": [2]}), "missing field 'range'", "attacker.range"),
    (_attack(table={}, units=UNITS, attacker={}, defender={"defense": 2, "unit": "b"}), "missing field 'unit'",
     "attacker.unit"),
    (_attack(table={}, units=UNITS, attacker={"unit": "b"}, defender={"defense": 2, "unit": "b"}),
     "the attacker and the defender must be different units", "defender.unit"),
    (_attack(table={}, units=UNITS, attacker={"unit": "z"}, defender={"defense": 2, "unit": "b"}),
     "'z' names no unit of the position", "attacker.unit"),
    (_attack(table={}, units=[UNITS[0], {**UNITS[1], "formation": [2, [0, 5]]}], attacker={"unit": "a"},
             defender={"defense": 2, "unit": "b"}), "rank 2 uses file 5", "units[1].formation[1]"),
    ({"game": GAME, "situation": "activation_order", "first_player": "a",
      "units": [{"player": "b", "name": "x", "initiative": 1}, {"player": "c", "name": "y", "initiative": 2}]},
     "units belong to 3 players", "units"),
])
def test_cli_refuses_a_bad_position_naming_its_path(tmp_path: Path, position: dict[str, Any], message: str,
                                                    path: str) -> None:
    target = tmp_path / "position.json"
    target.write_text(json.dumps(position))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "engine.cli", "resolve", str(target)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stdout
    line = done.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert message in line and line.endswith(f"(at {path})"), line
