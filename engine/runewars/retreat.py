"""Runewars retreats: where a beaten (or otherwise forced) group goes, who picks, and what is lost on the way.

Paragraphs: ``rw.retreats`` (all retreating units go together into 1 adjacent area) with ``.player-units``
(friendly area first, else empty, else destroyed), ``.neutral`` (unallied neutral units: an uncontrolled area,
picked by the player on the current player's left, else destroyed), ``.heroes``, ``.routed`` (every retreating
figure is routed), ``.unit-limit`` (more than 8 of a player's units after retreating: he destroys the excess,
routed units count) and ``.restrictions`` (movement restrictions apply); ``rw.battles.7c`` with
``.non-participants`` (units that stayed out of the battle are destroyed) and ``.routed-may-retreat``;
``rw.heroes-supporting-battles.losing`` (supporting heroes are routed and go with the units, or all to one area
when no unit retreats); ``rw.allied-units.decisions``; the Frequently Used Terms for friendly, empty and
uncontrolled areas (see :mod:`engine.runewars.areas`).

Choices we made where the book is silent: a group mixing flying and non-flying units is held back by any border
one of its units cannot cross (they must all reach the same area); a supporting hero who cannot cross into his
units' destination goes to another adjacent area he can reach (his owner picks); when the destination is still
open, ``over_limit`` is given only if it is the same for every allowed area.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.areas import AreaMap, Map, Reach, group_can_cross, map_reading, retreat_areas
from engine.runewars.common import (
    GAME,
    Faction,
    Labels,
    Name,
    Season,
    faction_name,
    figure_name,
    figure_names,
    left_of,
    names,
    plural,
    the_player,
)

GroupKind = Annotated[Literal["player", "neutral"], Labels({"player": "A player's units",
                                                           "neutral": "Unallied neutral units"})]
SEASON_HINT = "The current season (in winter water borders do not count)."


class RetreatingUnit(Model):
    """A unit of the retreating side."""

    model_config = ConfigDict(title="Unit")

    id: Name = Field(title="Unit", description="A name for the unit, e.g. archer-1.")
    flying: bool = Field(False, title="Flying", description="Whether the unit flies (it ignores mountain and water "
                         "borders).")
    participated: bool = Field(True, title="Took part in the battle", description="Placed beside the faction sheet in "
                               "this battle; false for units that stayed in the area, such as units already routed.")


class RetreatingHero(Model):
    """A hero of the retreating side."""

    model_config = ConfigDict(title="Hero")

    id: Name = Field(title="Hero", description="The hero's name.")
    flying: bool = Field(False, title="Flying", description="Whether the hero flies.")
    supported: bool = Field(True, title="Supported the battle", description="Placed beside a unit type in step 3 of "
                            "the battle; heroes that did not support stay where they are.")


class RetreatingGroup(Model):
    """The units (and heroes) that must leave the area."""

    model_config = ConfigDict(title="Retreating group")

    kind: GroupKind = Field(title="Whose units", description="A player's units (allied neutral "
                                               "units included) or unallied neutral units.",
                                               json_schema_extra={"default": "player"})
    faction: Faction | None = maybe("The retreating player (for a player's units).", title="Faction")
    units: list[RetreatingUnit] = Field(max_length=80, title="Units", description="Every unit of the side in the "
                                        "area.")
    heroes: list[RetreatingHero] = Field([], max_length=12, title="Heroes",
                                         description="The side's heroes in the area.")


class RetreatPosition(OpenPosition):
    """A group that must retreat: the area it leaves, its units and heroes, and the map around it."""

    game: Literal["runewars"]
    situation: Literal["retreat"]
    season: Season = Field("spring", title="Season", description=SEASON_HINT)
    current_player: Faction | None = maybe("The faction resolving its Order card (the player on its left chooses for "
                                           "unallied neutral units).", title="Current player")
    start: Name = Field(alias="from", title="Area left", description="The area the group must leave.")
    group: RetreatingGroup
    map: AreaMap
    destination: Name | None = Field(None, title="Destination", description="The area the units retreat to, when "
                                     "several are allowed.")
    heroes: dict[str, Name] | None = maybe("{hero: area} for supporting heroes whose units cannot take them along.",
                                           title="Hero destinations", max_length=12)

    @model_validator(mode="after")
    def _readable(self) -> Self:
        if not self.map.has(self.start):
            raise refuse(f"{self.start!r} is not an area of the map", "from")
        grp = self.group
        if grp.kind == "player" and grp.faction is None:
            raise refuse("a player's group needs its faction", "group.faction")
        if grp.kind == "neutral" and grp.heroes:
            raise refuse("unallied neutral units have no heroes", "group.heroes")
        seen: set[str] = set()
        for where, ids in (("units", [u.id for u in grp.units]), ("heroes", [h.id for h in grp.heroes])):
            for i, fid in enumerate(ids):
                if fid in seen:
                    raise refuse(f"{fid!r} appears twice in the group", f"group.{where}[{i}].id")
                seen.add(fid)
        return self

    def reading(self) -> list[str]:
        """The area left, the retreating units and heroes (flying, took part), the map around it, the season, the
        current player and the choices stated."""
        grp = self.group
        side = f"{faction_name(grp.faction)} units" if grp.kind == "player" else "unallied neutral units"
        units = [figure_name(u.id) + _traits(u.flying, not u.participated, "took no part") for u in grp.units]
        out = [f"The {side} retreat from {self.start} ({self.season}): {names(units)}."]
        if grp.heroes:
            heroes = [figure_name(h.id) + _traits(h.flying, not h.supported, "did not support") for h in grp.heroes]
            out.append(f"Heroes: {names(heroes)}.")
        if self.current_player:
            out.append(f"Current player: {faction_name(self.current_player)}.")
        out += map_reading(self.map)
        if self.destination:
            out.append(f"Destination chosen: {self.destination}.")
        for hero, area in (self.heroes or {}).items():
            out.append(f"{figure_name(hero)} goes to {area}.")
        return out

    @property
    def owner(self) -> str:
        """Return the retreating faction, or ``neutral`` for unallied neutral units."""
        return "neutral" if self.group.kind == "neutral" else str(self.group.faction)


def _traits(flying: bool, out: bool, out_words: str) -> str:
    words = (["flying"] if flying else []) + ([out_words] if out else [])
    return f" ({', '.join(words)})" if words else ""


class RetreatOutcome(Outcome):
    """Where the group may go and goes, who picks, which units are destroyed or routed, and the heroes' areas."""

    options: list[str] = Field(default_factory=list)
    destination: str | None = None
    chosen_by: Literal["owner", "left_of_current_player"]
    destroyed: list[str] = Field(default_factory=list)
    routed: list[str] = Field(default_factory=list)
    over_limit: int | None = 0
    heroes: dict[str, str | None] = Field(default_factory=dict)


