"""RuneWars Miniatures morale_test: properties of its arithmetic, and unreadable input.

Rulings on particular positions live in engine/examples/runewars-miniatures/morale_test-*.json.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve
from engine.errors import UnreadableInputError

TYPES = ["doubt", "fear", "confusion"]


def morale(**fields: Any) -> dict[str, Any]:
    return {"game": "runewars-miniatures", "situation": "morale_test", "opponent": "Daqan", **fields}


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 4), st.integers(0, 3), st.integers(0, 3), st.lists(st.sampled_from(TYPES), max_size=3),
       st.data())
def test_severity_draws_and_resolvable_cards(icons: int, held: int, spent_raw: int, steadfast: list[str],
                                             data: st.DataObject) -> None:
    spent = min(spent_raw, held)
    severity = icons + spent
    drawn = [{"name": f"m{i}", "type": data.draw(st.sampled_from(TYPES)), "morale_icons": data.draw(st.integers(0, 4))}
             for i in range(severity)]
    ruling = resolve(morale(cause="attack", morale_icons=icons, panic_tokens_spent=spent, drawn=drawn,
                            unit={"name": "U", "panic_tokens": held, "steadfast": steadfast}))
    out = ruling.outcome
    assert ruling.legal
    assert out["severity"] == out["cards_drawn"] == severity
    assert out["panic_tokens_left"] == held - spent
    want = [i for i, c in enumerate(drawn)
            if c["morale_icons"] + (1 if c["type"] in steadfast else 0) <= severity]
    assert out["resolvable"] == want
    assert out["discarded"] == len(drawn)
    if len(want) == 1:
        assert out["resolved"] == want[0]
    elif len(want) > 1:
        assert out["resolved"] is None and ruling.decisions[0].options == tuple(want)
    else:
        assert out["resolved"] is None


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5))
def test_attack_severity_matches_the_attack_situation(icons: int, spent: int) -> None:
    attack = resolve({"game": "runewars-miniatures", "situation": "attack", "attack_type": "melee",
                      "attacker": {"name": "A", "ranks": [1], "contacted_edge": "front", "engaged": True},
                      "defender": {"name": "D", "defense": 1, "wound_threshold": 1, "ranks": [3, 3, 3],
                                   "figures_per_tray": 4, "panic_tokens": spent},
                      "results": {"morale": icons}, "panic_tokens_spent": spent}).outcome
    test = resolve(morale(cause="attack", morale_icons=icons, panic_tokens_spent=spent,
                          unit={"name": "D", "panic_tokens": spent})).outcome
    assert attack["morale_test_severity"] == test["severity"]


def test_effect_needs_a_severity() -> None:
    with pytest.raises(UnreadableInputError) as err:
        resolve(morale(cause="effect", unit={"name": "U"}))
    assert err.value.path == "severity"
