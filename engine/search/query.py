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
from dataclasses import dataclass, field, replace
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

from engine.search.index import STOPS, UNSTEMMED, WORD_PATTERN, Expansion
from engine.search.spell import Speller

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
    """Return the Porter stem of one lower-case word (cached: the index uses the same stemmer and
    keeps the same :data:`~engine.search.index.UNSTEMMED` words whole: "one" stays "one", never "on")."""
    return word if word in UNSTEMMED else str(porter_stem(word))


def topic_words(text: str) -> list[str]:
    """Return the lower-case words of *text* that carry a topic (question and stop words dropped)."""
    return [w for w in (m.group(0).lower() for m in _WORD_RE.finditer(text)) if w not in STOPS]


# --------------------------------------------------------------------------- spelling fallback

@dataclass(frozen=True)
class Vocabulary:
    """What the index knows: its stemmed terms, its unstemmed words (with how many paragraphs hold
    each), the glossary's words, and the spelling corrector over them."""

    reader: IndexReader
    fields: tuple[str, ...]
    known_words: frozenset[str]
    words: Mapping[str, int] = field(default_factory=dict)
    stems: Mapping[str, int] = field(default_factory=dict)
    speller: Speller | None = None
    english: frozenset[str] = frozenset()  # common English words: real words, never corrected
    common: dict[tuple[str, str], bool] = field(default_factory=dict, compare=False)  # remembered answers

    def knows(self, word: str) -> bool:
        """Return whether *word* (lower case) is a word of the corpus or of the glossary's aliases."""
        if word in self.known_words or word.isdigit() or len(word) < 4 or word in self.words or (
                word in self.english):
            return True
        return stem_word(word) in self.stems

    def is_common(self, fieldname: str, stem: str) -> bool:
        """Return whether *stem* is in more than :data:`COMMON_SHARE` of the paragraphs' *fieldname*.

        Only the :data:`COMMON_FIELDS` have common words (a query with syntax, run by whoosh).
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
        """Return the corpus word nearest to the unknown *word* (``engine/search/spell.py``), or ``None``."""
        return self.speller.correct(word) if self.speller is not None else None


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
        return [value for value, _ in self.expand_spans(stemmed, game)]

    def expand_spans(self, stemmed: Sequence[str], game: str | None
                     ) -> list[tuple[tuple[str, ...], tuple[int, int]]]:
        """Return :meth:`expand`'s expansions, each with the span of *stemmed* it expands."""
        games = [g for g in self.by_game if game is None or g in (game, "all")]
        out: dict[tuple[str, ...], tuple[int, int]] = {}
        present = set(stemmed)
        for n in range(MAX_NGRAM, 0, -1):
            for i in range(len(stemmed) - n + 1):
                key = tuple(stemmed[i:i + n])
                for g in games:
                    for value in self.by_game[g].get(key, ()):
                        if value not in out and not set(value) <= present:
                            out[value] = (i, i + n)
        return list(out.items())


# --------------------------------------------------------------------------- the question

# Words that open a question (or a clause asking one): "can I ...", "who resolves first", "does it ...".
ASKING = frozenset((
    "can", "cant", "could", "do", "does", "doesnt", "dont", "did", "is", "isnt", "are", "arent", "am", "was",
    "were", "will", "would", "should", "shall", "may", "might", "must", "how", "hows", "what", "whats", "when",
    "where", "which", "who", "whos", "whom", "whose", "why", "whether",
))
# "One" is mostly "a" ("units in one area", "the one with the most"), hardly ever the number asked for:
# it weighs less than a topic word (other number words do count: "two player game").
NUMBER_WORDS = frozenset(("one", "ones"))
NUMBER_WEIGHT = 0.3
SITUATION_WEIGHT = 0.7  # a word of the table story around the question, against 1 for the question's own
SHORT_QUESTION = 10  # topic words: a question this short is all question
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;:])\s+|\s+[-–—]+\s+")
_CLAUSE_SPLIT = re.compile(r",\s*|\s+(?:and|but|so|then)\s+(?=\w)", re.I)


def _opens_question(piece: str) -> bool:
    """Return whether *piece* opens with a question word ("can", "who", "does", ...)."""
    first = re.match(r"\W*([\w']+)", piece)
    return bool(first and first.group(1).lower().replace("'", "") in ASKING)


def _asks(piece: str) -> bool:
    """Return whether *piece* asks something: it ends with "?" or opens with a question word."""
    return piece.rstrip().endswith("?") or _opens_question(piece)


