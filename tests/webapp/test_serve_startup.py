"""``runecodex serve`` in a fresh checkout answers at once (issue 28): with no search index built yet, the
first searches are answered from the quick word index (``"quick": true``, and the search page says so)
while the real index is built behind the server; then the server switches to it by itself."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.webapp.test_serve_stop import free_port, group_members, wait_until_empty

ROOT = Path(__file__).resolve().parents[2]


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return int(resp.status), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def first_answer(url: str, proc: subprocess.Popen[bytes], seconds: float = 60) -> bytes:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the server exited"
        try:
            status, body = fetch(url)
        except OSError:
            time.sleep(0.05)
            continue
        if status == 200:
            return body
        time.sleep(0.05)
    raise AssertionError(f"no answer from {url} within {seconds} s")


def test_a_fresh_server_answers_from_the_quick_index_then_switches(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RUNECODEX_INDEX": str(tmp_path / "index"),
           "RUNECODEX_SITE": str(tmp_path / "site"), "RUNECODEX_CACHE": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--no-build", "--port", str(port)],
                            cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        page = first_answer(f"{base}/search?q=flanking", proc).decode()
        quick: dict[str, Any] = json.loads(first_answer(f"{base}/api/search?q=flanking", proc))
        assert quick.get("quick") is True and quick["total"] > 0
        assert any(hit["id"].startswith("rwm.") and "flank" in hit["title"].lower() for hit in quick["hits"])
        assert "Quick results" in page and 'class="hit"' in page
        version = json.loads(fetch(f"{base}/api/version")[1])
        assert version["pending"] is True and "search index is being built" in version["reason"]

        deadline = time.monotonic() + 120
        while version["pending"] and time.monotonic() < deadline:
            time.sleep(0.5)
            version = json.loads(fetch(f"{base}/api/version")[1])
        assert version["pending"] is False, version
        full = json.loads(fetch(f"{base}/api/search?q=flanking")[1])
        assert "quick" not in full and full["total"] > 0
        assert (tmp_path / "index").exists()
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
        left = wait_until_empty(proc.pid, 5)
        for pid, _ in group_members(proc.pid):
            os.kill(pid, signal.SIGKILL)
        assert left == []


def test_stopping_a_server_that_is_still_building_its_index_leaves_nothing(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RUNECODEX_INDEX": str(tmp_path / "index"),
           "RUNECODEX_SITE": str(tmp_path / "site")}
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--no-build", "--port", str(port)],
                            cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        first_answer(f"http://127.0.0.1:{port}/api/search?q=flanking", proc)
        os.kill(proc.pid, signal.SIGKILL)  # while the index child builds: it must notice and exit
        proc.wait(timeout=10)
        assert wait_until_empty(proc.pid, 5) == []
    finally:
        for pid, _ in group_members(proc.pid):
            os.kill(pid, signal.SIGKILL)
