"""Runewars movement with a Mobilize or Conquer order: activate one area, move figures in from up to 2 areas away.

Paragraphs: ``rw.moving-units-with-mobilize-and-conquer-orders`` (range 2, units pass only through friendly or
empty areas) and ``.heroes`` (heroes pass through enemy areas), ``rw.fast-units-and-heroes`` (range 3),
``rw.activation-tokens`` with ``.into`` (no second activation), ``.no-leaving`` (units cannot leave a friendly
activated area) and ``.heroes``; ``rw.movement-restrictions`` (mountain and water borders) with ``.flying``,
``.winter`` / ``rw.winter.water-borders``, ``.other-borders``, ``.unit-limit`` and ``.unit-limit.battle``;
``rw.hero-movement.enemy-areas`` / ``.activation``; ``rw.routed-units-and-heroes`` (routed figures cannot move);
``rw.mobilize-order.one-battle``; the book's ``rw.mobilize-conquer-order-example``. The map is a ``networkx``
graph of areas joined by their borders.

Answers: ``destroy_in_target`` [names] for units over the limit, ``engagement_choice`` (``battle`` or
``diplomacy``) beside unallied neutral units.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Annotated, Any, Literal, Self

import networkx as nx
from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.common import (
    GAME,
    Faction,
    Labels,
    Name,
    Season,
    capital,
    faction_name,
    faction_names,
    figure_name,
    figure_names,
    plural,
    refuse_duplicates,
    the_player,
)

BORDER_KINDS = ("plain", "mountain", "water")
BorderKind = Annotated[Literal["plain", "mountain", "water"], Labels({"plain": "Plain", "mountain": "Mountain",
                                                                    "water": "Water"})]
OrderKind = Annotated[Literal["mobilize", "conquer"], Labels({"mobilize": "Mobilize", "conquer": "Conquer"})]
Engagement = Annotated[Literal["battle", "diplomacy"], Labels({"battle": "Battle the neutral units",
                                                               "diplomacy": "Attempt diplomacy"})]
Border = Annotated[tuple[Name, Name, BorderKind], Field(strict=False)]
"""Two adjacent areas and the kind of the border between them: ``[area, area, kind]`` (a JSON array)."""


class MapArea(Model):
    """An area of the map: who controls it, the units in it and the activation tokens on it."""

    model_config = ConfigDict(title="Area")

    id: Name
    name: Name | None = maybe()
    controller: Faction | None = Field(None, description="The faction controlling the area (null: nobody).")
    neutral_units: int | None = maybe(ge=0, le=80)
    enemy_units: int | None = maybe(ge=0, le=80)
    activation_tokens: list[Faction] | None = maybe(max_length=16)
    units: int | None = maybe(ge=0, le=80)


def check_borders(areas: Sequence[str], borders: Sequence[tuple[str, str, str]]) -> None:
    """Refuse (in a model validator) a border naming an unknown area, joining an area to itself, or contradicting
    an earlier border between the same two areas."""
    known = set(areas)
    kinds: dict[frozenset[str], str] = {}
    for i, (a, b, kind) in enumerate(borders):
        for j, end in enumerate((a, b)):
            if end not in known:
                raise refuse(f"border {i + 1} names {end!r}, which is not an area of the map", f"borders[{i}][{j}]")
        if a == b:
            raise refuse(f"border {i + 1} joins {a!r} to itself", f"borders[{i}]")
        old = kinds.setdefault(frozenset((a, b)), kind)
        if old != kind:
            raise refuse(f"the border between {a!r} and {b!r} is given as both {old} and {kind}", f"borders[{i}][2]")


class MobilizeMap(Model):
    """The map: its areas and the borders between them."""

    model_config = ConfigDict(title="Map")

    areas: list[MapArea] = Field(min_length=1, max_length=500, description="areas of the map")
    borders: list[Border] = Field(max_length=3000,
                                  description="[area, area, kind] for each pair of adjacent areas")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        refuse_duplicates([a.id for a in self.areas], "id", "areas")
        check_borders([a.id for a in self.areas], self.borders)
        return self


class MoverEntry(Model):
    """A figure the player would like to move: a unit or a hero, fast, flying or routed."""

    model_config = ConfigDict(title="Mover")

    id: Name
    type: Name | None = maybe()
    fast: bool | None = maybe()
    flying: bool | None = maybe()
    routed: bool | None = maybe()
    hero: bool | None = maybe()
    start: Name = Field(alias="from")


class MobilizePosition(OpenPosition):
    """A Mobilize or Conquer order: the area activated, the map and the figures that would move in."""

    game: Literal["runewars"]
    situation: Literal["mobilize"]
    season: Season | None = maybe()
    player: Faction
    order: OrderKind | None = maybe()
    target_area: Name
    battles_this_order: int | None = maybe(ge=0, le=10)
    map: MobilizeMap
    movers: list[MoverEntry] = Field(max_length=200)
    destroy_in_target: list[Name] | None = maybe(max_length=80)
    engagement_choice: Engagement | None = maybe()

    @model_validator(mode="after")
    def _on_the_map(self) -> Self:
        ids = {a.id for a in self.map.areas}
        if self.target_area not in ids:
            raise refuse(f"{self.target_area!r} is not an area of the map", "target_area")
        refuse_duplicates([m.id for m in self.movers], "id", "movers")
        for i, m in enumerate(self.movers):
            if m.start not in ids:
                raise refuse(f"{m.start!r} is not an area of the map", f"movers[{i}].from")
        return self

    def reading(self) -> list[str]:
        """The order and the area activated, the figures that would move in (from where, fast, flying, routed,
        hero), every area of the map and its borders, and the choices stated."""
        order = f"a {self.order.capitalize()} order" if self.order else "an order"
        out = [f"{capital(the_player(self.player))} resolves {order} activating {self.target_area}"
               + (f" ({self.season})" if self.season else "")
               + (f"; this order has fought {plural(self.battles_this_order, 'battle')}"
                  if self.battles_this_order else "") + "."]
        movers = [f"{figure_name(m.id)} from {m.start}"
                  + "".join(f", {w}" for w, on in (("fast", m.fast), ("flying", m.flying), ("routed", m.routed),
                                                   ("a hero", m.hero)) if on) for m in self.movers]
        out.append(f"Figures that would move in: {'; '.join(movers) if movers else 'none'}.")
        for a in self.map.areas:
            facts = [f"controlled by {faction_name(a.controller)}" if a.controller else "uncontrolled"]
            facts += [f"{plural(a.units, 'unit')} of his"] if a.units else []
            facts += [plural(a.enemy_units, "enemy unit")] if a.enemy_units else []
            facts += [plural(a.neutral_units, "neutral unit")] if a.neutral_units else []
            facts += [f"activation tokens of {faction_names(a.activation_tokens)}"] if a.activation_tokens else []
            out.append(f"Area {a.id}{f' ({a.name})' if a.name else ''}: {', '.join(facts)}.")
        rough = [f"{x}–{y} {kind}" for x, y, kind in self.map.borders if kind != "plain"]
        plain = sum(1 for b in self.map.borders if b[2] == "plain")
        out.append(f"Borders: {plural(plain, 'plain border')}" + (f"; {', '.join(rough)}" if rough else "") + ".")
        if self.destroy_in_target is not None:
            out.append(f"He names {figure_names(self.destroy_in_target)} to destroy in {self.target_area}.")
        if self.engagement_choice:
            out.append("He chooses to " + ("battle the neutral units." if self.engagement_choice == "battle"
                                           else "attempt diplomacy."))
        return out


@dataclass(frozen=True)
class Area:
    """An area of the map: who controls it, the units in it and the activation tokens on it."""

    id: str
    controller: str | None = None
    neutral_units: int = 0
    enemy_units: int = 0
    activation_tokens: tuple[str, ...] = ()
    units: int = 0

    @classmethod
    def of(cls, area: MapArea) -> Area:
        """Return the area of the position's map."""
        return cls(area.id, area.controller, area.neutral_units or 0, area.enemy_units or 0,
                   tuple(area.activation_tokens or ()), area.units or 0)


