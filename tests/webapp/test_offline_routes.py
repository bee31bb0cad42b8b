"""What the installable offline app is made of (issue 28), over HTTP: the manifest a phone installs from,
the service worker with its versioned cache name, the list it stores at install (every URL of it answers),
and the one data file of every paragraph that offline search and rule pages read."""

from __future__ import annotations

import gzip
import json

from flask.testing import FlaskClient


def test_the_manifest_makes_the_app_installable(client: FlaskClient) -> None:
    resp = client.get("/manifest.webmanifest")
    assert resp.status_code == 200 and resp.mimetype == "application/manifest+json"
    manifest = json.loads(resp.data)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        got = client.get(icon["src"])
        got.close()
        assert got.status_code == 200, icon
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page and "js/offline.js" in page


def test_the_service_worker_names_its_caches_after_the_corpus_version(client: FlaskClient) -> None:
    resp = client.get("/sw.js")
    assert resp.status_code == 200 and resp.mimetype == "text/javascript"
    assert resp.headers["Cache-Control"] == "no-cache"
    version = client.get("/api/version").get_json()["version"]
    text = resp.get_data(as_text=True)
    assert f'const VERSION = "{version[:12]}-' in text and "__RUNECODEX" not in text
    listed = client.get("/offline/precache.json").get_json()
    assert listed["version"].startswith(version[:12])
    assert f'"{listed["version"]}"' in text


def test_every_url_stored_at_install_answers(client: FlaskClient) -> None:
    urls = client.get("/offline/precache.json").get_json()["urls"]
    for needed in ("/", "/search", "/offline/rule", "/offline/data.json", "/quickref/rune-age.html",
                   "/boards/runewars-miniatures", "/static/js/offline-data.js", "/static/js/editors/rune-age.js"):
        assert needed in urls
    for url in urls:
        resp = client.get(url)
        resp.close()
        assert resp.status_code == 200 and not resp.headers.get("Location"), url


def test_the_data_file_holds_every_paragraph_compactly(client: FlaskClient) -> None:
    plain = client.get("/offline/data.json")
    packed = client.get("/offline/data.json", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip" and len(packed.data) < len(plain.data) // 2
    data = json.loads(gzip.decompress(packed.data))
    assert data == json.loads(plain.data)
    version = client.get("/api/version").get_json()
    assert data["version"] == version["version"] and len(data["paragraphs"]) == version["paragraphs"]
    rows = {row["i"]: row for row in data["paragraphs"]}
    flank = rows["rwm.41.1"]
    assert flank["t"] and flank["s"] and flank["a"] and "<p>" in flank["h"]
    assert any(row["k"] == "glossary" for row in rows.values())
    assert any(row.get("ab") for row in rows.values())  # FAQ and errata about a rule travel with it
    etag = plain.headers["ETag"]
    assert client.get("/offline/data.json", headers={"If-None-Match": etag}).status_code == 304
