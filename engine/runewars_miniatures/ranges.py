"""RuneWars Miniatures range, measured on the table between the closest points of two units.

The ``range`` situation (CONTRACT.md, "RuneWars Miniatures on the table"); the module is not called
``range`` so as not to shadow the builtin. The ruler has 5 bands (``rwm.64.1``, a corpus fact) of
``table.band`` tray widths; a distance on a band line belongs to the nearer band (``rwm.64.2``); without
line of sight the two closest points are measured (``rwm.64.3``, ``rwm.64.3.b2``, ``rwm.64.4``), with only
trays counting (``rwm.87.3``) and one edge of the ruler (``rwm.64.4.b1``). The words *at*, *within* and
*beyond* follow ``rwm.64.6`` and its bullets.

A unit that occupies terrain is measured from or to any point of the terrain's edge (``rwm.81.6``,
``rwm.81.7``); the target may instead be an edge of the play area or of a deployment area, any point of which
may be used (``rwm.64.5``), so the closest one is. For a ranged attack, :func:`sight_range` measures between
the places a line of sight may join (``rwm.64.3.b1``).

The farthest part of the target is found at the vertices of its outline (exact when the measuring shape is
convex, as every full formation is); when it is not (a partial rank, an odd terrain piece) the outline is
also sampled every 1/16 of a tray width, which is exact to well under the contract's 3 decimals for any
table the examples use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import shapely
from pydantic import model_validator
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Outcome, maybe, refuse
from engine.runewars_miniatures.areas import (
    EDGE_WORDS,
    DeploymentAreas,
    EdgeName,
    PlayArea,
    deployment_edge,
    play_area_edge,
    read_areas,
    read_play_area,
)
from engine.runewars_miniatures.common import GAME, Game, possessive
from engine.runewars_miniatures.occupancy import footprint, occupied
from engine.runewars_miniatures.table import (
    EPS,
    Id,
    Overlaps,
    Shape,
    Table,
    TablePosition,
    Terrain,
    Unit,
    Vec,
    check_overlaps,
    outcome_words,
    outline,
    polyline,
    pt,
    r3,
    read_table,
    table_reading,
    table_role,
    unit_name,
    unit_ref,
)

SAMPLE = 1 / 16
"""Step, in tray widths, at which a target's outline is sampled when the measuring shape is not convex."""


class RangePosition(TablePosition):
    """Units on the table, the unit that measures and its target: another unit, or an edge of the play area or
    of a deployment area (range band length in ``table.band``)."""

    game: Game
    situation: Literal["range"]
    unit: str = table_role("acting", "Unit measuring", "The unit at the ruler's range 1 end (or the terrain it "
                           "occupies).")
    target: str | None = Field(None, title="Target", min_length=1, max_length=80,
                               description="The unit measured to (or the terrain it occupies); absent when "
                               "measuring to an edge.", json_schema_extra={"x-table-role": "target"})
    to_edge: EdgeName | None = maybe("Measure to an edge instead of a unit (64.5): any point of it may be used; "
                                     "absent: measure to the target unit.", title="Edge measured to")
    deployment_area: Id | None = maybe("The deployment area whose edge is measured to (with the edge 'A deployment "
                                       "area's edge').", title="Deployment area measured to")
    play_area: PlayArea | None = maybe("The play area, needed to measure to one of its edges (and to leave its edge "
                                       "out of a deployment edge).")
    deployment_areas: DeploymentAreas | None = maybe("The deployment areas from the deployment card, needed to "
                                                     "measure to a deployment edge.")

    def reading(self) -> list[str]:
        """Return the table in a player's words and who measures to whom."""
        names = {u.id: unit_name(u, i) for i, u in enumerate(self.units)}
        if self.to_edge is None:
            to = names.get(self.target or "", self.target or "")
        elif self.to_edge == "deployment":
            area = next((a for a in self.deployment_areas or [] if a.id == self.deployment_area), None)
            to = (f"the edge of the {area.colour + ' ' if area and area.colour else ''}deployment area of "
                  f"{area.player if area else self.deployment_area}")
        else:
            to = EDGE_WORDS[self.to_edge]
        return [*table_reading(self.table, self.units, self.terrain, band=True, arc=False),
                f"Range measured from {names.get(self.unit, self.unit)} to {to}."]

    @model_validator(mode="after")
    def _another_unit(self) -> RangePosition:
        if self.to_edge is None:
            if self.target is None:
                raise refuse("missing field 'target' (or 'to_edge' to measure to an edge)", "target")
            if self.unit == self.target:
                raise refuse("measure the range to another unit, not to the unit itself", "target")
            return self
        if self.target is not None:
            raise refuse("measure to a unit or to an edge, not both: leave out 'target' or 'to_edge'", "to_edge")
        if self.to_edge == "deployment":
            if self.deployment_area is None:
                raise refuse("missing field 'deployment_area' (the area whose edge is measured to)",
                             "deployment_area")
            if not any(a.id == self.deployment_area for a in self.deployment_areas or []):
                raise refuse(f"{self.deployment_area!r} names no deployment area of the position", "deployment_area")
        elif self.play_area is None:
            raise refuse(f"missing field 'play_area' (needed to measure to its {self.to_edge} edge)", "play_area")
        return self


