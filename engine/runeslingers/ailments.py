"""Runeslingers ailments: the Ailment Phase power loss and applying ailments to a Runeslinger.

Paragraphs: ``rs.phases-of-a-turn.ailment``, ``rs.power-loss-conditions.ailments``, ``rs.boons``, the ailment
advanced rules (4 types at most, nothing under a boon, order, per-instance effects) and the targets examples
``rs.advanced-rules-targets.example-1`` / ``example-2``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe
from engine.runeslingers.common import (
    AILMENT_TYPES,
    GAME,
    Ailment,
    AilmentCounts,
    Determination,
    Power,
    Standing,
    agree,
    ailment_words,
    describe,
    is_defeated,
    joined,
    plural,
    record_power_loss,
    standing_words,
    total,
    types_present,
)


class AilmentPhasePosition(OpenPosition):
    """A Runeslinger in its Ailment Phase: the ailments on it and under its boons, its power and determination."""

    game: Literal["runeslingers"]
    situation: Literal["ailment_phase"]
    exposed: AilmentCounts
    concealed: AilmentCounts | None = maybe()
    power: Power
    determination: Determination | None = maybe()
    remove: AilmentCounts | None = maybe()

    def reading(self) -> list[str]:
        """The exposed and concealed ailments, the Runeslinger's standing and any types chosen to remove."""
        out = [f"Exposed ailments: {ailment_words(self.exposed)}.",
               f"Concealed ailments: {ailment_words(self.concealed)}.",
               f"The Runeslinger has {standing_words(self.power, self.determination)}."]
        if self.remove is not None:
            out.append(f"The player chose to remove: {ailment_words(self.remove)}.")
        return out


class ApplyTarget(Model):
    """The Runeslinger receiving the ailments: those on it, those under its boons, and its boons."""

    name: str | None = maybe(max_length=200)
    ailments: AilmentCounts | None = maybe()
    concealed: AilmentCounts | None = maybe()
    boons: int | None = maybe(ge=0, le=4)


class Application(Model):
    """One ailment an effect applies: a type (none when the effect leaves it open) and its instances."""

    ailment: Ailment | None = Field(None, description="Null when the effect leaves the type open.")
    instances: int = Field(ge=1, le=99)


class ApplyAilmentsPosition(OpenPosition):
    """An effect applying ailments to a Runeslinger, in the order listed."""

    game: Literal["runeslingers"]
    situation: Literal["apply_ailments"]
    target: ApplyTarget
    apply: list[Application] = Field(min_length=1, max_length=12)
    controller: str | None = maybe(max_length=200)
    active_player: str | None = maybe(max_length=200)

    def reading(self) -> list[str]:
        """The target's ailments and boons, what the effect applies, and who controls it."""
        t = self.target
        boons = t.boons or 0
        has = [f"{ailment_words(t.ailments)} exposed" if t.ailments else "no exposed ailment",
               f"{ailment_words(t.concealed)} concealed" if t.concealed else "no concealed ailment",
               f"{plural(boons, 'area')} holding a boon" if boons else "no boon"]
        out = [f"Target: {t.name or 'the target Runeslinger'}, with {joined(has)}.",
               "The effect applies, in order: " + joined([f"{a.instances} {a.ailment.title()}" if a.ailment else
                                                          f"{a.instances} of a type left open" for a in self.apply])
               + "."]
        if self.controller or self.active_player:
            out.append(f"Effect controller: {self.controller or 'not stated'}; active player: "
                       f"{self.active_player or 'not stated'}.")
        return out


class AilmentPhaseOutcome(Outcome):
    """What the Ailment Phase does: the ailments removed, the power lost and what is left."""

    power_lost: int = 0
    exposed_after_total: int
    exposed_after: dict[str, int] | None
    removed: int = 0
    power: int
    determination: int
    defeated: bool = False


class NotApplied(Model):
    """An ailment that finds no free area (its type is none when the effect left it open)."""

    ailment: str | None
    instances: int


