"""Rune Age wounding, destroying and removing units during a combat, and where every card ends up.

Paragraphs: ``ra.destroying-wounding-units`` (destroy at once, wound until End of Combat, never twice),
``ra.term.destroy`` (places of origin), ``ra.conduct-a-battle.5`` / ``ra.conduct-a-siege.4`` (End of
Combat), ``ra.abilities.end-of-combat`` with ``rafaq.faq.general.11`` (gone units' End of Combat
abilities do not resolve), ``rafaq.faq.general.14``/``.15`` (wound twice; removed while wounded), the
Faction Cards FAQ (Flesh Ripper wounding itself, Warlock Chieftain), and the Oath and Anvil FAQ (mythic
units, Guardian, units that cannot be destroyed), with Stasis Rune hitting only the opponent's next unit played
into the combat (``rafaq.oa.neutral-cards.2``).

Choices made where the books are silent: an event naming a unit that is not in combat (or a second wound)
is reported as a violation and skipped, so the rest of the events still resolve; a Guardian effect on a
unit that is already wounded is illegal (the wound it substitutes cannot be given); a wounded unit that
cannot be destroyed (Demon, Forest Guardian) is listed in ``wounded`` but survives End of Combat, as any
other destroy effect on it resolves with no effect. The Stasis Rune's printed text is not in the books: by the
FAQ it destroys the next unit an opponent of its player plays into that combat; it is applied as that unit is
played, so before the listed events (an event naming that unit afterwards finds it gone), and a Rune with no
opponent's unit played after it destroys nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.rune_age.words import choice, listing, plural, possessive

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
ORIGINS = {"faction": "A faction card (back to the Barracks)", "neutral": "A neutral card (back to the central "
           "play area)", "mythic": "A mythic unit (to its owner's discard pile)"}
EFFECTS = {"wound": "Wound", "destroy": "Destroy", "remove": "Remove from the combat"}
COMBATS = {"battle": "A battle", "siege": "A siege"}
EFFECT_VERBS = {"wound": "wounds", "destroy": "destroys", "remove": "removes"}

Origin = Literal["faction", "neutral", "mythic"]
Place = Literal["barracks", "central_play_area", "discard_pile", "removed"]


class CombatUnit(Model):
    """A unit card played into the combat: who owns it, its strength and where it came from."""

    model_config = ConfigDict(title="Unit in combat")

    id: str = Field(max_length=80, title="Id", description="A unique label for this card in the combat.")
    name: str = Field(max_length=200, title="Card name")
    player: str = Field(max_length=80, title="Owner")
    strength: int = Field(ge=0, le=50, title="Strength")
    origin: Origin = Field("faction", title="Origin", json_schema_extra=choice(ORIGINS))
    cannot_be_destroyed: bool = Field(False, title="Cannot be destroyed",
                                      description="Its ability forbids destroying it (Demon, Forest Guardian).")
    end_of_combat: bool = Field(False, title="Has an End of Combat ability")


class CombatEvent(Model):
    """A wound, destroy or removal that happens to a unit during the combat."""

    model_config = ConfigDict(title="Event")

    effect: Literal["wound", "destroy", "remove"] = Field(
        title="Effect", description="remove: the unit leaves the combat without being destroyed.",
        json_schema_extra=choice(EFFECTS))
    unit: str = Field(max_length=80, title="Unit id")
    source: str | None = maybe(title="Caused by", max_length=200)
    guardian: bool = Field(False, title="Guardian used", description="The owner wounds the unit instead.")


class StasisRune(Model):
    """A Stasis Rune played into the combat: who played it and when, counted by the units already played."""

    model_config = ConfigDict(title="Stasis Rune")

    played_by: str = Field(max_length=80, min_length=1, title="Played by")
    played_after: str | None = maybe("The id of the last unit played into the combat before the Rune (left out: "
                                     "played before any unit).", title="Played just after unit", max_length=80)


class CombatWoundsPosition(OpenPosition):
    """A combat's units and the wounds, destroys and removals that happen to them, in order."""

    game: Literal["rune-age"]
    situation: Literal["combat_wounds"]
    combat: Literal["battle", "siege"] = Field(title="Combat", json_schema_extra=choice(COMBATS, "battle"))
    units: list[CombatUnit] = Field(min_length=1, max_length=100,
                                    title="Units played into the combat, in play order")
    events: list[CombatEvent] = Field([], max_length=200,
                                      title="Wounds, destroys and removals, in the order they happen")
    stasis_runes: list[StasisRune] = Field([], max_length=10, title="Stasis Runes played",
                                           description="Each destroys the opponent's next unit played into this "
                                                       "combat (left out: none played).")

    @model_validator(mode="after")
    def _unique_ids(self) -> CombatWoundsPosition:
        seen: set[str] = set()
        for i, u in enumerate(self.units):
            if u.id in seen:
                raise refuse(f"unit id {u.id!r} is used twice", f"units[{i}].id")
            seen.add(u.id)
        for i, r in enumerate(self.stasis_runes):
            if r.played_after is not None and r.played_after not in seen:
                raise refuse(f"no unit in this combat is called {r.played_after!r}",
                             f"stasis_runes[{i}].played_after")
        return self

    def reading(self) -> list[str]:
        """Restate the combat, its units in play order and the events, by the units' names."""
        names = unit_names(self.units)
        units = []
        for u in self.units:
            notes = [u.player, f"strength {u.strength}"]
            if u.origin != "faction":
                notes.append(u.origin)
            if u.cannot_be_destroyed:
                notes.append("cannot be destroyed")
            if u.end_of_combat:
                notes.append("End of Combat ability")
            units.append(f"{names[u.id]} ({', '.join(notes)})")
        out = [f"Combat: {'a siege' if self.combat == 'siege' else 'a battle'}.",
               f"Units, in play order: {listing(units)}."]
        for r in self.stasis_runes:
            after = f"just after {names[r.played_after]}" if r.played_after else "before any unit"
            out.append(f"{r.played_by} plays a Stasis Rune {after}.")
        if not self.events:
            return [*out, "No wound, destroy or removal."]
        events = []
        for ev in self.events:
            who = names.get(ev.unit, f"a unit called {ev.unit!r}")
            guard = " (a Guardian wounds it instead)" if ev.guardian else ""
            events.append(f"{ev.source or 'an effect'} {EFFECT_VERBS[ev.effect]} {who}{guard}")
        return [*out, "Events, in order: " + "; ".join(f"{i}. {e}" for i, e in enumerate(events, 1)) + "."]


