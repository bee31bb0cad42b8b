"""The installable offline app: the service worker, the web app manifest and what they pre-cache.

After a first visit the service worker (``static/sw.js``, served at ``/sw.js`` so that it controls the
whole origin) keeps in the browser's Cache Storage:

- the app shell: the search page, the boards and their editor modules, the quick-reference choosers
  and their default HTML sheets, every file under ``static/``, the situations and worked examples;
- ``/offline/data.json``: every paragraph of the corpus in one compact file (title, locator, ``short``,
  ``asked``, the rendered text, the FAQ and errata about it, related rules). Rule pages (``/rules/<id>``),
  the rulebook list and the glossary are rendered from it offline by ``/offline/rule``, and offline
  search scores the same fields (``static/js/offline-data.js``). One file of ~0.8 MB (~0.2 MB gzipped,
  served gzipped when the browser accepts it) instead of 1,300 pages: the cache stays small and is
  filled by one request.

The caches are named after :func:`cache_version`: the served corpus version plus a digest of the app's
static files and templates, written into ``/sw.js``. When either changes the browser sees a new
service worker, which fills new caches and deletes the old ones whole.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, render_template, request, url_for

from engine.corpus import Corpus
from engine.views import render
from webapp.api import services

bp = Blueprint("offline", __name__)

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"
SW_FILE = STATIC / "sw.js"
MANIFEST_FILE = STATIC / "manifest.webmanifest"
VERSION_MARK = "__RUNECODEX_CACHE_VERSION__"
NOT_PRECACHED = {"sw.js", "manifest.webmanifest"}  # served at the root of the origin instead

_lock = threading.Lock()
_data: dict[str, tuple[bytes, bytes]] = {}  # version -> (JSON, gzipped JSON): the latest version only
_assets: dict[tuple[tuple[str, int, int], ...], str] = {}


def _asset_files() -> list[Path]:
    return sorted(p for root in (STATIC, TEMPLATES) for p in root.rglob("*") if p.is_file())


def assets_digest() -> str:
    """Return a digest of the app's static files and templates (re-read only when one changed)."""
    files = _asset_files()
    key = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    with _lock:
        known = _assets.get(key)
    if known is not None:
        return known
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(HERE)).encode() + b"\0" + path.read_bytes() + b"\0")
    value = digest.hexdigest()[:12]
    with _lock:
        _assets.clear()
        _assets[key] = value
    return value


def cache_version() -> str:
    """Return the name the offline caches carry: the served corpus version and the app's assets."""
    return f"{services().snapshot().short}-{assets_digest()}"


def offline_data(corpus: Corpus) -> dict[str, Any]:
    """Return every paragraph of *corpus* in the compact shape the offline pages and search read.

    Keys per paragraph (empty ones left out): ``i`` id, ``g`` game, ``k`` kind, ``t`` title, ``l``
    locator, ``d`` document, ``s`` short, ``a`` asked, ``h`` text as HTML (corrected by errata), ``o``
    original text as HTML, ``n`` note, ``c`` contested, ``tb`` table, ``ab`` FAQ and errata about it,
    ``r`` related, ``m`` amends, ``cl`` clarifies, ``see``.
    """
    about: dict[str, list[str]] = {}
    for pid, para in corpus.paragraphs.items():
        for target in (*para.clarifies, *para.amends):
            about.setdefault(target, []).append(pid)
    rows: list[dict[str, Any]] = []
    for pid, para in corpus.paragraphs.items():
        notes = [*corpus.amended_by.get(pid, ()), *corpus.faq.get(pid, ()), *about.get(pid, ())]
        table = corpus.table_of(pid)
        row: dict[str, Any] = {
            "i": pid, "g": para.game, "k": para.kind, "t": para.title, "l": corpus.locator(pid),
            "d": para.source.doc, "s": para.short or "", "a": list(para.asked),
            "h": render.to_html(corpus.text_of(pid)),
            "o": render.to_html(para.text) if corpus.is_amended(pid) else "",
            "n": para.note or "", "c": para.contested or "", "tb": table.to_json() if table else None,
            "ab": [i for i in dict.fromkeys(notes) if i in corpus.paragraphs],
            "r": list(para.related), "m": list(para.amends), "cl": list(para.clarifies), "see": para.see or "",
        }
        rows.append({k: v for k, v in row.items() if v not in ("", [], None)})
    return {"version": corpus.version.digest, "games": dict(corpus.games),
            "docs": {key: {"title": doc.title, "game": doc.game} for key, doc in corpus.documents.items()},
            "paragraphs": rows}


def _data_bytes() -> tuple[str, bytes, bytes]:
    snap = services().snapshot()
    with _lock:
        ready = _data.get(snap.version)
    if ready is None:
        raw = json.dumps(offline_data(snap.corpus), ensure_ascii=False, separators=(",", ":")).encode()
        ready = (raw, gzip.compress(raw, 6))
        with _lock:
            _data.clear()
            _data[snap.version] = ready
    return snap.short, *ready


@bp.get("/offline/data.json")
def data() -> Response:
    """Return every paragraph in the offline shape (gzipped when accepted; an ETag of the version)."""
    short, raw, packed = _data_bytes()
    etag = f'"{short}"'
    if request.if_none_match.contains(short):
        return Response(status=304, headers={"ETag": etag})
    zipped = request.accept_encodings["gzip"] > 0
    resp = Response(packed if zipped else raw, mimetype="application/json")
    if zipped:
        resp.headers["Content-Encoding"] = "gzip"
    resp.headers["Vary"] = "Accept-Encoding"
    resp.headers["ETag"] = etag
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def precache_urls() -> list[str]:
    """Return what the service worker stores at install: the app shell, the sheets and the data file."""
    games = list(services().corpus.games)
    urls = ["/", "/search", "/boards/", "/offline/", "/offline/rule", "/offline/data.json",
            "/manifest.webmanifest", "/api/situations", "/api/games", "/quickref/"]
    for game in games:
        urls += [f"/boards/{game}", f"/api/examples?game={game}"]
    try:
        from engine.views import quickref  # noqa: F401  (the sheets exist in this build)
    except ImportError:
        pass
    else:
        for game in games:
            urls += [f"/quickref/{game}", f"/quickref/{game}.html"]
    for path in _asset_files():
        if path.is_relative_to(STATIC) and path.name not in NOT_PRECACHED:
            urls.append(url_for("static", filename=path.relative_to(STATIC).as_posix()))
    return urls


@bp.get("/offline/precache.json")
def precache() -> Response:
    """Return the cache version and the URLs the service worker stores when it installs."""
    body = json.dumps({"version": cache_version(), "urls": precache_urls()})
    return Response(body, mimetype="application/json", headers={"Cache-Control": "no-store"})


@bp.get("/sw.js")
def service_worker() -> Response:
    """Return the service worker with this version's cache name written in (never cached by HTTP)."""
    text = SW_FILE.read_text(encoding="utf-8").replace(VERSION_MARK, cache_version())
    return Response(text, mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Return the web app manifest (what a phone needs to install the app on its home screen)."""
    return Response(MANIFEST_FILE.read_bytes(), mimetype="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


@bp.get("/offline/")
def offline_page() -> str:
    """The page shown offline for an address this device has not saved (what works offline instead)."""
    return render_template("offline/offline.html")


@bp.get("/offline/rule")
def rule_shell() -> str:
    """The page that shows a rule, the rulebook list or the glossary offline, from ``/offline/data.json``."""
    return render_template("offline/rule.html")
