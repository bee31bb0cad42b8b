"""RuneWars Miniatures deployment: are the units set up inside their own deployment areas, in the right order?

The ``deployment`` situation. Setup runs in a fixed order (``rwm.setup``): terrain is placed (step 5) before the
units are deployed (step 7). Each player deploys every unit wholly inside a deployment area of his colour
(``rwm.26.2``, ``rwm.26.2.b1``); a unit too big for the area deploys with its back edge on the stretch of the play
area's 6-foot edge inside that area (``rwm.26.2.b2``); a unit that cannot be deployed is destroyed
(``rwm.26.2.b3``). The players alternate one unit at a time, the first player first, and the one with units left
deploys the rest (``rwm.setup.7``). Terrain may not stand at range 1-2 of a play-area edge or of another piece,
nor touch a deployment area (``rwm.setup.5.placement``), checked when ``table.band`` is stated.

Whether a unit fits in an area is tested against the area's smallest enclosing rectangle (exact for the
rectangular areas of the deployment cards): the unit fits when its outline's two sides fit that rectangle's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import ConfigDict, model_validator
from shapely.geometry import LineString, Polygon

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.model import Field, Model, Outcome, maybe, refuse
from engine.runewars_miniatures.areas import (
    Area,
    DeploymentAreas,
    PlayArea,
    play_area_edge,
    read_areas,
    read_play_area,
)
from engine.runewars_miniatures.common import GAME, Game
from engine.runewars_miniatures.table import (
    EPS,
    MAX_UNITS,
    Id,
    Shape,
    Table,
    TablePosition,
    Unit,
    check_overlaps,
    norm,
    outcome_words,
    outline,
    read_table,
    sub,
    table_reading,
    unit_name,
)


class DeploymentPosition(TablePosition):
    """The table after setup: units placed, terrain, the play area, the deployment areas and the order of play."""

    model_config = ConfigDict(title="Deployment position")

    game: Game
    situation: Literal["deployment"]
    deployment_areas: DeploymentAreas = Field(min_length=1, title="Deployment areas", description="The deployment "
                                              "areas of the chosen deployment card, each with the player who deploys "
                                              "in it.")
    play_area: PlayArea | None = maybe("The play area: needed for a unit too big for its deployment area (it then "
                                       "deploys against the 6-foot edge) and to check the terrain's distance from the "
                                       "edges; absent: those checks are skipped.")
    first_player: str | None = maybe("The first player (setup step 3), who deploys first; absent: the order is not "
                                     "checked.", max_length=80)
    order: Annotated[list[Id], Field(max_length=MAX_UNITS)] | None = maybe(
        "The units in the order they were deployed, first one first; absent: the order is not checked.",
        title="Order of deployment")

    def reading(self) -> list[str]:
        """Return the table in a player's words, the deployment areas and the order of deployment."""
        names = {u.id: unit_name(u, i) for i, u in enumerate(self.units)}
        out = table_reading(self.table, self.units, self.terrain, band=True)
        for a in self.deployment_areas:
            colour = f"{a.colour} " if a.colour else ""
            out.append(f"The {colour}deployment area of {a.player}.")
        if self.play_area is not None:
            out.append(f"Play area: {self.play_area.width:g} by {self.play_area.depth:g} tray widths.")
        if self.first_player:
            out.append(f"First player: {self.first_player}.")
        if self.order:
            out.append("Deployed in this order: " + ", ".join(names.get(u, u) for u in self.order) + ".")
        return out

    @model_validator(mode="after")
    def _order_names_units(self) -> DeploymentPosition:
        ids = [u.id for u in self.units]
        for i, uid in enumerate(self.order or []):
            if uid not in ids:
                raise refuse(f"{uid!r} names no unit of the position", f"order[{i}]")
            if uid in (self.order or [])[:i]:
                raise refuse(f"{uid!r} is deployed twice", f"order[{i}]")
        if self.first_player is not None and self.first_player not in {u.player for u in self.units}:
            raise refuse(f"{self.first_player!r} is not the player of any unit", "first_player")
        return self


class UnitDeployment(Model):
    """Whether one unit is deployed legally, where, and why."""

    unit: str
    legal: bool
    area: str | None
    reason: str


class TerrainPlacement(Model):
    """Whether one terrain piece is placed legally, and why."""

    terrain: str
    legal: bool
    reason: str


