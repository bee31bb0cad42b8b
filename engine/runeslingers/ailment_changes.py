"""Runeslingers: removing and converting ailments.

Removing takes that many instances off the Runeslinger; the ailment stays while an instance is left
(``rs.ailments-advanced-rules.remove``). Converting is remove-then-apply, once per ailment converted, one after
the other (``rs.ailments-advanced-rules.convert``, ``rs.term.convert-ailment``): the applied instance joins its
type or needs a free ailment area (4 in all, boons taking theirs, ``rs.ailments-advanced-rules.four-types``),
never goes under a boon, and each Burn applied triggers Burn I on its own (``rs.ailments.burn``,
``rs.ailments-advanced-rules.instance-effects-in-order``). An effect does as much as it can
(``rs.resolving-effects``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome, labelled, maybe, refuse
from engine.runeslingers.ailments import area_count, burn_i_losses, is_only_concealed, joins_existing
from engine.runeslingers.common import GAME, Ailment, AilmentCounts, ailment_words, plural
from engine.runeslingers.fields import ailments

Change = Literal["remove", "convert"]


class ConvertAilmentsPosition(OpenPosition):
    """An effect removing ailments of one type, or converting them to another, on one Runeslinger."""

    game: Literal["runeslingers"]
    situation: Literal["convert_ailments"]
    exposed: AilmentCounts = ailments("Exposed ailments", "Instances of each ailment type on the Runeslinger and "
                                      "not under a boon, e.g. {\"burn\": 4}.")
    concealed: AilmentCounts = ailments("Ailments under boons", "Instances under a boon.")
    boons: int = Field(0, ge=0, le=4, title="Boons on ailment areas",
                       description="Boons on the Runeslinger's field: each sits on an ailment area.")
    change: Change = Field(title="What the effect does", description="Remove instances, or convert them to "
                           "another type.", json_schema_extra=labelled({"remove": "Remove ailments",
                                                                       "convert": "Convert ailments"}))
    amount: int = Field(ge=1, le=99, title="How many", description="Instances the effect removes or converts.")
    from_type: Ailment | None = maybe("The type taken off (asked when more than one type is on the Runeslinger).",
                                      title="Ailment taken off")
    to_type: Ailment | None = maybe("For a conversion: the type applied instead.", title="Converted to")

    @model_validator(mode="after")
    def _readable(self) -> ConvertAilmentsPosition:
        if self.change == "convert" and self.to_type is None:
            raise refuse("a conversion needs the type it converts to", "to_type")
        if self.change == "convert" and self.to_type == self.from_type:
            raise refuse(f"a conversion turns ailments into a different type, not {self.to_type} into "
                         f"{self.to_type}", "to_type")
        if self.from_type is not None and self.exposed.get(self.from_type, 0) <= 0:
            raise refuse(f"no exposed {self.from_type} to take off", "from_type")
        return self

    def reading(self) -> list[str]:
        """The ailments, those under boons, and the change."""
        out = [f"Exposed ailments: {ailment_words(self.exposed) or 'none'}."]
        if self.concealed or self.boons:
            out.append(f"Boons on ailment areas: {self.boons}; under them: {ailment_words(self.concealed) or 'none'}.")
        what = self.from_type.capitalize() if self.from_type else "ailments (type not named)"
        if self.change == "remove":
            out.append(f"An effect removes {self.amount} {what}.")
        else:
            out.append(f"An effect converts {self.amount} {what} to {str(self.to_type).capitalize()}.")
        return out


class ConvertAilmentsOutcome(Outcome):
    """The ailments after the change, the instances taken off and put on, and Burn I's health losses."""

    exposed: dict[str, int]
    removed: int
    applied: int
    not_applied: int
    burn_i_health_loss: list[int]


@rule("rs.ailments-advanced-rules.remove")
def instances_removed(amount: int, have: int) -> int:
    """Return the instances a removal takes: as many as asked, never more than the Runeslinger has."""
    return min(amount, have)


@rule("rs.ailments-advanced-rules.four-types", "rs.ailments-advanced-rules.not-under-boon")
def can_take(kind: str, exposed: dict[str, int], concealed: dict[str, int], boons: int, corpus: Corpus) -> bool:
    """Return whether one instance of *kind* can be applied: it joins its type, or a free area is left."""
    if joins_existing(kind, exposed):
        return True
    if is_only_concealed(kind, exposed, concealed):
        return False
    used = sum(1 for n in exposed.values() if n > 0) + boons
    return used < area_count(corpus)


@rule("rs.ailments-advanced-rules.remove")
def _type_taken(pos: ConvertAilmentsPosition, trace: Trace) -> str | None:
    """The type taken off: the one named, the only one there, or a choice for the effect's controller."""
    if pos.from_type is not None:
        return pos.from_type
    present = [k for k, n in pos.exposed.items() if n > 0]
    if len(present) == 1:
        return present[0]
    if not present:
        trace.step("The Runeslinger has no exposed ailment: nothing is removed.", "rs.ailments-advanced-rules.remove")
        return None
    trace.step(f"The Runeslinger has {ailment_words(pos.exposed)} exposed and the effect does not say which type "
               "comes off: the effect's controller chooses before anything is taken off.",
               "rs.ailments-advanced-rules.remove")
    trace.decide("the effect's controller", "which exposed ailment type is taken off",
                 "rs.ailments-advanced-rules.remove", options=sorted(present), field="from_type")
    return None


