"""Runeslingers ailments: the Ailment Phase power loss and applying ailments to a Runeslinger.

Paragraphs: ``rs.phases-of-a-turn.ailment``, ``rs.power-loss-conditions.ailments``, ``rs.boons``, the ailment
advanced rules (4 types at most, nothing under a boon, order, per-instance effects) and the targets examples
``rs.advanced-rules-targets.example-1`` / ``example-2``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.runeslingers.common import (
    AILMENT,
    AILMENT_COUNTS,
    AILMENT_TYPES,
    DETERMINATION,
    GAME,
    POWER,
    Standing,
    describe,
    is_defeated,
    record_power_loss,
    total,
    types_present,
)
from engine.schema import arr, integer, nullable, obj, text

PHASE_SCHEMA: dict[str, Any] = obj(
    ["exposed", "power"], extra=True,
    exposed=AILMENT_COUNTS, concealed=AILMENT_COUNTS, power=POWER, determination=DETERMINATION,
    remove=AILMENT_COUNTS,
)
APPLY_SCHEMA: dict[str, Any] = obj(
    ["target", "apply"], extra=True,
    target=obj(None, name=text(), ailments=AILMENT_COUNTS, concealed=AILMENT_COUNTS, boons=integer(0, 4)),
    apply=arr(obj(["instances"], ailment=nullable(AILMENT), instances=integer(1, 99)),
              min_items=1, max_items=12),
    controller=text(), active_player=text(),
)


def _counts(raw: Mapping[str, Any] | None) -> dict[str, int]:
    """Return the non-zero ``{ailment: instances}`` of a position field."""
    return {t: int(n) for t, n in (raw or {}).items() if n}


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


def _phase_summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: how many ailments go, the power lost, and any choice of types left open."""
    exposed = total(_counts(pos["exposed"]))
    if not out["removed"]:
        return f"{exposed} exposed ailment(s), fewer than 8: nothing is removed and no power is lost."
    powers = "1 power" if out["power_lost"] == 1 else f"{out['power_lost']} powers"
    text = f"{exposed} exposed ailments: {out['removed']} are removed and the Runeslinger loses {powers}"
    text += ", which defeats it" if out.get("defeated") else f", keeping {out['exposed_after_total']}"
    if trace.decisions:
        text += "; the ailed player chooses which types go"
    return text + "."


def _apply_summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: what is applied, what does not fit, and the types still to choose."""
    name = pos["target"].get("name") or "the target Runeslinger"
    applied = describe(out["applied"]) if out["applied"] else ""
    parts = [applied] if applied else []
    if out["open_applied"]:
        parts.append(f"{out['open_applied']} ailment(s) of types still to choose")
    text = f"{name[:1].upper()}{name[1:]} receives {' and '.join(parts)}" if parts else \
        f"No ailment can be applied to {name}"
    missed = len(out["not_applied"])
    if missed and parts:
        text += f"; {missed} ailment(s) find no free area and are not applied"
    losses = out["burn_i_health_loss"]
    if losses:
        text += f"; Burn I makes it lose {losses[0]} health {len(losses)} time(s)"
    return text + "."


@situation(GAME, "ailment_phase", PHASE_SCHEMA, labels=PHASE_LABELS)
@summarized(_phase_summary)
def resolve_ailment_phase(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve the Ailment Phase: remove 8 exposed ailments and lose a power, repeatedly, while 8 or more."""
    exposed, concealed = _counts(pos["exposed"]), _counts(pos.get("concealed"))
    standing = Standing.from_json(pos)
    batch = int(corpus.fact("rs.phases-of-a-turn.ailment", "ailments_removed_per_power"))
    out: dict[str, Any] = {"power_lost": 0, "exposed_after_total": total(exposed),
                           "exposed_after": dict(exposed), "removed": 0, "power": standing.power,
                           "determination": standing.determination, "defeated": False}
    _check_areas(exposed, concealed, 0, trace, corpus)
    if trace.violations:
        return out
    trace.step(f"Exposed ailments: {describe(exposed)} ({total(exposed)} in all)."
               + (f" Concealed under a boon: {describe(concealed)}; they are not on the Runeslinger and do "
                  "not count." if concealed else ""),
               "rs.phases-of-a-turn.ailment",
               *(["rs.boons", "rs.power-loss-conditions.ailments"] if concealed else []))
    left = total(exposed)
    while must_remove(left, corpus) and not is_defeated(standing.power, corpus):
        left -= batch
        why = f"{left + batch} exposed ailments, so {batch} of them are removed"
        standing = record_power_loss(standing, why, trace, corpus, must_remove)
    removed = total(exposed) - left
    if not removed:
        trace.step(f"Fewer than {batch} exposed ailments: nothing is removed and no power is "
                   "lost.", must_remove)
    elif not is_defeated(standing.power, corpus):
        trace.step(f"{left} exposed ailment(s) remain, fewer than {batch}: the phase ends.", must_remove)
    out.update(standing.to_json(corpus), exposed_after_total=left, removed=removed)
    out["exposed_after"] = _after_removal(exposed, removed, pos.get("remove"), trace, corpus)
    return out


