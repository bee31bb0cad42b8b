"""Runewars allied units, Acquire Power, Rally Support and Tactics cards, as properties over every position."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve


@settings(max_examples=60, deadline=None)
@given(influence=st.integers(0, 20), icons=st.integers(0, 12), on=st.integers(0, 15), spend=st.integers(0, 40))
def test_a_title_card_goes_to_whoever_spends_more_than_it_carries(influence: int, icons: int, on: int,
                                                                   spend: int) -> None:
    """The dials give one influence per icon; a spend above the card's influence and within his means takes it,
    and his influence falls by exactly what he spent."""
    r = resolve({"game": "runewars", "situation": "acquire_power", "player": "uthuk", "influence": influence,
                 "icons": icons, "supremacy": True, "title": "Captain of the Heroes' League", "holder": "daqan",
                 "on_title": on, "spend": spend}).to_json()
    out = r["outcome"]
    assert out["gained"] == icons
    held = influence + icons
    if held <= on or spend == 0:
        assert r["legal"] and out["title_taken"] is False and out["influence_after"] == held
    elif spend > held or spend <= on:
        assert not r["legal"]
    else:
        assert r["legal"] and out["title_taken"] and out["influence_after"] == held - spend
        assert out["on_title_after"] == spend and out["returned"] == on


@settings(max_examples=60, deadline=None)
@given(tactics=st.integers(0, 10), quests=st.integers(0, 3), t=st.integers(1, 6), q=st.integers(1, 6),
       i=st.integers(1, 6))
def test_rally_support_hands_stay_within_their_limits(tactics: int, quests: int, t: int, q: int, i: int) -> None:
    """Whatever the cities give, he ends with at most 10 Tactics and 3 Quest cards, discarding exactly the
    excess, and gains every influence the city shows."""
    r = resolve({"game": "runewars", "situation": "rally_support", "player": "elves", "tactics": tactics,
                 "quests": quests, "cities": [{"area": "1A", "benefit": "tactics", "amount": t},
                                              {"area": "1B", "benefit": "quests", "amount": q},
                                              {"area": "1C", "benefit": "influence", "amount": i}]}).to_json()
    out = r["outcome"]
    assert out["tactics_after"] == min(10, tactics + t) and out["discard_tactics"] == max(0, tactics + t - 10)
    assert out["quests_after"] == min(3, quests + q) and out["discard_quests"] == max(0, quests + q - 3)
    assert out["influence_after"] == i


@settings(max_examples=60, deadline=None)
@given(own=st.integers(0, 3), stronghold=st.booleans(), realm=st.sampled_from(["his", "other", "none"]),
       enemy=st.booleans(), battle=st.booleans())
def test_allies_stay_only_where_he_controls_or_a_battle_rages(own: int, stronghold: bool, realm: str, enemy: bool,
                                                              battle: bool) -> None:
    """Allies standing in an area stay allied exactly when he controls it, or while a battle is fought there."""
    r = resolve({"game": "runewars", "situation": "allied_units", "player": "daqan", "event": "check",
                 "here": {"name": "4A", "own_units": own, "stronghold": stronghold, "realm": realm, "enemy": enemy},
                 "in_battle": battle}).to_json()
    controls = own > 0 or stronghold or (realm == "his" and not enemy)
    assert (r["outcome"]["allied_with"] == "daqan") == (controls or battle)


@settings(max_examples=40, deadline=None)
@given(hand=st.integers(1, 10), draws=st.integers(0, 12), ok=st.booleans())
def test_tactics_hand_never_passes_ten(hand: int, draws: int, ok: bool) -> None:
    """After playing (or not) and drawing, he discards exactly what takes him over 10."""
    r = resolve({"game": "runewars", "situation": "tactics_card", "player": "waiqar", "own_turn": ok, "hand": hand,
                 "draws": draws}).to_json()
    after = hand - (1 if ok else 0) + draws
    assert r["outcome"]["may_play"] is ok
    assert r["outcome"]["discard"] == max(0, after - 10)
