"""RuneWars Miniatures charges at the end of a move: the panic of a charge that hits nothing, the charge attack's
target among the enemies collided with, and Impact X (``rwm.16``, ``rwm.45.2``, ``rwm.18.1.b1``).

Choices documented here: Impact X gives X panic tokens to every enemy unit the charge collided with (the book
speaks of "the enemy unit it collided with"; with several, each of them was collided with). A charge whose
speed came to 0 or less does not move but is not canceled (``rwm.75.2`` cancels the movement, ``rwm.16.2.b1``
excuses only a canceled modifier or action), so it ends without colliding and takes the panic token.
"""

from __future__ import annotations

from engine.core import Trace, rule
from engine.runewars_miniatures.common import and_list, possessive, tokens
from engine.runewars_miniatures.contact import is_flanking, meet
from engine.runewars_miniatures.table import Terrain, Unit

CHARGES = ("charge", "turning-charge")


def is_charge(modifier: str | None) -> bool:
    """Return whether the movement modifier ends in a burst: the move is a charge (56.3, 85)."""
    return modifier in CHARGES


@rule("rwm.16", "rwm.16.1", "rwm.18.1.b1", "rwm.16.2", "rwm.56.3")
def charge_panic(unit: Unit, enemies: list[Unit], moved: bool, trace: Trace) -> int:
    """Return the charging unit's own panic tokens: none for colliding, 1 when it collided with no enemy."""
    if enemies:
        trace.step(f"The move is a charge: {unit.label} takes no panic token for colliding with "
                   f"{and_list([e.label for e in enemies])}.", "rwm.16.1", "rwm.18.1.b1", "rwm.56.3")
        return 0
    why = "" if moved else " (its speed came to 0 or less, which stops the movement but cancels neither the " \
                           "charge nor the action)"
    trace.step(f"The charge ended without colliding with an enemy unit{why}: {unit.label} takes 1 panic token.",
               "rwm.16.2", "rwm.16")
    return 1


@rule("rwm.45.2", "rwm.16.4")
def impact(unit: Unit, enemies: list[Unit], x: int, trace: Trace) -> dict[str, int]:
    """Return the panic tokens Impact X gives each enemy unit the charge collided with."""
    if not x or not enemies:
        return {}
    trace.step(f"Impact {x}: charging into {and_list([e.label for e in enemies])}, {unit.label} gives "
               f"{'it' if len(enemies) == 1 else 'each of them'} {tokens(x)}.", "rwm.45.2", "rwm.16.4")
    return {e.id: x for e in enemies}


@rule("rwm.16.3", "rwm.16.3.b1")
def charge_target(unit: Unit, enemies: list[Unit], chosen: str | None, trace: Trace) -> tuple[str | None, bool]:
    """Return the target of the charge's melee attack (None while its player has to choose) and whether the
    stated choice is legal."""
    if not enemies:
        return None, True
    ids = [e.id for e in enemies]
    if chosen is not None and chosen not in ids:
        trace.violate(f"{unit.label} did not collide with the chosen target; the charge attack targets an enemy "
                      f"unit it collided with ({and_list([e.label for e in enemies])})", "rwm.16.3.b1")
        return None, False
    if chosen is None and len(enemies) > 1:
        trace.decide(unit.player, "which enemy unit collided with the charge attack targets", "rwm.16.3.b1",
                     options=ids, field="charge_target")
        return None, True
    target = next(e for e in enemies if e.id == (chosen or ids[0]))
    picked = " (its player picks it among the units collided with)" if len(enemies) > 1 else ""
    trace.step(f"As soon as the move is over, {unit.label} makes a melee attack action against "
               f"{target.label}{picked}.", "rwm.16.3", "rwm.16.3.b1")
    return target.id, True


@rule("rwm.34.3", "rwm.41.1", "rwm.41.2")
def edge_hit(final: Unit, target: Unit, trace: Trace) -> tuple[list[str], bool]:
    """Return the target's edges the charging unit touches at the end of its move, and whether it flanks."""
    pc = meet(final, target)
    kinds = pc.kinds_of("b")
    mine = pc.kinds_of("a")
    flank = any(is_flanking(e.kind, g.kind) for e, g, _, _ in pc.flush) or (
        "front" in mine and any(k in ("side", "rear") for k in kinds))
    where = " and ".join(kinds) or "a corner"
    if flank:
        trace.step(f"{possessive(final.label)} front edge hit {possessive(target.label)} {where} edge: it is "
                   f"flanking {target.label} (before squaring up).", "rwm.34.3", "rwm.41.1")
    else:
        trace.step(f"{final.label} hit {possessive(target.label)} {where} edge: it is not flanking it.",
                   "rwm.34.3", "rwm.41.2" if "front" not in mine else "rwm.41.1")
    return kinds, flank


@rule("rwm.81.8", "rwm.34.3", "rwm.41.2")
def terrain_hit(unit: Unit, target: Unit, piece: Terrain, trace: Trace) -> tuple[list[str], bool]:
    """Return the edge hit when the charge collided with the terrain its target occupies: the front (81.8), so
    it is not flanking."""
    trace.step(f"{unit.label} hit {piece.label}, which {target.label} occupies: that counts as hitting "
               f"{possessive(target.label)} front edge, so it is not flanking it.", "rwm.81.8", "rwm.34.3", "rwm.41.2")
    return ["front"], False
