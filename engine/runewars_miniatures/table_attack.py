"""RuneWars Miniatures attacks placed on the table: the geometric facts of ``attack`` derived, not stated.

An ``attack`` position may carry a table (``table``, ``units``, ``terrain``, as in ``contact``) and name the
two units with ``attacker.unit`` and ``defender.unit``. The facts the attack otherwise asks the player to
state are then measured and shown as derived steps before the ordinary 11 steps run: the formations
(``ranks``), engagement (``rwm.34``), the attacker's contacted edge(s) (``rwm.34.3``, corner rule
``rwm.34.3.b1``), which of its trays touch (partial rank, ``rwm.82.1.b2``), flanking both ways (``rwm.41.1``),
and for a ranged attack whether the attacker is engaged at all (``rwm.65.2``), line of sight and firing arc
(``rwm.46.1``, ``rwm.39``), range (``rwm.64``) and the attacker's allies engaged with the target
(``rwm.65.3``).

Range for a ranged attack is measured between the units' closest points (``rwm.64.3.b2``). Strictly, a
ranged attack measures between the two points its line of sight uses (``rwm.64.3.b1``), which the player
picks; the closest points give the shortest range any such pair can have, and the step says so.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from typing import Any

from engine.core import Resolver, Trace, rule
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars_miniatures.contact import analyse
from engine.runewars_miniatures.ranges import range_between
from engine.runewars_miniatures.sight import sight
from engine.runewars_miniatures.table import (
    EPS,
    ID,
    TABLE,
    TERRAINS,
    UNITS,
    Table,
    Unit,
    check_overlaps,
    pt,
    r3,
    read_table,
)


def with_table(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Return the attack schema extended with the optional table: ``ranks`` are then derived, not required."""
    out = copy.deepcopy(dict(schema))
    props = out.setdefault("properties", {})
    props.update(table=TABLE, units=UNITS, terrain=TERRAINS)
    att, dfd = props["attacker"], props["defender"]
    att.setdefault("properties", {})["unit"] = ID
    dfd.setdefault("properties", {})["unit"] = ID
    att_required = [r for r in att.get("required", []) if r != "ranks"]
    had_ranks = "ranks" in att.get("required", [])
    if att_required:
        att["required"] = att_required
    else:
        att.pop("required", None)
    stated = list(out.pop("allOf", []))
    if had_ranks:
        stated.append({"properties": {"attacker": {"required": ["ranks"]}}})
    with_units = {"properties": {"attacker": {"required": ["unit"]}, "defender": {"required": ["unit"]}}}
    out["allOf"] = [{"if": {"required": ["units"]}, "then": with_units, "else": {"allOf": stated}}]
    return out


