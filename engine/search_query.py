"""Turn a player's question into a whoosh query, and a hit's text into a highlighted snippet.

Query syntax (all optional; anything malformed is read as plain words, never an error):
``"quoted phrase"`` must occur as a phrase, ``+word`` must occur, ``-word`` must not occur.
Everything else is plain words: each word is looked for in every field with the field's boost
(:data:`FIELD_BOOSTS`), adjacent words also as a phrase (:data:`PHRASE_BOOSTS`), and the glossary
aliases, "See ..." entries and synonyms table (``engine/search_synonyms.yaml``) add the rules'
own words at :data:`EXPANSION_WEIGHT`. A word the index has never seen is first corrected to the
nearest indexed word (edit distance 1, or 2 for long words): fuzzy matching is a fallback for typos,
not applied to words the corpus knows.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from whoosh import query as wq
from whoosh.lang.porter import stem as porter_stem
from whoosh.reading import IndexReader

from engine.search_index import STOPS, Expansion, stems

# Field boosts: what a paragraph is about (title, defined terms, book index) outweighs its body.
FIELD_BOOSTS: Mapping[str, float] = {
    "title": 3.0, "keys": 2.5, "section": 1.2, "terms": 0.8, "text": 1.0, "amend": 0.7,
}
# Adjacent query words found next to each other (slop 1) in these fields score again.
PHRASE_BOOSTS: Mapping[str, float] = {"title": 2.0, "keys": 2.0, "text": 1.0}
EXPANSION_WEIGHT = 0.5
MAX_QUERY_CHARS = 500
MAX_NGRAM = 3

_WORD_RE = re.compile(r"\w+(?:\.?\w+)*", re.UNICODE)
_QUOTED_RE = re.compile(r'"([^"]*)"')


@dataclass(frozen=True)
class ParsedQuery:
    """A query split into plain words, quoted phrases, required and excluded words."""

    words: tuple[str, ...] = ()
    phrases: tuple[tuple[str, ...], ...] = ()
    required: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()

    @classmethod
    def from_text(cls, text: str) -> ParsedQuery:
        """Return the parse of *text*; unbalanced quotes and stray operators read as plain words."""
        text = text[:MAX_QUERY_CHARS]
        phrases = []
        for m in _QUOTED_RE.finditer(text):
            words = stems(m.group(1))
            if len(words) > 1:
                phrases.append(words)
            elif words:  # a quoted single word is a required word
                text += f" +{m.group(1)}"
        rest = _QUOTED_RE.sub(" ", text).replace('"', " ")
        words: list[str] = []
        required: list[str] = []
        excluded: list[str] = []
        tokens = rest.split()
        negate_next = False
        for tok in tokens:
            if tok in ("AND", "OR", "&&", "||"):
                continue
            if tok == "NOT":
                negate_next = True
                continue
            if negate_next or (tok.startswith("-") and len(tok) > 1 and tok[1].isalnum()):
                excluded += stems(tok.lstrip("-"))
            elif tok.startswith("+") and len(tok) > 1:
                required += stems(tok[1:])
                words += _plain(tok[1:])
            else:
                words += _plain(tok)
            negate_next = False
        return cls(tuple(words), tuple(phrases), tuple(dict.fromkeys(required)), tuple(dict.fromkeys(excluded)))

    @classmethod
    def plain(cls, text: str) -> ParsedQuery:
        """Return *text* read as plain words only (the fallback for a query whose syntax fails)."""
        return cls(tuple(_plain(text[:MAX_QUERY_CHARS])))

    def is_empty(self) -> bool:
        """Return whether nothing positive is left to search for."""
        return not (self.words or self.phrases or self.required)


def _plain(text: str) -> list[str]:
    """Return the lower-case words of *text* that are not stop words (unstemmed, for correction)."""
    return [w for w in (m.group(0).lower() for m in _WORD_RE.finditer(text)) if w not in STOPS]


@lru_cache(maxsize=65536)
def stem_word(word: str) -> str:
    """Return the Porter stem of one lower-case word (cached: the index uses the same stemmer)."""
    return str(porter_stem(word))


# --------------------------------------------------------------------------- spelling fallback

def known(reader: IndexReader, stem: str) -> bool:
    """Return whether the stemmed word occurs in any searched field of the index."""
    return any((f, stem) in reader for f in ("text", "title", "keys", "section", "terms", "amend"))


def correct(reader: IndexReader, word: str) -> str | None:
    """Return the indexed word nearest to the unknown *word* (same first letter), or ``None``."""
    if len(word) < 4 or word.isdigit():
        return None
    maxdist = 1 if len(word) < 8 else 2
    suggestions = reader.corrector("words").suggest(word, limit=1, maxdist=maxdist, prefix=1)
    return str(suggestions[0]) if suggestions else None


# --------------------------------------------------------------------------- expansions

@dataclass(frozen=True)
class ExpansionTable:
    """The query expansions of one index, looked up by game and stemmed n-gram."""

    by_game: Mapping[str, Mapping[tuple[str, ...], tuple[tuple[str, ...], ...]]] = field(default_factory=dict)

    @classmethod
    def from_expansions(cls, items: Iterable[Expansion]) -> ExpansionTable:
        """Return the table of *items* (from the index's ``meta.json``)."""
        table: dict[str, dict[tuple[str, ...], list[tuple[str, ...]]]] = {}
        for e in items:
            values = table.setdefault(e.game, {}).setdefault(e.key, [])
            if e.value not in values:
                values.append(e.value)
        return cls({g: {k: tuple(v) for k, v in t.items()} for g, t in table.items()})

    def expand(self, stemmed: Sequence[str], game: str | None) -> list[tuple[str, ...]]:
        """Return the expansions of every 1- to 3-word run of *stemmed* for *game* (all games if None)."""
        games = [g for g in self.by_game if game is None or g in (game, "all")]
        out: list[tuple[str, ...]] = []
        present = set(stemmed)
        for n in range(1, MAX_NGRAM + 1):
            for i in range(len(stemmed) - n + 1):
                key = tuple(stemmed[i:i + n])
                for g in games:
                    for value in self.by_game[g].get(key, ()):
                        if value not in out and not set(value) <= present:
                            out.append(value)
        return out


# --------------------------------------------------------------------------- the whoosh query

def _any_field(words: Sequence[str], weight: float = 1.0) -> list[wq.Query]:
    """Return queries for *words* (one word, or a phrase) in every searched field, with field boosts."""
    if len(words) == 1:
        return [wq.Term(f, words[0], boost=b * weight) for f, b in FIELD_BOOSTS.items()]
    return [wq.Phrase(f, list(words), slop=1, boost=b * weight) for f, b in FIELD_BOOSTS.items()]


def _required(words: Sequence[str]) -> wq.Query:
    if len(words) == 1:
        return wq.Or([wq.Term(f, words[0]) for f in FIELD_BOOSTS])
    return wq.Or([wq.Phrase(f, list(words), slop=1) for f in FIELD_BOOSTS])


@dataclass(frozen=True)
class BuiltQuery:
    """The whoosh query of a parsed query, with the stems a snippet should highlight."""

    query: wq.Query | None
    highlight: frozenset[str]
    corrected: tuple[tuple[str, str], ...] = ()


def build_query(parsed: ParsedQuery, reader: IndexReader, table: ExpansionTable,
                game: str | None) -> BuiltQuery:
    """Return the whoosh query of *parsed* (``query`` is ``None`` when nothing is left to search)."""
    corrected: list[tuple[str, str]] = []
    stemmed: list[str] = []
    for word in parsed.words:
        s = stem_word(word)
        if not known(reader, s):
            fix = correct(reader, word)
            if fix is not None:
                corrected.append((word, fix))
                s = stem_word(fix)
        stemmed.append(s)
    unique = list(dict.fromkeys(stemmed))
    should: list[wq.Query] = [q for s in unique for q in _any_field([s])]
    for a, b in zip(stemmed, stemmed[1:], strict=False):
        if a != b:
            should += [wq.Phrase(f, [a, b], slop=1, boost=w) for f, w in PHRASE_BOOSTS.items()]
    highlight = set(unique)
    for value in table.expand(stemmed, game):
        should += _any_field(value, EXPANSION_WEIGHT)
        highlight.update(value)
    must = [_required(p) for p in parsed.phrases] + [_required([s]) for s in parsed.required]
    for p in parsed.phrases:
        should += _any_field(p, 2.0)
        highlight.update(p)
    highlight.update(parsed.required)
    q: wq.Query | None
    if must:
        required = must[0] if len(must) == 1 else wq.And(must)
        q = wq.AndMaybe(required, wq.DefaultOr(should)) if should else required
    else:
        q = wq.DefaultOr(should) if should else None
    if q is not None and parsed.excluded:
        q = wq.AndNot(q, wq.Or([wq.Term(f, s) for s in parsed.excluded for f in FIELD_BOOSTS]))
    return BuiltQuery(q, frozenset(highlight), tuple(corrected))


# --------------------------------------------------------------------------- snippets

SNIPPET_CHARS = 220


def _window(text: str, marks: list[tuple[int, int, str]]) -> tuple[int, int]:
    """Return the span of about SNIPPET_CHARS characters of *text* holding the most distinct marks."""
    if len(text) <= SNIPPET_CHARS or not marks:
        return 0, min(len(text), SNIPPET_CHARS)
    best = (-1, 0)
    starts = {0} | {m.end() + 1 for m in re.finditer(r"[.;:]\s", text)} | {max(0, s - 40) for s, _, _ in marks}
    for start in sorted(starts):
        if start >= len(text):
            continue
        end = start + SNIPPET_CHARS
        distinct = len({stem for s, e, stem in marks if s >= start and e <= end})
        if distinct > best[0]:
            best = (distinct, start)
    start = best[1]
    if start > 0 and not text[start - 1].isspace():
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    return start, min(len(text), start + SNIPPET_CHARS)


def snippet(text: str, highlight: frozenset[str]) -> str:
    """Return a short extract of *text* around the query's words, HTML-escaped, matches in ``<mark>``.

    Every character of the corpus text is escaped, so the only markup in the result is ``<mark>``.
    """
    text = " ".join(text.split())
    marks = [(m.start(), m.end(), stem_word(m.group(0).lower())) for m in _WORD_RE.finditer(text)]
    marks = [m for m in marks if m[2] in highlight]
    start, end = _window(text, marks)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start + SNIPPET_CHARS // 2 else end
    out = ["…" if start > 0 else ""]
    pos = start
    for s, e, _ in marks:
        if s < start or e > end:
            continue
        out += [html.escape(text[pos:s], quote=False), "<mark>", html.escape(text[s:e], quote=False), "</mark>"]
        pos = e
    out.append(html.escape(text[pos:end], quote=False))
    if end < len(text):
        out.append("…")
    return "".join(out)


def plain_snippet(snippet_html: str) -> str:
    """Return *snippet_html* as plain text (marks dropped, entities unescaped)."""
    return html.unescape(snippet_html.replace("<mark>", "").replace("</mark>", ""))