@dataclass(frozen=True)
class Mover:
    """A figure the player would like to move: a unit or a hero, fast, flying or routed."""

    id: str
    start: str
    fast: bool = False
    flying: bool = False
    routed: bool = False
    hero: bool = False

    @classmethod
    def of(cls, mover: MoverEntry) -> Mover:
        """Return the mover of the position."""
        return cls(mover.id, mover.start, bool(mover.fast), bool(mover.flying), bool(mover.routed), bool(mover.hero))

    @property
    def kind(self) -> str:
        """Return ``hero`` or ``unit``."""
        return "hero" if self.hero else "unit"


@dataclass(frozen=True)
class Board:
    """The map: its areas by id and an undirected ``networkx`` graph whose edges carry the border kind."""

    areas: Mapping[str, Area]
    graph: nx.Graph

    @classmethod
    def of(cls, raw: MobilizeMap) -> Board:
        """Build the map graph (the position's validation refused unknown areas and contradicting borders)."""
        areas = {a.id: Area.of(a) for a in raw.areas}
        graph = nx.Graph()
        graph.add_nodes_from(areas)
        for a, b, kind in raw.borders:
            graph.add_edge(a, b, kind=kind)
        return cls(areas, graph)


@rule("rw.term.friendly-area")
def is_friendly(area: Area, player: str) -> bool:
    """Return whether the player controls the area (his units, his stronghold or his home realm)."""
    return area.controller == player and area.enemy_units == 0