def segments(text: str) -> list[tuple[str, float]]:
    """Return *text* cut into pieces, each with the weight of its words: the question itself 1, the
    situation described around it :data:`SITUATION_WEIGHT`.

    A short question (:data:`SHORT_QUESTION` topic words or fewer) is all question. Otherwise the
    sentences that ask (ending with "?" or opening with a question word) are the question, or the
    last sentence when none does; in a long asking sentence, the clauses before the last one that
    opens with a question word ("if my unit is engaged and flanked, who attacks first") are situation.
    """
    if len(topic_words(text)) <= SHORT_QUESTION:
        return [(text, 1.0)]
    sentences = [s for s in _SENTENCE_SPLIT.split(text) if s.strip()]
    asking = [i for i, s in enumerate(sentences) if _asks(s)] or [len(sentences) - 1]
    out: list[tuple[str, float]] = []
    for i, sentence in enumerate(sentences):
        if i not in asking:
            out.append((sentence, SITUATION_WEIGHT))
            continue
        clauses = [c for c in _CLAUSE_SPLIT.split(sentence) if c.strip()]
        start = max((j for j, c in enumerate(clauses) if _opens_question(c)), default=0)
        if len(topic_words(sentence)) <= SHORT_QUESTION or start == 0:
            out.append((sentence, 1.0))
            continue
        out.append((" ".join(clauses[:start]), SITUATION_WEIGHT))
        out.append((" ".join(clauses[start:]), 1.0))
    if not any(topic_words(piece) for piece, weight in out if weight == 1.0):
        return [(text, 1.0)]  # the question says only "is that allowed?": the story is the question
    return out


@dataclass(frozen=True)
class Question:
    """A question as understood: its game, topic words and their weights, corrections, expansions and,
    when it uses query syntax, the whoosh query to run."""

    text: str
    detected_game: str | None
    words: tuple[str, ...]
    query: wq.Query | None
    highlight: frozenset[str]
    corrected: tuple[tuple[str, str], ...] = ()
    stems: tuple[str, ...] = ()
    plain: bool = True  # no phrase, +, - or NOT: any one word is enough for a paragraph to match
    expanded: tuple[str, ...] = ()
    quantity: bool = False  # "how many", "max", "limit": the answer states a number
    weights: tuple[tuple[str, float], ...] = ()  # each stem searched and its weight
    phrases: tuple[tuple[tuple[str, ...], float], ...] = ()  # expansions: stems found together, weight
    inferred: bool = False  # the detected game was inferred from the words, not named
    parts: tuple[tuple[str, float], ...] = ()  # the topic words of each piece (question, situation), its weight

    def corrected_text(self) -> str | None:
        """Return the question with each misspelt word replaced by its correction, or ``None``."""
        return _corrected(self.text, self.corrected) if self.corrected else None


def _corrected(text: str, corrected: Iterable[tuple[str, str]]) -> str:
    """Return *text* with each misspelt word of *corrected* ``(wrong, right)`` replaced."""
    for wrong, right in corrected:
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


# A quote, +word, -word or an operator; "+4", "-1" (a bonus, a penalty) are numbers, not syntax.
_SYNTAX = re.compile(r'"|(?:^|\s)[+-][^\W\d]|\b(?:AND|OR|NOT)\b')


COORD_SCALE = 0.9  # whoosh's coordination bonus: a paragraph holding more of the words scores more


def words_query(stemmed: Sequence[str], fields: Sequence[str], boost: float = 1.0) -> wq.Or:
    """Return the query for one stemmed word, or a phrase of several, in any of *fields*."""
    if len(stemmed) == 1:
        return wq.Or([wq.Term(f, stemmed[0], boost=boost) for f in fields])
    return wq.Or([wq.Phrase(f, list(stemmed), slop=1, boost=boost) for f in fields])


def plain_query(stemmed: Sequence[str], fields: Sequence[str],
                common: Callable[[str, str], bool] = lambda f, s: False) -> wq.Or:
    """Return what whoosh's multi-field parser makes of plain words: each word in any field, OR-ed.

    A word *common* in a field (in a large share of the paragraphs' text or ``asked``: "card", "unit")
    is looked for only in the other fields (used for questions with syntax, which whoosh runs).
    """
    return wq.Or([wq.Term(f, s) for s in dict.fromkeys(stemmed) for f in fields if not common(f, s)])


@dataclass(frozen=True)
class _Read:
    """The words of a question as read: each with its weight, the corrections, whoosh's text."""

    words: list[str]
    weights: list[float]
    corrected: list[tuple[str, str]]
    pieces: list[str]
    variants: list[tuple[str, float]] = field(default_factory=list)  # the corpus's other spelling of a word
    parts: list[tuple[list[str], float]] = field(default_factory=list)  # the words of each segment, its weight


def _read_words(cleaned: str, vocabulary: Vocabulary, syntax: bool) -> _Read:
    """Return the topic words of *cleaned* (corrected, weighted by :func:`segments`) and whoosh's text."""
    read = _Read([], [], [], [])
    for part, weight in segments(cleaned) if not syntax else [(cleaned, 1.0)]:
        start = len(read.words)
        for token in re.split(r"(\W+)", part):
            low = token.lower()
            if not token or not _WORD_RE.fullmatch(token) or low in STOPS:
                # keep operators and quotes for whoosh's parser; drop question words
                keep = syntax and (not _WORD_RE.fullmatch(token) or token in ("AND", "OR", "NOT"))
                read.pieces.append(token if keep else " ")
                continue
            if not vocabulary.knows(low) and not _GAME_WORD.fullmatch(low):
                fix = vocabulary.correct(low)
                if fix is not None and fix != low:
                    read.corrected.append((token, fix))
                    low = fix
            elif vocabulary.speller is not None and (other := vocabulary.speller.variant(low)):
                read.variants.append((other, weight))  # "defence" also finds "defense"
            read.words.append(low)
            read.weights.append(weight * (NUMBER_WEIGHT if low in NUMBER_WORDS else 1.0))
            read.pieces.append(low)
        read.pieces.append(" ")
        if len(read.words) > start:
            read.parts.append((read.words[start:], weight))
    return read