def _after_removal(exposed: dict[str, int], removed: int, chosen: Mapping[str, int] | None, trace: Trace,
                   corpus: Corpus) -> dict[str, int] | None:
    """Return the exposed ailments left by type, or None while the ailed player's choice is open."""
    if not removed:
        if chosen and total(chosen):
            trace.violate("no ailments are removed this Ailment Phase, but the position removes "
                          "some", must_remove)
        return dict(exposed)
    if chosen is not None:
        picked = _counts(chosen)
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
    kinds = types_present(exposed)
    if removed == total(exposed):
        return {}
    if len(kinds) == 1:
        return {kinds[0]: exposed[kinds[0]] - removed}
    trace.decide("ailed player", f"which {removed} exposed ailments to remove (any mix of {', '.join(kinds)}; a "
                 "count per type)", "rs.phases-of-a-turn.ailment", field="remove")
    return None


# ------------------------------------------------------------------------------ applying ailments

@dataclass(frozen=True)
class Application:
    """One ailment an effect applies: a type (None when the effect leaves it open) and its instances."""

    ailment: str | None
    instances: int

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Application:
        """Read one entry of ``apply``."""
        return cls(raw.get("ailment"), int(raw["instances"]))


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


@situation(GAME, "apply_ailments", APPLY_SCHEMA, labels=APPLY_LABELS)
@summarized(_apply_summary)
def resolve_apply_ailments(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve an effect applying ailments: free ailment areas, boons, open types, order of application."""
    target = pos["target"]
    name = target.get("name") or "the target Runeslinger"
    exposed, concealed = _counts(target.get("ailments")), _counts(target.get("concealed"))
    boons = max(int(target.get("boons", 0)), len(types_present(concealed)))
    entries = [Application.from_json(a) for a in pos["apply"]]
    out: dict[str, Any] = {"applied": {}, "open_applied": 0, "not_applied": [], "ailments_after": None,
                           "burn_i_health_loss": []}
    _check_areas(exposed, concealed, boons, trace, corpus)
    opened = [e for e in entries if e.ailment is None]
    if trace.violations:
        return out
    free = area_count(corpus) - areas_in_use(exposed, concealed, boons)
    who = name[:1].upper() + name[1:]
    trace.step(f"{who} has {describe(exposed)} exposed and {boons} area(s) holding a boon: "
               f"{free} of {area_count(corpus)} ailment areas are free.", areas_in_use, "rs.boons")
    after = dict(exposed)
    applied: dict[str, int] = {}
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
            out["not_applied"].append({"ailment": t, "instances": e.instances})
            continue
        after[t] = after.get(t, 0) + e.instances
        applied[t] = applied.get(t, 0) + e.instances
    out["applied"] = applied
    fitting = _open_types(opened, after, free, trace, out, [i for i, e in enumerate(entries) if e.ailment is None])
    if "burn" in applied:
        out["burn_i_health_loss"] = losses = burn_i_losses(applied["burn"], corpus)
        trace.step(f"Burn I triggers once for each of the {len(losses)} Burn instance(s), one after another: "
                   f"{len(losses)} separate losses of {losses[0]} health.", burn_i_losses)
    kinds = len(applied) + fitting
    if kinds > 1 and (opened or len(applied) > 1):
        if opened:
            trace.decide("active player", "the order in which the ailments are applied (the order of the list)",
                         "rs.ailments-advanced-rules.order", "rs.advanced-rules-targets.example-1", field="apply")
        else:
            trace.step("The ailments are applied in the order listed (the effect's order, or the active "
                       "player's choice).", "rs.ailments-advanced-rules.order")
    out["ailments_after"] = None if fitting else {t: after[t] for t in AILMENT_TYPES if after.get(t)}
    return out


def _open_types(opened: Sequence[Application], after: Mapping[str, int], free: int, trace: Trace,
                out: dict[str, Any], indices: Sequence[int] = ()) -> int:
    """Return how many open-typed (unique) ailments fit, recording the controller's choice."""
    if not opened:
        return 0
    present = types_present(after)
    fresh = [t for t in AILMENT_TYPES if t not in present]
    fitting = min(len(opened), len(present) + min(free, len(fresh)))
    out["open_applied"] = fitting
    out["not_applied"].extend({"ailment": None, "instances": e.instances} for e in opened[fitting:])
    trace.step(f"The effect applies {len(opened)} different ailment(s) of types it leaves open; only "
               f"{fitting} can be applied ({free} free area(s), {len(present)} type(s) already there).",
               "rs.applying-ailments", "rs.ailments-advanced-rules.four-types", "rs.resolving-effects",
               "rs.advanced-rules-targets.example-1")
    allowed = [*present, *fresh] if free else present
    for k in range(fitting):
        where = f"apply[{indices[k]}].ailment" if k < len(indices) else "apply"
        trace.decide("effect's controller", f"the type of open ailment {k + 1} of {fitting} (each a different type)",
                     "rs.applying-ailments", "rs.advanced-rules-targets.example-1", options=allowed, field=where)
    return fitting
