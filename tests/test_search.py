"""Search finds the paragraph that answers a player's question: the game it names, its topic words,
typos, expansion, answering sentences, book locators, paging, syntax, JSON."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.cli import main
from engine.corpus import Corpus, corpus_version, load_corpus
from engine.errors import UnreadableInputError
from engine.search import SearchIndex, SearchResult, index_for, search
from engine.search.index import (
    FIELD_BOOSTS,
    book_heading,
    book_locator,
    build_index,
    documents,
    ensure_index,
    expansions,
    is_fresh,
    read_meta,
    read_synonyms,
    schema,
    stems,
)
from engine.search.query import detect_game, plain_snippet

MakeRules = Callable[[dict[str, str]], Path]

# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def index_dir(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a search index of the real corpus, built once into a temporary folder."""
    return build_index(tmp_path_factory.mktemp("search") / "index", corpus=corpus)


@pytest.fixture(scope="session")
def index(index_dir: Path) -> SearchIndex:
    """Return a searcher on the session's index (opened once, reused by every test)."""
    return SearchIndex(index_dir)


@pytest.fixture(scope="session")
def bodies(corpus: Corpus) -> dict[str, set[str]]:
    """Return the stemmed words each paragraph is indexed with (every part of its body)."""
    return {d["id"]: _words(" ".join(d.get(f, "") for f in FIELD_BOOSTS)) for d in documents(corpus)}


def _words(text: str) -> set[str]:
    return set(stems(text))


# --------------------------------------------------------------------------- the JSON shape

def test_result_json_has_the_contract_shape(index: SearchIndex) -> None:
    data = index.search("attack", limit=5).to_json()
    assert {"query", "total", "hits"} <= set(data)
    assert data["query"] == "attack"
    assert isinstance(data["total"], int) and data["total"] >= len(data["hits"]) > 0
    assert len(data["hits"]) == 5
    for hit in data["hits"]:
        assert {"id", "title", "snippet", "score", "source"} <= set(hit)
        assert set(hit["source"]) == {"doc", "page", "section", "paragraph"}
        assert isinstance(hit["score"], float) and hit["score"] > 0
        assert isinstance(hit["title"], str) and hit["title"]
    scores = [h["score"] for h in data["hits"]]
    assert scores == sorted(scores, reverse=True)
    json.dumps(data)  # serialisable as it is


def test_hits_carry_the_corpus_locator(index: SearchIndex, corpus: Corpus) -> None:
    for hit in index.search("damage", limit=10).hits:
        paragraph = corpus.get(hit.id)
        assert hit.source == paragraph.source
        assert hit.title == paragraph.title
        assert hit.game == paragraph.game and hit.kind == paragraph.kind
        assert hit.locator == book_locator(corpus, hit.id)
        assert hit.short == paragraph.short


def test_limit_bounds_the_hits_not_the_total(index: SearchIndex) -> None:
    one = index.search("unit", limit=1)
    many = index.search("unit", limit=20)
    assert len(one.hits) == 1 and len(many.hits) == 20
    assert one.total == many.total > 20
    assert one.hits[0].id == many.hits[0].id


@pytest.mark.parametrize("limit", [0, -3, True, 2.5, "10"])
def test_a_bad_limit_is_unreadable_input(index: SearchIndex, limit: object) -> None:
    with pytest.raises(UnreadableInputError) as err:
        index.search("attack", limit=limit)  # type: ignore[arg-type]
    assert err.value.path == "limit"


def test_snippets_are_escaped_text_with_marks_around_the_query_words(index: SearchIndex) -> None:
    result = index.search("morale test severity", game="runewars-miniatures", limit=5)
    assert result.hits
    for hit in result.hits:
        assert re.sub(r"</?mark>", "", hit.snippet).count("<") == 0
        marked = re.findall(r"<mark>(.*?)</mark>", hit.snippet)
        assert marked, hit.snippet
        assert all(_words(m) & {"moral", "test", "sever"} for m in marked)
        assert len(plain_snippet(hit.snippet)) <= 270


def test_an_empty_query_finds_nothing(index: SearchIndex) -> None:
    for query in ("", "   ", "the of and", "?!"):
        result = index.search(query)
        assert result.total == 0 and result.hits == () and result.next_offset is None
        data = result.to_json()
        assert data["query"] == " ".join(query.split()) and data["hits"] == [] and data["game"] is None


