"""Check every paragraph's locator against the real source documents (``runecodex check --sources``).

For each paragraph: its section heading must exist in the named document, its printed paragraph
number (where it has one) must occur under that heading, the numbers its text states must occur in
that part of the source, and its page must agree with the book's own index or page markers. Each
document also reports coverage: the share of its rule-bearing headings that some paragraph cites.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine import PROJECT_ROOT
from engine.corpus import Corpus, Document, Paragraph, Problem

NUMBER_WORDS = {
    0: ("zero", "no"), 1: ("one", "once", "a", "an", "first", "single", "1st"), 2: ("two", "twice", "second",
    "both", "pair", "2nd", "double"), 3: ("three", "third", "3rd", "thrice"), 4: ("four", "fourth", "4th"),
    5: ("five", "fifth", "5th"), 6: ("six", "sixth", "6th"), 7: ("seven", "seventh"), 8: ("eight", "eighth"),
    9: ("nine", "ninth"), 10: ("ten", "tenth"), 11: ("eleven", "eleventh"), 12: ("twelve", "twelfth"),
    13: ("thirteen",), 14: ("fourteen",), 15: ("fifteen",), 16: ("sixteen",), 17: ("seventeen",),
    18: ("eighteen",), 19: ("nineteen",), 20: ("twenty",), 30: ("thirty",), 40: ("forty",), 50: ("fifty",),
    100: ("hundred",),
}
# A number our text states: digits not part of a paragraph reference (10.9), page reference or id.
_OUR_NUMBER = re.compile(r"(?<![\w.\-/])(\d+)(?![\w]|\.\d|-\w)")
_PAGE_REF = re.compile(r"\b(?:pages?|p\.)\s*\d+(?:\s*[–-]\s*\d+)?", re.IGNORECASE)
_PARA_REF = re.compile(r"\b\d+\.\d+(?:\.\d+)?\b")


def default_sources() -> Path | None:
    """Return ``$RUNECODEX_SOURCES``, or ``../shared/seeds`` beside the repository when present."""
    env = os.environ.get("RUNECODEX_SOURCES")
    if env:
        return Path(env)
    here = PROJECT_ROOT
    for candidate in (here.parent / "shared" / "seeds", Path.cwd().parent / "shared" / "seeds"):
        if candidate.is_dir():
            return candidate
    return None


def normalize(text: str) -> str:
    """Return *text* lower-cased with markup, icons and punctuation removed (for heading matching)."""
    text = text.replace("&", " and ").replace("’", "'").lower()
    text = re.sub(r"[^a-z0-9' ]+", " ", text).replace("'", "")
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class Heading:
    """A heading line of a source document."""

    line: int          # 0-based line number
    level: int         # 1 = top level; larger is deeper
    text: str          # as printed, without markup
    norm: str          # normalized, without a leading entry number
    number: str = ""   # the printed entry number ("10"), OCR "I" read as 1


@dataclass
class SourceDoc:
    """A source document's lines, headings and page map."""

    key: str
    lines: list[str]
    headings: list[Heading] = field(default_factory=list)
    excluded: set[int] = field(default_factory=set)   # lines of the index / contents themselves
    garbled: bool = False   # columns interleaved: a section's text may start before its heading
    located: list[tuple[int, int, int]] | None = None  # cache of SourceChecker._located

    def span(self, heading: Heading, minimum: int = 0) -> tuple[int, int]:
        """Return the lines from *heading* to the next heading of the same or a higher level."""
        end = len(self.lines)
        for h in self.headings:
            if h.line > heading.line and h.level <= heading.level:
                end = h.line
                break
        chars, stop = 0, heading.line
        while stop < len(self.lines) and (stop < end or chars < minimum):
            chars += len(self.lines[stop]) + 1
            stop += 1
        return heading.line, max(end, stop)

    def window(self, heading: Heading, minimum: int = 0) -> str:
        """Return the text of *heading*'s span (in a garbled document, the page around it)."""
        start, end = self.span(heading, minimum)
        if self.garbled:
            start, end = max(0, start - 30), max(end, start + 40)
        return "\n".join(self.lines[start:end])


_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_ENTRY_NUMBER = re.compile(r"^(?:[0-9Il]{1,2}\s+)(?=[A-Za-z])")


