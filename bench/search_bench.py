"""Benchmark search relevance and latency against a plain BM25 baseline, in one run.

Relevance: each question of a query file (``{"query", "game", "want": [{"doc", "section"?,
"paragraph"?}]}``) is answered at rank r when the r-th hit's source meets one of its ``want``
entries by the rule of ``../shared/CONTRACT.md`` (doc equal; paragraph equal if given; section a
case-insensitive substring of the hit's section or title). Reports recall@1, recall@3 and MRR (over
the top 10) for whoosh (``engine.search``) and for the baseline: SQLite FTS5 ``bm25()`` over the same
paragraphs (title and errata-corrected text, Porter stemming, the question's words OR-ed, same game
filter), both built from the same corpus in the same run.

Question sets: ``../shared/search-queries.json`` (the project's acceptance set) and
``bench/search-queries.json`` (ours: from the Rune Age FAQ, the worked examples and the rules of all
four games), reported separately. Each question is searched within its own game (``--no-game``:
across all games).

Latency: in-process time of one query, end to end (hits, total and snippets), p50 and p95 over all
questions repeated, for both engines, after one warm-up pass; the whoosh searcher is opened once.
The thread's CPU time is reported beside the wall clock.

    .venv/bin/python bench/search_bench.py [--repeat N] [--no-game] [--misses] [--json FILE] [--lenient]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.corpus import Corpus, get_corpus, read_corpus  # noqa: E402
from engine.errors import CorpusError  # noqa: E402
from engine.search import SearchIndex  # noqa: E402
from engine.search_index import build_index  # noqa: E402

SHARED_QUERIES = ROOT.parent / "shared" / "search-queries.json"
OWN_QUERIES = ROOT / "bench" / "search-queries.json"
TOP = 10

Source = dict[str, Any]
Engine = Callable[[str, "str | None", int], list[Source]]


@dataclass(frozen=True)
class Question:
    """One benchmark question and the sources that answer it."""

    query: str
    game: str | None
    want: tuple[dict[str, str], ...]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Question:
        """Return the question of one entry of a query file."""
        return cls(str(data["query"]), data.get("game"), tuple(data["want"]))


def load_questions(path: Path) -> list[Question]:
    """Return the questions of the query file at *path*."""
    return [Question.from_json(q) for q in json.loads(path.read_text(encoding="utf-8"))]


def meets(source: Source, title: str, want: dict[str, str]) -> bool:
    """Return whether a hit (its source and title) meets one ``want`` entry (CONTRACT.md's rule)."""
    if source.get("doc") != want["doc"]:
        return False
    if want.get("paragraph") is not None and str(source.get("paragraph")) != str(want["paragraph"]):
        return False
    if want.get("section"):
        needle = want["section"].lower()
        return needle in (source.get("section") or "").lower() or needle in title.lower()
    return True


def rank_of(hits: Sequence[Source], question: Question) -> int | None:
    """Return the 1-based rank of the first hit that answers *question*, or ``None``."""
    for i, hit in enumerate(hits, 1):
        if any(meets(hit["source"], hit["title"], w) for w in question.want):
            return i
    return None


# --------------------------------------------------------------------------- the two engines

def whoosh_engine(index: SearchIndex) -> Engine:
    """Return the engine under test: ``SearchIndex.search`` (the function the CLI and web app call)."""
    def run(query: str, game: str | None, limit: int) -> list[Source]:
        return [h.to_json() for h in index.search(query, game, limit).hits]
    return run


def fts5_engine(corpus: Corpus) -> tuple[Engine, sqlite3.Connection]:
    """Return the baseline: SQLite FTS5 bm25 over title and errata-corrected text of every paragraph."""
    con = sqlite3.connect(":memory:", check_same_thread=False)
    con.execute("CREATE VIRTUAL TABLE para USING fts5(id UNINDEXED, game UNINDEXED, source UNINDEXED, "
                "title, text, tokenize='porter unicode61')")
    con.executemany("INSERT INTO para VALUES (?, ?, ?, ?, ?)",
                    [(p.id, p.game, json.dumps(p.source.to_json()), p.title, corpus.text_of(p.id))
                     for p in corpus])
    con.commit()
    sql = ("SELECT id, title, source, snippet(para, 4, '<mark>', '</mark>', '…', 24) "
           "FROM para WHERE para MATCH ? {filter} ORDER BY rank LIMIT ?")
    count = "SELECT count(*) FROM para WHERE para MATCH ? {filter}"

    def run(query: str, game: str | None, limit: int) -> list[Source]:
        words = re.findall(r"\w+", query.lower())
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        flt, params = ("AND game = ?", (match, game)) if game else ("", (match,))
        rows = con.execute(sql.format(filter=flt), (*params, limit)).fetchall()
        total = con.execute(count.format(filter=flt), params).fetchone()[0]
        return [{"id": r[0], "title": r[1], "source": json.loads(r[2]), "snippet": r[3], "total": total}
                for r in rows]
    return run, con


# --------------------------------------------------------------------------- measuring

@dataclass(frozen=True)
class Relevance:
    """Recall@1, recall@3 and MRR of one engine on one question set."""

    n: int
    recall1: float
    recall3: float
    mrr: float
    misses: tuple[tuple[str, int | None, list[str]], ...]

    @classmethod
    def from_ranks(cls, questions: Sequence[Question], ranks: Sequence[int | None],
                   tops: Sequence[list[str]]) -> Relevance:
        """Return the measures of *ranks* (one per question, ``None`` = not in the top 10)."""
        n = len(ranks) or 1
        return cls(
            n=len(ranks),
            recall1=sum(1 for r in ranks if r == 1) / n,
            recall3=sum(1 for r in ranks if r is not None and r <= 3) / n,
            mrr=sum(1 / r for r in ranks if r is not None) / n,
            misses=tuple((q.query, r, top) for q, r, top in zip(questions, ranks, tops, strict=True)
                         if r is None or r > 1),
        )


def relevance(engine: Engine, questions: Sequence[Question], use_game: bool) -> Relevance:
    """Return how well *engine* answers *questions*."""
    ranks: list[int | None] = []
    tops: list[list[str]] = []
    for q in questions:
        hits = engine(q.query, q.game if use_game else None, TOP)
        ranks.append(rank_of(hits, q))
        tops.append([h["id"] for h in hits[:3]])
    return Relevance.from_ranks(questions, ranks, tops)


def latency(engine: Engine, questions: Sequence[Question], repeat: int,
            use_game: bool) -> tuple[list[float], list[float]]:
    """Return the per-query wall-clock and CPU times (ms) of *repeat* passes over *questions*.

    One warm-up pass comes first (postings and stems caches filled, as in a running server). The
    CPU time of the thread is reported beside the wall clock: on a shared machine the wall clock
    also counts the time other processes held the CPU.
    """
    for q in questions:
        engine(q.query, q.game if use_game else None, TOP)
    wall, cpu = [], []
    for _ in range(repeat):
        for q in questions:
            c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
            engine(q.query, q.game if use_game else None, TOP)
            wall.append((time.perf_counter_ns() - t0) / 1e6)
            cpu.append((time.thread_time_ns() - c0) / 1e6)
    return wall, cpu


def percentile(values: Sequence[float], p: float) -> float:
    """Return the *p*-th percentile (nearest rank) of *values*."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


# --------------------------------------------------------------------------- main

def load(lenient: bool) -> Corpus:
    """Return the corpus: validated, or with *lenient* whatever reads (the corpus grows while we work)."""
    try:
        return get_corpus()
    except CorpusError as exc:
        if not lenient:
            raise
        corpus, problems = read_corpus()
        print(f"warning: corpus has {len(problems)} problem(s) ({exc.problems[0]}); "
              "benchmarking what reads", file=sys.stderr)
        return corpus


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the report; return the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=20, help="latency passes over every question (default 20)")
    ap.add_argument("--lenient", action="store_true", help="benchmark a corpus that does not validate yet")
    ap.add_argument("--no-game", action="store_true", help="search every game, ignoring each question's game")
    ap.add_argument("--misses", action="store_true", help="list the questions not answered at rank 1")
    ap.add_argument("--json", type=Path, help="also write the numbers to this file")
    args = ap.parse_args(argv)

    corpus = load(args.lenient)
    sets = {"shared": load_questions(SHARED_QUERIES)} if SHARED_QUERIES.is_file() else {}
    if OWN_QUERIES.is_file():
        sets["own"] = load_questions(OWN_QUERIES)
    use_game = not args.no_game
    report: dict[str, Any] = {"paragraphs": len(corpus), "game_filter": use_game, "relevance": {},
                              "latency_ms": {}}
    with tempfile.TemporaryDirectory(prefix="runecodex-bench-") as tmp:
        t0 = time.perf_counter()
        index_dir = build_index(Path(tmp) / "index", corpus=corpus)
        report["whoosh_build_s"] = round(time.perf_counter() - t0, 2)
        engines: dict[str, Engine] = {"whoosh": whoosh_engine(SearchIndex(index_dir))}
        t0 = time.perf_counter()
        engines["fts5"], con = fts5_engine(corpus)
        report["fts5_build_s"] = round(time.perf_counter() - t0, 2)

        print(f"Search benchmark: {len(corpus)} paragraphs, game filter {'on' if use_game else 'off'}, "
              f"index build whoosh {report['whoosh_build_s']} s, fts5 {report['fts5_build_s']} s")
        print(f"\n{'set':<8} {'n':>3}  {'engine':<7} {'recall@1':>8} {'recall@3':>8} {'MRR':>6}")
        for name, questions in sets.items():
            report["relevance"][name] = {}
            for ename, engine in engines.items():
                rel = relevance(engine, questions, use_game)
                report["relevance"][name][ename] = {
                    "n": rel.n, "recall@1": round(rel.recall1, 3), "recall@3": round(rel.recall3, 3),
                    "mrr": round(rel.mrr, 3)}
                print(f"{name:<8} {rel.n:>3}  {ename:<7} {rel.recall1:>8.3f} {rel.recall3:>8.3f} "
                      f"{rel.mrr:>6.3f}")
                if args.misses and ename == "whoosh":
                    for query, rank, top in rel.misses:
                        print(f"           miss rank={rank}: {query!r} -> {', '.join(top)}")

        everything = [q for qs in sets.values() for q in qs]
        print(f"\nlatency, in-process, {len(everything)} questions x {args.repeat} passes "
              f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
        print(f"{'engine':<7} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}   {'cpu p50':>8} {'cpu p95':>8}")
        stats: dict[str, tuple[float, float]] = {}
        for ename, engine in engines.items():
            wall, cpu = latency(engine, everything, args.repeat, use_game)
            p50, p95 = statistics.median(wall), percentile(wall, 95)
            c50, c95 = statistics.median(cpu), percentile(cpu, 95)
            stats[ename] = (p50, p95)
            report["latency_ms"][ename] = {"p50": round(p50, 3), "p95": round(p95, 3),
                                           "mean": round(statistics.fmean(wall), 3), "n": len(wall),
                                           "cpu_p50": round(c50, 3), "cpu_p95": round(c95, 3)}
            print(f"{ename:<7} {p50:>8.2f} {p95:>8.2f} {statistics.fmean(wall):>8.2f}   {c50:>8.2f} {c95:>8.2f}")
        ratio = stats["whoosh"][0] / stats["fts5"][0] if stats["fts5"][0] else float("inf")
        report["latency_ms"]["p50_ratio_whoosh_over_fts5"] = round(ratio, 2)
        print(f"whoosh/fts5 p50 ratio: {ratio:.1f}x")
        con.close()
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
