"""The quick reference's topics as data: ``rules/quickref.yaml`` read, validated and cached.

``quickref.yaml`` lists, per game, chapters of topics; each topic names the corpus paragraphs it shows and
its layout ``block`` (see :mod:`engine.views.quickref`). The file is read by the one YAML reader
(:mod:`engine.corpus.yamlio`) and its entries validated by pydantic models (:class:`TopicEntry`,
:class:`ChapterEntry`); what needs the corpus (paragraph ids, their game, fact keys) and the whole file
(keys used twice, a default selection) is checked on the typed entries. Every problem has file and line.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, Field, ValidationError

from engine.corpus import Corpus, Problem, corpus_version, get_corpus
from engine.corpus.schema import problems_of
from engine.corpus.yamlio import YamlDoc, YamlError, read_yaml
from engine.errors import CorpusError
from engine.model import Model, refuse
from engine.views.quickref.icons import ICONS

QUICKREF_FILE = "quickref.yaml"
KEY_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
BLOCKS = ("rules", "sequence", "steps", "table", "facts", "lookup", "callouts", "icons")


# --------------------------------------------------------------------------------------- topics as data

@dataclass(frozen=True)
class Topic:
    """One selectable topic: a heading and the corpus paragraphs it shows, in order."""

    key: str
    heading: str
    chapter: str
    paragraphs: tuple[str, ...]
    default: bool
    block: str = "rules"
    icons: tuple[str | None, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return the topic as JSON (for the web app's checkboxes)."""
        return {"key": self.key, "heading": self.heading, "chapter": self.chapter,
                "paragraphs": list(self.paragraphs), "default": self.default, "block": self.block}


@dataclass(frozen=True)
class Chapter:
    """A group of topics under one heading (the sheet's and the builder page's grouping)."""

    key: str
    heading: str
    topics: tuple[Topic, ...]

    def to_json(self) -> dict[str, Any]:
        """Return the chapter and its topics as JSON."""
        return {"key": self.key, "heading": self.heading, "topics": [t.to_json() for t in self.topics]}


@dataclass(frozen=True)
class GameTopics:
    """The topics of one game, grouped in chapters, as listed in ``rules/quickref.yaml``."""

    game: str
    chapters: tuple[Chapter, ...]

    @property
    def all_topics(self) -> tuple[Topic, ...]:
        """Return every topic, in sheet order."""
        return tuple(t for c in self.chapters for t in c.topics)

    def topic(self, key: str) -> Topic | None:
        """Return the topic called *key*, if any."""
        return next((t for t in self.all_topics if t.key == key), None)

    def chapter(self, key: str) -> Chapter | None:
        """Return the chapter called *key*, if any."""
        return next((c for c in self.chapters if c.key == key), None)


# --------------------------------------------------------------------------------------- the file's schema

def _heading(value: str) -> str:
    if not value.strip():
        raise refuse("must be a non-empty string")
    return value.strip()


Heading = Annotated[str, AfterValidator(_heading)]


class TopicEntry(Model):
    """One topic as written: a key, a heading, its paragraphs and how they are laid out."""

    key: str
    heading: Heading
    paragraphs: Annotated[list[str], Field(min_length=1)]
    default: bool = False
    block: str = "rules"
    icons: list[str | None] | None = None
    facts: dict[str, list[str]] | None = None
    notes: list[str] | None = None


class ChapterEntry(Model):
    """A chapter as written: its topics are read one by one (:class:`TopicEntry`)."""

    key: str
    heading: Heading
    topics: Annotated[list[Any], Field(min_length=1)]


class GameEntry(Model):
    """One game's entry: its chapters (read one by one)."""

    chapters: list[Any]


class QuickrefFile(Model):
    """``quickref.yaml``: the games (each read on its own)."""

    games: dict[str, Any]


MUST = {"": "a mapping with 'games'", "games": "a mapping of games to their chapters",
        "chapters": "a list of chapters", "topics": "a non-empty list of topics", "key": "a key (lower-case [a-z0-9-])",
        "paragraphs": "a non-empty list of ids", "default": "true or false", "block": f"one of {', '.join(BLOCKS)}",
        "icons": "a list with one name (or null) per paragraph", "facts": "a mapping of paragraph ids to fact keys",
        "notes": "a list of paragraphs of the topic"}


# --------------------------------------------------------------------------------------- reading

