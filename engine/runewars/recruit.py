"""Runewars recruiting: a resource dial gives the unit on its current space and on every lower space.

Paragraphs: ``rw.recruit-order`` with ``.units`` (current space and lower; empty spaces give nothing),
``.placement`` (areas with a friendly stronghold, split as the player likes), ``.unit-limit`` (8 per area, excess
destroyed), ``.supremacy`` (a second, different resource), ``.no-cost`` (dials are not turned);
``rw.order-card-summary.recruit``, ``rw.resource-dials.gaining`` and the book's ``rw.recruiting-example``.

Answers: ``placement`` {area: units}, ``destroyed`` {area: [unit names]} for units over the limit, and
``second_resource`` for the Supremacy Bonus when ``second_dial`` is not given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal, Self

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.common import GAME, Labels, Name, figure_names, names, plural, refuse_duplicates

RESOURCES = ("food", "wood", "ore")
Resource = Annotated[Literal["food", "wood", "ore"], Labels({"food": "Food", "wood": "Wood", "ore": "Ore"})]
SPACE = re.compile(r"^(0|[1-9][0-9]?)$")
"""A dial space's number as a key: 0 to 99, without leading zeros (so no space is written twice)."""
Count = Annotated[int, Field(ge=0, le=80)]


def _space_keys(schema: dict[str, Any]) -> None:
    """Publish the spaces as one key per space number (0 to 99), each naming a unit or null."""
    schema["patternProperties"] = {SPACE.pattern: schema.pop("additionalProperties")}
    schema["additionalProperties"] = False


class Dial(Model):
    """A resource dial: its resource, the space its arrow points to and the unit pictured on each space."""

    resource: Resource
    position: int = Field(ge=0, le=99)
    spaces: dict[str, Name | None] = Field(max_length=100, json_schema_extra=_space_keys,
                                           description="The unit pictured on each space, by space number (null or "
                                                       "empty: none).")

    @model_validator(mode="after")
    def _numbered(self) -> Self:
        for key in self.spaces:
            if not SPACE.match(key):
                raise refuse(f"space {key!r} is not a space number (0 to 99, without leading zeros)", "spaces")
        return self

    @property
    def numbered(self) -> tuple[tuple[int, str | None], ...]:
        """Return the spaces in ascending order, as (number, unit)."""
        return tuple(sorted((int(k), v) for k, v in self.spaces.items()))


class Stronghold(Model):
    """An area with one of the player's strongholds, and how many of his units are already there."""

    area: Name
    units: int | None = maybe(ge=0, le=80)


class RecruitPosition(OpenPosition):
    """A Recruit order: the resource dial (and a second one with the Supremacy Bonus), the player's stronghold areas
    and his choices."""

    game: Literal["runewars"]
    situation: Literal["recruit"]
    dial: Dial
    supremacy_bonus: bool | None = maybe()
    second_dial: Dial | None = maybe()
    strongholds: list[Stronghold] | None = maybe(max_length=16)
    placement: dict[str, Count] | None = maybe(max_length=120)
    destroyed: dict[str, Annotated[list[Name], Field(max_length=80)]] | None = maybe(max_length=16)
    second_resource: Resource | None = maybe()

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        refuse_duplicates([s.area for s in self.strongholds or ()], "area", "strongholds")
        return self

    def reading(self) -> list[str]:
        """The dials with their arrows and pictured units, the Supremacy Bonus, the strongholds and the choices
        stated."""
        out = [_dial_words(self.dial)]
        if self.supremacy_bonus is not None:
            out.append("The Recruit order gets its Supremacy Bonus." if self.supremacy_bonus
                       else "The Recruit order gets no Supremacy Bonus.")
        if self.second_dial is not None:
            out.append("Second dial: " + _dial_words(self.second_dial)[:1].lower() + _dial_words(self.second_dial)[1:])
        elif self.second_resource:
            out.append(f"Second resource chosen: {self.second_resource}.")
        if self.strongholds is not None:
            out.append("Areas with his strongholds: " + (names([
                f"{s.area} ({'units not stated' if s.units is None else plural(s.units, 'unit') + ' there'})"
                for s in self.strongholds]) if self.strongholds else "none") + ".")
        if self.placement:
            out.append("Units placed: " + names([f"{n} in {a}" for a, n in self.placement.items()]) + ".")
        for area, units in (self.destroyed or {}).items():
            out.append(f"Destroyed in {area}: {figure_names(units)}.")
        return out