class ApplyAilmentsOutcome(Outcome):
    """What an effect applying ailments does: what is applied, what finds no room, and the Burn I losses."""

    applied: dict[str, int] = Field(default_factory=dict)
    open_applied: int = 0
    not_applied: list[NotApplied] = Field(default_factory=list)
    ailments_after: dict[str, int] | None = None
    burn_i_health_loss: list[int] = Field(default_factory=list)


def _counts(raw: Mapping[Ailment, int] | None) -> dict[str, int]:
    """Return the non-zero ``{ailment: instances}`` of a position field."""
    return {t: n for t, n in (raw or {}).items() if n}


@rule("rs.ailments-advanced-rules.four-types", "rs.your-field.ailment-areas")
def areas_in_use(exposed: Mapping[str, int], concealed: Mapping[str, int], boons: int) -> int:
    """Return the ailment areas in use: 1 per exposed ailment type, plus 1 per area holding a boon."""
    return len(types_present(exposed)) + max(boons, len(types_present(concealed)))


@rule("rs.ailments-advanced-rules.four-types")
def area_count(corpus: Corpus) -> int:
    """Return how many ailment areas a Runeslinger has (at most that many different ailment types)."""
    return int(corpus.fact("rs.ailments-advanced-rules.four-types", "max_unique_ailment_types"))


@rule("rs.phases-of-a-turn.ailment", "rs.power-loss-conditions.ailments")
def must_remove(exposed_total: int, corpus: Corpus) -> bool:
    """Return whether the Ailment Phase strikes: 8 or more exposed ailments (concealed ones do not count)."""
    return exposed_total >= int(corpus.fact("rs.phases-of-a-turn.ailment", "ailment_threshold"))


def _check_areas(exposed: Mapping[str, int], concealed: Mapping[str, int], boons: int, trace: Trace,
                 corpus: Corpus) -> None:
    """Record a violation when more ailment areas are in use than a Runeslinger has."""
    used = areas_in_use(exposed, concealed, boons)
    if used > area_count(corpus):
        trace.violate(f"{used} ailment areas would be in use (exposed types plus areas holding boons); a "
                      f"Runeslinger has only {area_count(corpus)}", areas_in_use)


PHASE_LABELS: dict[str, Label] = {
    "power_lost": "Power lost", "exposed_after_total": "Exposed ailments left", "exposed_after": "Exposed ailments",
    "removed": "Ailments removed", "power": "Power", "determination": "Determination", "defeated": "Defeated",
}
APPLY_LABELS: dict[str, Label] = {
    "applied": "Ailments applied", "open_applied": "Open-type ailments applied", "not_applied": "Not applied",
    "ailments_after": "Ailments after", "burn_i_health_loss": "Burn I health losses",
}


def _phase_summary(pos: AilmentPhasePosition, out: AilmentPhaseOutcome, trace: Trace) -> str:
    """One sentence: how many ailments go, the power lost, and any choice of types left open."""
    exposed = total(_counts(pos.exposed))
    if not out.removed:
        return f"{plural(exposed, 'exposed ailment')}, fewer than 8: nothing is removed and no power is lost."
    powers = "1 power" if out.power_lost == 1 else f"{out.power_lost} powers"
    text = f"{exposed} exposed ailments: {out.removed} are removed and the Runeslinger loses {powers}"
    text += ", which defeats it" if out.defeated else f", keeping {out.exposed_after_total}"
    if trace.decisions:
        text += "; the ailed player chooses which types go"
    return text + "."


def _apply_summary(pos: ApplyAilmentsPosition, out: ApplyAilmentsOutcome, trace: Trace) -> str:
    """One sentence: what is applied, what does not fit, and the types still to choose."""
    name = pos.target.name or "the target Runeslinger"
    applied = describe(out.applied) if out.applied else ""
    parts = [applied] if applied else []
    if out.open_applied:
        parts.append(f"{plural(out.open_applied, 'ailment')} of types still to choose")
    text = f"{name[:1].upper()}{name[1:]} receives {' and '.join(parts)}" if parts else \
        f"No ailment can be applied to {name}"
    missed = len(out.not_applied)
    if missed and parts:
        text += f"; {plural(missed, 'ailment')} {agree(missed, 'finds', 'find')} no free area "
        text += f"and {agree(missed, 'is', 'are')} not applied"
    losses = out.burn_i_health_loss
    if losses:
        text += f"; Burn I makes it lose {losses[0]} health {plural(len(losses), 'time')}"
    return text + "."


