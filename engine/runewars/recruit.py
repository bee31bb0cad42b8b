"""Runewars recruiting: a resource dial gives the unit on its current space and on every lower space.

Paragraphs: ``rw.recruit-order`` with ``.units`` (current space and lower; empty spaces give nothing),
``.placement`` (areas with a friendly stronghold, split as the player likes), ``.unit-limit`` (8 per area, excess
destroyed), ``.supremacy`` (a second, different resource), ``.no-cost`` (dials are not turned);
``rw.order-card-summary.recruit``, ``rw.resource-dials.gaining`` and the book's ``rw.recruiting-example``.

Answers: ``placement`` {area: units}, ``destroyed`` {area: [unit names]} for units over the limit, and
``second_resource`` for the Supremacy Bonus when ``second_dial`` is not given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.runewars.common import GAME, NAME, names, plural, unique_keys
from engine.schema import BOOL, Schema, arr, enum, integer, nullable, obj

RESOURCES = ("food", "wood", "ore")
SPACES: Schema = {"type": "object", "patternProperties": {"^(0|[1-9][0-9]?)$": nullable(NAME)},  # one key per space
                  "additionalProperties": False}
DIAL = obj(["resource", "position", "spaces"], resource=enum(*RESOURCES), position=integer(0, 99), spaces=SPACES)
SCHEMA: dict[str, Any] = obj(
    ["dial"], extra=True,
    dial=DIAL,
    supremacy_bonus=BOOL,
    second_dial=DIAL,
    strongholds=arr(obj(["area"], area=NAME, units=integer(0, 80)), max_items=16),
    placement={"type": "object", "additionalProperties": integer(0, 80)},
    destroyed={"type": "object", "additionalProperties": arr(NAME, max_items=80)},
    second_resource=enum(*RESOURCES),
)


@dataclass(frozen=True)
class Dial:
    """A resource dial: its resource, the space its arrow points to and the unit pictured on each space."""

    resource: str
    position: int
    spaces: tuple[tuple[int, str | None], ...]

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Dial:
        """Read a dial; its spaces come in ascending order."""
        spaces = tuple(sorted((int(k), v) for k, v in raw["spaces"].items()))
        return cls(raw["resource"], int(raw["position"]), spaces)


@rule("rw.recruit-order.units", "rw.order-card-summary.recruit", "rw.resource-dials.gaining")
def recruited_units(dial: Dial) -> list[str]:
    """Return the units a dial gives: the unit on its current space and on every lower space, lowest first
    (spaces without a unit give nothing, higher spaces are ignored)."""
    return [unit for space, unit in dial.spaces if space <= dial.position and unit]


@rule("rw.recruit-order.unit-limit", "rw.movement-restrictions.unit-limit")
def units_over_limit(units_after: int, corpus: Corpus) -> int:
    """Return how many units the player must destroy in an area: those beyond 8 (heroes do not count)."""
    return max(0, units_after - int(corpus.fact("rw.recruit-order.unit-limit", "max_units_per_area")))


def _recruit(dial: Dial, label: str, trace: Trace) -> list[str]:
    units = recruited_units(dial)
    shown = ", ".join(f"{s}: {u or '-'}" for s, u in dial.spaces if s <= dial.position) or "none"
    trace.step(f"{label}: the {dial.resource} dial points at {dial.position}; the spaces at or below it show "
               f"{shown}, so the player recruits {names(units)}.", recruited_units)
    return units


def _place(pos: Mapping[str, Any], units: list[str], trace: Trace, corpus: Corpus, out: dict[str, Any]) -> None:
    strongholds = {s["area"]: int(s.get("units") or 0) for s in pos["strongholds"]}
    if not strongholds:
        trace.step("The player has no area with a friendly stronghold, so the recruited units cannot be placed.",
                   "rw.recruit-order.placement")
        return
    placement = pos.get("placement")
    if placement is None:
        if len(strongholds) > 1:
            trace.decide("player", f"how to split {plural(len(units), 'unit')} among the areas with his "
                         f"strongholds ({names(sorted(strongholds))}): a count per area",
                         "rw.recruit-order.placement", field="placement")
            trace.step(f"The units go to areas with his strongholds ({names(sorted(strongholds))}), split as he "
                       f"likes.", "rw.recruit-order.placement")
            return
        placement = {next(iter(strongholds)): len(units)}
    bad = sorted(a for a, n in placement.items() if n and a not in strongholds)
    if bad:
        trace.violate(f"{names(bad)} has no friendly stronghold; recruited units are placed only in areas with one "
                      f"({names(sorted(strongholds))})", "rw.recruit-order.placement")
        return
    if sum(placement.values()) != len(units):
        trace.violate(f"the placement puts {sum(placement.values())} units, but {len(units)} were recruited",
                      "rw.recruit-order.placement")
        return
    out["placed"] = {a: n for a, n in placement.items() if n}
    destroy: dict[str, int] = {}
    for area, n in out["placed"].items():
        after = strongholds[area] + n
        over = units_over_limit(after, corpus)
        trace.step(f"{area}: {strongholds[area]} units already there + {n} recruited = {after}"
                   + (f", {over} over the limit of 8: he destroys {plural(over, 'unit')} there (his choice)."
                      if over else ", within the limit."), "rw.recruit-order.placement", units_over_limit)
        if over:
            destroy[area] = over
            chosen = (pos.get("destroyed") or {}).get(area)
            if chosen is None:
                trace.decide("player", f"{plural(over, 'unit')} to destroy in {area} (name them)", units_over_limit,
                             field=f"destroyed.{area}")
            elif len(chosen) != over:
                trace.violate(f"{area} must lose exactly {plural(over, 'unit')}, the position names {len(chosen)}",
                              units_over_limit)
            else:
                trace.step(f"In {area} the player destroys {', '.join(chosen)}.", units_over_limit)
    out["destroy"] = destroy


LABELS: dict[str, Label] = {
    "units": "Units recruited", "placed": "Units placed, by area", "destroy": "Units over the limit, by area",
    "second_resource": "Second resource (Supremacy Bonus)",
}


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: the units recruited, where they go, and what is still the player's choice."""
    units = out["units"]
    text = (f"The player recruits {plural(len(units), 'unit')} ({', '.join(units)})" if units
            else "The player recruits no unit")
    placed = out.get("placed")
    if placed:
        text += ", placed " + ", ".join(f"{n} in {a}" for a, n in placed.items())
    over = {a: n for a, n in (out.get("destroy") or {}).items() if n}
    if over:
        text += "; " + ", ".join(f"{plural(n, 'unit')} over the limit of 8 in {a}" for a, n in over.items()) \
            + " must be destroyed" + (" (his choice)" if any(d.field.startswith("destroyed.")
                                                                 for d in trace.decisions) else "")
    fields = {d.field for d in trace.decisions}
    if "second_resource" in fields:
        text += "; he may also recruit with a second, different resource"
    if "placement" in fields:
        text += "; he splits them among his stronghold areas as he likes"
    return text + "."


