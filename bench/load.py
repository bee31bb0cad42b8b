"""Load-test ``runecodex serve``: 32 keep-alive clients drive /api/resolve and /api/search for 30 s.

Loopback only: the target must resolve to 127.0.0.0/8 or ::1 (anything else is refused). Bounded:
at most 120 s and 256 clients. Without ``--url`` the script starts ``runecodex serve`` itself on a
free loopback port, waits for it, and stops it (by its process id) at the end.

The workload alternates between resolving every position of ``engine/examples`` (and
``../shared/examples`` when present) and searching every question of ``bench/search-queries.json``
(and ``../shared/search-queries.json``), each client starting at a different offset. A short baseline
phase first requests a static file with the same clients, so the report gives the app's latency as a
ratio of the bare server's. ``--fresh`` gives every resolve a position no cache has seen (an extra
top-level field the engine ignores), measuring the engine rather than the caches. Reported:
requests/s, p50/p95/p99 latency, errors (non-2xx status or a broken connection), per endpoint and
in total.

    .venv/bin/python bench/load.py [--url http://127.0.0.1:8000] [--clients 32] [--seconds 30]
        [--baseline-seconds 5] [--threads 4] [--fresh] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MAX_SECONDS = 120.0
MAX_CLIENTS = 256


@dataclass(frozen=True)
class Request:
    """One HTTP request of the workload, pre-encoded (a resolve keeps its position for --fresh)."""

    kind: str
    raw: bytes
    host: str = ""
    position: Any = None

    def fresh(self, n: int) -> bytes:
        """Return this request with a position no cache has seen (an extra top-level field, ignored)."""
        if self.position is None:
            return self.raw
        return Request.post_json(self.kind, self.host, "/api/resolve", {**self.position, "load_n": n}).raw

    @classmethod
    def get(cls, kind: str, host: str, path: str) -> Request:
        """Return a keep-alive GET."""
        return cls(kind, f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: application/json\r\n\r\n".encode())

    @classmethod
    def post_json(cls, kind: str, host: str, path: str, body: Any) -> Request:
        """Return a keep-alive POST of a JSON body."""
        data = json.dumps(body).encode()
        head = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\n\r\n").encode()
        return cls(kind, head + data, host, body)


@dataclass
class Stats:
    """Latencies (seconds) and errors per request kind."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    first_errors: list[str] = field(default_factory=list)

    def add(self, kind: str, seconds: float, ok: bool, detail: str = "") -> None:
        """Record one answered (or failed) request."""
        self.latencies.setdefault(kind, []).append(seconds)
        if not ok:
            self.errors[kind] = self.errors.get(kind, 0) + 1
            if len(self.first_errors) < 5:
                self.first_errors.append(f"{kind}: {detail}")

    def summary(self, seconds: float) -> dict[str, Any]:
        """Return counts, rate and percentiles (ms) per kind and in total."""
        out: dict[str, Any] = {}
        everything: list[float] = []
        for kind, values in sorted(self.latencies.items()):
            everything += values
            out[kind] = _describe(values, seconds, self.errors.get(kind, 0))
        out["total"] = _describe(everything, seconds, sum(self.errors.values()))
        return out


def _describe(values: Sequence[float], seconds: float, errors: int) -> dict[str, Any]:
    if not values:
        return {"requests": 0, "rps": 0.0, "errors": errors}
    ordered = sorted(values)

    def pct(p: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)

    return {"requests": len(values), "rps": round(len(values) / seconds, 1), "errors": errors,
            "p50_ms": round(1000 * statistics.median(ordered), 2), "p95_ms": pct(0.95), "p99_ms": pct(0.99),
            "max_ms": round(1000 * ordered[-1], 2)}