# --------------------------------------------------------------------------- game filter

def test_the_game_filter_keeps_only_that_game(index: SearchIndex, corpus: Corpus) -> None:
    everywhere = index.search("damage", limit=100)
    assert len({h.game for h in everywhere.hits}) >= 3
    totals = 0
    for game in corpus.games:
        result = index.search("damage", game=game, limit=100)
        assert result.game == game
        assert result.hits and all(h.game == game for h in result.hits)
        assert all(corpus.get(h.id).game == game for h in result.hits)
        totals += result.total
    # every game's glossary expands a question searched in all games, only its own within one game
    assert 0.9 * everywhere.total <= totals <= everywhere.total


def test_an_empty_game_means_every_game(index: SearchIndex) -> None:
    assert index.search("damage", game="").total == index.search("damage").total


def test_an_unknown_game_is_unreadable_input(index: SearchIndex) -> None:
    with pytest.raises(UnreadableInputError) as err:
        index.search("attack", game="chess")
    assert err.value.path == "game"
    assert "chess" in err.value.message


# --------------------------------------------------------------------------- typos

def test_a_misspelt_word_is_corrected_to_the_nearest_indexed_word(index: SearchIndex) -> None:
    right = index.search("initiative tie", game="runewars-miniatures")
    wrong = index.search("initiatve tie", game="runewars-miniatures")
    assert wrong.corrected == "initiative tie"
    assert [h.id for h in wrong.hits] == [h.id for h in right.hits]
    assert "<mark>" in wrong.hits[0].snippet or "initiative" in wrong.hits[0].title.lower()


def test_long_words_tolerate_two_typos(index: SearchIndex) -> None:
    result = index.search("diplomcay neutrl", game="runewars")
    assert result.corrected == "diplomacy neutral"
    assert any("diplomacy" in h.title.lower() for h in result.hits[:3])


def test_known_words_are_never_fuzzed(index: SearchIndex, bodies: dict[str, set[str]]) -> None:
    result = index.search("initiative", game="runewars-miniatures", limit=100)
    assert result.corrected is None and result.hits
    assert all("initi" in bodies[h.id] for h in result.hits)  # no fuzzy neighbours such as "initial"


def test_a_word_with_no_near_neighbour_finds_nothing(index: SearchIndex) -> None:
    result = index.search("xylophonequartz")
    assert result.total == 0 and result.corrected is None


# --------------------------------------------------------------------------- query expansion

def test_glossary_aliases_expand_to_the_terms_they_name(index: SearchIndex, corpus: Corpus) -> None:
    table = {(e.game, e.key): e for e in expansions(corpus, {})}
    checked = 0
    for p in corpus.select(kind="glossary"):
        for alias in p.aliases:
            key = stems(alias)
            if not key or stems(p.defines[0]) == key:
                continue
            assert (p.game, key) in table, (p.id, alias)
            checked += 1
    assert checked >= 20


def test_a_player_word_finds_the_rule_in_the_books_words(index: SearchIndex) -> None:
    # "shoot" is the RuneWars Miniatures glossary's alias of "ranged attack".
    result = index.search("shoot while engaged", game="runewars-miniatures", limit=3)
    top = result.hits[0]
    assert "shoot" not in plain_snippet(top.snippet).lower()
    assert {"rang", "attack", "engag"} <= _words(top.title + " " + plain_snippet(top.snippet))
    assert "<mark>ranged</mark>" in top.snippet.lower() or "<mark>ranged attack</mark>" in top.snippet.lower()


def test_the_synonyms_table_is_data_and_is_used(index: SearchIndex) -> None:
    synonyms = read_synonyms()
    assert synonyms["all"]["hp"] == ["health"]
    with_synonym = index.search("hp", game="runeslingers", limit=5)
    assert with_synonym.hits
    assert all("health" in (h.title + " " + plain_snippet(h.snippet)).lower() for h in with_synonym.hits[:3])


def test_see_entries_send_the_query_where_the_book_does(index: SearchIndex, corpus: Corpus) -> None:
    sees = [p for p in corpus if p.see]
    if not sees:
        pytest.skip("no 'See ...' entry in the corpus yet")
    for p in sees:
        result = index.search(p.defines[0], game=p.game, limit=5)
        ids = [h.id for h in result.hits]
        # the entry it sends the reader to, or one of that entry's numbered sub-rules
        assert any(i == p.see or i.startswith(p.see + ".") for i in ids), (p.id, p.defines[0], ids)


