"""RuneWars Miniatures movement templates as geometry: which template a march or shift uses, and the motion it gives.

The Rules Reference prints no template's size, so the shapes are stated settings of the table
(:class:`~engine.runewars_miniatures.table.TableSizes`), with defaults restated on every ``move`` ruling:

- straight: speed *n* carries the unit straight ahead by ``straight[n-1]`` tray widths (default *n*; the
  speed-1 template covers exactly 1 tray width, ``rwm.17.1.b2``);
- turn: the middle of the leading edge follows an arc of length ``turn[n-1]`` that bends by ``turn_degrees``
  (default 45°) toward the chosen side; the unit turns with the arc, so its leading edge stays square to it;
- wheel: the unit turns by ``wheel_degrees[n-1]`` about the end of its leading edge on the inside of the
  wheel.

Every motion is a rigid motion of the unit with a parameter ``t`` in [0, 1] (0 = start guide, 1 = end guide):
a translation for a straight template, a rotation about a fixed centre for a turn or a wheel. "Right" is the
right of the direction of travel (a clockwise bend seen from above).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.core import rule
from engine.runewars_miniatures.squaring import Leading, leading_edge
from engine.runewars_miniatures.table import (
    TableSizes,
    Unit,
    Vec,
    add,
    build_unit,
    mul,
    norm,
    right_of,
    rotate,
    sub,
)

DEFAULT_STRAIGHT = (1.0, 2.0, 3.0, 4.0, 5.0)
DEFAULT_TURN = (1.0, 2.0, 3.0)
DEFAULT_TURN_DEGREES = 45.0
DEFAULT_WHEEL = (45.0, 90.0)
ARC_STEP_DEGREES = 2.0
"""A curved template is checked in pieces of at most this many degrees (the chord's error stays below 1e-3 of
the distance from the centre)."""

TemplateKind = str  # "straight" | "turn" | "wheel"


@dataclass(frozen=True)
class Templates:
    """The template settings of the table, defaults filled in."""

    straight: tuple[float, ...]
    turn: tuple[float, ...]
    turn_degrees: float
    wheel: tuple[float, ...]
    connector: float

    def speeds(self, kind: TemplateKind) -> int:
        """Return the fastest speed of a template type."""
        return len({"straight": self.straight, "turn": self.turn, "wheel": self.wheel}[kind])

    def describe(self) -> str:
        """Return the settings in a player's words (every ruling restates them)."""
        def nums(xs: tuple[float, ...]) -> str:
            return ", ".join(f"{x:g}" for x in xs)
        text = (f"straight templates {nums(self.straight)} tray widths long (speed 1 first); turn templates "
                f"{nums(self.turn)} tray widths along a curve bending {self.turn_degrees:g}°; wheel templates "
                f"turning {nums(self.wheel)}°")
        if self.connector:
            text += f"; connectors stick out {self.connector:g} tray widths"
        return text


def read_templates(sizes: TableSizes | None) -> Templates:
    """Return the template settings of ``table`` with the defaults for what it leaves out."""
    s = sizes or TableSizes()
    return Templates(
        straight=tuple(s.straight) if s.straight else DEFAULT_STRAIGHT,
        turn=tuple(s.turn) if s.turn else DEFAULT_TURN,
        turn_degrees=float(s.turn_degrees) if s.turn_degrees is not None else DEFAULT_TURN_DEGREES,
        wheel=tuple(s.wheel_degrees) if s.wheel_degrees else DEFAULT_WHEEL,
        connector=float(s.connector or 0.0))


@rule("rwm.47.1", "rwm.73.1", "rwm.56.1", "rwm.84", "rwm.91", "rwm.85")
def template_kind(modifier: str | None) -> TemplateKind:
    """Return the template type a modifier asks for: a turn (or turning charge) a turn template, a wheel a
    wheel template, anything else the straight template."""
    if modifier in ("turn", "turning-charge"):
        return "turn"
    if modifier == "wheel":
        return "wheel"
    return "straight"


@rule("rwm.56.1.b1", "rwm.56.2.b3", "rwm.75.3")
def template_speed(templates: Templates, kind: TemplateKind, speed: int) -> int:
    """Return the speed of the template used: the action's speed, or the fastest of that type above it."""
    return min(speed, templates.speeds(kind))


