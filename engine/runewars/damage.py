"""Runewars damage and routs dealt to one player's units in a round of combat.

Paragraphs: ``rw.rounds-of-combat.4``/``.5`` (routs are resolved before damage), ``rw.routed-units-and-heroes.routs``
(each rout goes to an undamaged standing unit, a damaged one only when every standing unit is damaged),
``rw.dealing-damage-to-units`` (one token at a time) with ``.damaged-first`` (an already damaged unit first, then
a standing unit, a routed one only when none stands) and ``.destroyed`` (damage equal to health destroys), and
the book's example ``rw.dealing-damage-to-units.example``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.common import (
    FACTIONS,
    GAME,
    Name,
    capital,
    figure_name,
    figure_names,
    names,
    plural,
    refuse_duplicates,
    the_player,
)


class UnitEntry(Model):
    """One of the player's units: its health, the damage already on it and whether it is routed."""

    model_config = ConfigDict(title="Unit")

    id: Name
    type: Name | None = maybe()
    health: int = Field(ge=1, le=30)
    damage: int | None = maybe(ge=0, le=30)
    routed: bool | None = maybe()


def _subject(player: str | None) -> str:
    """Return the owner of the units for a sentence: the Daqan player, the attacker, the player."""
    if player in FACTIONS or not player:
        return the_player(player)
    return f"the {player}"


class AssignDamagePosition(OpenPosition):
    """Routs and damage dealt to one player's units in a round of combat, and (optionally) where he puts them."""

    game: Literal["runewars"]
    situation: Literal["assign_damage"]
    player: Name | None = maybe()
    units: list[UnitEntry] = Field(max_length=80)
    damage: int = Field(ge=0, le=200)
    routs: int | None = maybe(ge=0, le=200)
    proposed: list[Name] | None = Field(None, max_length=400)

    @model_validator(mode="after")
    def _on_the_board(self) -> Self:
        refuse_duplicates([u.id for u in self.units], "id", "units")
        for i, u in enumerate(self.units):
            damage = u.damage or 0
            if damage >= u.health:
                raise refuse(f"unit {figure_name(u.id)!r} has {damage} damage and {u.health} health; a unit whose "
                             f"damage reaches "
                             f"its health is already destroyed", f"units[{i}].damage")
        return self

    def reading(self) -> list[str]:
        """The owner's units with their health, damage and routed state, the routs and damage dealt, and the
        proposed assignment."""
        units = []
        for u in self.units:
            state = [f"health {u.health}"] + ([plural(u.damage, "damage token")] if u.damage else [])
            state += ["routed"] if u.routed else []
            units.append(f"{figure_name(u.id)} ({', '.join(state)})")
        out = [f"{capital(_subject(self.player))}'s units: {names(units)}.",
               f"Dealt: {plural(self.routs or 0, 'rout')} and {plural(self.damage, 'damage point')}."]
        if self.proposed is not None:
            out.append(f"Proposed assignment (damage first, then routs): {figure_names(self.proposed)}.")
        return out


@dataclass(frozen=True)
class Unit:
    """One participating unit: its id, health, damage already on it and whether it is routed."""

    id: str
    health: int
    damage: int = 0
    routed: bool = False

    @classmethod
    def of(cls, entry: UnitEntry) -> Unit:
        """Return the unit of the position."""
        return cls(entry.id, entry.health, entry.damage or 0, bool(entry.routed))


class Pending(Outcome):
    """The routs and damage still to assign where the owner chooses."""

    routs: int
    damage: int


class Pool:
    """Track one player's units while routs and damage are applied one point at a time."""

    def __init__(self, units: Sequence[Unit]) -> None:
        self.order = [u.id for u in units]
        self.health = {u.id: u.health for u in units}
        self.damage = {u.id: u.damage for u in units}
        self.routed = {u.id: u.routed for u in units}
        self.destroyed: list[str] = []
        self.newly_routed: list[str] = []
        self._gone: set[str] = set()

    def alive(self) -> list[str]:
        """Return the units not destroyed, in list order."""
        return [u for u in self.order if u not in self._gone]

    def standing(self) -> list[str]:
        """Return the standing units not destroyed, in list order."""
        return [u for u in self.alive() if not self.routed[u]]

    def is_alive(self, uid: str) -> bool:
        """Return whether the unit exists and is not destroyed."""
        return uid in self.health and uid not in self._gone

    def remaining(self, uid: str) -> int:
        """Return the damage the unit can still take before it is destroyed."""
        return self.health[uid] - self.damage[uid]

    def rout(self, uid: str) -> None:
        """Tip the unit over."""
        self.routed[uid] = True
        self.newly_routed.append(uid)

    def hit(self, uid: str) -> bool:
        """Put 1 damage token on the unit; return whether it is destroyed."""
        self.damage[uid] += 1
        if is_destroyed(self.damage[uid], self.health[uid]):
            self._gone.add(uid)
            self.destroyed.append(uid)
            return True
        return False

    def routed_survivors(self) -> list[str]:
        """Return the units routed by this assignment that were not destroyed afterwards."""
        return [u for u in self.newly_routed if u not in self._gone]