class RangeOutcome(Outcome):
    """The range between the closest points, the bands the target is at, within and beyond, with the proof."""

    range: int | None
    distance: float
    at: list[int]
    within: int | None
    beyond: list[int]
    closest: list[list[float]]
    farthest: float
    farthest_point: list[float]
    band: float
    overlaps: list[list[str]] = Field(default_factory=list)
    drawing: list[Shape] = Field(default_factory=list, description="What the board draws: the ruler between the "
                                 "two points measured (range), the occupied terrain (terrain).")


@rule("rwm.64.1", "rwm.64.2")
def band_of(distance: float, band: float, bands: int) -> int | None:
    """Return the ruler band of a distance: band k covers ((k−1)·band, k·band]; 0 is band 1; a line belongs
    to the nearer band (within EPS); beyond the last band, None."""
    if distance <= band + EPS:
        return 1
    k = math.ceil((distance - EPS) / band)
    return k if k <= bands else None


def on_band_line(distance: float, band: float, bands: int) -> bool:
    """Return whether a distance lies on a line between two bands (or the ruler's end)."""
    k = round(distance / band)
    return 1 <= k <= bands and abs(distance - k * band) <= EPS


@dataclass(frozen=True)
class Measure:
    """The range from one unit to another: closest points, distance, bands at/within/beyond."""

    distance: float
    closest: tuple[Vec, Vec]
    farthest: float
    farthest_point: Vec
    range: int | None
    at: tuple[int, ...]
    within: int | None
    beyond: tuple[int, ...]


@rule("rwm.64.3", "rwm.64.3.b2", "rwm.64.4", "rwm.64.4.b1", "rwm.87.3")
def closest_points(unit: BaseGeometry, target: BaseGeometry) -> tuple[float, tuple[Vec, Vec]]:
    """Return the shortest distance between the two components (trays, terrain or an edge) and its two points."""
    a, b = nearest_points(unit, target)
    return float(unit.distance(target)), ((a.x, a.y), (b.x, b.y))


def farthest_part(unit: BaseGeometry, target: BaseGeometry, convex: bool) -> tuple[float, Vec]:
    """Return how far the target's farthest part is from the unit, and where it is (*convex*: the unit's shape
    is convex, so the target's corners are enough)."""
    outline = target.boundary if target.geom_type in ("Polygon", "MultiPolygon") else target
    if not convex:  # a partial rank or an odd terrain piece: the distance field is not convex
        outline = shapely.segmentize(outline, SAMPLE)
    coords = shapely.get_coordinates(outline)
    dists = shapely.distance(unit, shapely.points(coords))
    k = int(dists.argmax())
    return float(dists[k]), (float(coords[k][0]), float(coords[k][1]))


def is_convex(shape: BaseGeometry) -> bool:
    """Return whether a shape is convex (up to the tolerance)."""
    return bool(shape.convex_hull.area - shape.area <= EPS)


@rule("rwm.64.6", "rwm.64.6.b1", "rwm.64.6.b2", "rwm.64.6.b3", "rwm.64.6.b4")
def measure(unit: BaseGeometry, target: BaseGeometry, band: float, bands: int, edge: bool = False) -> Measure:
    """Return the range from *unit* (the ruler's range 1 end) to *target*, with at/within/beyond; to an *edge*
    the one point used is the closest (64.5), so it is at and within that range alone."""
    distance, closest = closest_points(unit, target)
    if edge:
        far, far_point = distance, closest[1]
    else:
        far, far_point = farthest_part(unit, target, is_convex(unit))
    rng = band_of(distance, band, bands)
    far_band = band_of(far, band, bands)
    at = tuple(range(rng, (far_band or bands) + 1)) if rng is not None else ()
    beyond = tuple(range(1, (rng if rng is not None else bands + 1)))
    return Measure(distance, closest, far, far_point, rng, at, far_band, beyond)


