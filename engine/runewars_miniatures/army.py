"""RuneWars Miniatures army building: points limit, one faction, upgrade slots, unique names and units.

Paragraphs: ``rwm.army-building.points`` (at most 200 points, or the agreed value), ``.units`` (one
faction, a configuration from the costing table), ``.upgrades``/``rwm.88.6``/``rwm.88.7`` (unit-type and
faction icons), ``.upgrade-slots``/``rwm.88``/``rwm.89`` (1 card per matching upgrade icon of the chosen
configuration), ``rwm.86.1`` (1 card per unique name), ``rwm.86.2``/``.unique-units`` (1 unique unit per
100 points), ``.characters`` (a character card's own rules take priority).

``units[i].army_rules_met`` states the players' reading of a character card's own army rule (true: met;
false: the army is illegal); without it the ruling asks. So do an upgrade card's ``icon`` and a configuration's
``upgrade_icons`` when left out (a BattleScribe roster states neither): unknown is asked, never read as none.
Unique names are compared as names: a bracketed qualifier ("Lord Hawthorne (Infantry Upgrade)") is not part of one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, choices, maybe
from engine.runewars_miniatures.common import (
    GAME,
    Faction,
    Game,
    Name,
    UnitType,
    UpgradeIcon,
    article,
    faction_name,
    nullable,
    plural,
    possessive,
)


class UpgradeCard(Model):
    """An upgrade card equipped to a unit."""

    name: Name
    icon: UpgradeIcon | None = maybe()
    cost: int = Field(ge=0, le=200)
    faction: Faction | None = nullable()
    unit_type: UnitType | None = nullable()
    unique: bool | None = maybe()


class Configuration(Model):
    """The row of the unit's costing table it is bought in: trays, cost and the upgrade icons it shows."""

    trays: int = Field(ge=1, le=30)
    cost: int = Field(ge=0, le=999)
    upgrade_icons: list[UpgradeIcon] | None = maybe(max_length=20)


class ArmyUnit(Model):
    """A unit in an army list: its card and the configuration it is bought in."""

    name: Name
    faction: Faction | None = maybe()
    type: UnitType | None = maybe()
    unique: bool | None = maybe()
    configuration: Configuration
    upgrades: list[UpgradeCard] | None = maybe(max_length=20)
    army_rules: str | None = maybe(max_length=1000)
    army_rules_met: bool | None = maybe()

    @property
    def trays(self) -> int:
        """Return the trays of the configuration bought."""
        return self.configuration.trays

    @property
    def cost(self) -> int:
        """Return the configuration's cost."""
        return self.configuration.cost

    @property
    def icons(self) -> list[str]:
        """Return the upgrade icons the configuration shows."""
        return list(self.configuration.upgrade_icons or [])

    @property
    def cards(self) -> list[UpgradeCard]:
        """Return the upgrade cards equipped."""
        return list(self.upgrades or [])


class ArmyPosition(OpenPosition):
    """An army list: its units, their configurations and upgrades, and the points limit agreed."""

    game: Game
    situation: Literal["army"]
    points_limit: int | None = maybe(ge=0, le=5000)
    faction: Faction | None = maybe()
    units: list[ArmyUnit] = Field(max_length=60)

    def reading(self) -> list[str]:
        """Return the army's faction and points limit, then each unit with its cost and upgrades."""
        head = faction_name(self.faction) + " army" if self.faction else "Army of no stated faction"
        out = [f"{head}, points limit {self.points_limit if self.points_limit is not None else 'not stated'}."]
        for u in self.units:
            facts = [faction_name(u.faction)] if u.faction and u.faction != self.faction else []
            facts += [w for w in (u.type, "unique" if u.unique else "") if w]
            facts += [plural(u.trays, "tray"), f"{u.cost} points"]
            if u.icons:
                facts.append("upgrade icons " + ", ".join(u.icons))
            cards = ", ".join(f"{c.name} ({c.icon}, {c.cost})" for c in u.cards)
            text = f"{u.name}: " + ", ".join(facts) + (f"; upgrades {cards}" if cards else "")
            if u.army_rules_met is not None:
                text += f"; the players agree its own army rule {'is' if u.army_rules_met else 'is not'} met"
            out.append(text + ".")
        return out


