"""A quick word search for the seconds after ``runecodex serve`` starts, while the real index is built.

The full search (:mod:`engine.search`: whoosh, BM25F over numpy arrays, meaning, typo correction) needs
its index, which a fresh clone builds in several seconds. Until that index is ready the server answers
searches from this one: SQLite FTS5 in memory over the same fields (title, ``short``, ``asked``, text),
ranked by FTS5's ``bm25()`` with the title weighed most, built in a fraction of a second from the
corpus already read. Its answers have the shape of :meth:`engine.search.SearchResult.to_json` plus
``"quick": true``, so pages and clients read them the same way; the game named in a question is honoured
(``detected_game``), and snippets are the paragraph's ``short`` with the question's words marked.
"""

from __future__ import annotations

import html
import re
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.search.query import detect_game as detect_game_name
from engine.search.query import topic_words

MAX_LIMIT = 100
MAX_TERMS = 24
WEIGHTS = (4.0, 2.0, 2.0, 1.0)  # title, short, asked, text (FTS5 bm25() column weights)
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class QuickAnswer:
    """One quick search answer, already in the search contract's JSON shape."""

    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """Return the answer as :meth:`engine.search.SearchResult.to_json` shapes it (plus ``quick``)."""
        return dict(self.data)


class QuickIndex:
    """An in-memory FTS5 index of a corpus (thread-safe: one connection behind a lock)."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute("CREATE VIRTUAL TABLE p USING fts5(id UNINDEXED, game UNINDEXED, title, short, asked, "
                         "body, tokenize='porter unicode61')")
        rows = [(pid, para.game, para.title, para.short or "", " ".join(para.asked or ()), corpus.text_of(pid))
                for pid, para in corpus.paragraphs.items()]
        self._db.executemany("INSERT INTO p VALUES (?, ?, ?, ?, ?, ?)", rows)
        self._db.commit()

    def games(self) -> dict[str, str]:
        """Return the games of the corpus (key -> name), as :meth:`engine.search.SearchIndex.games` does."""
        return dict(self.corpus.games)

    def search(self, query: str, game: str | None = None, limit: int = 20, offset: int = 0,
               detect_game: bool = True) -> QuickAnswer:
        """Return the paragraphs matching any topic word of *query*, best first, one page of them."""
        if not 1 <= limit <= MAX_LIMIT:
            raise UnreadableInputError(f"limit must be between 1 and {MAX_LIMIT}, got {limit}", path="limit")
        if offset < 0:
            raise UnreadableInputError(f"offset must be 0 or more, got {offset}", path="offset")
        game = game or None
        detected = None
        text = query
        if game is None and detect_game:
            mention = detect_game_name(query, self.corpus.games)
            detected, text = mention.game, mention.text
        words = _words(text)
        where = game or detected
        hits: list[dict[str, Any]] = []
        total = 0
        if words:
            match = " OR ".join(f'"{w}"' for w in words)
            sql = ("SELECT id, bm25(p, 0, 0, ?, ?, ?, ?) AS s FROM p WHERE p MATCH ?"
                   + (" AND game = ?" if where else "") + " ORDER BY s")
            args: tuple[Any, ...] = (*WEIGHTS, match, *((where,) if where else ()))
            with self._lock:
                found = self._db.execute(sql, args).fetchall()
            total = len(found)
            hits = [self._hit(str(pid), float(score), words) for pid, score in found[offset:offset + limit]]
        following = offset + len(hits)
        return QuickAnswer({"query": query, "total": total, "hits": hits, "game": where,
                            "detected_game": detected, "detected_by": "name" if detected else None,
                            "offset": offset, "limit": limit,
                            "next_offset": following if following < total and hits else None, "quick": True})

    def _hit(self, pid: str, score: float, words: list[str]) -> dict[str, Any]:
        para = self.corpus.paragraphs[pid]
        snippet = para.short or self.corpus.text_of(pid)[:240]
        return {"id": pid, "title": para.title, "snippet": mark(snippet, words), "score": round(-score, 3),
                "source": para.source.to_json(), "game": para.game, "kind": para.kind,
                "locator": self.corpus.locator(pid), "short": para.short}


def _words(text: str) -> list[str]:
    """Return the distinct topic words of *text* that FTS5 can take (letters and digits only)."""
    out: list[str] = []
    for word in topic_words(text):
        for part in _WORD.findall(word):
            try:
                part.encode("utf-8")
            except UnicodeEncodeError:
                continue  # a lone surrogate: no paragraph holds it
            if part not in out:
                out.append(part)
    return out[:MAX_TERMS]


def mark(text: str, words: list[str]) -> str:
    """Return *text* HTML-escaped with every word starting with one of *words* in ``<mark>``."""
    stems = tuple(w[:max(3, len(w) - 2)] for w in words)
    parts: list[str] = []
    last = 0
    for m in _WORD.finditer(text):
        if stems and m.group(0).lower().startswith(stems):
            parts.append(html.escape(text[last:m.start()]))
            parts.append(f"<mark>{html.escape(m.group(0))}</mark>")
            last = m.end()
    parts.append(html.escape(text[last:]))
    return "".join(parts)
