"""RuneWars Miniatures reform on the table: turn a unit in place, about its centre or (engaged) about a tray.

The ``reform`` situation. The reforming unit turns about the centre of the rectangle drawn around its trays,
which stays put (``rwm.68``, ``rwm.68.1``, ``rwm.68.1.b1``); an active unit that is engaged may instead turn
about the centre of any one of its trays (``rwm.68.2``). It may not end overlapping anything (``rwm.60.2``) nor
touching an obstacle it was not touching before (``rwm.68``, ``rwm.68.2.b2``); obstacles are every other unit,
enemy or allied, and every terrain piece (``rwm.59``, ``rwm.59.1``). Engaged, it must still touch every enemy
it touched, each on the same edge of that enemy as before (``rwm.68.2.b1``); its own contacted edge may change
(the book's diagram turns a flanked unit to face the flanker, ``rwm.diagram.reforming-while-engaged``).

Choices documented here:

* the player states the new facing in degrees, the table's convention (0 = up the table, turning clockwise:
  90 = right); any facing is allowed, so quarter turns are 0, 90, 180 and 270 from the current facing. The
  unit turns the short way round: the rules only look at where it ends (it is lifted and put down, 68);
* the tray to turn about is counted from 1: the front rank from its left (as its player sees it from behind),
  then the next rank, and so on; absent, the unit turns about its own centre;
* "the same edge of the enemy" is the very same edge on the table (not just an edge of the same kind), and an
  enemy that touched only with a corner must touch with that same corner afterwards.

The ruling draws the unit where it started (``start``) and where it ends (``end``), or, when the reform is not
allowed, where it would have ended (``blocked``) and the obstacles in the way (``blocked``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import ConfigDict, model_validator
from shapely.geometry import LineString, Point

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.model import Field, Outcome, maybe
from engine.runewars_miniatures.common import GAME, Game, and_list, plural, possessive
from engine.runewars_miniatures.contact import engaged_enemies as contact_engaged
from engine.runewars_miniatures.contact import meet, through_terrain
from engine.runewars_miniatures.table import (
    EPS,
    MAX_FILES,
    MAX_RANKS,
    Overlaps,
    Placement,
    Shape,
    Table,
    TablePosition,
    Unit,
    Vec,
    angle,
    build_unit,
    check_overlaps,
    facing_words,
    is_overlapping,
    is_touching,
    outcome_words,
    outline,
    pt,
    read_table,
    rotate,
    table_reading,
    table_role,
    unit_name,
    unit_ref,
)

MAX_TRAYS = MAX_FILES * MAX_RANKS


class ReformPosition(TablePosition):
    """Units on the table, the unit that reforms, the facing it turns to and (engaged) the tray it turns about."""

    model_config = ConfigDict(title="Reform position")

    game: Game
    situation: Literal["reform"]
    unit: str = table_role("acting", "Reforming unit", "The unit that performs the reform action.")
    facing: float = Field(ge=0, lt=360, title="New facing",
                          description="The way the unit faces after the reform, in degrees: 0 up the table, "
                                      "90 right, 180 down the table, 270 left (clockwise). A quarter turn is 90° "
                                      "from its facing now.")
    pivot_tray: int | None = maybe("The tray whose centre the unit turns about, counted from 1: the front rank from "
                                   "its left as its player sees it, then the next rank. Only an engaged unit may "
                                   "turn about a tray. Absent: it turns about its own centre.",
                                   title="Turn about tray", ge=1, le=MAX_TRAYS)

    def reading(self) -> list[str]:
        """Return the table in a player's words and the reform asked for."""
        names = {u.id: unit_name(u, i) for i, u in enumerate(self.units)}
        about = f"about the centre of its tray {self.pivot_tray}" if self.pivot_tray else "about its centre"
        return [*table_reading(self.table, self.units, self.terrain),
                f"Reforming unit: {names.get(self.unit, self.unit)}, turning {about} to end "
                f"{facing_words(self.facing)}."]

    @model_validator(mode="after")
    def _known_unit(self) -> ReformPosition:
        self.refuse_unknown_units({"unit": self.unit})
        return self



class ReformOutcome(Outcome):
    """Whether the reform is allowed, what it turns about, where the unit ends and what is in the way."""

    reforms: bool = False
    engaged_with: list[str] = Field(default_factory=list)
    pivot: list[float] = Field(default_factory=list)
    pivot_tray: int | None = None
    turned_by: float = 0.0
    final: Placement | None = None
    blocked_by: list[str] = Field(default_factory=list)
    new_contacts: list[str] = Field(default_factory=list)
    lost_contacts: list[str] = Field(default_factory=list)
    changed_edges: list[str] = Field(default_factory=list)
    drawing: list[Shape] = Field(default_factory=list)
    overlaps: list[list[str]] = Field(default_factory=list)


