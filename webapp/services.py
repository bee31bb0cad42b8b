"""Hold what the web app serves from memory: the corpus, situations, site layout and answer caches.

Rulings and search answers are pure functions of their input (and of the corpus, which a running
server loads once), so they are cached as ready-to-send JSON bytes in small LRU caches keyed by the
canonical JSON of the request. Links to the built site depend on whether ``build/site`` exists; they
are added per request from a map that is recomputed when the site's ``index.html`` changes.
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

from engine.core import Situation, load_situations, resolve
from engine.corpus import Corpus, get_corpus
from engine.errors import UnreadableInputError

SITE_RECHECK_SECONDS = 2.0
SCENARIOS = Path(__file__).resolve().parent.parent / "tests" / "scenarios"
MAX_QUERY = 500
MAX_LIMIT = 100
CACHE_MAX_BYTES = 32 * 1024  # larger positions are resolved every time (the caches stay small)


class LRU:
    """Keep the most recently used *size* values (thread-safe)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_make(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        """Return the cached value of *key*, computing it with *make* on a miss."""
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
                return value
        value = make()
        with self._lock:
            self._data[key] = value
            if len(self._data) > self.size:
                self._data.popitem(last=False)
        return value

    def peek(self, key: Hashable) -> bytes | None:
        """Return the cached value of *key* (marking it recently used), or ``None``."""
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: Hashable, value: bytes) -> None:
        """Store *value* under *key*."""
        with self._lock:
            self._data[key] = value
            if len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        """Forget every cached value."""
        with self._lock:
            self._data.clear()


@dataclass(frozen=True)
class SiteState:
    """Whether the built site is there, and the URL of each paragraph in it (``/site/...#id``)."""

    built: bool
    stamp: float
    urls: Mapping[str, str]

    @classmethod
    def from_dir(cls, site_dir: Path, corpus: Corpus) -> SiteState:
        """Read the state of the site built into *site_dir* (``index.html`` at its root)."""
        index = site_dir / "index.html"
        try:
            stamp = index.stat().st_mtime
        except OSError:
            return cls(False, 0.0, {})
        from engine.site.layout import SiteLayout

        layout = SiteLayout.from_corpus(corpus)
        pages: dict[str, bool] = {}
        urls: dict[str, str] = {}
        for pid, page in layout.page_of.items():
            if page not in pages:
                pages[page] = (site_dir / f"{page}.html").is_file()
            if pages[page]:
                urls[pid] = "/site/" + layout.url(pid)
        return cls(True, stamp, urls)


