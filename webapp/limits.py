"""Refuse oversized request bodies before reading them, with the contract's JSON 413.

Also the one definition of the security headers every response carries and of the 413 message, used
by the Flask app (:mod:`webapp.app`), the fast path (:mod:`webapp.fastpath`) and waitress's own error
answers (:mod:`webapp.server`), which answer without Flask.

:class:`BodyLimit` is the outermost WSGI middleware of the app: a request whose ``Content-Length`` is
over the limit gets ``413 {"error", "path": ""}`` at once, without a byte of its body being read (a
chunked body is counted by Flask's ``MAX_CONTENT_LENGTH`` as it is read, with the same JSON answer).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

MAX_BODY = 256 * 1024  # bytes of a request body the app reads at most

# on every response (the app adds its Content-Security-Policy per page; answers made without Flask carry
# CSP_JSON: JSON needs nothing)
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "SAMEORIGIN"))
CSP_JSON = "default-src 'none'; frame-ancestors 'self'"
JSON_HEADERS = [("Content-Type", "application/json"), *SECURITY_HEADERS, ("Content-Security-Policy", CSP_JSON)]


def json_error(status: int, message: str, path: str = "") -> bytes:
    """Return the contract's error body ``{"error", "path"}`` as bytes."""
    return json.dumps({"error": message, "path": path}).encode()


def too_large_message(limit: int) -> str:
    """Return the message of a 413 for a body limit of *limit* bytes."""
    return f"request body too large (at most {limit // 1024} KiB)"


class BodyLimit:
    """Answer 413 (JSON) to a request declaring a body over *max_body* bytes; pass the rest on."""

    def __init__(self, app: WSGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Refuse an oversized body from its ``Content-Length``; call the wrapped app otherwise."""
        length = environ.get("CONTENT_LENGTH") or ""
        if length.isdigit() and int(length) > self.max_body:
            body = json_error(413, too_large_message(self.max_body))
            start_response("413 Request Entity Too Large", [*JSON_HEADERS, ("Content-Length", str(len(body)))])
            return [body]
        return self.app(environ, start_response)
