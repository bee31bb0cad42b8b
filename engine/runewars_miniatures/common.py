"""Shared RuneWars Miniatures pieces: the game key, vocabulary schemas and a unit's formation of ranks.

Paragraphs: ``rwm.66`` (ranks: front, back, full and partial), ``rwm.45.7`` (several instances of an X
keyword).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, PlainValidator, WithJsonSchema

from engine.core import rule
from engine.model import labelled, refuse

GAME = "runewars-miniatures"
Game = Literal["runewars-miniatures"]
Name = Annotated[str, Field(max_length=200)]
"""A unit's, card's or player's name as the position gives it (shown back as text)."""
FACTION_NAMES = {"daqan": "Daqan", "elves": "Latari Elves", "uthuk": "Uthuk Y'llan", "waiqar": "Waiqar"}
"""The factions as the books print them."""


def _words(*keys: str, **special: str) -> dict[str, str]:
    """Return player-word labels of vocabulary keys: ``turning-charge`` -> ``Turning charge`` unless *special*."""
    return {k: special.get(k.replace("-", "_"), k.replace("-", " ").replace("_", " ").capitalize()) for k in keys}


UnitType = Annotated[Literal["infantry", "cavalry", "siege"],
                     Field(json_schema_extra=labelled(_words("infantry", "cavalry", "siege")))]
UpgradeIcon = Annotated[Literal["artifact", "champion", "equipment", "heavy", "heraldry", "music", "training",
                                "unique"],
                        Field(json_schema_extra=labelled(_words("artifact", "champion", "equipment", "heavy",
                                                                "heraldry", "music", "training", "unique")))]
ActionIcon = Annotated[Literal["march", "shift", "reform", "melee", "ranged", "rally", "skill"],
                       Field(json_schema_extra=labelled(_words("march", "shift", "reform", "melee", "ranged",
                                                               "rally", "skill", melee="Melee attack",
                                                               ranged="Ranged attack")))]
ShiftDirection = Annotated[Literal["forward", "backward", "left", "right"],
                           Field(json_schema_extra=labelled(_words("forward", "backward", "left", "right")))]
"""Which way a shift moves a unit, as its player sees it from behind the unit."""
ModifierIcon = Annotated[Literal["turn", "wheel", "charge", "turning-charge", "defend", "enhance", "bonus"],
                         Field(json_schema_extra=labelled(_words("turn", "wheel", "charge", "turning-charge",
                                                                 "defend", "enhance", "bonus",
                                                                 bonus="Bonus action")))]
Faction = Annotated[Literal["daqan", "elves", "uthuk", "waiqar"], Field(json_schema_extra=labelled(FACTION_NAMES))]
Stance = Annotated[Literal["blue", "green", "red", "yellow", "white"],
                   Field(description="The colour of the icon; white is neutral and matches any stance.",
                         json_schema_extra=labelled(_words("blue", "green", "red", "yellow", "white",
                                                           white="White (neutral)")))]
EdgeKind = Annotated[Literal["front", "side", "rear"],
                     Field(json_schema_extra=labelled(_words("front", "side", "rear", front="Front edge",
                                                             side="A side edge", rear="Rear edge")))]


