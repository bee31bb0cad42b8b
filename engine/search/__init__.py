"""Search the rules: find the paragraph that answers a player's question.

The one public entry point is :func:`search` (and :meth:`SearchIndex.search`, the same call on an
index the caller holds: the web app's versioned snapshot, the benchmark)::

    search(query, game=None, limit=20, offset=0, detect_game=True) -> SearchResult

``runecodex search`` and ``GET /api/search`` print its ``to_json()``, the contract's search shape
plus some fields::

    {"query", "total", "hits": [{"id", "title", "snippet", "score", "source", "game", "kind",
     "locator", "short"}], "game", "detected_game", "offset", "limit", "next_offset", "corrected"?}

- ``game`` is the game searched: the caller's, else the one the question names (``detected_game``,
  e.g. "how many cards in a runeslingers deck"); ``detect_game=False`` searches every game.
- ``snippet`` is the sentence that answers (or the paragraph's one-line ``short``), HTML-escaped,
  its topic words (never question words) in ``<mark>``, the only markup it contains.
- ``locator`` reads as the book prints it ("Rules Reference 41.1", "Rune Age Rulebook p. 12,
  Conduct a Siege": ``Corpus.locator``).
- ``offset``/``next_offset`` page through every match (``next_offset`` is ``null`` on the last page).
- ``corrected`` is the question actually run when a misspelt word was replaced.

The package: ``index.py`` builds the whoosh index (fields and their boosts), ``query.py`` reads the
question (game, topic words, typos, whoosh's multi-field parser, glossary expansions, snippets),
``rank.py`` scores (whoosh's BM25F and a kind prior). The index is built on first use and rebuilt
when the corpus files change; a searcher is opened once per thread and reopened after a rebuild.
"""

from __future__ import annotations

import html
import json
import os
import sys
import textwrap
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from whoosh import index as whoosh_index
from whoosh.query import Term
from whoosh.searching import Searcher

from engine.corpus import Signature, Source, default_root, version_signature
from engine.errors import CorpusError, UnreadableInputError
from engine.search import dense
from engine.search import rank as ranking
from engine.search.index import (
    META_FILE,
    RANKED_FIELDS,
    Expansion,
    build_index,
    default_index_dir,
    ensure_index,
    read_meta,
)
from engine.search.locate import Place, locate, places_of
from engine.search.query import (
    MAX_QUERY_CHARS,
    ExpansionTable,
    Question,
    Vocabulary,
    best_sentence,
    highlight_html,
    parser,
    sentences,
    understand,
)
from engine.search.query import detect_game as detect_game_name
from engine.search.rank import fuse, infer_game, params, rank_plain, rerank, weighting, word_scores
from engine.search.spell import Speller
from engine.search.tables import Tables, tables_for

__all__ = ["SearchHit", "SearchIndex", "SearchResult", "build_index", "default_index_dir", "ensure_index",
           "search"]

MAX_LIMIT = 100
DEFAULT_LIMIT = 20
RECHECK_SECONDS = 2.0
RERANK_WINDOW = 30
MAX_CACHED_STEMS = 20_000


@dataclass(frozen=True)
class SearchHit:
    """One paragraph found by a search, with its score, answering sentence and locator."""

    id: str
    title: str
    snippet: str
    score: float
    source: Source
    game: str
    kind: str
    locator: str
    short: str | None = None

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any], score: float, snippet_html: str) -> SearchHit:
        """Return the hit of one whoosh document's stored fields."""
        src = json.loads(stored["source"])
        return cls(id=stored["id"], title=stored["stored_title"], snippet=snippet_html, score=round(score, 3),
                   source=Source(doc=src["doc"], page=src.get("page"), section=src.get("section"),
                                 paragraph=src.get("paragraph")),
                   game=stored["game"], kind=stored["kind"], locator=stored.get("locator", ""),
                   short=stored.get("stored_short") or None)

    def to_json(self) -> dict[str, Any]:
        """Return the contract's hit object (plus ``game``, ``kind``, ``locator`` and ``short``)."""
        return {"id": self.id, "title": self.title, "snippet": self.snippet, "score": self.score,
                "source": self.source.to_json(), "game": self.game, "kind": self.kind,
                "locator": self.locator, "short": self.short}