class ArmyOutcome(Outcome):
    """The army's points against the limit and its unique units against those allowed."""

    points: int
    points_limit: int
    unique_units: int
    unique_unit_limit: int
    violations: list[str] = Field(default_factory=list)


# ------------------------------------------------------------------------------------------ rules

@rule("rwm.army-building.points", "rwm.army-building.units", "rwm.army-building.upgrades")
def army_points(units: Sequence[ArmyUnit]) -> int:
    """Return the army's points: each unit's configuration cost plus the cost of every upgrade card."""
    return sum(u.cost + sum(c.cost for c in u.cards) for u in units)


@rule("rwm.army-building.points", "rwm.setup.1")
def is_within_limit(points: int, limit: int) -> bool:
    """Return whether the army costs no more than the points limit (exactly the limit is allowed)."""
    return points <= limit


@rule("rwm.army-building.units", "rwm.37")
def same_faction(unit_faction: str | None, army_faction: str | None) -> bool:
    """Return whether a unit belongs to the army's one faction."""
    return unit_faction is None or army_faction is None or unit_faction == army_faction


@rule("rwm.army-building.upgrades", "rwm.88.7")
def upgrade_faction_ok(card: UpgradeCard, army_faction: str | None) -> bool:
    """Return whether a card with a faction icon is in an army of that faction."""
    return card.faction is None or army_faction is None or card.faction == army_faction


@rule("rwm.army-building.upgrades", "rwm.88.6")
def upgrade_type_ok(card: UpgradeCard, unit_type: str | None) -> bool:
    """Return whether a card with a unit-type icon is equipped to a unit of that type."""
    return card.unit_type is None or unit_type is None or card.unit_type == unit_type


@rule("rwm.army-building.upgrade-slots", "rwm.88", "rwm.89")
def overfilled_icons(unit: ArmyUnit, corpus: Corpus) -> dict[str, tuple[int, int]]:
    """Return {icon: (cards, slots)} for every icon with more cards than the configuration's icons allow:
    1 card per matching icon in the Available Upgrades entry."""
    per_icon = int(corpus.fact("rwm.army-building.upgrade-slots", "upgrade_cards_per_available_icon"))
    slots = Counter(unit.icons)
    cards = Counter(c.icon for c in unit.cards if c.icon is not None)
    return {icon: (n, slots[icon] * per_icon) for icon, n in cards.items() if n > slots[icon] * per_icon}


@rule("rwm.86.2", "rwm.army-building.unique-units")
def unique_unit_limit(points_limit: int, corpus: Corpus) -> int:
    """Return how many unique units the army may include: 1 for every 100 points allowed."""
    return points_limit // int(corpus.fact("rwm.86.2", "points_per_unique_unit"))


