"""Runeslingers: damage and blocking, ailments, drawing, the ladder, conflicting effects and decks."""

from __future__ import annotations

from engine.runeslingers import (
    ailments,
    boons,
    conflict,
    costs,
    damage,
    deck,
    draw,
    end_of_turn,
    keywords,
    ladder,
    triggers,
)

SITUATIONS = (
    ailments.resolve_ailment_phase,
    ailments.resolve_apply_ailments,
    boons.resolve_boons,
    conflict.resolve_conflict,
    costs.resolve_pay_cost,
    damage.resolve_damage,
    deck.resolve_deck,
    draw.resolve_draw,
    draw.resolve_discard_from_hand,
    end_of_turn.resolve_end_of_turn,
    keywords.resolve_keyword,
    ladder.resolve_ladder,
    triggers.resolve_trigger_order,
)
"""The situations of this game the engine resolves (its registry; see :mod:`engine.situations`)."""
