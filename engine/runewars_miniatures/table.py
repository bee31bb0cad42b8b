"""RuneWars Miniatures on the table: the table position (units as trays, terrain as polygons) and its geometry.

The shared input of ``contact``, ``line_of_sight``, ``range`` and ``squaring_up`` (CONTRACT.md, "The table").
Lengths are in tray widths; the range-band length and the firing-arc angle are inputs (the Rules Reference
gives neither). A unit is placed by the midpoint of its front edge and its facing (0 = +y, clockwise); its
trays are rectangles laid out behind the front edge, file 0 on the unit's left (``rwm.87.2``, ``rwm.66``).

Geometry is done with shapely (unions, distances, closest points, overlap areas, polygon validity). The unit
outline is built on the unit's own tray grid, so its edges (``front``/``side``/``rear``) and convex corners
are exact whatever the rotation. Tolerance: ``EPS`` = 1e-6 tray widths (touch = distance ≤ EPS without
overlap; overlap = common area > EPS; a line passes through a shape when it gets more than EPS inside).

Paragraphs: ``rwm.87.2``/``rwm.87.2.b1`` (edges), ``rwm.87.3`` (only trays count), ``rwm.66`` (ranks),
``rwm.60``/``rwm.60.1``/``rwm.55.3`` (no overlapping), ``rwm.59.3`` (allied units), ``rwm.59.1``/``rwm.81``
(terrain is an obstacle), ``rwm.8``/``rwm.32`` (allied and enemy).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import numpy as np
import shapely
from pydantic import ConfigDict
from shapely.geometry import Polygon

from engine.core import Trace, rule
from engine.errors import UnreadableInputError
from engine.model import Field, Model, OpenPosition, Outcome, labelled, maybe, refuse
from engine.runewars_miniatures.common import Name, UnitType, formation_words, int_or_list, plural

EPS = 1e-6
GRID = 1e-9  # precision grid of overlay operations (well below EPS)
MAX_UNITS = 40
MAX_TERRAIN = 40
MAX_FILES = 24
MAX_RANKS = 24
MAX_VERTICES = 200
MAX_CAPACITY = 99
MAX_KEYWORD_VALUE = 9
MAX_COORD = 1e5  # tray widths: any real table, with room for geometry to stay exact
EDGE_KINDS = ("front", "side", "rear")

Vec = tuple[float, float]

Id = Annotated[str, Field(min_length=1, max_length=80)]
"""A unit's or terrain piece's id on the table."""
Point = Annotated[list[float], Field(min_length=2, max_length=2)]
"""A table point [x, y], in tray widths (checked finite when read, with its path)."""
Rank = Annotated[int | list[int], *int_or_list(1, MAX_FILES, 0, MAX_FILES - 1, 1, MAX_FILES)]
"""A rank: a number of trays (files 0…n−1) or a list of the files it occupies."""


TemplateLength = Annotated[float, Field(gt=0, le=100)]
TemplateAngle = Annotated[float, Field(gt=0, le=180)]


class TableSizes(Model):
    """The sizes the Rules Reference leaves to the table: a range band's length, the firing-arc angle and the
    movement templates' shapes (the book prints none of them; a move's ruling restates the ones it used)."""

    model_config = ConfigDict(title="Table")

    band: float | None = maybe("how long one range band of the range ruler is, in tray widths (the book prints "
                               "none; needed for range)", title="Range band length")
    arc_degrees: float | None = maybe("the width of a unit's firing arc, in degrees, centred on its facing (the book "
                                      "prints none; needed for line of sight)", title="Firing arc")
    straight: Annotated[list[TemplateLength], Field(min_length=1, max_length=8)] | None = maybe(
        "how far each straight template carries a unit, speed 1 first, in tray widths; absent: 1, 2, 3, 4 and 5 "
        "(speeds 1 to 5)", title="Straight template lengths")
    turn: Annotated[list[TemplateLength], Field(min_length=1, max_length=8)] | None = maybe(
        "how far each turn template carries the middle of the unit's leading edge along its curve, speed 1 first, "
        "in tray widths; absent: 1, 2 and 3 (speeds 1 to 3)", title="Turn template lengths")
    turn_degrees: float | None = maybe(
        "how far a turn template bends from its start guide to its end guide, in degrees; absent: 45",
        title="Turn template bend", ge=1, le=180)
    wheel_degrees: Annotated[list[TemplateAngle], Field(min_length=1, max_length=8)] | None = maybe(
        "how far each wheel template turns the unit about the front corner on the inside of the wheel, speed 1 "
        "first, in degrees; absent: 45 and 90 (speeds 1 and 2)", title="Wheel template angles")
    connector: float | None = maybe(
        "how far the tray connectors stick out of the trays' edges, in tray widths; absent: 0 (not modelled)",
        title="Connector length", ge=0, le=1)


class Tray(Model):
    """The size of the unit's trays, in tray widths (1 × 1 unless said)."""

    width: float | None = maybe("a tray's width, side to side (1 unless given)", title="Tray width")
    depth: float | None = maybe("a tray's depth, front to back (1 unless given)", title="Tray depth")


