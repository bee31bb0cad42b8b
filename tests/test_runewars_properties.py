"""Properties of Runewars' arithmetic rules (battle strength, damage and routs, limits, orders, paths), over many
generated positions."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve

CLASSES = ("triangle", "circle", "rectangle", "hexagon")
DEV_OF = {"daqan": "reinforced-walls", "elves": "protective-wards", "uthuk": "hungry-spawn", "waiqar": "cursed-tomb"}

unit = st.fixed_dictionaries({"class": st.sampled_from(CLASSES), "routed": st.booleans(),
                              "health": st.integers(1, 4)})
units = st.lists(unit, max_size=10)
stronghold = st.one_of(st.none(), st.fixed_dictionaries({"strength": st.integers(0, 5), "damaged": st.booleans()}))


def battle(att: list[dict[str, Any]], dfd: list[dict[str, Any]], hold: dict[str, Any] | None, conquer: bool,
           faction: str, use_dev: bool) -> dict[str, Any]:
    attacker = "elves" if faction != "elves" else "daqan"
    defender: dict[str, Any] = {"faction": faction, "stronghold": hold, "units": dfd,
                                "development": DEV_OF[faction] if (use_dev and hold) else None}
    if defender["development"]:
        defender["use_development"] = True
    return {"game": "runewars", "situation": "battle",
            "attacker": {"faction": attacker, "conquer_supremacy": conquer, "units": att}, "defender": defender}


def counted(us: list[dict[str, Any]]) -> int:
    return sum(1 for u in us if not u["routed"] or u["class"] == "hexagon")


@settings(max_examples=200, deadline=None)
@given(units, units, stronghold, st.booleans())
def test_strength_counts_standing_and_routed_hexagons_and_ties_go_to_the_defender(att, dfd, hold, conquer):
    out = resolve(battle(att, dfd, hold, conquer, "uthuk", False)).outcome
    keep = 0 if hold is None else (max(0, hold["strength"] - 3) if conquer else hold["strength"])
    assert out["attacker_strength"] == counted(att)
    assert out["defender_strength"] == counted(dfd) + keep
    assert out["winner"] == ("attacker" if counted(att) > counted(dfd) + keep else "defender")
    assert out["retreating"] == ("defender" if out["winner"] == "attacker" else "attacker")
    if out["attacker_strength"] == out["defender_strength"]:
        assert out["winner"] == "defender"
    if hold is None:
        assert out["stronghold"] == "none"
    elif out["winner"] == "attacker":
        assert out["stronghold"] == "conquered"
    else:
        assert out["stronghold"] == ("damaged" if any(not u["routed"] for u in att) else "kept")


@settings(max_examples=200, deadline=None)
@given(units, units, stronghold, st.booleans(), st.sampled_from(sorted(DEV_OF)), st.booleans(),
       st.sampled_from(CLASSES))
def test_more_strength_never_turns_a_win_into_a_loss(att, dfd, hold, conquer, faction, use_dev, extra_class):
    base = resolve(battle(att, dfd, hold, conquer, faction, use_dev)).outcome
    extra = {"class": extra_class, "routed": False, "health": 1}
    stronger_attacker = resolve(battle([*att, extra], dfd, hold, conquer, faction, use_dev)).outcome
    stronger_defender = resolve(battle(att, [*dfd, extra], hold, conquer, faction, use_dev)).outcome
    if base["winner"] == "attacker":
        assert stronger_attacker["winner"] == "attacker"
    if base["winner"] == "defender":
        assert stronger_defender["winner"] == "defender"
    if hold is not None:
        better_hold = {**hold, "strength": hold["strength"] + 1}
        if base["winner"] == "defender":
            assert resolve(battle(att, dfd, better_hold, conquer, faction, use_dev)).outcome["winner"] == "defender"
    if not conquer and base["winner"] == "attacker":
        assert resolve(battle(att, dfd, hold, True, faction, use_dev)).outcome["winner"] == "attacker"


damage_unit = st.tuples(st.integers(1, 4), st.integers(0, 3), st.booleans())


def damage_position(raw: list[tuple[int, int, bool]], damage: int, routs: int) -> tuple[dict[str, Any], list[dict]]:
    us = [{"id": f"u{i}", "health": h, "damage": min(d, h - 1), "routed": r} for i, (h, d, r) in enumerate(raw)]
    return {"game": "runewars", "situation": "assign_damage", "units": us, "damage": damage, "routs": routs}, us


def simulate(us: list[dict[str, Any]], damage: int, routs: int, rng: random.Random) -> list[str]:
    """Build a legal proposal by choosing, point by point, among the units the rules allow."""
    dmg = {u["id"]: u["damage"] for u in us}
    health = {u["id"]: u["health"] for u in us}
    routed = {u["id"]: u["routed"] for u in us}
    alive = [u["id"] for u in us]
    rout_ids: list[str] = []
    for _ in range(routs):
        standing = [i for i in alive if not routed[i]]
        pick = [i for i in standing if dmg[i] == 0] or standing
        if not pick:
            break
        choice = rng.choice(pick)
        routed[choice] = True
        rout_ids.append(choice)
    damage_ids: list[str] = []
    for _ in range(damage):
        damaged = [i for i in alive if dmg[i] > 0]
        pick = damaged or [i for i in alive if not routed[i]] or alive
        if not pick:
            break
        choice = rng.choice(pick)
        damage_ids.append(choice)
        dmg[choice] += 1
        if dmg[choice] >= health[choice]:
            alive.remove(choice)
    return damage_ids + rout_ids


@settings(max_examples=300, deadline=None)
@given(st.lists(damage_unit, min_size=1, max_size=8), st.integers(0, 12), st.integers(0, 6), st.integers(0, 10**6))
def test_damage_never_destroys_more_than_the_damage_allows(raw, damage, routs, seed):
    pos, us = damage_position(raw, damage, routs)
    proposal = simulate(us, damage, routs, random.Random(seed))
    ruling = resolve({**pos, "proposed": proposal})
    assert ruling.legal, ruling.outcome
    out = ruling.outcome
    by_id = {u["id"]: u for u in us}
    assert len(out["destroyed"]) <= damage
    assert sum(by_id[i]["health"] - by_id[i]["damage"] for i in out["destroyed"]) <= damage
    assert len(out["routed"]) <= routs
    assert not set(out["routed"]) & {u["id"] for u in us if u["routed"]}
    forced = resolve(pos)
    assert forced.legal
    assert len(forced.outcome["destroyed"]) <= damage
    assert set(forced.outcome["destroyed"]) <= set(by_id)
    if not forced.decisions:
        assert set(forced.outcome["destroyed"]) == set(out["destroyed"])
        assert set(forced.outcome["routed"]) == set(out["routed"])


@settings(max_examples=200, deadline=None)
@given(st.lists(damage_unit, min_size=2, max_size=6), st.integers(1, 8), st.integers(0, 10**6))
def test_a_point_the_rules_forbid_makes_the_proposal_illegal(raw, damage, seed):
    pos, us = damage_position(raw, damage, 0)
    rng = random.Random(seed)
    proposal = simulate(us, damage, 0, rng)
    if not proposal:
        return
    k = rng.randrange(len(proposal))
    legal_prefix = proposal[:k]
    allowed = set(simulate_candidates(us, legal_prefix))
    wrong = [u["id"] for u in us if u["id"] not in allowed]
    if not wrong:
        return
    bad = [*legal_prefix, rng.choice(wrong), *proposal[k + 1:]]
    assert not resolve({**pos, "proposed": bad}).legal


def simulate_candidates(us: list[dict[str, Any]], prefix: list[str]) -> list[str]:
    """Return the units the next damage point may go to after the prefix."""
    dmg = {u["id"]: u["damage"] for u in us}
    alive = [u["id"] for u in us]
    for i in prefix:
        dmg[i] += 1
        if dmg[i] >= next(u["health"] for u in us if u["id"] == i):
            alive.remove(i)
    damaged = [i for i in alive if dmg[i] > 0]
    return damaged or [i for i in alive if not next(u["routed"] for u in us if u["id"] == i)] or alive


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10), st.lists(st.tuples(st.integers(0, 12), st.integers(0, 4), st.integers(0, 3)), max_size=8))
def test_winter_destroys_exactly_the_units_beyond_food(food, rows):
    areas = [{"area": f"a{i}", "units": n, "allied_neutral": al, "heroes": h} for i, (n, al, h) in enumerate(rows)]
    out = resolve({"game": "runewars", "situation": "winter", "food": food, "areas": areas}).outcome
    for a in areas:
        assert out["destroy"][a["area"]] == max(0, a["units"] + a["allied_neutral"] - food) >= 0


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 8), st.lists(st.integers(1, 8), max_size=3, unique=True))
def test_supremacy_only_for_the_highest_card(order, earlier):
    earlier = [o for o in earlier if o != order]
    ruling = resolve({"game": "runewars", "situation": "supremacy", "order": order, "orders_in_play": earlier})
    assert ruling.legal
    assert ruling.outcome["supremacy_bonus"] == (order != 8 and all(o < order for o in earlier))


FACTIONS = ("daqan", "elves", "uthuk", "waiqar")


@settings(max_examples=200, deadline=None)
@given(st.permutations(FACTIONS), st.lists(st.tuples(st.integers(1, 8), st.integers(0, 6), st.integers(1, 4)),
                                           min_size=4, max_size=4))
def test_play_order_is_sorted_by_card_then_influence_then_starting_influence(factions, rows):
    players = [{"faction": f, "order": o, "influence": i, "starting_influence": s}
               for f, (o, i, s) in zip(factions, rows, strict=True)]
    order = resolve({"game": "runewars", "situation": "play_order", "players": players}).outcome["order"]
    assert sorted(order) == sorted(factions)
    keys = {p["faction"]: (p["order"], -p["influence"], -p["starting_influence"]) for p in players}
    assert [keys[f] for f in order] == sorted(keys.values())


@settings(max_examples=200, deadline=None)
@given(st.permutations(FACTIONS), st.lists(st.tuples(st.integers(0, 8), st.integers(0, 6), st.integers(1, 4)),
                                           min_size=4, max_size=4))
def test_the_winner_has_the_most_dragon_runes(factions, rows):
    players = [{"faction": f, "dragon_runes": r, "influence": i, "starting_influence": s}
               for f, (r, i, s) in zip(factions, rows, strict=True)]
    out = resolve({"game": "runewars", "situation": "game_end", "players": players}).outcome
    best = max((p["dragon_runes"], p["influence"], p["starting_influence"]) for p in players)
    winners = [p["faction"] for p in players if (p["dragon_runes"], p["influence"], p["starting_influence"]) == best]
    assert out["winner"] == (winners[0] if len(winners) == 1 else None)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 9), st.dictionaries(st.integers(0, 9).map(str), st.one_of(st.none(), st.sampled_from(
    ["Footman", "Knight", "Bowman"])), min_size=1))
def test_recruit_gives_one_unit_per_unit_space_at_or_below_the_arrow(position, spaces):
    out = resolve({"game": "runewars", "situation": "recruit",
                   "dial": {"resource": "wood", "position": position, "spaces": spaces}}).outcome
    assert out["units"] == [spaces[k] for k in sorted(spaces, key=int) if int(k) <= position and spaces[k]]


KINDS = ("plain", "plain", "plain", "mountain", "water")


@st.composite
def boards(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(3, 14))
    ids = [f"a{i}" for i in range(n)]
    owners = draw(st.lists(st.sampled_from(["elves", "elves", None, None, "uthuk"]), min_size=n, max_size=n))
    neutral = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    areas = [{"id": a, "controller": o, "neutral_units": (nu if o is None else 0),
              "enemy_units": 1 if o == "uthuk" else 0} for a, o, nu in zip(ids, owners, neutral, strict=True)]
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from(KINDS)),
                          max_size=3 * n))
    seen: set[frozenset[int]] = set()
    borders = []
    for a, b, k in pairs:
        if a != b and frozenset((a, b)) not in seen:
            seen.add(frozenset((a, b)))
            borders.append([ids[a], ids[b], k])
    movers = [{"id": f"m{i}", "from": draw(st.sampled_from(ids)), "fast": draw(st.booleans()),
               "flying": draw(st.booleans()), "hero": draw(st.booleans())} for i in range(draw(st.integers(1, 5)))]
    return {"game": "runewars", "situation": "mobilize", "season": draw(st.sampled_from(["summer", "winter"])),
            "player": "elves", "target_area": draw(st.sampled_from(ids)), "map": {"areas": areas, "borders": borders},
            "movers": movers}


@settings(max_examples=200, deadline=None)
@given(boards())
def test_mobilize_paths_are_short_legal_and_shortest(pos):
    out = resolve(pos).outcome
    graph = nx.Graph()
    graph.add_nodes_from(a["id"] for a in pos["map"]["areas"])
    for a, b, k in pos["map"]["borders"]:
        graph.add_edge(a, b, kind=k)
    areas = {a["id"]: a for a in pos["map"]["areas"]}
    for m in pos["movers"]:
        entry = out["movers"][m["id"]]
        reach = 3 if m["fast"] else 2
        path = entry["path"]
        if not entry["can_move"]:
            assert path is None
            continue
        assert path[0] == m["from"] and path[-1] == pos["target_area"]
        assert 1 <= len(path) - 1 <= reach
        for a, b in pairwise(path):
            kind = graph[a][b]["kind"]
            assert kind == "plain" or m["flying"] or (kind == "water" and pos["season"] == "winter")
        for a in path[1:-1]:
            area = areas[a]
            assert m["hero"] or (area["enemy_units"] == 0 and (area["controller"] == "elves" or
                                                                 (area["controller"] is None and
                                                                  area["neutral_units"] == 0)))
        assert len(path) - 1 >= nx.shortest_path_length(graph, m["from"], pos["target_area"])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 90) | st.sampled_from(["A", "B", "plain", "water", "elves", "x" * 81]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "controller", "neutral_units", "enemy_units", "activation_tokens", "units", "name",
                         "other"]), inner, max_size=5),
    max_leaves=12)


def _published_item(kind: str) -> Any:
    from jsonschema import Draft202012Validator

    from engine.core import load_situations

    schema = load_situations()[("runewars", "mobilize")].schema
    return Draft202012Validator(schema["properties"]["map"]["properties"][kind]["items"])


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_the_typed_map_agrees_with_its_published_schema(value):
    from engine.errors import UnreadableInputError

    for kind in ("areas", "borders"):
        areas = [{"id": "A"}, {"id": "B"}]
        borders: list[Any] = []
        if kind == "areas":
            areas.append(value)
        else:
            borders.append(value)
        pos = {"game": "runewars", "situation": "mobilize", "player": "elves", "target_area": "A", "movers": [],
               "map": {"areas": areas, "borders": borders}}
        # a field the player may leave out reads null as "left out" (engine.model.maybe), while the published
        # schema shows it without null: compare the published schema with the null fields left out
        published = {k: v for k, v in value.items() if v is not None} if isinstance(value, dict) else value
        published_ok = _published_item(kind).is_valid(published)
        try:
            resolve(pos)
        except UnreadableInputError as err:
            # the published schema cannot say "an area of this map", "a distinct id" or "not itself"
            assert not published_ok or kind == "borders" or err.path.endswith(".id"), (kind, value, err)
            assert err.path.startswith(f"map.{kind}[")
        else:
            assert published_ok, (kind, value)


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({"id": st.sampled_from(["A", "B"]), "controller": st.sampled_from(
    ["elves", None, "ogres", 3]), "neutral_units": st.integers(-1, 2), "activation_tokens": st.lists(
    st.sampled_from(["elves", "x"]), max_size=2)}))
def test_a_wrong_area_is_reported_with_the_path_the_schema_gives(area):
    from engine.errors import UnreadableInputError

    pos = {"game": "runewars", "situation": "mobilize", "player": "elves", "target_area": "A", "movers": [],
           "map": {"areas": [{"id": "A"}, area], "borders": []}}
    if _published_item("areas").is_valid(area):
        return
    try:
        resolve(pos)
    except UnreadableInputError as err:
        assert err.path.startswith("map.areas[1]")
    else:
        raise AssertionError("a wrong area was accepted")
