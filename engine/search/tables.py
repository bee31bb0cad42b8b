"""The in-memory arrays one index generation is scored with, read once from whoosh's postings.

whoosh stays the index (it is built, stored, versioned and swapped as before, ``index.py``); what a
plain question is scored with is read from its postings once per generation (and per set of ranking
parameters) into numpy arrays, so that scoring a question is a handful of array additions rather
than whoosh's tree of matchers:

- ``bm25f``: for every stemmed word, the paragraphs holding it (in any ranked field) and its BM25F
  weight there: the field frequencies are weighted (:data:`engine.search.rank.FIELD_WEIGHTS`),
  length-normalised per field and summed before one saturation (Robertson and Zaragoza's BM25F),
  stored as one CSR-like run of ``(paragraph, weight)`` per word;
- ``idf``: each word's rarity over the paragraphs (the Okapi form, never negative);
- ``game_df``: how many paragraphs of each game hold each word, from which the game of a question
  that names none is inferred (``engine/search/query.py``);
- ``words``: the unstemmed words the spelling corrector picks from, with how many paragraphs hold each.

A :class:`Tables` is shared by every thread searching that generation (:func:`tables_for`, keyed by
the generation's real path and the parameters; whoosh generations are never changed once written).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from whoosh.reading import IndexReader

Floats = NDArray[np.float32]
Ints = NDArray[np.int32]

MAX_CACHED = 4  # generations (with their parameters) kept in memory at once


@dataclass(frozen=True)
class Params:
    """The BM25F parameters the arrays are built with (``engine/search/rank.py`` holds the values)."""

    k1: float
    b: float
    weights: tuple[tuple[str, float], ...]
    field_b: tuple[tuple[str, float], ...] = ()
    per_field: bool = True  # saturate each field on its own, with its own idf (whoosh's BM25F), or once
    common: tuple[tuple[str, float], ...] = ()  # (field, share): a word in more of its paragraphs is not read


@dataclass(frozen=True)
class Tables:
    """The scoring arrays of one index generation (see the module docstring)."""

    n: int
    games: tuple[str, ...]
    doc_game: Ints  # the index in ``games`` of each paragraph's game
    stem_ids: Mapping[str, int]
    indptr: NDArray[np.int64]
    docs: Ints
    weights: Floats
    idf: Floats
    game_df: NDArray[np.float32]  # (stems, games): paragraphs of each game holding the word
    game_sizes: Floats  # paragraphs per game
    words: Mapping[str, int]  # unstemmed word -> paragraphs holding it
    idf_inside: bool = False  # ``weights`` already hold each field's idf (per-field BM25F)

    def postings(self, stem: str) -> tuple[Ints, Floats] | None:
        """Return the paragraphs holding *stem* and its BM25F weight in each, or ``None``."""
        i = self.stem_ids.get(stem)
        if i is None:
            return None
        lo, hi = int(self.indptr[i]), int(self.indptr[i + 1])
        return self.docs[lo:hi], self.weights[lo:hi]

    def rarity(self, stem: str) -> float:
        """Return the idf of *stem* (0 for a word no paragraph holds)."""
        i = self.stem_ids.get(stem)
        return 0.0 if i is None else float(self.idf[i])

    def per_game(self, stem: str) -> Floats | None:
        """Return how many paragraphs of each game hold *stem* (``None`` for an unknown word)."""
        i = self.stem_ids.get(stem)
        return None if i is None else self.game_df[i]

    def game_mask(self, game: str) -> NDArray[np.bool_]:
        """Return which paragraphs belong to *game*."""
        return np.asarray(self.doc_game == self.games.index(game))


def _read_field(reader: IndexReader, field: str, n: int, weight: float, k_b: float,
                stems: dict[str, int], k1: float | None, common: float
                ) -> tuple[list[Ints], list[Ints], list[Floats]]:
    """Return (stem ids, docs, normalised weighted frequencies) of every posting of one field.

    With *k1* set, each field is saturated on its own and weighted by its own idf (whoosh's BM25F:
    the weighted frequency goes into the saturation, the idf is ``log(N / (df + 1)) + 1`` of that field).
    A word held by more than *common* of the paragraphs in this field is left out of it (it says
    little there: "card", "unit" in the text).
    """
    lengths = np.array([reader.doc_field_length(d, field, 0) for d in range(n)], dtype=np.float32)
    average = float(lengths[lengths > 0].mean()) if (lengths > 0).any() else 1.0
    norm = (1.0 - k_b) + k_b * lengths / average
    sid_parts: list[Ints] = []
    doc_parts: list[Ints] = []
    tf_parts: list[Floats] = []
    for raw in reader.lexicon(field):
        term = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
        items = list(reader.postings(field, term).items_as("frequency"))
        if len(items) > common * n:
            continue
        docs = np.fromiter((d for d, _ in items), dtype=np.int32, count=len(items))
        freqs = np.fromiter((f for _, f in items), dtype=np.float32, count=len(items))
        sid = stems.setdefault(term, len(stems))
        sid_parts.append(np.full(len(items), sid, dtype=np.int32))
        doc_parts.append(docs)
        if k1 is None:
            tf_parts.append(weight * freqs / norm[docs])
        else:
            tf = weight * freqs
            idf = math.log(n / (len(items) + 1)) + 1.0
            tf_parts.append((idf * tf * (k1 + 1.0) / (tf + k1 * norm[docs])).astype(np.float32))
    return sid_parts, doc_parts, tf_parts


def build_tables(reader: IndexReader, fields: Sequence[str], games: Sequence[str], doc_games: Sequence[str],
                 params: Params) -> Tables:
    """Return the :class:`Tables` of the index *reader* over the ranked *fields*."""
    n = reader.doc_count_all()
    weights, field_b = dict(params.weights), dict(params.field_b)
    stems: dict[str, int] = {}
    sids: list[Ints] = []
    docs: list[Ints] = []
    tfs: list[Floats] = []
    for field in fields:
        a, b, c = _read_field(reader, field, n, weights.get(field, 1.0), field_b.get(field, params.b), stems,
                              params.k1 if params.per_field else None, dict(params.common).get(field, 1.0))
        sids += a
        docs += b
        tfs += c
    sid = np.concatenate(sids) if sids else np.zeros(0, np.int32)
    doc = np.concatenate(docs) if docs else np.zeros(0, np.int32)
    tf = np.concatenate(tfs) if tfs else np.zeros(0, np.float32)
    # one (stem, paragraph) pair per posting of any field: their weighted frequencies summed
    key = sid.astype(np.int64) * max(n, 1) + doc
    unique, inverse = np.unique(key, return_inverse=True)
    summed = np.bincount(inverse, weights=tf).astype(np.float32)
    u_sid = (unique // max(n, 1)).astype(np.int32)
    u_doc = (unique % max(n, 1)).astype(np.int32)
    k1 = params.k1
    saturated = summed if params.per_field else (summed * (k1 + 1.0) / (summed + k1)).astype(np.float32)
    counts = np.bincount(u_sid, minlength=len(stems))
    indptr = np.zeros(len(stems) + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    idf = np.log1p((n - counts + 0.5) / (counts + 0.5)).astype(np.float32)
    game_index = {g: i for i, g in enumerate(games)}
    doc_game = np.array([game_index.get(g, len(games)) for g in doc_games], dtype=np.int32)
    game_df = np.zeros((len(stems), len(games) + 1), dtype=np.float32)
    np.add.at(game_df, (u_sid, doc_game[u_doc]), 1.0)
    sizes = np.bincount(doc_game, minlength=len(games) + 1).astype(np.float32)
    words = {}
    if "words" in reader.schema.names():
        for raw in reader.lexicon("words"):
            term = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
            words[term] = reader.doc_frequency("words", term)
    return Tables(n=n, games=tuple(games), doc_game=doc_game, stem_ids=stems, indptr=indptr, docs=u_doc,
                  weights=saturated, idf=idf, game_df=game_df[:, :len(games)], game_sizes=sizes[:len(games)],
                  words=words, idf_inside=params.per_field)


_CACHE: dict[tuple[str, Params], Tables] = {}
_LOCK = threading.Lock()


def tables_for(target: str, reader: IndexReader, fields: Sequence[str], games: Sequence[str],
               doc_games: Sequence[str], params: Params) -> Tables:
    """Return the tables of the generation at *target* (built once, then shared by every thread)."""
    key = (target, params)
    with _LOCK:
        found = _CACHE.get(key)
        if found is None:
            found = build_tables(reader, fields, games, doc_games, params)
            if len(_CACHE) >= MAX_CACHED:
                _CACHE.pop(next(iter(_CACHE)))
            _CACHE[key] = found
        return found


def idf_of(n: int, df: int) -> float:
    """Return the Okapi idf of a word held by *df* of *n* paragraphs (as :func:`build_tables` computes it)."""
    return math.log1p((n - df + 0.5) / (df + 0.5))