class TableUnit(Model):
    """A unit on the table: its player, formation, the midpoint of its front edge and its facing."""

    model_config = ConfigDict(title="Unit")

    id: Id = Field(description="a short handle the position's other fields use to name this unit (never shown "
                               "in a ruling)", title="Handle")
    player: str = Field(max_length=80, description="who controls the unit: units of one player are allied, "
                                                   "others are enemies", title="Player")
    name: Name | None = maybe("the unit's name as the ruling should say it (\"Unit 2\" unless given)")
    type: UnitType | None = maybe("infantry, cavalry or siege, as its unit card says; absent: infantry", title="Type")
    tray: Tray | None = maybe(title="Tray")
    formation: Annotated[list[Rank], Field(min_length=1, max_length=MAX_RANKS)] | None = maybe(
        "the trays of each rank, front rank first: a number of trays, or the files a partial rank occupies")
    files: int | None = maybe("trays side by side in each rank (with ranks, instead of formation)", ge=1,
                              le=MAX_FILES)
    ranks: int | None = maybe("ranks one behind the other (with files, instead of formation)", ge=1,
                              le=MAX_RANKS)
    front: Point = Field(description="the midpoint of the unit's front edge, [x, y] in tray widths",
                         title="Front edge midpoint")
    facing: float = Field(description="which way the unit faces, in degrees: 0 up the table, turning clockwise "
                                      "(90 faces right)", title="Facing")


TerrainKeywordName = Annotated[
    Literal["cover", "deadly", "elevated", "exposed", "fortified", "taxing"],
    Field(json_schema_extra=labelled({"cover": "Cover X", "deadly": "Deadly X", "elevated": "Elevated",
                                      "exposed": "Exposed", "fortified": "Fortified X", "taxing": "Taxing X"}))]
"""The terrain keywords of the Rules Reference (81.9); Cover, Deadly, Fortified and Taxing carry a value X."""
VALUED_KEYWORDS = ("cover", "deadly", "fortified", "taxing")


class TerrainKeyword(Model):
    """A keyword of the terrain card (81.9), with its X where it has one."""

    model_config = ConfigDict(title="Terrain keyword")

    keyword: TerrainKeywordName = Field(title="Keyword", description="the keyword as printed on the terrain card")
    value: int | None = maybe("X, for Cover, Deadly, Fortified and Taxing", ge=0, le=MAX_KEYWORD_VALUE)


class TerrainPiece(Model):
    """A terrain piece: an obstacle polygon that blocks line of sight unless it is Exposed."""

    model_config = ConfigDict(title="Terrain")

    id: Id = Field(title="Handle", description="a short handle the position's other fields use to name this piece "
                   "(never shown in a ruling)")
    kind: str | None = maybe("the piece's name as the ruling should say it (\"Terrain 1\" unless given)", max_length=80,
                             title="Name")
    polygon: list[Point] = Field(max_length=MAX_VERTICES, title="Outline",
                                 description="the piece's corners in order, [[x, y], …] in tray widths, 3 or more")
    blocks_los: bool | None = maybe("whether it blocks line of sight; no: it is Exposed; absent: it blocks",
                                    title="Blocks line of sight")
    capacity: int | None = maybe("how many trays of units may occupy it (81.1); absent: it cannot be entered",
                                 ge=0, le=MAX_CAPACITY, title="Capacity")
    keywords: Annotated[list[TerrainKeyword], Field(max_length=6)] | None = maybe(
        "the keywords printed on its terrain card, with their X; absent: none", title="Terrain keywords")
    occupant: Id | None = maybe("the unit that occupies it (81.2), if any", title="Occupied by")


Units = Annotated[list[TableUnit], Field(max_length=MAX_UNITS)]
Terrains = Annotated[list[TerrainPiece], Field(max_length=MAX_TERRAIN)]


class TablePosition(OpenPosition):
    """A position on the table: sizes, units placed as trays, terrain as polygons."""

    table: TableSizes
    units: Units = Field(title="Units", description="every unit on the table, as trays placed by the midpoint of "
                                                    "the front edge and the facing")
    terrain: Terrains | None = maybe("every terrain piece on the table, as a polygon, with its card's capacity "
                                     "and keywords; absent: none", title="Terrain")

    def refuse_unknown_units(self, named: Mapping[str, str | None]) -> None:
        """Refuse, in a model validator, a field naming no unit of the position: *named* maps each field's path
        to the handle it holds (None: left out)."""
        ids = {u.id for u in self.units}
        for path, uid in named.items():
            if uid is not None and uid not in ids:
                raise refuse(f"{uid!r} names no unit of the position", path)


class Placement(Model):
    """Where a unit stands: the midpoint of its front edge and its facing."""

    front: list[float]
    facing: float


OUTCOME_WORDS: dict[str, str] = {
    "overlaps": "Overlapping pieces",
    "drawing": "Shapes drawn",
    "final": "Where it ends (front edge midpoint, facing)",
    "panic_tokens": "Panic tokens",
    "flanking": "Flanking",
    "stopped_by": "Stopped by",
    "repositioned_with": "Still engaged with (repositioned)",
    "new_contacts": "New contacts",
    "engaged_with": "Engaged with",
    "disengaged_from": "Disengaged from",
    "collided": "Collided with",
    "changed_edges": "Contacted edges changed",
    "blocked_by": "Blocked by",
}
"""A player's words for the outcome fields several table situations report (``outcome_words`` picks them)."""


