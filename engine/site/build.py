"""``runecodex build``: build the Sphinx site (and the search index), aside, then swap it in.

Layout under ``build/`` (for ``--out build/site``)::

    build/site/              the published site (index.html at its root); replaced atomically
    build/site/runecodex-version.json   the corpus version the site was built from (``site_version``)
    build/.site-cache/src/   generated page sources (the extension writes them; never committed)
    build/.site-cache/doctrees/, build/.site-cache/html/   Sphinx's environment and staging output

The staging output is built incrementally (only pages whose source changed are re-read and written),
copied to a fresh folder beside the published one and exchanged with it in one ``renameat2`` call
(``RENAME_EXCHANGE``) where the system has it, so a running server never sees a half-written site.
The build runs with warnings as errors (``-W``) and ``nitpicky``; the corpus must validate first.

Safety (:mod:`engine.files.ownership`, :mod:`engine.files.locks`): ``--out`` must be a new or empty folder or one
Runecodex made (it carries ``.runecodex-owned.json``, listing the published files); anything else,
including a file, a device node or a symbolic link, is refused before anything is written. One build
of a site runs at a time, under a lock the kernel drops when its holder dies (a waiting build says
what it waits for); Sphinx's workers and the search-index child die with the build.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import io
import json
import multiprocessing
import os
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TextIO

from engine import PROJECT_ROOT
from engine.corpus import Corpus, CorpusVersion, get_corpus
from engine.errors import RunecodexError
from engine.files import locks, ownership

ROOT = PROJECT_ROOT
DEFAULT_OUT = ROOT / "build" / "site"
SITE_VERSION_FILE = "runecodex-version.json"


class SiteBuildError(RunecodexError):
    """Raise when Sphinx reports warnings or errors (the site is then not published)."""

    def __init__(self, message: str, warnings: Sequence[str] = ()) -> None:
        super().__init__(message, path="site")
        self.warnings = list(warnings)


@dataclass(frozen=True)
class BuildReport:
    """What one build did: where, how long, how many pages, whether the search index was built."""

    out: Path
    seconds: float
    pages: int
    search_index: Path | None

    def summary(self) -> str:
        """Return one line for the terminal."""
        index = f"; search index {self.search_index}" if self.search_index else ""
        return f"built {self.pages} pages into {self.out} in {self.seconds:.1f} s{index}"


def cache_dir_for(out: Path) -> Path:
    """Return the folder of incremental build state for the site published at *out*."""
    return out.parent / f".{out.name}-cache"


def _renameat2_exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths (Linux ``renameat2(RENAME_EXCHANGE)``); return False if unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    libc_name = ctypes.util.find_library("c")
    if not libc_name:
        return False
    libc = ctypes.CDLL(libc_name, use_errno=True)
    fn = getattr(libc, "renameat2", None)
    if fn is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    res = fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return bool(res == 0)


def _staging_leftovers(out: Path) -> list[Path]:
    """Return the ``.NAME-new-PID``/``.NAME-old-PID`` folders a killed build may have left beside *out*."""
    return sorted(p for p in out.parent.glob(f".{out.name}-*-*")
                  if p.name.startswith((f".{out.name}-new-", f".{out.name}-old-")))


def publish(staged: Path, out: Path) -> None:
    """Copy *staged* beside *out* and swap it in atomically; the previous site is removed afterwards.

    *out* must be new, empty or ours (:func:`engine.files.ownership.check_dir`); the published folder carries
    a marker listing its files, and the previous one loses exactly the files its own marker lists.
    """
    ownership.check_dir(out, "the site")
    out.parent.mkdir(parents=True, exist_ok=True)
    for left in _staging_leftovers(out):  # from a build killed while swapping (we hold the lock)
        ownership.remove_owned(left)
    fresh = out.parent / f".{out.name}-new-{os.getpid()}-{time.time_ns()}"
    fresh.mkdir()
    ownership.write_marker(fresh, "site-staging", tree=True)  # ours even if this process is killed now
    shutil.copytree(staged, fresh, symlinks=True, dirs_exist_ok=True)
    ownership.write_marker(fresh, "site", (str(p.relative_to(fresh)) for p in fresh.rglob("*")
                                           if not p.is_dir() or p.is_symlink()))
    if out.is_dir() and not out.is_symlink():
        if _renameat2_exchange(fresh, out):
            ownership.remove_owned(fresh)
            return
        old = out.parent / f".{out.name}-old-{os.getpid()}-{time.time_ns()}"
        os.replace(out, old)
        os.replace(fresh, out)
        ownership.remove_owned(old)
        return
    os.replace(fresh, out)


def write_site_version(site: Path, version: CorpusVersion) -> None:
    """Record in *site* the corpus version its pages were made from (written aside, then renamed)."""
    aside = site / f".{SITE_VERSION_FILE}.{os.getpid()}.tmp"
    aside.write_text(json.dumps({"corpus_version": version.to_json()}, ensure_ascii=False), encoding="utf-8")
    os.replace(aside, site / SITE_VERSION_FILE)


def site_version(site: Path) -> CorpusVersion | None:
    """Return the corpus version the site published at *site* was built from (``None``: unknown, not built)."""
    try:
        data = json.loads((Path(site) / SITE_VERSION_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return CorpusVersion.from_json(data.get("corpus_version")) if isinstance(data, dict) else None


def build_site(out: Path | None = None, *, fresh: bool = False, jobs: int | None = None,
               rules: Path | None = None, search_index: bool = True, status: TextIO | None = None,
               pictures: bool = True, pages: Path | None = None) -> BuildReport:
    """Build the site into *out* (default ``build/site``) with ``-W`` and ``nitpicky``; return a report.

    *rules* is the corpus folder (default ``rules/``), *pages* the hand-written pages (default ``site/``).

    Raises :class:`~engine.errors.CorpusError` when the corpus does not validate and
    :class:`SiteBuildError` (with every warning) when Sphinx warns; nothing is published then.
    """
    started = time.perf_counter()
    out = Path(out) if out is not None else DEFAULT_OUT
    cache = cache_dir_for(out)
    ownership.check_dir(out, "the site")  # a folder of the user's is refused before anything is written
    ownership.check_dir(cache, "the site's build cache")
    corpus = get_corpus(rules)  # validate first: a broken corpus fails here, clearly
    cache.parent.mkdir(parents=True, exist_ok=True)
    with locks.exclusive(locks.lock_path(out), f"another build of {out}"):
        return _build_locked(out, cache, corpus, fresh=fresh, jobs=jobs, search_index=search_index,
                             status=status, pictures=pictures, pages=pages, started=started)


def _build_locked(out: Path, cache: Path, corpus: Corpus, *, fresh: bool, jobs: int | None, search_index: bool,
                  status: TextIO | None, pictures: bool, pages: Path | None, started: float) -> BuildReport:
    """Run Sphinx on the staging folder (the lock held), build the search index, publish the site."""
    from sphinx.application import Sphinx
    from sphinx.errors import SphinxError
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    stamp = cache / "complete"
    if cache.exists() and (fresh or not stamp.is_file()):
        # asked for, or the last build stopped half-way: start clean (removing only what is ours)
        left = ownership.remove_owned(cache)
        if left:
            raise ownership.OutputRefusedError(f"cannot clear the site's build cache {str(cache)!r}: "
                                               f"{str(left[0])!r} is not runecodex's", path="output")
    ownership.claim_dir(cache, "site-cache", "the site's build cache", tree=True)
    srcdir, doctrees, staged = cache / "src", cache / "doctrees", cache / "html"
    for d in (srcdir, doctrees, staged):
        d.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    warnings = io.StringIO()
    overrides: dict[str, object] = {"runecodex_rules": str(corpus.root), "runecodex_graph_pictures": pictures}
    if pages is not None:
        overrides["runecodex_pages"] = str(Path(pages).resolve())
    parallel = jobs if jobs is not None else min(2, os.cpu_count() or 1)
    # the search index is built by a forked child while Sphinx works (it swaps itself in atomically)
    indexer = _start_search_index(corpus, fresh) if search_index else None
    try:
        with patch_docutils(ROOT), docutils_namespace():
            app = Sphinx(srcdir, ROOT, staged, doctrees, "html", confoverrides=overrides,
                         status=status, warning=warnings, freshenv=fresh, warningiserror=True,
                         parallel=parallel)
            app.build()
    except BaseException as exc:
        if indexer is not None:
            with contextlib.suppress(SiteBuildError):  # the site's own failure is the one to report
                _finish_search_index(indexer)
        if isinstance(exc, SphinxError):
            raise SiteBuildError(f"the site build failed: {exc}", warnings.getvalue().splitlines()) from exc
        raise
    index_dir = _finish_search_index(indexer) if indexer is not None else None
    lines = [ln for ln in warnings.getvalue().splitlines() if ln.strip()]
    if lines or app.statuscode:
        raise SiteBuildError(f"the site build reported {len(lines)} warning(s) (warnings are errors)", lines)
    write_site_version(staged, corpus.version)
    publish(staged, out)
    ownership.write_aside(stamp, b"the staging folder matches the published site\n")
    page_count = sum(1 for _ in out.rglob("*.html"))
    return BuildReport(out, time.perf_counter() - started, page_count, index_dir)


def _build_search_index(corpus: Corpus, fresh: bool) -> Path | None:
    """Build the search index (``engine.search.index``) when that module is importable.

    A fresh build always rebuilds it; otherwise it is rebuilt only when older than the corpus files.
    """
    try:
        from engine.search.index import build_index, ensure_index
    except ImportError:
        return None
    if fresh:
        return Path(build_index(corpus=corpus))
    return Path(ensure_index(rules=corpus.root))


Indexer = tuple["multiprocessing.process.BaseProcess", "Connection"]


def _index_child(corpus: Corpus, fresh: bool, conn: Connection, parent: int) -> None:
    """Build the search index in a child process and send back ``("ok", path)`` or ``("error", message)``."""
    locks.die_with_parent(parent)  # a killed build takes its helper with it
    try:
        built = _build_search_index(corpus, fresh)
        conn.send(("ok", str(built) if built is not None else ""))
    except BaseException as exc:  # every failure goes back to the parent, which reports it
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _start_search_index(corpus: Corpus, fresh: bool) -> Indexer | None:
    """Fork a child building the search index (before Sphinx starts, while this process has one thread)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_index_child, args=(corpus, fresh, send, os.getpid()), name="runecodex-search-index")
    proc.start()
    send.close()
    return proc, receive


def _finish_search_index(indexer: Indexer) -> Path | None:
    """Wait for the search index child; raise :class:`SiteBuildError` when it failed."""
    proc, conn = indexer
    try:
        status, value = conn.recv()
    except EOFError:
        status, value = "error", "the search index process stopped without an answer"
    finally:
        conn.close()
        proc.join()
    if status != "ok":
        raise SiteBuildError(f"the search index could not be built: {value}")
    return Path(value) if value else None


def build_command(out: str | None, fresh: bool, jobs: int | None, quiet: bool) -> int:
    """Run ``runecodex build``: print Sphinx's progress (unless *quiet*), warnings and a summary."""
    status = None if quiet else sys.stderr
    try:
        report = build_site(Path(out) if out else None, fresh=fresh, jobs=jobs, status=status)
    except SiteBuildError as exc:
        for line in exc.warnings:
            print(line, file=sys.stderr)
        print(f"runecodex: {exc.message}; nothing was published", file=sys.stderr)
        return 1
    print(report.summary())
    return 0
