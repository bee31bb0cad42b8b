"""Load and validate the rules corpus in ``rules/`` (the one source of truth).

Every consumer (site, search, graph, engine, quick reference, web app) reads the corpus through
:func:`load_corpus`. The file format is described in ``rules/README.md``. A loaded corpus carries its
:class:`CorpusVersion` (the corpus files and one digest of their content), the one key of every cache,
index, quick reference and site built from it.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, PlainSerializer, TypeAdapter, ValidationError

from engine import PROJECT_ROOT
from engine.corpus.schema import ID_RE as ID_RE
from engine.corpus.schema import KINDS as KINDS
from engine.corpus.schema import MUST, DocumentsFile, IndexLine, ParagraphEntry, RulesFile, TableEntry, problems_of
from engine.corpus.yamlio import YamlDoc, YamlError, read_yaml
from engine.errors import CorpusError, UnknownParagraphError
from engine.errors import Problem as Problem

M = TypeVar("M", bound=BaseModel)


def default_root() -> Path:
    """Return the ``rules/`` folder: ``$RUNECODEX_RULES`` or the one beside the package."""
    env = os.environ.get("RUNECODEX_RULES")
    if env:
        return Path(env)
    return PROJECT_ROOT / "rules"


def _enc(value: Any) -> Any:
    """Encode a YAML value (``facts``, table cells) so that JSON keeps its types: tagged lists and maps."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list):
        return {"l": [_enc(v) for v in value]}
    if isinstance(value, tuple):
        return {"t": [_enc(v) for v in value]}
    if isinstance(value, dict):
        return {"d": [[_enc(k), _enc(v)] for k, v in value.items()]}
    raise TypeError(f"cannot cache a {type(value).__name__}")


