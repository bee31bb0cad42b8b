"""Search the rules: find the paragraph that answers a player's question.

``search(query, game=None, limit=10)`` is what ``runecodex search`` and ``GET /api/search`` call; it
returns a :class:`SearchResult` whose ``to_json()`` is the contract's search shape::

    {"query": "...", "total": 42, "hits": [{"id", "title", "snippet", "score", "source",
                                            "game", "kind", "locator"}], "corrected": "..."}

``snippet`` is HTML-safe: the corpus text is escaped and the query's words are wrapped in
``<mark>...</mark>``, the only markup it contains. ``corrected`` appears when a misspelt word was
replaced by the nearest indexed word (the query actually run).

The index (``engine/search_index.py``) is built on first use and rebuilt when the corpus files
change; searchers are opened once per thread and reopened when a rebuild swaps the index in.
Ranking and query syntax are described in ``engine/search_query.py``.
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
import textwrap
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.query import Term
from whoosh.searching import Searcher

from engine.corpus import Source, default_root
from engine.errors import CorpusError, UnreadableInputError
from engine.search_index import (
    META_FILE,
    Expansion,
    build_index,
    default_index_dir,
    ensure_index,
    read_meta,
    stat_signature,
)
from engine.search_query import ExpansionTable, ParsedQuery, build_query, snippet
from engine.search_rank import Ranker, RulesWeighting

__all__ = ["SearchHit", "SearchIndex", "SearchResult", "build_index", "search"]

MAX_LIMIT = 100
RECHECK_SECONDS = 2.0


@dataclass(frozen=True)
class SearchHit:
    """One paragraph found by a search, with its score and highlighted snippet."""

    id: str
    title: str
    snippet: str
    score: float
    source: Source
    game: str
    kind: str
    locator: str

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any], score: float, snippet_html: str) -> SearchHit:
        """Return the hit of one whoosh document's stored fields."""
        src = json.loads(stored["source"])
        return cls(id=stored["id"], title=stored["title"], snippet=snippet_html, score=round(score, 3),
                   source=Source(doc=src["doc"], page=src.get("page"), section=src.get("section"),
                                 paragraph=src.get("paragraph")),
                   game=stored["game"], kind=stored["kind"], locator=stored.get("locator", ""))

    def to_json(self) -> dict[str, Any]:
        """Return the contract's hit object (plus ``game``, ``kind`` and ``locator``)."""
        return {"id": self.id, "title": self.title, "snippet": self.snippet, "score": self.score,
                "source": self.source.to_json(), "game": self.game, "kind": self.kind,
                "locator": self.locator}


@dataclass(frozen=True)
class SearchResult:
    """The answer to one search: how many paragraphs matched and the best of them, best first."""

    query: str
    total: int
    hits: tuple[SearchHit, ...] = ()
    game: str | None = None
    corrected: str | None = None

    @classmethod
    def empty(cls, query: str, game: str | None = None) -> SearchResult:
        """Return the result of a query with nothing to search for."""
        return cls(query=query, total=0, game=game)

    def to_json(self) -> dict[str, Any]:
        """Return the contract's JSON shape ``{"query", "total", "hits"}`` (plus ``game``, ``corrected``)."""
        out: dict[str, Any] = {"query": self.query, "total": self.total,
                               "hits": [h.to_json() for h in self.hits], "game": self.game}
        if self.corrected is not None:
            out["corrected"] = self.corrected
        return out


@dataclass(frozen=True)
class _Opened:
    """A searcher open on one generation of the index, with that generation's metadata."""

    target: str
    searcher: Searcher
    ranker: Ranker
    games: Mapping[str, str]
    table: ExpansionTable
    game_docs: Mapping[str, frozenset[int]]

    @classmethod
    def from_dir(cls, target: str) -> _Opened:
        """Return a searcher open on the index generation at *target*."""
        meta = read_meta(Path(target))
        if meta is None:
            raise UnreadableInputError(f"no search index at {target!r} (run `runecodex index`)", path=target)
        reader = whoosh_index.open_dir(target).reader()
        if not reader.is_atomic():  # written in one go and optimised: one segment, global doc numbers
            reader.close()
            raise UnreadableInputError(f"the search index at {target!r} has several segments; rebuild it",
                                       path=target)
        weighting = RulesWeighting()
        searcher = Searcher(reader, weighting=weighting)
        ranker = weighting.ranker = Ranker.from_searcher(searcher)
        games = dict(meta.get("games", {}))
        table = ExpansionTable.from_meta((Expansion.from_json(e) for e in meta.get("expansions", [])),
                                         meta.get("glossary_terms", {}))
        game_docs = {g: frozenset(searcher.docs_for_query(Term("game", g))) for g in games}
        return cls(target, searcher, ranker, games, table, game_docs)