@rule("rw.dealing-damage-to-units.destroyed", "rw.term.damage")
def is_destroyed(damage: int, health: int) -> bool:
    """Return whether a unit is destroyed: its damage tokens equal (or exceed) its health."""
    return damage >= health


@rule("rw.routed-units-and-heroes.routs")
def rout_candidates(pool: Pool) -> list[str]:
    """Return the units the next rout may go to: an undamaged standing unit; a damaged standing unit only when
    every standing unit is damaged; none when no unit stands."""
    standing = pool.standing()
    fresh = [u for u in standing if pool.damage[u] == 0]
    return fresh or standing


@rule("rw.dealing-damage-to-units.damaged-first")
def damage_candidates(pool: Pool) -> list[str]:
    """Return the units the next damage point may go to: an already damaged unit (standing or routed) first;
    with none damaged, any standing unit; a routed unit only when no unit stands."""
    alive = pool.alive()
    damaged = [u for u in alive if pool.damage[u] > 0]
    if damaged:
        return damaged
    return pool.standing() or alive


@rule("rw.routed-units-and-heroes.routs")
def routs_to_deal(routs: int, pool: Pool) -> int:
    """Return the routs that land: one standing unit per rout, so routs beyond the standing units are lost."""
    return min(routs, len(pool.standing()))


@rule("rw.dealing-damage-to-units", "rw.dealing-damage-to-units.destroyed")
def damage_to_deal(damage: int, pool: Pool) -> int:
    """Return the damage that lands: tokens go on one at a time until every unit is destroyed, the rest is lost."""
    return min(damage, sum(pool.remaining(u) for u in pool.alive()))


def assign_in_list_order(pool: Pool, routs: int, damage: int) -> None:
    """Apply routs, then damage, each point to the first unit in list order the rules allow (the list order is
    the owner's choice)."""
    for _ in range(routs_to_deal(routs, pool)):
        pool.rout(rout_candidates(pool)[0])
    for _ in range(damage_to_deal(damage, pool)):
        pool.hit(damage_candidates(pool)[0])


def _rout_problem(pool: Pool, uid: str, candidates: Sequence[str]) -> str:
    if uid not in pool.health:
        return f"{figure_name(uid)!r} is not one of the player's units"
    if pool.routed[uid]:
        return f"{figure_name(uid)} is already routed; each rout must go to a standing unit"
    return (f"{figure_name(uid)} is damaged while undamaged standing units remain "
            f"({figure_names(list(candidates))}); a rout goes to "
            f"an undamaged standing unit first")


def _damage_problem(pool: Pool, uid: str, candidates: Sequence[str]) -> str:
    if uid not in pool.health:
        return f"{figure_name(uid)!r} is not one of the player's units"
    if not pool.is_alive(uid):
        return f"{figure_name(uid)} is already destroyed"
    if pool.damage[candidates[0]] > 0:
        return (f"damage must go on an already damaged unit first ({figure_names(list(candidates))}), "
                f"not on {figure_name(uid)}")
    return (f"{figure_name(uid)} is routed while standing units remain ({figure_names(list(candidates))}); a "
            f"routed unit takes "
            f"damage only when no unit stands")


