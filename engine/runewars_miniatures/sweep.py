"""Sweeping a unit along its template: where it first would overlap an obstacle, and what it passes over.

The area a tray covers while a template carries it from ``t0`` to ``t1`` is the convex hull of the tray at both
ends when the motion is a translation (exact); a turn or a wheel is checked in pieces of at most
:data:`~engine.runewars_miniatures.templates.ARC_STEP_DEGREES`. An obstacle is hit when a hull reaches more
than :data:`SKIN` inside it (so a unit sliding along an obstacle it touches is not stopped by rounding). The
first piece hit is bisected a fixed :data:`BISECTIONS` times: the work is bounded whatever the input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from engine.runewars_miniatures.templates import Motion

SKIN = 1e-8
BISECTIONS = 36


@dataclass(frozen=True)
class Obstacle:
    """An obstacle for a move: its id and shape, and the shape shrunk by :data:`SKIN`."""

    id: str
    shape: BaseGeometry
    core: BaseGeometry


def obstacles(pieces: Sequence[tuple[str, BaseGeometry]]) -> list[Obstacle]:
    """Return the obstacles with their shrunk shapes."""
    if not pieces:
        return []
    cores = shapely.buffer(np.array([p[1] for p in pieces], dtype=object), -SKIN, join_style="mitre")
    return [Obstacle(i, s, c) for (i, s), c in zip(pieces, cores, strict=True)]


def hulls(motion: Motion, t0: float, t1: float) -> np.ndarray:
    """Return the area each tray covers from *t0* to *t1* (one polygon per tray)."""
    both = np.concatenate([motion.rings(t0), motion.rings(t1)], axis=1)
    return shapely.convex_hull(shapely.multipoints(both))  # type: ignore[no-any-return]


def _hit(motion: Motion, t0: float, t1: float, found: Sequence[Obstacle]) -> list[Obstacle]:
    """Return the obstacles the trays reach into between *t0* and *t1*."""
    if not found:
        return []
    area = hulls(motion, t0, t1)
    tree = shapely.STRtree([o.core for o in found])
    hit = tree.query(area, predicate="intersects")
    return [found[i] for i in sorted(set(int(j) for j in hit[1]))]


@dataclass(frozen=True)
class Stop:
    """Where the unit stops on its template (``t`` in [0, 1]) and the obstacles that stopped it."""

    t: float
    blockers: tuple[Obstacle, ...]


def first_stop(motion: Motion, found: Sequence[Obstacle]) -> Stop:
    """Return how far along the template the unit goes before it would overlap one of *found*."""
    n = motion.pieces()
    for i in range(n):
        t0, t1 = i / n, (i + 1) / n
        hit = _hit(motion, t0, t1, found)
        if not hit:
            continue
        lo, hi = t0, t1
        for _ in range(BISECTIONS):
            mid = (lo + hi) / 2
            if _hit(motion, t0, mid, hit):
                hi = mid
            else:
                lo = mid
        return Stop(lo, tuple(_hit(motion, t0, hi, hit)))
    return Stop(1.0, ())


def swept(motion: Motion, t: float) -> BaseGeometry:
    """Return the whole area the unit covers from the start guide to parameter *t*."""
    n = motion.pieces()
    parts: list[BaseGeometry] = []
    for i in range(n):
        t0 = i / n
        if t0 >= t:
            break
        parts.extend(hulls(motion, t0, min(t, (i + 1) / n)))
    if not parts:
        parts.extend(hulls(motion, 0.0, 0.0))
    return shapely.union_all(parts)


def trays_crossed(area: BaseGeometry, trays: Sequence[BaseGeometry]) -> int:
    """Return how many of *trays* the area reaches into (more than the skin)."""
    cores = shapely.buffer(np.array(list(trays), dtype=object), -SKIN, join_style="mitre")
    return int(np.count_nonzero(shapely.intersects(cores, area)))
