"""Runewars (Revised Edition): battles, damage and routs, play order, Supremacy Bonus, winter, movement,
recruiting, combat rounds, retreats, diplomacy, duels, bids and the end of the game, one module per topic."""

from __future__ import annotations

from engine.runewars import (
    allies,
    battle,
    combat_round,
    damage,
    diplomacy,
    duels,
    elimination,
    game_end,
    heroes,
    influence,
    movement,
    play_order,
    rally,
    recruit,
    retreat,
    supremacy,
    tactics,
    titles,
    victory,
    winter,
)

SITUATIONS = (
    allies.resolve_allied_units,
    battle.resolve_battle,
    combat_round.resolve_combat_round,
    damage.resolve_assign_damage,
    diplomacy.resolve_diplomacy,
    duels.resolve_duel,
    elimination.resolve_destroy_own,
    elimination.resolve_elimination,
    game_end.resolve_game_end,
    heroes.resolve_heroes,
    influence.resolve_influence_bid,
    movement.resolve_mobilize,
    play_order.resolve_play_order,
    rally.resolve_rally_support,
    titles.resolve_acquire_power,
    recruit.resolve_recruit,
    retreat.resolve_retreat,
    supremacy.resolve_supremacy,
    tactics.resolve_tactics_card,
    victory.resolve_victory_card,
    winter.resolve_winter,
)
"""The situations of this game the engine resolves (its registry; see :mod:`engine.situations`)."""