@rule("rs.phases-of-a-turn.ailment", "rs.boons", "rs.power-loss-conditions.ailments")
def _exposed_step(exposed: Mapping[str, int], concealed: Mapping[str, int], trace: Trace) -> None:
    """The ailments that count: the exposed ones (those under a boon are out of play)."""
    trace.step(f"Exposed ailments: {describe(exposed)} ({total(exposed)} in all)."
               + (f" Concealed under a boon: {describe(concealed)}; they are not on the Runeslinger and do "
                  "not count." if concealed else ""),
               "rs.phases-of-a-turn.ailment",
               *(["rs.boons", "rs.power-loss-conditions.ailments"] if concealed else []))


def _remove_batches(exposed_total: int, standing: Standing, trace: Trace, corpus: Corpus) -> tuple[int, Standing]:
    """While 8 or more exposed ailments remain, remove 8 and lose a power; return the ailments left."""
    batch = int(corpus.fact("rs.phases-of-a-turn.ailment", "ailments_removed_per_power"))
    left = exposed_total
    while must_remove(left, corpus) and not is_defeated(standing.power, corpus):
        left -= batch
        why = f"{left + batch} exposed ailments, so {batch} of them are removed"
        standing = record_power_loss(standing, why, trace, corpus, must_remove)
    removed = exposed_total - left
    if not removed:
        trace.step(f"Fewer than {batch} exposed ailments: nothing is removed and no power is "
                   "lost.", must_remove)
    elif not is_defeated(standing.power, corpus):
        trace.step(f"{plural(left, 'exposed ailment')} {agree(left, 'remains', 'remain')}, "
                   f"fewer than {batch}: the phase ends.", must_remove)
    return left, standing


@situation(GAME, "ailment_phase", AilmentPhasePosition, labels=PHASE_LABELS)
@summarized(_phase_summary)
def resolve_ailment_phase(pos: AilmentPhasePosition, trace: Trace, corpus: Corpus) -> AilmentPhaseOutcome:
    """Resolve the Ailment Phase: remove 8 exposed ailments and lose a power, repeatedly, while 8 or more."""
    exposed, concealed = _counts(pos.exposed), _counts(pos.concealed)
    standing = Standing(pos.power, pos.determination or 0)
    out = AilmentPhaseOutcome(exposed_after_total=total(exposed), exposed_after=dict(exposed),
                              power=standing.power, determination=standing.determination)
    _check_areas(exposed, concealed, 0, trace, corpus)
    if trace.violations:
        return out
    _exposed_step(exposed, concealed, trace)
    left, standing = _remove_batches(total(exposed), standing, trace, corpus)
    out.power, out.determination, out.power_lost, out.defeated = standing.values(corpus)
    out.exposed_after_total, out.removed = left, total(exposed) - left
    out.exposed_after = _after_removal(exposed, out.removed, None if pos.remove is None else _counts(pos.remove),
                                      trace, corpus)
    return out


@rule("rs.phases-of-a-turn.ailment")
def _after_removal(exposed: dict[str, int], removed: int, chosen: Mapping[str, int] | None, trace: Trace,
                   corpus: Corpus) -> dict[str, int] | None:
    """Return the exposed ailments left by type, or None while the ailed player's choice is open."""
    if not removed:
        if chosen and total(chosen):
            trace.violate("no ailments are removed this Ailment Phase, but the position removes "
                          "some", must_remove)
        return dict(exposed)
    if chosen is not None:
        return _chosen_removal(exposed, removed, {t: n for t, n in chosen.items() if n}, trace)
    kinds = types_present(exposed)
    if removed == total(exposed):
        return {}
    if len(kinds) == 1:
        return {kinds[0]: exposed[kinds[0]] - removed}
    trace.decide("ailed player", f"which {removed} exposed ailments to remove (any mix of {', '.join(kinds)}; a "
                 "count per type)", "rs.phases-of-a-turn.ailment", field="remove")
    return None


