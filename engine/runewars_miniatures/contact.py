"""RuneWars Miniatures contact: who is engaged, which edges are contacted and who is flanking whom.

The ``contact`` situation (CONTRACT.md, "RuneWars Miniatures on the table"). Two enemy units whose trays
touch are engaged (``rwm.34``, ``rwm.34.1``); touching allies are not (``rwm.34.2``). Each edge of a unit
touching the enemy is a contacted edge (``rwm.34.3``): an edge touches when it lies flush along the other
unit's outline for a positive length, or when a corner of the other unit lies inside it. A unit touching only
with a tray corner takes the edge the enemy would square up to (``rwm.34.3.b1``, ``rwm.41.1.b1``), found with
the ruler count of ``rwm.77.2``; a tie is the enemy controller's choice (``corner_edges``). A unit whose front
edge touches a side or the back edge of an enemy is flanking it (``rwm.41.1``); no front edge, no flanking
(``rwm.41.2``). Corner-to-corner contacts are left undecided (the book does not say).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Literal

import shapely
from pydantic import model_validator
from shapely.geometry import LineString
from shapely.ops import nearest_points

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.model import Field, Model, Outcome, maybe, refuse
from engine.runewars_miniatures.common import GAME, EdgeKind, Game, plural, possessive
from engine.runewars_miniatures.occupancy import occupants
from engine.runewars_miniatures.table import (
    EDGE_KINDS,
    EPS,
    Corner,
    Edge,
    Overlaps,
    Table,
    TablePosition,
    Terrain,
    Unit,
    Vec,
    add,
    boxes_near,
    check_overlaps,
    dot,
    is_touching,
    mul,
    norm,
    outcome_words,
    pt,
    read_table,
    seg_distance,
    sub,
    table_reading,
    unit_name,
)

CornerEdges = Annotated[dict[str, Annotated[dict[str, EdgeKind], Field(max_length=40)]], Field(max_length=40)]
"""Answers to corner contacts the ruler count leaves tied: {unit id: {enemy id: edge}}."""


class ContactPosition(TablePosition):
    """Units on the table, and the edges their controllers chose where a corner contact is a tie."""

    game: Game
    situation: Literal["contact"]
    corner_edges: CornerEdges | None = maybe(
        "which edge a unit touches with, where two units meet only at a corner and the ruler leaves it tied: "
        "{unit: {enemy: edge}}; absent: the ruling asks", title="Edges touching at a corner")


    def reading(self) -> list[str]:
        """Return the table in a player's words, and the corner contacts already answered."""
        out = table_reading(self.table, self.units, self.terrain)
        names = {u.id: unit_name(u, i) for i, u in enumerate(self.units)}
        for a_id, inner in (self.corner_edges or {}).items():
            for b_id, edge in inner.items():
                out.append(f"Corner contact answered: {names.get(a_id, a_id)} counts its {edge} edge as touching "
                           f"{names.get(b_id, b_id)}.")
        return out
    @model_validator(mode="after")
    def _known_ids(self) -> ContactPosition:
        if len(self.units) < 2:
            raise refuse("contact needs at least 2 units", "units")
        ids = {u.id for u in self.units}
        for a_id, inner in (self.corner_edges or {}).items():
            if a_id not in ids:
                raise refuse(f"{a_id!r} names no unit of the position", f"corner_edges.{a_id}")
            for b_id in inner:
                if b_id not in ids:
                    raise refuse(f"{b_id!r} names no unit of the position", f"corner_edges.{a_id}.{b_id}")
        return self


class ContactRecord(Model):
    """Where two engaged units touch, and the edge kinds each touches with."""

    units: list[str]
    points: list[list[float]]
    edges: dict[str, list[str] | None]


class ContactOutcome(Outcome):
    """Who is engaged with whom, contacted edges, corner contacts and flanking, in position order."""

    engaged: list[list[str]]
    allied_touching: list[list[str]]
    unengaged: list[str]
    contacted_edges: dict[str, dict[str, list[str] | None]]
    corner_only: list[list[str]]
    flanking: list[list[str]]
    contacts: list[ContactRecord]
    overlaps: list[list[str]] = Field(default_factory=list)


