"""Runeslingers situations added in 0.2 (pay_cost, boons, keyword, trigger_order, end_of_turn) and damage already
on a defense card this turn: properties of their arithmetic, unreadable positions, and form-ready schemas."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import load_situations, resolve
from engine.errors import UnreadableInputError
from engine.runeslingers.fields import keyword_parts

AILMENTS = ("burn", "debilitate", "curse", "fragment", "weaken", "insanity")
PROPS = settings(max_examples=120, deadline=None)
NEW = ("pay_cost", "boons", "keyword", "trigger_order", "end_of_turn")


def pos(situation: str, **fields: Any) -> dict[str, Any]:
    return {"game": "runeslingers", "situation": situation, **fields}


# ------------------------------------------------------------------------------------------ pay_cost

@st.composite
def payments(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(0, 6))
    concs = [{"id": f"c{i}", "exposed": draw(st.booleans()), "ready": draw(st.booleans())} for i in range(n)]
    use = draw(st.lists(st.sampled_from([f"c{i}" for i in range(n)] + ["other"]), max_size=6)) if n else []
    return pos("pay_cost", player="Emily",
               card={"name": "Illustrative spell", "type": "trinket", "light_cost": draw(st.integers(0, 8))},
               concentrations=concs, use=use, light_pool=draw(st.integers(0, 4)),
               place_on={"kind": "utility_slot", "field": "own"})


@PROPS
@given(payments())
def test_pay_cost_light_arithmetic(p: dict[str, Any]) -> None:
    ruling = resolve(p)
    out = ruling.outcome
    mine = {c["id"]: c for c in p["concentrations"]}
    good = [u for i, u in enumerate(p["use"]) if u in mine and mine[u]["exposed"] and mine[u]["ready"]
            and u not in p["use"][:i]]
    available = p["light_pool"] + len(good)
    cost = p["card"]["light_cost"]
    assert out["light_available"] == available
    assert out["light_short"] == max(0, cost - available)
    assert ruling.legal == (len(good) == len(p["use"]) and available >= cost)
    if ruling.legal:
        assert out["light_created"] == len(p["use"]) and out["used"] == p["use"]
        assert out["light_spent"] == cost
        assert out["light_left"] == p["light_pool"] + out["light_created"] - cost >= 0
    else:
        assert out["light_spent"] == 0 and out["used"] == [] and out["light_left"] == p["light_pool"]


@PROPS
@given(st.lists(st.booleans(), max_size=4), st.booleans())
def test_pay_cost_needs_every_target_unless_fate_or_choice(valid: list[bool], fate: bool) -> None:
    p = pos("pay_cost", player="Emily",
            card={"name": "X", "type": "runespell", "light_cost": 0, "keywords": ["fate"] if fate else []},
            concentrations=[{"id": "c1", "exposed": True, "ready": True}], use=[],
            place_on={"kind": "concentration", "id": "c1", "field": "own"},
            targeting_effects=[{"valid_target": v} for v in valid])
    assert resolve(p).legal == (fate or all(valid))


# ------------------------------------------------------------------------------------------ boons

@PROPS
@given(st.sampled_from(["Emily", "Sam"]), st.sampled_from(["Emily", "Sam"]), st.booleans(),
       st.dictionaries(st.sampled_from(AILMENTS), st.integers(0, 9), max_size=2))
def test_destroyed_boon_penalty_and_discard(owner: str, controller: str, has_penalty: bool,
                                            conceals: dict[str, int]) -> None:
    out = resolve(pos("boons", action="destroy", boon={
        "name": "B", "owner": owner, "controller": controller, "conceals": conceals,
        "if_destroyed_not_owned": "lose 9 health" if has_penalty else None})).outcome
    assert out["penalty_to"] == (controller if has_penalty and owner != controller else None)
    assert out["discard_to"] == {"B": owner}
    assert out["exposed"] == {k: v for k, v in conceals.items() if v} and out["concealed"] == {}
    assert out["effects_apply_to"] == controller


@PROPS
@given(st.sampled_from(["Emily", "Sam"]), st.sampled_from(AILMENTS), st.integers(1, 9))
def test_replacing_a_boon_never_exposes(field: str, ailment: str, n: int) -> None:
    out = resolve(pos("boons", action="play", player="Emily", boon={"name": "New"},
                      on={"kind": "boon", "field": field,
                          "boon": {"name": "Old", "owner": "Sam", "conceals": {ailment: n}}})).outcome
    assert out["concealed"] == {ailment: n} and out["exposed"] == {}
    assert out["replaced"] == "Old" and out["discard_to"] == {"Old": "Sam"}
    assert out["controller"] == out["effects_apply_to"] == field and out["owner"] == "Emily"


# ------------------------------------------------------------------------------------------ keyword

KEYWORD = st.sampled_from(["fate", "choice", "shout", "pierce", "quick", "use", "charge", "token 1", "token 3",
                           "distract"])


@PROPS
@given(st.lists(KEYWORD, max_size=3, unique=True), st.lists(KEYWORD, max_size=5))
def test_keyword_order_printed_then_added(printed: list[str], added: list[str]) -> None:
    p = pos("keyword", action="leave_field", player="Emily",
            card={"name": "X", "keywords": printed, "added_keywords": added})
    order = resolve(p).outcome["keyword_order"]
    assert order[:len(printed)] == printed
    assert order == list(dict.fromkeys([*printed, *added]))


@PROPS
@given(st.integers(0, 20), st.booleans(), st.booleans())
def test_charge_adds_one_token(tokens: int, charged: bool, own_phase: bool) -> None:
    ruling = resolve(pos("keyword", action="charge", player="Emily", card={"name": "X", "keywords": ["charge"]},
                         tokens=tokens, charged_this_turn=charged, own_play_phase=own_phase))
    assert ruling.legal == (own_phase and not charged)
    assert ruling.outcome["tokens"] == tokens + (1 if ruling.legal else 0)


@PROPS
@given(st.integers(1, 5), st.dictionaries(st.sampled_from(AILMENTS), st.integers(1, 6), min_size=1, max_size=3))
def test_ail_x_paid_with_exactly_x_of_one_type(x: int, paid: dict[str, int]) -> None:
    ruling = resolve(pos("keyword", action="play", player="Emily", card={"name": "X", "keywords": [f"ail {x}"]},
                         ail_paid=paid))
    assert ruling.legal == (len(paid) == 1 and next(iter(paid.values())) == x)
    assert ruling.outcome["ailments_applied"] == (paid if ruling.legal else {})


@PROPS
@given(st.lists(st.booleans(), min_size=1, max_size=6), st.sampled_from(["fate", "choice"]))
def test_selectable_bullets_are_those_with_a_target(valid: list[bool], word: str) -> None:
    ruling = resolve(pos("keyword", action="play", player="Emily", target_enemy="Sam",
                         card={"name": "X", "keywords": [word]},
                         bullets=[{"valid_target": v} for v in valid], chosen_bullet=None))
    selectable = [i + 1 for i, v in enumerate(valid) if v]
    assert ruling.outcome["selectable"] == selectable
    assert ruling.outcome["chooser"] == ("Sam" if word == "fate" else "Emily")
    assert ruling.legal == bool(selectable)
    if selectable:
        assert [d.options for d in ruling.decisions] == [tuple(selectable)]


# ------------------------------------------------------------------------------------------ trigger_order

@PROPS
@given(st.lists(st.sampled_from(["Emily", "Sam", "Ana"]), max_size=8), st.sampled_from(["Emily", "Sam"]))
def test_trigger_order_active_player_first(controllers: list[str], active: str) -> None:
    triggers = [{"id": f"t{i}", "controller": c} for i, c in enumerate(controllers)]
    out = resolve(pos("trigger_order", active_player=active, triggers=triggers)).outcome
    by_id = {t["id"]: t["controller"] for t in triggers}
    assert sorted(out["order"]) == sorted(by_id)
    mine = [t["id"] for t in triggers if t["controller"] == active]
    assert out["order"][:len(mine)] == mine
    for c in set(controllers):  # each player's own list order is kept
        assert [i for i in out["order"] if by_id[i] == c] == [t["id"] for t in triggers if t["controller"] == c]
    assert out["uses_ladder"] is False


@PROPS
@given(st.lists(st.tuples(st.sampled_from(AILMENTS), st.integers(1, 6), st.booleans()), min_size=1, max_size=4),
       st.booleans())
def test_each_instance_triggers_once(applied: list[tuple[str, int, bool]], by_text: bool) -> None:
    out = resolve(pos("trigger_order", active_player="Emily", triggers=[], ailments={
        "ordered_by_text": by_text,
        "applied": [{"ailment": a, "instances": n, "on_apply": f} for a, n, f in applied]})).outcome
    assert out["instance_triggers"] == [a for a, n, f in applied if f for _ in range(n)]
    assert out["ailment_order_chosen_by"] == ("text" if by_text else "Emily")


# ------------------------------------------------------------------------------------------ end_of_turn

@st.composite
def effects(draw: st.DrawFn) -> list[dict[str, Any]]:
    n = draw(st.integers(0, 6))
    return [{"id": f"e{i}", "source": draw(st.sampled_from(["runeslinger_ability", "stance", "card"])),
             "duration": draw(st.sampled_from(["this_turn", "until_end_of_next_turn", "while_source_in_play"])),
             "started": draw(st.sampled_from(["this_turn", "previous_turn"])),
             "source_in_play": draw(st.booleans())} for i in range(n)]


@PROPS
@given(effects(), st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=4),
       st.lists(st.integers(0, 9), max_size=4), st.dictionaries(st.sampled_from(["Emily", "Sam"]), st.integers(0, 5)))
def test_end_of_turn_resets(effs: list[dict[str, Any]], damage: list[tuple[int, int]], barriers: list[int],
                            light: dict[str, int]) -> None:
    cards = [{"name": f"d{i}", "defense": d, "max_defense": d + extra + 1} for i, (d, extra) in enumerate(damage)]
    out = resolve(pos("end_of_turn", active_player="Emily", player_to_left="Sam", effects=effs,
                      defense_cards=cards, light_unspent=light,
                      block_barriers=[{"on": "Emily", "value": v} for v in barriers])).outcome
    assert out["defense"] == {c["name"]: c["max_defense"] for c in cards}
    assert out["barriers_removed"] == len(barriers) and out["light_removed"] == light
    assert sorted(out["effects_ended"] + out["effects_continue"]) == sorted(e["id"] for e in effs)
    for e in effs:
        lasting = (e["duration"] == "until_end_of_next_turn" and e["started"] == "this_turn") or \
            (e["duration"] == "while_source_in_play" and e["source_in_play"])
        assert (e["id"] in out["effects_continue"]) == lasting
    assert out["next_active"] == "Sam"


# ------------------------------------------------------------------------------------------ damage this turn

@PROPS
@given(st.integers(1, 20), st.integers(0, 19), st.integers(0, 25))
def test_defense_card_damage_adds_up_within_a_turn(defense: int, earlier: int, amount: int) -> None:
    earlier = min(earlier, defense - 1)
    out = resolve(pos("damage", target={"kind": "defense_card", "defense": defense, "damage_this_turn": earlier},
                      amount=amount, damage_type="basic", block={"declared": False})).outcome
    assert out["destroyed"] == (earlier + amount >= defense)
    assert out["defense"] == max(0, defense - earlier - amount)
    assert out["damage_this_turn"] == min(defense, earlier + amount)


# ------------------------------------------------------------------------------------------ unreadable positions

C1 = {"id": "c1", "exposed": True, "ready": True}
UNREADABLE = [
    (pos("pay_cost", player="E", card={"name": "X", "type": "runespell", "light_cost": 0}, concentrations=[C1, C1],
         use=[], place_on={"kind": "concentration", "id": "c1", "field": "own"}), "concentrations[1].id"),
    (pos("pay_cost", player="E", card={"name": "X", "type": "runespell", "light_cost": 0}, concentrations=[C1],
         use=[], place_on={"kind": "concentration", "field": "own"}), "place_on.id"),
    (pos("boons", action="play", player="E", boon={"name": "B"},
         on={"kind": "ailment", "ailments": {"burn": 1, "curse": 2}}), "on.ailments"),
    (pos("boons", action="play", player="E", boon={"name": "B", "controller": "S"}, on={"kind": "ailment"}),
     "boon.controller"),
    (pos("boons", action="play", player="E", boon={"name": "B"},
         on={"kind": "boon", "field": "E", "boon": {"name": "O", "owner": "S", "controller": "S"}}),
     "on.boon.controller"),
    (pos("boons", action="destroy", boon={"name": "B", "owner": "E"}), "boon.controller"),
    (pos("keyword", action="play", player="E", card={"name": "X", "keywords": ["Fate", "fate"]},
         bullets=[{"valid_target": True}]), "card.keywords"),
    (pos("keyword", action="play", player="E", card={"name": "X", "keywords": ["token"]}), "card.keywords[0]"),
    (pos("keyword", action="leave_field", player="E", card={"name": "X", "keywords": ["counter"]}),
     "card.keywords[0]"),
    (pos("keyword", action="leave_field", player="E", card={"name": "X", "added_keywords": ["fate", "ward"]}),
     "card.added_keywords[1]"),
    (pos("pay_cost", player="E", light_pool=1, card={"name": "X", "type": "runespell", "light_cost": 0,
                                                      "keywords": ["distrct"]}), "card.keywords[0]"),
    (pos("keyword", action="play", player="E", card={"name": "X", "keywords": ["choice"]}), "bullets"),
    (pos("keyword", action="charge", player="E", card={"name": "X", "keywords": ["charge"]}), "own_play_phase"),
    (pos("trigger_order", active_player="E", triggers=[{"id": "t", "controller": "E"},
                                                        {"id": "t", "controller": "S"}]), "triggers[1].id"),
    (pos("end_of_turn", active_player="E", player_to_left="S",
         defense_cards=[{"name": "D", "defense": 5, "max_defense": 4}]), "defense_cards[0].defense"),
    (pos("end_of_turn", active_player="E", player_to_left="S",
         defense_cards=[{"name": "D", "defense": 1, "max_defense": 4}, {"name": "D", "defense": 4,
                                                                          "max_defense": 4}]), "defense_cards[1].name"),
    (pos("damage", target={"kind": "defense_card", "defense": 4, "damage_this_turn": 4}, amount=1,
         damage_type="basic"), "target.damage_this_turn"),
]


@pytest.mark.parametrize(("position", "path"), UNREADABLE, ids=[p for _, p in UNREADABLE])
def test_unreadable_positions_name_their_path(position: dict[str, Any], path: str) -> None:
    with pytest.raises(UnreadableInputError) as err:
        resolve(position)
    assert err.value.path == path
    assert err.value.message == err.value.message.lower() or err.value.message[0].islower()


def test_keyword_parts_rejects_a_non_keyword() -> None:
    assert keyword_parts("ail 2") == ("ail", 2) and keyword_parts("fate") == ("fate", None)
    with pytest.raises(UnreadableInputError):
        keyword_parts("two words")


# ------------------------------------------------------------------------------------------ board forms

def _fields(schema: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name, sub in schema.get("properties", {}).items():
        if name in ("game", "situation"):
            continue
        out.append((f"{path}{name}", sub))
        out.extend(_fields(sub, f"{path}{name}."))
        items = sub.get("items")
        if isinstance(items, dict):
            out.extend(_fields(items, f"{path}{name}[]."))
    return out


@pytest.mark.parametrize("name", NEW)
def test_new_situation_schemas_label_every_field_and_cap_arrays(name: str) -> None:
    schema = load_situations()[("runeslingers", name)].schema
    fields = _fields(dict(schema))
    assert fields
    for path, sub in fields:
        # the typed models publish no title that only repeats a one-word key ("Player" for player): the board
        # humanizes such a key to the same label; every other field carries its own title
        key = path.rsplit(".", 1)[-1]
        assert "title" in sub or key.isalpha(), f"{name}: {path} has no title"
        if sub.get("type") == "array":
            assert "maxItems" in sub, f"{name}: {path} has no maxItems"
