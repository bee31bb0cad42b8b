"""RuneWars Miniatures moving on the table: a march or shift along its template, where it ends, what it hits.

The ``move`` situation. The template is chosen by the action's speed and its modifier (``rwm.47``,
``rwm.73``, ``rwm.56``; shapes in :mod:`engine.runewars_miniatures.templates`, stated settings of the table)
and laid against the edge facing the way the unit moves (``rwm.55.4``). The unit is carried along it until it
would overlap an obstacle; it is then slid back until it only touches it, turned with the template so its
leading edge stays square to it (``rwm.55.3``, ``rwm.55.3.b1``). An allied unit is passed over when at most
1 of its trays is crossed and the move does not end on it (``rwm.55.3.b2``, ``rwm.59.3``). What the unit
touches at the end that it did not touch before, it collided with (``rwm.18``): panic for an enemy
(``rwm.18.1``), the charge's effects (:mod:`engine.runewars_miniatures.charge`) and terrain's
(:mod:`engine.runewars_miniatures.terrain_moves`); entering terrain an enemy touches counts as colliding with that
enemy (``rwm.81.8.b3``: panic when not charging, a charge target whose edges touching the piece count as
touching the occupant's front edge, ``rwm.81.8``). Squaring up is the ``squaring_up`` situation; the play
area's edges are not modelled.

A shift of an engaged unit (``rwm.73.2``-``rwm.73.5``) is ruled by the ``engaged_shift`` situation's own steps
(:func:`engine.runewars_miniatures.engaged_shift.shift_engaged`): the straight template of the shift's speed (its
stated length in tray widths) carries the unit the way it moves, and the ruling says, enemy by enemy, whether it
repositioned or disengaged; the outcome carries it in ``shift_kind``, ``repositioned_with``, ``disengaged_from``
(with ``final``, ``distance``, ``stopped_by``, ``collided`` and ``panic_tokens``). Only the straight template is
ruled for it: a movement modifier with an engaged unit's shift is refused.

Choices documented here: a unit whose connectors are stated (``table.connector``) and whose sweep passes an
obstacle closer than that is nudged clear and carries on (``rwm.55.3.b3``): connectors are not part of the
tray outlines, so they never stop a move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import numpy as np
import shapely
from pydantic import ConfigDict, model_validator
from shapely.geometry import Polygon

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.model import Field, Outcome, _absent, labelled, maybe, refuse
from engine.runewars_miniatures import charge, terrain_moves
from engine.runewars_miniatures.common import GAME, Game, and_list, plural, possessive, tokens
from engine.runewars_miniatures.contact import engaged_enemies, through_terrain
from engine.runewars_miniatures.engaged_shift import (
    EngagedShiftOutcome,
    ShiftKind,
    direction_vector,
    engaged_may_shift,
    shift_engaged,
)
from engine.runewars_miniatures.squaring import collision_panic
from engine.runewars_miniatures.sweep import first_stop, obstacles, swept, swept_parts, trays_crossed
from engine.runewars_miniatures.table import (
    Id,
    Overlaps,
    Placement,
    Point,
    Shape,
    Table,
    TablePosition,
    Terrain,
    Unit,
    angle,
    build_unit,
    facing_words,
    is_touching,
    outcome_words,
    outline,
    overlaps,
    polyline,
    pt,
    r3,
    read_table,
    table_reading,
    table_role,
    unit_name,
    unit_ref,
)
from engine.runewars_miniatures.templates import (
    Motion,
    Templates,
    motion,
    read_templates,
    template_kind,
    template_speed,
    template_words,
)

ACTION_WORDS = {"march": "March", "shift": "Shift", "closing_in": "Closing in (a speed-1 shift)"}
Action = Annotated[Literal["march", "shift", "closing_in"], Field(json_schema_extra=labelled(ACTION_WORDS))]
MoveModifier = Annotated[Literal["turn", "wheel", "charge", "turning-charge"], Field(json_schema_extra=labelled(
    {"turn": "Turn", "wheel": "Wheel", "charge": "Charge", "turning-charge": "Turning charge"}))]
Direction = Annotated[Literal["forward", "backward", "left", "right"], Field(json_schema_extra=labelled(
    {"forward": "Forward", "backward": "Backward", "left": "Sideways to its left",
     "right": "Sideways to its right"}))]
Bend = Annotated[Literal["left", "right"], Field(json_schema_extra=labelled({"left": "Left", "right": "Right"}))]


def _optional_role(role: str, title: str, description: str) -> Any:
    """Return the ``Field`` of an optional position field naming a unit, marked for the table board."""
    def hook(schema: dict[str, Any]) -> None:
        _absent(schema)
        schema["x-table-role"] = role
    return Field(None, title=title, description=description, json_schema_extra=hook)


class MovePosition(TablePosition):
    """A unit on the table performs a march or a shift (or closes in): its speed, modifier and direction."""

    model_config = ConfigDict(title="Move position")

    game: Game
    situation: Literal["move"]
    unit: Id = table_role("acting", "Moving unit", "the unit that marches or shifts")
    action: Action = Field(title="Action", description="the action that moves the unit")
    speed: int = Field(ge=0, le=9, title="Action speed", description="the speed printed on the action")
    modifier: MoveModifier | None = maybe("the movement modifier used with the action; absent: none",
                                          title="Movement modifier")
    modifier_speed: int | None = maybe("the modifier's speed, with its sign (+1, −1); absent: 0",
                                       title="Modifier speed", ge=-9, le=9)
    direction: Direction | None = maybe("which way the unit moves; a march always moves forward; absent: forward",
                                        title="Direction")
    bend: Bend | None = maybe("which way a turn or wheel template bends, seen along the move; absent: its player "
                              "is asked", title="Turn or wheel to the")
    impact: int | None = maybe("the X of the moving unit's Impact X keyword; absent: none", title="Impact",
                               ge=0, le=9)
    charge_target: Id | None = _optional_role("target", "Charge target", "the enemy unit the charge attack targets "
                                              "when it collided with several; absent: its player is asked")
    closing_in_on: Id | None = _optional_role("target", "Closing in on", "the enemy unit that lost trays, which "
                                              "the closing-in shift must collide with")
    enter_terrain: bool | None = maybe("whether the unit enters the terrain it collided with when it may; absent: "
                                       "its player is asked", title="Enters the terrain")
    exit_front: Point | None = maybe("where the middle of its front edge is placed when it exits terrain; absent: "
                                     "carried straight off the piece the way it moves", title="Exit: front edge at")
    exit_facing: float | None = maybe("its facing when it exits terrain, in degrees; absent: as it faces now",
                                      title="Exit: facing")

    def reading(self) -> list[str]:
        """Return the table in a player's words, the move and the template settings used."""
        names = {u.id: unit_name(u, i) for i, u in enumerate(self.units)}
        who = names.get(self.unit, self.unit)
        mod = f" with a {self.modifier.replace('-', ' ')} modifier" if self.modifier else ""
        if self.modifier_speed:
            mod += f" ({'+' if self.modifier_speed > 0 else '−'}{abs(self.modifier_speed)} speed)"
        way = "" if self.direction in (None, "forward") else f", moving {self.direction}"
        out = [*table_reading(self.table, self.units, self.terrain),
               f"Moving unit: {who}, {ACTION_WORDS[self.action].lower()} at speed {self.speed}{mod}{way}.",
               f"Template sizes used: {read_templates(self.table).describe()}."]
        if self.bend:
            out.append(f"The template bends to the {self.bend}.")
        if self.impact:
            out.append(f"{who} has Impact {self.impact}.")
        if self.closing_in_on:
            out.append(f"It closes in on {names.get(self.closing_in_on, self.closing_in_on)}.")
        if self.charge_target:
            out.append(f"Charge target chosen: {names.get(self.charge_target, self.charge_target)}.")
        if self.enter_terrain is not None:
            out.append(f"It {'enters' if self.enter_terrain else 'does not enter'} the terrain it collides with.")
        return out

    @model_validator(mode="after")
    def _known_ids(self) -> MovePosition:
        self.refuse_unknown_units({name: getattr(self, name) for name in ("unit", "charge_target", "closing_in_on")})
        if self.action == "closing_in" and self.closing_in_on is None:
            raise refuse("closing in needs the enemy unit that lost trays", "closing_in_on")
        if (self.exit_front is None) != (self.exit_facing is None) and self.exit_front is None:
            raise refuse("an exit facing needs the exit position of the front edge too", "exit_front")
        return self



