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

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import networkx as nx

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars.common import FACTIONS, GAME, NAME, SEASON, ItemsCheck, faction_name, names, plural, unique_keys
from engine.schema import BOOL, Schema, arr, enum, integer, nullable, obj

BORDER_KINDS = ("plain", "mountain", "water")
AREA = obj(["id"], id=NAME, name=NAME, controller=nullable(enum(*FACTIONS)), neutral_units=integer(0, 80),
           enemy_units=integer(0, 80), activation_tokens=arr(enum(*FACTIONS), max_items=16), units=integer(0, 80))
BORDER: Schema = {"type": "array", "prefixItems": [NAME, NAME, enum(*BORDER_KINDS)], "minItems": 3, "maxItems": 3}
MOVER = obj(["id", "from"], id=NAME, type=NAME, fast=BOOL, flying=BOOL, routed=BOOL, hero=BOOL)
MOVER["properties"]["from"] = NAME  # "from" is a Python keyword
# The map's areas and borders are checked item by item by the resolver (ItemsCheck: same schema, same messages and
# paths, ~50x faster than jsonschema on a 60-area map); the item schemas are published under $defs.
AREAS = ItemsCheck(AREA)
BORDERS = ItemsCheck(BORDER)
MAP = obj(["areas", "borders"],
          areas={"type": "array", "minItems": 1, "maxItems": 500,
                 "description": "areas of the map; each item follows #/$defs/area"},
          borders={"type": "array", "maxItems": 3000,
                   "description": "[area, area, kind] for each pair of adjacent areas; each item follows "
                                  "#/$defs/border"})
