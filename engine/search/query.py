"""Understand a player's question: the game it names, its topic words, typos, and the whoosh query.

:func:`understand` reads a question in four steps:

1. **The game named in it.** "in Rune Age", "runeslingers", "RWM", "RA", "RS", "miniatures", "runewars" (but
   "runewars miniatures" is the miniatures game) are found by :data:`GAME_PATTERNS` and taken out of
   the words; the search then keeps to that game (``detected_game`` in the result, shown as a
   removable filter chip in the web page). A game chosen by the caller wins over the question's.
2. **Topic words.** Question words ("how", "can", "my", "what", "does", "i": ``STOPS`` in
   ``engine/search/index.py``) are dropped: they never rank, never highlight.
3. **Typos.** A word is corrected only when neither it nor its stem is in the corpus vocabulary or
   the glossary's terms and aliases: the nearest indexed word (edit distance 1, or 2 from 8 letters,
   same first letter) replaces it. A real word ("steal") is never rewritten ("seal").
4. **The whoosh query.** The cleaned question goes through whoosh's :class:`MultifieldParser` over
   the weighted fields (``"quoted phrase"``, ``+word``, ``-word``, ``NOT``, ``AND``/``OR`` work as in
   whoosh; field, wildcard, range and boost syntax are switched off), the words OR-ed (a paragraph
   with more of them scores more). The glossary's aliases and "See ..." links and the small synonyms
   table add the rules' own words for the player's, at :data:`EXPANSION_BOOST`.

:func:`snippet` picks the sentence that answers: the sentence of the text (or the paragraph's
``short``) that holds the most of the question's topic words, weighted by their rarity.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from whoosh import query as wq
from whoosh.fields import Schema
from whoosh.lang.porter import stem as porter_stem
from whoosh.qparser import (
    BoostPlugin,
    EveryPlugin,
    FieldsPlugin,
    MultifieldPlugin,
    OrGroup,
    PlusMinusPlugin,
    QueryParser,
    RangePlugin,
    WildcardPlugin,
)
from whoosh.reading import IndexReader

from engine.search.index import STOPS, WORD_PATTERN, Expansion

EXPANSION_BOOST = 0.5
COMMON_SHARE = 0.15
COMMON_MIN_DOCS = 200  # a tiny corpus has no common words
# The long fields where a word that is in many paragraphs ("card", "unit") is not looked for: it
# says little there and costs most (the short fields title, names, short and section keep it).
COMMON_FIELDS: tuple[str, ...] = ("text", "asked")
# A question asking for a number or a limit.
QUANTITY = re.compile(r"\b(?:how (?:many|much|far|often|long)|max(?:imum)?|min(?:imum)?|limit|most|at least|"
                      r"up to|number of|count)\b", re.I)
MAX_EXPANSIONS = 8
MAX_REMEMBERED = 50_000
MAX_QUERY_CHARS = 500
MAX_NGRAM = 3

_WORD_RE = re.compile(WORD_PATTERN, re.UNICODE)

# How players name the games. Tried in order; the miniatures game first, so "runewars miniatures"
# never reads as Runewars.
GAME_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("runewars-miniatures", re.compile(
        r"\b(?:rune\s*wars?\s*(?:the\s+)?(?:miniatures?|minis?)(?:\s+game)?|rwmg?|rw\s*minis?"
        r"|miniatures?\s+game|miniatures|minis)\b", re.I)),
    ("runeslingers", re.compile(r"\brune\s*-?\s*slingers?\b|\bslingers\b|\brs\b", re.I)),
    ("rune-age", re.compile(r"\brune\s*-?\s*age\b|\brunage\b|\bra\b", re.I)),
    ("runewars", re.compile(
        r"\b(?:rune\s*-?\s*wars?(?:\s+(?:revised|2nd|second)(?:\s+edition)?)?(?:\s+board\s*game)?|rw)\b", re.I)),
)


_GAME_WORD = re.compile(r"rune|wars?|runewars?|runeslingers?|slingers?|age|runage|rwmg?|rs|ra|minis?|miniatures?")


@dataclass(frozen=True)
class GameMention:
    """The game a question names, and the question with that name taken out."""

    game: str | None
    text: str


def detect_game(text: str, games: Iterable[str]) -> GameMention:
    """Return the one game *text* names (of *games*) and *text* without its name; none if it names two."""
    known = set(games)
    found: list[str] = []
    rest = text
    for game, pattern in GAME_PATTERNS:
        if game not in known:
            continue
        if pattern.search(rest):
            found.append(game)
            rest = pattern.sub(" ", rest)
    if len(set(found)) != 1:
        return GameMention(None, text)
    return GameMention(found[0], " ".join(rest.split()))


@lru_cache(maxsize=65536)
def stem_word(word: str) -> str:
    """Return the Porter stem of one lower-case word (cached: the index uses the same stemmer)."""
    return str(porter_stem(word))


def topic_words(text: str) -> list[str]:
    """Return the lower-case words of *text* that carry a topic (question and stop words dropped)."""
    return [w for w in (m.group(0).lower() for m in _WORD_RE.finditer(text)) if w not in STOPS]


# --------------------------------------------------------------------------- spelling fallback

@dataclass(frozen=True)
class Vocabulary:
    """What the index knows: its stemmed terms (any ranked field), unstemmed words, glossary words."""

    reader: IndexReader
    fields: tuple[str, ...]
    known_words: frozenset[str]
    common: dict[tuple[str, str], bool] = field(default_factory=dict, compare=False)  # remembered answers

    def knows(self, word: str) -> bool:
        """Return whether *word* (lower case) is a word of the corpus or of the glossary's aliases."""
        if word in self.known_words or word.isdigit() or len(word) < 4:
            return True
        if ("words", word) in self.reader:
            return True
        stem = stem_word(word)
        return any((f, stem) in self.reader for f in self.fields)

    def is_common(self, fieldname: str, stem: str) -> bool:
        """Return whether *stem* is in more than :data:`COMMON_SHARE` of the paragraphs' *fieldname*.

        Only the :data:`COMMON_FIELDS` have common words.
        """
        if fieldname not in COMMON_FIELDS:
            return False
        key = (fieldname, stem)
        found = self.common.get(key)
        if found is None:
            count = self.reader.doc_count()
            found = count >= COMMON_MIN_DOCS and self.reader.doc_frequency(fieldname, stem) > COMMON_SHARE * count
            if len(self.common) > MAX_REMEMBERED:
                self.common.clear()
            self.common[key] = found
        return found

    def correct(self, word: str) -> str | None:
        """Return the indexed word nearest to the unknown *word* (same first letter), or ``None``."""
        maxdist = 1 if len(word) < 8 else 2
        suggestions = self.reader.corrector("words").suggest(word, limit=1, maxdist=maxdist, prefix=1)
        return str(suggestions[0]) if suggestions else None


