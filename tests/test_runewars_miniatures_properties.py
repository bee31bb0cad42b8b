"""Properties of the RuneWars Miniatures arithmetic: damage, defense, wounds, threat, order and scoring."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve
from engine.corpus import get_corpus
from engine.runewars_miniatures.activation import Unit, activation_order
from engine.runewars_miniatures.common import Formation
from engine.runewars_miniatures.damage import casualties, damage_from_hits, effective_defense, wounds_from_damage
from engine.runewars_miniatures.scoring import ArmyUnit, objective_token_value, unit_value, winner_by_score
from engine.runewars_miniatures.threat import Contact, melee_base_threat, with_brutal

CORPUS = get_corpus()
GAME = "runewars-miniatures"


@st.composite
def formations(draw: st.DrawFn) -> Formation:
    """Draw a legal formation: full ranks, maybe a partial back rank."""
    width = draw(st.integers(1, 4))
    full = draw(st.integers(0, 3))
    partial = draw(st.integers(0, width - 1))
    ranks = [width] * (full + 1) + ([partial] if partial else [])
    return Formation.of(ranks)


def attack(hits: int, strikes: int = 0, *, ranks: list[int] | None = None, defense: int = 1,
           modifiers: list[int] | None = None, threshold: int = 1, d_ranks: list[int] | None = None,
           fpt: int = 4, morale: int = 0, panic: int = 0, edge: str = "front") -> dict[str, Any]:
    """Resolve a melee attack and return its outcome."""
    pos = {"game": GAME, "situation": "attack", "attack_type": "melee",
           "attacker": {"name": "A", "ranks": ranks or [2, 2], "contacted_edge": edge, "engaged": True},
           "defender": {"name": "D", "defense": defense, "defense_modifiers": modifiers or [],
                        "wound_threshold": threshold, "ranks": d_ranks or [3, 3], "figures_per_tray": fpt},
           "results": {"hit": hits, "mortal_strike": strikes, "morale": morale},
           "panic_tokens_spent": panic}
    result = resolve(pos, CORPUS)
    assert result.legal
    return dict(result.outcome)


@given(st.integers(0, 30), st.integers(0, 12))
def test_damage_is_hits_times_threat_and_never_negative(hits: int, threat: int) -> None:
    """Damage is hits × threat, never negative, and grows with either."""
    assert damage_from_hits(hits, threat) == hits * threat >= 0
    assert damage_from_hits(hits + 1, threat) >= damage_from_hits(hits, threat)


@given(st.integers(0, 12), st.lists(st.integers(-10, 10), max_size=5))
def test_defense_floor_is_one(base: int, modifiers: list[int]) -> None:
    """Modifiers add up; the result is never below 1, and equals the sum when that is 1 or more."""
    value = effective_defense(base, modifiers, CORPUS)
    assert value >= 1
    assert value == max(1, base + sum(modifiers))


@given(st.integers(0, 200), st.integers(1, 10))
def test_wounds_and_ignored_damage_add_up(damage: int, defense: int) -> None:
    """Each full defense's worth is a wound; what is left is below the defense and ignored."""
    wounds, ignored = wounds_from_damage(damage, defense)
    assert wounds * defense + ignored == damage
    assert 0 <= ignored < defense


@given(formations(), st.integers(1, 4), st.integers(1, 3), st.integers(0, 80))
def test_casualties_conserve_trays_and_figures(formation: Formation, fpt: int, threshold: int,
                                               wounds: int) -> None:
    """Removed figures and trays never exceed the unit; kept trays plus removed trays make the unit."""
    hurt = casualties(wounds, threshold, formation, fpt)
    assert hurt.trays_removed is not None and hurt.ranks_after is not None
    assert hurt.wounds + hurt.wounds_ignored == wounds
    assert hurt.figures_removed <= formation.trays * fpt
    assert hurt.trays_removed + sum(hurt.ranks_after) == formation.trays
    assert hurt.trays_removed == hurt.figures_removed // fpt
    assert hurt.fewest_trays_removed is not None and hurt.fewest_trays_removed <= hurt.trays_removed
    assert hurt.destroyed == (hurt.figures_removed == formation.trays * fpt)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 8), st.integers(0, 3), st.integers(1, 4), st.integers(1, 3))
def test_more_hits_never_fewer_wounds(hits: int, strikes: int, defense: int, threshold: int) -> None:
    """One more hit never lowers the wounds, the figures or the trays removed."""
    low = attack(hits, strikes, defense=defense, threshold=threshold)
    high = attack(hits + 1, strikes, defense=defense, threshold=threshold)
    for key in ("damage", "wounds", "figures_removed", "trays_removed"):
        assert high[key] >= low[key] >= 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 6), st.integers(0, 4), st.integers(0, 4))
def test_severity_is_morale_plus_panic_unless_destroyed(hits: int, morale: int, panic: int) -> None:
    """The morale test's severity is morale icons plus panic tokens spent, 0 once the defender is destroyed."""
    out = attack(hits, morale=morale, panic=panic, d_ranks=[1], fpt=1, defense=2)
    assert out["morale_test_severity"] == (0 if out["destroyed"] else morale + panic)


