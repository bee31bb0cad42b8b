"""The Sphinx extension of the Runecodex site: pages generated from the corpus, a domain, roles, nodes.

What it adds to Sphinx:

* **Generated pages.** On ``builder-inited`` it lays the corpus out (:mod:`engine.site.layout`) and writes
  one page spec per page (``*.rcpage``, JSON, see :mod:`engine.site.pages`) into the source folder;
  hand-written pages (``site/``) are copied beside them. A file is rewritten only when its content
  changes, so an incremental build re-reads exactly the pages whose content changed. The ``rcpage``
  parser turns a spec into a doctree; rules text stays text (never markup).
* **Own only what it writes.** The source folder carries a manifest (``.runecodex-owned.json``, see
  :mod:`engine.files.ownership`) listing every file the extension wrote; a later build removes only listed
  files it no longer needs, never anything else. A source folder that is not empty and has no manifest
  is refused. When Sphinx is run on the repository root itself (``sphinx-build -M html . _build``, the
  Sphinx convention), the extension moves the source folder to ``runecodex_srcdir`` (default
  ``site/_generated``, git-ignored) on ``config-inited``, so the root's other files are never read,
  written or removed: the result is the same site as ``runecodex build``.
* **Workers die with the build.** Sphinx's parallel workers ask the kernel to kill them when the build
  process dies (:func:`engine.files.locks.die_with_parent`), from the first public event each one emits
  (``source-read``, ``html-page-context``), so a killed build leaves no orphans behind.
* **The ``rc`` domain** holds, per document, every paragraph anchor (``rwm.10.9`` -> page) and every
  glossary page, with ``clear_doc``/``merge_domaindata`` so incremental and parallel builds work.
* **The ``{rule}`` role** (also ``rc:rule``): ``{rule}`rwm.10.9``` or ``{rule}`the attack <rwm.10>```
  links a paragraph from anywhere. It leaves a placeholder node resolved on ``doctree-resolved``; an
  unknown id is a warning at the node's location (``-W`` makes it an error).
* **The ``rc:paragraph`` directive** declares a paragraph anchor by hand (tests, hand-written pages).
* ``ids.json`` at the root of the built site maps every paragraph id to its URL (one fragment, also
  for singlehtml: ``index.html#id``).
* **Every builder.** The ``<details>`` nodes have HTML visitors; for any other builder (text, LaTeX,
  man, Texinfo, ...) they become standard docutils nodes on ``doctree-resolved``. A refusal stops the
  build with one ``ERROR:`` line and exit status 2, not a crash report.

Block and inline vocabulary of page specs (``b`` for blocks, ``t`` for inline items; a plain string is
text): blocks ``p`` (``inl``), ``bullets``/``enum`` (``items``: list of inline lists), ``section``
(``title``, ``id``, ``pid``?, ``blocks``), ``div`` (``blocks``), ``details`` (``summary``, ``blocks``),
``table`` (``columns``, ``rows``), ``raw`` (``html``); inline ``rule`` (``id``, ``text``), ``term``
(``id`` of the glossary entry, ``text``), ``doc`` (``doc``, ``text``), ``code``, ``strong``, ``id``,
``locator``, ``label``, ``note`` and ``badge`` (``text``, ``cls``). Every block may carry ``cls``.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar, NoReturn, cast

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.domains import Domain, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError, NoUri
from sphinx.parsers import Parser
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.writers.html5 import HTML5Translator

from engine.errors import OutputRefusedError

logger = logging.getLogger(__name__)

SUFFIX = ".rcpage"
MANIFEST_KIND = "sphinx-sources"


# ------------------------------------------------------------------------------------------ nodes

class rc_ref(nodes.Inline, nodes.TextElement):  # type: ignore[misc]
    """A link placeholder to a paragraph (``reftype="rule"``) or glossary entry (``reftype="term"``)."""


class rc_details(nodes.General, nodes.Element):  # type: ignore[misc]
    """An HTML ``<details>`` block; its first child is an :class:`rc_summary`."""


class rc_summary(nodes.TextElement):  # type: ignore[misc]
    """The ``<summary>`` line of an :class:`rc_details`."""


def _visit_details(self: HTML5Translator, node: rc_details) -> None:
    self.body.append(self.starttag(node, "details"))


def _depart_details(self: HTML5Translator, node: rc_details) -> None:
    self.body.append("</details>\n")


def _visit_summary(self: HTML5Translator, node: rc_summary) -> None:
    self.body.append(self.starttag(node, "summary", suffix=""))


def _depart_summary(self: HTML5Translator, node: rc_summary) -> None:
    self.body.append("</summary>\n")


def _visit_ref_fallback(self: Any, node: rc_ref) -> None:
    """Render an unresolved placeholder (only reached by builders that skip doctree-resolved) as text."""


def _depart_ref_fallback(self: Any, node: rc_ref) -> None:
    """Close :func:`_visit_ref_fallback`."""


# ------------------------------------------------------------------------------------------ domain

class RuleRole(SphinxRole):
    """``{rule}`ID``` or ``{rule}`text <ID>```: a link to a corpus paragraph, resolved at write time."""

    explicit_re = re.compile(r"^(.+?)\s*<([^<>]+)>$", re.S)

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        """Return a placeholder node for the paragraph id in the role's text."""
        m = self.explicit_re.match(self.text)
        text, target = (m.group(1), m.group(2)) if m else (self.text, self.text)
        target = target.strip().lower()
        node = rc_ref(self.rawtext, "", reftype="rule", reftarget=target, classes=["rc-ref"])
        node += nodes.literal(text, text) if not m else nodes.inline(text, text)
        self.set_source_info(node)
        return [node], []


