"""Benchmark building the printable quick reference: per game and size, warm and cold, against a plain baseline.

For each game and each size (``standard``: the two-page sheet; ``large``: the large-type sheet read across
the table), in one process after a warm-up (WeasyPrint imported, fonts loaded, corpus parsed): the wall
and CPU time of ``engine.views.quickref.render_pdf`` (the default selection on A4: select topics, build
the sheet, render HTML, lay it out with WeasyPrint, fit the standard sheet on 2 pages, write the PDF),
repeated ``--runs`` times; median and p95. That is "warm". The baseline, measured in the same run on the
same machine, is WeasyPrint typesetting the very same content (steps, tables, facts, short forms,
locators) as one plain single-column page with no style sheet: the least any PDF of that text costs, so
the ratio is what the sheet's layout (columns, icons, tables, fitting) adds.

Then "cold", the command line as a player runs it: ``runecodex quickref --game G --size S -o FILE`` in a
fresh process (interpreter start, corpus load, WeasyPrint import, render, atomic write), ``--cold`` times.

The machine is shared (2 cores): the load average is printed before and after, and the CPU time
(of this process and of the command's process) next to the wall time, since on a loaded machine the
wall time measures the neighbours too. The budget is 2 s for one warm PDF (issue 28) and 5 s cold: the
verdicts are printed for wall and CPU medians; the exit status follows the CPU medians.

    .venv/bin/python bench/quickref_bench.py [--runs N] [--cold N] [--json FILE]
"""

from __future__ import annotations

import argparse
import html
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.corpus import Corpus, get_corpus  # noqa: E402
from engine.views import quickref  # noqa: E402

BUDGET_S = 2.0  # one warm PDF
COLD_BUDGET_S = 5.0  # one PDF from a fresh command line
SIZES = ("standard", "large")


@dataclass(frozen=True)
class Timing:
    """Wall and CPU seconds of repeated runs of one thing."""

    wall: tuple[float, ...]
    cpu: tuple[float, ...]

    @classmethod
    def from_runs(cls, fn: Callable[[], object], runs: int) -> Timing:
        """Return the timings of *runs* calls of *fn* (CPU time of this process and of its children)."""
        wall, cpu = [], []
        for _ in range(runs):
            w, c = time.perf_counter(), _cpu()
            fn()
            cpu.append(_cpu() - c)
            wall.append(time.perf_counter() - w)
        return cls(tuple(wall), tuple(cpu))

    @property
    def median(self) -> float:
        """Return the median wall time."""
        return statistics.median(self.wall)

    @property
    def p95(self) -> float:
        """Return the 95th percentile (nearest rank) of the wall times."""
        return percentile(self.wall, 95)

    @property
    def cpu_median(self) -> float:
        """Return the median CPU time."""
        return statistics.median(self.cpu)


def _cpu() -> float:
    """Return the CPU seconds used so far by this process and its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def percentile(values: Sequence[float], p: float) -> float:
    """Return the *p*-th percentile (nearest rank) of *values*."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def plain_html(corpus: Corpus, game: str) -> str:
    """Return the baseline page: the default sheet's entries as plain, unstyled HTML."""
    sheet = quickref.build(game, corpus=corpus)
    parts = [f"<h1>{html.escape(sheet.game_title)}</h1>"]
    for section in sheet.sections:
        parts.append(f"<h2>{html.escape(section.heading)}</h2>")
        for seq in section.sequences:
            parts.append("<ol>" + "".join(f"<li>{html.escape(step)}</li>" for step in seq.steps) + "</ol>")
        for t in section.tables:
            rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in t.rows)
            parts.append(f"<table>{rows}</table>")
        for f in section.facts:
            parts.append(f"<p>{html.escape(f.label)}: {html.escape(f.value)} "
                         f"<small>{html.escape(f.locator)}</small></p>")
        for e in (*section.entries, *section.notes):
            parts.append(f"<p><b>{html.escape(e.title)}</b> {html.escape(e.text)} "
                         f"<small>{html.escape(e.locator)}</small></p>")
    return "<!doctype html><html><body>" + "".join(parts) + "</body></html>"


@dataclass(frozen=True)
class GameResult:
    """The measurements of one game."""

    game: str
    size: str
    pages: int
    density: str
    sheet: Timing
    baseline: Timing
    cold: Timing | None

    @property
    def ratio(self) -> float:
        """Return the sheet's median wall time over the baseline's."""
        return self.sheet.median / self.baseline.median if self.baseline.median else float("nan")


