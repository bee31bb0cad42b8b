"""Runewars movement with the Strategize order: each figure steps into an adjacent friendly or empty area.

Paragraphs: ``rw.moving-units-with-the-strategize-order`` (adjacent empty or friendly areas only, never an area
with enemy or unallied neutral units; every figure ends in its starting area or next to it) with ``.activation``
(units cannot leave an area holding their player's activation token but may move into one, and Strategize places
no token), ``rw.strategize-order`` (the primary ability) and ``.supremacy`` (Tactics cards, one per Tactics image
at or below each dial's arrow, dials unchanged), ``rw.order-card-summary.strategize``,
``rw.activation-tokens.other-movement``, ``rw.activation-tokens.heroes`` (heroes ignore activation tokens),
``rw.hero-movement`` (orders that move heroes), ``rw.routed-units-and-heroes`` (routed figures cannot move),
``rw.movement-restrictions`` with ``.flying`` and ``.winter`` (borders), ``.unit-limit`` (8 units per area) and
the Frequently Used Terms (friendly and empty areas, :mod:`engine.runewars.areas`).

Each move is one figure from its area to an adjacent one (``to``); a move without ``to`` is asked, with the areas
it may enter as options. The map's unit counts include the figures that move. Our reading where the book is
silent: which areas are friendly or empty is judged on the map as it stands when the order is resolved.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.areas import AreaMap, Map, is_empty, is_friendly, map_reading
from engine.runewars.common import (
    GAME,
    Faction,
    Name,
    Season,
    capital,
    figure_name,
    names,
    plural,
    refuse_duplicates,
    the_player,
)
from engine.runewars.movement import Mover, can_cross


class StrategizeMove(Model):
    """One figure the player moves with the order, from its area into an adjacent one."""

    model_config = ConfigDict(title="Move")

    figure: Name = Field(title="Figure", description="A name for the unit or hero, e.g. Footman 1.")
    hero: bool = Field(False, title="Hero", description="Whether the figure is a hero (heroes are not units).")
    flying: bool = Field(False, title="Flying", description="Whether the figure flies (it ignores mountain and water "
                         "borders).")
    routed: bool = Field(False, title="Routed", description="Whether the figure lies routed (it cannot move).")
    start: Name = Field(alias="from", title="From", description="The area the figure starts in.")
    to: Name | None = maybe("The area the figure moves into (left out: the ruling lists the areas it may enter and "
                            "asks).", title="To")


class TacticsImages(Model):
    """How many Tactics card images each dial shows on its arrow's space and every lower space."""

    model_config = ConfigDict(title="Tactics card images")

    food: int = Field(0, ge=0, le=20, title="On the food dial", description="Tactics images at or below the food "
                      "dial's arrow.")
    wood: int = Field(0, ge=0, le=20, title="On the wood dial", description="Tactics images at or below the wood "
                      "dial's arrow.")
    ore: int = Field(0, ge=0, le=20, title="On the ore dial", description="Tactics images at or below the ore "
                     "dial's arrow.")