@situation(GAME, "recruit", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_recruit(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Recruit from a resource dial: one unit per unit space at or below the arrow (a second dial with Supremacy)."""
    dial = Dial.from_json(pos["dial"])
    out: dict[str, Any] = {"units": []}
    units = _recruit(dial, "Recruit", trace)
    bonus = pos.get("supremacy_bonus")
    if "second_dial" in pos:
        second = Dial.from_json(pos["second_dial"])
        if bonus is False:
            trace.violate("a second dial is recruited only with the Supremacy Bonus, which this Recruit order does "
                          "not get", "rw.recruit-order.supremacy", "rw.supremacy-bonus")
            return out
        if second.resource == dial.resource:
            trace.violate(f"the Supremacy Bonus recruits with a different resource, not {dial.resource} again",
                          "rw.recruit-order.supremacy")
            return out
        units = units + _recruit(second, "Supremacy Bonus", trace)
    elif bonus:
        others = [r for r in RESOURCES if r != dial.resource]
        second_resource = pos.get("second_resource")
        if second_resource is None:
            trace.decide("player", "a second, different resource to recruit with (Supremacy Bonus)",
                         "rw.recruit-order.supremacy", options=others, field="second_resource")
        elif second_resource == dial.resource:
            trace.violate(f"the Supremacy Bonus recruits with a different resource, not {dial.resource} again",
                          "rw.recruit-order.supremacy")
            return out
        else:
            out["second_resource"] = second_resource
            trace.step(f"Supremacy Bonus: the player also recruits with his {second_resource} dial (give "
                       "second_dial to list its units).", "rw.recruit-order.supremacy")
    out["units"] = units
    trace.step("Recruiting costs nothing: the dials are not turned.", "rw.recruit-order.no-cost")
    if "strongholds" in pos:
        unique_keys(pos["strongholds"], "area", "strongholds")
        _place(pos, units, trace, corpus, out)
    else:
        trace.step("The units are placed in areas that contain a friendly stronghold, split as the player likes.",
                   "rw.recruit-order.placement")
    return out