@rule("rw.term.empty-area")
def is_empty(area: Area) -> bool:
    """Return whether the area is empty: nobody controls it and it holds no units."""
    return area.controller is None and area.neutral_units == 0 and area.enemy_units == 0


@rule("rw.moving-units-with-mobilize-and-conquer-orders", "rw.hero-movement.enemy-areas",
      "rw.moving-units-with-mobilize-and-conquer-orders.heroes", "rw.movement-restrictions.flying")
def may_pass_through(area: Area, mover: Mover, player: str) -> bool:
    """Return whether the figure may pass through the area on the way: a unit (flying or not) only through
    friendly or empty areas, a hero through any area."""
    return mover.hero or is_friendly(area, player) or is_empty(area)


@rule("rw.movement-restrictions", "rw.movement-restrictions.flying", "rw.movement-restrictions.winter",
      "rw.winter.water-borders", "rw.movement-restrictions.other-borders")
def can_cross(kind: str, mover: Mover, season: str | None) -> bool:
    """Return whether the figure may cross a border: plain always; mountain only flying; water flying or in
    winter."""
    if kind == "mountain":
        return mover.flying
    if kind == "water":
        return mover.flying or season == "winter"
    return True


@rule("rw.moving-units-with-mobilize-and-conquer-orders", "rw.fast-units-and-heroes")
def move_range(mover: Mover, corpus: Corpus) -> int:
    """Return how far the figure may come from: 2 areas, 3 if it is fast."""
    if mover.fast:
        return int(corpus.fact("rw.fast-units-and-heroes", "fast_range_mobilize_conquer"))
    return int(corpus.fact("rw.moving-units-with-mobilize-and-conquer-orders", "max_distance"))


@rule("rw.activation-tokens.into", "rw.activation-tokens")
def can_activate(area: Area, player: str) -> bool:
    """Return whether the player may activate the area: not if it already holds one of his activation tokens."""
    return player not in area.activation_tokens


