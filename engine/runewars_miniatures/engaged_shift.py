"""RuneWars Miniatures shift while engaged, on the table: reposition, disengage, or both in one shift.

The ``engaged_shift`` situation. An engaged unit may shift (``rwm.73.2``, ``rwm.4.3.b2``). Where it ends decides,
enemy by enemy, what the shift was (``rwm.73.5``):

* an enemy it still touches: a **reposition** with that enemy, allowed only if it touches it along the same
  contacted edges as before and touches no enemy or other obstacle it was not touching (``rwm.73.3``,
  ``rwm.73.3.b1``);
* an enemy it no longer touches: a **disengage** from that enemy, allowed only if the shift went straight
  away from its contacted edge with that enemy (``rwm.73.4``); several enemies can be left at once only if
  they all touched that one edge (``rwm.73.4.b1``). The shifting unit takes 1 panic token per enemy unit it
  disengaged from (a corpus fact of ``rwm.73.4.b1``); the enemies take none.

Input chosen here: the direction of the shift relative to the unit (forward, backward, left, right: a shift
uses the straight template, ``rwm.73``) and the distance in tray widths the template carries it (the straight
speed-1 template is 1 tray width, ``rwm.17.1.b2``; longer templates are the ``move`` situation's settings).
The template is measured flat on the table even where it lies across other pieces (``rwm.60.3``).

Along the way the unit stops on touching an enemy unit or terrain it would otherwise overlap, or an allied
unit of which it would pass over more than 1 tray (``rwm.55.3``, ``rwm.59.3``, ``rwm.60.1``): the end position
is where it stops (found by halving the remaining distance, at most 48 times). "Same contacted edges" is
checked on the table on both units: the very same edges of the shifting unit and of the enemy (a translation
keeps the unit's edges in their order). A pure disengage that ends touching something new has collided with
it: that collision (panic, squaring up) is the ``squaring_up`` situation's (``rwm.18``).

A unit that occupies terrain is refused here as an illegal action: its shift is no template move but an exit
from the terrain (``rwm.81.3``, ``rwm.81.4``), which the ``move`` situation rules on. The engaged shift itself
(:func:`shift_engaged`) is the one ruling of an engaged shift: ``move`` calls it for an engaged unit's shift.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import shapely
import shapely.affinity
from pydantic import ConfigDict, model_validator
from shapely.geometry import Polygon

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Outcome
from engine.runewars_miniatures.common import GAME, Game, ShiftDirection, and_list, plural, possessive, tokens
from engine.runewars_miniatures.reform import (
    end_check,
    engaged_enemies,
    engaged_keys,
    key_words,
    moved,
    piece_shape,
    touches_engaged,
    touching_ids,
)
from engine.runewars_miniatures.table import (
    EPS,
    Overlaps,
    Placement,
    Shape,
    Table,
    TablePosition,
    Unit,
    Vec,
    add,
    angle,
    check_overlaps,
    dot,
    is_overlapping,
    mul,
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

MAX_SHIFT = 24.0
HALVINGS = 48


class EngagedShiftPosition(TablePosition):
    """Units on the table, the engaged unit that shifts, which way and how far."""

    model_config = ConfigDict(title="Engaged shift position")

    game: Game
    situation: Literal["engaged_shift"]
    unit: str = table_role("acting", "Shifting unit", "The engaged unit that performs the shift action.")
    direction: ShiftDirection = Field(title="Direction", description="Which way the unit shifts, as its player "
                                      "sees it from behind the unit: forward, backward, to its left or right.")
    distance: float = Field(gt=0, le=MAX_SHIFT, title="Distance",
                            description="How far the straight template carries the unit, in tray widths (the "
                                        "speed-1 template is 1 tray width).")

    def reading(self) -> list[str]:
        """Return the table in a player's words and the shift asked for."""
        names = {u.id: unit_name(u, i) for i, u in enumerate(self.units)}
        way = {"forward": "forward", "backward": "backward", "left": "to its left", "right": "to its right"}
        return [*table_reading(self.table, self.units, self.terrain),
                f"Shifting unit: {names.get(self.unit, self.unit)}, {way[self.direction]} by "
                f"{self.distance:g} tray {'width' if self.distance == 1 else 'widths'}."]

    @model_validator(mode="after")
    def _known_unit(self) -> EngagedShiftPosition:
        self.refuse_unknown_units({"unit": self.unit})
        return self