@rule("rs.ailments-advanced-rules.remove", "rs.resolving-effects")
def _remove(pos: ConvertAilmentsPosition, kind: str, exposed: dict[str, int], trace: Trace) -> int:
    """Take the instances off; the ailment stays while one is left."""
    n = instances_removed(pos.amount, exposed[kind])
    exposed[kind] -= n
    left = exposed[kind]
    name = kind.capitalize()
    trace.step(f"Remove {plural(n, name + ' instance')}: {left} {name} {'remains' if left == 1 else 'remain'}"
               + ("; the ailment leaves its area." if not left else ", still one ailment on its area."),
               instances_removed)
    if n < pos.amount:
        trace.step(f"Only {n} could be removed: the effect does as much as it can.", "rs.resolving-effects")
    return n


@rule("rs.ailments-advanced-rules.convert", "rs.term.convert-ailment", "rs.resolving-effects")
def _convert(pos: ConvertAilmentsPosition, kind: str, exposed: dict[str, int], trace: Trace,
             corpus: Corpus) -> tuple[int, int, int]:
    """Remove one, apply one of the new type; repeat for each ailment converted."""
    to = str(pos.to_type)
    old, new = kind.capitalize(), to.capitalize()
    concealed = {str(k): n for k, n in pos.concealed.items()}
    removed = applied = failed = 0
    for _ in range(pos.amount):
        if exposed.get(kind, 0) <= 0:
            trace.step(f"No {old} is left to convert: the effect does as much as it can.", "rs.resolving-effects")
            break
        exposed[kind] -= 1
        removed += 1
        if can_take(to, exposed, concealed, pos.boons, corpus):
            exposed[to] = exposed.get(to, 0) + 1
            applied += 1
        else:
            failed += 1
    trace.step(f"Convert {plural(removed, 'ailment')}, one at a time: each time 1 {old} comes off, then 1 {new} "
               f"is applied ({applied} applied" + (f", {failed} with no free ailment area for {new}" if failed else "")
               + ").", "rs.ailments-advanced-rules.convert", "rs.term.convert-ailment", can_take)
    return removed, applied, failed


def _summary(pos: ConvertAilmentsPosition, out: ConvertAilmentsOutcome, trace: Trace) -> str:
    """One sentence: what came off, what went on, the ailments left, and Burn I."""
    if trace.decisions:
        return "The effect's controller first chooses which ailment type comes off."
    left = ailment_words(out.exposed) if out.exposed else "no ailment"
    present = [k for k, n in pos.exposed.items() if n > 0]
    taken = pos.from_type or (present[0] if len(present) == 1 else "")
    if pos.change == "remove":
        text = (f"{plural(out.removed, (taken.capitalize() + ' ' if taken else '') + 'instance')} "
                f"{'is' if out.removed == 1 else 'are'} removed, leaving {left}")
    else:
        text = (f"{out.removed} {taken.capitalize() or 'ailments'} converted: "
                f"{out.applied} {str(pos.to_type).capitalize()} applied, leaving {left}")
        if out.not_applied:
            text += f" ({out.not_applied} found no free ailment area)"
    if out.burn_i_health_loss:
        text += f"; Burn I costs {plural(len(out.burn_i_health_loss), 'separate loss', 'separate losses')} of 2 health"
    return text + "."


LABELS: dict[str, Label] = {"exposed": "Ailments after", "removed": "Instances taken off", "applied": "Instances "
                            "put on", "not_applied": "Not applied (no free area)",
                            "burn_i_health_loss": "Burn I health losses"}


@situation(GAME, "convert_ailments", ConvertAilmentsPosition, labels=LABELS)
@summarized(_summary)
@rule("rs.ailments-advanced-rules.instance-effects-in-order", "rs.ailments.burn")
def resolve_convert_ailments(pos: ConvertAilmentsPosition, trace: Trace, corpus: Corpus) -> ConvertAilmentsOutcome:
    """Resolve an effect removing ailments, or converting them to another type, one at a time."""
    exposed = {str(k): n for k, n in pos.exposed.items() if n > 0}
    kind = _type_taken(pos, trace)
    removed = applied = failed = 0
    if kind is not None and pos.change == "remove":
        removed = _remove(pos, kind, exposed, trace)
    elif kind is not None:
        removed, applied, failed = _convert(pos, kind, exposed, trace, corpus)
    losses = burn_i_losses(applied, corpus) if pos.to_type == "burn" and applied else []
    if losses:
        trace.step(f"Each Burn applied triggers Burn I on its own, in order: {plural(len(losses), 'loss', 'losses')} "
                   f"of {losses[0]} health, one after another (health loss cannot be blocked).", burn_i_losses,
                   "rs.ailments-advanced-rules.instance-effects-in-order")
    return ConvertAilmentsOutcome(exposed={k: n for k, n in exposed.items() if n > 0}, removed=removed,
                                  applied=applied, not_applied=failed, burn_i_health_loss=losses)
