"""Shared vocabulary of the Runewars situations: the game key, factions, seasons and names (typed)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from engine.model import labelled, refuse

GAME = "runewars"
FACTIONS = ("daqan", "elves", "uthuk", "waiqar")
SEASONS = ("spring", "summer", "fall", "winter")

FACTION_NAMES = {"daqan": "Daqan", "elves": "Elves", "uthuk": "Uthuk", "waiqar": "Waiqar", "neutral": "Neutral"}
FACTION_LABELS = {k: v for k, v in FACTION_NAMES.items() if k != "neutral"}
PRINTED = {"daqan": "Daqan", "elves": "Latari Elves", "uthuk": "Uthuk Y'llan", "waiqar": "Waiqar"}
"""The factions' full names as the faction sheets print them (the labels of the boards' choices)."""
SIDE_LABELS = {**PRINTED, "neutral": "Neutral units"}
SEASON_LABELS = {"spring": "Spring", "summer": "Summer", "fall": "Fall", "winter": "Winter"}



class Labels:
    """A type annotation adding player-word labels to an enum's JSON Schema (``x-enum-labels``, as
    :func:`engine.model.labelled` does for a field), kept on the type so a field's own ``Field`` does not replace
    it: ``Annotated[Literal["a", "b"], Labels({"a": "A", "b": "B"})]``."""

    def __init__(self, labels: dict[str, str]) -> None:
        self.hook = labelled(labels)

    def __get_pydantic_json_schema__(self, core: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        """Return the enum's schema with its labels."""
        schema = handler(core)
        self.hook(schema)
        return schema


Faction = Annotated[Literal["daqan", "elves", "uthuk", "waiqar"], Labels(PRINTED)]
"""The four factions (a player's side)."""
Side = Annotated[Literal["daqan", "elves", "uthuk", "waiqar", "neutral"], Labels(SIDE_LABELS)]
"""A faction, or the neutral units."""
Season = Annotated[Literal["spring", "summer", "fall", "winter"], Labels(SEASON_LABELS)]
UnitClass = Annotated[Literal["triangle", "circle", "rectangle", "hexagon"],
                     Labels({"triangle": "Triangle", "circle": "Circle", "rectangle": "Rectangle",
                             "hexagon": "Hexagon"})]
"""A unit's class: the shape of its base, which names the Fate card section it reads."""
Name = Annotated[str, Field(max_length=80)]
"""A unit's, area's or card's name as the player writes it."""


def faction_name(key: str | None) -> str:
    """Return a faction as printed (``daqan`` -> ``Daqan``); other names are returned as they are."""
    return FACTION_NAMES.get(key or "", key or "")


def the_player(key: str | None) -> str:
    """Return a faction as the subject of a sentence about its player: ``the Daqan player`` (neutral units and
    unknown sides read as they are)."""
    if key in FACTION_LABELS:
        return f"the {FACTION_NAMES[str(key)]} player"
    return "the neutral units" if key == "neutral" else (key or "the player")


def left_of(key: str | None) -> str:
    """Return the player on a faction's left: ``the player on the Daqan player's left``."""
    return f"the player on {the_player(key)}'s left" if key else "the player on the current player's left"


_SLUG = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")


def figure_name(name: str) -> str:
    """Return a unit's or hero's name for a sentence: as the player wrote it, except that an id written in lower
    case with hyphens reads as words, its number last (``archer-1`` reads ``Archer 1``, ``siege-tower``
    ``Siege tower``)."""
    if not _SLUG.match(name):
        return name
    words = re.split(r"[-_]", name)
    number = f" {int(words.pop())}" if len(words) > 1 and words[-1].isdigit() else ""
    return f"{' '.join(words).capitalize()}{number}"


def figure_names(items: Sequence[str]) -> str:
    """Return figures' names joined for a sentence (see :func:`figure_name`)."""
    return names([figure_name(i) for i in items])


def capital(text: str) -> str:
    """Return *text* with its first letter upper case (a sentence that starts with a name)."""
    return text[:1].upper() + text[1:]


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


def faction_names(keys: Sequence[str]) -> str:
    """Return factions as printed, joined for a sentence (``Daqan and Elves``)."""
    return names([faction_name(k) for k in keys])


def refuse_duplicates(values: Sequence[object], key: str, path: str, what: str | None = None) -> None:
    """Refuse, inside a model validator, the second row of *path* whose *key* repeats an earlier row's (the message
    calls the value *what*, by default the key)."""
    seen: set[object] = set()
    for i, value in enumerate(values):
        if value in seen:
            raise refuse(f"{what or key} {value!r} appears twice", f"{path}[{i}].{key}")
        seen.add(value)