@dataclass(frozen=True)
class CornerHit:
    """A corner of one unit lying inside an edge of the other."""

    corner: Corner
    edge: Edge


@dataclass
class PairContact:
    """How two touching units meet: flush edge pairs, corners inside edges, and the resulting edge kinds."""

    a: Unit
    b: Unit
    flush: list[tuple[Edge, Edge, Vec, Vec]] = field(default_factory=list)
    a_corners: list[CornerHit] = field(default_factory=list)  # corners of a inside b's edges
    b_corners: list[CornerHit] = field(default_factory=list)  # corners of b inside a's edges
    points: list[Vec] = field(default_factory=list)

    def kinds_of(self, side: str) -> list[str]:
        """Return the kinds of a's (or b's) edges touched by flush contact or by the other's corner."""
        if side == "a":
            found = [e.kind for e, _, _, _ in self.flush] + [h.edge.kind for h in self.b_corners]
        else:
            found = [g.kind for _, g, _, _ in self.flush] + [h.edge.kind for h in self.a_corners]
        return [k for k in EDGE_KINDS if k in found]


def _is_convex_corner(unit: Unit, p: Vec) -> bool:
    return any(norm(sub(c.point, p)) <= EPS for c in unit.corners)


@rule("rwm.34.3", "rwm.87.2")
def flush_overlap(e: Edge, g: Edge) -> tuple[Vec, Vec] | None:
    """Return the common stretch of two facing edges lying on one line, or None (positive length only)."""
    if dot(e.normal, g.normal) > -1 + 1e-9:
        return None
    if abs(dot(sub(g.a, e.a), e.normal)) > EPS or abs(dot(sub(g.b, e.a), e.normal)) > EPS:
        return None
    t = e.direction
    s1, s2 = dot(sub(g.a, e.a), t), dot(sub(g.b, e.a), t)
    lo, hi = max(0.0, min(s1, s2)), min(e.length, max(s1, s2))
    if hi - lo <= EPS:
        return None
    return add(e.a, mul(t, lo)), add(e.a, mul(t, hi))


def corners_inside(corner_owner: Unit, edge_owner: Unit) -> list[CornerHit]:
    """Return the corners of *corner_owner* lying inside an edge of *edge_owner* (not at its corners)."""
    hits = []
    for c in corner_owner.corners:
        if _is_convex_corner(edge_owner, c.point):
            continue
        for e in edge_owner.edges:
            if seg_distance(c.point, e.a, e.b) <= EPS:
                hits.append(CornerHit(c, e))
                break
    return hits


def meet(a: Unit, b: Unit) -> PairContact:
    """Return how two touching units meet."""
    pc = PairContact(a, b)
    for e in a.edges:
        for g in b.edges:
            common = flush_overlap(e, g)
            if common is not None:
                pc.flush.append((e, g, *common))
    pc.a_corners = corners_inside(a, b)
    pc.b_corners = corners_inside(b, a)
    pc.points = [p for _, _, p, q in pc.flush for p in (p, q)] + [h.corner.point for h in pc.a_corners] + [
        h.corner.point for h in pc.b_corners]
    if not pc.points:
        pc.points = [c.point for c in a.corners if any(norm(sub(c.point, d.point)) <= EPS for d in b.corners)]
    return pc


@rule("rwm.77.2", "rwm.77.3")
def count_sides(unit: Unit, at: Vec, along: Vec) -> tuple[int, int]:
    """Count the unit's trays on each side of the ruler laid through *at* across the unit.

    *along* is the direction of the "plus" side (perpendicular to the ruler); a tray the ruler crosses is
    left out. Returns (trays on the plus side, trays on the minus side).
    """
    plus = minus = 0
    for tray in unit.trays:
        s = [dot(sub(p, at), along) for p in list(tray.exterior.coords)[:-1]]
        if min(s) >= -EPS:
            plus += 1
        elif max(s) <= EPS:
            minus += 1
    return plus, minus


