"""Properties of Runeslingers' arithmetic rules (damage, ailments, drawing, ladder, conflicts, decks)."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.core import resolve

AILMENTS = ("burn", "debilitate", "curse", "fragment", "weaken", "insanity")
LEVELS = ("card", "stance_ability", "ailment")
PROPS = settings(max_examples=150, deadline=None)


def damage(health: int, max_health: int, power: int, amount: int, kind: str,
           block: dict[str, Any] | None = None, determination: int = 0) -> dict[str, Any]:
    return {"game": "runeslingers", "situation": "damage",
            "target": {"kind": "runeslinger", "health": health, "max_health": max_health, "power": power,
                       "determination": determination},
            "amount": amount, "damage_type": kind, "block": block or {"declared": False}}


@st.composite
def slingers(draw: st.DrawFn) -> tuple[int, int, int]:
    max_health = draw(st.integers(min_value=1, max_value=30))
    return draw(st.integers(min_value=1, max_value=max_health)), max_health, draw(st.integers(1, 6))


def standing(out: dict[str, Any]) -> tuple[int, int]:
    """Order outcomes for a Runeslinger: more power is better, then more health."""
    return out["power"], out["health"]


@PROPS
@given(slingers(), st.integers(0, 120), st.sampled_from(["basic", "direct", "pierce", "health_loss"]),
       st.integers(0, 9))
def test_damage_keeps_health_in_range_and_power_pays_determination(slinger, amount, kind, det):
    health, max_health, power = slinger
    out = resolve(damage(health, max_health, power, amount, kind, determination=det)).outcome
    assert out["power_lost"] >= 0 and out["power"] == power - out["power_lost"] >= 0
    assert out["determination"] == det + out["power_lost"]
    assert out["defeated"] == (out["power"] == 0)
    assert 0 <= out["health"] <= max_health
    assert out["health"] > 0 or out["defeated"]
    assert 0 <= out["dealt"] <= amount


@PROPS
@given(slingers(), st.integers(0, 120), st.sampled_from(["basic", "direct"]))
def test_basic_and_direct_damage_never_carry_over(slinger, amount, kind):
    health, max_health, power = slinger
    out = resolve(damage(health, max_health, power, amount, kind)).outcome
    assert out["power_lost"] == (1 if amount >= health else 0)
    assert out["dealt"] == min(amount, health)
    if amount < health:
        assert out["health"] == health - amount
    elif not out["defeated"]:
        assert out["health"] == max_health


@PROPS
@given(slingers(), st.integers(0, 120))
def test_pierce_and_health_loss_apply_in_full_across_resets(slinger, amount):
    health, max_health, power = slinger
    pierce = resolve(damage(health, max_health, power, amount, "pierce")).outcome
    loss = resolve(damage(health, max_health, power, amount, "health_loss")).outcome
    assert {k: pierce[k] for k in ("health", "power", "power_lost")} == \
        {k: loss[k] for k in ("health", "power", "power_lost")}
    if not pierce["defeated"]:
        # every point is taken from health; each reset to the maximum costs exactly one power
        assert health - pierce["health"] + pierce["power_lost"] * max_health == amount
        assert pierce["dealt"] == amount


@PROPS
@given(slingers(), st.integers(0, 60), st.integers(0, 60), st.sampled_from(["basic", "pierce"]))
def test_more_damage_never_leaves_a_runeslinger_better_off(slinger, amount, more, kind):
    health, max_health, power = slinger
    low = resolve(damage(health, max_health, power, amount, kind)).outcome
    high = resolve(damage(health, max_health, power, amount + more, kind)).outcome
    if kind == "pierce" or low["power_lost"] == high["power_lost"]:
        assert standing(high) <= standing(low)
    else:  # basic damage: excess is lost, but the power loss still makes the bigger hit no better
        assert high["power"] <= low["power"]


@PROPS
@given(slingers(), st.integers(0, 60), st.integers(1, 10), st.sampled_from(["basic", "pierce"]))
def test_a_block_prevents_up_to_its_value_and_never_hurts(slinger, amount, value, kind):
    health, max_health, power = slinger
    plain = resolve(damage(health, max_health, power, amount, kind)).outcome
    ruling = resolve(damage(health, max_health, power, amount, kind, {"declared": True, "value": value}))
    assert ruling.legal
    blocked = ruling.outcome
    assert blocked["prevented"] == min(amount, value)
    assert blocked["barrier_left"] == value - blocked["prevented"]
    assert standing(blocked) >= standing(plain)


@PROPS
@given(slingers(), st.integers(0, 60), st.integers(0, 10), st.sampled_from(["direct", "health_loss"]))
def test_direct_damage_and_health_loss_cannot_be_blocked_or_stopped_by_barriers(slinger, amount, value, kind):
    health, max_health, power = slinger
    assert not resolve(damage(health, max_health, power, amount, kind, {"declared": True, "value": value})).legal
    plain = resolve(damage(health, max_health, power, amount, kind)).outcome
    shielded = resolve(damage(health, max_health, power, amount, kind, {"declared": False, "barrier": value})).outcome
    assert shielded["prevented"] == 0
    assert standing(shielded) == standing(plain)


@PROPS
@given(st.integers(1, 30), st.integers(0, 40), st.sampled_from(["basic", "direct", "pierce"]))
def test_a_defense_card_is_destroyed_exactly_when_damage_reaches_its_defense(defense, amount, kind):
    pos = {"game": "runeslingers", "situation": "damage", "target": {"kind": "defense_card", "defense": defense},
           "amount": amount, "damage_type": kind, "block": {"declared": False}}
    out = resolve(pos).outcome
    assert out["destroyed"] == (amount >= defense)
    assert out["defense"] == max(0, defense - amount)
    assert out["excess_to_controller"] == (max(0, amount - defense) if kind == "pierce" else 0)


counts = st.dictionaries(st.sampled_from(AILMENTS), st.integers(0, 30), max_size=2)


@PROPS
@given(counts, counts, st.integers(1, 6))
def test_ailment_phase_removes_eights_and_ignores_concealed(exposed, concealed, power):
    concealed = {k: v for k, v in concealed.items() if k not in exposed}
    pos = {"game": "runeslingers", "situation": "ailment_phase", "exposed": exposed, "concealed": concealed,
           "power": power}
    out = resolve(pos).outcome
    total = sum(exposed.values())
    assert out["power_lost"] == min(total // 8, power)
    assert out["exposed_after_total"] == total - 8 * out["power_lost"]
    assert out["exposed_after_total"] < 8 or out["defeated"]
    alone = resolve({**pos, "concealed": {}}).outcome
    assert alone["power_lost"] == out["power_lost"]


@PROPS
@given(st.integers(0, 12), st.integers(1, 10), st.integers(0, 20), st.integers(0, 20), st.integers(0, 12),
       st.integers(1, 6))
def test_drawing_conserves_cards_and_respects_the_hand_limit(hand, max_hand, deck, discard, n, power):
    pos = {"game": "runeslingers", "situation": "draw", "hand": hand, "max_hand": max_hand, "deck": deck,
           "discard": discard, "draw": n, "power": power}
    out = resolve(pos).outcome
    assert out["hand"] + out["deck"] + out["discard"] == hand + deck + discard
    assert out["hand"] <= max(hand, max_hand)
    assert out["power"] == power - out["power_lost"] >= 0
    if out["game_lost"]:
        assert out["deck"] == out["discard"] == 0
    if hand + n <= max_hand:  # nothing drawn is discarded, so deck and discard only shrink
        if deck + discard <= n:
            assert out["game_lost"] or out["defeated"]
        else:
            assert not out["game_lost"]
    if not out["game_lost"] and not out["defeated"]:
        assert out["drawn"] == n
        assert out["deck"] > 0  # the deck is never left empty: it is rebuilt at once
    assert out["discarded"] <= out["drawn"]


@PROPS
@given(st.integers(0, 8), st.integers(1, 10), st.integers(1, 6))
def test_every_empty_deck_costs_exactly_one_power(hand, deck, power):
    pos = {"game": "runeslingers", "situation": "draw", "hand": hand, "deck": deck, "discard": 40, "draw": deck,
           "power": power}
    out = resolve(pos).outcome
    assert out["power_lost"] == 1 and out["reshuffles"] == (0 if out["defeated"] else 1)


players = st.sampled_from(["Emily", "Sam"])


@PROPS
@given(st.lists(st.tuples(st.sampled_from(LEVELS), players), min_size=1, max_size=6), players, st.randoms())
def test_conflicts_follow_the_priority_order_whatever_the_listing_order(specs, active, rnd):
    effects = [{"id": f"e{i}", "level": lv, "controller": who} for i, (lv, who) in enumerate(specs)]
    pos = {"game": "runeslingers", "situation": "conflict", "active_player": active, "effects": effects}
    ruling = resolve(pos)
    top = max(LEVELS.index(e["level"]) for e in effects)
    best = [e for e in effects if LEVELS.index(e["level"]) == top]
    mine = [e for e in best if e["controller"] == active] if len({e["controller"] for e in best}) > 1 else best
    if len(mine) == 1:
        assert ruling.outcome["prevails"] == mine[0]["id"] and not ruling.decisions
    else:
        assert ruling.outcome["prevails"] is None and ruling.decisions
    shuffled = list(effects)
    rnd.shuffle(shuffled)
    assert resolve({**pos, "effects": shuffled}).outcome["prevails"] == ruling.outcome["prevails"]


@PROPS
@given(st.lists(st.tuples(st.sampled_from(["runespell", "defense_card"]), st.booleans()), min_size=1, max_size=6))
def test_the_ladder_resolves_top_down(specs):
    plays = [{"card": f"c{i}", "player": ("you", "opp")[i % 2], "effect": "damage", "targets": ["x"],
              "card_type": t, "shout": True} for i, (t, _) in enumerate(specs)]
    assume(all(p["card_type"] == "runespell" for p in plays[:-1]))
    out = resolve({"game": "runeslingers", "situation": "ladder", "plays": plays}).outcome
    assert out["resolution_order"] == [p["card"] for p in reversed(plays)]
    assert out["fizzled"] == []


@PROPS
@given(st.lists(st.tuples(st.integers(1, 5), st.booleans()), min_size=1, max_size=20),
       st.sampled_from(["constructed", "draft", "sealed"]))
def test_deck_size_and_copy_limits(cards, fmt):
    deck = [{"name": f"Card {i}", "copies": c, "x_card": x} for i, (c, x) in enumerate(cards)]
    ruling = resolve({"game": "runeslingers", "situation": "deck", "format": fmt, "cards": deck})
    size = sum(c for c, _ in cards)
    assert ruling.outcome["size"] == size
    need = 30 if fmt == "draft" else 40
    limits_ok = fmt == "draft" or all(c <= (1 if x else 3) for c, x in cards)
    assert ruling.legal == (size == need and limits_ok)