ShiftKind = Literal["reposition", "disengage", "reposition_and_disengage", "not_engaged"]


class EngagedShiftOutcome(Outcome):
    """What the shift does with each enemy it was engaged with, where the unit ends and its panic tokens."""

    kind: ShiftKind = "not_engaged"
    engaged_with: list[str] = Field(default_factory=list)
    moved: float = 0.0
    stopped_by: list[str] = Field(default_factory=list)
    final: Placement | None = None
    repositioned_with: list[str] = Field(default_factory=list)
    disengaged_from: list[str] = Field(default_factory=list)
    panic_tokens: int = 0
    new_contacts: list[str] = Field(default_factory=list)
    changed_edges: list[str] = Field(default_factory=list)
    drawing: list[Shape] = Field(default_factory=list)
    overlaps: list[list[str]] = Field(default_factory=list)


def direction_vector(unit: Unit, direction: str) -> Vec:
    """Return the table direction of a shift relative to the unit."""
    f, r = unit.forward, unit.right
    return {"forward": f, "backward": mul(f, -1), "left": mul(r, -1), "right": r}[direction]


def swept(unit: Unit, step: Vec) -> Polygon:
    """Return the ground the unit's trays cover on their way along *step* (each tray's hull, then their union)."""
    hulls = [shapely.convex_hull(shapely.union(t, shapely.affinity.translate(t, step[0], step[1])))
             for t in unit.trays]
    return shapely.union_all(hulls)


@rule("rwm.55.3", "rwm.59.3", "rwm.59.1", "rwm.60.1", "rwm.60.3")
def path_blockers(table: Table, unit: Unit, step: Vec, trace: Trace) -> list[str]:
    """Return the pieces the shift would run into: enemy units and terrain under its path, and allied units of
    which it would pass over more than 1 tray."""
    ground = swept(unit, step)
    out: list[str] = []
    for other in table.units:
        if other.id == unit.id or not is_overlapping(other.shape, ground):
            continue
        if other.is_allied(unit):
            crossed = sum(1 for t in other.trays if is_overlapping(t, ground))
            if crossed <= 1:
                trace.step(f"Its path crosses 1 tray of {other.label}, an allied unit: no obstacle on the way, "
                           "so long as it does not end there.", "rwm.59.3")
                continue
        out.append(other.id)
    out += [t.id for t in table.terrain if is_overlapping(t.shape, ground)]
    if out:
        trace.step(f"The template, measured flat on the table, carries {unit.label} into "
                   f"{and_list([table.label(i) for i in out])}: it stops where it first touches "
                   f"{'it' if len(out) == 1 else 'them'}.", "rwm.55.3", "rwm.60.1", "rwm.60.3", "rwm.59.1")
    return out


def stop_distance(table: Table, unit: Unit, along: Vec, distance: float, blockers: list[str]) -> float:
    """Return how far the unit gets before overlapping a blocker (halving the interval, bounded)."""
    shapes = [table.unit(i).shape if table.has_unit(i) else next(t.shape for t in table.terrain if t.id == i)
              for i in blockers]

    def clear(d: float) -> bool:
        ghost = shapely.affinity.translate(unit.shape, along[0] * d, along[1] * d)
        return not any(is_overlapping(s, ghost) for s in shapes)

    if clear(distance):
        return distance
    lo, hi = 0.0, distance
    for _ in range(HALVINGS):
        if hi - lo <= EPS / 4:
            break
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if clear(mid) else (lo, mid)
    return lo


