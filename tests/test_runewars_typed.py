"""Runewars situations are typed (issue 23): one Position model each, a typed outcome, resolvers as the book's steps.

Nothing in ``engine/runewars`` builds a schema by hand any more, and a player's mistake the types admit but the
situation cannot read is still a clear one-line refusal naming the value's own path, from the CLI.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.core import load_situations
from engine.model import Position
from webapp.openapi import outcome_model

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "engine" / "runewars"
GAME = "runewars"
MAP = {"areas": [{"id": "1A"}, {"id": "1B"}], "borders": [["1A", "1B", "plain"]]}


def test_every_situation_declares_a_position_model_and_a_typed_outcome() -> None:
    mine = {name: sit for (game, name), sit in load_situations().items() if game == GAME}
    assert len(mine) == 26  # issue 26 added 12 (strategize … destroy_own)
    for name, sit in mine.items():
        assert sit.model is not None and issubclass(sit.model, Position), name
        assert outcome_model(sit) is not None, name


def test_no_module_imports_the_schema_builders() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "engine.schema", path.name
            elif isinstance(node, ast.Import):
                assert all(alias.name != "engine.schema" for alias in node.names), path.name


@pytest.mark.parametrize(("position", "message", "path"), [
    ({"situation": "recruit", "dial": {"resource": "food", "position": 1, "spaces": {"1": "Spearman", "01": None}}},
     "space '01' is not a space number", "dial.spaces"),
    ({"situation": "retreat", "from": "9Z", "group": {"kind": "neutral", "units": []}, "map": MAP},
     "'9Z' is not an area of the map", "from"),
    ({"situation": "retreat", "from": "1A", "group": {"kind": "player", "units": [{"id": "a"}]}, "map": MAP},
     "a player's group needs its faction", "group.faction"),
    ({"situation": "winter", "food": 2, "areas": [{"area": "1A", "units": 3}, {"area": "1A", "units": 1}]},
     "area '1A' appears twice", "areas[1].area"),
    ({"situation": "assign_damage", "damage": 1, "units": [{"id": "a", "health": 2, "damage": 2}]},
     "a unit whose damage reaches its health is already destroyed", "units[0].damage"),
])
def test_cli_refuses_a_bad_position_naming_its_path(tmp_path: Path, position: dict[str, Any], message: str,
                                                    path: str) -> None:
    target = tmp_path / "position.json"
    target.write_text(json.dumps({"game": GAME, **position}))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "engine.cli", "resolve", str(target)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stdout
    line = done.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert message in line and line.endswith(f"(at {path})"), line
