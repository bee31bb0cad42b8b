"""Rune Age battles: a player's army against a stronghold, a neutral city, an Enemy or an Instant.

Paragraphs: ``ra.conduct-a-battle`` and its steps, ``ra.attrition-die``, the Instant erratum
(``rafaq.errata.rulebook.p10``) and the FAQ on combat legality.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import MAX_ITEMS, Field, Model, OpenPosition, Outcome, labelled, maybe, refuse
from engine.rune_age.scenarios import (
    END_WORDS,
    ENDS_LABEL,
    SCENARIO_NAMES,
    NamedScenario,
    ScenarioEnd,
    is_eliminated,
    scenario_end_field,
    settle_end,
)
from engine.rune_age.words import article, capital, listing, plural, times

MAX_STRENGTH = 99
"""The largest strength a card, a target or a bonus may state (a guard against typing slips, not a rule)."""

CardKind = Literal["unit", "tactic"]
CARD_KINDS = {"unit": "Unit", "tactic": "Tactic"}


class Card(Model):
    """A card played into a combat."""

    name: str = Field(max_length=200, min_length=1)
    strength: int = Field(ge=0, le=MAX_STRENGTH, description="The strength printed on the card (0 for most tactics).")
    kind: CardKind = Field("unit", json_schema_extra=labelled(CARD_KINDS))
    cannot_be_destroyed: bool = False
    wounded: bool = False

    @property
    def is_unit(self) -> bool:
        """Return whether the card is a unit (tactics are not participating units)."""
        return self.kind == "unit"


OUTSIDE_BY_NAME = ("A Time for War", "Battle Cry", "Tact and Diplomacy")
"""The effects the books give a Resolution bonus from without a card of the army (an Event, a tactic already
spent); a bonus naming one of them needs no card of that name in the army."""

BONUS_SOURCE_HELP = (
    "The card the bonus comes from, by its name as it stands in this side's army: the bonus is tied to that "
    "card (one bonus per copy), so a card removed or destroyed before Resolution takes its bonus with it. A "
    "name with no card of that name in the army is unreadable unless the bonus is marked as coming from "
    "outside the army, or names one of the effects the books give a bonus from outside an army ("
    + ", ".join(OUTSIDE_BY_NAME) + ").")


class Bonus(Model):
    """A strength bonus counted at Resolution, and the card of the army (or the effect outside it) it comes from."""

    source: str | None = maybe(BONUS_SOURCE_HELP, max_length=200)
    outside: bool = Field(False, title="From outside the army", description=(
        "The bonus comes from an effect that is not a card of this army (an Event, a tactic already spent, a "
        "Dragon Rune): it counts whatever cards are left, even with no unit left in the combat."))
    strength: int = Field(ge=-MAX_STRENGTH, le=MAX_STRENGTH)

    def tied_to_card(self, army: Sequence[Card]) -> bool:
        """Return whether this bonus comes from a card of *army* (and so goes with that card): not when marked as
        from outside, nor when it names an effect of :data:`OUTSIDE_BY_NAME` that no card of the army bears."""
        if self.outside:
            return False
        return (self.source or "") not in OUTSIDE_BY_NAME or any(c.name == self.source for c in army)


def bonus_problem(army: Sequence[Card], bonuses: Sequence[Bonus], whose: str) -> tuple[str, int, str] | None:
    """Return (message, index, field) for the first bonus of *bonuses* no card of *army* can carry, else None:
    a card bonus must name a card of the army, one bonus per copy of that card."""
    copies = Counter(c.name for c in army)
    for i, bonus in enumerate(bonuses):
        if not bonus.tied_to_card(army):
            continue
        if not bonus.source:
            return (f"a resolution bonus of {bonus.strength} names no card of {whose}; name the card it comes from, "
                    f"or mark it as from outside the army", i, "source")
        if copies[bonus.source] <= 0:
            have = "no card" if bonus.source not in {c.name for c in army} else "no other copy of the card"
            return (f"the resolution bonus from {bonus.source!r} names {have} {bonus.source!r} in {whose}; add the "
                    f"card, or mark the bonus as from outside the army", i, "source")
        copies[bonus.source] -= 1
    return None


FACTION_LABELS = {"daqan": "Daqan", "elves": "Latari Elves", "uthuk": "Uthuk Y'llan", "waiqar": "Waiqar"}
Faction = Annotated[Literal["daqan", "elves", "uthuk", "waiqar"], Field(json_schema_extra=labelled(FACTION_LABELS))]
TargetKind = Literal["enemy", "stronghold", "city", "instant"]
TARGET_KINDS = {"enemy": "An Enemy", "stronghold": "A stronghold", "city": "A neutral city",
                "instant": "An Instant (defending the Home Realm)"}


class Target(Model):
    """What the army attacks: an Enemy, a stronghold, a neutral city, or the Instant it defends against."""

    kind: TargetKind = Field(json_schema_extra=labelled(TARGET_KINDS))
    name: str | None = maybe(max_length=200)
    strength: int = Field(ge=0, le=MAX_STRENGTH, description="The target's printed strength.")
    attrition_icons: int = Field(0, ge=0, le=10)
    faction: Faction | None = maybe()


class BattlePosition(OpenPosition):
    """A Rune Age battle: the army, its target, the attrition rolls and the bonuses counted at Resolution."""

    game: Literal["rune-age"]
    situation: Literal["battle"]
    attacker_faction: Faction | None = maybe()
    target: Target
    army: list[Card] = Field(max_length=MAX_ITEMS)
    attrition_skulls: list[Annotated[int, Field(ge=0, le=10)]] = Field([], max_length=10)
    destroyed_by_attrition: list[Annotated[str, Field(max_length=200)]] = Field([], max_length=MAX_ITEMS)
    resolution_bonuses: list[Bonus] = Field([], max_length=MAX_ITEMS)
    already_attacked_this_round: bool = False
    home_realm_damage_before: int | None = maybe(
        "Against an Instant: the damage already on the defending player's Home Realm, in damage points (left out: "
        "not known, so whether he is eliminated is not ruled).", title="Damage already on the Home Realm",
        ge=0, le=MAX_STRENGTH)
    scenario: NamedScenario | None = maybe("The scenario played (read when the Instant eliminates the player).")
    players_in_game: int | None = maybe("How many players are in the game, the defending player included (read "
                                        "when the Instant eliminates him).", title="Players in the game",
                                        ge=1, le=4)

    def reading(self) -> list[str]:
        """Restate the attacker, the target, the army card by card, the attrition so far and every bonus."""
        t = self.target
        out = [f"Attacker: {faction_name(self.attacker_faction)}."] if self.attacker_faction else []
        owner = f", {article(faction_name(t.faction))} stronghold" if t.kind == "stronghold" and t.faction else ""
        icons = f", {plural(t.attrition_icons, 'attrition icon')}" if t.attrition_icons else ""
        out.append(f"Target: {target_label(t)}{owner}, strength {t.strength}{icons}.")
        if self.already_attacked_this_round:
            out.append("This target was already attacked this round.")
        out.append(f"Army: {army_words(self.army)}.")
        if t.attrition_icons and self.attrition_skulls:
            lost = listing(self.destroyed_by_attrition, "no unit chosen yet")
            out.append(f"Attrition: {plural(sum(self.attrition_skulls), 'skull')} rolled; destroyed: {lost}.")
        elif t.attrition_icons:
            out.append("Attrition: the die is not rolled yet.")
        out.append(bonus_words(self.resolution_bonuses, self.army))
        if t.kind == "instant" and self.home_realm_damage_before is not None:
            out.append(f"Damage already on the Home Realm: {self.home_realm_damage_before}.")
        if self.scenario:
            out.append(f"Scenario: {SCENARIO_NAMES[self.scenario]}.")
        return out

    @model_validator(mode="after")
    def _bonuses_have_cards(self) -> BattlePosition:
        """Refuse a card bonus whose card is not in the army (see :class:`Bonus`)."""
        problem = bonus_problem(self.army, self.resolution_bonuses, "the army")
        if problem:
            message, i, key = problem
            raise refuse(message, f"resolution_bonuses[{i}].{key}")
        return self


Result = Literal["secured", "defeated", "repelled", "home_realm_damaged", "unchanged"]
RESULTS: dict[str, Result] = {"stronghold": "secured", "city": "secured", "enemy": "defeated", "instant": "repelled"}
RESULT_RULES = {"stronghold": "ra.conduct-a-battle.4.secure", "city": "ra.conduct-a-battle.4.secure",
                "enemy": "ra.conduct-a-battle.4.enemy", "instant": "ra.conduct-a-battle.4.instant-repelled"}


@rule("rafaq.faq.general.6")
def is_army_empty(army: Sequence[Card]) -> bool:
    """Return whether no card was played: a Combat action needs at least one unit or tactic card."""
    return not army


@rule("ra.conduct-a-battle.once-per-round")
def is_repeat_attack(already_attacked: bool) -> bool:
    """Return whether this target was already attacked this round (each target once per round)."""
    return already_attacked


@rule("rafaq.faq.general.8", "rafaq.faq.general.4")
def can_attack_stronghold(target_faction: str | None, attacker_faction: str | None) -> bool:
    """Return whether a player may attack this stronghold: only his own faction's, in his Barracks."""
    return target_faction is None or attacker_faction is None or target_faction == attacker_faction