# ------------------------------------------------------------------------------- shared table helpers

def touching_ids(table: Table, unit: Unit) -> list[str]:
    """Return the ids of the other units and terrain pieces *unit* (placed anywhere) touches (position order)."""
    ids = [u.id for u in table.units if u.id != unit.id and is_touching(u.shape, unit.shape)]
    ids += [t.id for t in table.terrain if is_touching(t.shape, unit.shape)]
    return ids


def edge_keys(unit: Unit, enemy: Unit) -> tuple[frozenset[str], frozenset[str]]:
    """Return which parts of each unit the two touch with: (the unit's edges, the enemy's edges), by position in
    each unit's outline ("edge 2"); a unit touching only with a corner gives that corner ("corner 1")."""
    pc = meet(unit, enemy)
    mine = {f"edge {unit.edges.index(e)}" for e, _, _, _ in pc.flush}
    mine |= {f"edge {unit.edges.index(h.edge)}" for h in pc.b_corners}
    theirs = {f"edge {enemy.edges.index(g)}" for _, g, _, _ in pc.flush}
    theirs |= {f"edge {enemy.edges.index(h.edge)}" for h in pc.a_corners}
    for me, other, keys in ((unit, enemy, mine), (enemy, unit, theirs)):
        if not keys:
            keys |= {f"corner {i}" for i, c in enumerate(me.corners)
                     if other.shape.distance(Point(c.point)) <= EPS}
    return frozenset(mine), frozenset(theirs)


def key_words(unit: Unit, keys: Iterable[str]) -> str:
    """Return the parts named by :func:`edge_keys` in a player's words ("its front edge", "a corner")."""
    out = []
    for key in sorted(keys):
        kind, index = key.split()
        out.append(f"its {unit.edges[int(index)].kind} edge" if kind == "edge" else "a corner")
    return and_list(list(dict.fromkeys(out))) or "nothing"


def engaged_enemies(table: Table, unit: Unit) -> list[Unit]:
    """Return the enemy units the unit is engaged with, in position order, as the ``contact`` situation finds
    them: trays touching (34) or touching terrain an enemy occupies (81.8)."""
    return contact_engaged(table, unit)


def touches_engaged(table: Table, end: Unit, enemy: Unit) -> bool:
    """Return whether the unit, placed as *end*, still touches *enemy*: its trays, or the terrain it occupies."""
    piece = through_terrain(table, end, enemy)
    if piece is not None and piece.occupant == enemy.id:
        return is_touching(piece.shape, end.shape)
    return is_touching(enemy.shape, end.shape)


def engaged_keys(table: Table, unit: Unit, enemy: Unit) -> tuple[frozenset[str], frozenset[str]]:
    """Return :func:`edge_keys` of an engaged pair; through terrain the enemy occupies, the unit's edges that touch
    the piece against the enemy's front edge (81.8)."""
    piece = through_terrain(table, unit, enemy)
    if piece is None or piece.occupant != enemy.id:
        return edge_keys(unit, enemy)
    mine = {f"edge {i}" for i, e in enumerate(unit.edges) if _inner(e.a, e.b).distance(piece.shape) <= EPS}
    if not mine:
        mine = {f"corner {i}" for i, c in enumerate(unit.corners) if piece.shape.distance(Point(c.point)) <= EPS}
    theirs = {f"edge {i}" for i, e in enumerate(enemy.edges) if e.kind == "front"}
    return frozenset(mine), frozenset(theirs)


def _inner(a: Vec, b: Vec) -> LineString:
    """Return the segment a-b without its two ends (so a corner alone does not count as the edge touching)."""
    d = ((b[0] - a[0]) * 1e-4, (b[1] - a[1]) * 1e-4)
    return LineString([(a[0] + d[0], a[1] + d[1]), (b[0] - d[0], b[1] - d[1])])


def moved(unit: Unit, front: Vec, facing: float) -> Unit:
    """Return the unit placed at another front midpoint and facing."""
    return build_unit(unit.id, unit.index, unit.player, unit.name, unit.width, unit.depth, unit.ranks, front, facing)


@dataclass
class EndCheck:
    """What the unit's end position runs into: overlapped pieces, and pieces touched that were not before."""

    overlapped: list[str] = field(default_factory=list)
    new_contacts: list[str] = field(default_factory=list)


def end_check(table: Table, unit: Unit, end: Unit, before: Iterable[str]) -> EndCheck:
    """Return what the end position overlaps and the obstacles it touches that the unit did not touch before."""
    was = set(before)
    out = EndCheck()
    pieces = [(u.id, u.shape) for u in table.units if u.id != unit.id] + [(t.id, t.shape) for t in table.terrain]
    for ident, shape in pieces:
        if is_overlapping(shape, end.shape):
            out.overlapped.append(ident)
        elif ident not in was and is_touching(shape, end.shape):
            out.new_contacts.append(ident)
    return out