class MoveOutcome(Outcome):
    """Where the unit ends and what its move collided with, with the panic tokens, damage and charge."""

    moves: bool = False
    template: str | None = None
    template_speed: int | None = None
    speed: int = 0
    distance: float = 0.0
    final: Placement | None = None
    stopped_by: list[str] = Field(default_factory=list)
    collided: list[str] = Field(default_factory=list)
    collided_terrain: list[str] = Field(default_factory=list)
    passed_over: list[str] = Field(default_factory=list)
    nudged_past: list[str] = Field(default_factory=list)
    panic_tokens: int = 0
    damage: int = 0
    impact_tokens: dict[str, int] = Field(default_factory=dict)
    charge_target: str | None = None
    target_edges: list[str] = Field(default_factory=list)
    flanking: bool | None = None
    entered: str | None = None
    exited: str | None = None
    shift_kind: ShiftKind | None = Field(None, title="Shift while engaged", description="what an engaged unit's "
                                         "shift did: repositioned, disengaged, or both; absent: the unit was not "
                                         "engaged or did not shift")
    repositioned_with: list[str] = Field(default_factory=list, title="Repositioned with", description="the enemy "
                                         "units an engaged unit's shift still touches on the same contacted edges")
    disengaged_from: list[str] = Field(default_factory=list, title="Disengaged from", description="the enemy units "
                                       "an engaged unit's shift left, 1 panic token each")
    activation_ends: bool = False
    template_sizes: str = ""
    drawing: list[Shape] = Field(default_factory=list)
    overlaps: list[list[str]] = Field(default_factory=list)


def widths(x: float) -> str:
    """Return "1 tray width", "2.5 tray widths"."""
    return f"{x:g} tray width{'' if x == 1 else 's'}"


def _place(unit: Unit) -> Placement:
    return Placement(front=pt(unit.front), facing=angle(unit.facing))