@rule("ra.conduct-a-battle.3", "ra.attrition-die")
def skulls_to_suffer(icons: int, skulls: Sequence[int]) -> int:
    """Return the units to destroy: one per skull rolled, rolling once per attrition icon."""
    return sum(skulls) if icons else 0


@rule("ra.attrition-die.indestructible")
def destructible_units(army: Sequence[Card]) -> list[Card]:
    """Return the participating units attrition may destroy (not those that cannot be destroyed)."""
    return [c for c in army if c.is_unit and not c.cannot_be_destroyed]


@rule("ra.conduct-a-battle.4", "ra.abilities.resolution")
def strength_of(cards: Sequence[Card], bonuses: Sequence[Bonus]) -> int:
    """Return the army's strength: its remaining cards' strength plus the Resolution bonuses."""
    return sum(c.strength for c in cards) + sum(b.strength for b in bonuses)


@rule("ra.conduct-a-battle.4.ties")
def is_army_winner(army_strength: int, target_strength: int) -> bool:
    """Return whether the army wins: a higher or equal strength (ties go to the army)."""
    return army_strength >= target_strength


@rule("ra.conduct-a-battle.4.instant-damage", "rafaq.errata.rulebook.p10")
def instant_damage(instant_strength: int, army_strength: int) -> int:
    """Return the Home Realm damage from an Instant: its strength minus the army's (errata), never negative."""
    return max(0, instant_strength - army_strength)