class ParagraphDirective(SphinxDirective):
    """``.. rc:paragraph:: ID`` declares a paragraph anchor (title option, body as content)."""

    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {"title": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        """Return a container with the paragraph's id as anchor, registered in the ``rc`` domain."""
        pid = self.arguments[0].strip().lower()
        title = self.options.get("title", pid)
        box = nodes.container(ids=[pid], classes=["rc-para"], rc_pid=pid, rc_title=title)
        self.set_source_info(box)
        box += nodes.rubric(title, title)
        box += self.parse_content_to_nodes()
        return [box]


class RunecodexDomain(Domain):
    """Where each corpus paragraph and glossary entry is shown, per page (the site's cross-references)."""

    name = "rc"
    label = "Runecodex"
    object_types: ClassVar[dict[str, ObjType]] = {
        "paragraph": ObjType("paragraph", "rule"), "term": ObjType("glossary entry", "rule")}
    roles: ClassVar[dict[str, Any]] = {"rule": RuleRole()}
    directives: ClassVar[dict[str, Any]] = {"paragraph": ParagraphDirective}
    initial_data: ClassVar[dict[str, Any]] = {"paragraphs": {}, "terms": {}}
    data_version = 1

    @property
    def paragraphs(self) -> dict[str, tuple[str, str]]:
        """Return ``{paragraph id: (docname, title)}``."""
        return cast("dict[str, tuple[str, str]]", self.data.setdefault("paragraphs", {}))

    @property
    def terms(self) -> dict[str, tuple[str, str]]:
        """Return ``{glossary entry id: (docname of its glossary page, title)}``."""
        return cast("dict[str, tuple[str, str]]", self.data.setdefault("terms", {}))

    def note_paragraph(self, pid: str, docname: str, title: str, node: nodes.Node) -> None:
        """Record that paragraph *pid* is shown on *docname*; warn if another page shows it too."""
        if pid in self.paragraphs and self.paragraphs[pid][0] != docname:
            logger.warning("paragraph %r is shown twice: on %s and on %s", pid, self.paragraphs[pid][0], docname,
                           location=node, type="runecodex", subtype="duplicate")
        self.paragraphs[pid] = (docname, title)

    def note_term(self, pid: str, docname: str, title: str) -> None:
        """Record that the glossary entry *pid* has its page at *docname*."""
        self.terms[pid] = (docname, title)

    def clear_doc(self, docname: str) -> None:
        """Forget everything *docname* declared (it is about to be re-read or was removed)."""
        for table in (self.paragraphs, self.terms):
            for key in [k for k, (doc, _) in table.items() if doc == docname]:
                del table[key]

    def merge_domaindata(self, docnames: Iterable[str], otherdata: dict[str, Any]) -> None:
        """Merge what a parallel reader process recorded for *docnames*."""
        wanted = set(docnames)
        for key in ("paragraphs", "terms"):
            mine = self.data.setdefault(key, {})
            for k, (doc, title) in otherdata.get(key, {}).items():
                if doc in wanted:
                    mine[k] = (doc, title)

    def resolve_xref(self, env: BuildEnvironment, fromdocname: str, builder: Any, typ: str, target: str,
                     node: addnodes.pending_xref, contnode: nodes.Element) -> nodes.reference | None:
        """Resolve ``pending_xref`` nodes of this domain (the site itself uses :class:`rc_ref`)."""
        found = self.paragraphs.get(target.lower())
        if found is None:
            return None
        from sphinx.util.nodes import make_refnode

        return make_refnode(builder, fromdocname, found[0], target.lower(), contnode, found[1])

    def resolve_any_xref(self, env: BuildEnvironment, fromdocname: str, builder: Any, target: str,
                         node: addnodes.pending_xref, contnode: nodes.Element) -> list[tuple[str, nodes.reference]]:
        """Resolve ``:any:`` references to paragraph ids."""
        ref = self.resolve_xref(env, fromdocname, builder, "rule", target, node, contnode)
        return [("rc:rule", ref)] if ref is not None else []

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        """Yield every paragraph and glossary entry for the inventory (``objects.inv``)."""
        for pid, (doc, title) in sorted(self.paragraphs.items()):
            yield pid, title, "paragraph", doc, pid, 1
        for pid, (doc, title) in sorted(self.terms.items()):
            yield f"term:{pid}", title, "term", doc, "", 1


def _domain(env: BuildEnvironment) -> RunecodexDomain:
    return cast("RunecodexDomain", env.get_domain("rc"))


# ------------------------------------------------------------------------------------------ parser

def _inline(items: Iterable[Any]) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for item in items:
        if isinstance(item, str):
            out.append(nodes.Text(item))
            continue
        kind, text = item["t"], str(item.get("text", ""))
        if kind == "rule" or kind == "term":
            ref = rc_ref("", "", reftype=kind, reftarget=item["id"], classes=[f"rc-{kind}-link"])
            ref += nodes.Text(text)
            out.append(ref)
        elif kind == "doc":
            xref = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget="/" + item["doc"],
                                         refexplicit=True, refwarn=True)
            xref += nodes.inline(text, text, classes=[item.get("cls", "rc-doc-link")])
            out.append(xref)
        elif kind == "code":
            out.append(nodes.literal(text, text))
        elif kind == "strong":
            out.append(nodes.strong(text, text))
        elif kind == "badge":
            out.append(nodes.inline(text, text, classes=["rc-badge", item.get("cls", "")]))
        elif kind in ("id", "locator", "label", "note"):
            out.append(nodes.inline(text, text, classes=[f"rc-{kind}"]))
        else:
            raise ExtensionError(f"unknown inline item {kind!r} in a page spec")
    return out