class StrategizePosition(OpenPosition):
    """A Strategize order: the map, the player's activated areas, the figures he moves and the Supremacy Bonus."""

    game: Literal["runewars"]
    situation: Literal["strategize"]
    player: Faction = Field(title="Player", description="The faction resolving the Strategize order.")
    season: Season = Field("spring", title="Season", description="The current season (in winter water borders do not "
                           "count).")
    map: AreaMap
    activated: list[Name] = Field([], max_length=120, title="Activated areas", description="The areas holding one "
                                  "of the player's activation tokens this year (none: leave empty).")
    moves: list[StrategizeMove] = Field(max_length=80, title="Moves", description="Each figure the player moves.")
    supremacy: bool = Field(False, title="Supremacy Bonus", description="Whether Strategize is the player's highest "
                            "Order card in play (he takes its Supremacy Bonus).")
    tactics_images: TacticsImages | None = maybe("For the Supremacy Bonus: the Tactics images each dial shows at or "
                                                 "below its arrow.", title="Tactics card images")

    @model_validator(mode="after")
    def _on_the_map(self) -> Self:
        refuse_duplicates([m.figure for m in self.moves], "figure", "moves")
        for i, a in enumerate(self.activated):
            if not self.map.has(a):
                raise refuse(f"{a!r} is not an area of the map", f"activated[{i}]")
        for i, m in enumerate(self.moves):
            if not self.map.has(m.start):
                raise refuse(f"{m.start!r} is not an area of the map", f"moves[{i}].from")
            if m.to is not None and not self.map.has(m.to):
                raise refuse(f"{m.to!r} is not an area of the map", f"moves[{i}].to")
        return self

    def reading(self) -> list[str]:
        """The player and season, his activated areas, each move, the map and the Supremacy Bonus."""
        out = [f"{capital(the_player(self.player))} resolves a Strategize order ({self.season})."]
        out.append("Areas with his activation token: " + (names(list(self.activated)) if self.activated else "none")
                   + ".")
        for m in self.moves:
            what = [w for w, on in (("a hero", m.hero), ("flying", m.flying), ("routed", m.routed)) if on]
            out.append(f"{figure_name(m.figure)}{' (' + ', '.join(what) + ')' if what else ''} moves from {m.start} "
                       + (f"to {m.to}." if m.to else "(where to is not chosen yet)."))
        out += map_reading(self.map)
        if self.supremacy:
            t = self.tactics_images
            out.append("He takes the Supremacy Bonus" + (f"; his dials show {t.food}, {t.wood} and {t.ore} Tactics "
                                                         f"images (food, wood, ore)." if t else "."))
        return out


class MoveResult(Outcome):
    """Where one figure may go and goes."""

    legal: bool
    to: str | None = None
    options: list[str] = Field(default_factory=list)
    reason: str | None = Field(None, exclude_if=lambda v: v is None)


class StrategizeOutcome(Outcome):
    """Each move judged, the player's units per area after moving, the units over the limit and Tactics cards
    drawn."""

    moves: dict[str, MoveResult] = Field(default_factory=dict)
    units_after: dict[str, int] = Field(default_factory=dict)
    destroy_excess: dict[str, int] = Field(default_factory=dict)
    tactics_cards: int | None = Field(None, exclude_if=lambda v: v is None)


LABELS: dict[str, Label] = {"moves": "Moves", "units_after": "His units in each area after moving",
                            "destroy_excess": "Units over the limit destroyed", "tactics_cards": "Tactics cards drawn"}


@rule("rw.moving-units-with-the-strategize-order", "rw.term.friendly-area", "rw.term.empty-area",
      "rw.movement-restrictions", "rw.movement-restrictions.flying", "rw.movement-restrictions.winter")
def open_areas(board: Map, move: StrategizeMove, player: str, season: str) -> tuple[list[str], dict[str, str]]:
    """Return the adjacent areas the figure may enter (friendly or empty, across a border it may cross) and, for
    every other adjacent area, why not."""
    mover = Mover(move.figure, move.start, flying=move.flying, hero=move.hero)
    near = board.neighbours[move.start]
    ok: list[str] = []
    why: dict[str, str] = {}
    for a in board.adjacent(move.start):
        if not can_cross(near[a.id], mover, season):
            why[a.id] = f"a {near[a.id]} border lies between {move.start} and {a.id}"
        elif not (is_friendly(a, player) or is_empty(a)):
            why[a.id] = f"{a.id} is neither friendly nor empty"
        else:
            ok.append(a.id)
    return ok, why


@rule("rw.routed-units-and-heroes", "rw.moving-units-with-the-strategize-order.activation",
      "rw.activation-tokens.no-leaving", "rw.activation-tokens.heroes")