class SearchIndex:
    """A search index folder, its searchers (one per thread) and, optionally, the corpus it follows.

    With *rules* set, the index is built when missing and rebuilt when those corpus files change
    (looked at no more often than every *recheck_seconds*); with ``rules=None`` the folder is used
    as it is. A searcher is opened once per thread and reopened when a rebuild swaps the index in.
    """

    def __init__(self, index_dir: Path, rules: Path | None = None,
                 recheck_seconds: float = RECHECK_SECONDS) -> None:
        self.index_dir = Path(index_dir)
        self.rules = Path(rules) if rules is not None else None
        self.recheck_seconds = recheck_seconds
        self._local = threading.local()
        self._lock = threading.Lock()
        self._checked_at: float | None = None
        self._signature: tuple[tuple[str, int, int], ...] = ()

    def _maintain(self) -> None:
        """Build or rebuild the index when it is missing or the corpus files changed.

        One thread looks (and rebuilds) at a time; while it does, the others keep searching the
        index in place, or wait for it when there is none yet.
        """
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
            signature = stat_signature(self.rules)
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

    def search(self, query: str, game: str | None = None, limit: int = 10) -> SearchResult:
        """Return the paragraphs that best answer *query*, best first (see the module docstring)."""
        if not isinstance(query, str):
            raise UnreadableInputError(f"the query must be text, got {query!r}", path="query")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise UnreadableInputError(f"limit must be a positive whole number, got {limit!r}", path="limit")
        limit = min(limit, MAX_LIMIT)
        opened = self._open()
        game = game or None
        if game is not None and game not in opened.games:
            raise UnreadableInputError(f"unknown game {game!r} (one of {', '.join(opened.games)})",
                                       path="game")
        query = " ".join(query.split())
        parsed = ParsedQuery.from_text(query)
        if parsed.is_empty():  # nothing but exclusions or operators: read it all as plain words
            parsed = ParsedQuery.plain(query)
        allowed = opened.game_docs[game] if game else None
        built = build_query(parsed, opened.ranker, opened.table, game, allowed)
        if built.query is None:
            return SearchResult.empty(query, game)
        results = opened.searcher.search(built.query, limit=limit, filter=set(allowed) if allowed else None,
                                         optimize=False)
        hits = tuple(SearchHit.from_stored(hit.fields(), hit.score or 0.0,
                                           snippet(hit["text"], built.highlight)) for hit in results)
        return SearchResult(query=query, total=len(results), hits=hits, game=game,
                            corrected=_corrected(query, built.corrected))


def _corrected(query: str, fixes: Sequence[tuple[str, str]]) -> str | None:
    """Return *query* with each misspelt word replaced by its correction, or ``None`` without any."""
    if not fixes:
        return None
    for wrong, right in fixes:
        query = re.sub(rf"(?<!\w){re.escape(wrong)}(?!\w)", right, query, flags=re.IGNORECASE)
    return query


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


def search(query: str, game: str | None = None, limit: int = 10, *,
           index_dir: Path | None = None) -> SearchResult:
    """Return the paragraphs that best answer *query* (optionally in one *game*), best first.

    Raises :class:`~engine.errors.UnreadableInputError` for an unknown game or a bad limit; malformed
    query syntax is read as plain words. The index is built or refreshed first when needed.
    """
    return index_for(index_dir).search(query, game, limit)


# --------------------------------------------------------------------------- command line

def search_command(query: str, game: str | None, limit: int, as_json: bool) -> int:
    """Run ``runecodex search``: print the hits (or the contract's JSON); return the exit status."""
    result = search(query, game, limit)
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n")
        return 0
    bold = sys.stdout.isatty()
    where = f" in {game}" if game else ""
    print(f"{len(result.hits)} of {result.total} paragraph(s){where} for {result.query!r}")
    if result.corrected:
        print(f"(searched for {result.corrected!r})")
    for rank, hit in enumerate(result.hits, 1):
        print(f"\n{rank:>2}. {hit.id}  {hit.title}  [{hit.locator}]")
        on, off = ("\033[1m", "\033[0m") if bold else ("", "")
        text = html.unescape(hit.snippet.replace("<mark>", on).replace("</mark>", off))
        print(textwrap.fill(text, 100, initial_indent="    ", subsequent_indent="    "))
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
