"""The engine's rules and the paragraphs each one implements (read by ``rule`` and the glossary graph)."""

from __future__ import annotations


def implemented_by(pid: str) -> list[str]:
    """Return the dotted names of the engine functions that cite paragraph *pid*."""
    return []