@rule("rw.activation-tokens.no-leaving", "rw.activation-tokens.heroes", "rw.hero-movement.activation")
def is_held_by_activation(mover: Mover, start: Area, player: str) -> bool:
    """Return whether a unit is stuck in an area holding its player's activation token (heroes never are)."""
    return not mover.hero and player in start.activation_tokens


@rule("rw.routed-units-and-heroes", "rw.hero-movement.activation")
def is_routed(mover: Mover) -> bool:
    """Return whether the figure is routed: routed units and heroes cannot move."""
    return mover.routed


@rule("rw.mobilize-order.one-battle")
def is_second_battle(engagement: str, battles_this_order: int, corpus: Corpus) -> bool:
    """Return whether moving units in would start a battle beyond the 1 a Mobilize order allows."""
    most = int(corpus.fact("rw.mobilize-order.one-battle", "max_battles_per_mobilize"))
    return engagement == "battle" and battles_this_order >= most


@rule("rw.movement", "rw.moving-units-with-mobilize-and-conquer-orders")
def engagement_in(area: Area, player: str) -> str:
    """Return what units moving in must do: battle enemy units, battle or attempt diplomacy with unallied neutral
    units, or nothing in a friendly or empty area."""
    if area.enemy_units or (area.controller is not None and area.controller != player):
        return "battle"
    if area.controller is None and area.neutral_units:
        return "battle_or_diplomacy"
    return "none"


def legal_path(board: Board, mover: Mover, target: str, player: str, season: str | None,
               reach: int) -> list[str] | None:
    """Return a shortest legal path from the figure's area to the target within its range, or ``None``: a
    breadth-first search over the map graph, crossing only borders the figure may cross and passing only through
    areas it may pass through."""
    adj, areas, start = board.graph.adj, board.areas, mover.start
    came_from: dict[str, str | None] = {start: None}
    frontier = [start]
    for _ in range(reach):
        ahead: list[str] = []
        for here in frontier:
            if here != start and not may_pass_through(areas[here], mover, player):
                continue
            for there, border in adj[here].items():
                if there in came_from or not can_cross(border["kind"], mover, season):
                    continue
                came_from[there] = here
                if there == target:
                    path = [there]
                    while (step := came_from[path[-1]]) is not None:
                        path.append(step)
                    return path[::-1]
                ahead.append(there)
        frontier = ahead
    return None


def _distance(graph: nx.Graph, a: str, b: str) -> int | None:
    try:
        return int(nx.shortest_path_length(graph, a, b))
    except nx.NetworkXNoPath:
        return None


def path_cites(board: Board, mover: Mover, path: list[str], season: str | None, player: str) -> list[str]:
    """Return the paragraphs that make a path legal: the range, the borders crossed, the areas passed through."""
    out = ["rw.fast-units-and-heroes" if mover.fast else "rw.moving-units-with-mobilize-and-conquer-orders"]
    kinds = {board.graph[a][b]["kind"] for a, b in pairwise(path)}
    if kinds & {"mountain", "water"} and mover.flying:
        out.append("rw.movement-restrictions.flying")
    elif "water" in kinds:
        out += ["rw.movement-restrictions.winter", "rw.winter.water-borders"]
    if mover.hero and player in board.areas[path[0]].activation_tokens:
        out.append("rw.activation-tokens.heroes")
    inner = [board.areas[a] for a in path[1:-1]]
    if mover.hero and any(not (is_friendly(a, "") or is_empty(a)) for a in inner):
        out += ["rw.hero-movement.enemy-areas", "rw.moving-units-with-mobilize-and-conquer-orders.heroes"]
    elif inner and not mover.hero:
        out += ["rw.moving-units-with-mobilize-and-conquer-orders"]
        out += ["rw.term.friendly-area"] if any(a.controller for a in inner) else []
        out += ["rw.term.empty-area"] if any(a.controller is None for a in inner) else []
    return list(dict.fromkeys(out))


