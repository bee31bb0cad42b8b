"""Import every game's situations so they register with :mod:`engine.core` (one module per topic)."""

from __future__ import annotations

import importlib

MODULES = (
    "engine.rune_age.battle",
    "engine.rune_age.siege",
    "engine.rune_age.gold",
    "engine.rune_age.monument",
    "engine.rune_age.events",
)
OPTIONAL = (
    "engine.runewars_miniatures",
    "engine.runewars",
    "engine.runeslingers",
)

for _name in MODULES:
    importlib.import_module(_name)
for _name in OPTIONAL:
    try:
        importlib.import_module(_name)
    except ModuleNotFoundError as _exc:  # a game whose executable rules are not written yet
        if _exc.name != _name:
            raise
