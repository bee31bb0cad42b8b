"""Build the printable quick reference of a game: a compact, two-column sheet made from the corpus.

What goes on the sheet is data, not copy: ``rules/quickref.yaml`` lists, per game, chapters of topics,
each topic a heading and the ids of the corpus paragraphs it shows, and which topics make the default
selection. The text shown is the corpus's own (errata-corrected, :meth:`Corpus.text_of`), tables come
from ``kind: table`` paragraphs, and every entry carries its locator in small print.

Functions for the command line, the web app and the site build::

    topics(game) -> list[Chapter]                       chapters with their topics (for checkboxes)
    default_topics(game) -> list[str]                   the keys of the default selection
    select_topics(game, spec) -> list[str]              parse "a,b", "+a,-b", "default,+a", "all,-b"
    build(game, topics=None, paper="a4") -> QuickRef    the sheet as data (entries, tables, locators)
    render_html(game, topics=None, paper="a4") -> str   a standalone HTML page (print CSS included)
    render_pdf(game, topics=None, paper="a4") -> bytes  the PDF (WeasyPrint)
    write(game, out, topics=None, paper="a4", fmt="pdf") -> Written   written aside, renamed into place
    build_defaults(out_dir) -> list[Path]               quickref-<game>.pdf for every game

``topics=None`` means the game's default selection, which is fitted on at most two pages (the type is
made a little smaller, down to a floor, when the default would not fit at the normal size).
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import tempfile
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from engine.corpus import Corpus, Problem, get_corpus
from engine.errors import CorpusError, UnreadableInputError

QUICKREF_FILE = "quickref.yaml"
TEMPLATES = Path(__file__).resolve().parent / "templates" / "quickref"
PAPERS: dict[str, str] = {"a4": "A4", "letter": "Letter"}
FORMATS = ("pdf", "html")
DEFAULT_MAX_PAGES = 2
KEY_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_BULLET_RE = re.compile(r"^\s*[-*\u2022]\s+(.*)$")
_NUMBER_RE = re.compile(r"^\s*(\d{1,2})[.)]\s+(.*)$")
_INLINE_STEP_RE = re.compile(r"(?:^|(?<=: )|(?<=; ))(\d{1,2})\. ")
_PAREN_RE = re.compile(r"^\s*(\((?:\d{1,2}|[a-z])\))\s+(.*)$")


@dataclass(frozen=True)
class Density:
    """A type scale: body size and leading in points (the sheet's print density)."""

    name: str
    font_pt: float
    leading: float

    @classmethod
    def from_name(cls, name: str) -> Density:
        """Return the density called *name* (``normal``, ``compact`` or ``tight``)."""
        for d in DENSITIES:
            if d.name == name:
                return d
        known = ", ".join(d.name for d in DENSITIES)
        raise UnreadableInputError(f"unknown density {name!r} (one of {known})", path="density")


DENSITIES = (Density("normal", 7.6, 1.22), Density("compact", 7.1, 1.2), Density("tight", 6.7, 1.18))


# --------------------------------------------------------------------------------------- topics as data

@dataclass(frozen=True)
class Topic:
    """One selectable topic: a heading and the corpus paragraphs it shows, in order."""

    key: str
    heading: str
    chapter: str
    paragraphs: tuple[str, ...]
    default: bool

    def to_json(self) -> dict[str, Any]:
        """Return the topic as JSON (for the web app's checkboxes)."""
        return {"key": self.key, "heading": self.heading, "chapter": self.chapter,
                "paragraphs": list(self.paragraphs), "default": self.default}


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

    @classmethod
    def from_yaml(cls, game: str, raw: Any, corpus: Corpus, rel: str,
                  problems: list[Problem]) -> GameTopics:
        """Return the topics of *game* read from its ``quickref.yaml`` entry, adding any problem found."""
        line = _line(raw)
        chapters: list[Chapter] = []
        seen: dict[str, int] = {}
        if not isinstance(raw, dict) or not isinstance(raw.get("chapters"), list):
            problems.append(Problem(rel, line, f"{game}: needs a list of 'chapters'"))
            return cls(game, ())
        _unknown_keys(raw, {"chapters"}, f"{game}", rel, problems)
        for craw in raw["chapters"]:
            cline = _line(craw)
            if not isinstance(craw, dict):
                problems.append(Problem(rel, cline, f"{game}: a chapter must be a mapping, got {craw!r}"))
                continue
            ckey = _key(craw, f"{game} chapter", rel, problems, seen)
            where = f"{game} chapter {ckey!r}"
            _unknown_keys(craw, {"key", "heading", "topics"}, where, rel, problems)
            heading = _heading(craw, where, rel, problems)
            topics: list[Topic] = []
            if not isinstance(craw.get("topics"), list) or not craw["topics"]:
                problems.append(Problem(rel, cline, f"{where}: needs a non-empty list of 'topics'"))
            for traw in craw.get("topics") or []:
                if not isinstance(traw, dict):
                    problems.append(Problem(rel, _line(traw), f"{where}: a topic must be a mapping"))
                    continue
                topic = _topic(traw, game, ckey, corpus, rel, problems, seen)
                if topic is not None:
                    topics.append(topic)
            chapters.append(Chapter(ckey, heading, tuple(topics)))
        result = cls(game, tuple(chapters))
        if chapters and not any(t.default for t in result.all_topics):
            problems.append(Problem(rel, line, f"{game}: no topic is in the default selection"))
        return result


def _line(raw: Any) -> int:
    return int(raw.get("__line__", 0)) if isinstance(raw, dict) else 0


def _unknown_keys(raw: dict[str, Any], allowed: set[str], where: str, rel: str,
                  problems: list[Problem]) -> None:
    for key in raw:
        if key != "__line__" and key not in allowed:
            problems.append(Problem(rel, _line(raw), f"{where}: unknown key {key!r}"))


def _key(raw: dict[str, Any], where: str, rel: str, problems: list[Problem], seen: dict[str, int]) -> str:
    key = raw.get("key")
    if not isinstance(key, str) or not KEY_RE.match(key):
        problems.append(Problem(rel, _line(raw), f"{where}: key must be lower-case [a-z0-9-], got {key!r}"))
        return str(key)
    if key in {"all", "default"}:
        problems.append(Problem(rel, _line(raw), f"{where}: key {key!r} is reserved"))
    if key in seen:
        problems.append(Problem(rel, _line(raw), f"{where}: key {key!r} is used twice (first at line "
                                                 f"{seen[key]})"))
    seen.setdefault(key, _line(raw))
    return key


def _heading(raw: dict[str, Any], where: str, rel: str, problems: list[Problem]) -> str:
    heading = raw.get("heading")
    if not isinstance(heading, str) or not heading.strip():
        problems.append(Problem(rel, _line(raw), f"{where}: heading must be a non-empty string"))
        return str(raw.get("key"))
    return heading.strip()


def _topic(raw: dict[str, Any], game: str, chapter: str, corpus: Corpus, rel: str,
           problems: list[Problem], seen: dict[str, int]) -> Topic | None:
    line = _line(raw)
    key = _key(raw, f"{game} topic", rel, problems, seen)
    where = f"{game} topic {key!r}"
    _unknown_keys(raw, {"key", "heading", "paragraphs", "default"}, where, rel, problems)
    heading = _heading(raw, where, rel, problems)
    default = raw.get("default", False)
    if not isinstance(default, bool):
        problems.append(Problem(rel, line, f"{where}: default must be true or false, got {default!r}"))
        default = False
    ids = raw.get("paragraphs")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        problems.append(Problem(rel, line, f"{where}: paragraphs must be a non-empty list of ids"))
        return None
    for pid in ids:
        para = corpus.paragraphs.get(pid)
        if para is None:
            problems.append(Problem(rel, line, f"{where}: unknown paragraph id {pid!r}"))
        elif para.game != game:
            problems.append(Problem(rel, line, f"{where}: {pid!r} belongs to {para.game}, not {game}"))
    if len(set(ids)) != len(ids):
        problems.append(Problem(rel, line, f"{where}: a paragraph is listed twice"))
    return Topic(key, heading, chapter, tuple(ids), default)


class _LineLoader(yaml.SafeLoader):
    """A safe YAML loader that records each mapping's line under ``__line__``."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    mapping = {loader.construct_object(k, deep=True): loader.construct_object(v, deep=True)
               for k, v in node.value}
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_catalog(corpus: Corpus) -> tuple[dict[str, GameTopics], list[Problem]]:
    """Read ``quickref.yaml`` beside the corpus and return the topics of each game and every problem."""
    path = corpus.root / QUICKREF_FILE
    rel = QUICKREF_FILE
    problems: list[Problem] = []
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_LineLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        return {}, [Problem(rel, (mark.line + 1) if mark else 0, f"unreadable yaml: {exc.problem}")]
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        return {}, [Problem(rel, 0, f"unreadable file: {exc}")]
    if not isinstance(raw, dict) or not isinstance(raw.get("games"), dict):
        return {}, [Problem(rel, 1, "quickref.yaml must be a mapping with 'games'")]
    catalog: dict[str, GameTopics] = {}
    for game, graw in raw["games"].items():
        if game == "__line__":
            continue
        if game not in corpus.games:
            known = ", ".join(corpus.games)
            problems.append(Problem(rel, _line(graw), f"unknown game {game!r} (one of {known})"))
            continue
        catalog[game] = GameTopics.from_yaml(game, graw, corpus, rel, problems)
    for game in corpus.games:
        if game not in catalog:
            problems.append(Problem(rel, 1, f"no quick-reference topics for game {game!r}"))
    return catalog, problems


_CACHE: dict[tuple[str, int], tuple[weakref.ref[Corpus], dict[str, GameTopics]]] = {}


def catalog(corpus: Corpus | None = None) -> dict[str, GameTopics]:
    """Return the validated topics of every game (read again when ``quickref.yaml`` changes).

    Raises :class:`CorpusError` (with file and line of each problem) when the file does not validate.
    """
    corpus = corpus if corpus is not None else get_corpus()
    path = corpus.root / QUICKREF_FILE
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        mtime = 0
    key = (str(path), mtime)
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


def game_topics(game: str, corpus: Corpus | None = None) -> GameTopics:
    """Return the topics of *game*, or raise :class:`UnreadableInputError` for an unknown game."""
    corpus = corpus if corpus is not None else get_corpus()
    found = catalog(corpus)
    if game not in found:
        raise UnreadableInputError(f"unknown game {game!r} (one of {', '.join(found)})", path="game")
    return found[game]


def topics(game: str, corpus: Corpus | None = None) -> list[Chapter]:
    """Return the chapters of *game* with their topics, in sheet order."""
    return list(game_topics(game, corpus).chapters)


topics_of = topics


def default_topics(game: str, corpus: Corpus | None = None) -> list[str]:
    """Return the keys of the topics in *game*'s default selection."""
    return [t.key for t in game_topics(game, corpus).all_topics if t.default]


def select_topics(game: str, spec: str | Sequence[str] | None, corpus: Corpus | None = None) -> list[str]:
    """Return the topic keys a selection names, in sheet order.

    *spec* is ``None`` (the default selection), a comma-separated string or a list of items. Plain items
    (topic keys, chapter keys for all of a chapter's topics, ``default`` or ``all``) make the base
    selection; without any, the base is the default selection. ``+key`` adds, ``-key`` removes.
    """
    gt = game_topics(game, corpus)
    if spec is None:
        return [t.key for t in gt.all_topics if t.default]
    items = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else [str(s).strip() for s in spec]
    items = [s for s in items if s]
    base: list[str] = []
    changes: list[tuple[str, str, int]] = []
    for n, item in enumerate(items):
        sign = item[0] if item[0] in "+-" else ""
        key = item[1:].strip() if sign else item
        if sign:
            changes.append((sign, key, n))
        else:
            base.append(key)
    chosen: set[str] = set()
    if not base:
        chosen = {t.key for t in gt.all_topics if t.default}
    for n, key in enumerate(base):
        chosen |= _expand(gt, key, f"topics[{n}]")
    for sign, key, n in changes:
        keys = _expand(gt, key, f"topics[{n}]")
        chosen = chosen | keys if sign == "+" else chosen - keys
    ordered = [t.key for t in gt.all_topics if t.key in chosen]
    if not ordered:
        raise UnreadableInputError(f"no topics selected for {game} (the selection {spec!r} leaves none)",
                                   path="topics")
    return ordered


def _expand(gt: GameTopics, key: str, path: str) -> set[str]:
    if key == "all":
        return {t.key for t in gt.all_topics}
    if key == "default":
        return {t.key for t in gt.all_topics if t.default}
    topic = gt.topic(key)
    if topic is not None:
        return {topic.key}
    chapter = gt.chapter(key)
    if chapter is not None:
        return {t.key for t in chapter.topics}
    known = ", ".join(t.key for t in gt.all_topics)
    raise UnreadableInputError(f"unknown topic {key!r} for {gt.game} (one of: {known}; or a chapter key, "
                               f"'default', 'all')", path=path)


# --------------------------------------------------------------------------------------- the sheet as data

@dataclass(frozen=True)
class Block:
    """A block of an entry's text: a paragraph (``p``) or a list (``list``) of marked items."""

    kind: str
    items: tuple[tuple[str, str], ...]

    @classmethod
    def from_text(cls, text: str) -> tuple[Block, ...]:
        """Split a corpus text into paragraphs and lists (``- item``, ``1. step``, ``(a) case``)."""
        blocks: list[Block] = []
        for group in re.split(r"\n\s*\n", text.strip()):
            lines = [line for line in group.splitlines() if line.strip()]
            kind = ""
            items: list[list[str]] = []
            for line, mark in zip(lines, _marks(lines), strict=True):
                if mark is not None:
                    if kind != "list":
                        blocks.extend(cls._made(kind, items))
                        kind, items = "list", []
                    items.append([mark[0], mark[1]])
                elif kind == "p" or (kind == "list" and _continues(line, items[-1][0], items[-1][1])):
                    items[-1][1] += " " + line.strip()
                else:
                    blocks.extend(cls._made(kind, items))
                    kind, items = "p", [["", line.strip()]]
            blocks.extend(cls._made(kind, items))
        return tuple(blocks)

    @classmethod
    def _made(cls, kind: str, items: list[list[str]]) -> list[Block]:
        """Return the block(s) of collected items: a paragraph with a run-in enumeration becomes two."""
        if not items:
            return []
        marked = tuple((m, " ".join(w.split())) for m, w in items)
        steps = _inline_steps(marked[0][1]) if kind == "p" else None
        if steps is None:
            return [cls(kind, marked)]
        lead, listed = steps
        return ([cls("p", (("", lead),))] if lead else []) + [cls("list", listed)]


def _marks(lines: Sequence[str]) -> list[tuple[str, str] | None]:
    """Return the list marker and text of each line that starts a list item (``None`` for the others)."""
    marks: list[tuple[str, str] | None] = []
    previous: str | None = None
    for line in lines:
        mark = _list_item(line, previous)
        marks.append(mark)
        if mark is not None:
            previous = mark[0]
    paren = [n for n, m in enumerate(marks) if m is not None and m[0].startswith("(")]
    if len(paren) == 1:  # a lone "(1)" at the start of a wrapped line is prose, not a list
        marks[paren[0]] = None
    return marks


def _continues(line: str, marker: str, item: str) -> bool:
    """Return whether *line* continues a list item: it is indented, or (for ``(a)`` lists) the item has
    not ended its sentence."""
    if line[:1].isspace():
        return True
    return marker.startswith("(") and not item.rstrip().endswith((".", "!", "?", ":"))


def _inline_steps(text: str) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """Split a run-in enumeration (``…: 1. a; 2. b; 3. c.``) into its lead and steps, if it has 3 or more."""
    found = list(_INLINE_STEP_RE.finditer(text))
    numbers = [int(m.group(1)) for m in found]
    if len(found) < 3 or numbers != list(range(1, len(found) + 1)):
        return None
    lead = text[:found[0].start()].strip()
    steps = []
    for n, m in enumerate(found):
        end = found[n + 1].start() if n + 1 < len(found) else len(text)
        steps.append((f"{numbers[n]}.", text[m.end():end].strip().rstrip(";").strip()))
    return lead, tuple(steps)


def _list_item(line: str, previous: str | None) -> tuple[str, str] | None:
    m = _BULLET_RE.match(line)
    if m:
        return "\u2022", m.group(1)
    m = _NUMBER_RE.match(line)
    if m:
        number = int(m.group(1))
        expected = int(previous[:-1]) + 1 if previous and previous[:-1].isdigit() else 1
        return (f"{number}.", m.group(2)) if number == expected else None
    m = _PAREN_RE.match(line)
    if m:
        inner = m.group(1)[1:-1]
        after = "1" if inner.isdigit() else "a"
        if previous and previous.startswith("(") and previous[1:-1].isdigit() == inner.isdigit():
            prev = previous[1:-1]
            after = str(int(prev) + 1) if prev.isdigit() else chr(ord(prev) + 1)
        return (m.group(1), m.group(2)) if inner == after else None
    return None


@dataclass(frozen=True)
class Erratum:
    """An erratum applied to an entry: its id, title and locator."""

    id: str
    title: str
    locator: str


@dataclass(frozen=True)
class Entry:
    """One corpus paragraph on the sheet: corrected text split in blocks, table, locator, errata."""

    id: str
    kind: str
    title: str
    blocks: tuple[Block, ...]
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    locator: str
    errata: tuple[Erratum, ...]

    @classmethod
    def from_paragraph(cls, corpus: Corpus, pid: str) -> Entry:
        """Return the sheet entry of paragraph *pid* (errata applied)."""
        p = corpus.get(pid)
        errata = tuple(Erratum(e, corpus.get(e).title, corpus.locator(e))
                       for e in corpus.amended_by.get(pid, ()))
        columns: tuple[str, ...] = ()
        rows: tuple[tuple[str, ...], ...] = ()
        # An erratum corrects a paragraph's text, not its table data: an amended table shows the
        # corrected text in place of the (uncorrected) printed table.
        if p.table is not None and not errata:
            columns = tuple(str(c) for c in p.table.columns)
            rows = tuple(tuple("" if c is None else str(c) for c in r) for r in p.table.rows)
        return cls(pid, p.kind, p.title, Block.from_text(corpus.text_of(pid)), columns, rows,
                   corpus.locator(pid), errata)

    @property
    def is_table(self) -> bool:
        """Return whether the entry shows a table."""
        return bool(self.columns)

    @property
    def text(self) -> str:
        """Return the entry's text as plain words (what the sheet prints)."""
        return " ".join(t for b in self.blocks for _, t in b.items)


@dataclass(frozen=True)
class Section:
    """One topic on the sheet: its heading, chapter heading and entries."""

    key: str
    heading: str
    chapter: str
    chapter_heading: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class QuickRef:
    """A quick-reference sheet as data, ready to render."""

    game: str
    game_title: str
    paper: str
    topics: tuple[str, ...]
    is_default: bool
    sections: tuple[Section, ...]
    documents: tuple[str, ...]

    @property
    def errata_applied(self) -> tuple[Erratum, ...]:
        """Return the distinct errata applied to the sheet's entries."""
        found: dict[str, Erratum] = {}
        for s in self.sections:
            for e in s.entries:
                for er in e.errata:
                    found.setdefault(er.id, er)
        return tuple(found.values())

    @classmethod
    def from_selection(cls, corpus: Corpus, game: str, topic_keys: Iterable[str], paper: str) -> QuickRef:
        """Return the sheet of *game* for topic keys already checked by :func:`select_topics`."""
        gt = game_topics(game, corpus)
        keys = tuple(topic_keys)
        sections = []
        printed: set[str] = set()  # a paragraph in two chosen topics is printed once, in the first
        for chapter in gt.chapters:
            for t in chapter.topics:
                if t.key in keys:
                    entries = tuple(Entry.from_paragraph(corpus, pid) for pid in t.paragraphs if pid not in printed)
                    printed.update(t.paragraphs)
                    if entries:
                        sections.append(Section(t.key, t.heading, chapter.key, chapter.heading, entries))
        docs = [d.title for d in corpus.documents.values() if d.game == game]
        default = tuple(t.key for t in gt.all_topics if t.default)
        return cls(game, corpus.games.get(game, game), paper, keys, keys == default, tuple(sections),
                   tuple(docs))


def _paper(paper: str) -> str:
    key = (paper or "").strip().lower()
    if key not in PAPERS:
        raise UnreadableInputError(f"unknown paper {paper!r} (one of {', '.join(PAPERS)})", path="paper")
    return key


def build(game: str, topics: str | Sequence[str] | None = None, paper: str = "a4",
          corpus: Corpus | None = None) -> QuickRef:
    """Return the sheet of *game* for a topic selection (see :func:`select_topics`) on *paper*."""
    corpus = corpus if corpus is not None else get_corpus()
    paper_key = _paper(paper)
    keys = select_topics(game, topics, corpus)
    return QuickRef.from_selection(corpus, game, keys, paper_key)


# --------------------------------------------------------------------------------------- rendering

def _runin(title: str) -> str:
    """Return *title* ending with punctuation, to run into the text that follows it."""
    title = title.strip()
    return title if title[-1:] in ".?!:" else title + "."


def _css_string(text: str) -> str:
    """Return *text* as a quoted CSS string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("<", "\\3C ")
    return f'"{escaped}"'


def _nobreak(locator: str) -> str:
    """Return *locator* with no-break spaces inside each comma-separated part (it breaks at commas only)."""
    return ", ".join(part.replace(" ", "\u00a0") for part in locator.split(", "))


@functools.lru_cache(maxsize=1)
def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=select_autoescape(enabled_extensions=("html.j2",), default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["runin"] = _runin
    env.filters["css_string"] = _css_string
    env.filters["nobreak"] = _nobreak
    return env


def _html(sheet: QuickRef, density: Density) -> str:
    env = _environment()
    css = env.get_template("quickref.css.j2").render(page_size=PAPERS[sheet.paper], density=density,
                                                     game_title=sheet.game_title)
    return env.get_template("quickref.html.j2").render(sheet=sheet, css=css)


def render_html(game: str, topics: str | Sequence[str] | None = None, paper: str = "a4",
                density: str = "normal", corpus: Corpus | None = None) -> str:
    """Return the sheet as one standalone HTML page (screen preview and print CSS included)."""
    sheet = build(game, topics, paper, corpus)
    return _html(sheet, Density.from_name(density))


@dataclass(frozen=True)
class RenderedPdf:
    """A rendered PDF with its page count and the density it was set in."""

    data: bytes
    pages: int
    density: str


def render(sheet: QuickRef, max_pages: int | None = None) -> RenderedPdf:
    """Return the PDF of *sheet*; with *max_pages*, set it denser (down to a floor) until it fits."""
    from weasyprint import HTML

    tries = DENSITIES if max_pages else DENSITIES[:1]
    document: Any = None
    density = tries[0]
    for density in tries:
        document = HTML(string=_html(sheet, density)).render()
        if max_pages is None or len(document.pages) <= max_pages:
            break
    data = document.write_pdf()
    return RenderedPdf(bytes(data), len(document.pages), density.name)


def render_pdf(game: str, topics: str | Sequence[str] | None = None, paper: str = "a4",
               corpus: Corpus | None = None) -> bytes:
    """Return the sheet as PDF bytes; the default selection (``topics=None``) is fitted on 2 pages."""
    sheet = build(game, topics, paper, corpus)
    return render(sheet, DEFAULT_MAX_PAGES if sheet.is_default else None).data


# --------------------------------------------------------------------------------------- writing files

@dataclass(frozen=True)
class Written:
    """A file written by :func:`write`: where, what and how many pages."""

    path: Path
    fmt: str
    pages: int | None
    density: str
    sheet: QuickRef


def write_atomic(path: Path, data: bytes) -> Path:
    """Write *data* to a temporary file beside *path*, then rename it into place (never half-written)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise UnreadableInputError(f"cannot write {str(path)!r}: {(exc.strerror or str(exc)).lower()}",
                                   path="output") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UnreadableInputError(f"cannot write {str(path)!r}: {(exc.strerror or str(exc)).lower()}",
                                   path="output") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write(game: str, out: Path, topics: str | Sequence[str] | None = None, paper: str = "a4",
          fmt: str = "pdf", corpus: Corpus | None = None) -> Written:
    """Write the sheet of *game* to *out* as PDF or HTML, aside and renamed into place."""
    if fmt not in FORMATS:
        raise UnreadableInputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})", path="format")
    sheet = build(game, topics, paper, corpus)
    if fmt == "html":
        html = _html(sheet, DENSITIES[0])
        return Written(write_atomic(out, html.encode("utf-8")), fmt, None, DENSITIES[0].name, sheet)
    pdf = render(sheet, DEFAULT_MAX_PAGES if sheet.is_default else None)
    return Written(write_atomic(out, pdf.data), fmt, pdf.pages, pdf.density, sheet)


