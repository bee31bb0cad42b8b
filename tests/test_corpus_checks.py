"""Facts are typed data, errata correct facts and tables, summaries agree with details, notes stay apart.

Each check is shown on a tiny corpus that breaks it, and the real corpus passes every one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from engine.corpus import Corpus, load_corpus, read_corpus
from engine.corpus import checks as corpus_checks
from engine.corpus.facts import check_facts, read_schema

MakeCorpus = Callable[[dict[str, str]], Path]  # the make_rules fixture of conftest.py

RULE = """\
    paragraphs:
      - id: ra.victory
        kind: rule
        title: Monument victory
        source: {page: 16, section: The Monument}
        facts: {tiebreak_counts: [deck], rounds: 3}
        table:
          columns: [step, what]
          rows: [[1, "count the deck"]]
        text: Tied builders compare the strength of the unit cards in their decks.
      - id: ra.summary
        kind: scenario
        title: The Monument
        source: {page: 16, section: The Monument}
        summarizes: [ra.victory]
        facts: {rounds: 3}
        text: Build the Monument first to win.
    """
ERRATUM = """\
    paragraphs:
      - id: rafaq.errata.p16
        kind: errata
        title: Ties count hand and discard pile too
        source: {section: "Errata: Rulebook", paragraph: "16"}
        amends: [ra.victory]
        corrected:
          ra.victory: Tied builders compare the strength of the unit cards in deck, hand and discard pile.
        corrected_facts:
          ra.victory: {tiebreak_counts: [deck, hand, discard pile]}
        corrected_table:
          ra.victory:
            columns: [step, what]
            rows: [[1, "count deck, hand and discard pile"]]
        text: The tie also counts the hand and the discard pile.
    """
SCHEMA = """\
    facts:
      tiebreak_counts: {type: "list[str]"}
      rounds: {type: int, description: rounds played}
    """


def _messages(root: Path) -> list[str]:
    return [p.message for p in read_corpus(root)[1]]


def test_errata_correct_facts_and_tables_keeping_the_originals(make_rules: MakeCorpus) -> None:
    corpus = load_corpus(make_rules({"rune-age/a.yaml": RULE, "rune-age-faq/e.yaml": ERRATUM, "facts.yaml": SCHEMA}))
    assert corpus.fact("ra.victory", "tiebreak_counts") == ["deck", "hand", "discard pile"]
    assert corpus.fact("ra.victory", "rounds") == 3  # keys the erratum leaves alone stay
    assert corpus.get("ra.victory").facts["tiebreak_counts"] == ["deck"]
    table = corpus.table_of("ra.victory")
    assert table is not None and table.rows == ((1, "count deck, hand and discard pile"),)
    shown = json.loads(json.dumps(corpus.to_json("ra.victory")))
    assert shown["facts"]["tiebreak_counts"] == ["deck", "hand", "discard pile"]
    assert shown["original_facts"]["tiebreak_counts"] == ["deck"]
    assert shown["table"]["rows"] == [[1, "count deck, hand and discard pile"]]
    assert shown["original_table"]["rows"] == [[1, "count the deck"]]
    assert corpus_checks.check(corpus) == []


def test_an_erratum_leaving_old_facts_or_table_beside_new_text_is_reported(make_rules: MakeCorpus) -> None:
    bare = ERRATUM.split("    corrected_facts:")[0] + "    text: The tie also counts the hand and the discard pile.\n"
    corpus = load_corpus(make_rules({"rune-age/a.yaml": RULE, "rune-age-faq/e.yaml": bare}))
    found = [p.message for p in corpus_checks.errata_gaps(corpus)]
    assert any("corrects its facts" in m for m in found) and any("corrects its table" in m for m in found)
    declared = bare.replace("amends: [ra.victory]", "amends: [ra.victory]\n        unaffected: [ra.victory]")
    corpus = load_corpus(make_rules({"rune-age/a.yaml": RULE, "rune-age-faq/e.yaml": declared}))
    assert corpus_checks.errata_gaps(corpus) == []


def test_corrections_must_name_an_amended_paragraph(make_rules: MakeCorpus) -> None:
    stray = ERRATUM.replace("corrected_facts:\n          ra.victory:", "corrected_facts:\n          ra.summary:")
    found = _messages(make_rules({"rune-age/a.yaml": RULE, "rune-age-faq/e.yaml": stray}))
    assert "rafaq.errata.p16.corrected_facts: 'ra.summary' is not in amends" in found


def test_facts_split_at_commas_or_null_are_loader_problems(make_rules: MakeCorpus) -> None:
    bad = RULE.replace("facts: {tiebreak_counts: [deck], rounds: 3}",
                       "facts: {delay: one game year, same season, steps: [Cities, and Rewards], cap: null}")
    found = _messages(make_rules({"rune-age/a.yaml": bad}))
    assert any("key 'same season' is not a snake_case word" in m for m in found)
    assert any("ra.victory.facts.steps[1]: 'and Rewards' is a fragment of prose" in m for m in found)
    assert any("ra.victory.facts.cap: null value" in m for m in found)


def test_facts_follow_the_declared_schema(make_rules: MakeCorpus) -> None:
    bad = RULE.replace("rounds: 3}\n        table", "rounds: three, extra: 1}\n        table")
    found = _messages(make_rules({"rune-age/a.yaml": bad, "facts.yaml": SCHEMA}))
    assert "ra.victory.facts.rounds: 'three' is not of type int" in found
    assert any(m.startswith("ra.victory.facts.extra: key not declared in rules/facts.yaml") for m in found)


def test_schema_reader_reports_unknown_types(tmp_path: Path) -> None:
    (tmp_path / "facts.yaml").write_text("facts:\n  a: {type: integer}\n  b: {type: 'int | str'}\n")
    said: list[str] = []
    schema = read_schema(tmp_path, lambda line, message: said.append(message))
    assert schema is not None and schema["b"].accepts("x") and schema["b"].accepts(2)
    assert "a" not in schema and any("a.type must be one of" in m for m in said)
    assert check_facts({"b": True}, schema, "x.facts") == ["x.facts.b: True is not of type int | str"]


def test_a_summary_contradicting_its_detail_is_reported(make_rules: MakeCorpus) -> None:
    corpus = load_corpus(make_rules({"rune-age/a.yaml": RULE.replace("facts: {rounds: 3}", "facts: {rounds: 4}")}))
    assert [p.message for p in corpus_checks.contradictions(corpus)] == [
        "ra.summary.facts.rounds = 4 contradicts ra.victory.facts.rounds = 3"]


def test_summary_values_agree_across_shapes() -> None:
    assert corpus_checks.agree({"Gold": [], "Card": []}, ["card", "gold"])
    assert corpus_checks.agree("Deck", "deck")
    assert not corpus_checks.agree([1, 2], [2, 1])
    assert not corpus_checks.agree(1, True)


def test_remarks_about_the_book_in_rule_text_are_reported(make_rules: MakeCorpus) -> None:
    chatty = RULE.replace("in their decks.", "in their decks (as the book says; see the note).")
    corpus = load_corpus(make_rules({"rune-age/a.yaml": chatty}))
    assert [p.message for p in corpus_checks.remarks(corpus)] == [
        "ra.victory.text: remark 'the book' belongs in note, not in the rule text"]


def test_real_corpus_passes_every_whole_corpus_check(corpus: Corpus) -> None:
    assert [str(p) for p in corpus_checks.check(corpus)] == []


def test_named_defects_stay_fixed(corpus: Corpus) -> None:
    assert corpus.fact("ra.the-monument.victory", "tiebreak_counts") == ["deck", "hand", "discard pile"]
    assert len(corpus.fact("ra.quick-reference.a-player-s-turn", "steps")) == 6
    table = corpus.table_of("ra.quick-reference.a-player-s-turn")
    assert table is not None and len(table.rows) == 6
    assert len(corpus.fact("ra.a-player-s-turn", "turn_steps")) == 4
    assert set(corpus.get("rw.victory-cards").facts) == {"dragon_runes_needed", "confirm_after_years",
                                                        "confirm_in_same_season"}
    assert corpus.fact("ra.the-cataclysm", "all_win_when") == corpus.fact("ra.the-cataclysm.victory", "all_win_when")
    assert "misprint" not in corpus.get("ra.conduct-a-battle.4.instant-damage").text
    assert corpus.fact("ra.conduct-a-battle.4.instant-damage", "damage") == "instant_strength_minus_army_strength"
    assert corpus.get("ra.conduct-a-battle.4.instant-damage").facts["damage"] == "army_strength_minus_instant_strength"
