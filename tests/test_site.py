"""The Sphinx site built from the real corpus (once per session) and from a tiny one (incremental builds)."""

from __future__ import annotations

import functools
import html
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from engine.corpus import Corpus
from engine.errors import CorpusError
from engine.site.build import BuildReport, SiteBuildError, build_site, cache_dir_for, publish
from engine.site.layout import SiteLayout

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


@functools.lru_cache(maxsize=1)
def _build_once(out: Path) -> BuildReport:
    return build_site(out, fresh=True, search_index=False)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the site built from the project's corpus (built once per test session, -W, nitpicky)."""
    out = tmp_path_factory.getbasetemp() / "site"
    _build_once(out)
    return out


_ID_RE = re.compile(r'\sid="([^"]+)"')
_LINK_RE = re.compile(r'\s(?:href|src|xlink:href)="([^"]*)"')


@functools.cache
def _ids(path: Path) -> frozenset[str]:
    return frozenset(html.unescape(i) for i in _ID_RE.findall(path.read_text(encoding="utf-8")))


def _text(page: str) -> str:
    """Return a page's visible text, roughly: tags dropped, entities decoded, curly quotes straightened."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    body = re.sub(r"</?(?:a|span|code|strong|em)\b[^>]*>", "", body)
    text = html.unescape(re.sub(r"<[^>]+>", " ", body))
    return " ".join(text.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"').split())


def test_site_has_an_index_at_its_root_and_a_page_per_section(site: Path, corpus: Corpus) -> None:
    assert (site / "index.html").is_file() and (site / "search.html").is_file()
    assert (site / "searchindex.js").is_file()
    layout = SiteLayout.from_corpus(corpus)
    for docname in layout.docnames():
        assert (site / f"{docname}.html").is_file(), docname


APP_ROUTES = {"", "boards", "search", "quickref", "static", "rules", "site", "api"}


def test_every_internal_link_resolves(site: Path) -> None:
    files = {str(p) for p in site.rglob("*") if p.is_file()}
    resolved: dict[tuple[str, str], str] = {}
    broken: list[str] = []
    checked = 0
    for page in sorted(site.rglob("*.html")):
        folder = str(page.parent)
        for raw in set(_LINK_RE.findall(page.read_text(encoding="utf-8"))):
            url = html.unescape(raw)
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or url.startswith(("mailto:", "javascript:", "data:")):
                continue
            if parts.path.startswith("/"):
                # the shared header links into the web app that serves the site under /site/
                assert parts.path.split("/")[1] in APP_ROUTES, f"{page.relative_to(site)}: {url} is no app route"
                continue
            key = (folder, parts.path)
            if not parts.path:
                target = str(page)
            elif key in resolved:
                target = resolved[key]
            else:
                target = os.path.normpath(os.path.join(folder, unquote(parts.path)))
                if target not in files and os.path.join(target, "index.html") in files:
                    target = os.path.join(target, "index.html")
                resolved[key] = target
            checked += 1
            if target not in files:
                broken.append(f"{page.relative_to(site)}: {url} (no file)")
            elif parts.fragment and target.endswith(".html") and unquote(parts.fragment) not in _ids(Path(target)):
                broken.append(f"{page.relative_to(site)}: {url} (no anchor)")
    assert checked > 10_000
    assert broken == [], "\n".join(broken[:30])


def test_every_paragraph_has_an_anchor_named_after_its_id_and_its_locator(site: Path, corpus: Corpus) -> None:
    ids = json.loads((site / "ids.json").read_text())
    assert set(ids) == set(corpus.paragraphs)
    pages: dict[str, list[str]] = {}
    for pid, url in ids.items():
        path, _, anchor = url.partition("#")
        assert anchor == pid
        pages.setdefault(path, []).append(pid)
    for path, pids in pages.items():
        page = (site / path).read_text(encoding="utf-8")
        text = _text(page)
        for pid in pids:
            assert f'id="{pid}"' in page, pid
            assert f'href="#{pid}"' in page, f"{pid} has no permalink"
            assert corpus.locator(pid).replace("\u2019", "'") in text, f"{pid}: locator missing"


def _page_of(site: Path, pid: str) -> str:
    url = json.loads((site / "ids.json").read_text())[pid]
    return (site / url.partition("#")[0]).read_text(encoding="utf-8")


def _section(page: str, pid: str) -> str:
    start = page.index(f'id="{pid}"')
    end = page.find('<section class="rc-para', start + 1)
    return page[start:end if end > 0 else len(page)]


def test_amended_rules_show_the_corrected_text_with_the_original_on_demand(site: Path, corpus: Corpus) -> None:
    amended = [pid for pid in corpus.paragraphs if corpus.is_amended(pid)]
    assert amended
    for pid in amended:
        block = _section(_page_of(site, pid), pid)
        assert "rc-badge-amended" in block and ">amended<" in block
        shown = _text(block)
        corrected = " ".join(corpus.text_of(pid).replace("\u2019", "'").split())
        original = " ".join(corpus.paragraphs[pid].text.replace("\u2019", "'").split())
        assert corrected[:60] in shown.replace("\u2018", "'"), pid
        details = block[block.index("<details"):block.index("</details>")]
        assert "The rule as first printed" in details
        assert original[:60] in _text(details).replace("\u2018", "'"), pid


def test_faq_entries_appear_under_the_rules_they_clarify(site: Path, corpus: Corpus) -> None:
    assert corpus.faq
    for pid, faqs in corpus.faq.items():
        block = _section(_page_of(site, pid), pid)
        assert 'class="rc-faq' in block, pid
        for fid in faqs:
            assert f"#{fid}" in block, f"{fid} is not shown under {pid}"


def test_links_related_referenced_by_and_engine(site: Path, corpus: Corpus) -> None:
    from engine.views.graph import engine_rules

    pid = next(p.id for p in corpus if p.related and corpus.cited_by.get(p.id))
    block = _section(_page_of(site, pid), pid)
    assert "Related" in block and "Referenced by" in block
    for target in corpus.paragraphs[pid].related:
        assert f"#{target}" in block
    rules = engine_rules()
    if rules:
        name, cites = next(iter(sorted(rules.items())))
        block = _section(_page_of(site, cites[0]), cites[0])
        assert "Executable in the engine" in block and name in block


def test_terms_link_to_their_glossary_pages(site: Path, corpus: Corpus) -> None:
    layout = SiteLayout.from_corpus(corpus)
    linked = 0
    for p in corpus.select("rune-age", "rule"):
        block = _section(_page_of(site, p.id), p.id)
        # the paragraph's own text: FAQ answers shown under it link their terms again
        block = re.split(r'<div class="rc-faq|<p class="rc-amended-note|<div class="rc-links', block)[0]
        for href in re.findall(r'class="rc-term-link[^"]*" href="([^"]+)"', block):
            linked += 1
            assert "/glossary/" in href
        assert len(set(re.findall(r'class="rc-term-link[^"]*" href="([^"]+)"', block))) == \
            len(re.findall(r'class="rc-term-link[^"]*" href="([^"]+)"', block)), f"{p.id}: a term linked twice"
    assert linked > 50
    exhaust = corpus.glossary_for("rune-age", "exhaust")
    assert exhaust is not None
    target = layout.glossary_page_of[exhaust.id].split("/")[-1] + ".html"
    block = _section(_page_of(site, "ra.a-player-s-turn.1"), "ra.a-player-s-turn.1")
    assert re.search(rf'class="rc-term-link[^"]*" href="[^"]*{re.escape(target)}"', block)


def test_glossary_pages_have_a_clickable_graph_picture(site: Path, corpus: Corpus) -> None:
    layout = SiteLayout.from_corpus(corpus)
    entry = corpus.glossary_for("runewars-miniatures", "attack")
    assert entry is not None
    page = (site / f"{layout.glossary_page_of[entry.id]}.html").read_text()
    start = page.index('<svg role="img" class="rc-graph-svg"')
    svg = page[start:page.index("</svg>", start)]
    hrefs = re.findall(r'xlink:href="([^"]+)"', svg)
    assert sum("/glossary/" in h for h in hrefs) >= 5
    assert any("#rwm." in h for h in hrefs)
    assert len(hrefs) >= 8
    assert "Used in" in page


def test_book_index_and_landing_pages(site: Path, corpus: Corpus) -> None:
    for game, name in corpus.games.items():
        landing = _text((site / game / "index.html").read_text())
        assert name in landing and "Glossary" in landing and "Book index" in landing
        entries = [e for e in corpus.index if corpus.documents[e.doc].game == game]
        book = _text((site / game / "book-index.html").read_text())
        for e in entries:
            assert e.entry.replace("\u2019", "'") in book
    glance = (site / "rune-age" / "index.html").read_text()
    assert "At a glance" in glance and "#ra.a-player-s-turn.1" in glance


def test_search_script_falls_back_and_styles_print(site: Path) -> None:
    js = (site / "_static" / "runecodex.js").read_text()
    assert "/api/search" in js and "ids.json" in js
    css = (site / "_static" / "runecodex.css").read_text()
    assert "@media print" in css
    assert "runecodex.js" in (site / "search.html").read_text()


# --------------------------------------------------------------------------------------- tiny corpus

DOCUMENTS = """\
documents:
  - {key: rune-age, game: rune-age, prefix: ra, title: "Rune Age", short: "Rulebook",
     seed: 000_508a43e8aaac7593.txt, locator: page}
  - {key: rune-age-faq, game: rune-age, prefix: rafaq, title: "Rune Age FAQ", short: "FAQ",
     seed: 003_11e701e797c06f5e.txt, locator: section}
  - {key: runewars-miniatures, game: runewars-miniatures, prefix: rwm, title: "Rules Reference",
     short: "Rules Reference", seed: 001_09126fd544391421.txt, locator: paragraph}
  - {key: runewars, game: runewars, prefix: rw, title: "Runewars", short: "Runewars Rulebook",
     seed: 004_ef83554470811298.txt, locator: page}
  - {key: runeslingers, game: runeslingers, prefix: rs, title: "Runeslingers", short: "How to Play",
     seed: 002_9769e326aaac57fd.txt, locator: page}