@rule("rwm.60", "rwm.60.1", "rwm.59.1", "rwm.59.3", "rwm.55.3", "rwm.81", "rwm.81.2")
def start_overlaps(table: Table, trace: Trace) -> list[list[str]]:
    """Record each overlapping pair at the start (an illegal position), leaving out a unit on its own terrain."""
    occupied = {(t.occupant, t.id) for t in table.terrain if t.occupant}
    pairs = [p for p in overlaps(table) if (p[0], p[1]) not in occupied]
    for a_id, b_id in pairs:
        a = table.unit(a_id)
        if table.has_unit(b_id):
            trace.violate(f"{a.label} and {table.label(b_id)} overlap before the move; no two units may end a move "
                          "on top of each other", "rwm.60", "rwm.60.1", "rwm.59.3")
        else:
            trace.violate(f"{a.label} overlaps the terrain {table.label(b_id)} before the move without occupying "
                          "it; terrain is an obstacle", "rwm.60", "rwm.59.1", "rwm.55.3", "rwm.81", "rwm.81.2")
    return [list(p) for p in pairs]


def touching(table: Table, unit: Unit) -> tuple[list[Unit], list[Terrain]]:
    """Return the units and terrain the unit touches (its own occupied terrain left out)."""
    units = [u for u in table.units if u.id != unit.id and is_touching(u.shape, unit.shape)]
    pieces = [t for t in table.terrain if t.occupant != unit.id and is_touching(t.shape, unit.shape)]
    return units, pieces


@rule("rwm.47.2", "rwm.17.2", "rwm.55.4.b1", "rwm.47", "rwm.34", "rwm.81.8")
def may_move(table: Table, pos: MovePosition, unit: Unit, engaged: list[Unit], home: Terrain | None,
             out: MoveOutcome, trace: Trace) -> bool:
    """Return whether the move is resolved here: a march goes forward, an engaged unit (as ``contact`` finds it,
    occupied terrain included) does not march and its shift repositions or disengages it (73.2, ruled by
    ``engaged_shift``'s steps), an occupant's shift is an exit instead, and a unit still engaged cannot close in."""
    if pos.action == "march" and pos.direction not in (None, "forward"):
        trace.violate(f"a march moves the unit forward, not {pos.direction}", "rwm.55.4.b1", "rwm.47")
        return False
    names = and_list([e.label for e in engaged])
    for enemy in engaged:
        piece = through_terrain(table, unit, enemy)
        if piece is not None:
            who = (f"{possessive(unit.label)} edge touches {piece.label}, which {enemy.label} occupies"
                   if piece.occupant == enemy.id else f"{enemy.label} touches {piece.label}, which {unit.label} "
                   "occupies")
            trace.step(f"{who}: that counts as touching {possessive(table.label(piece.occupant or ''))} front edge, "
                       f"so {unit.label} and {enemy.label} are engaged.", "rwm.81.8", "rwm.34")
    if engaged and home is not None and pos.action == "shift":
        return True  # it leaves its terrain instead of moving: that disengages it (81.8.b4, in _exit)
    if engaged and pos.action == "closing_in":
        trace.violate(f"{unit.label} is still engaged with {names}, so it cannot close in", "rwm.17.2")
        return False
    if engaged and pos.action == "march":
        trace.step(f"{unit.label} is engaged with {names}: its march is canceled and it stays where it is.",
                   "rwm.47.2", "rwm.34")
        trace.summarize(f"{unit.label} is engaged with {names}, so its march is canceled and it does not move.")
        out.final = _place(unit)
        return False
    if engaged:
        return engaged_may_shift(unit, engaged, trace)
    return True


@rule("rwm.56.2", "rwm.56.2.b1", "rwm.56.2.b2", "rwm.75.1", "rwm.75.2", "rwm.15.2", "rwm.17.1", "rwm.17.1.b2")
def resulting_speed(pos: MovePosition, unit: Unit, trace: Trace) -> int:
    """Return the speed of the move: the action's speed with the modifier's added or taken away."""
    if pos.action == "closing_in":
        trace.step(f"{unit.label} closes in: a shift at speed 1, whose straight template covers exactly the width "
                   "of 1 tray.", "rwm.17.1", "rwm.17.1.b2")
        return 1
    extra = pos.modifier_speed or 0
    speed = pos.speed + extra
    if extra:
        trace.step(f"The modifier's speed is {'added to' if extra > 0 else 'taken from'} the action's: "
                   f"{pos.speed} {'+' if extra > 0 else '−'} {abs(extra)} = {speed}.", "rwm.56.2", "rwm.56.2.b1",
                   "rwm.75.1")
    if speed <= 0:
        trace.step(f"The speed is {speed}: the unit cannot move and stays where it is; only the movement is "
                   f"canceled, the {pos.action} itself is still performed.", "rwm.56.2.b2", "rwm.75.2", "rwm.15.2")
    return speed


@dataclass
class Chosen:
    """The template chosen for the move."""

    kind: str
    speed: int
    motion: Motion


@rule("rwm.55.1", "rwm.47", "rwm.73", "rwm.47.1", "rwm.73.1", "rwm.56.1", "rwm.56.1.b1", "rwm.56.2.b3",
      "rwm.75.3", "rwm.55.4", "rwm.55.4.b2", "rwm.55", "rwm.85", "rwm.56.3")