def build_defaults(out_dir: Path, corpus: Corpus | None = None) -> list[Path]:
    """Write ``quickref-<game>.pdf`` (the default selection, A4) for every game into *out_dir*."""
    corpus = corpus if corpus is not None else get_corpus()
    out_dir = Path(out_dir)
    return [write(game, out_dir / f"quickref-{game}.pdf", corpus=corpus).path for game in corpus.games]


def list_topics_text(game: str, corpus: Corpus | None = None) -> str:
    """Return the topics of *game* as text for ``runecodex quickref --list-topics``."""
    corpus = corpus if corpus is not None else get_corpus()
    gt = game_topics(game, corpus)
    width = max(len(t.key) for t in gt.all_topics)
    lines = [f"{corpus.games.get(game, game)} ({game}): quick-reference topics (* = default selection)"]
    for c in gt.chapters:
        lines.append(f"  {c.heading}  [{c.key}]")
        for t in c.topics:
            mark = "*" if t.default else " "
            lines.append(f"    {mark} {t.key:<{width}}  {t.heading}  ({len(t.paragraphs)} paragraphs)")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------- command line

def default_output(game: str, fmt: str) -> Path:
    """Return where ``runecodex quickref`` writes when no ``-o`` is given (under ``build/``)."""
    return Path("build") / "quickref" / f"quickref-{game}.{fmt}"


