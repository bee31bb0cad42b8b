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
from typing import Annotated, Self

from pydantic import ConfigDict, model_validator

from engine.core import rule
from engine.errors import UnreadableInputError
from engine.model import Field, Model, maybe
from engine.runewars.common import FACTION_NAMES, Faction, Name, names, plural, refuse_duplicates
from engine.runewars.movement import BorderKind, Mover, can_cross, check_borders

OWNERS = ("daqan", "elves", "uthuk", "waiqar", "neutral")


class UnitCounts(Model):
    """How many units of each owner stand or lie routed in the area; allied neutral units count under their
    player's faction."""

    model_config = ConfigDict(title="Units in the area")

    daqan: int | None = maybe("Daqan units (and units allied to the Daqan player) in the area",
                              title="Daqan", ge=0, le=80)
    elves: int | None = maybe("Latari Elves units (and units allied to that player) in the area",
                              title="Elves", ge=0, le=80)
    uthuk: int | None = maybe("Uthuk Y'llan units (and units allied to that player) in the area",
                              title="Uthuk", ge=0, le=80)
    waiqar: int | None = maybe("Waiqar the Undying units (and units allied to that player) in the area",
                              title="Waiqar", ge=0, le=80)
    neutral: int | None = maybe("neutral units allied to nobody in the area",
                              title="Unallied neutral", ge=0, le=80)


class MapArea(Model):
    """An area of the map: its home realm, the units in it, its stronghold and city token."""

    model_config = ConfigDict(title="Area")

    id: Name = Field(title="Area", description="The area's identifier, e.g. 5B.")
    home_realm: Faction | None = Field(None, title="Home realm of", description="The faction whose home realm this "
                                       "area belongs to, or none.")
    units: UnitCounts = Field(default_factory=UnitCounts, title="Units in the area",
                              description="How many units of each owner stand or lie routed in the area; allied "
                                          "neutral units count under their player's faction.",
                              json_schema_extra={"default": {}})
    stronghold: Faction | None = Field(None, title="Stronghold of", description="The faction whose stronghold stands "
                                       "here, or none.")
    city: bool = Field(False, title="City token", description="Whether a city token is in the area (it does not stop "
                       "an area being empty).")


Border = Annotated[tuple[Name, Name, BorderKind],
                   Field(strict=False, title="Border", description="Two adjacent areas and the kind of their border.")]


class AreaMap(Model):
    """The areas around the action and the borders between them."""

    model_config = ConfigDict(title="Map")

    areas: list[MapArea] = Field(min_length=1, max_length=120, title="Areas",
                                 description="Every area that matters: the one being left and its neighbours.")
    borders: list[Border] = Field(max_length=400, title="Borders",
                                  description="[area, area, plain|mountain|water]; two areas are adjacent only when a "
                                              "border between them is listed.")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        refuse_duplicates([a.id for a in self.areas], "id", "areas")
        check_borders([a.id for a in self.areas], self.borders)
        return self

    def has(self, area_id: str) -> bool:
        """Return whether *area_id* is an area of the map."""
        return any(a.id == area_id for a in self.areas)


def map_reading(raw: AreaMap) -> list[str]:
    """Return the map in a player's words: each area's units by owner, stronghold, city token and home realm, then
    the borders that are not plain (and how many plain ones)."""
    out = []
    for a in raw.areas:
        counts = [(o, getattr(a.units, o) or 0) for o in OWNERS]
        units = [f"{n} {FACTION_NAMES[o] if o != 'neutral' else 'unallied neutral'}" for o, n in counts if n]
        facts = [names(units) if units else "no unit"]
        facts += [f"the {FACTION_NAMES[a.stronghold]} stronghold"] if a.stronghold else []
        facts += ["a city token"] if a.city else []
        facts += [f"home realm of {FACTION_NAMES[a.home_realm]}"] if a.home_realm else []
        out.append(f"Area {a.id}: {', '.join(facts)}.")
    rough = [f"{x}–{y} {kind}" for x, y, kind in raw.borders if kind != "plain"]
    plain = sum(1 for b in raw.borders if b[2] == "plain")
    out.append(f"Borders: {plural(plain, 'plain border')}" + (f"; {', '.join(rough)}" if rough else "") + ".")
    return out


@dataclass(frozen=True)
class Area:
    """An area of the shared map notation: home realm, units by owner, stronghold and city token."""

    id: str
    home_realm: str | None = None
    units: tuple[tuple[str, int], ...] = ()
    stronghold: str | None = None
    city: bool = False

    @classmethod
    def of(cls, area: MapArea) -> Area:
        """Return the area of the position's map."""
        counts = ((o, getattr(area.units, o) or 0) for o in OWNERS)
        return cls(area.id, area.home_realm, tuple((o, n) for o, n in counts if n), area.stronghold, area.city)

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
    def of(cls, raw: AreaMap) -> Map:
        """Return the map of the position (its validation refused unknown areas and contradictory borders)."""
        areas = {a.id: Area.of(a) for a in raw.areas}
        neighbours: dict[str, dict[str, str]] = {a: {} for a in areas}
        for a, b, kind in raw.borders:
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
    friendly_cut: bool = False  # a friendly area is adjacent but behind a border the group cannot cross


@rule("rw.retreats.player-units", "rw.retreats.neutral", "rw.retreats.restrictions")
def retreat_areas(board: Map, start: str, owner: str, flying: Sequence[bool], season: str | None) -> Reach:
    """Return where a group may retreat from *start*: for a faction, the adjacent friendly areas, else the adjacent
    empty ones; for ``neutral`` (unallied neutral units), the adjacent uncontrolled areas; borders the group cannot
    cross are left out."""
    near = board.neighbours[start]
    reach = _reach(board, start, owner, flying, season)
    return Reach(reach.options, reach.blocked, reach.tier, tuple(a for a in reach.options if near[a] != "plain"),
                 reach.friendly_cut)


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
    return Reach(empty, cut, "empty" if empty else "none", (), any(is_friendly(a, owner) for a in blocked))