@dataclass
class Split:
    """The enemies the unit stays engaged with and those it leaves, with the parts each touched."""

    kept: list[Unit] = field(default_factory=list)
    left: list[Unit] = field(default_factory=list)
    keys: dict[str, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)


@rule("rwm.73.3", "rwm.73.3.b1", "rwm.34.3")
def _reposition(table: Table, unit: Unit, end: Unit, split: Split, new: list[str], out: EngagedShiftOutcome,
                trace: Trace) -> bool:
    """The enemies still touched: the same contacted edges on both units, and nothing new touched."""
    ok = True
    for enemy in split.kept:
        mine, theirs = split.keys[enemy.id]
        now_mine, now_theirs = engaged_keys(table, end, enemy)
        if (mine, theirs) == (now_mine, now_theirs):
            trace.step(f"{unit.label} still touches {enemy.label} with {key_words(unit, mine)}, against "
                       f"{possessive(enemy.label)} {key_words(enemy, theirs).removeprefix('its ')}: it repositions "
                       f"with {enemy.label}.", "rwm.73.3", "rwm.34.3")
            continue
        ok = False
        out.changed_edges.append(enemy.id)
        trace.violate(f"{unit.label} would touch {enemy.label} with {key_words(end, now_mine)} against "
                      f"{key_words(enemy, now_theirs).removeprefix('its ')}, not as before ({key_words(unit, mine)} "
                      f"against {key_words(enemy, theirs).removeprefix('its ')}); a reposition keeps the same "
                      "contacted edges", "rwm.73.3", "rwm.34.3")
    if len(split.kept) > 1 and ok:
        trace.step(f"It stays engaged with {plural(len(split.kept), 'unit')}, each on the same contacted edges: "
                   "a reposition with all of them.", "rwm.73.3.b1")
    if new:
        ok = False
        trace.violate(f"{unit.label} would end touching {and_list([table.label(i) for i in new])}, which it was "
                      "not touching before; a unit that repositions touches no new enemy or other obstacle",
                      "rwm.73.3")
    return ok


@rule("rwm.73.4", "rwm.73.4.b1", "rwm.29")
def _disengage(unit: Unit, along: Vec, split: Split, trace: Trace) -> bool:
    """The enemies left behind: the shift must go straight away from the unit's contacted edge with each."""
    ok = True
    for enemy in split.left:
        mine, _ = split.keys[enemy.id]
        normals = [unit.edges[int(k.split()[1])].normal for k in mine if k.startswith("edge")]
        if not normals:
            normals = [c for k in mine for c in unit.corners[int(k.split()[1])].directions]
        away = any(dot(n, along) < -1 + 1e-9 for n in normals)
        if away:
            trace.step(f"{unit.label} no longer touches {enemy.label} and moved straight away from "
                       f"{key_words(unit, mine)}: it disengages from {enemy.label}.", "rwm.73.4", "rwm.29")
            continue
        ok = False
        several = len(split.left) > 1
        note = "; several enemies are left together only when they all touch that one edge" if several else ""
        trace.violate(f"{unit.label} would leave {enemy.label}, but a disengaging unit shifts straight away from "
                      f"its contacted edge with that enemy ({key_words(unit, mine)}){note}",
                      "rwm.73.4", *(["rwm.73.4.b1"] if several else []))
    return ok


def _kind(split: Split) -> ShiftKind:
    if split.kept and split.left:
        return "reposition_and_disengage"
    return "disengage" if split.left else "reposition"


