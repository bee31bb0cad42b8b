"""Stopping ``runecodex serve`` leaves no process behind (issue 22, item 7).

The server runs in its own session (process group); a PDF is requested once so that the quick-reference
worker (and the ``multiprocessing`` resource tracker) exist. SIGTERM or SIGINT must end the whole group
within 5 s; after ``kill -9`` of the server alone, the worker must notice and exit by itself.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def group_members(pgid: int) -> list[tuple[int, str]]:
    """Return (pid, command line) of every live (not zombie) process whose process group is *pgid*."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append((int(entry.name), cmdline[:100]))
    return found


def wait_until_empty(pgid: int, seconds: float) -> list[tuple[int, str]]:
    """Poll the group until it has no live process or *seconds* passed; return what is left."""
    deadline = time.monotonic() + seconds
    left = group_members(pgid)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = group_members(pgid)
    return left


def get(url: str, timeout: float = 30) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            resp.read()
            return int(resp.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One search index for the three servers (the first one builds it)."""
    return tmp_path_factory.mktemp("index")


@pytest.fixture
def server(index_dir: Path, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """Start ``runecodex serve --no-build`` in its own session, wait until it has rendered a PDF."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RUNECODEX_INDEX": str(index_dir),
           "RUNECODEX_SITE": str(tmp_path / "site")}
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--no-build", "--port", str(port)],
                            cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        status = 0
        while time.monotonic() < deadline and status != 200:
            assert proc.poll() is None, "the server exited"
            try:
                status = get(f"{base}/api/version", timeout=5)
            except OSError:
                time.sleep(0.2)
        assert status == 200
        while time.monotonic() < deadline and get(f"{base}/quickref/rune-age.pdf?t=turn", timeout=60) != 200:
            time.sleep(0.3)  # 503 + Retry-After while the worker starts
        assert len(group_members(proc.pid)) >= 2, "no PDF worker was started"
        yield proc, base
    finally:
        for pid, _ in group_members(proc.pid):  # whatever a failed test left behind
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_ends_every_process_of_the_server(server: tuple[subprocess.Popen[bytes], str],
                                                        sig: signal.Signals) -> None:
    proc, _ = server
    os.kill(proc.pid, sig)
    assert proc.wait(timeout=10) == 0
    assert wait_until_empty(proc.pid, 5) == []


def test_the_pdf_worker_exits_when_the_server_is_killed(server: tuple[subprocess.Popen[bytes], str]) -> None:
    proc, _ = server
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert wait_until_empty(proc.pid, 5) == []