def _command() -> list[str]:
    """Return how to run ``runecodex`` from this checkout (its venv's, else this interpreter with -m)."""
    exe = ROOT / ".venv" / "bin" / "runecodex"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "engine.cli"]


def measure(corpus: Corpus, game: str, size: str, runs: int, cold: int, out_dir: Path) -> GameResult:
    """Measure the default sheet of *game* in *size*: in process (sheet and baseline), then the cold command."""
    from weasyprint import HTML

    sheet = quickref.build(game, corpus=corpus, size=size)
    rendered = quickref.render(sheet, quickref.max_pages(sheet))
    baseline_html = plain_html(corpus, game)
    HTML(string=baseline_html).write_pdf()
    sheet_t = Timing.from_runs(lambda: quickref.render_pdf(game, corpus=corpus, size=size), runs)
    base_t = Timing.from_runs(lambda: HTML(string=baseline_html).write_pdf(), runs)
    cold_t = None
    if cold:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        cmd = [*_command(), "quickref", "--game", game, "--size", size,
               "-o", str(out_dir / f"quickref-{game}-{size}.pdf")]
        cold_t = Timing.from_runs(lambda: subprocess.run(cmd, check=True, capture_output=True, env=env), cold)
    return GameResult(game, size, rendered.pages, rendered.density, sheet_t, base_t, cold_t)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print one line per game; exit 1 when a median CPU time is over the budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="in-process runs per game (default 5)")
    parser.add_argument("--cold", type=int, default=3, help="cold command-line runs per game (default 3)")
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    corpus = get_corpus()
    quickref.catalog(corpus)
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    quickref.render_pdf("runeslingers", "power", corpus=corpus)  # WeasyPrint import and font set-up
    first_s = time.perf_counter() - t0
    print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} on "
          f"{os.cpu_count()} cores; corpus load {load_s:.2f} s; first render (import, fonts) {first_s:.2f} s")
    print(f"{'game':<22}{'size':<9}{'pages':>6} {'density':<8}{'warm p50':>9}{'p95':>7}{'cpu p50':>8}"
          f"{'plain p50':>10}{'ratio':>7}{'cold p50':>9}{'p95':>7}{'cpu p50':>8}")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in corpus.games:
            for size in SIZES:
                r = measure(corpus, game, size, args.runs, args.cold, Path(tmp))
                results.append(r)
                cold = (f"{r.cold.median:>9.2f}{r.cold.p95:>7.2f}{r.cold.cpu_median:>8.2f}" if r.cold
                        else f"{'-':>9}{'-':>7}{'-':>8}")
                print(f"{game:<22}{size:<9}{r.pages:>6} {r.density:<8}{r.sheet.median:>9.2f}{r.sheet.p95:>7.2f}"
                      f"{r.sheet.cpu_median:>8.2f}{r.baseline.median:>10.2f}{r.ratio:>7.2f}{cold}")
    load_after = os.getloadavg()
    warm, warm_cpu = max(r.sheet.median for r in results), max(r.sheet.cpu_median for r in results)
    cold_wall = max((r.cold.median for r in results if r.cold), default=0.0)
    cold_cpu = max((r.cold.cpu_median for r in results if r.cold), default=0.0)
    print(f"load average after: {load_after[0]:.2f}. Times in seconds (cpu: of the process and its children).")
    for what, wall, cpu, budget in (("warm", warm, warm_cpu, BUDGET_S), ("cold", cold_wall, cold_cpu, COLD_BUDGET_S)):
        print(f"slowest {what} median: wall {wall:.2f} s ({'within' if wall <= budget else 'OVER'} the "
              f"{budget:.0f} s budget per PDF on this machine now), cpu {cpu:.2f} s "
              f"({'within' if cpu <= budget else 'OVER'} the budget: the work itself, what an idle "
              f"machine's wall time would be)")
    worst_cpu = max(warm_cpu - BUDGET_S, cold_cpu - COLD_BUDGET_S)
    if args.json:
        data = {"load_before": load_before, "load_after": load_after, "corpus_load_s": load_s,
                "first_render_s": first_s, "budget_s": BUDGET_S, "cold_budget_s": COLD_BUDGET_S,
                "games": [asdict(r) | {"ratio": r.ratio} for r in results]}
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0 if worst_cpu <= 0 else 1


if __name__ == "__main__":
    sys.exit(main())
