"""Reach: every rule states itself in one line (`short`) and says how players ask about it (`asked`).

`runecodex check` only reports this coverage (the writers fill it in); this test enforces it in full:
`short` on every rule, glossary, faq, errata and table paragraph, at most 20 words, every number in it
found in the paragraph's (corrected) text, facts or table, or its title (a step number such as "Attack
step 4" names the paragraph); `asked` on every rule, glossary and faq paragraph,
2 to 6 entries.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from engine.corpus import Corpus
from engine.corpus.checks import ASKED_KINDS, ASKED_MAX, ASKED_MIN, SHORT_KINDS, SHORT_MAX_WORDS, reach

NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _numbers(value: Any) -> Iterator[str]:
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield str(value)
    elif isinstance(value, str):
        yield from NUMBER.findall(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _numbers(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _numbers(k)
            yield from _numbers(v)


def test_every_paragraph_has_short_and_asked(corpus: Corpus) -> None:
    lacking = [f"{r.field} missing on {len(r.missing)} of {r.total} ({', '.join(r.kinds)}): "
               f"{', '.join(r.missing[:20])}{' …' if len(r.missing) > 20 else ''}"
               for r in reach(corpus) if r.missing]
    assert lacking == [], "\n".join(lacking)


def test_short_is_one_line_of_at_most_twenty_words(corpus: Corpus) -> None:
    long = [f"{p.id}: {len(p.short.split())} words" for p in corpus
            if p.kind in SHORT_KINDS and p.short and len(p.short.split()) > SHORT_MAX_WORDS]
    assert long == [], "\n".join(long)


def test_asked_has_two_to_four_entries(corpus: Corpus) -> None:
    wrong = [f"{p.id}: {len(p.asked)} entries" for p in corpus
             if p.kind in ASKED_KINDS and p.asked and not ASKED_MIN <= len(p.asked) <= ASKED_MAX]
    assert wrong == [], "\n".join(wrong)


def test_every_number_in_short_is_stated_by_the_paragraph(corpus: Corpus) -> None:
    wrong = []
    for p in corpus:
        if not p.short:
            continue
        known = set(NUMBER.findall(f"{p.title} {corpus.text_of(p.id)}")) | set(_numbers(dict(corpus.facts_of(p.id))))
        table = corpus.table_of(p.id)
        if table is not None:
            known |= set(_numbers([list(table.columns), [list(r) for r in table.rows]]))
        stray = [n for n in NUMBER.findall(p.short) if n not in known]
        if stray:
            wrong.append(f"{p.id}: {', '.join(stray)} not in its text or facts: {p.short!r}")
    assert wrong == [], "\n".join(wrong)
