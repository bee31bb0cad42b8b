"""Render quick-reference PDFs off the request threads, in one worker process with a bounded queue.

WeasyPrint takes seconds of CPU per sheet; rendered in a request thread it holds the GIL and one of the
server's few threads, so a handful of PDF requests would stall every other client. :class:`PdfPool`
renders in a separate process (``spawn``: one worker by default), keeps the PDFs in a byte-bounded
cache keyed by corpus version + game + topics + paper + size, and shares one render among identical requests.

At most *waiters* request threads wait for a render (up to *wait_seconds*); every other request for a
PDF that is not ready gets ``503`` with ``Retry-After`` at once (its render stays queued, so the retry is
a cache hit), and when *queue* different renders are already waiting a new one is refused the same way.
The worker reads the corpus itself and checks that its files still have the requested version, so
a PDF is never labelled with a version it was not made from.

The worker watches its parent: when the server is gone (even killed with ``kill -9``, so that it could
not stop the pool) the worker exits within a second instead of staying behind with its ~125 MB, and
with it the ``multiprocessing`` resource tracker, which lives as long as a process holds its pipe.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import threading
import time
from collections.abc import Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from webapp.services import LRU, ServiceBusyError

SECONDS_PER_RENDER = 3  # a typical sheet; used for Retry-After
PARENT_CHECK_SECONDS = 0.5  # how often the worker looks whether the server is still its parent

_WORKER_CORPUS: dict[str, Any] = {}


def watch_parent(parent: int) -> None:
    """In the worker: exit at once when the process *parent* is no longer this process's parent."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)  # the server is gone: nobody will ever read a result

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def warm_worker() -> bool:
    """Import the renderer in the worker process (so the first real PDF does not pay for it)."""
    import weasyprint  # noqa: F401

    import engine.views.quickref  # noqa: F401
    return True


def render_in_worker(rules: str, version: str, game: str, topics: list[str], paper: str,
                     size: str = "standard") -> bytes:
    """Render one PDF in the worker process from the corpus of *rules* at *version* (its digest)."""
    from engine.corpus import corpus_version, load_corpus
    from engine.views.quickref import render_pdf

    root = Path(rules)
    corpus = _WORKER_CORPUS.get(version)
    if corpus is None:
        corpus = load_corpus(root)
        if corpus.version.digest != version:
            raise ServiceBusyError("the rules changed; the quick reference will be ready in a few seconds")
        _WORKER_CORPUS.clear()
        _WORKER_CORPUS[version] = corpus
    data: bytes = render_pdf(game, topics, paper, corpus, size)
    if corpus_version(root).digest != version:  # quickref.yaml is read while rendering: still that version?
        raise ServiceBusyError("the rules changed; the quick reference will be ready in a few seconds")
    return data


class PdfPool:
    """A bounded queue of PDF renders in a worker process, with a byte-bounded cache of the results."""

    def __init__(self, cache_bytes: int = 32 * 1024 * 1024, workers: int = 1, queue: int = 4,
                 waiters: int = 1, wait_seconds: float = 30.0) -> None:
        self.cache = LRU(cache_bytes)
        self.workers = workers
        self.queue = queue
        self.wait_seconds = wait_seconds
        self._waiters = threading.BoundedSemaphore(max(1, waiters))
        self._lock = threading.Lock()
        self._inflight: dict[Hashable, Future[bytes]] = {}
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=watch_parent, initargs=(os.getpid(),))
        return self._executor

    def _retry_after(self) -> int:
        return SECONDS_PER_RENDER * (1 + len(self._inflight) // max(1, self.workers))

    def get(self, key: Hashable, rules: Path, version: str, game: str, topics: list[str], paper: str,
            size: str = "standard") -> bytes:
        """Return the PDF of *key* from the cache, or render it (waiting only when a waiter slot is free)."""
        hit = self.cache.peek(key)
        if hit is not None:
            return hit
        with self._lock:
            future = self._inflight.get(key)
            if future is None:
                if len(self._inflight) >= self.queue:
                    raise ServiceBusyError("the quick-reference printer is busy; try again shortly",
                                           retry_after=self._retry_after(), path="")
                try:
                    future = self._pool().submit(render_in_worker, str(rules), version, game, topics, paper, size)
                except (BrokenProcessPool, RuntimeError):
                    self._executor = None
                    future = self._pool().submit(render_in_worker, str(rules), version, game, topics, paper, size)
                self._inflight[key] = future
                future.add_done_callback(functools.partial(self._finished, key))
        if not self._waiters.acquire(blocking=False):
            raise ServiceBusyError("the quick reference is being printed; try again in a few seconds",
                                   retry_after=self._retry_after(), path="")
        try:
            return future.result(timeout=self.wait_seconds)
        except FutureTimeout:
            raise ServiceBusyError("the quick reference is still being printed; try again shortly",
                                   retry_after=self._retry_after(), path="") from None
        except BrokenProcessPool:
            with self._lock:
                self._executor = None
            raise ServiceBusyError("the quick-reference printer restarted; try again",
                                   retry_after=SECONDS_PER_RENDER, path="") from None
        finally:
            self._waiters.release()

    def warm(self) -> None:
        """Start the worker process and load the renderer in it, in the background."""
        with self._lock:
            self._pool().submit(warm_worker)

    def _finished(self, key: Hashable, future: Future[bytes]) -> None:
        with self._lock:
            self._inflight.pop(key, None)
        if not future.cancelled() and future.exception() is None:
            self.cache.put(key, future.result())

    def shutdown(self) -> None:
        """Stop the worker process (pending renders are cancelled)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
