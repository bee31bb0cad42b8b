"""The glossary graph: paragraphs, glossary terms, documents and engine rules, joined by typed edges.

One function, :func:`build_graph`, builds it from the loaded corpus (and the engine's ``RULES``); the
site, the search and the web app read the same graph. Nodes are keyed ``para:<id>``, ``term:<game>:<term>``
(one node per glossary entry, named after the first term it defines), ``doc:<doc key>`` and
``engine:<dotted function name>``. Edges (a :class:`networkx.MultiDiGraph`, attribute ``type``):

=================  =====================================  =============================================
type               from -> to                             from the corpus
=================  =====================================  =============================================
uses-term          paragraph -> term                      ``terms``
defines            glossary paragraph -> term             ``defines`` / ``aliases``
related            paragraph -> paragraph                 ``related``
see                glossary paragraph -> paragraph        ``see`` ("See X." entries)
amends             errata paragraph -> paragraph          ``amends``
clarifies          FAQ paragraph -> paragraph             ``clarifies``
part-of            paragraph -> document                  ``source.doc``
indexed            document -> paragraph                  the book's index (``index:``; ``entry`` attr)
cited-by-engine    paragraph -> engine function           ``engine.core.RULES``
=================  =====================================  =============================================
"""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from engine.corpus import Corpus
from engine.errors import UnreadableInputError

EDGE_TYPES = ("uses-term", "defines", "related", "see", "amends", "clarifies", "part-of", "indexed",
              "cited-by-engine")
# edges that make a paragraph "linked to" when they point at it
_INBOUND_LINKS = frozenset({"related", "see", "amends", "clarifies", "indexed"})
_KIND_ORDER = {"term": 0, "paragraph": 1, "engine": 2, "document": 3}
_PARA_KIND_ORDER = {"glossary": 0, "errata": 1, "faq": 2, "rule": 3, "table": 4, "scenario": 5, "example": 6}


class GraphError(UnreadableInputError):
    """Raise when a graph query names something the graph does not hold (unknown term or game)."""


def para_node(pid: str) -> str:
    """Return the node key of paragraph *pid*."""
    return f"para:{pid}"


def term_node(game: str, term: str) -> str:
    """Return the node key of the glossary entry first defining *term* in *game*."""
    return f"term:{game}:{term}"


def doc_node(doc: str) -> str:
    """Return the node key of document *doc*."""
    return f"doc:{doc}"


def engine_node(name: str) -> str:
    """Return the node key of the engine function *name*."""
    return f"engine:{name}"


@dataclass(frozen=True)
class Dangling:
    """A reference to something the corpus does not hold."""

    source: str
    kind: str
    target: str

    def __str__(self) -> str:
        return f"{self.source} --{self.kind}--> {self.target}"


def engine_rules() -> dict[str, tuple[str, ...]]:
    """Return the engine's ``{function name: paragraph ids}`` after loading every situation module."""
    from engine.registry import all_rules

    return all_rules()