SCHEMA: dict[str, Any] = obj(
    ["player", "target_area", "map", "movers"], extra=True,
    season=SEASON,
    player=enum(*FACTIONS),
    order=enum("mobilize", "conquer"),
    target_area=NAME,
    battles_this_order=integer(0, 10),
    map=MAP,
    movers=arr(MOVER, max_items=200),
    destroy_in_target=arr(NAME, max_items=80),
    engagement_choice=enum("battle", "diplomacy"),
)
SCHEMA["$defs"] = {"area": AREA, "border": BORDER}


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
    def from_json(cls, raw: Mapping[str, Any]) -> Area:
        """Read an area of the position's map."""
        return cls(str(raw["id"]), raw.get("controller"), int(raw.get("neutral_units") or 0),
                   int(raw.get("enemy_units") or 0), tuple(raw.get("activation_tokens") or ()),
                   int(raw.get("units") or 0))


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
    def from_json(cls, raw: Mapping[str, Any]) -> Mover:
        """Read a mover of the position."""
        return cls(str(raw["id"]), str(raw["from"]), bool(raw.get("fast", False)), bool(raw.get("flying", False)),
                   bool(raw.get("routed", False)), bool(raw.get("hero", False)))

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
    def from_json(cls, raw: Mapping[str, Any]) -> Board:
        """Build the map graph, refusing borders that name unknown areas or contradict each other."""
        AREAS.check(raw["areas"], "map.areas")
        BORDERS.check(raw["borders"], "map.borders")
        unique_keys(raw["areas"], "id", "map.areas")
        areas = {str(a["id"]): Area.from_json(a) for a in raw["areas"]}
        graph = nx.Graph()
        graph.add_nodes_from(areas)
        for i, (a, b, kind) in enumerate(raw["borders"]):
            for j, end in enumerate((a, b)):
                if end not in areas:
                    raise UnreadableInputError(f"border {i + 1} names {end!r}, which is not an area of the map",
                                               path=f"map.borders[{i}][{j}]")
            if a == b:
                raise UnreadableInputError(f"border {i + 1} joins {a!r} to itself", path=f"map.borders[{i}]")
            old = graph.get_edge_data(a, b)
            if old is not None and old["kind"] != kind:
                raise UnreadableInputError(f"the border between {a!r} and {b!r} is given as both {old['kind']} "
                                           f"and {kind}", path=f"map.borders[{i}][2]")
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


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: the activated area, the figures that can move in, and what happens there."""
    player, target = faction_name(pos["player"]), pos["target_area"]
    movers = out["movers"]
    moving = [m for m, e in movers.items() if e.get("can_move")]
    text = (f"{player} activates {target}: {len(moving)} of {plural(len(movers), 'figure')} can move in"
            + (f" ({names(moving)})" if 0 < len(moving) <= 5 else ""))
    engagement = out.get("engagement")
    if engagement == "battle":
        text += "; they start a battle there"
    elif engagement == "battle_or_diplomacy":
        choice = out.get("engagement_choice")
        text += (f"; {player} chooses to {'battle the neutral units' if choice == 'battle' else 'attempt diplomacy'}"
                 if choice else "; they must battle the neutral units there or attempt diplomacy")
    if out.get("destroy_excess"):
        text += f"; {plural(out['destroy_excess'], 'unit')} over the limit of 8 are destroyed there" + (
            " (his choice which)" if any(d.field == "destroy_in_target" for d in trace.decisions) else "")
    return text + "."


@situation(GAME, "mobilize", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_mobilize(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Activate an area and find which figures can move into it and by which shortest legal path."""
    board = Board.from_json(pos["map"])
    player, target, season = pos["player"], pos["target_area"], pos.get("season")
    if target not in board.areas:
        raise UnreadableInputError(f"{target!r} is not an area of the map", path="target_area")
    unique_keys(pos["movers"], "id", "movers")
    movers = [Mover.from_json(m) for m in pos["movers"]]
    for i, m in enumerate(movers):
        if m.start not in board.areas:
            raise UnreadableInputError(f"{m.start!r} is not an area of the map", path=f"movers[{i}].from")
    area = board.areas[target]
    order = str(pos.get("order") or "mobilize").title()
    out: dict[str, Any] = {"can_activate": can_activate(area, player), "movers": {}}
    if not out["can_activate"]:
        trace.violate(f"{target} already holds one of {faction_name(player)}'s activation tokens; he may move units "
                      "into it but "
                      f"may not activate it again", can_activate)
        out["movers"] = {m.id: {"can_move": False, "path": None, "reason": "the area cannot be activated"}
                         for m in movers}
        return out
    trace.step(f"{order}: {player} places an activation token in {target} before moving anything.",
               can_activate)
    engagement = engagement_in(area, player)
    battles = int(pos.get("battles_this_order") or 0)
    second = is_second_battle(engagement, battles, corpus)
    moving_units = 0
    for m in movers:
        reach = move_range(m, corpus)
        entry: dict[str, Any]
        if m.start == target:
            entry = {"can_move": False, "path": None, "reason": f"it is already in {target}"}
            trace.step(f"{m.id} is already in {target}; it has nothing to move.",
                       "rw.moving-units-with-mobilize-and-conquer-orders")
        elif is_routed(m):
            entry = {"can_move": False, "path": None, "reason": f"a routed {m.kind} cannot move"}
            trace.step(f"{m.id} cannot move: it is routed.",
                       "rw.hero-movement.activation" if m.hero else "rw.routed-units-and-heroes")
        elif is_held_by_activation(m, board.areas[m.start], player):
            entry = {"can_move": False, "path": None,
                     "reason": f"{m.start} holds {player}'s activation token, and units cannot leave it"}
            trace.step(f"{m.id} cannot move: {m.start} holds {player}'s own activation token and units may not "
                       f"leave it (except by retreating).", "rw.activation-tokens.no-leaving")
        elif not m.hero and second:
            entry = {"can_move": False, "path": None,
                     "reason": "moving units in would start a second battle with this order"}
            trace.step(f"{m.id} cannot move: {target} holds enemy units and this order has already fought its "
                       f"battle.", is_second_battle)
        else:
            path = legal_path(board, m, target, player, season, reach)
            if path is None:
                reason, why = why_blocked(board, m, target, season, reach)
                entry = {"can_move": False, "path": None, "reason": reason}
                trace.step(f"{m.id} cannot reach {target}: {reason}.", *why)
            else:
                entry = {"can_move": True, "path": path, "distance": len(path) - 1}
                moving_units += 0 if m.hero else 1
                cites = path_cites(board, m, path, season, player)
                special = [w for w, on in (("fast", m.fast), ("flying", m.flying)) if on]
                what = " ".join([*special, m.kind])
                trace.step(f"{m.id} ({what}, range {reach}) moves {' → '.join(path)} "
                           f"({plural(len(path) - 1, 'area')}).", *cites)
        out["movers"][m.id] = entry
    _target_rules(area, player, engagement, moving_units, battles, trace, corpus, out, pos.get("destroy_in_target"),
                  pos.get("engagement_choice"))
    return out


