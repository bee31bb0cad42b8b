"""Build the printable quick reference of a game: a reference card made from the corpus, not prose.

What goes on the sheet is data, not copy: ``rules/quickref.yaml`` lists, per game, chapters of topics,
each topic a heading, the ids of the corpus paragraphs it shows and its layout ``block``:

- ``sequence``: the round, turn or combat sequence as numbered steps, read from the first paragraph's
  list fact (``steps``, ``phases``, ``…_steps``), then the other paragraphs as notes;
- ``steps``: every paragraph a numbered step (its short form);
- ``table``: the paragraphs' corpus tables (``Corpus.table_of``: errata-corrected), others as notes;
- ``facts``: a compact table of chosen facts (``facts: {id: [key, …]}``, values from ``Corpus.facts_of``);
- ``icons``: an icon key, one of our SVG glyphs (:mod:`engine.views.quickref.icons`) beside each paragraph;
- ``callouts``: "often forgotten" boxes, each the paragraph's title and short form;
- ``rules`` (default): the paragraphs' short forms.

Each rule is shown by its corpus ``short`` form (one line, numbers kept), rendered through
:mod:`engine.views.render` (the corrected full text when a paragraph has no short form yet); every entry
carries its locator in small print, an amended one an "errata" mark, and the header lists the errata
applied.

Two sizes. The two-page sheet (``size="standard"``): body type at least 8.5 pt, citations 6.8 pt, two
columns; the default selection of each game fills two pages (A4 or Letter) of at most about 900 words each,
set a little denser (down to 8.5 pt) only when needed, or larger (11 pt) when it would leave its second
page half empty; added topics (``--topics +a``) add pages. The large-type sheet (``size="large"``), read
across the table: body 14 pt (never below 12), citations 9.5 pt, one column, one or two topics a page.

The HTML page is the same document: a responsive one-column page on a phone, two columns on a wide
screen, and the same sheet when printed (the print style sheet is the PDF's).

Functions for the command line, the web app and the site build::

    topics(game) -> list[Chapter]                       chapters with their topics (for checkboxes)
    default_topics(game) -> list[str]                   the keys of the default selection
    select_topics(game, spec) -> list[str]              parse "a,b", "+a,-b", "default,+a", "all,-b"
    build(game, topics=None, paper="a4", size="standard") -> QuickRef   the sheet as data (entries, tables, …)
    render_html(game, topics=None, paper="a4", size=…) -> str   a standalone HTML page (print CSS included)
    render_pdf(game, topics=None, paper="a4", size=…) -> bytes  the PDF (WeasyPrint)
    write(game, out, topics=None, paper="a4", fmt="pdf", size=…) -> Written   written aside, renamed into place
    build_defaults(out_dir) -> list[Path]               quickref-<game>.pdf for every game
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from engine.corpus import Corpus, get_corpus
from engine.errors import UnreadableInputError
from engine.files import ownership
from engine.views import render as textrender
from engine.views.quickref.catalog import BLOCKS as BLOCKS
from engine.views.quickref.catalog import KEY_RE as KEY_RE
from engine.views.quickref.catalog import QUICKREF_FILE as QUICKREF_FILE
from engine.views.quickref.catalog import Chapter as Chapter
from engine.views.quickref.catalog import GameTopics as GameTopics
from engine.views.quickref.catalog import Topic as Topic
from engine.views.quickref.catalog import catalog as catalog
from engine.views.quickref.catalog import read_catalog as read_catalog
from engine.views.quickref.icons import svg

TEMPLATES = Path(__file__).resolve().parent / "templates"
PAPERS: dict[str, str] = {"a4": "A4", "letter": "Letter"}
FORMATS = ("pdf", "html")
SIZES = ("standard", "large")  # the two-page sheet; the large-type sheet read across the table
DEFAULT_MAX_PAGES = 2
MAX_WORDS_PER_PAGE = 900


@dataclass(frozen=True)
class Density:
    """A type scale: body size and leading in points (the sheet's print density)."""

    name: str
    font_pt: float
    leading: float

    @classmethod
    def from_name(cls, name: str) -> Density:
        """Return the density called *name* (``normal``, ``compact``, ``tight``, ``roomy`` or ``large``)."""
        for d in (AIRY, *DENSITIES, ROOMY, LARGE):
            if d.name == name:
                return d
        known = ", ".join(d.name for d in DENSITIES)
        raise UnreadableInputError(f"unknown density {name!r} (one of {known})", path="density")


# Body type never goes below 8.5 pt (citations 6.8 pt): a sheet read at arm's length across a table.
DENSITIES = (Density("normal", 9.8, 1.28), Density("compact", 9.4, 1.24), Density("tight", 8.8, 1.2))
ROOMY = Density("roomy", 10.2, 1.32)  # for long selections whose pages would be crowded
LARGE = Density("large", 14.0, 1.3)  # the large-type sheet: read across the table, body never below 12 pt
LARGE_LINE_WORDS = 12  # words a line of the large type holds on A4 or Letter (measured)
LARGE_PAGE_LINES = 40  # lines two topics may take together on one large-type page (44-50 fit: room kept)


@dataclass(frozen=True)
class Scale:
    """The sheet's type scale besides the body: columns, small print, headings, step numbers (points)."""

    columns: int
    small: float
    h1: float
    h2: float
    h3: float
    number: float
    margin: str
    screen_px: float

    @classmethod
    def of(cls, size: str) -> Scale:
        """Return the scale of *size* (``standard`` or ``large``)."""
        return SCALES[size]

    def step_indent(self, density: Density) -> float:
        """Return the hanging indent of a numbered step, in ems of the body (number width and a gap)."""
        return round(1.4 * self.number / density.font_pt + 0.45, 3)


SCALES = {"standard": Scale(2, 6.8, 16, 9.5, 10.5, 8.5, "9mm 6mm 10mm 6mm", 12.5),
          "large": Scale(1, 9.5, 24, 13, 17, 12, "12mm 14mm 13mm 14mm", 17)}
DENSITY_WORDS = (730, 840)  # estimated words a page holds at the normal and compact sizes (measured)
# A default sheet with few words is set larger so that its second page is not left half empty (Runeslingers'
# was: 9.8 pt filled a page and a half); AIRY_WORDS is the words a page holds at that size (measured).
AIRY = Density("airy", 11.0, 1.3)
AIRY_WORDS = 640


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
class Erratum:
    """An erratum applied to an entry: its id, title and locator."""

    id: str
    title: str
    locator: str


def _errata(corpus: Corpus, pid: str) -> tuple[Erratum, ...]:
    return tuple(Erratum(e, corpus.get(e).title, short_locator(corpus, e))
                 for e in corpus.amended_by.get(pid, ()))


def _initials(name: str) -> str:
    return "".join(w[0] for w in name.replace("/", " ").split() if w[:1].isupper())


def short_locator(corpus: Corpus, pid: str) -> str:
    """Return the sheet's small locator of *pid*: ``RR 41.1`` (a numbered paragraph), ``p. 12`` (a page of
    the game's rulebook), ``RR p. 3`` (a page of another book), ``FAQ General Q3``, ``Errata Rulebook p. 7``.

    The full locator (:meth:`Corpus.locator`) is the HTML page's tooltip.
    """
    p = corpus.get(pid)
    doc = corpus.documents[p.source.doc]
    s = p.source
    abbr = _initials(doc.short) or doc.short
    if doc.locator == "paragraph" and s.paragraph and p.id.startswith(f"{doc.prefix}.{s.paragraph}"):
        return f"{abbr} {s.paragraph}"
    if doc.locator == "section" and s.section and s.paragraph:
        section = s.section.replace(":", "")
        if "faq" in s.section.lower():
            return f"{section} Q{s.paragraph}"
        if s.section.lower().startswith("errata: rulebook") and s.paragraph.isdigit():
            return f"{section} p. {s.paragraph}"
        return f"{section} #{s.paragraph}"
    if s.page is not None:
        return f"p. {s.page}" if doc.key == p.game else f"{abbr} p. {s.page}"
    if s.section:  # an unnumbered part of the book, such as the back cover's summary
        return s.section if doc.key == p.game else f"{abbr} {s.section}"
    return corpus.locator(pid)


@dataclass(frozen=True)
class Entry:
    """One corpus paragraph on the sheet, shown by its one-line ``short`` form (errata applied).

    ``blocks`` are the short form parsed by :func:`engine.views.render.blocks` (the corrected full text when
    the paragraph has no short form yet); ``icon`` is the icon an ``icons`` block shows beside it.
    """

    id: str
    kind: str
    title: str
    blocks: tuple[textrender.Block, ...]
    locator: str
    errata: tuple[Erratum, ...]
    icon: str | None = None
    source: str = ""

    @classmethod
    def from_paragraph(cls, corpus: Corpus, pid: str, icon: str | None = None) -> Entry:
        """Return the sheet entry of paragraph *pid*."""
        p = corpus.get(pid)
        text = p.short if p.short else corpus.text_of(pid)
        return cls(pid, p.kind, p.title, textrender.blocks(text), short_locator(corpus, pid),
                   _errata(corpus, pid), icon, corpus.locator(pid))

    @property
    def text(self) -> str:
        """Return the entry's text as plain words (what the sheet prints)."""
        return " ".join(i for b in self.blocks for i in b.items)


@dataclass(frozen=True)
class TableView:
    """A corpus table on the sheet (``Corpus.table_of``: an erratum's corrected table when there is one)."""

    id: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    locator: str
    errata: tuple[Erratum, ...]


@dataclass(frozen=True)
class FactRow:
    """One row of a facts table: a fact's name, its (corrected) value and the paragraph's locator."""

    id: str
    label: str
    value: str
    locator: str
    errata: tuple[Erratum, ...]


@dataclass(frozen=True)
class StepList:
    """Numbered steps read from a paragraph's list fact (``steps``, ``phases``, ``…_steps``)."""

    id: str
    title: str
    steps: tuple[str, ...]
    locator: str
    errata: tuple[Erratum, ...]


def _cell(value: Any) -> str:
    return "" if value is None else " ".join(str(value).split())


def fact_value(value: Any) -> str:
    """Return a fact's value as printed: numbers as they are, yes/no, lists joined, names spaced."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(fact_value(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {fact_value(v)}" for k, v in value.items())
    text = str(value)
    if " " not in text:  # a typed value such as "trays_forming_the_contacted_edge"
        text = text.replace("_", " ")
    return text


def fact_label(key: str) -> str:
    """Return a fact's key as a row label ("max_unique_ailment_types" -> "Max unique ailment types")."""
    words = key.replace("_", " ").replace("-", " ").split()
    words = [w.upper() if w in {"i", "ii", "iii", "iv"} else w for w in words]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _step_fact(facts: Mapping[str, Any]) -> tuple[str, ...] | None:
    for key, value in facts.items():
        if (key in ("steps", "phases") or key.endswith("_steps")) and isinstance(value, (list, tuple)) \
                and value and all(isinstance(v, str) for v in value):
            return tuple(_capital(" ".join(v.split())) for v in value)
    return None


@dataclass(frozen=True)
class Section:
    """One topic on the sheet: its heading, block type and content.

    ``sequence`` holds numbered steps from a list fact; ``steps`` numbers the entries; ``tables`` and
    ``facts`` are compact tables; ``entries`` are the rules (notes, callouts, lookup or icon-key rows);
    ``notes`` are a ``steps`` block's paragraphs that are not steps (shown after them).
    """

    key: str
    heading: str
    chapter: str
    chapter_heading: str
    block: str
    entries: tuple[Entry, ...]
    sequences: tuple[StepList, ...] = ()
    tables: tuple[TableView, ...] = ()
    facts: tuple[FactRow, ...] = ()
    notes: tuple[Entry, ...] = ()

    @property
    def ids(self) -> tuple[str, ...]:
        """Return the ids of every paragraph the section shows."""
        return tuple(dict.fromkeys([*(s.id for s in self.sequences), *(t.id for t in self.tables),
                                    *(f.id for f in self.facts), *(e.id for e in self.entries),
                                    *(e.id for e in self.notes)]))

    @property
    def printed(self) -> set[str]:
        """Return the ids of the paragraphs whose rule the section prints (not counting fact rows)."""
        return {*(s.id for s in self.sequences), *(t.id for t in self.tables), *(e.id for e in self.entries),
                *(e.id for e in self.notes)}

    @property
    def words(self) -> int:
        """Return about how many words the section prints (for choosing the type size)."""
        n = len(self.heading.split()) + sum(len(" ".join(x.steps).split()) + 3 for x in self.sequences)
        n += sum(len(t.title.split()) + 3 + len(t.columns) + sum(len(" ".join(r).split()) + 4 for r in t.rows)
                 for t in self.tables)  # a table row takes the room of about 4 more words (rules, padding)
        n += sum(len(f"{f.label} {f.value} {f.locator}".split()) for f in self.facts)
        for e in (*self.entries, *self.notes):
            n += len(e.text.split()) + len(e.locator.split())
            if self.block in ("callouts", "lookup") or e.icon:
                n += len(e.title.split())
        return n

    def lines(self, per_line: int) -> float:
        """Return about how many lines of *per_line* words the section takes in one column: every step,
        table row and rule starts a line of its own (for grouping topics on the large-type pages)."""
        def wrap(text: str, width: float = per_line) -> int:
            return max(1, -(-len(text.split()) // max(1, int(width))))

        n = 2.0  # the heading (larger type) and the space under it
        for x in self.sequences:
            n += sum(wrap(step) for step in x.steps) + (1 if x.errata else 0.5)  # the locator ends the list
        for t in self.tables:
            n += 2 + sum(wrap(" ".join(r), per_line * 0.8) for r in t.rows)
        n += len(self.facts) * 1.1
        for e in (*self.entries, *self.notes):
            title = e.title if self.block in ("callouts", "lookup") or e.icon else ""
            n += wrap(f"{title} {e.text} {e.locator}") + (0.5 if self.block == "callouts" else 0.15)
        return n

    @property
    def errata(self) -> tuple[Erratum, ...]:
        """Return the errata applied to anything in the section."""
        found: dict[str, Erratum] = {}
        for group in (self.sequences, self.tables, self.facts, self.entries, self.notes):
            for item in group:
                for er in item.errata:
                    found.setdefault(er.id, er)
        return tuple(found.values())

    @classmethod
    def from_topic(cls, corpus: Corpus, topic: Topic, chapter: Chapter, skip: set[str]) -> Section:
        """Return the section of *topic*, leaving out the paragraphs in *skip* (printed already)."""
        ids = [pid for pid in topic.paragraphs if pid not in skip]
        icons = dict(zip(topic.paragraphs, topic.icons, strict=False))
        entries: list[Entry] = []
        sequences: list[StepList] = []
        tables: list[TableView] = []
        facts: list[FactRow] = []
        notes: list[Entry] = []
        in_facts = {pid for pid, _ in topic.facts}
        for pid, key in topic.facts:  # a facts table may repeat a paragraph printed above: it tabulates
            value = corpus.facts_of(pid).get(key)
            if value is not None:
                facts.append(FactRow(pid, fact_label(key), fact_value(value), short_locator(corpus, pid),
                                     _errata(corpus, pid)))
        for pid in ids:
            steps = _step_fact(corpus.facts_of(pid)) if topic.block == "sequence" else None
            table = corpus.table_of(pid) if topic.block in ("table", "facts") else None
            if steps is not None:
                sequences.append(StepList(pid, corpus.get(pid).title, steps, short_locator(corpus, pid),
                                          _errata(corpus, pid)))
            elif table is not None:
                tables.append(TableView(pid, corpus.get(pid).title, tuple(_cell(c) for c in table.columns),
                                        tuple(tuple(_cell(c) for c in r) for r in table.rows),
                                        short_locator(corpus, pid), _errata(corpus, pid)))
            elif pid in topic.notes:
                notes.append(Entry.from_paragraph(corpus, pid))
            elif pid not in in_facts:
                entries.append(Entry.from_paragraph(corpus, pid, icons.get(pid)))
        return cls(topic.key, topic.heading, chapter.key, chapter.heading, topic.block, tuple(entries),
                   tuple(sequences), tuple(tables), tuple(facts), tuple(notes))


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
    size: str = "standard"

    @property
    def chapter_openers(self) -> set[str]:
        """Return the keys of the sections that open a chapter (its heading is printed above them)."""
        return {s.key for n, s in enumerate(self.sections)
                if n == 0 or s.chapter != self.sections[n - 1].chapter}

    @property
    def page_groups(self) -> tuple[tuple[Section, ...], ...]:
        """Return the sections grouped by page: all on the flowing two-page sheet; on the large-type sheet
        one or two topics a page (two when together they take at most :data:`LARGE_PAGE_LINES` lines)."""
        if self.size != "large":
            return (self.sections,)
        openers = self.chapter_openers
        groups: list[list[Section]] = []
        room = 0.0
        for s in self.sections:
            need = s.lines(LARGE_LINE_WORDS) + (1.5 if s.key in openers else 0)  # a chapter's heading
            if groups and len(groups[-1]) == 1 and need <= room:
                groups[-1].append(s)
            else:
                groups.append([s])
                room = LARGE_PAGE_LINES - (5 if len(groups) == 1 else 0)  # the first page carries the header
            room -= need
        return tuple(tuple(g) for g in groups)

    @property
    def errata_applied(self) -> tuple[Erratum, ...]:
        """Return the distinct errata applied to the sheet's entries."""
        found: dict[str, Erratum] = {}
        for s in self.sections:
            for er in s.errata:
                found.setdefault(er.id, er)
        return tuple(found.values())

    @property
    def words(self) -> int:
        """Return about how many words the sheet prints (headings, rules, tables, locators)."""
        chapters = len({s.chapter_heading for s in self.sections})
        return 40 + 3 * chapters + sum(s.words for s in self.sections)

    @property
    def icons(self) -> tuple[str, ...]:
        """Return the icons the sheet shows."""
        return tuple(dict.fromkeys(e.icon for s in self.sections for e in s.entries if e.icon))

    @classmethod
    def from_selection(cls, corpus: Corpus, game: str, topic_keys: Iterable[str], paper: str,
                       size: str = "standard") -> QuickRef:
        """Return the sheet of *game* for topic keys already checked by :func:`select_topics`."""
        gt = game_topics(game, corpus)
        keys = tuple(topic_keys)
        sections = []
        printed: set[str] = set()  # a paragraph in two chosen topics is printed once, in the first
        for chapter in gt.chapters:
            for t in chapter.topics:
                if t.key in keys:
                    section = Section.from_topic(corpus, t, chapter, printed)
                    printed.update(section.printed)
                    if section.ids:
                        sections.append(section)
        docs = [d.title for d in corpus.documents.values() if d.game == game]
        default = tuple(t.key for t in gt.all_topics if t.default)
        return cls(game, corpus.games.get(game, game), paper, keys, keys == default, tuple(sections),
                   tuple(docs), size)


def _paper(paper: str) -> str:
    key = (paper or "").strip().lower()
    if key not in PAPERS:
        raise UnreadableInputError(f"unknown paper {paper!r} (one of {', '.join(PAPERS)})", path="paper")
    return key


def _size(size: str) -> str:
    key = (size or "").strip().lower()
    if key not in SIZES:
        raise UnreadableInputError(f"unknown size {size!r} (one of {', '.join(SIZES)})", path="size")
    return key


def build(game: str, topics: str | Sequence[str] | None = None, paper: str = "a4",
          corpus: Corpus | None = None, size: str = "standard") -> QuickRef:
    """Return the sheet of *game* for a topic selection (see :func:`select_topics`) on *paper*, in the
    two-page type (``standard``) or the large type read across the table (``large``)."""
    corpus = corpus if corpus is not None else get_corpus()
    paper_key, size_key = _paper(paper), _size(size)
    keys = select_topics(game, topics, corpus)
    return QuickRef.from_selection(corpus, game, keys, paper_key, size_key)


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
    env.globals["icon"] = lambda name, label="": Markup(svg(name, label))
    return env


def _html(sheet: QuickRef, density: Density) -> str:
    env = _environment()
    scale = Scale.of(sheet.size)
    css = env.get_template("quickref.css.j2").render(page_size=PAPERS[sheet.paper], density=density,
                                                     game_title=sheet.game_title, scale=scale,
                                                     step_indent=scale.step_indent(density))
    return env.get_template("quickref.html.j2").render(sheet=sheet, css=css)


def render_html(game: str, topics: str | Sequence[str] | None = None, paper: str = "a4",
                density: str | None = None, corpus: Corpus | None = None, size: str = "standard") -> str:
    """Return the sheet as one standalone HTML page (screen preview and print CSS included)."""
    sheet = build(game, topics, paper, corpus, size)
    return _html(sheet, Density.from_name(density) if density else page_density(sheet))


@dataclass(frozen=True)
class RenderedPdf:
    """A rendered PDF with its page count and the density it was set in."""

    data: bytes
    pages: int
    density: str


def _fitting(sheet: QuickRef, max_pages: int | None) -> tuple[Density, ...]:
    """Return the densities to try, in order, to fit *sheet* on *max_pages*: the first one worth trying
    (:func:`_first_density`), then denser; a default sheet with few words starts at the larger
    :data:`AIRY` size, so that it fills its pages."""
    if not max_pages:
        return DENSITIES[:1]
    first = _first_density(sheet, max_pages)
    airy = (AIRY,) if sheet.is_default and first == 0 and sheet.words / max_pages <= AIRY_WORDS else ()
    return (*airy, *DENSITIES[first:])


def _first_density(sheet: QuickRef, max_pages: int | None) -> int:
    """Return the index of the first density worth trying: a sheet with more words than *max_pages*
    hold at a size starts denser (each extra layout costs a second of CPU)."""
    if not max_pages:
        return 0
    per_page = sheet.words / max_pages
    for n, limit in enumerate(DENSITY_WORDS):
        if per_page <= limit:
            return n
    return len(DENSITIES) - 1


def page_words(document: Any) -> list[int]:
    """Return about how many words each page of a laid-out WeasyPrint document prints (its text boxes)."""
    counts = []
    for page in document.pages:
        n = 0
        stack = [page._page_box]
        while stack:
            box = stack.pop()
            text = getattr(box, "text", None)
            if isinstance(text, str):
                n += len(text.split())
            stack.extend(getattr(box, "children", None) or ())
        counts.append(n)
    return counts


def page_density(sheet: QuickRef) -> Density:
    """Return the type the HTML page of *sheet* is set in: for the default selection, the size its PDF
    is likely fitted at (estimated from its words, no layout), so that printing the page gives the
    same sheet; the normal size otherwise (the large type for the large-type sheet)."""
    if sheet.size == "large":
        return LARGE
    return _fitting(sheet, DEFAULT_MAX_PAGES)[0] if sheet.is_default else DENSITIES[0]


def render(sheet: QuickRef, max_pages: int | None = None) -> RenderedPdf:
    """Return the PDF of *sheet*; with *max_pages*, set it denser (down to 8.5 pt) until it fits.

    A sheet without a page limit (topics added) whose pages would carry more than
    :data:`MAX_WORDS_PER_PAGE` words is set in the roomier type instead, over more pages.
    """
    from weasyprint import HTML

    if sheet.size == "large":  # one layout: the type never shrinks, topics take the pages they need
        large = HTML(string=_html(sheet, LARGE)).render()
        return RenderedPdf(bytes(large.write_pdf()), len(large.pages), LARGE.name)
    tries = _fitting(sheet, max_pages)
    document: Any = None
    density = tries[0]
    for density in tries:
        document = HTML(string=_html(sheet, density)).render()
        if max_pages is None or len(document.pages) <= max_pages:
            break
    if max_pages is None and max(page_words(document), default=0) > MAX_WORDS_PER_PAGE:
        density = ROOMY
        document = HTML(string=_html(sheet, density)).render()
    data = document.write_pdf()
    return RenderedPdf(bytes(data), len(document.pages), density.name)


def max_pages(sheet: QuickRef) -> int | None:
    """Return the pages *sheet* is fitted on: the default two-page sheet's 2, else no limit."""
    return DEFAULT_MAX_PAGES if sheet.is_default and sheet.size == "standard" else None


def render_pdf(game: str, topics: str | Sequence[str] | None = None, paper: str = "a4",
               corpus: Corpus | None = None, size: str = "standard") -> bytes:
    """Return the sheet as PDF bytes; the default selection (``topics=None``) is fitted on 2 pages
    (the large-type sheet, ``size="large"``, takes the pages it needs)."""
    sheet = build(game, topics, paper, corpus, size)
    return render(sheet, max_pages(sheet)).data


# --------------------------------------------------------------------------------------- writing files

@dataclass(frozen=True)
class Written:
    """A file written by :func:`write`: where, what and how many pages."""

    path: Path
    fmt: str
    pages: int | None
    density: str
    sheet: QuickRef


WHAT = "the quick reference"


def write(game: str, out: Path, topics: str | Sequence[str] | None = None, paper: str = "a4",
          fmt: str = "pdf", corpus: Corpus | None = None, size: str = "standard") -> Written:
    """Write the sheet of *game* to *out* as PDF or HTML, aside and renamed into place, never over a file
    runecodex did not write (:func:`engine.files.ownership.write_file`)."""
    if fmt not in FORMATS:
        raise UnreadableInputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})", path="format")
    sheet = build(game, topics, paper, corpus, size)
    if fmt == "html":
        density = page_density(sheet)
        html = _html(sheet, density)
        return Written(ownership.write_file(out, html.encode("utf-8"), WHAT), fmt, None, density.name, sheet)
    pdf = render(sheet, max_pages(sheet))
    return Written(ownership.write_file(out, pdf.data, WHAT), fmt, pdf.pages, pdf.density, sheet)


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

def default_output(game: str, fmt: str, size: str = "standard") -> Path:
    """Return where ``runecodex quickref`` writes when no ``-o`` is given (under ``build/``)."""
    suffix = "" if size == "standard" else f"-{size}"
    return Path("build") / "quickref" / f"quickref-{game}{suffix}.{fmt}"


def quickref_command(game: str, topics: str | None = None, paper: str = "a4", fmt: str | None = None,
                     output: str | None = None, list_only: bool = False, as_json: bool = False,
                     size: str = "standard") -> int:
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
        sheet = build(game, topics, paper, corpus, size)
        if fmt not in FORMATS:
            raise UnreadableInputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})", path="format")
        data_out = (_html(sheet, page_density(sheet)).encode("utf-8") if fmt == "html"
                    else render(sheet, max_pages(sheet)).data)
        sys.stdout.buffer.write(data_out)
        sys.stdout.flush()
        return 0
    out = Path(output) if output else default_output(game, fmt, _size(size))
    written = write(game, out, topics, paper, fmt, corpus, size)
    pages = f"{written.pages} page{'s' if written.pages != 1 else ''}, " if written.pages is not None else ""
    dense = f", {written.density} type" if written.density != DENSITIES[0].name else ""
    print(f"wrote {written.path} ({pages}{PAPERS[written.sheet.paper]}{dense}; topics: "
          f"{', '.join(written.sheet.topics)})")
    return 0