def piece_shape(table: Table, ident: str) -> Shape:
    """Return a unit's or terrain piece's outline as a ``blocked`` shape (something in the way)."""
    shape = table.unit(ident).shape if table.has_unit(ident) else next(t.shape for t in table.terrain
                                                                        if t.id == ident)
    return outline("blocked", shape, ident, f"{table.label(ident)}: in the way")


# ------------------------------------------------------------------------------------- the reform

@rule("rwm.68.1", "rwm.68.1.b1")
def unit_centre(unit: Unit) -> Vec:
    """Return the centre of the rectangle around the unit's trays (its front rank is its widest)."""
    return unit.world(0.0, -len(unit.ranks) * unit.depth / 2)


def tray_centre(unit: Unit, number: int) -> Vec:
    """Return the centre of tray *number* (from 1: front rank left to right, then the next rank)."""
    j, k = unit.cells[number - 1]
    half = unit.files * unit.width / 2
    return unit.world(-half + (j + 0.5) * unit.width, -(k + 0.5) * unit.depth)


@rule("rwm.68", "rwm.68.1", "rwm.68.1.b1", "rwm.68.2", "rwm.4.3.b3")
def _pivot(pos: ReformPosition, unit: Unit, enemies: list[Unit], out: ReformOutcome, trace: Trace) -> Vec | None:
    """The point the unit turns about: its centre, or (engaged only) the centre of the tray its player names."""
    names = and_list([e.label for e in enemies])
    if enemies:
        trace.step(f"{unit.label} is engaged with {names}: as the active unit it may turn about its own centre or "
                   "about the centre of any one of its trays.", "rwm.68.2", "rwm.4.3.b3")
    else:
        trace.step(f"{unit.label} is not engaged: it turns about its own centre.", "rwm.68", "rwm.68.1",
                   "rwm.4.3.b3")
    if pos.pivot_tray is None:
        centre = unit_centre(unit)
        trace.step(f"{possessive(unit.label)} centre is the middle of the rectangle around its trays: "
                   f"({centre[0]:.3f}, {centre[1]:.3f}), and it stays there.", "rwm.68.1", "rwm.68.1.b1")
        return centre
    count = len(unit.cells)
    if pos.pivot_tray > count:
        raise UnreadableInputError(f"{unit.label} has {plural(count, 'tray')}, so there is no tray "
                                   f"{pos.pivot_tray}", path="pivot_tray")
    if not enemies:
        trace.violate(f"{unit.label} is not engaged, so it cannot turn about one of its trays; it turns about its "
                      "own centre", "rwm.68.1", "rwm.68.2")
        return None
    centre = tray_centre(unit, pos.pivot_tray)
    out.pivot_tray = pos.pivot_tray
    trace.step(f"{unit.label} turns about the centre of its tray {pos.pivot_tray}: ({centre[0]:.3f}, "
               f"{centre[1]:.3f}).", "rwm.68.2")
    return centre


@rule("rwm.60.2", "rwm.68", "rwm.68.2.b2", "rwm.59.1", "rwm.60")
def _obstacles(table: Table, unit: Unit, end: Unit, before: list[str], out: ReformOutcome, trace: Trace) -> bool:
    """The end position may overlap nothing and touch no obstacle the unit was not already touching."""
    found = end_check(table, unit, end, before)
    out.new_contacts = found.new_contacts
    ok = True
    if found.overlapped:
        ok = False
        hit = and_list([table.label(i) for i in found.overlapped])
        trace.violate(f"turned that way, {unit.label} would overlap {hit}; a reform never ends overlapping anything",
                      "rwm.60.2", "rwm.60")
    if found.new_contacts:
        ok = False
        trace.violate(f"turned that way, {unit.label} would touch "
                      f"{and_list([table.label(i) for i in found.new_contacts])}, which it was not touching before; "
                      "a reform may only keep touching the obstacles it already touched", "rwm.68", "rwm.60.2",
                      "rwm.68.2.b2", "rwm.59.1")
    out.blocked_by = table.sorted_ids(found.overlapped + found.new_contacts)
    if ok:
        kept = [table.label(i) for i in touching_ids(table, end) if i in before]
        trace.step(f"Where it ends, {unit.label} overlaps nothing and touches "
                   f"{'only ' + and_list(kept) + ', which it already touched' if kept else 'no obstacle'}.",
                   "rwm.60.2", "rwm.68", "rwm.59.1")
    return ok


