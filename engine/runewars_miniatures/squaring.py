"""RuneWars Miniatures squaring up after a collision (or on revealing a dial while engaged), on the table.

The ``squaring_up`` situation (CONTRACT.md, "RuneWars Miniatures on the table"). The moving unit collided
with the enemies it touches now but did not touch before (``rwm.18``); it takes 1 panic token per enemy
collided with during a march or shift (``rwm.18.1``, a corpus fact) unless the action was modified by a
charge (``rwm.18.1.b1``, ``rwm.16.1``); closing in ignores the other effects of the collision (``rwm.17.1``).
It squares up with one enemy (its player picks when several: ``rwm.77.4``): it pivots about the point of
contact until its leading edge lies flat on the enemy's edge (``rwm.77.1``; after a backward or sideways move
the leading edge counts as the front, ``rwm.55.4.b2``/``rwm.77.3``), then slides to the first aligned
position (``rwm.77.1.b1``). An enemy corner against the edge is the ruler count of ``rwm.77.2``.

Choices documented here: "left"/"right" for a slide are the unit's own sides after the pivot; when the
leading edge is a side edge (a sideways shift) the slide runs along the unit's forward axis and "right"
names the leading edge's right (the unit's forward for a shift to the left). A position where the squared
or slid unit would overlap another obstacle is reported as not squaring up, with ``blocked_by`` (the
77.5 procedures of sliding and pivoting the other way are not searched).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, Outcome, labelled, maybe
from engine.runewars_miniatures.common import (
    GAME,
    Game,
    ModifierIcon,
    ShiftDirection,
    and_list,
    article,
    lie,
    nullable,
    plural,
    possessive,
    tokens,
)
from engine.runewars_miniatures.contact import count_sides, flush_overlap, meet
from engine.runewars_miniatures.table import (
    EPS,
    Corner,
    Edge,
    Id,
    Overlaps,
    Placement,
    Table,
    TablePosition,
    Unit,
    Vec,
    add,
    angle,
    build_unit,
    check_overlaps,
    dot,
    facing_of,
    is_overlapping,
    is_touching,
    mul,
    norm,
    outcome_words,
    pt,
    r3,
    read_table,
    right_of,
    rotate,
    seg_distance,
    sub,
    table_reading,
    table_role,
    unit_name,
    unit_ref,
)

Side = Annotated[Literal["left", "right"], Field(json_schema_extra=labelled({"left": "Left", "right": "Right"}))]
CHARGES = ("charge", "turning-charge")


CAUSE_WORDS = {"march": "A march", "shift": "A shift", "closing_in": "Closing in", "reveal": "Revealing its dial"}
Cause = Annotated[Literal["march", "shift", "closing_in", "reveal"], Field(json_schema_extra=labelled(CAUSE_WORDS))]


class SquaringPosition(TablePosition):
    """Units on the table after the active unit's move (or its reveal while engaged), and the choices made."""

    model_config = ConfigDict(title="Squaring up position")

    game: Game
    situation: Literal["squaring_up"]
    active: Id = table_role("acting", "Moving unit", "the unit that moved (or revealed its dial)")
    cause: Cause = Field(title="What moved it", description="what brought the unit into contact: a march, a shift, "
                         "closing in, or revealing its dial while engaged")
    modifier: ModifierIcon | None = nullable("the movement modifier used with the march, if any (a charge takes no "
                                             "panic token for colliding); absent: none", title="Movement modifier")
    direction: ShiftDirection | None = maybe("which way a shift moved it, as its player sees it from behind the unit; "
                                        "absent: forward", title="Direction")
    touching_before: Annotated[list[Id], Field(max_length=40)] | None = maybe(
        "the units it already touched before this move (touching them now is not a collision); absent: none",
        title="Units touching before the move")
    target: Annotated[Id, Field(json_schema_extra={"x-table-role": "target"})] | None = maybe(
        "the enemy unit it squares up to, when it met several; absent: the ruling asks", title="Enemy it squares up to")
    pivot: Side | None = maybe("which way it pivots onto the enemy's edge when the collision leaves it to its player "
                               "(equal ruler counts, or corner to corner); absent: the ruling asks",
                               title="Pivot to the")
    slide: Side | None = maybe("which way it slides along the enemy's edge to line its trays up, when both ways are "
                               "open (its own left or right after the pivot); absent: the ruling asks",
                               title="Slide to its")


    def reading(self) -> list[str]:
        """Return the table in a player's words, the move that ended and the choices already stated."""
        names = {u.id: unit_name(u, i) for i, u in enumerate(self.units)}
        move = CAUSE_WORDS[self.cause].lower()
        how = [f"modified by {article(self.modifier)} {self.modifier.replace('-', ' ')}" if self.modifier else "",
               f"moving {self.direction}" if self.direction and self.direction != "forward" else ""]
        detail = ", ".join(x for x in how if x)
        out = [*table_reading(self.table, self.units, self.terrain),
               f"Moving unit: {names.get(self.active, self.active)}, after {move}{f' ({detail})' if detail else ''}."]
        if self.touching_before:
            out.append("Touching before the move: " + and_list([names.get(t, t) for t in self.touching_before]) + ".")
        chosen = [f"squares up with {names.get(self.target, self.target)}" if self.target else "",
                  f"pivots {self.pivot}" if self.pivot else "", f"slides {self.slide}" if self.slide else ""]
        if any(chosen):
            out.append("Chosen: it " + and_list([c for c in chosen if c]) + ".")
        return out
    @model_validator(mode="after")
    def _known_ids(self) -> SquaringPosition:
        self.refuse_unknown_units({"active": self.active,
                                   **{f"touching_before[{i}]": uid for i, uid in enumerate(self.touching_before or [])},
                                   "target": self.target})
        return self


