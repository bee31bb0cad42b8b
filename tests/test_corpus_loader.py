"""The loader reads good corpora into typed paragraphs and reports every problem with file and line."""

from __future__ import annotations

import pytest

from engine.corpus import Paragraph, load_corpus, read_corpus
from engine.errors import CorpusError, UnknownParagraphError

GOOD = {
    "rune-age/01-terms.yaml": """\
        paragraphs:
          - id: ra.term.exhaust
            kind: glossary
            title: Exhaust
            defines: [exhaust]
            aliases: [exhausted]
            source: {page: 6, section: Card Anatomy}
            text: Turn the card sideways; it cannot be used again until refreshed.
          - id: ra.turn.1
            kind: rule
            title: Refresh step
            source: {page: 7, section: A Player's Turn, paragraph: "1"}
            terms: [exhaust]
            related: [ra.term.exhaust]
            facts: {hand_size: 5}
            text: The active player refreshes every exhausted city and stronghold he controls.
        """,
    "rune-age-faq/01-errata.yaml": """\
        paragraphs:
          - id: rafaq.errata.rulebook.p7
            kind: errata
            title: Rewards also refresh
            source: {section: "Errata: Rulebook", paragraph: "7"}
            amends: [ra.turn.1]
            corrected:
              ra.turn.1: The active player refreshes every exhausted city, stronghold and Reward he controls.
            text: Step 1 of the turn also refreshes Rewards.
          - id: rafaq.faq.general.1
            kind: faq
            title: Refreshing
            source: {section: "FAQ: General", paragraph: "1"}
            clarifies: [ra.turn.1]
            text: "Q: Is refreshing optional? A: No."
        """,
}


def test_good_corpus_loads_into_typed_paragraphs(make_rules):
    corpus = load_corpus(make_rules(GOOD))
    assert len(corpus) == 4
    rule = corpus.get("ra.turn.1")
    assert isinstance(rule, Paragraph)
    assert rule.game == "rune-age"
    assert rule.source.doc == "rune-age"
    assert rule.source.paragraph == "1"
    assert rule.facts == {"hand_size": 5}
    assert corpus.fact("ra.turn.1", "hand_size") == 5


def test_errata_and_faq_link_both_ways(make_rules):
    corpus = load_corpus(make_rules(GOOD))
    data = corpus.to_json("ra.turn.1")
    assert data["amended_by"] == ["rafaq.errata.rulebook.p7"]
    assert data["faq"] == ["rafaq.faq.general.1"]
    assert "Reward" in data["text"]  # the corrected text is shown
    assert "Reward" not in data["original_text"]  # and the original is kept
    assert corpus.to_json("rafaq.errata.rulebook.p7")["amends"] == ["ra.turn.1"]


def test_term_definitions_resolve_aliases_within_the_game(make_rules):
    corpus = load_corpus(make_rules(GOOD))
    glossary = corpus.glossary_for("rune-age", "Exhausted")
    assert glossary is not None and glossary.id == "ra.term.exhaust"
    assert corpus.to_json("ra.term.exhaust")["used_by"] == ["ra.turn.1"]


def test_unknown_id_raises_a_lookup_error(make_rules):
    corpus = load_corpus(make_rules(GOOD))
    with pytest.raises(UnknownParagraphError, match=r"unknown paragraph id 'ra\.nope'"):
        corpus.get("ra.nope")


BROKEN = [
    ("duplicate id", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.turn.1, kind: rule, title: T, text: x, source: {section: S}}
        """}, "rune-age/02.yaml:2: duplicate id 'ra.turn.1' (first at rune-age/01-terms.yaml:"),
    ("unknown document", {"nowhere/01.yaml": "paragraphs: []\n"}, "unknown document 'nowhere'"),
    ("dangling related", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.x, kind: rule, title: T, text: x, source: {section: S}, related: [ra.missing]}
        """}, "rune-age/02.yaml:2: ra.x.related: unknown id 'ra.missing'"),
    ("undefined term", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.x, kind: rule, title: T, text: x, source: {section: S}, terms: [flanking]}
        """}, "ra.x.terms: 'flanking' is not defined by a glossary entry of rune-age"),
    ("empty text", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.x, kind: rule, title: T, text: "  ", source: {section: S}}
        """}, "rune-age/02.yaml:2: paragraph 'ra.x': text is empty"),
    ("bad kind", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.x, kind: ruling, title: T, text: x, source: {section: S}}
        """}, "kind must be one of"),
    ("wrong prefix", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: rwm.1, kind: rule, title: T, text: x, source: {section: S}}
        """}, "id must start with 'ra.' in rune-age/"),
    ("unknown key", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.x, kind: rule, title: T, text: x, source: {section: S}, colour: red}
        """}, "unknown key 'colour'"),
    ("errata without amends", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.x, kind: errata, title: T, text: x, source: {section: S}}
        """}, "an erratum must list the paragraphs it amends"),
    ("faq without clarifies", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.x, kind: faq, title: T, text: x, source: {section: S}}
        """}, "a faq entry must list the paragraphs it clarifies"),
    ("bad yaml", {"rune-age/02.yaml": "paragraphs:\n  - id: [unclosed\n"}, "rune-age/02.yaml:"),
    ("page not a number", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.x, kind: rule, title: T, text: x, source: {page: twelve, section: S}}
        """}, "source.page must be a positive integer, got 'twelve'"),
    ("term defined twice", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.x, kind: glossary, title: T, text: x, source: {section: S}, defines: [exhaust]}
        """}, "term 'exhaust' of rune-age is defined twice"),
    ("corrected outside amends", {"rune-age/02.yaml": """\
        paragraphs:
          - {id: ra.x, kind: errata, title: T, text: x, source: {section: S}, amends: [ra.turn.1],
             corrected: {ra.term.exhaust: new}}
        """}, "ra.x.corrected: 'ra.term.exhaust' is not in amends"),
]


@pytest.mark.parametrize(("label", "extra", "expected"), BROKEN, ids=[b[0] for b in BROKEN])
def test_each_broken_corpus_is_reported_with_file_and_line(make_rules, label, extra, expected):
    root = make_rules({**GOOD, **extra})
    _, problems = read_corpus(root)
    messages = [str(p) for p in problems]
    assert any(expected in m for m in messages), messages
    with pytest.raises(CorpusError):
        load_corpus(root)


def test_a_clean_corpus_has_no_problems(make_rules):
    _, problems = read_corpus(make_rules(GOOD))
    assert problems == []


def test_the_parsed_corpus_cache_follows_the_files(make_rules, tmp_path, monkeypatch):
    from engine.corpus import loader as corpus_module

    monkeypatch.setenv("RUNECODEX_CACHE", str(tmp_path / "cache"))
    root = make_rules(GOOD)
    load = corpus_module._cached.__wrapped__
    first = load(str(root))
    assert list((tmp_path / "cache").glob("corpus-*.json"))
    assert load(str(root)).get("ra.turn.1").text == first.get("ra.turn.1").text
    path = root / "rune-age" / "01-terms.yaml"
    path.write_text(path.read_text().replace("he controls.", "he controls, every round."))
    assert load(str(root)).get("ra.turn.1").text.endswith("every round.")
    assert len(list((tmp_path / "cache").glob("corpus-*.json"))) == 1
