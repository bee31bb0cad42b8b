"""Serve the web app with waitress (``runecodex serve``), building a missing site and search index first.

Slow and idle clients cost no worker thread: waitress reads requests (headers and body) in its event
loop and hands a request to a thread only when it is complete, so a body trickled byte by byte or a
connection left open occupies a socket, not a thread. Sockets are bounded (``CONNECTION_LIMIT``, polled
with ``poll()``, not ``select()``, so more than 1024 descriptors work) and an idle one is closed after
``CHANNEL_TIMEOUT`` seconds. Waitress's own error answers (a malformed request, a body over its limit)
are JSON like the app's. A background thread watches ``rules/`` and switches versions as a whole
(:mod:`webapp.snapshot`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask

from engine.errors import RunecodexError, UnreadableInputError
from webapp.app import MAX_BODY, create_app
from webapp.limits import JSON_HEADERS, too_large_message
from webapp.services import site_dir_default

# waitress: one process, a few worker threads (the work is CPU-bound Python under one GIL: more threads
# only add switching); a deep listen backlog and enough connection slots for many idle keep-alive clients
THREADS = 4
MAX_THREADS = 64
CONNECTION_LIMIT = 1000
CHANNEL_TIMEOUT = 15  # seconds an idle (or stalled) connection is kept
BACKLOG = 1024
# waitress refuses bodies over this itself (answered as JSON by JsonErrorTask); the app's own limit
# (MAX_BODY, 256 KiB) is lower, so every body between the two gets the app's JSON 413 from Content-Length
WAITRESS_MAX_BODY = 1024 * 1024
# hand the GIL over more often than the default 5 ms: short requests then wait less behind long ones
SWITCH_INTERVAL = 0.001


def prepare(site_dir: Path, out: TextIO = sys.stderr, site: bool = True) -> None:
    """Build the site and the search index when they are missing (never fatal: the app has fallbacks).

    ``site=False`` leaves the site to :func:`webapp.sitebuild.build_in_background` (issue 13)."""
    if site and not (site_dir / "index.html").is_file():
        try:
            from engine.build import build_site
        except ImportError:
            print("serve: the site builder is not available; rule links use /rules/<id>", file=out)
        else:
            print(f"serve: building the site into {site_dir} (first run only)…", file=out, flush=True)
            try:
                report = build_site(site_dir, status=None)
                print(f"serve: {report.summary()}", file=out)
            except RunecodexError as exc:
                print(f"serve: the site was not built ({exc.message}); rule links use /rules/<id>", file=out)
    try:
        from engine.search.index import ensure_index
    except ImportError:
        return
    try:
        ensure_index()
    except RunecodexError as exc:
        print(f"serve: the search index was not built ({exc.message})", file=out)


def warm(app: object) -> None:
    """Load the corpus, situations and search index once before the first request."""
    from webapp.services import Services

    svc: Services = app.extensions["runecodex"]  # type: ignore[attr-defined]
    svc.situations()
    try:
        svc.versions.poll(blocking=True)
        _ = svc.corpus
    except RunecodexError as exc:
        print(f"serve: the rules are not loaded yet ({exc.message}); retrying in the background",
              file=sys.stderr)
        return
    svc.site()
    try:
        svc.search_json("battle", None, 10)
    except RunecodexError as exc:
        print(f"serve: search is not ready ({exc.message})", file=sys.stderr)


class JsonErrorTask(ErrorTask):  # type: ignore[misc]  # waitress is untyped
    """Waitress's error answer (400, 413, 431…) as the contract's JSON instead of plain text."""

    def execute(self) -> None:
        """Write ``{"error", "path"}`` with the error's status and close the connection."""
        error = self.request.error
        status = f"{error.code} {error.reason}"
        message = (too_large_message(MAX_BODY) if error.code == 413
                   else f"{str(error.reason).lower()}: {str(error.body).strip().rstrip('.')}")
        body = json.dumps({"error": message, "path": ""}).encode()
        self.status = status
        self.response_headers.extend(JSON_HEADERS)
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class JsonErrorChannel(HTTPChannel):  # type: ignore[misc]  # waitress is untyped
    """An HTTP channel whose protocol errors are answered by :class:`JsonErrorTask`."""

    error_task_class = JsonErrorTask


def check_options(port: int, threads: int) -> None:
    """Refuse a port outside 0–65535 or a thread count outside 1–MAX_THREADS (``ValueError`` subclass)."""
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise UnreadableInputError(f"the port must be a whole number from 0 to 65535, got {port!r}", path="port")
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise UnreadableInputError(
            f"the thread count must be a whole number from 1 to {MAX_THREADS}, got {threads!r}", path="threads")


def make_server(app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = THREADS) -> Any:
    """Return a waitress server of *app* with this module's limits (not yet running)."""
    from waitress import create_server

    check_options(port, threads)
    server = create_server(app, host=host, port=port, threads=threads, connection_limit=CONNECTION_LIMIT,
                           backlog=BACKLOG, channel_timeout=CHANNEL_TIMEOUT, cleanup_interval=5,
                           max_request_body_size=WAITRESS_MAX_BODY, asyncore_use_poll=True,
                           ident="runecodex", clear_untrusted_proxy_headers=True)
    from waitress.server import BaseWSGIServer

    listeners = [server] if isinstance(server, BaseWSGIServer) else [
        obj for obj in getattr(server, "map", {}).values() if isinstance(obj, BaseWSGIServer)]
    for listener in listeners:
        listener.channel_class = JsonErrorChannel
    return server


def serve(host: str = "127.0.0.1", port: int = 8000, threads: int = THREADS, build: bool = True) -> int:
    """Run the app under waitress until interrupted; return the exit status."""
    check_options(port, threads)
    sys.setswitchinterval(SWITCH_INTERVAL)
    site_dir = site_dir_default()
    if build:
        prepare(site_dir, site=False)  # the search index now; the site below, in the background
    app = create_app({"SITE_DIR": str(site_dir)})
    warm(app)
    server = make_server(app, host=host, port=port, threads=threads)
    svc = app.extensions["runecodex"]
    svc.versions.start()
    with app.app_context():
        from webapp.quickref import pdf_pool

        pdf_pool().warm()
    shown = f"[{host}]" if ":" in host else host
    print(f"Runecodex is serving on http://{shown}:{server.effective_port}/  (Ctrl-C to stop)", flush=True)
    if build:  # issue 13: a first start answers at once; the rulebook site appears when built
        from webapp.sitebuild import build_in_background
        build_in_background(site_dir)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        svc.versions.stop()
        pool = app.extensions.get("runecodex-pdf")
        if pool is not None:
            pool.shutdown()
    return 0
