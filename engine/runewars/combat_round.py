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
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars.common import FACTIONS, GAME, NAME, names, plural
from engine.runewars.forms import CLASSES, EFFECTS, doc, fate_card, read_section
from engine.schema import BOOL, arr, enum, integer, nullable, obj

SIDES = ("attacker", "defender")
TYPE = obj(["type", "class", "initiative", "standing"],
           type=doc(NAME, "Unit type", "The unit type's name, e.g. Archer."),
           initiative=doc(integer(1, 5), "Initiative", "The initiative row of this type (1-5).", 1),
           standing=doc(integer(0, 40), "Standing units", "Standing units of this type in the battle now.", 1),
           routed=doc(integer(0, 40), "Routed units", "Routed units of this type in the battle (they draw no "
                      "cards).", 0),
           drawn=doc(BOOL, "Already drew", "This type already drew Fate cards in this battle.", False),
           supporting_heroes=doc(integer(0, 9), "Supporting heroes", "Heroes placed beside this type in step 3 of "
                                 "the battle (at most 1).", 0))
TYPE["properties"]["class"] = doc(enum(*CLASSES), "Base shape", "The unit class: which Fate card section it reads.",
                                  "triangle")  # "class" is a Python keyword
SIDE = obj(["types"],
           faction=doc(enum(*FACTIONS, "neutral"), "Faction", "The side's faction (neutral for unallied neutral "
                       "defenders)."),
           types=doc(arr(TYPE, max_items=12), "Unit types", "The side's unit types in the battle (other "
                     "initiatives may be listed; they are ignored)."),
           chosen=doc(nullable(NAME), "Type drawing now", "The unit type that draws in this exchange (needed only "
                      "when several could).", None),
           cards=doc(arr(fate_card(), max_items=41), "Cards drawn", "The Fate cards drawn for the chosen type, in "
                     "draw order (leave out to get the draw counts only)."),
           discard=doc(nullable(integer(0, 40)), "Discarded card", "Index in the cards of the card thrown away "
                       "because a hero supports the type.", None))
SCHEMA: dict[str, Any] = obj(
    ["initiative", "attacker", "defender"], extra=True,
    initiative=doc(integer(1, 5), "Initiative now fighting", "The round of combat: the initiative row that "
                   "attacks.", 1),
    attacker=doc(SIDE, "Attacker"),
    defender=doc(SIDE, "Defender"),
)


@dataclass(frozen=True)
class UnitType:
    """A unit type of one side in the battle."""

    name: str
    unit_class: str
    initiative: int
    standing: int
    routed: int = 0
    drawn: bool = False
    heroes: int = 0

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> UnitType:
        """Read a unit type of the position."""
        return cls(str(raw["type"]), raw["class"], int(raw["initiative"]), int(raw["standing"]),
                   int(raw.get("routed") or 0), bool(raw.get("drawn", False)), int(raw.get("supporting_heroes") or 0))


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
def totals(cards: Sequence[Mapping[str, Any]], unit_class: str, discard: int | None = None) -> dict[str, int]:
    """Return the special, rout and damage icons of the section matching the base shape, over the kept cards."""
    out = dict.fromkeys(EFFECTS, 0)
    for i, card in enumerate(cards):
        if i == discard:
            continue
        for k, v in read_section(card.get(unit_class)).items():
            out[k] += v
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


def _types(side: str, raw: Sequence[Mapping[str, Any]]) -> list[UnitType]:
    out = [UnitType.from_json(t) for t in raw]
    seen: set[str] = set()
    for i, t in enumerate(out):
        if t.name in seen:
            raise UnreadableInputError(f"unit type {t.name!r} appears twice", path=f"{side}.types[{i}].type")
        seen.add(t.name)
    return out


