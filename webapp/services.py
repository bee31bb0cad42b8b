"""Hold what the web app serves from memory: the corpus version, situations, site layout and answer caches.

Everything version-dependent comes from one :class:`~webapp.snapshot.Snapshot` (corpus with its version +
search index, see :mod:`webapp.snapshot`); a request pins the snapshot it started with, so all its parts
agree. Rulings and search answers are pure functions of their input and of that version, so they are
cached as ready-to-send JSON bytes in LRU caches bounded in bytes (not entries) and keyed by the
version's digest and the canonical JSON of the request. Links lead to the built site only when
``build/site`` shows the served version (its ``runecodex-version.json``), else to the app's own
``/rules/<id>`` pages; they are added per request from a map recomputed when the version or the site
changes.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import jsoninput
from engine.core import Situation, load_situations, resolve
from engine.corpus import Corpus, default_root
from engine.errors import UnreadableInputError
from engine.examples import example_files, load_example
from engine.search.index import default_index_dir
from engine.site.build import site_version
from engine.views import render
from webapp.snapshot import Snapshot, Versions

SITE_RECHECK_SECONDS = 2.0
MAX_QUERY = 500
MAX_LIMIT = 100
CACHE_MAX_BYTES = 32 * 1024  # larger positions are resolved every time (the caches stay small)
CACHE_BYTES = 64 * 1024 * 1024  # all answer caches together
ENTRY_OVERHEAD = 256  # bytes counted per cache entry beyond its key and value (dict slot, tuple, objects)


class ServiceBusyError(Exception):
    """The answer cannot be given now (503): *retry_after* seconds later it can."""

    def __init__(self, message: str, retry_after: int = 2, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after
        self.path = path


def _key_bytes(key: Hashable) -> int:
    if isinstance(key, bytes | str):
        return len(key)
    if isinstance(key, tuple):
        return sum(_key_bytes(k) for k in key) + 8 * len(key)
    return 16


class LRU:
    """Keep the most recently used values up to *max_bytes* in total (keys and values counted; thread-safe)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._data: OrderedDict[Hashable, tuple[bytes, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    def get_or_make(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        """Return the cached value of *key*, computing it with *make* on a miss."""
        value = self.peek(key)
        if value is not None:
            return value
        value = make()
        self.put(key, value)
        return value

    def peek(self, key: Hashable) -> bytes | None:
        """Return the cached value of *key* (marking it recently used), or ``None``."""
        with self._lock:
            entry = self._data.get(key)
            if entry is None:
                return None
            self._data.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value: bytes) -> None:
        """Store *value* under *key*, dropping the least recently used values beyond the byte budget."""
        cost = len(value) + _key_bytes(key) + ENTRY_OVERHEAD
        if cost > self.max_bytes // 4:
            return  # one entry never takes more than a quarter of the cache
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._data[key] = (value, cost)
            self.bytes += cost
            while self.bytes > self.max_bytes and self._data:
                _, (_, dropped) = self._data.popitem(last=False)
                self.bytes -= dropped

    def clear(self) -> None:
        """Forget every cached value."""
        with self._lock:
            self._data.clear()
            self.bytes = 0


@dataclass(frozen=True)
class SiteState:
    """Whether the built site is there, which corpus version it shows, and where each paragraph is in it.

    *version* is the served snapshot's version, *site_version* the one the published site was built from
    (``runecodex-version.json``, "" when unknown). *urls* (``/site/...#id``) is filled only when the two
    are the same version: until the site of the served version is published, links stay on the app's pages.
    """

    built: bool
    stamp: float
    urls: Mapping[str, str]
    version: str = ""
    site_version: str = ""

    @property
    def current(self) -> bool:
        """Return whether the published site shows the served version (so links may lead there)."""
        return self.built and bool(self.version) and self.site_version == self.version

    def key(self) -> tuple[float, str]:
        """Return what answers with links depend on: the site's stamp and its version."""
        return self.stamp, self.site_version

    @classmethod
    def from_dir(cls, site_dir: Path, corpus: Corpus, version: str = "") -> SiteState:
        """Read the state of the site built into *site_dir* (``index.html`` at its root) for *corpus*."""
        index = site_dir / "index.html"
        try:
            stamp = index.stat().st_mtime
        except OSError:
            return cls(False, 0.0, {}, version)
        published = site_version(site_dir)
        state = cls(True, stamp, {}, version, published.digest if published is not None else "")
        if not state.current:
            return state
        from engine.site.layout import SiteLayout

        layout = SiteLayout.from_corpus(corpus)
        pages: dict[str, bool] = {}
        urls: dict[str, str] = {}
        for pid, page in layout.page_of.items():
            if page not in pages:
                pages[page] = (site_dir / f"{page}.html").is_file()
            if pages[page]:
                urls[pid] = "/site/" + layout.url(pid)
        return cls(True, stamp, urls, version, state.site_version)


@dataclass
class Services:
    """The app's in-process engine: the served corpus version, cached rulings, searches and paragraphs."""

    site_dir: Path
    index_dir: Path | None = None
    cache_bytes: int = CACHE_BYTES
    rules_dir: Path | None = None
    versions: Versions = field(init=False)
    _resolve_cache: LRU = field(init=False)
    _search_cache: LRU = field(init=False)
    _rule_cache: LRU = field(init=False)
    _raw_cache: LRU = field(init=False)
    _site: SiteState | None = field(default=None, init=False)
    _site_checked: float = field(default=-1.0, init=False)
    _examples: list[dict[str, Any]] | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        self._resolve_cache = LRU(self.cache_bytes * 3 // 8)
        self._raw_cache = LRU(self.cache_bytes * 3 // 8)
        self._search_cache = LRU(self.cache_bytes // 8)
        self._rule_cache = LRU(self.cache_bytes // 8)
        self.versions = Versions(self.rules_dir or default_root(), self.index_dir or default_index_dir())
        self.versions.on_switch(self._switched)

    def _switched(self, snap: Snapshot) -> None:
        """Drop the answers of older versions (their keys can no longer match)."""
        for cache in (self._resolve_cache, self._raw_cache, self._search_cache, self._rule_cache):
            cache.clear()

    # ------------------------------------------------------------------ version, corpus, situations, site

    def snapshot(self) -> Snapshot:
        """Return the version this request uses (pinned for the whole request), else the current one."""
        from flask import g, has_request_context

        if has_request_context():
            pinned: Snapshot | None = g.get("runecodex_snapshot")
            if pinned is None:
                pinned = g.runecodex_snapshot = self.versions.current()
            return pinned
        return self.versions.current()

    @property
    def corpus(self) -> Corpus:
        """Return the corpus of the version being served."""
        return self.snapshot().corpus

    def situations(self) -> list[Situation]:
        """Return every registered situation, by game then name."""
        return sorted(load_situations().values(), key=lambda s: (s.game, s.name))

    def examples(self) -> list[dict[str, Any]]:
        """Return the worked positions (:mod:`engine.examples`: title, source, position), read once."""
        if self._examples is None:
            out: list[dict[str, Any]] = []
            for path in example_files():
                try:
                    data = load_example(path)
                    pos = data["position"]
                    out.append({"game": pos["game"], "situation": pos["situation"], "name": path.stem,
                                "title": str(data.get("title", path.stem)), "from": str(data.get("from", "")),
                                "position": pos})
                except (OSError, ValueError, KeyError, TypeError):
                    continue  # a scenario being written; the engine's own tests report it
            self._examples = out
        return self._examples

    def site(self) -> SiteState:
        """Return the built site's state for the served version, re-read when the site or its version changes."""
        snap = self.snapshot()
        now = time.monotonic()
        current = self._site
        if (current is not None and current.version == snap.version
                and now - self._site_checked < SITE_RECHECK_SECONDS):
            return current
        with self._lock:
            try:
                stamp = (self.site_dir / "index.html").stat().st_mtime
            except OSError:
                stamp = 0.0
            published = site_version(self.site_dir) if stamp else None
            site = self._site
            if (site is None or site.stamp != stamp or site.built != bool(stamp)
                    or site.version != snap.version
                    or site.site_version != (published.digest if published is not None else "")):
                site = self._site = SiteState.from_dir(self.site_dir, snap.corpus, snap.version)
            self._site_checked = now
            return site

    def link(self, pid: str) -> str:
        """Return where to read paragraph *pid*: its place in the built site when that site shows the served
        version, else ``/rules/<id>`` (the app's page of the served version)."""
        return self.site().urls.get(pid) or f"/rules/{pid}"

    def _stamp(self) -> tuple[str, tuple[float, str]]:
        """Return what every cached answer depends on: the corpus version (and whether its search is the
        quick index of the first seconds) and the site's state."""
        return _answers_of(self.snapshot()), self.site().key()

    # ------------------------------------------------------------------ answers

    def resolve_json(self, body: bytes) -> bytes:
        """Return the ruling of a JSON position (UTF-8 bytes) as JSON bytes, with ``links`` for each cite."""
        if len(body) > CACHE_MAX_BYTES:
            return self._resolve_parsed(body)
        return self._raw_cache.get_or_make(("resolve", body, self._stamp()), lambda: self._resolve_parsed(body))

    def _resolve_parsed(self, body: bytes) -> bytes:
        position = parse_json(body)
        key = canonical(position)
        snap = self.snapshot()

        def make() -> bytes:
            return dumps(resolve(position, snap.corpus).to_json())

        ruling = make() if len(key) > CACHE_MAX_BYTES else self._resolve_cache.get_or_make(
            ("r", snap.version, key), make)
        return self._with_links(ruling)

    def cached(self, kind: str, raw: bytes) -> bytes | None:
        """Return the answer already computed for exactly these request bytes (body or query), if any.

        Used outside Flask (the fast path): never loads a version, and never answers during a switch.
        """
        snap, site = self.versions.peek(), self._site
        if snap is None or site is None or site.version != snap.version:
            return None
        if time.monotonic() - self._site_checked >= SITE_RECHECK_SECONDS:
            return None  # the site may have been published since: the app looks again before answering
        return self._raw_cache.peek((kind, raw, (_answers_of(snap), site.key())))

    def remember(self, kind: str, raw: bytes, answer: bytes) -> None:
        """Remember the answer to exactly these request bytes (see :meth:`cached`)."""
        self._raw_cache.put((kind, raw, self._stamp()), answer)

    def _with_links(self, ruling: bytes) -> bytes:
        return self._resolve_cache.get_or_make(("l", ruling, self._stamp()),
                                               lambda: _add_links(ruling, self.link))

    def search_json(self, query: str, game: str | None, limit: int, offset: int = 0,
                    detect_game: bool = True) -> bytes:
        """Return the search answer as JSON bytes, each hit with its ``url`` (``engine.search``'s shape)."""
        if len(query) > MAX_QUERY:
            raise UnreadableInputError(
                f"the query is too long ({len(query)} characters, at most {MAX_QUERY})", path="q")
        snap = self.snapshot()

        def make() -> bytes:
            if not snap.index_opens():  # opens this thread's searcher on the version's index generation
                self.versions.mark_broken()
                raise ServiceBusyError("the search index is being rebuilt; try again in a few seconds",
                                       retry_after=5, path="q")
            result = snap.index.search(query, game, limit, offset, detect_game).to_json()
            for hit in result["hits"]:
                hit["url"] = self.link(hit["id"])
            return dumps(result)

        key = (" ".join(query.split()), game, limit, offset, detect_game, self._stamp())
        return self._search_cache.get_or_make(key, make)

    def search(self, query: str, game: str | None, limit: int, offset: int = 0,
               detect_game: bool = True) -> dict[str, Any]:
        """Return the search answer as a dict (for the server-rendered search page)."""
        answer: dict[str, Any] = json.loads(self.search_json(query, game, limit, offset, detect_game))
        return answer

    def rule_json(self, pid: str) -> dict[str, Any]:
        """Return the contract's JSON of paragraph *pid* plus ``url`` (site or fallback page)."""
        from engine.registry import implemented_by

        snap = self.snapshot()
        raw = self._rule_cache.get_or_make(
            (snap.version, pid), lambda: dumps(snap.corpus.to_json(pid, implemented_by(pid))))
        data: dict[str, Any] = json.loads(raw)
        data["html"] = render.to_html(data["text"])
        data["url"] = self.link(pid)
        data["page"] = f"/rules/{pid}"
        return data

    def did_you_mean(self, pid: str) -> list[str]:
        """Return the paragraph ids nearest to the unknown *pid* (a printed locator's paragraphs first)."""
        from engine.search.locate import Place, did_you_mean

        corpus = self.corpus
        ids = list(corpus.paragraphs)
        places = [Place(game=p.game, doc=p.source.doc, page=p.source.page, section=p.source.section or "",
                        paragraph=p.source.paragraph, title=p.title) for p in corpus]
        return did_you_mean(pid, ids, places)

    def rule_bytes(self, pid: str) -> bytes:
        """Return :meth:`rule_json` as JSON bytes (cached per version and site state)."""
        return self._rule_cache.get_or_make(("b", pid, self._stamp()), lambda: dumps(self.rule_json(pid)))


def _answers_of(snap: Snapshot) -> str:
    """Return the key of what *snap* answers: its version, marked while its search is the quick index (a
    quick answer computed across the switch is then never served after it)."""
    return snap.version + ("+quick" if snap.provisional else "")


def dumps(value: Any) -> bytes:
    """Return *value* as UTF-8 JSON bytes (non-finite numbers refused: ``Infinity`` is not JSON)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")


def parse_json(body: bytes) -> Any:
    """Return the JSON value of a request body, or raise :class:`UnreadableInputError` with the path."""
    return jsoninput.parse_bytes(body)




def canonical(value: Any) -> str:
    """Return a canonical JSON text of *value* (sorted keys), the cache key of a position."""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        raise UnreadableInputError("numbers must be finite (NaN and Infinity are not JSON)",
                                   path="") from None
    except RecursionError:
        raise UnreadableInputError("the position is nested too deeply", path="") from None


def _add_links(ruling: bytes, link: Callable[[str], str]) -> bytes:
    data = json.loads(ruling)
    data["links"] = {pid: link(pid) for pid in data.get("cites", [])}
    return dumps(data)


def site_dir_default() -> Path:
    """Return ``build/site`` of this checkout (or ``$RUNECODEX_SITE``)."""
    env = os.environ.get("RUNECODEX_SITE")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "build" / "site"