@rule("rafaq.faq.scenarios.runewars.6")
def keeps_bonuses_without_units(cards: Sequence[Card], bonuses: Sequence[Bonus]) -> bool:
    """Return whether strength bonuses still count for a side left with no unit (A Time for War, Tact and
    Diplomacy): they do, so this is true whenever bonuses remain and no unit does."""
    return bool(bonuses) and not any(c.is_unit for c in cards)


@rule("ra.destroying-wounding-units.wound")
def wounded_to_destroy(cards: Sequence[Card]) -> list[str]:
    """Return the wounded units still in combat: they count at Resolution and are destroyed at End of Combat."""
    return [c.name for c in cards if c.is_unit and c.wounded and not c.cannot_be_destroyed]


def _remove_attrition(army: list[Card], names: Sequence[str], needed: int, candidates: Sequence[Card],
                      trace: Trace) -> list[Card] | None:
    """Return the army after the named units are destroyed, or ``None`` when the choice is not legal."""
    must = min(needed, len(candidates))
    if len(names) != must:
        trace.violate(f"{plural(needed, 'skull')} rolled: exactly {plural(must, 'participating unit')} must be "
                      f"destroyed, {len(names)} named", skulls_to_suffer, destructible_units)
        return None
    remaining = list(army)
    for name in names:
        hit = next((c for c in remaining if c.name == name and c in candidates), None)
        if hit is None:
            blocked = any(c.name == name for c in remaining)
            trace.violate(f"{name!r} is not a participating unit that attrition can destroy"
                          if blocked else f"{name!r} is not among the participating units",
                          destructible_units)
            return None
        remaining.remove(hit)
    return remaining