@rule("rw.term.routed", "rw.dealing-damage-to-units")
def check_proposal(pool: Pool, proposed: Sequence[str], routs: int, damage: int, trace: Trace) -> bool:
    """Apply a proposed assignment (damage ids first, then rout ids, one per point) in the order the rules resolve
    them (routs, then damage); record a violation and stop at the first point the rules forbid."""
    n_r, n_d = routs_to_deal(routs, pool), damage_to_deal(damage, pool)
    if len(proposed) != n_d + n_r:
        trace.violate(f"{plural(n_d, 'damage point')} and {plural(n_r, 'rout')} land, so the proposal must name "
                      f"{plural(n_d + n_r, 'unit')} (damage first, then routs), but it names {len(proposed)}",
                      damage_to_deal, routs_to_deal)
        return False
    damage_ids, rout_ids = list(proposed[:n_d]), list(proposed[n_d:])
    for k, uid in enumerate(rout_ids, 1):
        candidates = rout_candidates(pool)
        if uid not in candidates:
            trace.violate(f"rout {k}: {_rout_problem(pool, uid, candidates)}", rout_candidates, "rw.term.routed")
            return False
        pool.rout(uid)
        trace.step(f"Rout {k} of {n_r}: {figure_name(uid)} is tipped over (an allowed choice: "
                   f"{figure_names(candidates)}).",
                   rout_candidates)
    for k, uid in enumerate(damage_ids, 1):
        candidates = damage_candidates(pool)
        if uid not in candidates:
            trace.violate(f"damage point {k}: {_damage_problem(pool, uid, candidates)}", damage_candidates,
                          "rw.dealing-damage-to-units")
            return False
        gone = pool.hit(uid)
        trace.step(f"Damage {k} of {n_d}: 1 token on {figure_name(uid)} "
                   f"({pool.damage[uid]} of {pool.health[uid]} health)"
                   + (", which destroys it." if gone else "."), damage_candidates,
                   *([is_destroyed] if gone else []))
    return True


def apply_forced(pool: Pool, routs: int, damage: int, trace: Trace, who: str,
                 field: str = "proposed") -> Pending:
    """Apply the routs and damage the rules force, stop at the first real choice and list it as a decision
    answered at *field* (the proposal: one unit id per point, damage first, then routs); return the routs and
    damage still to assign."""
    left_r = _forced_routs(pool, routs, trace, who, field)
    left_d = _forced_damage(pool, damage, bool(left_r), trace, who, field)
    return Pending(routs=left_r, damage=left_d)


def _forced_routs(pool: Pool, routs: int, trace: Trace, who: str, field: str) -> int:
    """Routs first: every unit of a tier the routs cover is routed; return the routs left to the owner's choice."""
    left_r = routs_to_deal(routs, pool)
    rout_open = False
    if routs > left_r:
        trace.step(f"Only {plural(left_r, 'standing unit')} can be routed; {plural(routs - left_r, 'rout')} more "
                   f"than that has no effect.", routs_to_deal)
    for label, tier in (("undamaged standing", [u for u in pool.standing() if pool.damage[u] == 0]),
                        ("damaged standing", [u for u in pool.standing() if pool.damage[u] > 0])):
        if not left_r:
            break
        if left_r >= len(tier):
            for uid in tier:
                pool.rout(uid)
            left_r -= len(tier)
            if tier:
                trace.step(f"Routs: every {label} unit must be routed ({figure_names(tier)}).", rout_candidates)
            continue
        trace.decide(who, f"{plural(left_r, 'unit')} to rout among the {label} units", rout_candidates,
                     options=tier, field=field)
        trace.step(f"Routs: {plural(left_r, 'rout')} must go to {label} units; the owner picks which of "
                   f"{figure_names(tier)}.", rout_candidates)
        rout_open = True
        break
    return left_r if rout_open else 0


