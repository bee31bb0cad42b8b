"""Runewars winter: in each area a player keeps at most as many units as his food dial shows.

Paragraphs: ``rw.winter`` (the winter secondary ability: the limit becomes the food dial's current space, the
owner destroys the excess; allied neutral units count, heroes do not) with its example ``rw.winter.example``,
``rw.allied-units.limits`` and ``rw.term.unit`` (heroes are not units); the limit goes back to 8 afterwards
(``rw.movement-restrictions.unit-limit``).

``areas[i].destroyed`` [names] says which units go when the player has a choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.runewars.common import FACTIONS, GAME, NAME, faction_name, plural, unique_keys
from engine.schema import arr, integer, obj

AREA = obj(["area", "units"], area=NAME, units=integer(0, 80), allied_neutral=integer(0, 80), heroes=integer(0, 12),
           destroyed=arr(NAME, max_items=80))
SCHEMA: dict[str, Any] = obj(["food", "areas"], extra=True, player=NAME, food=integer(0, 20),
                             areas=arr(AREA, max_items=120))


@dataclass(frozen=True)
class Area:
    """One area holding the player's figures: his units, allied neutral units and heroes there."""

    area: str
    units: int
    allied_neutral: int = 0
    heroes: int = 0

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Area:
        """Read an area of the position."""
        return cls(str(raw["area"]), int(raw["units"]), int(raw.get("allied_neutral") or 0),
                   int(raw.get("heroes") or 0))


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


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: the winter limit and the units destroyed in each area."""
    food = int(pos["food"])
    losses = [(area, n) for area, n in out["destroy"].items() if n]
    if not losses:
        return f"With the food dial at {food}, no area is over the winter limit: no unit is destroyed."
    listed = ", ".join(f"{plural(n, 'unit')} in {area}" for area, n in losses)
    who = faction_name(str(pos.get("player") or "")) or "the player"
    pick = " (which ones is still his choice)" if trace.decisions else ""
    return f"With the food dial at {food}, {who} destroys {listed}{pick}."


@situation(GAME, "winter", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_winter(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Apply the winter food limit: in each area, units beyond the food dial are destroyed (allies count)."""
    unique_keys(pos["areas"], "area", "areas")
    food = int(pos["food"])
    who = str(pos.get("player") or "player")
    owner = f"{who} player" if who in FACTIONS else who
    areas = [Area.from_json(a) for a in pos["areas"]]
    normal = corpus.fact("rw.winter", "normal_unit_limit_per_area")
    trace.step(f"Winter: the {owner}'s unit limit in every area becomes his food dial's current space, {food}, "
               f"instead of {normal}.", "rw.winter")
    destroy: dict[str, int] = {}
    for i, a in enumerate(areas):
        n = winter_losses(a, food)
        destroy[a.area] = n
        parts = plural(a.units, "unit")
        if a.allied_neutral:
            parts += f" + {a.allied_neutral} allied neutral = {units_counted(a)}"
        hero_note = f"; his {plural(a.heroes, 'hero', 'heroes')} do not count" if a.heroes else ""
        cites: list[Any] = [winter_losses]
        if a.allied_neutral:
            cites.append("rw.allied-units.limits")
        if a.heroes:
            cites.append("rw.term.unit")
        if n:
            trace.step(f"{a.area}: {parts}, {n} over the limit of {food}{hero_note}: "
                       f"{plural(n, 'unit')} destroyed.", *cites)
            chosen = pos["areas"][i].get("destroyed")
            if n < units_counted(a) and chosen is None:
                trace.decide(who, f"the {plural(n, 'unit')} to destroy in {a.area} (own or allied neutral units; "
                             "name them)", "rw.winter", field=f"areas[{i}].destroyed")
            elif chosen is not None and len(chosen) != n:
                trace.violate(f"{a.area} must lose exactly {plural(n, 'unit')}, the position names {len(chosen)}",
                              winter_losses)
            elif chosen:
                trace.step(f"In {a.area} the player destroys {', '.join(chosen)}.", "rw.winter")
        else:
            trace.step(f"{a.area}: {parts}, within the limit of {food}{hero_note}.", *cites)
    trace.step(f"Once the ability is resolved the limit goes back to {normal}; water borders stay open until the "
               f"end of winter.", "rw.movement-restrictions.unit-limit", "rw.winter.water-borders")
    return {"destroy": destroy}
