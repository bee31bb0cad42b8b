"""Create the Runecodex web app: search, rule pages, the built site, the board pages and the JSON API.

Every response carries the security headers (a Content-Security-Policy with ``frame-ancestors`` and
``X-Frame-Options`` on every page, the built site's pages included) and ``X-Runecodex-Corpus``, the
digest of the corpus version that answered (for ``/site/`` files, the version the site was built
from). Errors are JSON for the API (``{"error", "path"}``): 400 bad input, 404, 405, 413 (checked
from ``Content-Length`` before a byte of the body is read), 503 with ``Retry-After`` when a version
or the quick-reference renderer is not ready.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from engine.errors import CorpusError, RunecodexError, UnknownParagraphError, UnreadableInputError
from webapp.limits import MAX_BODY, SECURITY_HEADERS, too_large_message
from webapp.services import CACHE_BYTES, ServiceBusyError, Services
from webapp.snapshot import VersionUnavailableError

__all__ = ["MAX_BODY", "create_app"]

# The app's own pages: nothing inline, nothing external.
CSP_APP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
           "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'")
# The built Sphinx site (its theme sets the colour scheme with a small inline script and inline styles)
# and the standalone quick-reference sheet (inline print CSS): still nothing external, no framing.
CSP_STANDALONE = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                  "script-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; form-action 'self'; "
                  "frame-ancestors 'self'")

log = logging.getLogger("webapp")


def _default_site_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "build" / "site"


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Return a configured Flask app (the application factory); *test_config* overrides settings."""
    app = Flask(__name__)
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=MAX_BODY,
        SITE_DIR=str(_default_site_dir()),
        INDEX_DIR=None,
        RULES_DIR=None,
        CACHE_BYTES=CACHE_BYTES,
        PDF_CACHE_BYTES=32 * 1024 * 1024,
        BSDATA_DIR=os.environ.get("RUNECODEX_BSDATA") or None,
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.from_mapping(test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.extensions["runecodex"] = services = Services(
        site_dir=Path(app.config["SITE_DIR"]),
        index_dir=Path(app.config["INDEX_DIR"]) if app.config["INDEX_DIR"] else None,
        cache_bytes=int(app.config["CACHE_BYTES"]),
        rules_dir=Path(app.config["RULES_DIR"]) if app.config["RULES_DIR"] else None,
    )

    from webapp.api import bp as api_bp
    from webapp.boards import bp as boards_bp
    from webapp.offline import bp as offline_bp
    from webapp.pages import bp as pages_bp
    from webapp.quickref import bp as quickref_bp
    from webapp.roster_api import bp as roster_bp

    app.register_blueprint(api_bp)
    app.register_blueprint(boards_bp)
    app.register_blueprint(offline_bp)
    app.register_blueprint(pages_bp)
    app.register_blueprint(quickref_bp)
    app.register_blueprint(roster_bp)
    _register_errors(app)
    if app.config.get("FAST_PATH", True):
        from webapp.fastpath import FastPath

        app.wsgi_app = FastPath(app.wsgi_app, services, MAX_BODY)  # type: ignore[method-assign]
    from webapp.limits import BodyLimit

    app.wsgi_app = BodyLimit(app.wsgi_app, MAX_BODY)  # type: ignore[method-assign]

    @app.after_request
    def _security_headers(resp: Response) -> Response:
        for name, value in SECURITY_HEADERS:
            resp.headers.setdefault(name, value)
        standalone = request.path.startswith("/site/") or (
            request.path.startswith("/quickref/") and request.path.endswith(".html"))
        resp.headers.setdefault("Content-Security-Policy", CSP_STANDALONE if standalone else CSP_APP)
        snap = services.versions.peek()
        if snap is not None:
            resp.headers.setdefault("X-Runecodex-Corpus", snap.short)
        if services.versions.pending:
            resp.headers.setdefault("X-Runecodex-Rebuild", "pending")
        return resp

    return app


def _wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def _error(message: str, path: str, status: int,
           did_you_mean: list[dict[str, str]] | None = None) -> tuple[Response, int] | tuple[str, int]:
    if _wants_json():
        body: dict[str, Any] = {"error": message, "path": path}
        if did_you_mean is not None:
            body["did_you_mean"] = [d["id"] for d in did_you_mean]
        return jsonify(body), status
    return render_template("pages/error.html", message=message, status=status,
                           did_you_mean=did_you_mean or []), status


def _register_errors(app: Flask) -> None:
    @app.errorhandler(UnreadableInputError)
    def _unreadable(exc: UnreadableInputError) -> Any:
        return _error(exc.message, exc.path, 400)

    @app.errorhandler(UnknownParagraphError)
    def _unknown(exc: UnknownParagraphError) -> Any:
        # a mistyped id or a printed locator ("rr-41.1"): the closest paragraphs, as links on the page
        wrong = str((request.view_args or {}).get("pid", ""))
        svc: Services = app.extensions["runecodex"]
        corpus = svc.corpus
        near = [{"id": pid, "title": corpus.paragraphs[pid].title, "locator": corpus.locator(pid)}
                for pid in svc.did_you_mean(wrong)]
        return _error(exc.message, exc.path, 404, near)

    @app.errorhandler(CorpusError)
    def _corpus(exc: CorpusError) -> Any:
        log.error("corpus does not validate: %s", exc.message)
        return _error("the rules corpus does not validate right now; try again shortly", "rules", 503)

    @app.errorhandler(VersionUnavailableError)
    def _no_version(exc: VersionUnavailableError) -> Any:
        resp = app.make_response(_error(exc.message, exc.path, 503))
        resp.headers["Retry-After"] = "5"
        return resp

    @app.errorhandler(ServiceBusyError)
    def _busy(exc: ServiceBusyError) -> Any:
        resp = app.make_response((jsonify({"error": exc.message, "path": exc.path}), 503))
        resp.headers["Retry-After"] = str(exc.retry_after)
        return resp

    @app.errorhandler(RunecodexError)
    def _other(exc: RunecodexError) -> Any:
        return _error(exc.message, exc.path, 400)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        status = exc.code or 500
        custom = exc.description if exc.description != type(exc).description else None
        text = {404: "not found", 405: "method not allowed",
                413: too_large_message(MAX_BODY)}.get(status)
        message = custom or text or (exc.description or exc.name).strip().rstrip(".")
        message = message[:1].lower() + message[1:]
        result = _error(message, "", status)
        if status == 405 and exc.get_response().headers.get("Allow"):
            resp = app.make_response(result)
            resp.headers["Allow"] = exc.get_response().headers["Allow"]
            return resp
        return result

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Any:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return _error("internal error: the ruling could not be computed; the error was logged", "", 500)