@dataclass(frozen=True)
class Figure:
    """A retreating unit or hero: its id, whether it flies, and whether it took part (units) or supported
    (heroes)."""

    id: str
    flying: bool
    involved: bool

    @classmethod
    def of(cls, figure: RetreatingUnit | RetreatingHero) -> Figure:
        """Return a unit (took part) or a hero (supported) of the group."""
        return cls(figure.id, figure.flying,
                   figure.participated if isinstance(figure, RetreatingUnit) else figure.supported)


@rule("rw.battles.7c.non-participants", "rw.battles.2.stay-behind")
def stays_behind(unit: Figure) -> bool:
    """Return whether a unit of the losing side cannot retreat and is destroyed: it took no part in the battle."""
    return not unit.involved


@rule("rw.retreats.unit-limit", "rw.movement-restrictions.unit-limit")
def units_over_limit(already_there: int, arriving: int, corpus: Corpus) -> int:
    """Return how many units the owner must destroy in the destination: those beyond 8 (routed ones count)."""
    return max(0, already_there + arriving - int(corpus.fact("rw.retreats.unit-limit", "max_units_per_area")))


def chooser(owner: str, current_player: str | None) -> tuple[Literal["owner", "left_of_current_player"], str]:
    """Return (``chosen_by``, who in words): the owner, or the player left of the current player for neutrals."""
    if owner != "neutral":
        return "owner", the_player(owner)
    return "left_of_current_player", left_of(current_player)


def narrate_options(reach: Reach, start: str, owner: str, season: str | None, trace: Trace) -> None:
    """Record where the group may go and why (terms, borders, winter)."""
    if owner == "neutral":
        what, term = "adjacent uncontrolled areas", "rw.term.uncontrolled-area"
        base = ["rw.retreats", "rw.retreats.neutral", "rw.allied-units.decisions"]
    elif reach.tier == "friendly":
        what, term = "adjacent friendly areas", "rw.term.friendly-area"
        base = ["rw.retreats", "rw.retreats.player-units"]
    else:
        why = ("no adjacent friendly area can be reached" if reach.friendly_cut else "no adjacent area is friendly")
        what, term = f"adjacent empty areas ({why})", "rw.term.empty-area"
        base = ["rw.retreats", "rw.retreats.player-units", "rw.term.friendly-area"]
    cut = (f"; {names(list(reach.blocked))} "
           f"{'is' if len(reach.blocked) == 1 else 'are'} behind a border the group cannot cross"
           if reach.blocked else "")
    extra = ["rw.retreats.restrictions", "rw.movement-restrictions"] if reach.blocked or reach.crossed else []
    if reach.crossed:
        extra.append("rw.movement-restrictions.flying")
        cut += (f"; {names(list(reach.crossed))} lies across a mountain or water border the group may cross "
                f"(flying, or water in winter)")
    if season == "winter":
        extra.append("rw.movement-restrictions.winter")
    if reach.options:
        trace.step(f"Leaving {start}, the units may retreat only into {what}: {names(list(reach.options))}{cut}.",
                   *base, term, *extra)
    else:
        trace.step(f"Leaving {start}, no {what.split(' (')[0]} can be reached{cut}: the retreating units are "
                   f"destroyed.", *base, term, *extra)


