"""Which engine functions implement which paragraphs (read by ``runecodex rule``, the graph and the site)."""

from __future__ import annotations

from engine.core import RULES, load_situations


def implemented_by(pid: str) -> list[str]:
    """Return the dotted names of the engine functions that cite paragraph *pid*."""
    load_situations()
    return sorted(name for name, ids in RULES.items() if pid in ids)


def all_rules() -> dict[str, tuple[str, ...]]:
    """Return every engine rule function with the paragraph ids it implements."""
    load_situations()
    return dict(RULES)
