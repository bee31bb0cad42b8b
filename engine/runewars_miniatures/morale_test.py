"""RuneWars Miniatures morale tests (entry 53): severity, panic tokens, drawing, Steadfast and the card resolved.

Paragraphs: ``rwm.53.1`` (the opponent draws severity cards and resolves 1), ``rwm.53.2`` / ``rwm.10.11`` /
``rwm.52.1`` (attack severity), ``rwm.53.2.b1`` and ``rwm.12.1`` / ``rwm.12.1.b3`` (panic tokens spent
before drawing, +1 each), ``rwm.53.3`` (resolvable cards), ``rwm.45.6`` (Steadfast), ``rwm.65.3``
(shooting into a melee: severity 1), ``rwm.53.5`` (who is who on the card), ``rwm.53.6`` (discard).

What a morale card does is printed on the card, not in the Rules Reference, so the ruling names the card
resolved and stops there. When ``drawn`` is not given the ruling says how many cards to draw and leaves
``resolvable``/``resolved`` null; a severity of 0 draws nothing and the test has no effect.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars_miniatures.common import GAME, plural
from engine.runewars_miniatures.morale import attack_severity, can_spend_panic, shooting_into_melee_severity
from engine.schema import Schema, arr, enum, integer, obj, text

CARD_TYPE: Schema = enum("doubt", "fear", "confusion")
UNIT: Schema = {
    **obj(["name"],
          name={**text(), "title": "Unit tested"},
          player={**text(80), "title": "Its player"},
          panic_tokens={**integer(0, 20), "title": "Panic tokens on the unit", "default": 0},
          steadfast={**arr({**CARD_TYPE, "title": "Morale card type"}, max_items=3), "title": "Steadfast against",
                     "description": "Morale card types the unit is Steadfast against."}),
    "title": "Unit",
}
DRAWN: Schema = {
    **obj(["morale_icons"],
          name={**text(), "title": "Card"},
          type={**CARD_TYPE, "title": "Type"},
          morale_icons={**integer(0, 10), "title": "Morale icons printed"}),
    "title": "Morale card drawn",
}
SCHEMA: dict[str, Any] = obj(
    ["cause", "unit"], extra=True,
    cause={**enum("attack", "ranged_into_melee", "effect"), "title": "Cause",
           "description": "attack: step 11 of an attack; ranged_into_melee: an ally of the shooter was engaged "
                          "with the target (severity 1); effect: another effect naming a severity.",
           "default": "attack"},
    morale_icons={**integer(0, 30), "title": "Morale icons spent (attack)", "default": 0},
    severity={**integer(0, 30), "title": "Severity named by the effect (effect)"},
    unit=UNIT,
    opponent={**text(80), "title": "Opponent (draws the cards)"},
    panic_tokens_spent={**integer(None, 20), "title": "Panic tokens spent",
                        "description": "Panic tokens the opponent spends from the unit before drawing."},
    drawn={**arr(DRAWN, max_items=30), "title": "Morale cards drawn, in order"},
    chosen={**integer(None, 30), "title": "Card resolved (index in drawn)"},
)

LABELS: dict[str, Label] = {
    "severity": "Severity", "cards_drawn": "Morale cards to draw", "drawn_by": "Drawn by",
    "panic_tokens_left": "Panic tokens left", "resolvable": "Cards that can be resolved (#)",
    "resolved": "Card resolved (#)", "discarded": "Morale cards discarded",
}


@rule("rwm.53.1", "rwm.12.1.b3", "rwm.53.2.b1")
def test_severity(base: int, panic_spent: int, corpus: Corpus) -> int:
    """Return the severity of a test that is not an attack's: its own severity plus 1 per panic token spent."""
    return base + panic_spent * int(corpus.fact("rwm.52.1", "severity_per_panic_token"))


@rule("rwm.53.3", "rwm.45.6")
def shown_icons(icons: int, card_type: str | None, steadfast: Sequence[str], corpus: Corpus) -> int:
    """Return the morale icons a card counts as showing: 1 more when the unit is Steadfast against its type."""
    return icons + (int(corpus.fact("rwm.45.6", "extra_morale_icons")) if card_type in steadfast else 0)


@rule("rwm.53.3")
def is_resolvable(shown: int, severity: int) -> bool:
    """Return whether a drawn card can be resolved: it shows no more morale icons than the severity."""
    return shown <= severity


