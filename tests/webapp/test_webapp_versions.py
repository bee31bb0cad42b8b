"""One corpus version everywhere: a running app switches from the old rules to the new as a whole.

The rules are a temporary copy (``RUNECODEX_RULES``), the index a temporary folder: the real ``rules/``
and ``build/index`` are never touched. ``Versions.poll()`` is what the server's background thread calls
every two seconds; here the test calls it, so "before" and "after" the switch are exact.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine.corpus import default_root, load_corpus
from engine.examples import EXAMPLES as EXAMPLE_ROOT
from webapp.app import create_app
from webapp.services import Services

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = EXAMPLE_ROOT / "rune-age" / "battle-city-fails.json"
TOKEN = "zyxquorble"


@pytest.fixture
def rules_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Return a copy of the corpus that RUNECODEX_RULES points at."""
    target = tmp_path / "rules"
    shutil.copytree(default_root(), target, ignore=shutil.ignore_patterns("*.md"))
    monkeypatch.setenv("RUNECODEX_RULES", str(target))
    return target


@pytest.fixture
def versioned_app(tmp_path: Path, rules_copy: Path) -> Iterator[Flask]:
    """Return an app serving *rules_copy* with its own index folder and no built site."""
    app = create_app({"TESTING": True, "RULES_DIR": str(rules_copy), "INDEX_DIR": str(tmp_path / "build" / "index"),
                      "SITE_DIR": str(tmp_path / "no-site")})
    yield app
    services(app).versions.stop()


def services(app: Flask) -> Services:
    svc: Services = app.extensions["runecodex"]
    return svc


def cited_paragraph(client: FlaskClient) -> tuple[dict[str, Any], str]:
    """Return the scenario's position and the first paragraph its ruling cites."""
    position = json.loads(SCENARIO.read_text(encoding="utf-8"))["position"]
    ruling = client.post("/api/resolve", json=position).get_json()
    return position, ruling["cites"][0]


def edit_paragraph(rules: Path, pid: str) -> None:
    """Put TOKEN into the title of paragraph *pid* in its YAML file (a small in-place edit)."""
    corpus = load_corpus(rules)
    para = corpus.get(pid)
    path = rules / para.file if not Path(para.file).is_absolute() else Path(para.file)
    if not path.is_file():
        path = next(p for p in rules.rglob("*.yaml") if f"id: {pid}\n" in p.read_text(encoding="utf-8"))
    text = path.read_text(encoding="utf-8")
    start = text.index(f"id: {pid}\n")
    title_at = text.index("title:", start)
    line_end = text.index("\n", title_at)
    old = text[title_at:line_end]
    value = old.removeprefix("title:").strip()
    quoted = value[:1] in "\"'"
    new_value = f'{value[0]}{TOKEN} {value[1:]}' if quoted else f"{TOKEN} {value}"
    path.write_text(text[:title_at] + "title: " + new_value + text[line_end:], encoding="utf-8")


def seen(client: FlaskClient, position: dict[str, Any], pid: str) -> dict[str, bool]:
    """Return, per part of the app, whether it shows the edited title."""
    hits = client.get(f"/api/search?q={TOKEN}&limit=5").get_json()["hits"]
    rule = client.get(f"/api/rules/{pid}").get_json()
    ruling = client.post("/api/resolve", json=position).get_json()
    page = client.get(f"/rules/{pid}").get_data(as_text=True)
    return {"search": any(h["id"] == pid for h in hits), "rules": TOKEN in rule["title"],
            "ruling": TOKEN in ruling["sources"][pid]["title"], "page": TOKEN in page}


