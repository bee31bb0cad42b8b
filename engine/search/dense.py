"""A dense signal: the meaning of a question against each paragraph's, from a model shipped in a package.

The model is WordLlama's ``l2_supercat`` at 256 dimensions (the ``wordllama`` package ships its
weights and tokenizer: nothing is downloaded, ever). It averages static token embeddings, so a
question is embedded in well under a millisecond on one core, with no GPU and no network.

Each paragraph is embedded once per index generation from its title, its ``short`` line and its
``asked`` phrasings (the stored ``dense_text`` field), as unit vectors in one matrix (:func:`matrix_for`,
shared by every thread, keyed like the scoring arrays by the generation's path); a question's
similarity to every paragraph is one matrix-vector product. ``rank.fuse`` merges this ranking with
the word ranking by reciprocal rank.

:func:`english_words` lends the spelling corrector the words the tokenizer holds whole: common
English words, which are never "corrected" into rules words.

The package's loader looks for the tokenizer in ``wordllama/tokenizer/`` while the package ships it
in ``wordllama/tokenizers/``, and would then try to download it: the package's own folder is passed as
the cache folder (where ``tokenizers/`` is found) and downloads are switched off.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

MAX_CACHED = 4
_MODEL: list[Any] = []  # the loaded model (or None when it cannot be), once per process
_MODEL_LOCK = threading.Lock()
_CACHE: dict[str, NDArray[np.float32]] = {}
_CACHE_LOCK = threading.Lock()


def model() -> Any:
    """Return the WordLlama model shipped in the ``wordllama`` package (loaded once, never downloaded),
    or ``None`` when it cannot be loaded (search then ranks by words alone, and says so once)."""
    with _MODEL_LOCK:
        if not _MODEL:
            try:
                import wordllama
                from wordllama import WordLlama

                folder = Path(wordllama.__file__).resolve().parent
                _MODEL.append(WordLlama.load(config="l2_supercat", dim=256, cache_dir=folder,
                                             disable_download=True))
            except (ImportError, OSError, ValueError) as exc:
                print(f"runecodex: search ranks by words only: the embedding model cannot be loaded ({exc})",
                      file=sys.stderr)
                _MODEL.append(None)
        return _MODEL[0]


def embed(texts: Sequence[str]) -> NDArray[np.float32] | None:
    """Return the unit vectors of *texts* (one row each), or ``None`` without the model."""
    found = model()
    if found is None:
        return None
    if not texts:
        return np.zeros((0, 256), dtype=np.float32)
    return np.asarray(found.embed(list(texts), norm=True), dtype=np.float32)


def meaning(parts: Sequence[tuple[str, float]], power: float = 1.0) -> NDArray[np.float32] | None:
    """Return the unit vector of a question read in weighted *parts* (its question and its table story),
    or ``None`` without the model.

    The model's vector of a text is the mean of its tokens' vectors; a question's is here the mean
    of all its tokens' vectors with each part's weighted by the part's weight to *power* (the story
    around a question says less than the question itself, as it does for the words).
    """
    texts = [text for text, _ in parts if text]
    found = model()
    if found is None or not texts:
        return None
    means = np.asarray(found.embed(texts, norm=False), dtype=np.float32)
    scale = np.array([len(text.split()) * weight ** power for text, weight in parts if text], dtype=np.float32)
    combined = scale @ means
    norm = float(np.linalg.norm(combined))
    return (combined / norm).astype(np.float32) if norm else None


def matrix_for(target: str, texts: Sequence[str]) -> NDArray[np.float32] | None:
    """Return the paragraphs' unit vectors of the generation at *target* (embedded once, then shared),
    or ``None`` without the model."""
    with _CACHE_LOCK:
        found = _CACHE.get(target)
    if found is not None:
        return found
    made = embed([t or " " for t in texts])
    if made is None:
        return None
    with _CACHE_LOCK:
        if len(_CACHE) >= MAX_CACHED:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[target] = made
    return made


_WORDS: list[frozenset[str]] = []


def english_words() -> frozenset[str]:
    """Return the lower-case words the model's tokenizer holds whole (4 letters or more): common English.

    A word a player types that is one of these is a real word ("night", "guys"), never a typo to
    correct into a rules word ("knight"); misspellings ("peirce", "sigth") are not whole tokens.
    """
    with _MODEL_LOCK:
        if _WORDS:
            return _WORDS[0]
    found = model()
    words: frozenset[str] = frozenset()
    if found is not None:
        vocab = found.tokenizer.get_vocab()
        words = frozenset(t[1:].lower() for t in vocab if t.startswith("\u2581") and len(t) > 4 and t[1:].isalpha())
    with _MODEL_LOCK:
        if not _WORDS:
            _WORDS.append(words)
        return _WORDS[0]
