"""Runeslingers simultaneous triggers and ailments applied together: who orders them (``trigger_order``).

Paragraphs: ``rs.triggered-effects`` (no ladder), ``rs.triggered-effects.simultaneous`` (active player first),
``rs.setup-steps.simultaneous-effects`` (the active player orders simultaneous effects),
``rs.ailments-advanced-rules.order`` and ``.instance-effects-in-order`` (Burn I once per instance),
``rs.ailments.instances-and-levels``, ``rs.advanced-rules-targets.example-1``.

Choices where the book is silent (documented here and in the steps):

- The book describes two players. With more, the non-active players' triggers follow the active player's in
  the order of the list, grouped by controller in the order each controller first appears; the active player,
  who orders simultaneous effects (Setup note), is taken to have chosen that order.
- Ailments applied in one list entry are instances of one type applied one after another; an entry with
  ``on_apply: false`` (an ailment without a level I effect) triggers nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe
from engine.runeslingers.common import GAME, Ailment, joined, plural
from engine.runeslingers.fields import Player, flag, player, unique_ids


class Trigger(Model):
    """A triggered effect: its id, its controller and what it does."""

    id: str = Field(max_length=200, title="Triggered effect",
                    description="A name for it, e.g. the card or stance it comes from.")
    controller: str = Field(max_length=80, title="Controller", description="The player who controls the effect.")
    effect: str | None = maybe("What it does (shown back, not read).", title="Effect", max_length=200)


class AppliedAilment(Model):
    """One ailment type applied, its instances, and whether applying it triggers an effect."""

    model_config = ConfigDict(title="Applied")

    ailment: Ailment = Field(title="Ailment")
    instances: int = Field(ge=1, le=99, title="Instances", description="How many of this ailment are applied.")
    on_apply: bool = flag("Has an on-apply effect", "The ailment's level I effect happens each time an "
                          "instance is applied (e.g. Burn I).")


class AilmentsApplied(Model):
    """Several ailments one effect applies at once."""

    model_config = ConfigDict(title="Ailments applied together")

    target: str | None = maybe("The player the ailments go on.", title="Ailed Runeslinger", max_length=80)
    effect_controller: str | None = maybe("Who controls the effect that applies them.", title="Effect controller",
                                          max_length=80)
    ordered_by_text: bool = flag("Order written on the card", "The effect's text fixes the order of the ailments.")
    applied: list[AppliedAilment] = Field(min_length=1, max_length=12, title="Ailments applied",
                                          description="In the order chosen, or the order written on the card.")


class TriggerOrderPosition(OpenPosition):
    """Effects triggering at the same moment, and ailments one effect applies together."""

    game: Literal["runeslingers"]
    situation: Literal["trigger_order"]
    active_player: Player = player("Active player", "The player whose turn it is.")
    triggers: list[Trigger] = Field(max_length=20, title="Triggered effects",
                                    description="Effects triggering from the same condition at the same moment; "
                                                "within one controller, the list order is that player's chosen "
                                                "order.")
    ailments: AilmentsApplied | None = maybe()

    @model_validator(mode="after")
    def _distinct_ids(self) -> TriggerOrderPosition:
        unique_ids([t.id for t in self.triggers], "id", "triggers")
        return self

    def reading(self) -> list[str]:
        """The active player, each triggered effect with its controller, and the ailments applied."""
        out = [f"Active player: {self.active_player}."]
        for t in self.triggers:
            does = f": {t.effect}" if t.effect else ""
            out.append(f"Triggered effect {t.id}, controlled by {t.controller}{does}.")
        a = self.ailments
        if a is not None:
            items = [f"{x.instances} {x.ailment.title()}" + (" (with an on-apply effect)" if x.on_apply else "")
                     for x in a.applied]
            by = f" by {a.effect_controller}'s effect" if a.effect_controller else ""
            order = " in the order the text gives" if a.ordered_by_text else ""
            out.append(f"Ailments applied to {a.target or 'the target Runeslinger'}{by}{order}: {joined(items)}.")
        return out


class TriggerOrderOutcome(Outcome):
    """The order the triggers resolve in (off the ladder), who orders the ailments, and the on-apply triggers."""

    order: list[str] = Field(default_factory=list)
    uses_ladder: bool
    ailment_order_chosen_by: str | None = None
    instance_triggers: list[str] = Field(default_factory=list)


LABELS: dict[str, Label] = {
    "order": "Resolution order", "uses_ladder": "Uses the ladder",
    "ailment_order_chosen_by": ("Ailment order chosen by", {"text": "the effect's text"}),
    "instance_triggers": "On-apply triggers, in order",
}


# ------------------------------------------------------------------------------------------ rules

@rule("rs.triggered-effects.simultaneous", "rs.setup-steps.simultaneous-effects")
def trigger_order(triggers: Sequence[Trigger], active: str, corpus: Corpus) -> list[Trigger]:
    """Return the order simultaneous triggers resolve in: the active player's (his order), then the others'."""
    first = corpus.fact("rs.triggered-effects.simultaneous", "order")[0]
    mine = [t for t in triggers if t.controller == active]
    theirs = [t for t in triggers if t.controller != active]
    controllers = list(dict.fromkeys(t.controller for t in theirs))
    theirs = [t for c in controllers for t in theirs if t.controller == c]
    return [*mine, *theirs] if first == "active_player_effects" else [*theirs, *mine]


@rule("rs.triggered-effects")
def uses_ladder(corpus: Corpus) -> bool:
    """Return whether triggered effects go on the ladder (they never do: play pauses while they resolve)."""
    return bool(corpus.fact("rs.triggered-effects", "uses_ladder"))


@rule("rs.ailments-advanced-rules.order", "rs.advanced-rules-targets.example-1")
def ailment_order_chooser(active: str, ordered_by_text: bool, corpus: Corpus) -> str:
    """Return who orders ailments applied together: the text when it orders them, else the active player."""
    if ordered_by_text:
        return "text"
    return active if corpus.fact("rs.ailments-advanced-rules.order", "default_order_chooser") == "active_player" \
        else "text"


@rule("rs.ailments-advanced-rules.instance-effects-in-order", "rs.ailments.instances-and-levels")
def instance_triggers(applied: Sequence[AppliedAilment]) -> list[str]:
    """Return one ailment name per on-apply trigger, in application order: each instance triggers by itself."""
    return [a.ailment for a in applied if a.on_apply for _ in range(a.instances)]


# ----------------------------------------------------------------------------------- resolution

@rule("rs.triggered-effects", "rs.setup-steps.simultaneous-effects")
def _triggers(pos: TriggerOrderPosition, out: TriggerOrderOutcome, trace: Trace, corpus: Corpus) -> str:
    """Simultaneous triggers: the active player's first, none on the ladder."""
    active = pos.active_player
    triggers = pos.triggers
    if not triggers:
        return ""
    order = trigger_order(triggers, active, corpus)
    out.order = [t.id for t in order]
    mine = [t.id for t in order if t.controller == active]
    theirs = [t for t in order if t.controller != active]
    if len(triggers) == 1:
        trace.step(f"Only {triggers[0].id} triggers: it resolves at once.", "rs.triggered-effects")
    else:
        trace.step(f"{len(triggers)} effects trigger from the same condition at the same moment: {active}, the "
                   f"active player, resolves theirs first, in the order they choose"
                   + (f" ({', '.join(mine)})" if mine else " (none here)")
                   + "; then the non-active player resolves theirs"
                   + (f" ({', '.join(t.id for t in theirs)})." if theirs else " (none here)."), trigger_order)
    others = list(dict.fromkeys(t.controller for t in theirs))
    if len(others) > 1:
        trace.step(f"The book orders the triggers of one non-active player; here {', '.join(others)} all have "
                   "some. The active player orders simultaneous effects, so the list order is taken as that "
                   "choice.", "rs.setup-steps.simultaneous-effects")
    ladder = uses_ladder(corpus)
    out.uses_ladder = ladder
    trace.step("Triggered effects never go on the ladder and cannot be answered: play pauses, each one resolves, "
               "then play resumes.", uses_ladder)
    if len(order) == 1:
        return f"{order[0].id} resolves at once, off the ladder"
    return f"The triggers resolve in this order, off the ladder: {', '.join(out.order)}"