def _clean_heading(raw: str) -> str:
    text = re.sub(r"[*_`]+", "", raw).strip()
    return re.sub(r"\s*\.{3,}.*$", "", text).strip()


def _is_upper_heading(line: str) -> bool:
    s = line.strip().lstrip("#").strip()
    letters = [c for c in s if c.isalpha()]
    if len(letters) < 3 or len(s) > 60 or len(s.split()) > 9:
        return False
    return all(not c.islower() for c in letters) and not s.startswith(("-", "•", "Q:", "A:"))


def parse_source(path: Path, key: str, style: str) -> SourceDoc:
    """Read a seed file and find its headings (markdown, upper-case lines, or a contents list)."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    doc = SourceDoc(key=key, lines=lines)
    contents: list[str] = []
    in_index = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        md = _MD_HEADING.match(stripped)
        if md and normalize(md.group(2)) in ("index", "contents"):
            in_index = True
        elif md:
            in_index = False
        if in_index and not md:
            doc.excluded.add(i)
        if style == "markdown" and md and "....." in md.group(2):
            doc.excluded.add(i)  # a contents line with dot leaders, not the heading itself
        elif style == "markdown" and md:
            text = _clean_heading(md.group(2))
            number = _ENTRY_NUMBER.match(text)
            norm = normalize(_ENTRY_NUMBER.sub("", text))
            if norm:
                doc.headings.append(Heading(i, len(md.group(1)), text, norm,
                                            number.group(0).strip().replace("I", "1").replace("l", "1")
                                            if number else ""))
        elif style == "upper" and _is_upper_heading(stripped):
            in_index = normalize(stripped) in ("index", "frequently indexed terms")
            doc.headings.append(Heading(i, 2, stripped, normalize(stripped)))
        elif style == "upper" and in_index and stripped:
            doc.excluded.add(i)
        elif style == "contents":
            if normalize(stripped) == "contents":
                in_index = True
                continue
            m = re.match(r"^(.*\D)\s+(\d+)$", stripped)
            if in_index and m:
                contents.append(normalize(m.group(1)))
                doc.excluded.add(i)
            elif in_index and re.fullmatch(r"\d+", stripped):
                in_index = False
    if style == "contents":
        # The contents list names the sections; find each where it is printed.
        for norm in contents:
            found = [i for i, line in enumerate(lines) if i not in doc.excluded and normalize(line) == norm]
            if not found:  # printed shorter than listed, e.g. "Setup" for "Setup Steps"
                found = [i for i, line in enumerate(lines) if i not in doc.excluded and len(line) < 40
                         and len(normalize(line)) >= 4 and norm.startswith(normalize(line) + " ")]
            if found:
                doc.headings.append(Heading(found[0], 2, lines[found[0]].strip(), norm))
        doc.headings.sort(key=lambda h: h.line)
    doc.garbled = style == "contents"
    return doc


def _index_pages(doc: SourceDoc) -> list[tuple[str, int, int]]:
    """Return the book's own index as (normalized heading, first page, last page)."""
    out = []
    seen: set[str] = set()
    for i in sorted(doc.excluded):
        m = re.match(r"^[-\s]*(.+?)\s*[.:\t ]+\s*(\d+)(?:\s*[–-]\s*(\d+))?\s*$", doc.lines[i].strip())
        if m and not re.search(r"\d\.\d", m.group(1)) and normalize(m.group(1)) not in seen:
            seen.add(normalize(m.group(1)))  # the main index wins over a later short list
            out.append((normalize(m.group(1)), int(m.group(2)), int(m.group(3) or m.group(2))))
    return out


def _variants(norm: str) -> set[str]:
    """Return a normalized heading with and without a leading "the" (headings print either)."""
    return {norm, norm.removeprefix("the "), "the " + norm}