@dataclass(frozen=True)
class SearchResult:
    """The answer to one search: how many paragraphs matched and one page of them, best first."""

    query: str
    total: int
    hits: tuple[SearchHit, ...] = ()
    game: str | None = None
    detected_game: str | None = None
    corrected: str | None = None
    offset: int = 0
    limit: int = DEFAULT_LIMIT
    inferred: bool = False  # detected_game was inferred from the question's words (it names no game)

    @property
    def next_offset(self) -> int | None:
        """Return the offset of the next page, or ``None`` on the last one."""
        following = self.offset + len(self.hits)
        return following if following < self.total and self.hits else None

    def to_json(self) -> dict[str, Any]:
        """Return the contract's JSON shape ``{"query", "total", "hits"}`` plus paging and game fields."""
        out: dict[str, Any] = {"query": self.query, "total": self.total,
                               "hits": [h.to_json() for h in self.hits], "game": self.game,
                               "detected_game": self.detected_game,
                               "detected_by": ("words" if self.inferred else "name") if self.detected_game else None,
                               "offset": self.offset,
                               "limit": self.limit, "next_offset": self.next_offset}
        if self.corrected is not None:
            out["corrected"] = self.corrected
        return out


@dataclass(frozen=True)
class _Opened:
    """A searcher open on one generation of the index, with what a question needs to be read."""

    target: str
    searcher: Searcher
    games: Mapping[str, str]
    fields: tuple[str, ...]
    table: ExpansionTable
    vocabulary: Vocabulary
    kinds: tuple[str, ...]
    game_docs: Mapping[str, frozenset[int]]
    parse: Any
    numeric: frozenset[int]
    lines: tuple[tuple[frozenset[str], ...], ...]
    stored: tuple[Mapping[str, Any], ...]  # every paragraph's stored fields, read once (hits need them)
    tables: Tables  # the scoring arrays of this generation (shared by every thread)
    prior: NDArray[np.float32]  # each paragraph's kind prior
    numbers: NDArray[np.bool_]  # the paragraphs stating a number
    vectors: NDArray[np.float32] | None  # the paragraphs' meaning (engine/search/dense.py), if the model loads
    places: tuple[Place, ...]  # where each paragraph is printed (a locator typed in the search box)
    postings: dict[tuple[str, tuple[str, ...] | None], frozenset[int]] = field(default_factory=dict)

    @classmethod
    def from_dir(cls, target: str) -> _Opened:
        """Return a searcher open on the index generation at *target*."""
        meta = read_meta(Path(target))
        if meta is None:
            raise UnreadableInputError(f"no search index at {target!r} (run `runecodex index`)", path=target)
        ix = whoosh_index.open_dir(target)
        searcher = ix.searcher(weighting=weighting())
        reader = searcher.reader()
        fields = tuple(f for f in RANKED_FIELDS if f in ix.schema.names())
        games = dict(meta.get("games", {}))
        table = ExpansionTable.from_items(Expansion.from_json(e) for e in meta.get("expansions", []))
        stored = tuple(reader.stored_fields(d) for d in range(reader.doc_count_all()))
        tables = tables_for(target, reader, fields, tuple(games), [str(f.get("game", "")) for f in stored],
                            params())
        vocabulary = Vocabulary(reader, fields, frozenset(meta.get("known_words", [])), tables.words,
                                tables.stem_ids, Speller(tables.words), english=dense.english_words())
        kinds = tuple(str(f.get("kind", "")) for f in stored)
        numeric = frozenset(d for d, f in enumerate(stored) if f.get("numeric"))
        lines = tuple(tuple(frozenset(line) for line in json.loads(f.get("lines", "[]"))) for f in stored)
        game_docs = {g: frozenset(searcher.docs_for_query(Term("game", g))) for g in games}
        qp = parser(ix.schema, fields)
        prior = np.array([ranking.KIND_PRIOR.get(k, 1.0) for k in kinds], dtype=np.float32)
        numbers = np.array([d in numeric for d in range(len(stored))], dtype=bool)
        vectors = dense.matrix_for(target, [str(f.get("dense_text", "")) for f in stored])
        return cls(target, searcher, games, fields, table, vocabulary, kinds, game_docs, qp.parse, numeric,
                   lines, stored, tables, prior, numbers, vectors, places_of(stored))

    def docs_with(self, stem: str, fields: tuple[str, ...] | None = None) -> frozenset[int]:
        """Return the paragraphs holding the stemmed word in any of *fields* (all ranked fields if None).

        Read from whoosh's postings once per searcher, then cached.
        """
        key = (stem, fields)
        found = self.postings.get(key)
        if found is None:
            reader = self.searcher.reader()
            ids: set[int] = set()
            for f in (fields if fields is not None else self.fields):
                if (f, stem) in reader:
                    ids.update(reader.postings(f, stem).all_ids())
            found = frozenset(ids)
            if len(self.postings) > MAX_CACHED_STEMS:
                self.postings.clear()
            self.postings[key] = found
        return found

    def similarity(self, parts: Sequence[tuple[str, float]]) -> NDArray[np.float32] | None:
        """Return every paragraph's similarity in meaning to a question read in weighted *parts* (its
        question and its table story: ``Question.parts``), or ``None`` without the model."""
        if self.vectors is None or not parts:
            return None
        if ranking.DENSE_PARTS and len(parts) > 1:
            meaning = dense.meaning(parts, ranking.DENSE_PARTS)
        else:
            whole = dense.embed([" ".join(text for text, _ in parts)])
            meaning = whole[0] if whole is not None else None
        return self.vectors @ meaning if meaning is not None else None

    def infer(self, weights: Sequence[tuple[str, float]]) -> str | None:
        """Return the game the weighted stems of a question naming none point to (``rank.infer_game``)."""
        return infer_game(self.tables, self.prior, weights)

    def idf(self, stem: str) -> float:
        """Return the rarity of a stemmed word in the paragraphs (for picking the answering sentence)."""
        return self.tables.rarity(stem)