class LeftRight(Model):
    """Trays counted on each side of the ruler."""

    left: int
    right: int


class SlideOptions(Model):
    """How far the unit slides each way to line up its trays (null: no aligned position that way)."""

    left: float | None
    right: float | None



class SquaringOutcome(Outcome):
    """Whether the unit squares up and with whom, the pivot and slide, where it ends and its panic tokens."""

    squares_up: bool = False
    target: str | None = None
    collision: Literal["edge", "corner"] | None = None
    counts: LeftRight | None = None
    pivot: Literal["none", "left", "right"] | None = None
    facing: float | None = None
    enemy_edge: str | None = None
    flanking: bool | None = None
    slide_options: SlideOptions | None = None
    final: Placement | None = None
    panic_tokens: int = 0
    collided: list[str] = Field(default_factory=list)
    pivot_point: list[float] | None = None
    after_pivot: Placement | None = None
    blocked_by: list[str] = Field(default_factory=list)
    overlaps: list[list[str]] = Field(default_factory=list)


@rule("rwm.18", "rwm.18.1", "rwm.18.1.b1", "rwm.16.1", "rwm.17.1")
def collision_panic(cause: str, modifier: str | None, collided: int, corpus: Corpus) -> int:
    """Return the panic tokens from colliding: 1 per enemy during a march or shift, none under a charge."""
    if cause not in ("march", "shift") or modifier in CHARGES:
        return 0
    return collided * int(corpus.fact("rwm.18.1", "collision_panic_tokens"))


@dataclass(frozen=True)
class Leading:
    """The edge that led the move (treated as the front for squaring up) as one segment."""

    kind: str
    direction: Vec
    left: Vec
    right: Vec

    @property
    def edge(self) -> Edge:
        """Return the segment as an edge (outward normal = direction of the move)."""
        return Edge(self.kind, self.left, self.right, self.direction)


DIRECTION_KIND = {"forward": "front", "backward": "rear", "left": "side", "right": "side"}


def leading_edge(unit: Unit, direction: Vec, kind: str) -> Leading:
    """Return the outermost outline segment facing *direction* (spanning all its pieces on that line)."""
    facing = [e for e in unit.edges if dot(e.normal, direction) > 1 - 1e-9]
    top = max(dot(e.a, direction) for e in facing)
    line = [e for e in facing if dot(e.a, direction) >= top - EPS]
    t = right_of(direction)
    ends = [p for e in line for p in (e.a, e.b)]
    ends.sort(key=lambda p: dot(p, t))
    return Leading(kind, direction, ends[0], ends[-1])


def _grid(unit: Unit, kind: str) -> list[Vec]:
    """Return points on the unit's tray edges and seams that run across an edge of that kind."""
    half = unit.files * unit.width / 2
    if kind in ("front", "rear"):
        return [unit.world(-half + j * unit.width, 0.0) for j in range(unit.files + 1)]
    return [unit.world(0.0, -k * unit.depth) for k in range(len(unit.ranks) + 1)]