def _dial_words(dial: Dial) -> str:
    pictured = [f"{u} on space {n}" for n, u in dial.numbered if u]
    return (f"The {dial.resource} dial points at space {dial.position}; it pictures "
            f"{names(pictured) if pictured else 'no unit'}.")


class RecruitOutcome(Outcome):
    """The units recruited, where they are placed and how many must be destroyed over the limit."""

    units: list[str] = Field(default_factory=list)
    second_resource: Resource | None = Field(None, exclude_if=lambda v: v is None)
    placed: dict[str, int] | None = Field(None, exclude_if=lambda v: v is None)
    destroy: dict[str, int] | None = Field(None, exclude_if=lambda v: v is None)


@rule("rw.recruit-order.units", "rw.order-card-summary.recruit", "rw.resource-dials.gaining")
def recruited_units(dial: Dial) -> list[str]:
    """Return the units a dial gives: the unit on its current space and on every lower space, lowest first
    (spaces without a unit give nothing, higher spaces are ignored)."""
    return [unit for space, unit in dial.numbered if space <= dial.position and unit]


@rule("rw.recruit-order.unit-limit", "rw.movement-restrictions.unit-limit")
def units_over_limit(units_after: int, corpus: Corpus) -> int:
    """Return how many units the player must destroy in an area: those beyond 8 (heroes do not count)."""
    return max(0, units_after - int(corpus.fact("rw.recruit-order.unit-limit", "max_units_per_area")))


def _recruit(dial: Dial, label: str, trace: Trace) -> list[str]:
    units = recruited_units(dial)
    shown = ", ".join(f"{s}: {u or '-'}" for s, u in dial.numbered if s <= dial.position) or "none"
    trace.step(f"{label}: the {dial.resource} dial points at {dial.position}; the spaces at or below it show "
               f"{shown}, so the player recruits {names(units)}.", recruited_units)
    return units


def _destroy(area: str, over: int, chosen: list[str] | None, trace: Trace) -> None:
    """Units over the limit of 8 in an area: the player names the ones he destroys."""
    if chosen is None:
        trace.decide("player", f"{plural(over, 'unit')} to destroy in {area} (name them)", units_over_limit,
                     field=f"destroyed.{area}")
    elif len(chosen) != over:
        trace.violate(f"{area} must lose exactly {plural(over, 'unit')}, the position names {len(chosen)}",
                      units_over_limit)
    else:
        trace.step(f"In {area} the player destroys {figure_names(chosen)}.", units_over_limit)


@rule("rw.recruit-order.placement")
def _placement(strongholds: Mapping[str, int], units: list[str], stated: Mapping[str, int] | None,
               trace: Trace) -> Mapping[str, int] | None:
    """Return how the units are split among the stronghold areas (stated, or all in the only one), None when it is
    still his choice or the stated split is not allowed."""
    if stated is None:
        if len(strongholds) > 1:
            trace.decide("player", f"how to split {plural(len(units), 'unit')} among the areas with his "
                         f"strongholds ({names(sorted(strongholds))}): a count per area",
                         "rw.recruit-order.placement", field="placement")
            trace.step(f"The units go to areas with his strongholds ({names(sorted(strongholds))}), split as he "
                       f"likes.", "rw.recruit-order.placement")
            return None
        return {next(iter(strongholds)): len(units)}
    bad = sorted(a for a, n in stated.items() if n and a not in strongholds)
    if bad:
        trace.violate(f"{names(bad)} has no friendly stronghold; recruited units are placed only in areas with one "
                      f"({names(sorted(strongholds))})", "rw.recruit-order.placement")
        return None
    if sum(stated.values()) != len(units):
        trace.violate(f"the placement puts {sum(stated.values())} units, but {len(units)} were recruited",
                      "rw.recruit-order.placement")
        return None
    return stated


