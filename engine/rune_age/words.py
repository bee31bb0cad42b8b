"""Rune Age sentences in a judge's words: counts with grammatical plurals, lists, "a"/"an", names as printed."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.model import labelled

IRREGULAR = {"bonus": "bonuses", "copy": "copies", "ability": "abilities", "discount": "discounts"}


def plural(n: int, one: str, many: str | None = None) -> str:
    """Return ``n`` with the noun in the right number: ``plural(1, "card")`` -> ``1 card``, ``2 cards``."""
    if n == 1:
        return f"1 {one}"
    return f"{n} {many or IRREGULAR.get(one) or one + 's'}"


def times(n: int) -> str:
    """Return how often: ``never``, ``once``, ``twice``, ``3 times``."""
    return {0: "never", 1: "once", 2: "twice"}.get(n, f"{n} times")


def article(word: str) -> str:
    """Return *word* with ``a`` or ``an`` before it, by its first letter (``an End of Combat``)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def listing(names: Iterable[str], empty: str = "none") -> str:
    """Return names joined as a player writes them: ``A``, ``A and B``, ``A, B and C``."""
    items = [n for n in names if n]
    if not items:
        return empty
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def possessive(name: str) -> str:
    """Return a name's possessive: ``Elves'``, ``Daqan's``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def capital(text: str) -> str:
    """Return *text* with its first letter in upper case (the rest unchanged)."""
    return text[:1].upper() + text[1:]


def choice(labels: Mapping[str, str], default: str | None = None) -> Callable[[dict[str, Any]], None]:
    """Return a schema hook for a vocabulary field: its values' words for the boards (``x-enum-labels``) and,
    when given, the value a board starts from (*default*, shown but not assumed by the engine)."""
    hook = labelled(labels)

    def extra(schema: dict[str, Any]) -> None:
        hook(schema)
        if default is not None:
            schema["default"] = default
    return extra
