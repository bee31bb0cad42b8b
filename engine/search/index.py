"""Build the whoosh search index of the rules corpus, aside and atomically swapped in.

One whoosh document per corpus paragraph, with one TEXT field per thing a player's words can meet,
each weighted by its schema ``field_boost`` (whoosh multiplies every posting's weight by it at index
time; BM25F then saturates each field on its own, ``engine/search/rank.py``):

============  =====  ========================================================================
field         boost  what it holds
============  =====  ========================================================================
``title``      3.0   the paragraph's title
``names``      2.5   what the paragraph is *about* by the book's own account: the terms a
                     glossary entry defines and their aliases, the names of "See ..." entries
                     that send the reader here, the book index entries that point here
``asked``      2.0   how players ask for this rule (``asked:`` in ``rules/``, 2-6 phrasings)
``short``      2.0   the rule in one line (``short:`` in ``rules/``)
``section``    1.0   the heading the book prints the paragraph under ("Conduct a Siege",
                     "Retreats"): what the paragraph is about, in the book's words
``text``       1.0   the text a reader is shown (errata-corrected, ``Corpus.text_of``), table
                     cells, and the errata/FAQ entries that amend or clarify it
============  =====  ========================================================================

``words`` holds the unstemmed words of all of them and of the section heading (spelling correction
suggests from it; it is never ranked). ``id``, ``game``, ``kind`` and ``doc`` are stored IDs (filters); ``title``,
``text``, ``short``, ``source`` and ``locator`` are stored for the hits; ``dense_text`` (title, ``short``
and ``asked``) is what the dense signal embeds (``engine/search/dense.py``).

The index lives in a generation folder beside the requested path (``build/.index-gen-<hash>-<ns>``)
and the requested path (``build/index``) is a symlink switched with one ``os.replace``: a reader
opens either the old generation or the new one, never a half-written one. The generation is keyed by
the corpus version (:class:`engine.corpus.CorpusVersion`) and :func:`index_inputs` (the synonyms file
and the schema version), recorded in its ``meta.json`` with the games, the glossary's query expansions and the list
of fields left out (the benchmark builds one index without ``asked`` to measure what it brings).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.analysis import STOP_WORDS, Analyzer, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.fields import ID, STORED, TEXT, Schema

from engine import PROJECT_ROOT
from engine.corpus import Corpus, CorpusVersion, Paragraph, corpus_version, default_root, load_corpus
from engine.corpus.yamlio import YamlError, read_yaml
from engine.errors import UnreadableInputError
from engine.files import locks, ownership
from engine.views.graph import build_graph

SCHEMA_VERSION = "runecodex-search-13"
META_FILE = "meta.json"
SYNONYMS_FILE = Path(__file__).resolve().parent / "synonyms.yaml"
WORD_PATTERN = r"\w+(?:\.?\w+)*"

# Words of a question that carry no topic ("how many ... can I ... my ..."): never ranked, never
# highlighted, never spell-corrected. whoosh's English STOP_WORDS plus the words players wrap a
# question in.
QUESTION_WORDS = frozenset((
    "what", "whats", "which", "who", "whom", "whose", "how", "why", "where", "does", "do", "did", "doing",
    "done", "i", "im", "ive", "me", "my", "mine", "myself", "happens", "happen", "happened", "there",
    "their", "theirs", "they", "them", "its", "am", "was", "were", "been", "being", "would", "should",
    "could", "shall", "must", "s", "t", "d", "ll", "ve", "re", "m", "o", "so", "than", "then", "too",
    "very", "just", "also", "any", "some", "into", "onto", "about", "our", "ours", "he", "him",
    "his", "she", "her", "hers", "get", "gets", "got", "allowed", "rule", "rules", "many", "much",
    "go", "goes", "going", "went", "able", "exactly", "really", "actually", "anyone", "someone",
    "something", "anything", "else", "ever", "still", "okay", "ok", "hey", "please", "need", "needs",
    "there", "here", "say", "says", "said", "tell", "know", "want", "wants", "mean", "means", "thing",
    "things", "stuff", "way", "ways", "possible", "legal", "work", "works", "working",
))
STOPS = frozenset(STOP_WORDS | QUESTION_WORDS)
# Words the Porter stemmer would turn into another word ("one" and "ones" into "on"): kept as they are.
UNSTEMMED = frozenset(("one", "ones"))

FIELD_BOOSTS: Mapping[str, float] = {
    "title": 3.0, "names": 2.5, "asked": 2.0, "short": 2.0, "section": 1.0, "text": 1.0,
}
RANKED_FIELDS = tuple(FIELD_BOOSTS)


def analyzer() -> Analyzer:
    """Return the analyzer of the ranked fields and the queries: words, lower case, no stop words, stems."""
    return (RegexTokenizer(WORD_PATTERN) | LowercaseFilter() | StopFilter(stoplist=STOPS, minsize=1)
            | StemFilter(ignore=UNSTEMMED, cachesize=-1))


def unstemmed_analyzer() -> Analyzer:
    """Return the analyzer of the ``words`` field that spelling correction reads (no stemming)."""
    return RegexTokenizer(WORD_PATTERN) | LowercaseFilter() | StopFilter(stoplist=STOPS, minsize=2)


def schema(without: Iterable[str] = ()) -> Schema:
    """Return the index schema: the weighted TEXT fields of :data:`FIELD_BOOSTS` (less *without*) and the rest."""
    skip = set(without)
    ranked = {name: TEXT(analyzer=analyzer(), field_boost=boost, phrase=True)
              for name, boost in FIELD_BOOSTS.items() if name not in skip}
    return Schema(
        id=ID(stored=True, unique=True), game=ID(stored=True), kind=ID(stored=True), doc=ID(stored=True),
        words=TEXT(analyzer=unstemmed_analyzer(), phrase=False),
        stored_title=STORED(), stored_text=STORED(), stored_short=STORED(), source=STORED(),
        locator=STORED(), numeric=STORED(), lines=STORED(), dense_text=STORED(),
        **ranked,
    )


def default_index_dir() -> Path:
    """Return ``$RUNECODEX_INDEX`` or ``build/index`` beside the package."""
    env = os.environ.get("RUNECODEX_INDEX")
    if env:
        return Path(env)
    return PROJECT_ROOT / "build" / "index"


# --------------------------------------------------------------------------- freshness

def index_inputs() -> str:
    """Return the digest of what an index is built from besides the corpus: schema version and synonyms."""
    digest = hashlib.sha256(SCHEMA_VERSION.encode() + b"\0")
    with contextlib.suppress(OSError):
        digest.update(SYNONYMS_FILE.read_bytes())
    return digest.hexdigest()


def built_from(meta: Mapping[str, Any], version: CorpusVersion) -> bool:
    """Return whether the index whose ``meta.json`` is *meta* was built from *version* (and these inputs)."""
    return bool(version.digest) and meta.get("corpus_version") == version.digest and (
        meta.get("inputs") == index_inputs())


def read_meta(index_dir: Path) -> dict[str, Any] | None:
    """Return the ``meta.json`` of the index at *index_dir*, or ``None`` when there is no usable index."""
    try:
        meta = json.loads((Path(index_dir) / META_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("schema") != SCHEMA_VERSION:
        return None
    return meta


def is_fresh(index_dir: Path, rules: Path | None = None) -> bool:
    """Return whether *index_dir* holds a full index built from the current files of *rules*."""
    meta = read_meta(index_dir)
    return (meta is not None and not meta.get("without")
            and built_from(meta, corpus_version(rules or default_root())))


# --------------------------------------------------------------------------- expansions

_ANALYZER = analyzer()


def stems(text: str) -> tuple[str, ...]:
    """Return the stemmed topic words of *text*, as the index sees them."""
    return tuple(t.text for t in _ANALYZER(text))


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


def read_synonyms(path: Path = SYNONYMS_FILE) -> dict[str, dict[str, list[str]]]:
    """Return the synonyms table ``{game or "all": {player words: [rules words]}}`` from *path*."""
    try:
        raw = read_yaml(path).data or {}
    except YamlError as exc:
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
    """Return the query expansions: the glossary graph's aliases and "See ..." links, then the synonyms.

    From the glossary graph (``engine/views/graph.py``): every alias of a term node leads to the terms its
    glossary entry defines, and every name of a glossary entry with a ``see`` edge leads to the terms
    of the entry it sends the reader to (or that entry's title).
    """
    out: list[Expansion] = []
    seen: set[tuple[str, tuple[str, ...], tuple[str, ...]]] = set()

    def add(game: str, key: str, value: str, origin: str) -> None:
        k, v = stems(key), stems(value)
        if k and v and k != v and (game, k, v) not in seen:
            seen.add((game, k, v))
            out.append(Expansion(game, k, v, origin))

    graph = build_graph(corpus, rules={})
    names_of: dict[str, tuple[str, ...]] = {}  # glossary paragraph id -> every name of its term
    for _node, data in graph.nodes(data=True):
        if data.get("kind") == "term":
            entry = corpus.get(data["glossary"])
            names_of[entry.id] = tuple(data["names"])
            for alias in data["names"]:
                if alias not in entry.defines:
                    for term in entry.defines:
                        add(data["game"], alias, term, entry.id)
    for source, target, data in graph.edges(data=True):
        if data.get("type") != "see":
            continue
        src, dst = graph.nodes[source], graph.nodes[target]
        goal = corpus.get(dst["pid"])
        for name in names_of.get(src["pid"], ()):
            for term in goal.defines or (goal.title,):
                add(src["game"], name, term, src["pid"])
    for game, table in synonyms.items():
        for key, values in table.items():
            for value in values:
                add(game, key, value, "synonyms")
    return out


def alias_words(corpus: Corpus) -> list[str]:
    """Return every lower-case word of the glossary's terms and aliases (known words: never corrected)."""
    words: set[str] = set()
    for p in corpus:
        for name in (*p.defines, *p.aliases):
            words.update(re.findall(r"\w+", name.lower()))
    return sorted(words)


# --------------------------------------------------------------------------- locators

_SMALL_WORDS = frozenset(("a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into", "nor", "of",
                          "on", "or", "the", "to", "vs", "with"))


def book_heading(heading: str) -> str:
    """Return a printed heading in one consistent title case ("the GOlden Rules" -> "The Golden Rules").

    Small words stay lower case except first or after a colon; acronyms (FAQ, ID) stay as printed.
    """
    out: list[str] = []
    first = True
    for token in re.split(r"(\s+)", heading):
        if not token or token.isspace():
            out.append(token)
            continue
        word = token
        letters = re.sub(r"[^A-Za-z]", "", word)
        if letters.isupper() and 1 < len(letters) <= 4 and letters not in ("A", "OF", "THE", "AND"):
            out.append(word)  # an acronym
        elif not first and word.lower() in _SMALL_WORDS:
            out.append(word.lower())
        else:
            out.append(word[:1].upper() + word[1:].lower())
        first = word.endswith(":")
    return "".join(out)


def book_locator(corpus: Corpus, pid: str) -> str:
    """Return ``Corpus.locator`` of *pid* with its section heading in :func:`book_heading` case."""
    loc = corpus.locator(pid)
    section = corpus.get(pid).source.section
    return loc.replace(section, book_heading(section)) if section and section in loc else loc


# --------------------------------------------------------------------------- documents

def _table_text(p: Paragraph) -> str:
    if p.table is None:
        return ""
    rows = [" ".join(p.table.columns)] + [" ".join(str(c) for c in row) for row in p.table.rows]
    return "\n".join(rows)


def documents(corpus: Corpus, without: Iterable[str] = ()) -> Iterator[dict[str, Any]]:
    """Yield one whoosh document per paragraph (see the module docstring for the fields)."""
    skip = set(without)
    names: dict[str, list[str]] = {p.id: [*p.defines, *p.aliases] for p in corpus}
    for p in corpus:
        if p.see and p.see in names:
            names[p.see] += [*p.defines, *p.aliases]
    for entry in corpus.index:
        for target in entry.see:
            if target in names:
                names[target].append(entry.entry.replace(":", " "))
    amend: dict[str, list[str]] = {}
    for p in corpus:
        for target in (*p.amends, *p.clarifies):
            amend.setdefault(target, []).extend([p.title, p.text])
    for p in corpus:
        text = corpus.text_of(p.id)
        fields = {
            "title": p.title,
            "names": "\n".join(dict.fromkeys(names[p.id])),
            "asked": "\n".join(p.asked),
            "short": p.short or "",
            "section": p.source.section or "",
            "text": "\n".join(x for x in (text, _table_text(p), *amend.get(p.id, [])) if x),
        }
        doc: dict[str, Any] = {name: value for name, value in fields.items()
                               if name in FIELD_BOOSTS and name not in skip and value}
        doc.update({
            "id": p.id, "game": p.game, "kind": p.kind, "doc": p.source.doc,
            "words": "\n".join(v for k, v in fields.items() if k not in skip),
            "stored_title": p.title, "stored_text": text, "stored_short": p.short or "",
            "source": json.dumps(p.source.to_json()), "locator": book_locator(corpus, p.id),
            "numeric": bool(corpus.facts_of(p.id)) or p.table is not None,
            "lines": json.dumps([list(stems(line)) for line in (p.title, p.short or "", *p.asked)
                                 if "asked" not in skip or line not in p.asked]),
            # what the dense signal embeds (engine/search/dense.py): what the paragraph is about, in one line each
            "dense_text": "\n".join([p.title, p.short or "", *(p.asked if "asked" not in skip else ())]),
        })
        yield doc


# --------------------------------------------------------------------------- building

@contextlib.contextmanager
def _build_lock(index_dir: Path) -> Iterator[None]:
    # a folder, file, device or link that is not runecodex's is refused, never renamed or removed
    ownership.check_link(index_dir, f".{index_dir.name}-gen-", "the search index")
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    # a lock the kernel drops with its holder (never inherited by a forked child); waiting says so
    with locks.exclusive(locks.lock_path(index_dir), f"another build of the search index {index_dir}"):
        yield


def _generations(index_dir: Path) -> list[Path]:
    """Return the generation folders of *index_dir* (real folders of ours, never links), oldest first."""
    found = []
    for g in index_dir.parent.glob(f".{index_dir.name}-gen-*"):
        with contextlib.suppress(OSError):
            st = os.lstat(g)
            if stat.S_ISDIR(st.st_mode) and ownership.is_owned_dir(g):
                found.append((st.st_mtime_ns, g))
    return [g for _, g in sorted(found)]


def _complete(generation: Path) -> bool:
    """Return whether *generation* was finished: its ``meta.json`` (written last) is there and reads."""
    try:
        if not stat.S_ISREG(os.lstat(generation / META_FILE).st_mode):
            return False
        meta = json.loads((generation / META_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(meta, dict) and meta.get("schema") is not None


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
    """Delete old generations: never the one *index_dir* points at (the served one), first those a
    killed build left unfinished, then complete ones beyond the *keep* - 1 newest (readers may hold them).
    """
    try:
        current = os.readlink(index_dir)
    except OSError:
        current = None
    old = [g for g in _generations(index_dir) if g.name != current]
    complete = [g for g in old if _complete(g)]
    broken = [g for g in old if g not in complete]
    for g in broken + complete[: max(0, len(complete) - (keep - 1))]:
        ownership.remove_owned(g)


def write_index(corpus: Corpus, index_dir: Path, without: Iterable[str] = ()) -> Path:
    """Write the index of *corpus* into a new generation beside *index_dir*, swap it in; return *index_dir*.

    The corpus's version (:class:`~engine.corpus.CorpusVersion`) and :func:`index_inputs` are recorded
    in ``meta.json`` to tell when the index is stale; *without* names ranked fields left out (for the
    benchmark's "without asked" baseline).
    """
    digest = corpus.version.digest
    index_dir = Path(index_dir)
    skip = sorted(set(without))
    unknown = [f for f in skip if f not in FIELD_BOOSTS]
    if unknown:
        raise UnreadableInputError(f"unknown search field {unknown[0]!r} (one of {', '.join(FIELD_BOOSTS)})",
                                   path="without")
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    generation = index_dir.parent / f".{index_dir.name}-gen-{digest[:12] or 'unversioned'}-{time.time_ns()}"
    generation.mkdir()
    ownership.write_marker(generation, "search-index", tree=True)
    try:
        ix = whoosh_index.create_in(str(generation), schema(skip))
        writer = ix.writer(limitmb=128)
        count = 0
        for doc in documents(corpus, skip):
            writer.add_document(**doc)
            count += 1
        writer.commit(optimize=True)
        ix.close()
        meta = {
            "schema": SCHEMA_VERSION,
            "corpus_version": digest,
            "corpus_files": list(corpus.version.files),
            "inputs": index_inputs(),
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "paragraphs": count,
            "games": dict(corpus.games),
            "without": skip,
            "expansions": [e.to_json() for e in expansions(corpus, read_synonyms())],
            "known_words": alias_words(corpus),
        }
        ownership.write_aside(generation / META_FILE, json.dumps(meta, ensure_ascii=False).encode("utf-8"))
    except BaseException:
        ownership.remove_owned(generation)
        raise
    _swap_in(index_dir, generation)
    _prune(index_dir)
    return index_dir


def _build(index_dir: Path, root: Path, corpus: Corpus | None, without: Iterable[str] = ()) -> Path:
    # the loader stamps the corpus with the version of exactly the files it read
    return write_index(corpus if corpus is not None else load_corpus(root), index_dir, without)


def build_index(out_dir: Path | None = None, *, corpus: Corpus | None = None,
                rules: Path | None = None, without: Iterable[str] = ()) -> Path:
    """Build the search index into *out_dir* (default ``build/index``) and return that path.

    The corpus is read fresh from *rules* (default ``rules/``) with the validating loader, so the
    version stamped on the index is that of exactly the files it was built from. A caller that
    already holds the corpus of those files (``runecodex build``, tests, the benchmark) may pass it
    as *corpus*. Raises :class:`~engine.errors.CorpusError` when the corpus does not validate.
    """
    index_dir = Path(out_dir) if out_dir is not None else default_index_dir()
    root = Path(rules) if rules is not None else (corpus.root if corpus is not None else default_root())
    with _build_lock(index_dir):
        return _build(index_dir, root, corpus, without)


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