def choose_template(pos: MovePosition, unit: Unit, speed: int, templates: Templates, trace: Trace) -> Chosen | None:
    """Return the template of the move and its motion (None while the player must say which way it bends)."""
    kind = template_kind(pos.modifier)
    used = template_speed(templates, kind, speed)
    direction = pos.direction or "forward"
    if kind != "straight" and pos.bend is None:
        trace.decide(unit.player, f"which way the {kind} template bends", "rwm.56.1", options=["left", "right"],
                     field="bend")
        trace.summarize(f"{possessive(unit.label)} player must first say which way the {kind} template bends.")
        return None
    if used < speed:
        trace.step(f"No {kind} template is as fast as speed {speed}: the fastest one, speed {used}, is used.",
                   "rwm.56.2.b3", "rwm.75.3")
    words = template_words(kind, used, pos.bend)
    why = (f"the {(pos.modifier or '').replace('-', ' ')} modifier asks for a {kind} template" if kind != "straight"
           else f"a {pos.action.replace('_', ' ')} uses the straight template")
    edge = {"forward": "front edge", "backward": "back edge"}.get(direction, f"{direction} side edge")
    trace.step(f"Before moving, {unit.label} takes {words} ({why}, matching the speed) and lays its start guide "
               f"against its {edge}.", "rwm.55.1", "rwm.55", "rwm.55.4", "rwm.56.1.b1",
               *(["rwm.56.1", "rwm.47.1" if pos.action == "march" else "rwm.73.1"] if kind != "straight"
                 else ["rwm.47" if pos.action == "march" else "rwm.73"]))
    if pos.modifier == "turning-charge":
        trace.step("A turning charge is a turn and a charge together.", "rwm.85", "rwm.56.3")
    if direction != "forward":
        trace.step(f"Moving {direction}, the {edge} counts as its front edge for collisions and squaring up.",
                   "rwm.55.4.b2")
    return Chosen(kind, used, motion(unit, direction, kind, templates, used, pos.bend))


@dataclass
class Travel:
    """How far the unit went, what stopped it, and the allied units it passed over."""

    t: float
    final: Unit
    blockers: list[str]
    passed: list[str] = field(default_factory=list)


def _obstacle_pieces(table: Table, unit: Unit, passable: set[str]) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = [(u.id, u.shape) for u in table.units if u.id != unit.id and u.id not in passable]
    found += [(t.id, t.shape) for t in table.terrain if t.occupant != unit.id]
    return found


def carry(table: Table, unit: Unit, mv: Motion) -> Travel:
    """Carry the unit along the template: stop at the first obstacle; allies stay passable while at most 1 of
    their trays is crossed and the unit does not end on them (each round makes one more ally an obstacle)."""
    allies = {u.id for u in table.units if u.id != unit.id and u.is_allied(unit)}
    passable = set(allies)
    hull = shapely.convex_hull(shapely.multipoints(np.concatenate([mv.rings(k / 8).reshape(-1, 2)
                                                                   for k in range(9)])))
    hull = shapely.buffer(hull, 1.0, join_style="mitre")  # the arcs bulge a little beyond the sampled hull
    for _ in range(len(allies) + 1):
        stop = first_stop(mv, obstacles(_obstacle_pieces(table, unit, passable)))
        final = mv.pose(stop.t)
        near = [a for a in passable if shapely.intersects(hull, table.unit(a).shape)] if passable else []
        parts = swept_parts(mv, stop.t) if near else None
        crossed = {a: trays_crossed(parts, table.unit(a).trays) for a in near} if parts is not None else {}
        now_blocking = {a for a in near if crossed[a] > 1
                        or trays_crossed(np.array([final.shape]), table.unit(a).trays) > 0}
        if not now_blocking:
            passed = [a for a in table.sorted_ids(list(near)) if crossed[a]]
            return Travel(stop.t, final, [b.id for b in stop.blockers], passed)
        passable -= now_blocking
    raise AssertionError("unreachable: every ally became an obstacle")  # pragma: no cover


@rule("rwm.55.3", "rwm.55.3.b1", "rwm.60.1", "rwm.59.1", "rwm.55.3.b2", "rwm.59.3", "rwm.55.2", "rwm.60.3")
def move_steps(table: Table, unit: Unit, mv: Motion, moved: Travel, out: MoveOutcome, trace: Trace) -> None:
    """Say how far the unit went: to the end guide, or stopped and slid back to touch what it would overlap."""
    out.distance = r3(mv.path_length(moved.t))
    template = shapely.buffer(Polygon(mv.outline()), -1e-6, join_style="mitre")
    under = [u.id for u in table.units if u.id != unit.id and shapely.intersects(template, u.shape)]
    under += [t.id for t in table.terrain if t.occupant != unit.id and shapely.intersects(template, t.shape)]
    if under:
        trace.step(f"The template lies across {and_list([table.label(x) for x in table.sorted_ids(under)])}: it is "
                   "held just above them and read looking straight down.", "rwm.60.3")
    for ally in moved.passed:
        trace.step(f"{unit.label} passes over 1 tray of the allied {table.label(ally)} and does not end on it: "
                   "that unit is no obstacle and causes no collision.", "rwm.55.3.b2", "rwm.59.3")
    if not moved.blockers:
        trace.step(f"{unit.label} slides along the template until its leading edge lines up with the end guide.",
                   "rwm.55.2")
        return
    for ally in [b for b in moved.blockers if table.has_unit(b) and table.unit(b).is_allied(unit)]:
        trace.step(f"{table.label(ally)} is allied, but {unit.label} would cross more than 1 of its trays or end on "
                   "it: it is an obstacle.", "rwm.55.3.b2", "rwm.59.3")
    names = and_list([table.label(b) for b in moved.blockers])
    out.stopped_by = table.sorted_ids(moved.blockers)
    trace.step(f"Before the end guide, {unit.label} would overlap {names}, an obstacle: its movement stops, and "
               f"it is slid back along the template until it touches {names} without overlapping.", "rwm.55.3",
               "rwm.60.1", "rwm.59.1")
    if mv.kind != "straight":
        trace.step(f"Slid back along the curved template, it is turned with it so its front edge stays square to "
                   f"the template: facing {angle(moved.final.facing):g}°.", "rwm.55.3.b1")