FACTION_NAMES = {"daqan": "Daqan", "elves": "Elves", "uthuk": "Uthuk", "waiqar": "Waiqar"}
KIND_NAMES = {"enemy": "the Enemy", "stronghold": "the stronghold", "city": "the city", "instant": "the Instant"}
RESULT_VERBS = {"secured": "secures", "defeated": "defeats", "repelled": "repels"}
LABELS: dict[str, Label] = {
    "army_strength": "Army strength", "target_strength": "Target strength",
    "winner": ("Winner", {"army": "The army", "target": "The target"}),
    "result": ("Result", {"secured": "Secured", "defeated": "Defeated", "repelled": "Repelled",
                          "home_realm_damaged": "Home Realm damaged", "unchanged": "Unchanged"}),
    "home_realm_damage": "Home Realm damage", "destroyed_by_attrition": "Destroyed by attrition",
    "destroyed_at_end_of_combat": "Destroyed at End of Combat",
    "army_strength_before_attrition": "Army strength before attrition",
    "home_realm_total": "Home Realm damage in all", "eliminated": "Player eliminated", "scenario_end": ENDS_LABEL,
}


def card_words(card: Card) -> str:
    """Return a card as a player lists it: ``Knight (3)``, ``Battle Cry (tactic, 0)``, ``Archer (2, wounded)``."""
    notes = ([] if card.is_unit else ["tactic"]) + [str(card.strength)]
    notes += (["wounded"] if card.wounded else []) + (["cannot be destroyed"] if card.cannot_be_destroyed else [])
    return f"{card.name} ({', '.join(notes)})"


def army_words(army: Sequence[Card]) -> str:
    """Return an army's cards as a player lists them, or ``no card``."""
    return listing((card_words(c) for c in army), "no card")


def bonus_words(bonuses: Sequence[Bonus], army: Sequence[Card], whose: str = "") -> str:
    """Return one sentence listing the Resolution bonuses and where each comes from."""
    if not bonuses:
        return f"No Resolution bonuses{whose}."
    parts = []
    for b in bonuses:
        sign = f"+{b.strength}" if b.strength >= 0 else str(b.strength)
        where = b.source or "an effect"
        parts.append(f"{sign} from {where}" + (" (outside the army)" if not b.tied_to_card(army) else ""))
    return f"Resolution bonuses{whose}: {listing(parts)}."


def faction_name(key: str | None) -> str:
    """Return a faction as printed (``daqan`` -> ``Daqan``)."""
    return FACTION_NAMES.get(key or "", key or "")


def target_label(target: Target) -> str:
    """Return the target as a player names it: ``the Enemy Kalladra``, ``the city``."""
    kind = KIND_NAMES.get(target.kind, f"the {target.kind}")
    return f"{kind} {target.name}" if target.name else kind