def _dec(value: Any) -> Any:
    """Invert :func:`_enc`; raise ``ValueError`` on anything else."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dict) and len(value) == 1:
        (tag, items), = value.items()
        if tag in ("l", "t", "d") and not isinstance(items, list):
            raise ValueError("not an encoded value")
        if tag == "l":
            return [_dec(v) for v in items]
        if tag == "t":
            return tuple(_dec(v) for v in items)
        if tag == "d" and all(isinstance(kv, list) and len(kv) == 2 for kv in items):
            return {_dec(k): _dec(v) for k, v in items}
    raise ValueError("not an encoded value")


YamlValue = Annotated[Any, PlainSerializer(_enc, when_used="json"), BeforeValidator(_dec)]
"""A value as YAML gives it (scalar, list, mapping with any plain keys); JSON carries it tagged (the cache)."""


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
    rows: tuple[tuple[YamlValue, ...], ...]

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
    facts: Mapping[str, YamlValue] = field(default_factory=dict)
    table: Table | None = None
    contested: str | None = None
    short: str | None = None
    asked: tuple[str, ...] = ()
    note: str | None = None
    printed_names: tuple[str, ...] = ()
    corrected_facts: Mapping[str, Mapping[str, YamlValue]] = field(default_factory=dict)
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


def _read_yaml(path: Path, rel: str, problems: list[Problem]) -> YamlDoc | None:
    try:
        return read_yaml(path, rel)
    except YamlError as exc:
        problems.append(Problem(exc.file, exc.line, exc.message))
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


# --------------------------------------------------------------------------- building paragraphs

ROOT_MUST = {"documents.yaml": "a mapping with 'documents' and 'games'", "rules": "a mapping with 'paragraphs'",
             "paragraph": "a mapping (one paragraph)", "index": "a mapping with 'entry' and 'see'"}


def _validate(model: type[M], doc: YamlDoc, raw: Any, where: str, root: str,
              problems: list[Problem], line: int = 0) -> M | None:
    """Return *raw* (part of *doc*, at *line*) read as *model*, or ``None`` with each error a problem at its line."""
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems.extend(problems_of(exc, doc, raw, where, {**MUST, "": ROOT_MUST[root]}, line=line))
        return None


def _read_documents(root: Path, problems: list[Problem]) -> tuple[dict[str, Document], dict[str, str]]:
    rel = "documents.yaml"
    doc = _read_yaml(root / rel, rel, problems)
    parsed = None if doc is None else _validate(DocumentsFile, doc, doc.data, rel, rel, problems)
    if parsed is None:
        return {}, {}
    docs = {d.key: Document(key=d.key, game=d.game, prefix=d.prefix, title=d.title, short=d.short, seed=d.seed,
                            locator=d.locator, headings=d.headings, non_rule_sections=d.non_rule_sections or {})
            for d in parsed.documents}
    return docs, dict(parsed.games)


def _read_rules_file(path: Path, rel: str, doc: Document, problems: list[Problem], paragraphs: list[Paragraph],
                     index: list[IndexEntry]) -> None:
    """Read one chapter file of *doc*: its paragraphs and index lines (each validated on its own)."""
    ydoc = _read_yaml(path, rel, problems)
    if ydoc is None:
        return
    parsed = _validate(RulesFile, ydoc, ydoc.data, "", "rules", problems)
    if parsed is None and isinstance(ydoc.data, dict):  # an unknown or malformed key: read what is readable
        readable = {k: v for k, v in ydoc.data.items() if k in RulesFile.model_fields and isinstance(v, list)}
        parsed = RulesFile.model_validate(readable)
    if parsed is None:
        return
    for n, item in enumerate(parsed.paragraphs or []):
        para = _build_paragraph(item, doc, ydoc, problems, ydoc.line_of(("paragraphs", n)))
        if para is not None:
            paragraphs.append(para)
    for n, item in enumerate(parsed.index or []):
        line = ydoc.line_of(("index", n))
        entry = _validate(IndexLine, ydoc, item, "index line", "index", problems, line)
        if entry is not None:
            index.append(IndexEntry(doc.key, entry.entry, tuple(entry.see), rel, line))


def _build_paragraph(raw: Any, doc: Document, ydoc: YamlDoc, problems: list[Problem],
                     line: int) -> Paragraph | None:
    """Return the paragraph *raw* (at *line* of *doc*'s file *ydoc*), adding each problem found.

    ``None`` when it is unusable (not well typed).
    """
    pid = raw.get("id") if isinstance(raw, dict) else None
    where = f"paragraph {pid!r}" if isinstance(pid, str) and pid else "paragraph"
    entry = _validate(ParagraphEntry, ydoc, raw, where, "paragraph", problems, line)
    if entry is None:
        return None
    line = ydoc.line(raw) or line
    problems.extend(Problem(ydoc.file, line, f"{where}: {message}") for message in _entry_problems(entry, doc))
    return _paragraph(entry, doc, ydoc.file, line)


def _entry_problems(entry: ParagraphEntry, doc: Document) -> list[str]:
    """Return what a well-typed entry still gets wrong in *doc*: its id, game, source and kind's needs."""
    out = []
    if not entry.id.startswith(doc.prefix + "."):
        out.append(f"id must start with {doc.prefix + '.'!r} in {doc.key}/")
    if entry.game is not None and entry.game != doc.game:
        out.append(f"game {entry.game!r} is not {doc.game!r} of {doc.key}")
    if entry.source.doc is not None and entry.source.doc != doc.key:
        out.append(f"source.doc {entry.source.doc!r} is not this folder's {doc.key!r}")
    if not entry.source.section and not entry.source.paragraph:
        out.append("source needs a section or a paragraph")
    needs = {"glossary": (entry.defines, "a glossary entry must list the terms it defines"),
             "errata": (entry.amends, "an erratum must list the paragraphs it amends"),
             "faq": (entry.clarifies, "a faq entry must list the paragraphs it clarifies"),
             "table": ([entry.table] if entry.table else [], "a table paragraph needs its table data")}
    if entry.kind in needs and not needs[entry.kind][0]:
        out.append(needs[entry.kind][1])
    return out


def _table(entry: TableEntry) -> Table:
    return Table(tuple(str(c) for c in entry.columns), tuple(tuple(r) for r in entry.rows))


def _one_line(text: str | None) -> str | None:
    return " ".join(text.split()) if text else None


def _paragraph(entry: ParagraphEntry, doc: Document, file: str, line: int) -> Paragraph:
    """Return the typed paragraph of a validated entry (terms lower-cased, one-line forms on one line)."""
    src = entry.source
    return Paragraph(
        id=entry.id, game=doc.game, kind=entry.kind, title=entry.title, text=entry.text,
        source=Source(doc=doc.key, page=src.page, section=src.section, paragraph=src.paragraph),
        terms=tuple(t.lower() for t in entry.terms), related=tuple(entry.related),
        defines=tuple(t.lower() for t in entry.defines), aliases=tuple(t.lower() for t in entry.aliases),
        see=entry.see, amends=tuple(entry.amends), corrected=dict(entry.corrected or {}),
        clarifies=tuple(entry.clarifies), facts=dict(entry.facts or {}),
        table=None if entry.table is None else _table(entry.table),
        contested=entry.contested.strip() if entry.contested else None, short=_one_line(entry.short),
        asked=tuple(" ".join(a.split()) for a in entry.asked), note=_one_line(entry.note),
        printed_names=tuple(entry.printed_names), corrected_facts=dict(entry.corrected_facts or {}),
        corrected_table={k: _table(t) for k, t in (entry.corrected_table or {}).items()},
        unaffected=tuple(entry.unaffected), summarizes=tuple(entry.summarizes), file=file, line=line,
    )


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
            _read_rules_file(path, str(path.relative_to(root)), doc, problems, paragraphs, index)
    _check_links(paragraphs, index, problems)
    _check_facts(root, paragraphs, problems)
    return Corpus(root, documents, games, _unique(paragraphs), index), problems


def _check_facts(root: Path, paragraphs: list[Paragraph], problems: list[Problem]) -> None:
    """Check every ``facts`` and ``corrected_facts`` against ``rules/facts.yaml`` (see :mod:`engine.corpus.facts`)."""
    from engine.corpus import facts as fact_schema

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


# a new loader, schema or YAML reader, new cache keys
_LOADER_DIGEST = hashlib.sha256(b"".join((Path(__file__).parent / name).read_bytes()
                                         for name in ("loader.py", "schema.py", "yamlio.py"))).hexdigest()


def cache_key(version: CorpusVersion) -> str:
    """Return the parsed-corpus cache's key of *version* (its digest and this loader's source)."""
    return hashlib.sha256(f"{version.digest}:{_LOADER_DIGEST}".encode()).hexdigest()[:24]


def cache_dir() -> Path:
    """Return where the parsed corpus is cached (``$RUNECODEX_CACHE`` or ``build/cache``)."""
    env = os.environ.get("RUNECODEX_CACHE")
    return Path(env) if env else PROJECT_ROOT / "build" / "cache"


# --------------------------------------------------------------------------- the parsed-corpus cache
#
# JSON, never pickle: a corrupt or planted cache file can at worst be ignored (the corpus is then read
# from rules/ again), it cannot run code. Every value is type-checked on the way in; the file is keyed
# by the corpus version (in its name and its content) and written aside, then renamed into place.

CACHE_FORMAT = 3


@dataclass(frozen=True)
class _CacheFile:
    """The cache file's content: a whole parsed corpus, keyed by *fingerprint* (:func:`cache_key`)."""

    format: int
    fingerprint: str
    version: CorpusVersion
    root: str
    games: Mapping[str, str]
    documents: tuple[Document, ...]
    paragraphs: tuple[Paragraph, ...]
    index: tuple[IndexEntry, ...]


@functools.cache
def _cache_adapter() -> TypeAdapter[_CacheFile]:
    """Return the validator of a cache file (built on first use: the dataclasses above are its schema)."""
    return TypeAdapter(_CacheFile)


def _cache_json(corpus: Corpus, fingerprint: str) -> bytes:
    data = _CacheFile(CACHE_FORMAT, fingerprint, corpus.version, str(corpus.root), corpus.games,
                      tuple(corpus.documents.values()), tuple(corpus), tuple(corpus.index))
    return _cache_adapter().dump_json(data)


def _corpus_from(text: str | bytes, fingerprint: str) -> Corpus | None:
    """Rebuild a corpus from its cached JSON, validated by the same types; ``None`` when it is not one."""
    try:
        data = _cache_adapter().validate_json(text, strict=True)
    except ValidationError:
        return None  # corrupt, planted or of another format
    if data.format != CACHE_FORMAT or data.fingerprint != fingerprint or cache_key(data.version) != fingerprint:
        return None
    return Corpus(Path(data.root), {d.key: d for d in data.documents}, data.games, data.paragraphs, data.index,
                  data.version)


def _same(a: Corpus, b: Corpus) -> bool:
    return (a.paragraphs == b.paragraphs and a.documents == b.documents and a.games == b.games
            and a.index == b.index and a.version == b.version)


def _read_cache(path: Path, fingerprint: str) -> Corpus | None:
    try:
        if path.is_symlink() or not path.is_file():
            return None
        return _corpus_from(path.read_bytes(), fingerprint)
    except (OSError, ValueError, RecursionError):
        return None  # unreadable, corrupt or planted: read rules/ instead


def _write_cache(corpus: Corpus, folder: Path, name: str, fingerprint: str, prefix: str) -> None:
    from engine.files import ownership

    try:
        text = _cache_json(corpus, fingerprint)
        again = _corpus_from(text, fingerprint)
        if again is None or not _same(again, corpus):
            return  # a value JSON cannot carry faithfully: go without a cache
        ownership.claim_dir(folder, "cache", "the corpus cache")
        marker = ownership.read_marker(folder) or {"files": [], "kind": "cache", "tree": False}
        stale = [f for f in marker["files"] if f.startswith(prefix) and f != name]
        for old in stale:  # earlier caches of this corpus folder, listed as ours
            (folder / old).unlink(missing_ok=True)
        files = [f for f in marker["files"] if f not in stale] + [name]
        ownership.write_marker(folder, str(marker.get("kind", "cache")), files, tree=bool(marker.get("tree")))
        with tempfile.NamedTemporaryFile("wb", dir=folder, delete=False, suffix=".tmp") as out:
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
