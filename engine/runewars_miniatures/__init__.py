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
    morale_test,
    ranges,
    scoring,
    sight,
    squaring,
)

SITUATIONS = (
    activation.resolve_activation_order,
    army.resolve_army,
    attack.resolve_attack,
    command.resolve_command,
    contact.resolve_contact,
    deployment.resolve_deployment,
    morale_test.resolve_morale_test,
    ranges.resolve_range,
    scoring.resolve_scoring,
    sight.resolve_line_of_sight,
    squaring.resolve_squaring_up,
)
"""The situations of this game the engine resolves (its registry; see :mod:`engine.situations`)."""