def why_blocked(board: Board, mover: Mover, target: str, season: str | None, reach: int) -> tuple[str, list[Any]]:
    """Return why no legal path exists (too far, borders, or enemy and neutral areas) and the rules that decide."""
    full = _distance(board.graph, mover.start, target)
    if full is None:
        return "no chain of borders joins its area to the target", ["rw.movement-restrictions.other-borders"]
    if full > reach:
        where = "rw.fast-units-and-heroes" if mover.fast else "rw.moving-units-with-mobilize-and-conquer-orders"
        return f"the target is {plural(full, 'area')} away and it moves at most {reach}", [where]
    crossing = nx.subgraph_view(board.graph, filter_edge=lambda a, b: can_cross(board.graph[a][b]["kind"], mover,
                                                                                   season))
    by_border = _distance(crossing, mover.start, target)
    if by_border is None or by_border > reach:
        water = "" if mover.flying or season == "winter" else " (water borders open only in winter)"
        extra = [] if mover.flying or season == "winter" else ["rw.movement-restrictions.winter"]
        return (f"mountain or water borders block every route of {reach} areas or fewer{water}",
                ["rw.movement-restrictions", *extra])
    return (f"every route of {reach} areas or fewer passes through an enemy or neutral area, and units may pass "
            f"only through friendly or empty areas", ["rw.moving-units-with-mobilize-and-conquer-orders"])


LABELS: dict[str, Label] = {
    "can_activate": "Area can be activated", "movers": "Figures that can move in (and their paths)",
    "units_in_target": "Units in the area after moving", "destroy_excess": "Units over the limit destroyed",
    "engagement": ("What happens there", {"none": "Nothing", "battle": "A battle",
                                          "battle_or_diplomacy": "Battle or diplomacy"}),
    "engagement_choice": ("Chosen", {"battle": "Battle", "diplomacy": "Diplomacy"}),
}


class MoverResult(Outcome):
    """Whether a figure can move in, by which path, or why not."""

    can_move: bool
    path: list[str] | None
    reason: str | None = Field(None, exclude_if=lambda v: v is None)
    distance: int | None = Field(None, exclude_if=lambda v: v is None)


class MobilizeOutcome(Outcome):
    """Whether the area can be activated, each figure's path, and what happens in the area."""

    can_activate: bool
    movers: dict[str, MoverResult] = Field(default_factory=dict)
    units_in_target: int | None = Field(None, exclude_if=lambda v: v is None)
    destroy_excess: int | None = Field(None, exclude_if=lambda v: v is None)
    engagement: Literal["none", "battle", "battle_or_diplomacy"] | None = Field(None, exclude_if=lambda v: v is None)
    engagement_choice: Literal["battle", "diplomacy"] | None = Field(None, exclude_if=lambda v: v is None)


def _summary(pos: MobilizePosition, out: MobilizeOutcome, trace: Trace) -> str:
    """One sentence: the activated area, the figures that can move in, and what happens there."""
    player, target = faction_name(pos.player), pos.target_area
    movers = out.movers
    moving = [m for m, e in movers.items() if e.can_move]
    text = (f"{player} activates {target}: {len(moving)} of {plural(len(movers), 'figure')} can move in"
            + (f" ({figure_names(moving)})" if 0 < len(moving) <= 5 else ""))
    engagement = out.engagement
    if engagement == "battle":
        text += "; they start a battle there"
    elif engagement == "battle_or_diplomacy":
        choice = out.engagement_choice
        text += (f"; {player} chooses to {'battle the neutral units' if choice == 'battle' else 'attempt diplomacy'}"
                 if choice else "; they must battle the neutral units there or attempt diplomacy")
    if out.destroy_excess:
        text += f"; {plural(out.destroy_excess, 'unit')} over the limit of 8 are destroyed there" + (
            " (his choice which)" if any(d.field == "destroy_in_target" for d in trace.decisions) else "")
    return text + "."


