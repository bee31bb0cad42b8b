"""Rank paragraphs: BM25 over the weighted body, a prior per kind, scored in one pass per query.

The ranked part of every search is one :class:`RankedTerms` query: a bag of weighted terms (the
player's words, adjacent word pairs, glossary and synonym expansions) scored with BM25 against the
``body`` and ``pairs`` fields of the index (see ``engine/search_index.py``). Whoosh's generic
matchers walk every posting through several layers of Python calls; on an index of this size that
is most of the cost of a query. :class:`Ranker` keeps, per open searcher, the field lengths and the
postings of the terms already asked for, and scores a whole bag of terms in one loop, handing whoosh
a ready :class:`~whoosh.matching.ListMatcher`. Everything else (filters, required phrases,
exclusions, collection, stored fields) stays whoosh's.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from whoosh import matching
from whoosh import query as wq
from whoosh.reading import IndexReader
from whoosh.scoring import BaseScorer, WeightingModel
from whoosh.searching import Searcher

# BM25 parameters of the weighted body (see PART_WEIGHTS in engine/search_index.py).
K1 = 2.0
B = 0.75
# A mild preference by kind: a worked example or a table restates a rule, and an erratum points at
# the rule it corrects (which is indexed with the corrected text and the erratum): the rule answers.
KIND_PRIOR: Mapping[str, float] = {
    "rule": 1.0, "glossary": 1.0, "errata": 0.9, "faq": 1.0, "example": 0.85, "table": 0.9, "scenario": 0.9,
}
RANKED_FIELDS = ("body", "pairs")
Weighted = tuple[str, str, float]  # (field, term, weight)
MAX_CACHED_TERMS = 50_000


@dataclass(frozen=True)
class Postings:
    """The documents of one term with the term's weight in each, and its idf."""

    ids: tuple[int, ...]
    weights: tuple[float, ...]
    idf: float


@dataclass
class Ranker:
    """Per-searcher ranking data: field lengths, kind priors and a cache of postings."""

    searcher: Searcher
    lengths: Mapping[str, Sequence[float]]
    average: Mapping[str, float]
    prior: Sequence[float]
    _cache: dict[tuple[str, str], Postings] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def from_searcher(cls, searcher: Searcher) -> Ranker:
        """Return the ranker of the single-segment index behind *searcher*."""
        reader = searcher.reader()
        count = reader.doc_count_all()
        lengths = {f: [float(reader.doc_field_length(d, f, 0)) for d in range(count)] for f in RANKED_FIELDS}
        average = {f: (sum(ls) / len(ls) if ls else 1.0) or 1.0 for f, ls in lengths.items()}
        prior = [KIND_PRIOR.get(reader.stored_fields(d).get("kind", ""), 1.0) for d in range(count)]
        return cls(searcher, lengths, average, prior)

    def postings(self, fieldname: str, text: str) -> Postings:
        """Return the postings of one term (read from the index once, then cached)."""
        key = (fieldname, text)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        reader: IndexReader = self.searcher.reader()
        ids: list[int] = []
        weights: list[float] = []
        btext = self.searcher.schema[fieldname].to_bytes(text)
        if (fieldname, btext) in reader:
            m = reader.postings(fieldname, btext)
            while m.is_active():
                ids.append(m.id())
                weights.append(m.weight())
                m.next()
        idf = float(self.searcher.idf(fieldname, btext)) if ids else 0.0
        found = Postings(tuple(ids), tuple(weights), idf)
        with self._lock:
            if len(self._cache) >= MAX_CACHED_TERMS:
                self._cache.clear()
            self._cache[key] = found
        return found

    def score(self, terms: Sequence[Weighted], allowed: frozenset[int] | None) -> dict[int, float]:
        """Return ``{docnum: score}`` of the documents (among *allowed*) matching any of *terms*."""
        acc: dict[int, float] = {}
        k1p1 = K1 + 1
        for fieldname, text, boost in terms:
            post = self.postings(fieldname, text)
            if not post.ids:
                continue
            lengths = self.lengths[fieldname]
            scale = K1 * B / self.average[fieldname]
            base = K1 * (1 - B)
            factor = boost * post.idf * k1p1
            get = acc.get
            for doc, w in zip(post.ids, post.weights, strict=True):
                if allowed is not None and doc not in allowed:
                    continue
                acc[doc] = get(doc, 0.0) + factor * w / (w + base + scale * lengths[doc])
        prior = self.prior
        return {doc: s * prior[doc] for doc, s in acc.items()}


