"""Shared RuneWars Miniatures pieces: the game key, vocabulary schemas and a unit's formation of ranks.

Paragraphs: ``rwm.66`` (ranks: front, back, full and partial), ``rwm.45.7`` (several instances of an X
keyword).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import rule
from engine.errors import UnreadableInputError
from engine.schema import Schema, arr, enum, integer, text

GAME = "runewars-miniatures"
NAME: Schema = text()
RANKS: Schema = arr(integer(1, 12), 1, 12)
KEYWORD_X: Schema = {"anyOf": [integer(0, 20), arr(integer(0, 20), max_items=10)]}
UNIT_TYPE: Schema = enum("infantry", "cavalry", "siege")
UPGRADE_ICON: Schema = enum("artifact", "champion", "equipment", "heavy", "heraldry", "music", "training",
                            "unique")
ACTION_ICON: Schema = enum("march", "shift", "reform", "melee", "ranged", "rally", "skill")
MODIFIER_ICON: Schema = enum("turn", "wheel", "charge", "turning-charge", "defend", "enhance", "bonus")
STANCE: Schema = {"type": "string", "minLength": 1, "maxLength": 40}


FACTION_NAMES = {"daqan": "Daqan", "elves": "Elves", "uthuk": "Uthuk", "waiqar": "Waiqar"}


def faction_name(key: str | None) -> str:
    """Return a faction as printed (``daqan`` -> ``Daqan``)."""
    return FACTION_NAMES.get(key or "", key or "")


def plural(n: int, word: str, many: str | None = None) -> str:
    """Return ``1 tray`` / ``2 trays``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def article(word: str) -> str:
    """Return ``a`` or ``an`` for *word*."""
    return "an" if word[:1].lower() in "aeiou" else "a"


@rule("rwm.45.7")
def keyword_value(raw: int | Sequence[int] | None) -> int:
    """Return a keyword's X: several instances of one X keyword add up (Brutal 1 + Brutal 1 = Brutal 2)."""
    if raw is None:
        return 0
    if isinstance(raw, int):
        return raw
    return sum(raw)


def keyword_instances(raw: int | Sequence[int] | None) -> int:
    """Return how many instances of a keyword the position lists (an integer counts as 1 when above 0)."""
    if raw is None:
        return 0
    if isinstance(raw, int):
        return 1 if raw else 0
    return sum(1 for x in raw if x)


@dataclass(frozen=True)
class Formation:
    """A unit's trays per rank, front rank first (only trays count: 66.5)."""

    ranks: tuple[int, ...]

    @classmethod
    def from_json(cls, raw: Sequence[int], path: str) -> Formation:
        """Read ``ranks``; no rank may be wider than the front rank and only the back rank may be partial."""
        ranks = tuple(int(r) for r in raw)
        front = ranks[0]
        for i, r in enumerate(ranks):
            if r > front:
                raise UnreadableInputError(f"rank {i + 1} has {r} trays, more than the {front} of the "
                                           f"front rank; a rank is a row across the unit's width",
                                           path=f"{path}[{i}]")
            if r < front and i != len(ranks) - 1:
                raise UnreadableInputError(f"rank {i + 1} is partial ({r} of {front} trays) but is not the "
                                           f"back rank; trays are only lost from the back rank",
                                           path=f"{path}[{i}]")
        return cls(ranks)

    @property
    def front(self) -> int:
        """Return the trays of the front rank (its front edge)."""
        return self.ranks[0]

    @property
    def trays(self) -> int:
        """Return the unit's number of trays."""
        return sum(self.ranks)

    @property
    def depth(self) -> int:
        """Return the number of ranks, partial rank included."""
        return len(self.ranks)

    @property
    def has_partial_rank(self) -> bool:
        """Return whether the back rank is partial (fewer trays than the front rank; 66.3)."""
        return is_partial(self.ranks)

    @property
    def full_ranks_behind_front(self) -> int:
        """Return the full ranks behind the front rank (the front rank itself is neither: 66.4)."""
        return full_ranks_behind(self.ranks)

    def describe(self) -> str:
        """Return ``3-3-2`` style text for the formation."""
        return "-".join(str(r) for r in self.ranks)


@rule("rwm.66.3", "rwm.66.4")
def is_partial(ranks: Sequence[int]) -> bool:
    """Return whether the unit has a partial rank: a rank behind the front with at least 1 tray but fewer."""
    return any(0 < r < ranks[0] for r in ranks[1:])


@rule("rwm.66.2", "rwm.66.4", "rwm.66.5")
def full_ranks_behind(ranks: Sequence[int]) -> int:
    """Return the full ranks behind the front rank: ranks as wide as the front rank (trays only)."""
    return sum(1 for r in ranks[1:] if r == ranks[0])


def get_int(raw: Mapping[str, Any], key: str, default: int = 0) -> int:
    """Return ``raw[key]`` as an int, *default* when absent or null."""
    value = raw.get(key)
    return default if value is None else int(value)
