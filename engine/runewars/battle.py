"""Runewars battles: tally strength (fortifications, units, stronghold) and resolve the battle.

Paragraphs: ``rw.battles`` and its steps ``rw.battles.6``/``.6a``/``.6b``/``.6c`` (tally strength) and ``rw.battles.7``
(higher strength wins, ties to the defender), ``.7a`` (stronghold conquered, damaged or kept), ``.7b``-``.7d``;
``rw.unit-classes.hexagon`` (routed hexagon units still count); the Conquer Supremacy Bonus
(``rw.conquer-order.supremacy``); the faction defensive developments (``rw.developments.defensive-bonus``,
``.cursed-tomb``, ``.hungry-spawn``, ``.protective-wards``, ``.reinforced-walls``); the 8-unit exception for a
winning attacker (``rw.movement-restrictions.unit-limit.battle``); the book's example
``rw.battle-example-round-2``.

``attacker.over_limit_retreat`` names the units beyond the limit of 8 that retreat after a won battle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Literal, Self

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars import damage as dmg
from engine.runewars.areas import AreaMap, Map, map_reading, retreat_areas
from engine.runewars.common import (
    GAME,
    Faction,
    Labels,
    Name,
    Season,
    Side,
    UnitClass,
    faction_name,
    figure_name,
    figure_names,
    left_of,
    names,
    plural,
    the_player,
)
from engine.runewars.retreat import narrate_options, pick_destination

CLASSES = ("triangle", "circle", "rectangle", "hexagon")
DEVELOPMENTS = ("reinforced-walls", "protective-wards", "hungry-spawn", "cursed-tomb")
Development = Annotated[Literal["reinforced-walls", "protective-wards", "hungry-spawn", "cursed-tomb"],
                      Labels({"reinforced-walls": "Reinforced Walls", "protective-wards": "Protective Wards",
                              "hungry-spawn": "Hungry Spawn", "cursed-tomb": "Cursed Tomb"})]
Role = Literal["attacker", "defender"]
StrongholdState = Literal["none", "kept", "damaged", "conquered"]
DEV_RULE = {d: f"rw.developments.{d}" for d in DEVELOPMENTS}
DEV_NAME = {d: d.replace("-", " ").title() for d in DEVELOPMENTS}


class Unit(Model):
    """A participating unit at the end of the rounds of combat (without an id, it is named after its type and its
    place in the list)."""

    id: str | None = maybe(max_length=80)
    type: str | None = maybe(max_length=80)
    routed: bool | None = maybe()
    health: int | None = maybe(ge=1, le=30)
    damage: int | None = maybe(ge=0, le=30)
    unit_class: UnitClass = Field(alias="class")
    flying: bool | None = maybe("Whether the unit flies (only matters for where it can retreat).", title="Flying")


def _check_units(units: Sequence[Unit]) -> None:
    """Refuse a unit already destroyed by its damage, then two units of one side with the same id."""
    read = [BattleUnit.of(u, i) for i, u in enumerate(units)]
    for i, u in enumerate(read):
        if u.health is not None and u.damage >= u.health:
            raise refuse(f"{u.id} has {u.damage} damage and {u.health} health; a unit whose damage reaches its "
                         f"health is already destroyed", f"units[{i}].damage")
    seen: set[str] = set()
    for i, u in enumerate(read):
        if u.id in seen:
            raise refuse(f"two units are called {u.id!r}", f"units[{i}].id")
        seen.add(u.id)


class Attacker(Model):
    """The attacking player: his faction, his participating units and his choices."""

    faction: Faction | None = maybe()
    conquer_supremacy: bool | None = maybe()
    units: list[Unit] = Field(max_length=80)
    over_limit_retreat: list[Name] | None = maybe(max_length=80)
    development_choices: list[Name] | None = Field(
        None, max_length=8, title="Figures hit by the development",
        description="Unit ids the attacker picks: the 3 units he routs for the Cursed Tomb, or the unit taking each "
                    "of the Hungry Spawn's 4 damage points, in order (leave out to take them in list order).")

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        _check_units(self.units)
        return self


class Stronghold(Model):
    """The defender's stronghold in the contested area: its printed strength and which side is up."""

    strength: int = Field(ge=0, le=20)
    damaged: bool | None = maybe()


class Defender(Model):
    """The defending player (or the neutral units): his units, his stronghold and its development."""

    faction: Side | None = maybe()
    stronghold: Stronghold | None = Field(None, description="The stronghold in the area (null: none).")
    development: Development | None = Field(None, description="The defensive development on the stronghold "
                                                                "(null: none).")
    use_development: bool | None = maybe()
    units: list[Unit] = Field(max_length=80)

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        _check_units(self.units)
        return self