@rule("rwm.55.3.b3")
def nudges(table: Table, unit: Unit, mv: Motion, moved: Travel, templates: Templates, out: MoveOutcome,
           trace: Trace) -> None:
    """Name the obstacles a stated connector would catch on the way: the unit is nudged clear and goes on."""
    if not templates.connector:
        return
    area = swept(mv, moved.t)
    near = [u.id for u in table.units if u.id != unit.id and u.id not in moved.blockers
            and u.id not in moved.passed and 0 <= area.distance(u.shape) < templates.connector]
    near += [t.id for t in table.terrain if t.occupant != unit.id and t.id not in moved.blockers
             and area.distance(t.shape) < templates.connector]
    if near:
        out.nudged_past = table.sorted_ids(near)
        trace.step(f"Only a connector would catch {and_list([table.label(n) for n in out.nudged_past])} on the "
                   "way: the unit is nudged directly away, just enough to clear it, and carries on.", "rwm.55.3.b3")


@dataclass
class Met:
    """What the unit collided with at the end of its move."""

    enemies: list[Unit]
    allies: list[Unit]
    terrain: list[Terrain]
    through: dict[str, Terrain] = field(default_factory=dict)
    """The enemies collided with through the terrain they occupy (81.8.b2), each with its piece."""
    beside: dict[str, Terrain] = field(default_factory=dict)
    """The enemies collided with by entering terrain they touch (81.8.b3), each with its piece."""


@rule("rwm.81.8", "rwm.81.8.b2")
def occupied_collisions(table: Table, unit: Unit, met: Met, trace: Trace) -> list[Unit]:
    """Return the enemies the unit collided with by colliding with the terrain they occupy (81.8.b2): each counts
    as a collision with the enemy, whose front edge the unit's touching edge counts as touching (81.8)."""
    found = []
    for piece in met.terrain:
        if piece.occupant is None or piece.occupant == unit.id:
            continue
        enemy = table.unit(piece.occupant)
        if enemy.is_allied(unit) or enemy.id in met.through:
            continue
        met.through[enemy.id] = piece
        found.append(enemy)
        trace.step(f"{enemy.label} occupies {piece.label}: colliding with it counts as colliding with "
                   f"{enemy.label}, and the edge of {unit.label} touching it counts as touching "
                   f"{possessive(enemy.label)} front edge, so the two are engaged.", "rwm.81.8.b2", "rwm.81.8")
    return found


@rule("rwm.18", "rwm.18.1", "rwm.59.1")
def collisions(table: Table, unit: Unit, final: Unit, pos: MovePosition, out: MoveOutcome, trace: Trace,
               corpus: Corpus) -> Met:
    """Return what the unit touches at the end and did not touch before: what it collided with, and the panic."""
    before_units, before_terrain = touching(table, unit)
    after_units, after_terrain = touching(table, final)
    seen = {u.id for u in before_units} | {t.id for t in before_terrain}
    new_units = [u for u in after_units if u.id not in seen]
    met = Met([u for u in new_units if not u.is_allied(unit)], [u for u in new_units if u.is_allied(unit)],
              [t for t in after_terrain if t.id not in seen])
    out.collided = [u.id for u in new_units]
    out.collided_terrain = [t.id for t in met.terrain]
    hit = [u.label for u in new_units] + [t.label for t in met.terrain]
    if not hit:
        trace.step(f"At the end of the move {unit.label} touches nothing it did not touch before: it collided with "
                   "nothing.", "rwm.18")
        return met
    trace.step(f"At the end of the move {unit.label} touches {and_list(hit)}, which it did not touch before: it "
               f"collided with {'it' if len(hit) == 1 else 'them'}.", "rwm.18", "rwm.59.1")
    met.enemies += [e for e in occupied_collisions(table, unit, met, trace) if e not in met.enemies]
    out.collided = [u.id for u in new_units] + [e.id for e in met.enemies if e not in new_units]
    if met.enemies and pos.action != "closing_in" and not charge.is_charge(pos.modifier):
        panic = collision_panic(pos.action, pos.modifier, len(met.enemies), corpus)
        out.panic_tokens += panic
        trace.step(f"Colliding with {plural(len(met.enemies), 'enemy unit')}: {unit.label} takes {tokens(panic)}, "
                   "then squares up (Squaring up).", "rwm.18.1")
    return met


