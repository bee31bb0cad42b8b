"""Rank paragraphs: whoosh's BM25F over the weighted fields, then a mild preference by kind.

Scoring is whoosh's own :class:`whoosh.scoring.BM25F`, configured through its public parameters:
``K1`` (term-frequency saturation), ``B`` (length normalisation: 0.3, mild, since a paragraph with
five ``asked`` phrasings or a long text is not less about its topic) and per-field ``<field>_B``
(:data:`FIELD_B`; none set: a separate ``B`` for ``asked`` or ``text`` did no better on the
development questions). The field weights are the schema's ``field_boost`` values (``engine/search/index.py``).
Nothing of whoosh is subclassed.

whoosh returns the best ``offset + limit + RERANK_WINDOW`` matches; :func:`rerank` multiplies each
score by the paragraph's kind prior (:data:`KIND_PRIOR`: a glossary entry defines a word, a worked
example or a table restates a rule; the rule itself answers), by the coordination bonus (the share
of the question's words the paragraph holds: whoosh's own coordination needs its slow tree of
matchers), by the line bonus (the share of the question's words, weighted by rarity, that the
paragraph's best single line holds: its title, its ``short`` line or one of its ``asked``
phrasings) and, for "how many" questions, by the number bonus, then sorts again. The constants were
chosen on the development questions only (``bench/search_tune.py`` tries them there; the glossary
prior of 0.75 keeps a term's definition from outranking the rule about the situation asked).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from whoosh.scoring import BM25F

K1 = 1.2
B = 0.3
FIELD_B: Mapping[str, float] = {}
KIND_PRIOR: Mapping[str, float] = {
    "rule": 1.0, "glossary": 0.75, "errata": 0.9, "faq": 1.0, "example": 0.85, "table": 0.9, "scenario": 0.9,
}


def weighting() -> BM25F:
    """Return the BM25F weighting of every search (whoosh's, with our parameters)."""
    return BM25F(B=B, K1=K1, **{f"{name}_B": b for name, b in FIELD_B.items()})


COORD = 0.5  # the coordination bonus: a paragraph holding all the question's words scores 1 + COORD times more
LINE = 0.5  # ... and 1 + COORD + LINE times more when one of its lines (title, short, asked) holds them all
QUANTITY = 0.3  # a "how many" question: a paragraph stating a number scores 1 + QUANTITY times more


def rerank(scored: Sequence[tuple[int, float, str]], coverage: Mapping[int, float] | None = None,
           numbers: Set[int] = frozenset(), lines: Mapping[int, float] | None = None
           ) -> list[tuple[int, float]]:
    """Return ``(docnum, score)`` of *scored* ``(docnum, bm25f, kind)``, best first.

    Each whoosh score is multiplied by the paragraph's kind prior and by the coordination bonus:
    *coverage* is the share (0 to 1) of the question's words the paragraph holds, *lines* the share
    (weighted by the words' rarity) its best title, ``short`` or ``asked`` line holds. A question asking
    for a number ("how many", "max") passes the paragraphs stating one (a ``facts:`` entry or a
    table) as *numbers*: they score 1 + :data:`QUANTITY` times more. Ties keep whoosh's order.
    """
    cover, line = coverage or {}, lines or {}
    adjusted = [(doc, score * KIND_PRIOR.get(kind, 1.0)
                 * (1 + COORD * cover.get(doc, 0.0) + LINE * line.get(doc, 0.0))
                 * (1 + QUANTITY if doc in numbers else 1.0), i)
                for i, (doc, score, kind) in enumerate(scored)]
    adjusted.sort(key=lambda t: (-t[1], t[2]))
    return [(doc, score) for doc, score, _ in adjusted]
