"""One paragraph's page, composed once: the app's ``/rules/<id>``, the site's paragraph sections and ``runecodex rule``.

:func:`compose` returns a :class:`ParagraphView`: the title, a meta line (id, locator, badges), the body (which
text applies for an amended rule, the rule in one line, the text with its glossary terms linked, note, how players
ask, table, the printed text behind a control, contested), the box of FAQ answers and errata about the paragraph
(with their text) and the rows of links (see, sub-rules, amends, clarifies, related, referenced by, the engine
code citing it). Every part is a block of the site's page spec (:mod:`engine.site.ext` turns it into doctree nodes);
:func:`to_html` renders the same blocks for the app, :func:`to_text` for a terminal, so the three show one page.
"""

from __future__ import annotations

import html
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.corpus import Corpus
from engine.views import render
from engine.views.amended import Amendment, Piece, amendment, note_of

Inline = list[Any]
Block = dict[str, Any]

USERS_SHOWN = 12
"""How many paragraphs using a glossary term its "Used by" row names (the glossary page lists them all)."""


@dataclass(frozen=True)
class TermLinker:
    """Find defined terms (and aliases) of one game in text, longest name first, whole words only."""

    pattern: re.Pattern[str] | None
    entry_of: Mapping[str, str]

    @classmethod
    def from_corpus(cls, corpus: Corpus, game: str) -> TermLinker:
        """Build the matcher of every glossary name of *game* (names of 3 letters or more)."""
        entry_of: dict[str, str] = {}
        for p in corpus.select(game, "glossary"):
            for name in (*p.defines, *p.aliases):
                if len(name) >= 3:
                    entry_of.setdefault(name.lower(), p.id)
        if not entry_of:
            return cls(None, entry_of)
        names = sorted(entry_of, key=lambda n: (-len(n), n))
        alternation = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in names)
        return cls(re.compile(rf"(?<![\w-])({alternation})(?:s|es)?(?![\w-])", re.I), entry_of)

    def link(self, text: str, linked: set[str], skip: str | None = None) -> Inline:
        """Return *text* as inline items, the first occurrence of each term linked to its entry.

        *linked* holds the entries already linked in this paragraph (updated); *skip* is an entry not
        to link (the glossary entry being shown).
        """
        if self.pattern is None:
            return [text]
        out: Inline = []
        pos = 0
        for m in self.pattern.finditer(text):
            name = re.sub(r"\s+", " ", m.group(1).lower())
            entry = self.entry_of.get(name)
            if entry is None or entry == skip or entry in linked:
                continue
            linked.add(entry)
            if m.start() > pos:
                out.append(text[pos:m.start()])
            out.append({"t": "term", "id": entry, "text": m.group(0)})
            pos = m.end()
        if pos < len(text):
            out.append(text[pos:])
        return out


_LINKERS: dict[tuple[str, str], TermLinker] = {}


def linker_for(corpus: Corpus, game: str) -> TermLinker:
    """Return the term linker of *game* in *corpus* (built once per corpus version and game)."""
    key = (corpus.version.digest, game)
    found = _LINKERS.get(key)
    if found is None:
        if len(_LINKERS) > 32:
            _LINKERS.clear()
        found = _LINKERS[key] = TermLinker.from_corpus(corpus, game)
    return found


def text_blocks(text: str, linker: TermLinker | None, linked: set[str], skip: str | None = None) -> list[Block]:
    """Return the blocks of a rules text as parsed by :mod:`engine.views.render` (the one reader of corpus text)."""
    def inl(s: str) -> Inline:
        return linker.link(s, linked, skip) if linker else [s]

    out: list[Block] = []
    for b in render.blocks(text):
        if b.kind == "p":
            out.append({"b": "p", "inl": inl(b.items[0])})
        else:
            out.append({"b": b.kind, "items": [inl(i) for i in b.items]})
    return out


def rule_link(corpus: Corpus, pid: str) -> Inline:
    """Return a link to paragraph *pid* named by its title, followed by its id."""
    return [{"t": "rule", "id": pid, "text": corpus.paragraphs[pid].title}, " ", {"t": "id", "text": pid}]


def pieces(items: Sequence[Piece]) -> Inline:
    """Return text pieces with paragraph links (see :mod:`engine.views.amended`) as inline items."""
    return [p if isinstance(p, str) else {"t": "rule", "id": p.id, "text": p.title} for p in items]


