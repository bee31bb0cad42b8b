"""Hostile clients against ``runecodex serve`` (4 threads): do they delay everybody else?

Loopback only and bounded: the script starts ``runecodex serve --threads 4 --no-build`` on a free
127.0.0.1 port, runs each attack for ``--seconds`` (at most 30) while 3 well-behaved clients keep
searching (queries no cache has seen) and resolving (positions no cache has seen), then stops the
server by its process id. The attacks:

- ``baseline``: no attack (for comparison);
- ``slow-body``: 40 connections each announce a 100 KB ``POST /api/resolve`` and trickle its body one
  byte every 50 ms (slowloris-style);
- ``pdf-flood``: 8 clients request quick-reference PDFs no cache holds (a new topic selection or paper
  each time), again and again; a ``503`` must carry ``Retry-After`` and JSON;
- ``idle``: 260 connections opened and left idle (half of them after sending part of a request line);
- ``big-invalid``: 4 clients post a 240 KB invalid position again and again (each must be a JSON 400);
- ``new-conn``: no attack, but every good request on a new connection (the baseline of the next one);
- ``slow-1100``: 1,100 sockets (more than waitress's 1,000 connection slots) each trickle a byte every
  5 s, half of them a request line, half a body after complete headers, and reconnect when the server
  closes them; the good clients open a new connection per request, as a new visitor does. This phase
  lasts at least 15 s, so that the 10 s header deadline is reached;
- then single hostile requests, each of which must be a JSON 400 with a path (lone surrogate, ``2.0``
  for an integer, 5,000-digit integer, ``1e308``, 100,000-deep nesting) or the JSON 413 (2 MB body).

The report gives the well-behaved clients' p50/p95/p99/max latency per phase. Exit status 1 when a p95
is over 1 s (for ``slow-1100``, the p99), or any answer (to anyone) is a 500 or not JSON where JSON is due.

    .venv/bin/python bench/hostile.py [--seconds 8] [--json FILE]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
THREADS = 4
MAX_SECONDS = 30.0
P95_LIMIT = 1.0
SLOW_SOCKETS = 1100
SLOW_EVERY = 5.0  # seconds between two bytes of a trickling socket
SLOW_MIN_SECONDS = 15.0
NEW_CONNECTION_PHASES = {"new-conn", "slow-1100"}
P99_PHASES = {"slow-1100"}
WORDS = ["attack", "morale", "rout", "battle", "influence", "dragon", "rune", "gold", "siege", "city", "tray",
         "rank", "panic", "surge", "wound", "hero", "quest", "season", "winter", "fortify", "reanimate",
         "elf", "spear", "stronghold", "card", "army", "enemy", "ladder", "ailment", "deck", "cost"]


@dataclass
class Tally:
    """Latencies of the well-behaved clients and every problem seen (by anyone) during one phase."""

    latencies: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    attack_answers: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, seconds: float) -> None:
        """Record one well-behaved request's latency."""
        with self.lock:
            self.latencies.append(seconds)

    def problem(self, text: str) -> None:
        """Record a failure (a 500, a non-JSON answer, a broken connection of a good client)."""
        with self.lock:
            if len(self.problems) < 50:
                self.problems.append(text)

    def answered(self, label: str) -> None:
        """Count an attacker's answer by label (e.g. ``pdf 503``)."""
        with self.lock:
            self.attack_answers[label] = self.attack_answers.get(label, 0) + 1

    def percentile(self, q: float) -> float:
        """Return the *q* quantile of the latencies (0 when there are none)."""
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _json_ok(status: int, headers: http.client.HTTPMessage, body: bytes, where: str, tally: Tally) -> Any:
    if status >= 500 and status != 503:
        tally.problem(f"{where}: {status} {body[:120]!r}")
        return None
    if "json" not in (headers.get("Content-Type") or ""):
        tally.problem(f"{where}: {status} answered {headers.get('Content-Type')!r}, not JSON")
        return None
    try:
        return json.loads(body.decode("utf-8"), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    except ValueError as exc:
        tally.problem(f"{where}: {status} body is not strict JSON ({exc})")
        return None


def request(port: int, method: str, path: str, body: bytes | None = None,
            conn: http.client.HTTPConnection | None = None,
            timeout: float = 30.0) -> tuple[int, http.client.HTTPMessage, bytes]:
    """Send one request (on *conn* when given, else on a new connection); return status, headers, body."""
    own = conn is None
    c = conn or http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        c.request(method, path, body=body, headers=headers)
        resp = c.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        if own:
            c.close()


# ---------------------------------------------------------------------------------------- good clients

def _positions() -> list[dict[str, Any]]:
    out = []
    for path in sorted((ROOT / "engine" / "examples").glob("*/*.json")):
        try:
            out.append(json.loads(path.read_text(encoding="utf-8"))["position"])
        except (OSError, ValueError, KeyError):
            continue
    return out


def good_client(port: int, stop: threading.Event, tally: Tally, seed: int, positions: list[dict[str, Any]],
                new_connections: bool = False) -> None:
    """Alternate uncached searches and resolves on one keep-alive connection (or a new one each time)."""
    rnd = random.Random(seed)
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    n = 0
    while not stop.is_set():
        n += 1
        if n % 2:
            q = " ".join(rnd.sample(WORDS, 2)) + f" {rnd.randint(1, 10**6)}"
            path, body, where = f"/api/search?q={q.replace(' ', '+')}&limit=10", None, "search"
        else:
            pos = rnd.choice(positions)
            path, body, where = "/api/resolve", json.dumps({**pos, "__n": rnd.random()}).encode(), "resolve"
            if rnd.random() < 0.5:  # half of them are new to every cache, the other half not
                body = json.dumps(pos).encode()
        started = time.perf_counter()
        try:
            status, headers, data = request(port, "POST" if body else "GET", path, body,
                                            None if new_connections else conn)
        except (OSError, http.client.HTTPException) as exc:
            tally.problem(f"good {where}: {exc!r}")
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            continue
        tally.add(time.perf_counter() - started)
        _json_ok(status, headers, data, f"good {where}", tally)
        if status >= 500:
            tally.problem(f"good {where}: {status}")
    conn.close()


# ---------------------------------------------------------------------------------------- attacks

def slow_body(port: int, stop: threading.Event, tally: Tally) -> None:
    """40 connections each trickle a 100 KB body one byte at a time."""
    socks = []
    for _ in range(40):
        s = socket.create_connection((HOST, port), timeout=5)
        s.sendall(b"POST /api/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100000\r\n\r\n{")
        socks.append(s)
    while not stop.wait(0.05):
        for s in list(socks):
            try:
                s.send(b" ")
            except OSError:
                socks.remove(s)  # closed by the server (channel timeout): fine
                tally.answered("slow-body connection closed by the server")
    for s in socks:
        s.close()


def pdf_flood(port: int, stop: threading.Event, tally: Tally) -> None:
    """8 clients ask for PDFs no cache holds, over and over."""
    _, _, body = request(port, "GET", "/api/games")
    topics: dict[str, list[str]] = {}
    for game in (g["game"] for g in json.loads(body)["games"]):
        page = request(port, "GET", f"/quickref/{game}")[2].decode("utf-8", "replace")
        keys = sorted({v.split('"')[0] for v in page.split('name="t" value="')[1:]})
        if keys:
            topics[game] = keys
    counter = iter(range(10**9))
    lock = threading.Lock()

    def one(k: int) -> None:
        rnd = random.Random(1000 + k)
        while not stop.is_set():
            with lock:
                n = next(counter)
            game = rnd.choice(sorted(topics))
            picked = rnd.sample(topics[game], min(len(topics[game]), rnd.randint(1, 4)))
            spec = f"/quickref/{game}.pdf?paper={'a4' if n % 2 else 'letter'}" + "".join(f"&t={t}" for t in picked)
            try:
                status, headers, body = request(port, "GET", spec, timeout=60)
            except (OSError, http.client.HTTPException) as exc:
                tally.problem(f"pdf: {exc!r}")
                continue
            if status == 200 and body.startswith(b"%PDF"):
                tally.answered("pdf 200")
            elif status == 503:
                tally.answered("pdf 503")
                if not headers.get("Retry-After"):
                    tally.problem("pdf 503 without Retry-After")
                _json_ok(status, headers, body, "pdf 503", tally)
                stop.wait(0.2)
            elif status == 400:
                tally.answered("pdf 400")  # a selection the sheet refuses (e.g. too many pages): fine
                _json_ok(status, headers, body, "pdf 400", tally)
            else:
                tally.problem(f"pdf: {status} {headers.get('Content-Type')} {body[:100]!r}")

    threads = [threading.Thread(target=one, args=(k,), daemon=True) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=90)


def idle(port: int, stop: threading.Event, tally: Tally) -> None:
    """260 idle connections, half of them after a partial request line."""
    socks = []
    for k in range(260):
        try:
            s = socket.create_connection((HOST, port), timeout=5)
        except OSError as exc:
            tally.problem(f"idle connection {k} refused: {exc!r}")
            break
        if k % 2:
            s.sendall(b"GET /api/sea")
        socks.append(s)
    tally.answered(f"idle connections opened: {len(socks)}")
    stop.wait()
    for s in socks:
        s.close()


def big_invalid(port: int, stop: threading.Event, tally: Tally) -> None:
    """4 clients post a 240 KB invalid position, again and again."""
    card = {"name": "x" * 100, "strength": "three", "kind": "unit", "faction": "nobody"}
    army = [card] * 1400
    position: dict[str, Any] = {"game": "rune-age", "situation": "battle",
                                "target": {"kind": "city", "strength": 8}, "army": army}
    body = json.dumps(position).encode()
    while len(body) > 240 * 1024:
        army = army[:-10]
        body = json.dumps({**position, "army": army}).encode()
    tally.answered(f"big position bytes: {len(body)}")

    def one() -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        while not stop.is_set():
            try:
                status, headers, data = request(port, "POST", "/api/resolve", body, conn)
            except (OSError, http.client.HTTPException) as exc:
                tally.problem(f"big-invalid: {exc!r}")
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                continue
            answer = _json_ok(status, headers, data, "big-invalid", tally)
            tally.answered(f"big-invalid {status}")
            if status != 400 or not isinstance(answer, dict) or "path" not in answer:
                tally.problem(f"big-invalid: {status} {data[:100]!r}")
        conn.close()

    threads = [threading.Thread(target=one, daemon=True) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)


def _slow_socket(port: int, k: int) -> tuple[socket.socket, bytes]:
    """Connect one trickler: even ones trickle a request line, odd ones a body after complete headers."""
    s = socket.create_connection((HOST, port), timeout=10)
    s.setblocking(False)
    if k % 2:
        s.send(b"POST /api/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Content-Length: 100000\r\n\r\n")
        return s, b" " * 100_000
    return s, b"GET /api/search?q=" + b"a" * 10_000 + b" HTTP/1.1\r\n"


def _closed_by_server(s: socket.socket) -> bool:
    try:
        return s.recv(4096, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def slow_1100(port: int, stop: threading.Event, tally: Tally) -> None:
    """1,100 sockets trickle a byte every 5 s each (staggered); a socket the server closes is reopened."""
    socks: list[tuple[socket.socket, bytes] | None] = [None] * SLOW_SOCKETS
    sent = [0] * SLOW_SOCKETS
    due = [time.monotonic() + SLOW_EVERY * k / SLOW_SOCKETS for k in range(SLOW_SOCKETS)]
    for k in range(SLOW_SOCKETS):
        try:
            socks[k], sent[k] = _slow_socket(port, k), 0
        except OSError as exc:
            tally.answered(f"slow connect failed: {type(exc).__name__}")
    tally.answered(f"slow sockets opened: {sum(1 for s in socks if s is not None)}")
    while not stop.wait(0.02):
        now = time.monotonic()
        for k in range(SLOW_SOCKETS):
            if due[k] > now:
                continue
            due[k] = now + SLOW_EVERY
            entry = socks[k]
            try:
                if entry is None or _closed_by_server(entry[0]):
                    if entry is not None:
                        entry[0].close()
                        tally.answered("slow sockets closed by the server")
                    socks[k] = entry = _slow_socket(port, k)
                    sent[k] = 0
                entry[0].send(entry[1][sent[k]:sent[k] + 1])
                sent[k] += 1
            except OSError:
                socks[k] = None
                tally.answered("slow sockets refused or reset")
    for entry in socks:
        if entry is not None:
            entry[0].close()


ATTACKS: dict[str, Callable[[int, threading.Event, Tally], None] | None] = {
    "baseline": None, "slow-body": slow_body, "pdf-flood": pdf_flood, "idle": idle, "big-invalid": big_invalid,
    "new-conn": None, "slow-1100": slow_1100}


def single_requests(port: int, tally: Tally) -> list[str]:
    """Send each hostile value once; return a line per request (status, path)."""
    attack = json.loads((ROOT / "engine" / "examples" / "runewars-miniatures" /
                         "attack-defense-floor-one.json").read_text(encoding="utf-8"))["position"]
    battle = json.loads((ROOT / "engine" / "examples" / "rune-age" / "battle-city-fails.json")
                        .read_text(encoding="utf-8"))["position"]
    b = json.dumps(battle, ensure_ascii=True)
    cases: list[tuple[str, bytes, int]] = [
        ("lone surrogate in a name", b.replace('"Archer"', '"Arch\\ud800"', 1).encode(), 400),
        ("brutal 2.0", json.dumps({**attack, "attacker": {**attack["attacker"], "brutal": 2.0}}).encode(), 400),
        ("5,000-digit integer", b.replace('"strength": 8', '"strength": ' + "9" * 5000, 1).encode(), 400),
        ("1e308 strength", b.replace('"strength": 8', '"strength": 1e308', 1).encode(), 400),
        ("1e999 strength", b.replace('"strength": 8', '"strength": 1e999', 1).encode(), 400),
        ("100,000-deep nesting", b"[" * 100_000 + b"]" * 100_000, 400),
        ("2 MB body", b'{"x": "' + b"y" * 2_000_000 + b'"}', 413),
        ("300 KB body", b'{"x": "' + b"y" * 300_000 + b'"}', 413),
    ]
    lines = []
    for label, body, expected in cases:
        try:
            status, headers, data = request(port, "POST", "/api/resolve", body)
        except (OSError, http.client.HTTPException) as exc:
            tally.problem(f"{label}: {exc!r}")
            continue
        answer = _json_ok(status, headers, data, label, tally)
        path = answer.get("path") if isinstance(answer, dict) else None
        if status != expected or not isinstance(answer, dict) or set(answer) != {"error", "path"}:
            tally.problem(f"{label}: expected a JSON {expected}, got {status} {data[:120]!r}")
        elif expected == 400 and not path and "nesting" not in label:
            tally.problem(f"{label}: 400 without a path: {answer}")
        lines.append(f"  {label:<26} {status}  path={path!r}  {str(answer.get('error', ''))[:70] if answer else ''}")
    return lines


# ---------------------------------------------------------------------------------------- running

def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def start_server() -> tuple[subprocess.Popen[bytes], int]:
    """Start ``runecodex serve`` (4 threads) on a free loopback port; return it once it answers."""
    port = _free_port()
    exe = ROOT / ".venv" / "bin" / "runecodex"
    cmd = [str(exe) if exe.exists() else "runecodex", "serve", "--host", HOST, "--port", str(port),
           "--threads", str(THREADS), "--no-build"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"hostile: the server exited with {proc.returncode}")
        try:
            status, _, _ = request(port, "GET", "/api/version", timeout=5)
            if status == 200:
                return proc, port
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.3)
    stop_server(proc)
    raise SystemExit("hostile: the server did not answer within 300 s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server this script started (by its process id)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


def run_phase(port: int, name: str, seconds: float, positions: list[dict[str, Any]]) -> Tally:
    """Run one attack (or none) for *seconds* while 3 good clients measure; return the tally."""
    tally = Tally()
    attack = ATTACKS[name]
    stop_attack, stop_good = threading.Event(), threading.Event()
    attacker = None
    if attack is not None:
        attacker = threading.Thread(target=attack, args=(port, stop_attack, tally), daemon=True)
        attacker.start()
        time.sleep(1.0)  # let the attack build up before measuring
    good = [threading.Thread(target=good_client, args=(port, stop_good, tally, k, positions,
                                                       name in NEW_CONNECTION_PHASES), daemon=True)
            for k in range(3)]
    for t in good:
        t.start()
    time.sleep(seconds)
    stop_good.set()
    for t in good:
        t.join(timeout=60)
    stop_attack.set()
    if attacker is not None:
        attacker.join(timeout=90)
    return tally


def main(argv: list[str] | None = None) -> int:
    """Run every attack against a server started here; return 1 when one of them hurt other clients."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help=f"per phase (at most {MAX_SECONDS:.0f})")
    parser.add_argument("--json", help="also write the report to this file")
    parser.add_argument("--only", action="append", choices=sorted(ATTACKS), help="run only this phase (repeatable)")
    args = parser.parse_args(argv)
    seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    names = set(args.only or ())
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # 1,100 sockets here too
    if soft != resource.RLIM_INFINITY and soft < 4096 and (hard == resource.RLIM_INFINITY or soft < hard):
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096 if hard == resource.RLIM_INFINITY else min(hard, 4096),
                                                    hard))
    positions = _positions()
    proc, port = start_server()
    report: dict[str, Any] = {"threads": THREADS, "seconds": seconds, "phases": {}}
    failed = False
    try:
        for name in ATTACKS:
            if names and name not in names:
                continue
            tally = run_phase(port, name, max(seconds, SLOW_MIN_SECONDS) if name == "slow-1100" else seconds,
                              positions)
            p50, p95, p99 = tally.percentile(0.5), tally.percentile(0.95), tally.percentile(0.99)
            worst = max(tally.latencies, default=0.0)
            ok = (p99 if name in P99_PHASES else p95) <= P95_LIMIT and not tally.problems and bool(tally.latencies)
            failed |= not ok
            report["phases"][name] = {"requests": len(tally.latencies), "p50": p50, "p95": p95, "p99": p99,
                                      "max": worst, "attack": tally.attack_answers, "problems": tally.problems}
            print(f"{name:<12} {len(tally.latencies):>5} good requests  p50 {p50 * 1000:7.1f} ms  "
                  f"p95 {p95 * 1000:7.1f} ms  p99 {p99 * 1000:7.1f} ms  max {worst * 1000:7.1f} ms  "
                  f"{'ok' if ok else 'FAIL'}  {tally.attack_answers}", flush=True)
            for text in tally.problems[:10]:
                print(f"    problem: {text}")
        tally = Tally()
        lines = single_requests(port, tally)
        print("hostile single requests:")
        print("\n".join(lines))
        for text in tally.problems:
            print(f"    problem: {text}")
        failed |= bool(tally.problems)
        report["single"] = {"lines": lines, "problems": tally.problems}
    finally:
        stop_server(proc)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
    print("hostile: " + ("FAIL (a p95 over 1 s, a 500 or a non-JSON answer)" if failed else
                         f"ok (every p95 under {P95_LIMIT:.0f} s, no 500, JSON everywhere)"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