# --------------------------------------------------------------------------- expansions

@dataclass(frozen=True)
class ExpansionTable:
    """The query expansions of one index, looked up by game and stemmed n-gram."""

    by_game: Mapping[str, Mapping[tuple[str, ...], tuple[tuple[str, ...], ...]]] = field(default_factory=dict)

    @classmethod
    def from_items(cls, items: Iterable[Expansion]) -> ExpansionTable:
        """Return the table of *items* (from the index's ``meta.json``)."""
        table: dict[str, dict[tuple[str, ...], list[tuple[str, ...]]]] = {}
        for e in items:
            values = table.setdefault(e.game, {}).setdefault(e.key, [])
            if e.value not in values:
                values.append(e.value)
        return cls({g: {k: tuple(v) for k, v in t.items()} for g, t in table.items()})

    def expand(self, stemmed: Sequence[str], game: str | None) -> list[tuple[str, ...]]:
        """Return the expansions of every 1- to 3-word run of *stemmed* for *game* (all games if None).

        The synonyms of ``all`` games apply with any game; longer (more specific) runs come first.
        """
        games = [g for g in self.by_game if game is None or g in (game, "all")]
        out: list[tuple[str, ...]] = []
        present = set(stemmed)
        for n in range(MAX_NGRAM, 0, -1):
            for i in range(len(stemmed) - n + 1):
                key = tuple(stemmed[i:i + n])
                for g in games:
                    for value in self.by_game[g].get(key, ()):
                        if value not in out and not set(value) <= present:
                            out.append(value)
        return out


# --------------------------------------------------------------------------- the question

@dataclass(frozen=True)
class Question:
    """A question as understood: its game, topic words, corrections and the whoosh query to run."""

    text: str
    detected_game: str | None
    words: tuple[str, ...]
    query: wq.Query | None
    highlight: frozenset[str]
    corrected: tuple[tuple[str, str], ...] = ()
    stems: tuple[str, ...] = ()
    plain: bool = True  # no phrase, +, - or NOT: any one word is enough for a paragraph to match
    expanded: tuple[str, ...] = ()
    # what a paragraph must hold to match a plain question: any of these (fields, stems) clauses,
    # a clause meaning all its stems in any of its fields (a phrase counted as its words)
    clauses: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    quantity: bool = False  # "how many", "max", "limit": the answer states a number

    def corrected_text(self) -> str | None:
        """Return the question with each misspelt word replaced by its correction, or ``None``."""
        if not self.corrected:
            return None
        text = self.text
        for wrong, right in self.corrected:
            text = re.sub(rf"(?<!\w){re.escape(wrong)}(?!\w)", right, text, flags=re.IGNORECASE)
        return text


