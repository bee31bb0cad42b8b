"""Own words: no corpus paragraph repeats a run of 10 or more words from the rulebooks.

The rulebooks are copyrighted; the corpus restates them. A shared run of a few words (a card name, a
heading, a set phrase) is fine; 10 identical words in a row is copying, and this test names each place.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.corpus import Corpus

RUN = 10


def words(text: str) -> list[str]:
    """Return the lower-case words of *text* (punctuation dropped)."""
    return re.findall(r"[a-z0-9]+", text.lower().replace("’", "'"))


def shingles(text: str) -> set[tuple[str, ...]]:
    """Return every run of RUN consecutive words."""
    w = words(text)
    return {tuple(w[i:i + RUN]) for i in range(len(w) - RUN + 1)}


def test_no_paragraph_copies_a_run_of_ten_words(corpus: Corpus, seeds: Path) -> None:
    books = {d.key: shingles((seeds / d.seed).read_text(encoding="utf-8")) for d in corpus.documents.values()}
    copied = []
    for p in corpus:
        for label, text in [("text", p.text), ("contested", p.contested or ""),
                            *[(f"corrected[{k}]", v) for k, v in p.corrected.items()]]:
            same = shingles(text) & books[p.source.doc]
            if same:
                copied.append(f"{p.file}:{p.line}: {p.id}.{label}: '{' '.join(sorted(same)[0])}'")
    assert copied == [], "\n".join(copied)