@rule("rwm.77.1", "rwm.77.1.b1")
def slide_distances(mover: Unit, lead: Leading, enemy: Unit, edge: Edge) -> tuple[float | None, float | None, Vec]:
    """Return the slide to the first aligned position toward the leading edge's (left, right), and the right.

    Seams of the mover along its leading edge must line up with the enemy's seams along the contacted edge
    while the two still touch along it. 0 means already aligned; None: no aligned position while touching.
    """
    t = right_of(lead.direction)
    lo, hi = sorted((dot(edge.a, t), dot(edge.b, t)))
    l0, l1 = dot(lead.left, t), dot(lead.right, t)
    mine = [dot(p, t) for p in _grid(mover, lead.kind)]
    mine = [s for s in mine if l0 - EPS <= s <= l1 + EPS]
    theirs = [dot(p, t) for p in _grid(enemy, edge.kind)]
    theirs = [s for s in theirs if lo - EPS <= s <= hi + EPS]
    diffs = sorted({round(b - a, 9) for a in mine for b in theirs}, key=abs)

    def touches(shift: float) -> bool:
        return min(l1 + shift, hi) - max(l0 + shift, lo) > EPS

    if any(abs(d) <= EPS for d in diffs):
        return 0.0, 0.0, t
    right = next((d for d in diffs if d > EPS and touches(d)), None)
    left = next((-d for d in diffs if d < -EPS and touches(d)), None)
    return left, right, t


def _corner_at(unit: Unit, p: Vec) -> Corner | None:
    return next((c for c in unit.corners if norm(sub(c.point, p)) <= EPS), None)


def _edge_on_side(corner: Corner, enemy: Unit, side: Vec) -> Edge | None:
    """Return the enemy's outline edge leaving *corner* toward *side*."""
    for direction in corner.directions:
        if dot(direction, side) > EPS:
            for e in enemy.edges:
                if seg_distance(corner.point, e.a, e.b) <= EPS and abs(abs(dot(e.direction, direction)) - 1) < 1e-9:
                    return e
    return None


@dataclass
class Collision:
    """How the leading edge met the enemy: kind, pivot point, counts and the enemy edge it squares to."""

    kind: Literal["edge", "corner"] | None = None
    point: Vec | None = None
    counts: tuple[int, int] | None = None  # (left, right)
    edge: Edge | None = None
    tie_corner: Corner | None = None
    note: str = ""


def classify(mover: Unit, lead: Leading, enemy: Unit) -> Collision:
    """Classify the collision of *lead* with *enemy* (edge, corner, or neither) per 77.1, 77.2 and 77.5."""
    for g in enemy.edges:
        if flush_overlap(lead.edge, g) is not None:
            return Collision("edge", None, None, g)
    t = right_of(lead.direction)
    for c in enemy.corners:
        if seg_distance(c.point, lead.left, lead.right) <= EPS and min(
                norm(sub(c.point, lead.left)), norm(sub(c.point, lead.right))) > EPS:
            right, left = count_sides(mover, c.point, t)
            col = Collision("corner", c.point, (left, right))
            if left != right:
                col.edge = _edge_on_side(c, enemy, t if right > left else mul(t, -1))
            else:
                col.tie_corner = c
            return col
    for end in (lead.left, lead.right):
        corner = _corner_at(enemy, end)
        if corner is not None:
            return Collision("corner", end, None, None, corner, "corner to corner")
        for g in enemy.edges:
            if seg_distance(end, g.a, g.b) <= EPS:
                return Collision("edge", end, None, g)
    return Collision(None, None, None, None, None, "the contact is not on the leading edge")


def _lead_for(unit: Unit, pos: SquaringPosition, enemy: Unit | None) -> Leading:
    f, r = unit.forward, unit.right
    if pos.cause == "reveal" and enemy is not None:
        pc = meet(unit, enemy)
        touched = [e for e, _, _, _ in pc.flush] + [h.edge for h in pc.b_corners]
        if touched:
            e = touched[0]
            return leading_edge(unit, e.normal, e.kind)
        return leading_edge(unit, f, "front")
    direction = pos.direction or "forward"
    vec = {"forward": f, "backward": mul(f, -1), "left": mul(r, -1), "right": r}[direction]
    return leading_edge(unit, vec, DIRECTION_KIND[direction])


