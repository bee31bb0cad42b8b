"""One corpus version everywhere: a running app switches from the old rules to the new as a whole.

The rules are a temporary copy (``RUNECODEX_RULES``), the index a temporary folder: the real ``rules/``
and ``build/index`` are never touched. ``Versions.poll()`` is what the server's background thread calls
every two seconds; here the test calls it, so "before" and "after" the switch are exact.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
import time
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


# ------------------------------------------------------------------ links and the built site of one version


def cli_build(rules: Path, site: Path, index: Path) -> None:
    """Run ``runecodex build`` (site and search index) on *rules*, as a user would."""
    env = {**os.environ, "RUNECODEX_RULES": str(rules), "RUNECODEX_CACHE": str(site.parent / "corpus-cache"),
           "RUNECODEX_INDEX": str(index)}
    result = subprocess.run([sys.executable, "-m", "engine.cli", "build", "--out", str(site), "-j", "1", "-q"],
                            capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, check=False)
    assert result.returncode == 0, result.stderr


@pytest.fixture
def site_app(tmp_path: Path, rules_copy: Path) -> Iterator[Flask]:
    """Return an app serving *rules_copy* with the site built from it (``runecodex build``)."""
    site, index = tmp_path / "build" / "site", tmp_path / "build" / "index"
    cli_build(rules_copy, site, index)
    app = create_app({"TESTING": True, "RULES_DIR": str(rules_copy), "INDEX_DIR": str(index),
                      "SITE_DIR": str(site)})
    yield app
    services(app).versions.stop()


def handed_out(client: FlaskClient, position: dict[str, Any], pid: str, query: str) -> dict[str, str]:
    """Return every link the app hands out for paragraph *pid*: search (API and page), ruling, rule page."""
    hits = client.get("/api/search", query_string={"q": query, "limit": 20}).get_json()["hits"]
    page = client.get("/search", query_string={"q": query}).get_data(as_text=True)
    listed = re.search(rf'href="([^"]+)" data-pid="{re.escape(pid)}"', page)
    assert listed is not None, f"{pid} is not among the search page's results for {query!r}"
    ruling = client.post("/api/resolve", json=position).get_json()
    return {"search api": next(h["url"] for h in hits if h["id"] == pid), "search page": html.unescape(listed[1]),
            "ruling": ruling["links"][pid], "rule page": f"/rules/{pid}"}


def follow(client: FlaskClient, url: str) -> tuple[str, str, str]:
    """Return where *url* finally leads (redirects followed), the text served there and its version header."""
    with client.get(url.split("#")[0], follow_redirects=True) as resp:  # a site file is streamed: close it
        assert resp.status_code == 200, url
        return resp.request.path, resp.get_data(as_text=True), resp.headers.get("X-Runecodex-Corpus", "")


@pytest.mark.slow
def test_every_link_serves_the_version_it_names_after_an_edit_until_and_after_the_site_is_rebuilt(
        site_app: Flask, rules_copy: Path, tmp_path: Path) -> None:
    client = site_app.test_client()
    svc = services(site_app)
    position, pid = cited_paragraph(client)
    title = client.get(f"/api/rules/{pid}").get_json()["title"]
    before = handed_out(client, position, pid, title)
    assert all(url.startswith("/site/") for kind, url in before.items() if kind != "rule page"), before
    # the rule page is one page whether or not the site is built (issue 28): it links the site, never redirects
    where, text, _ = follow(client, f"/rules/{pid}")
    assert where == f"/rules/{pid}" and 'href="/site/' in text

    edit_paragraph(rules_copy, pid)
    assert svc.versions.poll() is True
    new = client.get("/api/version").get_json()["version"][:12]
    # the published site is of the old version: every link leads to the app's own page of the new one
    for kind, url in handed_out(client, position, pid, TOKEN).items():
        where, text, header = follow(client, url)
        assert where == f"/rules/{pid}", (kind, url, where)
        assert TOKEN in text and header == new, (kind, url)
    assert not follow(client, "/rules/")[0].startswith("/site/")

    cli_build(rules_copy, tmp_path / "build" / "site", tmp_path / "build" / "index")
    time.sleep(2.1)  # the app looks at the published site every 2 s
    # the site of the new version is published: links lead there again, and it shows the new text
    for kind, url in handed_out(client, position, pid, TOKEN).items():
        where, text, header = follow(client, url)
        assert where == f"/rules/{pid}" if kind == "rule page" else where.startswith("/site/"), (kind, url, where)
        assert TOKEN in text and header == new, (kind, url)


# ------------------------------------------------------------------ every corpus file is part of the version


def fetch_pdf(client: FlaskClient, url: str) -> bytes:
    """Return the PDF at *url*, waiting while the printer answers 503 (busy)."""
    for _attempt in range(40):
        with client.get(url) as resp:
            if resp.status_code == 503:
                time.sleep(min(int(resp.headers["Retry-After"]), 3))
                continue
            assert resp.status_code == 200 and resp.mimetype == "application/pdf", resp.get_data(as_text=True)
            return resp.data
    raise AssertionError(f"{url} was never printed")


def pdf_text(data: bytes, tmp_path: Path) -> str:
    """Return the text of a PDF (poppler's pdftotext), or "" where it is not installed."""
    if shutil.which("pdftotext") is None:
        return ""
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_a_quickref_yaml_edit_makes_a_new_version_and_a_new_pdf(versioned_app: Flask, rules_copy: Path,
                                                                 tmp_path: Path) -> None:
    client = versioned_app.test_client()
    svc = services(versioned_app)
    url = "/quickref/rune-age.pdf?t=turn&paper=a4"
    try:
        old_version = client.get("/api/version").get_json()["version"]
        first = fetch_pdf(client, url)
        assert fetch_pdf(client, url) == first  # the same version: the cached sheet
        path = rules_copy / "quickref.yaml"
        text = path.read_text(encoding="utf-8")
        assert "heading: A player's turn\n" in text
        path.write_text(text.replace("heading: A player's turn\n", f"heading: A {TOKEN} turn\n", 1),
                        encoding="utf-8")
        assert svc.versions.poll() is True
        assert client.get("/api/version").get_json()["version"] != old_version
        second = fetch_pdf(client, url)
        assert second != first
        shown = pdf_text(second, tmp_path)
        assert not shown or TOKEN in shown
    finally:
        pool = versioned_app.extensions.get("runecodex-pdf")
        if pool is not None:
            pool.shutdown()


def test_a_facts_yaml_edit_makes_a_new_version(versioned_app: Flask, rules_copy: Path) -> None:
    client = versioned_app.test_client()
    svc = services(versioned_app)
    old_version = client.get("/api/version").get_json()["version"]
    path = rules_copy / "facts.yaml"
    path.write_text(path.read_text(encoding="utf-8") + f"# {TOKEN}: a note of the rules editor\n", encoding="utf-8")
    assert svc.versions.poll() is True
    status = client.get("/api/version")
    assert status.get_json()["version"] != old_version and status.get_json()["pending"] is False
    assert status.headers["X-Runecodex-Corpus"] == status.get_json()["version"][:12]
