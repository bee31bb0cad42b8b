"""The built site in headless Chromium (Debian's): screenshots at desktop and phone widths, behaviour checks.

PNGs are saved under build/screenshots/ to be looked at. Playwright drives /usr/bin/chromium; its own
browser download (``playwright install``) is never used.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_site import site

from engine.corpus import Corpus
from engine.site.layout import SiteLayout

__all__ = ["site"]

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Return a headless Debian Chromium driven by Playwright."""
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is not installed (run scripts/system-deps.sh)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _url(site: Path, pid: str) -> str:
    ids = json.loads((site / "ids.json").read_text())
    return (site / ids[pid]).as_uri().replace("%23", "#")


def _open(browser: Any, url: str, width: str) -> Any:
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_load_state("load")
    page.errors = errors
    return page


def _shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    return path


def _no_sideways_scroll(page: Any) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page scrolls sideways by {overflow}px"


@pytest.mark.parametrize("width", list(WIDTHS))
def test_glossary_page(browser: Any, site: Path, corpus: Corpus, width: str) -> None:
    entry = corpus.glossary_for("runewars-miniatures", "attack")
    assert entry is not None
    docname = SiteLayout.from_corpus(corpus).glossary_page_of[entry.id]
    page = _open(browser, (site / f"{docname}.html").as_uri(), width)
    assert page.locator("h1").first.inner_text().startswith(entry.title)
    graph = page.locator(".rc-graph svg")
    assert graph.count() == 1
    # the picture's box fits the column; on a phone the picture scrolls sideways inside it, legibly
    box = page.locator("div.rc-graph").bounding_box()
    assert box is not None and box["x"] + box["width"] <= WIDTHS[width][0]
    font = page.evaluate("""() => {
        const svg = document.querySelector('.rc-graph svg');
        return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width * 11;
    }""")
    assert font >= 9, f"graph labels render at {font:.1f}px"
    _no_sideways_scroll(page)
    page.locator("#graph").scroll_into_view_if_needed()
    _shot(page, f"glossary-attack-{width}")
    # a node of the picture is a link: a paragraph box opens the paragraph on its section page
    node = page.locator('.rc-graph a[*|href*="#rwm."]').first
    href = node.evaluate("a => a.getAttribute('xlink:href') || a.getAttribute('href')")
    node.click()
    page.wait_for_load_state("load")
    anchor = href.rsplit("#", 1)[1]
    assert page.url.endswith(f"#{anchor}") and page.locator(f'[id="{anchor}"]').is_visible()
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_amended_rule_with_its_faq(browser: Any, site: Path, corpus: Corpus, width: str) -> None:
    pid = "ra.a-player-s-turn.1" if corpus.is_amended("ra.a-player-s-turn.1") else \
        next(p for p in corpus.paragraphs if corpus.is_amended(p) and corpus.faq.get(p))
    page = _open(browser, _url(site, pid), width)
    section = page.locator(f'[id="{pid}"]')
    assert section.locator(".rc-badge-amended").is_visible()
    original = section.locator("details.rc-original")
    assert original.count() == 1 and original.get_attribute("open") is None
    assert not original.locator("p").first.is_visible()
    _no_sideways_scroll(page)
    _shot(page, f"amended-{pid}-{width}")
    original.locator("summary").click()
    assert original.locator("p").first.is_visible()
    faq = corpus.faq.get(pid, [])
    if faq:
        assert section.locator(".rc-faq").is_visible()
        assert section.locator(f'.rc-faq a[href$="#{faq[0]}"]').count() >= 1
    section.locator(".rc-faq, details.rc-original").last.scroll_into_view_if_needed()
    _shot(page, f"amended-{pid}-open-{width}")
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_rule_page_rwm_10(browser: Any, site: Path, width: str) -> None:
    page = _open(browser, _url(site, "rwm.10"), width)
    assert page.locator('[id="rwm.10"]').is_visible()
    # the permalink is named after the id
    assert page.locator('[id="rwm.10"] a.headerlink').get_attribute("href") == "#rwm.10"
    _no_sideways_scroll(page)
    # the cached navigation marks this page and opens its ancestors (game, document, chapter)
    current = page.locator(".sidebar-tree li.current-page > a")
    assert current.count() == 1 and current.inner_text() == "Attack"
    assert page.locator(".sidebar-tree li.current > input.toctree-checkbox:checked").count() == 3
    _shot(page, f"rwm-10-{width}")
    step = page.locator('[id="rwm.10.9"]')
    assert step.count() == 1
    # a term link leads to its glossary page
    link = page.locator('[id="rwm.10.9"] a.rc-term-link').first
    href = link.get_attribute("href")
    assert href is not None and "/glossary/" in href
    assert page.errors == []
    page.close()


def test_search_falls_back_to_sphinx_search_offline(browser: Any, site: Path) -> None:
    page = _open(browser, (site / "search.html").as_uri() + "?q=attack", "desktop")
    page.wait_for_selector("#search-results li", timeout=20_000)
    assert page.locator("#search-results li").count() > 3
    page.wait_for_function("document.documentElement.dataset.rcSearch === 'sphinx'", timeout=10_000)
    assert page.locator("#rc-api-results").count() == 0
    page.close()


def test_print_stylesheet_hides_navigation_and_opens_details(browser: Any, site: Path) -> None:
    page = _open(browser, _url(site, "rwm.10"), "desktop")
    page.emulate_media(media="print")
    assert not page.locator(".sidebar-drawer").is_visible()
    assert page.locator('[id="rwm.10"]').is_visible()
    page.close()


def test_search_uses_the_web_apps_api_when_served_by_it(browser: Any, site: Path, corpus: Corpus,
                                                         tmp_path: Path) -> None:
    import threading

    from werkzeug.serving import make_server

    from engine.search import build_index
    from webapp.app import create_app

    index = build_index(tmp_path / "index", corpus=corpus)
    app = create_app({"SITE_DIR": str(site), "INDEX_DIR": str(index), "TESTING": True})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        page = _open(browser, f"http://127.0.0.1:{server.server_port}/site/search.html?q=attrition", "desktop")
        page.wait_for_selector("#rc-api-results .rc-hit", timeout=20_000)
        assert page.evaluate("document.documentElement.dataset.rcSearch") == "api"
        assert not page.locator("#search-results").is_visible()
        _shot(page, "search-api-desktop")
        first = page.locator("#rc-api-results .rc-hit a").first
        href = first.get_attribute("href")
        assert href is not None and "#" in href
        first.click()
        page.wait_for_load_state("load")
        anchor = page.url.rsplit("#", 1)[1]
        assert anchor in corpus.paragraphs and page.locator(f'[id="{anchor}"]').is_visible()
        assert page.errors == []
        page.close()
    finally:
        server.shutdown()
        thread.join(timeout=10)