class DeploymentOutcome(Outcome):
    """Each unit's deployment and each terrain piece's placement, legal or not with the reason; the order."""

    units: list[UnitDeployment]
    terrain: list[TerrainPlacement]
    order_legal: bool | None
    overlaps: list[list[str]] = Field(default_factory=list)
    drawing: list[Shape] = Field(default_factory=list, description="What the board draws: each deployment area "
                                 "(terrain), each unit where it stands (end when legal, blocked when not).")


def _sides(poly: Polygon) -> tuple[float, float]:
    """Return the two side lengths of a shape's smallest enclosing rectangle, shorter first."""
    pts = list(poly.minimum_rotated_rectangle.exterior.coords)
    a, b = norm(sub(pts[1], pts[0])), norm(sub(pts[2], pts[1]))
    return min(a, b), max(a, b)


def fits(unit: Unit, area: Area) -> bool:
    """Return whether the unit's outline could stand inside the area (its sides within the area's rectangle)."""
    u, a = _sides(unit.shape), _sides(area.shape)
    return u[0] <= a[0] + EPS and u[1] <= a[1] + EPS


def _on_long_edge(unit: Unit, area: Area, play: Polygon) -> bool:
    """Return whether a back edge of the unit lies along a 6-foot edge of the play area, inside the area."""
    for name in ("bottom", "top"):
        stretch = play_area_edge(play, name).intersection(area.shape.buffer(EPS))
        for e in unit.edges:
            if e.kind != "rear":
                continue
            common = LineString([e.a, e.b]).intersection(stretch.buffer(EPS))
            if common.length > EPS:
                return True
    return False


@rule("rwm.26", "rwm.26.1", "rwm.26.2", "rwm.26.2.b1", "rwm.26.2.b2", "rwm.26.2.b3")
def check_unit(unit: Unit, areas: Sequence[Area], play: Polygon | None, trace: Trace) -> UnitDeployment:
    """One unit: wholly inside a deployment area of its player, or too big and against the 6-foot edge."""
    own = [a for a in areas if a.player == unit.player]
    if not own:
        reason = f"{unit.player} has no deployment area on the card, so {unit.label} has nowhere to deploy"
        trace.violate(reason, "rwm.26.2", "rwm.26.1")
        return UnitDeployment(unit=unit.id, legal=False, area=None, reason=reason)
    inside = next((a for a in own if a.shape.buffer(EPS, join_style="mitre").covers(unit.shape)), None)
    if inside is not None:
        reason = f"{unit.label} stands wholly inside {inside.label}"
        trace.step(f"{reason}: deployed legally.", "rwm.26.2", "rwm.26.2.b1")
        return UnitDeployment(unit=unit.id, legal=True, area=inside.id, reason=reason)
    big = [a for a in own if not fits(unit, a)]
    if big and play is None:
        raise UnreadableInputError(f"{unit.label} is too big for {big[0].label}: state the play area to check it "
                                   "against the 6-foot edge", path="play_area")
    edge = next((a for a in big if play is not None and _on_long_edge(unit, a, play)), None)
    if edge is not None:
        reason = (f"{unit.label} is too big for {edge.label} and stands with its back edge on the 6-foot edge "
                  "inside that area")
        trace.step(f"{reason}: deployed legally.", "rwm.26.2.b2")
        return UnitDeployment(unit=unit.id, legal=True, area=edge.id, reason=reason)
    cites: list[str]
    other = [a for a in areas if a.player != unit.player and a.shape.intersects(unit.shape)]
    if big:
        reason = (f"{unit.label} is too big for {big[0].label}, so its back edge must touch the 6-foot edge of the "
                  "play area inside that area, and it does not")
        cites = ["rwm.26.2.b2"]
    elif other:
        reason = f"{unit.label} stands in {other[0].label}; a unit deploys only in its own player's areas"
        cites = []
    else:
        reason = f"part of {unit.label} lies outside every deployment area of {unit.player}"
        cites = ["rwm.26.2.b1"]
    trace.violate(reason, "rwm.26.2", *cites)
    trace.step(f"If {unit.label} cannot be deployed anywhere it may stand, it is destroyed.", "rwm.26.2.b3")
    return UnitDeployment(unit=unit.id, legal=False, area=None, reason=reason)