def link_row(label: str, items: Sequence[Inline], cls: str) -> Block:
    """Return a labelled row of links."""
    row: Inline = [{"t": "label", "text": label}]
    for n, item in enumerate(items):
        if n:
            row.append(" \u00b7 ")
        row.extend(item)
    return {"b": "p", "inl": row, "cls": f"rc-links-row {cls}"}


def _amended_blocks(amended: Amendment) -> tuple[Block, Block]:
    """Return the note saying which text applies (before the text) and the printed rule behind a control."""
    note: Inline = [Amendment.APPLIES, " "]
    for n, link in enumerate(amended.errata):
        note += ([", "] if n else []) + pieces([link])
    note.append(".")
    original: list[Block] = [*text_blocks(amended.original, None, set())]
    if amended.original_note:
        original.append({"b": "p", "inl": pieces(amended.original_note), "cls": "rc-original-note"})
    return ({"b": "p", "inl": note, "cls": "rc-amended-note"},
            {"b": "details", "summary": Amendment.SUMMARY, "cls": "rc-original original", "blocks": original})


@dataclass(frozen=True)
class ParagraphView:
    """The parts of one paragraph's page, each a page-spec block (see the module's docstring)."""

    id: str
    title: str
    kind: str
    game: str
    locator: str
    cls: str
    meta: Block
    body: tuple[Block, ...]
    about: Block | None
    links: Block | None

    def blocks(self) -> list[Block]:
        """Return every part in reading order."""
        return [self.meta, *self.body, *(b for b in (self.about, self.links) if b is not None)]

    def section(self) -> Block:
        """Return the page-spec section of the paragraph (as the site's pages hold it)."""
        return {"b": "section", "title": self.title, "id": self.id, "pid": self.id, "cls": self.cls,
                "blocks": self.blocks()}


def _meta(corpus: Corpus, pid: str, engine: Sequence[str]) -> Block:
    p = corpus.paragraphs[pid]
    meta: Inline = [{"t": "id", "text": pid}, " ", {"t": "locator", "text": corpus.locator(pid)}]
    if p.kind != "rule":
        meta += [" ", {"t": "badge", "text": p.kind, "cls": f"rc-badge-{p.kind}"}]
    if corpus.is_amended(pid):
        meta += [" ", {"t": "badge", "text": "amended", "cls": "rc-badge-amended"}]
    if engine:
        meta += [" ", {"t": "badge", "text": "in the engine", "cls": "rc-badge-engine"}]
    return {"b": "p", "inl": meta, "cls": "rc-meta"}


def _body(corpus: Corpus, pid: str, linker: TermLinker | None) -> list[Block]:
    p = corpus.paragraphs[pid]
    amended = amendment(corpus, pid)
    applies, printed = _amended_blocks(amended) if amended else (None, None)
    blocks: list[Block] = [applies] if applies else []
    if p.short:
        blocks.append({"b": "p", "inl": [{"t": "label", "text": "In one line"}, " ",
                                         {"t": "strong", "text": p.short}], "cls": "rc-short"})
    skip = pid if p.kind == "glossary" else None
    blocks.append({"b": "div", "cls": "rc-text", "blocks": text_blocks(corpus.text_of(pid), linker, set(), skip)})
    note = note_of(corpus, pid)
    if note:
        blocks.append({"b": "div", "cls": "rc-note", "blocks": [
            {"b": "p", "inl": [{"t": "label", "text": "Note"}, " ", *pieces(note)]}]})
    if p.asked:
        blocks.append({"b": "div", "cls": "rc-asked", "blocks": [
            {"b": "p", "inl": [{"t": "label", "text": "Players ask"}], "cls": "rc-asked-head"},
            {"b": "bullets", "items": [[a] for a in p.asked]}]})
    table = corpus.table_of(pid)
    if table is not None:
        blocks.append({"b": "table", "columns": list(table.columns),
                       "rows": [[str(x) for x in row] for row in table.rows]})
    if printed:
        blocks.append(printed)
    if p.contested:
        blocks.append({"b": "div", "cls": "rc-contested", "blocks": [
            {"b": "p", "inl": [{"t": "label", "text": "Contested"}, p.contested]}]})
    return blocks


def about_ids(corpus: Corpus, pid: str) -> list[str]:
    """Return the errata and FAQ answers about *pid*: the corpus's links, then every paragraph saying it amends or
    clarifies *pid* (wherever the corpus filed it)."""
    ids = [*corpus.amended_by.get(pid, []), *corpus.faq.get(pid, [])]
    ids += [q for q, para in corpus.paragraphs.items() if pid in para.clarifies or pid in para.amends]
    return [i for i in dict.fromkeys(ids) if i in corpus.paragraphs and i != pid]


