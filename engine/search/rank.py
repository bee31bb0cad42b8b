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

import numpy as np
from numpy.typing import NDArray
from whoosh.scoring import BM25F

from engine.search.index import FIELD_BOOSTS
from engine.search.tables import Floats, Params, Tables

K1 = 1.2
B = 0.3
FIELD_B: Mapping[str, float] = {}
KIND_PRIOR: Mapping[str, float] = {
    "rule": 1.0, "glossary": 0.6, "errata": 0.9, "faq": 1.0, "example": 0.85, "table": 0.9, "scenario": 0.9,
}


def weighting() -> BM25F:
    """Return the BM25F weighting of every search (whoosh's, with our parameters)."""
    return BM25F(B=B, K1=K1, **{f"{name}_B": b for name, b in FIELD_B.items()})


# The coordination counts each word by its weight times its idf (to COORD_IDF), the idf capped at
# COORD_CAP: a word most paragraphs hold ("unit", "card", "turn": the incidental words of a table story)
# counts less towards "holds all the question's words"; above the cap, a rare word counts no more than
# any other topic word (one rare word the player used loosely does not decide alone).
COORD_IDF = 1.0
COORD_CAP = 1.5  # (0: no cap)
COORD = 2.0  # the coordination bonus: a paragraph holding all the question's words scores 1 + COORD times more
LINE = 0.5  # ... and 1 + COORD + LINE times more when one of its lines (title, short, asked) holds them all
LINE_WINDOW = 40  # the best paragraphs (by the other bonuses) that the line bonus reorders
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


# --------------------------------------------------------------------------- scoring from arrays

FIELD_WEIGHTS: Mapping[str, float] = dict(FIELD_BOOSTS)  # BM25F's field weights (the schema's boosts)
PER_FIELD = True  # BM25F as whoosh computes it: each field saturated on its own, with its own idf
# a word in more than this share of the paragraphs' text or asked phrasings is not looked for there
COMMON_SHARE = 1.0  # (0.15 was tried: no better)
COMMON_FIELDS = ("text", "asked")
GAME_TOP = 10  # the paragraphs that vote for the game of a question naming none
GAME_MIN = 0.7  # the share of their votes a game needs to be the one searched
GAME_MIN_WORDS = 2  # a shorter question ("damage") is a look-up across the games: no game is inferred


def params() -> Params:
    """Return the BM25F parameters the scoring arrays are built with (this module's values)."""
    return Params(K1, B, tuple(FIELD_WEIGHTS.items()), tuple(FIELD_B.items()), bool(PER_FIELD),
                  tuple((f, COMMON_SHARE) for f in COMMON_FIELDS))


def coordination_weight(idf: float, weight: float = 1.0) -> float:
    """Return what a question's word of rarity *idf* and *weight* counts for in the coordination."""
    return weight * min(idf, COORD_CAP or idf) ** COORD_IDF if COORD_IDF else weight


def word_scores(tables: Tables, weights: Sequence[tuple[str, float]],
                phrases: Sequence[tuple[tuple[str, ...], float]] = ()) -> tuple[Floats, Floats]:
    """Return every paragraph's BM25F score for the weighted stems and the share of them it holds.

    Each stem adds weight x idf x its BM25F weight in the paragraph; an expansion of several words
    (*phrases*, e.g. "ranged attack") counts only in the paragraphs holding all of them. The share
    (the coordination: 0 to 1) is over the question's own stems, by their weights and capped rarity
    (:func:`coordination_weight`).
    """
    scores = np.zeros(tables.n, dtype=np.float32)
    held = np.zeros(tables.n, dtype=np.float32)
    total = 0.0
    for stem, weight in weights:
        share = coordination_weight(tables.rarity(stem), weight)
        total += share
        found = tables.postings(stem)
        if found is None:
            continue
        docs, values = found
        scores[docs] += (weight * (1.0 if tables.idf_inside else tables.rarity(stem))) * values
        held[docs] += share
    for words, weight in phrases:
        runs = [tables.postings(w) for w in words]
        if any(r is None for r in runs):
            continue
        common = runs[0][0] if len(runs) == 1 else np.intersect1d(runs[0][0], runs[1][0])  # type: ignore[index]
        for run in runs[2:]:
            common = np.intersect1d(common, run[0])  # type: ignore[index]
        for w, run in zip(words, runs, strict=True):
            docs, values = run  # type: ignore[misc]
            at = np.searchsorted(docs, common)
            scores[common] += (weight * (1.0 if tables.idf_inside else tables.rarity(w))) * values[at]
    return scores, held / (total or 1.0)


def _votes(tables: Tables, adjusted: Floats) -> Floats | None:
    """Return each game's share of the votes of the :data:`GAME_TOP` best paragraphs by *adjusted*
    (the paragraph at rank r votes for its game with 1/r), or ``None`` when none scores above 0."""
    top = int(GAME_TOP)
    best = np.argpartition(-adjusted, top)[:top] if len(adjusted) > top else np.arange(len(adjusted))
    best = best[np.lexsort((best, -adjusted[best]))]
    votes = np.zeros(len(tables.games) + 1, dtype=np.float64)
    for rank, doc in enumerate(best.tolist(), 1):
        if adjusted[doc] > 0:
            votes[tables.doc_game[doc]] += 1.0 / rank
    total = votes.sum()
    return (votes[:len(tables.games)] / total).astype(np.float32) if total else None