def test_book_index_entries_lead_to_their_paragraphs(index: SearchIndex, corpus: Corpus) -> None:
    entries = [e for e in corpus.index if len(e.see) == 1 and len(stems(e.entry)) >= 2][:40]
    if not entries:
        pytest.skip("no book index in the corpus yet")
    found = 0
    for e in entries:
        game = corpus.documents[e.doc].game
        hits = [h.id for h in index.search(e.entry.replace(":", " "), game=game, limit=10).hits]
        found += e.see[0] in hits
    assert found >= 0.9 * len(entries)


# --------------------------------------------------------------------------- errata and FAQ

def test_amended_paragraphs_are_indexed_with_their_corrected_text_and_errata(corpus: Corpus) -> None:
    amended = [pid for pid in corpus.amended_by if corpus.is_amended(pid)]
    if not amended:
        pytest.skip("no errata in the corpus yet")
    docs = {d["id"]: d for d in documents(corpus)}
    for pid in amended:
        assert docs[pid]["stored_text"] == corpus.text_of(pid)
        assert docs[pid]["text"].startswith(corpus.text_of(pid))
        for eid in corpus.amended_by[pid]:
            assert corpus.get(eid).title in docs[pid]["text"]


def test_the_corrected_rule_outranks_the_stale_sentence(make_rules: MakeRules, tmp_path: Path) -> None:
    root = make_rules({
        "rune-age/01-turn.yaml": """\
            paragraphs:
              - id: ra.turn.1
                kind: rule
                title: Refresh step
                source: {page: 7, section: A Player's Turn, paragraph: "1"}
                text: The active player refreshes every exhausted city and stronghold he controls.
              - id: ra.quick-reference.turn
                kind: rule
                title: Quick reference, a player's turn
                source: {page: 16, section: Quick Reference}
                text: Refresh every exhausted city and stronghold, perform actions, discard, draw up to 5.
              - id: ra.turn.3
                kind: rule
                title: Discard step
                source: {page: 7, section: A Player's Turn, paragraph: "3"}
                text: The active player discards his hand; rewards stay in play.
            """,
        "rune-age-faq/01-errata.yaml": """\
            paragraphs:
              - id: rafaq.errata.rulebook.p7
                kind: errata
                title: "Errata (page 7): step 1 of the turn"
                source: {section: "Errata: Rulebook", paragraph: "7"}
                amends: [ra.turn.1]
                corrected:
                  ra.turn.1: The active player refreshes every exhausted city, stronghold and Reward.
                text: Step 1 of the turn also covers Rewards.
            """,
    })
    ix = SearchIndex(build_index(tmp_path / "index", rules=root))
    ids = [h.id for h in ix.search("refresh exhausted rewards").hits]
    assert ids.index("ra.turn.1") < ids.index("ra.quick-reference.turn")
    assert ids[0] == "ra.turn.1"
    rule = ix.search("refresh exhausted rewards").hits[0]
    assert "<mark>Reward</mark>" in rule.snippet  # the corrected text is the one shown
    # found through its erratum's words too, next to the erratum itself
    assert {h.id for h in ix.search("covers", limit=5).hits} == {"ra.turn.1", "rafaq.errata.rulebook.p7"}


def test_the_heading_a_paragraph_is_printed_under_counts_and_a_definition_yields_to_the_rule(
        make_rules: MakeRules, tmp_path: Path) -> None:
    root = make_rules({
        "rune-age/01-turn.yaml": """\
            paragraphs:
              - id: ra.term.siege
                kind: glossary
                title: Siege
                defines: [siege]
                source: {page: 15, section: Glossary}
                text: A siege is an attack on a city or a stronghold.
              - id: ra.battle.2
                kind: rule
                title: Assault step
                source: {page: 9, section: Conduct a Battle, paragraph: "2"}
                text: Beginning with the defender, the two players take turns playing one card each.
              - id: ra.siege.2
                kind: rule
                title: Assault step
                source: {page: 10, section: Conduct a Siege, paragraph: "2"}
                text: Beginning with the defender, the two players take turns playing one card each.
            """,
    })
    ix = SearchIndex(build_index(tmp_path / "index", rules=root))
    # the two assault rules read alike: the heading "Conduct a Siege" tells them apart, and the
    # definition of a siege, which holds the word but not the situation, comes after the rule
    ids = [h.id for h in ix.search("do we take turns playing cards in a siege").hits]
    assert ids == ["ra.siege.2", "ra.battle.2", "ra.term.siege"]
    assert ids.index("ra.siege.2") < ids.index("ra.battle.2")