@rule("rwm.17.1", "rwm.17.1.b1", "rwm.17")
def closing_in(table: Table, unit: Unit, pos: MovePosition, met: Met, out: MoveOutcome, trace: Trace) -> bool:
    """Return whether the closing-in shift collided with the enemy that lost trays (else neither unit moves)."""
    opponent = table.unit(str(pos.closing_in_on))
    if any(e.id == opponent.id for e in met.enemies):
        trace.step(f"The shift collided with {opponent.label}: {unit.label} squares up with it (Squaring up), and "
                   "every other effect of the collision is ignored.", "rwm.17.1")
        trace.summarize(f"{unit.label} closes in on {opponent.label} and squares up with it; no panic token.")
        return True
    trace.step(f"The shift does not collide with {opponent.label}: neither unit moves and the two are no longer "
               "engaged (effects of disengaging are ignored).", "rwm.17.1.b1")
    trace.summarize(f"{unit.label} cannot close in on {opponent.label}: neither unit moves and they are no longer "
                    "engaged.")
    out.final, out.moves, out.distance, out.collided, out.collided_terrain, out.stopped_by = (
        _place(unit), False, 0.0, [], [], [])
    return False


@rule("rwm.81.8.b3", "rwm.81.8", "rwm.34", "rwm.18.1")
def entering_collisions(table: Table, unit: Unit, pos: MovePosition, met: Met, out: MoveOutcome, trace: Trace,
                        corpus: Corpus) -> None:
    """The enemies touching the terrain the unit enters (81.8.b3): it resolves the collision as though it had
    collided with each of them (panic when not charging, a charge target), and once on the piece it is engaged
    with them (81.8)."""
    if not pos.enter_terrain:
        return
    open_ = terrain_moves.may_enter(table, unit, met.terrain, Trace())  # its steps are told when it enters
    if not open_:
        return
    piece = open_[0]
    found = [u for u in table.units if u.id != unit.id and not u.is_allied(unit) and u not in met.enemies
             and is_touching(u.shape, piece.shape)]
    if not found:
        return
    met.enemies += found
    met.beside.update({e.id: piece for e in found})
    out.collided += [e.id for e in found]
    names = and_list([e.label for e in found])
    trace.step(f"{unit.label} is to enter {piece.label}, which {names} {'touches' if len(found) == 1 else 'touch'}: "
               f"it resolves the collision as though it had collided with {names}, and once it occupies "
               f"the piece they are engaged, {possessive(names) if len(found) == 1 else 'their'} touching "
               f"{'edge' if len(found) == 1 else 'edges'} counting as touching its front edge.", "rwm.81.8.b3",
               "rwm.81.8", "rwm.34")
    if not charge.is_charge(pos.modifier):
        panic = collision_panic(pos.action, pos.modifier, len(found), corpus)
        out.panic_tokens += panic
        trace.step(f"Colliding so with {plural(len(found), 'enemy unit')}: {unit.label} takes {tokens(panic)}.",
                   "rwm.18.1", "rwm.81.8.b3")


def _drawing(unit: Unit, mv: Motion | None, moved: Travel | None, end: Unit | None, table: Table) -> list[Shape]:
    """Return what the board draws: template, start, path, blocked spot and slide, end."""
    shapes = [outline("start", unit.shape, unit.id, f"{unit.label} before the move")]
    if mv is not None and moved is not None:
        shapes.insert(0, outline("template", Polygon(mv.outline()), unit.id, "movement template"))
        shapes.append(polyline("path", mv.track(0.0, moved.t), unit.id, "path followed"))
        if moved.blockers:
            names = and_list([table.label(b) for b in moved.blockers])
            shapes.append(outline("blocked", mv.pose(1.0).shape, unit.id, f"end guide: would overlap {names}"))
            shapes.append(polyline("slide", mv.track(1.0, moved.t), unit.id, "slid back along the template"))
    if end is not None:
        shapes.append(outline("end", end.shape, unit.id, f"{unit.label} after the move"))
    return shapes


def _charge(table: Table, unit: Unit, pos: MovePosition, met: Met | None, moved: bool, out: MoveOutcome, trace: Trace,
            final: Unit | None = None) -> bool:
    """The charge's effects at the end of the move; return False when a stated target is illegal."""
    if not charge.is_charge(pos.modifier):
        return True
    enemies = met.enemies if met is not None else []
    out.panic_tokens += charge.charge_panic(unit, enemies, moved, trace)
    out.impact_tokens = charge.impact(unit, enemies, pos.impact or 0, trace)
    target, legal = charge.charge_target(unit, enemies, pos.charge_target, trace)
    out.charge_target = target
    piece = met.through.get(target or "") if met is not None else None
    beside = met.beside.get(target or "") if met is not None else None
    if target is not None and piece is not None:
        out.target_edges, out.flanking = charge.terrain_hit(unit, table.unit(target), piece, trace)
    elif target is not None and beside is not None:
        out.target_edges, out.flanking = charge.entered_hit(unit, table.unit(target), beside, trace)
    elif target is not None and final is not None:
        out.target_edges, out.flanking = charge.edge_hit(final, next(e for e in enemies if e.id == target), trace)
    return legal


