"""Which engine functions cite which paragraphs (read by ``runecodex rule``, the graph and the site).

Every function that applies a paragraph declares it with ``@rule(ids)`` (:data:`engine.core.RULES`): the rule
predicates and arithmetic, and each step of a resolver for the paragraphs its sentences cite. Nothing is read
from the source text: ``tests/test_engine_citations.py`` checks that every paragraph id a function passes to a
trace is among its own declarations, and that every declared id exists in the corpus.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import RULES, load_situations
from engine.corpus import get_corpus

COUNTED_KINDS = ("rule", "faq", "errata")
"""The paragraphs a game's coverage counts: rules, FAQ answers and errata (not glossary entries, tables, examples)."""


def all_rules() -> dict[str, tuple[str, ...]]:
    """Return every engine function with the paragraph ids it declares (``@rule``), by dotted name."""
    load_situations()  # the game packages, and so every @rule of theirs, are imported
    return dict(RULES)


def implemented_by(pid: str) -> list[str]:
    """Return the dotted names of the engine functions that cite paragraph *pid*."""
    return sorted(name for name, ids in all_rules().items() if pid in ids)


@dataclass(frozen=True)
class Coverage:
    """How many of a game's rule, FAQ and errata paragraphs some engine function cites, and which it does not."""

    game: str
    cited: int
    total: int
    missing: tuple[str, ...]

    @property
    def share(self) -> float:
        """Return the cited share, 0 to 1."""
        return self.cited / self.total if self.total else 1.0


def coverage() -> dict[str, Coverage]:
    """Return each game's coverage by the engine's ``@rule`` declarations (``scripts/engine_coverage.py``)."""
    cited = {pid for ids in all_rules().values() for pid in ids}
    counted: dict[str, list[str]] = {}
    for p in get_corpus().paragraphs.values():
        if p.kind in COUNTED_KINDS:
            counted.setdefault(p.game, []).append(p.id)
    return {game: Coverage(game, sum(1 for pid in ids if pid in cited), len(ids),
                           tuple(pid for pid in ids if pid not in cited)) for game, ids in sorted(counted.items())}