@rule("rw.dealing-damage-to-units")
def _forced_damage(pool: Pool, damage: int, rout_open: bool, trace: Trace, who: str, field: str) -> int:
    """Then damage: tokens the rules force go on, one unit at a time; return the damage left to the owner's choice."""
    left_d = damage_to_deal(damage, pool)
    if damage > left_d:
        trace.step(f"The units can take only {left_d} more damage; the other {plural(damage - left_d, 'point')} "
                   f"{'is' if damage - left_d == 1 else 'are'} lost.",
                   damage_to_deal)
    while left_d:
        alive = pool.alive()
        damaged = [u for u in alive if pool.damage[u] > 0]
        if damaged:
            tier, label = damaged, "already damaged"
        elif rout_open:
            trace.decide(who, f"then the {'unit' if left_d == 1 else 'units'} to take {plural(left_d, 'damage point')} "
                         f"(after the routs are chosen)", damage_candidates, options=alive, field=field)
            break
        else:
            standing = pool.standing()
            tier, label = (standing, "standing") if standing else (alive, "routed")
        if len(tier) == 1 or left_d >= sum(pool.remaining(u) for u in tier):
            uid = tier[0]
            take = min(left_d, pool.remaining(uid))
            for _ in range(take):
                pool.hit(uid)
            left_d -= take
            gone = not pool.is_alive(uid)
            why = (f"the only {label} unit" if len(tier) == 1 else
                   f"one of the {label} units, which the damage left destroys whatever the order")
            trace.step(f"Damage: {plural(take, 'token')} must go on {figure_name(uid)}, {why}"
                       + (f"; with {pool.health[uid]} health it is destroyed." if gone
                          else f" ({pool.damage[uid]} of {pool.health[uid]} health)."),
                       damage_candidates, *([is_destroyed] if gone else []))
            continue
        trace.decide(who, f"which {label} unit takes the next damage point ({plural(left_d, 'point')} left; a unit "
                     f"that takes damage must keep taking it until destroyed)", damage_candidates,
                     "rw.dealing-damage-to-units", options=tier, field=field)
        trace.step(f"Damage: the next point may go on any {label} unit ({figure_names(tier)}); the owner chooses.",
                   damage_candidates)
        break
    return left_d


LABELS: dict[str, Label] = {"destroyed": "Destroyed", "routed": "Newly routed",
                            "pending": "Still to assign (routs, damage)"}


class AssignDamageOutcome(Outcome):
    """The units destroyed and newly routed, and what is still the owner's choice."""

    destroyed: list[str] = Field(default_factory=list)
    routed: list[str] = Field(default_factory=list)
    violations: list[str] = Field(default_factory=list)
    pending: Pending | None = Field(None, exclude_if=lambda v: v is None)


def _summary(pos: AssignDamagePosition, out: AssignDamageOutcome, trace: Trace) -> str:
    """One sentence: which units are destroyed and routed, and what is still the owner's choice."""
    owner = capital(_subject(pos.player))
    destroyed, routed = out.destroyed, out.routed
    parts = (([f"loses {figure_names(destroyed)}"] if destroyed else [])
             + ([f"has {figure_names(routed)} routed"] if routed else []))
    text = f"{owner} {' and '.join(parts) if parts else 'loses no unit and has none routed'}"
    pending = out.pending
    if pending:
        left = [plural(pending.routs, "rout")] if pending.routs else []
        left += [plural(pending.damage, "damage point")] if pending.damage else []
        verb = "goes" if pending.routs + pending.damage == 1 else "go"
        text += f" so far; {' and '.join(left)} still {verb} where the owner chooses"
    return text + "."


@situation(GAME, "assign_damage", AssignDamagePosition, labels=LABELS)
@summarized(_summary)
@rule("rw.rounds-of-combat.4", "rw.rounds-of-combat.5", "rw.dealing-damage-to-units")
def resolve_assign_damage(pos: AssignDamagePosition, trace: Trace, corpus: Corpus) -> AssignDamageOutcome:
    """Check or apply routs and damage dealt to one player's units: damaged units first, routs to standing units."""
    damage, routs = pos.damage, pos.routs or 0
    who = _subject(pos.player)
    pool = Pool([Unit.of(u) for u in pos.units])
    out = AssignDamageOutcome()
    trace.step(f"{capital(who)} is dealt {plural(routs, 'rout')} and "
               f"{plural(damage, 'damage point')}; routs are "
               f"resolved before damage, and he assigns each point to his own units one at a time.",
               "rw.rounds-of-combat.4", "rw.rounds-of-combat.5", "rw.dealing-damage-to-units")
    if pos.proposed is not None:
        if not check_proposal(pool, list(pos.proposed), routs, damage, trace):
            return out
    else:
        pending = apply_forced(pool, routs, damage, trace, who)
        if pending.routs or pending.damage:
            out.pending = pending
    out.destroyed, out.routed = list(pool.destroyed), pool.routed_survivors()
    trace.step(f"Result: destroyed {figure_names(pool.destroyed)}; newly routed {figure_names(out.routed)}. "
               f"Destroyed units "
               f"go back to their owner's supply and their damage tokens are removed.", is_destroyed)
    return out