@rule("rwm.34.3.b1", "rwm.41.1.b1", "rwm.77.2")
def corner_rule_edge(hit: CornerHit, enemy: Unit) -> tuple[str | None, tuple[int, int], tuple[str, str]]:
    """Return the contacted edge of a unit touching *enemy* only with a corner inside the enemy's edge.

    The enemy would pivot toward the side of the ruler (through the corner, perpendicular to its edge) with
    more of its trays; the corner's edge lying on that side is the contacted edge. A tie returns None.
    """
    along = hit.edge.direction
    plus, minus = count_sides(enemy, hit.corner.point, along)
    kinds = hit.corner.kinds
    options = tuple(k for k in EDGE_KINDS if k in kinds)
    if plus == minus:
        return None, (plus, minus), (options[0], options[-1])
    want_plus = plus > minus
    for kind, direction in zip(kinds, hit.corner.directions, strict=True):
        if (dot(direction, along) > 0) == want_plus:
            return kind, (plus, minus), (options[0], options[-1])
    return None, (plus, minus), (options[0], options[-1])  # pragma: no cover - a corner has one edge each way


@rule("rwm.41.1", "rwm.41.2")
def is_flanking(front_kind: str | None, other_kind: str | None) -> bool:
    """Return whether a front edge touching that edge of an enemy flanks it (side or back edge)."""
    return front_kind == "front" and other_kind in ("side", "rear")


@dataclass
class ContactResult:
    """The contact relations of a whole table, in position order."""

    engaged: list[list[str]]
    allied_touching: list[list[str]]
    unengaged: list[str]
    contacted_edges: dict[str, dict[str, list[str] | None]]
    corner_only: list[list[str]]
    flanking: list[list[str]]
    contacts: list[ContactRecord]
    pending: list[tuple[str, str, str, tuple[str, str]]]  # (a, b, b's player, options)


def _corner_answer(answers: Mapping[str, Mapping[str, str]], a: str, b: str, options: tuple[str, str]) -> str | None:
    value = (answers.get(a) or {}).get(b)
    if value is None:
        return None
    if value not in options:
        raise UnreadableInputError(f"{value!r} is not an edge at the touching corner (one of "
                                   f"{', '.join(map(repr, options))})", path=f"corner_edges.{a}.{b}")
    return str(value)


@rule("rwm.34.2", "rwm.8")
def analyse(table: Table, answers: Mapping[str, Mapping[str, str]], trace: Trace | None = None) -> ContactResult:
    """Work out engagement, contacted edges, corner contacts and flanking for every touching pair."""
    engaged: list[tuple[str, str]] = []
    allied: list[tuple[str, str]] = []
    edges: dict[str, dict[str, list[str] | None]] = {}
    corner_only: list[tuple[str, str]] = []
    flanking: list[tuple[str, str]] = []
    contacts: list[ContactRecord] = []
    pending: list[tuple[str, str, str, tuple[str, str]]] = []
    inside = occupants(table)
    for i, a in enumerate(table.units):
        for b in table.units[i + 1:]:
            if a.id in inside or b.id in inside:  # its terrain piece stands for it (81.8)
                continue
            if not boxes_near(a.box, b.box, 2 * EPS) or not is_touching(a.shape, b.shape):
                continue
            if a.is_allied(b):
                allied.append((a.id, b.id))
                if trace is not None:
                    trace.step(f"{a.label} and {b.label} touch, but they are allied: allied units are never "
                               "engaged.", "rwm.34.2", "rwm.8")
                continue
            engaged.append((a.id, b.id))
            pc = meet(a, b)
            kinds: dict[str, list[str] | None] = {a.id: pc.kinds_of("a"), b.id: pc.kinds_of("b")}
            # pairs (kind of x's edge, kind of y's edge) meeting, for flanking
            meets: list[tuple[str | None, str | None]] = [(e.kind, g.kind) for e, g, _, _ in pc.flush]
            how: dict[str, str] = {}
            for me, other, mine, hits in ((a, b, "a", pc.a_corners), (b, a, "b", pc.b_corners)):
                if kinds[me.id]:
                    how[me.id] = "edge"
                    continue
                corner_only.append((me.id, other.id))
                if not hits:
                    kinds[me.id] = None
                    how[me.id] = "corner to corner"
                    continue
                kind, counts, options = corner_rule_edge(hits[0], other)
                how[me.id] = f"corner ({other.label} has {counts[0]} and {counts[1]} trays on the two sides)"
                if kind is None:
                    kind = _corner_answer(answers, me.id, other.id, options)
                    if kind is None:
                        pending.append((me.id, other.id, other.player, options))
                kinds[me.id] = [kind] if kind else None
                pair = (kind, hits[0].edge.kind) if mine == "a" else (hits[0].edge.kind, kind)
                meets.append(pair)
            edges.setdefault(a.id, {})[b.id] = kinds[a.id]
            edges.setdefault(b.id, {})[a.id] = kinds[b.id]
            for ka, kb in meets:
                if is_flanking(ka, kb):
                    flanking.append((a.id, b.id))
                if is_flanking(kb, ka):
                    flanking.append((b.id, a.id))
            contacts.append(ContactRecord(units=[a.id, b.id], points=[pt(p) for p in dict.fromkeys(pc.points)],
                                          edges={a.id: kinds[a.id], b.id: kinds[b.id]}))
    _add_terrain_contacts(table, engaged, edges, corner_only, contacts)
    in_pairs = {x for p in engaged for x in p}
    return ContactResult(
        engaged=table.sorted_pairs(engaged), allied_touching=table.sorted_pairs(allied),
        unengaged=[u.id for u in table.units if u.id not in in_pairs],
        contacted_edges={u.id: {o.id: edges[u.id][o.id] for o in table.units if o.id in edges[u.id]}
                         for u in table.units if u.id in edges},
        corner_only=table.sorted_pairs(corner_only), flanking=table.sorted_pairs(flanking),
        contacts=contacts, pending=pending)