def require_loopback(url: str) -> tuple[str, int]:
    """Return (host, port) of *url*, or exit when it is not an http URL on a loopback address."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        sys.exit(f"load: only http://<loopback>:<port> URLs are allowed, got {url!r}")
    port = parts.port or 80
    try:
        infos = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except socket.gaierror as exc:
        sys.exit(f"load: cannot resolve {parts.hostname!r}: {exc}")
    for info in infos:
        if not ipaddress.ip_address(info[4][0]).is_loopback:
            sys.exit(f"load: refusing {parts.hostname!r}: {info[4][0]} is not a loopback address")
    return parts.hostname, port


def workload(host: str) -> list[Request]:
    """Return the requests the clients cycle through: resolve and search, interleaved."""
    positions: list[Any] = []
    for folder in (ROOT / "engine" / "examples", ROOT.parent / "shared" / "examples"):
        for path in sorted(folder.glob("*/*.json")):
            positions.append(json.loads(path.read_text(encoding="utf-8"))["position"])
    queries: list[dict[str, Any]] = []
    for path in (ROOT / "bench" / "search-queries.json", ROOT.parent / "shared" / "search-queries.json"):
        if path.is_file():
            queries += json.loads(path.read_text(encoding="utf-8"))
    if not positions or not queries:
        sys.exit("load: no positions (engine/examples) or no search questions (bench/search-queries.json)")
    resolves = [Request.post_json("resolve", host, "/api/resolve", p) for p in positions]
    searches = []
    for q in queries:
        params = {"q": q["query"], "limit": "10", **({"game": q["game"]} if q.get("game") else {})}
        searches.append(Request.get("search", host, "/api/search?" + urllib.parse.urlencode(params)))
    out: list[Request] = []
    for i in range(max(len(resolves), len(searches))):
        out += [resolves[i % len(resolves)], searches[i % len(searches)]]
    return out


async def _read_response(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length = 0
    chunked = False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.lower() == "content-length":
            length = int(value.strip())
        elif name.lower() == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
    if chunked:
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip(), 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    elif length:
        await reader.readexactly(length)
    return status


async def _client(n: int, host: str, port: int, requests: Sequence[Request], stop_at: float,
                  stats: Stats, fresh: bool = False) -> None:
    i = (n * 7) % len(requests)
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while time.perf_counter() < stop_at:
            req = requests[i % len(requests)]
            i += 1
            raw = req.fresh(n * 10_000_000 + i) if fresh else req.raw
            started = time.perf_counter()
            try:
                writer.write(raw)
                status = await _read_response(reader)
            except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                stats.add(req.kind, time.perf_counter() - started, False, repr(exc))
                writer.close()
                reader, writer = await asyncio.open_connection(host, port)
                continue
            stats.add(req.kind, time.perf_counter() - started, 200 <= status < 300, f"status {status}")
    finally:
        writer.close()


async def run_phase(host: str, port: int, requests: Sequence[Request], clients: int,
                    seconds: float, fresh: bool = False) -> tuple[Stats, float]:
    """Run *clients* keep-alive clients over *requests* for *seconds*; return stats and elapsed time."""
    stats = Stats()
    started = time.perf_counter()
    stop_at = started + seconds
    await asyncio.gather(*(_client(n, host, port, requests, stop_at, stats, fresh) for n in range(clients)))
    return stats, time.perf_counter() - started


async def warm_up(host: str, port: int, requests: Sequence[Request]) -> int:
    """Send every request once on one connection (the server's caches fill as at a real table)."""
    reader, writer = await asyncio.open_connection(host, port)
    errors = 0
    try:
        for req in requests:
            writer.write(req.raw)
            status = await _read_response(reader)
            errors += not 200 <= status < 300
    finally:
        writer.close()
    return errors


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


SERVER_LOG: list[str] = []


def _drain(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        if len(SERVER_LOG) < 1000:
            SERVER_LOG.append(line.rstrip())


def start_server(threads: int) -> tuple[subprocess.Popen[str], str]:
    """Start ``runecodex serve`` on a free loopback port; return the process and its URL once it listens."""
    exe = ROOT / ".venv" / "bin" / "runecodex"
    cmd = [str(exe) if exe.exists() else "runecodex", "serve", "--host", "127.0.0.1",
           "--port", str(_free_port()), "--threads", str(threads), "--no-build"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    assert proc.stdout is not None
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"load: the server stopped before listening (exit {proc.wait()})")
        print(f"  server: {line.rstrip()}", file=sys.stderr)
        if "serving on " in line:
            # keep reading its output, or a full pipe would block the server
            threading.Thread(target=_drain, args=(proc,), daemon=True).start()
            return proc, line.split("serving on ", 1)[1].split()[0].rstrip("/")
    proc.send_signal(signal.SIGINT)
    sys.exit("load: the server did not start within 600 s")


def _print(label: str, summary: dict[str, Any]) -> None:
    print(f"{label}")
    for kind, s in summary.items():
        if not s["requests"]:
            continue
        print(f"  {kind:<8} {s['requests']:>7} req  {s['rps']:>7.1f} req/s  p50 {s['p50_ms']:>6.2f} ms  "
              f"p95 {s['p95_ms']:>6.2f} ms  p99 {s['p99_ms']:>6.2f} ms  max {s['max_ms']:>7.2f} ms  "
              f"errors {s['errors']}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load test and print (and optionally write) the report; exit 1 on any error."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (loopback only); default: start one")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--baseline-seconds", type=float, default=5.0)
    parser.add_argument("--threads", type=int, default=4, help="waitress threads of a server started here")
    parser.add_argument("--fresh", action="store_true", help="make every resolve a position no cache has "
                        "seen (measures the engine, not the cache)")
    parser.add_argument("--json", help="also write the report to this file")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= MAX_CLIENTS:
        sys.exit(f"load: --clients must be 1..{MAX_CLIENTS}")
    if not 0 < args.seconds <= MAX_SECONDS or not 0 <= args.baseline_seconds <= MAX_SECONDS:
        sys.exit(f"load: durations must be at most {MAX_SECONDS:.0f} s")
    proc = None
    url = args.url
    if url is None:
        proc, url = start_server(args.threads)
    try:
        host, port = require_loopback(url)
        requests = workload(f"{host}:{port}")
        warm_errors = asyncio.run(warm_up(host, port, requests))
        if warm_errors:
            print(f"warm-up: {warm_errors} request(s) failed", file=sys.stderr)
        report: dict[str, Any] = {"url": url, "clients": args.clients, "seconds": args.seconds,
                                  "workload": {"resolve": sum(r.kind == "resolve" for r in requests),
                                               "search": sum(r.kind == "search" for r in requests)}}
        if args.baseline_seconds:
            base = [Request.get("static", f"{host}:{port}", "/static/css/app.css")]
            bstats, belapsed = asyncio.run(run_phase(host, port, base, args.clients, args.baseline_seconds))
            report["baseline"] = bstats.summary(belapsed)
            _print(f"baseline: a static file, {args.clients} clients, {belapsed:.1f} s", report["baseline"])
        stats, elapsed = asyncio.run(run_phase(host, port, requests, args.clients, args.seconds, args.fresh))
        report["load"] = stats.summary(elapsed)
        report["fresh"] = args.fresh
        what = "uncached positions" if args.fresh else "repeated positions and questions"
        _print(f"load: /api/resolve + /api/search ({what}), {args.clients} clients, {elapsed:.1f} s",
               report["load"])
        if "baseline" in report and report["baseline"]["total"]["requests"]:
            b, t = report["baseline"]["total"], report["load"]["total"]
            report["ratio_to_baseline"] = {k: round(t[k] / b[k], 2) for k in ("p50_ms", "p95_ms", "p99_ms")
                                           if b.get(k)}
            print(f"ratio to baseline: {report['ratio_to_baseline']}")
        queue_warnings = sum("queue depth" in line.lower() for line in SERVER_LOG)
        if queue_warnings:
            report["server_queue_warnings"] = queue_warnings
        for line in stats.first_errors:
            print(f"  error: {line}")
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        return 1 if report["load"]["total"]["errors"] else 0
    finally:
        if proc is not None:
            os.kill(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    sys.exit(main())
