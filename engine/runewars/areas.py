"""Runewars map areas for the 0.2 situations: control, empty and uncontrolled areas, and where a group may retreat.

Positions use the shared map notation of the contract: areas ``{"id", "home_realm", "units" {owner: count},
"stronghold", "city"}`` (an owner is a faction or ``"neutral"`` for unallied neutral units; allied neutral units
are counted under their player's faction) and borders ``[a, b, "plain"|"mountain"|"water"]`` as in ``mobilize``.

Control follows the Frequently Used Terms (page 15): a faction controls an area holding one of its units (routed
or not) or its stronghold, and its home-realm areas unless an enemy unit (unallied neutral units are enemies to
everyone) or an enemy stronghold is there (``rw.term.controlled-area``, ``rw.term.friendly-area``,
``rw.term.home-realm``). An area is empty when it is outside every home realm and holds no unit and no stronghold
(a city token may be there, ``rw.term.empty-area``); uncontrolled when no faction controls it
(``rw.term.uncontrolled-area``). Crossing a border reuses :func:`engine.runewars.movement.can_cross` (mountain:
flying only; water: flying or winter).

Retreat destinations (``rw.retreats``): a player's units go to an adjacent friendly area, else an adjacent empty
one (``rw.retreats.player-units``); unallied neutral units to an adjacent uncontrolled area
(``rw.retreats.neutral``); always obeying the movement restrictions (``rw.retreats.restrictions``). A group that
mixes flying and non-flying units must go to one area together (``rw.retreats``), so a border closed to any of
its units is closed to the group: that is our reading where the book is silent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import rule
from engine.errors import UnreadableInputError
from engine.runewars.common import FACTIONS, NAME, unique_keys
from engine.runewars.forms import doc, record
from engine.runewars.movement import BORDER_KINDS, Mover, can_cross
from engine.schema import BOOL, Schema, arr, enum, integer, obj

OWNERS = (*FACTIONS, "neutral")
BORDER: Schema = {"type": "array", "prefixItems": [NAME, NAME, enum(*BORDER_KINDS)], "minItems": 3, "maxItems": 3}
UNITS: Schema = doc(record({o: doc(integer(0, 80), o.title() if o != "neutral" else "Unallied neutral")
                            for o in OWNERS}),
                    "Units in the area", "How many units of each owner stand or lie routed in the area; allied "
                    "neutral units count under their player's faction.", {})
AREA: Schema = obj(
    ["id"],
    id=doc(NAME, "Area", "The area's identifier, e.g. 5B."),
    home_realm=doc(enum(*FACTIONS, None), "Home realm of", "The faction whose home realm this area belongs "
                   "to, or none.", None),
    units=UNITS,
    stronghold=doc(enum(*FACTIONS, None), "Stronghold of", "The faction whose stronghold stands here, or "
                   "none.", None),
    city=doc(BOOL, "City token", "Whether a city token is in the area (it does not stop an area being empty).",
             False),
)
MAP: Schema = doc(obj(["areas", "borders"],
                      areas=doc(arr(AREA, min_items=1, max_items=120), "Areas",
                                "Every area that matters: the one being left and its neighbours."),
                      borders=doc(arr(doc(BORDER, "Border", "Two adjacent areas and the kind of their border."),
                                      max_items=400),
                                  "Borders", "[area, area, plain|mountain|water]; two areas are adjacent only "
                                  "when a border between them is listed.")),
                  "Map", "The areas around the action and the borders between them.")


@dataclass(frozen=True)
class Area:
    """An area of the shared map notation: home realm, units by owner, stronghold and city token."""

    id: str
    home_realm: str | None = None
    units: tuple[tuple[str, int], ...] = ()
    stronghold: str | None = None
    city: bool = False

    def count(self, owner: str) -> int:
        """Return how many units of *owner* (a faction or ``neutral``) are in the area."""
        return sum(n for o, n in self.units if o == owner)

    @property
    def total_units(self) -> int:
        """Return every unit in the area, whoever owns it."""
        return sum(n for _, n in self.units)


@dataclass(frozen=True)
class Map:
    """The map of a position: its areas in order and, for each area, its neighbours with the border kind."""

    areas: Mapping[str, Area]
    neighbours: Mapping[str, Mapping[str, str]]

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], path: str = "map") -> Map:
        """Read the areas and borders, refusing unknown areas and contradictory borders."""
        rows: Sequence[Mapping[str, Any]] = raw["areas"]
        unique_keys(rows, "id", f"{path}.areas")
        areas: dict[str, Area] = {}
        for row in rows:
            counts: Mapping[str, int] = row.get("units") or {}
            areas[str(row["id"])] = Area(str(row["id"]), row.get("home_realm"),
                                         tuple((str(o), int(n)) for o, n in counts.items() if n),
                                         row.get("stronghold"), bool(row.get("city", False)))
        neighbours: dict[str, dict[str, str]] = {a: {} for a in areas}
        borders: Sequence[Sequence[str]] = raw["borders"]
        for i, (a, b, kind) in enumerate(borders):
            for j, end in enumerate((a, b)):
                if end not in areas:
                    raise UnreadableInputError(f"border {i + 1} names {end!r}, which is not an area of the map",
                                               path=f"{path}.borders[{i}][{j}]")
            if a == b:
                raise UnreadableInputError(f"border {i + 1} joins {a!r} to itself", path=f"{path}.borders[{i}]")
            old = neighbours[a].get(b)
            if old is not None and old != kind:
                raise UnreadableInputError(f"the border between {a!r} and {b!r} is given as both {old} and {kind}",
                                           path=f"{path}.borders[{i}][2]")
            neighbours[a][b] = neighbours[b][a] = kind
        return cls(areas, neighbours)

    def area(self, area_id: str, path: str) -> Area:
        """Return the area called *area_id*, or raise :class:`UnreadableInputError` naming *path*."""
        if area_id not in self.areas:
            raise UnreadableInputError(f"{area_id!r} is not an area of the map", path=path)
        return self.areas[area_id]

    def adjacent(self, area_id: str) -> list[Area]:
        """Return the areas adjacent to *area_id*, in the map's order."""
        near = self.neighbours[area_id]
        return [a for a in self.areas.values() if a.id in near]


