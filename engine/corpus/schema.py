"""The schema of the corpus files, as pydantic models, and their errors as :class:`Problem` s with lines.

One schema language for every corpus file: a paragraph entry of ``rules/<doc>/*.yaml``
(:class:`ParagraphEntry`), an index line, ``documents.yaml`` (:class:`DocumentsFile`); the quick
reference (``engine.views.quickref``) and the facts declarations (``engine.corpus.facts``) declare theirs the same
way. The models check shapes and types (strict: ``"12"`` is not a page, ``yes`` is not a text); what
needs the rest of the corpus (an id's prefix, links, facts against ``facts.yaml``) is checked by
:mod:`engine.corpus` on the typed entries.

:func:`problems_of` turns a pydantic ``ValidationError`` into problems at the line of the key or list
item each error sits at (:meth:`engine.corpus.yamlio.YamlDoc.line_of`), worded from :data:`MUST` or from the
model's own message (:func:`refuse`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, ValidationError, model_validator

from engine.corpus.yamlio import YamlDoc
from engine.errors import Problem
from engine.model import Model, refuse, value_at

KINDS = ("rule", "glossary", "errata", "faq", "example", "table", "scenario")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")


# ------------------------------------------------------------------------------------------ field types

def _listed(value: Any) -> Any:
    """Read one string as a list of one, and null as an empty list."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else value


def _stripped(value: str) -> str:
    return value.strip()


def _non_empty(value: str) -> str:
    if not value.strip():
        raise refuse("must be a non-empty string")
    return value


def _text(value: str) -> str:
    if not value.strip():
        raise refuse("is empty")
    return value.strip()


def _pid(value: str) -> str:
    if not ID_RE.match(value):
        raise refuse(f"must be lower-case dot-separated, got {value!r}")
    return value


def _scalar_text(value: Any) -> Any:
    """A printed paragraph number may be written as a number (``paragraph: 7``): read it as text."""
    return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


StrList = Annotated[list[Annotated[str, AfterValidator(_stripped)]], BeforeValidator(_listed)]
NonEmpty = Annotated[str, AfterValidator(_non_empty)]
Text = Annotated[str, AfterValidator(_text)]
Pid = Annotated[str, AfterValidator(_pid)]


class TableEntry(Model):
    """A printed table as data: column headings and rows of as many cells."""

    columns: list[Any]
    rows: list[list[Any]]

    @model_validator(mode="after")
    def _same_width(self) -> TableEntry:
        if any(len(row) != len(self.columns) for row in self.rows):
            raise refuse("needs columns and rows of the same width")
        return self


class SourceEntry(Model):
    """Where a paragraph is printed: page, section heading, printed paragraph number (and its doc)."""

    page: Annotated[int, Field(ge=1)] | None = None
    section: str | None = None
    paragraph: Annotated[str, BeforeValidator(_scalar_text)] | None = None
    doc: str | None = None


class ParagraphEntry(Model):
    """One paragraph as written in ``rules/<doc>/*.yaml`` (see ``rules/README.md``)."""

    id: Pid
    kind: Literal["rule", "glossary", "errata", "faq", "example", "table", "scenario"]
    title: Annotated[NonEmpty, AfterValidator(_stripped)]
    text: Text
    source: SourceEntry
    game: str | None = None
    terms: StrList = Field(default_factory=list)
    related: StrList = Field(default_factory=list)
    defines: StrList = Field(default_factory=list)
    aliases: StrList = Field(default_factory=list)
    amends: StrList = Field(default_factory=list)
    clarifies: StrList = Field(default_factory=list)
    printed_names: StrList = Field(default_factory=list)
    unaffected: StrList = Field(default_factory=list)
    summarizes: StrList = Field(default_factory=list)
    asked: StrList = Field(default_factory=list)
    see: str | None = None
    corrected: dict[str, NonEmpty] | None = None
    facts: dict[Any, Any] | None = None
    table: TableEntry | None = None
    corrected_facts: dict[str, dict[Any, Any]] | None = None
    corrected_table: dict[str, TableEntry] | None = None
    contested: NonEmpty | None = None
    short: NonEmpty | None = None
    note: NonEmpty | None = None


class IndexLine(Model):
    """One line of a book's own index: a term and the paragraphs it sends the reader to."""

    entry: str
    see: StrList = Field(default_factory=list)


class RulesFile(Model):
    """A chapter file: its paragraphs (each validated on its own) and index lines."""

    paragraphs: list[Any] | None = None
    index: list[Any] | None = None


class DocumentEntry(Model):
    """One source document of ``documents.yaml``."""

    key: str
    game: str
    prefix: str
    title: str
    short: str
    seed: str
    locator: str
    headings: Literal["markdown", "upper", "contents"] = "markdown"
    non_rule_sections: dict[str, str] | None = None