# --------------------------------------------------------------------------- malformed syntax

MALFORMED = ['"unclosed quote', "(((", ")", "AND OR NOT", "-", "+", '""', "title:", "*", "attack~", "^2",
             "range:[1 TO", "\x00\x01", "🙂 attack 🙂", "a" * 2000, "--", "-attack", "NOT", '"" "', "\\", "'"]


@pytest.mark.parametrize("query", MALFORMED)
def test_malformed_syntax_never_errors(index: SearchIndex, query: str) -> None:
    result = index.search(query, game="runewars-miniatures")
    assert isinstance(result, SearchResult)
    json.dumps(result.to_json())


def test_malformed_syntax_falls_back_to_plain_words(index: SearchIndex) -> None:
    plain = [h.id for h in index.search("ranged attack", game="runewars-miniatures").hits]
    for broken in ['"ranged attack', 'ranged" attack', "(ranged attack", "ranged attack)"]:
        assert [h.id for h in index.search(broken, game="runewars-miniatures").hits] == plain, broken
    both = index.search("ranged AND attack", game="runewars-miniatures", limit=100)  # whoosh's AND
    assert 0 < both.total < index.search("ranged attack", game="runewars-miniatures").total
    only_excluded = index.search("-attack", game="runewars-miniatures")
    assert only_excluded.total > 0  # read as the plain word


def test_quoted_phrases_are_required_and_minus_excludes(index: SearchIndex) -> None:
    loose = index.search("home realm", game="rune-age", limit=100)
    quoted = index.search('"home realm"', game="rune-age", limit=100)
    assert 0 < quoted.total <= loose.total
    without = index.search("damage -siege", game="rune-age", limit=100)
    assert without.hits
    assert all("sieg" not in _words(h.title + " " + plain_snippet(h.snippet)) for h in without.hits)
    assert without.total < index.search("damage", game="rune-age").total


# --------------------------------------------------------------------------- building and freshness

TINY = {
    "rune-age/01-gold.yaml": """\
        paragraphs:
          - id: ra.term.gold
            kind: glossary
            title: Gold
            defines: [gold]
            aliases: [coin]
            source: {page: 6, section: Resources}
            text: Gold pays for units.
          - id: ra.spend-gold
            kind: rule
            title: Spend Gold action
            source: {page: 7, section: Spend Gold Action}
            terms: [gold]
            text: Gold that is not spent is lost; it never carries over.
        """,
}


def test_build_is_fresh_until_the_corpus_changes(make_rules: MakeRules, tmp_path: Path) -> None:
    root = make_rules(TINY)
    out = build_index(tmp_path / "index", rules=root)
    assert out.is_symlink() and (out / "meta.json").is_file()
    meta = read_meta(out)
    assert meta is not None and meta["paragraphs"] == 2 and meta["corpus_version"] == corpus_version(root).digest
    assert is_fresh(out, root)
    (root / "rune-age" / "01-gold.yaml").write_text(
        (root / "rune-age" / "01-gold.yaml").read_text().replace("never carries over", "is never kept"))
    assert not is_fresh(out, root)
    before = os.path.realpath(out)
    ensure_index(out, root)
    assert is_fresh(out, root) and os.path.realpath(out) != before
    ensure_index(out, root)  # fresh: nothing rebuilt
    assert is_fresh(out, root)


def test_a_missing_index_builds_itself_and_a_swap_is_seen(make_rules: MakeRules, tmp_path: Path) -> None:
    root = make_rules(TINY)
    ix = SearchIndex(tmp_path / "index", rules=root, recheck_seconds=0)
    assert [h.id for h in ix.search("coin").hits][:1] == ["ra.term.gold"]
    assert ix.search("kept").total == 0
    path = root / "rune-age" / "01-gold.yaml"
    path.write_text(path.read_text().replace("never carries over", "is never kept"))
    assert ix.search("kept").hits[0].id == "ra.spend-gold"
    generations = list(tmp_path.glob(".index-gen-*"))
    assert 1 <= len(generations) <= 2  # old generations are pruned