@rule("rwm.64.3", "rwm.64.3.b2", "rwm.64.4", "rwm.64.4.b1", "rwm.87.3", "rwm.64.1", "rwm.64.2", "rwm.64.6.b2")
def _ruler(ends: Ends, m: Measure, band: float, bands: int, trace: Trace) -> None:
    """Lay the ruler between the closest points and read the band the target is at."""
    a, b = m.closest
    trace.step(f"The ruler's range 1 end goes on {ends.source_point} ({a[0]:.3f}, "
               f"{a[1]:.3f}) and it points "
               f"at {ends.target_point} ({b[0]:.3f}, {b[1]:.3f}): no line of sight "
               f"is needed, so the two "
               f"closest points are used; distance {m.distance:.3f} tray widths.", "rwm.64.3", "rwm.64.3.b2",
               "rwm.64.4", "rwm.64.4.b1", "rwm.87.3")
    trace.step(f"The ruler has {bands} bands of {band:g} tray widths each: band k covers more than (k−1)×{band:g} "
               f"and up to k×{band:g}.", "rwm.64.1")
    if on_band_line(m.distance, band, bands):
        trace.step(f"The distance lies on a band line, which belongs to the band nearer the range 1 end: range "
                   f"{m.range}.", "rwm.64.2")
    if m.range is None:
        trace.step(f"{m.distance:.3f} is more than {bands} × {band:g} = {bands * band:g}: {ends.target} is off the "
                   "ruler, beyond every band.", "rwm.64.1", "rwm.64.6.b2")
    else:
        trace.step(f"{ends.target} is at range {m.range}.", "rwm.64.4")


@dataclass(frozen=True)
class Ends:
    """What the ruler joins, in a player's words, and the shapes measured."""

    source: str
    target: str
    source_point: str
    target_point: str
    source_shape: BaseGeometry
    target_shape: BaseGeometry
    edge: bool = False


@rule("rwm.81.2", "rwm.81.6", "rwm.81.7")
def unit_end(table: Table, unit: Unit, role: str, trace: Trace | None = None) -> tuple[str, BaseGeometry]:
    """Return how the ruler's end on a unit reads and the shape it lies on: a unit that occupies terrain is
    measured from or to any point of the terrain's edge (81.6, 81.7)."""
    piece = occupied(table, unit)
    if piece is None:
        return f"{possessive(unit.label)} closest point", unit.shape
    if trace is not None:
        para = "rwm.81.6" if role == "from" else "rwm.81.7"
        trace.step(f"{unit.label} occupies {piece.label}: range is measured {role} any point of the terrain's "
                   "edge.", "rwm.81.2", para)
    return f"the closest point of the edge of {piece.label}", piece.shape


@rule("rwm.64.5")
def edge_end(pos: RangePosition, trace: Trace) -> tuple[str, BaseGeometry]:
    """Return the edge measured to (64.5: any point along it may be used, so the closest one is)."""
    play = read_play_area(pos.play_area)
    if pos.to_edge == "deployment":
        areas = read_areas(pos.deployment_areas)
        area = next(a for a in areas if a.id == pos.deployment_area)
        words, shape = f"the edge of {area.label}", deployment_edge(area, play)
    else:
        assert play is not None and pos.to_edge is not None
        words, shape = EDGE_WORDS[pos.to_edge], play_area_edge(play, pos.to_edge)
    trace.step(f"Measuring to {words}: any point along that edge may be used, so the ruler points at its closest "
               "point.", "rwm.64.5")
    return words, shape


def range_drawing(table: Table, m: Measure, unit: Unit, pieces: list[Terrain]) -> list[Shape]:
    """Return the shapes of a measurement: the ruler line and its two points, and the occupied terrain."""
    a, b = m.closest
    out = [polyline("range", [a, b], unit.id, f"{r3(m.distance):g} tray widths"),
           Shape(kind="point", role="range", points=[pt(a)], unit=unit.id, label="measured from"),
           Shape(kind="point", role="range", points=[pt(b)], unit=unit.id, label="measured to")]
    out += [outline("terrain", t.shape, t.occupant, f"occupied by {table.label(t.occupant or '')}") for t in pieces]
    return out


def _bands(bands: tuple[int, ...] | list[int]) -> str:
    """Return "band 2" / "bands 1, 2 and 3"."""
    if len(bands) == 1:
        return f"band {bands[0]}"
    return "bands " + ", ".join(map(str, bands[:-1])) + f" and {bands[-1]}"


def _parts(label: str, n: int) -> str:
    """Return "A part of X's trays lies" / "Parts of X's trays lie"."""
    return f"A part of {possessive(label)} trays lies" if n == 1 else f"Parts of {possessive(label)} trays lie"


