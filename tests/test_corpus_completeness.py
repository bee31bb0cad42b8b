"""The corpus is complete where the books can tell: every printed RuneWars Miniatures number exists,
every glossary term resolves, errata and FAQ link both ways, and term lookups work for all four games."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.corpus import Corpus

PRINTED = re.compile(r"^(?:- )?(?:\*\*)?([0-9Il]{1,2})\.([0-9Il]{1,2})(?:\*\*|\s)")
ENTRY = re.compile(r"^## ([0-9Il]{1,2}) \S")


def _digits(text: str) -> str:
    return text.replace("I", "1").replace("l", "1")


def printed_numbers(seed: Path) -> tuple[set[str], set[str]]:
    """Return the glossary's printed entry numbers ("10") and paragraph numbers ("10.9") in the source."""
    entries: set[str] = set()
    paragraphs: set[str] = set()
    in_glossary = False
    for line in seed.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            in_glossary = line.strip() == "# Glossary"
            continue
        if not in_glossary:
            continue
        if m := ENTRY.match(line):
            entries.add(str(int(_digits(m.group(1)))))
        if m := PRINTED.match(line.strip()):
            n, k = int(_digits(m.group(1))), int(_digits(m.group(2)))
            if 1 <= n <= 92:
                paragraphs.add(f"{n}.{k}")
    return entries, paragraphs


def test_every_printed_runewars_miniatures_number_is_an_id(corpus: Corpus, seeds: Path) -> None:
    entries, paragraphs = printed_numbers(seeds / corpus.document("runewars-miniatures").seed)
    assert entries == {str(n) for n in range(1, 93)}
    assert len(paragraphs) > 250
    missing = sorted((f"rwm.{p}" for p in paragraphs if f"rwm.{p}" not in corpus), key=lambda s: [
        int(x) for x in s[4:].split(".")])
    assert missing == []
    assert all(f"rwm.{n}" in corpus for n in range(1, 93))


def test_numbered_paragraphs_carry_their_printed_number(corpus: Corpus) -> None:
    for p in corpus.select("runewars-miniatures"):
        m = re.fullmatch(r"rwm\.(\d+(?:\.\d+)?)(?:\.b\d+.*)?", p.id)
        if m:
            assert p.source.paragraph == m.group(1), p.id


@pytest.mark.parametrize("game", ["rune-age", "runewars-miniatures", "runewars", "runeslingers"])
def test_a_term_lookup_shows_definition_users_and_related_topics(corpus: Corpus, game: str) -> None:
    glossary = corpus.select(game, "glossary")
    assert len(glossary) >= 40
    used = [g for g in glossary if corpus.to_json(g.id)["used_by"]]
    assert len(used) >= len(glossary) // 2
    with_related = [g for g in glossary if g.related or g.see]
    assert with_related
    sample = used[0]
    data = corpus.to_json(sample.id)
    assert data["defines"] and data["text"] and data["used_by"]


def test_see_entries_point_to_their_target(corpus: Corpus) -> None:
    contacted = corpus.get("rwm.21")
    assert contacted.see == "rwm.34"
    assert corpus.glossary_for("runewars-miniatures", "contacted edge") is contacted


def test_book_index_sends_a_term_where_the_book_does(corpus: Corpus) -> None:
    flanking = corpus.to_json("rwm.41")
    assert "rwm.41" in flanking["index"] or any(i.startswith("rwm.41") for i in flanking["index"])
    assert len([e for e in corpus.index if e.doc == "runewars-miniatures"]) > 400


def test_contested_rules_name_both_readings(corpus: Corpus) -> None:
    setup = corpus.get("rs.setup-steps.3")
    constructed = corpus.get("rs.modes-of-play.constructed")
    for p in (setup, constructed):
        assert p.contested and "30" in p.contested and "40" in p.contested


def test_every_game_has_all_kinds_it_needs(corpus: Corpus) -> None:
    kinds = {g: {p.kind for p in corpus.select(g)} for g in corpus.games}
    assert {"rule", "glossary", "errata", "faq", "example", "table", "scenario"} <= kinds["rune-age"]
    for game in ("runewars-miniatures", "runewars", "runeslingers"):
        assert {"rule", "glossary", "example"} <= kinds[game]
