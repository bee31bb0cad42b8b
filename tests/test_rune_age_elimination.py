"""Rune Age elimination (p. 14) and how it ends each scenario, as properties over every damage and player count."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve
from engine.rune_age.scenarios import SCENARIO_NAMES, scenario_end

SCENARIOS = st.sampled_from(sorted(SCENARIO_NAMES))
NAMES = ["Daqan", "Elves", "Uthuk", "Waiqar"]


@settings(deadline=None, max_examples=60)
@given(damage=st.integers(0, 99), scenario=SCENARIOS, others=st.integers(0, 3))
def test_out_at_twenty_and_cards_follow(damage: int, scenario: str, others: int) -> None:
    """A Home Realm with 20 damage or more puts its player out; under 20 he keeps everything."""
    ruling = resolve({"game": "rune-age", "situation": "elimination", "scenario": scenario, "player": "Elves",
                      "home_realm_damage": damage, "other_players": [n for n in NAMES if n != "Elves"][:others],
                      "gold_cards": [1, 2], "cities": ["Greyhaven"], "rewards": ["Relic"]}).to_json()
    out = ruling["outcome"]
    assert out["eliminated"] is (damage >= 20)
    if damage >= 20:
        assert out["to_gold_supply"] == [1, 2] and out["removed_from_game"] == ["Relic"]
        assert "Greyhaven" in out["to_central_play_area"]
        assert out["scenario_end"] == scenario_end(scenario, others)
    else:
        assert "scenario_end" not in out and out["to_central_play_area"] == []


@given(others=st.integers(0, 3))
def test_cataclysm_is_always_lost(others: int) -> None:
    """The Cataclysm (p. 16): any elimination loses the game for every player, however many are left."""
    assert scenario_end("the-cataclysm", others) == "all_players_lose"


@given(scenario=st.sampled_from(["runewars", "resurgence-of-the-dragonlords", "the-monument"]),
       others=st.integers(1, 3))
def test_only_runewars_ends_with_one_left(scenario: str, others: int) -> None:
    """Runewars (p. 15) ends when one player is left; the other scenarios play on after an elimination."""
    want = "last_player_wins" if scenario == "runewars" and others == 1 else "game_continues"
    assert scenario_end(scenario, others) == want