def unit_names(units: Sequence[CombatUnit]) -> dict[str, str]:
    """Return each unit's name as a player says it: its card name, or "the second Berserker" when several units
    share a name (counted in play order, from the first)."""
    total: dict[str, int] = {}
    for u in units:
        total[u.name] = total.get(u.name, 0) + 1
    seen: dict[str, int] = {}
    out = {}
    for u in units:
        seen[u.name] = n = seen.get(u.name, 0) + 1
        nth = ORDINALS[n - 1] if n <= len(ORDINALS) else f"{n}th"
        out[u.id] = u.name if total[u.name] == 1 else f"the {nth} {u.name}"
    return out


class CombatWoundsOutcome(Outcome):
    """Each player's strength at Resolution, the units wounded and destroyed, and where every card goes."""

    strength: dict[str, int]
    wounded: list[str]
    destroyed: list[str]
    fate: dict[str, Place]
    end_of_combat: list[str]
    no_effect: list[int]
    stasis_hits: list[str | None] | None = Field(None, exclude_if=lambda v: v is None)


LABELS: dict[str, Label] = {
    "strength": "Strength at Resolution", "wounded": "Wounded at End of Combat",
    "destroyed": "Destroyed",
    "fate": ("Where each card goes", {"barracks": "Barracks", "central_play_area": "Central play area",
                                      "discard_pile": "Discard pile", "removed": "Removed from combat"}),
    "end_of_combat": "End of Combat abilities that resolve", "no_effect": "Destroy effects without effect (event #)",
    "stasis_hits": "Unit each Stasis Rune destroyed (none: no effect)",
}
END_OF_COMBAT = {"battle": "ra.conduct-a-battle.5", "siege": "ra.conduct-a-siege.4"}


@dataclass
class Unit:
    """A unit's state during the combat (mutable while the events are replayed, local to one ruling)."""

    card: CombatUnit
    label: str
    wounded: bool = False
    gone: str = ""  # "" in combat, "destroyed" or "removed"

    @property
    def id(self) -> str:
        """Return the unit's id in this combat."""
        return self.card.id

    @property
    def name(self) -> str:
        """Return the card's name."""
        return self.card.name

    @property
    def in_combat(self) -> bool:
        """Return whether the unit is still in the combat."""
        return not self.gone


@rule("ra.destroying-wounding-units.wound", "rafaq.faq.general.14")
def can_wound(unit: Unit) -> bool:
    """Return whether a unit can be wounded: in combat and not already wounded."""
    return unit.in_combat and not unit.wounded


