"""Runeslingers part 4, as properties: converting and removing ailments, effects on a deck, the draft's counts,
and the readings the new situations refuse (with the path of the offending value)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve
from engine.errors import UnreadableInputError
from engine.runeslingers.common import AILMENT_TYPES

FAST = settings(max_examples=60, deadline=None)
counts = st.dictionaries(st.sampled_from(AILMENT_TYPES), st.integers(1, 12), min_size=1, max_size=4)


def ruling(position: dict[str, Any]) -> dict[str, Any]:
    """Resolve a Runeslingers position and return the ruling as JSON."""
    return resolve({"game": "runeslingers", **position}).to_json()


@FAST
@given(exposed=counts, amount=st.integers(1, 20), data=st.data())
def test_a_conversion_changes_the_total_by_at_most_the_instances_removed(
        exposed: dict[str, int], amount: int, data: st.DataObject) -> None:
    """Converting takes one off and puts at most one on, each time: the total never rises, and falls by at most
    the instances removed (Ailments: Advanced Rules, converting)."""
    taken = data.draw(st.sampled_from(sorted(exposed)))
    to = data.draw(st.sampled_from([t for t in AILMENT_TYPES if t != taken]))
    out = ruling({"situation": "convert_ailments", "exposed": exposed, "change": "convert", "amount": amount,
                  "from_type": taken, "to_type": to})["outcome"]
    before, after = sum(exposed.values()), sum(out["exposed"].values())
    assert out["removed"] == min(amount, exposed[taken])
    assert out["applied"] + out["not_applied"] == out["removed"]
    assert before - out["removed"] <= after <= before
    assert len(out["exposed"]) <= 4


@FAST
@given(exposed=counts, amount=st.integers(1, 30), data=st.data())
def test_removing_never_goes_below_none(exposed: dict[str, int], amount: int, data: st.DataObject) -> None:
    """Removing takes off as many as asked, never more than there are (Ailments: Advanced Rules, removing)."""
    taken = data.draw(st.sampled_from(sorted(exposed)))
    out = ruling({"situation": "convert_ailments", "exposed": exposed, "change": "remove", "amount": amount,
                  "from_type": taken})["outcome"]
    assert out["removed"] == min(amount, exposed[taken])
    assert out["exposed"].get(taken, 0) == exposed[taken] - out["removed"] >= 0


@FAST
@given(effect=st.sampled_from(["sear", "void", "discard", "set", "place", "look"]), amount=st.integers(1, 40),
       deck=st.integers(0, 30), discard=st.integers(0, 30), void=st.integers(0, 20), power=st.integers(1, 6))
def test_deck_effects_conserve_cards(effect: str, amount: int, deck: int, discard: int, void: int,
                                     power: int) -> None:
    """Deck, discard pile, void pile and the cards taken elsewhere always add up to the cards there were (the
    bottomless deck moves cards, it never makes or loses one)."""
    out = ruling({"situation": "deck_effect", "effect": effect, "amount": amount, "deck": deck,
                  "discard": discard, "void": void, "power": power})["outcome"]
    elsewhere = out["taken"] if effect in ("set", "place") else 0
    assert out["deck"] + out["discard"] + out["void"] + elsewhere == deck + discard + void
    assert out["void"] >= void  # the void pile never shuffles back
    assert out["power"] + out["power_lost"] == power
    if effect == "look":
        assert (out["reshuffles"], out["power_lost"], out["looked_at"]) == (0, 0, min(amount, deck))


@FAST
@given(players=st.integers(4, 12), round_=st.sampled_from([1, 2]), pick=st.integers(1, 9))
def test_draft_pack_counts(players: int, round_: int, pick: int) -> None:
    """Every pick keeps 2 and the pack shrinks by 2: the cards in hand plus those kept this round make 18, and a
    player ends both rounds with 36 (Draft)."""
    out = ruling({"situation": "draft", "players": players, "round": round_, "pick": pick})["outcome"]
    assert out["cards_in_pack"] + out["kept_before_pick"] - (round_ - 1) * 18 == 18
    assert out["kept_after_pick"] - out["kept_before_pick"] == 2
    assert out["pass_direction"] == ("left" if round_ == 1 else "right")
    assert out["pool_size"] - out["cards_removed"] == out["deck_size"] == 30


@FAST
@given(players=st.integers(1, 3))
def test_too_few_players_cannot_draft(players: int) -> None:
    """Fewer than 4 players: no draft, and the ruling says why."""
    answer = ruling({"situation": "draft", "players": players})
    assert answer["legal"] is False and "at least 4" in answer["outcome"]["violations"][0]["message"]


@FAST
@given(names=st.lists(st.sampled_from(["Emily", "Sam", "Ana", "Leo"]), min_size=2, max_size=4, unique=True),
       data=st.data())
def test_seating_answer_and_next_turn_go_left(names: list[str], data: st.DataObject) -> None:
    """The answerable action goes to the player's left-hand enemy, and the turn passes to the active player's left
    (Card Play Steps, step 6; Discard Phase, step 5)."""
    active = data.draw(st.sampled_from(names))
    playing = data.draw(st.sampled_from(names))
    out = ruling({"situation": "seating", "players": names, "active_player": active,
                  "card_player": playing})["outcome"]
    assert out["next_active_player"] == names[(names.index(active) + 1) % len(names)]
    assert out["answerable_action_to"] == names[(names.index(playing) + 1) % len(names)] != playing


@pytest.mark.parametrize(("position", "path"), [
    ({"situation": "seating", "players": ["Emily", "Sam", "Emily"], "active_player": "Emily"}, "players[2]"),
    ({"situation": "seating", "players": ["Emily", "Sam"], "active_player": "Ana"}, "active_player"),
    ({"situation": "damage", "target": {"kind": "runeslinger", "health": 5, "max_health": 20, "power": 3},
      "amount": 2, "damage_type": "health_loss", "on_hit": [{"ailment": "burn", "instances": 1}]}, "on_hit"),
    ({"situation": "damage", "target": {"kind": "runeslinger", "health": 5, "max_health": 20, "power": 3},
      "amount": 2, "damage_type": "basic", "block": {"declared": False}, "block_triggers": [2]}, "block_triggers"),
    ({"situation": "leave_field", "owner": "Sam", "type": "trinket", "how": "destroyed",
      "triggers": [{"effect": "return_card_under_to_owner_hand"}]}, "triggers[0].effect"),
    ({"situation": "convert_ailments", "exposed": {"burn": 2}, "change": "convert", "amount": 1}, "to_type"),
])
def test_unreadable_positions_name_their_path(position: dict[str, Any], path: str) -> None:
    """A position the new situations cannot read is refused with the JSON path of the bad value (a 400)."""
    with pytest.raises(UnreadableInputError) as err:
        resolve({"game": "runeslingers", **position})
    assert err.value.path == path