def from_table(fn: Resolver) -> Resolver:
    """Wrap the attack resolver: with a table, derive the stated facts first (and add the proof geometry)."""
    @functools.wraps(fn)
    def resolver(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> Mapping[str, Any]:
        if pos.get("units") is None:
            return dict(fn(pos, trace, corpus))
        derived, proof = derive_attack_facts(pos, trace, corpus)
        if trace.violations:
            return {"from_table": proof, **({"overlaps": proof["overlaps"]} if proof.get("overlaps") else {})}
        out = dict(fn(derived, trace, corpus))
        out["from_table"] = proof
        return out
    return resolver


def _touching_trays(attacker: Unit, defender: Unit) -> tuple[bool, bool]:
    """Return (a tray of the attacker's partial rank touches, another tray touches) the defender."""
    files = attacker.files
    partial = len(attacker.ranks) > 1 and len(attacker.ranks[-1]) < files
    back = len(attacker.ranks) - 1
    partial_hit = other_hit = False
    for (_, k), tray in zip(attacker.cells, attacker.trays, strict=True):
        if tray.distance(defender.shape) <= EPS:
            if partial and k == back:
                partial_hit = True
            else:
                other_hit = True
    return partial_hit, other_hit


@rule("rwm.34", "rwm.34.3", "rwm.41.1", "rwm.65.2", "rwm.46.1", "rwm.39.1", "rwm.64.3.b2", "rwm.65.3")
def derive_attack_facts(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return the attack position with its geometric facts filled in from the table, and their proof."""
    ranged = pos.get("attack_type") == "ranged"
    table = read_table(pos, need_band=ranged, need_arc=ranged)
    att_raw, dfd_raw = dict(pos["attacker"]), dict(pos["defender"])
    attacker = _unit(table, att_raw.get("unit"), "attacker.unit")
    defender = _unit(table, dfd_raw.get("unit"), "defender.unit")
    if attacker.id == defender.id:
        raise UnreadableInputError("the attacker and the defender must be different units", path="defender.unit")
    proof: dict[str, Any] = {"attacker": attacker.id, "defender": defender.id}
    bad = check_overlaps(table, trace)
    if bad:
        proof["overlaps"] = bad
        return dict(pos), proof
    if attacker.is_allied(defender):
        trace.violate(f"{defender.label} is allied to {attacker.label}; an attack targets an enemy unit",
                      "rwm.10.2", "rwm.8")
        return dict(pos), proof
    att_raw.setdefault("name", attacker.label)
    dfd_raw.setdefault("name", defender.label)
    att_raw["ranks"] = attacker.rank_sizes
    dfd_raw["ranks"] = defender.rank_sizes
    answers = pos.get("corner_edges")
    if answers is not None and not (isinstance(answers, dict) and all(isinstance(v, dict) for v in answers.values())):
        raise UnreadableInputError("corner_edges maps a unit id to {enemy id: edge}", path="corner_edges")
    contact = analyse(table, answers or {})
    engaged_with_defender = ([attacker.id, defender.id] in contact.engaged
                             or [defender.id, attacker.id] in contact.engaged)
    att_raw["flanking"] = [attacker.id, defender.id] in contact.flanking
    att_raw["flanked_by_defender"] = [defender.id, attacker.id] in contact.flanking
    trace.step(f"From the table: {attacker.label} stands in formation "
               f"{'-'.join(map(str, attacker.rank_sizes))} and {defender.label} in "
               f"{'-'.join(map(str, defender.rank_sizes))}.", "rwm.66", "rwm.87.2")
    if ranged:
        _ranged(table, attacker, defender, contact.engaged, att_raw, dfd_raw, proof, trace, corpus)
    else:
        _melee(table, attacker, defender, engaged_with_defender, contact, att_raw, proof, trace)
    proof.update(flanking=att_raw["flanking"], flanked_by_defender=att_raw["flanked_by_defender"])
    if att_raw["flanking"]:
        trace.step(f"From the table: {attacker.label}'s front edge touches a side or the back edge of "
                   f"{defender.label}: it is flanking.", "rwm.41.1")
    if att_raw["flanked_by_defender"]:
        trace.step(f"From the table: {defender.label}'s front edge touches a side or the back edge of "
                   f"{attacker.label}: the attacker is flanked by the defender.", "rwm.41.1", "rwm.41.1.b3")
    derived = dict(pos)
    derived["attacker"], derived["defender"] = att_raw, dfd_raw
    return derived, proof


def _unit(table: Table, uid: Any, path: str) -> Unit:
    if not isinstance(uid, str) or not table.has_unit(uid):
        raise UnreadableInputError(f"{uid!r} names no unit of the position", path=path)
    return table.unit(uid)


def _melee(table: Table, attacker: Unit, defender: Unit, engaged: bool, contact: Any, att: dict[str, Any],
           proof: dict[str, Any], trace: Trace) -> None:
    att["engaged"] = engaged
    proof["engaged"] = engaged
    if not engaged:
        trace.step(f"From the table: {attacker.label}'s trays do not touch {defender.label}'s: they are not engaged.",
                   "rwm.34", "rwm.34.5")
        att.setdefault("contacted_edge", "front")
        return
    edges = contact.contacted_edges[attacker.id][defender.id]
    if edges is None:
        pending = [p for p in contact.pending if p[0] == attacker.id and p[1] == defender.id]
        edges = list(pending[0][3]) if pending else ["front", "side"]
        trace.step(f"From the table: {attacker.label} touches {defender.label} only with a corner and the ruler count "
                   f"does not settle its contacted edge ({' or '.join(edges)}).", "rwm.34.3.b1", "rwm.77.2")
    else:
        trace.step(f"From the table: {attacker.label} and {defender.label} touch, so they are engaged; "
                   f"{attacker.label}'s contacted edge: {', '.join(edges)}.", "rwm.34", "rwm.34.3")
    chosen = att.get("contacted_edge")
    att.pop("contacted_edges", None)
    if len(edges) == 1:
        att["contacted_edge"] = edges[0]
    else:
        att["contacted_edges"] = list(edges)
        if chosen not in edges:
            att.pop("contacted_edge", None)
    partial, other = _touching_trays(attacker, defender)
    att["touching_partial_rank"], att["touching_other_trays"] = partial, other
    proof["contacted_edges"] = edges
    proof["contact_points"] = next((c["points"] for c in contact.contacts
                                    if set(c["units"]) == {attacker.id, defender.id}), [])


def _ranged(table: Table, attacker: Unit, defender: Unit, engaged_pairs: list[list[str]], att: dict[str, Any],
            dfd: dict[str, Any], proof: dict[str, Any], trace: Trace, corpus: Corpus) -> None:
    engaged = any(attacker.id in p for p in engaged_pairs)
    att["engaged"] = engaged
    proof["engaged"] = engaged
    if engaged:
        foes = [table.label(x) for p in engaged_pairs if attacker.id in p for x in p if x != attacker.id]
        trace.step(f"From the table: {attacker.label} is engaged with {', '.join(foes)}.", "rwm.34", "rwm.65.2")
    seen = sight(table, attacker, defender, float(table.arc_degrees or 0))
    att["in_firing_arc"], att["line_of_sight"] = seen.in_arc, seen.line_of_sight
    proof.update(in_firing_arc=seen.in_arc, line_of_sight=seen.line_of_sight,
                 witness=[pt(seen.witness[0]), pt(seen.witness[1])] if seen.witness else None,
                 blockers=list(seen.blockers), arc_degrees=table.arc_degrees)
    blockers = ", ".join(table.label(b) for b in seen.blockers)
    trace.step(f"From the table (arc lines at {table.arc_degrees:g}°): {defender.label} is "
               f"{'inside' if seen.in_arc else 'outside'} {attacker.label}'s firing arc, and "
               + ("a clear line joins them" if seen.line_of_sight else
                  (f"every line is blocked by {blockers}" if seen.in_arc else "no line can be traced")) + ".",
               "rwm.39.1", "rwm.46.1", "rwm.39.3")
    bands = int(corpus.fact("rwm.64.1", "range_bands"))
    m = range_between(table, attacker, defender, corpus)
    att["range"] = m.range if m.range is not None else bands + 1
    proof.update(range=m.range, distance=r3(m.distance), closest=[pt(m.closest[0]), pt(m.closest[1])],
                 band=table.band)
    where = f"range {m.range}" if m.range is not None else f"beyond range {bands}"
    trace.step(f"From the table (range bands of {table.band:g}): the closest points are {m.distance:.3f} apart, "
               f"{where}; a line of sight drawn between other points is never shorter.", "rwm.64.3.b2", "rwm.64.4",
               "rwm.64.3.b1")
    allies = [u for u in table.units if u.id != attacker.id and u.is_allied(attacker)
              and [min(u.id, defender.id, key=table.order), max(u.id, defender.id, key=table.order)] in engaged_pairs]
    if allies and dfd.get("engaged_with_allies") is None:
        dfd["engaged_with_allies"] = [u.label for u in allies]
        trace.step(f"From the table: {', '.join(u.label for u in allies)}, allied to {attacker.label}, "
                   f"{'is' if len(allies) == 1 else 'are'} engaged with {defender.label}.", "rwm.34", "rwm.65.3")
