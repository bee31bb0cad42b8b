"""Which engine functions cite which paragraphs (read by ``runecodex rule``, the graph and the site).

Every function that applies a paragraph declares it with ``@rule(ids)`` (:data:`engine.core.RULES`): the rule
predicates and arithmetic, and each step of a resolver for the paragraphs its sentences cite. Nothing is read
from the source text: ``tests/test_engine_citations.py`` checks that every paragraph id a function passes to a
trace is among its own declarations, and that every declared id exists in the corpus.
"""

from __future__ import annotations

from engine.core import RULES, load_situations


def all_rules() -> dict[str, tuple[str, ...]]:
    """Return every engine function with the paragraph ids it declares (``@rule``), by dotted name."""
    load_situations()  # the game packages, and so every @rule of theirs, are imported
    return dict(RULES)


def implemented_by(pid: str) -> list[str]:
    """Return the dotted names of the engine functions that cite paragraph *pid*."""
    return sorted(name for name, ids in all_rules().items() if pid in ids)
