"""Benchmark search relevance and CPU cost against SQLite FTS5, side by side in one run.

Relevance: each question of a query file (``{"query", "game", "want": [{"doc", "section"?,
"paragraph"?}], "style"?, "names_game"?, "faq"?}``) is answered at rank r when the r-th hit's source
meets one of its ``want`` entries by the rule of ``../shared/CONTRACT.md`` (doc equal; paragraph equal
if given; section a case-insensitive substring of the hit's section or title). Reports recall@1,
recall@3 and MRR (over the top 10) for three engines built from the same corpus in the same run:

- ``search``: ``engine.search`` (``SearchIndex.search``, the call the CLI and the web app make);
- ``no-asked``: the same search over an index built without the ``asked`` field (players'
  phrasings), to measure what that field brings (issue 16);
- ``fts5``: SQLite FTS5 ``bm25()`` over the same paragraphs' title, errata-corrected text, ``short``
  and ``asked`` (Porter stemming, the question's words OR-ed, same game filter): the plain full-text
  query search has to beat (issue 27).

Question sets: DEV = ``../shared/search-queries.json`` + ``bench/search-queries.json`` +
``bench/search-dev*.json`` + ``bench/search-test.json`` (the sets the search is tuned on; the last
three written blind from the books, ``search-test.json`` held out until issue 27 froze a new test
set); TEST = ``bench/search-blind-2.json`` (130 questions written blind, 46 naming no game, see
``bench/search-blind-2.README.md``; never tuned on: ``--misses`` lists dev misses only, ``--dev-only``
leaves it out while tuning). Each set is broken down by ``style`` (keyword, question, slang,
situational, faq, typo; the older sets say plain or slang), by the game that answers (the game of the
first ``want``), and into the questions naming no game (``game`` null, ``names_game`` false) and the
long ones (:data:`LONG_WORDS` words or more). ``dev/unfiltered`` runs the development questions that
carry a game filter but do not name their game with no filter: what inferring the game from the
words is worth. Each question is searched with its own ``game``; ``--no-game`` searches every game
for every question.

CPU cost: in-process time of one query, end to end (hits, total and snippets), p50 and p95 over all
questions repeated, and over the long ones, for each engine, after one warm-up pass; the searcher is
opened once. The thread's CPU time is the measure (the wall clock beside it also counts the time
other processes held the shared cores); the ratio to FTS5 is printed for p50 and p95.

    .venv/bin/python bench/search_bench.py [--repeat N] [--no-game] [--misses] [--json FILE] [--lenient] [--dev-only]
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
from engine.search import SearchIndex, build_index  # noqa: E402

SHARED_QUERIES = ROOT.parent / "shared" / "search-queries.json"
OWN_QUERIES = ROOT / "bench" / "search-queries.json"
DEV_GLOB = "search-dev*.json"  # more development questions (bench/search-dev-a.json, ...)
OLD_TEST = ROOT / "bench" / "search-test.json"  # the held-out set until issue 27: development data now
TEST_QUERIES = ROOT / "bench" / "search-blind-2.json"
TOP = 10
LONG_WORDS = 20  # a question of this many words or more is "long" (mostly a table story, then the question)

Source = dict[str, Any]
Engine = Callable[[str, "str | None", int], list[Source]]


@dataclass(frozen=True)
class Question:
    """One benchmark question and the sources that answer it."""

    query: str
    game: str | None
    want: tuple[dict[str, str], ...]
    style: str | None = None
    names_game: bool = False
    faq: bool = False

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Question:
        """Return the question of one entry of a query file."""
        return cls(str(data["query"]), data.get("game"), tuple(data["want"]), data.get("style"),
                   bool(data.get("names_game")), bool(data.get("faq")))


SUBSETS: dict[str, Callable[[Question], bool]] = {
    "slang": lambda q: q.style == "slang",
    "names_game": lambda q: q.names_game,
    "faq": lambda q: q.faq,
}


def load_questions(path: Path) -> list[Question]:
    """Return the questions of the query file at *path*."""
    return [Question.from_json(q) for q in json.loads(path.read_text(encoding="utf-8"))]


def dev_questions() -> list[Question]:
    """Return the development questions: the shared set, ours, ``bench/search-dev*.json`` and the old test set."""
    dev: list[Question] = []
    for path in (SHARED_QUERIES, OWN_QUERIES, *sorted(OWN_QUERIES.parent.glob(DEV_GLOB)), OLD_TEST):
        if path.is_file():
            dev += load_questions(path)
    return dev


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

def search_engine(index: SearchIndex) -> Engine:
    """Return the engine under test: ``SearchIndex.search`` (the function the CLI and web app call)."""
    def run(query: str, game: str | None, limit: int) -> list[Source]:
        return [h.to_json() for h in index.search(query, game, limit).hits]
    return run


def fts5_engine(corpus: Corpus) -> tuple[Engine, sqlite3.Connection]:
    """Return the baseline: SQLite FTS5 bm25 over title, corrected text, ``short`` and ``asked``."""
    con = sqlite3.connect(":memory:", check_same_thread=False)
    con.execute("CREATE VIRTUAL TABLE para USING fts5(id UNINDEXED, game UNINDEXED, source UNINDEXED, "
                "title, text, short, asked, tokenize='porter unicode61')")
    con.executemany("INSERT INTO para VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(p.id, p.game, json.dumps(p.source.to_json()), p.title, corpus.text_of(p.id),
                      p.short or "", "\n".join(p.asked)) for p in corpus])
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
    ranks: tuple[int | None, ...] = ()

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
            ranks=tuple(ranks),
        )


def relevance(engine: Engine, questions: Sequence[Question], use_game: bool) -> Relevance:
    """Return how well *engine* answers *questions* (each with its game filter if *use_game*)."""
    ranks: list[int | None] = []
    tops: list[list[str]] = []
    for q in questions:
        hits = engine(q.query, q.game if use_game else None, TOP)
        ranks.append(rank_of(hits, q))
        tops.append([h["id"] for h in hits[:3]])
    return Relevance.from_ranks(questions, ranks, tops)


def detection(index: SearchIndex, corpus: Corpus, questions: Sequence[Question]) -> int:
    """Return how many *questions* (each naming its game, with no filter) get that game detected.

    The game of a question is the game of the document of its first ``want``.
    """
    right = 0
    for q in questions:
        game = corpus.documents[q.want[0]["doc"]].game
        right += index.search(q.query, None, 1).detected_game == game
    return right


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


def _row(report: dict[str, Any], name: str, ename: str, rel: Relevance) -> None:
    report.setdefault(name, {})[ename] = {"n": rel.n, "recall@1": round(rel.recall1, 3),
                                          "recall@3": round(rel.recall3, 3), "mrr": round(rel.mrr, 3)}
    print(f"{name:<24} {rel.n:>3}  {ename:<8} {rel.recall1:>8.3f} {rel.recall3:>8.3f} {rel.mrr:>6.3f}")


def breakdowns(corpus: Corpus, questions: Sequence[Question]) -> dict[str, list[int]]:
    """Return the subsets of *questions* reported on their own: by style, by answering game, and more."""
    out: dict[str, list[int]] = {}
    for i, q in enumerate(questions):
        keys = []
        if q.style:
            keys.append(f"style={q.style}")
        doc = corpus.documents.get(q.want[0]["doc"])
        if doc is not None:
            keys.append(f"game={doc.game}")
        for sub, keep in SUBSETS.items():
            if keep(q):
                keys.append(sub)
        if q.game is None and not q.names_game:
            keys.append("no_game_named")
        if len(q.query.split()) >= LONG_WORDS:
            keys.append("long")
        for key in keys:
            out.setdefault(key, []).append(i)
    return dict(sorted(out.items()))


def measure_set(report: dict[str, Any], corpus: Corpus, name: str, questions: Sequence[Question],
                engines: dict[str, Engine], use_game: bool, misses: bool) -> None:
    """Print (and record in *report*) the relevance of every engine on one set and its breakdowns."""
    ranks: dict[str, list[int | None]] = {}
    for ename, engine in engines.items():
        rel = relevance(engine, questions, use_game)
        ranks[ename] = list(rel.ranks)
        _row(report["relevance"], name, ename, rel)
        if misses and ename == "search" and name == "dev":
            for query, rank, top in rel.misses:
                print(f"           miss rank={rank}: {query!r} -> {', '.join(top)}")
    for sub, chosen in breakdowns(corpus, questions).items():
        for ename in engines:
            if ename == "no-asked":
                continue
            rel = Relevance.from_ranks([questions[i] for i in chosen], [ranks[ename][i] for i in chosen],
                                       [[] for _ in chosen])
            _row(report["relevance"], f"{name}/{sub}", ename, rel)
    ours, bare, fts = (report["relevance"][name][e] for e in ("search", "no-asked", "fts5"))
    for label, other in (("asked field gain", bare), ("gain over fts5", fts)):
        delta = {k: round(ours[k] - other[k], 3) for k in ("recall@1", "recall@3", "mrr")}
        report["relevance"][name][label.replace(" ", "_")] = delta
        print(f"{name:<24}      {label}: recall@1 {delta['recall@1']:+.3f}, "
              f"recall@3 {delta['recall@3']:+.3f}, MRR {delta['mrr']:+.3f}")


def unfiltered(questions: Sequence[Question]) -> list[Question]:
    """Return the questions that carry a game filter but do not name their game, the filter taken off."""
    return [Question(q.query, None, q.want, q.style, q.names_game, q.faq) for q in questions
            if q.game is not None and not q.names_game]


def measure_cost(report: dict[str, Any], engines: dict[str, Engine], questions: Sequence[Question],
                 repeat: int, use_game: bool) -> None:
    """Print (and record) CPU and wall-clock p50/p95 per query of the search and FTS5, all and long ones."""
    long_ones = [q for q in questions if len(q.query.split()) >= LONG_WORDS]
    print(f"\ncost per query, in-process, {len(questions)} questions ({len(long_ones)} long) x {repeat} passes "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"{'engine':<8} {'which':<5} {'cpu p50':>8} {'cpu p95':>8}   {'wall p50':>8} {'wall p95':>8}")
    cpu_of: dict[tuple[str, str], tuple[float, float]] = {}
    for ename in ("search", "fts5"):
        for which, chosen in (("all", questions), ("long", long_ones)):
            if not chosen:
                continue
            wall, cpu = latency(engines[ename], chosen, repeat, use_game)
            p50, p95 = statistics.median(wall), percentile(wall, 95)
            c50, c95 = statistics.median(cpu), percentile(cpu, 95)
            cpu_of[ename, which] = (c50, c95)
            report["latency_ms"].setdefault(ename, {})[which] = {
                "cpu_p50": round(c50, 3), "cpu_p95": round(c95, 3), "p50": round(p50, 3), "p95": round(p95, 3),
                "mean": round(statistics.fmean(wall), 3), "n": len(wall)}
            print(f"{ename:<8} {which:<5} {c50:>8.2f} {c95:>8.2f}   {p50:>8.2f} {p95:>8.2f}")
    for which in ("all", "long"):
        if ("search", which) in cpu_of:
            ours, base = cpu_of["search", which], cpu_of["fts5", which]
            r50, r95 = (o / b if b else float("inf") for o, b in zip(ours, base, strict=True))
            report["latency_ms"][f"cpu_ratio_{which}"] = {"p50": round(r50, 2), "p95": round(r95, 2)}
            print(f"search/fts5 CPU ratio ({which}): p50 {r50:.2f}x, p95 {r95:.2f}x")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the report; return the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=20, help="latency passes over every question (default 20)")
    ap.add_argument("--lenient", action="store_true", help="benchmark a corpus that does not validate yet")
    ap.add_argument("--no-game", action="store_true", help="search every game, ignoring each question's game")
    ap.add_argument("--misses", action="store_true", help="list the DEV questions not answered at rank 1")
    ap.add_argument("--json", type=Path, help="also write the numbers to this file")
    ap.add_argument("--dev-only", action="store_true",
                    help="measure the development set only (while tuning: the test set is not looked at)")
    args = ap.parse_args(argv)

    corpus = load(args.lenient)
    sets = {"dev": dev_questions()}
    if TEST_QUERIES.is_file() and not args.dev_only:
        sets["test"] = load_questions(TEST_QUERIES)
    use_game = not args.no_game
    report: dict[str, Any] = {"paragraphs": len(corpus), "game_filter": use_game, "relevance": {},
                              "latency_ms": {}}
    with tempfile.TemporaryDirectory(prefix="runecodex-bench-") as tmp:
        t0 = time.perf_counter()
        index_dir = build_index(Path(tmp) / "index", corpus=corpus)
        report["index_build_s"] = round(time.perf_counter() - t0, 2)
        bare_dir = build_index(Path(tmp) / "index-no-asked", corpus=corpus, without=("asked",))
        index = SearchIndex(index_dir)
        engines: dict[str, Engine] = {"search": search_engine(index), "no-asked": search_engine(SearchIndex(bare_dir))}
        t0 = time.perf_counter()
        engines["fts5"], con = fts5_engine(corpus)
        report["fts5_build_s"] = round(time.perf_counter() - t0, 2)
        asked = sum(1 for p in corpus if p.asked)

        print(f"Search benchmark: {len(corpus)} paragraphs ({asked} with asked phrasings), game filter "
              f"{'per question' if use_game else 'off'}, index build {report['index_build_s']} s, "
              f"fts5 {report['fts5_build_s']} s")
        print(f"\n{'set':<24} {'n':>3}  {'engine':<8} {'recall@1':>8} {'recall@3':>8} {'MRR':>6}")
        for name, questions in sets.items():
            measure_set(report, corpus, name, questions, engines, use_game, args.misses)
            naming = [q for q in questions if q.names_game and q.game is None]
            if naming:
                detected = detection(index, corpus, naming)
                report["relevance"][name]["game_detection"] = {"n": len(naming), "correct": detected}
                print(f"{name:<24}      game named in the question detected: {detected}/{len(naming)} "
                      f"(questions with no game filter)")
        if use_game:
            bare = unfiltered(sets["dev"])
            for ename in ("search", "fts5"):
                _row(report["relevance"], "dev/unfiltered", ename, relevance(engines[ename], bare, True))
        measure_cost(report, engines, [q for qs in sets.values() for q in qs], args.repeat, use_game)
        con.close()
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