def _classes(block: Mapping[str, Any]) -> list[str]:
    return str(block.get("cls", "")).split()


def _blocks(blocks: Iterable[Mapping[str, Any]]) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for block in blocks:
        kind = block["b"]
        if kind == "p":
            para = nodes.paragraph("", "", classes=_classes(block))
            para += _inline(block["inl"])
            out.append(para)
        elif kind in ("bullets", "enum"):
            lst: nodes.Element = (nodes.bullet_list("", bullet="-", classes=_classes(block)) if kind == "bullets"
                                  else nodes.enumerated_list("", enumtype="arabic", prefix="", suffix=".",
                                                             classes=_classes(block)))
            for item in block["items"]:
                para = nodes.paragraph()
                para += _inline(item)
                lst += nodes.list_item("", para)
            out.append(lst)
        elif kind == "section":
            sec = nodes.section("", ids=[block["id"]], classes=_classes(block))
            if "pid" in block:
                sec["rc_pid"] = block["pid"]
                sec["rc_title"] = block["title"]
            sec += nodes.title(block["title"], block["title"])
            sec += _blocks(block["blocks"])
            out.append(sec)
        elif kind == "div":
            box = nodes.container("", classes=_classes(block))
            box += _blocks(block["blocks"])
            out.append(box)
        elif kind == "details":
            det = rc_details("", classes=_classes(block))
            det += rc_summary(block["summary"], block["summary"])
            det += _blocks(block["blocks"])
            out.append(det)
        elif kind == "table":
            out.append(_table(block["columns"], block["rows"]))
        elif kind == "raw":
            out.append(nodes.raw("", f'<div class="{" ".join(_classes(block))}">{block["html"]}</div>',
                                 format="html"))
        else:
            raise ExtensionError(f"unknown block {kind!r} in a page spec")
    return out


def _table(columns: list[str], rows: list[list[str]]) -> nodes.table:
    table = nodes.table(classes=["rc-table"])
    group = nodes.tgroup(cols=len(columns))
    table += group
    for _ in columns:
        group += nodes.colspec(colwidth=1)

    def row(cells: Iterable[str]) -> nodes.row:
        r = nodes.row()
        for cell in cells:
            r += nodes.entry("", nodes.paragraph(str(cell), str(cell)))
        return r

    head = nodes.thead()
    head += row(columns)
    body = nodes.tbody()
    for cells in rows:
        body += row(cells)
    group += head
    group += body
    return table


