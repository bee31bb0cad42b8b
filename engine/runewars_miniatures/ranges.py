"""RuneWars Miniatures range, measured on the table between the closest points of two units.

The ``range`` situation (CONTRACT.md, "RuneWars Miniatures on the table"); the module is not called
``range`` so as not to shadow the builtin. The ruler has 5 bands (``rwm.64.1``, a corpus fact) of
``table.band`` tray widths; a distance on a band line belongs to the nearer band (``rwm.64.2``); without
line of sight the two closest points are measured (``rwm.64.3``, ``rwm.64.3.b2``, ``rwm.64.4``), with only
trays counting (``rwm.87.3``) and one edge of the ruler (``rwm.64.4.b1``). The words *at*, *within* and
*beyond* follow ``rwm.64.6`` and its bullets.

The farthest part of the target is found at the vertices of its outline (exact when the measuring unit's
trays form a convex block, as every full formation does); when the measuring unit has a partial rank the
outline is also sampled every 1/16 of a tray, which is exact to well under the contract's 3 decimals for
any table the examples use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import shapely
from pydantic import model_validator
from shapely.ops import nearest_points

from engine.core import Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Outcome, refuse
from engine.runewars_miniatures.common import GAME, Game, possessive
from engine.runewars_miniatures.table import (
    EPS,
    Id,
    Overlaps,
    Table,
    TablePosition,
    Unit,
    Vec,
    check_overlaps,
    pt,
    r3,
    read_table,
    table_reading,
    table_role,
    unit_name,
    unit_ref,
)


class RangePosition(TablePosition):
    """Units on the table, the unit that measures and its target (range band length in ``table.band``)."""

    game: Game
    situation: Literal["range"]
    unit: Id = table_role("acting", "Measuring unit", "the unit the ruler's range 1 end is placed against")
    target: Id = table_role("target", "Target", "the unit the range is measured to")


    def reading(self) -> list[str]:
        """Return the table in a player's words and who measures to whom."""
        names = {u.id: unit_name(u, i) for i, u in enumerate(self.units)}
        return [*table_reading(self.table, self.units, self.terrain, band=True, arc=False),
                f"Range measured from {names.get(self.unit, self.unit)} to {names.get(self.target, self.target)}."]
    @model_validator(mode="after")
    def _another_unit(self) -> RangePosition:
        if self.unit == self.target:
            raise refuse("measure the range to another unit, not to the unit itself", "target")
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
def closest_points(unit: Unit, target: Unit) -> tuple[float, tuple[Vec, Vec]]:
    """Return the shortest distance between the two units' trays and the two points that give it."""
    a, b = nearest_points(unit.shape, target.shape)
    return float(unit.shape.distance(target.shape)), ((a.x, a.y), (b.x, b.y))


def farthest_part(unit: Unit, target: Unit) -> tuple[float, Vec]:
    """Return how far the target's farthest part is from the unit's trays, and where it is."""
    outline = target.shape.exterior
    if len(unit.cells) != unit.files * len(unit.ranks):  # partial rank: the distance field is not convex
        outline = shapely.segmentize(outline, min(unit.width, unit.depth) / 16)
    coords = shapely.get_coordinates(outline)
    dists = shapely.distance(unit.shape, shapely.points(coords))
    k = int(dists.argmax())
    return float(dists[k]), (float(coords[k][0]), float(coords[k][1]))


@rule("rwm.64.6", "rwm.64.6.b1", "rwm.64.6.b2", "rwm.64.6.b3", "rwm.64.6.b4")
def measure(unit: Unit, target: Unit, band: float, bands: int) -> Measure:
    """Return the range from *unit* (the ruler's range 1 end) to *target*, with at/within/beyond."""
    distance, closest = closest_points(unit, target)
    far, far_point = farthest_part(unit, target)
    rng = band_of(distance, band, bands)
    far_band = band_of(far, band, bands)
    at = tuple(range(rng, (far_band or bands) + 1)) if rng is not None else ()
    beyond = tuple(range(1, (rng if rng is not None else bands + 1)))
    return Measure(distance, closest, far, far_point, rng, at, far_band, beyond)


@rule("rwm.64.3", "rwm.64.3.b2", "rwm.64.4", "rwm.64.4.b1", "rwm.87.3", "rwm.64.1", "rwm.64.2", "rwm.64.6.b2")
def _ruler(unit: Unit, target: Unit, m: Measure, band: float, bands: int, trace: Trace) -> None:
    """Lay the ruler between the closest points and read the band the target is at."""
    a, b = m.closest
    trace.step(f"The ruler's range 1 end goes on {possessive(unit.label)} closest point ({a[0]:.3f}, "
               f"{a[1]:.3f}) and it points "
               f"at {possessive(target.label)} closest point ({b[0]:.3f}, {b[1]:.3f}): no line of sight "
               f"is needed, so the two "
               f"closest points are used; distance {m.distance:.3f} tray widths.", "rwm.64.3", "rwm.64.3.b2",
               "rwm.64.4", "rwm.64.4.b1", "rwm.87.3")
    trace.step(f"The ruler has {bands} bands of {band:g} tray widths each: band k covers more than (k−1)×{band:g} "
               f"and up to k×{band:g}.", "rwm.64.1")
    if on_band_line(m.distance, band, bands):
        trace.step(f"The distance lies on a band line, which belongs to the band nearer the range 1 end: range "
                   f"{m.range}.", "rwm.64.2")
    if m.range is None:
        trace.step(f"{m.distance:.3f} is more than {bands} × {band:g} = {bands * band:g}: {target.label} is off the "
                   "ruler, beyond every band.", "rwm.64.1", "rwm.64.6.b2")
    else:
        trace.step(f"{target.label} is at range {m.range}.", "rwm.64.4")


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


@situation(GAME, "range", RangePosition)
def resolve_range(pos: RangePosition, trace: Trace, corpus: Corpus) -> RangeOutcome | Overlaps:
    """Measure the range from one unit to another between their closest points, with at/within/beyond."""
    table = read_table(pos.table, pos.units, pos.terrain, need_band=True)
    unit, target = unit_ref(table, pos.unit, "unit"), unit_ref(table, pos.target, "target")
    bad = check_overlaps(table, trace)
    if bad:
        return Overlaps(overlaps=bad)
    band = float(table.band or 0)
    bands = int(corpus.fact("rwm.64.1", "range_bands"))
    m = measure(unit, target, band, bands)
    _ruler(unit, target, m, band, bands, trace)
    _at_within_beyond(target, m, bands, trace)
    where = f"at range {m.range}" if m.range is not None else f"beyond range {bands} (off the ruler)"
    within = f", within range 1-{m.within}" if m.within is not None else ""
    trace.summarize(f"{target.label} is {where} from {unit.label}: {r3(m.distance):g} tray widths between the "
                    f"closest points{within} (bands of {band:g}).")
    return RangeOutcome(range=m.range, distance=r3(m.distance), at=list(m.at), within=m.within,
                        beyond=list(m.beyond), closest=[pt(m.closest[0]), pt(m.closest[1])], farthest=r3(m.farthest),
                        farthest_point=pt(m.farthest_point), band=band)


def range_between(table: Table, unit: Unit, target: Unit, corpus: Corpus) -> Measure:
    """Return the closest-points measurement (used by ``attack`` on a table)."""
    return measure(unit, target, float(table.band or 0), int(corpus.fact("rwm.64.1", "range_bands")))