def engaged_enemies(table: Table, unit: Unit) -> list[Unit]:
    """Return the enemy units *unit* is engaged with, in position order, exactly as the ``contact`` situation
    reports them: trays touching (34), or touching terrain an enemy occupies, either way (81.8)."""
    res = analyse(table, {})
    ids = {x for p in res.engaged if unit.id in p for x in p if x != unit.id}
    return [u for u in table.units if u.id in ids]


def through_terrain(table: Table, unit: Unit, enemy: Unit) -> Terrain | None:
    """Return the occupied terrain piece through which *unit* and *enemy* are engaged (81.8), or None when their
    trays touch."""
    return next((t for t in table.terrain if t.occupant is not None and t.occupant in (unit.id, enemy.id)), None)


@rule("rwm.81.8", "rwm.87.2")
def terrain_contacts(table: Table) -> list[tuple[Unit, Terrain, list[str] | None, list[Vec]]]:
    """Return each unit touching terrain an enemy occupies: the unit, the piece, the kinds of its edges that
    touch the piece (None when only a tray corner does) and where they touch (81.8)."""
    out: list[tuple[Unit, Terrain, list[str] | None, list[Vec]]] = []
    inside = occupants(table)
    for piece in table.terrain:
        if piece.occupant is None:
            continue
        enemy = table.unit(piece.occupant)
        near = piece.shape.buffer(2 * EPS, join_style="mitre")
        for unit in table.units:
            if unit.id in inside or unit.is_allied(enemy) or not boxes_near(unit.box, piece.box, 2 * EPS):
                continue
            if not is_touching(unit.shape, piece.shape):
                continue
            kinds: list[str] = []
            points: list[Vec] = []
            for e in unit.edges:
                common = LineString([e.a, e.b]).intersection(near)
                if common.length > 8 * EPS:  # along the edge, not across it
                    kinds.append(e.kind)
                    coords = list(shapely.get_coordinates(common))
                    points += [(float(coords[0][0]), float(coords[0][1])), (float(coords[-1][0]), float(coords[-1][1]))]
            if not kinds:
                a, _ = nearest_points(unit.shape, piece.shape)
                points.append((a.x, a.y))
            ordered = [k for k in EDGE_KINDS if k in kinds]
            out.append((unit, piece, ordered or None, list(dict.fromkeys(points))))
    return out


