"""A killed build never blocks the next one: locks die with their holder, workers die with the build.

``runecodex build`` of a tiny corpus is killed with SIGKILL early, in the middle of Sphinx's parallel
work and while it swaps the site in; each next build gets past the point where the last one died, no
process of a killed build survives it, and the last build publishes the site.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.files import locks

ROOT = Path(__file__).resolve().parent.parent
RULES = Path(__file__).parent / "roots" / "test-repo-root" / "rules"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="needs Linux /proc")]

# runs ``runecodex build`` with a pause (announced on stderr) at the moment named by argv[1]
DRIVER = """
import shutil, sys, time
import engine.site.build as build

where, args = sys.argv[1], sys.argv[2:]

def pause(name, fn):
    def wrapper(*a, **k):
        print(f"PAUSED {name}", file=sys.stderr, flush=True)
        time.sleep(60)
        return fn(*a, **k)
    return wrapper

if where == "read":  # inside Sphinx's parallel reading: runs in the forked workers
    import engine.site.ext as ext
    ext.PageSpecParser.parse = pause("read", ext.PageSpecParser.parse)
elif where == "copy":
    build.shutil.copytree = pause("copy", shutil.copytree)
elif where == "exchange":
    build._renameat2_exchange = pause("exchange", build._renameat2_exchange)
from engine.cli import main
sys.exit(main(args))
"""


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "RUNECODEX_RULES": str(RULES), "RUNECODEX_CACHE": str(tmp / "cache"),
            "RUNECODEX_INDEX": str(tmp / "index"), "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}


def _start(tmp: Path, out: Path, log: Path, where: str = "none", *extra: str) -> subprocess.Popen[bytes]:
    """Start a build in its own session (so that the test can find every process it made)."""
    with log.open("wb") as fh:
        return subprocess.Popen([sys.executable, "-c", DRIVER, where, "build", "--out", str(out), "-j", "2", *extra],
                                cwd=ROOT, env=_env(tmp), stdout=fh, stderr=fh, start_new_session=True)


def _wait_for(predicate: Callable[[], bool], timeout: float, what: str,
              proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the build ended (status {proc.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _group_alive(pgid: int) -> bool:
    """Return whether a process of group *pgid* still runs (zombies waiting for a reaper do not count)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the build's main process only, then check that its workers went with it."""
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    # Sphinx's workers and the search-index child die with their parent (a graphviz run may finish)
    _wait_for(lambda: not _group_alive(proc.pid), 5, "the killed build's processes to end")


def _build(tmp: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.cli", "build", "--out", str(out), "-j", "2", "-q"],
                          cwd=ROOT, env=_env(tmp), capture_output=True, text=True, timeout=300, check=False)


def test_builds_killed_early_mid_sphinx_and_while_swapping_never_block_the_next(tmp_path: Path) -> None:
    out = tmp_path / "public" / "site"
    log = tmp_path / "log"

    def logged(text: str) -> Callable[[], bool]:
        return lambda: text in log.read_text(encoding="utf-8", errors="replace")

    # 1. early: while it starts (imports, corpus); then a build completes
    proc = _start(tmp_path, out, log)
    time.sleep(0.3)
    _kill(proc)
    first = _build(tmp_path, out)
    assert first.returncode == 0, first.stderr
    published = (out / "index.html").read_bytes()
    # 2. in the middle of Sphinx's parallel reading (forked workers at work, the lock held)
    proc = _start(tmp_path, out, log, "read", "--fresh")
    _wait_for(logged("PAUSED read"), 120, "Sphinx to read sources", proc)
    _kill(proc)
    # 3. while copying the new site beside the published one, 4. just before exchanging them
    for where in ("copy", "exchange"):
        proc = _start(tmp_path, out, log, where)
        _wait_for(logged(f"PAUSED {where}"), 120, f"the build to reach {where}", proc)
        assert "waiting for" not in log.read_text(), "a killed build's lock outlived it"
        _kill(proc)
        assert (out / "index.html").read_bytes() == published  # the published site is whole
    # the next build completes, and cleans up what the killed ones left beside the site
    done = _build(tmp_path, out)
    assert done.returncode == 0, done.stderr
    assert "waiting for" not in done.stderr
    assert (out / "index.html").is_file() and (out / "ids.json").is_file()
    # and leaves no lock file beside the user's output (locks live in the cache folder, removed when released)
    assert sorted(p.name for p in out.parent.iterdir()) == [".site-cache", "site"]
    assert not list((tmp_path / "cache" / "locks").iterdir())


def test_a_waiting_build_says_what_it_waits_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While another process holds the site's lock, a build says so (with the holder's pid) and then runs."""
    out = tmp_path / "site"
    monkeypatch.setenv("RUNECODEX_CACHE", str(tmp_path / "cache"))  # the build's cache (``_env``)
    lock = locks.lock_path(out)
    holding = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with locks.exclusive(lock, "the test"):
            holding.set()
            release.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(10)
    log = tmp_path / "log"
    try:
        proc = _start(tmp_path, out, log)
        _wait_for(lambda: "waiting for" in log.read_text(encoding="utf-8", errors="replace"), 60,
                  "the waiting message")
    finally:
        release.set()
        holder.join()
    assert proc.wait(timeout=300) == 0, log.read_text()
    first = next(ln for ln in log.read_text().splitlines() if "waiting for" in ln)
    assert first == f"runecodex: waiting for another build of {out} (pid {os.getpid()}) to finish…"
    assert (out / "index.html").is_file()


def test_a_lock_is_not_inherited_by_a_forked_child(tmp_path: Path) -> None:
    """POSIX record locks belong to a process: a child forked while the lock is held does not hold it."""
    lock = tmp_path / "x.lock"
    with locks.exclusive(lock, "the test"):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child: sleeps, as an orphaned worker would
            time.sleep(30)
            os._exit(0)
    try:
        got = subprocess.run([sys.executable, "-c", "import sys\nfrom engine.files import locks\n"
                              f"with locks.exclusive({str(lock)!r}, 'x'):\n    print('locked')"],
                             cwd=ROOT, capture_output=True, text=True, timeout=20, check=False)
        assert got.stdout.strip() == "locked" and "waiting" not in got.stderr
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