@rule("rs.phases-of-a-turn.ailment")
def _chosen_removal(exposed: dict[str, int], removed: int, picked: dict[str, int],
                    trace: Trace) -> dict[str, int] | None:
    """Return the exposed ailments left after the ailed player's stated removal, or None when it is illegal."""
    for t, n in picked.items():
        if n > exposed.get(t, 0):
            trace.violate(f"cannot remove {n} {t}: only {exposed.get(t, 0)} exposed {t} (concealed "
                          "ailments cannot be removed this way)", "rs.phases-of-a-turn.ailment")
    if total(picked) != removed:
        trace.violate(f"{removed} exposed ailments must be removed, the position removes {total(picked)}",
                      "rs.phases-of-a-turn.ailment")
    if trace.violations:
        return None
    trace.step(f"The ailed player removes {describe(picked)}.", "rs.phases-of-a-turn.ailment")
    return {t: exposed[t] - picked.get(t, 0) for t in exposed if exposed[t] - picked.get(t, 0)}


# ------------------------------------------------------------------------------ applying ailments

@rule("rs.ailments-advanced-rules.merge", "rs.ailments.instances-and-levels",
      "rs.ailments-advanced-rules.no-instance-limit")
def joins_existing(ailment: str, exposed: Mapping[str, int]) -> bool:
    """Return whether the ailment joins an exposed ailment of its type (same area, instances stack)."""
    return exposed.get(ailment, 0) > 0


@rule("rs.ailments-advanced-rules.not-under-boon")
def is_only_concealed(ailment: str, exposed: Mapping[str, int], concealed: Mapping[str, int]) -> bool:
    """Return whether the type is on the Runeslinger only under a boon (a new instance cannot join it)."""
    return concealed.get(ailment, 0) > 0 and not exposed.get(ailment, 0)


@rule("rs.ailments-advanced-rules.instance-effects-in-order", "rs.ailments.burn")
def burn_i_losses(instances: int, corpus: Corpus) -> list[int]:
    """Return the health losses Burn I triggers: one separate loss per Burn instance applied, in order."""
    return [int(corpus.fact("rs.ailments.burn", "burn_i_health_loss"))] * instances


@rule("rs.resolving-effects", "rs.advanced-rules-targets.example-2")
def _apply_typed(entries: Sequence[Application], after: dict[str, int], concealed: Mapping[str, int], free: int,
                 out: ApplyAilmentsOutcome, trace: Trace) -> int:
    """Apply each ailment of a stated type in order (joining its type, or in a free area); return the free areas."""
    for e in entries:
        if e.ailment is None:
            continue
        t = e.ailment
        if joins_existing(t, after):
            trace.step(f"{e.instances} {t} join the {after[t]} {t} already there (one ailment per type; "
                       "instances stack).", joins_existing)
        elif free > 0:
            free -= 1
            trace.step(f"{e.instances} {t} take a free ailment area.", areas_in_use)
        else:
            why = f" ({t} is there only under a boon, and nothing is applied beneath a boon)" \
                if is_only_concealed(t, after, concealed) else ""
            trace.step(f"No free ailment area for {t}{why}: it is not applied. The effect still resolves on "
                       "its valid target and does as much as it can.", areas_in_use, "rs.resolving-effects",
                       *([is_only_concealed] if why else []), "rs.advanced-rules-targets.example-2")
            out.not_applied.append(NotApplied(ailment=t, instances=e.instances))
            continue
        after[t] = after.get(t, 0) + e.instances
        out.applied[t] = out.applied.get(t, 0) + e.instances
    return free


def _burn_i(out: ApplyAilmentsOutcome, trace: Trace, corpus: Corpus) -> None:
    """Burn I: one health loss per Burn instance applied, one after another."""
    if "burn" not in out.applied:
        return
    out.burn_i_health_loss = losses = burn_i_losses(out.applied["burn"], corpus)
    trace.step(f"Burn I triggers once for each of {plural(len(losses), 'Burn instance')}, one after another: "
               f"{plural(len(losses), 'separate loss', 'separate losses')} of {losses[0]} health.", burn_i_losses)


