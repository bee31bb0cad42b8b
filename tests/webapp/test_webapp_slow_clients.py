"""Clients that trickle a byte now and then neither hold a slot for ever nor lock out new ones (issue 22, item 6).

The server is the production one (``make_server`` + :class:`webapp.server.ConnectionGuard`, as
``runecodex serve`` runs it) with a small connection limit, so that a few dozen sockets fill it.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest
from flask import Flask

from webapp.app import create_app
from webapp.server import ConnectionGuard, make_server, warm

HOST = "127.0.0.1"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    app = create_app({"SITE_DIR": str(tmp_path_factory.mktemp("no-site"))})
    warm(app)
    return app


Serve = Callable[..., AbstractContextManager[int]]


@pytest.fixture
def serve(app: Flask) -> Serve:
    """Return a context manager serving *app* with a guard of the given settings; it yields the port."""

    @contextmanager
    def running(limit: int, **guard: Any) -> Iterator[int]:
        server = make_server(app, host=HOST, port=0, threads=2, connection_limit=limit)
        watch = ConnectionGuard(server, limit=limit, every=0.1, **guard).start()
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            yield int(server.effective_port)
        finally:
            watch.stop()
            server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
            server.close()
            thread.join(timeout=5)

    return running


class Tricklers:
    """*count* sockets, each sending the next byte of *data* every *every* seconds (from one thread)."""

    def __init__(self, port: int, count: int, data: bytes, every: float = 1.0, head: bytes = b"") -> None:
        self.socks = [socket.create_connection((HOST, port), timeout=5) for _ in range(count)]
        for s in self.socks:
            s.sendall(head)
        self.data, self.every = data, every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        sent = 0
        while not self.stop.wait(self.every) and sent < len(self.data):
            for s in self.socks:
                with contextlib.suppress(OSError):  # closed by the server
                    s.send(self.data[sent:sent + 1])
            sent += 1

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        for s in self.socks:
            s.close()


def seconds_until_closed(s: socket.socket, limit: float) -> float:
    """Return how long the server took to close *s* (``limit`` + 1 when it did not within *limit*)."""
    started = time.monotonic()
    s.settimeout(limit)
    try:
        while s.recv(4096):
            pass
    except TimeoutError:
        return limit + 1
    except OSError:
        pass
    return time.monotonic() - started


def test_trickling_clients_past_the_limit_do_not_lock_out_a_new_client(serve: Serve) -> None:
    with serve(40, reserve=8) as port:
        slow = Tricklers(port, 50, b"GET /api/search?q=" + b"a" * 100, every=1.0)
        try:
            time.sleep(1.5)  # the server is full: without the guard nobody new is accepted for ever
            for _ in range(5):
                started = time.monotonic()
                conn = http.client.HTTPConnection(HOST, port, timeout=5)
                try:
                    conn.request("GET", "/api/games")
                    assert conn.getresponse().status == 200
                finally:
                    conn.close()
                assert time.monotonic() - started < 2
        finally:
            slow.close()


def test_a_request_still_incomplete_at_its_deadline_is_closed(serve: Serve) -> None:
    with serve(40, header_seconds=1.0, body_seconds=2.5) as port:
        headers = Tricklers(port, 1, b"GET /api/games HTTP/1.1\r\nHost: x\r\n", every=0.3)
        body = Tricklers(port, 1, b" " * 100, every=0.3, head=b"POST /api/resolve HTTP/1.1\r\nHost: x\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n")
        try:
            started = time.monotonic()
            assert seconds_until_closed(headers.socks[0], 4) < 2  # 1 s for the headers (+ a sweep)
            assert 2 < time.monotonic() - started + seconds_until_closed(body.socks[0], 4) < 4  # 2.5 s
        finally:
            headers.close()
            body.close()


def test_a_slow_but_steady_client_within_its_deadlines_is_answered(serve: Serve) -> None:
    with serve(40, header_seconds=2.0, body_seconds=4.0) as port, socket.create_connection((HOST, port)) as s:
        s.settimeout(10)
        for part in (b"GET /api/ga", b"mes HTTP/1.1\r\nHo", b"st: x\r\nConnection: close\r\n\r\n"):
            s.sendall(part)
            time.sleep(0.5)
        assert s.recv(4096).startswith(b"HTTP/1.1 200")
