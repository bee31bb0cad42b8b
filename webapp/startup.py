"""Start ``runecodex serve`` answering within moments, then load what the full app needs behind it.

A fresh clone has no search index, and building one takes several seconds on two cores; loading the
situations and opening the index take a few more. So ``serve`` listens first and a startup thread does
the rest, in this order:

1. read the corpus (the parsed-corpus cache when there is one) and serve a *provisional* snapshot of it
   whose search is :class:`webapp.quicksearch.QuickIndex` (SQLite FTS5 in memory, built in well under a
   second): search, rule pages and rulings answer from here on, and ``GET /api/version`` says the full
   index is pending;
2. build the search index in a child process (``runecodex index --if-stale``: the second core, and no
   contention for this process's GIL) while this thread loads the situations;
3. switch to the real snapshot (:meth:`webapp.snapshot.Versions.poll`, which builds the index itself if
   the child failed), start watching ``rules/`` and warm the PDF worker;
4. start the rulebook site build (:mod:`webapp.sitebuild`), when asked to.

Requests that arrive before step 1 wait for it (:meth:`Versions.expect_startup`) rather than build.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from engine.errors import RunecodexError

CHILD_SECONDS = 120.0  # the index build is given this long before the server builds it itself
# the child runs `runecodex index` and exits as soon as the server (its first argument) is gone, even
# after a `kill -9`, even one that came while the child was being started
CHILD_CODE = """
import os, sys, threading, time
parent = int(sys.argv[1])
def watch():
    while os.getppid() == parent:
        time.sleep(0.25)
    os._exit(1)
threading.Thread(target=watch, daemon=True).start()
from engine.cli import main
sys.exit(main(sys.argv[2:]))
"""


class Startup:
    """The thread that brings a started server from the quick index to everything (see the module)."""

    def __init__(self, app: Any, site_dir: Path, build_site: bool, out: TextIO = sys.stderr) -> None:
        self.app = app
        self.site_dir = site_dir
        self.build_site = build_site
        self.out = out
        self.done = threading.Event()
        self._stopping = threading.Event()
        self._child: subprocess.Popen[bytes] | None = None
        self._stops: list[Callable[[], object]] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> Startup:
        """Start the startup thread (requests wait for the provisional snapshot); return self."""
        self.app.extensions["runecodex"].versions.expect_startup()
        self._thread = threading.Thread(target=self._run, name="runecodex-startup", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the index child and everything the thread started (in reverse order)."""
        self._stopping.set()
        with self._lock:
            child = self._child
            stops = list(reversed(self._stops))
        if child is not None and child.poll() is None:
            child.terminate()
            try:
                child.wait(timeout=3)
            except subprocess.TimeoutExpired:
                child.kill()
        if self._thread is not None:
            self._thread.join(timeout=2)  # a daemon: an in-process index build is not waited for
        for stop in stops:
            stop()
        if self.build_site:
            from webapp.sitebuild import stop_builds

            stop_builds()  # also one that the thread was starting as the stop came

    def _say(self, text: str) -> None:
        print(f"serve: {text}", file=self.out, flush=True)

    def _run(self) -> None:
        try:
            self._provisional()
            child = self._index_child()
            self.app.extensions["runecodex"].situations()
            self._wait(child)
            if self._stopping.is_set():
                return
            self._full()
        except Exception as exc:  # the server must keep serving whatever startup met; say what it was
            self._say(f"startup did not finish ({exc!r}); the rules are read again in the background")
            self._watch()
        finally:
            self.done.set()

    def _provisional(self) -> None:
        from engine.corpus import get_corpus
        from webapp.quicksearch import QuickIndex
        from webapp.snapshot import Snapshot

        versions = self.app.extensions["runecodex"].versions
        try:
            corpus = get_corpus(versions.rules)
        except RunecodexError as exc:
            self._say(f"the rules are not loaded yet ({exc.message}); retrying in the background")
            return
        versions.provide(Snapshot(corpus, QuickIndex(corpus), versions.index_dir, time.time(), provisional=True))

    def _index_child(self) -> subprocess.Popen[bytes] | None:
        from engine.search.index import is_fresh

        versions = self.app.extensions["runecodex"].versions
        if is_fresh(versions.index_dir, versions.rules):
            return None
        self._say("building the search index in the background; searches use a quick word index meanwhile")
        command = [sys.executable, "-c", CHILD_CODE, str(os.getpid()),
                   "index", "--if-stale", "--out", str(versions.index_dir)]
        try:
            child = subprocess.Popen(command, cwd=Path(__file__).resolve().parents[1],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as exc:
            self._say(f"the index build did not start ({exc}); building it here")
            return None
        with self._lock:
            self._child = child
        return child

    def _wait(self, child: subprocess.Popen[bytes] | None) -> None:
        if child is None:
            return
        try:
            _, err = child.communicate(timeout=CHILD_SECONDS)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            return
        if child.returncode != 0 and not self._stopping.is_set():
            tail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
            self._say(f"the index build failed (exit {child.returncode}: {tail[0]}); building it here")

    def _full(self) -> None:
        svc = self.app.extensions["runecodex"]
        svc.versions.poll(blocking=True)
        snap = svc.versions.peek()
        if snap is not None and not snap.provisional:
            svc.site()
            try:
                svc.search_json("battle", None, 10)
            except RunecodexError as exc:
                self._say(f"search is not ready ({exc.message})")
            else:
                self._say("the full search index is ready")
        self._watch()
        if self._stopping.is_set():
            return
        with self.app.app_context():
            from webapp.quickref import pdf_pool

            pdf_pool().warm()
        if self.build_site and not self._stopping.is_set():
            from webapp.sitebuild import build_in_background

            build_in_background(self.site_dir, self.out)

    def _watch(self) -> None:
        versions = self.app.extensions["runecodex"].versions
        with self._lock:
            if self._stopping.is_set():
                return
            versions.start()
            self._stops.append(versions.stop)
