"""Own words: no corpus field repeats a run of 8 or more words from the rulebooks.

The rulebooks are copyrighted; the corpus restates them. A shared run of a few words (a card name, a
heading, a set phrase) is fine; 8 identical words in a row (letters only, lower case) is copying, and
this test names each place. Every text field is read (``text``, ``corrected``, ``contested``, ``note``,
``short``, ``asked``, table cells, the strings of ``facts``); lists of printed names marked
``printed_names`` are exempt. ``scripts/own_words_report.py`` prints the same list for rewording.
"""

from __future__ import annotations

from pathlib import Path

from engine.corpus import Corpus, Paragraph, Source, Table
from engine.corpus.own_words import RUN, BookIndex, copies, fields, is_printed_name, words


def test_no_field_copies_a_run_of_eight_words(corpus: Corpus, seeds: Path) -> None:
    found = copies(corpus, seeds)
    assert not found, f"{len(found)} field(s) share {RUN}+ words in a row with a rulebook:\n" + "\n".join(
        str(c) for c in found)


BOOK = "When a unit is destroyed, remove all of its figures from the battlefield at once."


def _para(**kw: object) -> Paragraph:
    base: dict[str, object] = {"id": "ra.x", "game": "rune-age", "kind": "rule", "title": "X",
                               "text": "Our own sentence.", "source": Source("rune-age", section="X")}
    base.update(kw)
    return Paragraph(**base)  # type: ignore[arg-type]


def test_words_are_letters_only_and_lower_case() -> None:
    assert words("Don't roll 2 Dice—ever!") == ["dont", "roll", "dice", "ever"]


def test_a_run_of_eight_is_found_and_seven_is_not() -> None:
    index = BookIndex({"book": BOOK})
    eight = "Rule: When a unit is destroyed, remove all of the pieces."
    seven = "Rule: when a unit is destroyed, remove all models."
    assert index.longest(eight)[0] == 8 and index.longest(eight)[2] == "book"
    assert index.longest(seven)[0] == 0
    assert index.longest("Note: " + BOOK.upper())[0] == len(words(BOOK))


def test_every_text_field_is_read() -> None:
    p = _para(short="s", asked=("a1", "a2"), note="n", contested="c", corrected={"ra.y": "fixed"},
              facts={"steps": ["one", "two"], "n": 3, "who": "first player"},
              table=Table(("Name", "Effect"), (("Sword", "deal 2"),)))
    labels = {label for label, _ in fields(p)}
    assert {"text", "short", "asked[0]", "asked[1]", "note", "contested", "corrected.ra.y", "facts.steps[0]",
            "facts.who", "table.columns", "table.Name[0]", "table.Effect[0]"} <= labels


def test_printed_names_exempt_only_the_marked_fields() -> None:
    p = _para(printed_names=("facts.steps", "table.Name"))
    assert is_printed_name(p, "facts.steps[3]")
    assert is_printed_name(p, "table.Name[0]")
    assert not is_printed_name(p, "table.Effect[0]")
    assert not is_printed_name(p, "facts.stepsize")
    assert not is_printed_name(p, "text")


def test_facts_keys_declared_as_names_are_exempt(corpus: Corpus, seeds: Path) -> None:
    from engine.corpus.facts import schema_of
    from engine.corpus.own_words import _fact_key

    assert _fact_key("facts.turn_steps[0]") == "turn_steps"
    assert _fact_key("corrected_facts.ra.quick-reference.a-player-s-turn.steps[5]") == "steps"
    assert _fact_key("table.name[0]") == ""
    assert schema_of(str(corpus.root))["turn_steps"].names
    assert not any(c.field.startswith("facts.turn_steps") for c in copies(corpus, seeds))