@rule("rwm.81.1", "rwm.81.2.b2")
def _terrain(table: Table, unit: Unit, pos: MovePosition, met: Met, out: MoveOutcome, trace: Trace) -> Unit | None:
    """Deadly, Taxing and entering for the terrain collided with; return the unit placed on entered terrain."""
    own = [t for t in met.terrain if t.id not in {p.id for p in met.through.values()}]
    damage, panic = terrain_moves.terrain_hits(unit, own, trace)
    out.damage += damage
    out.panic_tokens += panic
    open_ = terrain_moves.may_enter(table, unit, met.terrain, trace)
    if not open_:
        if pos.enter_terrain:
            trace.violate(f"{unit.label} collided with no terrain it may enter", "rwm.81.1")
        return None
    piece = open_[0]
    if pos.enter_terrain is None:
        trace.decide(unit.player, f"whether {unit.label} enters {piece.label}", "rwm.81.1", options=[True, False],
                     field="enter_terrain")
        return None
    if not pos.enter_terrain:
        trace.step(f"{possessive(unit.label)} player chooses not to enter {piece.label}.", "rwm.81.1")
        return None
    entry = terrain_moves.enter(unit, piece, trace)
    out.entered, out.activation_ends = piece.id, True
    return entry.placed if entry.placed is not None else unit


def _exit(table: Table, unit: Unit, piece: Terrain, pos: MovePosition, engaged: list[Unit], out: MoveOutcome,
          trace: Trace, corpus: Corpus) -> None:
    """Leave occupied terrain instead of moving (81.3-81.5); leaving terrain an enemy touches disengages (81.8.b4)."""
    action = "shift" if pos.action != "march" else "march"
    direction = pos.direction or "forward"
    if pos.exit_front is not None:
        facing = unit.facing if pos.exit_facing is None else float(pos.exit_facing)
        placed = build_unit(unit.id, unit.index, unit.player, unit.name, unit.width, unit.depth, unit.ranks,
                            (float(pos.exit_front[0]), float(pos.exit_front[1])), facing)
    elif action == "shift" and direction == "forward":
        placed = unit  # a forward shift would leave its back edge against the piece: refused below
    else:
        placed = terrain_moves.carried_off(unit, piece, direction)
    ok = terrain_moves.exit_terrain(table, unit, piece, action, placed, trace)
    end = placed if ok else unit
    out.final, out.moves = _place(end), ok
    out.exited = piece.id if ok else None
    if ok and engaged:
        out.panic_tokens += terrain_moves.exit_disengages(unit, piece, engaged, trace, corpus)
    out.drawing = [outline("start", unit.shape, unit.id, f"{unit.label} in {piece.label}")]
    if ok:
        out.drawing.append(outline("end", placed.shape, unit.id, f"{unit.label} after leaving {piece.label}"))
        panic = f", taking {tokens(out.panic_tokens)} for disengaging" if out.panic_tokens else ""
        trace.summarize(f"{unit.label} leaves {piece.label} and is placed against its edge, "
                        f"{facing_words(placed.facing)}{panic}.")
    else:
        trace.summarize(f"{unit.label} cannot be placed outside {piece.label}: it stays there and its {action} "
                        "fails.")


TABLE_LABELS: dict[str, Label] = {
    **outcome_words("final", "stopped_by", "collided", "panic_tokens", "flanking", "repositioned_with",
                    "disengaged_from", "drawing", "overlaps"),
    "moves": "Moves",
    "template": "Template used",
    "template_speed": "Template speed",
    "speed": "Speed",
    "distance": "Distance moved (tray widths)",
    "collided_terrain": "Terrain collided with",
    "passed_over": "Allied trays passed over",
    "nudged_past": "Nudged past (connectors)",
    "damage": "Damage (Deadly)",
    "impact_tokens": "Impact panic tokens",
    "charge_target": "Charge attack target",
    "target_edges": "Target's edges hit",
    "entered": "Terrain entered",
    "exited": "Terrain exited",
    "shift_kind": "Engaged shift",
    "activation_ends": "Activation ends",
    "template_sizes": "Template sizes used",
}
"""The outcome's fields in a player's words (the ruling's outcome list on the boards and the CLI)."""


@situation(GAME, "move", MovePosition, labels=TABLE_LABELS)
@rule("rwm.55", "rwm.55.1")
def resolve_move(pos: MovePosition, trace: Trace, corpus: Corpus) -> MoveOutcome | Overlaps:
    """Move a unit along its template: where it ends, what it collides with, and the charge and terrain effects."""
    table = read_table(pos.table, pos.units, pos.terrain)
    unit = unit_ref(table, pos.unit, "unit")
    templates = read_templates(pos.table)
    bad = start_overlaps(table, trace)
    if bad:
        return Overlaps(overlaps=bad)
    out = MoveOutcome(template_sizes=templates.describe(), final=_place(unit))
    trace.step(f"The book prints no template sizes; this table uses: {templates.describe()}.", "rwm.55.1")
    engaged = engaged_enemies(table, unit)
    home = next((t for t in table.terrain if t.occupant == unit.id), None)
    if not may_move(table, pos, unit, engaged, home, out, trace):
        return out
    if home is not None:
        _exit(table, unit, home, pos, engaged, out, trace, corpus)
        return out
    if engaged:
        _engaged_shift(table, unit, pos, engaged, templates, out, trace, corpus)
        return out
    speed = out.speed = resulting_speed(pos, unit, trace)
    if speed <= 0:
        out.drawing = _drawing(unit, None, None, None, table)
        _charge(table, unit, pos, None, False, out, trace)
        trace.summarize(_summary(table, unit, pos, out))
        return out
    chosen = choose_template(pos, unit, speed, templates, trace)
    if chosen is None:
        return out
    _travel(table, unit, pos, chosen, templates, out, trace, corpus)
    return out


