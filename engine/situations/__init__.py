"""The registry of situations: each game package lists its own (``SITUATIONS`` in its ``__init__.py``).

Nothing registers by being imported: a resolver declared with :func:`engine.core.situation` is served only
once its game package lists it, and ``tests/test_engine_citations.py`` checks that every declared resolver is
listed.
"""

from __future__ import annotations

from types import ModuleType

from engine import rune_age, runeslingers, runewars, runewars_miniatures
from engine.core import Situation, situation_of

GAMES: tuple[ModuleType, ...] = (rune_age, runewars_miniatures, runewars, runeslingers)
"""The game packages, each one book (or a book and its FAQ)."""


def registry() -> dict[tuple[str, str], Situation]:
    """Return every listed situation by (game, name); a name listed twice is an error of the code."""
    out: dict[tuple[str, str], Situation] = {}
    for game in GAMES:
        for fn in game.SITUATIONS:
            sit = situation_of(fn)
            if (sit.game, sit.name) in out:
                raise LookupError(f"situation {sit.game}/{sit.name} is listed twice")
            out[(sit.game, sit.name)] = sit
    return out


def modules() -> tuple[str, ...]:
    """Return the dotted names of every module of the game packages (sorted)."""
    import pkgutil

    return tuple(sorted(f"{game.__name__}.{m.name}" for game in GAMES for m in pkgutil.iter_modules(game.__path__)))


MODULES = modules()
