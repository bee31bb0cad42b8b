"""RuneWars Miniatures: a number outside what its field allows is unreadable input (HTTP 400 naming the field),
never clamped nor ruled on (issue 24, case 5; CONTRACT 0.3)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.examples import load_example

EXAMPLES = Path(__file__).resolve().parents[2] / "engine" / "examples" / "runewars-miniatures"


def _example(name: str) -> dict[str, Any]:
    position: dict[str, Any] = load_example(EXAMPLES / f"{name}.json")["position"]
    return copy.deepcopy(position)


def _set(path: list[str | int], value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(pos: dict[str, Any]) -> None:
        node: Any = pos
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return apply


def _unset(path: list[str | int]) -> Callable[[dict[str, Any]], None]:
    def apply(pos: dict[str, Any]) -> None:
        node: Any = pos
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return apply


CASES = [
    ("morale_test-steadfast-chosen", _set(["panic_tokens_spent"], -1), "panic_tokens_spent"),
    ("morale_test-steadfast-chosen", _set(["chosen"], -1), "chosen"),
    ("morale_test-steadfast-chosen", _set(["unit", "panic_tokens"], -3), "unit.panic_tokens"),
    ("command-shift-disengage-panic", _set(["engaged_enemies"], 0), "engaged_enemies"),
    ("contact-rear-flank", _set(["table", "band"], -3), "table.band"),
    ("contact-rear-flank", _set(["table", "arc_degrees"], 120), "table.arc_degrees"),
    ("contact-rear-flank", _set(["units", 0, "formation"], [0]), "units[0].formation[0]"),
    ("contact-rear-flank", _set(["units", 0, "tray"], {"width": -1, "depth": 1}), "units[0].tray.width"),
    ("attack-table-melee-flanking", _set(["defender", "defense"], -1), "defender.defense"),
    ("attack-table-melee-flanking", _set(["results", "hit"], -2), "results.hit"),
    ("attack-table-melee-flanking", _unset(["attacker", "unit"]), "attacker.unit"),
    ("attack-table-melee-flanking", _set(["defender", "unit"], "gone"), "defender.unit"),
]


@pytest.mark.parametrize(("name", "edit", "path"), CASES, ids=[f"{c[0]}:{c[2]}" for c in CASES])
def test_an_out_of_range_number_is_refused_naming_its_field(client: FlaskClient, name: str,
                                                            edit: Callable[[dict[str, Any]], None],
                                                            path: str) -> None:
    pos = _example(name)
    edit(pos)
    resp = client.post("/api/resolve", data=json.dumps(pos), content_type="application/json")
    body = resp.get_json()
    assert resp.status_code == 400, body
    assert body["path"] == path, body
    assert body["error"] == body["error"].lower() or body["error"][0].islower(), body
