"""The printable quick reference: real PDFs checked with poppler (pdfinfo, pdftotext), topic selection,
paper sizes, HTML output, errata, escaping and bad input (exit status 2, never a traceback)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest

from engine import quickref
from engine.cli import main
from engine.corpus import Corpus, load_corpus
from engine.errors import CorpusError, UnreadableInputError

GAMES = ("rune-age", "runewars-miniatures", "runewars", "runeslingers")
A4 = "595.276 x 841.89 pts (A4)"
LETTER = "612 x 792 pts (letter)"


def pdf_info(path: Path) -> dict[str, str]:
    """Return pdfinfo's fields for *path*."""
    out = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


def pdf_text(path: Path) -> str:
    """Return the PDF's text with whitespace (line breaks, no-break spaces) collapsed to single spaces."""
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], check=True, capture_output=True,
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

@pytest.mark.parametrize("game", GAMES)
def test_default_pdf_fits_two_a4_pages_with_every_heading(game: str, defaults: dict[str, Path],
                                                          corpus: Corpus) -> None:
    info = pdf_info(defaults[game])
    assert 1 <= int(info["Pages"]) <= 2
    assert info["Page size"] == A4
    text = pdf_text(defaults[game])
    gt = quickref.game_topics(game, corpus)
    chosen = [t for t in gt.all_topics if t.default]
    for t in chosen:
        assert squash(t.heading) in text, f"{game}: heading {t.heading!r} not in the PDF text"
    for chapter in gt.chapters:
        if any(t.default for t in chapter.topics):
            assert squash(chapter.heading).upper() in text
    for other in gt.all_topics:
        if not other.default:
            for pid in other.paragraphs:
                title = squash(corpus.get(pid).title)
                shown = any(pid in t.paragraphs or set(corpus.get(pid).amends) & set(t.paragraphs)
                            for t in chosen)
                if len(title) >= 24 and not shown:
                    assert title not in text, f"{pid} of unchosen topic {other.key} is printed"


@pytest.mark.parametrize("game", GAMES)
def test_default_pdf_prints_each_entry_with_its_locator(game: str, defaults: dict[str, Path],
                                                        corpus: Corpus) -> None:
    text = pdf_text(defaults[game])
    for key in quickref.default_topics(game, corpus):
        for pid in topic(game, key, corpus).paragraphs:
            # A locator breaks only at its commas (pdftotext may order the pieces of a broken one apart).
            for part in corpus.locator(pid).split(", "):
                assert squash(part) in text, f"{pid}: locator {corpus.locator(pid)!r} missing"
            assert squash(corpus.get(pid).title) in text, f"{pid}: title missing"


def test_amended_rules_show_their_corrected_text(defaults: dict[str, Path], corpus: Corpus) -> None:
    text = pdf_text(defaults["rune-age"])
    amended = [pid for t in quickref.game_topics("rune-age", corpus).all_topics if t.default
               for pid in t.paragraphs if corpus.is_amended(pid)]
    assert amended, "the Rune Age default sheet should show at least one amended rule"
    for pid in amended:
        corrected = squash(corpus.text_of(pid))
        original = squash(corpus.get(pid).text)
        assert corrected != original
        # The corrected wording is printed (its last words, past any list markers), the erratum is named.
        tail = " ".join(corrected.split()[-6:])
        assert tail in text, f"{pid}: corrected text not printed"
        for eid in corpus.amended_by[pid]:
            assert all(squash(part) in text for part in corpus.locator(eid).split(", "))
    # The back-cover summary gained a sixth step through its erratum: the sheet shows it.
    assert "every player draws up to 5 cards again" in text