def outcome_words(*keys: str) -> dict[str, str]:
    """Return the shared words of the outcome fields *keys* (a situation adds the words of its own fields)."""
    return {k: OUTCOME_WORDS[k] for k in keys}


TableRole = Literal["acting", "target", "other"]
"""How the table board shows a field that names a unit: the acting unit, its target, or another role."""


def table_role(role: TableRole, title: str, description: str | None = None) -> Any:
    """Return the ``Field`` of a position field that names a unit on the table, marked for the board.

    The board reads ``x-table-role`` from the situation's published schema to give the field its own select (a
    role is never changed by selecting or dragging a unit) and to colour the unit: ``acting`` blue, ``target``
    red, ``other`` outlined.
    """
    return Field(title=title, description=description, min_length=1, max_length=80,
                 json_schema_extra={"x-table-role": role})


ShapeKind = Literal["outline", "line", "point"]
ShapeRole = Annotated[
    Literal["template", "path", "start", "end", "blocked", "slide", "sight", "range", "arc", "terrain", "contact"],
    Field(json_schema_extra=labelled({
        "template": "movement template", "path": "path followed", "start": "where it started",
        "end": "where it ends", "blocked": "where it was stopped", "slide": "slid back along the template",
        "sight": "line of sight", "range": "range measured", "arc": "firing arc", "terrain": "terrain",
        "contact": "edges in contact"}))]


class Shape(Model):
    """A shape the engine derived, for the table board to draw as it is (it computes no geometry itself).

    ``outline``: a closed polygon (a template, a unit's end position); ``line``: an open polyline (a path, a
    range or sight line); ``point``: one point (``points`` has one element). ``unit`` names the unit it belongs
    to, ``label`` is a short caption in a player's words.
    """

    kind: ShapeKind
    role: ShapeRole
    points: list[list[float]]
    unit: str | None = None
    label: str | None = None


def outline(role: str, poly: Polygon, unit: str | None = None, label: str | None = None) -> Shape:
    """Return a polygon as an ``outline`` shape (coordinates rounded as every outcome's)."""
    coords = [pt(c) for c in list(poly.exterior.coords)[:-1]]
    return Shape(kind="outline", role=role, points=coords, unit=unit, label=label)  # type: ignore[arg-type]


def polyline(role: str, points: Sequence[Vec], unit: str | None = None, label: str | None = None) -> Shape:
    """Return points as a ``line`` shape."""
    return Shape(kind="line", role=role, points=[pt(p) for p in points], unit=unit,  # type: ignore[arg-type]
                 label=label)


class Overlaps(Outcome):
    """An illegal table: the pairs of pieces that overlap."""

    overlaps: list[list[str]] = Field(default_factory=list)


# ------------------------------------------------------------------------------------------ vectors

def add(p: Vec, q: Vec) -> Vec:
    """Return p + q."""
    return (p[0] + q[0], p[1] + q[1])


def sub(p: Vec, q: Vec) -> Vec:
    """Return p − q."""
    return (p[0] - q[0], p[1] - q[1])


def mul(p: Vec, k: float) -> Vec:
    """Return k·p."""
    return (p[0] * k, p[1] * k)


def dot(p: Vec, q: Vec) -> float:
    """Return the dot product."""
    return p[0] * q[0] + p[1] * q[1]


def cross(p: Vec, q: Vec) -> float:
    """Return the z component of p × q."""
    return p[0] * q[1] - p[1] * q[0]


def norm(p: Vec) -> float:
    """Return |p|."""
    return math.hypot(p[0], p[1])


def heading(facing: float) -> Vec:
    """Return the unit vector of a facing (0 = +y, 90 = +x: the angle turns clockwise)."""
    rad = math.radians(facing)
    return (math.sin(rad), math.cos(rad))


def right_of(f: Vec) -> Vec:
    """Return the direction 90° clockwise of *f* (a unit's right, seen from behind)."""
    return (f[1], -f[0])


def facing_of(v: Vec) -> float:
    """Return the facing (degrees in [0, 360)) of direction *v*."""
    return math.degrees(math.atan2(v[0], v[1])) % 360.0


def rotate(p: Vec, centre: Vec, degrees: float) -> Vec:
    """Rotate *p* about *centre* clockwise by *degrees* (the way facings turn)."""
    rad = math.radians(degrees)
    c, s = math.cos(rad), math.sin(rad)
    v = sub(p, centre)
    return add(centre, (v[0] * c + v[1] * s, -v[0] * s + v[1] * c))


def seg_distance(p: Vec, a: Vec, b: Vec) -> float:
    """Return the distance from point *p* to segment *ab*."""
    ab = sub(b, a)
    length2 = dot(ab, ab)
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, dot(sub(p, a), ab) / length2))
    return norm(sub(p, add(a, mul(ab, t))))


# ----------------------------------------------------------------------------------------- rounding

def r3(x: float) -> float:
    """Round a length or coordinate to 3 decimals (never -0.0)."""
    return round(x, 3) + 0.0


def pt(p: Vec) -> list[float]:
    """Return a point rounded for an outcome."""
    return [r3(p[0]), r3(p[1])]


def angle(a: float) -> float:
    """Return an angle rounded to 2 decimals, in [0, 360)."""
    out = round(a % 360.0, 2)
    return 0.0 if out >= 360.0 else out + 0.0


