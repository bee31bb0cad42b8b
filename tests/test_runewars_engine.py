"""Runewars rulings beyond the scenario files: unreadable positions, the schemas, and details of the rulings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.core import load_situations, resolve
from engine.errors import UnreadableInputError
from engine.examples import example_files

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "examples" / "runewars"
SITUATIONS = ("battle", "assign_damage", "play_order", "supremacy", "winter", "mobilize", "recruit", "game_end")


def test_every_contract_situation_is_registered() -> None:
    registered = {name for game, name in load_situations() if game == "runewars"}
    assert set(SITUATIONS) <= registered


@pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared/examples beside this checkout")
def test_schemas_accept_every_shared_example() -> None:
    sits = load_situations()
    for path in sorted(SHARED.glob("*.json")):
        pos = json.loads(path.read_text(encoding="utf-8"))["position"]
        sits[("runewars", pos["situation"])].read({"game": "runewars", **pos})  # raises when unreadable


def unreadable(pos: dict[str, Any]) -> UnreadableInputError:
    with pytest.raises(UnreadableInputError) as info:
        resolve({"game": "runewars", **pos})
    return info.value


def test_a_unit_already_destroyed_is_unreadable() -> None:
    err = unreadable({"situation": "assign_damage", "damage": 1,
                      "units": [{"id": "a", "health": 2, "damage": 2, "routed": False}]})
    assert err.path == "units[0].damage"


def test_duplicate_unit_ids_are_unreadable() -> None:
    unit = {"id": "a", "health": 2, "damage": 0, "routed": False}
    assert unreadable({"situation": "assign_damage", "damage": 1, "units": [unit, unit]}).path == "units[1].id"


def test_a_border_to_an_unknown_area_is_unreadable() -> None:
    err = unreadable({"situation": "mobilize", "player": "elves", "target_area": "A", "movers": [],
                      "map": {"areas": [{"id": "A"}], "borders": [["A", "Z", "plain"]]}})
    assert err.path == "map.borders[0][1]"


def test_an_unknown_target_area_is_unreadable() -> None:
    err = unreadable({"situation": "mobilize", "player": "elves", "target_area": "Q", "movers": [],
                      "map": {"areas": [{"id": "A"}], "borders": []}})
    assert err.path == "target_area"


def test_contradictory_borders_are_unreadable() -> None:
    err = unreadable({"situation": "mobilize", "player": "elves", "target_area": "A", "movers": [],
                      "map": {"areas": [{"id": "A"}, {"id": "B"}],
                              "borders": [["A", "B", "plain"], ["B", "A", "water"]]}})
    assert err.path == "map.borders[1][2]"


def test_mixed_revealed_and_hidden_order_cards_are_unreadable() -> None:
    players = [{"faction": "elves", "order": 2, "influence": 1, "starting_influence": 3},
               {"faction": "daqan", "order": None, "influence": 1, "starting_influence": 4}]
    assert unreadable({"situation": "play_order", "players": players}).path == "players[1].order"


def test_a_bad_unit_class_names_its_path() -> None:
    err = unreadable({"situation": "battle", "attacker": {"units": [{"class": "square"}]},
                      "defender": {"units": []}})
    assert err.path == "attacker.units[0].class"


def test_attacking_your_own_faction_is_unreadable() -> None:
    err = unreadable({"situation": "battle", "attacker": {"faction": "elves", "units": []},
                      "defender": {"faction": "elves", "units": []}})
    assert err.path == "defender.faction"


def test_cli_exits_2_on_an_unreadable_position(tmp_path: Path) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"game": "runewars", "situation": "winter", "food": -1, "areas": []}))
    run = subprocess.run([sys.executable, "-m", "engine.cli", "resolve", str(path), "--json"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert json.loads(run.stdout or run.stderr)["path"] == "food"


def test_every_step_cites_an_existing_paragraph(corpus: Any) -> None:
    for path in sorted(example_files("runewars")):
        ruling = resolve(json.loads(path.read_text(encoding="utf-8"))["position"]).to_json()
        for step in ruling["steps"]:
            assert step["cites"], (path.name, step)
            assert all(c in corpus.paragraphs for c in step["cites"]), (path.name, step)


def test_damage_proposal_reads_damage_first_but_resolves_routs_first() -> None:
    units = [{"id": "a", "health": 2, "damage": 0, "routed": False},
             {"id": "b", "health": 1, "damage": 0, "routed": False}]
    ruling = resolve({"game": "runewars", "situation": "assign_damage", "units": units, "damage": 1, "routs": 1,
                      "proposed": ["b", "a"]})
    assert ruling.legal
    assert ruling.outcome["destroyed"] == ["b"] and ruling.outcome["routed"] == ["a"]


def test_hungry_spawn_with_unknown_health_still_rules_when_the_outcome_is_certain() -> None:
    pos = {"game": "runewars", "situation": "battle",
           "attacker": {"faction": "elves", "units": [{"class": "triangle"}] * 2},
           "defender": {"faction": "uthuk", "development": "hungry-spawn", "use_development": True,
                        "stronghold": {"strength": 5, "damaged": False}, "units": []}}
    out = resolve(pos).outcome
    assert out["winner"] == "defender" and out["attacker_strength"] is None
    assert out["attacker_strength_range"] == [0, 2]
    assert out["stronghold"] is None  # whether a standing attacker survives is not known


def test_mobilize_reason_names_the_blocking_border() -> None:
    pos = {"game": "runewars", "situation": "mobilize", "season": "summer", "player": "elves", "target_area": "B",
           "map": {"areas": [{"id": "A", "controller": "elves"}, {"id": "B"}], "borders": [["A", "B", "water"]]},
           "movers": [{"id": "archer", "from": "A"}]}
    ruling = resolve(pos).to_json()
    assert "water borders open only in winter" in ruling["outcome"]["movers"]["archer"]["reason"]
    assert "rw.movement-restrictions" in ruling["cites"]


def test_a_dial_space_written_twice_is_unreadable() -> None:
    # "0" and "00" would name the same space: found by fuzzing /api/resolve (it was a 500)
    position = {"game": "runewars", "situation": "recruit",
                "dial": {"resource": "food", "position": 0, "spaces": {"0": None, "00": ""}}}
    with pytest.raises(UnreadableInputError) as err:
        resolve(position)
    assert err.value.path == "dial.spaces"
