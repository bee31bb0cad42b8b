"""RuneWars Miniatures attacks placed on the table: the geometric facts of ``attack`` derived, not stated.

An ``attack`` position may carry a table (``table``, ``units``, ``terrain``, as in ``contact``) and name the
two units with ``attacker.unit`` and ``defender.unit``. The facts the attack otherwise asks the player to
state are then measured and shown as derived steps before the ordinary 11 steps run: the formations
(``ranks``), engagement (``rwm.34``), the attacker's contacted edge(s) (``rwm.34.3``, corner rule
``rwm.34.3.b1``), which of its trays touch (partial rank, ``rwm.82.1.b2``), flanking both ways (``rwm.41.1``),
and for a ranged attack whether the attacker is engaged at all (``rwm.65.2``), line of sight and firing arc
(``rwm.46.1``, ``rwm.39``), range (``rwm.64``) and the attacker's allies engaged with the target
(``rwm.65.3``).

Range for a ranged attack is measured between the two points its line of sight uses (``rwm.64.3.b1``), which
the attacker picks: the closest points when a clear line of sight joins them (no pair is closer), else the
shortest clear line of sight the search of :func:`engine.runewars_miniatures.sight.shortest_clear_line` finds
(points sampled on both ends with a fixed cap, and lines grazing a blocker's corner).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from engine.core import Trace, rule
from engine.corpus import Corpus
from engine.runewars_miniatures.attack_position import (
    AttackOutcome,
    AttackPosition,
    MeleeProof,
    OverlapProof,
    RangedProof,
    TableProof,
    TableRefusal,
)
from engine.runewars_miniatures.common import possessive
from engine.runewars_miniatures.contact import ContactResult, analyse
from engine.runewars_miniatures.occupancy import defense_bonus, footprint, occupied
from engine.runewars_miniatures.ranges import Measure, measure, range_between, sight_range
from engine.runewars_miniatures.sight import Sight, firing_arc, shortest_clear_line, sight
from engine.runewars_miniatures.table import (
    EPS,
    Table,
    Unit,
    check_overlaps,
    pt,
    r3,
    read_table,
)


def from_table(fn: Callable[[AttackPosition, Trace, Corpus], AttackOutcome]
               ) -> Callable[[AttackPosition, Trace, Corpus], AttackOutcome | TableRefusal]:
    """Wrap the attack resolver: with a table, derive the stated facts first (and add the proof geometry)."""
    @functools.wraps(fn)
    def resolver(pos: AttackPosition, trace: Trace, corpus: Corpus) -> AttackOutcome | TableRefusal:
        if pos.units is None:
            return fn(pos, trace, corpus)
        derived, proof = derive_attack_facts(pos, trace, corpus)
        if trace.violations:
            return TableRefusal(from_table=proof, overlaps=proof.overlaps if isinstance(proof, OverlapProof)
                                and proof.overlaps else None)
        out = fn(derived, trace, corpus)
        out.from_table = proof
        return out
    return resolver


def _touching_trays(table: Table, attacker: Unit, defender: Unit) -> tuple[bool, bool]:
    """Return (a tray of the attacker's partial rank touches, another tray touches) the defender (or the terrain
    it occupies); an attacker in terrain touches with its terrain piece, not with a partial rank."""
    if occupied(table, attacker) is not None:
        return False, True
    target = footprint(table, defender)
    files = attacker.files
    partial = len(attacker.ranks) > 1 and len(attacker.ranks[-1]) < files
    back = len(attacker.ranks) - 1
    partial_hit = other_hit = False
    for (_, k), tray in zip(attacker.cells, attacker.trays, strict=True):
        if tray.distance(target) <= EPS:
            if partial and k == back:
                partial_hit = True
            else:
                other_hit = True
    return partial_hit, other_hit


@rule("rwm.34", "rwm.34.3", "rwm.41.1", "rwm.65.2", "rwm.46.1", "rwm.39.1", "rwm.64.3.b2", "rwm.65.3", "rwm.10.2",
      "rwm.8", "rwm.66", "rwm.87.2", "rwm.41.1.b3")
def derive_attack_facts(pos: AttackPosition, trace: Trace, corpus: Corpus) -> tuple[AttackPosition, TableProof]:
    """Return the attack position with its geometric facts filled in from the table, and their proof."""
    ranged = pos.attack_type == "ranged"
    table = read_table(pos.table, pos.units, pos.terrain, need_band=ranged, need_arc=ranged)
    attacker = table.unit(pos.attacker.unit or "")
    defender = table.unit(pos.defender.unit or "")
    bad = check_overlaps(table, trace)
    if bad:
        return pos, OverlapProof(attacker=attacker.id, defender=defender.id, overlaps=bad)
    if attacker.is_allied(defender):
        trace.violate(f"{defender.label} is allied to {attacker.label}; an attack targets an enemy unit",
                      "rwm.10.2", "rwm.8")
        return pos, TableProof(attacker=attacker.id, defender=defender.id)
    att: dict[str, Any] = {"name": pos.attacker.name or attacker.label, "ranks": attacker.rank_sizes}
    dfd: dict[str, Any] = {"name": pos.defender.name or defender.label, "ranks": defender.rank_sizes}
    contact = analyse(table, pos.corner_edges or {})
    att["flanking"] = [attacker.id, defender.id] in contact.flanking
    att["flanked_by_defender"] = [defender.id, attacker.id] in contact.flanking
    trace.step(f"From the table: {attacker.label} stands in formation "
               f"{'-'.join(map(str, attacker.rank_sizes))} and {defender.label} in "
               f"{'-'.join(map(str, defender.rank_sizes))}.", "rwm.66", "rwm.87.2")
    proof: MeleeProof | RangedProof
    if ranged:
        proof = _ranged(table, attacker, defender, contact.engaged, pos, att, dfd, trace, corpus)
    else:
        proof = _melee(table, attacker, defender, contact, pos, att, trace)
    bonus = defense_bonus(table, defender, ranged, trace)
    if bonus:
        dfd["defense_modifiers"] = [*(pos.defender.defense_modifiers or []), bonus]
    proof.flanking, proof.flanked_by_defender = att["flanking"], att["flanked_by_defender"]
    if att["flanking"]:
        trace.step(f"From the table: {possessive(attacker.label)} front edge touches a side or the back edge of "
                   f"{defender.label}: it is flanking.", "rwm.41.1")
    if att["flanked_by_defender"]:
        trace.step(f"From the table: {possessive(defender.label)} front edge touches a side or the back edge of "
                   f"{attacker.label}: the attacker is flanked by the defender.", "rwm.41.1", "rwm.41.1.b3")
    derived = pos.model_copy(update={"attacker": pos.attacker.model_copy(update=att),
                                     "defender": pos.defender.model_copy(update=dfd)})
    return derived, proof


@rule("rwm.34", "rwm.34.5", "rwm.34.3.b1", "rwm.77.2", "rwm.34.3", "rwm.81.8")
def _melee(table: Table, attacker: Unit, defender: Unit, contact: ContactResult, pos: AttackPosition,
           att: dict[str, Any], trace: Trace) -> MeleeProof:
    """Engagement and the attacker's contacted edge(s), with the trays that touch (for threat)."""
    engaged = ([attacker.id, defender.id] in contact.engaged or [defender.id, attacker.id] in contact.engaged)
    att["engaged"] = engaged
    if not engaged:
        trace.step(f"From the table: {possessive(attacker.label)} trays do not touch "
                   f"{possessive(defender.label)}: they are not engaged.",
                   "rwm.34", "rwm.34.5")
        att["contacted_edge"] = pos.attacker.contacted_edge or "front"
        return MeleeProof(attacker=attacker.id, defender=defender.id, engaged=False)
    edges = contact.contacted_edges[attacker.id][defender.id]
    if edges is None:
        pending = [p for p in contact.pending if p[0] == attacker.id and p[1] == defender.id]
        edges = list(pending[0][3]) if pending else ["front", "side"]
        trace.step(f"From the table: {attacker.label} touches {defender.label} only with a corner and the ruler count "
                   f"does not settle its contacted edge ({' or '.join(edges)}).", "rwm.34.3.b1", "rwm.77.2")
    else:
        trace.step(f"From the table: {attacker.label} and {defender.label} touch, so they are engaged; "
                   f"{possessive(attacker.label)} contacted edge: {', '.join(edges)}.", "rwm.34", "rwm.34.3")
    piece = occupied(table, defender)
    if piece is not None:
        trace.step(f"From the table: {defender.label} occupies {piece.label}, and {attacker.label} touches it: that "
                   f"counts as touching {possessive(defender.label)} front edge.", "rwm.81.8")
    chosen = pos.attacker.contacted_edge
    att["contacted_edges"] = None
    if len(edges) == 1:
        att["contacted_edge"] = edges[0]
    else:
        att["contacted_edges"] = list(edges)
        if chosen not in edges:
            att["contacted_edge"] = None
    att["touching_partial_rank"], att["touching_other_trays"] = _touching_trays(table, attacker, defender)
    points = next((c.points for c in contact.contacts if set(c.units) == {attacker.id, defender.id}), [])
    return MeleeProof(attacker=attacker.id, defender=defender.id, engaged=True, contacted_edges=list(edges),
                      contact_points=points)