def _base(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> int:
    cause = pos["cause"]
    if cause == "ranged_into_melee":
        base = shooting_into_melee_severity(corpus)
        trace.step(f"A ranged attack was shot into a melee this unit is in: it suffers a morale test of severity "
                   f"{base}.", shooting_into_melee_severity)
        return base
    if cause == "effect":
        if pos.get("severity") is None:
            raise UnreadableInputError("missing field 'severity' (required when cause is 'effect')", path="severity")
        base = int(pos["severity"])
        trace.step(f"The effect names a morale test of severity {base}.", "rwm.53", "rwm.53.1")
        return base
    base = int(pos.get("morale_icons", 0))
    trace.step(f"Attack step 11: all {plural(base, 'morale icon')} in the final pool are spent, 1 severity each.",
               attack_severity, "rwm.10.13")
    return base


@situation(GAME, "morale_test", SCHEMA, labels=LABELS)
def resolve_morale_test(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve a morale test: severity, panic tokens, the cards drawn, Steadfast and the card resolved."""
    unit = pos["unit"]
    name = unit["name"]
    opponent = pos.get("opponent") or "the opponent"
    held = int(unit.get("panic_tokens", 0))
    out: dict[str, Any] = {"severity": None, "cards_drawn": None, "drawn_by": pos.get("opponent"),
                           "panic_tokens_left": held, "resolvable": None, "resolved": None, "discarded": 0}
    base = _base(pos, trace, corpus)
    spent = pos.get("panic_tokens_spent")
    if spent is None and held:
        trace.decide("opponent", f"how many of {name}'s {plural(held, 'panic token')} to spend before drawing "
                     f"(each raises the severity by 1)", test_severity, "rwm.12.1",
                     options=range(held + 1), field="panic_tokens_spent")
        trace.summarize(f"{name} suffers a morale test of severity {base} before panic tokens; {opponent} first "
                        f"decides how many of its {plural(held, 'panic token')} to spend.")
        return out
    spent = int(spent or 0)
    if spent < 0 or not can_spend_panic(spent, held):
        trace.violate(f"{spent} panic token(s) spent, but {name} holds {held}", "rwm.12.1", can_spend_panic)
        return out
    severity = (attack_severity(base, spent, corpus) if pos["cause"] == "attack"
                else test_severity(base, spent, corpus))
    out.update(severity=severity, cards_drawn=severity, panic_tokens_left=held - spent, discarded=severity)
    if spent:
        trace.step(f"{opponent} spends {plural(spent, 'panic token')} from {name} before drawing (discarded): "
                   f"severity {base} + {spent} = {severity}.", test_severity, "rwm.12.1",
                   *(["rwm.53.2", "rwm.10.11"] if pos["cause"] == "attack" else []))
    trace.step(f"{opponent} (the unit's opponent) draws {plural(severity, 'morale card')}.", "rwm.53.1")
    drawn = pos.get("drawn")
    if severity == 0:
        trace.step("Severity 0: no card is drawn, so the test has no effect.", "rwm.53.1")
        trace.summarize(f"{name}'s morale test has severity 0: no card is drawn and nothing happens.")
        out.update(resolvable=[], discarded=0)
        return out
    if drawn is None:
        trace.summarize(f"{name} suffers a morale test of severity {severity}: {opponent} draws "
                        f"{plural(severity, 'card')} and resolves 1 showing at most {severity} morale icons.")
        return out
    if len(drawn) != severity:
        trace.violate(f"{len(drawn)} morale card(s) drawn, but a severity-{severity} test draws {severity}",
                      "rwm.53.1")
        return out
    return _choose(out, pos, drawn, severity, name, opponent, trace, corpus)


def _choose(out: dict[str, Any], pos: Mapping[str, Any], drawn: Sequence[Mapping[str, Any]], severity: int,
            name: str, opponent: str, trace: Trace, corpus: Corpus) -> dict[str, Any]:
    steadfast = list(pos["unit"].get("steadfast", []))
    shown = [shown_icons(int(c["morale_icons"]), c.get("type"), steadfast, corpus) for c in drawn]
    resolvable = [i for i, n in enumerate(shown) if is_resolvable(n, severity)]
    out.update(resolvable=resolvable, discarded=len(drawn))
    boosted = [i for i, c in enumerate(drawn) if c.get("type") in steadfast]
    labels = [c.get("name") or f"card {i}" for i, c in enumerate(drawn)]
    trace.step(f"Cards showing at most {severity} morale icons can be resolved: "
               + (", ".join(labels[i] for i in resolvable) or "none") + ".", is_resolvable)
    if boosted:
        trace.step(f"{name} is Steadfast against {', '.join(steadfast)}: "
                   + ", ".join(f"{labels[i]} counts {shown[i]} icons" for i in boosted) + ".", shown_icons)
    chosen = pos.get("chosen")
    if chosen is not None and chosen not in resolvable:
        why = (f"there is no drawn card {chosen}" if not 0 <= chosen < len(drawn)
               else f"{labels[chosen]} shows {shown[chosen]} morale icons, more than the severity {severity}")
        trace.violate(f"chosen card cannot be resolved: {why}", is_resolvable,
                      *(["rwm.45.6"] if chosen in boosted else []))
        return out
    if chosen is None and len(resolvable) > 1:
        trace.decide("opponent", "which resolvable morale card to resolve", "rwm.53.1", is_resolvable,
                     options=resolvable, field="chosen")
        trace.step(f"All {len(drawn)} drawn card(s) are discarded once the test is resolved.", "rwm.53.6")
        trace.summarize(f"{name}'s severity-{severity} test: {opponent} chooses 1 of "
                        f"{plural(len(resolvable), 'resolvable card')} to resolve.")
        return out
    if not resolvable:
        trace.step("No drawn card can be resolved, so the test has no effect.", "rwm.53.3")
        trace.step(f"All {len(drawn)} drawn card(s) are discarded.", "rwm.53.6")
        trace.summarize(f"{name}'s severity-{severity} test has no effect: none of the "
                        f"{plural(len(drawn), 'card')} drawn can be resolved.")
        return out
    pick = resolvable[0] if chosen is None else int(chosen)
    out["resolved"] = pick
    trace.step(f"{opponent} resolves {labels[pick]}: on it, 'the unit' is {name} and 'you' is {opponent}.",
               "rwm.53.1", "rwm.53.5")
    trace.step(f"All {len(drawn)} drawn card(s) are discarded, {labels[pick]} included.", "rwm.53.6")
    trace.summarize(f"{name} suffers a severity-{severity} morale test: {opponent} draws "
                    f"{plural(len(drawn), 'card')} and resolves {labels[pick]}.")
    return out