def _about(corpus: Corpus, pid: str, linker: TermLinker | None) -> Block | None:
    ids = about_ids(corpus, pid)
    if not ids:
        return None
    kinds = {corpus.paragraphs[i].kind for i in ids}
    head = "FAQ and errata" if len(kinds) > 1 else ("Errata" if kinds == {"errata"} else "FAQ")
    entries: list[Block] = [{"b": "p", "inl": [{"t": "label", "text": head}], "cls": "rc-faq-head"}]
    for fid in ids:
        f = corpus.paragraphs[fid]
        entry: list[Block] = [{"b": "p", "cls": "rc-faq-q", "inl": [
            {"t": "badge", "text": f.kind, "cls": f"rc-badge-{f.kind}"}, " ", {"t": "strong", "text": f.title},
            " ", {"t": "rule", "id": fid, "text": corpus.locator(fid)}]}]
        if f.short:
            entry.append({"b": "p", "inl": [{"t": "strong", "text": f.short}], "cls": "rc-short"})
        entry += text_blocks(corpus.text_of(fid), linker, set(), None)
        entries.append({"b": "div", "cls": f"rc-faq-entry faq-note kind-box-{f.kind}", "blocks": entry})
    return {"b": "div", "cls": "rc-faq faq-notes", "blocks": entries}


def _links(corpus: Corpus, pid: str, engine: Sequence[str], glossary_doc: str | None) -> Block | None:
    p = corpus.paragraphs[pid]
    rows: list[Block] = []
    if glossary_doc is not None:
        names = ", ".join(dict.fromkeys((*p.defines, *p.aliases)))
        rows.append(link_row("Glossary", [[{"t": "doc", "doc": glossary_doc, "text": f"entry: {names}"}]],
                             "rc-row-glossary"))
    if p.see and p.see in corpus.paragraphs:
        rows.append(link_row("See", [rule_link(corpus, p.see)], "rc-row-see"))
    children = [q for q in corpus.paragraphs if q.startswith(pid + ".") and "." not in q[len(pid) + 1:]]
    for label, ids, cls in (("Sub-rules", children, "rc-row-subrules"), ("Amends", p.amends, "rc-row-amends"),
                            ("Clarifies", p.clarifies, "rc-row-clarifies"), ("Related", p.related, "rc-row-related"),
                            ("Referenced by", corpus.cited_by.get(pid, []), "rc-row-cited")):
        ids = [i for i in dict.fromkeys(ids) if i in corpus.paragraphs]
        if ids:
            rows.append(link_row(label, [rule_link(corpus, i) for i in ids], cls))
    users = [u for u in dict.fromkeys(corpus.term_users.get(pid, [])) if u in corpus.paragraphs and u != pid]
    if users:
        more: list[Inline] = [[f"and {len(users) - USERS_SHOWN} more"]] if len(users) > USERS_SHOWN else []
        rows.append(link_row("Used by", [*(rule_link(corpus, u) for u in users[:USERS_SHOWN]), *more],
                             "rc-row-users"))
    if engine:
        rows.append(link_row("Executable in the engine", [[{"t": "code", "text": n}] for n in engine],
                             "rc-row-engine"))
    return {"b": "div", "cls": "rc-links", "blocks": rows} if rows else None


def compose(corpus: Corpus, pid: str, engine: Sequence[str], linker: TermLinker | None = None,
            glossary_doc: str | None = None) -> ParagraphView:
    """Return the page of paragraph *pid*; *engine* names the engine rules citing it, *linker* links the glossary
    terms of its game (default: the game's), *glossary_doc* is the site page of a glossary entry (site only)."""
    p = corpus.paragraphs[pid]
    linker = linker if linker is not None else linker_for(corpus, p.game)
    cls = f"rc-para rc-kind-{p.kind}" + (" rc-amended" if corpus.is_amended(pid) else "")
    return ParagraphView(pid, p.title, p.kind, p.game, corpus.locator(pid), cls, _meta(corpus, pid, engine),
                         tuple(_body(corpus, pid, linker)), _about(corpus, pid, linker),
                         _links(corpus, pid, engine, glossary_doc))