def unique_name(name: str) -> str:
    """Return the name a card bears as a name: a trailing qualifier in brackets is not part of it, so
    "Lord Hawthorne (Infantry Upgrade)" and "Lord Hawthorne" bear the same name."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", name).strip().casefold() or name.casefold()


@rule("rwm.86.1", "rwm.86")
def repeated_unique_names(units: Sequence[ArmyUnit], corpus: Corpus) -> list[str]:
    """Return the unique names borne by more than 1 card of the army, units and upgrades alike."""
    most = int(corpus.fact("rwm.86.1", "max_cards_per_unique_name"))
    cards: list[tuple[str, bool]] = []
    for u in units:
        cards.append((u.name, bool(u.unique)))
        cards.extend((c.name, bool(c.unique)) for c in u.cards)
    counts = Counter(unique_name(name) for name, _ in cards)
    unique = {unique_name(name) for name, is_unique in cards if is_unique}
    seen: dict[str, str] = {}
    for name, _ in cards:
        seen.setdefault(unique_name(name), name)
    return [seen[key] for key in seen if key in unique and counts[key] > most]


# ----------------------------------------------------------------------------------- resolution

def _characters(units: Sequence[ArmyUnit]) -> tuple[list[str], list[str]]:
    """Return (characters whose own army rule the players judge met, those still to be judged)."""
    met = [u.name for u in units if u.army_rules and u.army_rules_met]
    open_ = [u.name for u in units if u.army_rules and u.army_rules_met is None]
    return met, open_


@rule("rwm.army-building.characters", "rwm.golden-rules.2", "rwm.army-building.units")
def _check_faction(unit: ArmyUnit, units: Sequence[ArmyUnit], faction: str | None, trace: Trace) -> None:
    """A unit of another faction: illegal, unless a character's own army rule (judged met) admits it."""
    if same_faction(unit.faction, faction):
        return
    words = (f"{unit.name} is {article(faction_name(unit.faction))} {faction_name(unit.faction)} unit in "
             f"{article(faction_name(faction))} {faction_name(faction)} army")
    met, open_ = _characters([u for u in units if u is not unit])
    if met:
        trace.step(f"{words}: army building keeps an army to one faction, but the players agree the army meets "
                   f"{possessive(met[0])} own army rule, and a character's own rule takes priority over army "
                   "building, so this unit is allowed.", "rwm.army-building.characters", "rwm.golden-rules.2",
                   "rwm.army-building.units")
    elif open_:
        trace.step(f"{words}: allowed only if {possessive(open_[0])} own army rule admits it, which the players "
                   "still judge (a character's own rule takes priority over army building).",
                   "rwm.army-building.characters", "rwm.golden-rules.2")
    else:
        trace.violate(f"{words}; every unit of an army belongs to the same faction", same_faction)


@rule("rwm.army-building.characters", "rwm.golden-rules.2")
def _check_unit(unit: ArmyUnit, faction: str | None, trace: Trace, corpus: Corpus, index: int = 0,
                units: Sequence[ArmyUnit] = ()) -> None:
    """Record the faction, upgrade-icon and upgrade-restriction checks of one unit."""
    _check_faction(unit, units, faction, trace)
    for card in unit.cards:
        if not upgrade_faction_ok(card, faction):
            trace.violate(f"{card.name} shows the {faction_name(card.faction)} faction icon and cannot be used in "
                          f"{article(faction_name(faction))} {faction_name(faction)} army", upgrade_faction_ok)
        if not upgrade_type_ok(card, unit.type):
            trace.violate(f"{card.name} shows the {card.unit_type} unit-type icon and cannot be equipped to "
                          f"{unit.name}, {article(unit.type or 'other')} {unit.type} unit", upgrade_type_ok)
    for j, card in enumerate(unit.cards):
        if card.icon is None:
            trace.decide("players", f"which upgrade icon {card.name} shows", overfilled_icons,
                         options=choices(UpgradeIcon), field=f"units[{index}].upgrades[{j}].icon")
    if unit.cards and unit.configuration.upgrade_icons is None:
        trace.decide("players", f"which upgrade icons {unit.name}'s configuration ({plural(unit.trays, 'tray')}) "
                     "shows", overfilled_icons, field=f"units[{index}].configuration.upgrade_icons")
        _army_rules(unit, trace, index)
        return
    over = overfilled_icons(unit, corpus)
    for icon, (cards, slots) in over.items():
        trace.violate(f"{unit.name} ({plural(unit.trays, 'tray')}) equips {plural(cards, icon + ' upgrade')} "
                      f"but its configuration shows {plural(slots, icon + ' icon')}", overfilled_icons)
    if unit.cards and not over:
        icons = ", ".join(c.icon or "icon not stated" for c in unit.cards)
        trace.step(f"{unit.name} ({plural(unit.trays, 'tray')}, {unit.cost} points): its upgrades ({icons}) "
                   f"each fill a matching icon of its configuration.", overfilled_icons)
    _army_rules(unit, trace, index)