def _int_in(value: Any, lo: int, hi: int, at: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise refuse(f"expected integer, got {type(value).__name__} {value!r}"[:300], at)
    if not lo <= value <= hi:
        raise refuse(f"{value!r} is out of range ({'at least ' + str(lo) if value < lo else 'at most ' + str(hi)})",
                     at)
    return value


def int_or_list(lo: int, hi: int, item_lo: int, item_hi: int, min_items: int, max_items: int) -> Any:
    """Return the annotations of a value given as a number in [lo, hi] or a list of numbers in [item_lo, item_hi].

    One validator reads both forms, so an error's path is the value's own (``attacker.brutal``,
    ``units[0].formation[1][2]``), never a branch name.
    """
    def read(value: Any) -> int | list[int]:
        if not isinstance(value, list):
            return _int_in(value, lo, hi)
        if len(value) > max_items:
            raise refuse(f"too many items ({len(value)}, at most {max_items})")
        if len(value) < min_items:
            raise refuse(f"too few items ({len(value)}, at least {min_items})")
        return [_int_in(v, item_lo, item_hi, i) for i, v in enumerate(value)]

    items: dict[str, Any] = {"type": "array", "items": {"type": "integer", "minimum": item_lo, "maximum": item_hi},
                             "maxItems": max_items}
    if min_items:
        items["minItems"] = min_items
    schema = {"anyOf": [{"type": "integer", "minimum": lo, "maximum": hi}, items]}
    return (PlainValidator(read), WithJsonSchema(schema))


KeywordX = Annotated[int | list[int], *int_or_list(0, 20, 0, 20, 0, 10)]
"""A keyword's X: a number, or the X of each instance when a unit has several (they add up)."""


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def nullable(description: str | None = None, *, title: str | None = None) -> Any:
    """Return a ``Field`` for an optional value that may also be given as ``null`` (published with its ``null``
    branch and no default): absent and ``null`` read the same."""
    return Field(None, description=description, title=title, json_schema_extra=_no_default)


def faction_name(key: str | None) -> str:
    """Return a faction as printed (``daqan`` -> ``Daqan``)."""
    return FACTION_NAMES.get(key or "", key or "")


def plural(n: int, word: str, many: str | None = None) -> str:
    """Return ``1 tray`` / ``2 trays``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def possessive(name: str) -> str:
    """Return a name's possessive as a judge writes it: ``Spearmen's``, ``Reanimate Archers'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def tokens(n: int, word: str = "panic token") -> str:
    """Return ``no panic token`` / ``1 panic token`` / ``2 panic tokens``."""
    return f"no {word}" if n == 0 else plural(n, word)


def lie(n: int, word: str = "tray") -> str:
    """Return ``no tray lies`` / ``1 tray lies`` / ``2 trays lie``."""
    return f"no {word} lies" if n == 0 else f"{plural(n, word)} {'lies' if n == 1 else 'lie'}"


def and_list(items: Sequence[str]) -> str:
    """Return "A", "A and B", "A, B and C" ("" for none)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def formation_words(ranks: Sequence[int]) -> str:
    """Return a formation in words: "1 tray", "3 trays in 1 rank", "2 ranks of 3 trays", "a front rank of 3 trays
    and a back rank of 2" (3-2), "2 ranks of 3 trays and a back rank of 2" (3-3-2)."""
    if not ranks:
        return "no tray"
    front = ranks[0]
    full = [r for r in ranks if r == front]
    if len(ranks) == 1:
        return plural(front, "tray") if front == 1 else f"{plural(front, 'tray')} in 1 rank"
    if len(full) == len(ranks):
        return f"{plural(len(ranks), 'rank')} of {plural(front, 'tray')}"
    first = "a front rank" if len(full) == 1 else plural(len(full), "rank")
    return f"{first} of {plural(front, 'tray')} and a back rank of {ranks[-1]}"


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
    def of(cls, ranks: Sequence[int]) -> Formation:
        """Return the formation of *ranks* (read and checked by :data:`Ranks`)."""
        return cls(tuple(ranks))

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


def _formation_ok(ranks: list[int]) -> list[int]:
    """Check a formation as it is read: no rank wider than the front rank, only the back rank partial."""
    front = ranks[0]
    for i, r in enumerate(ranks):
        if r > front:
            raise refuse(f"rank {i + 1} has {r} trays, more than the {front} of the front rank; a rank is a row "
                         f"across the unit's width", i)
        if r < front and i != len(ranks) - 1:
            raise refuse(f"rank {i + 1} is partial ({r} of {front} trays) but is not the back rank; trays are "
                         f"only lost from the back rank", i)
    return ranks


Ranks = Annotated[list[Annotated[int, Field(ge=1, le=12)]], Field(min_length=1, max_length=12),
                  AfterValidator(_formation_ok)]
"""A unit's trays per rank, front rank first."""