def test_an_edited_paragraph_appears_everywhere_at_once_after_the_switch(versioned_app: Flask,
                                                                         rules_copy: Path) -> None:
    client = versioned_app.test_client()
    svc = services(versioned_app)
    position, pid = cited_paragraph(client)
    old_version = client.get("/api/version").get_json()["version"]
    assert seen(client, position, pid) == {"search": False, "rules": False, "ruling": False, "page": False}

    edit_paragraph(rules_copy, pid)
    # requests never rebuild anything: until the poll, the old version answers everywhere
    assert seen(client, position, pid) == {"search": False, "rules": False, "ruling": False, "page": False}
    assert client.get("/api/version").get_json()["version"] == old_version

    assert svc.versions.poll() is True
    after = client.get("/api/version")
    assert after.get_json()["version"] != old_version and after.get_json()["pending"] is False
    assert after.headers["X-Runecodex-Corpus"] == after.get_json()["version"][:12]
    assert seen(client, position, pid) == {"search": True, "rules": True, "ruling": True, "page": True}
    # every search hit of the new version has a rule page
    for hit in client.get(f"/api/search?q={TOKEN}+battle&limit=20").get_json()["hits"]:
        assert client.get(f"/api/rules/{hit['id']}").status_code == 200


def test_a_corpus_that_stops_validating_keeps_the_old_version_and_says_a_rebuild_is_pending(
        versioned_app: Flask, rules_copy: Path) -> None:
    client = versioned_app.test_client()
    svc = services(versioned_app)
    position, pid = cited_paragraph(client)
    before = client.get("/api/version").get_json()
    broken = rules_copy / "rune-age" / "zz-broken.yaml"
    broken.write_text("paragraphs:\n  - id: ra.broken\n    kind: nonsense\n", encoding="utf-8")
    assert svc.versions.poll() is False
    status = client.get("/api/version")
    assert status.get_json()["version"] == before["version"]
    assert status.get_json()["pending"] is True and "validate" in status.get_json()["reason"]
    assert status.headers["X-Runecodex-Rebuild"] == "pending"
    assert client.post("/api/resolve", json=position).status_code == 200
    assert client.get(f"/api/rules/{pid}").status_code == 200
    broken.unlink()
    edit_paragraph(rules_copy, pid)
    assert svc.versions.poll() is True
    assert seen(client, position, pid) == {"search": True, "rules": True, "ruling": True, "page": True}
    assert client.get("/api/version").get_json()["pending"] is False


def test_a_deleted_index_is_rebuilt_by_the_next_poll_not_a_permanent_error(versioned_app: Flask) -> None:
    client = versioned_app.test_client()
    svc = services(versioned_app)
    assert client.get("/api/search?q=battle").status_code == 200
    build = svc.versions.index_dir.parent
    shutil.rmtree(build)  # `rm -rf build`: the index link and every generation
    resp = client.get("/api/search?q=morale+test")  # an open searcher may still answer; else a JSON 503
    assert resp.status_code in (200, 503) and resp.is_json
    if resp.status_code == 503:
        assert resp.headers["Retry-After"]
    assert svc.versions.poll() is True
    assert svc.versions.current().index_present()
    resp = client.get("/api/search?q=morale+test+rout")
    assert resp.status_code == 200 and resp.get_json()["hits"]


def test_the_fast_path_never_answers_from_another_version(versioned_app: Flask, rules_copy: Path) -> None:
    client = versioned_app.test_client()
    svc = services(versioned_app)
    position, pid = cited_paragraph(client)
    body = json.dumps(position).encode()
    first = client.post("/api/resolve", data=body, content_type="application/json").get_json()
    assert TOKEN not in first["sources"][pid]["title"]
    edit_paragraph(rules_copy, pid)
    assert svc.versions.poll() is True
    again = client.post("/api/resolve", data=body, content_type="application/json").get_json()
    assert TOKEN in again["sources"][pid]["title"]


def test_a_corrupt_index_is_a_503_then_rebuilt_not_a_permanent_error(versioned_app: Flask) -> None:
    client = versioned_app.test_client()
    svc = services(versioned_app)
    snap = svc.versions.current()
    for path in snap.index_dir.glob("*.toc"):  # whoosh's table of contents
        path.write_bytes(b"\0garbage\0" * 10)
    resp = client.get("/api/search?q=morale")
    assert resp.status_code == 503 and resp.headers["Retry-After"]
    assert set(resp.get_json()) == {"error", "path"} and "rebuilt" in resp.get_json()["error"]
    assert client.get("/api/version").get_json()["pending"] is True
    assert svc.versions.poll() is True
    resp = client.get("/api/search?q=morale")
    assert resp.status_code == 200 and resp.get_json()["hits"]
    assert client.get("/api/version").get_json()["pending"] is False
