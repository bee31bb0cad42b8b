"""Runewars (Revised Edition): battles, damage and routs, play order, Supremacy Bonus, winter, movement,
recruiting and the end of the game, one module per topic."""

from __future__ import annotations

from engine.runewars import (  # noqa: F401  (imports register the situations)
    battle,
    damage,
    game_end,
    movement,
    play_order,
    recruit,
    supremacy,
    winter,
)