# -------------------------------------------------------------------------------------------- units

@dataclass(frozen=True)
class Edge:
    """A piece of a unit's outline: its kind (front/side/rear), ends and outward normal (87.2)."""

    kind: str
    a: Vec
    b: Vec
    normal: Vec

    @property
    def length(self) -> float:
        """Return the edge's length."""
        return norm(sub(self.b, self.a))

    @property
    def direction(self) -> Vec:
        """Return the unit vector from a to b."""
        return mul(sub(self.b, self.a), 1.0 / self.length)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"kind", "from", "to"}`` for drawing."""
        return {"kind": self.kind, "from": pt(self.a), "to": pt(self.b)}


@dataclass(frozen=True)
class Corner:
    """A convex corner of a unit's outline, with the kinds and outward directions of its two edges."""

    point: Vec
    kinds: tuple[str, str]
    directions: tuple[Vec, Vec]


@dataclass(frozen=True, eq=False)
class Unit:
    """A unit on the table: formation of trays placed by front-edge midpoint and facing."""

    id: str
    index: int
    player: str
    name: str
    width: float
    depth: float
    ranks: tuple[tuple[int, ...], ...]
    front: Vec
    facing: float
    cells: tuple[tuple[int, int], ...]
    shape: Polygon
    edges: tuple[Edge, ...]
    corners: tuple[Corner, ...]
    box: tuple[float, float, float, float]

    @functools.cached_property
    def rings(self) -> Any:
        """Return a numpy array (trays, 4, 2) of each tray's corners, in ``cells`` order (built on first use)."""
        f, r = self.forward, self.right
        js = np.array([c[0] for c in self.cells], dtype=float)
        ks = np.array([c[1] for c in self.cells], dtype=float)
        u0, v0 = -self.files * self.width / 2 + js * self.width, -ks * self.depth
        us = np.stack([u0, u0 + self.width, u0 + self.width, u0], axis=1)
        vs = np.stack([v0, v0, v0 - self.depth, v0 - self.depth], axis=1)
        return np.stack([self.front[0] + us * r[0] + vs * f[0], self.front[1] + us * r[1] + vs * f[1]], axis=2)

    @functools.cached_property
    def trays(self) -> tuple[Polygon, ...]:
        """Return the trays as polygons, in ``cells`` order (built on first use)."""
        return tuple(shapely.polygons(self.rings))

    @property
    def files(self) -> int:
        """Return the number of files (trays in the front rank)."""
        return len(self.ranks[0])

    @property
    def forward(self) -> Vec:
        """Return the unit's forward direction f."""
        return heading(self.facing)

    @property
    def right(self) -> Vec:
        """Return the unit's right direction r."""
        return right_of(self.forward)

    @property
    def label(self) -> str:
        """Return the name shown in texts."""
        return self.name or self.id

    @property
    def rank_sizes(self) -> list[int]:
        """Return the trays per rank, front first (the ``attack`` situation's ``ranks``)."""
        return [len(r) for r in self.ranks]

    def world(self, u: float, v: float) -> Vec:
        """Return the table point at local (u along the right, v along the facing) from the front midpoint."""
        f, r = self.forward, self.right
        return (self.front[0] + u * r[0] + v * f[0], self.front[1] + u * r[1] + v * f[1])

    def front_edge(self) -> tuple[Vec, Vec]:
        """Return the ends of the front edge (left end first, as the controller sees it from behind)."""
        half = self.files * self.width / 2
        return self.world(-half, 0.0), self.world(half, 0.0)

    def is_allied(self, other: Unit) -> bool:
        """Return whether the two units are allied (same player: 8); else they are enemies (32)."""
        return self.player == other.player

    def to_json(self) -> dict[str, Any]:
        """Return the derived outline for drawing: trays, edges and corners."""
        return {"trays": [[pt(c) for c in list(t.exterior.coords)[:-1]] for t in self.trays],
                "edges": [e.to_json() for e in self.edges], "corners": [pt(c.point) for c in self.corners]}


@dataclass(frozen=True, eq=False)
class Terrain:
    """A terrain piece: an obstacle polygon (59.1, 81) that blocks line of sight unless Exposed (81.9)."""

    id: str
    index: int
    kind: str
    shape: Polygon
    blocks_los: bool
    box: tuple[float, float, float, float]
    capacity: int | None = None
    keywords: tuple[tuple[str, int | None], ...] = ()
    occupant: str | None = None

    def keyword(self, name: str) -> int | None:
        """Return the X of keyword *name* (0 for a keyword without a value), or None when the card lacks it."""
        for k, v in self.keywords:
            if k == name:
                return v if v is not None else 0
        return None

    def has_keyword(self, name: str) -> bool:
        """Return whether the terrain card has keyword *name* (81.9)."""
        return self.keyword(name) is not None

    @property
    def can_be_entered(self) -> bool:
        """Return whether the piece has a capacity, so a colliding unit may enter it (81.1)."""
        return self.capacity is not None and self.capacity > 0

    @property
    def label(self) -> str:
        """Return the name shown in texts."""
        return self.kind or self.id


