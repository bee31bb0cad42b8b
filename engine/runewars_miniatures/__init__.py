"""RuneWars Miniatures: attacks (threat, damage, wounds, morale), activation order, command tools, scoring,
army building and the table (contact, line of sight, range, squaring up), each step citing the Rules Reference."""

from __future__ import annotations

from engine.runewars_miniatures import (
    activation,
    army,
    attack,
    command,
    contact,
    deployment,
    engaged_shift,
    morale_test,
    movement,
    ranges,
    reform,
    scoring,
    sight,
    squaring,
    timing,
)

SITUATIONS = (
    activation.resolve_activation_order,
    army.resolve_army,
    attack.resolve_attack,
    command.resolve_command,
    contact.resolve_contact,
    deployment.resolve_deployment,
    engaged_shift.resolve_engaged_shift,
    morale_test.resolve_morale_test,
    movement.resolve_move,
    ranges.resolve_range,
    reform.resolve_reform,
    scoring.resolve_scoring,
    sight.resolve_line_of_sight,
    squaring.resolve_squaring_up,
    timing.resolve_same_timing,
)
"""The situations of this game the engine resolves (its registry; see :mod:`engine.situations`)."""
