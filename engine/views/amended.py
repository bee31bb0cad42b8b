"""What a rule page says about a paragraph amended by errata, composed once for the app's rule page and the site.

An amended paragraph says once which text applies (the corrected one) and which errata corrected it; the rule as
first printed sits behind a control, with the paragraph's note: in the corpus, the note of an amended paragraph
speaks of the printed rule (why the errata changed it), so it goes with the printed text, never beside the
corrected one. Paragraph ids written in a note become links named by the paragraph's title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.corpus import Corpus

_ID = re.compile(r"\b[a-z][a-z0-9]*(?:\.[a-z0-9][a-z0-9-]*)+\b")


@dataclass(frozen=True)
class Link:
    """A link to a paragraph, named by its title."""

    id: str
    title: str


Piece = str | Link
"""A run of text, or a link to a paragraph."""


def linked(text: str, corpus: Corpus) -> list[Piece]:
    """Return *text* as pieces, each paragraph id in it (``rafaq.errata.rulebook.p10``) a :class:`Link`."""
    pieces: list[Piece] = []
    last = 0
    for m in _ID.finditer(text):
        pid = m.group(0)
        if pid not in corpus.paragraphs:
            continue
        pieces += [text[last:m.start()], Link(pid, corpus.paragraphs[pid].title)]
        last = m.end()
    pieces.append(text[last:])
    return [p for p in pieces if p != ""]


@dataclass(frozen=True)
class Amendment:
    """How a page shows an amended paragraph: the errata that apply, and the printed text with its note."""

    errata: tuple[Link, ...]
    original: str
    original_note: tuple[Piece, ...]

    APPLIES = "Amended by errata: the text below is the one that applies, as corrected by"
    SUMMARY = "The rule as first printed (no longer applies)"


def amendment(corpus: Corpus, pid: str) -> Amendment | None:
    """Return how to show paragraph *pid* if errata amend it, else ``None``."""
    if not corpus.is_amended(pid):
        return None
    p = corpus.paragraphs[pid]
    errata = tuple(Link(e, corpus.paragraphs[e].title) for e in dict.fromkeys(corpus.amended_by.get(pid, []))
                   if e in corpus.paragraphs)
    return Amendment(errata, p.text, tuple(linked(p.note, corpus)) if p.note else ())


def note_of(corpus: Corpus, pid: str) -> list[Piece]:
    """Return the note shown beside the paragraph's text (none for an amended one: it goes with the original)."""
    p = corpus.paragraphs[pid]
    if not p.note or corpus.is_amended(pid):
        return []
    return linked(p.note, corpus)