def test_tables_are_printed_from_table_paragraphs(defaults: dict[str, Path], corpus: Corpus) -> None:
    text = pdf_text(defaults["runewars"])
    table = corpus.get("rw.order-card-summary").table
    assert table is not None
    for row in table.rows:
        assert squash(str(row[1])) in text and squash(str(row[2])) in text


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
    written = quickref.write("rune-age", out, topics="+rewards,-battle", corpus=corpus)
    assert written.path == out and written.pages == int(pdf_info(out)["Pages"])
    text = pdf_text(out)
    assert "Rewards" in text and squash(corpus.get("ra.rewards.resources").title) in text
    assert squash(corpus.get("ra.conduct-a-battle.2").title) not in text
    assert squash(corpus.get("ra.conduct-a-siege.2").title) in text


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
            assert squash(corpus.locator(pid)) in text
            blocks = quickref.Block.from_text(corpus.text_of(pid))
            if [b.kind for b in blocks] == ["p"]:
                # The corpus text comes back verbatim (apostrophes and quotes escaped in the markup).
                assert squash(corpus.text_of(pid)) in text, pid


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
    assert "Title <script>alert(1)</script>" in text and 'first "step"' in text
    assert "Pay 2 & keep <i>nothing</i>:" in text


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
    out.write_bytes(b"previous sheet")

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(quickref.os, "replace", refuse)
    with pytest.raises(UnreadableInputError, match="no space left"):
        quickref.write("runewars", out, topics="duel", corpus=corpus)
    assert out.read_bytes() == b"previous sheet"
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


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


# ------------------------------------------------------------------------------------ text blocks

def test_blocks_split_lists_steps_and_continuations() -> None:
    blocks = quickref.Block.from_text(
        "Do this:\n- first item that goes on\n  over a line\n- second\nThen prose.\n\n"
        "Steps: 1. one; 2. two; 3. three.\n(a) low;\n(b) high and\nstill high.\n")
    kinds = [b.kind for b in blocks]
    assert kinds == ["p", "list", "p", "p", "list", "list"]
    assert blocks[1].items == (("\u2022", "first item that goes on over a line"), ("\u2022", "second"))
    assert blocks[2].items[0][1] == "Then prose."
    assert blocks[3].items[0][1] == "Steps:"
    assert blocks[4].items == (("1.", "one"), ("2.", "two"), ("3.", "three."))
    assert blocks[5].items == (("(a)", "low;"), ("(b)", "high and still high."))


def test_numbers_inside_prose_are_not_a_list() -> None:
    blocks = quickref.Block.from_text("At most 8 units per area (see page\n12. Other borders) and 2. more.")
    assert [b.kind for b in blocks] == ["p"]
    wrapped = quickref.Block.from_text("Set up in order: (1) armies,\n(2) terrain, (3) units.")
    assert [b.kind for b in wrapped] == ["p"]
    assert wrapped[0].items[0][1] == "Set up in order: (1) armies, (2) terrain, (3) units."


def test_fitting_sets_the_type_denser_only_when_needed(corpus: Corpus) -> None:
    sheet = quickref.build("rune-age", "forgotten,faq-cards,errata,setup", corpus=corpus)
    loose = quickref.render(sheet)
    assert loose.density == "normal" and loose.pages >= 2
    fitted = quickref.render(sheet, max_pages=loose.pages - 1)
    assert fitted.density != "normal"
    assert fitted.pages <= loose.pages - 1 or fitted.density == quickref.DENSITIES[-1].name
    roomy = quickref.render(sheet, max_pages=loose.pages)
    assert roomy.density == "normal" and roomy.pages == loose.pages


def test_a_paragraph_in_two_chosen_topics_is_printed_once(corpus: Corpus) -> None:
    both = [t for t in quickref.game_topics("rune-age", corpus).all_topics
            if "ra.conduct-a-battle.4.instant-damage" in t.paragraphs]
    assert len(both) >= 2
    html = quickref.render_html("rune-age", [t.key for t in both], corpus=corpus)
    assert html.count('id="p-ra.conduct-a-battle.4.instant-damage"') == 1
    sheet = quickref.build("rune-age", [t.key for t in both], corpus=corpus)
    ids = [e.id for s in sheet.sections for e in s.entries]
    assert len(ids) == len(set(ids))
