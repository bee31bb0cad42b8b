"""Benchmark ``runecodex build``: a full build, then incremental rebuilds after editing one rules file.

Each build is a fresh ``runecodex build`` process (what a user runs) on a copy of rules/, into a
temporary folder. The baseline, measured in the same run, is a rebuild with nothing changed (imports,
corpus load, page generation, publishing). Reports medians and p95, the ratios against the baseline,
and the targets of the site (full <= 60 s, incremental <= 10 s on the 2-core machine); exits 1 when
a target is missed.

    .venv/bin/python bench/site_bench.py [--repeat N] [--full-repeat N] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FULL_TARGET_S = 60.0
INCREMENTAL_TARGET_S = 10.0
_UPDATED_RE = re.compile(r"updating environment: .*?(\d+) added, (\d+) changed, (\d+) removed")


def _build(out: Path, rules: Path, work: Path, *extra: str) -> tuple[float, int]:
    """Run one ``runecodex build``; return its wall time and the number of pages Sphinx re-read."""
    env = {**os.environ, "RUNECODEX_RULES": str(rules), "RUNECODEX_CACHE": str(work / "corpus-cache"),
           "RUNECODEX_INDEX": str(work / "search-index")}
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "engine.cli", "build", "--out", str(out), *extra],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"site_bench: the build failed (exit {proc.returncode})")
    m = _UPDATED_RE.search(proc.stderr)
    reread = int(m.group(1)) + int(m.group(2)) if m else -1
    return elapsed, reread


def _edit(rules: Path, n: int) -> str:
    """Change one paragraph's text in one rules file (a different word each time); return the file."""
    path = rules / "runewars-miniatures" / "11-glossary-16-30.yaml"
    if not path.is_file():
        path = sorted(rules.glob("*/*.yaml"))[len(list(rules.glob("*/*.yaml"))) // 2]
    text = path.read_text(encoding="utf-8")
    marker = re.search(r"(?m)^    text: \|\n(\s+)(\S[^\n]*)$", text)
    if marker is None:
        raise SystemExit(f"site_bench: no text block to edit in {path}")
    line = marker.group(2)
    edited = re.sub(r" \(bench edit \d+\)$", "", line) + f" (bench edit {n})"
    path.write_text(text[:marker.start(2)] + edited + text[marker.end(2):], encoding="utf-8")
    return str(path.relative_to(rules))


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def run(repeat: int, full_repeat: int) -> dict[str, Any]:
    """Measure full, no-change and incremental builds; return the numbers."""
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="site-bench-") as tmp:
        work = Path(tmp)
        rules = work / "rules"
        shutil.copytree(ROOT / "rules", rules)
        out = work / "public" / "site"
        full: list[float] = []
        for _ in range(full_repeat):
            seconds, _reread = _build(out, rules, work, "--fresh", "-q")
            full.append(seconds)
        pages = sum(1 for _ in out.rglob("*.html"))
        noop: list[float] = []
        for _ in range(repeat):
            noop.append(_build(out, rules, work, "-q")[0])
        incremental: list[float] = []
        reread: list[int] = []
        edited = ""
        for n in range(repeat):
            edited = _edit(rules, n)
            seconds, count = _build(out, rules, work)
            incremental.append(seconds)
            reread.append(count)
    full_median = statistics.median(full)
    inc_median = statistics.median(incremental)
    noop_median = statistics.median(noop)
    return {
        "pages": pages, "cores": os.cpu_count(), "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "full_s": {"runs": [round(x, 2) for x in full], "median": round(full_median, 2), "p95": round(_p95(full), 2)},
        "noop_s": {"runs": [round(x, 2) for x in noop], "median": round(noop_median, 2), "p95": round(_p95(noop), 2)},
        "incremental_s": {"runs": [round(x, 2) for x in incremental], "median": round(inc_median, 2),
                          "p95": round(_p95(incremental), 2), "pages_reread": reread, "edited": edited},
        "ratios": {"incremental_over_noop": round(inc_median / noop_median, 2),
                   "full_over_incremental": round(full_median / inc_median, 2)},
        "targets": {"full_s": FULL_TARGET_S, "incremental_s": INCREMENTAL_TARGET_S,
                    "full_ok": full_median <= FULL_TARGET_S, "incremental_ok": inc_median <= INCREMENTAL_TARGET_S},
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a report (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=3, help="incremental and no-change rebuilds (default 3)")
    parser.add_argument("--full-repeat", type=int, default=1, help="full builds (default 1)")
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args(argv)
    result = run(max(1, args.repeat), max(1, args.full_repeat))
    f, n, i = result["full_s"], result["noop_s"], result["incremental_s"]
    t = result["targets"]
    print(f"site build benchmark: {result['pages']} pages, {result['cores']} cores, "
          f"load {result['load_before'][0]} -> {result['load_after'][0]}")
    print(f"  full build          median {f['median']:6.2f} s  p95 {f['p95']:6.2f} s  "
          f"(target <= {t['full_s']:.0f} s: {'ok' if t['full_ok'] else 'MISSED'})")
    print(f"  no-change rebuild   median {n['median']:6.2f} s  p95 {n['p95']:6.2f} s  (baseline)")
    print(f"  incremental rebuild median {i['median']:6.2f} s  p95 {i['p95']:6.2f} s  "
          f"(target <= {t['incremental_s']:.0f} s: {'ok' if t['incremental_ok'] else 'MISSED'}); "
          f"pages re-read {i['pages_reread']} after editing {i['edited']}")
    r = result["ratios"]
    print(f"  ratios: incremental / baseline {r['incremental_over_noop']}x, "
          f"full / incremental {r['full_over_incremental']}x")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0 if t["full_ok"] and t["incremental_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