def quickref_command(game: str, topics: str | None = None, paper: str = "a4", fmt: str | None = None,
                     output: str | None = None, list_only: bool = False, as_json: bool = False) -> int:
    """Run ``runecodex quickref``: list the topics of a game, or write its sheet; return the exit status.

    Bad input raises :class:`UnreadableInputError` (the command line prints it and exits 2).
    """
    corpus = get_corpus()
    if list_only:
        if as_json:
            data = {"game": game, "title": corpus.games.get(game, game),
                    "chapters": [c.to_json() for c in topics_of(game, corpus)],
                    "default": default_topics(game, corpus)}
            sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        else:
            sys.stdout.write(list_topics_text(game, corpus))
        return 0
    if fmt is None:
        fmt = "html" if output and output.lower().endswith((".html", ".htm")) else "pdf"
    if output == "-":
        sheet = build(game, topics, paper, corpus)
        if fmt not in FORMATS:
            raise UnreadableInputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})", path="format")
        data_out = (_html(sheet, DENSITIES[0]).encode("utf-8") if fmt == "html"
                    else render(sheet, DEFAULT_MAX_PAGES if sheet.is_default else None).data)
        sys.stdout.buffer.write(data_out)
        sys.stdout.flush()
        return 0
    out = Path(output) if output else default_output(game, fmt)
    written = write(game, out, topics, paper, fmt, corpus)
    pages = f"{written.pages} page{'s' if written.pages != 1 else ''}, " if written.pages is not None else ""
    dense = f", {written.density} type" if written.density != DENSITIES[0].name else ""
    print(f"wrote {written.path} ({pages}{PAPERS[written.sheet.paper]}{dense}; topics: "
          f"{', '.join(written.sheet.topics)})")
    return 0
