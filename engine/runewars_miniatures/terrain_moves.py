"""RuneWars Miniatures terrain met by a move: Deadly X and Taxing X on collision, entering terrain that has a
capacity, and exiting occupied terrain by a march or a shift (``rwm.81.1``-``rwm.81.5``, ``rwm.81.9``).

Choices documented here: a unit entering terrain is placed with its trays centred on the piece, facing as it
did; when its trays do not all lie on the piece it is taken off and marked by a figure (``rwm.81.2.b1``). An
exit is placed where the player says (``exit_front``/``exit_facing``) or, when not said, by carrying the unit
straight off the piece in the direction of its move (forward for a march) until it no longer overlaps it, so its
trailing edge touches the piece's edge. With several enterable pieces collided at once, the first in the
position's order is the one offered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import LineString

from engine.core import Trace, rule
from engine.corpus import Corpus
from engine.runewars_miniatures.common import and_list, plural, tokens
from engine.runewars_miniatures.table import (
    EPS,
    Table,
    Terrain,
    Unit,
    Vec,
    add,
    build_unit,
    is_overlapping,
    mul,
    sub,
)
from engine.runewars_miniatures.templates import travel

EXIT_BISECTIONS = 40


@rule("rwm.81.9", "rwm.81.9.b2", "rwm.81.9.b6")
def terrain_hits(unit: Unit, pieces: Sequence[Terrain], trace: Trace) -> tuple[int, int]:
    """Return (damage, panic tokens) the unit suffers for colliding with Deadly X and Taxing X terrain."""
    damage = panic = 0
    for piece in pieces:
        deadly, taxing = piece.keyword("deadly"), piece.keyword("taxing")
        if deadly:
            damage += deadly
            trace.step(f"{piece.label} is Deadly {deadly}: {unit.label} collided with it and suffers "
                       f"{plural(deadly, 'damage', 'damage')}.", "rwm.81.9", "rwm.81.9.b2")
        if taxing:
            panic += taxing
            trace.step(f"{piece.label} is Taxing {taxing}: {unit.label} collided with it and receives "
                       f"{tokens(taxing)}.", "rwm.81.9", "rwm.81.9.b6")
    return damage, panic


@dataclass(frozen=True)
class Entry:
    """The outcome of entering terrain: the piece, where the unit stands on it (None: a figure marks it)."""

    piece: Terrain
    placed: Unit | None


def trays_of(unit: Unit) -> int:
    """Return the unit's number of trays."""
    return len(unit.cells)


@rule("rwm.81.1", "rwm.81.1.b1")
def may_enter(table: Table, unit: Unit, pieces: Sequence[Terrain], trace: Trace) -> list[Terrain]:
    """Return the collided pieces the unit may enter: a capacity of at least its trays, and no occupant."""
    out = []
    for piece in pieces:
        if not piece.can_be_entered:
            continue
        cap = piece.capacity or 0
        if trays_of(unit) > cap:
            trace.step(f"{piece.label} holds at most {plural(cap, 'tray')}: {unit.label} has "
                       f"{plural(trays_of(unit), 'tray')} and cannot enter it.", "rwm.81.1.b1")
        elif piece.occupant is not None and piece.occupant != unit.id:
            trace.step(f"{table.label(piece.occupant)} already occupies {piece.label}: {unit.label} cannot "
                       "enter it.", "rwm.81.1.b1")
        else:
            trace.step(f"{unit.label} collided with {piece.label}, whose capacity ({plural(cap, 'tray')}) holds "
                       "its trays and which nobody occupies: it may enter it.", "rwm.81.1", "rwm.81.1.b1")
            out.append(piece)
    return out


@rule("rwm.81.2", "rwm.81.2.b1", "rwm.81.2.b2")
def enter(unit: Unit, piece: Terrain, trace: Trace) -> Entry:
    """Place the unit on the terrain (centred, same facing) or mark it with a figure when it does not fit."""
    centre = piece.shape.centroid
    own = unit.shape.centroid
    front = add(unit.front, (float(centre.x - own.x), float(centre.y - own.y)))
    placed = build_unit(unit.id, unit.index, unit.player, unit.name, unit.width, unit.depth, unit.ranks, front,
                        unit.facing)
    fits = bool(piece.shape.buffer(EPS).contains(placed.shape))
    if fits:
        trace.step(f"{unit.label} is taken from where it collided and placed on {piece.label}: it occupies it.",
                   "rwm.81.2")
    else:
        trace.step(f"{possessive_trays(unit)} do not fit on {piece.label}: the unit is taken off the play area and "
                   "one of its figures is placed on the terrain to show that it occupies it.", "rwm.81.2",
                   "rwm.81.2.b1")
    trace.step(f"Having entered, {unit.label} ends its activation at once; any bonus action or other effect "
               "still to come is canceled.", "rwm.81.2.b2")
    return Entry(piece, placed if fits else None)


def possessive_trays(unit: Unit) -> str:
    """Return "The Spearmen's trays"."""
    label = unit.label
    return f"{label}' trays" if label.endswith("s") else f"{label}'s trays"


