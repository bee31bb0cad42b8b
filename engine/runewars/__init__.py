"""Runewars (Revised Edition): battles, damage and routs, play order, Supremacy Bonus, winter, movement,
recruiting, combat rounds, retreats, diplomacy, duels, bids and the end of the game, one module per topic."""

from __future__ import annotations

from engine.runewars import (
    battle,
    combat_round,
    damage,
    diplomacy,
    dragon_runes,
    duels,
    fortify,
    game_end,
    harvest,
    influence,
    movement,
    play_order,
    quest,
    recruit,
    retreat,
    strategize,
    supremacy,
    victory,
    winter,
)

SITUATIONS = (
    battle.resolve_battle,
    combat_round.resolve_combat_round,
    damage.resolve_assign_damage,
    diplomacy.resolve_diplomacy,
    dragon_runes.resolve_dragon_rune,
    duels.resolve_duel,
    fortify.resolve_fortify,
    game_end.resolve_game_end,
    harvest.resolve_harvest,
    influence.resolve_influence_bid,
    movement.resolve_mobilize,
    play_order.resolve_play_order,
    quest.resolve_quest,
    recruit.resolve_recruit,
    retreat.resolve_retreat,
    strategize.resolve_strategize,
    supremacy.resolve_supremacy,
    victory.resolve_victory_card,
    winter.resolve_winter,
)
"""The situations of this game the engine resolves (its registry; see :mod:`engine.situations`)."""