@rule("ra.destroying-wounding-units.destroy-in-combat", "ra.term.participating-unit")
def counted_strength(units: Sequence[Unit]) -> dict[str, int]:
    """Return each player's strength from units still in combat: wounded ones count, gone ones do not."""
    out: dict[str, int] = {}
    for u in units:
        out[u.card.player] = out.get(u.card.player, 0) + (u.card.strength if u.in_combat else 0)
    return out


@rule("ra.term.destroy", "ra.conduct-a-battle.5", "rafaq.oa.general.2")
def place_of_origin(origin: str) -> Place:
    """Return where a destroyed unit goes: Barracks, central play area, or (mythic) its discard pile."""
    return "barracks" if origin == "faction" else "central_play_area" if origin == "neutral" else "discard_pile"


@rule("rafaq.oa.neutral-cards.2")
def is_destroyable(unit: Unit) -> bool:
    """Return whether a destroy effect takes hold: not on a unit whose ability forbids it (no effect)."""
    return not unit.card.cannot_be_destroyed


def _label(u: Unit) -> str:
    return u.label


def _absent(u: Unit | None, ref: str) -> str:
    if u is None:
        return f"no unit in this combat is called {ref!r}"
    return f"{_label(u)} was already {u.gone} and is no longer in the combat"


@dataclass
class Losses:
    """The units destroyed while the events are replayed, and the destroy events that had no effect."""

    destroyed: list[str]
    no_effect: list[int]


@rule("ra.destroying-wounding-units", "ra.term.participating-unit")
def _replay(units: dict[str, Unit], events: Sequence[CombatEvent], trace: Trace) -> Losses:
    """Apply the events in order; return the ids destroyed during combat and the no-effect destroy events."""
    losses = Losses([], [])
    for i, ev in enumerate(events):
        u = units.get(ev.unit)
        src = ev.source or "an effect"
        if u is None or not u.in_combat:
            trace.violate(f"in event {i + 1}, {_absent(u, ev.unit)}", _replay)
        elif ev.effect == "wound":
            _wound(u, i, src, trace)
        elif ev.effect == "remove":
            _remove(u, src, trace)
        else:
            _destroy(u, i, src, ev.guardian, losses, trace)
    return losses


@rule("ra.destroying-wounding-units.wound", "rafaq.faq.faction-cards.1")
def _wound(u: Unit, i: int, src: str, trace: Trace) -> None:
    """Wound: the unit is turned sideways, still counts, and is destroyed at End of Combat (never wounded twice)."""
    if not can_wound(u):
        trace.violate(f"in event {i + 1}, {_label(u)} is already wounded and cannot be wounded again", can_wound)
        return
    u.wounded = True
    self_wound = src.strip().lower() == u.name.lower()
    trace.step(f"{src} wounds {_label(u)}: it is turned sideways and still counts its {u.card.strength} strength.",
               "ra.destroying-wounding-units.wound", *(["rafaq.faq.faction-cards.1"] if self_wound else []))


@rule("ra.term.participating-unit", "rafaq.faq.faction-cards.2", "rafaq.faq.general.15")
def _remove(u: Unit, src: str, trace: Trace) -> None:
    """Remove: the unit leaves the combat without being destroyed (a wound on it no longer matters)."""
    u.gone = "removed"
    cites: list[Any] = ["ra.term.participating-unit"]
    if "warlock chieftain" in src.lower():
        cites.append("rafaq.faq.faction-cards.2")
    if u.wounded:
        cites.append("rafaq.faq.general.15")
    trace.step(f"{src} takes {_label(u)} out of the combat without destroying it"
               + (", so its wound no longer matters: it is not destroyed at End of Combat." if u.wounded
                  else "."), *cites)


@rule("rafaq.oa.faction-cards.2", "rafaq.oa.faction-cards.3", "ra.destroying-wounding-units.destroy-in-combat")
def _destroy(u: Unit, i: int, src: str, guardian: bool, losses: Losses, trace: Trace) -> None:
    """Destroy: the unit leaves the combat at once, unless it cannot be destroyed or a Guardian wounds it instead."""
    if not is_destroyable(u):
        losses.no_effect.append(i)
        trace.step(f"{src} would destroy {_label(u)}, which cannot be destroyed: the effect resolves with no "
                   f"effect.", is_destroyable)
    elif guardian:
        if u.wounded:
            trace.violate(f"in event {i + 1}, Guardian would wound {_label(u)} instead of destroying it, but it is "
                          f"already wounded and cannot be wounded again", can_wound, "rafaq.oa.faction-cards.2")
            return
        u.wounded = True
        trace.step(f"{src} would destroy {_label(u)}; its owner uses a Guardian effect, so {_label(u)} is "
                   f"wounded instead (the Guardian itself is not wounded unless it was that unit).",
                   "rafaq.oa.faction-cards.2", "rafaq.oa.faction-cards.3")
    else:
        u.gone = "destroyed"
        losses.destroyed.append(u.id)
        trace.step(f"{src} destroys {_label(u)}: it leaves the combat at once and its {u.card.strength} strength "
                   f"no longer counts" + (", even though it was wounded." if u.wounded else "."),
                   "ra.destroying-wounding-units.destroy-in-combat")