@rule("rw.recruit-order.placement")
def _place(pos: RecruitPosition, strongholds: Mapping[str, int], units: list[str], trace: Trace, corpus: Corpus,
           out: RecruitOutcome) -> None:
    """The units go to areas with a friendly stronghold; beyond 8 units in an area he destroys the excess."""
    if not strongholds:
        trace.step("The player has no area with a friendly stronghold, so the recruited units cannot be placed.",
                   "rw.recruit-order.placement")
        return
    placement = _placement(strongholds, units, pos.placement, trace)
    if placement is None:
        return
    out.placed = {a: n for a, n in placement.items() if n}
    destroy: dict[str, int] = {}
    for area, n in out.placed.items():
        after = strongholds[area] + n
        over = units_over_limit(after, corpus)
        trace.step(f"{area}: {strongholds[area]} units already there + {n} recruited = {after}"
                   + (f", {over} over the limit of 8: he destroys {plural(over, 'unit')} there (his choice)."
                      if over else ", within the limit."), "rw.recruit-order.placement", units_over_limit)
        if over:
            destroy[area] = over
            _destroy(area, over, (pos.destroyed or {}).get(area), trace)
    out.destroy = destroy


LABELS: dict[str, Label] = {
    "units": "Units recruited", "placed": "Units placed, by area", "destroy": "Units over the limit, by area",
    "second_resource": "Second resource (Supremacy Bonus)",
}


def _summary(pos: RecruitPosition, out: RecruitOutcome, trace: Trace) -> str:
    """One sentence: the units recruited, where they go, and what is still the player's choice."""
    units = out.units
    text = (f"The player recruits {plural(len(units), 'unit')} ({', '.join(units)})" if units
            else "The player recruits no unit")
    if out.placed:
        text += ", placed " + ", ".join(f"{n} in {a}" for a, n in out.placed.items())
    over = {a: n for a, n in (out.destroy or {}).items() if n}
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


@rule("rw.recruit-order.supremacy", "rw.supremacy-bonus")
def _supremacy(pos: RecruitPosition, units: list[str], trace: Trace, out: RecruitOutcome) -> list[str] | None:
    """The Supremacy Bonus: a second, different resource (its dial given, or still to choose); None when the
    position breaks the rule."""
    dial, bonus = pos.dial, pos.supremacy_bonus
    if pos.second_dial is not None:
        if bonus is False:
            trace.violate("a second dial is recruited only with the Supremacy Bonus, which this Recruit order does "
                          "not get", "rw.recruit-order.supremacy", "rw.supremacy-bonus")
            return None
        if pos.second_dial.resource == dial.resource:
            trace.violate(f"the Supremacy Bonus recruits with a different resource, not {dial.resource} again",
                          "rw.recruit-order.supremacy")
            return None
        return units + _recruit(pos.second_dial, "Supremacy Bonus", trace)
    if bonus:
        second_resource = pos.second_resource
        if second_resource is None:
            trace.decide("player", "a second, different resource to recruit with (Supremacy Bonus)",
                         "rw.recruit-order.supremacy", options=[r for r in RESOURCES if r != dial.resource],
                         field="second_resource")
        elif second_resource == dial.resource:
            trace.violate(f"the Supremacy Bonus recruits with a different resource, not {dial.resource} again",
                          "rw.recruit-order.supremacy")
            return None
        else:
            out.second_resource = second_resource
            trace.step(f"Supremacy Bonus: the player also recruits with his {second_resource} dial (set up "
                       "that dial too to list its units).", "rw.recruit-order.supremacy")
    return units


@situation(GAME, "recruit", RecruitPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.recruit-order.no-cost", "rw.recruit-order.placement")
def resolve_recruit(pos: RecruitPosition, trace: Trace, corpus: Corpus) -> RecruitOutcome:
    """Recruit from a resource dial: one unit per unit space at or below the arrow (a second dial with Supremacy)."""
    out = RecruitOutcome()
    units = _supremacy(pos, _recruit(pos.dial, "Recruit", trace), trace, out)
    if units is None:
        return out
    out.units = units
    trace.step("Recruiting costs nothing: the dials are not turned.", "rw.recruit-order.no-cost")
    if pos.strongholds is not None:
        _place(pos, {s.area: s.units or 0 for s in pos.strongholds}, units, trace, corpus, out)
    else:
        trace.step("The units are placed in areas that contain a friendly stronghold, split as the player likes.",
                   "rw.recruit-order.placement")
    return out
