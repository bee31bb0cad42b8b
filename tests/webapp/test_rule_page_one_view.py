"""One rule page per address (issue 28): ``/rules/<id>`` shows the same paragraph, glossary links and FAQ/errata
box before and after the site is built, composed as the site composes its paragraph sections."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from engine.corpus import get_corpus
from engine.site.build import write_site_version
from engine.site.layout import SiteLayout
from engine.site.pages import PageBuilder
from engine.views import graph as G
from engine.views.render import to_text
from webapp.app import create_app

TERMS = "ra.a-player-s-turn.1"  # a rule whose text names glossary terms
AMENDED = "ra.conduct-a-battle.4.instant-damage"  # amended by an erratum
ERRATUM = "rafaq.errata.rulebook.p10"
FAQ = "ra.a-player-s-turn.4"  # FAQ answers are about it
IDS = (TERMS, AMENDED, FAQ)


def built_site_client(root: Path) -> FlaskClient:
    """Return a client of an app whose site of the served version is published (a page per paragraph asked)."""
    corpus = get_corpus()
    layout = SiteLayout.from_corpus(corpus)
    for pid in IDS:
        page = root / f"{layout.page_of[pid]}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f'<html><body><p id="{pid}">site</p></body></html>', encoding="utf-8")
    (root / "index.html").write_text("<html><body>front page</body></html>", encoding="utf-8")
    write_site_version(root, corpus.version)
    return create_app({"TESTING": True, "SITE_DIR": str(root)}).test_client()


def paragraph_content(client: FlaskClient, pid: str) -> str:
    """Return the page's paragraph content: from the article to the end of the main column, the site button out."""
    resp = client.get(f"/rules/{pid}")
    assert resp.status_code == 200, (pid, resp.status_code, resp.headers.get("Location"))
    page = resp.get_data(as_text=True)
    body = page[page.index("<article"):page.index("</main>")]
    return re.sub(r'<p><a class="button secondary" href="/site/[^"]*">[^<]*</a></p>', "", body)


def term_links(content: str) -> list[str]:
    return re.findall(r'class="rc-term-link[^"]*" data-pid="([^"]+)" href="/rules/\1"', content)


def words(s: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", s)).split())


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    """Return ``{id: (content before the site is built, content after)}``."""
    before = create_app({"TESTING": True, "SITE_DIR": str(tmp_path_factory.mktemp("no-site"))}).test_client()
    after = built_site_client(tmp_path_factory.mktemp("site"))
    assert after.get(f"/api/rules/{TERMS}").get_json()["url"].startswith("/site/"), "the fake site is published"
    return {pid: (paragraph_content(before, pid), paragraph_content(after, pid)) for pid in IDS}


@pytest.mark.parametrize("pid", IDS)
def test_the_rule_page_is_the_same_before_and_after_the_site_is_built(pages: dict[str, tuple[str, str]],
                                                                      pid: str) -> None:
    before, after = pages[pid]
    assert before == after
    assert term_links(before) == term_links(after)


def test_glossary_terms_are_links_on_the_app_page_as_on_the_site(pages: dict[str, tuple[str, str]]) -> None:
    corpus = get_corpus()
    content = pages[TERMS][0]
    text = content[:content.index("</article>")]
    linked = term_links(text)
    assert linked, "no glossary term is a link"
    assert all(corpus.paragraphs[t].kind == "glossary" for t in linked)
    assert corpus.glossary_for("rune-age", "exhaust") is not None
    assert corpus.glossary_for("rune-age", "exhaust").id in linked  # type: ignore[union-attr]
    # the site's section of the paragraph links the same terms (one composition)
    registry = G.engine_rules()
    builder = PageBuilder(corpus, SiteLayout.from_corpus(corpus), G.build_graph(corpus, registry), registry)
    spec = repr(builder.paragraph(corpus.paragraphs[TERMS])["blocks"])
    site_terms = re.findall(r"'t': 'term', 'id': '([^']+)'", spec)
    assert sorted(set(site_terms)) == sorted(set(term_links(content)))


def test_the_faq_and_errata_box_shows_their_text(pages: dict[str, tuple[str, str]]) -> None:
    corpus = get_corpus()
    for pid, about in ((AMENDED, [ERRATUM]), (FAQ, corpus.faq[FAQ])):
        for content in pages[pid]:
            box = content[content.index('class="rc-faq faq-notes"'):]
            for fid in about:
                assert f'href="/rules/{fid}"' in box, (pid, fid)
                first = words(to_text(corpus.text_of(fid)))[:50]
                assert first in words(box), (pid, fid)
    amended = pages[AMENDED][0]
    assert "rc-badge-amended" in amended and "The rule as first printed" in amended


def test_runecodex_rule_prints_the_same_faq_and_errata_box(pages: dict[str, tuple[str, str]]) -> None:
    import os
    import subprocess
    import sys

    corpus = get_corpus()
    proc = subprocess.run([sys.executable, "-m", "engine.cli", "rule", FAQ], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=120, check=False,
                          env={**os.environ, "COLUMNS": "100"})
    assert proc.returncode == 0, proc.stderr
    printed = " ".join(proc.stdout.split())
    for fid in (*corpus.faq[FAQ], *corpus.amended_by.get(FAQ, [])):
        assert f"[{fid}]" in printed and words(to_text(corpus.text_of(fid)))[:50] in printed, fid
        assert words(to_text(corpus.text_of(fid)))[:50] in words(pages[FAQ][0]), fid