def _choose(side: str, raw: Mapping[str, Any], initiative: int, trace: Trace) -> tuple[UnitType | None, bool]:
    """Return the type drawing for a side and whether it is settled (False: a decision or a violation)."""
    types = _types(side, raw["types"])
    for t in types:
        if t.heroes > 1:
            trace.violate(f"the {side}'s {t.name} has {t.heroes} supporting heroes; each hero supports a "
                          f"different unit type, at most 1 per type", "rw.heroes-supporting-battles", "rw.battles.3")
            return None, False
    eligible = [t for t in types if is_eligible(t, initiative)]
    name = raw.get("chosen")
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


def _draw(side: str, raw: Mapping[str, Any], initiative: int, trace: Trace, corpus: Corpus) -> Draw:
    """Work out one side's draw: type, number of cards, and the section totals once the cards are known."""
    t, settled = _choose(side, raw, initiative, trace)
    if not settled:
        return Draw(None, None, None)
    if t is None:
        if raw.get("cards"):
            trace.violate(f"the {side} lists cards, but none of his unit types can draw at initiative {initiative}",
                          is_eligible, "rw.rounds-of-combat.repeat")
            return Draw(None, 0, None)
        trace.step(f"The {side} has no unit type left to draw at initiative {initiative}: no standing unit of that "
                   f"row has yet to draw, so he draws nothing.", "rw.rounds-of-combat.repeat",
                   "rw.routed-units-and-heroes")
        return Draw(None, 0, dict.fromkeys(EFFECTS, 0))
    cards = raw.get("cards")
    base = cards_to_draw(t, corpus, extra=False)
    extra = bool(t.heroes) and (cards is None or len(cards) == base + 1)
    n = cards_to_draw(t, corpus, extra=extra)
    routed = f"; its {plural(t.routed, 'routed unit')} draw nothing" if t.routed else ""
    hero = (" + 1 for its supporting hero (he looks at them all and discards 1 without effect)" if extra else "")
    trace.step(f"The {side} draws for {t.name}: {plural(t.standing, 'standing unit')}, "
               f"{plural(n, 'Fate card')}{hero}{routed}; it reads the {t.unit_class} section.",
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
                      + " (the full number is always drawn)", "rw.resolving-fate-cards.1", cards_to_draw,
                      *(["rw.heroes-supporting-battles"] if len(cards) > base else []))
        return Draw(t, n, None)
    discard = raw.get("discard")
    if discard is not None and (not extra or discard >= len(cards)):
        trace.violate(f"the {side} names card {discard} to discard, but "
                      + ("no extra card was drawn" if not extra else f"only {plural(len(cards), 'card')} were drawn"),
                      "rw.heroes-supporting-battles")
        return Draw(t, n, None)
    if extra and discard is None:
        trace.decide(side, f"which of the {len(cards)} cards drawn for {t.name} to discard without effect",
                     "rw.heroes-supporting-battles", options=list(range(len(cards))), field=f"{side}.discard")
        return Draw(t, n, None)
    res = totals(cards, t.unit_class, discard)
    kept = f" (card {discard} discarded by the supporting hero)" if extra else ""
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


@situation(GAME, "combat_round", SCHEMA, labels=LABELS)
def resolve_combat_round(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve one exchange of a round of combat: who draws how many Fate cards, their totals and the order."""
    initiative = int(pos["initiative"])
    trace.step(f"Round {initiative} of combat: initiative {initiative} units attack; the attacker picks a unit "
               f"type and draws, then the defender.", "rw.rounds-of-combat", "rw.battles.5")
    draws = {s: _draw(s, pos[s], initiative, trace, corpus) for s in SIDES}
    out: dict[str, Any] = {}
    for s in SIDES:
        d = draws[s]
        out[f"{s}_type"] = d.type.name if d.type else None
        out[f"{s}_draws"] = d.draws
        out[f"{s}_results"] = d.results
    a, b = draws["attacker"].results, draws["defender"].results
    out["sequence"] = None
    if trace.violations or a is None or b is None:
        if not trace.violations and not trace.decisions:
            trace.summarize(_draw_summary(draws) + "; give the cards drawn to total them")
        return out
    seq = sequence(a, b)
    out["sequence"] = seq
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
