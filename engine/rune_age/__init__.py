"""Rune Age: battle, siege, spending gold, Monument victory and the Event phase."""

from __future__ import annotations

from engine.rune_age import (
    abilities,
    battle,
    dragon_runes,
    elimination,
    events,
    gold,
    influence,
    instants,
    marauders,
    monument,
    monument_events,
    rewards,
    siege,
    siege_turns,
    wounds,
)

SITUATIONS = (
    abilities.resolve_ability_limits,
    battle.resolve_battle,
    dragon_runes.resolve_dragon_runes,
    elimination.resolve_elimination,
    events.resolve_event_phase,
    gold.resolve_spend_gold,
    influence.resolve_spend_influence,
    instants.resolve_instant_attack,
    instants.resolve_barbarian_invasion,
    marauders.resolve_marauders,
    monument.resolve_monument,
    monument_events.resolve_monument_event,
    rewards.resolve_reward_card,
    siege.resolve_siege,
    siege_turns.resolve_siege_turns,
    wounds.resolve_combat_wounds,
)
"""The situations of this game the engine resolves (its registry; see :mod:`engine.situations`)."""
