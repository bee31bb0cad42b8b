"""Fixtures of the web app tests: the Flask app and client, and a live waitress server on loopback."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webapp.app import create_app
from webapp.services import site_dir_default

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


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
