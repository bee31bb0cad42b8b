"""Turn the corpus into page specifications (JSON) that the Sphinx extension parses into doctrees.

A page spec is ``{"title", "toctree": [docnames], "blocks": [...]}``. Blocks and inline items are small
dicts (``{"b": "p", "inl": [...]}``, ``{"t": "rule", "id": ..., "text": ...}``) described in
:mod:`engine.site.ext`. Rules text is data, never markup: it reaches the doctree as text nodes, with
links to glossary terms and paragraphs added as placeholders the extension resolves through its domain.

Everything a page shows is in its spec, so a page's source changes exactly when what it shows changes;
Sphinx then re-reads only those pages on an incremental build.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import networkx as nx

from engine.corpus import Corpus, Paragraph
from engine.site.layout import GamePages, SiteLayout, site_linker_for
from engine.views import graph as G
from engine.views import paragraph
from engine.views.paragraph import TermLinker, text_blocks
from engine.views.paragraph import link_row as _link_row
from engine.views.paragraph import rule_link as _rule

Inline = list[Any]
Block = dict[str, Any]
Spec = dict[str, Any]

_STEP_KEYS = ("turn_steps", "phases", "season_steps", "round_steps", "activation_steps", "end_phase_steps")
_STEP_TITLE_RE = re.compile(r"turn|round|season|phase|activation", re.I)
GRAPH_MAX_NODES = 18
GRAPH_FANOUT = 6
USERS_SHOWN = 12


class PageBuilder:
    """Build every page spec of the site from one corpus (and the engine's rules registry)."""

    def __init__(self, corpus: Corpus, layout: SiteLayout, graph: nx.MultiDiGraph,
                 engine_cites: Mapping[str, Sequence[str]]) -> None:
        self.corpus = corpus
        self.layout = layout
        self.graph = graph
        self.linkers = {game: TermLinker.from_corpus(corpus, game) for game in corpus.games}
        self.implemented_by: dict[str, list[str]] = {}
        for name, ids in sorted(engine_cites.items()):
            for pid in dict.fromkeys(ids):
                self.implemented_by.setdefault(pid, []).append(name)

    # ------------------------------------------------------------------------------ paragraphs

    def paragraph(self, p: Paragraph) -> Block:
        """Return the section block of one paragraph, composed by :mod:`engine.views.paragraph` (the app's
        rule page and ``runecodex rule`` show the same composition)."""
        glossary_doc = self.layout.glossary_page_of.get(p.id) if p.kind == "glossary" else None
        return paragraph.compose(self.corpus, p.id, self.implemented_by.get(p.id, []), self.linkers.get(p.game),
                                 glossary_doc).section()

    # ------------------------------------------------------------------------------ pages

    def section_page(self, docname: str) -> Spec:
        """Return the page of one document section: every paragraph under the heading."""
        s = self.layout.sections[docname]
        first = self.corpus.paragraphs[s.paragraphs[0]]
        doc = self.corpus.documents[s.doc]
        where = doc.short + (f", p. {first.source.page}" if first.source.page is not None else "")
        intro: Inline = [{"t": "doc", "doc": self.layout.game(s.game).landing, "text": self.corpus.games[s.game]},
                         " \u203a ", {"t": "doc", "doc": s.chapter, "text": self.layout.chapters[s.chapter].title},
                         f" \u00b7 {where}"]
        blocks: list[Block] = [{"b": "p", "inl": intro, "cls": "rc-crumbs"}]
        blocks += [self.paragraph(self.corpus.paragraphs[pid]) for pid in s.paragraphs]
        return {"title": s.title, "blocks": blocks, "toctree": []}

    def chapter_page(self, docname: str) -> Spec:
        """Return a chapter page: its sections and the titles of their paragraphs."""
        ch = self.layout.chapters[docname]
        items: list[Inline] = []
        for sdoc in ch.sections:
            s = self.layout.sections[sdoc]
            titles = [self.corpus.paragraphs[pid].title for pid in s.paragraphs]
            summary = "; ".join(titles[:6]) + ("; \u2026" if len(titles) > 6 else "")
            items.append([{"t": "doc", "doc": sdoc, "text": s.title}, {"t": "note", "text": f" \u2014 {summary}"}])
        doc = self.corpus.documents[ch.doc]
        return {"title": ch.title, "toctree": list(ch.sections), "blocks": [
            {"b": "p", "inl": [{"t": "doc", "doc": f"{self.layout.game(ch.game).landing}",
                                "text": self.corpus.games[ch.game]}, f" \u203a {doc.title}"], "cls": "rc-crumbs"},
            {"b": "bullets", "items": items, "cls": "rc-toc"}]}

    def document_page(self, game: GamePages, index: int) -> Spec:
        """Return a source document's page: its chapters and sections."""
        d = game.documents[index]
        items: list[Inline] = []
        for cdoc in d.chapters:
            ch = self.layout.chapters[cdoc]
            secs: Inline = []
            for n, sdoc in enumerate(ch.sections):
                secs += ([" \u00b7 "] if n else []) + [{"t": "doc", "doc": sdoc,
                                                        "text": self.layout.sections[sdoc].title}]
            items.append([{"t": "doc", "doc": cdoc, "text": ch.title, "cls": "rc-strong"}, ": ", *secs])
        n = sum(1 for p in self.corpus if p.source.doc == d.doc)
        return {"title": d.title, "toctree": list(d.chapters), "blocks": [
            {"b": "p", "inl": [f"{n} paragraphs, in the project's own words, each with its place in the "
                               "printed document."]},
            {"b": "bullets", "items": items, "cls": "rc-toc"}]}

    def turn_structure(self, game: str) -> list[Block]:
        """Return the "at a glance" blocks: the game's turn, round or season steps, from the corpus facts."""
        found: list[tuple[int, int, Paragraph, str]] = []
        order = {pid: n for n, pid in enumerate(self.corpus.paragraphs)}
        for p in self.corpus.select(game):
            if "quick-reference" in p.id or p.kind not in ("rule", "table", "glossary"):
                continue
            for key, value in self.corpus.facts_of(p.id).items():
                if key in _STEP_KEYS and isinstance(value, list) and _STEP_TITLE_RE.search(p.title):
                    found.append((_STEP_KEYS.index(key), order[p.id], p, key))
        blocks: list[Block] = []
        seen: set[tuple[str, ...]] = set()
        for _, _, p, key in sorted(found, key=lambda f: (f[0], f[1])):
            values = tuple(str(v) for v in self.corpus.facts_of(p.id)[key])
            if values in seen or len(blocks) >= 3:
                continue
            seen.add(values)
            steps = sorted((q for q in self.corpus.paragraphs if q.startswith(p.id + ".")
                            and q[len(p.id) + 1:].isdigit()), key=lambda q: int(q[len(p.id) + 1:]))
            items: list[Inline] = ([[{"t": "rule", "id": q, "text": self.corpus.paragraphs[q].title}] for q in steps]
                                   if steps else [[v.replace("_", " ")] for v in values])
            blocks.append({"b": "div", "cls": "rc-glance", "blocks": [
                {"b": "p", "inl": [{"t": "rule", "id": p.id, "text": p.title}], "cls": "rc-glance-title"},
                {"b": "enum", "items": items}]})
        return blocks

    def game_page(self, game: GamePages) -> Spec:
        """Return a game's landing page: turn structure at a glance, documents, glossary, index."""
        c = self.corpus
        paras = c.select(game.game)
        blocks: list[Block] = []
        glance = self.turn_structure(game.game)
        if glance:
            blocks.append({"b": "section", "title": "At a glance", "id": "at-a-glance", "blocks": glance,
                           "cls": "rc-glance-section"})
        docs: list[Inline] = []
        for d in game.documents:
            n = sum(1 for p in paras if p.source.doc == d.doc)
            docs.append([{"t": "doc", "doc": d.docname, "text": d.title},
                         {"t": "note", "text": f" \u2014 {n} paragraphs"}])
        docs.append([{"t": "doc", "doc": game.glossary_index, "text": "Glossary"},
                     {"t": "note", "text": f" \u2014 {len(game.glossary)} entries, each with its graph"}])
        docs.append([{"t": "doc", "doc": game.book_index, "text": "Book index"},
                     {"t": "note", "text": " \u2014 the printed index, entry by entry"}])
        docs.append([{"t": "doc", "doc": game.situations, "text": "Situations the engine rules on"},
                     {"t": "note", "text": " \u2014 every field of each position, and its worked examples"}])
        blocks.append({"b": "section", "title": "Rules", "id": "rules", "blocks": [
            {"b": "bullets", "items": docs, "cls": "rc-toc"}]})
        amended = [p.id for p in paras if c.is_amended(p.id)]
        if amended:
            blocks.append({"b": "section", "title": "Amended by errata", "id": "amended", "blocks": [
                {"b": "bullets", "items": [_rule(c, pid) for pid in amended]}]})
        toctree = [d.docname for d in game.documents] + [game.glossary_index, game.book_index, game.situations]
        return {"title": game.title, "toctree": toctree, "blocks": blocks}

    def situations_page(self, game: GamePages) -> Spec:
        """Return the reference of every situation of a game (:mod:`engine.views.situations`)."""
        from engine.core import load_situations
        from engine.views.situations import describe, to_blocks

        sits = sorted((s for s in load_situations().values() if s.game == game.game), key=lambda s: s.name)
        intro = ("Each situation is a position the engine rules on: post it to /api/resolve, run "
                 "runecodex resolve FILE, or set it up on the game's board. Fields marked * are required; "
                 "where the rules need a value the position leaves out, the ruling asks for it as a decision.")
        blocks: list[Block] = [{"b": "p", "inl": [intro]}]
        blocks += [to_blocks(describe(s)) for s in sits]
        return {"title": f"{game.title}: situations", "toctree": [], "blocks": blocks}

    def glossary_index(self, game: GamePages) -> Spec:
        """Return the glossary of a game, alphabetical, grouped by first letter."""
        groups: dict[str, list[Inline]] = {}
        for g in sorted(game.glossary, key=lambda x: x.title.lower()):
            letter = g.title[:1].upper() if g.title[:1].isalpha() else "#"
            extra = [n for n in g.names if n != g.title.lower()]
            item: Inline = [{"t": "doc", "doc": g.docname, "text": g.title}]
            if extra:
                item.append({"t": "note", "text": f" ({', '.join(extra)})"})
            groups.setdefault(letter, []).append(item)
        blocks: list[Block] = [{"b": "section", "title": letter, "id": f"letter-{letter.lower()}",
                                "blocks": [{"b": "bullets", "items": items, "cls": "rc-glossary-list"}]}
                               for letter, items in groups.items()]
        if not blocks:
            blocks = [{"b": "p", "inl": ["This game has no glossary entries yet."]}]
        return {"title": f"{self.corpus.games[game.game]} glossary", "toctree": [g.docname for g in game.glossary],
                "blocks": blocks}

    def glossary_page(self, game: GamePages, index: int, svg: str | None) -> Spec:
        """Return one glossary entry's page: definition, aliases, users, book index and graph picture."""
        c = self.corpus
        g = game.glossary[index]
        p = c.paragraphs[g.pid]
        linker = self.linkers.get(p.game)
        blocks: list[Block] = [{"b": "p", "cls": "rc-crumbs", "inl": [
            {"t": "doc", "doc": game.glossary_index, "text": f"{c.games[game.game]} glossary"},
            f" \u00b7 {c.locator(p.id)} \u00b7 ", {"t": "rule", "id": p.id, "text": "in the rules"}]}]
        if len(g.names) > 1:
            blocks.append({"b": "p", "inl": [{"t": "label", "text": "Names"}, ", ".join(g.names)],
                           "cls": "rc-names"})
        definition = text_blocks(c.text_of(p.id), linker, set(), p.id)
        if c.is_amended(p.id):
            definition.append({"b": "p", "inl": [{"t": "badge", "text": "amended", "cls": "rc-badge-amended"},
                                                 " corrected by errata; ", {"t": "rule", "id": p.id,
                                                                            "text": "see the rule"}]})
        blocks.append({"b": "div", "cls": "rc-definition", "blocks": definition})
        rows: list[Block] = []
        if p.see:
            rows.append(_link_row("See", [_rule(c, p.see)], "rc-row-see"))
        related = [i for i in p.related if i in c.paragraphs]
        if related:
            rows.append(_link_row("Related", [_rule(c, i) for i in related], "rc-row-related"))
        index_targets = sorted({t for e in c.index for t in e.see
                                if c.documents[e.doc].game == p.game and e.entry.lower() in g.names
                                and t in c.paragraphs}, key=list(c.paragraphs).index)
        if index_targets:
            rows.append(_link_row("Book index", [_rule(c, i) for i in index_targets], "rc-row-index"))
        if rows:
            blocks.append({"b": "div", "cls": "rc-links", "blocks": rows})
        users = [u for u in dict.fromkeys(c.term_users.get(p.id, [])) if u in c.paragraphs]
        if users:
            items = [_rule(c, u) for u in users]
            used: list[Block] = [{"b": "bullets", "items": items[:USERS_SHOWN], "cls": "rc-users"}]
            if len(items) > USERS_SHOWN:
                used.append({"b": "details", "summary": f"{len(items) - USERS_SHOWN} more", "cls": "rc-more",
                             "blocks": [{"b": "bullets", "items": items[USERS_SHOWN:], "cls": "rc-users"}]})
            blocks.append({"b": "section", "title": f"Used in {len(users)} paragraph{'s' * (len(users) != 1)}",
                           "id": "used-in", "blocks": used})
        if svg:
            blocks.append({"b": "section", "title": "In the glossary graph", "id": "graph", "blocks": [
                {"b": "raw", "html": svg, "cls": "rc-graph"},
                {"b": "p", "cls": "rc-graph-key", "inl": [
                    "Ellipses are glossary terms, boxes are paragraphs; dashed arrows mean \u201cuses the term\u201d, "
                    "solid ones \u201crelated\u201d. Click a node to open it; on a phone, swipe the picture "
                    "sideways."]}]})
        return {"title": g.title, "toctree": [], "blocks": blocks,
                "term": {"id": p.id, "game": p.game, "names": list(g.names)}}

    def book_index(self, game: GamePages) -> Spec:
        """Return the book's own index of a game, entry by entry, linked to the paragraphs it names."""
        c = self.corpus
        entries = [e for e in c.index if c.documents[e.doc].game == game.game]
        groups: dict[str, list[Inline]] = {}
        merged: dict[str, list[str]] = {}
        for e in entries:
            merged.setdefault(e.entry, [])
            merged[e.entry] += [t for t in e.see if t in c.paragraphs and t not in merged[e.entry]]
        for entry in sorted(merged, key=str.lower):
            letter = entry[:1].upper() if entry[:1].isalpha() else "#"
            item: Inline = [{"t": "strong", "text": entry}, " "]
            for n, t in enumerate(merged[entry]):
                item += ([" \u00b7 "] if n else []) + [{"t": "rule", "id": t, "text": c.locator(t)}]
            groups.setdefault(letter, []).append(item)
        blocks: list[Block] = [{"b": "section", "title": letter, "id": f"letter-{letter.lower()}",
                                "blocks": [{"b": "bullets", "items": items, "cls": "rc-index-list"}]}
                               for letter, items in groups.items()]
        if not blocks:
            blocks = [{"b": "p", "inl": ["The printed documents of this game have no index; the ",
                                         {"t": "doc", "doc": game.glossary_index, "text": "glossary"},
                                         " lists every term."]}]
        return {"title": f"{c.games[game.game]}: book index", "toctree": [], "blocks": blocks}

    # ------------------------------------------------------------------------------ pictures

    def graph_dot(self, game: GamePages, index: int) -> str:
        """Return the DOT source of the neighbourhood picture of one glossary entry."""
        g = game.glossary[index]
        p = self.corpus.paragraphs[g.pid]
        sub = G.neighbourhood(self._contracted(), G.term_node(p.game, p.defines[0]), 2, GRAPH_MAX_NODES,
                              GRAPH_FANOUT)
        linker = site_linker_for(self.layout, from_docname=g.docname)
        return G.to_dot(sub, linker, name=g.pid)

    def _contracted(self) -> nx.MultiDiGraph:
        cached: nx.MultiDiGraph | None = getattr(self, "_contracted_graph", None)
        if cached is None:
            cached = G.contract_glossary(self.graph)
            self._contracted_graph = cached
        return cached

    def all_pages(self, svgs: Mapping[str, str]) -> dict[str, Spec]:
        """Return ``{docname: spec}`` for every generated page; *svgs* maps glossary docnames to pictures."""
        pages: dict[str, Spec] = {}
        for game in self.layout.games:
            pages[game.landing] = self.game_page(game)
            pages[game.glossary_index] = self.glossary_index(game)
            pages[game.book_index] = self.book_index(game)
            pages[game.situations] = self.situations_page(game)
            for n, d in enumerate(game.documents):
                pages[d.docname] = self.document_page(game, n)
            for n, g in enumerate(game.glossary):
                pages[g.docname] = self.glossary_page(game, n, svgs.get(g.docname))
        for docname in self.layout.chapters:
            pages[docname] = self.chapter_page(docname)
        for docname in self.layout.sections:
            pages[docname] = self.section_page(docname)
        return pages

    def graph_sources(self) -> dict[str, str]:
        """Return ``{glossary docname: DOT source}`` of every glossary picture."""
        out: dict[str, str] = {}
        for game in self.layout.games:
            for n, g in enumerate(game.glossary):
                if self.corpus.paragraphs[g.pid].defines:
                    out[g.docname] = self.graph_dot(game, n)
        return out


def inline_svg(svg: str) -> str:
    """Return Graphviz SVG ready to inline in HTML: no XML prolog or comments, scalable to the column."""
    svg = re.sub(r"<\?xml[^>]*>|<!DOCTYPE[^>]*>|<!--.*?-->", "", svg, flags=re.S).strip()

    def size(m: re.Match[str]) -> str:
        w, h = float(m.group(1)), float(m.group(2))
        return f'width="{w * 4 / 3:.0f}" height="{h * 4 / 3:.0f}" style="max-width:100%;height:auto"'

    svg = re.sub(r'width="([\d.]+)pt"\s+height="([\d.]+)pt"', size, svg, count=1)
    return svg.replace("<svg ", '<svg role="img" class="rc-graph-svg" ', 1)