def build_graph(corpus: Corpus, rules: Mapping[str, Sequence[str]] | None = None) -> nx.MultiDiGraph:
    """Return the glossary graph of *corpus*; *rules* defaults to the engine's ``RULES`` registry.

    References to ids or terms the corpus does not hold are not added as edges; they are listed in
    ``graph.graph["dangling"]`` (a list of :class:`Dangling`).
    """
    if rules is None:
        rules = engine_rules()
    g = nx.MultiDiGraph()
    dangling: list[Dangling] = []
    for doc in corpus.documents.values():
        g.add_node(doc_node(doc.key), kind="document", label=doc.title, game=doc.game, doc=doc.key)
    # one term node per glossary entry, reachable by every name it defines or aliases
    term_of: dict[tuple[str, str], str] = {}
    for p in corpus:
        if p.kind != "glossary" or not p.defines:
            continue
        key = term_node(p.game, p.defines[0])
        names = tuple(dict.fromkeys((*p.defines, *p.aliases)))
        g.add_node(key, kind="term", label=p.defines[0], game=p.game, names=names, glossary=p.id)
        for name in names:
            term_of.setdefault((p.game, name), key)
    for p in corpus:
        node = para_node(p.id)
        g.add_node(node, kind="paragraph", label=p.title, game=p.game, pid=p.id, para_kind=p.kind,
                   doc=p.source.doc)
    for p in corpus:
        node = para_node(p.id)
        g.add_edge(node, doc_node(p.source.doc), type="part-of")
        if p.kind == "glossary" and p.defines:
            g.add_edge(node, term_node(p.game, p.defines[0]), type="defines")
        for term in dict.fromkeys(p.terms):
            target = term_of.get((p.game, term))
            if target is None:
                dangling.append(Dangling(p.id, "uses-term", f"{p.game}:{term}"))
            elif not (p.kind == "glossary" and g.nodes[target]["glossary"] == p.id):
                g.add_edge(node, target, type="uses-term", term=term)
        links: list[tuple[str, Iterable[str]]] = [
            ("related", p.related), ("see", [p.see] if p.see else []),
            ("amends", p.amends), ("clarifies", p.clarifies)]
        for etype, targets in links:
            for target in dict.fromkeys(targets):
                if target in corpus:
                    g.add_edge(node, para_node(target), type=etype)
                else:
                    dangling.append(Dangling(p.id, etype, target))
        for target in p.corrected:
            if target not in p.amends:
                dangling.append(Dangling(p.id, "corrected", target))
    for entry in corpus.index:
        for target in entry.see:
            if target in corpus:
                g.add_edge(doc_node(entry.doc), para_node(target), type="indexed", entry=entry.entry)
            else:
                dangling.append(Dangling(f"index of {entry.doc}: {entry.entry}", "indexed", target))
    for name, ids in sorted(rules.items()):
        enode = engine_node(name)
        g.add_node(enode, kind="engine", label=name.rsplit(".", 1)[-1], name=name)
        for pid in dict.fromkeys(ids):
            if pid in corpus:
                g.add_edge(para_node(pid), enode, type="cited-by-engine")
            else:
                dangling.append(Dangling(name, "cited-by-engine", pid))
    g.graph["dangling"] = dangling
    return g


# ---------------------------------------------------------------------------------------- queries

def find_term(graph: nx.MultiDiGraph, term: str, game: str | None = None) -> str:
    """Return the node key of the glossary entry naming *term* (a defined term or an alias).

    Raise :class:`GraphError` when no entry names it or when it is ambiguous across games.
    """
    wanted = term.strip().lower()
    games = {d.get("game") for _, d in graph.nodes(data=True) if d["kind"] == "document"}
    if game is not None and game not in games:
        raise GraphError(f"unknown game {game!r} (one of {', '.join(sorted(str(x) for x in games))})",
                         path="game")
    hits = [n for n, d in graph.nodes(data=True) if d["kind"] == "term" and wanted in d["names"]
            and (game is None or d["game"] == game)]
    if not hits:
        where = f" in {game}" if game else ""
        raise GraphError(f"no glossary entry defines {term!r}{where}", path="term")
    if len(hits) > 1:
        found = ", ".join(sorted(graph.nodes[h]["game"] for h in hits))
        raise GraphError(f"term {term!r} is defined in several games ({found}); pass --game", path="game")
    return str(hits[0])


def _order(graph: nx.MultiDiGraph, node: str) -> tuple[int, int, str]:
    data = graph.nodes[node]
    return (_KIND_ORDER.get(data["kind"], 9), _PARA_KIND_ORDER.get(data.get("para_kind", ""), 9), node)


def neighbourhood(graph: nx.MultiDiGraph, centre: str, depth: int = 1, max_nodes: int = 40,
                  fanout: int | None = None) -> nx.MultiDiGraph:
    """Return the subgraph within *depth* links of *centre*, at most *max_nodes* nodes.

    Links are followed both ways; documents (every paragraph is part of one) are not walked through.
    Each node adds at most *fanout* new neighbours (``None``: no limit). Nearer nodes come first, then
    the defining entry, terms, glossary entries, errata and FAQ before other paragraphs. The number of
    nodes left out is ``sub.graph["left_out"]``.
    """
    if centre not in graph:
        raise GraphError(f"no node {centre!r} in the graph", path="term")
    if depth < 0:
        raise GraphError(f"depth must be 0 or more, got {depth}", path="depth")
    keep: dict[str, int] = {centre: 0}
    parent: dict[str, str] = {}
    queue: deque[str] = deque([centre])
    left_out: set[str] = set()
    while queue:
        node = queue.popleft()
        if keep[node] >= depth:
            continue
        defining = {u for u, _, e in graph.in_edges(node, data=True) if e["type"] == "defines"}
        defining |= {v for _, v, e in graph.out_edges(node, data=True) if e["type"] == "defines"}
        around = set(graph.successors(node)) | set(graph.predecessors(node))
        added = 0
        for other in sorted(around, key=lambda n: (n not in defining, *_order(graph, n))):
            if other in keep or graph.nodes[other]["kind"] == "document":
                continue
            if len(keep) >= max_nodes or (fanout is not None and added >= fanout):
                left_out.add(other)
                continue
            keep[other] = keep[node] + 1
            parent[other] = node
            queue.append(other)
            added += 1
    # built node by node (not graph.subgraph): a subgraph view of a small node set iterates a set,
    # whose order changes from one process to the next, and the pictures must not
    sub = nx.MultiDiGraph()
    for node in keep:
        sub.add_node(node, **graph.nodes[node])
    for u, v, data in graph.out_edges(list(keep), data=True):
        if v in keep:
            sub.add_edge(u, v, **data)
    sub.graph = {"centre": centre, "depth": depth, "left_out": len(left_out - set(keep))}
    for node, distance in keep.items():
        sub.nodes[node]["distance"] = distance
        if node in parent:
            sub.nodes[node]["via"] = parent[node]
    return sub


