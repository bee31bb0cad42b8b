"""Whole-corpus checks beyond the loader's: errata data, summaries against details, remarks, reach.

The loader (:mod:`engine.corpus`) checks each paragraph and its links; these checks compare paragraphs
with each other and are run by ``runecodex check`` (each problem makes it exit non-zero) and by
``tests/test_corpus_checks.py``:

- **errata data**: an erratum that amends a paragraph with ``facts`` or a ``table`` either corrects them
  (``corrected_facts: {id: {key: value}}``, ``corrected_table: {id: {columns, rows}}``) or declares
  them unaffected (``unaffected: [id]``); text alone is not enough, or the old numbers would stay
  beside the new text;
- **summaries**: a summary paragraph (quick reference, overview, scenario digest) lists the detailed
  paragraphs it restates under ``summarizes``; every facts key both state must agree (a list and a
  mapping agree when the mapping's keys are the list's items; strings compare without case);
- **remarks**: the rule text (``text``, ``corrected``, ``short``) never remarks on the book, the print,
  the corpus or the engine ("the book says", "misprint", "see the note"); such remarks go to ``note``.
  An erratum's own ``text`` describes the misprint it fixes, and a ``see`` entry's text is the book's
  own pointer, so neither is checked.

:func:`reach` measures (and only reports) how many paragraphs carry ``short`` and ``asked``;
``tests/test_corpus_reach.py`` enforces it in full.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.corpus import Corpus, Problem

SHORT_KINDS = ("rule", "glossary", "faq", "errata", "table")
ASKED_KINDS = ("rule", "glossary", "faq")
SHORT_MAX_WORDS = 20
ASKED_MIN, ASKED_MAX = 2, 6

REMARK = re.compile(
    r"\b((?:the|this) (rule ?)?book(?:'s|’s)?|rulebook|source text|the engine|misprint\w*|see the note|the errata|"
    r"our (?:source|corpus|text|restatement)|the corpus|the printing|in the source|runecodex)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Reach:
    """How many paragraphs of the given kinds carry one field."""

    field: str
    kinds: tuple[str, ...]
    have: int
    total: int
    missing: tuple[str, ...]

    @property
    def share(self) -> float:
        """Return the covered share (1.0 for an empty corpus)."""
        return self.have / self.total if self.total else 1.0


def reach(corpus: Corpus) -> list[Reach]:
    """Return the coverage of ``short`` (rule, glossary, faq, errata, table) and ``asked`` (rule, glossary, faq)."""
    out = []
    for name, kinds in (("short", SHORT_KINDS), ("asked", ASKED_KINDS)):
        chosen = [p for p in corpus if p.kind in kinds]
        missing = tuple(p.id for p in chosen if not getattr(p, name))
        out.append(Reach(name, kinds, len(chosen) - len(missing), len(chosen), missing))
    return out


def errata_gaps(corpus: Corpus) -> list[Problem]:
    """Return every amended paragraph whose facts or table an erratum leaves neither corrected nor declared."""
    out = []
    for e in corpus:
        for target in e.amends:
            if target not in corpus or target in e.unaffected:
                continue
            t = corpus.get(target)
            if t.facts and target not in e.corrected_facts:
                out.append(Problem(e.file, e.line, f"{e.id}: amends {target} but neither corrects its facts "
                                                   f"(corrected_facts) nor declares them unaffected"))
            if t.table is not None and target not in e.corrected_table:
                out.append(Problem(e.file, e.line, f"{e.id}: amends {target} but neither corrects its table "
                                                   f"(corrected_table) nor declares it unaffected"))
    return out


def agree(a: Any, b: Any) -> bool:
    """Return whether a summary's fact value *a* and a detail's *b* say the same thing."""
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    if isinstance(a, dict) and isinstance(b, list):
        a, b = b, a
    if isinstance(a, list) and isinstance(b, dict):
        return {str(x).lower() for x in a} == {str(x).lower() for x in b}
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(agree(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b and type(a) is type(b))


def contradictions(corpus: Corpus) -> list[Problem]:
    """Return every facts key on which a summary and a paragraph it summarizes disagree (corrected values)."""
    out = []
    for s in corpus:
        if not s.summarizes:
            continue
        mine = corpus.facts_of(s.id)
        for target in s.summarizes:
            if target not in corpus:
                continue
            theirs = corpus.facts_of(target)
            for key in sorted(set(mine) & set(theirs)):
                if not agree(mine[key], theirs[key]):
                    out.append(Problem(s.file, s.line, f"{s.id}.facts.{key} = {mine[key]!r} contradicts "
                                                       f"{target}.facts.{key} = {theirs[key]!r}"))
    return out


def _rule_texts(corpus: Corpus) -> Iterator[tuple[Any, str, str]]:
    for p in corpus:
        if p.see:
            continue  # a "see" entry's text is the book's own pointer ("see Army Building, page 3")
        if p.kind != "errata":
            yield p, "text", p.text
        for target, text in p.corrected.items():
            yield p, f"corrected.{target}", text
        if p.short:
            yield p, "short", p.short


def remarks(corpus: Corpus) -> list[Problem]:
    """Return every remark about the book, the print, the corpus or the engine inside rule text."""
    out = []
    for p, label, text in _rule_texts(corpus):
        m = REMARK.search(" ".join(text.split()))
        if m:
            out.append(Problem(p.file, p.line, f"{p.id}.{label}: remark {m.group(0)!r} belongs in note, "
                                               f"not in the rule text"))
    return out


def check(corpus: Corpus) -> list[Problem]:
    """Return the problems of every whole-corpus check (errata data, summaries, remarks)."""
    return [*errata_gaps(corpus), *contradictions(corpus), *remarks(corpus)]
