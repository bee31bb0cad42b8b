"""Load and validate the rules corpus in ``rules/`` (the one source of truth).

Every consumer (site, search, graph, engine, quick reference, web app) reads the corpus through
:func:`load_corpus`. The file format is described in ``rules/README.md``. A loaded corpus carries its
:class:`CorpusVersion` (the corpus files and one digest of their content), the one key of every cache,
index, quick reference and site built from it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.errors import CorpusError, UnknownParagraphError

KINDS = ("rule", "glossary", "errata", "faq", "example", "table", "scenario")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")
PARAGRAPH_KEYS = {
    "id", "kind", "title", "text", "source", "terms", "related", "defines", "aliases", "see",
    "amends", "corrected", "clarifies", "facts", "table", "contested", "game", "short", "asked", "note",
    "printed_names", "corrected_facts", "corrected_table", "unaffected", "summarizes",
}
SOURCE_KEYS = {"page", "section", "paragraph", "doc"}
FILE_KEYS = {"paragraphs", "index"}


def default_root() -> Path:
    """Return the ``rules/`` folder: ``$RUNECODEX_RULES`` or the one beside the package."""
    env = os.environ.get("RUNECODEX_RULES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "rules"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the corpus, located by file and line."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Source:
    """Where a paragraph comes from in the printed document (the contract's locator)."""

    doc: str
    page: int | None = None
    section: str | None = None
    paragraph: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the locator as the contract's ``source`` object."""
        return {"doc": self.doc, "page": self.page, "section": self.section, "paragraph": self.paragraph}


@dataclass(frozen=True)
class Table:
    """A printed table as data."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """Return the table as ``{"columns": [...], "rows": [[...], ...]}``."""
        return {"columns": list(self.columns), "rows": [list(r) for r in self.rows]}


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of the corpus, as written in ``rules/``."""

    id: str
    game: str
    kind: str
    title: str
    text: str
    source: Source
    terms: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    see: str | None = None
    amends: tuple[str, ...] = ()
    corrected: Mapping[str, str] = field(default_factory=dict)
    clarifies: tuple[str, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)
    table: Table | None = None
    contested: str | None = None
    short: str | None = None
    asked: tuple[str, ...] = ()
    note: str | None = None
    printed_names: tuple[str, ...] = ()
    corrected_facts: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    corrected_table: Mapping[str, Table] = field(default_factory=dict)
    unaffected: tuple[str, ...] = ()
    summarizes: tuple[str, ...] = ()
    file: str = ""
    line: int = 0


@dataclass(frozen=True)
class Document:
    """A source document (one folder of ``rules/``)."""

    key: str
    game: str
    prefix: str
    title: str
    short: str
    seed: str
    locator: str
    headings: str = "markdown"  # markdown | upper | contents: how the seed marks headings
    non_rule_sections: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class IndexEntry:
    """One line of a book's own index: a term and the paragraphs it sends the reader to."""

    doc: str
    entry: str
    see: tuple[str, ...]
    file: str
    line: int


class Corpus:
    """The loaded, validated corpus with its derived links (amended_by, faq, cited_by, terms)."""

    def __init__(self, root: Path, documents: Mapping[str, Document], games: Mapping[str, str],
                 paragraphs: Iterable[Paragraph], index: Iterable[IndexEntry],
                 version: CorpusVersion | None = None) -> None:
        self.root = root
        self.version: CorpusVersion = version if version is not None else NO_VERSION
        self.documents = dict(documents)
        self.games = dict(games)
        self.paragraphs: dict[str, Paragraph] = {p.id: p for p in paragraphs}
        self.index: list[IndexEntry] = list(index)
        self.amended_by: dict[str, list[str]] = {}
        self.faq: dict[str, list[str]] = {}
        self.cited_by: dict[str, list[str]] = {}
        self.term_definitions: dict[tuple[str, str], str] = {}
        self.term_users: dict[str, list[str]] = {}
        self._entries: dict[str, dict[str, Any]] = {}
        for p in self.paragraphs.values():
            for target in p.amends:
                self.amended_by.setdefault(target, []).append(p.id)
            for target in p.clarifies:
                self.faq.setdefault(target, []).append(p.id)
            for target in (*p.related, *([p.see] if p.see else [])):
                self.cited_by.setdefault(target, []).append(p.id)
            if p.kind == "glossary":
                for term in (*p.defines, *p.aliases):
                    self.term_definitions.setdefault((p.game, term), p.id)
        for p in self.paragraphs.values():
            for term in p.terms:
                gid = self.term_definitions.get((p.game, term))
                if gid and gid != p.id:
                    self.term_users.setdefault(gid, []).append(p.id)

    def __len__(self) -> int:
        return len(self.paragraphs)

    def __iter__(self) -> Iterator[Paragraph]:
        return iter(self.paragraphs.values())

    def __contains__(self, pid: object) -> bool:
        return pid in self.paragraphs

    def get(self, pid: str) -> Paragraph:
        """Return the paragraph with id *pid*, or raise :class:`UnknownParagraphError`."""
        try:
            return self.paragraphs[pid]
        except KeyError:
            raise UnknownParagraphError(f"unknown paragraph id {pid!r}", path="id") from None

    def select(self, game: str | None = None, kind: str | None = None) -> list[Paragraph]:
        """Return the paragraphs of *game* and *kind* (either may be ``None``) in reading order."""
        return [p for p in self if (game is None or p.game == game) and (kind is None or p.kind == kind)]

    def document(self, key: str) -> Document:
        """Return the document with doc key *key*."""
        return self.documents[key]

    def text_of(self, pid: str) -> str:
        """Return the text to show for *pid*: the corrected text when an erratum amends it."""
        for eid in self.amended_by.get(pid, ()):
            corrected = self.paragraphs[eid].corrected.get(pid)
            if corrected:
                return corrected
        return self.get(pid).text

    def is_amended(self, pid: str) -> bool:
        """Return whether an erratum amends *pid*."""
        return bool(self.amended_by.get(pid))

    def glossary_for(self, game: str, term: str) -> Paragraph | None:
        """Return the glossary paragraph that defines *term* in *game*, if any."""
        gid = self.term_definitions.get((game, term.lower()))
        return self.paragraphs[gid] if gid else None

    def fact(self, pid: str, name: str) -> Any:
        """Return the named fact of paragraph *pid* (numbers live in ``rules/``, not in code), as corrected."""
        facts = self.facts_of(pid)
        if name not in facts:
            raise KeyError(f"paragraph {pid!r} has no fact {name!r}")
        return facts[name]

    def facts_of(self, pid: str) -> Mapping[str, Any]:
        """Return the facts of *pid* with every erratum's ``corrected_facts`` for it laid over them."""
        p = self.get(pid)
        merged: dict[str, Any] | None = None
        for eid in self.amended_by.get(pid, ()):
            fix = self.paragraphs[eid].corrected_facts.get(pid)
            if fix:
                merged = {**(merged if merged is not None else p.facts), **fix}
        return p.facts if merged is None else merged

    def table_of(self, pid: str) -> Table | None:
        """Return the table of *pid*: an erratum's ``corrected_table`` for it when one exists."""
        for eid in self.amended_by.get(pid, ()):
            fix = self.paragraphs[eid].corrected_table.get(pid)
            if fix is not None:
                return fix
        return self.get(pid).table

    def locator(self, pid: str) -> str:
        """Return a human locator such as ``Rules Reference 10.9`` or ``Rulebook p. 12, Conduct a Siege``."""
        p = self.get(pid)
        doc = self.documents[p.source.doc]
        s = p.source
        if doc.locator == "paragraph" and s.paragraph and p.id.startswith(f"{doc.prefix}.{s.paragraph}"):
            return f"{doc.short} {s.paragraph}"  # a glossary number, e.g. "Rules Reference 10.9"
        parts = [doc.short + (f" p. {s.page}" if s.page is not None else "")]
        if s.section:
            parts.append(s.section)
        if s.paragraph:
            if doc.locator == "section" and s.section and s.section.lower().startswith("errata: rulebook"):
                parts.append(f"page {s.paragraph}" if s.paragraph.isdigit() else s.paragraph.replace("-", " "))
            elif doc.locator == "section":
                parts.append(f"Q{s.paragraph}" if "faq" in (s.section or "").lower() else f"item {s.paragraph}")
            else:
                parts.append(f"step {s.paragraph}" if s.paragraph.isdigit() else s.paragraph)
        return ", ".join(parts)

    def to_json(self, pid: str, implemented_by: Iterable[str] = ()) -> dict[str, Any]:
        """Return the contract's JSON shape of one paragraph (``runecodex rule ID --json``)."""
        p = self.get(pid)
        out: dict[str, Any] = {
            "id": p.id, "game": p.game, "kind": p.kind, "title": p.title,
            "text": self.text_of(p.id),
            "short": p.short, "asked": list(p.asked),
            "source": p.source.to_json(),
            "locator": self.locator(p.id),
            "terms": list(p.terms), "related": list(p.related),
            "amends": list(p.amends), "clarifies": list(p.clarifies),
            "amended_by": list(self.amended_by.get(p.id, [])),
            "faq": list(self.faq.get(p.id, [])),
            "cited_by": list(self.cited_by.get(p.id, [])),
            "implemented_by": list(implemented_by),
        }
        if self.is_amended(p.id):
            out["original_text"] = p.text
        if p.kind == "glossary":
            out["defines"] = list(p.defines)
            out["aliases"] = list(p.aliases)
            out["used_by"] = list(self.term_users.get(p.id, []))
            out["index"] = [list(e.see) for e in self.index
                            if e.entry.lower() in {t.lower() for t in (*p.defines, *p.aliases)}
                            and self.documents[e.doc].game == p.game]
            out["index"] = sorted({i for group in out["index"] for i in group})
        if p.see:
            out["see"] = p.see
        if p.corrected:
            out["corrected"] = dict(p.corrected)
        facts, table = self.facts_of(p.id), self.table_of(p.id)
        if facts:
            out["facts"] = dict(facts)
        if p.facts and facts != p.facts:
            out["original_facts"] = dict(p.facts)
        if table:
            out["table"] = table.to_json()
        if p.table and table != p.table:
            out["original_table"] = p.table.to_json()
        if p.corrected_facts:
            out["corrected_facts"] = {k: dict(v) for k, v in p.corrected_facts.items()}
        if p.corrected_table:
            out["corrected_table"] = {k: t.to_json() for k, t in p.corrected_table.items()}
        for key in ("unaffected", "summarizes", "printed_names"):
            if getattr(p, key):
                out[key] = list(getattr(p, key))
        if p.contested:
            out["contested"] = p.contested
        if p.note:
            out["note"] = p.note
        return out

    def source_entry(self, pid: str) -> dict[str, Any]:
        """Return the short citation of *pid* used in rulings (title, kind, source, locator), cached."""
        entry = self._entries.get(pid)
        if entry is None:
            p = self.get(pid)
            entry = {"title": p.title, "kind": p.kind, "short": p.short, "source": p.source.to_json(),
                     "locator": self.locator(pid)}
            self._entries[pid] = entry
        return dict(entry)

    def summary_json(self, pid: str) -> dict[str, Any]:
        """Return the short listing shape (``runecodex list --json``)."""
        p = self.get(pid)
        return {"id": p.id, "game": p.game, "kind": p.kind, "title": p.title,
                "text": self.text_of(p.id), "short": p.short, "asked": list(p.asked),
                "source": p.source.to_json()}


# --------------------------------------------------------------------------- reading YAML with lines

_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_BaseLoader):  # type: ignore[valid-type,misc]
    """A safe YAML loader (libyaml's when present) that records each mapping's line under ``__line__``.

    It refuses what a hand-written corpus never needs and a hostile one abuses: duplicate keys (the
    later one would silently win), anchors and aliases (``&a``/``*a``, the "billion laughs" bomb) and
    merge keys (``<<``); each is a problem at its file and line.
    """


    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """Construct *node*, refusing one met twice: a YAML alias (``*name``; no alias bombs)."""
        if node in self.constructed_objects or node in self.recursive_objects:
            raise yaml.constructor.ConstructorError(
                None, None, "yaml anchors and aliases (&name, *name) are not allowed in the corpus",
                node.start_mark)
        return super().construct_object(node, deep=deep)


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            raise yaml.constructor.ConstructorError(
                None, None, "yaml merge keys (<<) are not allowed in the corpus", key_node.start_mark)
    mapping: dict[Any, Any] = {}
    lines: dict[Any, int] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            first = lines.get(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark) from None
        if first is not None:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first at line {first})", key_node.start_mark)
        lines[key] = key_node.start_mark.line + 1
        mapping[key] = loader.construct_object(value_node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _read_yaml(path: Path, rel: str, problems: list[Problem]) -> Any:
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_LineLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        problems.append(Problem(rel, (mark.line + 1) if mark else 0, f"unreadable yaml: {exc.problem}"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        problems.append(Problem(rel, 0, f"unreadable file: {exc}"))
    except RecursionError:
        problems.append(Problem(rel, 0, "unreadable yaml: nested too deeply"))
    return None


logger = logging.getLogger("runecodex.corpus")
# editors' lock, swap and backup files: emacs .#x / #x#, vim .x.swp (.swo …), backups x~
_EDITOR_LEFTOVER = re.compile(r"^(\.#.*|#.*#|.*~|\..*\.sw[a-p])$")


def _corpus_files(folder: Path, root: Path, quiet: bool = False) -> list[Path]:
    """Return the ``*.yaml`` files of *folder*, skipping (with a warning) editors' leftovers and broken links."""
    try:
        with os.scandir(folder) as found:
            entries = sorted(found, key=lambda e: e.name)
    except OSError:  # not a folder (or gone)
        return []
    chosen = []
    for entry in entries:
        name, rel = entry.name, os.path.relpath(entry.path, root)
        if _EDITOR_LEFTOVER.match(name):
            if not quiet:
                logger.warning("runecodex: skipped %s (an editor's lock or backup file)", rel)
            continue
        if not name.endswith(".yaml"):
            continue
        if entry.is_symlink() and not os.path.exists(entry.path):
            if not quiet:
                logger.warning("runecodex: skipped %s (a symbolic link to nothing)", rel)
            continue
        if entry.is_file():
            chosen.append(Path(entry.path))
    return chosen


# --------------------------------------------------------------------------- the corpus version

@dataclass(frozen=True)
class CorpusVersion:
    """Which corpus files there are and one digest of their content: what every cache and build keys on.

    *files* are the corpus files relative to the rules folder, sorted (:func:`corpus_files`); *digest*
    is the SHA-256 of their names and bytes. Two folders holding the same files have the same version.
    """

    files: tuple[str, ...]
    digest: str

    @property
    def short(self) -> str:
        """Return the first 12 hex digits of the digest (for headers and messages)."""
        return self.digest[:12]

    def to_json(self) -> dict[str, Any]:
        """Return the version as JSON (``digest`` and ``files``)."""
        return {"digest": self.digest, "files": list(self.files)}

    @classmethod
    def from_json(cls, data: Any) -> CorpusVersion | None:
        """Return the version :meth:`to_json` wrote, or ``None`` when *data* is not one."""
        if not isinstance(data, dict):
            return None
        digest, files = data.get("digest"), data.get("files")
        if (not isinstance(digest, str) or not isinstance(files, list)
                or not all(isinstance(f, str) for f in files)):
            return None
        return cls(tuple(files), digest)


NO_VERSION = CorpusVersion((), "")
VERSION_FORMAT = b"runecodex-corpus-version-1"
Signature = tuple[tuple[str, int, int, int, int], ...]
_VERSIONS: dict[str, tuple[Signature, CorpusVersion]] = {}


def corpus_files(root: Path) -> list[Path]:
    """Return the corpus files of *root*: its ``*.yaml`` files and those of each sub-folder, sorted.

    That is ``documents.yaml``, ``facts.yaml``, ``quickref.yaml`` and every document's chapters (and the
    YAML of a folder that is not a document, which the loader reports); editors' leftovers and broken
    links are not corpus files.
    """
    root = Path(root)
    files = _corpus_files(root, root, quiet=True)
    try:
        with os.scandir(root) as found:
            subs = sorted(Path(e.path) for e in found if e.is_dir())
    except OSError:
        return files
    for sub in subs:
        files += _corpus_files(sub, root, quiet=True)
    return files


def _signature(root: Path, files: list[Path]) -> Signature:
    out = []
    for path in files:
        try:
            st = path.stat()
            out.append((str(path.relative_to(root)), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
        except OSError:
            out.append((str(path.relative_to(root)), -1, 0, 0, 0))
    return tuple(out)


def version_signature(root: Path) -> Signature:
    """Return a cheap signature of the corpus files (names, sizes, times, inodes): when it changes, rehash."""
    root = Path(root)
    return _signature(root, corpus_files(root))


def corpus_version(root: Path | None = None) -> CorpusVersion:
    """Return the :class:`CorpusVersion` of the files in *root* (default ``rules/``) as they are now.

    The files are hashed again only when their :func:`version_signature` changed since the last call.
    """
    root = Path(root) if root is not None else default_root()
    files = corpus_files(root)
    signature = _signature(root, files)
    key = os.path.abspath(root)
    known = _VERSIONS.get(key)
    if known is not None and known[0] == signature:
        return known[1]
    digest = hashlib.sha256(VERSION_FORMAT)
    for path in files:
        digest.update(b"\0" + str(path.relative_to(root).as_posix()).encode() + b"\0")
        try:
            data = path.read_bytes()
        except OSError:  # removed meanwhile: the signature changed too, so the next call hashes again
            data = b""
        digest.update(len(data).to_bytes(8, "big") + data)
    version = CorpusVersion(tuple(str(p.relative_to(root).as_posix()) for p in files), digest.hexdigest())
    _VERSIONS[key] = (signature, version)  # the signature taken before reading: a later edit rehashes
    return version


def _strip_lines(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_lines(v) for k, v in value.items() if k != "__line__"}
    if isinstance(value, list):
        return [_strip_lines(v) for v in value]
    return value


# --------------------------------------------------------------------------- building paragraphs

def _str_list(raw: dict[str, Any], key: str, where: str, line: int, problems: list[Problem],
              rel: str) -> tuple[str, ...]:
    value = raw.get(key, [])
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(Problem(rel, line, f"{where}.{key} must be a list of strings, got {value!r}"))
        return ()
    return tuple(v.strip() for v in value)


def _read_documents(root: Path, problems: list[Problem]) -> tuple[dict[str, Document], dict[str, str]]:
    rel = "documents.yaml"
    raw = _read_yaml(root / rel, rel, problems)
    docs: dict[str, Document] = {}
    if not isinstance(raw, dict):
        problems.append(Problem(rel, 0, "documents.yaml must be a mapping with 'documents' and 'games'"))
        return docs, {}
    games = {k: v for k, v in (raw.get("games") or {}).items() if k != "__line__"}
    for d in raw.get("documents") or []:
        try:
            non_rule = {k: v for k, v in (d.get("non_rule_sections") or {}).items() if k != "__line__"}
            docs[d["key"]] = Document(key=d["key"], game=d["game"], prefix=d["prefix"], title=d["title"],
                                      short=d["short"], seed=d["seed"], locator=d["locator"],
                                      headings=d.get("headings", "markdown"), non_rule_sections=non_rule)
        except (KeyError, TypeError, AttributeError) as exc:
            problems.append(Problem(rel, d.get("__line__", 0) if isinstance(d, dict) else 0,
                                    f"document entry lacks {exc}"))
    return docs, games


def _build_paragraph(raw: Any, doc: Document, rel: str, problems: list[Problem]) -> Paragraph | None:
    if not isinstance(raw, dict):
        problems.append(Problem(rel, 0, f"a paragraph must be a mapping, got {raw!r}"))
        return None
    line = int(raw.get("__line__", 0))
    pid = raw.get("id")
    where = f"paragraph {pid!r}" if pid else "paragraph"
    for key in raw:
        if key != "__line__" and key not in PARAGRAPH_KEYS:
            problems.append(Problem(rel, line, f"{where}: unknown key {key!r}"))
    if not isinstance(pid, str) or not ID_RE.match(pid):
        problems.append(Problem(rel, line, f"{where}: id must be lower-case dot-separated, got {pid!r}"))
        return None
    if not pid.startswith(doc.prefix + "."):
        problems.append(Problem(rel, line, f"{where}: id must start with {doc.prefix + '.'!r} in {doc.key}/"))
    if "game" in raw and raw["game"] != doc.game:
        problems.append(Problem(rel, line, f"{where}: game {raw['game']!r} is not {doc.game!r} of {doc.key}"))
    kind = raw.get("kind")
    if kind not in KINDS:
        problems.append(Problem(rel, line, f"{where}: kind must be one of {', '.join(KINDS)}, got {kind!r}"))
        kind = "rule"
    title = raw.get("title")
    if not isinstance(title, str) or not title.strip():
        problems.append(Problem(rel, line, f"{where}: title must be a non-empty string, got {title!r}"))
        title = pid
    text = raw.get("text")
    if not isinstance(text, str) or not text.strip():
        problems.append(Problem(rel, line, f"{where}: text is empty"))
        text = ""
    src = raw.get("source")
    source = Source(doc=doc.key)
    if not isinstance(src, dict):
        problems.append(Problem(rel, line, f"{where}: source must be a mapping with page/section/paragraph"))
    else:
        for key in src:
            if key != "__line__" and key not in SOURCE_KEYS:
                problems.append(Problem(rel, line, f"{where}: source has unknown key {key!r}"))
        sdoc = src.get("doc", doc.key)
        if sdoc != doc.key:
            problems.append(Problem(rel, line, f"{where}: source.doc {sdoc!r} is not this folder's {doc.key!r}"))
        page = src.get("page")
        if page is not None and (not isinstance(page, int) or isinstance(page, bool) or page < 1):
            problems.append(Problem(rel, line, f"{where}: source.page must be a positive integer, got {page!r}"))
            page = None
        section = src.get("section")
        if section is not None and not isinstance(section, str):
            problems.append(Problem(rel, line, f"{where}: source.section must be a string, got {section!r}"))
            section = None
        para = src.get("paragraph")
        if para is not None:
            para = str(para)
        if not section and not para:
            problems.append(Problem(rel, line, f"{where}: source needs a section or a paragraph"))
        source = Source(doc=doc.key, page=page, section=section, paragraph=para)
    lists = {k: _str_list(raw, k, where, line, problems, rel)
             for k in ("terms", "related", "defines", "aliases", "amends", "clarifies", "printed_names", "unaffected",
                       "summarizes")}
    lists["terms"] = tuple(t.lower() for t in lists["terms"])
    lists["defines"] = tuple(t.lower() for t in lists["defines"])
    lists["aliases"] = tuple(t.lower() for t in lists["aliases"])
    see = raw.get("see")
    if see is not None and not isinstance(see, str):
        problems.append(Problem(rel, line, f"{where}: see must be one id, got {see!r}"))
        see = None
    corrected = _strip_lines(raw.get("corrected") or {})
    if not isinstance(corrected, dict) or not all(isinstance(v, str) and v.strip() for v in corrected.values()):
        problems.append(Problem(rel, line, f"{where}: corrected must map ids to non-empty texts"))
        corrected = {}
    facts = _strip_lines(raw.get("facts") or {})
    if not isinstance(facts, dict):
        problems.append(Problem(rel, line, f"{where}: facts must be a mapping, got {facts!r}"))
        facts = {}
    table = None
    if raw.get("table") is not None:
        table = _read_table(_strip_lines(raw["table"]), f"{where}: table", rel, line, problems)
    corrected_facts = _strip_lines(raw.get("corrected_facts") or {})
    if not isinstance(corrected_facts, dict) or not all(isinstance(v, dict) for v in corrected_facts.values()):
        problems.append(Problem(rel, line, f"{where}: corrected_facts must map ids to facts mappings"))
        corrected_facts = {}
    corrected_table: dict[str, Table] = {}
    raw_tables = _strip_lines(raw.get("corrected_table") or {})
    if not isinstance(raw_tables, dict):
        problems.append(Problem(rel, line, f"{where}: corrected_table must map ids to tables"))
        raw_tables = {}
    for target, t in raw_tables.items():
        fixed = _read_table(t, f"{where}: corrected_table.{target}", rel, line, problems)
        if fixed is not None:
            corrected_table[str(target)] = fixed
    contested = raw.get("contested")
    if contested is not None and not (isinstance(contested, str) and contested.strip()):
        problems.append(Problem(rel, line, f"{where}: contested must be a non-empty note"))
        contested = None
    if kind == "glossary" and not lists["defines"]:
        problems.append(Problem(rel, line, f"{where}: a glossary entry must list the terms it defines"))
    if kind == "errata" and not lists["amends"]:
        problems.append(Problem(rel, line, f"{where}: an erratum must list the paragraphs it amends"))
    if kind == "faq" and not lists["clarifies"]:
        problems.append(Problem(rel, line, f"{where}: a faq entry must list the paragraphs it clarifies"))
    if kind == "table" and table is None and "table" not in raw:
        problems.append(Problem(rel, line, f"{where}: a table paragraph needs its table data"))
    short = raw.get("short")
    if short is not None and not (isinstance(short, str) and short.strip()):
        problems.append(Problem(rel, line, f"{where}: short must be a non-empty one-line string"))
        short = None
    note = raw.get("note")
    if note is not None and not (isinstance(note, str) and note.strip()):
        problems.append(Problem(rel, line, f"{where}: note must be a non-empty string"))
        note = None
    asked = _str_list(raw, "asked", where, line, problems, rel)
    return Paragraph(
        id=pid, game=doc.game, kind=kind, title=title.strip(), text=text.strip(), source=source,
        terms=lists["terms"], related=lists["related"], defines=lists["defines"], aliases=lists["aliases"],
        see=see, amends=lists["amends"], corrected=corrected, clarifies=lists["clarifies"], facts=facts,
        table=table, contested=contested.strip() if contested else None,
        short=" ".join(short.split()) if short else None, asked=tuple(" ".join(a.split()) for a in asked),
        note=" ".join(note.split()) if note else None, printed_names=lists["printed_names"],
        corrected_facts=corrected_facts, corrected_table=corrected_table, unaffected=lists["unaffected"],
        summarizes=lists["summarizes"], file=rel, line=line,
    )


def _read_table(t: Any, where: str, rel: str, line: int, problems: list[Problem]) -> Table | None:
    cols, rows = (t.get("columns"), t.get("rows")) if isinstance(t, dict) else (None, None)
    if not isinstance(cols, list) or not isinstance(rows, list) or not all(
            isinstance(r, list) and len(r) == len(cols) for r in rows):
        problems.append(Problem(rel, line, f"{where} needs columns and rows of the same width"))
        return None
    return Table(tuple(str(c) for c in cols), tuple(tuple(r) for r in rows))


def _rule_files(root: Path, doc: Document) -> list[Path]:
    return _corpus_files(root / doc.key, root)


def read_corpus(root: Path | None = None) -> tuple[Corpus, list[Problem]]:
    """Read ``rules/`` and return the corpus with every problem found (empty list when clean).

    The corpus carries the :class:`CorpusVersion` of exactly the files it was read from: when they
    change while being read, they are read again (three times at most, then that is a problem).
    """
    root = Path(root) if root is not None else default_root()
    for _attempt in range(3):
        before = corpus_version(root)
        corpus, problems = _read_files(root)
        if corpus_version(root) == before:
            corpus.version = before
            return corpus, problems
    problems.append(Problem(str(root), 0, "the rules files kept changing while they were read; try again"))
    return corpus, problems


def _read_files(root: Path) -> tuple[Corpus, list[Problem]]:
    problems: list[Problem] = []
    if not (root / "documents.yaml").is_file():
        env = " (named by RUNECODEX_RULES)" if os.environ.get("RUNECODEX_RULES") else ""
        problems.append(Problem(str(root), 0, f"no documents.yaml: not a rules folder{env}"))
        return Corpus(root, {}, {}, [], []), problems
    documents, games = _read_documents(root, problems)
    paragraphs: list[Paragraph] = []
    index: list[IndexEntry] = []
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        if sub.name not in documents and any(sub.glob("*.yaml")):
            problems.append(Problem(sub.name, 0, f"unknown document {sub.name!r} (not in documents.yaml)"))
    for doc in documents.values():
        for path in _rule_files(root, doc):
            rel = str(path.relative_to(root))
            raw = _read_yaml(path, rel, problems)
            if raw is None:
                continue
            if not isinstance(raw, dict):
                problems.append(Problem(rel, 1, "a rules file must be a mapping with 'paragraphs'"))
                continue
            for key in raw:
                if key != "__line__" and key not in FILE_KEYS:
                    problems.append(Problem(rel, 1, f"unknown file-level key {key!r}"))
            plist = raw.get("paragraphs") or []
            if not isinstance(plist, list):
                problems.append(Problem(rel, 1, "'paragraphs' must be a list"))
                plist = []
            for item in plist:
                para = _build_paragraph(item, doc, rel, problems)
                if para is not None:
                    paragraphs.append(para)
            for entry in raw.get("index") or []:
                line = entry.get("__line__", 0) if isinstance(entry, dict) else 0
                if not isinstance(entry, dict) or not isinstance(entry.get("entry"), str):
                    problems.append(Problem(rel, line, f"an index line needs 'entry' and 'see', got {entry!r}"))
                    continue
                see = _str_list(entry, "see", f"index {entry['entry']!r}", line, problems, rel)
                index.append(IndexEntry(doc.key, entry["entry"], see, rel, line))
    _check_links(paragraphs, index, problems)
    _check_facts(root, paragraphs, problems)
    return Corpus(root, documents, games, _unique(paragraphs), index), problems


def _check_facts(root: Path, paragraphs: list[Paragraph], problems: list[Problem]) -> None:
    """Check every ``facts`` and ``corrected_facts`` against ``rules/facts.yaml`` (see :mod:`engine.facts`)."""
    from engine import facts as fact_schema

    def report(line: int, message: str) -> None:
        problems.append(Problem(fact_schema.SCHEMA_FILE, line, message))

    schema = fact_schema.read_schema(root, report)
    for p in paragraphs:
        found = fact_schema.check_facts(p.facts, schema, f"{p.id}.facts")
        for target, fix in p.corrected_facts.items():
            found += fact_schema.check_facts(fix, schema, f"{p.id}.corrected_facts.{target}")
        problems.extend(Problem(p.file, p.line, message) for message in found)


def _unique(paragraphs: list[Paragraph]) -> list[Paragraph]:
    seen: set[str] = set()
    out = []
    for p in paragraphs:
        if p.id not in seen:
            seen.add(p.id)
            out.append(p)
    return out


def _check_links(paragraphs: list[Paragraph], index: list[IndexEntry], problems: list[Problem]) -> None:
    first: dict[str, Paragraph] = {}
    for p in paragraphs:
        if p.id in first:
            other = first[p.id]
            problems.append(Problem(p.file, p.line, f"duplicate id {p.id!r} (first at {other.file}:{other.line})"))
        else:
            first[p.id] = p
    terms: dict[tuple[str, str], Paragraph] = {}
    for p in paragraphs:
        if p.kind != "glossary":
            continue
        for term in (*p.defines, *p.aliases):
            prev = terms.get((p.game, term))
            if prev is not None and prev.id != p.id:
                problems.append(Problem(p.file, p.line,
                                        f"term {term!r} of {p.game} is defined twice: by {prev.id} and {p.id}"))
            else:
                terms[(p.game, term)] = p
    for p in paragraphs:
        for key in ("related", "amends", "clarifies"):
            for target in getattr(p, key):
                if target not in first:
                    problems.append(Problem(p.file, p.line, f"{p.id}.{key}: unknown id {target!r}"))
        if p.see and p.see not in first:
            problems.append(Problem(p.file, p.line, f"{p.id}.see: unknown id {p.see!r}"))
        for key in ("corrected", "corrected_facts", "corrected_table", "unaffected"):
            for target in getattr(p, key):
                if target not in p.amends:
                    problems.append(Problem(p.file, p.line, f"{p.id}.{key}: {target!r} is not in amends"))
        for target in p.summarizes:
            if target not in first:
                problems.append(Problem(p.file, p.line, f"{p.id}.summarizes: unknown id {target!r}"))
        for term in p.terms:
            if (p.game, term) not in terms:
                problems.append(Problem(p.file, p.line,
                                        f"{p.id}.terms: {term!r} is not defined by a glossary entry of {p.game}"))
    for e in index:
        for target in e.see:
            if target not in first:
                problems.append(Problem(e.file, e.line, f"index {e.entry!r}: unknown id {target!r}"))


def load_corpus(root: Path | None = None) -> Corpus:
    """Load the corpus, raising :class:`CorpusError` with every problem when it is not clean."""
    corpus, problems = read_corpus(root)
    if problems:
        raise CorpusError(problems)
    return corpus


_LOADER_DIGEST = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()  # a new loader, new cache keys


def cache_key(version: CorpusVersion) -> str:
    """Return the parsed-corpus cache's key of *version* (its digest and this loader's source)."""
    return hashlib.sha256(f"{version.digest}:{_LOADER_DIGEST}".encode()).hexdigest()[:24]


def cache_dir() -> Path:
    """Return where the parsed corpus is cached (``$RUNECODEX_CACHE`` or ``build/cache``)."""
    env = os.environ.get("RUNECODEX_CACHE")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "build" / "cache"


# --------------------------------------------------------------------------- the parsed-corpus cache
#
# JSON, never pickle: a corrupt or planted cache file can at worst be ignored (the corpus is then read
# from rules/ again), it cannot run code. Every value is type-checked on the way in; the file is keyed
# by the corpus version (in its name and its content) and written aside, then renamed into place.

CACHE_FORMAT = 2


class _BadCache(ValueError):
    """The cache file does not hold a corpus of the expected shape."""


def _want(value: Any, kind: type) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _BadCache(f"expected {kind}, got {type(value).__name__}")
    return value


def _opt(value: Any, kind: type) -> Any:
    return None if value is None else _want(value, kind)


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(_want(v, str) for v in _want(value, list))


def _str_map(value: Any) -> dict[str, str]:
    return {_want(k, str): _want(v, str) for k, v in _want(value, dict).items()}


def _enc(value: Any) -> Any:
    """Encode a YAML value (``facts``, table cells) so that JSON keeps its types: tagged lists and maps."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return {"l": [_enc(v) for v in value]}
    if isinstance(value, tuple):
        return {"t": [_enc(v) for v in value]}
    if isinstance(value, dict):
        return {"d": [[_enc(k), _enc(v)] for k, v in value.items()]}
    raise TypeError(f"cannot cache a {type(value).__name__}")


def _dec(value: Any) -> Any:
    """Invert :func:`_enc`; raise :class:`_BadCache` on anything else."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict) and len(value) == 1:
        (tag, items), = value.items()
        if tag == "l":
            return [_dec(v) for v in _want(items, list)]
        if tag == "t":
            return tuple(_dec(v) for v in _want(items, list))
        if tag == "d":
            return {_dec(k): _dec(v) for k, v in _want(items, list)}
    raise _BadCache("not an encoded value")


def _corpus_json(corpus: Corpus, fingerprint: str) -> dict[str, Any]:
    paragraphs = []
    for p in corpus:
        d = dataclasses.asdict(p)
        d["facts"] = _enc(dict(p.facts))
        d["table"] = None if p.table is None else {"columns": list(p.table.columns), "rows": _enc(p.table.rows)}
        d["corrected_facts"] = _enc({k: dict(v) for k, v in p.corrected_facts.items()})
        d["corrected_table"] = {k: {"columns": list(t.columns), "rows": _enc(t.rows)}
                                for k, t in p.corrected_table.items()}
        paragraphs.append(d)
    return {"format": CACHE_FORMAT, "fingerprint": fingerprint, "version": corpus.version.to_json(),
            "root": str(corpus.root),
            "games": corpus.games, "documents": [dataclasses.asdict(d) for d in corpus.documents.values()],
            "paragraphs": paragraphs, "index": [dataclasses.asdict(e) for e in corpus.index]}


def _paragraph_from(d: dict[str, Any]) -> Paragraph:
    src = _want(d["source"], dict)
    table = _opt(d["table"], dict)
    return Paragraph(
        id=_want(d["id"], str), game=_want(d["game"], str), kind=_want(d["kind"], str), title=_want(d["title"], str),
        text=_want(d["text"], str),
        source=Source(doc=_want(src["doc"], str), page=_opt(src["page"], int), section=_opt(src["section"], str),
                      paragraph=_opt(src["paragraph"], str)),
        terms=_strs(d["terms"]), related=_strs(d["related"]), defines=_strs(d["defines"]),
        aliases=_strs(d["aliases"]), see=_opt(d["see"], str), amends=_strs(d["amends"]),
        corrected=_str_map(d["corrected"]), clarifies=_strs(d["clarifies"]), facts=_want(_dec(d["facts"]), dict),
        table=None if table is None else Table(_strs(table["columns"]),
                                                tuple(_want(r, tuple) for r in _want(_dec(table["rows"]), tuple))),
        contested=_opt(d["contested"], str), short=_opt(d["short"], str), asked=_strs(d["asked"]),
        note=_opt(d["note"], str), printed_names=_strs(d.get("printed_names", [])),
        corrected_facts=_want(_dec(d.get("corrected_facts", {"d": []})), dict),
        corrected_table={_want(k, str): Table(_strs(t["columns"]), tuple(_want(r, tuple) for r in
                                                                       _want(_dec(t["rows"]), tuple)))
                         for k, t in _want(d.get("corrected_table", {}), dict).items()},
        unaffected=_strs(d.get("unaffected", [])), summarizes=_strs(d.get("summarizes", [])),
        file=_want(d["file"], str), line=_want(d["line"], int))


def _corpus_from(data: Any, fingerprint: str) -> Corpus:
    """Rebuild a corpus from its cached JSON; raise :class:`_BadCache` (or a lookup error) when malformed."""
    _want(data, dict)
    if data.get("format") != CACHE_FORMAT or data.get("fingerprint") != fingerprint:
        raise _BadCache("another format or corpus")
    documents = {}
    for d in _want(data["documents"], list):
        _want(d, dict)
        documents[_want(d["key"], str)] = Document(
            key=d["key"], game=_want(d["game"], str), prefix=_want(d["prefix"], str), title=_want(d["title"], str),
            short=_want(d["short"], str), seed=_want(d["seed"], str), locator=_want(d["locator"], str),
            headings=_want(d["headings"], str), non_rule_sections=_str_map(d["non_rule_sections"]))
    index = [IndexEntry(doc=_want(e["doc"], str), entry=_want(e["entry"], str), see=_strs(e["see"]),
                        file=_want(e["file"], str), line=_want(e["line"], int)) for e in _want(data["index"], list)]
    paragraphs = [_paragraph_from(_want(p, dict)) for p in _want(data["paragraphs"], list)]
    version = CorpusVersion.from_json(data.get("version"))
    if version is None or cache_key(version) != fingerprint:
        raise _BadCache("no version or another one")
    return Corpus(Path(_want(data["root"], str)), documents, _str_map(data["games"]), paragraphs, index, version)


def _same(a: Corpus, b: Corpus) -> bool:
    return (a.paragraphs == b.paragraphs and a.documents == b.documents and a.games == b.games
            and a.index == b.index and a.version == b.version)


def _read_cache(path: Path, fingerprint: str) -> Corpus | None:
    try:
        if path.is_symlink() or not path.is_file():
            return None
        return _corpus_from(json.loads(path.read_text(encoding="utf-8")), fingerprint)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None  # unreadable, corrupt or planted: read rules/ instead


def _write_cache(corpus: Corpus, folder: Path, name: str, fingerprint: str, prefix: str) -> None:
    from engine import ownership

    try:
        text = json.dumps(_corpus_json(corpus, fingerprint), ensure_ascii=False, separators=(",", ":"))
        if not _same(_corpus_from(json.loads(text), fingerprint), corpus):
            return  # a value JSON cannot carry faithfully: go without a cache
        ownership.claim_dir(folder, "cache", "the corpus cache")
        marker = ownership.read_marker(folder) or {"files": [], "kind": "cache", "tree": False}
        stale = [f for f in marker["files"] if f.startswith(prefix) and f != name]
        for old in stale:  # earlier caches of this corpus folder, listed as ours
            (folder / old).unlink(missing_ok=True)
        files = [f for f in marker["files"] if f not in stale] + [name]
        ownership.write_marker(folder, str(marker.get("kind", "cache")), files, tree=bool(marker.get("tree")))
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp") as out:
            out.write(text)
        os.replace(out.name, folder / name)
    except (OSError, ValueError, TypeError, RecursionError):
        pass  # a read-only checkout, or a cache folder that is not ours: still works, only slower


@functools.lru_cache(maxsize=4)
def _cached(root: str) -> Corpus:
    """Load a validated corpus, from the JSON cache of the same files when one exists."""
    path = Path(root)
    root_key = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:8]
    prefix = f"corpus-{root_key}-"
    folder = cache_dir()
    key = cache_key(corpus_version(path))
    loaded = _read_cache(folder / f"{prefix}{key}.json", key)
    if loaded is not None:
        return loaded
    corpus = load_corpus(path)
    key = cache_key(corpus.version)  # the version read (the files may have changed since the look above)
    _write_cache(corpus, folder, f"{prefix}{key}.json", key, prefix)
    return corpus


def get_corpus(root: Path | None = None) -> Corpus:
    """Return the corpus of *root* (default ``rules/``), loaded once per process."""
    return _cached(str(Path(root) if root is not None else default_root()))