def _check(query: object, limit: object, offset: object) -> None:
    if not isinstance(query, str):
        raise UnreadableInputError(f"the query must be text, got {query!r}", path="query")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise UnreadableInputError(f"limit must be a positive whole number, got {limit!r}", path="limit")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise UnreadableInputError(f"offset must be a whole number, 0 or more, got {offset!r}", path="offset")


class SearchIndex:
    """A search index folder, its searchers (one per thread) and, optionally, the corpus it follows.

    With *rules* set, the index is built when missing and rebuilt when those corpus files change
    (looked at no more often than every *recheck_seconds*); with ``rules=None`` the folder is used
    as it is (the web app's snapshot, the benchmark). A searcher is opened once per thread and
    reopened when a rebuild swaps the index in.
    """

    def __init__(self, index_dir: Path, rules: Path | None = None,
                 recheck_seconds: float = RECHECK_SECONDS) -> None:
        self.index_dir = Path(index_dir)
        self.rules = Path(rules) if rules is not None else None
        self.recheck_seconds = recheck_seconds
        self._local = threading.local()
        self._lock = threading.Lock()
        self._checked_at: float | None = None
        self._signature: Signature = ()

    def _maintain(self) -> None:
        """Build or rebuild the index when it is missing or the corpus files changed."""
        if self.rules is None:
            return
        checked = self._checked_at
        if checked is not None and time.monotonic() - checked < self.recheck_seconds:
            return
        if not self._lock.acquire(blocking=not (self.index_dir / META_FILE).is_file()):
            return
        try:
            checked = self._checked_at
            if checked is not None and time.monotonic() - checked < self.recheck_seconds:
                return
            signature = version_signature(self.rules)
            if signature != self._signature:
                try:
                    ensure_index(self.index_dir, self.rules)
                except CorpusError as exc:
                    if read_meta(self.index_dir) is None:
                        raise
                    print(f"runecodex: the corpus does not validate; searching the previous index "
                          f"({exc.message})", file=sys.stderr)
                self._signature = signature
            self._checked_at = time.monotonic()
        finally:
            self._lock.release()

    def _open(self) -> _Opened:
        """Return this thread's searcher, reopening it when a rebuild swapped the index in."""
        self._maintain()
        target = os.path.realpath(self.index_dir)
        opened: _Opened | None = getattr(self._local, "opened", None)
        if opened is not None and opened.target == target:
            return opened
        fresh = _Opened.from_dir(target)
        if opened is not None:
            opened.searcher.close()
        self._local.opened = fresh
        return fresh

    def games(self) -> dict[str, str]:
        """Return the games of the indexed corpus (key -> name)."""
        return dict(self._open().games)

    def understand(self, query: str, game: str | None = None, detect_game: bool = True) -> Question:
        """Return how *query* is read: its game (named, or inferred from its words), topic words and
        their weights, corrections and expansions."""
        opened = self._open()
        return understand(query, games=opened.games, chosen_game=game, detect=detect_game,
                          vocabulary=opened.vocabulary, table=opened.table, parse=opened.parse,
                          fields=opened.fields, infer=opened.infer)

    def search(self, query: str, game: str | None = None, limit: int = DEFAULT_LIMIT, offset: int = 0,
               detect_game: bool = True) -> SearchResult:
        """Return the paragraphs that best answer *query*, best first (see the module docstring)."""
        _check(query, limit, offset)
        limit = min(limit, MAX_LIMIT)
        opened = self._open()
        game = game or None
        if game is not None and game not in opened.games:
            raise UnreadableInputError(f"unknown game {game!r} (one of {', '.join(opened.games)})",
                                       path="game")
        located = self._located(opened, query, game, detect_game, offset, limit)
        if located is not None:
            return located
        question = self.understand(query, game, detect_game)
        searched = game or question.detected_game
        base = SearchResult(query=question.text, total=0, game=searched, detected_game=question.detected_game,
                            corrected=question.corrected_text(), offset=offset, limit=limit,
                            inferred=question.inferred)
        if not question.words:
            return base
        if question.plain:
            page, total = self._plain(opened, question, searched, offset, limit)
        else:
            page, total = self._with_syntax(opened, question, searched, offset, limit)
        idf_cache: dict[str, float] = {}

        def weight(stem: str) -> float:
            if stem not in idf_cache:
                idf_cache[stem] = opened.idf(stem)
            return idf_cache[stem]

        hits = []
        for docnum, score in page:
            stored = opened.stored[docnum]
            sentence = best_sentence(stored["stored_text"], stored.get("stored_short", ""), question.highlight,
                                     weight)
            hits.append(SearchHit.from_stored(stored, score, highlight_html(sentence, question.highlight)))
        return replace(base, total=total, hits=tuple(hits))

    @staticmethod
    def _located(opened: _Opened, query: str, game: str | None, detect: bool, offset: int,
                 limit: int) -> SearchResult | None:
        """Return the paragraphs a printed locator points to ("RR 41.1", "p. 12 Conduct a Siege"), or ``None``."""
        text = " ".join(query[:MAX_QUERY_CHARS].split())
        mention = detect_game_name(text, opened.games) if detect and game is None else None
        named = mention.game if mention is not None else None
        found = locate(mention.text if mention is not None and named else text, opened.places, game or named)
        if not found:
            return None
        hits = []
        for docnum in found[offset:offset + limit]:
            stored = opened.stored[docnum]
            line = stored.get("stored_short") or next(iter(sentences(stored["stored_text"])), "")
            hits.append(SearchHit.from_stored(stored, 1.0, highlight_html(line, frozenset())))
        return SearchResult(query=text, total=len(found), hits=tuple(hits), game=game or named,
                            detected_game=named, offset=offset, limit=limit)

    @staticmethod
    def _plain(opened: _Opened, question: Question, searched: str | None, offset: int,
               limit: int) -> tuple[list[tuple[int, float]], int]:
        """Return one page ``(docnum, score)`` of a plain question and the number of matches (numpy)."""
        tables = opened.tables
        scores, held = word_scores(tables, question.weights, question.phrases)
        allowed = tables.game_mask(searched) if searched else None
        line_weights = {stem: w * tables.rarity(stem) for stem, w in question.weights}
        ranked, total, value = rank_plain(scores, held, opened.prior,
                                          opened.numbers if question.quantity else None, allowed, opened.lines,
                                          line_weights, max(offset + limit, int(ranking.FUSE_DEPTH)))
        if opened.vectors is not None and total:
            # the question's topic words (typos corrected): question words and syntax never rank
            similarity = opened.similarity(question.parts)
            matched = scores > 0 if allowed is None else (scores > 0) & allowed
            ranked = fuse(ranked, similarity, matched, value)
        return ranked[offset:offset + limit], total

    @staticmethod
    def _with_syntax(opened: _Opened, question: Question, searched: str | None, offset: int,
                     limit: int) -> tuple[list[tuple[int, float]], int]:
        """Return one page of a question with syntax (phrases, ``+``, ``-``, ``NOT``: whoosh runs it)."""
        allowed = opened.game_docs[searched] if searched else None
        # whoosh scores the best offset+limit+RERANK_WINDOW; rank.rerank reorders them (kind, coverage, lines)
        results = opened.searcher.search(question.query, limit=offset + limit + RERANK_WINDOW,
                                         filter=set(allowed) if allowed else None, optimize=False)
        scored = [(hit.docnum, hit.score or 0.0, opened.kinds[hit.docnum]) for hit in results]
        word_docs = [(opened.docs_with(stem), ranking.coordination_weight(opened.idf(stem)))
                     for stem in question.stems]
        held = sum(w for _, w in word_docs) or 1.0
        coverage = {doc: sum(w for docs, w in word_docs if doc in docs) / held
                    for doc, _, _ in scored} if word_docs else {}
        answers = opened.numeric if question.quantity else frozenset()
        weights = {stem: max(opened.idf(stem), 0.0) for stem in question.stems}
        total_weight = sum(weights.values()) or 1.0
        best_line = {doc: max((sum(weights[s] for s in weights if s in line) / total_weight
                               for line in opened.lines[doc]), default=0.0) for doc, _, _ in scored}
        ranked = rerank(scored, coverage, answers, best_line)
        return ranked[offset:offset + limit], len(results)


