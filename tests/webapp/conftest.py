"""Fixtures of the web app tests: the Flask app and client, and a live waitress server on loopback."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine.examples import EXAMPLES as EXAMPLE_ROOT
from webapp.app import create_app
from webapp.services import site_dir_default

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = EXAMPLE_ROOT


@pytest.fixture(scope="session")
def positions() -> list[tuple[str, dict[str, Any]]]:
    """Return (name, position) of every scenario file of the repository (the engine authors' rulings)."""
    out = []
    for path in sorted(SCENARIOS.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        out.append((f"{path.parent.name}/{path.stem}", data["position"]))
    return out


@pytest.fixture(scope="session")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """Return the app with no built site (rule links fall back to /rules/<id>)."""
    site = tmp_path_factory.mktemp("no-site")
    return create_app({"TESTING": True, "SITE_DIR": str(site)})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Return a test client of :func:`app`."""
    return app.test_client()


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """Serve the real app (with build/site when it is built) with waitress on a free loopback port."""
    from waitress import create_server

    application = create_app({"SITE_DIR": str(site_dir_default())})
    server = create_server(application, host="127.0.0.1", port=0, threads=4)
    port = server.effective_port  # type: ignore[union-attr]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)  # type: ignore[union-attr]
    server.close()
    thread.join(timeout=5)


# ------------------------------------------------------------------ Debian's Chromium under Playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Return Debian's Chromium under Playwright, one for the whole run (skipped where it is not installed)."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (scripts/system-deps.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _page(browser: Any, **options: Any) -> Iterator[Any]:
    context = browser.new_context(**options)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_default_timeout(10_000)
    yield pg
    context.close()
    assert not errors, errors


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A desktop page (1280 px); any uncaught script error fails the test."""
    yield from _page(browser, viewport={"width": 1280, "height": 900})


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A phone page (390 px, touch); any uncaught script error fails the test."""
    yield from _page(browser, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                     device_scale_factor=2)


@pytest.fixture
def new_page(browser: Any) -> Callable[..., AbstractContextManager[Any]]:
    """Return a function opening a page with the given context options (``with new_page(viewport=…) as pg``)."""
    return functools.partial(contextmanager(_page), browser)