class RankedTerms(wq.Query):  # type: ignore[misc]  # whoosh is untyped
    """A query scoring a bag of weighted terms with :class:`Ranker` (see the module docstring)."""

    def __init__(self, terms: Sequence[Weighted], ranker: Ranker,
                 allowed: frozenset[int] | None = None, boost: float = 1.0) -> None:
        self.terms_ = tuple(terms)
        self.ranker = ranker
        self.allowed = allowed
        self.boost = boost

    def __repr__(self) -> str:
        return f"RankedTerms({', '.join(f'{f}:{t}^{b:g}' for f, t, b in self.terms_)})"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, RankedTerms) and other.terms_ == self.terms_
                and other.allowed == self.allowed and other.boost == self.boost)

    def __hash__(self) -> int:
        return hash((self.terms_, self.boost))

    def is_leaf(self) -> bool:
        return True

    def terms(self, phrases: bool = False) -> Iterator[tuple[str, str]]:
        """Yield the (field, text) of every term of the bag."""
        for fieldname, text, _ in self.terms_:
            yield fieldname, text

    def estimate_size(self, ixreader: IndexReader) -> int:
        """Return an upper bound of the number of matching documents."""
        return sum(len(self.ranker.postings(f, t).ids) for f, t, _ in self.terms_)

    def matcher(self, searcher: Searcher, context: Any = None) -> matching.Matcher:
        """Return a matcher over the documents of the bag, each with its precomputed score."""
        scores = self.ranker.score(self.terms_, self.allowed)
        if not scores:
            return matching.NullMatcher()
        ids = sorted(scores)
        return matching.ListMatcher(ids, weights=[scores[d] * self.boost for d in ids])


class _PriorBM25Scorer(BaseScorer):  # type: ignore[misc]  # whoosh is untyped
    """Score one term of a whoosh query (a required phrase): BM25 times the paragraph's kind prior."""

    def __init__(self, idf: float, ranker: Ranker, fieldname: str, boost: float) -> None:
        self.idf = idf
        self.ranker = ranker
        self.lengths = ranker.lengths.get(fieldname) or ranker.lengths["body"]
        self.avgfl = ranker.average.get(fieldname, 1.0)
        self.boost = boost

    def supports_block_quality(self) -> bool:
        return False

    def max_quality(self) -> float:
        """Return an upper bound of :meth:`score` (BM25 saturates at ``idf * (K1 + 1)``)."""
        return float(max(self.ranker.prior, default=1.0) * self.idf * (K1 + 1))

    def score(self, matcher: Any) -> float:
        """Return the score of the matcher's current document."""
        doc = matcher.id()
        weight = matcher.weight()
        norm = K1 * ((1 - B) + B * self.lengths[doc] / self.avgfl)
        return float(self.ranker.prior[doc] * self.idf * weight * (K1 + 1) / (weight + norm))


class RulesWeighting(WeightingModel):  # type: ignore[misc]  # whoosh is untyped
    """The weighting of the whoosh queries around :class:`RankedTerms` (required phrases and words)."""

    def __init__(self) -> None:
        self.ranker: Ranker | None = None

    def scorer(self, searcher: Searcher, fieldname: str, text: bytes, qf: int = 1) -> BaseScorer:
        """Return the scorer of one term."""
        assert self.ranker is not None, "RulesWeighting needs its ranker before searching"
        parent = searcher.get_parent()
        return _PriorBM25Scorer(parent.idf(fieldname, text), self.ranker, fieldname, float(qf))
