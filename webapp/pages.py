"""Serve the human pages: the search page, a rule page per paragraph and the built Sphinx site."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, current_app, redirect, render_template, send_from_directory
from werkzeug.wrappers import Response as BaseResponse

from webapp.api import services

bp = Blueprint("pages", __name__)


@bp.get("/")
def home() -> str:
    """Show the search page with the game boards."""
    svc = services()
    return render_template("pages/search.html", games=svc.corpus.games, site_built=svc.site().built)


@bp.get("/search")
def search_page() -> str:
    """Show the search page (the same page as ``/``; the query lives in ``?q=``)."""
    return home()


@bp.get("/rules/")
def rules_index() -> BaseResponse:
    """Send the reader to the built site's front page, or to search when it is not built."""
    return redirect("/site/" if services().site().built else "/")


@bp.get("/rules/<path:pid>")
def rule_page(pid: str) -> str:
    """Show one paragraph from the corpus (the fallback when the site is not built)."""
    svc = services()
    data = svc.rule_json(pid.strip().lower())
    corpus = svc.corpus

    def entries(ids: list[str]) -> list[dict[str, str]]:
        return [{"id": i, "title": corpus.paragraphs[i].title, "locator": corpus.locator(i)}
                for i in ids if i in corpus.paragraphs]

    return render_template(
        "pages/rule.html", p=data, game_name=corpus.games.get(data["game"], data["game"]),
        site_url=data["url"] if data["url"].startswith("/site/") else None,
        amended_by=entries(data["amended_by"]), faq=entries(data["faq"]), related=entries(data["related"]),
        amends=entries(data["amends"]), clarifies=entries(data["clarifies"]),
        cited_by=entries(data["cited_by"]), see=entries([data["see"]] if data.get("see") else []))


def _site_dir() -> Path:
    return Path(current_app.config["SITE_DIR"])


@bp.get("/site")
def site_root_redirect() -> BaseResponse:
    """Redirect ``/site`` to ``/site/``."""
    return redirect("/site/", code=308)


@bp.get("/site/")
@bp.get("/site/<path:path>")
def site(path: str = "index.html") -> Response:
    """Serve a file of the built site (``build/site``); 404 with a hint when the site is not built."""
    root = _site_dir()
    if not (root / "index.html").is_file():
        abort(404, description="the site is not built yet (run `runecodex build`); "
                               "rule pages are at /rules/<id>")
    if path.endswith("/") or (root / path).is_dir():
        path = path.rstrip("/") + "/index.html"
    resp = send_from_directory(root, path, max_age=60)
    return resp
