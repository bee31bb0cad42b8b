"""Shared vocabulary of the Runewars situations: the game key, factions, seasons and names (typed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field

from engine.model import refuse

GAME = "runewars"
FACTIONS = ("daqan", "elves", "uthuk", "waiqar")
SEASONS = ("spring", "summer", "fall", "winter")

Faction = Literal["daqan", "elves", "uthuk", "waiqar"]
"""The four factions (a player's side)."""
Side = Literal["daqan", "elves", "uthuk", "waiqar", "neutral"]
"""A faction, or the neutral units."""
Season = Literal["spring", "summer", "fall", "winter"]
Name = Annotated[str, Field(max_length=80)]
"""A unit's, area's or card's name as the player writes it."""


FACTION_NAMES = {"daqan": "Daqan", "elves": "Elves", "uthuk": "Uthuk", "waiqar": "Waiqar", "neutral": "Neutral"}
FACTION_LABELS = {k: v for k, v in FACTION_NAMES.items() if k != "neutral"}


def faction_name(key: str | None) -> str:
    """Return a faction as printed (``daqan`` -> ``Daqan``); other names are returned as they are."""
    return FACTION_NAMES.get(key or "", key or "")


def plural(n: int, word: str, many: str | None = None) -> str:
    """Return ``"1 unit"`` / ``"3 units"``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def names(items: Sequence[str]) -> str:
    """Return items joined for a sentence: ``a``, ``a and b``, ``a, b and c`` (``none`` when empty)."""
    if not items:
        return "none"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def refuse_duplicates(values: Sequence[object], key: str, path: str, what: str | None = None) -> None:
    """Refuse, inside a model validator, the second row of *path* whose *key* repeats an earlier row's (the message
    calls the value *what*, by default the key)."""
    seen: set[object] = set()
    for i, value in enumerate(values):
        if value in seen:
            raise refuse(f"{what or key} {value!r} appears twice", f"{path}[{i}].{key}")
        seen.add(value)