class BattlePosition(OpenPosition):
    """A Runewars battle after its rounds of combat: both sides' units, the stronghold and its development."""

    game: Literal["runewars"]
    situation: Literal["battle"]
    attacker: Attacker
    defender: Defender
    area: Name | None = maybe("The contested area, as named on the map.", title="Battle in")
    map: AreaMap | None = maybe("The contested area and the areas around it (the loser retreats to one of them).",
                                title="Map")
    season: Season | None = maybe("The current season (in winter water borders do not count).", title="Season")
    retreat_to: str | None = Field(None, max_length=80, title="Loser retreats to",
                                   description="The adjacent area the losing side's units retreat to.")

    @model_validator(mode="after")
    def _two_sides(self) -> Self:
        if self.attacker.faction is not None and self.attacker.faction == self.defender.faction:
            raise refuse(f"the attacker and the defender are both {faction_name(self.attacker.faction)}",
                         "defender.faction")
        if self.map is not None:
            if self.area is None:
                raise refuse("a battle set up on a map needs its contested area", "area")
            if not self.map.has(self.area):
                raise refuse(f"{self.area!r} is not an area of the map", "area")
        return self

    def reading(self) -> list[str]:
        """Both sides with their units (class, routed, damage), the stronghold and development, the area and the
        choices stated."""
        att, dfd = self.attacker, self.defender
        where = f" in {self.area}" if self.area else ""
        a_name = f"The attacker ({faction_name(att.faction)})" if att.faction else "The attacker"
        d_name = ("The defender (neutral units)" if dfd.faction == "neutral" else
                  f"The defender ({faction_name(dfd.faction)})" if dfd.faction else "The defender")
        out = [f"Battle{where}{f' ({self.season})' if self.season else ''}."]
        bonus = " with the Conquer Supremacy Bonus" if att.conquer_supremacy else ""
        out.append(f"{a_name}{bonus}: {_units_words(att.units)}.")
        out.append(f"{d_name}: {_units_words(dfd.units)}.")
        if dfd.stronghold is not None:
            side = ", damaged side up" if dfd.stronghold.damaged else ""
            out.append(f"The defender's stronghold: strength {dfd.stronghold.strength}{side}.")
        else:
            out.append("No stronghold in the area.")
        if dfd.development:
            use = {None: "", True: ", used", False: ", not used"}[dfd.use_development]
            out.append(f"Defensive development: {DEV_NAME[dfd.development]}{use}.")
        if att.development_choices is not None:
            out.append(f"The attacker's picks for it: {figure_names(att.development_choices)}.")
        if att.over_limit_retreat is not None:
            out.append(f"Retreating beyond the limit of 8: {figure_names(att.over_limit_retreat)}.")
        if self.map is not None:
            out += map_reading(self.map)
        if self.retreat_to:
            out.append(f"The loser retreats to {self.retreat_to}.")
        return out


def _units_words(units: Sequence[Unit]) -> str:
    if not units:
        return "no unit"
    words = []
    for i, u in enumerate(units):
        traits: list[str] = [u.unit_class]
        traits += ["routed"] if u.routed else []
        if u.damage:
            traits.append(f"{u.damage} of {u.health} damage" if u.health else plural(u.damage, "damage token"))
        traits += ["flying"] if u.flying else []
        words.append(f"{BattleUnit.of(u, i).name} ({', '.join(traits)})")
    return names(words)


@dataclass(frozen=True)
class BattleUnit:
    """A participating unit at the end of the rounds of combat."""

    id: str
    type: str
    unit_class: str
    routed: bool = False
    health: int | None = None
    damage: int = 0

    @classmethod
    def of(cls, unit: Unit, index: int) -> BattleUnit:
        """Return the unit read from the position; without an id it is named after its type and place in the list."""
        kind = unit.type or unit.unit_class
        return cls(unit.id or f"{kind} {index + 1}", kind, unit.unit_class, bool(unit.routed), unit.health,
                   unit.damage or 0)

    @property
    def name(self) -> str:
        """Return the unit's name for a sentence (see :func:`figure_name`)."""
        return figure_name(self.id)

    def as_damage_unit(self) -> dmg.Unit:
        """Return the unit for the damage rules (its health only matters once damage is dealt)."""
        return dmg.Unit(self.id, self.health if self.health is not None else self.damage + 1, self.damage,
                        self.routed)


def units_from(units: Sequence[Unit]) -> list[BattleUnit]:
    """Return one side's participating units (distinct ids: the position's validation checked them)."""
    return [BattleUnit.of(u, i) for i, u in enumerate(units)]


@dataclass(frozen=True)
class Effect:
    """What a defensive development did to the attacker before strength was counted."""

    units: tuple[BattleUnit, ...]
    routed: tuple[str, ...] = ()
    destroyed: tuple[str, ...] = ()
    retreated: tuple[str, ...] = ()
    defender_bonus: int = 0
    unknown_loss: int = 0  # at most this much more attacker strength lost (damage to units of unknown health)


@dataclass(frozen=True)
class Tally:
    """Both sides' strength at the end of a battle and who wins (``None`` while a choice could change it)."""

    effect: Effect
    attacker_units: int
    defender_units: int
    stronghold: int
    attacker: int
    defender: int
    winner: str | None


@rule("rw.battles.6b", "rw.unit-classes.hexagon")
def counts_toward_strength(unit: BattleUnit) -> bool:
    """Return whether a unit adds 1 strength: every standing unit does, a routed one only if it is a hexagon."""
    return not unit.routed or unit.unit_class == "hexagon"


@rule("rw.battles.6b", "rw.term.strength")
def unit_strength(units: Sequence[BattleUnit]) -> int:
    """Return a side's strength from its units: its standing units plus its routed hexagon units."""
    return sum(1 for u in units if counts_toward_strength(u))


