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

import json
import os
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.scoring import BM25F
from whoosh.searching import Searcher

from engine.corpus import Source, default_root
from engine.errors import CorpusError, UnreadableInputError
from engine.search_index import (
    Expansion,
    build_index,
    default_index_dir,
    ensure_index,
    read_meta,
    stat_signature,
)
from engine.search_query import BuiltQuery, ExpansionTable, ParsedQuery, build_query, snippet

__all__ = ["SearchHit", "SearchIndex", "SearchResult", "build_index", "search"]

MAX_LIMIT = 100
RECHECK_SECONDS = 2.0
# BM25 length normalisation per field: titles and key lists are short and uniform, so their length
# says little; body text is normalised as usual.
WEIGHTING = BM25F(B=0.75, K1=1.2, title_B=0.3, keys_B=0.3, section_B=0.3, terms_B=0.5)


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


@dataclass
class _Opened:
    """A searcher open on one generation of the index, with that generation's metadata."""

    target: str
    searcher: Searcher
    games: Mapping[str, str]
    table: ExpansionTable


@dataclass
class SearchIndex:
    """A search index folder, its searchers (one per thread) and, optionally, the corpus it follows.

    With *rules* set, the index is built when missing and rebuilt when those corpus files change
    (checked at most every *recheck_seconds*); with ``rules=None`` the folder is used as it is.
    """

    index_dir: Path
    rules: Path | None = None
    recheck_seconds: float = RECHECK_SECONDS
    _local: threading.local = field(default_factory=threading.local, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _checked_at: float = field(default=-1.0, repr=False)
    _signature: tuple[tuple[str, int, int], ...] = field(default=(), repr=False)

    def _maintain(self) -> None:
        """Build or rebuild the index when it is missing or the corpus files changed."""
        if self.rules is None:
            return
        now = time.monotonic()
        if self._checked_at >= 0 and now - self._checked_at < self.recheck_seconds:
            return
        with self._lock:
            if self._checked_at >= 0 and now - self._checked_at < self.recheck_seconds:
                return
            signature = stat_signature(self.rules)
            if signature != self._signature:
                try:
                    ensure_index(self.index_dir, self.rules)
                except CorpusError as exc:
                    if read_meta(self.index_dir) is None:
                        raise
                    print(f"runecodex: search index not rebuilt, serving the previous one: {exc.message}",
                          file=sys.stderr)
                self._signature = signature
            self._checked_at = time.monotonic()

    def _open(self) -> _Opened:
        """Return this thread's searcher, reopening it when a rebuild swapped the index in."""
        self._maintain()
        target = os.path.realpath(self.index_dir)
        opened: _Opened | None = getattr(self._local, "opened", None)
        if opened is not None and opened.target == target:
            return opened
        meta = read_meta(Path(target))
        if meta is None:
            raise UnreadableInputError(f"no search index at {str(self.index_dir)!r} (run `runecodex index`)",
                                       path=str(self.index_dir))
        searcher = whoosh_index.open_dir(target).searcher(weighting=WEIGHTING)
        if opened is not None:
            opened.searcher.close()
        table = ExpansionTable.from_expansions(Expansion.from_json(e) for e in meta.get("expansions", []))
        opened = _Opened(target, searcher, dict(meta.get("games", {})), table)
        self._local.opened = opened
        return opened

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
            raise UnreadableInputError(f"unknown game {game!r} (one of {', '.join(opened.games)})", path="game")
        query = " ".join(query.split())
        try:
            parsed = ParsedQuery.from_text(query)
        except ValueError:
            parsed = ParsedQuery.plain(query)
        if parsed.is_empty() and not parsed.excluded:
            return SearchResult.empty(query, game)
        if parsed.is_empty():  # only exclusions: read them as plain words
            parsed = ParsedQuery.plain(query)
        searcher = opened.searcher
        built = build_query(parsed, searcher.reader(), opened.table, game)
        if built.query is None:
            return SearchResult.empty(query, game)
        return self._run(searcher, built, query, game, limit)

    def _run(self, searcher: Searcher, built: BuiltQuery, query: str, game: str | None,
             limit: int) -> SearchResult:
        from whoosh.query import Term

        assert built.query is not None
        flt = Term("game", game) if game else None
        results = searcher.search(built.query, limit=limit, filter=flt, optimize=False)
        hits = tuple(SearchHit.from_stored(hit.fields(), hit.score or 0.0, snippet(hit["text"], built.highlight))
                     for hit in results)
        corrected = None
        if built.corrected:
            fixed = query
            for wrong, right in built.corrected:
                fixed = _replace_word(fixed, wrong, right)
            corrected = fixed
        return SearchResult(query=query, total=len(results), hits=hits, game=game, corrected=corrected)


def _replace_word(text: str, wrong: str, right: str) -> str:
    import re

    return re.sub(rf"\b{re.escape(wrong)}\b", right, text, flags=re.IGNORECASE)


_HANDLES: dict[tuple[str, str], SearchIndex] = {}
_HANDLES_LOCK = threading.Lock()


def index_for(index_dir: Path | None = None, rules: Path | None = None) -> SearchIndex:
    """Return the process-wide :class:`SearchIndex` of *index_dir* following *rules* (defaults: build/index, rules/)."""
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
