"""Benchmark Runewars rulings in-process: the ``mobilize`` situation on a generated 60-area map, and every
Runewars situation on its scenario files.

Mobilize: a hex-like map of 60 areas (a 6 x 10 grid with offset rows, about 160 borders: mostly plain, some
mountain and water), mixed controllers (the player's, other factions', neutral, empty), activation tokens, and
10 movers (fast, flying, routed, heroes) spread over the map, resolved for each season. Reported: p50 and p95 of
``engine.core.resolve`` per call; the baseline, measured in the same run on the same positions, is the bare
graph work (building the ``networkx`` graph and one unrestricted shortest path per mover), so the ratio shows
what the rules, the schema check and the citations cost on top of the path finding itself.

All situations: each scenario file under ``engine/examples/runewars`` resolved repeatedly; p50 and p95 per
situation (over the medians of its files), against the 1 ms target.

    .venv/bin/python bench/mobilize_bench.py [--repeat N] [--seed S] [--json FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core import resolve  # noqa: E402
from engine.corpus import get_corpus  # noqa: E402

FACTIONS = ("daqan", "elves", "uthuk", "waiqar")
SEASONS = ("spring", "summer", "fall", "winter")
ROWS, COLS = 6, 10


def make_map(rng: random.Random) -> dict[str, Any]:
    """Return a 60-area map: offset rows of hexes, each area bordering up to 6 others, mixed border kinds."""
    ids = [[f"{r}{chr(65 + c)}" for c in range(COLS)] for r in range(ROWS)]
    areas = []
    for r in range(ROWS):
        for c in range(COLS):
            roll = rng.random()
            area: dict[str, Any] = {"id": ids[r][c], "activation_tokens": []}
            if roll < 0.35:
                area.update(controller="elves", units=rng.randint(0, 5), neutral_units=rng.choice([0, 0, 1]))
            elif roll < 0.55:
                area.update(controller=rng.choice(("daqan", "uthuk", "waiqar")), enemy_units=rng.randint(1, 4))
            elif roll < 0.7:
                area.update(controller=None, neutral_units=rng.randint(1, 3))
            else:
                area.update(controller=None)
            if rng.random() < 0.1:
                area["activation_tokens"] = [rng.choice(FACTIONS)]
            areas.append(area)
    borders = []
    for r in range(ROWS):
        for c in range(COLS):
            nbrs = [(r, c + 1), (r + 1, c)] + ([(r + 1, c + 1)] if r % 2 else [(r + 1, c - 1)])
            for rr, cc in nbrs:
                if 0 <= rr < ROWS and 0 <= cc < COLS:
                    kind = rng.choices(("plain", "mountain", "water"), weights=(7, 2, 1))[0]
                    borders.append([ids[r][c], ids[rr][cc], kind])
    return {"areas": areas, "borders": borders}


def make_position(rng: random.Random, season: str) -> dict[str, Any]:
    """Return a mobilize position on a fresh 60-area map with 10 assorted movers."""
    board = make_map(rng)
    own = [a["id"] for a in board["areas"] if a.get("controller") == "elves"]
    target = rng.choice([a["id"] for a in board["areas"] if "elves" not in a["activation_tokens"]])
    movers = [{"id": f"m{i}", "from": rng.choice(own), "fast": rng.random() < 0.3, "flying": rng.random() < 0.2,
               "routed": rng.random() < 0.1, "hero": rng.random() < 0.2} for i in range(10)]
    return {"game": "runewars", "situation": "mobilize", "season": season, "player": "elves",
            "target_area": target, "map": board, "movers": movers}


def baseline(pos: dict[str, Any]) -> None:
    """Build the graph and find one unrestricted shortest path per mover (the bare graph work)."""
    graph = nx.Graph()
    graph.add_nodes_from(a["id"] for a in pos["map"]["areas"])
    for a, b, kind in pos["map"]["borders"]:
        graph.add_edge(a, b, kind=kind)
    for m in pos["movers"]:
        with contextlib.suppress(nx.NetworkXNoPath):
            nx.shortest_path(graph, m["from"], pos["target_area"])


def timings(fn: Callable[[], Any], repeat: int) -> list[float]:
    """Return *repeat* wall times of *fn* in milliseconds (after one warm-up call)."""
    fn()
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def p(values: list[float], q: float) -> float:
    """Return the q-quantile (0..1) of values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a report (optionally JSON)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    corpus = get_corpus()
    rng = random.Random(args.seed)
    positions = [make_position(rng, SEASONS[i % 4]) for i in range(8)]
    engine_ms: list[float] = []
    base_ms: list[float] = []
    for pos in positions:
        engine_ms += timings(lambda pos=pos: resolve(pos, corpus), args.repeat)
        base_ms += timings(lambda pos=pos: baseline(pos), args.repeat)
    n_borders = statistics.mean(len(pos["map"]["borders"]) for pos in positions)
    report: dict[str, Any] = {
        "mobilize_60_areas": {"areas": ROWS * COLS, "borders_mean": n_borders, "movers": 10,
                              "min_ms": min(engine_ms), "p50_ms": p(engine_ms, 0.5), "p95_ms": p(engine_ms, 0.95),
                              "baseline_p50_ms": p(base_ms, 0.5), "baseline_p95_ms": p(base_ms, 0.95),
                              "ratio_p50": p(engine_ms, 0.5) / p(base_ms, 0.5), "target_ms": 5.0},
        "situations": {},
    }
    per: dict[str, list[float]] = {}
    for path in sorted((ROOT / "engine" / "examples" / "runewars").glob("*.json")):
        pos = json.loads(path.read_text(encoding="utf-8"))["position"]
        per.setdefault(pos["situation"], []).append(p(timings(lambda pos=pos: resolve(pos, corpus), args.repeat), .5))
    for name, meds in sorted(per.items()):
        report["situations"][name] = {"files": len(meds), "p50_ms": p(meds, 0.5), "p95_ms": p(meds, 0.95),
                                      "max_ms": max(meds), "target_ms": 1.0}
    m = report["mobilize_60_areas"]
    print(f"mobilize, 60 areas, {n_borders:.0f} borders, 10 movers: p50 {m['p50_ms']:.2f} ms, "
          f"p95 {m['p95_ms']:.2f} ms, min {m['min_ms']:.2f} ms (target 5 ms); "
          f"baseline graph work p50 {m['baseline_p50_ms']:.2f} ms, ratio {m['ratio_p50']:.1f}x")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name, s in report["situations"].items():
        print(f"{name:14} {s['files']:3} files  p50 {s['p50_ms']:.3f} ms  p95 {s['p95_ms']:.3f} ms  "
              f"max {s['max_ms']:.3f} ms (target 1 ms)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