@dataclass
class Services:
    """The app's in-process engine: cached rulings, searches and paragraph pages."""

    site_dir: Path
    index_dir: Path | None = None
    cache_size: int = 2048
    _resolve_cache: LRU = field(init=False)
    _search_cache: LRU = field(init=False)
    _rule_cache: LRU = field(init=False)
    _raw_cache: LRU = field(init=False)
    _site: SiteState | None = field(default=None, init=False)
    _site_checked: float = field(default=-1.0, init=False)
    _examples: list[dict[str, Any]] | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        self._resolve_cache = LRU(self.cache_size)
        self._search_cache = LRU(self.cache_size)
        self._rule_cache = LRU(self.cache_size)
        self._raw_cache = LRU(self.cache_size)

    # ------------------------------------------------------------------ corpus, situations, site

    @property
    def corpus(self) -> Corpus:
        """Return the corpus (loaded once per process)."""
        return get_corpus()

    def situations(self) -> list[Situation]:
        """Return every registered situation, by game then name."""
        return sorted(load_situations().values(), key=lambda s: (s.game, s.name))

    def examples(self) -> list[dict[str, Any]]:
        """Return the worked positions of ``tests/scenarios`` (title, source, position), read once."""
        if self._examples is None:
            out: list[dict[str, Any]] = []
            for path in sorted(SCENARIOS.glob("*/*.json")):
                try:
                    data = json.loads(path.read_text(encoding="utf-8"))
                    pos = data["position"]
                    out.append({"game": pos["game"], "situation": pos["situation"], "name": path.stem,
                                "title": str(data.get("title", path.stem)), "from": str(data.get("from", "")),
                                "position": pos})
                except (OSError, ValueError, KeyError, TypeError):
                    continue  # a scenario being written; the engine's own tests report it
            self._examples = out
        return self._examples

    def site(self) -> SiteState:
        """Return the built site's state, re-read when its ``index.html`` changes."""
        now = time.monotonic()
        current = self._site
        if current is not None and now - self._site_checked < SITE_RECHECK_SECONDS:
            return current
        with self._lock:
            try:
                stamp = (self.site_dir / "index.html").stat().st_mtime
            except OSError:
                stamp = 0.0
            if self._site is None or self._site.stamp != stamp or self._site.built != bool(stamp):
                self._site = SiteState.from_dir(self.site_dir, self.corpus)
            self._site_checked = now
            return self._site

    def link(self, pid: str) -> str:
        """Return where to read paragraph *pid*: its place in the built site, else ``/rules/<id>``."""
        return self.site().urls.get(pid) or f"/rules/{pid}"

    # ------------------------------------------------------------------ answers

    def resolve_json(self, body: bytes) -> bytes:
        """Return the ruling of a JSON position (UTF-8 bytes) as JSON bytes, with ``links`` for each cite."""
        if len(body) > CACHE_MAX_BYTES:
            return self._resolve_parsed(body)
        stamp = self.site().stamp
        return self._raw_cache.get_or_make(("resolve", body, stamp), lambda: self._resolve_parsed(body))

    def _resolve_parsed(self, body: bytes) -> bytes:
        position = parse_json(body)
        key = canonical(position)

        def make() -> bytes:
            return json.dumps(resolve(position).to_json(), ensure_ascii=False).encode()

        ruling = make() if len(key) > CACHE_MAX_BYTES else self._resolve_cache.get_or_make(("r", key), make)
        return self._with_links(ruling)

    def cached(self, kind: str, raw: bytes) -> bytes | None:
        """Return the answer already computed for exactly these request bytes (body or query), if any."""
        return self._raw_cache.peek((kind, raw, self.site().stamp))

    def remember(self, kind: str, raw: bytes, answer: bytes) -> None:
        """Remember the answer to exactly these request bytes (see :meth:`cached`)."""
        self._raw_cache.put((kind, raw, self.site().stamp), answer)

    def _with_links(self, ruling: bytes) -> bytes:
        site = self.site()
        return self._resolve_cache.get_or_make(("l", ruling, site.stamp),
                                               lambda: _add_links(ruling, self.link))

    def search_json(self, query: str, game: str | None, limit: int) -> bytes:
        """Return the search answer as JSON bytes, each hit with its ``url``."""
        if len(query) > MAX_QUERY:
            raise UnreadableInputError(
                f"the query is too long ({len(query)} characters, at most {MAX_QUERY})", path="q")
        site = self.site()

        def make() -> bytes:
            from engine.search import search

            if self.index_dir is not None:
                result = search(query, game, limit, index_dir=self.index_dir).to_json()
            else:
                result = search(query, game, limit).to_json()
            for hit in result["hits"]:
                hit["url"] = self.link(hit["id"])
            return json.dumps(result, ensure_ascii=False).encode()

        return self._search_cache.get_or_make((" ".join(query.split()), game, limit, site.stamp), make)

    def rule_json(self, pid: str) -> dict[str, Any]:
        """Return the contract's JSON of paragraph *pid* plus ``url`` (site or fallback page)."""
        from engine.registry import implemented_by

        corpus = self.corpus
        raw = self._rule_cache.get_or_make(
            pid, lambda: json.dumps(corpus.to_json(pid, implemented_by(pid)), ensure_ascii=False).encode())
        data: dict[str, Any] = json.loads(raw)
        data["url"] = self.link(pid)
        data["page"] = f"/rules/{pid}"
        return data

    def rule_bytes(self, pid: str) -> bytes:
        """Return :meth:`rule_json` as JSON bytes (cached per site state)."""
        stamp = self.site().stamp
        return self._rule_cache.get_or_make(
            ("b", pid, stamp), lambda: json.dumps(self.rule_json(pid), ensure_ascii=False).encode())


def parse_json(body: bytes) -> Any:
    """Return the JSON value of a request body, or raise :class:`UnreadableInputError` (path ``""``)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableInputError("the request body is not UTF-8 text", path="") from None
    if not text.strip():
        raise UnreadableInputError("the request body is empty: send one JSON position", path="")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise UnreadableInputError(f"not valid JSON: {exc.msg.lower()} at {where}", path="") from None
    except RecursionError:
        raise UnreadableInputError("not valid JSON: nested too deeply", path="") from None
    except ValueError as exc:  # e.g. an integer longer than Python reads
        raise UnreadableInputError(f"not valid JSON: {str(exc).lower()}", path="") from None


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
    return json.dumps(data, ensure_ascii=False).encode()


def site_dir_default() -> Path:
    """Return ``build/site`` of this checkout (or ``$RUNECODEX_SITE``)."""
    env = os.environ.get("RUNECODEX_SITE")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "build" / "site"