class _Reader:
    """Reads the entries of one ``quickref.yaml``, collecting problems (keys are unique within a game)."""

    def __init__(self, doc: YamlDoc, corpus: Corpus) -> None:
        self.doc, self.corpus = doc, corpus
        self.problems: list[Problem] = []
        self.seen: dict[str, int] = {}

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.doc.file, line, message))

    def entry(self, model: type[Model], raw: Any, where: str, must: dict[str, str] = MUST) -> Any:
        """Return *raw* validated as *model*, or ``None`` with each error a problem at its line."""
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            self.problems.extend(problems_of(exc, self.doc, raw, where, must))
            return None

    def key(self, raw: Any, where: str) -> None:
        """Check the key of a chapter or topic (a mapping): its form, not reserved, not used before."""
        key, line = raw.get("key") if isinstance(raw, dict) else None, self.doc.line(raw)
        if not isinstance(key, str) or not KEY_RE.match(key):
            self.problem(line, f"{where}: key must be lower-case [a-z0-9-], got {key!r}")
            return
        if key in {"all", "default"}:
            self.problem(line, f"{where}: key {key!r} is reserved")
        if key in self.seen:
            self.problem(line, f"{where}: key {key!r} is used twice (first at line {self.seen[key]})")
        self.seen.setdefault(key, line)

    def game(self, game: str, raw: Any) -> GameTopics:
        """Return the topics of *game* read from its entry (its chapter and topic keys are its own)."""
        self.seen = {}
        entry = self.entry(GameEntry, raw, game, {**MUST, "": "a mapping with a list of 'chapters'"})
        chapters = [] if entry is None else [c for c in (self.chapter(game, craw) for craw in entry.chapters) if c]
        result = GameTopics(game, tuple(chapters))
        if chapters and not any(t.default for t in result.all_topics):
            self.problem(self.doc.line(raw), f"{game}: no topic is in the default selection")
        return result

    def chapter(self, game: str, raw: Any) -> Chapter | None:
        self.key(raw, f"{game} chapter")
        where = f"{game} chapter {raw.get('key') if isinstance(raw, dict) else None!r}"
        entry = self.entry(ChapterEntry, raw, where, {**MUST, "": "a mapping (one chapter)"})
        if entry is None:
            return None
        topics = [t for t in (self.topic(game, entry.key, traw) for traw in entry.topics) if t]
        return Chapter(entry.key, entry.heading, tuple(topics))

    def topic(self, game: str, chapter: str, raw: Any) -> Topic | None:
        self.key(raw, f"{game} topic")
        where = f"{game} topic {raw.get('key') if isinstance(raw, dict) else None!r}"
        entry = self.entry(TopicEntry, raw, where, {**MUST, "": "a mapping (one topic)"})
        if entry is None:
            return None
        line = self.doc.line(raw)
        self.paragraphs(entry, game, where, line)
        block = entry.block
        if block not in BLOCKS:
            self.problem(line, f"{where}: block must be one of {', '.join(BLOCKS)}, got {block!r}")
            block = "rules"
        notes = entry.notes or []
        if not all(n in entry.paragraphs for n in notes):
            self.problem(line, f"{where}: notes must list paragraphs of the topic, got {notes!r}")
            notes = []
        return Topic(entry.key, entry.heading, chapter, tuple(entry.paragraphs), entry.default, block,
                     self.icons(entry, where, line), self.facts(entry, where, line), tuple(notes))

    def paragraphs(self, entry: TopicEntry, game: str, where: str, line: int) -> None:
        for pid in entry.paragraphs:
            para = self.corpus.paragraphs.get(pid)
            if para is None:
                self.problem(line, f"{where}: unknown paragraph id {pid!r}")
            elif para.game != game:
                self.problem(line, f"{where}: {pid!r} belongs to {para.game}, not {game}")
        if len(set(entry.paragraphs)) != len(entry.paragraphs):
            self.problem(line, f"{where}: a paragraph is listed twice")

    def icons(self, entry: TopicEntry, where: str, line: int) -> tuple[str | None, ...]:
        """Return the icon of each paragraph (``icons:``, one name or null per paragraph, in order)."""
        if entry.icons is None:
            return ()
        if len(entry.icons) != len(entry.paragraphs):
            self.problem(line, f"{where}: icons must be a list with one name (or null) per paragraph")
            return ()
        for name in entry.icons:
            if name is not None and name not in ICONS:
                self.problem(line, f"{where}: unknown icon {name!r} (one of {', '.join(ICONS)})")
        return tuple(n if n in ICONS else None for n in entry.icons)

    def facts(self, entry: TopicEntry, where: str, line: int) -> tuple[tuple[str, str], ...]:
        """Return the (paragraph, fact key) rows of a facts table (``facts: {id: [key, ...]}``)."""
        rows: list[tuple[str, str]] = []
        for pid, keys in (entry.facts or {}).items():
            if pid not in entry.paragraphs:
                self.problem(line, f"{where}: facts name {pid!r}, which is not in paragraphs")
                continue
            if pid not in self.corpus.paragraphs:
                continue
            for k in keys:
                if k not in self.corpus.facts_of(pid):
                    self.problem(line, f"{where}: paragraph {pid!r} has no fact {k!r}")
                else:
                    rows.append((pid, k))
        return tuple(rows)


def read_catalog(corpus: Corpus) -> tuple[dict[str, GameTopics], list[Problem]]:
    """Read ``quickref.yaml`` beside the corpus and return the topics of each game and every problem."""
    try:
        doc = read_yaml(corpus.root / QUICKREF_FILE, QUICKREF_FILE)
    except YamlError as exc:
        return {}, [Problem(exc.file, exc.line, exc.message)]
    reader = _Reader(doc, corpus)
    parsed = reader.entry(QuickrefFile, doc.data, "")
    if parsed is None:
        return {}, reader.problems
    found: dict[str, GameTopics] = {}
    for game, graw in parsed.games.items():
        if game not in corpus.games:
            known = ", ".join(corpus.games)
            reader.problem(doc.line_of(("games", game)), f"unknown game {game!r} (one of {known})")
            continue
        found[game] = reader.game(game, graw)
    for game in corpus.games:
        if game not in found:
            reader.problem(1, f"no quick-reference topics for game {game!r}")
    return found, reader.problems


_CACHE: dict[tuple[str, str], tuple[weakref.ref[Corpus], dict[str, GameTopics]]] = {}


def catalog(corpus: Corpus | None = None) -> dict[str, GameTopics]:
    """Return the validated topics of every game (read again when the corpus version changes).

    ``quickref.yaml`` is one of the corpus files, so its edits change the
    :class:`~engine.corpus.CorpusVersion` this cache is keyed on.
    Raises :class:`CorpusError` (with file and line of each problem) when the file does not validate.
    """
    corpus = corpus if corpus is not None else get_corpus()
    key = (str(corpus.root), corpus_version(corpus.root).digest)
    hit = _CACHE.get(key)
    if hit is not None and hit[0]() is corpus:
        return hit[1]
    found, problems = read_catalog(corpus)
    if problems:
        raise CorpusError(problems)
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[key] = (weakref.ref(corpus), found)
    return found