class BattleOutcome(Outcome):
    """What a battle decides: both strengths, the winner and the result, and the units lost."""

    army_strength: int | None = None
    target_strength: int
    winner: Literal["army", "target"] | None = None
    result: Result | None = None
    home_realm_damage: int | None = None
    destroyed_by_attrition: list[str] = Field(default_factory=list)
    destroyed_at_end_of_combat: list[str] = Field(default_factory=list)
    army_strength_before_attrition: int | None = Field(None, exclude_if=lambda v: v is None)
    home_realm_total: int | None = Field(None, exclude_if=lambda v: v is None)
    eliminated: bool | None = Field(None, exclude_if=lambda v: v is None)
    scenario_end: ScenarioEnd | None = scenario_end_field()


def _summary(pos: BattlePosition, out: BattleOutcome, trace: Trace) -> str:
    """One sentence: who wins the battle and with what strengths (or which attrition choice is open)."""
    target = pos.target
    label, t_str = target_label(target), target.strength
    if out.army_strength is None:
        before = out.army_strength_before_attrition
        icons = target.attrition_icons
        if len(pos.attrition_skulls) != icons:
            return (f"Attrition first: roll the attrition die {times(icons)} for {label}; the army has "
                    f"{before} strength against {t_str} before any unit is lost.")
        pending = next((d for d in trace.decisions if d.field == "destroyed_by_attrition"), None)
        count = int(pending.choose.split()[0]) if pending else 0
        units = plural(count, "participating unit") if count else "some participating units"
        return (f"Attrition: the attacker destroys {units} of his choice before strengths are "
                f"compared; the army has {before} strength against {t_str} before losing "
                f"{'it' if count == 1 else 'them'}.")
    a_str = out.army_strength
    lost = out.destroyed_by_attrition
    after = f" after losing {', '.join(lost)} to attrition" if lost else ""
    tie = "; ties go to the army" if a_str == t_str else ""
    if out.winner == "army":
        verb = RESULT_VERBS.get(str(out.result), "defeats")
        first = f"After losing {', '.join(lost)} to attrition, the army" if lost else "The army"
        return f"{first} ({a_str}) {verb} {label} ({t_str}){tie}."
    if target.kind == "instant":
        out_words = (f" ({out.home_realm_total} in all) and the player is eliminated"
                     f"{END_WORDS.get(out.scenario_end or '', '')}" if out.eliminated else "")
        return (f"{capital(label)} ({t_str}) beats the army ({a_str}){after}: the Home Realm "
                f"takes {out.home_realm_damage} damage{out_words}.")
    return f"The attack fails: {label} ({t_str}) is stronger than the army ({a_str}){after}."


@rule("ra.conduct-a-battle.1", "ra.conduct-a-battle")
def _declare(pos: BattlePosition, army: Sequence[Card], trace: Trace) -> bool:
    """Step 1, Declare target: name the target; return whether the attack may be made at all."""
    target = pos.target
    kind, name = target.kind, target_label(target)
    what = {"instant": "defends his Home Realm against", "enemy": "attacks"}.get(kind, "tries to secure")
    trace.step(f"Declare target: the player {what} {name} (strength {target.strength}); a battle, as no other "
               f"player controls it.", "ra.conduct-a-battle.1", "ra.conduct-a-battle")
    if kind == "stronghold" and not can_attack_stronghold(target.faction, pos.attacker_faction):
        trace.violate(f"the stronghold belongs to {faction_name(target.faction)}; a player may only attack "
                      f"and secure his own faction's strongholds", can_attack_stronghold)
    if kind != "instant" and is_repeat_attack(pos.already_attacked_this_round):
        trace.violate(f"{capital(name)} was already attacked this round; each target may be attacked once per round",
                      is_repeat_attack)
    if is_army_empty(army):
        trace.violate("no card was played into the combat; at least one unit or tactic card is required",
                      is_army_empty)
    return not trace.violations


@rule("ra.conduct-a-battle.2")
def _assault(army: Sequence[Card], trace: Trace) -> None:
    """Step 2, Assault: the cards played."""
    units = sum(1 for c in army if c.is_unit)
    trace.step(f"Assault: {plural(len(army), 'card')} played ({plural(units, 'unit')}).", "ra.conduct-a-battle.2")