@rule("rwm.34", "rwm.65.2", "rwm.39.1", "rwm.46.1", "rwm.39.3", "rwm.65.3")
def _ranged(table: Table, attacker: Unit, defender: Unit, engaged_pairs: list[list[str]], pos: AttackPosition,
            att: dict[str, Any], dfd: dict[str, Any], trace: Trace, corpus: Corpus) -> RangedProof:
    """Engagement, firing arc and line of sight, range, and the attacker's allies engaged with the target."""
    engaged = att["engaged"] = any(attacker.id in p for p in engaged_pairs)
    if engaged:
        foes = [table.label(x) for p in engaged_pairs if attacker.id in p for x in p if x != attacker.id]
        trace.step(f"From the table: {attacker.label} is engaged with {', '.join(foes)}.", "rwm.34", "rwm.65.2")
    seen = sight(table, attacker, defender, float(table.arc_degrees or 0))
    att["in_firing_arc"], att["line_of_sight"] = seen.in_arc, seen.line_of_sight
    blockers = ", ".join(table.label(b) for b in seen.blockers)
    line = ("a clear line joins them" if seen.line_of_sight else
            (f"every line is blocked by {blockers}" if seen.in_arc else "no line can be traced"))
    if seen.from_terrain is not None:
        trace.step(f"From the table: {attacker.label} shoots from {seen.from_terrain.label} in any direction, and "
                   f"{line}.", "rwm.46.1")
    else:
        trace.step(f"From the table (arc lines at {table.arc_degrees:g}°): {defender.label} is "
                   f"{'inside' if seen.in_arc else 'outside'} {possessive(attacker.label)} firing arc, and {line}.",
                   "rwm.39.1", "rwm.46.1", "rwm.39.3")
    m = _attack_range(table, attacker, defender, seen, trace, corpus)
    att["range"] = m.range if m.range is not None else int(corpus.fact("rwm.64.1", "range_bands")) + 1
    allies = [u for u in table.units if u.id != attacker.id and u.is_allied(attacker)
              and [min(u.id, defender.id, key=table.order), max(u.id, defender.id, key=table.order)] in engaged_pairs]
    if allies and pos.defender.engaged_with_allies is None:
        dfd["engaged_with_allies"] = [u.label for u in allies]
        trace.step(f"From the table: {', '.join(u.label for u in allies)}, allied to {attacker.label}, "
                   f"{'is' if len(allies) == 1 else 'are'} engaged with {defender.label}.", "rwm.34", "rwm.65.3")
    return RangedProof(attacker=attacker.id, defender=defender.id, engaged=engaged, in_firing_arc=seen.in_arc,
                       line_of_sight=seen.line_of_sight,
                       witness=[pt(seen.witness[0]), pt(seen.witness[1])] if seen.witness else None,
                       blockers=list(seen.blockers), arc_degrees=table.arc_degrees, range=m.range,
                       distance=r3(m.distance), closest=[pt(m.closest[0]), pt(m.closest[1])], band=table.band)