def test_a_corpus_that_does_not_validate_keeps_the_previous_index(make_rules: MakeRules, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    root = make_rules(TINY)
    ix = SearchIndex(tmp_path / "index", rules=root, recheck_seconds=0)
    assert ix.search("coin").total > 0
    path = root / "rune-age" / "01-gold.yaml"
    path.write_text(path.read_text().replace("kind: rule", "kind: nonsense"))
    assert ix.search("coin").total > 0
    assert "does not validate" in capsys.readouterr().err


def test_the_default_search_uses_runecodex_index(index_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUNECODEX_INDEX", str(index_dir))
    assert index_for().index_dir == index_dir
    assert search("attack", limit=3).hits


# --------------------------------------------------------------------------- command line

@pytest.fixture
def cli_index(index_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the command line at the session's index."""
    monkeypatch.setenv("RUNECODEX_INDEX", str(index_dir))
    yield index_dir


def test_cli_search_json(cli_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["search", "shoot", "while", "engaged", "--game", "runewars-miniatures", "--limit", "3",
                   "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["query"] == "shoot while engaged"
    assert len(data["hits"]) == 3 and data["total"] >= 3
    assert all(h["source"]["doc"] == "runewars-miniatures" for h in data["hits"])


def test_cli_search_text(cli_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "attrition die", "--game", "rune-age", "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert "2 of" in out and " 1. " in out and "<mark>" not in out


def test_cli_unknown_game_exits_2(cli_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "attack", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_cli_index_builds_into_out(make_rules: MakeRules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    root = make_rules(TINY)
    monkeypatch.setenv("RUNECODEX_RULES", str(root))
    assert main(["index", "--out", str(tmp_path / "ix")]) == 0
    assert "2 paragraphs" in capsys.readouterr().out
    assert is_fresh(tmp_path / "ix", root)
    assert load_corpus(root).paragraphs.keys() == {"ra.term.gold", "ra.spend-gold"}


# --------------------------------------------------------------------------- the game named in the question

@pytest.mark.parametrize(("question", "game"), [
    ("how many cards in a runeslingers deck", "runeslingers"),
    ("RWM flanking", "runewars-miniatures"),
    ("flanking in runewars miniatures", "runewars-miniatures"),
    ("miniatures: how far can a unit move", "runewars-miniatures"),
    ("in Rune Age can I attack the same city twice", "rune-age"),
    ("runewars: how many heroes can I control", "runewars"),
    ("Runewars Revised Edition hero limit", "runewars"),
    ("RA barbarian invasion turn order", "rune-age"),
    ("RS hand size", "runeslingers"),
])
def test_a_game_named_in_the_question_is_detected(question: str, game: str) -> None:
    games = ["rune-age", "runewars-miniatures", "runewars", "runeslingers"]
    mention = detect_game(question, games)
    assert mention.game == game
    assert "runewars" not in mention.text.lower() and "rwm" not in mention.text.lower()


def test_a_question_naming_two_games_or_none_detects_nothing() -> None:
    games = ["rune-age", "runewars-miniatures", "runewars", "runeslingers"]
    assert detect_game("rune age or runeslingers deck size", games).game is None
    assert detect_game("how does flanking work", games).game is None


def test_the_deck_size_rule_answers_across_all_games(index: SearchIndex, corpus: Corpus) -> None:
    result = index.search("how many cards in a runeslingers deck")
    assert result.detected_game == result.game == "runeslingers"
    assert all(h.game == "runeslingers" for h in result.hits)
    top = [corpus.get(h.id) for h in result.hits[:3]]
    assert any(re.search(r"\b(30|40)\b", corpus.text_of(p.id)) and "deck" in p.title.lower() + p.id
               for p in top), [p.id for p in top]
    assert result.to_json()["detected_game"] == "runeslingers"


def test_the_callers_game_wins_and_detection_can_be_switched_off(index: SearchIndex) -> None:
    chosen = index.search("runeslingers deck", game="rune-age")
    assert chosen.game == "rune-age" and chosen.detected_game is None
    assert all(h.game == "rune-age" for h in chosen.hits)
    everywhere = index.search("runeslingers deck", detect_game=False, limit=50)
    assert everywhere.game is None and everywhere.detected_game is None
    assert len({h.game for h in everywhere.hits}) > 1


# --------------------------------------------------------------------------- question words

def test_question_words_do_not_drive_ranking(index: SearchIndex) -> None:
    bare = [h.id for h in index.search("flanking", game="runewars-miniatures").hits[:3]]
    asked = [h.id for h in index.search("how does flanking work? can I do it", game="runewars-miniatures").hits[:3]]
    assert bare == asked
    for hit in index.search("what happens when my unit does a charge", game="runewars-miniatures").hits:
        marked = {m.lower() for m in re.findall(r"<mark>(.*?)</mark>", hit.snippet)}
        assert not marked & {"what", "happens", "when", "my", "does", "a", "how", "can", "i"}, hit.snippet


def test_a_real_word_is_never_corrected(index: SearchIndex) -> None:
    for word in ("steal", "guys", "hex", "melee"):
        assert index.search(word).corrected is None, word


# --------------------------------------------------------------------------- answers, locators

def test_the_snippet_is_the_answering_sentence_or_the_short_line(index: SearchIndex, corpus: Corpus) -> None:
    for hit in index.search("flanking", game="runewars-miniatures", limit=5).hits:
        text = plain_snippet(hit.snippet).strip("…")
        paragraph = corpus.get(hit.id)
        assert text == paragraph.short or text in " ".join(corpus.text_of(hit.id).split()), (hit.id, text)


def test_locators_read_as_the_book_prints_them(corpus: Corpus) -> None:
    assert book_heading("the GOlden Rules") == "The Golden Rules"
    assert book_heading("anatomy of a card") == "Anatomy of a Card"
    assert book_heading("FAQ: Scenarios: The Cataclysm") == "FAQ: Scenarios: The Cataclysm"
    assert book_locator(corpus, "rwm.41.1") == "Rules Reference 41.1"
    siege = next(p.id for p in corpus if p.source.section == "Conduct a Siege" and p.source.page)
    assert book_locator(corpus, siege).startswith("Rune Age Rulebook p. ")
    assert book_locator(corpus, siege).endswith(", Conduct a Siege") or ", Conduct a Siege, " in \
        book_locator(corpus, siege)


# --------------------------------------------------------------------------- paging

def test_pages_follow_each_other_without_gaps_or_repeats(index: SearchIndex) -> None:
    whole = index.search("attack", limit=60)
    pages = [index.search("attack", limit=20, offset=k) for k in (0, 20, 40)]
    assert [h.id for p in pages for h in p.hits] == [h.id for h in whole.hits]
    assert [p.next_offset for p in pages] == [20, 40, 60 if whole.total > 60 else None]
    last = index.search("attack", limit=20, offset=whole.total - 1)
    assert len(last.hits) == 1 and last.next_offset is None
    assert index.search("attack", offset=whole.total).hits == ()


@pytest.mark.parametrize("query", ["card", "cards attack", "line of sight", '"home realm"'])
def test_the_total_counts_exactly_the_paragraphs_that_pages_reach(index: SearchIndex, query: str) -> None:
    total = index.search(query).total
    assert total > 0
    assert len(index.search(query, offset=total - 1).hits) == 1
    assert index.search(query, offset=total).hits == ()


@pytest.mark.parametrize("offset", [-1, True, 1.5, "3"])
def test_a_bad_offset_is_unreadable_input(index: SearchIndex, offset: object) -> None:
    with pytest.raises(UnreadableInputError) as err:
        index.search("attack", offset=offset)  # type: ignore[arg-type]
    assert err.value.path == "offset"


# --------------------------------------------------------------------------- the index

def test_the_index_has_the_weighted_fields_and_can_leave_asked_out(corpus: Corpus, tmp_path: Path) -> None:
    full = schema()
    for name, boost in FIELD_BOOSTS.items():
        assert full[name].format.field_boost == boost  # whoosh multiplies each posting by it
    assert "asked" in FIELD_BOOSTS and "short" in FIELD_BOOSTS
    bare = build_index(tmp_path / "bare", corpus=corpus, without=("asked",))
    meta = read_meta(bare)
    assert meta is not None and meta["without"] == ["asked"]
    assert not is_fresh(bare)  # never taken for the real index
    assert SearchIndex(bare).search("flanking").hits
    with pytest.raises(UnreadableInputError):
        build_index(tmp_path / "x", corpus=corpus, without=("nonsense",))


def test_cli_pages_and_searches_every_game_on_request(cli_index: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "attack", "--limit", "5", "--page", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["offset"] == 5 and len(data["hits"]) == 5 and data["next_offset"] == 10
    assert main(["search", "runeslingers", "deck", "--all-games", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["detected_game"] is None
    assert main(["search", "attack", "--page", "0"]) == 2
    assert "page" in capsys.readouterr().err


# --------------------------------------------------------------------------- questions nobody has seen (issue 27)

def test_one_is_a_word_and_does_not_outvote_the_question(index: SearchIndex) -> None:
    assert stems("one") == ("one",) and stems("ones") == ("ones",)  # the stemmer made both "on"
    result = index.search("how many of my units can stand in one area", game="runewars", limit=3)
    assert result.hits[0].id == "rw.movement-restrictions.unit-limit", [h.id for h in result.hits]


@pytest.mark.parametrize(("question", "game", "fixed", "answer"), [
    ("when does a peirce effect deal damage", "runeslingers", "pierce", "rs.damage.pierce"),
    ("can I attack a unit out of my line of sigth", "runewars-miniatures", "sight", "rwm.46.1"),
])
def test_swapped_letters_are_corrected(index: SearchIndex, question: str, game: str, fixed: str,
                                       answer: str) -> None:
    result = index.search(question, game=game, limit=3)
    assert result.corrected is not None and fixed in result.corrected.split()
    assert result.hits[0].id == answer, [h.id for h in result.hits]


def test_a_common_english_word_is_never_corrected_into_a_rules_word(index: SearchIndex) -> None:
    story = ("we were playing last night and my friend had loads of gold stacked up, "
             "who wins if the strength is tied in a siege")
    assert index.search(story, game="rune-age").corrected is None  # not "knight", not "lords"


def test_a_slang_question_naming_no_game_searches_the_game_its_words_point_to(index: SearchIndex) -> None:
    # "counter" is also the round counter of the miniatures game; "slinger" and "ailment" are Runeslingers'
    result = index.search("how many counters can a slinger have from one ailment", limit=5)
    assert result.detected_game == result.game == "runeslingers"
    assert result.to_json()["detected_by"] == "words"
    assert all(h.game == "runeslingers" for h in result.hits)
    assert result.hits[0].id.startswith("rs.ailments"), [h.id for h in result.hits]
    everywhere = index.search("how many counters can a slinger have from one ailment", detect_game=False)
    assert everywhere.game is None and everywhere.detected_game is None


def test_a_long_situational_question_naming_no_game_finds_the_rule_asked(index: SearchIndex) -> None:
    question = ("Last night my buddy and I were playing, his slinger had two boons out and a weapon "
                "equipped, my hand was full and I had just taken a big hit. When my health drops to zero, "
                "what happens?")
    result = index.search(question, limit=3)
    assert result.game == "runeslingers"
    assert result.hits[0].id == "rs.power-loss-conditions.zero-health", [h.id for h in result.hits]


def test_a_printed_locator_finds_its_paragraph(index: SearchIndex) -> None:
    for query in ("RR 41.1", "41.1", "rules reference 41.1"):
        assert index.search(query).hits[0].id == "rwm.41.1", query
    siege = index.search("p. 12 Conduct a Siege", game="rune-age")
    assert siege.hits and all(h.source.page == 12 and "siege" in (h.source.section or "").lower() + h.title.lower()
                              for h in siege.hits)


def test_a_bonus_written_plus_four_is_a_number_not_a_required_word(index: SearchIndex) -> None:
    # "+4" is a bonus a player writes, not whoosh's "must hold 4": the question stays plain words
    bonus = index.search("can my hero train strength up to +4", game="runewars")
    plain = index.search("can my hero train strength up to 4", game="runewars")
    assert bonus.total == plain.total and [h.id for h in bonus.hits] == [h.id for h in plain.hits]
    assert index.search("flanking -attack", game="runewars-miniatures").total < index.search(
        "flanking attack", game="runewars-miniatures").total  # "-word" still excludes


def test_a_misspelt_game_name_names_the_game(index: SearchIndex) -> None:
    result = index.search("how does a draft work in runeslnigers", limit=3)
    assert result.corrected is not None and "runeslingers" in result.corrected.split()
    assert result.game == "runeslingers" and result.to_json()["detected_by"] == "name"
    assert "runeslingers" not in index.understand("how does a draft work in runeslnigers").words  # no topic
    assert result.hits[0].id == "rs.modes-of-play.draft", [h.id for h in result.hits]