@rule("ra.conduct-a-battle.3")
def _attrition(pos: BattlePosition, army: list[Card], out: BattleOutcome, trace: Trace) -> list[Card] | None:
    """Step 3, Attrition: the army after the skulls rolled, or ``None`` while a roll or a choice is open."""
    target, name = pos.target, target_label(pos.target)
    icons, skulls = target.attrition_icons, pos.attrition_skulls
    if not icons:
        trace.step(f"Attrition: {name} shows no attrition icon, so this step is skipped.", "ra.conduct-a-battle.3")
        return army
    if len(skulls) != icons:
        trace.decide("attacker", f"roll the attrition die {plural(icons, 'time')} and give the skulls rolled",
                     skulls_to_suffer, field="attrition_skulls")
        out.army_strength_before_attrition = strength_of(army, pos.resolution_bonuses)
        trace.step(f"Attrition: {name} shows {plural(icons, 'attrition icon')}; the die is rolled once per icon and "
                   f"each skull destroys a participating unit of the player's choice.", skulls_to_suffer)
        return None
    needed = skulls_to_suffer(icons, skulls)
    named = list(pos.destroyed_by_attrition)
    candidates = destructible_units(army)
    must = min(needed, len(candidates))
    if needed and not named and must:
        trace.step(f"Attrition: {plural(needed, 'skull')} rolled; the player must destroy "
                   f"{plural(must, 'participating unit')} of his choice.", skulls_to_suffer)
        if len(candidates) < needed:
            trace.step("Units that cannot be destroyed are not chosen; there are not enough others, so "
                       "fewer units are destroyed.", destructible_units)
        trace.decide("attacker", f"{plural(must, 'participating unit')} to destroy", skulls_to_suffer,
                     destructible_units, options=sorted({c.name for c in candidates}),
                     field="destroyed_by_attrition")
        out.army_strength_before_attrition = strength_of(army, pos.resolution_bonuses)
        return None
    remaining = _remove_attrition(army, named, needed, candidates, trace)
    if remaining is None:
        return None
    out.destroyed_by_attrition = named
    lost = listing(named, "nothing")
    trace.step(f"Attrition: {plural(sum(skulls), 'skull')} on {plural(icons, 'roll')}; destroyed: {lost}.",
               skulls_to_suffer, *([destructible_units] if any(c.cannot_be_destroyed for c in army) else []))
    return remaining


@rule("ra.conduct-a-battle.4.instant-damage", "ra.player-elimination")
def _instant_elimination(pos: BattlePosition, out: BattleOutcome, trace: Trace, corpus: Corpus) -> None:
    """The Instant's damage lands: with the damage already there known, is the player eliminated, and what
    does that do to the game?"""
    before = pos.home_realm_damage_before
    if before is None:
        return
    total = out.home_realm_total = before + (out.home_realm_damage or 0)
    out.eliminated = is_eliminated(total, corpus)
    limit = corpus.fact("ra.player-elimination", "elimination_damage")
    trace.step(f"The Home Realm now holds {before} + {out.home_realm_damage} = {total} damage: "
               + (f"at least {limit}, so the player is eliminated." if out.eliminated
                  else f"under {limit}, so the player stays in the game."), is_eliminated)
    if out.eliminated:
        out.scenario_end = settle_end(pos.scenario, pos.players_in_game, "the defending player", trace)


