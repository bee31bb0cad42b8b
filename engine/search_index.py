"""Build the whoosh search index of the rules corpus, aside and atomically swapped in.

One whoosh document per corpus paragraph. What a player's words are matched against is one
weighted ``body`` field (BM25F: a word's weight in a paragraph is the sum of the weights of the
parts it occurs in, saturated once), made of these parts (:data:`PART_WEIGHTS`):

- ``title``: the paragraph's title;
- ``keys``: what the paragraph is *about* by the book's own account: the terms a glossary entry
  defines and their aliases, the names of "See ..." entries that send the reader here, and the
  book's own index entries that point here;
- ``section``: the printed section heading and paragraph number of its locator;
- ``terms``: the glossary terms the paragraph uses;
- ``text``: the text a reader is shown (errata-corrected, via ``Corpus.text_of``) plus table cells;
- ``amend``: the errata and FAQ entries that amend or clarify this paragraph, so the corrected rule
  outranks both the stale sentence and the bare erratum.

``pairs`` holds the same parts as adjacent stemmed word pairs (phrase matching by term lookup),
``words`` the unstemmed words that spelling correction suggests from; ``game``, ``kind`` and
``doc`` filter; ``title``, ``text``, ``source`` and ``locator`` are stored for the hits.

The index lives in a generation folder beside the requested path (``build/.index-gen-<hash>-<ns>``)
and the requested path (``build/index``) is a symlink switched with one ``os.replace``: a reader
opens either the old generation or the new one, never a half-written one. ``meta.json`` in each
generation records the hash of the files it was built from (corpus, synonyms, schema version), the
games, the glossary terms and the query-expansion table.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from whoosh import index as whoosh_index
from whoosh.analysis import (
    STOP_WORDS,
    Analyzer,
    Filter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
    Token,
    Tokenizer,
)
from whoosh.fields import ID, STORED, TEXT, Schema

from engine import locks, ownership
from engine.corpus import Corpus, Paragraph, default_root, load_corpus
from engine.errors import UnreadableInputError

SCHEMA_VERSION = "runecodex-search-7"
META_FILE = "meta.json"
SYNONYMS_FILE = Path(__file__).resolve().parent / "search_synonyms.yaml"
# Question words players type that carry no rules meaning ("what happens when my ...").
QUESTION_WORDS = frozenset((
    "what", "whats", "which", "who", "whom", "whose", "how", "why", "where", "does", "do", "did", "doing",
    "done", "i", "im", "ive", "me", "my", "mine", "myself", "happens", "happen", "happened", "there",
    "their", "theirs", "they", "them", "its", "am", "was", "were", "been", "being", "would", "should",
    "could", "shall", "must", "s", "t", "d", "ll", "ve", "re", "m", "o", "so", "than", "then", "too",
    "very", "just", "also", "any", "some", "into", "onto", "about", "our", "ours", "he", "him",
    "his", "she", "her", "hers", "get", "gets", "got", "allowed", "rule", "rules",
))
STOPS = frozenset(STOP_WORDS | QUESTION_WORDS)

# The searchable ``body`` of a paragraph is made of weighted parts (BM25F: a word's weight in the
# document is the sum of the weights of the parts it occurs in, then saturated once). What a
# paragraph is about (its title, the terms it defines, the book index entries pointing at it)
# outweighs what it merely mentions.
PART_WEIGHTS: Mapping[str, float] = {
    "title": 3.0, "keys": 2.5, "section": 1.5, "terms": 1.0, "text": 1.0, "amend": 1.0,
}
_PART_SEP = "\x1e"     # between parts of a body
_WEIGHT_SEP = "\x1f"   # between a part's weight and its text
_PART_GAP = 100        # positions skipped between parts, so no phrase spans two parts
WORD_PATTERN = r"\w+(?:\.?\w+)*"


class PartsTokenizer(Tokenizer):  # type: ignore[misc]  # whoosh is untyped
    """Split ``weight<US>text<RS>weight<US>text...`` into words carrying their part's weight.

    Plain text (no separators) is one part of weight 1, so queries use the same analyzer. Stop
    words take no position and parts are far apart, so phrases match across stop words but never
    across parts.
    """

    expression = re.compile(WORD_PATTERN, re.UNICODE)

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__

    def __hash__(self) -> int:
        return hash(self.__class__)

    def __call__(self, value: str, positions: bool = False, chars: bool = False,
                 keeporiginal: bool = False, removestops: bool = True, start_pos: int = 0,
                 start_char: int = 0, tokenize: bool = True, mode: str = "",
                 **kwargs: Any) -> Iterator[Token]:
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        pos = start_pos
        offset = start_char
        for part in value.split(_PART_SEP):
            weight, sep, text = part.partition(_WEIGHT_SEP)
            boost = float(weight) if sep else 1.0
            text = text if sep else part
            base = offset + (len(weight) + 1 if sep else 0)
            for match in self.expression.finditer(text):
                t.text = match.group(0)
                t.boost = boost
                t.stopped = False
                if keeporiginal:
                    t.original = t.text
                t.pos = pos  # always: PairFilter reads it even when positions are not stored
                if t.text.lower() not in STOPS:  # stop words take no position: phrases skip them
                    pos += 1
                if chars:
                    t.startchar = base + match.start()
                    t.endchar = base + match.end()
                yield t
            pos += _PART_GAP
            offset += len(part) + 1


class PairFilter(Filter):  # type: ignore[misc]  # whoosh is untyped
    """Replace a stream of stemmed words by its adjacent pairs (``"home realm"``), keeping the weight.

    Indexed as the ``pairs`` field, a two-word phrase becomes one cheap term lookup instead of a
    positional phrase query. Stop words were given no position, so "secure a city" pairs "secur citi".
    """

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__

    def __hash__(self) -> int:
        return hash(self.__class__)

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        prev_text, prev_pos = "", -2
        for t in tokens:
            text, pos = t.text, t.pos
            if pos == prev_pos + 1 and prev_text != text:
                t.text = f"{prev_text} {text}"
                yield t
                t.text = text
            prev_text, prev_pos = text, pos


def body(parts: Mapping[str, str]) -> str:
    """Return the weighted body text of a paragraph from its named parts (see :data:`PART_WEIGHTS`)."""
    def clean(text: str) -> str:
        return text.replace(_PART_SEP, " ").replace(_WEIGHT_SEP, " ")

    return _PART_SEP.join(f"{PART_WEIGHTS[name]}{_WEIGHT_SEP}{clean(text)}"
                          for name, text in parts.items() if text.strip())


def analyzer() -> Analyzer:
    """Return the analyzer of the index and the queries: words, lower case, no stop words, Porter stems."""
    return (PartsTokenizer() | LowercaseFilter() | StopFilter(stoplist=STOPS, minsize=1, renumber=False)
            | StemFilter(cachesize=-1))


def pairs_analyzer() -> Analyzer:
    """Return the analyzer of the ``pairs`` field: the body's adjacent stemmed word pairs."""
    return analyzer() | PairFilter()


