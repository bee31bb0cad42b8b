"""Benchmark the RuneWars Miniatures table rulings on a busy table: 10 units and 10 terrain pieces.

Situations timed (``engine.core.resolve``, in process, after one warm-up): ``contact`` over the whole table,
``line_of_sight`` with a clear line between the terrain (the witness is found by the quick candidates),
``line_of_sight`` when every line is blocked (the exhaustive search over critical lines runs), ``range``,
``reform`` (a unit turned about its centre, checked against every other piece), ``engaged_shift`` (a
reposition along an enemy's front, and a disengage straight back), ``move`` (a speed-5 march through the
table, and a turning charge), and the terrain cases: line of sight from a hill the archers occupy (Elevated,
and not: the search then runs from every edge of the hill), range to the play area's edge, contact through
occupied terrain, and ``deployment`` of 10 units with 10 terrain pieces. A move is reported beside
``line_of_sight`` on the same table (target: at most 3 times its CPU p50); every other case against p50 <= 5 ms
(``--budget-ms``). The budget applies to the CPU time of the resolving thread (``--gate``): on this shared
machine (2 cores, often 6+ runnable processes) a call of a few milliseconds is usually preempted once, and its
wall time then mostly measures the other processes. Wall p50/p95 are printed beside it; on an idle machine they
match the CPU figures.

Baseline, measured in the same run on the same positions: ``engine.core.read_position`` alone (finding the
situation and validating the JSON Schema), so the ratio shows what the geometry adds to reading the input
on this machine at this moment (the machine is shared: compare ratios, not absolute times, across runs).

    .venv/bin/python bench/table_bench.py [--repeat N] [--budget-ms MS] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core import read_position, resolve  # noqa: E402
from engine.corpus import get_corpus  # noqa: E402


def _unit(uid: str, player: str, front: tuple[float, float], facing: float, files: int, ranks: int,
          width: float = 1.0, depth: float = 1.0, partial: int | None = None) -> dict[str, Any]:
    formation: list[Any] = [files] * ranks + ([partial] if partial else [])
    return {"id": uid, "player": player, "name": uid.replace("_", " ").title(), "type": "infantry",
            "tray": {"width": width, "depth": depth}, "formation": formation, "front": list(front),
            "facing": facing}


def _box(tid: str, x: float, y: float, w: float, h: float, turn: float = 0.0) -> dict[str, Any]:
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return {"id": tid, "kind": "Rocky Outcrop", "polygon": [[x + px * c - py * s, y + px * s + py * c]
                                                             for px, py in pts]}


def table() -> dict[str, Any]:
    """Return the busy table: 10 units (two engaged pairs, a flank, allies side by side) and 10 terrain pieces."""
    units = [
        _unit("archers", "Waiqar", (0.0, 0.0), 0, 3, 2),
        _unit("spearmen", "Daqan", (0.0, 14.0), 180, 3, 3),
        _unit("reanimates", "Waiqar", (-10.0, 6.0), 90, 3, 2, partial=2),
        _unit("guard", "Daqan", (-10.0, 6.0), 270, 2, 2),
        _unit("cavalry", "Daqan", (-11.0, 3.0), 0, 2, 1, depth=2.0),
        _unit("golem", "Daqan", (12.0, 5.0), 200, 1, 1, width=2.0, depth=2.0),
        _unit("knights", "Waiqar", (9.0, -3.0), 30, 2, 2),
        _unit("wraiths", "Waiqar", (-4.0, -6.0), 45, 2, 1, depth=2.0),
        _unit("rangers", "Daqan", (7.0, 12.0), 225, 3, 1),
        _unit("crossbows", "Daqan", (-7.0, 14.0), 160, 2, 2),
    ]
    terrain = [_box("t0", -3.5, 7.0, 2.0, 1.5), _box("t1", 3.5, 7.0, 2.0, 1.5, 20), _box("t2", 15.0, 12.0, 3.0, 2.0),
               _box("t3", -15.0, 12.0, 2.5, 2.0, 45), _box("t4", 0.0, -8.0, 4.0, 1.0), _box("t5", 14.0, -6.0, 2.0, 2.0),
               _box("t6", -14.0, -4.0, 1.5, 3.0, 10), _box("t7", 6.0, 2.0, 1.0, 1.0, 30),
               _box("t8", -6.5, 2.0, 1.0, 1.2), _box("t9", 20.0, 4.0, 2.0, 4.0)]
    return {"game": "runewars-miniatures", "table": {"band": 4.0, "arc_degrees": 45}, "units": units,
            "terrain": terrain}


def positions() -> dict[str, dict[str, Any]]:
    """Return the timed positions, by label."""
    base = table()
    blocked = json.loads(json.dumps(base))
    blocked["terrain"][0] = _box("t0", 0.0, 7.0, 14.0, 1.5)
    return {
        "contact": {**base, "situation": "contact"},
        "line_of_sight": {**base, "situation": "line_of_sight", "unit": "archers", "target": "spearmen"},
        "line_of_sight (blocked)": {**blocked, "situation": "line_of_sight", "unit": "archers", "target": "spearmen"},
        "range": {**base, "situation": "range", "unit": "archers", "target": "golem"},
        "move": {**base, "situation": "move", "unit": "archers", "action": "march", "speed": 5},
        "move (turn, charge)": {**base, "situation": "move", "unit": "knights", "action": "march", "speed": 3,
                                "modifier": "turning-charge", "bend": "left"},
        "reform": {**base, "situation": "reform", "unit": "knights", "facing": 90},
        "engaged_shift (reposition)": {**base, "situation": "engaged_shift", "unit": "reanimates",
                                       "direction": "right", "distance": 1},
        "engaged_shift (disengage)": {**base, "situation": "engaged_shift", "unit": "guard", "direction": "backward",
                                      "distance": 1},
        "line_of_sight (Elevated)": {**_occupied(base, elevated=True), "situation": "line_of_sight",
                                     "unit": "archers", "target": "spearmen"},
        "line_of_sight (from terrain)": {**_occupied(base, elevated=False), "situation": "line_of_sight",
                                         "unit": "archers", "target": "spearmen"},
        "range (to an edge)": {**base, "situation": "range", "unit": "archers", "to_edge": "top",
                               "play_area": PLAY},
        "contact (occupied terrain)": {**_occupied(base, elevated=False), "situation": "contact"},
        "deployment": _deployment(),
    }


PLAY = {"corner": [-24.0, -12.0], "width": 48.0, "depth": 30.0}


def _occupied(base: dict[str, Any], elevated: bool) -> dict[str, Any]:
    """Return the busy table with the archers standing on a hill they occupy (Elevated or not)."""
    out = json.loads(json.dumps(base))
    hill = _box("hill", 0.0, -1.0, 4.0, 3.0)
    hill.update(capacity=6, occupant="archers", keywords=[{"keyword": "elevated"}] if elevated else [])
    out["terrain"].append(hill)
    return out


def _deployment() -> dict[str, Any]:
    """Return 10 units deployed in two areas, 10 terrain pieces in the middle, with the order of deployment."""
    units = [_unit(f"d{i}", "Daqan", (-20.0 + 4.5 * i, -9.0), 0, 3, 2) for i in range(5)]
    units += [_unit(f"w{i}", "Waiqar", (-20.0 + 4.5 * i, 15.0), 180, 3, 2) for i in range(5)]
    terrain = [_box(f"t{i}", -15.0 + 7.0 * (i % 5), 1.0 + 4.5 * (i // 5), 1.5, 1.0) for i in range(10)]
    areas = [{"id": "blue", "player": "Daqan", "polygon": [[-24, -12], [24, -12], [24, -7], [-24, -7]]},
             {"id": "red", "player": "Waiqar", "polygon": [[-24, 13], [24, 13], [24, 18], [-24, 18]]}]
    order = [u["id"] for pair in zip(units[:5], units[5:], strict=True) for u in pair]
    return {"game": "runewars-miniatures", "situation": "deployment", "table": {"band": 1.0}, "units": units,
            "terrain": terrain, "deployment_areas": areas, "play_area": PLAY, "first_player": "Daqan",
            "order": order}


def _times(fns: list[Callable[[], Any]], repeat: int) -> list[tuple[list[float], list[float]]]:
    """Time each function *repeat* times, interleaved so that all see the same load: (wall ms, CPU ms) lists."""
    out: list[tuple[list[float], list[float]]] = [([], []) for _ in fns]
    for _ in range(repeat):
        for fn, (wall, cpu) in zip(fns, out, strict=True):
            start, start_cpu = time.perf_counter(), time.thread_time()
            fn()
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.thread_time() - start_cpu) * 1000)
    return out


def main() -> int:
    """Time the table situations; exit 1 when a p50 is over budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--budget-ms", type=float, default=5.0)
    parser.add_argument("--gate", choices=("cpu_p50_ms", "p50_ms"), default="cpu_p50_ms",
                        help="which p50 the budget applies to: CPU time of the thread (default; the machine is "
                             "shared, so wall time mostly measures the other processes) or wall time")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    get_corpus()
    rows = []
    for label, pos in positions().items():
        answer = resolve(pos).to_json()  # warm-up, and a sanity check of the table
        assert answer["legal"], (label, answer["summary"])
        (base, base_cpu), (full, full_cpu) = _times([lambda p=pos: read_position(p), lambda p=pos: resolve(p)],
                                                    args.repeat)
        p50, p95, cpu50 = statistics.median(full), statistics.quantiles(full, n=20)[18], statistics.median(full_cpu)
        b50, bcpu50 = statistics.median(base), statistics.median(base_cpu)
        rows.append({"situation": label, "p50_ms": round(p50, 3), "p95_ms": round(p95, 3),
                     "cpu_p50_ms": round(cpu50, 3),
                     "validate_p50_ms": round(b50, 3), "validate_cpu_p50_ms": round(bcpu50, 3),
                     "ratio": round(cpu50 / bcpu50, 2), "summary": answer["summary"]})
    print(f"{'situation':<30}{'p50 ms':>9}{'p95 ms':>9}{'CPU p50':>9}{'validate':>10}{'(CPU)':>8}{'ratio':>7}")
    over = []
    for r in rows:
        flag = "  OVER BUDGET" if r[args.gate] > args.budget_ms and not r["situation"].startswith("move") else ""
        if flag:
            over.append(r["situation"])
        print(f"{r['situation']:<30}{r['p50_ms']:>9.3f}{r['p95_ms']:>9.3f}{r['cpu_p50_ms']:>9.3f}"
              f"{r['validate_p50_ms']:>10.3f}{r['validate_cpu_p50_ms']:>8.3f}{r['ratio']:>7.2f}{flag}")
    for r in rows:
        print(f"  {r['situation']}: {r['summary']}")
    cpu = {r["situation"]: r["cpu_p50_ms"] for r in rows}
    for label in ("move", "move (turn, charge)"):
        print(f"{label} / line_of_sight on the same table (CPU p50): {cpu[label] / cpu['line_of_sight']:.2f} "
              "(target: at most 3)")
    print(f"10 units, 10 terrain pieces; {len(over)} over the {args.budget_ms:g} ms budget ({args.gate}); ratio = "
          "resolve CPU p50 / validation-only CPU p50")
    if args.json:
        args.json.write_text(json.dumps({"budget_ms": args.budget_ms, "repeat": args.repeat, "rows": rows}, indent=2))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