@rule("rw.term.controlled-area", "rw.term.home-realm", "rw.neutral-units")
def controllers(area: Area) -> frozenset[str]:
    """Return the factions controlling the area: those with a unit (routed or not) or their stronghold there, and
    the home-realm owner unless an enemy unit (unallied neutrals included) or an enemy stronghold is there."""
    out = {o for o, n in area.units if n and o != "neutral"}
    if area.stronghold:
        out.add(area.stronghold)
    home = area.home_realm
    if home and not any(o != home and n for o, n in area.units) and area.stronghold in (None, home):
        out.add(home)
    return frozenset(out)


@rule("rw.term.friendly-area", "rw.term.controlled-area")
def is_friendly(area: Area, faction: str) -> bool:
    """Return whether the faction controls the area."""
    return faction in controllers(area)


@rule("rw.term.empty-area")
def is_empty(area: Area) -> bool:
    """Return whether the area is empty: outside every home realm, no unit and no stronghold (a city may be
    there)."""
    return area.home_realm is None and area.total_units == 0 and area.stronghold is None


@rule("rw.term.uncontrolled-area")
def is_uncontrolled(area: Area) -> bool:
    """Return whether no faction controls the area (neutral and empty areas are uncontrolled)."""
    return not controllers(area)


@rule("rw.retreats.restrictions", "rw.movement-restrictions", "rw.movement-restrictions.flying",
      "rw.movement-restrictions.winter")
def group_can_cross(kind: str, flying: Iterable[bool], season: str | None) -> bool:
    """Return whether a group moving together may cross a border: every figure of it must be able to."""
    return all(can_cross(kind, Mover("", "", flying=f), season) for f in flying)


@dataclass(frozen=True)
class Reach:
    """The adjacent areas of a retreat: the allowed ones and those left out by a border."""

    options: tuple[str, ...]
    blocked: tuple[str, ...]
    tier: str  # "friendly", "empty", "uncontrolled" or "none"
    crossed: tuple[str, ...] = ()  # options behind a mountain or water border the group may cross


@rule("rw.retreats.player-units", "rw.retreats.neutral", "rw.retreats.restrictions")
def retreat_areas(board: Map, start: str, owner: str, flying: Sequence[bool], season: str | None) -> Reach:
    """Return where a group may retreat from *start*: for a faction, the adjacent friendly areas, else the adjacent
    empty ones; for ``neutral`` (unallied neutral units), the adjacent uncontrolled areas; borders the group cannot
    cross are left out."""
    near = board.neighbours[start]
    reach = _reach(board, start, owner, flying, season)
    return Reach(reach.options, reach.blocked, reach.tier, tuple(a for a in reach.options if near[a] != "plain"))


def _reach(board: Map, start: str, owner: str, flying: Sequence[bool], season: str | None) -> Reach:
    near = board.neighbours[start]
    open_: list[Area] = []
    blocked: list[Area] = []
    for a in board.adjacent(start):
        (open_ if group_can_cross(near[a.id], flying, season) else blocked).append(a)
    if owner == "neutral":
        found = tuple(a.id for a in open_ if is_uncontrolled(a))
        return Reach(found, tuple(a.id for a in blocked if is_uncontrolled(a)), "uncontrolled" if found else "none")
    friendly = tuple(a.id for a in open_ if is_friendly(a, owner))
    if friendly:
        return Reach(friendly, tuple(a.id for a in blocked if is_friendly(a, owner)), "friendly")
    empty = tuple(a.id for a in open_ if is_empty(a))
    cut = tuple(a.id for a in blocked if is_friendly(a, owner) or is_empty(a))
    return Reach(empty, cut, "empty" if empty else "none")
