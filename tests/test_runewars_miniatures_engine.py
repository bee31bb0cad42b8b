"""RuneWars Miniatures positions the engine cannot read: each is an error naming the offending JSON path."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.core import RULES, load_situations, resolve
from engine.errors import UnreadableInputError
from engine.examples import EXAMPLES as EXAMPLE_ROOT

EXAMPLES = EXAMPLE_ROOT / "runewars-miniatures"


def position(name: str) -> dict[str, Any]:
    """Return a copy of a scenario file's position."""
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return copy.deepcopy(data["position"])


def test_every_situation_is_registered() -> None:
    """The five situations of the contract are registered for the game."""
    names = {n for g, n in load_situations() if g == "runewars-miniatures"}
    assert {"attack", "activation_order", "command", "scoring", "army"} <= names


def test_rule_functions_cite_existing_paragraphs(corpus: Any) -> None:
    """Every @rule function of the game cites paragraphs that exist."""
    load_situations()
    mine = {fn: ids for fn, ids in RULES.items() if ".runewars_miniatures." in fn}
    assert len(mine) > 30
    missing = {fn: [i for i in ids if i not in corpus] for fn, ids in mine.items()}
    assert not {fn: ids for fn, ids in missing.items() if ids}


@pytest.mark.parametrize(("name", "edit", "path"), [
    ("attack-side-edge-no-partial-rank", {"attacker.ranks": [2, 1, 2]}, "attacker.ranks[1]"),
    ("attack-side-edge-no-partial-rank", {"attacker.ranks": [2, 3]}, "attacker.ranks[1]"),
    ("attack-melee-front-three-wide", {"attacker.contacted_edge": None}, "attacker.contacted_edge"),
    ("attack-flanking-extra-die", {"attacker.contacted_edge": "side"}, "attacker.flanking"),
    ("attack-ranged-precise-single-rank", {"attacker.range": None}, "attacker.range"),
    ("attack-melee-front-three-wide", {"results.hit": -1}, "results.hit"),
    ("attack-melee-front-three-wide", {"attack_type": "magic"}, "attack_type"),
    ("command-turn-adds-speed", {"action.speed": None}, "action.speed"),
    ("command-turn-adds-speed", {"modifier.icon": "teleport"}, "modifier.icon"),
    ("scoring-draw", {"players.1.name": "Daqan"}, "players[1].name"),
    ("scoring-draw", {"players.0.units.0.costing": [[0, 10]]}, "players[0].units[0].costing[0][0]"),
    ("army-legal-190", {"units.0.configuration.upgrade_icons": ["banner"]},
     "units[0].configuration.upgrade_icons[0]"),
    ("activation-ascending-initiative", {"units.0.initiative": 0}, "units[0].initiative"),
])
def test_unreadable_positions_name_their_path(name: str, edit: dict[str, Any], path: str) -> None:
    """A position that breaks the schema or the shape of a unit is unreadable, with the JSON path."""
    pos = position(name)
    for dotted, value in edit.items():
        target: Any = pos
        keys = [int(k) if k.isdigit() else k for k in dotted.split(".")]
        for key in keys[:-1]:
            target = target[key]
        if value is None:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos)
    assert err.value.path == path
    assert err.value.message and not err.value.message[:1].isupper()


def test_three_players_are_unreadable() -> None:
    """Activation order knows 2 players (teams count as 1)."""
    pos = position("activation-ascending-initiative")
    pos["units"].append({"player": "Uthuk", "name": "Berserkers", "initiative": 3})
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos)
    assert err.value.path == "units"


def test_cli_exit_status_for_a_bad_position(tmp_path: Path) -> None:
    """The CLI answers an unreadable position with exit status 2 and a JSON error with its path."""
    pos = position("attack-melee-front-three-wide")
    pos["attacker"]["ranks"] = [1, 2]
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos))
    proc = subprocess.run([sys.executable, "-m", "engine.cli", "resolve", str(path), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    body = json.loads(proc.stdout or proc.stderr)
    assert body["path"] == "attacker.ranks[1]"


def test_illegal_rulings_list_violations_with_cites() -> None:
    """An illegal attack is a ruling: legal false, each violation citing the rule it breaks."""
    out = resolve(position("attack-ranged-while-engaged")).to_json()
    assert out["legal"] is False
    assert out["outcome"]["violations"][0]["cites"] == ["rwm.65.2"]
    assert out["outcome"]["damage"] is None


def test_contested_side_threat_cites_both_readings() -> None:
    """The contested side-edge threat cites the bullet (with its note) and the rank rule of the other reading."""
    out = resolve(position("attack-side-edge-partial-rank-not-touched")).to_json()
    assert {"rwm.82.1.b2.side", "rwm.66.4"} <= set(out["cites"])
