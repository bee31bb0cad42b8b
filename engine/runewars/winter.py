"""Runewars winter: in each area a player keeps at most as many units as his food dial shows.

Paragraphs: ``rw.winter`` (the winter secondary ability: the limit becomes the food dial's current space, the
owner destroys the excess; allied neutral units count, heroes do not) with its example ``rw.winter.example``,
``rw.allied-units.limits`` and ``rw.term.unit`` (heroes are not units); the limit goes back to 8 afterwards
(``rw.movement-restrictions.unit-limit``).

``areas[i].destroyed`` [names] says which units go when the player has a choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe
from engine.runewars.common import (
    GAME,
    Faction,
    Name,
    capital,
    figure_names,
    names,
    plural,
    refuse_duplicates,
    the_player,
)


class WinterArea(Model):
    """One area holding the player's figures: his units, allied neutral units and heroes there, and (when he has
    a choice) the units he destroys."""

    model_config = ConfigDict(title="Area")

    area: Name
    units: int = Field(ge=0, le=80)
    allied_neutral: int | None = maybe(ge=0, le=80)
    heroes: int | None = maybe(ge=0, le=12)
    destroyed: list[Name] | None = maybe(max_length=80)


class WinterPosition(OpenPosition):
    """The winter food limit: the player's food dial and every area holding his figures."""

    game: Literal["runewars"]
    situation: Literal["winter"]
    player: Faction | None = maybe(title="Player")
    food: int = Field(ge=0, le=20)
    areas: list[WinterArea] = Field(max_length=120)

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        refuse_duplicates([a.area for a in self.areas], "area", "areas")
        return self

    def reading(self) -> list[str]:
        """The player, his food dial, and each area's units, allied neutral units, heroes and stated losses."""
        out = [f"{capital(the_player(self.player))}'s food dial is at {self.food}."]
        for a in self.areas:
            extra = [plural(a.allied_neutral, "allied neutral unit")] if a.allied_neutral else []
            extra += [plural(a.heroes, "hero", "heroes")] if a.heroes else []
            text = f"{a.area}: {names([plural(a.units, 'unit'), *extra])}"
            if a.destroyed is not None:
                text += f"; he names {figure_names(a.destroyed)} to destroy"
            out.append(text + ".")
        return out


class WinterOutcome(Outcome):
    """The units destroyed in each area."""

    destroy: dict[str, int]


@dataclass(frozen=True)
class Area:
    """One area holding the player's figures: his units, allied neutral units and heroes there."""

    area: str
    units: int
    allied_neutral: int = 0
    heroes: int = 0

    @classmethod
    def of(cls, row: WinterArea) -> Area:
        """Return the area of the position."""
        return cls(row.area, row.units, row.allied_neutral or 0, row.heroes or 0)


@rule("rw.winter", "rw.allied-units.limits", "rw.term.unit")
def units_counted(area: Area) -> int:
    """Return the units that count against the winter limit: the player's own and his allied neutral units
    (heroes are not units)."""
    return area.units + area.allied_neutral


@rule("rw.winter", "rw.winter.example")
def winter_losses(area: Area, food: int) -> int:
    """Return how many units the player destroys in the area: those beyond his food dial's current space."""
    return max(0, units_counted(area) - food)


LABELS: dict[str, Label] = {"destroy": "Units destroyed, by area"}


def _summary(pos: WinterPosition, out: WinterOutcome, trace: Trace) -> str:
    """One sentence: the winter limit and the units destroyed in each area."""
    food = pos.food
    losses = [(area, n) for area, n in out.destroy.items() if n]
    if not losses:
        return f"With the food dial at {food}, no area is over the winter limit: no unit is destroyed."
    listed = names([f"{plural(n, 'unit')} in {area}" for area, n in losses])
    who = the_player(pos.player)
    pick = " (which ones is still his choice)" if trace.decisions else ""
    return f"With the food dial at {food}, {who} destroys {listed}{pick}."


@rule("rw.winter")
def _area(i: int, row: WinterArea, food: int, who: str, trace: Trace) -> int:
    """One area: the units counted against the food dial, and those destroyed (the owner names them)."""
    a = Area.of(row)
    n = winter_losses(a, food)
    parts = plural(a.units, "unit")
    if a.allied_neutral:
        parts += f" + {a.allied_neutral} allied neutral = {units_counted(a)}"
    hero_note = (f"; his {plural(a.heroes, 'hero', 'heroes')} {'does' if a.heroes == 1 else 'do'} not count"
                 if a.heroes else "")
    cites: list[Any] = [winter_losses]
    if a.allied_neutral:
        cites.append("rw.allied-units.limits")
    if a.heroes:
        cites.append("rw.term.unit")
    if not n:
        trace.step(f"{a.area}: {parts}, within the limit of {food}{hero_note}.", *cites)
        return n
    trace.step(f"{a.area}: {parts}, {n} over the limit of {food}{hero_note}: {plural(n, 'unit')} destroyed.",
               *cites)
    chosen = row.destroyed
    if n < units_counted(a) and chosen is None:
        trace.decide(who, f"the {plural(n, 'unit')} to destroy in {a.area} (own or allied neutral units; "
                     "name them)", "rw.winter", field=f"areas[{i}].destroyed")
    elif chosen is not None and len(chosen) != n:
        trace.violate(f"{a.area} must lose exactly {plural(n, 'unit')}, the position names {len(chosen)}",
                      winter_losses)
    elif chosen:
        trace.step(f"In {a.area} the player destroys {figure_names(chosen)}.", "rw.winter")
    return n


@situation(GAME, "winter", WinterPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.winter", "rw.movement-restrictions.unit-limit", "rw.winter.water-borders")
def resolve_winter(pos: WinterPosition, trace: Trace, corpus: Corpus) -> WinterOutcome:
    """Apply the winter food limit: in each area, units beyond the food dial are destroyed (allies count)."""
    food = pos.food
    who = the_player(pos.player)
    normal = corpus.fact("rw.winter", "normal_unit_limit_per_area")
    trace.step(f"Winter: {who}'s unit limit in every area becomes his food dial's current space, {food}, "
               f"instead of {normal}.", "rw.winter")
    destroy = {row.area: _area(i, row, food, who, trace) for i, row in enumerate(pos.areas)}
    trace.step(f"Once the ability is resolved the limit goes back to {normal}; water borders stay open until the "
               f"end of winter.", "rw.movement-restrictions.unit-limit", "rw.winter.water-borders")
    return WinterOutcome(destroy=destroy)