@given(formations(), st.sampled_from(["front", "side", "rear"]), st.booleans(), st.booleans(),
       st.integers(0, 4))
def test_threat_positive_and_brutal_adds_x(formation: Formation, edge: str, touched: bool, other: bool,
                                           brutal: int) -> None:
    """Melee threat is at least 1 and at most the unit's width or depth; Brutal X adds exactly X."""
    base = melee_base_threat(formation, Contact(edge, touched, other))
    assert 1 <= base <= max(formation.front, formation.depth)
    assert with_brutal(base, brutal) == base + brutal


@given(formations())
def test_touching_the_partial_rank_never_lowers_side_threat(formation: Formation) -> None:
    """On a side edge, touching the partial rank gives at least the threat of not touching it."""
    assert (melee_base_threat(formation, Contact("side", True)) >=
            melee_base_threat(formation, Contact("side", False)))


UNITS = st.lists(st.tuples(st.sampled_from(["P", "Q"]), st.one_of(st.none(), st.integers(1, 9))),
                 max_size=12)


@given(UNITS, st.sampled_from(["P", "Q"]))
def test_activation_order_is_a_fair_alternation(raw: list[tuple[str, int | None]], first: str) -> None:
    """Every unit activates once, initiatives never go down, each player's own order is kept, and at each
    initiative the first player opens whenever he has a unit there."""
    units = [Unit(player=p, name=f"u{i}", initiative=ini) for i, (p, ini) in enumerate(raw)]
    second = "Q" if first == "P" else "P"
    groups = activation_order(units, first, second, CORPUS)
    flat = [u for _, group in groups for u in group]
    assert sorted(u.name for u in flat) == sorted(u.name for u in units)
    values = [v for v, group in groups for _ in group]
    assert values == sorted(values)
    for player in ("P", "Q"):
        mine = [u for u in flat if u.player == player]
        listed = sorted(mine, key=lambda u: ((u.initiative or 10), units.index(u)))
        assert mine == listed
    for _, group in groups:
        players = [u.player for u in group]
        alternating = min(players.count(first), players.count(second))
        assert players[:2 * alternating] == [first, second] * alternating
        assert len(set(players[2 * alternating:])) <= 1

TABLE = ((2, 18), (4, 30), (6, 40), (9, 59))


@given(st.integers(0, 11))
def test_unit_value_rounds_down_and_grows_with_trays(trays: int) -> None:
    """A unit's value is the cost of the largest row not above its trays (0 below the table); more trays
    never score less."""
    value, row = unit_value(ArmyUnit("u", TABLE, trays, ()), CORPUS)
    rows = [cost for t, cost in TABLE if t <= trays and trays > 0]
    assert value == (rows[-1] if rows else 0)
    assert unit_value(ArmyUnit("u", TABLE, trays + 1, ()), CORPUS)[0] >= value
    assert row is None or row <= trays


@given(st.integers(0, 100))
def test_skirmish_objective_halved_rounding_up(value: int) -> None:
    """In a skirmish an objective token is worth half the card's value, rounded up."""
    half = objective_token_value(value, True, CORPUS)
    assert half == math.ceil(value / 2)
    assert objective_token_value(value, False, CORPUS) == value


@given(st.dictionaries(st.sampled_from(["P", "Q", "R"]), st.integers(0, 300), min_size=1))
def test_winner_has_the_unique_highest_score(scores: dict[str, int]) -> None:
    """The winner holds the highest score alone; a shared highest score is a draw."""
    winner = winner_by_score(scores)
    best = max(scores.values())
    leaders = [n for n, s in scores.items() if s == best]
    assert winner == (leaders[0] if len(leaders) == 1 else None)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 4), st.integers(-4, 4), st.integers(1, 4), st.sampled_from(["red", "blue", "white"]))
def test_command_speed_stays_within_templates(speed: int, change: int, top: int, stance: str) -> None:
    """A move's speed is never below 1 when it moves, never above the fastest template, and the modifier
    applies exactly when the stances match or it is white."""
    pos = {"game": GAME, "situation": "command", "action": {"icon": "march", "stance": "red", "speed": speed},
           "modifier": {"icon": "turn", "stance": stance, "speed": change}, "engaged": False,
           "max_template_speed": top}
    out = resolve(pos, CORPUS).outcome
    assert out["modifier_applies"] == (stance in ("red", "white"))
    total = speed + (change if out["modifier_applies"] else 0)
    assert out["moves"] == (total > 0)
    if out["moves"]:
        assert out["speed"] == min(total, top) >= 1
    else:
        assert out["speed"] == 0 and out["action_canceled"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 60), min_size=1, max_size=6), st.integers(0, 250))
def test_army_points_limit(costs: list[int], limit: int) -> None:
    """An army is over its limit exactly when its points exceed it."""
    units = [{"name": f"u{i}", "faction": "daqan", "type": "infantry",
              "configuration": {"trays": 2, "cost": c, "upgrade_icons": []}} for i, c in enumerate(costs)]
    result = resolve({"game": GAME, "situation": "army", "points_limit": limit, "faction": "daqan",
                      "units": units}, CORPUS)
    assert result.outcome["points"] == sum(costs)
    assert result.legal == (sum(costs) <= limit)
