"""The human pages: search, rule pages (the fallback), the built site under /site/, the boards."""

from __future__ import annotations

import time
from pathlib import Path

from flask.testing import FlaskClient

from engine.corpus import CorpusVersion, get_corpus
from engine.site.build import write_site_version
from engine.site.layout import SiteLayout
from webapp.app import create_app


def test_home_is_the_search_page_with_a_board_per_game(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert 'id="q"' in html and 'role="search"' in html
    for game in get_corpus().games:
        assert f'href="/boards/{game}"' in html


def test_every_game_has_a_board_page(client: FlaskClient) -> None:
    for game in get_corpus().games:
        resp = client.get(f"/boards/{game}")
        assert resp.status_code == 200
        html = resp.get_data(as_text=True)
        assert f'data-game="{game}"' in html and "What happens now?" in html
    assert client.get("/boards/chess").status_code == 404
    assert client.get("/boards/").status_code == 200


def test_rule_page_renders_a_paragraph_escaped(client: FlaskClient) -> None:
    corpus = get_corpus()
    pid = next(p.id for p in corpus if p.related)
    resp = client.get(f"/rules/{pid}")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert f'id="{pid}"' in html
    assert corpus.locator(pid).replace("'", "&#39;") in html
    for other in corpus.get(pid).related:
        assert f'href="/rules/{other}"' in html


def test_unknown_rule_page_is_404_html(client: FlaskClient) -> None:
    resp = client.get("/rules/ra.nothing", headers={"Accept": "text/html"})
    assert resp.status_code == 404
    assert resp.mimetype == "text/html" and "unknown paragraph id" in resp.get_data(as_text=True)


def test_site_is_404_until_built(client: FlaskClient) -> None:
    resp = client.get("/site/", headers={"Accept": "text/html"})
    assert resp.status_code == 404
    assert "not built" in resp.get_data(as_text=True)


def test_built_site_is_served_and_rulings_link_into_it(tmp_path: Path) -> None:
    corpus = get_corpus()
    layout = SiteLayout.from_corpus(corpus)
    pid = "ra.conduct-a-battle.1"
    page = tmp_path / f"{layout.page_of[pid]}.html"
    page.parent.mkdir(parents=True)
    page.write_text(f'<html><body><p id="{pid}">battle</p></body></html>')
    (tmp_path / "index.html").write_text("<html><body>front page</body></html>")
    write_site_version(tmp_path, corpus.version)  # a site of the served version (as `runecodex build` marks it)
    client = create_app({"SITE_DIR": str(tmp_path)}).test_client()
    for url, status in (("/site/", 200), ("/site", 308), (f"/site/{layout.page_of[pid]}.html", 200),
                        ("/site/../pyproject.toml", 404), ("/site/rune-age/", 404)):
        with client.get(url) as resp:
            assert resp.status_code == status, url
            if url == "/site/":
                assert "front page" in resp.get_data(as_text=True)
    position = {"game": "rune-age", "situation": "battle", "target": {"kind": "enemy", "strength": 1},
                "army": [{"name": "A", "strength": 2}]}
    links = client.post("/api/resolve", json=position).get_json()["links"]
    assert links[pid] == f"/site/{layout.url(pid)}"
    other = next(p for p in links if layout.page_of.get(p) != layout.page_of[pid])
    assert links[other] == f"/rules/{other}", "pages not built fall back to /rules/<id>"
    assert client.get(f"/api/rules/{pid}").get_json()["url"].endswith(f".html#{pid}")
    # a site of another corpus version (or of none recorded) is never linked
    write_site_version(tmp_path, CorpusVersion(corpus.version.files, "0" * 64))
    client = create_app({"SITE_DIR": str(tmp_path)}).test_client()
    links = client.post("/api/resolve", json=position).get_json()["links"]
    assert links[pid] == f"/rules/{pid}"
    assert client.get(f"/rules/{pid}").status_code == 200 and client.get("/rules/").status_code == 200


def test_quick_reference_page_lists_topics_and_renders_the_pdf(client: FlaskClient) -> None:
    from engine.views.quickref import default_topics, topics

    html = client.get("/quickref/rune-age").get_data(as_text=True)
    chapters = topics("rune-age")
    for topic in chapters[0].topics:
        assert f'value="{topic.key}"' in html
    first = default_topics("rune-age")[0]
    for _attempt in range(20):  # a busy printer answers 503 + Retry-After (JSON) until the PDF is ready
        with client.get(f"/quickref/rune-age.pdf?t={first}&paper=letter") as resp:
            if resp.status_code == 503:
                assert resp.is_json
                time.sleep(min(int(resp.headers["Retry-After"]), 5))
                continue
            assert resp.status_code == 200 and resp.mimetype == "application/pdf"
            assert resp.data.startswith(b"%PDF")
            break
    resp = client.get("/quickref/rune-age.pdf?t=no-such-topic", headers={"Accept": "application/json"})
    assert resp.status_code == 400 and resp.get_json()["path"].startswith("topics")
    with client.get(f"/quickref/rune-age.html?t={first}") as resp:
        assert resp.status_code == 200 and "frame-ancestors" in resp.headers["Content-Security-Policy"]
    assert client.get("/quickref/").status_code == 200