@rule("rw.conquer-order.supremacy", "rw.order-card-summary.conquer")
def conquer_reduction(strength: int, corpus: Corpus) -> int:
    """Return a stronghold's strength against a Conquer Supremacy Bonus: 3 less, never below 0."""
    return max(0, strength - int(corpus.fact("rw.conquer-order.supremacy", "enemy_stronghold_strength_reduction")))


@rule("rw.battles.6c")
def stronghold_strength(stronghold: Stronghold | None, conquer_supremacy: bool, corpus: Corpus) -> int:
    """Return what the defender's stronghold adds: the strength printed on its face-up side (reduced by a Conquer
    Supremacy Bonus)."""
    if stronghold is None:
        return 0
    return conquer_reduction(stronghold.strength, corpus) if conquer_supremacy else stronghold.strength


@rule("rw.battles.7")
def is_attacker_winner(attacker: int, defender: int) -> bool:
    """Return whether the attacker wins: only with a strictly higher strength (the defender wins ties)."""
    return attacker > defender


@rule("rw.battles.7a")
def stronghold_result(has_stronghold: bool, attacker_won: bool, enemy_standing: bool) -> StrongholdState:
    """Return what happens to the defender's stronghold: conquered when the attacker wins; when the defender wins,
    flipped to (or left on) its damaged side if standing enemy units are present, else kept as it is."""
    if not has_stronghold:
        return "none"
    if attacker_won:
        return "conquered"
    return "damaged" if enemy_standing else "kept"


@rule("rw.developments.defensive-bonus")
def development_owner(development: str, corpus: Corpus) -> str:
    """Return the faction whose defensive development this is (each faction has its own)."""
    by_faction: Mapping[str, str] = corpus.fact("rw.developments.defensive-bonus", "by_faction")
    return next(f for f, d in by_faction.items() if d == development)


@rule("rw.developments.cursed-tomb", "rw.routed-units-and-heroes.routs")
def cursed_tomb(units: Sequence[BattleUnit], corpus: Corpus) -> Effect:
    """Return the attacker after the Cursed Tomb: he routs 3 of his figures (standing undamaged ones first,
    taken in list order, which is his choice)."""
    pool = dmg.Pool([u.as_damage_unit() for u in units])
    dmg.assign_in_list_order(pool, int(corpus.fact("rw.developments.cursed-tomb", "opponent_routs")), 0)
    routed = set(pool.newly_routed)
    after = tuple(replace(u, routed=True) if u.id in routed else u for u in units)
    return Effect(after, routed=tuple(pool.newly_routed))


@rule("rw.developments.hungry-spawn", "rw.dealing-damage-to-units.damaged-first")
def hungry_spawn(units: Sequence[BattleUnit], corpus: Corpus) -> Effect:
    """Return the attacker after the Hungry Spawn: 4 damage under the normal damage rules (his choices taken in
    list order); with a unit's health unknown, the loss is only bounded."""
    amount = int(corpus.fact("rw.developments.hungry-spawn", "damage_dealt"))
    if any(u.health is None for u in units):
        return Effect(tuple(units), unknown_loss=min(amount, unit_strength(units)))
    pool = dmg.Pool([u.as_damage_unit() for u in units])
    dmg.assign_in_list_order(pool, 0, amount)
    gone = set(pool.destroyed)
    left = tuple(replace(u, damage=pool.damage[u.id]) for u in units if u.id not in gone)
    return Effect(left, destroyed=tuple(pool.destroyed))


@rule("rw.developments.protective-wards")
def protective_wards(units: Sequence[BattleUnit], corpus: Corpus) -> Effect:
    """Return the attacker after the Protective Wards: 1 of his standing units (the first listed) retreats out of
    the battle."""
    count = int(corpus.fact("rw.developments.protective-wards", "opponent_standing_units_retreated"))
    leaving = [u.id for u in units if not u.routed][:count]
    return Effect(tuple(u for u in units if u.id not in leaving), retreated=tuple(leaving))


@rule("rw.developments.reinforced-walls")
def reinforced_walls(units: Sequence[BattleUnit], corpus: Corpus) -> Effect:
    """Return the Reinforced Walls' effect: +2 strength for the defender when the winner is determined."""
    return Effect(tuple(units), defender_bonus=int(corpus.fact("rw.developments.reinforced-walls", "strength_bonus")))


EFFECTS = {"cursed-tomb": cursed_tomb, "hungry-spawn": hungry_spawn, "protective-wards": protective_wards,
           "reinforced-walls": reinforced_walls}


def tally(attackers: Sequence[BattleUnit], defenders: Sequence[BattleUnit], stronghold: Stronghold | None,
          conquer_supremacy: bool, development: str | None, corpus: Corpus, effect: Effect | None = None) -> Tally:
    """Return both sides' strength and the winner: fortifications, units, stronghold, then the comparison (*effect*:
    the development's effect already worked out from the attacker's own picks)."""
    if effect is None:
        effect = EFFECTS[development](attackers, corpus) if development else Effect(tuple(attackers))
    a_units, d_units = unit_strength(effect.units), unit_strength(defenders)
    keep = stronghold_strength(stronghold, conquer_supremacy, corpus)
    a, d = a_units, d_units + keep + effect.defender_bonus
    if effect.unknown_loss and a - effect.unknown_loss <= d < a:
        winner = None
    else:
        winner = "attacker" if is_attacker_winner(a, d) else "defender"
    return Tally(effect, a_units, d_units, keep, a, d, winner)


