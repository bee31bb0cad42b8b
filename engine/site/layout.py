"""Decide the site's pages from the corpus: one page per document section, per glossary entry, per game.

The layout is pure data computed from a :class:`~engine.corpus.Corpus`; the Sphinx extension, the glossary
graph (clickable nodes) and the web app (links from search hits) all ask it where a paragraph lives.

Page names (Sphinx docnames, ``.html`` appended in the built site)::

    index, about                                   hand-written (site/)
    <game>/index                                   game landing page
    <game>/<doc>/index                             a source document (rules, faq, ...)
    <game>/<doc>/<chapter>/index                   a chapter (one rules file)
    <game>/<doc>/<chapter>/<section>               a section: all its paragraphs, in reading order
    <game>/glossary/index, <game>/glossary/<term>  the glossary and one page per entry
    <game>/book-index                              the book's own index
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from engine.corpus import Corpus, Paragraph
from engine.views.graph import Linker

_SLUG_RE = re.compile(r"[^a-z0-9]+")
_CHAPTER_PREFIX_RE = re.compile(r"^\d+[-_ ]*")
_RANGE_RE = re.compile(r"\b0*(\d+) 0*(\d+)$")
_ACRONYMS = {"faq": "FAQ"}


def slugify(text: str) -> str:
    """Return a lower-case, dash-separated slug of *text* (``"A Player's Turn"`` -> ``a-player-s-turn``)."""
    return _SLUG_RE.sub("-", text.lower()).strip("-") or "untitled"


def chapter_title(stem: str) -> str:
    """Return a readable title for a rules file stem (``04-turn-and-actions`` -> ``Turn and actions``)."""
    words = _CHAPTER_PREFIX_RE.sub("", stem).replace("-", " ").replace("_", " ").strip()
    words = _RANGE_RE.sub(lambda m: f"{m.group(1)}\u2013{m.group(2)}", words)
    words = " ".join(_ACRONYMS.get(w, w) for w in words.split(" "))
    return (words[:1].upper() + words[1:]) if words else stem


def doc_slug(doc_key: str, game: str) -> str:
    """Return the folder name of a document under its game (``rune-age-faq`` in ``rune-age`` -> ``faq``)."""
    if doc_key == game:
        return "rules"
    if doc_key.startswith(game + "-"):
        return doc_key[len(game) + 1:]
    return doc_key


def _unique(slug: str, taken: set[str]) -> str:
    candidate, n = slug, 2
    while candidate in taken:
        candidate = f"{slug}-{n}"
        n += 1
    taken.add(candidate)
    return candidate


@dataclass(frozen=True)
class SectionPage:
    """One page per section heading of a document: the paragraphs printed under it."""

    docname: str
    doc: str
    game: str
    chapter: str
    title: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class ChapterPage:
    """One rules file of a document: a list of its section pages."""

    docname: str
    doc: str
    game: str
    stem: str
    title: str
    sections: tuple[str, ...]


@dataclass(frozen=True)
class DocumentPage:
    """One source document of a game: a list of its chapters."""

    docname: str
    doc: str
    game: str
    title: str
    chapters: tuple[str, ...]


@dataclass(frozen=True)
class GlossaryPage:
    """One glossary entry of a game: its definition, users, index entries and graph picture."""

    docname: str
    game: str
    pid: str
    title: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class GamePages:
    """The pages of one game."""

    game: str
    title: str
    landing: str
    documents: tuple[DocumentPage, ...]
    glossary_index: str
    glossary: tuple[GlossaryPage, ...]
    book_index: str
    situations: str


@dataclass(frozen=True)
class SiteLayout:
    """Every generated page and where each paragraph and glossary term is shown."""

    games: tuple[GamePages, ...]
    chapters: dict[str, ChapterPage]
    sections: dict[str, SectionPage]
    page_of: dict[str, str]
    glossary_page_of: dict[str, str]

    @classmethod
    def from_corpus(cls, corpus: Corpus) -> SiteLayout:
        """Lay the corpus out in pages, nested game -> document -> chapter -> section."""
        chapters: dict[str, ChapterPage] = {}
        sections: dict[str, SectionPage] = {}
        page_of: dict[str, str] = {}
        glossary_page_of: dict[str, str] = {}
        games: list[GamePages] = []
        for game, game_title in corpus.games.items():
            documents: list[DocumentPage] = []
            for doc in corpus.documents.values():
                if doc.game != game:
                    continue
                paras = [p for p in corpus if p.source.doc == doc.key]
                if not paras:
                    continue
                documents.append(_lay_out_document(doc.key, doc.title, game, paras, chapters, sections, page_of))
            glossary: list[GlossaryPage] = []
            taken: set[str] = {"index"}
            for p in sorted(corpus.select(game, "glossary"), key=lambda q: q.title.lower()):
                slug = _unique(slugify(p.defines[0] if p.defines else p.title), taken)
                page = GlossaryPage(f"{game}/glossary/{slug}", game, p.id, p.title,
                                    tuple(dict.fromkeys((*p.defines, *p.aliases))))
                glossary.append(page)
                glossary_page_of[p.id] = page.docname
            games.append(GamePages(game, game_title, f"{game}/index", tuple(documents),
                                   f"{game}/glossary/index", tuple(glossary), f"{game}/book-index",
                                   f"{game}/situations"))
        return cls(tuple(games), chapters, sections, page_of, glossary_page_of)

    def game(self, game: str) -> GamePages:
        """Return the pages of *game*."""
        for g in self.games:
            if g.game == game:
                return g
        raise KeyError(game)

    def docnames(self) -> list[str]:
        """Return every generated page name."""
        out: list[str] = []
        for g in self.games:
            out += [g.landing, g.glossary_index, g.book_index, g.situations]
            out += [d.docname for d in g.documents]
            out += [p.docname for p in g.glossary]
        out += list(self.chapters) + list(self.sections)
        return out

    def url(self, pid: str, base: str = "") -> str:
        """Return the URL of paragraph *pid* below the site root *base* (``rune-age/rules/.../x.html#pid``)."""
        return f"{base}{self.page_of[pid]}.html#{pid}"

    def term_url(self, glossary_pid: str, base: str = "") -> str:
        """Return the URL of the glossary page of the entry *glossary_pid*."""
        return f"{base}{self.glossary_page_of[glossary_pid]}.html"

    def ids(self) -> dict[str, str]:
        """Return ``{paragraph id: URL relative to the site root}`` for every paragraph."""
        return {pid: self.url(pid) for pid in self.page_of}


def relative_url(from_docname: str, to_url: str) -> str:
    """Return *to_url* (relative to the site root) as seen from the page *from_docname*."""
    depth = len(PurePosixPath(from_docname).parts) - 1
    return "../" * depth + to_url


def _lay_out_document(doc_key: str, doc_title: str, game: str, paras: Iterable[Paragraph],
                      chapters: dict[str, ChapterPage], sections: dict[str, SectionPage],
                      page_of: dict[str, str]) -> DocumentPage:
    base = f"{game}/{doc_slug(doc_key, game)}"
    # group paragraphs by section heading (case-insensitive), in reading order; a section belongs to
    # the chapter (rules file) where it first appears
    groups: dict[str, list[Paragraph]] = {}
    heading: dict[str, str] = {}
    chapter_of: dict[str, str] = {}
    for p in paras:
        title = (p.source.section or p.title).strip()
        key = title.lower()
        groups.setdefault(key, []).append(p)
        heading.setdefault(key, title)
        chapter_of.setdefault(key, PurePosixPath(p.file).stem or "chapter")
    chapter_sections: dict[str, list[str]] = {}
    for key in groups:
        chapter_sections.setdefault(chapter_of[key], []).append(key)
    chapter_names: list[str] = []
    taken_chapters: set[str] = {"index"}
    for stem, keys in chapter_sections.items():
        cslug = _unique(slugify(stem), taken_chapters)
        cdoc = f"{base}/{cslug}/index"
        taken: set[str] = {"index"}
        names = []
        for key in keys:
            sdoc = f"{base}/{cslug}/{_unique(slugify(heading[key]), taken)}"
            ids = tuple(p.id for p in groups[key])
            sections[sdoc] = SectionPage(sdoc, doc_key, game, cdoc, heading[key], ids)
            for pid in ids:
                page_of[pid] = sdoc
            names.append(sdoc)
        chapters[cdoc] = ChapterPage(cdoc, doc_key, game, stem, chapter_title(stem), tuple(names))
        chapter_names.append(cdoc)
    return DocumentPage(f"{base}/index", doc_key, game, doc_title, tuple(chapter_names))


# ------------------------------------------------------------------------------------------ graph links

def site_linker(corpus: Corpus, base: str = "/", from_docname: str | None = None) -> Linker:
    """Return a linker pointing nodes at their site pages, absolute below *base* or relative to a page."""
    return site_linker_for(SiteLayout.from_corpus(corpus), base, from_docname)


def site_linker_for(layout: SiteLayout, base: str = "/", from_docname: str | None = None) -> Linker:
    """Return a linker for an already computed site *layout* (see :func:`site_linker`)."""
    def place(url: str) -> str:
        return relative_url(from_docname, url) if from_docname is not None else base + url

    def link(node: str, data: Mapping[str, Any]) -> str | None:
        if data["kind"] == "paragraph" and data["pid"] in layout.page_of:
            return place(layout.url(data["pid"]))
        if data["kind"] == "term" and data["glossary"] in layout.glossary_page_of:
            return place(layout.term_url(data["glossary"]))
        return None

    return link