def _target_rules(area: Area, player: str, engagement: str, moving: int, battles: int, trace: Trace,
                  corpus: Corpus, out: dict[str, Any], destroyed: list[str] | None = None,
                  choice: str | None = None) -> None:
    """Record what happens in the activated area: battle or diplomacy, and the limit of 8 units."""
    limit = int(corpus.fact("rw.movement-restrictions.unit-limit", "max_units_per_area"))
    allied = area.neutral_units if is_friendly(area, player) else 0
    total = area.units + allied + moving
    out["units_in_target"] = total
    out["destroy_excess"] = 0
    if engagement == "none":
        out["engagement"] = "none"
        over = max(0, total - limit)
        if over:
            out["destroy_excess"] = over
            trace.step(f"{area.id} would hold {total} of {player}'s units (allied neutral units count, heroes do "
                       f"not), {over} over the limit of {limit}: he destroys {plural(over, 'unit')} there.",
                       "rw.movement-restrictions.unit-limit", "rw.allied-units.limits")
            if destroyed is None:
                trace.decide(player, f"{plural(over, 'unit')} to destroy in {area.id} (name them)",
                             "rw.movement-restrictions.unit-limit", field="destroy_in_target")
            elif len(destroyed) != over:
                trace.violate(f"{area.id} must lose exactly {plural(over, 'unit')}, the position names "
                              f"{len(destroyed)}", "rw.movement-restrictions.unit-limit")
            else:
                trace.step(f"{faction_name(player)} destroys {', '.join(destroyed)} in {area.id}.",
                           "rw.movement-restrictions.unit-limit")
        elif moving:
            trace.step(f"{area.id} would hold {total} of {player}'s units, within the limit of {limit}.",
                       "rw.movement-restrictions.unit-limit")
        return
    if not moving:
        out["engagement"] = "none"
        trace.step(f"No unit moves into {area.id}, so no battle starts there (heroes start none).",
                   "rw.hero-movement.enemy-areas")
        return
    if engagement == "battle_or_diplomacy" and total > limit:
        engagement = "battle"
        trace.step(f"With {total} units in a neutral area, more than {limit}, {player} may not attempt diplomacy and "
                   f"must battle.", "rw.movement-restrictions.unit-limit.battle")
    out["engagement"] = engagement
    if engagement == "battle":
        trace.step(f"Units moving into {area.id} must start a battle against the units there.", "rw.movement",
                   "rw.battles")
    else:
        trace.step(f"Units moving into {area.id}, which holds unallied neutral units, must battle them or attempt "
                   f"diplomacy.", "rw.movement", "rw.diplomacy")
        if choice is None:
            trace.decide(player, "battle the neutral units or attempt diplomacy", "rw.diplomacy",
                         options=["battle", "diplomacy"], field="engagement_choice")
        else:
            out["engagement_choice"] = choice
            what = "battle the neutral units" if choice == "battle" else "attempt diplomacy"
            trace.step(f"{faction_name(player)} chooses to {what}.", "rw.diplomacy")
        if battles:
            trace.step("This order has already fought its battle: a diplomacy result calling for a battle forces "
                       "his units to retreat instead.", "rw.mobilize-order.one-battle")
    if total > limit:
        trace.step(f"Starting a battle he may bring any number of units ({total}); if he wins, those beyond {limit} "
                   f"must retreat, all to a single area.", "rw.movement-restrictions.unit-limit.battle")