@rule("rwm.73", "rwm.55.1")
def _engaged_shift(table: Table, unit: Unit, pos: MovePosition, engaged: list[Unit], templates: Templates,
                   out: MoveOutcome, trace: Trace, corpus: Corpus) -> None:
    """An engaged unit's shift (73.2-73.5): the straight template of its speed carries it the way it moves, and the
    engaged shift's own ruling says whether it repositions or disengages, with its panic tokens."""
    if pos.modifier is not None:
        raise UnreadableInputError(f"an engaged unit's shift is ruled on the straight template only; the "
                                   f"{pos.modifier.replace('-', ' ')} modifier with it is not ruled here",
                                   path="modifier")
    speed = out.speed = resulting_speed(pos, unit, trace)
    if speed <= 0:
        out.drawing = _drawing(unit, None, None, None, table)
        trace.summarize(_summary(table, unit, pos, out))
        return
    chosen = choose_template(pos, unit, speed, templates, trace)
    if chosen is None:  # pragma: no cover - a straight template never asks which way it bends
        return
    length = templates.straight[chosen.speed - 1]
    direction = pos.direction or "forward"
    trace.step(f"This table's speed-{chosen.speed} straight template is {widths(length)} long: {unit.label} "
               f"shifts {direction} by up to that much, stopping where it would overlap an obstacle.", "rwm.73",
               "rwm.55.1")
    res = EngagedShiftOutcome(engaged_with=[e.id for e in engaged])
    ok = shift_engaged(table, unit, engaged, direction_vector(unit, direction), length, res, trace, corpus)
    out.template, out.template_speed = template_words("straight", chosen.speed, None), chosen.speed
    out.moves, out.distance = ok and res.moved > 0, res.moved if ok else 0.0
    out.stopped_by, out.panic_tokens = res.stopped_by, res.panic_tokens
    if res.final is not None:
        out.final = Placement(front=res.final.front, facing=res.final.facing)
    out.shift_kind, out.repositioned_with, out.disengaged_from = res.kind, res.repositioned_with, res.disengaged_from
    if ok:
        out.collided = [i for i in res.new_contacts if table.has_unit(i)]
        out.collided_terrain = [i for i in res.new_contacts if not table.has_unit(i)]
    out.drawing = res.drawing


def _travel(table: Table, unit: Unit, pos: MovePosition, chosen: Chosen, templates: Templates, out: MoveOutcome,
            trace: Trace, corpus: Corpus) -> None:
    """Carry the unit, then resolve what it collided with (closing in, charge, terrain) and draw it."""
    out.template, out.template_speed = template_words(chosen.kind, chosen.speed, pos.bend), chosen.speed
    moved = carry(table, unit, chosen.motion)
    move_steps(table, unit, chosen.motion, moved, out, trace)
    nudges(table, unit, chosen.motion, moved, templates, out, trace)
    end = moved.final
    out.final, out.moves, out.passed_over = _place(end), moved.t > 0, moved.passed
    met = collisions(table, unit, end, pos, out, trace, corpus)
    out.drawing = _drawing(unit, chosen.motion, moved, end, table)
    if pos.action == "closing_in":
        if not closing_in(table, unit, pos, met, out, trace):
            out.drawing = _drawing(unit, chosen.motion, moved, None, table)
        return
    entering_collisions(table, unit, pos, met, out, trace, corpus)
    if not _charge(table, unit, pos, met, True, out, trace, end):
        return
    placed = _terrain(table, unit, pos, met, out, trace)
    if placed is not None:
        out.final = _place(placed)
        out.drawing.append(outline("end", placed.shape, unit.id, f"{unit.label} on the terrain"))
    trace.summarize(_summary(table, unit, pos, out))


def _summary(table: Table, unit: Unit, pos: MovePosition, out: MoveOutcome) -> str:
    """Return the ruling in one line."""
    if not out.moves:
        head = f"{unit.label} does not move (speed {out.speed})"
    elif out.stopped_by:
        head = (f"{unit.label} is stopped by {and_list([table.label(b) for b in out.stopped_by])} after "
                f"{widths(out.distance)} and slid back to touch {'it' if len(out.stopped_by) == 1 else 'them'}")
    else:
        head = f"{unit.label} moves the whole template ({widths(out.distance)})"
    bits = []
    if out.nudged_past:
        bits.append(f"nudged past {and_list([table.label(a) for a in out.nudged_past])}")
    if out.passed_over:
        bits.append(f"passing over {and_list([table.label(a) for a in out.passed_over])}")
    if out.collided or out.collided_terrain:
        bits.append(f"colliding with {and_list([table.label(c) for c in out.collided + out.collided_terrain])}")
    bits.append(f"taking {tokens(out.panic_tokens)}")
    if out.damage:
        bits.append(f"suffering {out.damage} damage")
    if out.impact_tokens:
        bits.append("giving " + and_list([f"{table.label(k)} {tokens(v)}" for k, v in out.impact_tokens.items()]))
    if out.charge_target:
        bits.append(f"then attacking {table.label(out.charge_target)}")
    if out.entered:
        bits.append(f"and entering {table.label(out.entered)}")
    return f"{head}, {', '.join(bits)}."
