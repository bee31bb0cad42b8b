"""One corpus version at a time: the corpus, its search index and their version, swapped as a whole.

A running server answers every request from one :class:`Snapshot`: the corpus read from ``rules/``,
the search index generation built from exactly those files, and their version
(:class:`engine.corpus.CorpusVersion`, the digest the index records in its ``meta.json`` and the site
build in its ``runecodex-version.json``). Every cache of the app is keyed by that version, so search
hits, rule pages, rulings and quick references always come from the same version: a search hit never
names a paragraph that ``/rules`` does not know, and a link leads to the built site only when the site
is of that version.

:class:`Versions` holds the current snapshot. Its :meth:`Versions.poll` (run every couple of seconds by
a background thread under ``runecodex serve``, or called directly by tests) looks at the files' names,
sizes and modification times (:func:`engine.corpus.version_signature`); when they changed and their
content digest did too, it reads the corpus, builds or finds the matching index
generation, and only then replaces the current snapshot with one reference assignment. Until then, and
for good when the new files do not validate, the old version is served whole and :meth:`Versions.status`
says that a rebuild is pending. No request ever builds an index: a deleted or unreadable index is
reported (503, "being rebuilt") and rebuilt by the next poll.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from engine.corpus import Corpus, CorpusVersion, Signature, corpus_version, load_corpus, version_signature
from engine.errors import CorpusError, RunecodexError
from engine.search import SearchIndex
from engine.search.index import META_FILE, build_index, built_from, read_meta

POLL_SECONDS = 2.0
FAILED_RETRY_SECONDS = 30.0  # a corpus that failed to load is read again after this long, or when it changes


STARTUP_WAIT_SECONDS = 30.0  # how long a request waits for the first snapshot while serve starts up
QUICK_REASON = "the search index is being built; searches use a quick word index until it is ready"


class VersionUnavailableError(RunecodexError):
    """No corpus version can be served yet (the first one is being built or does not validate)."""


class Answer(Protocol):
    """A search answer: its JSON is the search contract's shape."""

    def to_json(self) -> dict[str, Any]:
        """Return the answer as JSON."""


class Searcher(Protocol):
    """What a snapshot searches with: the full index, or the quick one while that is being built."""

    def games(self) -> dict[str, str]:
        """Return the games searched (key -> name)."""

    def search(self, query: str, game: str | None = None, limit: int = 20, offset: int = 0,
               detect_game: bool = True) -> Answer:
        """Return one page of the paragraphs answering *query*."""


@dataclass(frozen=True)
class Snapshot:
    """One corpus version: the corpus (which carries its version) and the search index generation built from it."""

    corpus: Corpus
    index: Searcher
    index_dir: Path
    built_at: float
    provisional: bool = False  # the quick word index of the first seconds (webapp.quicksearch), not the real one

    @property
    def corpus_version(self) -> CorpusVersion:
        """Return the version of the corpus files this snapshot was read from."""
        return self.corpus.version

    @property
    def version(self) -> str:
        """Return the version's digest (the key of every cache, the ``version`` of ``/api/version``)."""
        return self.corpus.version.digest

    @property
    def short(self) -> str:
        """Return the first 12 hex digits of the version (for headers and messages)."""
        return self.version[:12]

    def index_present(self) -> bool:
        """Return whether this snapshot's index generation is still on disk."""
        return (self.index_dir / META_FILE).is_file()

    def index_opens(self) -> bool:
        """Return whether this thread's searcher on the index is open (opening it when needed)."""
        return _opens(self.index)


def _opens(index: Searcher) -> bool:
    """Return whether *index* opens; a damaged one's half-opened files are closed at once, quietly."""
    try:
        index.games()
    except Exception as exc:  # whoosh raises many kinds of errors on damaged files
        with warnings.catch_warnings():  # whoosh leaves the files it opened to the garbage collector
            warnings.simplefilter("ignore", ResourceWarning)
            traceback.clear_frames(exc.__traceback__)
            exc.__traceback__ = None
            del exc
            gc.collect()
        return False
    return True


def _generation(index_dir: Path, version: CorpusVersion) -> Path | None:
    """Return the index generation *index_dir* points at when it was built from *version* and opens."""
    target = Path(os.path.realpath(index_dir))
    meta = read_meta(target)
    if meta is None or meta.get("without") or not built_from(meta, version):
        return None
    if not _opens(SearchIndex(target)):  # a corrupt generation fails here, not in a request
        return None
    return target


def build_snapshot(rules: Path, index_dir: Path, attempts: int = 3, force: bool = False) -> Snapshot:
    """Read the corpus of *rules*, find or build its index in *index_dir*; return them as one snapshot.

    With *force* the index is rebuilt even when a matching generation is there (it failed to read).

    Raises :class:`CorpusError` when the corpus does not validate, and
    :class:`VersionUnavailableError` when the files kept changing while they were read.
    """
    for _attempt in range(attempts):
        corpus = load_corpus(rules)  # stamped with the version of exactly the files it read
        generation = None if force else _generation(index_dir, corpus.version)
        if generation is None:
            force = False
            build_index(index_dir, corpus=corpus, rules=rules)
            generation = _generation(index_dir, corpus.version)
        if generation is None:
            continue  # the index changed under us
        return Snapshot(corpus, SearchIndex(generation), generation, time.time())
    raise VersionUnavailableError("the rules files kept changing while they were read; try again shortly",
                                  path="rules")