@rule("rwm.81.8.b4", "rwm.73.4.b1")
def exit_disengages(unit: Unit, piece: Terrain, enemies: Sequence[Unit], trace: Trace, corpus: Corpus) -> int:
    """Return the panic tokens for leaving terrain enemies touch: it disengages from each of them (81.8.b4)."""
    per = int(corpus.fact("rwm.73.4.b1", "panic_tokens_per_unit_disengaged_from"))
    panic = per * len(enemies)
    names = and_list([e.label for e in enemies])
    trace.step(f"{names} {'touches' if len(enemies) == 1 else 'touch'} {piece.label}: leaving it, {unit.label} "
               f"disengages from {names} and takes {tokens(panic)}, 1 for each enemy unit it disengages from.",
               "rwm.81.8.b4", "rwm.73.4.b1")
    return panic


EXIT_EDGES = {"march": ("rear",), "shift": ("front", "side")}


def edges_touching(unit: Unit, piece: Terrain) -> list[str]:
    """Return the kinds of the unit's edges that touch the piece's edge: along or inside the edge; only where the
    unit touches with nothing but a corner do both edges at that corner count."""
    def inner(a: Vec, b: Vec) -> LineString:
        d = mul(sub(b, a), 1e-4)
        return LineString([add(a, d), sub(b, d)])
    kinds = {e.kind for e in unit.edges if inner(e.a, e.b).distance(piece.shape) <= EPS}
    if not kinds:
        kinds = {e.kind for e in unit.edges if LineString([e.a, e.b]).distance(piece.shape) <= EPS}
    return sorted(kinds)


def carried_off(unit: Unit, piece: Terrain, direction: str) -> Unit:
    """Return the unit carried straight off the piece in the direction of the move, just clear of it."""
    d = travel(unit, direction)
    x0, y0, x1, y1 = piece.box
    ux0, uy0, ux1, uy1 = unit.box
    reach = (x1 - x0) + (y1 - y0) + (ux1 - ux0) + (uy1 - uy0) + 1.0
    lo, hi = 0.0, reach

    def clear(s: float) -> bool:
        moved = affinity.translate(unit.shape, d[0] * s, d[1] * s)
        return not is_overlapping(moved, piece.shape)

    for _ in range(EXIT_BISECTIONS):
        mid = (lo + hi) / 2
        if clear(mid):
            hi = mid
        else:
            lo = mid
    front: Vec = add(unit.front, mul(d, hi))
    return build_unit(unit.id, unit.index, unit.player, unit.name, unit.width, unit.depth, unit.ranks, front,
                      unit.facing)


def in_the_way(table: Table, unit: Unit, placed: Unit, piece: Terrain) -> list[str]:
    """Return the other units and terrain the placed unit overlaps or touches."""
    out = [u.id for u in table.units if u.id != unit.id and placed.shape.distance(u.shape) <= EPS]
    out += [t.id for t in table.terrain if t.id != piece.id and placed.shape.distance(t.shape) <= EPS]
    return out


@rule("rwm.81.3", "rwm.81.4", "rwm.81.4.b1", "rwm.81.4.b2", "rwm.81.4.b3", "rwm.81.5")
def exit_terrain(table: Table, unit: Unit, piece: Terrain, action: str, placed: Unit, trace: Trace) -> bool:
    """Check the unit's placement outside the terrain it leaves; return whether it exits (else it stays)."""
    trace.step(f"{unit.label} occupies {piece.label}: its {action} does not move it along a template; it leaves "
               "the terrain at once instead.", "rwm.81.3", "rwm.81.4")
    need = EXIT_EDGES[action]
    kinds = edges_touching(placed, piece)
    words = "its back edge" if action == "march" else "its front edge or a side edge"
    if is_overlapping(placed.shape, piece.shape) or not any(k in need for k in kinds):
        trace.step(f"Exiting with a {action}, {words} must touch the edge of {piece.label}; placed there, "
                   f"{'it overlaps the piece' if is_overlapping(placed.shape, piece.shape) else 'it does not'}: "
                   f"{unit.label} cannot be placed, stays in the terrain and its {action} fails.",
                   "rwm.81.4.b1" if action == "march" else "rwm.81.4.b2", "rwm.81.5")
        return False
    trace.step(f"Exiting with a {action}: {unit.label} is placed with {words} against the edge of "
               f"{piece.label} ({' and '.join(kinds)} touching).",
               "rwm.81.4.b1" if action == "march" else "rwm.81.4.b2")
    blocked = in_the_way(table, unit, placed, piece)
    if blocked:
        trace.step(f"There it would overlap or touch {', '.join(table.label(b) for b in blocked)}: there is no "
                   f"room, so {unit.label} stays in {piece.label} and its {action} fails.", "rwm.81.4.b3",
                   "rwm.81.5")
        return False
    trace.step(f"It touches no other unit or terrain there: {unit.label} has left {piece.label}.", "rwm.81.4.b3")
    return True