@rule("rs.ailments-advanced-rules.order", "rs.advanced-rules-targets.example-1")
def _order(kinds: int, opened: bool, several: bool, trace: Trace) -> None:
    """Several ailments applied together: the order of the list, or the active player's choice still open."""
    if kinds > 1 and (opened or several):
        if opened:
            trace.decide("active player", "the order in which the ailments are applied (the order of the list)",
                         "rs.ailments-advanced-rules.order", "rs.advanced-rules-targets.example-1", field="apply")
        else:
            trace.step("The ailments are applied in the order listed (the effect's order, or the active "
                       "player's choice).", "rs.ailments-advanced-rules.order")


@situation(GAME, "apply_ailments", ApplyAilmentsPosition, labels=APPLY_LABELS)
@summarized(_apply_summary)
@rule("rs.boons")
def resolve_apply_ailments(pos: ApplyAilmentsPosition, trace: Trace, corpus: Corpus) -> ApplyAilmentsOutcome:
    """Resolve an effect applying ailments: free ailment areas, boons, open types, order of application."""
    target = pos.target
    name = target.name or "the target Runeslinger"
    exposed, concealed = _counts(target.ailments), _counts(target.concealed)
    boons = max(target.boons or 0, len(types_present(concealed)))
    entries = pos.apply
    out = ApplyAilmentsOutcome()
    _check_areas(exposed, concealed, boons, trace, corpus)
    opened = [e for e in entries if e.ailment is None]
    if trace.violations:
        return out
    free = area_count(corpus) - areas_in_use(exposed, concealed, boons)
    who = name[:1].upper() + name[1:]
    trace.step(f"{who} has {describe(exposed)} exposed and {plural(boons, 'area')} holding a boon: "
               f"{free} of {area_count(corpus)} ailment areas are free.", areas_in_use, "rs.boons")
    after = dict(exposed)
    free = _apply_typed(entries, after, concealed, free, out, trace)
    fitting = _open_types(opened, after, free, trace, out, [i for i, e in enumerate(entries) if e.ailment is None])
    _burn_i(out, trace, corpus)
    _order(len(out.applied) + fitting, bool(opened), len(out.applied) > 1, trace)
    out.ailments_after = None if fitting else {t: after[t] for t in AILMENT_TYPES if after.get(t)}
    return out


@rule("rs.applying-ailments", "rs.ailments-advanced-rules.four-types", "rs.resolving-effects",
      "rs.advanced-rules-targets.example-1")
def _open_types(opened: Sequence[Application], after: Mapping[str, int], free: int, trace: Trace,
                out: ApplyAilmentsOutcome, indices: Sequence[int] = ()) -> int:
    """Return how many open-typed (unique) ailments fit, recording the controller's choice."""
    if not opened:
        return 0
    present = types_present(after)
    fresh = [t for t in AILMENT_TYPES if t not in present]
    fitting = min(len(opened), len(present) + min(free, len(fresh)))
    out.open_applied = fitting
    out.not_applied.extend(NotApplied(ailment=None, instances=e.instances) for e in opened[fitting:])
    trace.step(f"The effect applies {plural(len(opened), 'different ailment')} of types it leaves open; only "
               f"{fitting} can be applied ({plural(free, 'free area')}, {plural(len(present), 'type')} already there).",
               "rs.applying-ailments", "rs.ailments-advanced-rules.four-types", "rs.resolving-effects",
               "rs.advanced-rules-targets.example-1")
    allowed = [*present, *fresh] if free else present
    for k in range(fitting):
        where = f"apply[{indices[k]}].ailment" if k < len(indices) else "apply"
        trace.decide("effect's controller", f"the type of open ailment {k + 1} of {fitting} (each a different type)",
                     "rs.applying-ailments", "rs.advanced-rules-targets.example-1", options=allowed, field=where)
    return fitting