@rule("rwm.setup", "rwm.setup.3", "rwm.setup.7")
def check_order(table: Table, order: Sequence[str], first: str, trace: Trace) -> bool:
    """The order of deployment: the first player first, then alternating one unit at a time while both have
    units left (setup step 7)."""
    left = {p: sum(1 for u in table.units if u.player == p) for p in {u.player for u in table.units}}
    players = sorted(left, key=lambda p: (p != first, p))
    expected = first
    ok = True
    for uid in order:
        unit = table.unit(uid)
        if unit.player != expected and left.get(expected, 0) > 0:
            trace.violate(f"{unit.label} of {unit.player} was deployed when it was {possessive_player(expected)} "
                          "turn to deploy; the players alternate one unit at a time, the first player first",
                          "rwm.setup.7", "rwm.setup.3")
            ok = False
        left[unit.player] -= 1
        others = [p for p in players if p != unit.player and left[p] > 0]
        expected = others[0] if others else unit.player
    if ok:
        trace.step(f"The units were deployed one at a time, {first} first, the players taking turns while both had "
                   "units left.", "rwm.setup.7", "rwm.setup.3")
    trace.step("Setup deploys the units in step 7, after the terrain is placed in step 5.", "rwm.setup")
    return ok


def possessive_player(player: str) -> str:
    """Return "Daqan's"."""
    return f"{player}'" if player.endswith("s") else f"{player}'s"


@rule("rwm.setup.5.placement", "rwm.setup.5", "rwm.64")
def check_terrain(table: Table, areas: Sequence[Area], play: Polygon | None, trace: Trace) -> list[TerrainPlacement]:
    """Each terrain piece: not at range 1-2 of a play-area edge or of another piece, not touching a deployment
    area (setup step 5)."""
    out: list[TerrainPlacement] = []
    reach = 2 * table.band if table.band is not None else None
    for t in table.terrain:
        problems: list[str] = []
        touching = [a for a in areas if a.shape.distance(t.shape) <= EPS]
        if touching:
            problems.append(f"it touches {touching[0].label}")
        if reach is not None and play is not None and play.exterior.distance(t.shape) <= reach + EPS:
            problems.append("it is at range 1-2 of an edge of the play area")
        near = [o for o in table.terrain
                if o is not t and reach is not None and o.shape.distance(t.shape) <= reach + EPS]
        if near:
            problems.append(f"it is at range 1-2 of {near[0].label}")
        if problems:
            reason = f"{t.label}: {'; '.join(problems)}"
            trace.violate(reason, "rwm.setup.5.placement")
        else:
            checked = "" if reach is not None else " (its distance to the edges and other pieces is not checked: no " \
                                                   "range band stated)"
            reason = f"{t.label} touches no deployment area and keeps clear of the edges and other terrain{checked}"
            trace.step(f"{reason}.", "rwm.setup.5.placement", "rwm.setup.5")
        out.append(TerrainPlacement(terrain=t.id, legal=not problems, reason=reason))
    return out


def _drawing(table: Table, areas: Sequence[Area], results: Sequence[UnitDeployment]) -> list[Shape]:
    out = [outline("terrain", a.shape, None, a.label[0].upper() + a.label[1:]) for a in areas]
    for r in results:
        unit = table.unit(r.unit)
        out.append(outline("end" if r.legal else "blocked", unit.shape, unit.id, unit.label))
    return out


TABLE_LABELS: dict[str, Label] = {
    **outcome_words("overlaps", "drawing"),
    "units": "Units deployed",
    "terrain": "Terrain placed",
    "order_legal": "Deployed in the right order",
}
"""The outcome's fields in a player's words (the ruling's outcome list on the boards and the CLI)."""


@situation(GAME, "deployment", DeploymentPosition, labels=TABLE_LABELS)
def resolve_deployment(pos: DeploymentPosition, trace: Trace, corpus: Corpus) -> DeploymentOutcome:
    """Say whether each unit is deployed inside its own deployment area, the terrain placed legally, and the
    order of deployment kept."""
    table = read_table(pos.table, pos.units, pos.terrain)
    areas = read_areas(pos.deployment_areas)
    play = read_play_area(pos.play_area)
    bad = check_overlaps(table, trace)
    terrain = check_terrain(table, areas, play, trace)
    results = [check_unit(u, areas, play, trace) for u in table.units]
    order_ok = check_order(table, pos.order, pos.first_player, trace) if pos.order and pos.first_player else None
    wrong = [table.unit(r.unit).label for r in results if not r.legal]
    if wrong:
        summary = f"Not deployed legally: {', '.join(wrong)}."
    elif bad or order_ok is False or not all(t.legal for t in terrain):
        summary = "Every unit stands in its own deployment area, but the setup breaks a rule (see the steps)."
    else:
        summary = "Every unit is deployed legally in its own deployment area."
    trace.summarize(summary)
    return DeploymentOutcome(units=results, terrain=terrain, order_legal=order_ok, overlaps=bad,
                             drawing=_drawing(table, areas, results))