@dataclass(frozen=True)
class Motion:
    """A template's motion of one unit: translation by ``shift`` or rotation by ``degrees`` about ``centre``."""

    unit: Unit
    kind: TemplateKind
    lead: Leading
    shift: Vec = (0.0, 0.0)
    centre: Vec = (0.0, 0.0)
    degrees: float = 0.0  # clockwise (a bend to the right of the travel)

    def point(self, p: Vec, t: float) -> Vec:
        """Return where table point *p* (moving with the unit) is at parameter *t*."""
        if self.kind == "straight":
            return add(p, mul(self.shift, t))
        return rotate(p, self.centre, self.degrees * t)

    def pose(self, t: float) -> Unit:
        """Return the unit at parameter *t* of the template."""
        u = self.unit
        return build_unit(u.id, u.index, u.player, u.name, u.width, u.depth, u.ranks, self.point(u.front, t),
                          u.facing + (0.0 if self.kind == "straight" else self.degrees * t))

    def rings(self, t: float) -> np.ndarray:
        """Return the unit's tray corners at *t* as an array (trays, 4, 2), without building the unit."""
        rings = np.asarray(self.unit.rings, dtype=float)
        if self.kind == "straight":
            return rings + np.array(self.shift) * t
        rad = math.radians(self.degrees * t)
        c, s = math.cos(rad), math.sin(rad)
        v = rings - np.array(self.centre)
        x = v[..., 0] * c + v[..., 1] * s
        y = -v[..., 0] * s + v[..., 1] * c
        out: np.ndarray = np.stack([x, y], axis=-1) + np.array(self.centre)
        return out

    def path_length(self, t: float) -> float:
        """Return how far the middle of the leading edge travels along the template up to *t*."""
        if self.kind == "straight":
            return norm(self.shift) * t
        return norm(sub(self.middle(), self.centre)) * math.radians(abs(self.degrees)) * t

    def pieces(self) -> int:
        """Return how many pieces the sweep is checked in (1 for a straight template, exact)."""
        if self.kind == "straight":
            return 1
        return max(1, math.ceil(abs(self.degrees) / ARC_STEP_DEGREES))

    def middle(self) -> Vec:
        """Return the middle of the leading edge at the start."""
        return mul(add(self.lead.left, self.lead.right), 0.5)

    def track(self, t0: float, t1: float, n: int = 24) -> list[Vec]:
        """Return points of the leading edge's middle from *t0* to *t1* (for drawing the path)."""
        if self.kind == "straight":
            n = 1
        return [self.point(self.middle(), t0 + (t1 - t0) * k / n) for k in range(n + 1)]

    def outline(self, n: int = 24) -> list[Vec]:
        """Return the template's outline: the area the leading edge sweeps from the start to the end guide."""
        if self.kind == "straight":
            n = 1
        left = [self.point(self.lead.left, k / n) for k in range(n + 1)]
        right = [self.point(self.lead.right, k / n) for k in range(n + 1)]
        pts = left + right[::-1]
        out: list[Vec] = []
        for p in pts:
            if not out or norm(sub(p, out[-1])) > 1e-9:
                out.append(p)
        return out


DIRECTIONS = {"forward": "front", "backward": "rear", "left": "side", "right": "side"}


def travel(unit: Unit, direction: str) -> Vec:
    """Return the direction of travel of a move forward, backward or to the unit's left or right (55.4)."""
    f, r = unit.forward, unit.right
    return {"forward": f, "backward": mul(f, -1), "left": mul(r, -1), "right": r}[direction]


@rule("rwm.55", "rwm.55.2", "rwm.55.4")
def motion(unit: Unit, direction: str, kind: TemplateKind, templates: Templates, speed: int,
           bend: str | None) -> Motion:
    """Return the motion of the unit along the template of *kind* and *speed* laid against its leading edge."""
    d = travel(unit, direction)
    lead = leading_edge(unit, d, DIRECTIONS[direction])
    if kind == "straight":
        return Motion(unit, kind, lead, shift=mul(d, templates.straight[speed - 1]))
    sign = 1.0 if bend == "right" else -1.0
    side = right_of(d) if bend == "right" else mul(right_of(d), -1)
    if kind == "turn":
        length = templates.turn[speed - 1]
        radius = length / math.radians(templates.turn_degrees)
        mid = mul(add(lead.left, lead.right), 0.5)
        return Motion(unit, kind, lead, centre=add(mid, mul(side, radius)), degrees=sign * templates.turn_degrees)
    corner = lead.right if bend == "right" else lead.left
    return Motion(unit, kind, lead, centre=corner, degrees=sign * templates.wheel[speed - 1])


def template_words(kind: TemplateKind, speed: int, bend: str | None) -> str:
    """Return "the straight speed-3 template", "the speed-2 turn template bending left"."""
    if kind == "straight":
        return f"the straight speed-{speed} template"
    return f"the speed-{speed} {kind} template {'bending' if kind == 'turn' else 'wheeling'} {bend}"