def is_aligned(unit: Unit, enemy: Unit) -> bool:
    """Return whether the unit lies flush on the enemy with a tray seam lined up (77.1.b1)."""
    for e in unit.edges:
        for g in enemy.edges:
            if flush_overlap(e, g) is not None:
                lead = leading_edge(unit, e.normal, e.kind)
                left, right, _ = slide_distances(unit, lead, enemy, g)
                if left == 0.0 and right == 0.0:
                    return True
    return False


@rule("rwm.5.6", "rwm.77.5.b4", "rwm.77.4", "rwm.77.1.b1")
def _reveal(table: Table, pos: SquaringPosition, active: Unit, touching: list[Unit], out: SquaringOutcome,
            trace: Trace) -> Unit | None:
    """On a reveal while engaged: the enemy to square up with (exactly 1 engaged and not yet aligned), or None."""
    trace.step(f"{active.label} revealed its command tool while touching "
               f"{plural(len(touching), 'enemy unit')}; no collision happened, so no panic token.", "rwm.5.6",
               "rwm.77.5.b4")
    if len(touching) != 1:
        trace.step(f"{active.label} squares up only when it is engaged with exactly 1 enemy unit: it does not "
                   "square up.", "rwm.5.6")
        trace.summarize(f"{active.label} does not square up: it is engaged with {len(touching)} enemy units, "
                        "not exactly 1.")
        return None
    target = touching[0]
    if pos.target not in (None, target.id):
        trace.violate(f"{active.label} is not engaged with {table.label(str(pos.target))}; on reveal it "
                      f"squares up only with the enemy it is engaged with", "rwm.5.6", "rwm.77.4")
        return None
    if is_aligned(active, target):
        trace.step(f"{active.label} is already aligned with {target.label}: nothing to square up.", "rwm.5.6",
                   "rwm.77.1.b1")
        trace.summarize(f"{active.label} is already aligned with {target.label}, so it does not square up.")
        out.target = target.id
        return None
    return target


@rule("rwm.18", "rwm.77.1", "rwm.55.3", "rwm.77.4", "rwm.18.1")
def _collision(table: Table, pos: SquaringPosition, active: Unit, touching: list[Unit], out: SquaringOutcome,
               trace: Trace, corpus: Corpus) -> Unit | None:
    """After a move: the enemies collided with, the panic tokens, and the enemy to square up with (or None)."""
    before = set(pos.touching_before or [])
    collided = [u for u in touching if u.id not in before]
    panic = collision_panic(pos.cause, pos.modifier, len(collided), corpus)
    out.collided, out.panic_tokens = [u.id for u in collided], panic
    if not collided:
        trace.step(f"{active.label} touches no enemy unit it did not touch before: it collided with nobody and "
                   "does not square up.", "rwm.18", "rwm.77.1")
        trace.summarize(f"{active.label} collided with no enemy unit, so it does not square up.")
        return None
    names = and_list([u.label for u in collided])
    trace.step(f"{possessive(active.label)} {pos.cause.replace('_', ' ')} ended touching {names}: it collided with "
               f"{'that unit' if len(collided) == 1 else 'those units'}.", "rwm.18", "rwm.55.3")
    _panic_step(trace, active, pos.cause, pos.modifier, panic, len(collided))
    chosen = pos.target
    if chosen is not None and chosen not in out.collided:
        trace.violate(f"{active.label} did not collide with {table.label(chosen)}; it squares up with an "
                      "enemy it collided with", "rwm.77.4", "rwm.18.1")
        return None
    if chosen is None and len(collided) > 1:
        trace.decide(active.player, "which of the enemies collided with to square up with", "rwm.77.4",
                     options=out.collided, field="target")
        trace.summarize(f"{active.label} collided with {names} and takes {tokens(panic)}; its player "
                        "chooses which one to square up with.")
        return None
    target = table.unit(chosen) if chosen is not None else collided[0]
    if len(collided) > 1:
        trace.step(f"{active.label} collided with several enemies at once; its player squares up with "
                   f"{target.label}.", "rwm.77.4")
    return target