def _blocked(m: Mover, target: str, player: str, board: Board, second: bool) -> tuple[str, list[Any]] | None:
    """Return why a figure cannot move at all (and the rule saying so), before any path is sought."""
    if m.start == target:
        return f"it is already in {target}", [f"{figure_name(m.id)} is already in {target}; it has nothing to move.",
                                              "rw.moving-units-with-mobilize-and-conquer-orders"]
    if is_routed(m):
        return f"a routed {m.kind} cannot move", [f"{figure_name(m.id)} cannot move: it is routed.",
                                                  "rw.hero-movement.activation" if m.hero
                                                  else "rw.routed-units-and-heroes"]
    if is_held_by_activation(m, board.areas[m.start], player):
        return (f"{m.start} holds {faction_name(player)}'s activation token, and units cannot leave it",
                [f"{figure_name(m.id)} cannot move: {m.start} holds {faction_name(player)}'s own activation token "
                 f"and units may not leave it "
                 f"(except by retreating).", "rw.activation-tokens.no-leaving"])
    if not m.hero and second:
        return ("moving units in would start a second battle with this order",
                [f"{figure_name(m.id)} cannot move: {target} holds enemy units and this order has already fought "
                 "its battle.",
                 is_second_battle])
    return None


def _move(m: Mover, pos: MobilizePosition, board: Board, second: bool, trace: Trace,
          corpus: Corpus) -> MoverResult:
    """One figure: can it move, and by which shortest legal path within its range."""
    target, player, season = pos.target_area, pos.player, pos.season
    reach = move_range(m, corpus)
    stopped = _blocked(m, target, player, board, second)
    if stopped is not None:
        reason, (text, cite) = stopped
        trace.step(text, cite)
        return MoverResult(can_move=False, path=None, reason=reason)
    path = legal_path(board, m, target, player, season, reach)
    if path is None:
        reason, why = why_blocked(board, m, target, season, reach)
        trace.step(f"{figure_name(m.id)} cannot reach {target}: {reason}.", *why)
        return MoverResult(can_move=False, path=None, reason=reason)
    cites = path_cites(board, m, path, season, player)
    special = [w for w, on in (("fast", m.fast), ("flying", m.flying)) if on]
    what = " ".join([*special, m.kind])
    trace.step(f"{figure_name(m.id)} ({what}, range {reach}) moves {' → '.join(path)} "
               f"({plural(len(path) - 1, 'area')}).", *cites)
    return MoverResult(can_move=True, path=path, distance=len(path) - 1)


@situation(GAME, "mobilize", MobilizePosition, labels=LABELS)
@summarized(_summary)
def resolve_mobilize(pos: MobilizePosition, trace: Trace, corpus: Corpus) -> MobilizeOutcome:
    """Activate an area and find which figures can move into it and by which shortest legal path."""
    board = Board.of(pos.map)
    player, target = pos.player, pos.target_area
    movers = [Mover.of(m) for m in pos.movers]
    area = board.areas[target]
    order = (pos.order or "mobilize").title()
    out = MobilizeOutcome(can_activate=can_activate(area, player))
    if not out.can_activate:
        trace.violate(f"{target} already holds one of {faction_name(player)}'s activation tokens; he may move units "
                      "into it but "
                      f"may not activate it again", can_activate)
        out.movers = {m.id: MoverResult(can_move=False, path=None, reason="the area cannot be activated")
                      for m in movers}
        return out
    trace.step(f"{order}: {faction_name(player)} places an activation token in {target} before moving anything.",
               can_activate)
    engagement = engagement_in(area, player)
    battles = pos.battles_this_order or 0
    second = is_second_battle(engagement, battles, corpus)
    moving_units = 0
    for m in movers:
        entry = out.movers[m.id] = _move(m, pos, board, second, trace, corpus)
        moving_units += 1 if entry.can_move and not m.hero else 0
    _target_rules(area, player, engagement, moving_units, battles, trace, corpus, out, pos.destroy_in_target,
                  pos.engagement_choice)
    return out


