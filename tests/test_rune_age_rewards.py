"""Rune Age Reward cards (p. 9, FAQ General Q12): what a resource Reward produces and loses, that an exhausted one
gives nothing more, and where a destroyed one goes, as properties over every amount, pool and cost."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve


def _ruling(**fields: object) -> dict[str, object]:
    position = {"game": "rune-age", "situation": "reward_card", "player": "Elves", **fields}
    return resolve(position).to_json()


@settings(deadline=None, max_examples=60)
@given(gives=st.sampled_from(["gold", "influence"]), amount=st.integers(1, 10), pooled=st.integers(0, 60),
       cost=st.integers(0, 99))
def test_pooled_resource_pays_whole_and_the_rest_is_lost(gives: str, amount: int, pooled: int, cost: int) -> None:
    """Exhausted, a Reward adds its number to the pool; a cost above the pool is illegal, the rest is lost."""
    ruling = _ruling(reward={"name": "Relic", "gives": gives, "amount": amount}, use="exhaust", pooled=pooled,
                     cost=cost)
    out = ruling["outcome"]
    assert isinstance(out, dict)
    assert out["produced"] == amount + pooled and out["resource"] == gives
    assert ruling["legal"] is (cost <= amount + pooled)
    if ruling["legal"]:
        assert out["lost"] == amount + pooled - cost


@settings(deadline=None, max_examples=30)
@given(gives=st.sampled_from(["gold", "influence"]), amount=st.integers(1, 10),
       spending=st.sampled_from(["spend_gold", "spend_influence", "discard_hand", "ability_cost"]))
def test_exhausted_reward_gives_nothing_and_gold_pays_only_gold(gives: str, amount: int, spending: str) -> None:
    """An exhausted Reward cannot be exhausted again; a ready one pays only where its resource is spent."""
    card = {"name": "Relic", "gives": gives, "amount": amount}
    assert _ruling(reward={**card, "exhausted": True}, use="exhaust", spending=spending)["legal"] is False
    fits = (spending == "spend_gold") is (gives == "gold")
    assert _ruling(reward=card, use="exhaust", spending=spending)["legal"] is fits


@settings(deadline=None, max_examples=20)
@given(came_from=st.sampled_from(["event_deck", "other"]), strength=st.none() | st.integers(0, 50))
def test_destroyed_goes_by_origin_and_never_counts(came_from: str, strength: int | None) -> None:
    """A destroyed Event-deck Reward goes to the Event discard pile; no Reward adds strength anywhere."""
    card = {"name": "Relic", "came_from": came_from, "gives": "text", "strength": strength}
    place = _ruling(reward=card, use="destroyed")["outcome"]
    assert isinstance(place, dict)
    assert place["placed"] == ("event_discard" if came_from == "event_deck" else "place_of_origin")
    for use in ("army", "monument_tie"):
        out = _ruling(reward=card, use=use)["outcome"]
        assert isinstance(out, dict) and out["counts"] == 0
