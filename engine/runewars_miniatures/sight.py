"""RuneWars Miniatures line of sight and firing arc, measured on the table.

The ``line_of_sight`` situation (CONTRACT.md, "RuneWars Miniatures on the table"). The firing arc is the
closed region in front of the unit's front edge between the two arc lines leaving its front corners at
``table.arc_degrees`` from the facing (``rwm.39``; its lines are inside, ``rwm.39.2``; a unit partly inside is
inside, ``rwm.39.1``). A candidate line runs from a point of the front edge to a point of a target tray, both
inside the arc (``rwm.39.3``, ``rwm.46.1.b1``); it is blocked when it passes more than EPS inside a tray of
another unit or a terrain piece that blocks line of sight (``rwm.46.1``, ``rwm.59.2``, ``rwm.81``).

How it is searched: every candidate line lies in the convex hull of the front edge and one target tray's part
inside the arc, so the *blockers* are exactly the obstacles that reach into one of those hulls. When no
obstacle does, the shortest candidate line is the witness. Otherwise lines through every pair of critical
points (front-edge ends, the target's vertices in the arc, the blockers' vertices) are tried: if any clear
line exists, one of these is clear as well (slide a clear line until it grazes two such points), so the
answer is exact up to the tolerance.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import shapely
from pydantic import ConfigDict, model_validator
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.model import Field, Outcome, refuse
from engine.runewars_miniatures.common import GAME, Game, possessive
from engine.runewars_miniatures.occupancy import occupants, occupied
from engine.runewars_miniatures.table import (
    EPS,
    GRID,
    Overlaps,
    Shape,
    Table,
    TablePosition,
    Terrain,
    Unit,
    Vec,
    add,
    check_overlaps,
    mul,
    outcome_words,
    outline,
    polyline,
    pt,
    read_table,
    table_reading,
    table_role,
    unit_name,
    unit_ref,
)

MAX_SEARCH = 4_000_000
"""Bound on the exhaustive line search from terrain: source edges × (critical points)²."""


class SightPosition(TablePosition):
    """Units and terrain on the table, the unit that looks and its target (arc angle in ``table.arc_degrees``)."""

    model_config = ConfigDict(title="Line of sight position")

    game: Game
    situation: Literal["line_of_sight"]
    unit: str = table_role("acting", "Unit tracing line of sight", "The unit that looks: from its front edge, or "
                           "from the edge of the terrain it occupies.")
    target: str = table_role("target", "Target", "The unit it looks at: its trays, or the edge of the terrain it "
                             "occupies.")

    def reading(self) -> list[str]:
        """Return the table in a player's words and who looks at whom."""
        names = {u.id: unit_name(u, i) for i, u in enumerate(self.units)}
        return [*table_reading(self.table, self.units, self.terrain, band=False, arc=True),
                f"Line of sight from {names.get(self.unit, self.unit)} to {names.get(self.target, self.target)}."]
    @model_validator(mode="after")
    def _another_unit(self) -> SightPosition:
        if self.unit == self.target:
            raise refuse("a unit does not trace line of sight to itself; name another target", "target")
        return self


class SightOutcome(Outcome):
    """Whether the target is in the firing arc and in line of sight, a clear line, and what blocks others."""

    in_arc: bool
    line_of_sight: bool
    witness: list[list[float]] | None
    blockers: list[str]
    arc_degrees: float
    overlaps: list[list[str]] = Field(default_factory=list)
    drawing: list[Shape] = Field(default_factory=list, description="What the board draws: the clear line and its "
                                 "two points (sight), the arc lines (arc), the occupied terrain (terrain).")


@rule("rwm.39", "rwm.39.2")
def firing_arc(unit: Unit, arc_degrees: float, reach: float) -> Polygon:
    """Return the unit's firing arc (closed, its lines included) cut off at *reach* tray widths."""
    left, right = unit.front_edge()
    f, r = unit.forward, unit.right
    a = math.radians(arc_degrees)
    dl = add(mul(f, math.cos(a)), mul(r, -math.sin(a)))
    dr = add(mul(f, math.cos(a)), mul(r, math.sin(a)))
    return Polygon([left, add(left, mul(dl, reach)), add(right, mul(dr, reach)), right])


