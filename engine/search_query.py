"""Turn a player's question into a whoosh query, and a hit's text into a highlighted snippet.

Query syntax (all optional; anything malformed is read as plain words, never an error):
``"quoted phrase"`` must occur as a phrase, ``+word`` must occur, ``-word`` (or ``NOT word``) must
not occur; ``AND``/``OR`` are ignored. Everything else is plain words, ranked together
(``engine/search_rank.py``) as one bag of weighted terms:

- each word, stemmed, in the weighted body (title and defined terms outweigh the text), a word that
  names a glossary term of the game weighing :data:`TERM_BOOST` times more;
- each pair of adjacent words as a phrase, at :data:`PHRASE_BOOST`;
- the rules' own words for the player's, at :data:`EXPANSION_WEIGHT`: glossary aliases ("shoot" ->
  ranged attack), "See ..." entries, and the synonyms table ``engine/search_synonyms.yaml``.

A word the index has never seen is first corrected to the nearest indexed word (edit distance 1,
or 2 for words of 8 letters or more, same first letter): fuzzy matching is a fallback for typos,
never applied to words the corpus knows.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from whoosh import query as wq
from whoosh.lang.porter import stem as porter_stem
from whoosh.reading import IndexReader

from engine.search_index import STOPS, WORD_PATTERN, Expansion, stems
from engine.search_rank import RankedTerms, Ranker, Weighted

# Two query words next to each other in the paragraph (at most one word between) score again.
PHRASE_BOOST = 0.3
# A query word (or two) that names a term of the game's glossary weighs this much more than others.
TERM_BOOST = 1.5
# Rules words found through the glossary or the synonyms table weigh this much of the player's own.
EXPANSION_WEIGHT = 0.5
MAX_EXPANSIONS = 8
FIELD = "body"
PAIRS = "pairs"
MAX_QUERY_CHARS = 500
MAX_NGRAM = 3

_WORD_RE = re.compile(WORD_PATTERN, re.UNICODE)
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
        phrases: list[tuple[str, ...]] = []
        quoted_words: list[str] = []
        for m in _QUOTED_RE.finditer(text):
            stemmed = stems(m.group(1))
            if len(stemmed) > 1:
                phrases.append(stemmed)
            elif stemmed:  # a quoted single word is a required word
                quoted_words.append("+" + m.group(1).strip())
        tokens = _QUOTED_RE.sub(" ", text).replace('"', " ").split() + quoted_words
        words: list[str] = []
        required: list[str] = []
        excluded: list[str] = []
        negate_next = False
        for tok in tokens:
            if tok in ("AND", "OR", "&&", "||"):
                continue
            if tok == "NOT":
                negate_next = True
                continue
            if negate_next or (tok.startswith("-") and len(tok) > 1 and tok[1].isalnum()):
                excluded.extend(stems(tok.lstrip("-")))
            elif tok.startswith("+") and len(tok) > 1:
                required.extend(stems(tok[1:]))
                words.extend(_plain(tok[1:]))
            else:
                words.extend(_plain(tok))
            negate_next = False
        return cls(tuple(words), tuple(phrases), tuple(dict.fromkeys(required)),
                   tuple(dict.fromkeys(excluded)))

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
    """Return whether the stemmed word occurs anywhere in the index."""
    return (FIELD, stem) in reader


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
    terms: Mapping[str, frozenset[tuple[str, ...]]] = field(default_factory=dict)

    @classmethod
    def from_meta(cls, items: Iterable[Expansion],
                  terms: Mapping[str, Iterable[Sequence[str]]]) -> ExpansionTable:
        """Return the table of *items* and glossary *terms* (from the index's ``meta.json``)."""
        table: dict[str, dict[tuple[str, ...], list[tuple[str, ...]]]] = {}
        for e in items:
            values = table.setdefault(e.game, {}).setdefault(e.key, [])
            if e.value not in values:
                values.append(e.value)
        return cls({g: {k: tuple(v) for k, v in t.items()} for g, t in table.items()},
                   {g: frozenset(tuple(n) for n in names) for g, names in terms.items()})

    def is_term(self, words: tuple[str, ...], game: str | None) -> bool:
        """Return whether the stemmed *words* name a glossary term of *game* (of any game if None)."""
        if game is not None:
            return words in self.terms.get(game, frozenset())
        return any(words in names for names in self.terms.values())

    def expand(self, stemmed: Sequence[str], game: str | None) -> list[tuple[str, ...]]:
        """Return the expansions of every 1- to 3-word run of *stemmed* for *game* (all games if None).

        The synonyms of ``all`` games apply with any game.
        """
        games = [g for g in self.by_game if game is None or g in (game, "all")]
        out: list[tuple[str, ...]] = []
        present = set(stemmed)
        for n in range(MAX_NGRAM, 0, -1):  # longest (most specific) runs first
            for i in range(len(stemmed) - n + 1):
                key = tuple(stemmed[i:i + n])
                for g in games:
                    for value in self.by_game[g].get(key, ()):
                        if value not in out and not set(value) <= present:
                            out.append(value)
        return out


# --------------------------------------------------------------------------- the whoosh query


def _ranked(words: Sequence[str], weight: float = 1.0) -> list[Weighted]:
    """Return the weighted terms of one word or one phrase of stemmed *words*.

    A phrase counts through its adjacent pairs in the ``pairs`` field (one term per pair, the
    weight shared between them), a fraction of the cost of a positional phrase query.
    """
    if len(words) == 1:
        return [(FIELD, words[0], weight)]
    pairs = [f"{a} {b}" for a, b in pairwise(words)]
    return [(PAIRS, pair, weight / len(pairs)) for pair in pairs]


def _exact(words: Sequence[str]) -> wq.Query:
    """Return the query that requires one word or the exact phrase of stemmed *words*."""
    if len(words) == 1:
        return wq.Term(FIELD, words[0])
    return wq.Phrase(FIELD, list(words), slop=1)


@dataclass(frozen=True)
class BuiltQuery:
    """The whoosh query of a parsed query, with the stems a snippet should highlight."""

    query: wq.Query | None
    highlight: frozenset[str]
    corrected: tuple[tuple[str, str], ...] = ()


def build_query(parsed: ParsedQuery, ranker: Ranker, table: ExpansionTable, game: str | None,
                allowed: frozenset[int] | None = None) -> BuiltQuery:
    """Return the whoosh query of *parsed* (``query`` is ``None`` when nothing is left to search).

    *allowed* (the documents of the chosen game) restricts the ranked part; the caller still passes
    it to whoosh as the search filter.
    """
    reader = ranker.searcher.reader()
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
    bag: list[Weighted] = []
    for s in unique:
        bag += _ranked([s], TERM_BOOST if table.is_term((s,), game) else 1.0)
    for a, b in dict.fromkeys(pairwise(stemmed)):
        if a != b:
            bag += _ranked([a, b], PHRASE_BOOST * (TERM_BOOST if table.is_term((a, b), game) else 1.0))
    highlight = set(unique)
    for value in table.expand(stemmed, game)[:MAX_EXPANSIONS]:
        bag += _ranked(value, EXPANSION_WEIGHT)
        highlight.update(value)
    for p in parsed.phrases:
        bag += _ranked(p, PHRASE_BOOST)
        highlight.update(p)
    highlight.update(parsed.required)
    must = [_exact(p) for p in parsed.phrases] + [_exact([s]) for s in parsed.required]
    ranked = RankedTerms(bag, ranker, allowed) if bag else None
    q: wq.Query | None
    if must:
        required = must[0] if len(must) == 1 else wq.And(must)
        q = wq.AndMaybe(required, ranked) if ranked is not None else required
    else:
        q = ranked
    if q is not None and parsed.excluded:
        q = wq.AndNot(q, wq.Or([wq.Term(FIELD, s) for s in parsed.excluded]))
    return BuiltQuery(q, frozenset(highlight), tuple(corrected))


# --------------------------------------------------------------------------- snippets

SNIPPET_CHARS = 220
_SENTENCE_END = re.compile(r"[.;:!?]\s")

Mark = tuple[int, int, str]


@lru_cache(maxsize=1024)
def _candidates(highlight: frozenset[str]) -> re.Pattern[str]:
    """Return a pattern finding the lower-case words that start with one of the *highlight* stems."""
    alternatives = "|".join(re.escape(s) for s in sorted(highlight, key=len, reverse=True))
    return re.compile(rf"\b(?:{alternatives})\w*(?:\.\w+)*")


def _marks(text: str, highlight: frozenset[str]) -> list[Mark]:
    """Return the (start, end, stem) of every word of *text* whose stem is highlighted, in order."""
    if not highlight:
        return []
    lowered = text.lower()
    if len(lowered) != len(text):  # a rare letter whose lower case is longer: keep the offsets right
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    found = []
    # Only words starting with a highlighted stem can stem to it: the regex engine finds those.
    for m in _candidates(highlight).finditer(lowered):
        stem = stem_word(m.group(0))
        if stem in highlight:
            found.append((m.start(), m.end(), stem))
    return found


def _window(text: str, marks: Sequence[Mark]) -> tuple[int, int]:
    """Return the span of at most SNIPPET_CHARS characters of *text* holding the most distinct marks."""
    if len(text) <= SNIPPET_CHARS or not marks:
        return 0, min(len(text), SNIPPET_CHARS)
    sentence_starts = [0] + [m.end() for m in _SENTENCE_END.finditer(text)]
    starts = set()
    for s, _, _ in marks:
        before = [b for b in sentence_starts if s - SNIPPET_CHARS // 2 <= b <= s]
        starts.add(before[-1] if before else max(0, s - 40))
    best_start, best_count = 0, -1
    for start in sorted(starts):
        count = len({stem for s, e, stem in marks if s >= start and e <= start + SNIPPET_CHARS})
        if count > best_count:
            best_start, best_count = start, count
    if best_start > 0 and not text[best_start - 1].isspace():  # begin on a word
        space = text.find(" ", best_start)
        best_start = space + 1 if 0 <= space < best_start + 20 else best_start
    end = min(len(text), best_start + SNIPPET_CHARS)
    if end < len(text):  # end on a word
        space = text.rfind(" ", best_start, end)
        end = space if space > best_start + SNIPPET_CHARS // 2 else end
    return best_start, end


def snippet(text: str, highlight: frozenset[str]) -> str:
    """Return a short extract of *text* around the query's words, HTML-escaped, matches in ``<mark>``.

    Every character of the corpus text is escaped, so the only markup in the result is ``<mark>``.
    """
    text = " ".join(text.split())
    marks = _marks(text, highlight)
    start, end = _window(text, marks)
    out = ["…" if start > 0 else ""]
    pos = start
    for s, e, _ in marks:
        if s >= start and e <= end:
            out += [html.escape(text[pos:s], quote=False), "<mark>",
                    html.escape(text[s:e], quote=False), "</mark>"]
            pos = e
    out.append(html.escape(text[pos:end], quote=False))
    if end < len(text):
        out.append("…")
    return "".join(out)


def plain_snippet(snippet_html: str) -> str:
    """Return *snippet_html* as plain text (marks dropped, entities unescaped)."""
    return html.unescape(snippet_html.replace("<mark>", "").replace("</mark>", ""))