@rule("rafaq.oa.neutral-cards.2")
def stasis_target(order: Sequence[Unit], rune: StasisRune) -> Unit | None:
    """Return the unit a Stasis Rune hits: the first unit played after it by another player than the Rune's (none
    when no such unit is played into the combat)."""
    start = 0 if rune.played_after is None else next(i for i, u in enumerate(order) if u.id == rune.played_after) + 1
    return next((u for u in order[start:] if u.card.player != rune.played_by), None)


@rule("rafaq.oa.neutral-cards.2", "ra.destroying-wounding-units.destroy-in-combat")
def _stasis_runes(runes: Sequence[StasisRune], order: Sequence[Unit], losses: Losses,
                  trace: Trace) -> list[str | None]:
    """Each Stasis Rune destroys its opponent's next unit as it is played, or does nothing; it never passes on."""
    hits: list[str | None] = []
    for rune in runes:
        target = stasis_target(order, rune)
        later = [u for u in order[order.index(target) + 1:] if u.card.player != rune.played_by] if target else []
        spared = f"; it does not pass on to {listing(_label(u) for u in later)}, played later" if later else ""
        if target is None:
            trace.step(f"{possessive(rune.played_by)} Stasis Rune finds no opponent's unit played after it in this "
                       f"combat, so it destroys nothing.", "rafaq.oa.neutral-cards.2")
        elif not target.in_combat:
            trace.step(f"{possessive(rune.played_by)} Stasis Rune would hit {_label(target)}, already destroyed by "
                       f"another Stasis Rune: it resolves with no effect{spared}.", "rafaq.oa.neutral-cards.2")
        elif not is_destroyable(target):
            trace.step(f"{possessive(rune.played_by)} Stasis Rune hits only the next unit his opponent plays into "
                       f"the combat, {_label(target)}, which cannot be destroyed: the Rune resolves with no "
                       f"effect{spared}.", "rafaq.oa.neutral-cards.2")
        else:
            target.gone = "destroyed"
            losses.destroyed.append(target.id)
            hits.append(target.id)
            trace.step(f"{possessive(rune.played_by)} Stasis Rune destroys {_label(target)}, the next unit his "
                       f"opponent plays into the combat, as it is played: its {target.card.strength} strength never "
                       f"counts{spared}.", "rafaq.oa.neutral-cards.2", "ra.destroying-wounding-units.destroy-in-combat")
            continue
        hits.append(None)
    return hits


@rule("ra.destroying-wounding-units.wound")
def _resolution(order: Sequence[Unit], trace: Trace) -> dict[str, int]:
    """Resolution: each player's strength from the units still in combat, wounded ones included."""
    strength = counted_strength(order)
    trace.step("Strengths compared: " + ", ".join(f"{p} {s}" for p, s in strength.items())
               + " (wounded units count; destroyed and removed ones do not).", counted_strength,
               "ra.destroying-wounding-units.wound")
    return strength


@rule("ra.abilities.end-of-combat", "rafaq.faq.general.11")
def _end_of_combat_abilities(order: Sequence[Unit], eoc_rule: str, trace: Trace) -> list[str]:
    """End of Combat abilities resolve for units still in combat, before any card moves; return their ids."""
    abilities = [u.id for u in order if u.card.end_of_combat and u.in_combat]
    missed = [u for u in order if u.card.end_of_combat and not u.in_combat]
    if abilities:
        trace.step(f"End of Combat abilities of {listing(u.label for u in order if u.id in abilities)} may resolve "
                   f"now, before any card moves.", "ra.abilities.end-of-combat", eoc_rule)
    if missed:
        one = len(missed) == 1
        trace.step(f"{listing(_label(u) for u in missed)} left the combat earlier, so {'its' if one else 'their'} "
                   f"End of Combat {'ability does' if one else 'abilities do'} not resolve.", "rafaq.faq.general.11")
    return abilities