def parser(schema: Schema, fields: Sequence[str]) -> QueryParser:
    """Return whoosh's parser over *fields* (its MultifieldPlugin), every word and field OR-ed.

    Only the syntax players use stays on: phrases, ``+``/``-``, ``AND``/``OR``/``NOT``, groups.
    """
    qp = QueryParser(None, schema, group=OrGroup.factory(COORD_SCALE))
    for plugin in (FieldsPlugin, WildcardPlugin, RangePlugin, BoostPlugin, EveryPlugin):
        qp.remove_plugin_class(plugin)
    qp.add_plugin(MultifieldPlugin(list(fields)))
    qp.add_plugin(PlusMinusPlugin())
    return qp


_SYNTAX = re.compile(r'"|(?:^|\s)[+-]\w|\b(?:AND|OR|NOT)\b')


COORD_SCALE = 0.9  # whoosh's coordination bonus: a paragraph holding more of the words scores more


def words_query(stemmed: Sequence[str], fields: Sequence[str], boost: float = 1.0) -> wq.Or:
    """Return the query for one stemmed word, or a phrase of several, in any of *fields*."""
    if len(stemmed) == 1:
        return wq.Or([wq.Term(f, stemmed[0], boost=boost) for f in fields])
    return wq.Or([wq.Phrase(f, list(stemmed), slop=1, boost=boost) for f in fields])


def plain_query(stemmed: Sequence[str], fields: Sequence[str],
                common: Callable[[str, str], bool] = lambda f, s: False) -> wq.Or:
    """Return what whoosh's multi-field parser makes of plain words: each word in any field, OR-ed.

    Built directly as one flat disjunction (one stem per word rather than one analysis per field,
    and whoosh's fast array union over a single level): the parser itself reads questions with
    syntax. The coordination bonus (more of the words, more score) is applied by ``rank.rerank``.
    A word *common* in a field (in a large share of the paragraphs' text or ``asked``: "card", "unit")
    is looked for only in the other fields: it says little there and costs most.
    """
    return wq.Or([wq.Term(f, s) for s in dict.fromkeys(stemmed) for f in fields if not common(f, s)])


def understand(text: str, *, games: Iterable[str], chosen_game: str | None, detect: bool,
               vocabulary: Vocabulary, table: ExpansionTable,
               parse: Callable[[str], wq.Query], fields: Sequence[str]) -> Question:
    """Return the :class:`Question` of *text* (see the module docstring for the steps)."""
    text = " ".join(text[:MAX_QUERY_CHARS].split())
    mention = detect_game(text, games) if detect or chosen_game else GameMention(None, text)
    detected = mention.game if detect and chosen_game is None else None
    # the game's name is no topic: drop it when it is the game searched
    cleaned = mention.text if mention.game is not None and mention.game == (chosen_game or detected) else text
    if not topic_words(cleaned):  # the game's name was the whole question ("runeslingers"): search it
        cleaned = text
    game = chosen_game or detected
    corrected: list[tuple[str, str]] = []
    words: list[str] = []
    syntax = bool(_SYNTAX.search(cleaned))
    pieces: list[str] = []
    for token in re.split(r"(\W+)", cleaned):
        low = token.lower()
        if not token or not _WORD_RE.fullmatch(token) or low in STOPS:
            # keep operators and quotes for whoosh's parser; drop question words
            pieces.append(token if (syntax and (not _WORD_RE.fullmatch(token) or token in ("AND", "OR", "NOT")))
                          else " ")
            continue
        if not vocabulary.knows(low) and not _GAME_WORD.fullmatch(low):
            fix = vocabulary.correct(low)
            if fix is not None and fix != low:
                corrected.append((token, fix))
                low = fix
        words.append(low)
        pieces.append(low)
    if not words:
        return Question(text, detected, (), None, frozenset(), tuple(corrected))
    stemmed = [stem_word(w) for w in words]
    main: wq.Query
    negated = re.findall(r"(?:^|\s)(?:-|NOT\s+)(\w+)", cleaned)
    if syntax and len(negated) >= len(words):  # nothing left to look for: read it all as plain words
        syntax = False
    if syntax:
        try:
            main = parse("".join(pieces))
        except Exception:  # whoosh's parser is forgiving, but never let syntax break a search
            main = plain_query(stemmed, fields, vocabulary.is_common)
    else:
        main = plain_query(stemmed, fields, vocabulary.is_common)
    highlight = set(stemmed)
    expanded = table.expand(stemmed, game)[:MAX_EXPANSIONS]
    extra: list[wq.Query] = []
    for value in expanded:
        highlight.update(value)
        extra += words_query(value, fields, EXPANSION_BOOST).subqueries
    query: wq.Query = main
    if extra and not syntax:  # one flat disjunction: whoosh's array union, one pass
        query = wq.Or([*main.subqueries, *extra])
    elif extra:
        query = wq.Or([main, wq.Or(extra)])
    return Question(text, detected, tuple(words), query, frozenset(highlight), tuple(corrected),
                    stems=tuple(dict.fromkeys(stemmed)), plain=not syntax,
                    expanded=tuple(dict.fromkeys(w for value in expanded for w in value)),
                    clauses=tuple(dict.fromkeys(
                        [((*(f for f in fields if not vocabulary.is_common(f, s)),), (s,)) for s in stemmed]
                        + [(tuple(fields), tuple(value)) for value in expanded])),
                    quantity=bool(QUANTITY.search(text)))


