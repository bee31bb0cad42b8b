"""Import every game's situations so they register with :mod:`engine.core` (one module per topic)."""

from __future__ import annotations

import importlib

MODULES = (
    "engine.rune_age.battle",
    "engine.rune_age.siege",
    "engine.rune_age.gold",
    "engine.rune_age.monument",
    "engine.rune_age.events",
    "engine.runewars_miniatures.attack",
    "engine.runewars_miniatures.activation",
    "engine.runewars_miniatures.command",
    "engine.runewars_miniatures.scoring",
    "engine.runewars_miniatures.army",
    "engine.runewars.battle",
    "engine.runewars.damage",
    "engine.runewars.play_order",
    "engine.runewars.supremacy",
    "engine.runewars.winter",
    "engine.runewars.movement",
    "engine.runewars.recruit",
    "engine.runewars.game_end",
    "engine.runeslingers.damage",
    "engine.runeslingers.ailments",
    "engine.runeslingers.draw",
    "engine.runeslingers.ladder",
    "engine.runeslingers.conflict",
    "engine.runeslingers.deck",
)

for _name in MODULES:
    importlib.import_module(_name)
