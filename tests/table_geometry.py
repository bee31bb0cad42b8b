"""The whole table turned and moved, for the property tests of the table situations: a ruling on the turned
table must be the ruling on the original, turned the same way."""

from __future__ import annotations

import copy
import math
from typing import Any


def turned_point(p: list[float], degrees: float, dx: float = 0.0, dy: float = 0.0) -> list[float]:
    """Return point *p* turned clockwise by *degrees* about the origin (the way facings turn), then moved."""
    rad = math.radians(degrees)
    c, s = math.cos(rad), math.sin(rad)
    return [p[0] * c + p[1] * s + dx, -p[0] * s + p[1] * c + dy]


def turned_table(pos: dict[str, Any], degrees: float, dx: float = 0.0, dy: float = 0.0) -> dict[str, Any]:
    """Return a copy of *pos* with every unit, terrain piece and deployment area turned by *degrees*, then moved."""
    out = copy.deepcopy(pos)
    for u in out["units"]:
        u["front"] = turned_point(u["front"], degrees, dx, dy)
        u["facing"] = (u["facing"] + degrees) % 360
    for piece in (*(out.get("terrain") or []), *(out.get("deployment_areas") or [])):
        piece["polygon"] = [turned_point(p, degrees, dx, dy) for p in piece["polygon"]]
    return out