@dataclass(frozen=True, eq=False)
class Table:
    """A read table position: sizes, units and terrain, in position order."""

    band: float | None
    arc_degrees: float | None
    units: tuple[Unit, ...]
    terrain: tuple[Terrain, ...]

    def unit(self, uid: str) -> Unit:
        """Return the unit with id *uid*."""
        for u in self.units:
            if u.id == uid:
                return u
        raise KeyError(uid)

    def has_unit(self, uid: str) -> bool:
        """Return whether *uid* names a unit."""
        return any(u.id == uid for u in self.units)

    def _piece(self, ident: str) -> tuple[int, Unit | Terrain] | None:
        """Return the position order (units first, then terrain) and the piece of a unit or terrain id."""
        for u in self.units:
            if u.id == ident:
                return u.index, u
        for t in self.terrain:
            if t.id == ident:
                return len(self.units) + t.index, t
        return None

    def order(self, ident: str) -> int:
        """Return the position order of a unit or terrain id (units first, then terrain; unknown ids last)."""
        found = self._piece(ident)
        return found[0] if found is not None else len(self.units) + len(self.terrain)

    def label(self, ident: str) -> str:
        """Return the display name of a unit or terrain id (an unknown id as it is)."""
        found = self._piece(ident)
        return found[1].label if found is not None else ident

    def sorted_ids(self, ids: Sequence[str]) -> list[str]:
        """Return *ids* in position order, without repeats."""
        return sorted(dict.fromkeys(ids), key=self.order)

    def sorted_pairs(self, pairs: Sequence[tuple[str, str]]) -> list[list[str]]:
        """Return pairs sorted by first id, then second, in position order (directions kept)."""
        uniq = list(dict.fromkeys(pairs))
        return [list(p) for p in sorted(uniq, key=lambda p: (self.order(p[0]), self.order(p[1])))]

    def pair(self, a: str, b: str) -> tuple[str, str]:
        """Return the undirected pair in position order."""
        return (a, b) if self.order(a) <= self.order(b) else (b, a)

    def extent(self) -> float:
        """Return a length larger than the whole layout (used to extend firing-arc lines)."""
        shapes = [u.shape for u in self.units] + [t.shape for t in self.terrain]
        minx, miny, maxx, maxy = shapely.total_bounds(shapes)
        return 4.0 * float(abs(maxx - minx) + abs(maxy - miny) + abs(minx) + abs(miny) + abs(maxx) + abs(maxy)) + 10.0


# ------------------------------------------------------------------------------------------ reading

def unit_name(raw: TableUnit, i: int) -> str:
    """Return the name a player reads for a unit: its name, else "Unit 3" (its place in the list; never its id)."""
    return (raw.name or "").strip() or f"Unit {i + 1}"


def terrain_name(raw: TerrainPiece, i: int) -> str:
    """Return the name a player reads for a terrain piece: its kind, else "Terrain 2"."""
    return (raw.kind or "").strip() or f"Terrain {i + 1}"


def facing_words(facing: float) -> str:
    """Return a facing as a player says it: "facing up the table", "facing right", "facing 45°"."""
    a = angle(facing)
    named = {0.0: "up the table", 90.0: "right", 180.0: "down the table", 270.0: "left"}
    return f"facing {named[a]}" if a in named else f"facing {a:g}°"


def _distance_words(table: Table, unit: Unit) -> str:
    """Return where a unit stands against the nearest other unit: "touching X" or "2.5 tray widths from X"."""
    others = [u for u in table.units if u is not unit]
    if not others:
        return ""
    near = min(others, key=lambda u: (unit.shape.distance(u.shape), u.index))
    gap = float(unit.shape.distance(near.shape))
    if gap <= EPS:
        return f", touching {near.label}"
    return f", {round(gap, 1):g} tray widths from {near.label}"


def table_reading(sizes: TableSizes | None, units: Sequence[TableUnit], terrain: Sequence[TerrainPiece] | None,
                  band: bool = False, arc: bool = False) -> list[str]:
    """Return the table in a player's words: each unit (army, formation, facing, nearest unit), the terrain and
    the sizes the ruling uses (the range band when *band*, the firing-arc angle when *arc*)."""
    try:
        table = read_table(sizes, units, terrain)
    except UnreadableInputError:
        return [f"{unit_name(u, i)} ({u.player})." for i, u in enumerate(units)]
    out = [f"{u.label} ({u.player}): {formation_words(u.rank_sizes)}, {facing_words(u.facing)}"
           f"{_distance_words(table, u)}." for u in table.units]
    pieces = [f"{t.label} ({'blocks line of sight' if t.blocks_los else 'exposed: does not block line of sight'}"
              f"{_terrain_words(table, t)})" for t in table.terrain]
    out.append(f"Terrain: {'; '.join(pieces)}." if pieces else "No terrain.")
    size = describe_sizes(table, band=band, arc=arc)
    if size:
        out.append(f"Sizes used: {size}.")
    return out


def _terrain_words(table: Table, t: Terrain) -> str:
    """Return what a terrain card adds to the reading: capacity, keywords and the unit occupying it."""
    words = [f"capacity {t.capacity}"] if t.capacity is not None else []
    words += [f"{k.capitalize()}{'' if v is None else f' {v}'}" for k, v in t.keywords]
    if t.occupant is not None:
        words.append(f"occupied by {table.label(t.occupant)}")
    return "".join(f", {w}" for w in words)