@rule("rw.retreats", "rw.retreats.player-units", "rw.retreats.neutral")
def pick_destination(reach: Reach, stated: str | None, field: str, who: str, trace: Trace) -> str | None:
    """Return the destination (the single option or the stated one); record a violation for a stated area that
    is not allowed and a decision when several are allowed and none is stated."""
    if stated is not None:
        if stated not in reach.options:
            allowed = names(list(reach.options)) if reach.options else "none"
            trace.violate(f"the units cannot retreat to {stated}: the allowed areas are {allowed}", "rw.retreats",
                          "rw.retreats.player-units" if reach.tier != "uncontrolled" else "rw.retreats.neutral")
            return None
        return stated
    if len(reach.options) == 1:
        return reach.options[0]
    if reach.options:
        trace.decide(who, "the single area all the retreating units go to", "rw.retreats", options=reach.options,
                     field=field)
    return None


@rule("rw.heroes-supporting-battles.losing", "rw.retreats.heroes", "rw.retreats.restrictions")
def _heroes(board: Map, start: str, owner: str, heroes: Sequence[Figure], dest: str | None, units_go: bool,
            chosen: Mapping[str, str], season: str | None, trace: Trace) -> tuple[dict[str, str | None], bool]:
    """Send the supporting heroes with the units (or all to one area of their own); return {hero: area} and
    whether the position's choices were legal."""
    out: dict[str, str | None] = {}
    support = [h for h in heroes if h.involved]
    staying = [h.id for h in heroes if not h.involved]
    if staying:
        trace.step(f"{figure_names(staying)} did not support the battle: not routed, not forced to retreat.",
                   "rw.heroes-supporting-battles.losing")
    if not support:
        return out, True
    near = board.neighbours[start]

    def reachable(group: Sequence[Figure]) -> list[str]:
        return [a.id for a in board.adjacent(start) if group_can_cross(near[a.id], [h.flying for h in group], season)]

    if units_go:
        alone: list[Figure] = []
        for h in support:
            if dest is None or group_can_cross(near[dest], [h.flying], season):
                out[h.id] = dest
            else:
                alone.append(h)
        if out:
            where = dest or "the units' destination, once chosen"
            trace.step(f"{figure_names(list(out))} supported the battle: routed, and retreating with the units to "
                       f"{where}.",
                       "rw.heroes-supporting-battles.losing", "rw.retreats.heroes")
        groups = [[h] for h in alone]
    else:
        groups = [support]
        trace.step(f"No unit retreats, but {figure_names([h.id for h in support])} supported the battle: routed, and "
                   f"retreating all to one adjacent area.", "rw.heroes-supporting-battles.losing",
                   "rw.retreats.heroes")
    ok = True
    for group in groups:
        options = reachable(group)
        ids = [h.id for h in group]
        stated = {chosen[i] for i in ids if i in chosen}
        if len(stated) > 1 or (stated and not stated <= set(options)):
            trace.violate(f"{figure_names(ids)} must retreat together into one adjacent area they can reach "
                          f"({names(options)}), not into {names(sorted(stated))}",
                          "rw.heroes-supporting-battles.losing", "rw.retreats.heroes", "rw.retreats.restrictions")
            ok = False
            continue
        pick = stated.pop() if stated else (options[0] if len(options) == 1 else None)
        if units_go:
            trace.step(f"{figure_names(ids)} cannot cross into {dest}: {'he goes' if len(ids) == 1 else 'they go'} to "
                       f"another adjacent area {'he' if len(ids) == 1 else 'they'} can reach.",
                       "rw.retreats.heroes", "rw.retreats.restrictions")
        if not options:
            trace.step(f"{figure_names(ids)} can reach no adjacent area; the book does not say what happens then.",
                       "rw.retreats.heroes")
        for i in ids:
            out[i] = pick
        if pick is None and options:
            for i in ids:
                trace.decide(the_player(owner), f"the adjacent area {i} retreats to"
                             + (" (the same for every supporting hero)"
                                                                           if len(ids) > 1 else ""),
                             "rw.retreats.heroes", options=options, field=f"heroes.{i}")
    return out, ok