def _ailments(pos: TriggerOrderPosition, out: TriggerOrderOutcome, trace: Trace, corpus: Corpus) -> str:
    """Ailments applied together: who orders them, and one on-apply trigger per instance."""
    raw = pos.ailments
    if raw is None:
        return ""
    active = pos.active_player
    chooser = ailment_order_chooser(active, raw.ordered_by_text, corpus)
    out.ailment_order_chosen_by = chooser
    target = raw.target or "the target Runeslinger"
    controller = raw.effect_controller
    applied = raw.applied
    listing = ", ".join(f"{a.instances} {a.ailment}" for a in applied)
    if chooser == "text":
        trace.step(f"The effect's text orders the ailments it applies to {target}: {listing}.", ailment_order_chooser)
    elif len(applied) > 1:
        trace.step(f"The text does not order the ailments, so {active}, the active player, chooses the order in "
                   f"which they are applied to {target}"
                   + (f", although the effect is {controller}'s" if controller and controller != active else "")
                   + f"; taken from the list: {listing}.", ailment_order_chooser)
    else:
        trace.step(f"One ailment type is applied to {target} ({listing}); were several applied, {active}, the "
                   "active player, would order them, unless the text does.", ailment_order_chooser)
    fired = instance_triggers(applied)
    out.instance_triggers = fired
    if fired:
        kinds = list(dict.fromkeys(fired))
        trace.step(f"Each instance of {', '.join(kinds)} applied triggers its on-apply effect separately, one after "
                   f"another in the order applied: {plural(len(fired), 'trigger')}, not one.", instance_triggers)
    else:
        trace.step("None of these ailments has an effect on being applied, so nothing triggers per instance.",
                   instance_triggers)
    order = " in the order the text gives" if chooser == "text" else f", in the order {chooser} chooses"
    if fired:
        return f"The ailments applied to {target} trigger {plural(len(fired), 'separate on-apply effect')}, one per " \
            f"instance ({', '.join(dict.fromkeys(fired))}){order}"
    return f"The ailments applied to {target} trigger no on-apply effect{order}"


@situation(GAME, "trigger_order", TriggerOrderPosition, labels=LABELS)
@rule("rs.triggered-effects")
def resolve_trigger_order(pos: TriggerOrderPosition, trace: Trace, corpus: Corpus) -> TriggerOrderOutcome:
    """Order simultaneous triggers (active player's first) and ailments applied together; no ladder."""
    out = TriggerOrderOutcome(uses_ladder=uses_ladder(corpus))
    said = [s for s in (_triggers(pos, out, trace, corpus), _ailments(pos, out, trace, corpus)) if s]
    if not said:
        trace.step("Nothing triggers, and no ailments are applied.", "rs.triggered-effects")
        said = ["nothing triggers"]
    trace.summarize("; ".join(said[:1] + [s[:1].lower() + s[1:] for s in said[1:]]))
    return out
