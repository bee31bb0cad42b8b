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
    """Return the obstacles the trays reach into between *t0* and *t1* (a few obstacles: no tree)."""
    area = hulls(motion, t0, t1)
    return [o for o in found if bool(np.any(shapely.intersects(area, o.core)))]


def _all_pieces(motion: Motion, t: float = 1.0) -> tuple[np.ndarray, int]:
    """Return the hulls of every piece of the sweep up to *t* (pieces × trays, flattened) and the tray count."""
    n = motion.pieces()
    ts = [min(t, i / n) for i in range(n + 1) if i == 0 or (i - 1) / n < t]
    rings = np.stack([motion.rings(x) for x in ts])  # (pieces + 1, trays, 4, 2)
    both = np.concatenate([rings[:-1], rings[1:]], axis=2) if len(ts) > 1 else np.concatenate([rings, rings], axis=2)
    trays = both.shape[1]
    flat = both.reshape(-1, 8, 2)
    return shapely.convex_hull(shapely.multipoints(flat)), trays


@dataclass(frozen=True)
class Stop:
    """Where the unit stops on its template (``t`` in [0, 1]) and the obstacles that stopped it."""

    t: float
    blockers: tuple[Obstacle, ...]


def first_stop(motion: Motion, found: Sequence[Obstacle]) -> Stop:
    """Return how far along the template the unit goes before it would overlap one of *found*."""
    if not found:
        return Stop(1.0, ())
    n = motion.pieces()
    area, trays = _all_pieces(motion)
    tree = shapely.STRtree([o.core for o in found])
    hit = tree.query(area, predicate="intersects")
    if not hit.shape[1]:
        return Stop(1.0, ())
    i = int(hit[0].min()) // trays
    t0, t1 = i / n, (i + 1) / n
    first = [found[k] for k in sorted({int(b) for a, b in zip(hit[0], hit[1], strict=True) if int(a) // trays == i})]
    lo, hi = t0, t1
    for _ in range(BISECTIONS):
        mid = (lo + hi) / 2
        if _hit(motion, t0, mid, first):
            hi = mid
        else:
            lo = mid
    return Stop(lo, tuple(_hit(motion, t0, hi, first)))


def swept_parts(motion: Motion, t: float) -> np.ndarray:
    """Return the pieces of the area the unit covers from the start guide to parameter *t*."""
    return _all_pieces(motion, t)[0]


def swept(motion: Motion, t: float) -> BaseGeometry:
    """Return the whole area the unit covers from the start guide to parameter *t*."""
    return shapely.union_all(swept_parts(motion, t))


def trays_crossed(parts: np.ndarray, trays: Sequence[BaseGeometry]) -> int:
    """Return how many of *trays* the pieces of an area reach into (more than the skin)."""
    cores = shapely.buffer(np.array(list(trays), dtype=object), -SKIN, join_style="mitre")
    tree = shapely.STRtree(parts)
    return len({int(j) for j in tree.query(cores, predicate="intersects")[0]})