_HANDLES: dict[tuple[str, str], SearchIndex] = {}
_HANDLES_LOCK = threading.Lock()


def index_for(index_dir: Path | None = None, rules: Path | None = None) -> SearchIndex:
    """Return the process-wide :class:`SearchIndex` of *index_dir* (``build/index``) following *rules*."""
    key_dir = Path(index_dir) if index_dir is not None else default_index_dir()
    key_rules = Path(rules) if rules is not None else default_root()
    key = (str(key_dir.absolute()), str(key_rules.absolute()))
    with _HANDLES_LOCK:
        handle = _HANDLES.get(key)
        if handle is None:
            handle = _HANDLES[key] = SearchIndex(key_dir, key_rules)
        return handle


def search(query: str, game: str | None = None, limit: int = DEFAULT_LIMIT, offset: int = 0, *,
           detect_game: bool = True, index_dir: Path | None = None) -> SearchResult:
    """Return the paragraphs that best answer *query* (optionally in one *game*), best first.

    Raises :class:`~engine.errors.UnreadableInputError` for an unknown game or a bad limit or offset;
    malformed query syntax is read as plain words. The index is built or refreshed first when needed.
    """
    return index_for(index_dir).search(query, game, limit, offset, detect_game)


# --------------------------------------------------------------------------- command line