def _side_name(faction: str | None, role: str) -> str:
    if faction == "neutral":
        return f"the {role} (neutral units)"
    return f"the {role} ({faction_name(faction)})" if faction else f"the {role}"


@rule("rw.developments.limit", "rw.component-limitations.strongholds")
def _check_development(dev: str, faction: str | None, stronghold: Stronghold | None, trace: Trace,
                       corpus: Corpus) -> None:
    owner = development_owner(dev, corpus)
    if faction != owner:
        trace.violate(f"{DEV_NAME[dev]} is the {faction_name(owner)} defensive development; the defender here is "
                      f"{faction_name(faction) or 'not a faction'}", development_owner, DEV_RULE[dev])
    if stronghold is None:
        trace.violate(f"{DEV_NAME[dev]} needs a stronghold in the area: a development stands on a stronghold and "
                      f"is destroyed when it is left without one", "rw.developments.limit",
                      "rw.component-limitations.strongholds")


def _narrate_effect(dev: str, effect: Effect, trace: Trace, corpus: Corpus) -> None:
    if dev == "cursed-tomb":
        trace.step(f"(a) Fortifications: the defender discards the Cursed Tomb; the attacker must rout "
                   f"{plural(len(effect.routed), 'unit')} ({figure_names(list(effect.routed))}), taking his standing "
                   f"undamaged units first, in the order listed (his choice).", cursed_tomb)
    elif dev == "hungry-spawn":
        amount = corpus.fact("rw.developments.hungry-spawn", "damage_dealt")
        if effect.unknown_loss:
            trace.step(f"(a) Fortifications: the defender discards the Hungry Spawn and deals the attacker {amount} "
                       "damage; without the units' health the units it destroys are not known, so the attacker "
                       f"loses between 0 and {effect.unknown_loss} strength.", hungry_spawn)
        else:
            trace.step(f"(a) Fortifications: the defender discards the Hungry Spawn and deals the attacker {amount} "
                       f"damage, assigned under the normal damage rules in the order listed (his choice): "
                       f"destroyed {figure_names(list(effect.destroyed))}.", hungry_spawn, dmg.is_destroyed)
    elif dev == "protective-wards":
        moved = (f"{figure_names(list(effect.retreated))} (the first standing unit listed; the book leaves the pick to "
                 f"him)" if effect.retreated else "no unit (none is standing)")
        trace.step(f"(a) Fortifications: the Protective Wards make the attacker retreat {moved} out of the battle; "
                   f"it adds nothing to his strength.", protective_wards)
    else:
        trace.step(f"(a) Fortifications: the Reinforced Walls give the defender +{effect.defender_bonus} strength "
                   f"when the winner is determined.", reinforced_walls)


def _count_text(units: Sequence[BattleUnit]) -> str:
    standing = sum(1 for u in units if not u.routed)
    hexes = sum(1 for u in units if u.routed and u.unit_class == "hexagon")
    other = sum(1 for u in units if u.routed and u.unit_class != "hexagon")
    text = plural(standing, "standing unit")
    if hexes:
        text += f" + {plural(hexes, 'routed hexagon unit')}"
    if other:
        text += f" ({plural(other, 'routed unit')} not counted)"
    return text


SIDES = {"attacker": "The attacker", "defender": "The defender"}
LABELS: dict[str, Label] = {
    "attacker_strength": "Attacker's strength", "defender_strength": "Defender's strength",
    "winner": ("Winner", SIDES),
    "stronghold": ("Stronghold", {"none": "None in the area", "kept": "Kept as it is", "damaged": "Damaged",
                                  "conquered": "Conquered"}),
    "retreating": ("Retreats", SIDES), "development_used": "Development used",
    "development_effect": "Development's effect", "if_not_used": "If the development is not used",
    "attacker_strength_range": "Attacker's strength (range)", "units_beyond_limit": "Units beyond the limit of 8",
    "over_limit_retreat": "Units retreating beyond the limit", "retreat_to": "Loser retreats to",
    "retreat_options": "Areas the loser may retreat to", "retreat_destroyed": "Loser's units destroyed (nowhere to go)",
}


class DevelopmentEffect(Outcome):
    """The attacker's units the defensive development routed, destroyed or made retreat."""

    routed: list[str]
    destroyed: list[str]
    retreated: list[str]


class IfNotUsed(Outcome):
    """The battle as it ends if the defender keeps his development."""

    attacker_strength: int
    defender_strength: int
    winner: Role | None


def _absent(value: object) -> bool:
    return value is None


class BattleOutcome(Outcome):
    """Both sides' strength, the winner, the stronghold's fate and who retreats."""

    attacker_strength: int | None = None
    defender_strength: int | None = None
    winner: Role | None = None
    stronghold: StrongholdState | None = None
    retreating: Role | None = None
    development_used: bool | None = Field(None, exclude_if=_absent)
    development_effect: DevelopmentEffect | None = Field(None, exclude_if=_absent)
    if_not_used: IfNotUsed | None = Field(None, exclude_if=_absent)
    attacker_strength_range: list[int] | None = Field(None, exclude_if=_absent)
    retreat_to: str | None = Field(None, exclude_if=_absent)
    retreat_options: list[str] | None = Field(None, exclude_if=_absent)
    retreat_destroyed: bool | None = Field(None, exclude_if=_absent)
    units_beyond_limit: int | None = Field(None, exclude_if=_absent)
    over_limit_retreat: list[str] | None = Field(None, exclude_if=_absent)


