"""Run every benchmark in this folder, one after the other, and print each one's report.

    .venv/bin/python bench/run_all.py [--quick] [--skip NAME ...]

Each benchmark measures its own baseline in the same run and reports medians and ratios; this script
only sequences them (they would disturb each other's timings if run at once) and exits non-zero when
any of them does (a benchmark exits 1 when it misses its target).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHES = {
    "engine": ["engine_bench.py"],
    "mobilize": ["mobilize_bench.py"],
    "search": ["search_bench.py"],
    "quickref": ["quickref_bench.py"],
    "site": ["site_bench.py"],
    "load": ["load.py"],
    "table": ["table_bench.py"],
    "hostile": ["hostile.py"],
    "heldout": ["heldout_rulings.py"],
}
QUICK = {"engine": ["--repeat", "20"], "mobilize": ["--repeat", "50"], "search": ["--repeat", "3"],
         "quickref": ["--runs", "2", "--cold", "1"], "site": ["--repeat", "1", "--full-repeat", "1"],
         "load": ["--seconds", "10"], "table": ["--repeat", "50"],
         "hostile": ["--seconds", "4"]}


def main() -> int:
    """Run the benchmarks; return non-zero when any missed its target or failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    parser.add_argument("--skip", nargs="*", default=[], choices=sorted(BENCHES))
    args = parser.parse_args()
    failed = []
    for name, cmd in BENCHES.items():
        if name in args.skip:
            continue
        extra = QUICK[name] if args.quick else []
        print(f"\n=== {name}: {' '.join(cmd + extra)}", flush=True)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, str(HERE / cmd[0]), *cmd[1:], *extra], check=False)
        print(f"=== {name}: exit {proc.returncode} after {time.perf_counter() - start:.1f} s", flush=True)
        if proc.returncode:
            failed.append(name)
    print("\nall benchmarks met their targets" if not failed else f"\nmissed or failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