def search_command(query: str, game: str | None, limit: int, as_json: bool, offset: int = 0,
                   detect_game: bool = True) -> int:
    """Run ``runecodex search``: print the hits (or the JSON); return the exit status."""
    result = search(query, game, limit, offset, detect_game=detect_game)
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n")
        return 0
    bold = sys.stdout.isatty()
    where = f" in {result.game}" if result.game else ""
    if result.detected_game:
        where += " (named in the question; --all-games to search every game)"
    first = result.offset + 1 if result.hits else 0
    print(f"{first}-{result.offset + len(result.hits)} of {result.total} paragraph(s){where} "
          f"for {result.query!r}")
    if result.corrected:
        print(f"(searched for {result.corrected!r})")
    for rank, hit in enumerate(result.hits, result.offset + 1):
        print(f"\n{rank:>2}. {hit.id}  {hit.title}  [{hit.locator}]")
        on, off = ("\033[1m", "\033[0m") if bold else ("", "")
        text = html.unescape(hit.snippet.replace("<mark>", on).replace("</mark>", off))
        print(textwrap.fill(text, 100, initial_indent="    ", subsequent_indent="    "))
    if result.next_offset is not None:
        print(f"\nmore: --offset {result.next_offset}")
    return 0


def index_command(out: str | None, if_stale: bool) -> int:
    """Run ``runecodex index``: build the search index (only when missing or stale with *if_stale*)."""
    index_dir = Path(out) if out else default_index_dir()
    started = time.perf_counter()
    if if_stale:
        ensure_index(index_dir)
    else:
        build_index(index_dir)
    meta = read_meta(index_dir) or {}
    print(f"search index {index_dir}: {meta.get('paragraphs', '?')} paragraphs, "
          f"built {meta.get('built_at', '?')} ({time.perf_counter() - started:.1f} s)")
    return 0