@rule("rw.movement-restrictions.unit-limit", "rw.allied-units.limits", "rw.hero-movement.enemy-areas",
      "rw.movement-restrictions.unit-limit.battle", "rw.movement", "rw.battles", "rw.diplomacy",
      "rw.mobilize-order.one-battle")
def _target_rules(area: Area, player: str, engagement: str, moving: int, battles: int, trace: Trace,
                  corpus: Corpus, out: MobilizeOutcome, destroyed: list[str] | None = None,
                  choice: Literal["battle", "diplomacy"] | None = None) -> None:
    """Record what happens in the activated area: battle or diplomacy, and the limit of 8 units."""
    limit = int(corpus.fact("rw.movement-restrictions.unit-limit", "max_units_per_area"))
    allied = area.neutral_units if is_friendly(area, player) else 0
    total = area.units + allied + moving
    out.units_in_target = total
    out.destroy_excess = 0
    if engagement == "none":
        out.engagement = "none"
        over = max(0, total - limit)
        if over:
            out.destroy_excess = over
            trace.step(f"{area.id} would hold {total} of {faction_name(player)}'s units (allied neutral units count, "
                       f"heroes do "
                       f"not), {over} over the limit of {limit}: he destroys {plural(over, 'unit')} there.",
                       "rw.movement-restrictions.unit-limit", "rw.allied-units.limits")
            if destroyed is None:
                trace.decide(the_player(player), f"{plural(over, 'unit')} to destroy in {area.id} (name them)",
                             "rw.movement-restrictions.unit-limit", field="destroy_in_target")
            elif len(destroyed) != over:
                trace.violate(f"{area.id} must lose exactly {plural(over, 'unit')}, the position names "
                              f"{len(destroyed)}", "rw.movement-restrictions.unit-limit")
            else:
                trace.step(f"{faction_name(player)} destroys {', '.join(destroyed)} in {area.id}.",
                           "rw.movement-restrictions.unit-limit")
        elif moving:
            trace.step(f"{area.id} would hold {total} of {faction_name(player)}'s units, within the limit of {limit}.",
                       "rw.movement-restrictions.unit-limit")
        return
    if not moving:
        out.engagement = "none"
        trace.step(f"No unit moves into {area.id}, so no battle starts there (heroes start none).",
                   "rw.hero-movement.enemy-areas")
        return
    if engagement == "battle_or_diplomacy" and total > limit:
        engagement = "battle"
        trace.step(f"With {total} units in a neutral area, more than {limit}, {faction_name(player)} may not attempt "
                   f"diplomacy and "
                   f"must battle.", "rw.movement-restrictions.unit-limit.battle")
    out.engagement = "battle" if engagement == "battle" else "battle_or_diplomacy"
    if engagement == "battle":
        trace.step(f"Units moving into {area.id} must start a battle against the units there.", "rw.movement",
                   "rw.battles")
    else:
        trace.step(f"Units moving into {area.id}, which holds unallied neutral units, must battle them or attempt "
                   f"diplomacy.", "rw.movement", "rw.diplomacy")
        if choice is None:
            trace.decide(the_player(player), "battle the neutral units or attempt diplomacy", "rw.diplomacy",
                         options=["battle", "diplomacy"], field="engagement_choice")
        else:
            out.engagement_choice = choice
            what = "battle the neutral units" if choice == "battle" else "attempt diplomacy"
            trace.step(f"{faction_name(player)} chooses to {what}.", "rw.diplomacy")
        if battles:
            trace.step("This order has already fought its battle: a diplomacy result calling for a battle forces "
                       "his units to retreat instead.", "rw.mobilize-order.one-battle")
    if total > limit:
        trace.step(f"Starting a battle he may bring any number of units ({total}); if he wins, those beyond {limit} "
                   f"must retreat, all to a single area.", "rw.movement-restrictions.unit-limit.battle")