def _held(move: StrategizeMove, activated: list[str], trace: Trace) -> str | None:
    """Return why the figure cannot leave its area at all (routed, or a unit in an activated area), recording
    it."""
    name = figure_name(move.figure)
    if move.routed:
        trace.step(f"{name} is routed and cannot move.", "rw.routed-units-and-heroes")
        return "a routed figure cannot move"
    if move.start in activated and not move.hero:
        trace.step(f"{name} starts in {move.start}, which holds its player's activation token: units there cannot "
                   "leave it.", "rw.moving-units-with-the-strategize-order.activation",
                   "rw.activation-tokens.no-leaving")
        return f"{move.start} holds his activation token"
    if move.start in activated:
        trace.step(f"{name} is a hero: the activation token in {move.start} does not hold him there.",
                   "rw.activation-tokens.heroes")
    return None


@rule("rw.moving-units-with-the-strategize-order", "rw.moving-units-with-the-strategize-order.activation",
      "rw.movement-restrictions", "rw.term.friendly-area", "rw.term.empty-area", "rw.hero-movement")
def _judge(i: int, move: StrategizeMove, board: Map, pos: StrategizePosition, trace: Trace) -> MoveResult:
    """One figure: stays, moves into an adjacent friendly or empty area, is refused with the reason, or is asked
    where it goes."""
    name = figure_name(move.figure)
    held = _held(move, pos.activated, trace)
    if held is not None:
        if move.to not in (None, move.start):
            trace.violate(f"{name} cannot move to {move.to}: {held}", "rw.moving-units-with-the-strategize-order")
            return MoveResult(legal=False, reason=held)
        return MoveResult(legal=True, to=move.start, reason=held)
    ok, why = open_areas(board, move, pos.player, pos.season)
    kind = "hero" if move.hero else "unit"
    if move.to is None:
        trace.step(f"{name} ({kind}) may move from {move.start} into {names(ok) if ok else 'no area'}"
                   + (f" ({'; '.join(why.values())})" if why else "") + ".",
                   "rw.moving-units-with-the-strategize-order", "rw.term.friendly-area", "rw.term.empty-area")
        if ok:
            trace.decide(the_player(pos.player), f"where {name} moves (or it stays in {move.start})",
                         "rw.moving-units-with-the-strategize-order", options=[*ok, move.start],
                         field=f"moves[{i}].to")
        return MoveResult(legal=True, to=None if ok else move.start, options=ok)
    if move.to == move.start:
        trace.step(f"{name} stays in {move.start}.", "rw.moving-units-with-the-strategize-order")
        return MoveResult(legal=True, to=move.start, options=ok)
    if move.to in ok:
        into_active = move.to in pos.activated
        trace.step(f"{name} ({kind}) moves from {move.start} into the adjacent area {move.to}"
                   + (", which already holds his activation token: it may enter, and as a unit it cannot leave again "
                      "this year" if into_active and not move.hero else "") + ".",
                   "rw.moving-units-with-the-strategize-order", "rw.term.friendly-area", "rw.term.empty-area",
                   *(["rw.moving-units-with-the-strategize-order.activation"] if into_active else []),
                   *(["rw.hero-movement"] if move.hero else []))
        return MoveResult(legal=True, to=move.to, options=ok)
    reason = why.get(move.to, f"{move.to} is not adjacent to {move.start}, and a figure must end in its starting area "
                              "or next to it")
    cites = ["rw.movement-restrictions"] if "border" in reason else []
    trace.violate(f"{name} cannot move from {move.start} to {move.to}: {reason}",
                  "rw.moving-units-with-the-strategize-order", *cites)
    return MoveResult(legal=False, options=ok, reason=reason)