def unstemmed_analyzer() -> Analyzer:
    """Return the analyzer of the ``words`` field that spelling correction reads (no stemming)."""
    return RegexTokenizer() | LowercaseFilter() | StopFilter(stoplist=STOPS, minsize=3)


def schema() -> Schema:
    """Return the index schema: one weighted ``body`` field searched, the rest stored or filtered on."""
    return Schema(
        id=ID(stored=True, unique=True),
        game=ID(stored=True),
        kind=ID(stored=True),
        doc=ID(stored=True),
        body=TEXT(analyzer=analyzer()),
        pairs=TEXT(analyzer=pairs_analyzer(), phrase=False),
        words=TEXT(analyzer=unstemmed_analyzer(), phrase=False),
        title=STORED(),
        text=STORED(),
        source=STORED(),
        locator=STORED(),
    )


def default_index_dir() -> Path:
    """Return ``$RUNECODEX_INDEX`` or ``build/index`` beside the package."""
    env = os.environ.get("RUNECODEX_INDEX")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "build" / "index"


# --------------------------------------------------------------------------- freshness

def rules_files(rules: Path) -> list[Path]:
    """Return the corpus files a build reads: ``documents.yaml`` and every document's YAML files."""
    files = [rules / "documents.yaml"] if (rules / "documents.yaml").is_file() else []
    files += sorted(rules.glob("*/*.yaml"))
    return files