LABELS: dict[str, Label] = {
    "options": "Areas allowed", "destination": "Retreats to",
    "chosen_by": ("Area chosen by", {"owner": "The owner of the units",
                                     "left_of_current_player": "The player on the current player's left"}),
    "destroyed": "Units destroyed", "routed": "Figures routed", "over_limit": "Units to destroy (over 8)",
    "heroes": "Supporting heroes go to",
}


@rule("rw.battles.7c")
def _stay_behind(units: Sequence[Figure], trace: Trace) -> tuple[list[str], list[Figure]]:
    """Step 7c: units that took no part are destroyed; return them and the units that retreat."""
    stay = [u.id for u in units if stays_behind(u)]
    going = [u for u in units if not stays_behind(u)]
    if stay:
        trace.step(f"{figure_names(stay)} took no part in the battle: they cannot retreat and are destroyed.",
                   stays_behind,
                   "rw.battles.7c")
    return stay, going


def _over_limit(board: Map, owner: str, dest: str | None, reach: Reach, moving: Sequence[str], trace: Trace,
                corpus: Corpus) -> int | None:
    """More than 8 of a player's units in the destination: he destroys the excess (None while it depends on the
    area still to pick)."""
    if owner == "neutral" or not moving:
        return 0
    candidates = [dest] if dest else list(reach.options)
    values = {units_over_limit(board.areas[a].count(owner), len(moving), corpus) for a in candidates}
    over = values.pop() if len(values) == 1 else None
    if over:
        trace.step(f"{dest or 'The destination'} would then hold more than 8 {faction_name(owner)} units (routed ones "
                   f"count): "
                   f"he destroys {plural(over, 'unit')} of his choice there.", units_over_limit)
    return over


@situation(GAME, "retreat", RetreatPosition, labels=LABELS)
@rule("rw.retreats", "rw.retreats.routed", "rw.battles.7c.routed-may-retreat")
def resolve_retreat(pos: RetreatPosition, trace: Trace, corpus: Corpus) -> RetreatOutcome:
    """Find where a retreating group may go, who picks, and which units are destroyed or must be culled."""
    board, start, owner, season = Map.of(pos.map), pos.start, pos.owner, pos.season
    heroes = [Figure.of(h) for h in pos.group.heroes]
    chosen_by, who = chooser(owner, pos.current_player)
    out = RetreatOutcome(chosen_by=chosen_by)
    stay, going = _stay_behind([Figure.of(u) for u in pos.group.units], trace)
    reach = retreat_areas(board, start, owner, [u.flying for u in going], season) if going else Reach((), (), "none")
    out.options = list(reach.options)
    if going:
        narrate_options(reach, start, owner, season, trace)
    dest = pick_destination(reach, pos.destination, "destination", who, trace) if going else None
    if trace.violations:
        return out
    out.destination = dest
    units_go = bool(going and reach.options)
    lost = stay + ([] if units_go else [u.id for u in going])
    out.destroyed = lost
    hero_at, ok = _heroes(board, start, owner, heroes, dest, units_go, pos.heroes or {}, season, trace)
    out.heroes = hero_at
    if not ok:
        return out
    moving = [u.id for u in going] if units_go else []
    out.routed = moving + list(hero_at)
    if moving:
        trace.step(f"{plural(len(moving), 'unit')} retreat together"
                   + (f" to {dest}" if dest else "") + " and are routed (units routed in this battle may retreat).",
                   "rw.retreats", "rw.retreats.routed", "rw.battles.7c.routed-may-retreat")
    out.over_limit = _over_limit(board, owner, dest, reach, moving, trace, corpus)
    trace.summarize(_summary(owner, who, moving, lost, dest, reach, out.over_limit, hero_at))
    return out


def _summary(owner: str, who: str, moving: Sequence[str], lost: Sequence[str], dest: str | None, reach: Reach,
             over: int | None, heroes: Mapping[str, str | None]) -> str:
    side = "neutral" if owner == "neutral" else faction_name(owner)
    if not moving:
        text = (f"The {side} units cannot retreat anywhere: {plural(len(lost), 'unit')} destroyed" if lost
                else f"No {side} unit retreats")
    else:
        many = plural(len(moving), f"{side} unit")
        verb = "retreats" if len(moving) == 1 else "retreat"
        text = (f"The {many} {verb} to {dest}, routed" if dest else
                f"The {many} {verb}, routed, to {' or '.join(reach.options)}; {who} picks one")
        if lost:
            text += f"; {plural(len(lost), 'unit')} that took no part {'is' if len(lost) == 1 else 'are'} destroyed"
        if over:
            text += f"; {over} over the 8-unit limit must be destroyed there"
    for area in dict.fromkeys(heroes.values()):
        ids = [h for h, a in heroes.items() if a == area]
        goes = "goes" if len(ids) == 1 else "go"
        text += (f"; {figure_names(ids)} {goes} routed to {area}" if area else
                 f"; {figure_names(ids)} must retreat, routed ({who} picks the area)")
    return text