@dataclass(frozen=True)
class Sight:
    """What a unit sees of a target: arc, line of sight, a witness line and the blockers.

    ``from_terrain``/``to_terrain``: the piece the unit or the target occupies (the line starts or ends on its
    edge, 81.6, 81.7); ``elevated``: the unit's piece is Elevated, so nothing blocks (81.9).
    """

    in_arc: bool
    boundary_only: bool
    partly_outside: bool
    line_of_sight: bool
    witness: tuple[Vec, Vec] | None
    blockers: tuple[str, ...]
    arc_lines: tuple[tuple[Vec, Vec], tuple[Vec, Vec]]
    from_terrain: Terrain | None = None
    to_terrain: Terrain | None = None
    elevated: bool = False
    where: Between | None = None


@dataclass(frozen=True)
class Between:
    """Where a line of sight may run: from *source* to *region*, not through *walls* (the blockers shrunk by EPS),
    with the blockers' *corners* a clear line may graze."""

    source: BaseGeometry
    region: BaseGeometry
    walls: tuple[BaseGeometry, ...]
    corners: tuple[Vec, ...]


def _obstacles(table: Table, unit: Unit, target: Unit,
               region: BaseGeometry) -> list[tuple[str, BaseGeometry, BaseGeometry]]:
    """Return (id, shape, shape shrunk by EPS) of every other unit and blocking terrain reaching *region*.

    A unit that occupies terrain is not an obstacle of its own (its piece is), and the pieces the two units
    occupy never block the line that starts or ends on them."""
    skip = {unit.id, target.id} | occupants(table)
    ends = {t.id for t in table.terrain if t.occupant in (unit.id, target.id)}
    found = [(u.id, u.shape) for u in table.units if u.id not in skip]
    found += [(t.id, t.shape) for t in table.terrain if t.blocks_los and t.id not in ends]
    if not found:
        return []
    shapes = np.array([f[1] for f in found], dtype=object)
    close = shapely.intersects(shapes, region)
    kept = [f for f, c in zip(found, close, strict=True) if c]
    eroded = shapely.buffer(np.array([f[1] for f in kept], dtype=object), -EPS, join_style="mitre")
    return [(ident, shape, e) for (ident, shape), e in zip(kept, eroded, strict=True)]


def _free(segments: np.ndarray, blockers: list[BaseGeometry]) -> np.ndarray:
    """Return a mask of the segments (n×2×2 array) that pass through none of *blockers*."""
    lines = shapely.linestrings(segments)
    if not blockers:
        return np.ones(len(lines), dtype=bool)
    tree = shapely.STRtree(blockers)
    hit = tree.query(lines, predicate="intersects")
    mask = np.ones(len(lines), dtype=bool)
    mask[hit[0]] = False
    return mask


def _critical_search(edge: tuple[Vec, Vec], f: Vec, target_in_arc: BaseGeometry, points: np.ndarray,
                     blockers: list[BaseGeometry], reach: float) -> tuple[Vec, Vec] | None:
    """Try the lines through every pair of critical points; return a clear candidate line or None."""
    left, right = np.array(edge[0]), np.array(edge[1])
    e = right - left
    n = len(points)
    i, j = np.triu_indices(n, 1)
    p, q = points[i], points[j]
    d = q - p
    lengths = np.hypot(d[:, 0], d[:, 1])
    keep = lengths > EPS
    p, d, lengths = p[keep], d[keep], lengths[keep]
    d = d / lengths[:, None]
    denom = d[:, 0] * e[1] - d[:, 1] * e[0]          # cross(d, e)
    ok = np.abs(denom) > 1e-12
    p, d, denom = p[ok], d[ok], denom[ok]
    w = left - p
    mu = (w[:, 0] * d[:, 1] - w[:, 1] * d[:, 0]) / denom  # s = left + mu·e lies on the line through p along d
    tol = EPS / max(float(np.hypot(*e)), EPS)
    ok = (mu >= -tol) & (mu <= 1 + tol)
    if not ok.any():
        return None
    mu, d = np.clip(mu[ok], 0.0, 1.0), d[ok]
    s = left + mu[:, None] * e
    forward = d[:, 0] * f[0] + d[:, 1] * f[1]
    d = np.where((forward < 0)[:, None], -d, d)
    rays = shapely.linestrings(np.stack([s, s + d * reach], axis=1))
    inter = shapely.intersection(rays, target_in_arc)
    coords, index = shapely.get_coordinates(inter, return_index=True)
    if not len(coords):
        return None
    dist = np.hypot(coords[:, 0] - s[index, 0], coords[:, 1] - s[index, 1])
    best: dict[int, int] = {}
    for k in np.argsort(dist):
        best.setdefault(int(index[k]), int(k))
    rows = np.array(list(best.keys()))
    ends = coords[np.array(list(best.values()))]
    segments = np.stack([s[rows], ends], axis=1)
    free = _free(segments, blockers)
    if not free.any():
        return None
    k = int(np.argmax(free))
    a, b = segments[k]
    return (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))