@rule("rwm.73.4", "rwm.73.4.b1", "rwm.73.5", "rwm.18")
def _panic(table: Table, unit: Unit, split: Split, new: list[str], out: EngagedShiftOutcome, trace: Trace,
           corpus: Corpus) -> None:
    """A legal disengage: 1 panic token per enemy unit left, for the shifting unit; a new touch is a collision."""
    if split.kept and split.left:
        trace.step(f"One shift repositions {unit.label} with {and_list([e.label for e in split.kept])} and "
                   f"disengages it from {and_list([e.label for e in split.left])}: each part follows its own "
                   "rules.", "rwm.73.5")
    if split.left:
        per = int(corpus.fact("rwm.73.4.b1", "panic_tokens_per_unit_disengaged_from"))
        out.panic_tokens = per * len(split.left)
        trace.step(f"{unit.label} takes {tokens(out.panic_tokens)}, 1 for each enemy unit it disengaged from; "
                   f"{and_list([e.label for e in split.left])} {'takes' if len(split.left) == 1 else 'take'} "
                   "none.", "rwm.73.4", "rwm.73.4.b1")
    if new and not split.kept:
        trace.step(f"It ends touching {and_list([table.label(i) for i in new])}, which it did not touch before: it "
                   "collided, and resolves that collision as after any shift.", "rwm.18")


def _drawing(table: Table, unit: Unit, end: Unit, ok: bool, out: EngagedShiftOutcome) -> list[Shape]:
    shapes = [outline("start", unit.shape, unit.id, "before the shift"),
              polyline("path", [unit.front, end.front], unit.id, "the shift")]
    if ok:
        shapes.append(outline("end", end.shape, unit.id, "after the shift"))
    else:
        shapes.append(outline("blocked", end.shape, unit.id, "where the shift would end"))
    shapes += [piece_shape(table, i) for i in out.stopped_by]
    return shapes


@rule("rwm.73.2", "rwm.4.3.b2", "rwm.34")
def engaged_may_shift(unit: Unit, enemies: list[Unit], trace: Trace) -> bool:
    """Return whether the unit is engaged (then it may still shift, to reposition or to disengage)."""
    if not enemies:
        trace.step(f"{unit.label} touches no enemy unit: it is not engaged, and its shift is an ordinary one.",
                   "rwm.34", "rwm.4.3.b2")
        trace.summarize(f"{unit.label} is not engaged, so its shift neither repositions nor disengages it.")
        return False
    trace.step(f"{unit.label} is engaged with {and_list([e.label for e in enemies])}; an engaged unit may still "
               "shift, to reposition or to disengage.", "rwm.73.2", "rwm.4.3.b2", "rwm.34")
    return True


@rule("rwm.81.3", "rwm.81.4")
def _in_terrain(table: Table, unit: Unit, trace: Trace) -> bool:
    """Return whether the unit occupies terrain: then its shift is an exit, which the Move situation rules on."""
    home = next((t for t in table.terrain if t.occupant == unit.id), None)
    if home is None:
        return False
    trace.violate(f"{unit.label} occupies {home.label}: a shift does not carry it along a template but takes it "
                  "out of the terrain at once, placed against the piece's edge; the situation Move rules on that "
                  "exit (a shift out of terrain), not this one", "rwm.81.3", "rwm.81.4")
    return True


TABLE_LABELS: dict[str, Label] = {
    **outcome_words("engaged_with", "stopped_by", "final", "repositioned_with", "disengaged_from", "panic_tokens",
                    "new_contacts", "changed_edges", "drawing", "overlaps"),
    "kind": "What the shift is",
    "moved": "Distance moved (tray widths)",
}
"""The outcome's fields in a player's words (the ruling's outcome list on the boards and the CLI)."""


@situation(GAME, "engaged_shift", EngagedShiftPosition, labels=TABLE_LABELS)
@rule("rwm.73")
def resolve_engaged_shift(pos: EngagedShiftPosition, trace: Trace,
                          corpus: Corpus) -> EngagedShiftOutcome | Overlaps:
    """Shift an engaged unit and say, enemy by enemy, whether it repositioned or disengaged, and its panic."""
    table = read_table(pos.table, pos.units, pos.terrain)
    unit = unit_ref(table, pos.unit, "unit")
    bad = check_overlaps(table, trace)
    if bad:
        return Overlaps(overlaps=bad)
    if _in_terrain(table, unit, trace):
        return EngagedShiftOutcome(drawing=[outline("start", unit.shape, unit.id, "before the shift")])
    enemies = engaged_enemies(table, unit)
    out = EngagedShiftOutcome(engaged_with=[e.id for e in enemies])
    if not engaged_may_shift(unit, enemies, trace):
        out.drawing = [outline("start", unit.shape, unit.id, "before the shift")]
        return out
    trace.step(f"{unit.label} shifts {pos.direction} along the straight template, "
               f"{pos.distance:g} tray {'width' if pos.distance == 1 else 'widths'}.", "rwm.73")
    shift_engaged(table, unit, enemies, direction_vector(unit, pos.direction), pos.distance, out, trace, corpus)
    return out