def _finite(value: float, path: str) -> float:
    x = float(value)
    if not math.isfinite(x):
        raise UnreadableInputError(f"{value!r} is not a finite number", path=path)
    if abs(x) > MAX_COORD:
        raise UnreadableInputError(f"{value!r} is too large: a table position stays within {MAX_COORD:g} tray widths",
                                   path=path)
    return x


def _positive(value: float, path: str) -> float:
    x = _finite(value, path)
    if x <= 0:
        raise UnreadableInputError(f"{value!r} must be greater than 0", path=path)
    return x


def _point(raw: Sequence[float], path: str) -> Vec:
    return (_finite(raw[0], f"{path}[0]"), _finite(raw[1], f"{path}[1]"))


@rule("rwm.66", "rwm.66.1", "rwm.66.3", "rwm.87.2")
def read_formation(raw: TableUnit, path: str) -> tuple[tuple[int, ...], ...]:
    """Return the files each rank occupies, front rank first.

    The front rank is an int and sets the files; a rank is an int ``n`` (files 0…n−1) or a list of files;
    every tray behind the front rank has a tray directly in front of it, so no rank is wider than the front.
    """
    ranks_raw: list[int | list[int]]
    if raw.formation is not None:
        ranks_raw = list(raw.formation)
        where = f"{path}.formation"
    elif raw.files is not None and raw.ranks is not None:
        ranks_raw = [raw.files] * raw.ranks
        where = f"{path}.files"
    else:
        raise UnreadableInputError("missing field 'formation' (or the shorthand 'files' and 'ranks')",
                                   path=f"{path}.formation")
    files = ranks_raw[0]
    if not isinstance(files, int):
        raise UnreadableInputError("the front rank must be a number of trays, not a list of files",
                                   path=f"{where}[0]")
    out: list[tuple[int, ...]] = []
    for k, rank in enumerate(ranks_raw):
        at = f"{where}[{k}]" if raw.formation is not None else where
        out.append(_rank(k, rank, files, out, at))
    return tuple(out)


def _rank(k: int, rank: int | list[int], files: int, before: Sequence[tuple[int, ...]], at: str) -> tuple[int, ...]:
    """Return the files rank *k* occupies, checked against the front rank and the rank in front of it."""
    if isinstance(rank, int):
        occupied = tuple(range(rank))
    else:
        occupied = tuple(sorted(set(rank)))
        if len(occupied) != len(rank):
            raise UnreadableInputError(f"rank {k + 1} lists a file twice: {list(rank)!r}", path=at)
    if not occupied:
        raise UnreadableInputError(f"rank {k + 1} has no tray", path=at)
    if occupied[-1] >= files:
        raise UnreadableInputError(f"rank {k + 1} uses file {occupied[-1]}, but the front rank has only "
                                   f"{plural(files, 'file')} (files 0-{files - 1})", path=at)
    if k and any(j not in before[k - 1] for j in occupied):
        missing = [j for j in occupied if j not in before[k - 1]]
        raise UnreadableInputError(f"rank {k + 1} has a tray in file {missing[0]} with no tray in front of "
                                   f"it; every tray behind the front rank stands behind another", path=at)
    return occupied


def build_unit(uid: str, index: int, player: str, name: str, width: float, depth: float,
               ranks: tuple[tuple[int, ...], ...], front: Vec, facing: float) -> Unit:
    """Lay out a unit's trays and derive its outline edges and convex corners on its own tray grid."""
    facing = facing % 360.0
    f = heading(facing)
    r = right_of(f)
    files = len(ranks[0])
    half = files * width / 2

    def world(u: float, v: float) -> Vec:
        return (front[0] + u * r[0] + v * f[0], front[1] + u * r[1] + v * f[1])

    cells = tuple((j, k) for k, rank in enumerate(ranks) for j in rank)
    us = [-half + j * width for j in range(files + 1)]
    vs = [-k * depth for k in range(len(ranks) + 1)]
    # every file is a column of trays from the front rank back (66): the outline follows the column depths
    depth_of = [sum(1 for rank in ranks if j in rank) for j in range(files)]
    back, left, fwd = mul(f, -1), mul(r, -1), f
    edges: list[Edge] = [Edge("front", world(-half, 0.0), world(half, 0.0), f)]
    corners: list[Corner] = [Corner(world(-half, 0.0), ("front", "side"), (r, back)),
                             Corner(world(half, 0.0), ("front", "side"), (left, back))]
    runs: list[tuple[int, int, int]] = []  # (first file, last file + 1, depth)
    for j, dep in enumerate(depth_of):
        if runs and runs[-1][2] == dep:
            runs[-1] = (runs[-1][0], j + 1, dep)
        else:
            runs.append((j, j + 1, dep))
    for lo, hi, dep in runs:
        edges.append(Edge("rear", world(us[lo], vs[dep]), world(us[hi], vs[dep]), back))
        if lo == 0 or depth_of[lo - 1] < dep:
            corners.append(Corner(world(us[lo], vs[dep]), ("rear", "side"), (r, fwd)))
        if hi == files or depth_of[hi] < dep:
            corners.append(Corner(world(us[hi], vs[dep]), ("rear", "side"), (left, fwd)))
    edges.append(Edge("side", world(-half, 0.0), world(-half, vs[depth_of[0]]), left))
    for j in range(1, files):
        a, b = depth_of[j - 1], depth_of[j]
        if a != b:
            edges.append(Edge("side", world(us[j], vs[min(a, b)]), world(us[j], vs[max(a, b)]), r if a > b else left))
    edges.append(Edge("side", world(half, 0.0), world(half, vs[depth_of[-1]]), r))
    edges.sort(key=lambda e: EDGE_KINDS.index(e.kind))
    outline = [world(-half, 0.0), world(half, 0.0)]
    for lo, hi, dep in reversed(runs):
        outline += [world(us[hi], vs[dep]), world(us[lo], vs[dep])]
    shape = Polygon(outline)
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    box = (min(xs), min(ys), max(xs), max(ys))
    return Unit(uid, index, player, name, width, depth, ranks, front, facing, cells, shape, tuple(edges),
                tuple(corners), box)