def contract_glossary(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Return a copy of *graph* where each glossary paragraph is merged into the term node it defines.

    A term then stands for its entry: "term A uses term B" is an edge between two term nodes. Edges are
    kept once per (from, to, type); self-loops disappear. Documents are dropped.
    """
    merged: dict[str, str] = {}
    for u, v, data in graph.edges(data=True):
        if data["type"] == "defines":
            merged.setdefault(u, v)
    out = nx.MultiDiGraph()
    out.graph.update({k: v for k, v in graph.graph.items() if k != "dangling"})
    for node, data in graph.nodes(data=True):
        if node not in merged and data["kind"] != "document":
            out.add_node(node, **data)
    seen: set[tuple[str, str, str]] = set()
    for u, v, data in graph.edges(data=True):
        a, b = merged.get(u, u), merged.get(v, v)
        key = (a, b, data["type"])
        if a == b or key in seen or a not in out or b not in out:
            continue
        seen.add(key)
        out.add_edge(a, b, **data)
    return out


def term_neighbourhood(graph: nx.MultiDiGraph, term: str, game: str | None = None, depth: int = 2,
                       max_nodes: int = 24, fanout: int | None = 7) -> nx.MultiDiGraph:
    """Return the readable neighbourhood of a glossary term: entries merged into their terms, capped."""
    centre = find_term(graph, term, game)
    return neighbourhood(contract_glossary(graph), centre, depth, max_nodes, fanout)


@dataclass(frozen=True)
class GraphStats:
    """Counts and checks of the graph, printed by ``runecodex graph --stats``."""

    nodes: Mapping[str, int]
    edges: Mapping[str, int]
    dangling: tuple[Dangling, ...]
    unused_terms: tuple[str, ...]
    unlinked_paragraphs: tuple[str, ...]

    @classmethod
    def from_graph(cls, graph: nx.MultiDiGraph) -> GraphStats:
        """Count nodes and edges by kind, and list dangling refs, unused terms, unlinked paragraphs."""
        nodes = Counter(d["kind"] for _, d in graph.nodes(data=True))
        edges = Counter(d["type"] for _, _, d in graph.edges(data=True))
        unused = []
        for n, d in graph.nodes(data=True):
            if d["kind"] == "term" and not any(
                    e["type"] == "uses-term" for _, _, e in graph.in_edges(n, data=True)):
                unused.append(n.split(":", 2)[2] + f" ({d['game']})")
        unlinked = []
        for n, d in graph.nodes(data=True):
            if d["kind"] != "paragraph":
                continue
            inbound = any(e["type"] in _INBOUND_LINKS for _, _, e in graph.in_edges(n, data=True))
            engine = any(e["type"] == "cited-by-engine" for _, _, e in graph.out_edges(n, data=True))
            used = d["para_kind"] == "glossary" and any(
                graph.in_degree(t) > 1 for _, t, e in graph.out_edges(n, data=True) if e["type"] == "defines")
            if not (inbound or engine or used):
                unlinked.append(d["pid"])
        return cls(
            nodes={k: nodes.get(k, 0) for k in ("paragraph", "term", "document", "engine")},
            edges={k: edges.get(k, 0) for k in EDGE_TYPES},
            dangling=tuple(graph.graph.get("dangling", ())),
            unused_terms=tuple(sorted(unused)), unlinked_paragraphs=tuple(sorted(unlinked)))

    def to_json(self) -> dict[str, Any]:
        """Return the statistics as JSON-ready data."""
        return {"nodes": dict(self.nodes), "edges": dict(self.edges),
                "dangling": [{"source": d.source, "type": d.kind, "target": d.target} for d in self.dangling],
                "unused_terms": list(self.unused_terms),
                "unlinked_paragraphs": list(self.unlinked_paragraphs)}

    def render(self, limit: int | None = 20) -> str:
        """Return the statistics as text; lists longer than *limit* are cut (``None``: all)."""
        def listing(items: Sequence[Any]) -> list[str]:
            shown = items if limit is None else items[:limit]
            more = [f"    ... and {len(items) - len(shown)} more (--all lists them)"] if len(shown) < len(items) else []
            return [f"    {x}" for x in shown] + more

        lines = ["nodes: " + ", ".join(f"{n} {k}" for k, n in self.nodes.items()),
                 "edges: " + ", ".join(f"{n} {k}" for k, n in self.edges.items()),
                 f"dangling references: {len(self.dangling)}", *listing(self.dangling),
                 f"terms never used: {len(self.unused_terms)}", *listing(self.unused_terms),
                 f"paragraphs nothing links to: {len(self.unlinked_paragraphs)}",
                 *listing(self.unlinked_paragraphs)]
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------- export

Linker = Callable[[str, Mapping[str, Any]], str | None]

_STYLE = {
    "term": 'shape=ellipse style="filled" fillcolor="#fde9b8" color="#b7791f" fontcolor="#3d2a00"',
    "paragraph": 'shape=box style="rounded,filled" fillcolor="#e8f0fb" color="#4a6fa5" fontcolor="#14233a"',
    "engine": 'shape=component style="filled" fillcolor="#e4f4e4" color="#3c7a3c" fontcolor="#123312"',
    "document": 'shape=folder style="filled" fillcolor="#eeeeee" color="#777777"',
}
_EDGE_STYLE = {
    "uses-term": 'color="#b7791f" style=dashed',
    "defines": 'color="#b7791f" penwidth=2',
    "related": 'color="#4a6fa5"',
    "see": 'color="#4a6fa5" style=dotted',
    "amends": 'color="#c0392b" penwidth=2',
    "clarifies": 'color="#8e44ad"',
    "part-of": 'color="#999999"',
    "indexed": 'color="#999999" style=dotted',
    "cited-by-engine": 'color="#3c7a3c"',
}


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _label(data: Mapping[str, Any]) -> str:
    if data["kind"] == "paragraph":
        title = textwrap.shorten(str(data["label"]), 48, placeholder="\u2026")
        return "\n".join([data["pid"], *textwrap.wrap(title, 24)])
    if data["kind"] == "engine":
        return str(data["name"]).replace("engine.", "", 1)
    return "\n".join(textwrap.wrap(str(data["label"]), 24))


def _drawn_edges(sub: nx.MultiDiGraph, sparse: bool) -> list[tuple[str, str, list[str], bool]]:
    """Return ``(tail, head, types, reversed)`` per drawn edge: one per pair; *sparse* keeps the walk tree."""
    pairs: dict[tuple[str, str], dict[str, bool]] = {}
    for u, v, data in sorted(sub.edges(data=True), key=lambda e: (e[0], e[1], e[2]["type"])):
        if sparse and sub.nodes[v].get("via") != u and sub.nodes[u].get("via") != v:
            continue
        # draw from the nearer node outwards so the centre sits on the left
        forward = sub.nodes[u].get("distance", 0) <= sub.nodes[v].get("distance", 0)
        tail, head = (u, v) if forward else (v, u)
        pairs.setdefault((tail, head), {})[data["type"]] = not forward
    out = []
    for (tail, head), types in sorted(pairs.items()):
        names = sorted(types, key=EDGE_TYPES.index)
        out.append((tail, head, names, types[names[0]]))
    return out


def to_dot(sub: nx.MultiDiGraph, linker: Linker | None = None, name: str = "glossary",
           sparse: bool = True) -> str:
    """Return the graph in Graphviz DOT; *linker* gives each node's URL (clickable in SVG) or ``None``.

    With *sparse* (for pictures of a neighbourhood) only the links the walk from the centre followed
    are drawn, one arrow per pair of nodes, so the picture reads as a tree around the centre.
    """
    lines = [f"digraph {_quote(name)} {{",
             '  graph [rankdir=LR bgcolor="transparent" nodesep=0.12 ranksep=0.45 fontname="Helvetica"];',
             '  node [fontname="Helvetica" fontsize=11 margin="0.10,0.04" height=0.3];',
             '  edge [fontname="Helvetica" fontsize=9 arrowsize=0.6 fontcolor="#555555"];']
    centre = sub.graph.get("centre")
    sparse = sparse and centre is not None
    for node in sorted(sub.nodes, key=lambda n: (sub.nodes[n].get("distance", 0), _order(sub, n))):
        data = sub.nodes[node]
        attrs = [f"label={_quote(_label(data))}", _STYLE.get(data["kind"], "")]
        if node == centre:
            attrs.append("penwidth=3 fontsize=14")
        url = linker(node, data) if linker else None
        if url:
            attrs.append(f'URL={_quote(url)} target="_top" tooltip={_quote(str(data["label"]))}')
        lines.append(f"  {_quote(node)} [{' '.join(a for a in attrs if a)}];")
    for tail, head, types, back in _drawn_edges(sub, sparse):
        style = _EDGE_STYLE.get(types[0], "")
        shown = [t for t in types if t not in ("uses-term", "related", "part-of")]
        label = f" label={_quote(', '.join(shown))}" if shown else ""
        lines.append(f"  {_quote(tail)} -> {_quote(head)} [{style}{label}{' dir=back' if back else ''}];")
    left = sub.graph.get("left_out", 0)
    if left and centre is not None:
        lines.append(f'  "more" [label="+{left} more links" shape=plaintext fontcolor="#666666" fontsize=10];')
        lines.append(f'  {_quote(centre)} -> "more" [style=invis];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_json(sub: nx.MultiDiGraph, linker: Linker | None = None) -> dict[str, Any]:
    """Return the graph as ``{"nodes": [...], "edges": [...]}`` (node-link data with URLs)."""
    nodes = []
    for node, data in sub.nodes(data=True):
        item = {"id": node, **{k: (list(v) if isinstance(v, tuple) else v) for k, v in data.items()}}
        url = linker(node, data) if linker else None
        if url:
            item["url"] = url
        nodes.append(item)
    edges = [{"source": u, "target": v, "type": d["type"],
              **({"entry": d["entry"]} if "entry" in d else {}), **({"term": d["term"]} if "term" in d else {})}
             for u, v, d in sub.edges(data=True)]
    return {"centre": sub.graph.get("centre"), "left_out": sub.graph.get("left_out", 0),
            "nodes": nodes, "edges": edges}


def dot_program() -> str:
    """Return the path of Graphviz ``dot``; raise :class:`GraphError` when it is not installed."""
    path = shutil.which("dot")
    if path is None:
        raise GraphError("graphviz 'dot' is not installed (run scripts/system-deps.sh)", path="dot")
    return path


def render_svgs(sources: Sequence[str]) -> list[str]:
    """Return the SVG of each DOT source, laid out by one ``dot`` run for all of them."""
    if not sources:
        return []
    proc = subprocess.run([dot_program(), "-Tsvg"], input="\n".join(sources).encode(), capture_output=True,
                          check=False, timeout=300)
    if proc.returncode != 0:
        raise GraphError(f"dot failed: {proc.stderr.decode(errors='replace').strip()}", path="dot")
    out = proc.stdout.decode()
    parts = ["<?xml" + chunk for chunk in out.split("<?xml")[1:]]
    if len(parts) != len(sources):
        raise GraphError(f"dot returned {len(parts)} pictures for {len(sources)} graphs", path="dot")
    return parts


def to_svg(sub: nx.MultiDiGraph, linker: Linker | None = None) -> str:
    """Return the graph as SVG laid out by Graphviz ``dot`` (nodes with URLs are clickable links)."""
    return render_svgs([to_dot(sub, linker)])[0]


def export(sub: nx.MultiDiGraph, fmt: str, linker: Linker | None = None) -> str:
    """Return *sub* in *fmt*: ``svg``, ``dot`` or ``json``."""
    if fmt == "dot":
        return to_dot(sub, linker)
    if fmt == "svg":
        return to_svg(sub, linker)
    if fmt == "json":
        return json.dumps(to_json(sub, linker), ensure_ascii=False, indent=2) + "\n"
    raise GraphError(f"unknown format {fmt!r} (one of svg, dot, json)", path="format")
