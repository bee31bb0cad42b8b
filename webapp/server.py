"""Serve the web app with waitress (``runecodex serve``): listening at once, the rest loaded behind it.

Slow and idle clients cost no worker thread: waitress reads requests (headers and body) in its event
loop and hands a request to a thread only when it is complete, so a body trickled byte by byte or a
connection left open occupies a socket, not a thread. Sockets are bounded (``CONNECTION_LIMIT``, polled
with ``poll()``, not ``select()``, so more than 1024 descriptors work) and an idle one is closed after
``CHANNEL_TIMEOUT`` seconds. A client that keeps sending a byte now and then is never idle, so
:class:`ConnectionGuard` adds deadlines counted from a request's first byte (``HEADER_SECONDS`` for the
headers, ``BODY_SECONDS`` for the whole request) and keeps ``RESERVE`` slots free for new clients by
closing the longest-silent connections that wait for nothing. Waitress's own error answers (a malformed
request, a body over its limit) are JSON like the app's. The search index, the situations, the PDF
worker and a missing site are loaded or built behind a listening server (:mod:`webapp.startup`), and a
background thread then watches ``rules/`` and switches versions as a whole (:mod:`webapp.snapshot`).

SIGTERM and SIGINT stop the server cleanly: the PDF worker and every other ``multiprocessing`` child
are ended before the process exits (the worker also exits by itself when the server is killed).
"""

from __future__ import annotations

import json
import multiprocessing
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask

from engine.errors import RunecodexError, UnreadableInputError
from webapp.app import create_app
from webapp.limits import JSON_HEADERS, MAX_BODY, too_large_message
from webapp.services import site_dir_default

# waitress: one process, a few worker threads (the work is CPU-bound Python under one GIL: more threads
# only add switching); a deep listen backlog and enough connection slots for many idle keep-alive clients
THREADS = 4
MAX_THREADS = 64
CONNECTION_LIMIT = 1000
CHANNEL_TIMEOUT = 15  # seconds an idle (or stalled) connection is kept
HEADER_SECONDS = 10.0  # from a request's first byte until its headers are complete
BODY_SECONDS = 30.0  # from a request's first byte until its body is complete (1 MiB at 35 KB/s)
RESERVE = 100  # connection slots kept free for new clients (the stalest idle connections make room)
SWEEP_SECONDS = 0.25  # how often the deadlines and the reserve are enforced
STOP_SECONDS = 3.0  # how long a stop waits for the PDF worker before ending it
BACKLOG = 1024
# waitress refuses bodies over this itself (answered as JSON by JsonErrorTask); the app's own limit
# (MAX_BODY, 256 KiB) is lower, so every body between the two gets the app's JSON 413 from Content-Length
WAITRESS_MAX_BODY = 1024 * 1024
# hand the GIL over more often than the default 5 ms: short requests then wait less behind long ones
SWITCH_INTERVAL = 0.001


def warm(app: object) -> None:
    """Load the corpus, situations and search index at once (tests and benchmarks that serve the app
    themselves; ``runecodex serve`` does this behind a listening server, see :mod:`webapp.startup`)."""
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


def listeners(server: Any) -> list[Any]:
    """Return the listening sockets (waitress ``BaseWSGIServer``) of what ``create_server`` returned."""
    from waitress.server import BaseWSGIServer

    if isinstance(server, BaseWSGIServer):
        return [server]
    return [obj for obj in getattr(server, "map", {}).values() if isinstance(obj, BaseWSGIServer)]


def make_server(app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = THREADS,
                connection_limit: int = CONNECTION_LIMIT) -> Any:
    """Return a waitress server of *app* with this module's limits (not yet running)."""
    from waitress import create_server

    check_options(port, threads)
    server = create_server(app, host=host, port=port, threads=threads, connection_limit=connection_limit,
                           backlog=BACKLOG, channel_timeout=CHANNEL_TIMEOUT, cleanup_interval=5,
                           max_request_body_size=WAITRESS_MAX_BODY, asyncore_use_poll=True,
                           ident="runecodex", clear_untrusted_proxy_headers=True)
    for listener in listeners(server):
        listener.channel_class = JsonErrorChannel
    return server