class Versions:
    """The current :class:`Snapshot` of a corpus folder, replaced as a whole when its files change."""

    def __init__(self, rules: Path, index_dir: Path, poll_seconds: float = POLL_SECONDS) -> None:
        self.rules = Path(rules)
        self.index_dir = Path(index_dir)
        self.poll_seconds = poll_seconds
        self._current: Snapshot | None = None
        self._signature: Signature | None = None
        self._building = threading.Lock()
        self._broken = False
        self._failed_at = 0.0
        self._pending: str | None = None
        self._problem: str | None = None
        self._listeners: list[Any] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._starting = False  # a startup thread provides the first snapshot (see expect_startup)
        self._first = threading.Event()

    # ------------------------------------------------------------------ reading

    def peek(self) -> Snapshot | None:
        """Return the current snapshot, or ``None`` when none is loaded yet (never builds)."""
        return self._current

    def current(self) -> Snapshot:
        """Return the current snapshot; the very first one is built on demand when no watcher runs."""
        snap = self._current
        if snap is not None:
            return snap
        if self._starting:  # `runecodex serve` starting up: the first snapshot comes within moments
            self._first.wait(STARTUP_WAIT_SECONDS)
            snap = self._current
            if snap is not None:
                return snap
        elif self._thread is None:
            self.poll(blocking=True)
            snap = self._current
            if snap is not None:
                return snap
        raise VersionUnavailableError(
            self._problem or "the rules are being loaded; try again in a few seconds", path="rules")

    def status(self) -> dict[str, Any]:
        """Return the served version and whether a rebuild is pending (and why), as JSON."""
        snap = self._current
        return {"version": snap.version if snap else None,
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(snap.built_at)) if snap else None,
                "paragraphs": len(snap.corpus) if snap else 0,
                "pending": self.pending,
                "reason": self._pending or self._problem or (QUICK_REASON if snap and snap.provisional else None)}

    @property
    def pending(self) -> bool:
        """Return whether the files changed and the new version is not served (yet), or the full search
        index of the served version is still being built."""
        snap = self._current
        return self._pending is not None or self._broken or (snap is not None and snap.provisional)

    # ------------------------------------------------------------------ starting up

    def expect_startup(self) -> None:
        """Note that a startup thread will :meth:`provide` the first snapshot: until it does, requests
        wait for it (up to :data:`STARTUP_WAIT_SECONDS`) instead of building one themselves."""
        self._starting = True

    def provide(self, snap: Snapshot) -> bool:
        """Serve *snap* (a provisional snapshot) until the first real one is built; return whether it was
        taken (it is not when a snapshot is already served)."""
        with self._building:
            if self._current is not None:
                return False
            self._current = snap
        self._first.set()
        return True

    # ------------------------------------------------------------------ switching

    def on_switch(self, listener: Any) -> None:
        """Call *listener(snapshot)* after each switch to a new snapshot."""
        self._listeners.append(listener)

    def mark_broken(self) -> None:
        """Note that the current index could not be read: the next poll rebuilds it."""
        self._broken = True

    def poll(self, blocking: bool = False) -> bool:
        """Look at the corpus files; build and switch to a new snapshot when they changed.

        Returns whether a new snapshot was switched in. Never raises for a bad corpus: the old version
        stays and :meth:`status` says why. One poll runs at a time; a concurrent call returns at once
        (or, with *blocking*, waits for the running one and then looks again).
        """
        if not self._building.acquire(blocking=blocking):
            return False
        try:
            return self._poll()
        finally:
            self._building.release()

    def _poll(self) -> bool:
        current = self._current
        signature = version_signature(self.rules)
        if current is not None and current.provisional:
            current = None  # the quick index of the first seconds: build the real snapshot now
        broken = self._broken or (current is not None and not current.index_present())
        if not broken and signature == self._signature and (
                current is not None or time.monotonic() - self._failed_at < FAILED_RETRY_SECONDS):
            return False
        if current is not None and not broken and corpus_version(self.rules) == current.corpus_version:
            self._signature = signature  # touched, not changed
            self._pending = None
            return False
        self._pending = ("the search index is being rebuilt" if broken and signature == self._signature
                         else "the rules changed; the new version is being built")
        try:
            snap = build_snapshot(self.rules, self.index_dir, force=self._broken)
        except (RunecodexError, OSError) as exc:
            self._signature = signature
            self._failed_at = time.monotonic()
            message = exc.message if isinstance(exc, RunecodexError) else str(exc)
            if isinstance(exc, CorpusError):
                message = "the rules do not validate: " + message.splitlines()[0]
            self._problem = message
            self._pending = (f"{message}; still serving version {current.short}" if current is not None
                             else None)
            print(f"runecodex: {message}", file=sys.stderr)
            return False
        self._current = snap  # the switch: one reference assignment, everything else was built aside
        self._first.set()
        self._signature = signature
        self._pending = self._problem = None
        self._broken = False
        for listener in self._listeners:
            listener(snap)
        return True

    # ------------------------------------------------------------------ watching

    def start(self) -> None:
        """Poll in a daemon thread every :attr:`poll_seconds` until :meth:`stop`."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._watch, name="runecodex-versions", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the polling thread (waits for a build in progress)."""
        thread, self._thread = self._thread, None
        self._stop.set()
        if thread is not None:
            thread.join(timeout=60)

    def _watch(self) -> None:
        while not self._stop.wait(self.poll_seconds):
            try:
                self.poll()
            except Exception as exc:  # the watcher must outlive any surprise; the old version stays
                print(f"runecodex: checking the rules failed: {exc!r}", file=sys.stderr)