class PageSpecParser(Parser):
    """Parse a generated page spec (``*.rcpage``, JSON) into a doctree."""

    supported = ("rcpage",)

    def parse(self, inputstring: str, document: nodes.document) -> None:
        """Build the page: one top section with the page title, its blocks and a hidden toctree."""
        try:
            spec = json.loads(inputstring)
        except json.JSONDecodeError as exc:
            raise ExtensionError(f"unreadable page spec {document['source']}: {exc}") from exc
        top = nodes.section("", ids=["page"], classes=["rc-page"])
        top += nodes.title(spec["title"], spec["title"])
        if "term" in spec:
            top["rc_term"] = spec["term"]["id"]
            top["rc_title"] = spec["title"]
        top += _blocks(spec["blocks"])
        if spec.get("toctree"):
            tree = addnodes.toctree()
            tree["parent"] = document.settings.env.docname
            tree["entries"] = [(None, d) for d in spec["toctree"]]
            tree["includefiles"] = list(spec["toctree"])
            tree["maxdepth"] = -1
            tree["caption"] = None
            tree["glob"] = False
            tree["hidden"] = True
            tree["includehidden"] = False
            tree["numbered"] = 0
            tree["titlesonly"] = True
            wrapper = nodes.compound(classes=["toctree-wrapper"])
            wrapper += tree
            top += wrapper
        document += top


# ------------------------------------------------------------------------------------------ navigation

class NavigationTree:
    """Furo's sidebar navigation, computed once per process instead of once per page.

    Furo renders the whole toctree for every page and rewrites it with BeautifulSoup: quadratic in the
    number of pages (minutes for this site). This class walks the toctree structure once and renders,
    per page, the same markup furo produces (checkboxes, ``current`` and ``current-page`` classes).
    """

    def __init__(self, env: BuildEnvironment, root: str) -> None:
        self.env = env
        self.titles = {doc: node.astext() for doc, node in env.titles.items()}
        self.children: dict[str, list[str]] = {}
        self.parent: dict[str, str] = {}
        seen: set[str] = {root}
        order = [root]
        while order:
            doc = order.pop(0)
            kids = [k for k in env.toctree_includes.get(doc, []) if k in self.titles and k not in seen]
            self.children[doc] = kids
            for k in kids:
                seen.add(k)
                self.parent[k] = doc
                order.append(k)
        # the root page's visible toctrees keep their captions
        self.groups: list[tuple[str | None, list[str]]] = []
        for tree in env.get_doctree(root).findall(addnodes.toctree):
            entries = [d for _, d in tree["entries"] if d in self.parent and self.parent[d] == root]
            self.groups.append((tree.get("caption"), entries))
        if not self.groups:
            self.groups = [(None, self.children.get(root, []))]
        self._hrefs: dict[str, str] | None = None
        self._titles: dict[str, str] = {}

    def render(self, pagename: str, prefix: str, target_uri: Callable[[str], str]) -> str:
        """Return the navigation HTML for *pagename*.

        *prefix* leads from the page to the site root (``../../``) and *target_uri* gives a page's URL
        below the root; both are computed once, not per link.
        """
        current = {pagename}
        doc = pagename
        while doc in self.parent:
            doc = self.parent[doc]
            current.add(doc)
        if self._hrefs is None:
            self._hrefs = {d: html.escape(target_uri(d)) for d in self.titles}
            self._titles = {d: html.escape(t) for d, t in self.titles.items()}
        hrefs, titles = self._hrefs, self._titles
        counter = 0
        out: list[str] = []

        def item(doc: str, level: int) -> None:
            nonlocal counter
            kids = self.children.get(doc, [])
            is_current = doc in current
            classes = f"toctree-l{level}" + (" current" if is_current else "") + (" has-children" if kids else "")
            if doc == pagename:
                classes += " current-page"
                out.append(f'<li class="{classes}"><a class="reference internal current" href="#">{titles[doc]}</a>')
            else:
                out.append(f'<li class="{classes}"><a class="reference internal" href="{prefix}{hrefs[doc]}">'
                           f"{titles[doc]}</a>")
            if kids:
                counter += 1
                name = f"toctree-checkbox-{counter}"
                checked = ' checked=""' if is_current else ""
                out.append(f'<input aria-label="Toggle navigation of {titles[doc]}" class="toctree-checkbox" '
                           f'id="{name}" name="{name}" role="switch" type="checkbox"{checked}/>'
                           f'<label for="{name}"><span class="icon"><svg><use href="#svg-arrow-right">'
                           '</use></svg></span></label><ul>')
                for k in kids:
                    item(k, level + 1)
                out.append("</ul>")
            out.append("</li>")

        for caption, entries in self.groups:
            if caption:
                out.append(f'<p class="caption" role="heading"><span class="caption-text">'
                           f"{html.escape(caption)}</span></p>")
            out.append("<ul>")
            for doc in entries:
                item(doc, 1)
            out.append("</ul>")
        return "".join(out)


