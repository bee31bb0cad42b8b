"""Serve the printable quick references: pick topics per game, download the PDF or preview the page."""

from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, Response, abort, render_template, request

from engine.errors import UnreadableInputError
from webapp.api import services
from webapp.services import LRU

bp = Blueprint("quickref", __name__, url_prefix="/quickref")

MAX_SPEC = 2000
_PDFS = LRU(16)
_RENDER_LOCK = threading.Lock()  # one PDF at a time: WeasyPrint is CPU-heavy and the server small


def _selection() -> tuple[str | None, str]:
    """Return the topic selection (``None`` for the default) and paper of this request."""
    picked = request.args.getlist("t")
    spec = ",".join(picked) if picked else (request.args.get("topics") or None)
    if spec is not None and len(spec) > MAX_SPEC:
        raise UnreadableInputError(f"the topic selection is too long ({len(spec)} characters)", path="topics")
    return spec, request.args.get("paper", "a4")


def _module() -> Any:
    try:
        from engine import quickref
    except ImportError:
        abort(404, description="quick references are not available in this build")
    return quickref


@bp.get("/")
def index() -> str:
    """List the games whose quick reference can be printed."""
    return render_template("quickref/index.html", games=services().corpus.games)


@bp.get("/<game>")
def choose(game: str) -> str:
    """Show the topic checkboxes of *game* (the default selection ticked) and the paper sizes."""
    qr = _module()
    chapters = [c.to_json() for c in qr.topics(game)]
    return render_template("quickref/choose.html", game=game,
                           game_name=services().corpus.games.get(game, game), chapters=chapters,
                           papers=list(qr.PAPERS))


@bp.get("/<game>.pdf")
def pdf(game: str) -> Response:
    """Return the PDF of *game* for ``?t=key&t=key…`` (or ``?topics=spec``) and ``?paper=``."""
    qr = _module()
    spec, paper = _selection()
    keys = tuple(qr.select_topics(game, spec))
    key = (game, keys, paper.strip().lower())

    def make() -> bytes:
        with _RENDER_LOCK:
            data: bytes = qr.render_pdf(game, list(keys), paper)
            return data

    data = _PDFS.get_or_make(key, make)
    resp = Response(data, mimetype="application/pdf")
    resp.headers["Content-Disposition"] = f'inline; filename="quickref-{game}.pdf"'
    return resp


@bp.get("/<game>.html")
def html(game: str) -> Response:
    """Return the sheet of *game* as a standalone page (the same selection rules as the PDF)."""
    qr = _module()
    spec, paper = _selection()
    return Response(qr.render_html(game, spec, paper), mimetype="text/html")
