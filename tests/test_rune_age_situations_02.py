"""Rune Age situations added in 0.2: properties of their arithmetic over many positions, and unreadable input.

Rulings on particular positions live in engine/examples/rune-age/<situation>-*.json; these tests check what
must hold for every position: influence is never created, wounded units count until End of Combat,
the Assault alternates, and each player holds at most one Dragon Rune power.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve
from engine.errors import UnreadableInputError

RA = {"game": "rune-age"}
ROOT = Path(__file__).resolve().parent.parent


def pos(situation: str, **fields: Any) -> dict[str, Any]:
    return {**RA, "situation": situation, **fields}


# ------------------------------------------------------------------------------------ spend_influence

influences = st.lists(st.integers(min_value=0, max_value=5), max_size=5)
costs = st.lists(st.integers(min_value=0, max_value=6), max_size=4)


@settings(max_examples=150, deadline=None)
@given(influences, costs)
def test_influence_is_spent_or_lost_never_created(sources: list[int], prices: list[int]) -> None:
    ruling = resolve(pos("spend_influence", timing="perform_actions",
                         exhaust=[{"name": f"c{i}", "kind": "city", "influence": n} for i, n in enumerate(sources)],
                         purchases=[{"name": f"p{i}", "kind": "neutral", "cost": n} for i, n in enumerate(prices)]))
    out = ruling.outcome
    assert out["influence"] == sum(sources) and out["cost"] == sum(prices)
    assert ruling.legal == (sum(sources) >= sum(prices))
    if ruling.legal:
        assert out["lost"] == sum(sources) - sum(prices) >= 0
        assert out["acquired"] == [f"p{i}" for i in range(len(prices))]
    else:
        assert out["lost"] == 0 and out["acquired"] == []


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=12), st.integers(min_value=0, max_value=12), st.integers(0, 12))
def test_discard_hand_keeps_pays_one_each_and_draws_up_to_five(hand: int, retain: int, influence: int) -> None:
    ruling = resolve(pos("spend_influence", timing="discard_hand", hand=hand, retain=retain,
                         retained_cards=[f"k{i}" for i in range(retain)],
                         exhaust=[{"name": "Dallak", "kind": "city", "influence": influence}]))
    out = ruling.outcome
    assert out["cost"] == retain and out["kept"] == retain
    assert out["draws"] == max(0, 5 - retain)
    assert ruling.legal == (retain <= hand and influence >= retain)
    if ruling.legal:
        assert out["discarded"] == hand - retain and out["lost"] == influence - retain


def test_retained_cards_must_match_retain() -> None:
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos("spend_influence", timing="discard_hand", hand=3, retain=2, retained_cards=["a"], exhaust=[]))
    assert err.value.path == "retained_cards"


def test_hand_is_required_to_keep_cards() -> None:
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos("spend_influence", timing="discard_hand", retain=1, exhaust=[]))
    assert err.value.path == "hand"


# ------------------------------------------------------------------------------------ combat_wounds

events = st.lists(st.tuples(st.sampled_from(["wound", "destroy", "remove"]), st.integers(0, 5), st.booleans()),
                  max_size=8)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=6), min_size=1, max_size=6), events)
def test_only_units_still_in_combat_count_and_wounded_ones_die_at_end(strengths: list[int],
                                                                     evs: list[tuple[str, int, bool]]) -> None:
    units = [{"id": f"u{i}", "name": f"U{i}", "player": "AB"[i % 2], "strength": s, "origin": "faction"}
             for i, s in enumerate(strengths)]
    raw = [{"effect": e, "unit": f"u{k}", "guardian": g} for e, k, g in evs]
    out = resolve(pos("combat_wounds", combat="siege", units=units, events=raw)).outcome
    gone = {uid for uid, f in out["fate"].items() if f == "removed"} | set(out["destroyed"]) - set(out["wounded"])
    for player in {u["player"] for u in units}:
        assert out["strength"][player] == sum(u["strength"] for u in units
                                              if u["player"] == player and u["id"] not in gone)
    assert set(out["wounded"]) <= set(out["destroyed"])
    assert out["destroyed"][len(out["destroyed"]) - len(out["wounded"]):] == out["wounded"]
    assert len(set(out["destroyed"])) == len(out["destroyed"])
    assert all(out["fate"][d] == "barracks" for d in out["destroyed"])
    assert set(out["fate"]) == {u["id"] for u in units}


def test_unit_ids_must_be_unique() -> None:
    unit = {"id": "x", "name": "X", "player": "A", "strength": 1}
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos("combat_wounds", combat="battle", units=[unit, unit]))
    assert err.value.path == "units[1].id"


# ------------------------------------------------------------------------------------ siege_turns

@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6), st.integers(0, 6), st.lists(st.booleans(), max_size=20))
def test_a_legal_assault_alternates_until_both_pass(a_hand: int, d_hand: int, wants_pass: list[bool]) -> None:
    hands = {"attacker": a_hand, "defender": d_hand}
    seq: list[dict[str, Any]] = []
    for choice in wants_pass:  # build the sequence by following the engine's own "next"
        out = resolve(pos("siege_turns", hands=hands, sequence=seq)).outcome
        if out["assault_over"]:
            break
        side = out["next"]
        can_pass = side == "defender" or out["played"]["attacker"] > 0
        seq.append({"by": side, "action": "pass"} if choice and can_pass else
                   {"by": side, "action": "play", "card": "c", "kind": "unit"})
    ruling = resolve(pos("siege_turns", hands=hands, sequence=seq))
    out = ruling.outcome
    assert ruling.legal
    assert out["played"]["attacker"] == sum(1 for e in seq if e["by"] == "attacker" and e["action"] == "play")
    assert out["played"]["attacker"] <= a_hand and out["played"]["defender"] <= d_hand
    assert out["assault_over"] == (len(out["passed"]) == 2) == (out["next"] is None)
    assert len(set(out["passed"])) == len(out["passed"])
    assert bool(ruling.decisions) != out["assault_over"]


# ------------------------------------------------------------------------------------ dragon_runes

names = st.sampled_from(["Power A", "Power B", "Power C", None])


@settings(max_examples=150, deadline=None)
@given(names, names, st.sampled_from(["siege", "event_card"]), st.sampled_from([0, 1, None]))
def test_dragon_rune_cards_are_kept_or_removed_never_lost(winner_card: str | None, loser_card: str | None,
                                                          cause: str, keep_index: int | None) -> None:
    held = [c for c in (winner_card, loser_card) if c is not None]
    keep = held[keep_index] if keep_index is not None and keep_index < len(held) else None
    event = {"type": "elimination", "eliminated": "Elves", "cause": cause, "victor": "Uthuk", "keep": keep}
    ruling = resolve(pos("dragon_runes", scenario="runewars", event=event,
                         players=[{"player": "Uthuk", "dragon_rune": winner_card},
                                  {"player": "Elves", "dragon_rune": loser_card}]))
    out = ruling.outcome
    assert out["dragon_runes"]["Elves"] is None
    active = [v for v in out["dragon_runes"].values() if v is not None]
    if "Uthuk" not in out["dragon_runes"]:  # his choice is still open: both cards wait for it
        assert ruling.decisions[0].options == (winner_card, loser_card) and not active
    else:
        assert sorted(active + out["removed_from_game"]) == sorted(held)
    if cause == "event_card":
        assert out["obtains"] is None and out["removed_from_game"] == ([loser_card] if loser_card else [])


@pytest.mark.parametrize(("event", "path"), [
    ({"type": "use"}, "event.player"),
    ({"type": "use", "player": "Nobody"}, "event.player"),
    ({"type": "discovery", "player": "Elves"}, "event.card"),
    ({"type": "elimination", "eliminated": "Elves", "cause": "siege"}, "event.victor"),
    ({"type": "elimination", "eliminated": "Elves", "cause": "siege", "victor": "Elves"}, "event.victor"),
])
def test_dragon_rune_events_name_known_players(event: dict[str, Any], path: str) -> None:
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos("dragon_runes", scenario="runewars", event=event,
                    players=[{"player": "Elves", "dragon_rune": "Power B"}]))
    assert err.value.path == path


def test_dragon_rune_players_are_unique() -> None:
    with pytest.raises(UnreadableInputError) as err:
        resolve(pos("dragon_runes", scenario="runewars", event={"type": "use", "player": "Elves"},
                    players=[{"player": "Elves"}, {"player": "Elves"}]))
    assert err.value.path == "players[1].player"


# ------------------------------------------------------------------------------------ ability_limits

@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["when_played", "resolution", "end_of_combat", "action", "none"]),
       st.sampled_from(["own_actions", "played_into_combat", "assault_later", "resolution", "end_of_combat",
                        "other_turn"]), st.integers(0, 3))
def test_keyword_abilities_once_per_round_and_only_at_their_moment(keyword: str, moment: str, uses: int) -> None:
    ruling = resolve(pos("ability_limits", card={"name": "C", "kind": "unit", "keyword": keyword},
                         uses_this_round=uses, moment=moment))
    right = {"when_played": "played_into_combat", "resolution": "resolution", "end_of_combat": "end_of_combat",
             "action": "own_actions"}.get(keyword)
    assert ruling.outcome["limited"] == (keyword != "none")
    assert ruling.legal == (keyword == "none" or (uses == 0 and moment == right))
    assert ruling.outcome["strength_only"] == (keyword == "action" and moment not in ("own_actions", "other_turn"))


# ------------------------------------------------------------------------------------ typed situations

def _objects(schema: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield every object and array of a published schema (the form's groups and lists), with its path."""
    if schema.get("type") in ("object", "array"):
        yield path, schema
    for key, sub in schema.get("properties", {}).items():
        yield from _objects(sub, f"{path}.{key}")
    if isinstance(schema.get("items"), dict):
        yield from _objects(schema["items"], f"{path}[]")


def test_every_rune_age_form_group_carries_a_hint_and_every_list_a_cap() -> None:
    """Every Rune Age situation is published from its typed model: each group of its form says what it is in a
    player's words (the board shows it as the hint) and each list has a length cap."""
    proc = subprocess.run([sys.executable, "-m", "engine.cli", "situations", "--json"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    situations = [s for s in json.loads(proc.stdout)["situations"] if s["game"] == "rune-age"]
    assert len(situations) == 16
    for sit in situations:
        for path, node in _objects(sit["schema"], sit["situation"]):
            if node.get("type") == "array":
                assert isinstance(node.get("maxItems"), int), f"{path} has no length cap"
            else:
                assert node.get("description"), f"{path} has no hint"
