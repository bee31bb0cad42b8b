"""Runeslingers: damage and blocking, ailments, drawing, the ladder, conflicting effects and decks."""

from __future__ import annotations

from engine.runeslingers import (
    abilities,
    ailment_changes,
    ailment_levels,
    ailments,
    boons,
    conflict,
    costs,
    damage,
    deck,
    deck_effects,
    draft,
    draw,
    end_of_turn,
    keywords,
    ladder,
    leave_field,
    seating,
    triggers,
)

SITUATIONS = (
    abilities.resolve_activate_ability,
    ailment_changes.resolve_convert_ailments,
    ailment_levels.resolve_ailment_levels,
    ailments.resolve_ailment_phase,
    ailments.resolve_apply_ailments,
    boons.resolve_boons,
    conflict.resolve_conflict,
    costs.resolve_pay_cost,
    damage.resolve_damage,
    deck.resolve_deck,
    deck_effects.resolve_deck_effect,
    draft.resolve_draft,
    draw.resolve_draw,
    draw.resolve_discard_from_hand,
    end_of_turn.resolve_end_of_turn,
    keywords.resolve_keyword,
    ladder.resolve_ladder,
    leave_field.resolve_leave_field,
    seating.resolve_seating,
    triggers.resolve_trigger_order,
)
"""The situations of this game the engine resolves (its registry; see :mod:`engine.situations`)."""
