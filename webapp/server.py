"""Serve the web app with waitress (``runecodex serve``), building a missing site and search index first."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from engine.errors import RunecodexError
from webapp.app import create_app
from webapp.services import site_dir_default

# waitress: one process, a few worker threads (the work is CPU-bound Python under one GIL: more threads
# only add switching); a deep listen backlog and enough connection slots for 32+ keep-alive clients
THREADS = 4
CONNECTION_LIMIT = 256
BACKLOG = 1024
# hand the GIL over more often than the default 5 ms: short requests then wait less behind long ones
SWITCH_INTERVAL = 0.001


def prepare(site_dir: Path, out: TextIO = sys.stderr) -> None:
    """Build the site and the search index when they are missing (never fatal: the app has fallbacks)."""
    if not (site_dir / "index.html").is_file():
        try:
            from engine.build import build_site
        except ImportError:
            print("serve: the site builder is not available; rule links use /rules/<id>", file=out)
        else:
            print(f"serve: building the site into {site_dir} (first run only)…", file=out, flush=True)
            try:
                report = build_site(site_dir, status=None)
                print(f"serve: {report.summary()}", file=out)
            except RunecodexError as exc:
                print(f"serve: the site was not built ({exc.message}); rule links use /rules/<id>", file=out)
    try:
        from engine.search_index import ensure_index
    except ImportError:
        return
    try:
        ensure_index()
    except RunecodexError as exc:
        print(f"serve: the search index was not built ({exc.message})", file=out)


def warm(app: object) -> None:
    """Load the corpus, situations and search index once before the first request."""
    from webapp.services import Services

    svc: Services = app.extensions["runecodex"]  # type: ignore[attr-defined]
    svc.situations()
    _ = svc.corpus
    svc.site()
    try:
        svc.search_json("battle", None, 10)
    except RunecodexError as exc:
        print(f"serve: search is not ready ({exc.message})", file=sys.stderr)


def serve(host: str = "127.0.0.1", port: int = 8000, threads: int = THREADS, build: bool = True) -> int:
    """Run the app under waitress until interrupted; return the exit status."""
    from waitress import create_server

    sys.setswitchinterval(SWITCH_INTERVAL)
    site_dir = site_dir_default()
    if build:
        prepare(site_dir)
    app = create_app({"SITE_DIR": str(site_dir)})
    warm(app)
    server = create_server(app, host=host, port=port, threads=threads, connection_limit=CONNECTION_LIMIT,
                           backlog=BACKLOG, channel_timeout=30, max_request_body_size=1024 * 1024,
                           ident="runecodex", clear_untrusted_proxy_headers=True)
    shown = f"[{host}]" if ":" in host else host
    print(f"Runecodex is serving on http://{shown}:{server.effective_port}/  (Ctrl-C to stop)", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