class ConnectionGuard:
    """Deadlines for unfinished requests and a reserve of free connection slots, for a waitress server.

    Waitress closes a connection only after ``channel_timeout`` seconds without a byte, so a client
    trickling a byte every few seconds holds its slot for ever, and past ``connection_limit`` such
    clients nobody new is accepted. Every *every* seconds a thread looks at the channels' public
    attributes and marks some ``will_close`` under the channel's ``requests_lock`` (as waitress's own
    task threads do), then wakes the event loop with the public ``pull_trigger()``, which closes them:

    - a request whose headers are not complete *header_seconds* after its first byte was seen, or whose
      body is not complete *body_seconds* after it, is closed;
    - when more than ``limit - reserve`` connections are open, the excess is closed among those that
      wait for nothing (no complete request queued or being answered, no answer being sent), the
      longest silent first: an idle keep-alive or a trickler, never a client being served.

    A first byte is seen at the sweep after it arrives, so a deadline may run up to *every* seconds long.
    """

    def __init__(self, server: Any, limit: int = CONNECTION_LIMIT, reserve: int = RESERVE,
                 header_seconds: float = HEADER_SECONDS, body_seconds: float = BODY_SECONDS,
                 every: float = SWEEP_SECONDS) -> None:
        self.listeners = listeners(server)
        self.keep = max(1, limit - reserve)
        self.header_seconds = header_seconds
        self.body_seconds = body_seconds
        self.every = every
        self.closed = {"deadline": 0, "reserve": 0}
        self._seen: dict[int, tuple[Any, float]] = {}  # id(channel) → (its unfinished request, first seen)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> ConnectionGuard:
        """Start sweeping every *every* seconds in a daemon thread; return self."""
        self._thread = threading.Thread(target=self._run, name="connection-guard", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop sweeping."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            if self.sweep():
                for listener in self.listeners:
                    listener.pull_trigger()  # the event loop closes the marked channels now

    def sweep(self) -> int:
        """Mark the connections past their deadline, then the stalest idle ones beyond the reserve; count them."""
        now = time.monotonic()
        channels = [ch for listener in self.listeners for ch in list(listener.active_channels.values())
                    if not ch.will_close]
        marked = self._deadlines(channels, now)
        channels = [ch for ch in channels if not ch.will_close]
        excess = len(channels) - self.keep
        if excess > 0:
            waiting = sorted((ch for ch in channels if not ch.requests and not ch.total_outbufs_len),
                             key=lambda ch: float(ch.last_activity))
            for ch in waiting[:excess]:
                with ch.requests_lock:
                    if not ch.requests and not ch.total_outbufs_len and not ch.will_close:
                        ch.will_close = True
                        self.closed["reserve"] += 1
                        marked += 1
        return marked

    def _deadlines(self, channels: list[Any], now: float) -> int:
        seen: dict[int, tuple[Any, float]] = {}
        marked = 0
        for ch in channels:
            req = ch.request
            if req is None or req.completed:
                continue
            before = self._seen.get(id(ch))
            since = before[1] if before is not None and before[0] is req else now
            seen[id(ch)] = (req, since)
            if now - since <= (self.body_seconds if req.headers_finished else self.header_seconds):
                continue
            with ch.requests_lock:
                if ch.request is req and not req.completed and not ch.will_close:
                    ch.will_close = True
                    self.closed["deadline"] += 1
                    marked += 1
        self._seen = seen
        return marked


def raise_open_files(needed: int = CONNECTION_LIMIT + BACKLOG) -> int:
    """Raise this process's soft limit of open files to the hard limit when it is under *needed*."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed and (hard == resource.RLIM_INFINITY or soft < hard):
        soft = needed if hard == resource.RLIM_INFINITY else hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return int(soft)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGTERM and SIGINT into ``KeyboardInterrupt`` while serving (the old handlers are put back)."""
    before = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def stop_children(seconds: float = STOP_SECONDS) -> None:
    """End this process's ``multiprocessing`` children: let them finish for *seconds*, then terminate."""
    deadline = time.monotonic() + seconds
    for child in multiprocessing.active_children():
        child.join(timeout=max(0.0, deadline - time.monotonic()))
    for child in multiprocessing.active_children():
        child.terminate()
        child.join(timeout=1)
        if child.is_alive():
            child.kill()


def serve(host: str = "127.0.0.1", port: int = 8000, threads: int = THREADS, build: bool = True) -> int:
    """Run the app under waitress until Ctrl-C or SIGTERM; stop everything it started; return 0."""
    check_options(port, threads)
    raise_open_files()
    sys.setswitchinterval(SWITCH_INTERVAL)
    stops: list[Callable[[], object]] = []  # what to stop, in the order it was started
    with stop_on_signals():
        try:
            _serve(host, port, threads, build, stops)
        except KeyboardInterrupt:
            pass
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):  # a second Ctrl-C does not cut the cleanup short
                signal.signal(sig, signal.SIG_IGN)
            for stop in reversed(stops):
                stop()
            stop_children()
    return 0


def _serve(host: str, port: int, threads: int, build: bool, stops: list[Callable[[], object]]) -> None:
    """Listen at once; the corpus, a quick word search, then the full index and the site come behind
    (:mod:`webapp.startup`), so a fresh clone answers its first search within a few seconds."""
    from webapp.startup import Startup

    site_dir = site_dir_default()
    app = create_app({"SITE_DIR": str(site_dir)})
    stops.append(lambda: _stop_pdf_pool(app))
    server = make_server(app, host=host, port=port, threads=threads)
    stops.append(server.close)
    stops.append(ConnectionGuard(server).start().stop)
    stops.append(Startup(app, site_dir, build_site=build).start().stop)
    shown = f"[{host}]" if ":" in host else host
    print(f"Runecodex is serving on http://{shown}:{server.effective_port}/  (Ctrl-C to stop)", flush=True)
    server.run()


def _stop_pdf_pool(app: Any) -> None:
    pool = app.extensions.get("runecodex-pdf")
    if pool is not None:
        pool.shutdown()