@rule("rwm.64.6", "rwm.64.6.b1", "rwm.64.6.b3", "rwm.64.6.b4", "rwm.64.6.b2")
def _at_within_beyond(target: Unit, m: Measure, bands: int, trace: Trace) -> None:
    """The bands the target's trays lie in (at), all of them (within), and none of them (beyond)."""
    if m.at:
        trace.step(f"{_parts(target.label, len(m.at))} in {_bands(m.at)} (its farthest part "
                   f"is {m.farthest:.3f} away): it is at "
                   f"{'range ' + str(m.at[0]) if len(m.at) == 1 else 'ranges ' + ', '.join(map(str, m.at))}.",
                   "rwm.64.6", "rwm.64.6.b1")
    if m.within is not None:
        alone = f", and within range {m.within} alone" if m.at == (m.within,) else ""
        trace.step(f"Every part of {possessive(target.label)} trays lies in bands 1-{m.within}: it is within range "
                   f"1-{m.within}{alone}.", "rwm.64.6.b3", "rwm.64.6.b4")
    else:
        trace.step(f"Part of {target.label} lies beyond band {bands}: it is within no range of the ruler.",
                   "rwm.64.6.b4")
    if m.beyond:
        trace.step(f"No part of {target.label} lies in {_bands(m.beyond)}: it is beyond "
                   f"{'them' if len(m.beyond) > 1 else 'it'}.", "rwm.64.6.b2")


TABLE_LABELS: dict[str, Label] = {
    **outcome_words("overlaps", "drawing"),
    "range": "Range",
    "distance": "Distance (tray widths)",
    "at": "Measured at",
    "within": "Within range",
    "beyond": "Beyond range",
    "closest": "Closest points",
    "farthest": "Farthest distance (tray widths)",
    "farthest_point": "Farthest points",
    "band": "Range band length",
}
"""The outcome's fields in a player's words (the ruling's outcome list on the boards and the CLI)."""


@situation(GAME, "range", RangePosition, labels=TABLE_LABELS)
def resolve_range(pos: RangePosition, trace: Trace, corpus: Corpus) -> RangeOutcome | Overlaps:
    """Measure the range from one unit to another unit or to an edge between their closest points, with
    at/within/beyond."""
    table = read_table(pos.table, pos.units, pos.terrain, need_band=True)
    unit = unit_ref(table, pos.unit, "unit")
    target = unit_ref(table, pos.target, "target") if pos.target is not None else None
    bad = check_overlaps(table, trace)
    if bad:
        return Overlaps(overlaps=bad)
    band = float(table.band or 0)
    bands = int(corpus.fact("rwm.64.1", "range_bands"))
    src_words, src_shape = unit_end(table, unit, "from", trace)
    if target is not None:
        dst_words, dst_shape = unit_end(table, target, "to", trace)
        ends = Ends(unit.label, target.label, src_words, dst_words, src_shape, dst_shape)
    else:
        words, shape = edge_end(pos, trace)
        ends = Ends(unit.label, words[0].upper() + words[1:], src_words, f"the closest point of {words}", src_shape,
                    shape, edge=True)
    m = measure(ends.source_shape, ends.target_shape, band, bands, edge=ends.edge)
    _ruler(ends, m, band, bands, trace)
    if target is not None:
        _at_within_beyond(target, m, bands, trace)
    where = f"at range {m.range}" if m.range is not None else f"beyond range {bands} (off the ruler)"
    within = f", within range 1-{m.within}" if m.within is not None else ""
    trace.summarize(f"{ends.target} is {where} from {unit.label}: {r3(m.distance):g} tray widths between the "
                    f"closest points{within} (bands of {band:g}).")
    pieces = [t for t in table.terrain if t.occupant is not None
              and t.occupant in (unit.id, target.id if target else None)]
    return RangeOutcome(range=m.range, distance=r3(m.distance), at=list(m.at), within=m.within,
                        beyond=list(m.beyond), closest=[pt(m.closest[0]), pt(m.closest[1])], farthest=r3(m.farthest),
                        farthest_point=pt(m.farthest_point), band=band, drawing=range_drawing(table, m, unit, pieces))


def range_between(table: Table, unit: Unit, target: Unit, corpus: Corpus) -> Measure:
    """Return the closest-points measurement between the two units' places on the table (used by ``attack``)."""
    return measure(footprint(table, unit), footprint(table, target), float(table.band or 0),
                   int(corpus.fact("rwm.64.1", "range_bands")))


@rule("rwm.64.3", "rwm.64.3.b1", "rwm.81.6", "rwm.81.7")
def sight_range(table: Table, unit: Unit, target: Unit, source: BaseGeometry, region: BaseGeometry,
                corpus: Corpus) -> Measure:
    """Return the range between the places a line of sight may join (64.3): from *source* (the front edge, or
    the edge of the unit's terrain, 81.6) to *region* (the target's part in the arc, or its terrain, 81.7)."""
    return measure(source, region, float(table.band or 0), int(corpus.fact("rwm.64.1", "range_bands")))
