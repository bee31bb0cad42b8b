"""RuneWars Miniatures play area and deployment areas on the table: the stated settings and their geometry.

The Rules Reference gives the play area in feet (3 by 6, ``rwm.setup.2``) and the deployment areas on the chosen
deployment card (``rwm.26.1``); the table measures in tray widths, so both are stated in the position. The play
area is a rectangle from its lower-left corner, ``width`` along x (its 6-foot edges are the bottom and top, where
the players sit) and ``depth`` along y. A deployment area is a polygon given to one player (the colour that
player took, ``rwm.setup.4.areas``). Used by ``range`` (measuring to an edge, ``rwm.64.5``) and ``deployment``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import ConfigDict
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from engine.errors import UnreadableInputError
from engine.model import Field, Model, labelled, maybe
from engine.runewars_miniatures.table import EPS, MAX_COORD, MAX_VERTICES, Id, Point, Vec

MAX_AREAS = 8


class PlayArea(Model):
    """The play area: a rectangle of the table, in tray widths (the book's is 3 by 6 feet)."""

    model_config = ConfigDict(title="Play area")

    corner: Point = Field(title="Lower-left corner", description="[x, y] of the play area's lower-left corner, in "
                          "tray widths.")
    width: float = Field(title="Width", gt=0, le=MAX_COORD, description="Length of the 6-foot edges (bottom and "
                         "top, where the players sit), along x, in tray widths.")
    depth: float = Field(title="Depth", gt=0, le=MAX_COORD, description="Length of the 3-foot edges (left and "
                         "right), along y, in tray widths.")


class DeploymentArea(Model):
    """A deployment area drawn from the deployment card, and the player whose colour it is."""

    model_config = ConfigDict(title="Deployment area")

    id: Id
    player: str = Field(max_length=80, title="Player", description="The player who deploys in it: the army of "
                        "the units, as in each unit's player.")
    colour: Literal["red", "blue"] | None = maybe("Its colour on the deployment card; absent: not said.",
                                                  labels={"red": "Red", "blue": "Blue"})
    polygon: list[Point] = Field(max_length=MAX_VERTICES, description="[[x, y], …], 3 or more, in tray widths")


DeploymentAreas = Annotated[list[DeploymentArea], Field(max_length=MAX_AREAS)]

EdgeName = Annotated[
    Literal["bottom", "top", "left", "right", "deployment"],
    Field(json_schema_extra=labelled({
        "bottom": "The play area's bottom edge (a 6-foot edge)", "top": "The play area's top edge (a 6-foot edge)",
        "left": "The play area's left edge (a 3-foot edge)", "right": "The play area's right edge (a 3-foot edge)",
        "deployment": "A deployment area's edge"}))]
"""An edge the ruler may measure to (64.5)."""
EDGE_WORDS = {"bottom": "the bottom edge of the play area", "top": "the top edge of the play area",
              "left": "the left edge of the play area", "right": "the right edge of the play area"}


@dataclass(frozen=True)
class Area:
    """A read deployment area."""

    id: str
    index: int
    player: str
    colour: str | None
    shape: Polygon

    @property
    def label(self) -> str:
        """Return the name shown in texts ("the red deployment area of Daqan")."""
        return f"the {self.colour + ' ' if self.colour else ''}deployment area of {self.player}"


def _point(raw: Sequence[float], path: str) -> Vec:
    out = []
    for k, v in enumerate(raw):
        x = float(v)
        if x != x or abs(x) > MAX_COORD:
            raise UnreadableInputError(f"{v!r} is not a finite coordinate within {MAX_COORD:g}", path=f"{path}[{k}]")
        out.append(x)
    return (out[0], out[1])


def read_play_area(raw: PlayArea | None, path: str = "play_area") -> Polygon | None:
    """Return the play area as a polygon (None when not stated)."""
    if raw is None:
        return None
    x, y = _point(raw.corner, f"{path}.corner")
    return Polygon([(x, y), (x + raw.width, y), (x + raw.width, y + raw.depth), (x, y + raw.depth)])


def play_area_edge(area: Polygon, name: str) -> LineString:
    """Return one edge of the play area (bottom, top, left, right)."""
    x0, y0, x1, y1 = area.bounds
    ends = {"bottom": ((x0, y0), (x1, y0)), "top": ((x0, y1), (x1, y1)), "left": ((x0, y0), (x0, y1)),
            "right": ((x1, y0), (x1, y1))}[name]
    return LineString(ends)


def read_areas(raw: Sequence[DeploymentArea] | None, path: str = "deployment_areas") -> list[Area]:
    """Read the deployment areas; refuse a degenerate polygon or a duplicate id with its path."""
    out: list[Area] = []
    for i, a in enumerate(raw or []):
        at = f"{path}[{i}]"
        if any(o.id == a.id for o in out):
            raise UnreadableInputError(f"duplicate id {a.id!r}", path=f"{at}.id")
        pts = [_point(p, f"{at}.polygon[{n}]") for n, p in enumerate(a.polygon)]
        if len(set(pts)) < 3:
            raise UnreadableInputError(f"a deployment area needs at least 3 corners, got {len(set(pts))}",
                                       path=f"{at}.polygon")
        poly = Polygon(pts)
        if not poly.is_valid or poly.area <= EPS:
            raise UnreadableInputError("the deployment area crosses itself or has no area; give its outline in "
                                       "order, either way round", path=f"{at}.polygon")
        out.append(Area(a.id, i, a.player, a.colour, poly))
    return out


def deployment_edge(area: Area, play: Polygon | None) -> BaseGeometry:
    """Return a deployment area's edge: its outline, less the stretches lying on the play area's edge."""
    ring = area.shape.exterior
    if play is None:
        return ring
    rest = ring.difference(play.exterior.buffer(EPS))
    return rest if not rest.is_empty else ring