@rule("rwm.46.1", "rwm.46.1.b1", "rwm.46.1.b2", "rwm.46.1.b3", "rwm.39.1", "rwm.39.3", "rwm.59.2")
def sight(table: Table, unit: Unit, target: Unit, arc_degrees: float) -> Sight:
    """Return whether *unit* can trace line of sight to *target* inside its firing arc, with the proof."""
    if occupied(table, unit) is not None or occupied(table, target) is not None:
        return terrain_sight(table, unit, target, arc_degrees)
    reach = table.extent()
    arc = firing_arc(unit, arc_degrees, reach)
    coords = list(arc.exterior.coords)
    shown = 100.0
    lines = ((coords[0], add(coords[0], mul(_unit_vec(coords[0], coords[1]), shown))),
             (coords[3], add(coords[3], mul(_unit_vec(coords[3], coords[2]), shown))))
    whole = bool(arc.covers(target.shape))  # the common case: the whole target inside, nothing to clip
    if whole:
        pieces: list[BaseGeometry] = list(target.trays)
    else:
        trays = np.array(target.trays, dtype=object)
        near = trays[shapely.distance(trays, arc) <= EPS]
        clipped = shapely.intersection(near, arc, grid_size=GRID)
        pieces = [p if not p.is_empty else _clip(t, arc) for t, p in zip(near, clipped, strict=True)]
    in_arc = bool(pieces)
    inside_area = target.shape.area if whole else sum(p.area for p in pieces)
    boundary_only = in_arc and inside_area <= EPS
    partly_outside = target.shape.area - inside_area > EPS
    if not in_arc:
        return Sight(False, False, True, False, None, (), lines)
    edge = unit.front_edge()
    coords, index = shapely.get_coordinates(np.array(pieces, dtype=object), return_index=True)
    ends = np.array(edge, dtype=float)
    hulls = [shapely.convex_hull(shapely.multipoints(np.vstack([ends, coords[index == i]])))
             for i in range(len(pieces))]
    hull_all = shapely.convex_hull(shapely.multipoints(np.vstack([ends, coords])))
    blockers = [(ident, shape, eroded) for ident, shape, eroded in _obstacles(table, unit, target, hull_all)
                if not eroded.is_empty and any(eroded.intersects(h) for h in hulls)]
    eroded = [b[2] for b in blockers]
    target_in_arc = target.shape if whole else shapely.union_all(pieces, grid_size=GRID)
    ids = tuple(table.sorted_ids([b[0] for b in blockers]))
    front = LineString(edge)
    near = nearest_points(front, target_in_arc)
    first = ((near[0].x, near[0].y), (near[1].x, near[1].y))
    quick = [first]
    tpts = shapely.get_coordinates(target_in_arc)
    for a in (edge[0], edge[1], ((edge[0][0] + edge[1][0]) / 2, (edge[0][1] + edge[1][1]) / 2)):
        quick.extend((a, (float(x), float(y))) for x, y in tpts)
    where = Between(front, target_in_arc, tuple(eroded), _corners(blockers))
    free = _free(np.array(quick, dtype=float), eroded)
    if free.any():
        k = int(np.argmax(free))
        return Sight(True, boundary_only, partly_outside, True, quick[k], ids, lines, where=where)
    critical = np.vstack([np.array(edge, dtype=float), tpts,
                          *[shapely.get_coordinates(b[1]) for b in blockers]])
    critical = np.unique(np.round(critical, 12), axis=0)
    witness = _critical_search(edge, unit.forward, target_in_arc, critical, eroded, reach)
    return Sight(True, boundary_only, partly_outside, witness is not None, witness, ids, lines, where=where)