def _sizes(raw: TableSizes | None, need_band: bool, need_arc: bool) -> tuple[float | None, float | None]:
    """Return (band, arc) of ``table``; a situation that measures range or arcs needs them."""
    band = raw.band if raw is not None else None
    arc = raw.arc_degrees if raw is not None else None
    if need_band:
        if band is None:
            raise UnreadableInputError("missing field 'band' (the length of one range band, in tray widths)",
                                       path="table.band")
        band = _positive(band, "table.band")
    elif band is not None:
        band = _positive(band, "table.band")  # refused even where nothing measures range: never ignored
    if need_arc and arc is None:
        raise UnreadableInputError("missing field 'arc_degrees' (the angle of the firing-arc lines)",
                                   path="table.arc_degrees")
    if arc is not None:
        value = arc
        arc = _finite(arc, "table.arc_degrees")
        if not 0 < arc < 90:
            raise UnreadableInputError(f"{value!r} must be between 0 and 90 (exclusive)", path="table.arc_degrees")
    return band, arc


def _read_unit(raw: TableUnit, i: int) -> Unit:
    path = f"units[{i}]"
    tray = raw.tray or Tray()
    width = _positive(1.0 if tray.width is None else tray.width, f"{path}.tray.width")
    depth = _positive(1.0 if tray.depth is None else tray.depth, f"{path}.tray.depth")
    ranks = read_formation(raw, path)
    front = _point(raw.front, f"{path}.front")
    facing = _finite(raw.facing, f"{path}.facing")
    return build_unit(raw.id, i, raw.player, unit_name(raw, i), width, depth, ranks, front, facing)


def _read_terrain(raw: TerrainPiece, i: int) -> Terrain:
    path = f"terrain[{i}]"
    pts = [_point(p, f"{path}.polygon[{n}]") for n, p in enumerate(raw.polygon)]
    if len(set(pts)) < 3:
        raise UnreadableInputError(f"a terrain polygon needs at least 3 vertices, got {len(set(pts))}",
                                   path=f"{path}.polygon")
    poly = Polygon(pts)
    if not poly.is_valid or poly.area <= EPS:
        raise UnreadableInputError("the terrain polygon crosses itself or has no area; give its outline in "
                                   "order, either way round", path=f"{path}.polygon")
    box = (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))
    words = tuple((k.keyword, k.value) for k in raw.keywords or ())
    for n, (k, v) in enumerate(words):
        if (v is None) == (k in VALUED_KEYWORDS):
            need = "needs its X" if v is None else "takes no value"
            raise UnreadableInputError(f"the terrain keyword {k!r} {need}", path=f"{path}.keywords[{n}].value")
    exposed = any(k == "exposed" for k, _ in words)
    return Terrain(raw.id, i, terrain_name(raw, i), poly, raw.blocks_los is not False and not exposed, box,
                   raw.capacity, words, raw.occupant)


def read_table(sizes: TableSizes | None, units: Sequence[TableUnit] | None, terrain: Sequence[TerrainPiece] | None,
               need_band: bool = False, need_arc: bool = False) -> Table:
    """Read ``table``, ``units`` and ``terrain``; raise :class:`UnreadableInputError` with the offending path."""
    band, arc = _sizes(sizes, need_band, need_arc)
    seen: set[str] = set()
    read_units: list[Unit] = []
    for i, raw in enumerate(units or []):
        if raw.id in seen:
            raise UnreadableInputError(f"duplicate id {raw.id!r}", path=f"units[{i}].id")
        seen.add(raw.id)
        read_units.append(_read_unit(raw, i))
    pieces: list[Terrain] = []
    for i, piece in enumerate(terrain or []):
        if piece.id in seen:
            raise UnreadableInputError(f"duplicate id {piece.id!r}", path=f"terrain[{i}].id")
        seen.add(piece.id)
        pieces.append(_read_terrain(piece, i))
        if piece.occupant is not None and not any(u.id == piece.occupant for u in read_units):
            raise UnreadableInputError(f"{piece.occupant!r} names no unit of the position",
                                       path=f"terrain[{i}].occupant")
    _check_occupants(read_units, pieces)
    return Table(band, arc, tuple(read_units), tuple(pieces))


