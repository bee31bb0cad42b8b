"""Runewars rounds of combat: one exchange of a round, in which each side's chosen unit type draws Fate cards.

Paragraphs: ``rw.rounds-of-combat`` with its steps ``.1``-``.5`` (attacker draws, defender draws, specials, routs,
damage, attacker first each time) and ``.repeat``; ``rw.concurrent-attack-rule`` (every drawn card resolves, even
for units routed or destroyed earlier in the exchange); ``rw.routed-units-and-heroes`` (routed units draw no
cards); ``rw.heroes-supporting-battles`` (1 extra card for a supported type, 1 discarded without effect; at most 1
hero per unit type); ``rw.resolving-fate-cards.1`` (the full number is drawn); ``rw.fate-card-breakdown`` and
``rw.unit-classes`` (the section matching the base shape is read).

What a special ability does is printed on the faction sheets and is not in the books' text: the ruling says how
many times it triggers. Assigning routs and damage to units is the ``assign_damage`` situation. Without ``cards``
a supported type is counted as taking its extra card (drawing it is never worse: the worst card is discarded).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.model import Field, Model, OpenPosition, Outcome, maybe
from engine.runewars.common import GAME, Name, Side, UnitClass, faction_name, names, plural, refuse_duplicates
from engine.runewars.forms import EFFECTS, FateCard

SIDES = ("attacker", "defender")


class UnitType(Model):
    """A unit type of one side in the battle."""

    type: Name = Field(title="Unit type", description="The unit type's name, e.g. Archer.")
    initiative: int = Field(ge=1, le=5, description="The initiative row of this type (1-5).",
                            json_schema_extra={"default": 1})
    standing: int = Field(ge=0, le=40, title="Standing units", json_schema_extra={"default": 1},
                          description="Standing units of this type in the battle now.")
    routed: int = Field(0, ge=0, le=40, title="Routed units",
                        description="Routed units of this type in the battle (they draw no cards).")
    drawn: bool = Field(False, title="Already drew", description="This type already drew Fate cards in this battle.")
    supporting_heroes: int = Field(0, ge=0, le=9, description="Heroes placed beside this type in step 3 of the "
                                                              "battle (at most 1).")
    unit_class: UnitClass = Field(alias="class", title="Base shape",
                                  description="The unit class: which Fate card section it reads.",
                                  json_schema_extra={"default": "triangle"})

    @property
    def name(self) -> str:
        """Return the type's name."""
        return self.type

    @property
    def heroes(self) -> int:
        """Return the heroes supporting the type."""
        return self.supporting_heroes


class CombatSide(Model):
    """One side of the battle: its unit types, the type drawing now and the cards it drew."""

    faction: Side | None = maybe("The side's faction (neutral for unallied neutral defenders).")
    types: list[UnitType] = Field(max_length=12, title="Unit types", description="The side's unit types in the "
                                  "battle (other initiatives may be listed; they are ignored).")
    chosen: Name | None = Field(None, title="Type drawing now", description="The unit type that draws in this "
                                "exchange (needed only when several could).")
    cards: list[FateCard] | None = maybe("The Fate cards drawn for the chosen type, in draw order (leave out to get "
                                         "the draw counts only).", title="Cards drawn", max_length=41)
    discard: int | None = Field(None, ge=0, le=40, title="Discarded card", description="Index in the cards of the "
                                "card thrown away because a hero supports the type.")

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        refuse_duplicates([t.type for t in self.types], "type", "types", "unit type")
        return self


class CombatRoundPosition(OpenPosition):
    """One exchange of a round of combat: the initiative fighting and both sides' unit types."""

    model_config = ConfigDict(title="Combat round")

    game: Literal["runewars"]
    situation: Literal["combat_round"]
    initiative: int = Field(ge=1, le=5, title="Initiative now fighting", description="The round of combat: the "
                            "initiative row that attacks.", json_schema_extra={"default": 1})
    attacker: CombatSide
    defender: CombatSide

    def reading(self) -> list[str]:
        """The initiative fighting, and for each side its unit types with their initiative, standing and routed
        units, supporting heroes and base shape, the type drawing now and the cards drawn."""
        out = [f"Round {self.initiative} of combat: initiative {self.initiative} units attack."]
        for name in SIDES:
            side = self.side(name)
            who = f"The {name}" + (f" ({faction_name(side.faction)})" if side.faction else "")
            types = [_type_words(t) for t in side.types]
            out.append(f"{who}: {names(types) if types else 'no unit type'}.")
            if side.chosen:
                out.append(f"The {name}'s {side.chosen} draws now.")
            if side.cards is not None:
                text = f"The {name} drew {plural(len(side.cards), 'Fate card')}"
                if side.discard is not None:
                    text += f" and discards card {side.discard + 1}"
                out.append(text + ".")
        return out

    def side(self, name: str) -> CombatSide:
        """Return one side."""
        return self.attacker if name == "attacker" else self.defender