def _corners(blockers: list[tuple[str, BaseGeometry, BaseGeometry]]) -> tuple[Vec, ...]:
    """Return the corners of the blockers (a clear line that grazes one passes EPS outside its shrunk shape)."""
    pts = [(float(x), float(y)) for b in blockers for x, y in shapely.get_coordinates(b[1])]
    return tuple(dict.fromkeys(pts))


ENDS_SAMPLED = 64
"""Points sampled along each end of a line of sight (the front edge or terrain edge, the target) when the
shortest clear line is sought: a fixed cap, so the work stays bounded."""
MAX_CORNERS = 256
"""Blocker corners a shortest clear line may be made to graze (the first ones in the position's order)."""


def _samples(shape: BaseGeometry) -> np.ndarray:
    """Return points along the outline of *shape*: its corners and about ENDS_SAMPLED evenly spaced points."""
    line = shape.boundary if shape.geom_type in ("Polygon", "MultiPolygon") else shape
    if line.is_empty:
        line = shape
    length = float(line.length)
    pts = shapely.get_coordinates(shapely.segmentize(line, length / ENDS_SAMPLED) if length > EPS else line)
    if len(pts) > 4 * ENDS_SAMPLED:
        pts = pts[:: len(pts) // (4 * ENDS_SAMPLED) + 1]
    return np.unique(np.round(pts, 12), axis=0)


def _first_hits(starts: np.ndarray, through: np.ndarray, shape: BaseGeometry, reach: float) -> np.ndarray:
    """Return the segments (n×2×2) from each start along the ray through the matching point to where the ray
    first meets *shape* (rays that miss it are left out)."""
    d = through - starts
    n = np.hypot(d[:, 0], d[:, 1])
    keep = n > EPS
    starts, d = starts[keep], d[keep] / n[keep][:, None]
    if not len(starts):
        return np.empty((0, 2, 2))
    rays = shapely.linestrings(np.stack([starts, starts + d * reach], axis=1))
    inter = shapely.intersection(rays, shape)
    hit = ~shapely.is_empty(inter)
    if not hit.any():
        return np.empty((0, 2, 2))
    firsts = shapely.shortest_line(shapely.points(starts[hit]), inter[hit])
    out: np.ndarray = shapely.get_coordinates(firsts).reshape(-1, 2, 2)
    return out


@rule("rwm.64.3.b1", "rwm.46.1")
def shortest_clear_line(seen: Sight, reach: float) -> tuple[Vec, Vec] | None:
    """Return the shortest clear line of sight the search finds (None without line of sight): the closest points
    when their line is clear, else the shortest clear one among lines between points sampled on both ends, from
    each sampled point to the nearest point of the other end, and lines grazing a blocker's corner."""
    where = seen.where
    if not seen.line_of_sight or where is None:
        return None
    near = shapely.shortest_line(where.source, where.region)
    first = shapely.get_coordinates(near).reshape(1, 2, 2)
    walls = list(where.walls)
    if _free(first, walls).all():
        return _pair(first[0])
    src, dst = _samples(where.source), _samples(where.region)
    i, j = np.meshgrid(np.arange(len(src)), np.arange(len(dst)), indexing="ij")
    parts = [np.stack([src[i.ravel()], dst[j.ravel()]], axis=1),
             shapely.get_coordinates(shapely.shortest_line(shapely.points(src), where.region)).reshape(-1, 2, 2),
             shapely.get_coordinates(shapely.shortest_line(where.source, shapely.points(dst))).reshape(-1, 2, 2)]
    if seen.witness is not None:
        parts.append(np.array([seen.witness], dtype=float))
    corners = np.array(where.corners[:MAX_CORNERS], dtype=float).reshape(-1, 2)
    if len(corners):
        a, k = np.meshgrid(np.arange(len(src)), np.arange(len(corners)), indexing="ij")
        parts.append(_first_hits(src[a.ravel()], corners[k.ravel()], where.region, reach))
        b, k = np.meshgrid(np.arange(len(dst)), np.arange(len(corners)), indexing="ij")
        back = _first_hits(dst[b.ravel()], corners[k.ravel()], where.source, reach)
        parts.append(back[:, ::-1, :])
    segments = np.concatenate([p for p in parts if len(p)])
    free = _free(segments, walls)
    if not free.any():
        return None
    d = segments[free]
    lengths = np.hypot(d[:, 1, 0] - d[:, 0, 0], d[:, 1, 1] - d[:, 0, 1])
    return _pair(d[int(np.argmin(lengths))])


def _pair(segment: np.ndarray) -> tuple[Vec, Vec]:
    return (float(segment[0][0]), float(segment[0][1])), (float(segment[1][0]), float(segment[1][1]))


def _arc_lines(unit: Unit, arc: Polygon) -> tuple[tuple[Vec, Vec], tuple[Vec, Vec]]:
    coords = list(arc.exterior.coords)
    return ((coords[0], add(coords[0], mul(_unit_vec(coords[0], coords[1]), 100.0))),
            (coords[3], add(coords[3], mul(_unit_vec(coords[3], coords[2]), 100.0))))


def _segments(shape: Polygon) -> list[tuple[Vec, Vec, Vec]]:
    """Return the edges of a polygon as (a, b, outward normal)."""
    ring = shape.exterior if shape.exterior.is_ccw else shape.exterior.reverse()
    pts = [(float(x), float(y)) for x, y in list(ring.coords)]
    out = []
    for a, b in itertools.pairwise(pts):
        d = _unit_vec(a, b)
        out.append((a, b, (d[1], -d[0])))  # counter-clockwise ring: the outside is on the right
    return out


@rule("rwm.81.6", "rwm.81.7", "rwm.81.9.b3", "rwm.46.1", "rwm.39.1", "rwm.39.3")
def terrain_sight(table: Table, unit: Unit, target: Unit, arc_degrees: float) -> Sight:
    """Line of sight when the unit or the target occupies terrain: from any point of the unit's piece, its arc
    ignored (81.6), to any point of the target's piece (81.7); from Elevated terrain nothing blocks (81.9)."""
    reach = table.extent()
    src, dst = occupied(table, unit), occupied(table, target)
    whole = dst.shape if dst is not None else target.shape
    arc = firing_arc(unit, arc_degrees, reach)
    lines = _arc_lines(unit, arc)
    if src is not None:
        region: BaseGeometry = whole
        segments = _segments(src.shape)
        source: BaseGeometry = src.shape
        inside_area, boundary_only = whole.area, False
    else:
        region = shapely.intersection(whole, arc, grid_size=GRID)
        if region.is_empty and whole.distance(arc) <= EPS:
            region = _clip(whole, arc)
        edge = unit.front_edge()
        segments = [(edge[0], edge[1], unit.forward)]
        source = LineString(edge)
        inside_area = region.area
        boundary_only = not region.is_empty and inside_area <= EPS
    elevated = src is not None and src.has_keyword("elevated")
    if region.is_empty:
        return Sight(False, False, True, False, None, (), lines, src, dst, elevated)
    partly = whole.area - inside_area > EPS
    hull = shapely.convex_hull(shapely.union_all([source, region]))
    blockers = [] if elevated else [b for b in _obstacles(table, unit, target, hull) if not b[2].is_empty]
    eroded = [b[2] for b in blockers]
    ids = tuple(table.sorted_ids([b[0] for b in blockers]))
    near = nearest_points(source, region)
    quick = [((near[0].x, near[0].y), (near[1].x, near[1].y))]
    spts = [(float(x), float(y)) for x, y in shapely.get_coordinates(source)]
    tpts = shapely.get_coordinates(region)
    quick += [(a, (float(x), float(y))) for a in spts for x, y in tpts]
    where = Between(source, region, tuple(eroded), _corners(blockers))
    free = _free(np.array(quick, dtype=float), eroded)
    if free.any():
        k = int(np.argmax(free))
        return Sight(True, boundary_only, partly, True, quick[k], ids, lines, src, dst, elevated, where)
    critical = np.vstack([np.array(spts, dtype=float), tpts, *[shapely.get_coordinates(b[1]) for b in blockers]])
    critical = np.unique(np.round(critical, 12), axis=0)
    if len(segments) * len(critical) ** 2 > MAX_SEARCH:
        raise UnreadableInputError(f"{src.label if src else target.label}: too many corners near this line of sight "
                                   "to search every line; give the terrain fewer vertices",
                                   path=f"terrain[{(src or dst).index}].polygon")  # type: ignore[union-attr]
    for a, b, n in segments:
        witness = _critical_search((a, b), n, region, critical, eroded, reach)
        if witness is not None:
            return Sight(True, boundary_only, partly, True, witness, ids, lines, src, dst, elevated, where)
    return Sight(True, boundary_only, partly, False, None, ids, lines, src, dst, elevated, where)


def _unit_vec(a: Any, b: Any) -> Vec:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return (dx / length, dy / length)


def _clip(tray: Polygon, arc: Polygon) -> BaseGeometry:
    piece = tray.intersection(arc)
    if piece.is_empty:  # touching the arc line within the tolerance only
        a, _b = nearest_points(tray, arc)
        return a
    return piece


@rule("rwm.39", "rwm.39.2", "rwm.39.1", "rwm.39.3", "rwm.46.1", "rwm.46.1.b1")
def _arc(unit: Unit, target: Unit, seen: Sight, arc: float, trace: Trace) -> None:
    """The firing arc, and whether the target is inside it (a part inside counts)."""
    if seen.from_terrain is not None:
        return
    trace.step(f"{possessive(unit.label)} firing arc: the region in front of its front edge between the two arc lines "
               f"leaving its front corners at {arc:g}° from its facing (the lines belong to the arc).", "rwm.39",
               "rwm.39.2")
    if not seen.in_arc:
        trace.step(f"No part of any of {possessive(target.label)} trays is inside the firing arc: "
                   f"{target.label} is outside "
                   f"it, so no line of sight can be traced.", "rwm.39.1", "rwm.39.3", "rwm.46.1")
        return
    how = (" only on an arc line, and the lines are part of the arc" if seen.boundary_only else "")
    trace.step(f"Part of {possessive(target.label)} trays is inside the firing arc{how}: the whole unit counts as "
               "inside it.", "rwm.39.1", *(["rwm.39.2"] if seen.boundary_only else []))
    if seen.partly_outside:
        trace.step(f"Part of {target.label} is outside the arc: a line of sight may only end on the part "
                   "inside it.", "rwm.39.3", "rwm.46.1.b1")


@rule("rwm.46.1", "rwm.46.1.b3", "rwm.46.1.b2", "rwm.81.9.b5")
def _line(table: Table, unit: Unit, target: Unit, seen: Sight, trace: Trace) -> str:
    """A clear line from the front edge to the target, or what blocks every line; return the blockers' names."""
    terrain_ids = {t.id for t in table.terrain}
    names = ", ".join(table.label(b) for b in seen.blockers)
    blocking_terrain = [b for b in seen.blockers if b in terrain_ids]
    terrain_cites = ["rwm.59.2", "rwm.81"] if blocking_terrain else []
    start = (f"the edge of {seen.from_terrain.label}" if seen.from_terrain is not None
             else f"{possessive(unit.label)} front edge")
    end = f"the edge of {seen.to_terrain.label}" if seen.to_terrain is not None else target.label
    inside = "" if seen.from_terrain is not None else " stays inside the arc and"
    if seen.line_of_sight and seen.witness is not None:
        a, b = seen.witness
        also = (f" ({names} block{'s' if len(seen.blockers) == 1 else ''} some other lines)" if seen.blockers
                else "")
        clear = ("is not blocked, since nothing blocks from Elevated terrain" if seen.elevated
                 else "crosses no other unit and no terrain that blocks")
        trace.step(f"A line from {start} at ({a[0]:.3f}, {a[1]:.3f}) to {end} at "
                   f"({b[0]:.3f}, {b[1]:.3f}){inside} {clear}: {unit.label} has line of sight{also}.", "rwm.46.1",
                   "rwm.46.1.b3", *terrain_cites)
    elif seen.in_arc:
        part = end if seen.from_terrain is not None else f"the part of {end} inside the arc"
        trace.step(f"Every line from {start} to {part} crosses {names}: no line of sight.", "rwm.46.1", "rwm.46.1.b2",
                   *terrain_cites)
    if seen.elevated:
        return names
    if seen.to_terrain is not None and not seen.to_terrain.blocks_los:
        trace.step(f"{seen.to_terrain.label} is Exposed, but this line of sight is traced to it, so it counts as "
                   "a place to see, not as something to see through.", "rwm.81.9.b5")
    exposed = [t for t in table.terrain if not t.blocks_los and t is not seen.to_terrain]
    if exposed:
        trace.step(f"{', '.join(t.label for t in exposed)} is Exposed terrain and does not block this line of sight.",
                   "rwm.81.9.b5")
    return names


@rule("rwm.81.6", "rwm.81.7", "rwm.81.9.b3", "rwm.81.2")
def _terrain_ends(unit: Unit, target: Unit, seen: Sight, trace: Trace) -> None:
    """Where the line starts and ends when a unit occupies terrain, and Elevated terrain."""
    if seen.from_terrain is not None:
        trace.step(f"{unit.label} occupies {seen.from_terrain.label}: it traces line of sight from any point of the "
                   "terrain's edge, and its firing arc is ignored, so it may look in any direction.", "rwm.81.2",
                   "rwm.81.6")
    if seen.to_terrain is not None:
        trace.step(f"{target.label} occupies {seen.to_terrain.label}: the line may end at any point of the "
                   "terrain's edge.", "rwm.81.2", "rwm.81.7")
    if seen.elevated and seen.from_terrain is not None:
        trace.step(f"{seen.from_terrain.label} is Elevated: other units and terrain do not block the line of sight "
                   f"of {unit.label}.", "rwm.81.9.b3")


def sight_drawing(table: Table, unit: Unit, seen: Sight) -> list[Shape]:
    """Return the shapes of a line of sight: the clear line and its points, the arc lines, occupied terrain."""
    out: list[Shape] = []
    if seen.witness is not None:
        a, b = seen.witness
        out += [polyline("sight", [a, b], unit.id, "line of sight"),
                Shape(kind="point", role="sight", points=[pt(a)], unit=unit.id, label="traced from"),
                Shape(kind="point", role="sight", points=[pt(b)], unit=unit.id, label="traced to")]
    if seen.from_terrain is None:
        out += [polyline("arc", list(line), unit.id, "firing-arc line") for line in seen.arc_lines]
    for piece in (seen.from_terrain, seen.to_terrain):
        if piece is not None and piece.occupant is not None:
            out.append(outline("terrain", piece.shape, piece.occupant,
                               f"occupied by {table.label(piece.occupant)}"))
    return out


TABLE_LABELS: dict[str, Label] = {
    **outcome_words("overlaps", "drawing"),
    "in_arc": "In the firing arc",
    "line_of_sight": "Line of sight",
    "witness": "A clear sight line (from, to)",
    "blockers": "Blocked by",
    "arc_degrees": "Firing arc (degrees)",
}
"""The outcome's fields in a player's words (the ruling's outcome list on the boards and the CLI)."""


@situation(GAME, "line_of_sight", SightPosition, labels=TABLE_LABELS)
def resolve_line_of_sight(pos: SightPosition, trace: Trace, corpus: Corpus) -> SightOutcome | Overlaps:
    """Say whether a unit has line of sight to a target inside its firing arc, and what is in the way."""
    table = read_table(pos.table, pos.units, pos.terrain, need_arc=True)
    unit, target = unit_ref(table, pos.unit, "unit"), unit_ref(table, pos.target, "target")
    bad = check_overlaps(table, trace)
    if bad:
        return Overlaps(overlaps=bad)
    arc = float(table.arc_degrees or 0)
    seen = sight(table, unit, target, arc)
    _terrain_ends(unit, target, seen, trace)
    _arc(unit, target, seen, arc, trace)
    names = _line(table, unit, target, seen, trace)
    verdict = ("has line of sight to" if seen.line_of_sight else "has no line of sight to")
    why = ("" if seen.line_of_sight else (" (outside the firing arc)" if not seen.in_arc else f" (blocked by {names})"))
    how = (f"its firing arc is ignored in {seen.from_terrain.label}" if seen.from_terrain is not None
           else f"arc lines at {arc:g}°")
    trace.summarize(f"{unit.label} {verdict} {target.label}{why}; {how}.")
    return SightOutcome(in_arc=seen.in_arc, line_of_sight=seen.line_of_sight,
                        witness=[pt(seen.witness[0]), pt(seen.witness[1])] if seen.witness else None,
                        blockers=list(seen.blockers), arc_degrees=arc, drawing=sight_drawing(table, unit, seen))