@rule("rwm.64.3.b2", "rwm.64.4", "rwm.64.3.b1", "rwm.64.3")
def _attack_range(table: Table, attacker: Unit, defender: Unit, seen: Sight, trace: Trace, corpus: Corpus) -> Measure:
    """The attack's range: between the closest points the line of sight may join when their line is clear, else
    along the shortest clear line of sight found (64.3.b1: the attacker picks the points its line of sight uses)."""
    bands = int(corpus.fact("rwm.64.1", "range_bands"))
    terrain = seen.from_terrain is not None or seen.to_terrain is not None
    if terrain:
        m = _terrain_range(table, attacker, defender, seen, trace, corpus)
    else:
        m = range_between(table, attacker, defender, corpus)
    line = shortest_clear_line(seen, table.extent())
    if line is not None and math.dist(*line) > m.distance + EPS:
        closest = m.distance
        m = measure(Point(line[0]), Point(line[1]), float(table.band or 0), bands)
        (a, b), where = line, f"range {m.range}" if m.range is not None else f"beyond range {bands}"
        trace.step(f"From the table (range bands of {table.band:g}): the closest points are {closest:.3f} apart, "
                   "but no clear line of sight joins them, and an attack's range is measured between the points its "
                   f"line of sight uses: the shortest clear line of sight found runs from ({a[0]:.3f}, {a[1]:.3f}) to "
                   f"({b[0]:.3f}, {b[1]:.3f}), {m.distance:.3f} long, and measured along it the target is at {where}.",
                   "rwm.64.3", "rwm.64.3.b1", "rwm.64.4")
        return m
    where = f"range {m.range}" if m.range is not None else f"beyond range {bands}"
    if not terrain:
        trace.step(f"From the table (range bands of {table.band:g}): the closest points are {m.distance:.3f} apart, "
                   f"{where}; a line of sight drawn between other points is never shorter.", "rwm.64.3.b2",
                   "rwm.64.4", "rwm.64.3.b1")
    else:
        trace.step(f"From the table (range bands of {table.band:g}): the closest points a line of sight may join are "
                   f"{m.distance:.3f} apart, {where}.", "rwm.64.3", "rwm.64.3.b1", "rwm.64.4")
    return m