def _type_words(t: UnitType) -> str:
    parts = [f"initiative {t.initiative}", f"{t.standing} standing"]
    parts += [f"{t.routed} routed"] if t.routed else []
    parts += [plural(t.heroes, "supporting hero")] if t.heroes else []
    parts += ["already drew"] if t.drawn else []
    return f"{t.name} ({t.unit_class}, {', '.join(parts)})"


@dataclass(frozen=True)
class Draw:
    """What one side draws in the exchange: the type, the cards it must draw, and the results once known."""

    type: UnitType | None
    draws: int | None
    results: dict[str, int] | None


@rule("rw.rounds-of-combat.1", "rw.rounds-of-combat.2", "rw.routed-units-and-heroes")
def is_eligible(t: UnitType, initiative: int) -> bool:
    """Return whether a type may draw now: current initiative, not drawn yet in this battle, a standing unit."""
    return t.initiative == initiative and not t.drawn and t.standing > 0


@rule("rw.rounds-of-combat.1", "rw.heroes-supporting-battles", "rw.routed-units-and-heroes")
def cards_to_draw(t: UnitType, corpus: Corpus, extra: bool = True) -> int:
    """Return the Fate cards a type draws: 1 per standing unit (routed units draw none), plus 1 when a hero
    supports it and the extra card is taken."""
    bonus = int(corpus.fact("rw.heroes-supporting-battles", "extra_fate_cards")) if t.heroes and extra else 0
    return t.standing + bonus


@rule("rw.fate-card-breakdown", "rw.unit-classes")
def totals(cards: Sequence[FateCard], unit_class: str, discard: int | None = None) -> dict[str, int]:
    """Return the special, rout and damage icons of the section matching the base shape, over the kept cards."""
    out = dict.fromkeys(EFFECTS, 0)
    for i, card in enumerate(cards):
        if i == discard:
            continue
        section = card.section(unit_class)
        out["special"] += section.special
        out["rout"] += section.rout
        out["damage"] += section.damage
    return out


@rule("rw.rounds-of-combat.3", "rw.rounds-of-combat.4", "rw.rounds-of-combat.5", "rw.concurrent-attack-rule")
def sequence(att: Mapping[str, int], dfd: Mapping[str, int]) -> list[dict[str, Any]]:
    """Return the resolution order: specials, then routs, then damage, the attacker first each time (0s left
    out)."""
    out = []
    for effect in EFFECTS:
        for side, res in (("attacker", att), ("defender", dfd)):
            if res[effect]:
                out.append({"side": side, "effect": effect, "count": res[effect]})
    return out


@rule("rw.heroes-supporting-battles", "rw.battles.3", "rw.concurrent-attack-rule", "rw.rounds-of-combat.1",
      "rw.rounds-of-combat.2")
def _choose(side: str, raw: CombatSide, initiative: int, trace: Trace) -> tuple[UnitType | None, bool]:
    """Return the type drawing for a side and whether it is settled (False: a decision or a violation)."""
    types = raw.types
    for t in types:
        if t.heroes > 1:
            trace.violate(f"the {side}'s {t.name} has {t.heroes} supporting heroes; each hero supports a "
                          f"different unit type, at most 1 per type", "rw.heroes-supporting-battles", "rw.battles.3")
            return None, False
    eligible = [t for t in types if is_eligible(t, initiative)]
    name = raw.chosen
    if name is not None:
        found = next((t for t in types if t.name == name), None)
        if found is None:
            raise UnreadableInputError(f"{name!r} is not one of the {side}'s unit types", path=f"{side}.chosen")
        why = ("it fights at initiative " + str(found.initiative) if found.initiative != initiative else
               "it already drew Fate cards in this battle" if found.drawn else
               "it has no standing unit left (routed units draw no cards)" if not found.standing else "")
        if why:
            trace.violate(f"the {side} cannot draw for {found.name} in round {initiative}: {why}", is_eligible,
                          *(["rw.concurrent-attack-rule"] if found.drawn else []))
            return None, False
        return found, True
    if len(eligible) > 1:
        trace.decide(side, f"which unit type of initiative {initiative} draws now", "rw.rounds-of-combat.1"
                     if side == "attacker" else "rw.rounds-of-combat.2", "rw.concurrent-attack-rule",
                     options=[t.name for t in eligible], field=f"{side}.chosen")
        able = names([t.name for t in eligible])
        trace.step(f"The {side} has {plural(len(eligible), 'unit type')} able to draw ({able}) and picks one; the "
                   f"order matters, since routs and damage taken first may stop a later type from drawing.",
                   "rw.concurrent-attack-rule")
        return None, False
    return (eligible[0] if eligible else None), True


