"""The printable quick reference: real PDFs checked with poppler (pdfinfo, pdftotext, pdftotext -bbox for
type sizes): 2 pages of at most 900 words per game, body >= 8.5 pt, citations >= 6.5 pt, every chosen
topic; rules by their corpus short forms, tables and facts through the corpus accessors, errata applied,
icons; topic selection, paper sizes, HTML output, escaping and bad input (exit 2, never a traceback)."""

from __future__ import annotations

import html as html_lib
import itertools
import json
import re
import subprocess
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from engine import PROJECT_ROOT
from engine.cli import main
from engine.corpus import Corpus, load_corpus
from engine.errors import CorpusError, OutputRefusedError, UnreadableInputError
from engine.views import quickref, render

GAMES = ("rune-age", "runewars-miniatures", "runewars", "runeslingers")
A4 = "595.276 x 841.89 pts (A4)"
LETTER = "612 x 792 pts (letter)"


def pdf_info(path: Path) -> dict[str, str]:
    """Return pdfinfo's fields for *path*."""
    out = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


def pdf_text(path: Path) -> str:
    """Return the PDF's text with whitespace (line breaks, no-break spaces) collapsed to single spaces."""
    out = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(path), "-"], check=True, capture_output=True,
                         text=True).stdout
    return squash(out)


def squash(text: str) -> str:
    """Return *text* with whitespace collapsed and hyphens dropped, as :func:`pdf_text` does (pdftotext
    joins a word broken after its hyphen, "mid-turn" at a line end coming out as "midturn")."""
    return " ".join(text.replace("\u00a0", " ").replace("-\n", "").replace("-", "").split())


class _TextOf(HTMLParser):
    """Collect the visible text of an HTML page (not the style sheet)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script", "title"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "title"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def html_text(html: str) -> str:
    """Return the visible text of *html*, whitespace collapsed."""
    parser = _TextOf()
    parser.feed(html)
    return squash(" ".join(parser.parts))


def topic(game: str, key: str, corpus: Corpus) -> quickref.Topic:
    """Return topic *key* of *game* (it must exist)."""
    found = quickref.game_topics(game, corpus).topic(key)
    assert found is not None, key
    return found


@pytest.fixture(scope="module")
def defaults(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Build the default sheets of every game with the site build's entry point, once."""
    out = tmp_path_factory.mktemp("quickref")
    paths = quickref.build_defaults(out)
    return {p.name.removeprefix("quickref-").removesuffix(".pdf"): p for p in paths}


# ------------------------------------------------------------------------------------ the topics file

def test_every_game_has_validated_topics(corpus: Corpus) -> None:
    found = quickref.catalog(corpus)
    assert set(found) == set(GAMES) == set(corpus.games)
    for game in GAMES:
        topics = found[game].all_topics
        assert any(t.default for t in topics) and not all(t.default for t in topics), game
        for t in topics:
            for pid in t.paragraphs:
                assert corpus.get(pid).game == game


# ------------------------------------------------------------------------------------ default PDFs

def page_words(path: Path) -> list[int]:
    """Return the number of words on each page of the PDF, as ``pdftotext`` extracts them."""
    pages = int(pdf_info(path)["Pages"])
    counts = []
    for n in range(1, pages + 1):
        out = subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), "-enc", "UTF-8", str(path), "-"],
                             check=True, capture_output=True, text=True).stdout
        counts.append(len(out.split()))
    return counts