def _summary(pos: BattlePosition, out: BattleOutcome, trace: Trace) -> str:
    """One sentence: who wins the battle at what strengths, the stronghold, and who retreats."""
    att, dfd = pos.attacker, pos.defender
    a_name = f"the attacker ({faction_name(att.faction)})" if att.faction else "the attacker"
    d_fac = dfd.faction
    d_name = ("the neutral units" if d_fac == "neutral" else
              f"the defender ({faction_name(d_fac)})" if d_fac else "the defender")
    names_of = {"attacker": a_name, "defender": d_name}
    ds = out.defender_strength
    if out.winner is None:
        lo, hi = out.attacker_strength_range or (None, None)
        return (f"The winner depends on which units take the Hungry Spawn's damage: {a_name} ends with {lo} to "
                f"{hi} strength against {ds}, and the defender wins ties.")
    as_ = out.attacker_strength if out.attacker_strength is not None else \
        "/".join(map(str, out.attacker_strength_range or []))
    winner, loser = out.winner, str(out.retreating)
    w_name = names_of[winner][:1].upper() + names_of[winner][1:]
    score = f"{as_} to {ds}" if winner == "attacker" else f"{ds} to {as_}"
    tie = " (ties go to the defender)" if out.attacker_strength == ds else ""
    castle = {"conquered": "; the stronghold is conquered", "damaged": "; the stronghold is damaged",
              "kept": "; the stronghold stays as it is"}.get(str(out.stronghold), "")
    beyond = out.units_beyond_limit or 0
    extra = f"; {plural(beyond, 'attacking unit')} beyond the limit of 8 must also retreat" if beyond else ""
    many = names_of[loser] == "the neutral units"
    verb = "retreat" if many else "retreats"
    wins = "win" if names_of[winner] == "the neutral units" else "wins"
    dev = dfd.development
    if any(d.field == "defender.use_development" for d in trace.decisions) and dev:
        w_name = f"If the defender uses his {DEV_NAME[dev]} (he may still decline), {names_of[winner]}"
    if out.retreat_destroyed:
        where = f": no adjacent area can take {'them' if many else 'his units'}, so they are destroyed"
    elif out.retreat_to:
        where = f" to {out.retreat_to}"
    elif out.retreat_options:
        pick = next((d.who for d in trace.decisions if d.field == "retreat_to"), "the loser")
        where = f" to {' or '.join(out.retreat_options)} ({pick} picks)"
    else:
        where = " (where is still to be chosen)"
    return f"{w_name} {wins} the battle {score}{tie}{castle}, and {names_of[loser]} {verb}{where}{extra}."


@dataclass
class Battle:
    """The battle as the steps work it out: both sides' units, the stronghold, the development and the tally."""

    pos: BattlePosition
    attackers: list[BattleUnit]
    defenders: list[BattleUnit]
    dev: str | None
    used: bool
    asked: bool  # the defender was not asked whether he uses an optional development
    result: Tally | None = None

    @property
    def stronghold(self) -> Stronghold | None:
        """Return the defender's stronghold in the area."""
        return self.pos.defender.stronghold

    @property
    def conquer(self) -> bool:
        """Return whether the attacker has the Conquer Supremacy Bonus."""
        return bool(self.pos.attacker.conquer_supremacy)

    @property
    def tally(self) -> Tally:
        """Return the tally once strength is counted."""
        assert self.result is not None
        return self.result


@rule("rw.battles", "rw.battles.6")
def _announce(battle: Battle, trace: Trace) -> None:
    """The battle and its sides, before strength is tallied."""
    a_name = _side_name(battle.pos.attacker.faction, "attacker")
    d_name = _side_name(battle.pos.defender.faction, "defender")
    stronghold = battle.stronghold
    trace.step(f"Battle: {a_name} with {plural(len(battle.attackers), 'participating unit')} against {d_name} with "
               f"{plural(len(battle.defenders), 'participating unit')}"
               + (f" and a {'damaged ' if stronghold.damaged else ''}stronghold" if stronghold else "")
               + "; after the rounds of combat both sides tally their strength.",
               "rw.battles", "rw.battles.6")


@rule("rw.battles.6a")
def _fortifications(battle: Battle, trace: Trace, corpus: Corpus) -> bool:
    """Step 6a, Fortifications: the defensive development (checked, perhaps declined) and what it does; return
    whether the battle can be tallied."""
    dev, used = battle.dev, battle.used
    if dev:
        _check_development(dev, battle.pos.defender.faction, battle.stronghold, trace, corpus)
        if trace.violations:
            return False
    if battle.asked:
        assert dev is not None
        trace.decide("defender", f"whether to discard the {DEV_NAME[dev]} to use it (the ruling assumes he does)",
                     "rw.battles.6a", DEV_RULE[dev], options=[True, False], field="defender.use_development")
    picked = picked_effect(dev if used else None, battle.attackers, battle.pos.attacker.development_choices, corpus)
    if picked is not None and picked[0] is None:
        trace.violations.extend(picked[1].violations)
        trace.steps.extend(picked[1].steps)
        return False
    battle.result = tally(battle.attackers, battle.defenders, battle.stronghold, battle.conquer,
                          dev if used else None, corpus, picked[0] if picked else None)
    if dev and used:
        _narrate_effect(dev, battle.tally.effect, trace, corpus)
        trace.steps.extend(picked[1].steps if picked else [])
    elif dev:
        trace.step(f"(a) Fortifications: the defender does not use his {DEV_NAME[dev]}.", "rw.battles.6a")
    else:
        trace.step("(a) Fortifications: the defender has no defensive development in the area.", "rw.battles.6a")
    return True