@rule("rwm.73.5")
def shift_engaged(table: Table, unit: Unit, enemies: list[Unit], along: Vec, distance: float,
                  out: EngagedShiftOutcome, trace: Trace, corpus: Corpus) -> bool:
    """Carry an engaged unit *distance* tray widths along *along* (stopping at obstacles) and rule, enemy by
    enemy, whether it repositioned or disengaged, with its panic tokens and the drawing; return whether the
    shift is legal. The one ruling of an engaged shift, for the ``engaged_shift`` and ``move`` situations."""
    out.stopped_by = path_blockers(table, unit, mul(along, distance), trace)
    dist = stop_distance(table, unit, along, distance, out.stopped_by) if out.stopped_by else distance
    end = moved(unit, add(unit.front, mul(along, dist)), unit.facing)
    out.moved = r3(dist)
    before = touching_ids(table, unit)
    found = end_check(table, unit, end, before)
    split = Split(keys={e.id: engaged_keys(table, unit, e) for e in enemies})
    for enemy in enemies:
        (split.kept if touches_engaged(table, end, enemy) else split.left).append(enemy)
    out.kind = _kind(split)
    out.repositioned_with, out.disengaged_from = [e.id for e in split.kept], [e.id for e in split.left]
    out.new_contacts = found.new_contacts
    ok = _finish(table, unit, end, along, split, found.overlapped, out, trace, corpus)
    out.final = Placement(front=pt(end.front if ok else unit.front), facing=angle(unit.facing))
    out.drawing = _drawing(table, unit, end, ok, out)
    return ok


@rule("rwm.60", "rwm.59.3")
def _finish(table: Table, unit: Unit, end: Unit, along: Vec, split: Split, overlapped: list[str],
            out: EngagedShiftOutcome, trace: Trace, corpus: Corpus) -> bool:
    """Check both parts of the shift, give the panic tokens of a legal disengage, and sum up."""
    ok = True
    if overlapped:
        ok = False
        trace.violate(f"{unit.label} would end overlapping {and_list([table.label(i) for i in overlapped])}; a "
                      "unit never ends a move on top of another unit", "rwm.60", "rwm.59.3")
    if split.kept:
        ok = _reposition(table, unit, end, split, out.new_contacts, out, trace) and ok
    if split.left:
        ok = _disengage(unit, along, split, trace) and ok
    if not ok:
        out.panic_tokens = 0
        trace.summarize(f"{unit.label} cannot make that shift while engaged.")
        return False
    _panic(table, unit, split, out.new_contacts, out, trace, corpus)
    what = {"reposition": f"repositions with {and_list([e.label for e in split.kept])}",
            "disengage": f"disengages from {and_list([e.label for e in split.left])}",
            "reposition_and_disengage": f"repositions with {and_list([e.label for e in split.kept])} and "
                                        f"disengages from {and_list([e.label for e in split.left])}"}[out.kind]
    stop = ""
    if out.stopped_by:
        stop = (f", stopped at once by {and_list([table.label(i) for i in out.stopped_by])}" if out.moved == 0 else
                f", stopped after {out.moved:g} tray {'width' if out.moved == 1 else 'widths'}")
    trace.summarize(f"{unit.label} {what}{stop}, and takes {tokens(out.panic_tokens)}.")
    return True
