"""Benchmark in-process rulings: p50/p95 of ``engine.core.resolve`` per registered situation.

Positions: every scenario file under ``engine/examples/<game>/`` and every example under
``../shared/examples/<game>/`` (both ``{"title", "from", "position", "expect"}``). Each position is resolved
once as a warm-up (the corpus and the schema validators are cached by then), then ``--repeat`` times; the
times of all positions of a situation are pooled for its p50 and p95.

Baseline, measured in the same run on the same positions: validating the position with ``jsonschema`` alone
against the situation's published JSON Schema (a ``Draft202012Validator`` built once per situation), so the
ratio column is what a whole ruling (reading the typed position included) costs against a plain schema check
of the same input. Targets: p50 <= 1 ms per situation (``--budget-ms``); the ratio at most 1.0 at the median
over situations and at most 1.5 for every situation that does not measure a table (a position on the table,
``TablePosition``: those are held to ``bench/table_bench.py``'s 5 ms and its ratio to line of sight). Situations
over a target are flagged and the exit status is 1. Registered situations without any position are listed.

    .venv/bin/python bench/engine_bench.py [--repeat N] [--game G] [--budget-ms MS] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jsonschema import Draft202012Validator  # noqa: E402

from engine.core import load_situations, resolve  # noqa: E402
from engine.corpus import get_corpus  # noqa: E402

RATIO_MEDIAN = 1.0  # a ruling costs no more than a plain jsonschema check of its input, at the median
RATIO_EACH = 1.5  # ... and at most 1.5 times it for every situation that does not measure a table
TABLE_BUDGET_MS = 5.0
"""A table situation's p50 budget: the one ``bench/table_bench.py`` holds it to (geometry, not reading)."""
SOURCES = (ROOT / "engine" / "examples", ROOT.parent / "shared" / "examples", ROOT.parent / "shared" / "examples-new")


@dataclass(frozen=True)
class Row:
    """The timings of one situation."""

    game: str
    situation: str
    positions: int
    p50_ms: float
    p95_ms: float
    base_p50_ms: float

    @property
    def ratio(self) -> float:
        """Return the resolve p50 over the validation-only p50."""
        return self.p50_ms / self.base_p50_ms if self.base_p50_ms else float("inf")

    def to_json(self) -> dict[str, Any]:
        """Return the row as JSON."""
        return {"game": self.game, "situation": self.situation, "positions": self.positions,
                "p50_ms": round(self.p50_ms, 4), "p95_ms": round(self.p95_ms, 4),
                "validate_p50_ms": round(self.base_p50_ms, 4), "ratio": round(self.ratio, 2)}


def positions(game: str | None) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Return the positions of every scenario and example file, grouped by (game, situation)."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for root in SOURCES:
        if not root.is_dir():
            continue
        for path in sorted(root.glob("*/*.json")):
            pos = json.loads(path.read_text(encoding="utf-8")).get("position")
            if not isinstance(pos, dict) or (game and pos.get("game") != game):
                continue
            out[(str(pos.get("game")), str(pos.get("situation")))].append(pos)
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """Return the q-th percentile (0..100) by nearest rank."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))
    return ordered[index]


def timed(fn: Callable[[dict[str, Any]], object], pos: dict[str, Any], repeat: int) -> list[float]:
    """Return *repeat* wall times of ``fn(pos)`` in milliseconds."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(pos)
        out.append((time.perf_counter() - start) * 1000)
    return out


def measure(groups: dict[tuple[str, str], list[dict[str, Any]]], repeat: int) -> list[Row]:
    """Time resolve and validation alone for every group of positions."""
    corpus = get_corpus()
    situations = load_situations()
    rows = []
    for (game, name), group in sorted(groups.items()):
        times: list[float] = []
        base: list[float] = []
        validator = Draft202012Validator(dict(situations[(game, name)].schema))
        for pos in group:
            resolve(pos, corpus)  # warm-up
            times += timed(lambda p: resolve(p, corpus), pos, repeat)
            base += timed(validator.is_valid, pos, repeat)
        rows.append(Row(game, name, len(group), statistics.median(times), percentile(times, 95),
                        statistics.median(base)))
    return rows


def table_situations() -> frozenset[tuple[str, str]]:
    """Return the situations whose position is a table (units as trays, terrain as polygons)."""
    from engine.runewars_miniatures.table import TablePosition

    return frozenset(k for k, sit in load_situations().items() if issubclass(sit.model, TablePosition))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print one line per situation; exit 1 when a p50 is over budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50, help="timed runs per position (default 50)")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--budget-ms", type=float, default=1.0, help="p50 budget per situation (default 1 ms)")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args(argv)
    registered = {k for k in load_situations() if not args.game or k[0] == args.game}
    groups = {k: v for k, v in positions(args.game).items() if k in registered}
    rows = measure(groups, args.repeat)
    print(f"{'game':<22}{'situation':<20}{'pos':>5}{'p50 ms':>10}{'p95 ms':>10}{'jsonschema':>11}{'ratio':>8}")
    over = []
    table = table_situations()
    for r in rows:
        on_table = (r.game, r.situation) in table
        limit = None if on_table else RATIO_EACH
        flag = ("  OVER BUDGET" if r.p50_ms > (TABLE_BUDGET_MS if on_table else args.budget_ms)
                else f"  RATIO OVER {limit:g}" if limit is not None and r.ratio > limit else "")
        if flag:
            over.append(r)
        print(f"{r.game:<22}{r.situation:<20}{r.positions:>5}{r.p50_ms:>10.3f}{r.p95_ms:>10.3f}"
              f"{r.base_p50_ms:>10.3f}{r.ratio:>7.1f}x{flag}")
    missing = sorted(registered - set(groups))
    for game, name in missing:
        print(f"{game:<22}{name:<20}{0:>5}  no scenario or example position")
    median_ratio = statistics.median(r.ratio for r in rows) if rows else 0.0
    print(f"{len(rows)} situations timed, {len(over)} over a target, {len(missing)} without positions; "
          f"median ratio {median_ratio:.2f} (target <= {RATIO_MEDIAN:g}); baseline = jsonschema validation alone")
    if median_ratio > RATIO_MEDIAN:
        over.append(Row("all", "median ratio", 0, 0.0, 0.0, 0.0))
    if args.json:
        args.json.write_text(json.dumps({"budget_ms": args.budget_ms, "repeat": args.repeat,
                                         "rows": [r.to_json() for r in rows],
                                         "missing": [list(m) for m in missing]}, indent=2) + "\n")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
