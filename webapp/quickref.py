"""Serve the printable quick references: pick topics per game, download the PDF or preview the page.

Two sizes: the two-page sheet (``size=standard``) and the large-type sheet read across the table
(``size=large``: body 14 pt, one or two topics a page). The PDF is sent as a download (``Content-Disposition:
attachment`` with its file name); the preview is the HTML page.

PDFs are rendered by :class:`webapp.pdf_pool.PdfPool` (a worker process, a bounded queue, 503 with
``Retry-After`` when busy) and cached by corpus version + game + topics + paper + size; the topics, paper
and size are checked in the request first, so a bad selection is a 400 at once.
"""

from __future__ import annotations

import threading
from typing import Any, cast

from flask import Blueprint, Response, abort, current_app, render_template, request

from engine.errors import UnreadableInputError
from webapp.api import services
from webapp.pdf_pool import PdfPool

bp = Blueprint("quickref", __name__, url_prefix="/quickref")

MAX_SPEC = 2000
_POOL_LOCK = threading.Lock()


def pdf_pool() -> PdfPool:
    """Return the app's PDF renderer (created on first use)."""
    pool: PdfPool | None = cast("PdfPool | None", current_app.extensions.get("runecodex-pdf"))
    if pool is not None:
        return pool
    with _POOL_LOCK:
        pool = cast("PdfPool | None", current_app.extensions.get("runecodex-pdf"))
        if pool is not None:
            return pool
        cfg = current_app.config
        pool = current_app.extensions["runecodex-pdf"] = PdfPool(
            cache_bytes=int(cfg.get("PDF_CACHE_BYTES", 32 * 1024 * 1024)),
            queue=int(cfg.get("PDF_QUEUE", 4)), waiters=int(cfg.get("PDF_WAITERS", 1)),
            wait_seconds=float(cfg.get("PDF_WAIT_SECONDS", 30.0)))
    return pool


def _selection() -> tuple[str | None, str]:
    """Return the topic selection (``None`` for the default) and paper of this request."""
    picked = request.args.getlist("t")
    spec = ",".join(picked) if picked else (request.args.get("topics") or None)
    if spec is not None and len(spec) > MAX_SPEC:
        raise UnreadableInputError(f"the topic selection is too long ({len(spec)} characters)", path="topics")
    return spec, request.args.get("paper", "a4")


def _size(qr: Any) -> str:
    """Return the sheet size of this request (``standard`` unless ``?size=large``), checked."""
    size = request.args.get("size", "standard")
    key = size.strip().lower()
    if key not in qr.SIZES:
        raise UnreadableInputError(f"unknown size {size[:40]!r} (one of {', '.join(qr.SIZES)})", path="size")
    return str(key)


def _module() -> Any:
    try:
        from engine.views import quickref
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
    chapters = [c.to_json() for c in qr.topics(game, services().corpus)]
    return render_template("quickref/choose.html", game=game,
                           game_name=services().corpus.games.get(game, game), chapters=chapters,
                           papers=list(qr.PAPERS))


@bp.get("/<game>.pdf")
def pdf(game: str) -> Response:
    """Return the PDF of *game* for ``?t=key&t=key…`` (or ``?topics=spec``), ``?paper=`` and ``?size=``,
    as a download named ``quickref-<game>.pdf`` (``quickref-<game>-large.pdf`` for the large type)."""
    qr = _module()
    spec, paper = _selection()
    size = _size(qr)
    snap = services().snapshot()
    keys = tuple(qr.select_topics(game, spec, snap.corpus))
    paper_key = paper.strip().lower()
    if paper_key not in qr.PAPERS:
        raise UnreadableInputError(f"unknown paper {paper!r} (one of {', '.join(qr.PAPERS)})", path="paper")
    svc = services()
    data = pdf_pool().get((snap.version, game, keys, paper_key, size), svc.versions.rules, snap.version, game,
                          list(keys), paper_key, size)
    resp = Response(data, mimetype="application/pdf")
    name = f"quickref-{game}{'' if size == 'standard' else '-' + size}.pdf"  # game: a known game's key
    resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp


@bp.get("/<game>.html")
def html(game: str) -> Response:
    """Return the sheet of *game* as a standalone page (the same selection rules as the PDF)."""
    qr = _module()
    spec, paper = _selection()
    return Response(qr.render_html(game, spec, paper, corpus=services().corpus, size=_size(qr)),
                    mimetype="text/html")