@rule("rw.rounds-of-combat.repeat", "rw.routed-units-and-heroes", "rw.rounds-of-combat.1", "rw.rounds-of-combat.2",
      "rw.heroes-supporting-battles", "rw.fate-card-breakdown", "rw.resolving-fate-cards.1")
def _draw(side: str, raw: CombatSide, initiative: int, trace: Trace, corpus: Corpus) -> Draw:
    """Work out one side's draw: type, number of cards, and the section totals once the cards are known."""
    t, settled = _choose(side, raw, initiative, trace)
    if not settled:
        return Draw(None, None, None)
    if t is None:
        if raw.cards:
            trace.violate(f"the {side} lists cards, but none of his unit types can draw at initiative {initiative}",
                          is_eligible, "rw.rounds-of-combat.repeat")
            return Draw(None, 0, None)
        trace.step(f"The {side} has no unit type left to draw at initiative {initiative}: no standing unit of that "
                   f"row has yet to draw, so he draws nothing.", "rw.rounds-of-combat.repeat",
                   "rw.routed-units-and-heroes")
        return Draw(None, 0, dict.fromkeys(EFFECTS, 0))
    cards = raw.cards
    base = cards_to_draw(t, corpus, extra=False)
    extra = bool(t.heroes) and (cards is None or len(cards) == base + 1)
    n = cards_to_draw(t, corpus, extra=extra)
    routed = (f"; its {plural(t.routed, 'routed unit')} {'draws' if t.routed == 1 else 'draw'} nothing"
              if t.routed else "")
    hero = " + 1 for its supporting hero" if extra else ""
    look = " (he looks at them all and discards 1 without effect)" if extra else ""
    trace.step(f"The {side} draws for {t.name}: {plural(t.standing, 'standing unit')}{hero}, so "
               f"{plural(n, 'Fate card')}{look}{routed}; it reads the {t.unit_class} section.",
               "rw.rounds-of-combat.1" if side == "attacker" else "rw.rounds-of-combat.2",
               *(["rw.routed-units-and-heroes"] if t.routed else []), *(["rw.heroes-supporting-battles"] if extra
                                                                        else []),
               "rw.fate-card-breakdown", f"rw.unit-classes.{t.unit_class}")
    if cards is None:
        return Draw(t, n, None)
    if len(cards) < base or len(cards) > base + 1 or (len(cards) == base + 1 and not t.heroes):
        most = base + (1 if t.heroes else 0)
        trace.violate(f"the {side} holds {plural(len(cards), 'card')} for {t.name} but must draw "
                      + (f"{base}" if most == base else f"{base}, or {most} with the supporting hero's extra card")
                      + " (the full number is always drawn)", "rw.resolving-fate-cards.1", cards_to_draw)
        return Draw(t, n, None)
    discard = raw.discard
    if discard is not None and (not extra or discard >= len(cards)):
        trace.violate(f"the {side} names card {discard + 1} to discard, but "
                      + ("no extra card was drawn" if not extra else f"only {plural(len(cards), 'card')} were drawn"),
                      "rw.heroes-supporting-battles")
        return Draw(t, n, None)
    if extra and discard is None:
        trace.decide(side, f"which of the {len(cards)} cards drawn for {t.name} to discard without effect",
                     "rw.heroes-supporting-battles", options=list(range(len(cards))), field=f"{side}.discard")
        return Draw(t, n, None)
    res = totals(cards, t.unit_class, discard)
    kept = f" (card {(discard or 0) + 1} discarded by the supporting hero)" if extra else ""
    trace.step(f"The {side}'s {t.unit_class} sections{kept}: {res['special']} special, {res['rout']} rout, "
               f"{res['damage']} damage.", totals, f"rw.unit-classes.{t.unit_class}",
               *(["rw.heroes-supporting-battles"] if extra else []))
    return Draw(t, n, res)


LABELS: dict[str, Label] = {
    "attacker_type": "Attacker's type drawing", "defender_type": "Defender's type drawing",
    "attacker_draws": "Attacker draws (Fate cards)", "defender_draws": "Defender draws (Fate cards)",
    "attacker_results": "Attacker's icons", "defender_results": "Defender's icons",
    "sequence": "Order of resolution",
}