_WORD_RE = re.compile(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>')


def word_heights(path: Path) -> list[tuple[str, float]]:
    """Return every word of the PDF with the height of its box (``pdftotext -bbox``)."""
    out = subprocess.run(["pdftotext", "-bbox", "-enc", "UTF-8", str(path), "-"], check=True,
                         capture_output=True, text=True).stdout
    return [(html_lib.unescape(m.group(3)), float(m.group(2)) - float(m.group(1))) for m in _WORD_RE.finditer(out)]


@pytest.fixture(scope="module")
def box_per_pt(tmp_path_factory: pytest.TempPathFactory) -> float:
    """Return the height of a word's box per point of type, measured on the sheet's font."""
    from weasyprint import HTML

    path = tmp_path_factory.mktemp("calibrate") / "c.pdf"
    path.write_bytes(HTML(string='<p style="font-family: \'DejaVu Sans Condensed\', \'DejaVu Sans\'; '
                                 'font-size: 10pt">Calibrate</p>').write_pdf())
    ((_, height),) = word_heights(path)
    return height / 10


@pytest.mark.parametrize("game", GAMES)
def test_default_pdf_is_two_pages_of_at_most_900_words(game: str, defaults: dict[str, Path]) -> None:
    info = pdf_info(defaults[game])
    assert info["Pages"] == "2" and info["Page size"] == A4
    words = page_words(defaults[game])
    assert len(words) == 2 and all(n <= quickref.MAX_WORDS_PER_PAGE for n in words), words
    assert min(words) >= 150, f"{game}: the second page is nearly empty ({words})"


@pytest.mark.parametrize("game", GAMES)
def test_default_pdf_body_is_at_least_8_5_pt_and_citations_6_5_pt(game: str, defaults: dict[str, Path],
                                                                   box_per_pt: float, corpus: Corpus) -> None:
    words = word_heights(defaults[game])
    assert words
    sheet = quickref.build(game, corpus=corpus)
    # Only the small print may be set below the body size: locators, errata marks, the header's
    # source line and errata list, and the page footer.
    small_print = " ".join([*(quickref.short_locator(corpus, pid) for s in sheet.sections for pid in s.ids),
                            *(er.locator for er in sheet.errata_applied), *sheet.documents, sheet.game_title,
                            "errata ERRATA applied: Runecodex — quick reference page of 1 2 restated in our own "
                            "words; small print gives the book's place. ·"])
    allowed = {w.strip(".,;:()") for w in small_print.replace("\u00a0", " ").split()}
    smallest = min(h for _, h in words) / box_per_pt
    assert smallest >= 6.5 - 0.05, f"{game}: text set at {smallest:.2f} pt"
    body_floor = 8.5 * box_per_pt - 0.05
    small = [w for w, h in words if h < body_floor]
    stray = sorted({w for w in small if w.strip(".,;:()") not in allowed})
    assert not stray, f"{game}: body words set below 8.5 pt: {stray[:12]}"
    assert len(small) < len(words) / 4


@pytest.mark.parametrize("game", GAMES)
def test_default_pdf_shows_every_chosen_topic_with_its_rules(game: str, defaults: dict[str, Path],
                                                             corpus: Corpus) -> None:
    text = pdf_text(defaults[game])
    gt = quickref.game_topics(game, corpus)
    chosen = [t for t in gt.all_topics if t.default]
    for t in chosen:
        assert squash(t.heading) in text, f"{game}: heading {t.heading!r} not in the PDF text"
    for chapter in gt.chapters:
        if any(t.default for t in chapter.topics):
            assert squash(chapter.heading).upper() in text
    sheet = quickref.build(game, corpus=corpus)
    shown = {pid for s in sheet.sections for pid in s.ids}
    assert shown == {pid for t in chosen for pid in t.paragraphs}, "every chosen paragraph is on the sheet"
    for s in sheet.sections:
        for e in (*s.entries, *s.notes):  # each rule by its short form (or corrected text), with its locator
            assert squash(e.text) in text, f"{e.id}: rule text missing"
            assert squash(e.locator) in text, f"{e.id}: locator {e.locator!r} missing"
            assert e.text == (corpus.get(e.id).short or e.text)
        for seq in s.sequences:
            assert all(squash(step) in text for step in seq.steps), seq.id
        for f in s.facts:
            assert squash(f.label) in text and squash(f.value) in text, (f.id, f.label)
        for tv in s.tables:
            assert squash(tv.title) in text
            for row in tv.rows:
                assert all(squash(cell) in text for cell in row), (tv.id, row)


def test_no_rule_text_is_written_in_the_templates_or_topics_file() -> None:
    """The sheet's rules come from the corpus: the templates and quickref.yaml hold layout and ids only."""
    template = (quickref.TEMPLATES / "quickref.html.j2").read_text(encoding="utf-8")
    visible = re.sub(r"\{[{%#].*?[}%#]\}", " ", template, flags=re.S)
    words = html_text(visible).split()
    assert len(words) < 40, words  # the title, "quick reference", "errata applied", the print hint
    raw = yaml.safe_load((PROJECT_ROOT / "rules" / "quickref.yaml").read_text())
    for game in raw["games"].values():
        for chapter in game["chapters"]:
            for t in chapter["topics"]:
                assert set(t) <= {"key", "heading", "default", "block", "icons", "facts", "notes", "paragraphs"}
                assert len(t["heading"].split()) <= 6


def test_amended_rules_show_their_corrected_text_and_numbers(defaults: dict[str, Path], corpus: Corpus) -> None:
    text = pdf_text(defaults["rune-age"])
    sheet = quickref.build("rune-age", corpus=corpus)
    assert sheet.errata_applied, "the Rune Age default sheet should show at least one amended rule"
    # The errata-applied line lists each erratum by its locator.
    line = text[text.index("applied:"):][:600]
    for er in sheet.errata_applied:
        assert squash(er.locator) in line, er.id
    # The back-cover round summary gained a sixth step through its erratum (corrected facts): the sheet shows
    # it where that summary is chosen (the round at a glance; the turn itself lists the turn's 4 steps).
    summary = quickref.build("rune-age", "+round-summary", corpus=corpus)
    rounds = next(s for s in summary.sections if s.key == "round-summary")
    steps = rounds.sequences[0].steps
    assert len(steps) == 6 and steps == tuple(corpus.fact("ra.quick-reference.a-player-s-turn", "steps"))
    assert rounds.sequences[0].errata and rounds.errata[0] in summary.errata_applied
    html = quickref.render_html("rune-age", corpus=corpus)
    for s in sheet.sections:
        for e in s.entries:
            if e.errata:
                block = html[html.index(f'id="p-{e.id}"'):]
                assert '<span class="mark"' in block[:block.index("</li>" if "</li>" in block else "</div>")]


def test_tables_come_from_the_corpus_accessors(defaults: dict[str, Path], corpus: Corpus) -> None:
    text = pdf_text(defaults["runewars"])
    table = corpus.table_of("rw.order-card-summary")
    assert table is not None
    for row in table.rows:
        assert squash(str(row[1])) in text and squash(str(row[2])) in text
    rs = pdf_text(defaults["runeslingers"])  # ailment limits: a facts table
    assert "Max unique ailment types 4" in rs
    assert f"Ailment threshold {corpus.fact('rs.phases-of-a-turn.ailment', 'ailment_threshold')}" in rs
    rwm = pdf_text(defaults["runewars-miniatures"])  # morale: a facts table; threat: a lookup table
    assert "Morale card types Doubt, Fear, Confusion" in rwm
    assert squash(corpus.get("rwm.82.1").title) in rwm


@pytest.mark.parametrize("game", GAMES)
def test_icons_are_our_inline_svg_with_a_key(game: str, corpus: Corpus) -> None:
    sheet = quickref.build(game, corpus=corpus)
    assert sheet.icons, f"{game}: the sheet has no icon key"
    html = quickref.render_html(game, corpus=corpus)
    for name in sheet.icons:
        entry = next(e for s in sheet.sections for e in s.entries if e.icon == name)
        assert f'aria-label="{entry.title}"' in html.replace("&#39;", "'"), name
    assert "<img" not in html and "xlink:href" not in html


def test_every_icon_is_well_formed_svg() -> None:
    import xml.etree.ElementTree as ET

    from engine.views.quickref.icons import ICONS, svg

    for name in ICONS:
        root = ET.fromstring(svg(name, name))
        assert root.tag.endswith("svg") and root.get("viewBox") == "0 0 24 24"
        assert len(root) >= 1


def test_fact_values_and_labels_read_as_words() -> None:
    assert quickref.fact_value(True) == "yes" and quickref.fact_value(4) == "4"
    assert quickref.fact_value(["Doubt", "Fear"]) == "Doubt, Fear"
    assert quickref.fact_value("trays_forming_the_front_edge") == "trays forming the front edge"
    assert quickref.fact_label("burn_ii_min_instances") == "Burn II min instances"


# ------------------------------------------------------------------------------------ selection

def test_select_topics_adds_removes_and_keeps_sheet_order(corpus: Corpus) -> None:
    default = quickref.default_topics("rune-age", corpus)
    assert quickref.select_topics("rune-age", None, corpus) == default
    added = quickref.select_topics("rune-age", "+rewards,-battle", corpus)
    assert "rewards" in added and "battle" not in added
    assert set(added) == (set(default) | {"rewards"}) - {"battle"}
    assert quickref.select_topics("rune-age", "siege,turn", corpus) == ["turn", "siege"]
    combat = quickref.select_topics("rune-age", ["combat"], corpus)
    chapter = quickref.game_topics("rune-age", corpus).chapter("combat")
    assert chapter is not None and combat == [t.key for t in chapter.topics]
    everything = quickref.select_topics("rune-age", "all,-errata", corpus)
    assert len(everything) == len(quickref.game_topics("rune-age", corpus).all_topics) - 1


def test_added_and_removed_topics_change_the_pdf(tmp_path: Path, corpus: Corpus) -> None:
    out = tmp_path / "ra.pdf"
    written = quickref.write("rune-age", out, topics="+scenarios,-battle", corpus=corpus)
    assert written.path == out and written.pages == int(pdf_info(out)["Pages"])
    text = pdf_text(out)
    assert "Scenarios" in text and squash(corpus.get("ra.the-cataclysm.three-stages").short or "") in text
    assert squash(corpus.get("ra.conduct-a-battle.2").short or "") not in text
    assert squash(corpus.get("ra.conduct-a-siege.2").short or "") in text


def test_letter_paper(tmp_path: Path, corpus: Corpus) -> None:
    out = tmp_path / "rwm-letter.pdf"
    assert main(["quickref", "--game", "runewars-miniatures", "--paper", "letter", "-o", str(out)]) == 0
    info = pdf_info(out)
    assert info["Page size"] == LETTER and int(info["Pages"]) <= 2
    text = pdf_text(out)
    for key in quickref.default_topics("runewars-miniatures", corpus):
        assert squash(topic("runewars-miniatures", key, corpus).heading) in text


def test_html_output_is_a_standalone_escaped_page(tmp_path: Path, corpus: Corpus,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.html"
    assert main(["quickref", "--game", "runeslingers", "--topics", "phases,ladder", "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    html = out.read_text(encoding="utf-8")
    assert html.lstrip().lower().startswith("<!doctype html>")
    assert "@page" in html and "size: A4" in html
    text = html_text(html)
    assert "Phases of a turn" in text and "Answers and the ladder" in text
    assert "Playing a card" not in text
    for key in ("phases", "ladder"):
        for pid in topic("runeslingers", key, corpus).paragraphs:
            assert squash(quickref.short_locator(corpus, pid)) in text
            # The short form comes back verbatim (apostrophes and quotes escaped in the markup).
            assert squash(corpus.get(pid).short or "") in text, pid
            assert corpus.locator(pid) in html_lib.unescape(html)  # the full locator is the tooltip


def test_html_escapes_markup_in_corpus_text(make_rules: Callable[[dict[str, str]], Path]) -> None:
    root = make_rules({
        "rune-age/a.yaml": """
            paragraphs:
              - id: ra.evil
                kind: rule
                title: "Title <script>alert(1)</script>"
                source: {page: 3, section: "Setup & <b>"}
                text: |
                  Pay 2 & keep <i>nothing</i>:
                  - first "step"
                  - second step
        """,
        "quickref.yaml": """
            games:
              rune-age:
                chapters:
                  - key: only
                    heading: "Chapter <1>"
                    topics:
                      - key: one
                        heading: "Topic & <em>"
                        default: true
                        paragraphs: [ra.evil]
        """,
    })
    small = load_corpus(root)
    html = quickref.render_html("rune-age", corpus=small)
    assert "<script>" not in html and "<i>nothing" not in html and "<em>" not in html
    assert "&lt;script&gt;" in html and "Topic &amp; &lt;em&gt;" in html
    text = html_text(html)
    assert 'first "step"' in text and "Pay 2 & keep <i>nothing</i>:" in text
    assert 'title="Title &lt;script&gt;alert(1)&lt;/script&gt; (' in html  # the title as a tooltip


def test_broken_topics_file_is_reported_with_lines(make_rules: Callable[[dict[str, str]], Path],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    root = make_rules({
        "rune-age/a.yaml": """
            paragraphs:
              - {id: ra.one, kind: rule, title: One, source: {page: 3, section: Setup}, text: "One."}
        """,
        "quickref.yaml": """
            games:
              rune-age:
                chapters:
                  - key: c
                    heading: C
                    topics:
                      - {key: a, heading: A, paragraphs: [ra.one, ra.missing]}
                      - {key: a, heading: Again, paragraphs: [ra.one], colour: red}
                      - {key: b, heading: B, block: poster, paragraphs: [ra.one], icons: [unicorn]}
                      - {key: d, heading: D, block: facts, paragraphs: [ra.one], facts: {ra.one: [size]}}
              chess:
                chapters: []
        """,
    })
    small = load_corpus(root)
    with pytest.raises(CorpusError) as caught:
        quickref.catalog(small)
    messages = [str(p) for p in caught.value.problems]
    assert any("unknown paragraph id 'ra.missing'" in m and m.startswith("quickref.yaml:") for m in messages)
    assert any("used twice" in m for m in messages)
    assert any("unknown key 'colour'" in m for m in messages)
    assert any("unknown game 'chess'" in m for m in messages)
    assert any("no topic is in the default selection" in m for m in messages)
    assert any("block must be one of" in m and "'poster'" in m for m in messages)
    assert any("unknown icon 'unicorn'" in m for m in messages)
    assert any("has no fact 'size'" in m for m in messages)
    # `runecodex check` reports them too, so a renamed paragraph id cannot break the sheet unseen.
    assert main(["check", "--rules", str(root), "--no-sources"]) == 1
    assert "quickref.yaml:" in capsys.readouterr().out


# ------------------------------------------------------------------------------------ bad input

@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--game", "rune-age", "--topics", "battle,nonsense"], "unknown topic 'nonsense'"),
    (["--game", "rune-age", "--topics=-all"], "no topics selected"),
    (["--game", "rune-age", "--paper", "a3"], "unknown paper 'a3'"),
    (["--game", "chess", "--list-topics"], "unknown game 'chess'"),
])
def test_bad_input_exits_2_with_a_clear_message(argv: list[str], message: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.pdf"
    assert main(["quickref", *argv, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not out.exists()


def test_unknown_format_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["quickref", "--game", "rune-age", "--format", "docx"])
    assert caught.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_unwritable_output_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["quickref", "--game", "runeslingers", "-o", str(blocker / "sheet.pdf")]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "Traceback" not in err


def test_api_errors_name_the_offending_value(corpus: Corpus) -> None:
    with pytest.raises(UnreadableInputError) as caught:
        quickref.render_html("chess", corpus=corpus)
    assert caught.value.path == "game"
    with pytest.raises(UnreadableInputError) as caught:
        quickref.build("runewars", ["season", "+duel", "-nope"], corpus=corpus)
    assert caught.value.path == "topics[2]" and "'nope'" in caught.value.message
    with pytest.raises(UnreadableInputError) as caught:
        quickref.write("runewars", Path("x.doc"), fmt="doc", corpus=corpus)
    assert caught.value.path == "format"


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          corpus: Corpus) -> None:
    out = tmp_path / "quickref-runewars.pdf"
    quickref.write("runewars", out, topics="duel", corpus=corpus)  # a sheet of ours, then a failed rewrite
    previous = out.read_bytes()

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("engine.files.ownership.os.replace", refuse)
    with pytest.raises(OutputRefusedError, match="no space left"):
        quickref.write("runewars", out, topics="duel", corpus=corpus)
    assert out.read_bytes() == previous
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


def test_write_refuses_a_file_it_did_not_write(tmp_path: Path, corpus: Corpus) -> None:
    out = tmp_path / "mine.pdf"
    out.write_bytes(b"a user's file")
    with pytest.raises(OutputRefusedError):
        quickref.write("runewars", out, topics="duel", corpus=corpus)
    assert out.read_bytes() == b"a user's file"


def test_list_topics_text_and_json(capsys: pytest.CaptureFixture[str], corpus: Corpus) -> None:
    assert main(["quickref", "--game", "runewars", "--list-topics"]) == 0
    text = capsys.readouterr().out
    gt = quickref.game_topics("runewars", corpus)
    for t in gt.all_topics:
        assert re.search(rf"^\s+{'[*]' if t.default else ' '} {re.escape(t.key)}\s", text, re.M), t.key
    assert main(["quickref", "--game", "runewars", "--list-topics", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["default"] == quickref.default_topics("runewars", corpus)
    assert [c["key"] for c in data["chapters"]] == [c.key for c in gt.chapters]


def test_pdf_to_standard_output(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    assert main(["quickref", "--game", "runeslingers", "--topics", "power", "-o", "-"]) == 0
    assert capfdbinary.readouterr().out.startswith(b"%PDF-")


# ------------------------------------------------------------------------------------ text and fitting

def test_corpus_text_goes_through_the_one_renderer(make_rules: Callable[[dict[str, str]], Path]) -> None:
    root = make_rules({
        "rune-age/a.yaml": """
            paragraphs:
              - id: ra.listed
                kind: rule
                title: Listed
                source: {page: 3, section: Setup}
                text: |
                  Do this:

                  1. first
                  2. second
              - id: ra.brief
                kind: rule
                title: Brief
                short: Pay 2 gold, then draw 1 card.
                source: {page: 4, section: Setup}
                text: "Pay 2 gold and afterwards draw 1 card from your deck."
        """,
        "quickref.yaml": """
            games:
              rune-age:
                chapters:
                  - key: only
                    heading: Only
                    topics:
                      - {key: one, heading: One, default: true, paragraphs: [ra.listed, ra.brief]}
        """,
    })
    small = load_corpus(root)
    sheet = quickref.build("rune-age", corpus=small)
    listed, brief = sheet.sections[0].entries
    assert listed.blocks == render.blocks(small.text_of("ra.listed"))  # no short yet: the full text
    assert brief.blocks == render.blocks("Pay 2 gold, then draw 1 card.")  # the short form
    html = quickref.render_html("rune-age", corpus=small)
    assert '<ol class="inner"><li>first</li><li>second</li></ol>' in html
    assert "Pay 2 gold, then draw 1 card." in html and "afterwards" not in html


def test_fitting_sets_the_type_denser_only_when_needed_never_below_8_5(corpus: Corpus) -> None:
    assert min(d.font_pt for d in quickref.DENSITIES) >= 8.5
    sheet = quickref.build("rune-age", "forgotten,faq-cards,errata,setup", corpus=corpus)
    loose = quickref.render(sheet, max_pages=99)
    assert loose.density == "normal" and loose.pages >= 2
    fitted = quickref.render(sheet, max_pages=loose.pages - 1)
    assert fitted.density != "normal"
    assert fitted.pages <= loose.pages - 1 or fitted.density == quickref.DENSITIES[-1].name


def test_added_topics_add_pages(tmp_path: Path, corpus: Corpus) -> None:
    out = tmp_path / "more.pdf"
    written = quickref.write("rune-age", out, topics="+setup,+faq-cards,+errata,+scenarios", corpus=corpus)
    assert written.pages is not None and written.pages > 2 and written.density in ("normal", "roomy")
    assert all(n <= quickref.MAX_WORDS_PER_PAGE for n in page_words(out))


def test_a_paragraph_in_two_chosen_topics_is_printed_once(corpus: Corpus) -> None:
    both = [t for t in quickref.game_topics("rune-age", corpus).all_topics
            if "ra.conduct-a-battle.4.instant-damage" in t.paragraphs]
    assert len(both) >= 2
    html = quickref.render_html("rune-age", [t.key for t in both], corpus=corpus)
    assert html.count('id="p-ra.conduct-a-battle.4.instant-damage"') == 1
    sheet = quickref.build("rune-age", [t.key for t in both], corpus=corpus)
    ids = [pid for s in sheet.sections for pid in s.printed]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("game", GAMES)
def test_html_page_is_set_in_the_type_of_its_pdf(game: str, corpus: Corpus) -> None:
    sheet = quickref.build(game, corpus=corpus)
    assert quickref.page_density(sheet).name == quickref.render(sheet, quickref.DEFAULT_MAX_PAGES).density


def test_html_page_is_responsive_and_prints_as_the_sheet(corpus: Corpus) -> None:
    html = quickref.render_html("runewars-miniatures", corpus=corpus)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "@media screen and (max-width: 700px)" in html and "columns: 1" in html
    assert "@page" in html and "size: A4" in html and "@media print" in html
    sheet = quickref.build("runewars-miniatures", corpus=corpus)
    pdf = quickref.render(sheet, quickref.DEFAULT_MAX_PAGES)
    # The page the web app serves is the document the PDF is made from, in the same type size.
    assert quickref._html(sheet, quickref.Density.from_name(pdf.density)) == html


# ------------------------------------------------------------------------------------ the large-type sheet
#
# Type size from a PDF: ``pdftotext -bbox`` gives each word's box, whose height is the font's ascent plus
# descent at its size. For DejaVu Sans (Condensed), the sheet's font, that is 0.928 + 0.236 = 1.164 em, so
# a word set in S pt has a box 1.164 * S pt high, and S = height / 1.164. The factor is measured (not
# assumed) by :func:`box_per_pt` on a sample of known size and checked to be the same at 8 to 20 pt.

def small_print_words(sheet: quickref.QuickRef, corpus: Corpus) -> set[str]:
    """Return the words the sheet may set smaller than its body: locators, errata marks, the header's
    source line and errata list, the page footer."""
    small_print = " ".join([*(quickref.short_locator(corpus, pid) for s in sheet.sections for pid in s.ids),
                            *(er.locator for er in sheet.errata_applied), *sheet.documents, sheet.game_title,
                            "errata ERRATA applied: Runecodex — quick reference page of 1 2 3 4 5 6 7 8 9 10 "
                            "restated in our own words; small print gives the book's place. ·"])
    return {w.strip(".,;:()") for w in small_print.replace("\u00a0", " ").split()}


def test_bbox_height_converts_to_point_size_on_known_samples(tmp_path: Path, box_per_pt: float) -> None:
    from weasyprint import HTML

    assert 1.164 * 0.98 < box_per_pt < 1.164 * 1.02  # DejaVu Sans: ascent 0.928 + descent 0.236 em
    for size in (8, 12, 14, 20):
        path = tmp_path / f"s{size}.pdf"
        path.write_bytes(HTML(string=f'<p style="font-family: \'DejaVu Sans Condensed\', \'DejaVu Sans\'; '
                                     f'font-size: {size}pt">Calibrate</p>').write_pdf())
        ((_, height),) = word_heights(path)
        assert height / box_per_pt == pytest.approx(size, rel=0.01), size


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Write the large-type sheet of every game with the command line, once."""
    out = tmp_path_factory.mktemp("large")
    paths = {}
    for n, game in enumerate(GAMES):
        paths[game] = out / f"{game}.pdf"
        flag = ["--large"] if n % 2 else ["--size", "large"]  # both spellings
        assert main(["quickref", "--game", game, *flag, "-o", str(paths[game])]) == 0
    return paths


@pytest.mark.parametrize("game", GAMES)
def test_large_sheet_body_is_at_least_12_pt(game: str, large: dict[str, Path], box_per_pt: float,
                                            corpus: Corpus) -> None:
    words = word_heights(large[game])
    sheet = quickref.build(game, corpus=corpus, size="large")
    allowed = small_print_words(sheet, corpus)
    body = [(w, h / box_per_pt) for w, h in words if w.strip(".,;:()") not in allowed]
    assert len(body) > len(words) / 2
    small = sorted({w for w, pt in body if pt < 12 - 0.05})
    assert not small, f"{game}: body words set below 12 pt: {small[:12]}"
    sizes = sorted(pt for _, pt in body)
    assert sizes[len(sizes) // 2] >= 13.9, f"{game}: median body size {sizes[len(sizes) // 2]:.2f} pt"
    assert min(h for _, h in words) / box_per_pt >= 9.4  # citations too are larger than on the 2-page sheet


@pytest.mark.parametrize("game", GAMES)
def test_large_sheet_has_one_or_two_topics_a_page_and_every_topic(game: str, large: dict[str, Path],
                                                                   corpus: Corpus) -> None:
    sheet = quickref.build(game, corpus=corpus, size="large")
    groups = sheet.page_groups
    assert int(pdf_info(large[game])["Pages"]) == len(groups), "each page group fits on its page"
    assert all(1 <= len(g) <= 2 for g in groups)
    for n, group in enumerate(groups, 1):
        out = subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), "-raw", "-enc", "UTF-8", str(large[game]),
                              "-"], check=True, capture_output=True, text=True).stdout
        page = squash(out)
        for section in group:
            assert squash(section.heading) in page, (n, section.key)
    assert [s.key for g in groups for s in g] == [s.key for s in quickref.build(game, corpus=corpus).sections]


def test_large_html_page_and_default_output_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 corpus: Corpus, capsys: pytest.CaptureFixture[str]) -> None:
    html = quickref.render_html("runewars", corpus=corpus, size="large")
    assert "font-size: 14.0pt" in html and 'class="page-group"' in html and "columns: 1;" in html
    monkeypatch.chdir(tmp_path)
    assert main(["quickref", "--game", "runeslingers", "--topics", "power", "--large"]) == 0
    assert "large type" in capsys.readouterr().out
    assert (tmp_path / "build" / "quickref" / "quickref-runeslingers-large.pdf").is_file()
    with pytest.raises(UnreadableInputError) as caught:
        quickref.build("runewars", size="huge", corpus=corpus)
    assert caught.value.path == "size" and "'huge'" in caught.value.message
    with pytest.raises(SystemExit):
        main(["quickref", "--game", "runewars", "--size", "huge"])
    assert "invalid choice: 'huge'" in capsys.readouterr().err


# ------------------------------------------------------------------------------------ glitches of issue 28

def lone_words(path: Path, table_words: set[str]) -> list[tuple[int, str, str]]:
    """Return the words left alone on a line of the PDF while their sentence goes on below from the same left
    edge (``pdftotext -bbox-layout``: a line of one word, a step number aside, then the next line of the page,
    right below in the same type size, longer), leaving out table cells, where a short cell above another is
    normal. Lines are compared across pdftotext's blocks: the broken step 7 came out as two blocks."""
    out = subprocess.run(["pdftotext", "-bbox-layout", "-enc", "UTF-8", str(path), "-"], check=True,
                         capture_output=True, text=True).stdout
    word = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
    found = []
    for n, page in enumerate(re.findall(r"<page .*?</page>", out, re.S), 1):
        lines = [[(float(a), float(b), float(c), float(d), html_lib.unescape(w))
                  for a, b, c, d, w in word.findall(line)] for line in re.findall(r"<line .*?</line>", page, re.S)]
        for this, below in itertools.pairwise(lines):
            text = [w for w in this if not w[4].isdigit()]
            if len(text) != 1 or not below:
                continue
            (x0, y0, x1, y1, alone), first = text[0], below[0]
            if (abs(first[0] - x0) < 1.5 and 0 <= first[1] - y1 < 0.5 * (y1 - y0)
                    and abs((first[3] - first[1]) - (y1 - y0)) < 0.3 and below[-1][2] - first[0] > 3 * (x1 - x0)
                    and alone.strip(".,;:()") not in table_words):
                found.append((n, alone, " ".join(w[4] for w in below)))
    return found


def table_words(sheet: quickref.QuickRef) -> set[str]:
    """Return the words of the sheet's table cells (tables, lookup titles, facts)."""
    cells = [c for s in sheet.sections for t in s.tables for c in (*t.columns, *(x for r in t.rows for x in r))]
    cells += [e.title for s in sheet.sections if s.block == "lookup" for e in s.entries]
    cells += [f.label for s in sheet.sections for f in s.facts]
    return {w.strip(".,;:()") for c in cells for w in c.split()}


@pytest.mark.parametrize("game", GAMES)
def test_no_word_is_left_alone_on_a_line(game: str, defaults: dict[str, Path], large: dict[str, Path],
                                         corpus: Corpus) -> None:
    """Runeslingers p. 1, step 7 of playing a card broke after "The" (and step 4 after "effects")."""
    words = table_words(quickref.build(game, corpus=corpus))
    assert lone_words(defaults[game], words) == []
    assert lone_words(large[game], words) == []
    if game == "runeslingers":
        raw = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(defaults[game]), "-"], check=True,
                             capture_output=True, text=True).stdout
        assert re.search(r"^(7 )?The card's effects resolve", raw, re.M), "step 7 starts its line whole"


LOCATOR_LINE = re.compile(r"^(p\.|RR|FAQ|Errata|Quick Reference|[A-Z]{2,3} p\.)[\s\d.#:A-Za-z']{0,40}$")


@pytest.mark.parametrize("game", GAMES)
def test_no_page_starts_with_a_locator(game: str, defaults: dict[str, Path]) -> None:
    """Runewars p. 2 began with "p. 40" alone: the battle sequence's locator, split from its steps."""
    for n in (1, 2):
        out = subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), "-raw", "-enc", "UTF-8", str(defaults[game]),
                              "-"], check=True, capture_output=True, text=True).stdout
        first = next(line for line in out.splitlines() if line.strip())
        assert not LOCATOR_LINE.match(first.replace("\u00a0", " ").strip()), f"page {n} starts with {first!r}"


def test_rune_age_turn_lists_the_turn_steps_once(defaults: dict[str, Path], corpus: Corpus) -> None:
    """The turn listed "draw up to five" twice and the round's "Event occurs" (the back-cover round summary)."""
    text = pdf_text(defaults["rune-age"])
    assert "Event Occurs" not in text  # the round's step, in the round summary (not a default topic)
    assert text.count("up to Five Cards") == 1, "the turn's draw, once"
    assert all(squash(step) in text for step in corpus.fact("ra.a-player-s-turn", "turn_steps"))
    sheet = quickref.build("rune-age", corpus=corpus)
    shown = [step for s in sheet.sections if s.key == "turn" for seq in s.sequences for step in seq.steps]
    assert len(shown) == 4 and len(set(shown)) == 4


def column_fill(path: Path, page: int) -> list[float]:
    """Return how far down each of the page's two columns its text reaches, as a share of the text area
    (from the top of the first line to the footer), ``pdftotext -bbox``."""
    out = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-bbox", str(path), "-"], check=True,
                         capture_output=True, text=True).stdout
    width = float(re.search(r'<page width="([\d.]+)"', out).group(1))  # type: ignore[union-attr]
    boxes = [tuple(map(float, m)) for m in
             re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)"', out)]
    footer = max(y1 for _, _, y1 in boxes)
    text = [b for b in boxes if b[2] < footer - 15]
    top = min(y0 for _, y0, _ in text)
    bottoms = [max((y1 for x0, _, y1 in text if (x0 < width / 2) == left), default=top) for left in (True, False)]
    return [round((b - top) / (footer - 20 - top), 2) for b in bottoms]


@pytest.mark.parametrize("game", GAMES)
def test_the_second_page_is_not_half_empty(game: str, defaults: dict[str, Path]) -> None:
    """Runeslingers p. 2 filled one column of two (set in 9.8 pt); the sheet is now set larger to fill it."""
    fill = column_fill(defaults[game], 2)
    assert sum(fill) / 2 >= 0.6, f"{game}: page 2 columns filled {fill}"


# ------------------------------------------------------------------------------------ the web app

@pytest.mark.slow
def test_app_offers_the_large_type_and_sends_downloads(tmp_path: Path) -> None:
    import time

    from webapp.app import create_app

    app = create_app({"TESTING": True, "SITE_DIR": str(tmp_path)})
    client = app.test_client()
    try:
        page = client.get("/quickref/runeslingers").get_data(as_text=True)
        assert 'name="size"' in page and 'value="large"' in page and 'value="standard"' in page
        for size, name in (("large", "quickref-runeslingers-large.pdf"), ("standard", "quickref-runeslingers.pdf")):
            for _attempt in range(30):  # a busy printer answers 503 + Retry-After until the PDF is ready
                resp = client.get(f"/quickref/runeslingers.pdf?t=power&size={size}")
                if resp.status_code != 503:
                    break
                time.sleep(min(int(resp.headers["Retry-After"]), 3))
            assert resp.status_code == 200 and resp.data.startswith(b"%PDF"), resp.status_code
            assert resp.headers["Content-Disposition"] == f'attachment; filename="{name}"'
        bad = client.get("/quickref/runeslingers.pdf?size=huge", headers={"Accept": "application/json"})
        assert bad.status_code == 400 and bad.get_json()["path"] == "size"
        preview = client.get("/quickref/runeslingers.html?t=power&size=large").get_data(as_text=True)
        assert 'class="page-group"' in preview
    finally:
        pool = app.extensions.get("runecodex-pdf")
        if pool is not None:
            pool.shutdown()