@rule("rwm.68.2.b1", "rwm.34.3")
def _same_enemies(table: Table, unit: Unit, end: Unit, enemies: list[Unit], out: ReformOutcome,
                  trace: Trace) -> bool:
    """Engaged: every enemy touched before is touched after, on the same edge of that enemy."""
    ok = True
    for enemy in enemies:
        if not touches_engaged(table, end, enemy):
            ok = False
            out.lost_contacts.append(enemy.id)
            trace.violate(f"turned that way, {unit.label} would no longer touch {enemy.label}; an engaged unit "
                          "that reforms must still touch every enemy it was engaged with", "rwm.68.2.b1")
            continue
        _, before = engaged_keys(table, unit, enemy)
        _, after = engaged_keys(table, end, enemy)
        if before != after:
            ok = False
            out.changed_edges.append(enemy.id)
            trace.violate(f"{enemy.label} would be touched on {key_words(enemy, after)} instead of "
                          f"{key_words(enemy, before)}; an engaged reform keeps the same contacted edge of each "
                          "enemy", "rwm.68.2.b1", "rwm.34.3")
        else:
            trace.step(f"{unit.label} still touches {enemy.label} on the same part of {enemy.label} as before: "
                       f"{key_words(enemy, after)}.", "rwm.68.2.b1", "rwm.34.3")
    return ok


def _drawing(table: Table, unit: Unit, end: Unit, ok: bool, out: ReformOutcome) -> list[Shape]:
    shapes = [outline("start", unit.shape, unit.id, "before the reform")]
    if ok:
        shapes.append(outline("end", end.shape, unit.id, "after the reform"))
    else:
        shapes.append(outline("blocked", end.shape, unit.id, "where the reform would end"))
        shapes += [piece_shape(table, i) for i in out.blocked_by]
    return shapes


TABLE_LABELS: dict[str, Label] = {
    **outcome_words("engaged_with", "final", "blocked_by", "new_contacts", "changed_edges", "drawing", "overlaps"),
    "reforms": "Reforms",
    "pivot": "Turns about",
    "pivot_tray": "Tray turned about",
    "turned_by": "Turned by (degrees)",
    "lost_contacts": "Contacts lost",
}
"""The outcome's fields in a player's words (the ruling's outcome list on the boards and the CLI)."""


@situation(GAME, "reform", ReformPosition, labels=TABLE_LABELS)
@rule("rwm.68", "rwm.68.1")
def resolve_reform(pos: ReformPosition, trace: Trace, corpus: Corpus) -> ReformOutcome | Overlaps:
    """Turn a unit in place (about its centre, or engaged about a tray) and say whether it may end there."""
    table = read_table(pos.table, pos.units, pos.terrain)
    unit = unit_ref(table, pos.unit, "unit")
    bad = check_overlaps(table, trace)
    if bad:
        return Overlaps(overlaps=bad)
    enemies = engaged_enemies(table, unit)
    before = touching_ids(table, unit)
    out = ReformOutcome(engaged_with=[e.id for e in enemies])
    centre = _pivot(pos, unit, enemies, out, trace)
    if centre is None:
        out.drawing = [outline("start", unit.shape, unit.id, "before the reform")]
        trace.summarize(f"{unit.label} cannot turn about a tray: it is not engaged.")
        return out
    delta = (pos.facing - unit.facing) % 360.0
    delta = delta - 360.0 if delta > 180.0 else delta
    delta = 0.0 if abs(delta) <= 1e-9 or abs(delta - 360.0) <= 1e-9 else delta
    end = moved(unit, rotate(unit.front, centre, delta), pos.facing)
    out.pivot, out.turned_by = pt(centre), round(delta, 2) + 0.0
    sense = "clockwise" if delta > 0 else "anticlockwise"
    way = "without turning" if delta == 0 else f"turning {abs(delta):g}° {sense}"
    trace.step(f"{unit.label} reforms {way}, to end {facing_words(pos.facing)}.", "rwm.68", "rwm.68.1")
    ok = _obstacles(table, unit, end, before, out, trace)
    if enemies:
        ok = _same_enemies(table, unit, end, enemies, out, trace) and ok
    out.reforms = ok
    out.final = Placement(front=pt(end.front if ok else unit.front), facing=angle(end.facing if ok else unit.facing))
    out.drawing = _drawing(table, unit, end, ok, out)
    if ok:
        trace.summarize(f"{unit.label} may reform to end {facing_words(pos.facing)}, {way}.")
    else:
        why = ([f"it would touch or overlap {and_list([table.label(i) for i in out.blocked_by])}"]
               if out.blocked_by else [])
        why += [f"it would no longer touch {table.label(i)}" for i in out.lost_contacts]
        why += [f"it would touch {table.label(i)} on another edge" for i in out.changed_edges]
        trace.summarize(f"{unit.label} cannot reform to end {facing_words(pos.facing)}: {and_list(why)}.")
    return out