@rule("rwm.army-building.characters", "rwm.golden-rules.2")
def _army_rules(unit: ArmyUnit, trace: Trace, index: int) -> None:
    """Record a character card's own army rule: applied by the players, asked when not stated."""
    if unit.army_rules:
        trace.step(f"{possessive(unit.name)} card changes what the army may contain; its own rules take priority over "
                   f"army building and are not applied here: {unit.army_rules}",
                   "rwm.army-building.characters", "rwm.golden-rules.2")
        if unit.army_rules_met is None:
            trace.decide("players", f"whether this army meets {possessive(unit.name)} own army rule (true or false)",
                         "rwm.army-building.characters", options=(True, False),
                         field=f"units[{index}].army_rules_met")
        elif unit.army_rules_met:
            trace.step(f"The players agree that the army meets {possessive(unit.name)} own army rule.",
                       "rwm.army-building.characters")
        else:
            trace.violate(f"the army does not meet {possessive(unit.name)} own army rule: {unit.army_rules}",
                          "rwm.army-building.characters")


LABELS: dict[str, Label] = {
    "points": "Points", "points_limit": "Points limit", "unique_units": "Unique units",
    "unique_unit_limit": "Unique units allowed",
}


def _summary(pos: ArmyPosition, out: ArmyOutcome, trace: Trace) -> str:
    """One sentence: the army is legal at so many points (or waits on a card's own rule)."""
    text = f"The army is legal: {out.points} of {out.points_limit} points"
    pending = [d for d in trace.decisions if d.field.endswith("army_rules_met")]
    icons = [d for d in trace.decisions if d.field.endswith(("icon", "upgrade_icons"))]
    if icons:
        text = (f"The army is within its points at {out.points} of {out.points_limit}; its upgrade slots are "
                f"checked once the players state {plural(len(icons), 'missing icon')}")
    elif pending:
        text = (f"The army meets every army-building rule at {out.points} of {out.points_limit} points; "
                f"the players still judge {plural(len(pending), 'card')}'s own army rule")
    return text + "."


def _points(pos: ArmyPosition, faction: str | None, limit: int, trace: Trace) -> int:
    """The army's cost (configurations plus upgrade cards) against the points limit."""
    units = pos.units
    points = army_points(units)
    trace.step(f"The army has {plural(len(units), 'unit')}"
               + (f" of the {faction_name(faction)} faction" if faction else "")
               + f" and costs {points} points (configurations plus upgrade cards).", army_points)
    if is_within_limit(points, limit):
        trace.step(f"{points} points is within the {limit}-point limit.", is_within_limit)
    else:
        trace.violate(f"the army costs {points} points, more than the {limit}-point limit", is_within_limit)
    return points


def _unique(pos: ArmyPosition, limit: int, trace: Trace, corpus: Corpus) -> tuple[int, int]:
    """Unique units (1 per 100 points) and unique names (1 card each): return (unique units, allowed)."""
    units = pos.units
    allowed = unique_unit_limit(limit, corpus)
    uniques = [u.name for u in units if u.unique]
    if len(uniques) > allowed:
        trace.violate(f"{plural(len(uniques), 'unique unit')} ({', '.join(uniques)}) but a {limit}-point "
                      f"army may include {allowed}", unique_unit_limit)
    elif uniques:
        trace.step(f"{plural(len(uniques), 'unique unit')}, within the {allowed} a {limit}-point army allows "
                   f"(unique upgrades do not count).", unique_unit_limit)
    for name in repeated_unique_names(units, corpus):
        trace.violate(f"the army contains more than 1 card named {name}, a unique name",
                      repeated_unique_names)
    return len(uniques), allowed


@situation(GAME, "army", ArmyPosition, labels=LABELS)
@summarized(_summary)
@rule("rwm.army-building")
def resolve_army(pos: ArmyPosition, trace: Trace, corpus: Corpus) -> ArmyOutcome:
    """Check an army list: points, faction, upgrade icons and restrictions, unique names and units."""
    limit = pos.points_limit
    if limit is None:
        limit = int(corpus.fact("rwm.army-building.points", "army_points_limit"))
    faction = pos.faction or next((u.faction for u in pos.units if u.faction), None)
    points = _points(pos, faction, limit, trace)
    for i, unit in enumerate(pos.units):
        _check_unit(unit, faction, trace, corpus, i, pos.units)
    uniques, allowed = _unique(pos, limit, trace, corpus)
    if not trace.violations:
        trace.step("Every army-building rule is met.", "rwm.army-building")
    return ArmyOutcome(points=points, points_limit=limit, unique_units=uniques, unique_unit_limit=allowed)