class SectionTotals(Outcome):
    """The special, rout and damage icons of the kept cards."""

    special: int
    rout: int
    damage: int


class Resolution(Outcome):
    """One effect to resolve: whose, which and how many."""

    side: Literal["attacker", "defender"]
    effect: Literal["special", "rout", "damage"]
    count: int


class CombatRoundOutcome(Outcome):
    """Each side's type drawing, its number of Fate cards and their icons, and the order of resolution."""

    attacker_type: str | None = None
    attacker_draws: int | None = None
    attacker_results: SectionTotals | None = None
    defender_type: str | None = None
    defender_draws: int | None = None
    defender_results: SectionTotals | None = None
    sequence: list[Resolution] | None = None


def _totals(res: Mapping[str, int] | None) -> SectionTotals | None:
    return None if res is None else SectionTotals(special=res["special"], rout=res["rout"], damage=res["damage"])


@rule("rw.term.miss", "rw.rounds-of-combat.repeat", "rw.rounds-of-combat.3", "rw.rounds-of-combat.4",
      "rw.rounds-of-combat.5", "rw.concurrent-attack-rule")
def _order(draws: Mapping[str, Draw], seq: Sequence[Mapping[str, Any]], trace: Trace) -> None:
    """Steps 3-5: specials, then routs, then damage, the attacker first each time; every drawn card resolves."""
    if not seq:
        trace.step("Nothing to resolve: every kept card is a miss (or no side drew).", "rw.term.miss",
                   "rw.rounds-of-combat.repeat")
    else:
        order = "; ".join(f"{e['side']} {e['count']} {e['effect']}" for e in seq)
        trace.step(f"Resolve specials, then routs, then damage, the attacker first each time: {order}.",
                   "rw.rounds-of-combat.3", "rw.rounds-of-combat.4", "rw.rounds-of-combat.5")
    if draws["attacker"].draws and draws["defender"].draws:
        trace.step("Every drawn card resolves, even if the attacker's routs or damage rout or destroy the "
                   "defender's drawing units first (Concurrent Attack Rule).", "rw.concurrent-attack-rule")
    trace.step("Then both sides discard the drawn cards; standing units of this row that have not drawn go next, "
               "then the next initiative row.", "rw.rounds-of-combat.repeat")


@situation(GAME, "combat_round", CombatRoundPosition, labels=LABELS)
@rule("rw.rounds-of-combat", "rw.battles.5")
def resolve_combat_round(pos: CombatRoundPosition, trace: Trace, corpus: Corpus) -> CombatRoundOutcome:
    """Resolve one exchange of a round of combat: who draws how many Fate cards, their totals and the order."""
    initiative = pos.initiative
    trace.step(f"Round {initiative} of combat: initiative {initiative} units attack; the attacker picks a unit "
               f"type and draws, then the defender.", "rw.rounds-of-combat", "rw.battles.5")
    draws = {s: _draw(s, pos.side(s), initiative, trace, corpus) for s in SIDES}
    att, dfd = draws["attacker"], draws["defender"]
    out = CombatRoundOutcome(attacker_type=att.type.name if att.type else None, attacker_draws=att.draws,
                             attacker_results=_totals(att.results),
                             defender_type=dfd.type.name if dfd.type else None, defender_draws=dfd.draws,
                             defender_results=_totals(dfd.results))
    a, b = att.results, dfd.results
    if trace.violations or a is None or b is None:
        if not trace.violations and not trace.decisions:
            trace.summarize(_draw_summary(draws) + "; give the cards drawn to total them")
        return out
    seq = sequence(a, b)
    out.sequence = [Resolution(side=e["side"], effect=e["effect"], count=e["count"]) for e in seq]
    _order(draws, seq, trace)
    trace.summarize(_draw_summary(draws) + (": " + "; ".join(_side_text(s, draws[s]) for s in SIDES
                                                             if draws[s].draws)
                                            + " (specials, then routs, then damage, the attacker first)"
                                            if seq else (": all misses" if any(d.draws for d in draws.values())
                                                         else "; the next initiative row fights")))
    return out


def _draw_summary(draws: Mapping[str, Draw]) -> str:
    parts = [f"the {s} draws {plural(d.draws or 0, 'Fate card')} for {d.type.name}" if d.type else
             f"the {s} draws nothing" for s, d in draws.items()]
    text = " and ".join(parts)
    return text[0].upper() + text[1:]


def _side_text(side: str, d: Draw) -> str:
    res = d.results or {}
    got = [f"{res[k]} {k}" for k in EFFECTS if res.get(k)]
    return f"{side} {names(got) if got else 'all misses'}"