def _stub_toctree(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                  doctree: nodes.document | None) -> None:
    """Hide Sphinx's toctree function from furo's per-page navigation (restored by :func:`_navigation`)."""
    if "toctree" in context and app.config.html_theme == "furo":
        context["_rc_toctree"] = context["toctree"]
        context["toctree"] = lambda **kwargs: ""


def _navigation(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                doctree: nodes.document | None) -> None:
    """Give furo the cached navigation tree of this page (``html-page-context``, after furo)."""
    if "_rc_toctree" not in context:
        return
    context["toctree"] = context.pop("_rc_toctree")
    builder = app.builder
    nav: NavigationTree | None = getattr(builder, "_runecodex_navigation", None)
    if nav is None:
        nav = NavigationTree(app.env, app.config.root_doc)
        builder._runecodex_navigation = nav  # type: ignore[attr-defined]
    prefix = "../" * builder.get_target_uri(pagename).count("/")
    context["furo_navigation_tree"] = nav.render(pagename, prefix, builder.get_target_uri)


# ------------------------------------------------------------------------------------------ events

def _collect(app: Sphinx, doctree: nodes.document) -> None:
    """Record the paragraphs and glossary pages this document shows (``doctree-read``)."""
    domain = _domain(app.env)
    docname = app.env.docname
    for node in doctree.findall(nodes.Element):
        pid = node.get("rc_pid")
        if pid:
            domain.note_paragraph(pid, docname, node.get("rc_title", pid), node)
        term = node.get("rc_term")
        if term:
            domain.note_term(term, docname, node.get("rc_title", term))


def _resolve(app: Sphinx, doctree: nodes.document, fromdocname: str) -> None:
    """Replace every link placeholder by a reference, or warn at its location (``doctree-resolved``)."""
    domain = _domain(app.env)
    for node in list(doctree.findall(rc_ref)):
        reftype, target = node["reftype"], node["reftarget"]
        if reftype == "term":
            found = domain.terms.get(target)
            anchor = ""
        else:
            found = domain.paragraphs.get(target)
            anchor = target
        if found is None:
            what = "glossary entry" if reftype == "term" else "rule id"
            logger.warning("unknown %s %r", what, target, location=node, type="runecodex", subtype=reftype)
            node.replace_self(nodes.inline("", "", *node.children, classes=["rc-broken"]))
            continue
        todoc = found[0]
        if todoc == fromdocname and anchor and app.builder.format == "html":
            uri = "#" + anchor
        else:
            try:
                uri = app.builder.get_relative_uri(fromdocname, todoc)
            except NoUri:  # a page this builder does not write (a LaTeX document holding part of the site)
                node.replace_self(nodes.inline("", "", *node.children, classes=node.get("classes", [])))
                continue
            uri = _with_anchor(uri, anchor)
        ref = nodes.reference("", "", *node.children, internal=True, refuri=uri,
                              classes=node.get("classes", []), reftitle=found[1])
        node.replace_self(ref)


def _with_anchor(uri: str, anchor: str) -> str:
    """Return *uri* pointing at *anchor*: one fragment, the anchor's (singlehtml's page URIs carry their own)."""
    return f"{uri.partition('#')[0]}#{anchor}" if anchor else uri