def _book_order(candidates: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Return the longest run of (page, line, …) whose lines grow with the pages (drops misplaced matches)."""
    import bisect

    tails: list[int] = []       # smallest ending line of a run of each length
    tail_idx: list[int] = []
    parent = [-1] * len(candidates)
    for i, (_, line, _) in enumerate(candidates):
        k = bisect.bisect_left(tails, line)
        if k == len(tails):
            tails.append(line)
            tail_idx.append(i)
        else:
            tails[k], tail_idx[k] = line, i
        parent[i] = tail_idx[k - 1] if k else -1
    run, i = [], tail_idx[-1] if tail_idx else -1
    while i >= 0:
        run.append(candidates[i])
        i = parent[i]
    return run[::-1]


def _number_in(n: int, window: str) -> bool:
    if re.search(rf"(?<!\d){n}(?!\d)", window):
        return True
    low = window.lower()
    return any(re.search(rf"\b{re.escape(w)}\b", low) for w in NUMBER_WORDS.get(n, ()))


def stated_numbers(text: str) -> list[int]:
    """Return the numbers a paragraph's text states (not paragraph or page references)."""
    text = _PAGE_REF.sub(" ", _PARA_REF.sub(" ", text))
    return sorted({int(m) for m in _OUR_NUMBER.findall(text)})


@dataclass
class Coverage:
    """How much of a document's rule-bearing headings the corpus cites."""

    doc: str
    cited: int
    total: int
    ignored: int
    missing: list[str]

    @property
    def share(self) -> float:
        """Return the cited share (1.0 when there is nothing to cite)."""
        return self.cited / self.total if self.total else 1.0


class SourceChecker:
    """Verify the corpus's locators against the seed files in one folder."""

    def __init__(self, corpus: Corpus, sources: Path) -> None:
        self.corpus = corpus
        self.sources = sources
        self.docs: dict[str, SourceDoc] = {}
        self.cited_headings: dict[str, set[int]] = {}

    def source_doc(self, doc: Document) -> SourceDoc | None:
        """Return the parsed seed of *doc*, or ``None`` when the file is missing."""
        if doc.key not in self.docs:
            path = self.sources / doc.seed
            if not path.is_file():
                return None
            self.docs[doc.key] = parse_source(path, doc.key, doc.headings)
        return self.docs[doc.key]

    def find_section(self, sdoc: SourceDoc, section: str, number: str = "", page: int | None = None
                     ) -> list[Heading]:
        """Return the headings a section locator names (several for ``"A: B"`` nested headings).

        With a printed entry *number* (``"43"`` for paragraph ``43.1``), the entry of that number wins
        over a same-named heading elsewhere (the front matter's "ID Tokens" against entry 43).
        """
        if number:
            numbered = [h for h in sdoc.headings if h.number == number and h.norm == normalize(section)]
            if numbered:
                return numbered[:1]
        exact = self._all_strict(sdoc, normalize(section))
        if len(exact) > 1 and page is not None:  # printed twice: the one on the cited page
            on_page = [h for h in exact if (r := self._expected_pages(sdoc, h)) and r[0] <= page <= r[1]]
            exact = on_page or exact
        if exact:
            return exact[:1]
        if ":" in section:  # nested headings, e.g. "FAQ: General": each part after the one before
            found: list[Heading] = []
            after = -1
            for part in (p for p in section.split(":") if p.strip()):
                h = self._match(sdoc, normalize(part), after=after)
                if h is None:
                    break
                found.append(h)
                after = h.line
            else:
                return found
        whole = self._match(sdoc, normalize(section), after=-1)
        return [whole] if whole is not None else []

    @staticmethod
    def _all_strict(sdoc: SourceDoc, norm: str) -> list[Heading]:
        variants = _variants(norm)
        return [h for h in sdoc.headings if h.line not in sdoc.excluded and h.norm in variants] if norm else []

    def _match(self, sdoc: SourceDoc, norm: str, after: int) -> Heading | None:
        if not norm:
            return None
        variants = _variants(norm)
        tests: tuple[Callable[[Heading], bool], ...] = (
            lambda h: h.norm in variants,
            lambda h: h.norm.startswith(norm) or (norm.startswith(h.norm + " ") and len(h.norm) > 3),
            lambda h: norm in h.norm,
        )
        for test in tests:
            for h in sdoc.headings:
                if h.line > after and h.line not in sdoc.excluded and test(h):
                    return h
        # Garbled documents: a short line that carries the heading's words.
        for i, line in enumerate(sdoc.lines):
            if i > after and i not in sdoc.excluded and len(line) < 120 and norm in normalize(line):
                return Heading(i, 3, line.strip(), normalize(line))
        return None

    def check(self, only: str | None = None) -> tuple[list[Problem], list[Coverage]]:
        """Check every paragraph (of doc *only*, when given); return problems and coverage per document."""
        problems: list[Problem] = []
        for p in self.corpus:
            if only and p.source.doc != only:
                continue
            doc = self.corpus.documents[p.source.doc]
            sdoc = self.source_doc(doc)
            if sdoc is None:
                problems.append(Problem(p.file, p.line, f"no source file {doc.seed} in {self.sources}"))
                continue
            problems.extend(self._check_paragraph(p, doc, sdoc))
        coverage = [self._coverage(doc) for doc in self.corpus.documents.values()
                    if (only is None or doc.key == only) and self.source_doc(doc) is not None]
        return problems, coverage

    def _check_paragraph(self, p: Paragraph, doc: Document, sdoc: SourceDoc) -> list[Problem]:
        out: list[Problem] = []
        where = f"{p.id}: source"
        headings: list[Heading] = []
        if p.source.section:
            entry = (p.source.paragraph or "").split(".")[0] if doc.locator == "paragraph" else ""
            headings = self.find_section(sdoc, p.source.section, entry if entry.isdigit() else "", p.source.page)
            if not headings:
                return [Problem(p.file, p.line, f"{where}.section {p.source.section!r} is not a heading of {doc.key}")]
            self.cited_headings.setdefault(doc.key, set()).update(h.line for h in headings)
        heading = headings[-1] if headings else None
        window = sdoc.window(heading, minimum=1500) if heading else "\n".join(sdoc.lines)
        para = p.source.paragraph
        printed = rf"(?<![\d.]){re.escape(para or '').replace('1', '[1I]')}(?![\d])"
        if para and doc.locator == "paragraph" and "." in para and not re.search(printed, window):
            out.append(Problem(p.file, p.line, f"{where}.paragraph {para!r} is not printed under "
                                               f"{p.source.section!r}"))
        for n in stated_numbers(p.text):
            if not _number_in(n, window):
                out.append(Problem(p.file, p.line,
                                   f"{p.id}: the number {n} does not occur in {doc.key} section {p.source.section!r}"))
        if p.source.page is not None and heading is not None:
            pages = self._expected_pages(sdoc, heading)
            if pages and not pages[0] <= p.source.page <= pages[1]:
                out.append(Problem(p.file, p.line, f"{where}.page {p.source.page} is not where {doc.key} prints "
                                                   f"{p.source.section!r} (pages {pages[0]}–{pages[1]})"))
        return out

    def _located(self, sdoc: SourceDoc) -> list[tuple[int, int, int]]:
        """Return (line, first page, last page) of the indexed headings in book order (cached per document)."""
        if sdoc.located is None:
            candidates = []  # (first, line, last): every printed occurrence of every indexed heading
            by_norm: dict[str, list[int]] = {}
            for h in sdoc.headings:
                if h.line not in sdoc.excluded:
                    by_norm.setdefault(h.norm, []).append(h.line)
            for norm, first, last in _index_pages(sdoc):
                for line in by_norm.get(norm, []) + by_norm.get(normalize("the " + norm), []):
                    candidates.append((first, line, last))
            sdoc.located = [(line, first, last) for first, line, last in _book_order(sorted(candidates))]
        return sdoc.located

    def _expected_pages(self, sdoc: SourceDoc, heading: Heading) -> tuple[int, int] | None:
        located = self._located(sdoc)  # in line order: the book-order run grows in lines
        if not located:
            return None
        before = [x for x in located if x[0] <= heading.line]
        after = [x for x in located if x[0] > heading.line]
        low = before[-1][1] if before else 1
        high = max(after[0][1], low) if after else max(x[2] for x in located)
        if before and before[-1][0] == heading.line:
            high = max(high, before[-1][2])
        return low, high

    def _coverage(self, doc: Document) -> Coverage:
        sdoc = self.docs[doc.key]
        ignored_norms = {normalize(k) for k in doc.non_rule_sections}
        cited = self.cited_headings.get(doc.key, set())
        total = ignored = hit = 0
        missing = []
        for h in sdoc.headings:
            if h.line in sdoc.excluded:
                continue
            if h.norm in ignored_norms:
                ignored += 1
                continue
            total += 1
            if h.line in cited:
                hit += 1
            else:
                missing.append(h.text)
        return Coverage(doc.key, hit, total, ignored, missing)