@rule("rw.movement-restrictions.unit-limit", "rw.moving-units-with-the-strategize-order")
def _limits(pos: StrategizePosition, board: Map, out: StrategizeOutcome, trace: Trace, corpus: Corpus) -> None:
    """Count the player's units in every area a unit left or entered; refuse moving more units out than stand
    there; those beyond the limit of 8 are destroyed."""
    limit = int(corpus.fact("rw.movement-restrictions.unit-limit", "max_units_per_area"))
    counts = {a: board.areas[a].count(pos.player) for a in board.areas}
    touched: list[str] = []
    for m in pos.moves:
        res = out.moves[m.figure]
        if m.hero or not res.legal or res.to in (None, m.start):
            continue
        counts[m.start] -= 1
        counts[str(res.to)] += 1
        touched += [a for a in (m.start, str(res.to)) if a not in touched]
    for a in touched:
        if counts[a] < 0:
            trace.violate(f"more units move out of {a} than the map shows there",
                          "rw.moving-units-with-the-strategize-order")
            continue
        out.units_after[a] = counts[a]
        if counts[a] > limit:
            out.destroy_excess[a] = counts[a] - limit
            trace.step(f"{a} would hold {counts[a]} of his units, {counts[a] - limit} over the limit of {limit}: he "
                       f"destroys {plural(counts[a] - limit, 'unit')} there.", "rw.movement-restrictions.unit-limit")


@rule("rw.strategize-order.supremacy", "rw.order-card-summary.strategize")
def tactics_drawn(images: TacticsImages) -> int:
    """Return the Tactics cards the Supremacy Bonus draws: one per Tactics image counted on all three dials."""
    return images.food + images.wood + images.ore


@rule("rw.strategize-order.supremacy", "rw.order-card-summary.strategize")
def _supremacy(pos: StrategizePosition, out: StrategizeOutcome, trace: Trace) -> None:
    """The Supremacy Bonus: Tactics cards as the dials show, asked when the images are not stated."""
    if not pos.supremacy:
        return
    if pos.tactics_images is None:
        trace.decide(the_player(pos.player), "the Tactics images each dial shows at or below its arrow",
                     "rw.strategize-order.supremacy", field="tactics_images")
        return
    out.tactics_cards = tactics_drawn(pos.tactics_images)
    trace.step(f"Supremacy Bonus: his dials show {plural(out.tactics_cards, 'Tactics image')} on or below their "
               f"arrows, so he draws {plural(out.tactics_cards, 'Tactics card')}; the dials stay where they are.",
               "rw.strategize-order.supremacy", "rw.order-card-summary.strategize")


def _summary(pos: StrategizePosition, out: StrategizeOutcome, trace: Trace) -> str:
    """One sentence: the figures that move and where, what is still asked, losses and Tactics cards."""
    moved = [f"{figure_name(f)} to {r.to}" for f, r in out.moves.items()
             if r.to is not None and r.to != next(m.start for m in pos.moves if m.figure == f)]
    text = f"Strategize: {the_player(pos.player)} moves " + (names(moved) if moved else "no figure")
    asked = [d for d in trace.decisions if d.field.startswith("moves")]
    if asked:
        text += f"; where {plural(len(asked), 'figure')} {'goes' if len(asked) == 1 else 'go'} is still his choice"
    for a, n in out.destroy_excess.items():
        text += f"; {plural(n, 'unit')} over the limit {'is' if n == 1 else 'are'} destroyed in {a}"
    if out.tactics_cards is not None:
        text += f"; he draws {plural(out.tactics_cards, 'Tactics card')}"
    return text + "."


@situation(GAME, "strategize", StrategizePosition, labels=LABELS)
@summarized(_summary)
@rule("rw.strategize-order", "rw.activation-tokens.other-movement", "rw.hero-movement")
def resolve_strategize(pos: StrategizePosition, trace: Trace, corpus: Corpus) -> StrategizeOutcome:
    """Move units and heroes with a Strategize order: each into an adjacent friendly or empty area, or not at
    all."""
    board = Map.of(pos.map)
    trace.step(f"Strategize: {the_player(pos.player)} may move any of his units and heroes, each into an adjacent "
               "friendly or empty area; the order places no activation token.", "rw.strategize-order",
               "rw.activation-tokens.other-movement", "rw.hero-movement")
    out = StrategizeOutcome()
    for i, m in enumerate(pos.moves):
        out.moves[m.figure] = _judge(i, m, board, pos, trace)
    _limits(pos, board, out, trace, corpus)
    _supremacy(pos, out, trace)
    return out
