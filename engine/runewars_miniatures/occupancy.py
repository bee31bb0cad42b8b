"""RuneWars Miniatures occupied terrain (81.2, 81.6-81.9): where a unit that occupies terrain stands for the rules.

A unit that occupies a terrain piece (``terrain[].occupant``) sits on it: its trays are not an obstacle or a
target of their own, the piece stands for it. Line of sight and range are traced from and to any point of the
piece's edge (``rwm.81.6``, ``rwm.81.7``), a unit touching the piece touches the occupant's front edge
(``rwm.81.8``, in :mod:`engine.runewars_miniatures.contact`), and the terrain keywords (``rwm.81.9``) act:
Elevated lets the occupant's line of sight pass over units and terrain, Cover X and Fortified X add X to its
defense against ranged and melee attacks (:func:`defense_bonus`).
"""

from __future__ import annotations

from shapely.geometry import Polygon

from engine.core import Trace, rule
from engine.runewars_miniatures.table import Table, Terrain, Unit


def occupied(table: Table, unit: Unit) -> Terrain | None:
    """Return the terrain piece *unit* occupies, or None."""
    return next((t for t in table.terrain if t.occupant == unit.id), None)


def occupants(table: Table) -> set[str]:
    """Return the ids of the units that occupy terrain."""
    return {t.occupant for t in table.terrain if t.occupant is not None}


def footprint(table: Table, unit: Unit) -> Polygon:
    """Return where *unit* is measured: its terrain piece when it occupies one (81.6, 81.7), else its trays."""
    piece = occupied(table, unit)
    return piece.shape if piece is not None else unit.shape


def is_elevated(table: Table, unit: Unit) -> bool:
    """Return whether *unit* occupies Elevated terrain (81.9)."""
    piece = occupied(table, unit)
    return piece is not None and piece.has_keyword("elevated")


@rule("rwm.81.9", "rwm.81.9.b1", "rwm.81.9.b4")
def defense_bonus(table: Table, defender: Unit, ranged: bool, trace: Trace) -> int:
    """Return what the defender's terrain adds to its defense: Cover X against ranged, Fortified X against melee."""
    piece = occupied(table, defender)
    if piece is None:
        return 0
    keyword, para, kind = ("cover", "rwm.81.9.b1", "ranged") if ranged else ("fortified", "rwm.81.9.b4", "melee")
    other = "fortified" if ranged else "cover"
    value = piece.keyword(keyword)
    if value:
        trace.step(f"From the table: {defender.label} occupies {piece.label}, which has "
                   f"{keyword.capitalize()} {value}: +{value} to its defense against this {kind} attack.",
                   "rwm.81.9", para)
        return value
    if piece.keyword(other):
        trace.step(f"From the table: {defender.label} occupies {piece.label}, whose {other.capitalize()} "
                   f"{piece.keyword(other)} helps only against {'melee' if ranged else 'ranged'} attacks: no bonus "
                   f"against this {kind} attack.", "rwm.81.9", "rwm.81.9.b4" if ranged else "rwm.81.9.b1")
    return 0
