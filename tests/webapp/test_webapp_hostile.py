"""Hostile input is a JSON 400 with its path (or the contract's 413), never a 500, and costs little.

Also: security headers on every page (the built site's too), the limits of ``runecodex serve``,
caches bounded in bytes, and the quick-reference printer answering 503 + Retry-After when busy.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine.errors import UnreadableInputError
from engine.examples import EXAMPLES as EXAMPLE_ROOT
from webapp.app import MAX_BODY, create_app
from webapp.server import CONNECTION_LIMIT, WAITRESS_MAX_BODY, check_options, make_server, warm
from webapp.services import LRU

ROOT = Path(__file__).resolve().parents[2]
BATTLE = json.loads((EXAMPLE_ROOT / "rune-age/battle-city-fails.json").read_text("utf-8"))["position"]
ATTACK = json.loads((EXAMPLE_ROOT / "runewars-miniatures/attack-defense-floor-one.json")
                    .read_text("utf-8"))["position"]


def post_raw(client: FlaskClient, body: bytes) -> tuple[int, dict[str, Any]]:
    resp = client.post("/api/resolve", data=body, content_type="application/json")
    assert resp.mimetype == "application/json", resp.get_data()[:200]
    data = json.loads(resp.get_data().decode("utf-8"))
    return resp.status_code, data


def battle_text() -> str:
    return json.dumps(BATTLE, ensure_ascii=True)


@pytest.mark.parametrize(("body", "path", "fragment"), [
    (battle_text().replace('"Archer"', '"Arch\\ud800"', 1).encode(), "army[0].name", "surrogate"),
    (battle_text().replace('"kind": "city"', '"kind\\udfff": "city"', 1).encode(), "target", "surrogate"),
    (json.dumps({**ATTACK, "attacker": {**ATTACK["attacker"], "brutal": 2.0}}).encode(), "attacker.brutal", ""),
    (battle_text().replace('"strength": 8', '"strength": 8.0', 1).encode(), "target.strength", "integer"),
    (battle_text().replace('"strength": 8', '"strength": 1e308', 1).encode(), "target.strength", "integer"),
    (battle_text().replace('"strength": 8', '"strength": -1e999', 1).encode(), "target.strength", "finite"),
    (battle_text().replace('"strength": 8', '"strength": Infinity', 1).encode(), "target.strength", "finite"),
    (battle_text().replace('"strength": 8', '"strength": ' + "9" * 4301, 1).encode(), "target.strength",
     "too large"),
    (battle_text().replace('"strength": 8', '"strength": ' + "9" * 30, 1).encode(), "target.strength",
     "too large"),
    (battle_text().replace('"strength": 8', '"strength": 9007199254740993', 1).encode(), "target.strength",
     "too large"),
    (json.dumps({**BATTLE, "army": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}).encode(),
     "army" + "[0]" * 31, "nested too deeply"),
    (b"{" * 50_000, "", "not valid json"),
    (b"[" * 100_000 + b"]" * 100_000, "", "nested too deeply"),
])
def test_hostile_values_are_400_with_the_path(client: FlaskClient, body: bytes, path: str, fragment: str) -> None:
    status, data = post_raw(client, body)
    assert status == 400, data
    assert set(data) == {"error", "path"}
    assert data["path"] == path
    assert fragment in data["error"].lower()


def test_no_answer_carries_infinity_or_a_lone_surrogate(client: FlaskClient) -> None:
    for body in (battle_text().replace('"strength": 8', '"strength": 1e308', 1).encode(),
                 battle_text().replace('"Archer"', '"\\ud800"', 1).encode()):
        raw = client.post("/api/resolve", data=body, content_type="application/json").get_data()
        assert b"Infinity" not in raw and b"NaN" not in raw
        raw.decode("utf-8")  # strict UTF-8


def test_a_240_kb_invalid_position_is_refused_quickly(client: FlaskClient) -> None:
    card = {"name": "x" * 100, "strength": "three", "kind": "unit", "faction": "nobody"}
    body = json.dumps({**BATTLE, "army": [card] * 1700}).encode()
    body = body[:body.rindex(b"{", 0, 240 * 1024)].rstrip(b", ") + b"]}"
    assert 230 * 1024 < len(body) <= 240 * 1024
    started = time.process_time()
    for _ in range(5):
        status, data = post_raw(client, body)
        assert status == 400 and data["path"] == "army" and "too many items" in data["error"]
    assert (time.process_time() - started) / 5 < 0.25  # was 7 s of CPU and 0.9 GB before the caps


def test_every_list_of_every_situation_has_a_length_cap() -> None:
    from engine.core import load_situations

    def arrays(schema: Any, where: str) -> Iterator[tuple[str, Any]]:
        if isinstance(schema, dict):
            if schema.get("type") == "array":
                yield where, schema
            for key, value in schema.items():
                yield from arrays(value, f"{where}.{key}")
        elif isinstance(schema, list):
            for i, value in enumerate(schema):
                yield from arrays(value, f"{where}[{i}]")

    for sit in load_situations().values():
        for where, schema in arrays(dict(sit.schema), f"{sit.game}/{sit.name}"):
            assert isinstance(schema.get("maxItems"), int), where


def test_a_body_over_the_limit_is_the_json_413_before_it_is_read(client: FlaskClient) -> None:
    resp = client.post("/api/resolve", data=b"x" * (MAX_BODY + 1), content_type="application/json")
    assert resp.status_code == 413 and resp.get_json() == {
        "error": f"request body too large (at most {MAX_BODY // 1024} KiB)", "path": ""}


@pytest.fixture(scope="module")
def server_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """Serve the app with the production waitress settings on a free loopback port."""
    app = create_app({"SITE_DIR": str(tmp_path_factory.mktemp("no-site"))})
    warm(app)  # as `runecodex serve` does before it listens
    server = make_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server.effective_port
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
    server.close()
    thread.join(timeout=5)


def raw_exchange(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send *raw* bytes, read until the server closes; return status, headers and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(raw)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize("size", [MAX_BODY + 10, 2 * 1024 * 1024])
def test_the_server_answers_413_as_json_whoever_refuses_the_body(server_port: int, size: int) -> None:
    # over waitress's own limit it answers from the headers alone; under it, the app from Content-Length
    payload = b"x" * size if size < WAITRESS_MAX_BODY else b""
    status, headers, body = raw_exchange(server_port, b"POST /api/resolve HTTP/1.1\r\nHost: x\r\n"
                                         b"Connection: close\r\nContent-Type: application/json\r\n"
                                         b"Content-Length: %d\r\n\r\n" % size + payload)
    assert status == 413 and headers["Content-Type"].startswith("application/json")
    assert json.loads(body) == {"error": f"request body too large (at most {MAX_BODY // 1024} KiB)", "path": ""}


def test_the_server_answers_a_malformed_request_as_json(server_port: int) -> None:
    status, headers, body = raw_exchange(server_port, b"GET /api/games HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
    assert status == 400 and headers["Content-Type"] == "application/json"
    assert set(json.loads(body)) == {"error", "path"}
    assert headers["X-Frame-Options"] == "SAMEORIGIN"


def test_idle_connections_do_not_lock_out_a_new_client(server_port: int) -> None:
    idle = [socket.create_connection(("127.0.0.1", server_port), timeout=5) for _ in range(260)]
    try:
        assert CONNECTION_LIMIT > 260
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", server_port, timeout=10)
        try:
            conn.request("GET", "/api/games")
            assert conn.getresponse().status == 200
        finally:
            conn.close()
        assert time.monotonic() - started < 5  # without the limits: blocked until idle ones time out
    finally:
        for s in idle:
            s.close()


@pytest.mark.parametrize(("port", "threads"), [(99999, 4), (-1, 4), (8000, 0), (8000, 1000), (True, 4)])
def test_serve_refuses_a_bad_port_or_thread_count(port: Any, threads: Any) -> None:
    with pytest.raises(UnreadableInputError):
        check_options(port, threads)
    from webapp.server import serve

    with pytest.raises(UnreadableInputError):
        serve(port=port, threads=threads, build=False)


@pytest.fixture
def site_app(tmp_path: Path) -> Flask:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html><title>site</title><script>1</script>", encoding="utf-8")
    return create_app({"TESTING": True, "SITE_DIR": str(site)})


@pytest.mark.parametrize("path", ["/", "/search", "/boards/", "/quickref/", "/site/", "/site/index.html",
                                  "/rules/ra.setup", "/api/games", "/api/resolve", "/nope"])
def test_every_page_forbids_framing_by_other_sites(site_app: Flask, path: str) -> None:
    with site_app.test_client().get(path) as resp:
        headers = resp.headers
    assert headers["X-Frame-Options"] == "SAMEORIGIN"
    csp = headers["Content-Security-Policy"]
    assert "frame-ancestors 'self'" in csp and "default-src 'self'" in csp and "object-src 'none'" in csp
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_the_fast_path_sends_the_security_headers_too(client: FlaskClient) -> None:
    body = json.dumps(BATTLE).encode()
    client.post("/api/resolve", data=body, content_type="application/json")
    resp = client.post("/api/resolve", data=body, content_type="application/json")  # a cache hit
    assert resp.headers["X-Frame-Options"] == "SAMEORIGIN" and "frame-ancestors" in resp.headers[
        "Content-Security-Policy"]


def test_caches_are_bounded_in_bytes_not_entries() -> None:
    cache = LRU(64 * 1024)
    for i in range(200):
        cache.put(("k", i), b"x" * 1000)
    assert cache.bytes <= 64 * 1024 and 40 <= len(cache) < 64
    cache.put("huge", b"x" * 40 * 1024)  # over a quarter of the budget: not kept
    assert cache.peek("huge") is None
    assert cache.peek(("k", 199)) is not None and cache.peek(("k", 0)) is None


def test_the_quick_reference_printer_answers_503_with_retry_after_when_busy(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "SITE_DIR": str(tmp_path), "PDF_QUEUE": 1, "PDF_WAIT_SECONDS": 0.01})
    client = app.test_client()
    from engine.views.quickref import topics

    keys = [t.key for c in topics("rune-age") for t in c.topics]
    try:
        first = client.get(f"/quickref/rune-age.pdf?t={keys[0]}")
        assert first.status_code == 503 and first.is_json and int(first.headers["Retry-After"]) >= 1
        other = client.get(f"/quickref/rune-age.pdf?t={keys[1]}")  # the queue (1) is full
        assert other.status_code == 503 and set(other.get_json()) == {"error", "path"}
        assert other.headers["Retry-After"]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            resp = client.get(f"/quickref/rune-age.pdf?t={keys[0]}")
            if resp.status_code == 200:
                assert resp.data.startswith(b"%PDF")
                break
            assert resp.status_code == 503
            time.sleep(0.5)
        else:
            pytest.fail("the PDF was never rendered")
    finally:
        app.extensions["runecodex-pdf"].shutdown()
