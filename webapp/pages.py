"""Serve the human pages: the search page, a rule page per paragraph and the built Sphinx site."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from engine.site.build import site_version
from engine.views import paragraph
from webapp.api import services

bp = Blueprint("pages", __name__)


PAGE_SIZE = 20


@bp.get("/")
def home() -> str:
    """Show the search page with the game boards."""
    return search_page()


@bp.get("/search")
def search_page() -> str:
    """Show the search page; with ``?q=`` the results are rendered here, so it works without JavaScript.

    ``game``, ``page`` (20 hits a page, "Next page" links) and ``detect=0`` (the removable chip of a
    game named in the question) are the API's parameters; search.js then updates the page as you type.
    """
    from webapp.api import search_args

    svc = services()
    query, game, limit, offset, detect = search_args(PAGE_SIZE)
    answer = svc.search(query, game, limit, offset, detect) if query.strip() else None

    def page_url(**changes: object) -> str:
        params: dict[str, Any] = {"q": query, "game": game or "", "offset": None,
                                  "detect": None if detect else "0", **changes}
        return url_for("pages.search_page", **{k: v for k, v in params.items() if v not in (None, "")})

    return render_template("pages/search.html", games=svc.corpus.games, site_built=svc.site().current,
                           query=query, game=game or "", answer=answer, detect=detect, page_size=limit,
                           page_url=page_url, snippet=Markup)


@bp.get("/rules/")
def rules_index() -> BaseResponse | str:
    """Send the reader to the built site's front page once it shows the served version; until then, list
    the rulebooks here."""
    svc = services()
    if svc.site().current:
        return redirect("/site/")
    corpus = svc.corpus
    books: dict[str, list[dict[str, str]]] = {}
    for pid, para in corpus.paragraphs.items():
        if pid.count(".") == 1:
            books.setdefault(para.source.doc, []).append({"id": pid, "title": para.title})
    docs = [{"key": k, "title": _doc_title(k), "entries": v} for k, v in books.items()]
    return render_template("pages/rules_index.html", docs=docs)


def _doc_title(key: str) -> str:
    doc = services().corpus.documents.get(key)
    return str(getattr(doc, "title", None) or key)


@bp.get("/rules/<path:pid>")
def rule_page(pid: str) -> str:
    """Show one paragraph as composed by :mod:`engine.views.paragraph` (the site's paragraph sections and
    ``runecodex rule`` show the same composition): its text with glossary terms linked, the FAQ answers and
    errata about it with their text, sub-rules, what it amends or clarifies, what uses it and the engine code
    citing it. The page is the same whether or not the site is built; a site of the served version is linked."""
    svc = services()
    data = svc.rule_json(pid.strip().lower())
    corpus = svc.corpus
    view = paragraph.compose(corpus, data["id"], data["implemented_by"])

    def html_of(blocks: list[paragraph.Block]) -> Markup:
        return Markup(paragraph.to_html(blocks, lambda i: f"/rules/{i}"))

    return render_template(
        "pages/rule.html", p=data, view=view, game_name=corpus.games.get(data["game"], data["game"]),
        site_url=data["url"] if data["url"].startswith("/site/") else None,
        meta_html=html_of([view.meta]), body_html=html_of(list(view.body)),
        about_html=html_of([view.about]) if view.about else None,
        links_html=html_of([view.links]) if view.links else None)


def _site_dir() -> Path:
    return Path(current_app.config["SITE_DIR"])


@bp.get("/site")
def site_root_redirect() -> BaseResponse:
    """Redirect ``/site`` to ``/site/``."""
    return redirect("/site/", code=308)


@bp.get("/site/")
@bp.get("/site/<path:path>")
def site(path: str = "index.html") -> Response:
    """Serve a file of the built site (``build/site``); 404 with a hint when the site is not built.

    Hidden names (a part starting with ``.``: the ownership marker ``.runecodex-owned.json``, Sphinx's
    ``.buildinfo``) are never served.
    """
    if any(part.startswith(".") for part in path.replace("\\", "/").split("/")):
        abort(404)
    root = _site_dir()
    if not (root / "index.html").is_file():
        # while `runecodex serve` builds it in the background: its progress, refreshed every 3 s
        from webapp.sitebuild import progress

        state = progress().to_json()
        wants_html = request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"
        if not wants_html:
            abort(404, description="the site is not built yet (run `runecodex build`); "
                                   "rule pages are at /rules/<id>")
        page = render_template("pages/building.html", progress=state, path=path)
        resp = Response(page, status=404, mimetype="text/html")
        if state["state"] == "building":
            resp.headers["Refresh"] = "3"
        return resp
    if path.endswith("/") or (root / path).is_dir():
        path = path.rstrip("/") + "/index.html"
    resp = send_from_directory(root, path, max_age=60)
    # the site's pages are of the version it was built from, whatever the app serves now: say which
    published = site_version(root)
    resp.headers["X-Runecodex-Corpus"] = published.short if published is not None else "unknown"
    return resp