games:
  rune-age: "Rune Age"
  runewars-miniatures: "RuneWars Miniatures Game"
  runewars: "Runewars"
  runeslingers: "Runeslingers"
"""

TINY = {
    "rune-age/01-turn.yaml": """\
        paragraphs:
          - id: ra.term.exhaust
            kind: glossary
            title: Exhaust
            defines: [exhaust]
            source: {page: 6, section: Card Anatomy}
            text: Turn a card sideways.
          - id: ra.a-player-s-turn
            kind: rule
            title: A turn
            source: {page: 7, section: A Player's Turn}
            facts: {turn_steps: [Refresh, Act]}
            text: A turn has two steps.
          - id: ra.a-player-s-turn.1
            kind: rule
            title: Refresh step
            source: {page: 7, section: A Player's Turn, paragraph: "1"}
            terms: [exhaust]
            text: Refresh every exhausted city.
          - id: ra.a-player-s-turn.2
            kind: rule
            title: Act step
            source: {page: 7, section: A Player's Turn, paragraph: "2"}
            text: Take actions.
        """,
    "rune-age-faq/01-errata.yaml": """\
        paragraphs:
          - id: rafaq.errata.p7
            kind: errata
            title: Page 7
            source: {section: "Errata: Rulebook", paragraph: "7"}
            amends: [ra.a-player-s-turn.1]
            corrected: {ra.a-player-s-turn.1: Refresh every exhausted city and stronghold.}
            text: Strongholds refresh too.
        """,
    "runewars-miniatures/01-a.yaml": """\
        paragraphs:
          - id: rwm.10
            kind: rule
            title: Attack
            source: {section: Attack, paragraph: "10"}
            related: [rwm.10.9]
            text: An attack has steps.
          - id: rwm.10.9
            kind: rule
            title: Spend hits
            source: {section: Attack, paragraph: "10.9"}
            text: Each hit deals 1 damage.
        """,
}


def _write_rules(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "documents.yaml").write_text(DOCUMENTS)
    for name, body in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(body))
    return root


def _cli_build(out: Path, rules: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RUNECODEX_RULES": str(rules), "RUNECODEX_CACHE": str(out.parent / "corpus-cache"),
           "RUNECODEX_INDEX": str(out.parent / "search-index")}
    return subprocess.run([sys.executable, "-m", "engine.cli", "build", "--out", str(out), *extra],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, check=False)


def test_incremental_build_rereads_only_changed_pages_and_swaps_the_site(tmp_path: Path) -> None:
    rules = _write_rules(tmp_path / "rules", TINY)
    out = tmp_path / "public" / "site"
    first = _cli_build(out, rules, "-j", "1")
    assert first.returncode == 0, first.stderr
    assert "built" in first.stdout and "WARNING" not in first.stderr
    before = (out / "runewars-miniatures" / "index.html").stat().st_ino
    page = out / "runewars-miniatures" / "rules" / "01-a" / "attack.html"
    assert "Each hit deals 1 damage." in page.read_text()
    # edit one rules file: only the pages showing that text are read again
    path = rules / "runewars-miniatures" / "01-a.yaml"
    path.write_text(path.read_text().replace("Each hit deals 1 damage.", "Each hit deals 2 damage."))
    second = _cli_build(out, rules, "-j", "1")
    assert second.returncode == 0, second.stderr
    changed = re.search(r"updating environment: .*?(\d+) added, (\d+) changed, (\d+) removed", second.stderr)
    assert changed is not None, second.stderr
    assert (int(changed.group(1)), int(changed.group(3))) == (0, 0)
    assert 1 <= int(changed.group(2)) <= 3, changed.group(0)
    assert "Each hit deals 2 damage." in page.read_text()
    # the published folder was replaced as a whole, and no temporary folder is left beside it
    assert (out / "runewars-miniatures" / "index.html").stat().st_ino != before
    assert not [p.name for p in out.parent.iterdir() if p.name.startswith((".site-new", ".site-old"))]


def test_amended_rule_and_turn_structure_in_the_tiny_site(tmp_path: Path) -> None:
    rules = _write_rules(tmp_path / "rules", TINY)
    out = tmp_path / "site"
    result = _cli_build(out, rules, "-j", "1", "-q")
    assert result.returncode == 0, result.stderr
    page = (out / "rune-age" / "rules" / "01-turn" / "a-player-s-turn.html").read_text()
    block = _section(page, "ra.a-player-s-turn.1")
    assert "Refresh every exhausted city and stronghold." in block
    assert "<details" in block and "Refresh every exhausted city.</p>" in block
    landing = (out / "rune-age" / "index.html").read_text()
    assert "Refresh step" in landing and "Act step" in landing


def test_broken_corpus_fails_clearly_and_publishes_nothing(tmp_path: Path) -> None:
    broken = dict(TINY)
    broken["runewars/01-x.yaml"] = """\
        paragraphs:
          - id: rw.x
            kind: rule
            title: X
            source: {page: 3, section: X}
            related: [rw.missing]
            text: Points nowhere.
        """
    rules = _write_rules(tmp_path / "rules", broken)
    with pytest.raises(CorpusError):
        build_site(tmp_path / "site", rules=rules, search_index=False)
    assert not (tmp_path / "site").exists()
    result = _cli_build(tmp_path / "site2", rules)
    assert result.returncode == 1
    assert "rw.x.related: unknown id 'rw.missing'" in result.stderr
    assert "Traceback" not in result.stderr


def test_warnings_fail_the_build(tmp_path: Path) -> None:
    rules = _write_rules(tmp_path / "rules", TINY)
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "index.md").write_text("# Home\n\nSee {rule}`ra.nothing`.\n\n```{toctree}\nrune-age/index\n"
                                    "runewars-miniatures/index\nrunewars/index\nruneslingers/index\nabout\n```\n")
    (pages / "about.md").write_text("# About\n")
    with pytest.raises(SiteBuildError) as err:
        build_site(tmp_path / "out", rules=rules, search_index=False, jobs=1, pages=pages)
    assert any("unknown rule id 'ra.nothing'" in w for w in err.value.warnings)
    assert not (tmp_path / "out").exists()


def test_publish_swaps_whole_folders(tmp_path: Path) -> None:
    staged = tmp_path / "staged"
    staged.mkdir()
    (staged / "index.html").write_text("old")
    (staged / "stale.html").write_text("old")
    out = tmp_path / "site"
    publish(staged, out)  # a site published earlier (it carries its manifest)
    (staged / "stale.html").unlink()
    (staged / "index.html").write_text("new")
    publish(staged, out)
    assert (out / "index.html").read_text() == "new" and not (out / "stale.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "staged"]
    assert cache_dir_for(out) == tmp_path / ".site-cache"


def test_the_site_carries_each_games_quick_reference(site: Path) -> None:
    from engine.corpus import get_corpus
    from engine.views.quickref import render_html

    corpus = get_corpus()
    for game in corpus.games:
        page = site / "quickref" / f"{game}.html"
        assert page.read_text(encoding="utf-8") == render_html(game, corpus=corpus)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert all(f'href="quickref/{game}.html"' in index for game in corpus.games)