@rule("ra.destroying-wounding-units.wound")
def _end_of_combat_wounds(units: Mapping[str, Unit], wounded: Sequence[str], eoc_rule: str,
                          trace: Trace) -> list[str]:
    """End of Combat: the wounded units are destroyed (except those that cannot be); return the ids destroyed."""
    doomed = [w for w in wounded if is_destroyable(units[w])]
    for uid in doomed:
        units[uid].gone = "destroyed"
    if doomed:
        trace.step(f"End of Combat: the wounded {listing(_label(units[w]) for w in doomed)} "
                   f"{'is' if len(doomed) == 1 else 'are'} destroyed.", eoc_rule, "ra.destroying-wounding-units.wound")
    spared = [units[w] for w in wounded if w not in doomed]
    if spared:
        one = len(spared) == 1
        trace.step(f"{listing(_label(u) for u in spared)} {'is' if one else 'are'} wounded but cannot be destroyed, "
                   f"so the End of Combat destruction has no effect on {'it' if one else 'them'}.",
                   is_destroyable, eoc_rule)
    return doomed


@situation("rune-age", "combat_wounds", CombatWoundsPosition, labels=LABELS)
@rule("ra.destroying-wounding-units")
def resolve_combat_wounds(pos: CombatWoundsPosition, trace: Trace, corpus: Corpus) -> CombatWoundsOutcome:
    """Resolve the wounds, destroys and removals of a combat: strengths at Resolution and every card's fate."""
    names = unit_names(pos.units)
    units = {u.id: Unit(u, names[u.id]) for u in pos.units}
    order = list(units.values())
    trace.step(f"{plural(len(order), 'unit')} in the {pos.combat}: destroying takes a unit out at once, wounding "
               f"marks it to be destroyed at End of Combat.", "ra.destroying-wounding-units")
    losses = Losses([], [])
    hits = _stasis_runes(pos.stasis_runes, order, losses, trace) if pos.stasis_runes else None
    replayed = _replay(units, pos.events, trace)
    losses.destroyed += replayed.destroyed
    losses.no_effect += replayed.no_effect
    strength = _resolution(order, trace)
    eoc_rule = END_OF_COMBAT[pos.combat]
    abilities = _end_of_combat_abilities(order, eoc_rule, trace)
    wounded = [u.id for u in order if u.in_combat and u.wounded]
    doomed = _end_of_combat_wounds(units, wounded, eoc_rule, trace)
    out = CombatWoundsOutcome(strength=strength, wounded=wounded, destroyed=losses.destroyed + doomed,
                              fate=_fates(order, trace, eoc_rule), end_of_combat=abilities,
                              no_effect=losses.no_effect, stasis_hits=hits)
    if not trace.violations:
        trace.summarize(_summary(strength, losses.destroyed, doomed, units))
    return out


@rule("ra.term.destroy", "rafaq.oa.general.2")
def _fates(order: Sequence[Unit], trace: Trace, eoc_rule: str) -> dict[str, Place]:
    """Cards move: destroyed units to their place of origin, the others to their owners' discard piles."""
    fate: dict[str, Place] = {}
    for u in order:
        fate[u.id] = (place_of_origin(u.card.origin) if u.gone == "destroyed" else
                      "removed" if u.gone == "removed" else "discard_pile")
    places = {"barracks": "the owner's Barracks", "central_play_area": "the central play area",
              "discard_pile": "the owner's discard pile", "removed": "wherever the removing effect put it"}
    groups: dict[str, list[str]] = {}
    for u in order:
        groups.setdefault(fate[u.id], []).append(_label(u))
    text = "; ".join(f"{listing(names)} to {places[f]}" for f, names in groups.items())
    mythic = any(u.card.origin == "mythic" and u.gone == "destroyed" for u in order)
    trace.step(f"Cards move: {text}.", eoc_rule, "ra.term.destroy", *(["rafaq.oa.general.2"] if mythic else []))
    return fate


def _summary(strength: Mapping[str, int], during: Sequence[str], wounded: Sequence[str],
             units: Mapping[str, Unit]) -> str:
    """One sentence: the strengths at Resolution and the units destroyed, during the combat and at its end."""
    counts = " and ".join(f"{p} {s}" for p, s in strength.items())
    parts = [f"At Resolution the strengths are {counts}"]
    if during:
        parts.append(f"{listing(units[d].label for d in during)} destroyed during the combat")
    if wounded:
        parts.append(f"the wounded {listing(units[w].label for w in wounded)} counted but "
                     f"{'is' if len(wounded) == 1 else 'are'} destroyed at End of Combat")
    if len(parts) == 1:
        parts.append("no unit is destroyed")
    return "; ".join(parts) + "."
