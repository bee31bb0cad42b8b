"""The site builds in the background while the app serves: its progress is read from Sphinx's output and
shown on /site/ until the site is there."""

from __future__ import annotations

from flask.testing import FlaskClient

from webapp import sitebuild


def test_sphinx_status_lines_give_the_phase_and_percent() -> None:
    line = "\x1b[01mwriting output... \x1b[39;49;00m[ 33%] \x1b[32mruneslingers/glossary/exposed\x1b[39;49;00m"
    assert sitebuild.parse_line(line) == ("writing output", 33)
    assert sitebuild.parse_line("reading sources... [100%] index") == ("reading sources", 100)
    assert sitebuild.parse_line("build succeeded.") is None


def test_site_pages_show_the_build_progress(client: FlaskClient) -> None:
    sitebuild._set(state="building", phase="writing output", percent=42, started=1.0)
    try:
        resp = client.get("/site/rune-age/index.html", headers={"Accept": "text/html"})
        assert resp.status_code == 404
        page = resp.get_data(as_text=True)
        assert "being built" in page and "writing output 42 %" in page
        assert resp.headers["Refresh"] == "3"
        assert client.get("/site/", headers={"Accept": "application/json"}).is_json
    finally:
        sitebuild._set(state="idle", phase="", percent=0, started=0.0)