TABLE_LABELS: dict[str, Label] = {
    **outcome_words("flanking", "final", "panic_tokens", "collided", "blocked_by", "overlaps"),
    "squares_up": "Squares up",
    "target": "Squares up to",
    "collision": "Collision",
    "counts": "Counts as",
    "pivot": "Pivot",
    "facing": "Facing after",
    "enemy_edge": "Enemy edge",
    "slide_options": "Slide options",
    "pivot_point": "Pivot point",
    "after_pivot": "After the pivot",
}
"""The outcome's fields in a player's words (the ruling's outcome list on the boards and the CLI)."""


@situation(GAME, "squaring_up", SquaringPosition, labels=TABLE_LABELS)
def resolve_squaring_up(pos: SquaringPosition, trace: Trace, corpus: Corpus) -> SquaringOutcome | Overlaps:
    """Square a unit up after a collision (or on revealing while engaged): pivot, slide, flank and panic."""
    table = read_table(pos.table, pos.units, pos.terrain)
    active = unit_ref(table, pos.active, "active")
    bad = check_overlaps(table, trace)
    if bad:
        return Overlaps(overlaps=bad)
    touching = [u for u in table.units if u.id != active.id and not u.is_allied(active)
                and is_touching(u.shape, active.shape)]
    out = SquaringOutcome()
    if pos.cause == "reveal":
        target = _reveal(table, pos, active, touching, out, trace)
    else:
        target = _collision(table, pos, active, touching, out, trace, corpus)
    if target is not None:
        _square(table, pos, active, target, out, trace)
    return out


@rule("rwm.17.1", "rwm.18.1.b1", "rwm.16.1", "rwm.18.1")
def _panic_step(trace: Trace, active: Unit, cause: str, modifier: str | None, panic: int, collided: int) -> None:
    if cause == "closing_in":
        trace.step("Closing in: the unit squares up, and the other effects of the collision (the panic token) are "
                   "ignored.", "rwm.17.1")
    elif modifier in CHARGES:
        trace.step(f"The {cause} was modified by a {modifier}: no panic token for the collision.", "rwm.18.1.b1",
                   "rwm.16.1")
    else:
        trace.step(f"Colliding during a {cause}: {active.label} takes {tokens(panic)}, 1 per enemy unit "
                   f"collided with ({collided}).", "rwm.18.1")


@dataclass(frozen=True)
class Pivoted:
    """The unit after its pivot: the leading edge, the enemy edge it lies on, and where it stands."""

    lead: Leading
    enemy_edge: Edge
    turned: Unit
    front: Vec
    facing: float
    pivot: str
    flanking: bool


@rule("rwm.55.4.b2", "rwm.77.3", "rwm.77.1")
def _collision_kind(pos: SquaringPosition, active: Unit, target: Unit, out: SquaringOutcome,
                    trace: Trace) -> tuple[Leading, Collision] | None:
    """Which edge led the move and how it met the enemy (edge or corner); None when not on the leading edge."""
    out.target = target.id
    lead = _lead_for(active, pos, target)
    if lead.kind != "front" or pos.direction not in (None, "forward"):
        trace.step(f"The {lead.kind} edge led the move: it counts as the front edge for squaring up.",
                   "rwm.55.4.b2", "rwm.77.3")
    col = classify(active, lead, target)
    out.collision = col.kind
    if col.kind is None:
        trace.step(f"{active.label} touches {target.label} away from its leading edge; the book gives no squaring "
                   "procedure for that, so it stays where it is.", "rwm.77.1")
        trace.summarize(f"{active.label} touches {target.label} away from its leading edge, so it does not square "
                        "up.")
        return None
    out.squares_up = True
    return lead, col


