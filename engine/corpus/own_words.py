"""Own words, measured: where a corpus field repeats a run of words from a rulebook.

The rulebooks are copyrighted; the corpus restates them. The check compares *word sequences*: every
field is reduced to its lower-case letter runs (digits, punctuation and apostrophes dropped, so
"don't" is ``dont``), and a run of :data:`RUN` (8) such words that also occurs in any rulebook is a
copy. Every text field is read: ``text``, ``corrected`` (an erratum's corrected restatements), the
amended paragraph's own ``text`` (its original, read as ``text``), ``contested``, ``note``, ``short``,
each ``asked`` entry, table columns and cells, ``corrected_table`` cells, and every string inside
``facts`` and ``corrected_facts``. List items and table cells are compared one by one (a run never
spans two cells).

Lists of printed names (the turn steps, the component list) are the book's own names and may repeat
it: a paragraph marks them with ``printed_names: [facts.steps, table]`` (a field label or its prefix:
``table`` covers every column and cell; ``table.Name`` one column; ``facts.steps`` one fact), and a
facts key declared ``names: true`` in ``rules/facts.yaml`` is exempt wherever it appears.

The seeds are indexed once per process (hashes of every 8-word run), so checking the whole corpus
takes well under a second. Used by ``tests/test_own_words.py`` and ``scripts/own_words_report.py``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.corpus import Corpus, Paragraph, Table
from engine.corpus.facts import schema_of

RUN = 8
_WORD = re.compile(r"[a-z]+")


def words(text: str) -> list[str]:
    """Return the lower-case letter-only words of *text* (apostrophes joined, digits dropped)."""
    return _WORD.findall(text.lower().replace("’", "").replace("'", ""))


@dataclass(frozen=True)
class Copy:
    """One field sharing a run of RUN or more words with a rulebook."""

    pid: str
    file: str
    line: int
    field: str
    length: int
    run: str
    doc: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.pid}.{self.field}: {self.length} words of {self.doc}: '{self.run}'"


class BookIndex:
    """The hashes of every RUN-word sequence of the rulebooks, with the document each comes from."""

    def __init__(self, books: dict[str, str]) -> None:
        self.runs: dict[int, str] = {}
        for key, text in books.items():
            w = words(text)
            for i in range(len(w) - RUN + 1):
                self.runs.setdefault(hash(tuple(w[i:i + RUN])), key)

    def longest(self, text: str) -> tuple[int, str, str]:
        """Return the longest shared run of *text*: (word count, the words, document key); (0, "", "")."""
        w = words(text)
        best = (0, "", "")
        start = -1
        doc = ""
        for i in range(len(w) - RUN + 2):
            hit = self.runs.get(hash(tuple(w[i:i + RUN]))) if i <= len(w) - RUN else None
            if hit is not None and start < 0:
                start, doc = i, hit
            elif hit is None and start >= 0:
                length = i - 1 - start + RUN
                if length > best[0]:
                    best = (length, " ".join(w[start:start + length]), doc)
                start = -1
        return best


@functools.lru_cache(maxsize=4)
def book_index(seeds: str, docs: tuple[tuple[str, str], ...]) -> BookIndex:
    """Return the (cached) index of the seeds folder *seeds* for the ``(doc key, seed file)`` pairs."""
    folder = Path(seeds)
    return BookIndex({key: (folder / seed).read_text(encoding="utf-8") for key, seed in docs})


def index_for(corpus: Corpus, seeds: Path) -> BookIndex:
    """Return the index of every rulebook of *corpus* found in *seeds*."""
    docs = tuple(sorted((d.key, d.seed) for d in corpus.documents.values() if (seeds / d.seed).is_file()))
    return book_index(str(seeds), docs)


def _strings(label: str, value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield label, value
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _strings(f"{label}[{i}]", v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(f"{label}.{k}", v)


def _table(label: str, table: Table) -> Iterator[tuple[str, str]]:
    columns = [str(c) for c in table.columns]
    rows = table.rows
    for name in columns:
        yield f"{label}.columns", name
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            col = columns[c] if c < len(columns) else str(c)
            yield from _strings(f"{label}.{col}[{r}]", cell)


def fields(p: Paragraph) -> Iterator[tuple[str, str]]:
    """Yield ``(label, text)`` for every text field of *p* (labels as in ``printed_names``)."""
    yield "text", p.text
    for label in ("contested", "note", "short"):
        value = getattr(p, label)
        if value:
            yield label, value
    for i, a in enumerate(p.asked):
        yield f"asked[{i}]", a
    for target, text in p.corrected.items():
        yield f"corrected.{target}", text
    yield from _strings("facts", dict(p.facts))
    yield from _strings("corrected_facts", dict(getattr(p, "corrected_facts", {}) or {}))
    if p.table is not None:
        yield from _table("table", p.table)
    for target, table in (getattr(p, "corrected_table", {}) or {}).items():
        yield from _table(f"corrected_table.{target}", table)


def is_printed_name(p: Paragraph, label: str) -> bool:
    """Return whether field *label* of *p* lies under one of its ``printed_names`` marks."""
    return any(label == mark or label.startswith((mark + ".", mark + "[")) for mark in p.printed_names)


def _fact_key(label: str) -> str:
    """Return the facts key a label such as ``facts.steps[2]`` or ``corrected_facts.ra.x.steps[0]`` reads."""
    head = label.split("[")[0]
    return head.rsplit(".", 1)[-1] if head.startswith(("facts.", "corrected_facts.")) else ""


def copies(corpus: Corpus, seeds: Path) -> list[Copy]:
    """Return every field of *corpus* sharing RUN or more words in a row with a rulebook in *seeds*."""
    index = index_for(corpus, seeds)
    names = {k for k, t in schema_of(str(corpus.root)).items() if t.names}
    found = []
    for p in corpus:
        for label, text in fields(p):
            if is_printed_name(p, label) or _fact_key(label) in names:
                continue
            length, run, doc = index.longest(text)
            if length:
                found.append(Copy(p.id, p.file, p.line, label, length, run, doc))
    return found