def infer_game(tables: Tables, prior: Floats, weights: Sequence[tuple[str, float]]) -> str | None:
    """Return the game a question's words point to, when they point to one clearly enough.

    The question's words are scored in every game (BM25F, kind prior, coordination); the
    :data:`GAME_TOP` best paragraphs vote for their game, the paragraph at rank r with 1/r. The game with
    at least :data:`GAME_MIN` of the votes is the answer: a word every game uses ("counter", "round")
    is outvoted by the words around it, which one game's paragraphs share. A question of fewer than
    :data:`GAME_MIN_WORDS` topic words is a look-up across the games and gets none.
    """
    if len(tables.games) < 2 or len(weights) < GAME_MIN_WORDS:
        return None
    scores, held = word_scores(tables, weights)
    shares = _votes(tables, scores * prior * (1.0 + COORD * held))
    if shares is None:
        return None
    winner = int(shares.argmax())
    return tables.games[winner] if shares[winner] >= GAME_MIN else None


def rank_plain(scores: Floats, held: Floats, prior: Floats, numbers: NDArray[np.bool_] | None,
               allowed: NDArray[np.bool_] | None, lines: Sequence[Sequence[frozenset[str]]],
               line_weights: Mapping[str, float], need: int
               ) -> tuple[list[tuple[int, float]], int, dict[int, float]]:
    """Return the best *need* paragraphs ``(docnum, score)`` of a plain question, how many matched,
    and the score of every matched paragraph (before the line bonus).

    Every paragraph's score is multiplied by its kind prior, the coordination bonus (:data:`COORD`
    times the share of the question it holds) and, for a "how many" question, the number bonus;
    the best :data:`LINE_WINDOW` then get the line bonus (:data:`LINE` times the weighted share of
    the question their best title, ``short`` or ``asked`` line holds) and are sorted again. The
    order is the same whatever *need* (pages never overlap): the bonus only lifts, so the reordered
    head stays ahead of the rest.
    """
    matched = scores > 0
    if allowed is not None:
        matched &= allowed
    docs = np.flatnonzero(matched)
    total = len(docs)
    if not total:
        return [], 0, {}
    adjusted = (scores * prior * (1.0 + COORD * held))[docs]
    if numbers is not None:
        adjusted = adjusted * np.where(numbers[docs], 1.0 + QUANTITY, 1.0).astype(np.float32)
    order = docs[np.lexsort((docs, -adjusted))]
    value = dict(zip(docs.tolist(), adjusted.tolist(), strict=True))
    weight_sum = sum(line_weights.values()) or 1.0
    head = []
    for rank, doc in enumerate(order[:int(LINE_WINDOW)].tolist()):
        best = max((sum(w for s, w in line_weights.items() if s in line) for line in lines[doc]), default=0.0)
        head.append((doc, value[doc] * (1 + LINE * best / weight_sum), rank))
    head.sort(key=lambda t: (-t[1], t[2]))
    ranked = [(doc, score) for doc, score, _ in head]
    ranked += [(doc, value[doc]) for doc in order[int(LINE_WINDOW):need].tolist()]
    return ranked[:need], total, value


FUSE_DEPTH = 20  # the word ranking's best paragraphs, and the dense ranking's, that are fused
FUSE_K = 10.0  # reciprocal rank fusion: a paragraph at rank r adds 1 / (FUSE_K + r)
DENSE_WEIGHT = 0.5  # ... times this for the dense ranking
DENSE_PARTS = 1.0  # a long question's meaning: its pieces' vectors weighted by their weight to this power (0: one text)


def fuse(ranked: Sequence[tuple[int, float]], similarity: Floats | None, matched: NDArray[np.bool_],
         value: Mapping[int, float]) -> list[tuple[int, float]]:
    """Return the word ranking *ranked* with its head fused with the dense ranking, by reciprocal rank.

    The :data:`FUSE_DEPTH` best paragraphs by words and the :data:`FUSE_DEPTH` most similar by
    meaning among the *matched* ones (a paragraph never enters on meaning alone) are ordered by
    ``1 / (FUSE_K + word rank) + DENSE_WEIGHT / (FUSE_K + dense rank)``; the rest of the word ranking
    follows unchanged. The scores shown stay word scores (*value*: every matched paragraph's), the
    fused head's handed out best first, so that they never increase down the list.
    """
    if similarity is None or not len(ranked):
        return list(ranked)
    candidates = np.flatnonzero(matched)
    sims = similarity[candidates]
    top = int(FUSE_DEPTH)
    depth = min(top, len(candidates))
    best = candidates[np.argsort(-sims, kind="stable")[:depth]].tolist()
    score = dict(ranked)
    fused: dict[int, float] = {}
    for rank, (doc, _) in enumerate(ranked[:top], 1):
        fused[doc] = 1.0 / (FUSE_K + rank)
    for rank, doc in enumerate(best, 1):
        fused[doc] = fused.get(doc, 0.0) + DENSE_WEIGHT / (FUSE_K + rank)
    order = sorted(fused, key=lambda d: (-fused[d], d))
    shown = sorted((score.get(d, value.get(d, 0.0)) for d in order), reverse=True)
    out = list(zip(order, shown, strict=True))
    floor = shown[-1]
    for doc, s in ranked[top:]:
        if doc not in fused:
            floor = min(floor, s)
            out.append((doc, floor))
    return out