@rule("rwm.77.2", "rwm.77.5.b3")
def _pivot_way(pos: SquaringPosition, active: Unit, target: Unit, lead: Leading, col: Collision,
               out: SquaringOutcome, trace: Trace) -> Edge | None:
    """The enemy edge to square up to: from the ruler count of a corner collision, or the player's choice."""
    t = right_of(lead.direction)
    if col.counts is not None:
        left, right = col.counts
        out.counts = LeftRight(left=left, right=right)
        trace.step(f"Corner collision: the ruler goes against {possessive(target.label)} corner across "
                   f"{active.label}; leaving "
                   f"out any tray it crosses, {lie(left)} on the left and {right} on the right.", "rwm.77.2")
    answer = pos.pivot
    if col.edge is None:  # a tie (equal counts) or corner to corner: the controller picks the way to pivot
        corner = col.tie_corner
        if answer is None or corner is None:
            why = ("the counts are equal" if col.counts is not None else
                   "the leading edge met the enemy corner to corner, which the book does not settle")
            trace.decide(active.player, f"which way {active.label} pivots ({why})", "rwm.77.2",
                         options=["left", "right"], field="pivot")
            trace.summarize(f"{active.label} squares up with {target.label}, but its player must first choose "
                            f"which way to pivot ({why}).")
            return None
        col.edge = _edge_on_side(corner, target, t if answer == "right" else mul(t, -1))
        if col.edge is None:  # pragma: no cover - a convex corner has an edge on each side
            return None
        trace.step(f"Its player pivots it to the {answer}.", "rwm.77.2")
    elif answer is not None and col.counts is not None:
        want = "right" if col.counts[1] > col.counts[0] else "left"
        if answer != want:
            trace.violate(f"the counts are {col.counts[0]} left and {col.counts[1]} right, so {active.label} must "
                          f"pivot to the {want}, not the {answer}", "rwm.77.2")
            return None
    if col.edge is None:  # a degenerate corner (no edge on that side): nothing to square up to
        out.squares_up = False
        trace.step(f"No edge of {target.label} at that corner lies on the pivoting side: {active.label} cannot square "
                   "up and stays where it is.", "rwm.77.2", "rwm.77.5.b3")
        trace.summarize(f"{active.label} cannot square up with {target.label} from this corner contact.")
    return col.edge


@rule("rwm.77.1", "rwm.77.5.b1", "rwm.77.2", "rwm.41.1")
def _pivot(active: Unit, target: Unit, lead: Leading, col: Collision, enemy_edge: Edge, out: SquaringOutcome,
           trace: Trace) -> Pivoted:
    """Pivot about the point of contact until the leading edge lies flat on the enemy's edge (flanking?)."""
    new_dir = mul(enemy_edge.normal, -1)
    delta = (facing_of(new_dir) - facing_of(lead.direction) + 180.0) % 360.0 - 180.0
    if abs(delta) <= 1e-7:
        delta = 0.0
    pivot: Literal["none", "left", "right"] = "none" if delta == 0.0 else ("right" if delta < 0 else "left")
    centre = col.point or lead.left
    front = rotate(active.front, centre, delta)
    facing = (active.facing + delta) % 360.0
    turned = build_unit(active.id, active.index, active.player, active.name, active.width, active.depth,
                        active.ranks, front, facing)
    out.pivot, out.facing, out.enemy_edge = pivot, angle(facing), enemy_edge.kind
    out.pivot_point = pt(centre) if delta else None
    out.after_pivot = Placement(front=pt(front), facing=angle(facing))
    flanking = out.flanking = lead.kind == "front" and enemy_edge.kind in ("side", "rear")
    if pivot == "none":
        trace.step(f"Edge collision: {possessive(active.label)} {lead.kind} edge already lies flat on "
                   f"{possessive(target.label)} "
                   f"{enemy_edge.kind} edge: no pivot.", "rwm.77.1", "rwm.77.5.b1")
    else:
        trace.step(f"{active.label} pivots {pivot} about ({r3(centre[0]):.3f}, {r3(centre[1]):.3f}) by "
                   f"{abs(delta):.2f}° until "
                   f"its {lead.kind} edge lies flat on {possessive(target.label)} {enemy_edge.kind} edge: facing "
                   f"{angle(facing):g}°.", "rwm.77.1", *(["rwm.77.2"] if col.kind == "corner" else ["rwm.77.5.b1"]))
    if flanking:
        trace.step(f"Its front edge ends on {possessive(target.label)} {enemy_edge.kind} edge: "
                   f"{active.label} is flanking "
                   f"{target.label}.", "rwm.41.1")
    return Pivoted(leading_edge(turned, new_dir, lead.kind), enemy_edge, turned, front, facing, pivot, flanking)