def _add_terrain_contacts(table: Table, engaged: list[tuple[str, str]], edges: dict[str, dict[str, list[str] | None]],
                          corner_only: list[tuple[str, str]], contacts: list[ContactRecord]) -> None:
    """Add the engagements through enemy-occupied terrain (81.8): the occupant's contacted edge is its front."""
    for unit, piece, touch, points in terrain_contacts(table):
        enemy = table.unit(piece.occupant or "")
        engaged.append((unit.id, enemy.id))
        edges.setdefault(unit.id, {})[enemy.id] = touch
        edges.setdefault(enemy.id, {})[unit.id] = ["front"]
        if touch is None:
            corner_only.append((unit.id, enemy.id))
        rounded = list(dict.fromkeys(tuple(pt(p)) for p in points))
        contacts.append(ContactRecord(units=list(table.pair(unit.id, enemy.id)), points=[list(p) for p in rounded],
                                      edges={unit.id: touch, enemy.id: ["front"]}))


def _edges_text(kinds: list[str] | None) -> str:
    if not kinds:
        return "an undecided edge"
    return " and ".join(f"its {k} edge" for k in kinds)


@rule("rwm.34", "rwm.34.1", "rwm.34.3", "rwm.34.3.b1", "rwm.41.1.b1", "rwm.77.2", "rwm.87.2.b1")
def _pair_steps(table: Table, res: ContactResult, a_id: str, b_id: str, trace: Trace) -> None:
    """One engaged pair: engagement, each unit's contacted edge (corner rule), and who flanks whom."""
    a, b = table.unit(a_id), table.unit(b_id)
    piece = next((t for t in table.terrain if t.occupant in (a_id, b_id)), None)
    if piece is not None:
        _terrain_pair_steps(table, res, a if piece.occupant == b_id else b, piece, trace)
        return
    trace.step(f"{a.label} and {b.label} are enemies whose trays touch: they are engaged.", "rwm.34", "rwm.34.1")
    ea, eb = res.contacted_edges[a_id][b_id], res.contacted_edges[b_id][a_id]
    for me, other, kinds in ((a, b, ea), (b, a, eb)):
        if [me.id, other.id] in res.corner_only:
            if kinds is None and not any(p[0] == me.id and p[1] == other.id for p in res.pending):
                trace.step(f"{me.label} touches {other.label} only corner to corner; the book does not say "
                           "which edge is contacted then.", "rwm.34.3", "rwm.34.3.b1")
            else:
                trace.step(f"{me.label} touches {other.label} only with a tray corner lying on "
                           f"{possessive(other.label)} edge: its contacted edge is the edge {other.label} would square "
                           f"up to (ruler count of 77.2): {_edges_text(kinds)}.", "rwm.34.3.b1",
                           "rwm.41.1.b1", "rwm.77.2")
        else:
            trace.step(f"{possessive(me.label)} contacted edge with {other.label}: {_edges_text(kinds)}.", "rwm.34.3",
                       "rwm.87.2.b1")
    _flank_steps(a, b, ea, eb, res, trace)


@rule("rwm.81.8", "rwm.81.8.b1", "rwm.34", "rwm.34.3", "rwm.41.1")
def _terrain_pair_steps(table: Table, res: ContactResult, unit: Unit, piece: Terrain, trace: Trace) -> None:
    """A unit touching terrain an enemy occupies: engaged with it, touching its front edge (81.8)."""
    enemy = table.unit(piece.occupant or "")
    kinds = res.contacted_edges[unit.id][enemy.id]
    how = (f"with {_edges_text(kinds)}" if kinds else "only with a tray corner (the book does not say which of "
           "its edges touches then)")
    trace.step(f"{unit.label} touches {piece.label}, which {enemy.label} occupies, {how}: that counts as touching "
               f"{possessive(enemy.label)} front edge, so they are engaged and {possessive(enemy.label)} contacted "
               "edge is its front edge.", "rwm.81.8", "rwm.34", "rwm.34.3")
    others = [p for p in res.engaged if enemy.id in p]
    if len(others) > 1 and unit.id in others[0]:
        trace.step(f"{enemy.label} occupies terrain, so any number of enemy units may be engaged with it at once "
                   f"({len(others)} are).", "rwm.81.8.b1")
    trace.step(f"The edge {unit.label} touches is {possessive(enemy.label)} front edge: {unit.label} is not "
               "flanking it.", "rwm.41.1")


