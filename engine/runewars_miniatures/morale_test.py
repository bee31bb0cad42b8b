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

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, labelled, maybe, refuse
from engine.runewars_miniatures.common import GAME, Game, Name, and_list, plural, possessive, tokens
from engine.runewars_miniatures.morale import attack_severity, can_spend_panic, shooting_into_melee_severity

CardType = Annotated[Literal["doubt", "fear", "confusion"],
                     Field(json_schema_extra=labelled({"doubt": "Doubt", "fear": "Fear", "confusion": "Confusion"}))]


class Unit(Model):
    """The unit that suffers the morale test."""

    name: Name = Field(title="Unit tested")
    player: str | None = maybe(title="Its player", max_length=80)
    panic_tokens: int = Field(0, ge=0, le=20, title="Panic tokens on the unit")
    steadfast: list[CardType] | None = maybe("Morale card types the unit is Steadfast against.",
                                              title="Steadfast against", max_length=3)


class MoraleCardDrawn(Model):
    """A morale card the opponent drew."""

    name: Name | None = maybe(title="Card")
    type: CardType | None = maybe(title="Type")
    morale_icons: int = Field(ge=0, le=10, title="Morale icons printed")


class MoraleTestPosition(OpenPosition):
    """A morale test: what caused it, the unit tested, panic tokens spent and the cards drawn."""

    game: Game
    situation: Literal["morale_test"]
    cause: Literal["attack", "ranged_into_melee", "effect"] = Field(
        "attack", title="Cause", description="An attack's morale icons (step 11); a ranged attack shot into a melee "
        "this unit is in (severity 1); another effect naming a severity.",
        json_schema_extra=labelled({"attack": "An attack's morale icons", "ranged_into_melee":
                                    "Shot into a melee it is in", "effect": "An effect naming a severity"}))
    morale_icons: int = Field(0, ge=0, le=30, title="Morale icons spent (attack)")
    severity: int | None = maybe(title="Severity named by the effect (effect)", ge=0, le=30)
    unit: Unit
    opponent: str | None = maybe(title="Opponent (draws the cards)", max_length=80)
    panic_tokens_spent: int | None = maybe("Panic tokens the opponent spends from the unit before drawing.",
                                           title="Panic tokens spent", ge=0, le=20)
    drawn: list[MoraleCardDrawn] | None = maybe(title="Morale cards drawn, in order", max_length=30)
    chosen: int | None = maybe(title="Card resolved (index in drawn)", ge=0, le=30)


    def reading(self) -> list[str]:
        """Return the cause, the unit tested, panic tokens spent, the cards drawn and the card chosen."""
        cause = {"attack": f"an attack's {plural(self.morale_icons, 'morale icon')}",
                 "ranged_into_melee": "a ranged attack shot into a melee the unit is in",
                 "effect": f"an effect naming severity {self.severity}"}[self.cause]
        u = self.unit
        who = u.name + (f" ({u.player})" if u.player else "")
        facts = [tokens(u.panic_tokens) + " on it"]
        if u.steadfast:
            facts.append("Steadfast against " + and_list(list(u.steadfast)))
        out = [f"Cause: {cause}.", f"Unit tested: {who}, " + ", ".join(facts) + "."]
        if self.opponent:
            out.append(f"Opponent drawing the cards: {self.opponent}.")
        if self.panic_tokens_spent is not None:
            out.append(f"Panic tokens spent before drawing: {self.panic_tokens_spent}.")
        if self.drawn is not None:
            cards = [f"card {i + 1} {c.name or ''}".rstrip() + f" ({c.type + ', ' if c.type else ''}"
                     f"{plural(c.morale_icons, 'morale icon')})" for i, c in enumerate(self.drawn)]
            out.append("Drawn: " + ("; ".join(cards) if cards else "no card") + ".")
        if self.chosen is not None:
            out.append(f"Card chosen: card {self.chosen + 1}.")
        return out
    @model_validator(mode="after")
    def _effect_names_severity(self) -> MoraleTestPosition:
        if self.cause == "effect" and self.severity is None:
            raise refuse("missing field 'severity' (required when cause is 'effect')", "severity")
        return self


