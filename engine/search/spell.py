"""Correct a misspelt word to a word of the corpus: swapped letters, missing or extra ones, variants.

A question's word is corrected only when the corpus does not know it (``Vocabulary.knows`` in
``query.py``: neither the word nor its stem is indexed, nor is it a glossary alias). The candidates
are the corpus's unstemmed words within a Damerau-Levenshtein distance of 1 (2 from
:data:`LONG_WORD` letters): a swap of two neighbouring letters ("peirce", "sigth", "discrad") costs
one edit, like a missing, extra or wrong letter (rapidfuzz's C implementation, over a few thousand
words in well under a millisecond). Between candidates at the same distance, the one keeping the
first letter wins, then the one the typed word is a shortened form of (a letter left out is the
commonest slip: "draf" is "draft" rather than "draw"), then the one more paragraphs hold.

Spelling variants of English ("defence", "armour", "honour") are first rewritten to the corpus's
spelling when that form is a corpus word.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

LONG_WORD = 8
CANDIDATES = 12
# British spellings and the American ones the rulebooks print (tried in order, first corpus word wins)
VARIANTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"ence$"), "ense"),
    (re.compile(r"our(s?)$"), r"or\1"),
    (re.compile(r"ise(s|d)?$"), r"ize\1"),
    (re.compile(r"isation"), "ization"),
    (re.compile(r"yse(s|d)?$"), r"yze\1"),
    (re.compile(r"ll(ed|ing)$"), r"l\1"),
)


def _subsequence(short: str, long: str) -> bool:
    """Return whether the letters of *short* appear in *long* in order."""
    it = iter(long)
    return all(ch in it for ch in short)


class Speller:
    """The spelling corrector of one index generation: its corpus words and how common each is."""

    def __init__(self, words: Mapping[str, int]) -> None:
        self.frequency = {w: f for w, f in words.items() if w.isalpha() and len(w) >= 3}
        self.choices = sorted(self.frequency)

    def variant(self, word: str) -> str | None:
        """Return the corpus's spelling of a British variant of *word*, or ``None``."""
        for pattern, replacement in VARIANTS:
            other = pattern.sub(replacement, word)
            if other != word and other in self.frequency:
                return other
        return None

    def correct(self, word: str) -> str | None:
        """Return the corpus word nearest to *word* (see the module docstring), or ``None``."""
        found = self.variant(word)
        if found is not None:
            return found
        maxdist = 1 if len(word) < LONG_WORD else 2
        near = process.extract(word, self.choices, scorer=DamerauLevenshtein.distance, score_cutoff=maxdist,
                               limit=CANDIDATES)
        if not near:
            return None

        def preference(item: tuple[str, float, int]) -> tuple[float, bool, bool, int]:
            cand, dist, _ = item
            return (dist, cand[0] != word[0], not _subsequence(word, cand), -self.frequency[cand])

        best = min(near, key=preference)
        if best[1] >= 2 and best[0][0] != word[0]:
            return None  # two edits and another first letter: too far to guess
        return best[0]