def _count_units(battle: Battle, trace: Trace) -> None:
    """Step 6b, Count units: standing units and routed hexagon units add 1 strength each."""
    result, a_left = battle.tally, battle.tally.effect.units
    hex_cite = ["rw.unit-classes.hexagon"] if any(u.routed and u.unit_class == "hexagon"
                                               for u in (*a_left, *battle.defenders)) else []
    trace.step(f"(b) Count units: the attacker has {_count_text(a_left)}, strength {result.attacker_units}; the "
               f"defender has {_count_text(battle.defenders)}, strength {result.defender_units}.",
               unit_strength, *hex_cite)


@rule("rw.battles.6c", "rw.term.strength")
def _count_stronghold(battle: Battle, trace: Trace, corpus: Corpus) -> None:
    """Step 6c, Stronghold: the defender adds his stronghold's strength; then both totals."""
    result, stronghold = battle.tally, battle.stronghold
    if stronghold is None:
        trace.step("(c) Stronghold: the defender has no stronghold in the area, so nothing is added.", "rw.battles.6c")
    elif battle.conquer:
        cut = corpus.fact("rw.conquer-order.supremacy", "enemy_stronghold_strength_reduction")
        trace.step(f"(c) Stronghold: its strength {stronghold.strength} counts {cut} less against the attacker's "
                   f"Conquer Supremacy Bonus, so it adds {result.stronghold} (a stronghold never adds less than 0).",
                   stronghold_strength, conquer_reduction)
    else:
        trace.step(f"(c) Stronghold: the defender adds its strength, {result.stronghold}.", stronghold_strength)
    bonus = f" + {result.effect.defender_bonus} (Reinforced Walls)" if result.effect.defender_bonus else ""
    trace.step(f"Strength: attacker {result.attacker}; defender {result.defender_units} + {result.stronghold}{bonus} "
               f"= {result.defender}.", "rw.term.strength", *([reinforced_walls] if bonus else []))


def _record_tally(battle: Battle, out: BattleOutcome, corpus: Corpus) -> None:
    """The strengths, whether the development was used, what it did, and the battle without it."""
    result = battle.tally
    effect = result.effect
    out.attacker_strength, out.defender_strength = result.attacker, result.defender
    out.development_used = battle.used
    if battle.used and (effect.routed or effect.destroyed or effect.retreated):
        out.development_effect = DevelopmentEffect(routed=list(effect.routed), destroyed=list(effect.destroyed),
                                                   retreated=list(effect.retreated))
    if battle.asked and battle.used:
        alt = tally(battle.attackers, battle.defenders, battle.stronghold, battle.conquer, None, corpus)
        out.if_not_used = IfNotUsed(attacker_strength=alt.attacker, defender_strength=alt.defender,
                                    winner=_role(alt.winner))


def _role(side: str | None) -> Role | None:
    return "attacker" if side == "attacker" else "defender" if side == "defender" else None


@rule("rw.dealing-damage-to-units")
def _unknown_loss(battle: Battle, out: BattleOutcome, trace: Trace) -> bool:
    """With a unit's health unknown, the Hungry Spawn's loss is a range; return whether the winner is still open."""
    result = battle.tally
    unknown = result.effect.unknown_loss
    if not unknown:
        return False
    lo = result.attacker - unknown
    out.attacker_strength = None
    out.attacker_strength_range = [lo, result.attacker]
    blank = next(i for i, u in enumerate(battle.pos.attacker.units) if u.health is None)
    trace.decide("attacker", "the units that take the Hungry Spawn's damage (give each unit's health to "
                 "settle it)", hungry_spawn, "rw.dealing-damage-to-units",
                 field=f"attacker.units[{blank}].health")
    if result.winner is None:
        trace.step(f"The winner depends on those units: the attacker ends with between {lo} and "
                   f"{result.attacker} strength against {result.defender}, and the defender wins ties.",
                   is_attacker_winner)
        return True
    trace.step(f"Whatever the damage destroys, the attacker ends with between {lo} and {result.attacker} "
               f"strength against {result.defender}.", is_attacker_winner)
    return False