class MoraleTestOutcome(Outcome):
    """The test's severity, the cards to draw, the cards that can be resolved and the one resolved."""

    severity: int | None = None
    cards_drawn: int | None = None
    drawn_by: str | None = None
    panic_tokens_left: int
    resolvable: list[int] | None = None
    resolved: int | None = None
    discarded: int = 0


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


def _all_drawn(n: int) -> str:
    """Return "The drawn card is" / "All 2 drawn cards are"."""
    return "The drawn card is" if n == 1 else f"All {n} drawn cards are"


@rule("rwm.53.3")
def is_resolvable(shown: int, severity: int) -> bool:
    """Return whether a drawn card can be resolved: it shows no more morale icons than the severity."""
    return shown <= severity


@rule("rwm.53", "rwm.53.1", "rwm.10.13")
def _base(pos: MoraleTestPosition, trace: Trace, corpus: Corpus) -> int:
    """The severity before panic tokens: from the attack's morale icons, a shot into a melee or the effect."""
    if pos.cause == "ranged_into_melee":
        base = shooting_into_melee_severity(corpus)
        trace.step(f"A ranged attack was shot into a melee this unit is in: it suffers a morale test of severity "
                   f"{base}.", shooting_into_melee_severity)
        return base
    if pos.cause == "effect":
        base = pos.severity or 0
        trace.step(f"The effect names a morale test of severity {base}.", "rwm.53", "rwm.53.1")
        return base
    base = pos.morale_icons
    trace.step(f"Attack step 11: all {plural(base, 'morale icon')} in the final pool are spent, 1 severity each.",
               attack_severity, "rwm.10.13")
    return base


@rule("rwm.12.1", "rwm.53.2", "rwm.10.11")
def _panic(pos: MoraleTestPosition, out: MoraleTestOutcome, base: int, trace: Trace, corpus: Corpus) -> int | None:
    """Panic tokens spent before drawing (+1 severity each): return the severity, or None while open or illegal."""
    name, held = pos.unit.name, pos.unit.panic_tokens
    opponent = pos.opponent or "the opponent"
    spent = pos.panic_tokens_spent
    if spent is None and held:
        trace.decide("opponent", f"how many of {possessive(name)} {plural(held, 'panic token')} to spend "
                                 f"before drawing "
                     f"(each raises the severity by 1)", test_severity, "rwm.12.1",
                     options=range(held + 1), field="panic_tokens_spent")
        trace.summarize(f"{name} suffers a morale test of severity {base} before panic tokens; {opponent} first "
                        f"decides how many of its {plural(held, 'panic token')} to spend.")
        return None
    spent = spent or 0
    if spent < 0 or not can_spend_panic(spent, held):
        trace.violate(f"{plural(spent, 'panic token')} spent, but {name} holds {held}", "rwm.12.1", can_spend_panic)
        return None
    attack = pos.cause == "attack"
    severity = attack_severity(base, spent, corpus) if attack else test_severity(base, spent, corpus)
    out.severity = out.cards_drawn = out.discarded = severity
    out.panic_tokens_left = held - spent
    if spent:
        trace.step(f"{opponent} spends {plural(spent, 'panic token')} from {name} before drawing (discarded): "
                   f"severity {base} + {spent} = {severity}.", test_severity, "rwm.12.1",
                   *(["rwm.53.2", "rwm.10.11"] if attack else []))
    return severity


@rule("rwm.53.1")
def _draw(pos: MoraleTestPosition, out: MoraleTestOutcome, severity: int, trace: Trace) -> bool:
    """The opponent draws severity cards: return whether the drawn cards are there to choose from."""
    name, opponent = pos.unit.name, pos.opponent or "the opponent"
    trace.step(f"{opponent} (the unit's opponent) draws {plural(severity, 'morale card')}.", "rwm.53.1")
    drawn = pos.drawn
    if severity == 0:
        trace.step("Severity 0: no card is drawn, so the test has no effect.", "rwm.53.1")
        trace.summarize(f"{possessive(name)} morale test has severity 0: no card is drawn and nothing happens.")
        out.resolvable, out.discarded = [], 0
        return False
    if drawn is None:
        trace.summarize(f"{name} suffers a morale test of severity {severity}: {opponent} draws "
                        f"{plural(severity, 'card')} and resolves 1 showing at most {severity} morale icons.")
        return False
    if len(drawn) != severity:
        trace.violate(f"{plural(len(drawn), 'morale card')} drawn, but a severity-{severity} test draws {severity}",
                      "rwm.53.1")
        return False
    return True