@rule("rwm.81.6", "rwm.81.7", "rwm.81.9.b3")
def _terrain_range(table: Table, attacker: Unit, defender: Unit, seen: Sight, trace: Trace,
                   corpus: Corpus) -> Measure:
    """Range for a shot from or at a unit in terrain: between the places its line of sight may join (64.3), the
    terrain's edge standing for the unit that occupies it (81.6, 81.7)."""
    if seen.from_terrain is not None:
        source: BaseGeometry = seen.from_terrain.shape
        trace.step(f"From the table: {attacker.label} occupies {seen.from_terrain.label}: it shoots from any point "
                   "of the terrain's edge and its firing arc is ignored.", "rwm.81.6")
        if seen.from_terrain.has_keyword("elevated"):
            trace.step(f"From the table: {seen.from_terrain.label} is Elevated, so no unit or terrain blocks "
                       f"{possessive(attacker.label)} line of sight.", "rwm.81.9.b3")
    else:
        source = LineString(attacker.front_edge())
    region: BaseGeometry = seen.to_terrain.shape if seen.to_terrain is not None else defender.shape
    if seen.to_terrain is not None:
        trace.step(f"From the table: {defender.label} occupies {seen.to_terrain.label}: the shot is traced and "
                   "measured to any point of the terrain's edge.", "rwm.81.7")
    if seen.from_terrain is None:
        arc = firing_arc(attacker, float(table.arc_degrees or 0), table.extent())
        inside = shapely.intersection(region, arc)
        region = inside if not inside.is_empty else region
    return sight_range(table, attacker, defender, source, region, corpus)