class DocumentsFile(Model):
    """``documents.yaml``: the source documents and the games' names."""

    documents: list[DocumentEntry]
    games: dict[str, str]


# ------------------------------------------------------------------------------------------ errors

MUST: dict[str, str] = {
    "id": "lower-case dot-separated",
    "kind": f"one of {', '.join(KINDS)}",
    "title": "a non-empty string",
    "text": "a non-empty text",
    "source": "a mapping with page/section/paragraph",
    "source.page": "a positive integer",
    "source.section": "a string",
    "source.paragraph": "a printed paragraph number or name",
    "see": "one id",
    "corrected": "a mapping of ids to non-empty texts",
    "facts": "a mapping",
    "corrected_facts": "a mapping of ids to facts mappings",
    "corrected_table": "a mapping of ids to tables",
    "table": "a mapping with columns and rows",
    "table.columns": "a list of column headings",
    "table.rows": "a list of rows (lists of cells)",
    "paragraphs": "a list of paragraphs",
    "index": "a list of index lines",
    "entry": "a term (a string)",
    "headings": "one of markdown, upper, contents",
    "non_rule_sections": "a mapping of section headings to reasons",
    "documents": "a list of documents",
    "games": "a mapping of game keys to names",
}
LISTS = ("terms", "related", "defines", "aliases", "amends", "clarifies", "printed_names", "unaffected",
         "summarizes", "asked", "see")


def dotted(loc: tuple[int | str, ...]) -> str:
    """Return a location as ``source.page`` or ``asked[2]``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _must(loc: tuple[int | str, ...], must: Mapping[str, str]) -> str | None:
    """Return what the value at *loc* must be: the entry of its longest named prefix (``source.page``).

    List indices are dropped, so ``table.rows[2]`` finds ``table.rows`` and ``corrected.ra.x`` finds
    ``corrected``. The empty location is the whole file or entry (``""``).
    """
    names = [p for p in loc if isinstance(p, str)]
    for n in range(len(names), -1, -1):
        found = must.get(".".join(names[:n]))
        if found is not None and (n or not loc):
            return found
    return None


def _wording(error: Mapping[str, Any], loc: tuple[int | str, ...], value: Any, must: Mapping[str, str],
             at: tuple[int | str, ...] = ()) -> str:
    kind, path = error["type"], dotted((*at, *loc))
    if kind == "runecodex":
        ctx = error.get("ctx") or {}
        return f"{path} {ctx.get('message', '')}".strip()
    if kind == "extra_forbidden":
        parent = dotted((*at, *loc[:-1]))
        return f"{parent + ' has ' if parent else ''}unknown key {loc[-1]!r}"
    if kind == "missing":
        return f"{path} is missing"
    wanted = _must(loc, must)
    if wanted is not None:
        return f"{path} must be {wanted}, got {value!r}".lstrip()
    if loc and loc[0] in LISTS:
        return f"{path} must be {'a string' if isinstance(loc[-1], int) else 'a list of strings'}, got {value!r}"
    text = str(error.get("msg", "invalid value"))
    return f"{path}: {text[:1].lower() + text[1:]}, got {value!r}"


def problems_of(exc: ValidationError, doc: YamlDoc, base: Any, where: str,
                must: Mapping[str, str] = MUST, at: tuple[int | str, ...] = (), line: int = 0) -> list[Problem]:
    """Return *exc*'s errors (the validation of *base*, part of *doc*) as problems at their lines.

    Each message starts with *where* (``paragraph 'ra.x'``) and says which value is wrong and why; the
    path of a value in the message starts with *at* (where *base* sits in its file, e.g. ``facts.hand``).
    *line* is the line of *base* when it is a plain value (whose line the reader does not keep).
    """
    out: list[Problem] = []
    seen: set[tuple[int, str]] = set()
    for error in exc.errors(include_url=False, include_input=False):
        loc = tuple(p for p in error["loc"] if isinstance(p, int | str))
        found = doc.line_of(loc[:-1] if loc and error["type"] == "missing" else loc, base)
        found = line if line and not doc.line(base) else found
        message = _wording(error, loc, value_at(base, loc), must, at)
        message = message if len(message) <= 300 else message[:297] + "..."
        if (found, message) not in seen:
            seen.add((found, message))
            out.append(Problem(doc.file, found, f"{where}: {message}" if where else message))
    return out


__all__ = ["ID_RE", "KINDS", "MUST", "DocumentEntry", "DocumentsFile", "IndexLine", "ParagraphEntry", "Problem",
           "RulesFile", "SourceEntry", "TableEntry", "dotted", "problems_of"]