@situation(GAME, "morale_test", MoraleTestPosition, labels=LABELS)
def resolve_morale_test(pos: MoraleTestPosition, trace: Trace, corpus: Corpus) -> MoraleTestOutcome:
    """Resolve a morale test: severity, panic tokens, the cards drawn, Steadfast and the card resolved."""
    out = MoraleTestOutcome(drawn_by=pos.opponent, panic_tokens_left=pos.unit.panic_tokens)
    base = _base(pos, trace, corpus)
    severity = _panic(pos, out, base, trace, corpus)
    if severity is None or not _draw(pos, out, severity, trace):
        return out
    _choose(out, pos, pos.drawn or [], severity, trace, corpus)
    return out


@rule("rwm.45.6", "rwm.53.1", "rwm.53.6", "rwm.53.3", "rwm.53.5")
def _choose(out: MoraleTestOutcome, pos: MoraleTestPosition, drawn: Sequence[MoraleCardDrawn], severity: int,
            trace: Trace, corpus: Corpus) -> None:
    """The cards that can be resolved (Steadfast counted), and the one the opponent resolves."""
    name, opponent = pos.unit.name, pos.opponent or "the opponent"
    steadfast = list(pos.unit.steadfast or [])
    shown = [shown_icons(c.morale_icons, c.type, steadfast, corpus) for c in drawn]
    resolvable = [i for i, n in enumerate(shown) if is_resolvable(n, severity)]
    out.resolvable, out.discarded = resolvable, len(drawn)
    boosted = [i for i, c in enumerate(drawn) if c.type in steadfast]
    labels = [c.name or f"card {i + 1}" for i, c in enumerate(drawn)]
    trace.step(f"Cards showing at most {severity} morale icons can be resolved: "
               + (", ".join(labels[i] for i in resolvable) or "none") + ".", is_resolvable)
    if boosted:
        trace.step(f"{name} is Steadfast against {', '.join(steadfast)}: "
                   + ", ".join(f"{labels[i]} counts {shown[i]} icons" for i in boosted) + ".", shown_icons)
    chosen = pos.chosen
    if chosen is not None and chosen not in resolvable:
        why = (f"there is no drawn card {chosen}" if not 0 <= chosen < len(drawn)
               else f"{labels[chosen]} shows {shown[chosen]} morale icons, more than the severity {severity}")
        trace.violate(f"chosen card cannot be resolved: {why}", is_resolvable,
                      *(["rwm.45.6"] if chosen in boosted else []))
        return
    if chosen is None and len(resolvable) > 1:
        trace.decide("opponent", "which resolvable morale card to resolve", "rwm.53.1", is_resolvable,
                     options=resolvable, field="chosen")
        trace.step(f"{_all_drawn(len(drawn))} discarded once the test is resolved.", "rwm.53.6")
        trace.summarize(f"{possessive(name)} severity-{severity} test: {opponent} chooses 1 of "
                        f"{plural(len(resolvable), 'resolvable card')} to resolve.")
        return
    if not resolvable:
        trace.step("No drawn card can be resolved, so the test has no effect.", "rwm.53.3")
        trace.step(f"{_all_drawn(len(drawn))} discarded.", "rwm.53.6")
        trace.summarize(f"{possessive(name)} severity-{severity} test has no effect: none of the "
                        f"{plural(len(drawn), 'card')} drawn can be resolved.")
        return
    pick = resolvable[0] if chosen is None else chosen
    out.resolved = pick
    trace.step(f"{opponent} resolves {labels[pick]}: on it, 'the unit' is {name} and 'you' is {opponent}.",
               "rwm.53.1", "rwm.53.5")
    trace.step(f"{_all_drawn(len(drawn))} discarded, {labels[pick]} included.", "rwm.53.6")
    trace.summarize(f"{name} suffers a severity-{severity} morale test: {opponent} draws "
                    f"{plural(len(drawn), 'card')} and resolves {labels[pick]}.")