def _check_occupants(units: Sequence[Unit], pieces: Sequence[Terrain]) -> None:
    """Refuse an occupant the table cannot hold (81.1, 81.2): terrain that cannot be entered, a unit with more
    trays than the capacity, a unit that occupies two pieces, or one whose trays are not on its terrain."""
    seen: dict[str, str] = {}
    for t in pieces:
        if t.occupant is None:
            continue
        path = f"terrain[{t.index}].occupant"
        unit = next(u for u in units if u.id == t.occupant)
        if not t.can_be_entered:
            raise UnreadableInputError(f"{t.label} has no capacity, so no unit can occupy it", path=path)
        if len(unit.cells) > (t.capacity or 0):
            raise UnreadableInputError(f"{unit.label} has {len(unit.cells)} trays, more than the capacity of "
                                       f"{t.label} ({t.capacity})", path=path)
        if unit.id in seen:
            raise UnreadableInputError(f"{unit.label} already occupies {seen[unit.id]}; a unit occupies one "
                                       "terrain piece", path=path)
        seen[unit.id] = t.label
        if not is_overlapping(unit.shape, t.shape):
            raise UnreadableInputError(f"{unit.label} occupies {t.label}, so it stands on it: place its trays "
                                       "over the terrain", path=path)


def unit_ref(table: Table, uid: str, path: str) -> Unit:
    """Return the unit a field names (``unit``, ``target``, ``active``); an unknown id is an error."""
    if not table.has_unit(uid):
        raise UnreadableInputError(f"{uid!r} names no unit of the position", path=path)
    return table.unit(uid)


# ---------------------------------------------------------------------------------------- relations

def boxes_near(a: Sequence[float], b: Sequence[float], gap: float) -> bool:
    """Return whether two bounding boxes (minx, miny, maxx, maxy) come within *gap* of each other."""
    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    return bool(ax0 - gap <= bx1 and bx0 - gap <= ax1 and ay0 - gap <= by1 and by0 - gap <= ay1)


def overlap_area(a: Polygon, b: Polygon) -> float:
    """Return the area two shapes have in common (0 when their boxes are apart)."""
    if not boxes_near(a.bounds, b.bounds, 0.0):
        return 0.0
    # snap-rounded overlay: shapes that share an edge up to rounding noise must not produce a bogus sliver
    return float(shapely.intersection(a, b, grid_size=GRID).area)


@rule("rwm.60", "rwm.87.3")
def is_overlapping(a: Polygon, b: Polygon) -> bool:
    """Return whether two components take up the same space: common area above the tolerance."""
    return overlap_area(a, b) > EPS


@rule("rwm.34", "rwm.87.3")
def is_touching(a: Polygon, b: Polygon) -> bool:
    """Return whether two shapes touch: at most EPS apart and not overlapping (trays only)."""
    if not boxes_near(a.bounds, b.bounds, 2 * EPS):
        return False
    return bool(a.distance(b) <= EPS) and not is_overlapping(a, b)


def overlaps(table: Table) -> list[tuple[str, str]]:
    """Return every overlapping pair: unit with unit, then unit with terrain (position order); a unit that
    occupies terrain is on its piece, which stands for it (81.2)."""
    out: list[tuple[str, str]] = []
    occupants = {t.occupant for t in table.terrain if t.occupant is not None}
    for i, a in enumerate(table.units):
        if a.id in occupants:  # it stands on its terrain piece, which takes its place on the table (81.2)
            continue
        for b in table.units[i + 1:]:
            if b.id in occupants:
                continue
            if boxes_near(a.box, b.box, 0.0) and is_overlapping(a.shape, b.shape):
                out.append((a.id, b.id))
        for t in table.terrain:
            if boxes_near(a.box, t.box, 0.0) and is_overlapping(a.shape, t.shape):
                out.append((a.id, t.id))
    return [tuple(p) for p in table.sorted_pairs(out)]  # type: ignore[misc]


@rule("rwm.60", "rwm.60.1", "rwm.55.3", "rwm.59.3", "rwm.59.1", "rwm.81")
def check_overlaps(table: Table, trace: Trace) -> list[list[str]]:
    """Record a violation for each overlapping pair (an illegal position); return the pairs."""
    pairs = overlaps(table)
    for a_id, b_id in pairs:
        a = table.unit(a_id)
        if table.has_unit(b_id):
            b = table.unit(b_id)
            if a.is_allied(b):
                trace.violate(f"{a.label} and {b.label} overlap; a unit may pass over 1 allied tray during a move "
                              "but never end it overlapping an allied unit", "rwm.60", "rwm.59.3", "rwm.60.1")
            else:
                trace.violate(f"{a.label} and {b.label} overlap; a unit stops when it would overlap an obstacle "
                              "and can never end a move on top of an enemy unit", "rwm.60", "rwm.60.1",
                              "rwm.55.3")
        else:
            trace.violate(f"{a.label} overlaps the terrain {table.label(b_id)}; terrain is an obstacle and a unit "
                          "stops touching it", "rwm.60", "rwm.59.1", "rwm.55.3", "rwm.81")
    return [list(p) for p in pairs]


def describe_sizes(table: Table, band: bool = False, arc: bool = False) -> str:
    """Return the sizes the ruling used, for steps and summaries ("band 3 tray widths, arc 45°")."""
    parts = []
    if band and table.band is not None:
        parts.append(f"range band {table.band:g} tray widths")
    if arc and table.arc_degrees is not None:
        parts.append(f"firing-arc lines at {table.arc_degrees:g}°")
    return ", ".join(parts)