@rule("rwm.41.1", "rwm.41.2")
def _flank_steps(a: Unit, b: Unit, ea: list[str] | None, eb: list[str] | None, res: ContactResult,
                 trace: Trace) -> None:
    """Who of an engaged pair flanks the other (a front edge on a side or back edge)."""
    for x, y in ((a, b), (b, a)):
        if [x.id, y.id] in res.flanking:
            trace.step(f"{possessive(x.label)} front edge touches the "
                       f"{' and '.join(res.contacted_edges[y.id][x.id] or ['undecided'])} edge of "
                       f"{y.label}: {x.label} is flanking {y.label}.", "rwm.41.1")
    if any(p in res.flanking for p in ([a.id, b.id], [b.id, a.id])):
        return
    fronts = [k for k in (ea, eb) if k and "front" in k]
    if not fronts:
        trace.step(f"Neither {possessive(a.label)} nor {possessive(b.label)} front edge is a contacted "
                   f"edge: neither is "
                   "flanking the other.", "rwm.41.2", "rwm.41.1")
    elif ea and eb and "front" in ea and "front" in eb:
        trace.step(f"{a.label} and {b.label} touch front edge to front edge: neither is flanking.", "rwm.41.1")
    else:
        trace.step(f"No front edge touches a side or back edge between {a.label} and {b.label}: no "
                   "flanking.", "rwm.41.1")


TABLE_LABELS: dict[str, Label] = {
    **outcome_words("flanking", "overlaps"),
    "engaged": "Engaged pairs",
    "allied_touching": "Allied units touching",
    "unengaged": "Touching but not engaged",
    "contacted_edges": "Edges in contact",
    "corner_only": "Touching by a corner only",
    "contacts": "Every contact",
}
"""The outcome's fields in a player's words (the ruling's outcome list on the boards and the CLI)."""


@situation(GAME, "contact", ContactPosition, labels=TABLE_LABELS)
@rule("rwm.34.3.b1", "rwm.77.2", "rwm.34.5", "rwm.34")
def resolve_contact(pos: ContactPosition, trace: Trace, corpus: Corpus) -> ContactOutcome | Overlaps:
    """Say which units on the table are engaged, which edges are contacted and who is flanking whom."""
    table = read_table(pos.table, pos.units, pos.terrain)
    bad = check_overlaps(table, trace)
    if bad:
        return Overlaps(overlaps=bad)
    res = analyse(table, pos.corner_edges or {}, trace)
    for a_id, b_id in res.engaged:
        _pair_steps(table, res, a_id, b_id, trace)
    for a_id, b_id, player, options in res.pending:
        trace.decide(player, f"which edge of {table.label(a_id)} is contacted by the corner touching "
                             f"{table.label(b_id)} (the ruler count of 77.2 is a tie)", "rwm.34.3.b1", "rwm.77.2",
                     options=options, field=f"corner_edges.{a_id}.{b_id}")
    for uid in res.unengaged:
        trace.step(f"{table.label(uid)} touches no enemy unit: it is not engaged.", "rwm.34.5")
    if not res.engaged:
        trace.step("No two enemy units touch: nobody is engaged.", "rwm.34")
    trace.summarize(_summary(table, res))
    return ContactOutcome(engaged=res.engaged, allied_touching=res.allied_touching, unengaged=res.unengaged,
                          contacted_edges=res.contacted_edges, corner_only=res.corner_only, flanking=res.flanking,
                          contacts=res.contacts)


def _summary(table: Table, res: ContactResult) -> str:
    if not res.engaged:
        return "No enemy units touch, so no unit is engaged."
    pairs = "; ".join(f"{table.label(a)} with {table.label(b)}" for a, b in res.engaged)
    flank = ("; " + ", ".join(f"{table.label(a)} is flanking {table.label(b)}" for a, b in res.flanking)
             if res.flanking else "; nobody is flanking")
    n = len(res.pending)
    open_ = f" ({plural(n, 'corner contact')} {'waits' if n == 1 else 'wait'} for a choice)" if n else ""
    return f"Engaged: {pairs}{flank}{open_}."