def _plain_nodes(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Turn the site's own block nodes into standard docutils nodes for non-HTML builders (``doctree-resolved``).

    Only the HTML writers know ``<details>``; text, LaTeX, man, Texinfo and any other writer get a
    container holding the summary line in bold, then the folded blocks, so every builder can write it.
    """
    if app.builder.format == "html":
        return
    for det in list(doctree.findall(rc_details)):
        box = nodes.container("", classes=[*det.get("classes", []), "rc-details"])
        for child in det.children:
            if isinstance(child, rc_summary):
                box += nodes.paragraph("", "", nodes.strong(child.astext(), child.astext()), classes=["rc-summary"])
            else:
                box += child.deepcopy()
        det.replace_self(box)


def _write_if_changed(path: Path, content: str) -> bool:
    try:
        if path.read_text(encoding="utf-8") == content:
            return False
    except (FileNotFoundError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(content, encoding="utf-8")
    os.replace(tmp, path)
    return True


def generate_sources(srcdir: Path, pages_dir: Path | None, rules: Path | None, cache: Path,
                     pictures: bool = True) -> dict[str, Any]:
    """Write every generated page (and copies of the hand-written ones) into *srcdir*; return counts.

    Files are rewritten only when their content changes. Files this function wrote in an earlier build
    (listed in the folder's manifest) and no longer needed are removed, and nothing else: a source
    folder that is not empty and carries no manifest of ours is refused
    (:class:`~engine.errors.OutputRefusedError`).
    """
    from engine.corpus import get_corpus
    from engine.files import ownership
    from engine.site.layout import SiteLayout
    from engine.site.pages import PageBuilder, inline_svg
    from engine.views import graph as G

    ownership.check_dir(srcdir, "the generated site sources")
    corpus = get_corpus(rules)
    layout = SiteLayout.from_corpus(corpus)
    rules_registry = G.engine_rules()
    graph = G.build_graph(corpus, rules_registry)
    builder = PageBuilder(corpus, layout, graph, rules_registry)
    svgs: dict[str, str] = {}
    if pictures:
        svgs = {doc: inline_svg(svg) for doc, svg in _cached_svgs(builder.graph_sources(), cache).items()}
    pages = builder.all_pages(svgs)
    wanted: dict[Path, str] = {}
    for docname, spec in pages.items():
        wanted[srcdir / (docname + SUFFIX)] = json.dumps(spec, ensure_ascii=False, sort_keys=True,
                                                         separators=(",", ":"))
    if pages_dir is not None and pages_dir.is_dir():
        for path in sorted(pages_dir.rglob("*")):
            rel = path.relative_to(pages_dir)
            if path.is_file() and not any(part.startswith(("_", ".")) for part in rel.parts):
                wanted[srcdir / rel] = path.read_text(encoding="utf-8")
    srcdir.mkdir(parents=True, exist_ok=True)
    marker = ownership.read_marker(srcdir)
    previous = set(marker["files"]) if marker else set()
    if marker is None and ownership.is_in_build_tree(srcdir):  # a source folder from before manifests
        previous = {str(p.relative_to(srcdir)) for p in srcdir.rglob("*") if p.is_file() or p.is_symlink()}
    listed = {str(path.relative_to(srcdir)) for path in wanted}
    # the manifest lists old and new files before anything is written, so a build killed half-way
    # still knows every file it may have made
    ownership.write_marker(srcdir, MANIFEST_KIND, listed | previous)
    written = sum(_write_if_changed(path, content) for path, content in wanted.items())
    structure = [(doc, spec["title"], spec.get("toctree", [])) for doc, spec in sorted(pages.items())]
    structure += [(str(path), hashlib.sha256(content.encode()).hexdigest(), [])
                  for path, content in sorted(wanted.items()) if path.suffix != SUFFIX]
    signature = hashlib.sha256(json.dumps(structure).encode()).hexdigest()
    removed = 0
    for rel in sorted(previous - listed - {ownership.MARKER}):
        path = srcdir / rel
        if ".." in Path(rel).parts or Path(rel).is_absolute() or not path.is_file() or path.is_symlink():
            continue
        path.unlink()
        removed += 1
        for parent in path.parents:  # folders emptied by the removal
            if parent == srcdir or srcdir not in parent.parents or any(parent.iterdir()):
                break
            parent.rmdir()
    ownership.write_marker(srcdir, MANIFEST_KIND, listed)
    return {"pages": len(wanted), "written": written, "removed": removed, "pictures": len(svgs),
            "signature": signature}


def _cached_svgs(sources: Mapping[str, str], cache: Path) -> dict[str, str]:
    """Return ``{key: svg}``, laying out with Graphviz only the DOT sources not seen before."""
    from engine.files import ownership
    from engine.views.graph import render_svgs

    ownership.claim_dir(cache, "graph-cache", "the graph picture cache", tree=True)
    digest = {key: hashlib.sha256(src.encode()).hexdigest()[:24] for key, src in sources.items()}
    missing = [key for key in sources if not (cache / f"{digest[key]}.svg").is_file()]
    # one dot process per batch: starting dot costs more than laying out one small graph
    for start in range(0, len(missing), 100):
        batch = missing[start:start + 100]
        for key, svg in zip(batch, render_svgs([sources[k] for k in batch]), strict=True):
            _write_if_changed(cache / f"{digest[key]}.svg", svg)
    keep = {f"{d}.svg" for d in digest.values()}
    for old in cache.glob("*.svg"):
        if old.name not in keep:
            old.unlink()
    return {key: (cache / f"{digest[key]}.svg").read_text(encoding="utf-8") for key in sources}


def _refuse(message: str) -> NoReturn:
    """Stop the build with one line saying what was refused and why, and Sphinx's error status (2).

    An exception would reach ``sphinx-build`` as a crash report (versions, traceback, "please report this
    to the Sphinx developers"); a refusal is the user's situation, not a bug: Sphinx's logger prints it as
    one ``ERROR:`` line and the build exits with status 2, before anything is written.
    """
    logger.error("runecodex: %s", message)
    raise SystemExit(2)


def _own_srcdir(app: Sphinx, config: Any) -> None:
    """Move the source folder off the repository root to ``runecodex_srcdir`` (``config-inited``).

    ``sphinx-build -M html . _build`` names the folder of ``conf.py`` as the source folder: the pages
    are then generated into ``runecodex_srcdir`` (``site/_generated``, git-ignored) and Sphinx reads
    only that folder, so no other file of the checkout is read, written or removed.
    """
    if not config.runecodex_generate:
        return
    if Path(app.srcdir).resolve() == Path(app.confdir).resolve():
        from engine.files import ownership

        target = Path(app.confdir) / config.runecodex_srcdir
        try:
            ownership.claim_dir(target, MANIFEST_KIND, "the generated site sources")
        except OutputRefusedError as exc:
            _refuse(exc.message)
        app.srcdir = target


def _generate(app: Sphinx) -> None:
    """Write the generated page sources into the source folder (``builder-inited``)."""
    if not app.config.runecodex_generate:
        return
    confdir = Path(app.confdir)
    pages_dir = (confdir / app.config.runecodex_pages) if app.config.runecodex_pages else None
    if pages_dir is not None and pages_dir.resolve() == Path(app.srcdir).resolve():
        _refuse(f"refusing to generate the site sources into the hand-written pages folder {str(pages_dir)!r}: "
                "its files would be overwritten; give sphinx-build another source folder")
    rules = Path(app.config.runecodex_rules) if app.config.runecodex_rules else None
    try:
        counts = generate_sources(Path(app.srcdir), pages_dir, rules, Path(app.doctreedir) / "runecodex-graphs",
                                  pictures=app.config.runecodex_graph_pictures)
    except OutputRefusedError as exc:
        _refuse(exc.message)
    logger.info("runecodex: %d pages (%d written, %d removed), %d graph pictures",
                counts["pages"], counts["written"], counts["removed"], counts["pictures"])
    # a page added, removed or renamed changes every page's navigation: then re-read everything
    stamp = Path(app.doctreedir) / "runecodex-structure.txt"
    previous = stamp.read_text(encoding="utf-8") if stamp.is_file() else ""
    if previous and previous != counts["signature"]:
        app.builder._runecodex_restructured = True  # type: ignore[attr-defined]
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(str(counts["signature"]), encoding="utf-8")


def _outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
              removed: set[str]) -> list[str]:
    """Return every page when the site's structure changed since the last build (``env-get-outdated``)."""
    if getattr(app.builder, "_runecodex_restructured", False):
        return sorted(env.found_docs - added - changed)
    return []


def _write_ids(app: Sphinx, exception: BaseException | None) -> None:
    """Write ``ids.json`` (paragraph id -> URL below the site root) into the output (``build-finished``)."""
    if exception is not None or app.builder.format != "html":
        return
    domain = _domain(app.env)
    ids = {pid: _with_anchor(_page_uri(app, doc), pid) for pid, (doc, _) in sorted(domain.paragraphs.items())}
    Path(app.outdir, "ids.json").write_text(json.dumps(ids, ensure_ascii=False, indent=0), encoding="utf-8")


def _page_uri(app: Sphinx, docname: str) -> str:
    """Return the URL of *docname*'s page below the site root.

    singlehtml gives every document as a fragment of the one page (``#document-x``): then the URL is
    that page's, so an id's URL carries one fragment, the id's own (``index.html#ra.1.2``).
    """
    uri = app.builder.get_target_uri(docname)
    if uri.startswith("#"):
        return f"{app.config.root_doc}{getattr(app.builder, 'out_suffix', '.html')}"
    return uri


def _epub_leaves_out_doctrees(app: Sphinx) -> list[Any]:
    """Keep Sphinx's doctrees out of the EPUB when they sit in its output folder (``html-collect-pages``).

    ``sphinx-build -b epub . OUT`` puts the doctrees in ``OUT/.doctrees``; the EPUB builder packs every file
    of its output folder and warns once per doctree it cannot pack. They are listed in the public
    ``epub_exclude_files`` setting just before the EPUB is packed; other builders are left alone.
    """
    if app.builder.name != "epub":
        return []
    out, doctrees = Path(app.outdir).resolve(), Path(app.doctreedir).resolve()
    if out in doctrees.parents:
        extra = [str(p.relative_to(out)) for p in sorted(doctrees.rglob("*")) if p.is_file()]
        app.config.epub_exclude_files = [*app.config.epub_exclude_files, *extra]
    return []


def _write_quick_references(app: Sphinx, exception: BaseException | None) -> None:
    """Write each game's quick-reference sheet as ``quickref/<game>.html`` beside the pages (``build-finished``).

    The same responsive page the web app serves at ``/quickref/<game>.html`` (engine.views.quickref renders both),
    so the site read on its own still has the sheets; it prints to the same two pages as the PDF.
    """
    if exception is not None or app.builder.format != "html" or not app.config.runecodex_generate:
        return
    from engine.corpus import get_corpus
    from engine.views.quickref import render_html

    rules = Path(app.config.runecodex_rules) if app.config.runecodex_rules else None
    corpus = get_corpus(rules)
    if not (corpus.root / "quickref.yaml").is_file():
        return  # a corpus without quick-reference topics (a small test corpus) has no sheets
    out = Path(app.outdir, "quickref")
    out.mkdir(exist_ok=True)
    for game in corpus.games:
        if corpus.select(game):
            (out / f"{game}.html").write_text(render_html(game, corpus=corpus), encoding="utf-8")


_BUILD_PID: list[int] = []  # the pid of the build process (set at ``builder-inited``)
_GUARDED_WORKER: list[int] = []  # the pid of this worker once it asked to die with the build


def _remember_build_process(app: Sphinx) -> None:
    """Note the build's own pid, before Sphinx forks any parallel worker (``builder-inited``)."""
    _BUILD_PID[:] = [os.getpid()]


def _worker_dies_with_build(app: Sphinx, *args: Any) -> None:
    """In a forked parallel worker, ask to die with the build (``source-read``, ``html-page-context``).

    Sphinx's parallel workers are forked by the build and read or write one chunk of pages each. The
    first event a worker emits (``source-read`` when reading, ``html-page-context`` when writing)
    asks the kernel to kill it when the build dies (:func:`engine.files.locks.die_with_parent`), and makes
    it exit at once when the build is already gone, so a killed build leaves no orphans working on.
    Only public Sphinx events are used; in the build process itself this does nothing.
    """
    pid = os.getpid()
    if not _BUILD_PID or _BUILD_PID[0] == pid or _GUARDED_WORKER[:1] == [pid]:
        return
    from engine.files.locks import die_with_parent

    die_with_parent(_BUILD_PID[0])
    _GUARDED_WORKER[:] = [pid]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the domain, role, parser, nodes and events of the Runecodex site."""
    app.add_config_value("runecodex_generate", True, "env", bool)
    app.add_config_value("runecodex_rules", "", "env", str)
    app.add_config_value("runecodex_pages", "site", "env", str)
    app.add_config_value("runecodex_graph_pictures", True, "env", bool)
    app.add_config_value("runecodex_srcdir", "site/_generated", "env", str)
    app.add_domain(RunecodexDomain)
    app.add_role("rule", RuleRole())
    app.add_source_suffix(SUFFIX, "rcpage")
    app.add_source_parser(PageSpecParser)
    app.add_node(rc_ref, html=(_visit_ref_fallback, _depart_ref_fallback))
    app.add_node(rc_details, html=(_visit_details, _depart_details))
    app.add_node(rc_summary, html=(_visit_summary, _depart_summary))
    app.connect("config-inited", _own_srcdir, priority=100)
    app.connect("builder-inited", _remember_build_process, priority=0)
    app.connect("source-read", _worker_dies_with_build, priority=0)
    app.connect("html-page-context", _worker_dies_with_build, priority=0)
    app.connect("builder-inited", _generate)
    app.connect("env-get-outdated", _outdated)
    app.connect("doctree-read", _collect)
    app.connect("doctree-resolved", _resolve)
    app.connect("doctree-resolved", _plain_nodes)
    app.connect("build-finished", _write_ids)
    app.connect("html-collect-pages", _epub_leaves_out_doctrees)
    app.connect("build-finished", _write_quick_references)
    app.connect("html-page-context", _stub_toctree, priority=400)
    app.connect("html-page-context", _navigation, priority=600)
    return {"version": "1", "env_version": 1, "parallel_read_safe": True, "parallel_write_safe": True}