@rule("ra.conduct-a-battle.4.secure", "ra.conduct-a-battle.4.enemy", "ra.conduct-a-battle.4.instant-repelled")
def _resolution(pos: BattlePosition, army: list[Card], out: BattleOutcome, trace: Trace, corpus: Corpus) -> None:
    """Step 4, Resolution: compare strengths (ties to the army) and apply the result."""
    target = pos.target
    kind, name = target.kind, target_label(target)
    live = _live_bonuses(army, pos.resolution_bonuses, pos.army)
    dropped = [b.source or "" for b in pos.resolution_bonuses if b not in live]
    army_strength = strength_of(army, live)
    parts = " + ".join(str(c.strength) for c in army) or "0"
    bonus_text = "".join(f" + {b.strength} ({b.source or 'bonus'})" for b in live)
    trace.step(f"Resolution: army strength {parts}{bonus_text} = {army_strength} against {target.strength}."
               + (f" The {'bonus' if len(dropped) == 1 else 'bonuses'} from {listing(dropped)} no longer "
                  f"{'counts' if len(dropped) == 1 else 'count'}: the card is destroyed." if dropped else ""),
               strength_of)
    out.army_strength = army_strength
    if keeps_bonuses_without_units(army, live):
        trace.step("No unit of the army is left, but its strength bonuses still count "
                   f"({sum(b.strength for b in live)} in all).", keeps_bonuses_without_units)
    tie = army_strength == target.strength
    if is_army_winner(army_strength, target.strength):
        out.winner, out.result = "army", RESULTS[kind]
        trace.step(("Tie: ties go to the army, so " if tie else "The army is stronger: ")
                   + f"{name} is {RESULTS[kind]}.", *([is_army_winner] if tie else []), RESULT_RULES[kind])
        return
    out.winner = "target"
    if kind == "instant":
        dmg = instant_damage(target.strength, army_strength)
        out.home_realm_damage, out.result = dmg, "home_realm_damaged"
        trace.step(f"The Instant wins: the Home Realm takes {target.strength} − {army_strength} = {dmg} "
                   f"damage (the Instant's strength minus the army's, as corrected by the errata).", instant_damage)
        _instant_elimination(pos, out, trace, corpus)
    else:
        out.result = "unchanged"
        trace.step(f"{capital(name)} is stronger: the attack fails; the card stays where it is and may be attacked "
                   f"again on a later turn.", RESULT_RULES[kind])


@rule("ra.conduct-a-battle.5")
def _end_of_combat(army: Sequence[Card], out: BattleOutcome, trace: Trace) -> None:
    """Step 5, End of combat: wounded units are destroyed, the rest are discarded."""
    doomed = out.destroyed_at_end_of_combat = wounded_to_destroy(army)
    if doomed:
        trace.step(f"The wounded {listing(doomed)} counted at Resolution and {'is' if len(doomed) == 1 else 'are'} "
                   f"now destroyed.", wounded_to_destroy,
                   "ra.conduct-a-battle.5")
    trace.step("End of combat: wounded units are destroyed; surviving units go to the discard pile.",
               "ra.conduct-a-battle.5")


@situation("rune-age", "battle", BattlePosition, labels=LABELS)
@summarized(_summary)
def resolve_battle(pos: BattlePosition, trace: Trace, corpus: Corpus) -> BattleOutcome:
    """Resolve a battle against a stronghold, city, Enemy or Instant: attrition, resolution, result."""
    target = pos.target
    out = BattleOutcome(target_strength=target.strength,
                        home_realm_damage=0 if target.kind == "instant" else None)
    army = list(pos.army)
    if not _declare(pos, army, trace):
        return out
    _assault(army, trace)
    remaining = _attrition(pos, army, out, trace)
    if remaining is None:
        return out
    _resolution(pos, remaining, out, trace, corpus)
    _end_of_combat(remaining, out, trace)
    return out


def _live_bonuses(army: Sequence[Card], bonuses: Sequence[Bonus], played: Sequence[Card]) -> list[Bonus]:
    """Return the bonuses still in force: a bonus tied to a card needs that card still in combat."""
    present = Counter(c.name for c in army)
    live = []
    for b in bonuses:
        if b.tied_to_card(played):
            src = b.source or ""
            if present[src] <= 0:
                continue
            present[src] -= 1
        live.append(b)
    return live