def _inputs(rules: Path) -> list[Path]:
    return [*rules_files(rules), SYNONYMS_FILE]


def corpus_hash(rules: Path) -> str:
    """Return the hash of everything an index is built from: corpus files, synonyms, schema version."""
    digest = hashlib.sha256(SCHEMA_VERSION.encode())
    for path in _inputs(rules):
        digest.update(str(path.relative_to(rules) if path.is_relative_to(rules) else path.name).encode())
        digest.update(b"\0")
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def stat_signature(rules: Path) -> tuple[tuple[str, int, int], ...]:
    """Return a cheap fingerprint (name, mtime, size) of the inputs, to decide when to rehash."""
    out = []
    for path in _inputs(rules):
        try:
            st = path.stat()
        except OSError:
            continue
        out.append((str(path), st.st_mtime_ns, st.st_size))
    return tuple(out)


def read_meta(index_dir: Path) -> dict[str, Any] | None:
    """Return the ``meta.json`` of the index at *index_dir*, or ``None`` when there is no usable index."""
    try:
        meta = json.loads((index_dir / META_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("schema") != SCHEMA_VERSION:
        return None
    return meta


def is_fresh(index_dir: Path, rules: Path | None = None) -> bool:
    """Return whether *index_dir* holds an index built from the current files of *rules*."""
    meta = read_meta(index_dir)
    return meta is not None and meta.get("corpus_hash") == corpus_hash(rules or default_root())


# --------------------------------------------------------------------------- expansions

@dataclass(frozen=True)
class Expansion:
    """One query expansion: when a query says ``key``, also look for ``value`` (both stemmed)."""

    game: str
    key: tuple[str, ...]
    value: tuple[str, ...]
    origin: str

    def to_json(self) -> dict[str, Any]:
        """Return the expansion as stored in ``meta.json``."""
        return {"game": self.game, "key": list(self.key), "value": list(self.value), "origin": self.origin}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Expansion:
        """Return the expansion stored by :meth:`to_json`."""
        return cls(str(data["game"]), tuple(data["key"]), tuple(data["value"]), str(data["origin"]))


def stems(text: str) -> tuple[str, ...]:
    """Return the stemmed content words of *text*, as the index sees them."""
    return tuple(t.text for t in _ANALYZER(text))


_ANALYZER = analyzer()


def read_synonyms(path: Path = SYNONYMS_FILE) -> dict[str, dict[str, list[str]]]:
    """Return the synonyms table ``{game or "all": {player words: [rules words]}}`` from *path*."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise UnreadableInputError(f"unreadable synonyms file: {exc}", path=str(path)) from None
    if not isinstance(raw, dict):
        raise UnreadableInputError("the synonyms file must map games to tables", path=str(path))
    out: dict[str, dict[str, list[str]]] = {}
    for game, table in raw.items():
        if not isinstance(table, dict):
            raise UnreadableInputError(f"synonyms for {game!r} must be a mapping", path=f"{path}:{game}")
        for key, values in table.items():
            if isinstance(values, str):
                values = [values]
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                raise UnreadableInputError(f"synonyms of {key!r} must be a list of words",
                                           path=f"{path}:{game}.{key}")
            out.setdefault(str(game), {})[str(key)] = values
    return out


def expansions(corpus: Corpus, synonyms: Mapping[str, Mapping[str, list[str]]]) -> list[Expansion]:
    """Return the query expansions: glossary aliases, "See ..." entries and the synonyms table."""
    out: list[Expansion] = []
    seen: set[tuple[str, tuple[str, ...], tuple[str, ...]]] = set()

    def add(game: str, key: str, value: str, origin: str) -> None:
        k, v = stems(key), stems(value)
        if k and v and k != v and (game, k, v) not in seen:
            seen.add((game, k, v))
            out.append(Expansion(game, k, v, origin))

    for p in corpus:
        if p.kind != "glossary":
            continue
        names = (*p.defines, *p.aliases)
        for alias in p.aliases:
            for term in p.defines:
                add(p.game, alias, term, p.id)
        if p.see and p.see in corpus.paragraphs:
            target = corpus.paragraphs[p.see]
            for name in names:
                for term in (target.defines or (target.title,)):
                    add(p.game, name, term, p.id)
    for game, table in synonyms.items():
        for key, values in table.items():
            for value in values:
                add(game, key, value, "synonyms")
    return out


def glossary_terms(corpus: Corpus) -> dict[str, list[list[str]]]:
    """Return, per game, the stemmed names the glossary defines (terms and aliases)."""
    out: dict[str, set[tuple[str, ...]]] = {}
    for p in corpus:
        if p.kind == "glossary":
            for name in (*p.defines, *p.aliases):
                words = stems(name)
                if words:
                    out.setdefault(p.game, set()).add(words)
    return {game: sorted(list(w) for w in names) for game, names in sorted(out.items())}


# --------------------------------------------------------------------------- documents

def _table_text(p: Paragraph) -> str:
    if p.table is None:
        return ""
    rows = [" ".join(p.table.columns)] + [" ".join(str(c) for c in row) for row in p.table.rows]
    return "\n".join(rows)


def documents(corpus: Corpus) -> Iterator[dict[str, Any]]:
    """Yield one whoosh document per paragraph (see the module docstring for the fields)."""
    keys: dict[str, list[str]] = {p.id: [*p.defines, *p.aliases] for p in corpus}
    for p in corpus:
        if p.see and p.see in keys:
            keys[p.see] += [*p.defines, *p.aliases]
    for entry in corpus.index:
        for target in entry.see:
            if target in keys:
                keys[target].append(entry.entry.replace(":", " "))
    amend: dict[str, list[str]] = {}
    for p in corpus:
        for target in (*p.amends, *p.clarifies):
            amend.setdefault(target, []).extend([p.title, p.text])
    for p in corpus:
        text = corpus.text_of(p.id)
        table = _table_text(p)
        section = " ".join(x for x in (p.source.section, p.source.paragraph) if x)
        body_text = "\n".join(x for x in (text, table) if x)
        parts = {
            "title": p.title, "keys": "\n".join(keys[p.id]), "section": section, "terms": "\n".join(p.terms),
            "text": body_text, "amend": "\n".join(amend.get(p.id, [])),
        }
        yield {
            "id": p.id, "game": p.game, "kind": p.kind, "doc": p.source.doc,
            "body": body(parts),
            "pairs": body(parts),
            "words": "\n".join((p.title, body_text, *keys[p.id])),
            "title": p.title,
            "text": text,
            "source": json.dumps(p.source.to_json()),
            "locator": corpus.locator(p.id),
        }


# --------------------------------------------------------------------------- building

@contextlib.contextmanager
def _build_lock(index_dir: Path) -> Iterator[None]:
    # a folder, file, device or link that is not runecodex's is refused, never renamed or removed
    ownership.check_link(index_dir, f".{index_dir.name}-gen-", "the search index")
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    # a lock the kernel drops with its holder (never inherited by a forked child); waiting says so
    with locks.exclusive(index_dir.parent / f".{index_dir.name}.lock",
                         f"another build of the search index {index_dir}"):
        yield


def _generations(index_dir: Path) -> list[Path]:
    return sorted(index_dir.parent.glob(f".{index_dir.name}-gen-*"), key=lambda p: p.stat().st_mtime_ns)


def _swap_in(index_dir: Path, generation: Path) -> None:
    """Point *index_dir* at *generation* with one atomic rename of a fresh symlink."""
    link = index_dir.parent / f".{index_dir.name}.link-{os.getpid()}-{time.time_ns()}"
    link.symlink_to(generation.name)
    ownership.check_link(index_dir, f".{index_dir.name}-gen-", "the search index")
    if index_dir.is_dir() and not index_dir.is_symlink() and not any(index_dir.iterdir()):
        index_dir.rmdir()  # an empty folder: nothing to keep
    if index_dir.exists() and not index_dir.is_symlink():
        # An index folder from before generations (ours): move it aside first (one-off, not atomic).
        index_dir.rename(index_dir.parent / f".{index_dir.name}-gen-legacy-{time.time_ns()}")
    os.replace(link, index_dir)


def _prune(index_dir: Path, keep: int = 2) -> None:
    """Delete old generations, keeping the current one and the one before (readers may hold it)."""
    current = index_dir.resolve() if index_dir.is_symlink() else None
    old = [g for g in _generations(index_dir) if g.resolve() != current and ownership.is_owned_dir(g)]
    for g in old[: max(0, len(old) - (keep - 1))]:
        ownership.remove_owned(g)


def write_index(corpus: Corpus, index_dir: Path, digest: str) -> Path:
    """Write the index of *corpus* into a new generation beside *index_dir*, swap it in; return *index_dir*.

    *digest* is the hash of the inputs, recorded in ``meta.json`` to tell when the index is stale.
    """
    index_dir = Path(index_dir)
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    generation = index_dir.parent / f".{index_dir.name}-gen-{digest[:12]}-{time.time_ns()}"
    generation.mkdir()
    ownership.write_marker(generation, "search-index", tree=True)
    try:
        ix = whoosh_index.create_in(str(generation), schema())
        writer = ix.writer(limitmb=128)
        count = 0
        for doc in documents(corpus):
            writer.add_document(**doc)
            count += 1
        writer.commit(optimize=True)
        ix.close()
        meta = {
            "schema": SCHEMA_VERSION,
            "corpus_hash": digest,
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "paragraphs": count,
            "games": dict(corpus.games),
            "expansions": [e.to_json() for e in expansions(corpus, read_synonyms())],
            "glossary_terms": glossary_terms(corpus),
        }
        (generation / META_FILE).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
    except BaseException:
        ownership.remove_owned(generation)
        raise
    _swap_in(index_dir, generation)
    _prune(index_dir)
    return index_dir


def _build(index_dir: Path, root: Path, corpus: Corpus | None) -> Path:
    if corpus is not None:
        return write_index(corpus, index_dir, corpus_hash(root))
    for _attempt in range(3):
        digest = corpus_hash(root)
        loaded = load_corpus(root)
        if corpus_hash(root) == digest:
            break
    # (after three attempts with files changing under us, index what was read last)
    return write_index(loaded, index_dir, digest)


def build_index(out_dir: Path | None = None, *, corpus: Corpus | None = None,
                rules: Path | None = None) -> Path:
    """Build the search index into *out_dir* (default ``build/index``) and return that path.

    The corpus is read fresh from *rules* (default ``rules/``) with the validating loader, so the
    hash stamped on the index is the hash of exactly the files it was built from (the per-process
    cache of ``get_corpus`` may be older than the files in a long-running server). A caller that
    already holds the corpus of those files (``runecodex build``, tests) may pass it as *corpus*.
    Raises :class:`~engine.errors.CorpusError` when the corpus does not validate.
    """
    index_dir = Path(out_dir) if out_dir is not None else default_index_dir()
    root = Path(rules) if rules is not None else (corpus.root if corpus is not None else default_root())
    with _build_lock(index_dir):
        return _build(index_dir, root, corpus)


def ensure_index(index_dir: Path | None = None, rules: Path | None = None) -> Path:
    """Return *index_dir* after building it if it is missing or older than the corpus files."""
    index_dir = Path(index_dir) if index_dir is not None else default_index_dir()
    root = Path(rules) if rules is not None else default_root()
    if is_fresh(index_dir, root):
        return index_dir
    with _build_lock(index_dir):
        if is_fresh(index_dir, root):  # another process built it while we waited
            return index_dir
        return _build(index_dir, root, None)
