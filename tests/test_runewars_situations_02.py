"""The Runewars situations added in 0.2 (combat_round, retreat, diplomacy, duel, influence_bid, victory_card):
properties of their arithmetic over many generated positions, the errors for unreadable positions, and the forms
their schemas give the boards."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import load_situations, resolve
from engine.errors import UnreadableInputError

CLASSES = ("triangle", "circle", "rectangle", "hexagon")
FACTIONS = ("daqan", "elves", "uthuk", "waiqar")
NEW = ("combat_round", "retreat", "diplomacy", "duel", "influence_bid", "victory_card")

section = st.fixed_dictionaries({}, optional={"special": st.integers(0, 2), "rout": st.integers(0, 3),
                                              "damage": st.integers(0, 3)})
card = st.fixed_dictionaries({c: section for c in CLASSES})


# ------------------------------------------------------------------------------------------ combat_round

@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5), st.sampled_from(CLASSES), st.integers(1, 6), st.integers(0, 3), st.booleans(),
       st.data())
def test_combat_round_draws_one_card_per_standing_unit_and_totals_the_kept_cards(
        initiative: int, cls: str, standing: int, routed: int, hero: bool, data: st.DataObject) -> None:
    extra = hero and data.draw(st.booleans())
    cards = data.draw(st.lists(card, min_size=standing + extra, max_size=standing + extra))
    discard = data.draw(st.integers(0, len(cards) - 1)) if extra else None
    side = {"faction": "elves", "cards": cards, "discard": discard,
            "types": [{"type": "T", "class": cls, "initiative": initiative, "standing": standing, "routed": routed,
                       "supporting_heroes": int(hero)}]}
    other = {"faction": "uthuk", "types": []}
    out = resolve({"game": "runewars", "situation": "combat_round", "initiative": initiative, "attacker": side,
                   "defender": other}).outcome
    assert out["attacker_draws"] == standing + extra
    kept = [c for i, c in enumerate(cards) if i != discard]
    for key in ("special", "rout", "damage"):
        assert out["attacker_results"][key] == sum(c[cls].get(key, 0) for c in kept) >= 0
    assert out["defender_draws"] == 0
    order = [(e["side"], e["effect"]) for e in out["sequence"]]
    assert order == [("attacker", k) for k in ("special", "rout", "damage") if out["attacker_results"][k]]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 5), st.integers(0, 6), st.booleans())
def test_combat_round_wrong_number_of_cards_is_illegal(standing: int, held: int, hero: bool) -> None:
    side = {"faction": "elves", "cards": [{c: {} for c in CLASSES}] * held,
            "types": [{"type": "T", "class": "circle", "initiative": 1, "standing": standing,
                       "supporting_heroes": int(hero)}]}
    res = resolve({"game": "runewars", "situation": "combat_round", "initiative": 1, "attacker": side,
                   "defender": {"types": []}})
    allowed = {standing, standing + 1} if hero else {standing}
    assert res.legal == (held in allowed)


# ------------------------------------------------------------------------------------------ duel

play = st.fixed_dictionaries({"card": st.fixed_dictionaries({}, optional={"special": st.integers(0, 1),
                                                                          "rout": st.integers(0, 3),
                                                                          "damage": st.integers(0, 3)})})


def _play(raw: dict[str, Any], use: str) -> dict[str, Any]:
    out = dict(raw)
    if raw["card"].get("special"):
        out["special_use"] = use
        if use == "reward":
            out["reward"] = {"name": "Blade", "trait": "weapon", "damage": 2}
    return out


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), st.lists(st.tuples(play, play), max_size=4),
       st.sampled_from(["damage", "reward"]))
def test_duel_damage_never_goes_down_and_defeat_is_damage_reaching_health(
        h_att: int, h_def: int, rounds: list[tuple[dict[str, Any], dict[str, Any]]], use: str) -> None:
    pos = {"game": "runewars", "situation": "duel",
           "attacker": {"hero": "A", "faction": "daqan", "area": "1A", "health": h_att},
           "defender": {"hero": "B", "faction": "uthuk", "area": "1A", "health": h_def},
           "rounds": [{"attacker": _play(a, use), "defender": _play(d, use)} for a, d in rounds]}
    res = resolve(pos)
    assert res.legal
    out = res.outcome
    dmg = {"attacker": 0, "defender": 0}
    played = 0
    for a, d in rounds:
        if any(dmg[s] >= h for s, h in (("attacker", h_att), ("defender", h_def))):
            break
        plays = {"attacker": _play(a, use), "defender": _play(d, use)}

        def dealt(p: dict[str, Any]) -> int:
            special = p["card"].get("special", 0)
            bonus = (1 if use == "damage" else 2) if special else 0
            return int(p["card"].get("damage", 0)) + bonus

        for me, them in (("attacker", "defender"), ("defender", "attacker")):
            step = max(0, dealt(plays[them]) - plays[me]["card"].get("rout", 0))
            assert step >= 0
            dmg[me] += step
        played += 1
    assert out["rounds_played"] == played <= 4
    assert out["damage"] == dmg
    assert out["defeated"] == [s for s, h in (("attacker", h_att), ("defender", h_def)) if dmg[s] >= h]
    assert out["rewards_to"] == {0: None, 2: "marker"}.get(len(out["defeated"]),
                                                          "defender" if out["defeated"] == ["attacker"]
                                                          else "attacker")


# ------------------------------------------------------------------------------------------ influence_bid

bidder = st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(2, 5), st.booleans())


@settings(max_examples=200, deadline=None)
@given(st.lists(bidder, min_size=2, max_size=4), st.sampled_from(["highest", "lowest"]))
def test_influence_bid_everyone_loses_the_bid_and_ties_go_to_the_right_chooser(
        rows: list[tuple[int, int, int, bool]], contest: str) -> None:
    players = [{"faction": FACTIONS[i], "influence": held, "bid": min(bid, held), "starting_influence": start,
                "primarch": primarch} for i, (held, bid, start, primarch) in enumerate(rows)]
    res = resolve({"game": "runewars", "situation": "influence_bid", "players": players, "contest": contest})
    holders = [p["faction"] for p in players if p["primarch"]]
    assert res.legal == (len(holders) <= 1)
    if not res.legal:
        return
    out = res.outcome
    bids = [p["bid"] for p in players]
    top = max(bids) if contest == "highest" else min(bids)
    assert out["deciding_bid"] == top
    assert out["contenders"] == [p["faction"] for p in players if p["bid"] == top]
    assert out["influence_after"] == {p["faction"]: p["influence"] - p["bid"] for p in players}
    assert all(v >= 0 for v in out["influence_after"].values())
    if len(out["contenders"]) == 1:
        assert out["chooser"] is None and out["selected"] == out["contenders"][0]
    elif holders:
        assert out["chooser"] == holders[0] and out["selected"] is None and res.decisions
    else:
        tied = [p for p in players if p["faction"] in out["contenders"]]
        best = max(p["influence"] - p["bid"] for p in tied)
        tied = [p for p in tied if p["influence"] - p["bid"] == best]
        high = max(p["starting_influence"] for p in tied)
        tied = [p for p in tied if p["starting_influence"] == high]
        assert out["chooser"] == (tied[0]["faction"] if len(tied) == 1 else None)


# ------------------------------------------------------------------------------------------ diplomacy, retreat

@settings(max_examples=100, deadline=None)
@given(st.integers(0, 8), st.integers(0, 8))
def test_diplomacy_draws_one_card_per_influence_spent(held: int, spend: int) -> None:
    res = resolve({"game": "runewars", "situation": "diplomacy", "player": "elves", "influence": held,
                   "spend": spend, "area": "1A", "neutral_units": [{"id": "n"}]})
    assert res.legal == (1 <= spend <= 6 and spend <= held)
    if res.legal:
        assert res.outcome["draws"] == spend
        assert res.outcome["influence_left"] == held - spend >= 0


owner = st.sampled_from([None, "daqan", "elves", "neutral"])
neighbour = st.tuples(owner, st.sampled_from(["plain", "mountain", "water"]), st.booleans())


@settings(max_examples=200, deadline=None)
@given(st.lists(neighbour, min_size=1, max_size=6), st.booleans(), st.sampled_from(["summer", "winter"]),
       st.lists(st.booleans(), min_size=1, max_size=4))
def test_retreat_goes_friendly_first_then_empty_and_routs_or_destroys_every_unit(
        near: list[tuple[str | None, str, bool]], flying: bool, season: str, took_part: list[bool]) -> None:
    areas = [{"id": "X", "units": {"elves": len(took_part), "daqan": 2}}]
    borders = []
    for i, (who, kind, home) in enumerate(near):
        areas.append({"id": f"A{i}", "units": {who: 1} if who else {}, "home_realm": "uthuk" if home else None})
        borders.append(["X", f"A{i}", kind])
    units = [{"id": f"u{i}", "flying": flying, "participated": p} for i, p in enumerate(took_part)]
    out = resolve({"game": "runewars", "situation": "retreat", "season": season, "from": "X",
                   "group": {"kind": "player", "faction": "elves", "units": units},
                   "map": {"areas": areas, "borders": borders}}).outcome

    def open_(kind: str) -> bool:
        return flying or kind == "plain" or (kind == "water" and season == "winter")

    friendly = [f"A{i}" for i, (who, kind, _) in enumerate(near) if who == "elves" and open_(kind)]
    empty = [f"A{i}" for i, (who, kind, home) in enumerate(near) if who is None and not home and open_(kind)]
    going = [u["id"] for u in units if u["participated"]]
    assert out["options"] == ((friendly or empty) if going else [])
    assert sorted(out["routed"] + out["destroyed"]) == sorted(u["id"] for u in units)
    if out["destination"] is not None:
        assert out["destination"] in out["options"]
        assert out["over_limit"] == max(0, len(going) + (1 if out["destination"] in friendly else 0) - 8)


# ------------------------------------------------------------------------------------------ unreadable positions

MAP = {"areas": [{"id": "1A"}, {"id": "1B"}], "borders": [["1A", "1B", "plain"]]}
HERO = {"hero": "A", "faction": "daqan", "area": "1A", "health": 3}
TYPES = [{"type": "T", "class": "circle", "initiative": 1, "standing": 1}]


@pytest.mark.parametrize(("position", "path"), [
    ({"situation": "retreat", "from": "9Z", "group": {"kind": "neutral", "units": []}, "map": MAP}, "from"),
    ({"situation": "retreat", "from": "1A", "group": {"kind": "player", "units": []}, "map": MAP}, "group.faction"),
    ({"situation": "retreat", "from": "1A", "group": {"kind": "neutral", "units": [], "heroes": [{"id": "h"}]},
      "map": MAP}, "group.heroes"),
    ({"situation": "retreat", "from": "1A", "group": {"kind": "neutral", "units": [{"id": "a"}, {"id": "a"}]},
      "map": MAP}, "group.units[1].id"),
    ({"situation": "retreat", "from": "1A", "group": {"kind": "player", "faction": "elves", "units": [{"id": "a"}],
                                                      "heroes": [{"id": "a"}]}, "map": MAP}, "group.heroes[0].id"),
    ({"situation": "retreat", "from": "1A", "group": {"kind": "neutral", "units": []},
      "map": {"areas": [{"id": "1A"}], "borders": [["1A", "2B", "plain"]]}}, "map.borders[0][1]"),
    ({"situation": "retreat", "from": "1A", "group": {"kind": "neutral", "units": []},
      "map": {"areas": [{"id": "1A"}], "borders": [["1A", "1A", "plain"]]}}, "map.borders[0]"),
    ({"situation": "retreat", "from": "1A", "group": {"kind": "neutral", "units": []},
      "map": {"areas": MAP["areas"], "borders": [["1A", "1B", "plain"], ["1B", "1A", "water"]]}},
     "map.borders[1][2]"),
    ({"situation": "retreat", "from": "1A", "group": {"kind": "neutral", "units": []},
      "map": {"areas": [{"id": "1A"}, {"id": "1A"}], "borders": []}}, "map.areas[1].id"),
    ({"situation": "diplomacy", "player": "elves", "influence": 2, "spend": 1, "area": "1A",
      "neutral_units": [{"id": "n"}], "drawn": ["rout"]}, "map"),
    ({"situation": "diplomacy", "player": "elves", "influence": 2, "spend": 1, "area": "9Z",
      "neutral_units": [{"id": "n"}], "drawn": ["rout"], "map": MAP}, "area"),
    ({"situation": "diplomacy", "player": "elves", "influence": 2, "spend": 1, "area": "1A",
      "neutral_units": [{"id": "n"}, {"id": "n"}]}, "neutral_units[1].id"),
    ({"situation": "combat_round", "initiative": 1, "attacker": {"types": TYPES, "chosen": "Nobody"},
      "defender": {"types": []}}, "attacker.chosen"),
    ({"situation": "combat_round", "initiative": 1, "attacker": {"types": TYPES + TYPES},
      "defender": {"types": []}}, "attacker.types[1].type"),
    ({"situation": "duel", "attacker": {**HERO, "damage": 3}, "defender": {**HERO, "faction": "elves"}},
     "attacker.damage"),
    ({"situation": "influence_bid", "players": [{"faction": "elves", "influence": 1, "bid": 0},
                                                {"faction": "elves", "influence": 1, "bid": 0}]},
     "players[1].faction"),
    ({"situation": "battle", "attacker": {"faction": "daqan", "units": [{"class": "circle"}],
                                          "development_choices": ["circle 1"]},
      "defender": {"faction": "uthuk", "stronghold": {"strength": 2}, "development": "hungry-spawn",
                   "use_development": True, "units": []}}, "attacker.units[0].health"),
])
def test_unreadable_positions_name_the_offending_path(position: dict[str, Any], path: str) -> None:
    with pytest.raises(UnreadableInputError) as err:
        resolve({"game": "runewars", **position})
    assert err.value.path == path
    assert err.value.message == err.value.message[:1].lower() + err.value.message[1:]


# ------------------------------------------------------------------------------------------ forms for the boards

def _fields(schema: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name, sub in (schema.get("properties") or {}).items():
        out.append((f"{path}{name}", sub))
        out += _fields(sub, f"{path}{name}.")
        items = sub.get("items")
        if isinstance(items, dict):
            out += _fields(items, f"{path}{name}[].")
    return out


@pytest.mark.parametrize("name", NEW)
def test_every_field_of_the_new_situations_has_a_label_and_every_array_a_cap(name: str) -> None:
    sit = load_situations()[("runewars", name)]
    schema = dict(sit.schema)
    for path, sub in _fields(schema):
        if path in ("game", "situation"):
            continue
        # a typed situation publishes no title that only repeats its key ("hero" -> "Hero"): the boards
        # humanize the key to the same label
        assert sub.get("title") or sit.model is not None, f"{name}: {path} has no title"
        if sub.get("type") == "array":
            assert "maxItems" in sub, f"{name}: {path} has no maxItems"
