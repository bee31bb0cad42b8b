"""Answer repeated API requests straight from the cache, before Flask's request machinery.

At the table the same few positions and questions come back again and again (a shared link opened
on every phone, as-you-type searches). :class:`FastPath` is WSGI middleware: a ``POST /api/resolve``
whose exact body, or a ``GET /api/search`` whose exact query string, was answered before gets the same
bytes back at once; anything else (a first request, an error, every other path) goes to the Flask
app unchanged, which computes, validates and caches as usual.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from webapp.limits import JSON_HEADERS
from webapp.services import Services

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class FastPath:
    """Serve cache hits of /api/resolve and /api/search without entering Flask."""

    def __init__(self, app: WSGIApp, services: Services, max_body: int) -> None:
        self.app = app
        self.services = services
        self.max_body = max_body

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Answer a cache hit directly; pass everything else to the wrapped app."""
        path = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD", "")
        hit: bytes | None = None
        if path == "/api/resolve" and method == "POST":
            length = environ.get("CONTENT_LENGTH", "")
            if length.isdigit() and 0 < int(length) <= self.max_body and "chunked" not in environ.get(
                    "HTTP_TRANSFER_ENCODING", "").lower():
                body = environ["wsgi.input"].read(int(length))
                hit = self.services.cached("resolve", body)
                if hit is None:
                    environ["wsgi.input"] = io.BytesIO(body)
                    environ["CONTENT_LENGTH"] = str(len(body))
        elif path == "/api/search" and method == "GET":
            hit = self.services.cached("search", environ.get("QUERY_STRING", "").encode("latin-1"))
        if hit is None:
            return self.app(environ, start_response)
        headers = [*JSON_HEADERS, ("Content-Length", str(len(hit)))]
        snap = self.services.versions.peek()
        if snap is not None:
            headers.append(("X-Runecodex-Corpus", snap.short))
        start_response("200 OK", headers)
        return [hit]