# --------------------------------------------------------------------------- snippets

SNIPPET_CHARS = 260
_SENTENCE = re.compile(r"[^.!?;]+(?:[.!?;]+|$)")
SHORT_BONUS = 1.1  # the rule in one line answers as well as a sentence with the same words

Mark = tuple[int, int, str]


@lru_cache(maxsize=1024)
def _candidates(highlight: frozenset[str]) -> re.Pattern[str]:
    """Return a pattern finding the lower-case words that start with one of the *highlight* stems."""
    alternatives = "|".join(re.escape(s) for s in sorted(highlight, key=len, reverse=True))
    return re.compile(rf"\b(?:{alternatives})\w*(?:\.\w+)*")


def marks(text: str, highlight: frozenset[str]) -> list[Mark]:
    """Return the (start, end, stem) of every word of *text* whose stem is highlighted, in order."""
    if not highlight:
        return []
    lowered = text.lower()
    if len(lowered) != len(text):  # a rare letter whose lower case is longer: keep the offsets right
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    found = []
    for m in _candidates(highlight).finditer(lowered):
        word = m.group(0)
        if word in STOPS:
            continue
        stem = stem_word(word)
        if stem in highlight:
            found.append((m.start(), m.end(), stem))
    return found


def sentences(text: str) -> list[str]:
    """Return the sentences of *text* (split after ``.``, ``!``, ``?`` and ``;``)."""
    return [s.strip() for s in _SENTENCE.findall(" ".join(text.split())) if s.strip()]


def best_sentence(text: str, short: str, highlight: frozenset[str],
                  weight: Callable[[str], float]) -> str:
    """Return the sentence of *text* (or *short*) holding the most of the topic, by the words' weight."""
    def score(sentence: str) -> float:
        return sum(weight(stem) for stem in {m[2] for m in marks(sentence, highlight)})

    candidates = sentences(text)
    best = max(candidates, key=score, default="")
    best_score = score(best) if best else 0.0
    if short and (not best or score(short) * SHORT_BONUS > best_score):
        return short
    if best_score == 0.0:
        return short or (candidates[0] if candidates else "")
    return best


def highlight_html(text: str, highlight: frozenset[str], limit: int = SNIPPET_CHARS) -> str:
    """Return *text* HTML-escaped, cut to about *limit* characters around its topic words, in ``<mark>``."""
    text = " ".join(text.split())
    found = marks(text, highlight)
    start, end = 0, len(text)
    if len(text) > limit:
        first = found[0][0] if found else 0
        start = 0 if first < limit // 2 else max(0, text.rfind(" ", 0, first - limit // 4) + 1)
        end = min(len(text), start + limit)
        if end < len(text):
            space = text.rfind(" ", start, end)
            end = space if space > start + limit // 2 else end
    out = ["…" if start > 0 else ""]
    pos = start
    for s, e, _ in found:
        if s >= start and e <= end:
            out += [html.escape(text[pos:s], quote=False), "<mark>", html.escape(text[s:e], quote=False),
                    "</mark>"]
            pos = e
    out.append(html.escape(text[pos:end], quote=False))
    if end < len(text):
        out.append("…")
    return "".join(out)


def plain_snippet(snippet_html: str) -> str:
    """Return *snippet_html* as plain text (marks dropped, entities unescaped)."""
    return html.unescape(snippet_html.replace("<mark>", "").replace("</mark>", ""))
