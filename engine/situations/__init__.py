"""Import every game's situations so they register with :mod:`engine.core` (one module per topic).

Every module of the four game packages is imported, so a new topic module registers its situations
by existing; nothing else lists them.
"""

from __future__ import annotations

import importlib
import pkgutil

GAME_PACKAGES = ("engine.rune_age", "engine.runewars_miniatures", "engine.runewars", "engine.runeslingers")


def _modules() -> tuple[str, ...]:
    names: list[str] = []
    for package in GAME_PACKAGES:
        pkg = importlib.import_module(package)
        names.extend(sorted(f"{package}.{m.name}" for m in pkgutil.iter_modules(pkg.__path__)))
    return tuple(names)


MODULES = _modules()

for _name in MODULES:
    importlib.import_module(_name)