_SYNTAX_NODES = (wq.Phrase, wq.Not, wq.And, wq.AndNot, wq.Require, wq.AndMaybe)


def _uses_syntax(query: wq.Query) -> bool:
    """Return whether whoosh read *query* as more than words OR-ed (a phrase, a required or excluded word)."""
    return isinstance(query, _SYNTAX_NODES) or any(_uses_syntax(q) for q in query.children())


def _parsed(read: _Read, parse: Callable[[str], wq.Query]) -> wq.Query | None:
    """Return whoosh's reading of a question with syntax, or ``None`` when it reads as plain words
    (an unclosed quote, a lone bracket) or does not parse."""
    try:
        main = parse("".join(read.pieces))
    except Exception:  # whoosh's parser is forgiving, but never let syntax break a search
        return None
    return main if _uses_syntax(main) else None


def _whoosh_query(main: wq.Query, expanded: Sequence[tuple[str, ...]], fields: Sequence[str]) -> wq.Query:
    """Return the whoosh query of a question with syntax (phrases, ``+``, ``-``, ``NOT``)."""
    extra: list[wq.Query] = []
    for value in expanded:
        extra += words_query(value, fields, EXPANSION_BOOST).subqueries
    return wq.Or([main, wq.Or(extra)]) if extra else main


def understand(text: str, *, games: Iterable[str], chosen_game: str | None, detect: bool,
               vocabulary: Vocabulary, table: ExpansionTable,
               parse: Callable[[str], wq.Query], fields: Sequence[str],
               infer: Callable[[Sequence[tuple[str, float]]], str | None] | None = None) -> Question:
    """Return the :class:`Question` of *text* (see the module docstring for the steps).

    *infer*, given the weighted stems of a question that names no game, returns the game its words
    point to (or ``None``); it is asked only when the caller chose no game and *detect* is on.
    """
    text = " ".join(text[:MAX_QUERY_CHARS].split())
    mention = detect_game(text, games) if detect or chosen_game else GameMention(None, text)
    detected = mention.game if detect and chosen_game is None else None
    # the game's name is no topic: drop it when it is the game searched
    cleaned = mention.text if mention.game is not None and mention.game == (chosen_game or detected) else text
    if not topic_words(cleaned):  # the game's name was the whole question ("runeslingers"): search it
        cleaned = text
    syntax = bool(_SYNTAX.search(cleaned))
    read = _read_words(cleaned, vocabulary, syntax)
    if read.corrected and mention.game is None and (detect or chosen_game):
        fixed = _corrected(text, read.corrected)
        if detect_game(fixed, games).game is not None:  # a misspelt game name ("runeslingres") names it
            again = understand(fixed, games=games, chosen_game=chosen_game, detect=detect, vocabulary=vocabulary,
                               table=table, parse=parse, fields=fields, infer=infer)
            return replace(again, text=text, corrected=tuple(dict.fromkeys(read.corrected + list(again.corrected))))
    parsed = None
    if syntax:
        negated = re.findall(r"(?:^|\s)(?:-|NOT\s+)(\w+)", cleaned)
        parsed = _parsed(read, parse) if len(negated) < len(read.words) else None
        if parsed is None:  # plain words after all ("-attack" alone, an unclosed quote): read again
            syntax = False
            read = _read_words(cleaned, vocabulary, False)
    if not read.words:
        return Question(text, detected, (), None, frozenset(), tuple(read.corrected))
    stemmed = [stem_word(w) for w in read.words]
    weight: dict[str, float] = {}
    for stem, w in zip(stemmed, read.weights, strict=True):
        weight[stem] = max(weight.get(stem, 0.0), w)
    inferred = False
    if chosen_game is None and detected is None and detect and infer is not None and not syntax:
        detected = infer(list(weight.items()))
        inferred = detected is not None
    game = chosen_game or detected
    spans = table.expand_spans(stemmed, game)[:MAX_EXPANSIONS]
    expanded = [value for value, _ in spans]
    phrases = tuple((value, EXPANSION_BOOST * max(read.weights[a:b])) for value, (a, b) in spans)
    phrases += tuple(((stem_word(other),), w) for other, w in read.variants)
    highlight = set(stemmed).union(*expanded, *(value for value, _ in phrases))
    query = _whoosh_query(parsed, expanded, fields) if parsed is not None else None
    return Question(text, detected, tuple(read.words), query, frozenset(highlight), tuple(read.corrected),
                    stems=tuple(weight), plain=not syntax,
                    expanded=tuple(dict.fromkeys(w for value in expanded for w in value)),
                    quantity=bool(QUANTITY.search(text)), weights=tuple(weight.items()), phrases=phrases,
                    inferred=inferred, parts=tuple((" ".join(words), w) for words, w in read.parts))


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