@rule("rwm.77.1.b1", "rwm.77.1")
def _slide(pos: SquaringPosition, active: Unit, target: Unit, sq: Pivoted, out: SquaringOutcome,
           trace: Trace) -> tuple[bool, Vec | None]:
    """Slide to the first aligned position: return (legal, final front midpoint or None while a choice is open)."""
    left_d, right_d, axis = slide_distances(sq.turned, sq.lead, target, sq.enemy_edge)
    own_right = sq.turned.right
    if abs(dot(own_right, axis)) > 0.5 and dot(own_right, axis) < 0:
        left_d, right_d, axis = right_d, left_d, mul(axis, -1)
    out.slide_options = SlideOptions(left=None if left_d is None else r3(left_d),
                                     right=None if right_d is None else r3(right_d))
    if left_d == 0.0 and right_d == 0.0:
        trace.step(f"The trays of {active.label} and {target.label} already line up: no slide.", "rwm.77.1.b1")
        return True, sq.front
    options = [d for d, v in (("left", left_d), ("right", right_d)) if v is not None]
    choice = pos.slide
    if choice is None and len(options) == 1:
        choice = "left" if options[0] == "left" else "right"
    text = ", ".join(f"{d} {r3(v):g}" for d, v in (("left", left_d), ("right", right_d)) if v is not None)
    trace.step(f"Then it slides along {possessive(target.label)} {sq.enemy_edge.kind} edge to the first "
               f"position where the "
               f"trays line up: {text or 'no aligned position while touching'} tray widths.", "rwm.77.1",
               "rwm.77.1.b1")
    if choice is None:
        trace.decide(active.player, f"which way {active.label} slides to line up its trays", "rwm.77.1",
                     options=options, field="slide")
        return True, None
    if choice not in options:
        trace.violate(f"{active.label} cannot slide {choice}: no aligned position that way while the units "
                      "still touch", "rwm.77.1", "rwm.77.1.b1")
        return False, None
    dist = (left_d if choice == "left" else right_d) or 0.0
    return True, add(sq.front, mul(axis, dist if choice == "right" else -dist))


@rule("rwm.77.5", "rwm.77.5.b3", "rwm.77.1")
def _place(table: Table, active: Unit, target: Unit, final_front: Vec, facing: float, out: SquaringOutcome,
           trace: Trace) -> bool:
    """Where the unit ends; return False when that place is taken by another unit or terrain (77.5)."""
    final = build_unit(active.id, active.index, active.player, active.name, active.width, active.depth,
                       active.ranks, final_front, facing)
    blocked = [u.id for u in table.units if u.id not in (active.id, target.id)
               and is_overlapping(u.shape, final.shape)] + [
        tr.id for tr in table.terrain if is_overlapping(tr.shape, final.shape)]
    if blocked:
        out.squares_up, out.blocked_by = False, blocked
        out.final = Placement(front=pt(active.front), facing=angle(active.facing))
        trace.step(f"Squaring up would end on {', '.join(table.label(b) for b in blocked)}: {active.label} does "
                   "not square up and stays where it collided; the two units remain engaged.", "rwm.77.5",
                   "rwm.77.5.b3")
        trace.summarize(f"{active.label} cannot square up with {target.label}: "
                        f"{', '.join(table.label(b) for b in blocked)} is in the way.")
        return False
    out.final = Placement(front=pt(final_front), facing=angle(facing))
    trace.step(f"{active.label} ends with its front edge's midpoint at ({r3(final_front[0]):.3f}, "
               f"{r3(final_front[1]):.3f}), facing {angle(facing):g}°.", "rwm.77.1")
    return True


def _square(table: Table, pos: SquaringPosition, active: Unit, target: Unit, out: SquaringOutcome,
            trace: Trace) -> None:
    """Square up with *target*: leading edge, pivot, slide, final place (77.1-77.5)."""
    met = _collision_kind(pos, active, target, out, trace)
    if met is None:
        return
    lead, col = met
    enemy_edge = _pivot_way(pos, active, target, lead, col, out, trace)
    if enemy_edge is None:
        return
    sq = _pivot(active, target, lead, col, enemy_edge, out, trace)
    legal, final_front = _slide(pos, active, target, sq, out, trace)
    if not legal:
        return
    if final_front is not None and not _place(table, active, target, final_front, sq.facing, out, trace):
        return
    turn = "without pivoting" if sq.pivot == "none" else f"pivoting {sq.pivot} to facing {angle(sq.facing):g}°"
    flank = (f", flanking its {enemy_edge.kind} edge" if sq.flanking else
             f", with its {lead.kind} edge against their {enemy_edge.kind} edge")
    slide = "" if final_front is not None else "; its player then chooses which way to slide"
    trace.summarize(f"{active.label} squares up with {target.label} {turn}{flank} and takes "
                    f"{tokens(out.panic_tokens or 0)}{slide}.")