@rule("rw.developments.limit")
def _winner(battle: Battle, out: BattleOutcome, trace: Trace, corpus: Corpus) -> tuple[Role, Role]:
    """Step 7, the higher strength wins (the defender wins ties); step 7a, the stronghold's fate."""
    result, stronghold = battle.tally, battle.stronghold
    winner = _role(result.winner)
    assert winner is not None
    loser: Role = "defender" if winner == "attacker" else "attacker"
    tie = result.attacker == result.defender
    trace.step("Tie: the defender wins ties." if tie else f"The {winner} has the higher strength and wins the battle.",
               is_attacker_winner)
    standing = sum(1 for u in result.effect.units if not u.routed)
    unknown = result.effect.unknown_loss
    damage_dealt = int(corpus.fact("rw.developments.hungry-spawn", "damage_dealt")) if unknown else 0
    state: StrongholdState | None = stronghold_result(stronghold is not None, winner == "attacker", standing > 0)
    if unknown and state == "damaged" and standing <= damage_dealt:
        state = None
        trace.step("Whether standing enemy units remain, and so whether the stronghold is damaged, depends on the "
                   "units the Hungry Spawn destroys.", stronghold_result)
    out.winner, out.stronghold, out.retreating = winner, state, loser
    texts = {"none": "(a) Stronghold: there is no stronghold to damage or conquer.",
             "conquered": "(a) Stronghold: the attacker removes the defender's stronghold and may put one of his own "
                          "there, damaged side up.",
             "damaged": "(a) Stronghold: standing enemy units are present, so the defender turns his stronghold to "
                        "its damaged side" + (" (it stays damaged)." if stronghold and stronghold.damaged else "."),
             "kept": "(a) Stronghold: no standing enemy unit is present, so the stronghold stays as it is."}
    if state is not None:
        trace.step(texts[state], stronghold_result)
    if state == "conquered" and battle.dev:
        trace.step(f"The {DEV_NAME[battle.dev]} on the conquered stronghold is destroyed with it.",
                   "rw.developments.limit")
    return winner, loser


@rule("rw.battles.7b", "rw.battles.7c", "rw.retreats.routed", "rw.battles.7c.routed-may-retreat",
      "rw.battles.7c.non-participants", "rw.battles.7d")
def _aftermath(battle: Battle, winner: Role, loser: Role, trace: Trace) -> None:
    """Steps 7b-7d: heal, the loser retreats, the winner puts his units back."""
    trace.step("(b) Heal: both players remove all damage tokens from their units.", "rw.battles.7b")
    neutral = loser == "defender" and battle.pos.defender.faction == "neutral"
    where = "rw.retreats.neutral" if neutral else "rw.retreats.player-units"
    trace.step(f"(c) The {loser} loses: all his participating units retreat together into 1 adjacent area and are "
               f"routed (units routed during the battle may retreat too); his units in the area that took no part "
               f"are destroyed.", "rw.battles.7c", "rw.retreats.routed", where, "rw.battles.7c.routed-may-retreat",
               "rw.battles.7c.non-participants")
    trace.step(f"(d) The {winner} puts his surviving units back in the area (units routed in the battle stay routed) "
               f"and removes the battle marker.", "rw.battles.7d")


@rule("rw.movement-restrictions.unit-limit.battle", "rw.retreats")
def _over_limit(battle: Battle, winner: Role, out: BattleOutcome, trace: Trace, corpus: Corpus) -> None:
    """A winning attacker with more than 8 units in the area retreats the extra ones, all to a single area."""
    a_left = battle.tally.effect.units
    limit = int(corpus.fact("rw.movement-restrictions.unit-limit", "max_units_per_area"))
    beyond = max(0, len(a_left) - limit) if winner == "attacker" else 0
    out.units_beyond_limit = beyond
    if not beyond:
        return
    trace.step(f"The attacker won with {len(a_left)} units in the area, more than {limit}: {beyond} of them must "
               f"retreat, all to a single area.", "rw.movement-restrictions.unit-limit.battle")
    chosen = battle.pos.attacker.over_limit_retreat
    if chosen is None:
        trace.decide("attacker", f"{plural(beyond, 'unit')} to retreat out of the area (all to a single area)",
                     "rw.movement-restrictions.unit-limit.battle", "rw.retreats",
                     options=[u.id for u in a_left], field="attacker.over_limit_retreat")
        return
    ids = [u.id for u in a_left]
    strangers = [c for c in chosen if c not in ids]
    if strangers or len(set(chosen)) != len(chosen) or len(chosen) != beyond:
        trace.violate(f"{plural(beyond, 'unit')} beyond the limit must retreat, one each of the attacker's "
                      f"surviving units; the position names {figure_names(list(chosen))}"
                      + (f" ({figure_names(strangers)} not among them)" if strangers else ""),
                      "rw.movement-restrictions.unit-limit.battle")
        return
    out.over_limit_retreat = list(chosen)
    trace.step(f"{figure_names(list(chosen))} retreat out of the area, all to a single area.",
               "rw.movement-restrictions.unit-limit.battle", "rw.retreats")


@situation(GAME, "battle", BattlePosition, labels=LABELS)
@summarized(_summary)
def resolve_battle(pos: BattlePosition, trace: Trace, corpus: Corpus) -> BattleOutcome:
    """Tally a battle's strength and resolve it: units, routed hexagons, stronghold, developments, ties, retreat."""
    dev, use = pos.defender.development, pos.defender.use_development
    used = bool(dev) and use is not False
    asked = bool(dev and use is None and corpus.facts_of(DEV_RULE[dev]).get("optional"))
    battle = Battle(pos, units_from(pos.attacker.units), units_from(pos.defender.units), dev, used, asked)
    out = BattleOutcome()
    _announce(battle, trace)
    if not _fortifications(battle, trace, corpus):
        return out
    _count_units(battle, trace)
    _count_stronghold(battle, trace, corpus)
    _record_tally(battle, out, corpus)
    if _unknown_loss(battle, out, trace):
        return out
    winner, loser = _winner(battle, out, trace, corpus)
    _aftermath(battle, winner, loser, trace)
    retreat_destination(battle, loser, trace, out)
    _over_limit(battle, winner, out, trace, corpus)
    return out


