"""The corpus: the rules restated in our own words, read, checked and versioned in one place.

``rules/`` is read by one YAML reader (:mod:`engine.corpus.yamlio`), validated by one schema language
(:mod:`engine.corpus.schema`, :mod:`engine.corpus.facts`) and loaded by one loader
(:mod:`engine.corpus.loader`, whose public names are re-exported here: ``engine.corpus.get_corpus`` is the
entry point). :mod:`engine.corpus.checks`, :mod:`engine.corpus.sources` and :mod:`engine.corpus.own_words`
check it against itself, the printed books and our own-words rule.
"""

from __future__ import annotations

from engine.corpus.loader import (
    KINDS,
    NO_VERSION,
    Corpus,
    CorpusVersion,
    Document,
    IndexEntry,
    Paragraph,
    Signature,
    Source,
    Table,
    cache_dir,
    cache_key,
    corpus_files,
    corpus_version,
    default_root,
    get_corpus,
    load_corpus,
    read_corpus,
    version_signature,
)
from engine.errors import Problem

__all__ = [
    "KINDS", "NO_VERSION", "Corpus", "CorpusVersion", "Document", "IndexEntry", "Paragraph", "Problem", "Signature",
    "Source", "Table", "cache_dir", "cache_key", "corpus_files", "corpus_version", "default_root", "get_corpus",
    "load_corpus", "read_corpus", "version_signature",
]
