"""Properties of Rune Age's arithmetic rules, over many generated positions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve

strengths = st.lists(st.integers(min_value=0, max_value=8), min_size=1, max_size=8)


def battle(army: list[int], target: int, kind: str = "enemy") -> dict:
    return {"game": "rune-age", "situation": "battle", "target": {"kind": kind, "name": "T", "strength": target},
            "army": [{"name": f"u{i}", "strength": s} for i, s in enumerate(army)]}


def siege(att: list[int], dfd: list[int], damage: int = 0) -> dict:
    def side(xs: list[int]) -> dict:
        return {"army": [{"name": f"u{i}", "strength": s} for i, s in enumerate(xs)]}
    return {"game": "rune-age", "situation": "siege", "scenario": "runewars",
            "target": {"kind": "home_realm", "damage": damage}, "attacker": side(att), "defender": side(dfd)}


@settings(max_examples=150, deadline=None)
@given(strengths, st.integers(min_value=0, max_value=40))
def test_battle_ties_go_to_the_army_and_more_strength_never_loses(army, target):
    out = resolve(battle(army, target)).outcome
    assert out["winner"] == ("army" if sum(army) >= target else "target")
    stronger = resolve(battle([*army, 1], target)).outcome
    if out["winner"] == "army":
        assert stronger["winner"] == "army"


@settings(max_examples=150, deadline=None)
@given(strengths, st.integers(min_value=0, max_value=40))
def test_instant_damage_is_never_negative_and_is_the_shortfall(army, target):
    out = resolve(battle(army, target, "instant")).outcome
    assert out["home_realm_damage"] == max(0, target - sum(army))


@settings(max_examples=150, deadline=None)
@given(strengths, st.lists(st.integers(min_value=0, max_value=8), max_size=8), st.integers(min_value=0, max_value=25))
def test_siege_ties_go_to_the_defender_and_elimination_is_at_20(att, dfd, prior):
    ruling = resolve(siege(att, dfd, prior))
    out = ruling.outcome
    if prior >= 20:  # already eliminated: no siege is possible
        assert not ruling.legal and out["eliminated"]
        return
    a, d = sum(att), sum(dfd)
    assert out["winner"] == ("attacker" if a > d else "defender")
    assert out["home_realm_damage"] == max(0, a - d) >= 0
    assert out["home_realm_total"] == prior + out["home_realm_damage"]
    assert out["eliminated"] == (out["home_realm_total"] >= 20)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=3), min_size=1, max_size=6),
       st.lists(st.integers(min_value=0, max_value=6), max_size=4), st.integers(min_value=0, max_value=6))
def test_gold_is_never_created_and_discounts_never_go_below_zero(gold, costs, promises):
    ruling = resolve({"game": "rune-age", "situation": "spend_gold", "gold_cards": gold,
                      "purchases": [{"name": f"p{i}", "cost": c} for i, c in enumerate(costs)],
                      "promise_of_riches": promises})
    out = ruling.outcome
    assert sum(costs) - promises <= out["cost"] <= sum(costs)
    if ruling.legal:
        assert out["lost"] == sum(gold) - out["cost"] >= 0
    else:
        assert out["cost"] > sum(gold)