# ------------------------------------------------------------------ 0.2: the attacker's picks, the retreat's area

@rule("rw.developments.cursed-tomb", "rw.developments.hungry-spawn", "rw.routed-units-and-heroes.routs",
      "rw.dealing-damage-to-units.damaged-first")
def picked_effect(development: str | None, units: Sequence[BattleUnit], picks: Sequence[str] | None,
                  corpus: Corpus) -> tuple[Effect | None, Trace] | None:
    """Return the Cursed Tomb's or Hungry Spawn's effect with the attacker's own picks (the units he routs, or the
    unit taking each damage point), checked against the rout and damage rules, and the steps saying so; the effect
    is None (the trace holding the violation) when a pick breaks them; None when there are no picks to apply."""
    if picks is None or development not in ("cursed-tomb", "hungry-spawn"):
        return None
    tomb = development == "cursed-tomb"
    if not tomb:
        for i, u in enumerate(units):
            if u.health is None:
                raise UnreadableInputError(f"unit {u.id!r} needs its health to check where the Hungry Spawn's damage "
                                           f"goes", path=f"attacker.units[{i}].health")
    routs = int(corpus.fact("rw.developments.cursed-tomb", "opponent_routs")) if tomb else 0
    damage = 0 if tomb else int(corpus.fact("rw.developments.hungry-spawn", "damage_dealt"))
    scratch = Trace()
    pool = dmg.Pool([u.as_damage_unit() for u in units])
    if not dmg.check_proposal(pool, list(picks), routs, damage, scratch):
        return None, scratch
    if tomb:
        hit = set(pool.newly_routed)
        return Effect(tuple(replace(u, routed=True) if u.id in hit else u for u in units),
                      routed=tuple(pool.newly_routed)), scratch
    gone = set(pool.destroyed)
    return Effect(tuple(replace(u, damage=pool.damage[u.id]) for u in units if u.id not in gone),
                  destroyed=tuple(pool.destroyed)), scratch


def _loser(battle: Battle, loser: str) -> tuple[str | None, list[BattleUnit]]:
    """Return the losing side's owner (a faction, ``neutral``, or None when not stated) and its retreating units."""
    if loser == "attacker":
        return battle.pos.attacker.faction, list(battle.tally.effect.units)
    return battle.pos.defender.faction, list(battle.defenders)


@rule("rw.retreats", "rw.battles.7c", "rw.retreats.neutral", "rw.retreats.player-units")
def retreat_destination(battle: Battle, loser: str, trace: Trace, out: BattleOutcome) -> None:
    """Where the loser's participating units retreat: on the battle's map, the areas the retreat rules allow
    (friendly first, else empty; uncontrolled for neutral units; borders permitting), named when the rules leave
    one, asked of the right player when they leave several, none when they leave none; without a map, the area
    the position names, or a decision."""
    pos = battle.pos
    owner, units = _loser(battle, loser)
    neutral = owner == "neutral"
    who = left_of(pos.attacker.faction) if neutral else (the_player(owner) if owner else f"the {loser}")
    where = "rw.retreats.neutral" if neutral else "rw.retreats.player-units"
    if pos.map is not None and pos.area is not None and owner is not None:
        board = Map.of(pos.map)
        reach = retreat_areas(board, pos.area, owner, [bool(u.flying) for u in _flying(pos, loser, units)],
                              pos.season)
        out.retreat_options = list(reach.options)
        narrate_options(reach, pos.area, owner, pos.season, trace)
        dest = pick_destination(reach, pos.retreat_to, "retreat_to", who, trace)
        out.retreat_to = dest
        if not reach.options:
            out.retreat_destroyed = True
        elif dest is not None:
            how = "as stated" if pos.retreat_to else "the only area the rules allow"
            trace.step(f"The {loser}'s participating units retreat together to {dest} ({how}).", "rw.retreats",
                       where)
        return
    if pos.retreat_to is not None:
        out.retreat_to = pos.retreat_to
        must = ("an adjacent uncontrolled area, picked by the player on the current player's left" if neutral else
                "an adjacent friendly area, or an empty one when none is friendly")
        trace.step(f"The {loser}'s participating units retreat together to {pos.retreat_to}, as stated (it must be "
                   f"{must}).", "rw.retreats", where)
        return
    must = ("an adjacent uncontrolled area" if neutral else
            "an adjacent friendly area, or an empty one when none is friendly")
    trace.decide(who, f"the area the {loser}'s units retreat to ({must}; set up the map around the battle to see "
                 "which)", "rw.retreats", where, field="retreat_to")


@dataclass(frozen=True)
class _Flier:
    flying: bool | None


def _flying(pos: BattlePosition, loser: str, units: Sequence[BattleUnit]) -> list[_Flier]:
    """Return whether each retreating unit flies (a border closed to one of them is closed to the group)."""
    raw = pos.attacker.units if loser == "attacker" else pos.defender.units
    flies = {BattleUnit.of(u, i).id: bool(u.flying) for i, u in enumerate(raw)}
    return [_Flier(flies.get(u.id, False)) for u in units]