# ------------------------------------------------------------------------------------------ HTML and text


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def inline_html(items: Iterable[Any], href: Callable[[str], str]) -> str:
    """Return inline items as HTML; *href* gives the address of a paragraph (rules and glossary terms)."""
    out: list[str] = []
    for item in items:
        if isinstance(item, str):
            out.append(html.escape(item, quote=False))
            continue
        kind, text = item["t"], html.escape(str(item.get("text", "")), quote=False)
        if kind in ("rule", "term"):
            extra = " cite" if kind == "rule" else " term"
            out.append(f'<a class="rc-{kind}-link{extra}" data-pid="{_attr(item["id"])}" '
                       f'href="{_attr(href(item["id"]))}">{text}</a>')
        elif kind == "code":
            out.append(f"<code>{text}</code>")
        elif kind == "id":
            out.append(f'<code class="rc-id">{text}</code>')
        elif kind == "strong":
            out.append(f"<strong>{text}</strong>")
        elif kind == "badge":
            out.append(f'<span class="rc-badge {_attr(item.get("cls", ""))}">{text}</span>')
        else:  # id, locator, label, note, doc (a site page: its text)
            out.append(f'<span class="rc-{_attr(kind)}">{text}</span>')
    return "".join(out)


def to_html(blocks: Iterable[Block], href: Callable[[str], str]) -> str:
    """Return page-spec blocks as HTML (every text escaped); *href* as in :func:`inline_html`."""
    out: list[str] = []
    for b in blocks:
        cls = f' class="{_attr(b["cls"])}"' if b.get("cls") else ""
        kind = b["b"]
        if kind == "p":
            out.append(f"<p{cls}>{inline_html(b['inl'], href)}</p>")
        elif kind in ("bullets", "enum"):
            tag = "ul" if kind == "bullets" else "ol"
            items = "".join(f"<li>{inline_html(i, href)}</li>" for i in b["items"])
            out.append(f"<{tag}{cls}>{items}</{tag}>")
        elif kind == "div":
            out.append(f"<div{cls}>{to_html(b['blocks'], href)}</div>")
        elif kind == "details":
            out.append(f"<details{cls}><summary>{html.escape(b['summary'])}</summary>"
                       f"{to_html(b['blocks'], href)}</details>")
        elif kind == "table":
            head = "".join(f'<th scope="col">{html.escape(c)}</th>' for c in b["columns"])
            rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in b["rows"])
            out.append(f'<div class="table-wrap"><table class="data"><thead><tr>{head}</tr></thead>'
                       f"<tbody>{rows}</tbody></table></div>")
        elif kind == "section":
            out.append(f'<section{cls} id="{_attr(b["id"])}"><h2>{html.escape(b["title"])}</h2>'
                       f"{to_html(b['blocks'], href)}</section>")
    return "\n".join(out)


def _inline_text(items: Iterable[Any]) -> str:
    out: list[str] = []
    for item in items:
        if isinstance(item, str):
            out.append(item)
        elif item["t"] == "label":
            out.append(f"{item['text']}: ")
        elif item["t"] == "rule":
            out.append(f"{item['text']} [{item['id']}]")
        elif item["t"] == "badge":
            out.append(f"[{item['text']}]")
        elif item["t"] != "id":  # a rule's id is already in brackets after its title
            out.append(str(item.get("text", "")))
    return " ".join("".join(out).split())


def to_text(blocks: Iterable[Block], width: int = 100, indent: str = "  ") -> str:
    """Return page-spec blocks as plain text for a terminal, wrapped at *width*."""
    def wrap(s: str, first: str = "", rest: str = "") -> str:
        return textwrap.fill(s, width=width, initial_indent=indent + first, subsequent_indent=indent + rest)

    out: list[str] = []
    for b in blocks:
        kind = b["b"]
        if kind == "p":
            out.append(wrap(_inline_text(b["inl"])))
        elif kind in ("bullets", "enum"):
            out.append("\n".join(wrap(_inline_text(i), "- " if kind == "bullets" else f"{n}. ",
                                      "  " if kind == "bullets" else " " * (len(str(n)) + 2))
                                 for n, i in enumerate(b["items"], start=1)))
        elif kind in ("div", "section"):
            out.append(to_text(b["blocks"], width, indent + ("  " if "rc-faq-entry" in b.get("cls", "") else "")))
        elif kind == "details":
            out.append(wrap(f"{b['summary']}:") + "\n" + to_text(b["blocks"], width, indent + "  "))
        elif kind == "table":
            out.append("\n".join(indent + " | ".join(r) for r in [b["columns"], *b["rows"]]))
    return "\n\n".join(s for s in out if s.strip())
