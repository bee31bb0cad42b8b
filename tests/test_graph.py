"""The glossary graph: typed edges from the corpus, dangling references, neighbourhoods, exports, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from engine.cli import main
from engine.corpus import Corpus, load_corpus, read_corpus
from engine.site.layout import site_linker
from engine.views import graph as G

RULES = {
    "rune-age/01-rules.yaml": """\
        paragraphs:
          - id: ra.term.exhaust
            kind: glossary
            title: Exhaust
            defines: [exhaust]
            aliases: [exhausted]
            terms: [card]
            source: {page: 6, section: Card Anatomy}
            text: Turn a card sideways; it cannot be used again until refreshed.
          - id: ra.term.card
            kind: glossary
            title: Card
            defines: [card]
            source: {page: 6, section: Card Anatomy}
            text: Any card of the game.
          - id: ra.term.unused
            kind: glossary
            title: Unused thing
            defines: [unused thing]
            source: {page: 6, section: Card Anatomy}
            text: Nothing uses this term.
          - id: ra.turn.1
            kind: rule
            title: Refresh step
            source: {page: 7, section: A Player's Turn, paragraph: "1"}
            terms: [exhausted]
            related: [ra.term.exhaust]
            text: The active player refreshes every exhausted city.
          - id: ra.lonely
            kind: rule
            title: Lonely rule
            source: {page: 8, section: Other}
            text: Nothing links here.
        index:
          - {entry: Exhaust, see: [ra.term.exhaust, ra.turn.1]}
        """,
    "rune-age-faq/01-errata.yaml": """\
        paragraphs:
          - id: rafaq.errata.p7
            kind: errata
            title: Page 7 correction
            source: {section: "Errata: Rulebook", paragraph: "7"}
            amends: [ra.turn.1]
            corrected:
              ra.turn.1: The active player refreshes every exhausted city and stronghold.
            text: On page 7, strongholds are refreshed too.
          - id: rafaq.faq.1
            kind: faq
            title: Do rewards refresh?
            source: {section: "FAQ: General", paragraph: "1"}
            clarifies: [ra.turn.1]
            text: Yes, in the same step.
        """,
}


@pytest.fixture
def rules(make_rules: Any) -> Path:
    return Path(make_rules(RULES))


def edges(g: nx.MultiDiGraph, etype: str) -> set[tuple[str, str]]:
    return {(u, v) for u, v, d in g.edges(data=True) if d["type"] == etype}


def test_graph_has_typed_edges_from_the_corpus(rules: Path) -> None:
    g = G.build_graph(load_corpus(rules), rules={"engine.x.refresh": ["ra.turn.1"]})
    assert edges(g, "uses-term") == {("para:ra.turn.1", "term:rune-age:exhaust"),
                                     ("para:ra.term.exhaust", "term:rune-age:card")}
    assert ("para:ra.term.exhaust", "term:rune-age:exhaust") in edges(g, "defines")
    assert edges(g, "related") == {("para:ra.turn.1", "para:ra.term.exhaust")}
    assert edges(g, "amends") == {("para:rafaq.errata.p7", "para:ra.turn.1")}
    assert edges(g, "clarifies") == {("para:rafaq.faq.1", "para:ra.turn.1")}
    assert ("para:rafaq.faq.1", "doc:rune-age-faq") in edges(g, "part-of")
    assert edges(g, "indexed") == {("doc:rune-age", "para:ra.term.exhaust"), ("doc:rune-age", "para:ra.turn.1")}
    assert edges(g, "cited-by-engine") == {("para:ra.turn.1", "engine:engine.x.refresh")}
    assert g.nodes["term:rune-age:exhaust"]["names"] == ("exhaust", "exhausted")
    assert g.graph["dangling"] == []


def test_stats_count_and_list_unused_terms_and_unlinked_paragraphs(rules: Path) -> None:
    stats = G.GraphStats.from_graph(G.build_graph(load_corpus(rules), rules={}))
    assert stats.nodes == {"paragraph": 7, "term": 3, "document": 2, "engine": 0}
    assert stats.edges["amends"] == 1 and stats.edges["part-of"] == 7
    assert stats.dangling == ()
    assert stats.unused_terms == ("unused thing (rune-age)",)
    # the errata and faq paragraphs point elsewhere; nothing points at them, the lonely rule or the unused term
    assert stats.unlinked_paragraphs == ("ra.lonely", "ra.term.unused", "rafaq.errata.p7", "rafaq.faq.1")
    assert "dangling references: 0" in stats.render()


def test_dangling_references_are_listed_not_linked(make_rules: Any) -> None:
    broken = dict(RULES)
    broken["rune-age/02-more.yaml"] = """\
        paragraphs:
          - id: ra.broken
            kind: rule
            title: Broken
            source: {page: 9, section: Broken}
            terms: [nonsense]
            related: [ra.nowhere]
            text: Points nowhere.
        """
    corpus, problems = read_corpus(Path(make_rules(broken)))
    assert problems
    g = G.build_graph(corpus, rules={"engine.x.gone": ["ra.gone"]})
    found = {(d.source, d.kind, d.target) for d in g.graph["dangling"]}
    assert found == {("ra.broken", "uses-term", "rune-age:nonsense"), ("ra.broken", "related", "ra.nowhere"),
                     ("engine.x.gone", "cited-by-engine", "ra.gone")}
    assert "para:ra.nowhere" not in g


def test_find_term_by_alias_and_errors(rules: Path) -> None:
    g = G.build_graph(load_corpus(rules), rules={})
    assert G.find_term(g, "Exhausted") == "term:rune-age:exhaust"
    with pytest.raises(G.GraphError, match="no glossary entry defines 'nothing'"):
        G.find_term(g, "nothing")
    with pytest.raises(G.GraphError, match="unknown game"):
        G.find_term(g, "card", game="chess")


def test_neighbourhood_respects_depth_and_size(rules: Path) -> None:
    g = G.build_graph(load_corpus(rules), rules={})
    centre = G.find_term(g, "exhaust")
    one = G.neighbourhood(g, centre, depth=1)
    assert set(one) == {centre, "para:ra.term.exhaust", "para:ra.turn.1"}
    two = G.neighbourhood(g, centre, depth=2)
    assert {"para:rafaq.errata.p7", "para:rafaq.faq.1", "term:rune-age:card"} <= set(two)
    assert not any(n.startswith("doc:") for n in two)
    small = G.neighbourhood(g, centre, depth=2, max_nodes=2)
    assert len(small) == 2 and small.graph["left_out"] > 0
    # the defining entry comes first
    assert "para:ra.term.exhaust" in small


def test_contracted_picture_merges_entries_into_terms(rules: Path) -> None:
    g = G.build_graph(load_corpus(rules), rules={})
    sub = G.term_neighbourhood(g, "exhaust", depth=1)
    assert "para:ra.term.exhaust" not in sub
    assert ("term:rune-age:exhaust", "term:rune-age:card") in edges(sub, "uses-term")


def test_exports_dot_svg_json_with_links(rules: Path) -> None:
    corpus = load_corpus(rules)
    g = G.build_graph(corpus, rules={})
    sub = G.term_neighbourhood(g, "exhaust", depth=2)
    linker = site_linker(corpus, base="/site/")
    dot = G.export(sub, "dot", linker)
    assert dot.startswith('digraph "glossary" {')
    assert 'URL="/site/rune-age/glossary/exhaust.html"' in dot
    assert 'URL="/site/rune-age/rules/01-rules/a-player-s-turn.html#ra.turn.1"' in dot
    svg = G.export(sub, "svg", linker)
    assert "<svg" in svg and 'xlink:href="/site/rune-age/glossary/exhaust.html"' in svg
    data = json.loads(G.export(sub, "json", linker))
    assert data["centre"] == "term:rune-age:exhaust"
    assert {n["id"] for n in data["nodes"]} == set(sub)
    with pytest.raises(G.GraphError, match="unknown format"):
        G.export(sub, "png", linker)


def test_render_svgs_lays_out_many_graphs_in_one_run(rules: Path) -> None:
    g = G.build_graph(load_corpus(rules), rules={})
    sources = [G.to_dot(G.term_neighbourhood(g, t, depth=1)) for t in ("exhaust", "card", "unused thing")]
    svgs = G.render_svgs(sources)
    assert len(svgs) == 3 and all(s.startswith("<?xml") for s in svgs)
    assert "unused thing" in svgs[2] and "unused thing" not in svgs[0]


def test_cli_stats_and_export(rules: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                              tmp_path: Path) -> None:
    monkeypatch.setenv("RUNECODEX_RULES", str(rules))
    monkeypatch.setattr(G, "engine_rules", dict)  # the real engine cites the real corpus, not this one
    assert main(["graph", "--stats"]) == 0
    out = capsys.readouterr().out
    assert "nodes: 7 paragraph, 3 term, 2 document" in out and "terms never used: 1" in out
    assert main(["graph", "--stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unused_terms"] == ["unused thing (rune-age)"]
    target = tmp_path / "exhaust.svg"
    assert main(["graph", "--term", "exhaust", "--depth", "1", "--format", "svg", "-o", str(target)]) == 0
    assert target.read_text().count("<svg") == 1
    assert "wrote" in capsys.readouterr().out
    assert main(["graph", "--term", "exhaust", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["centre"] == "term:rune-age:exhaust"
    assert main(["graph", "--term", "nothing"]) == 2
    assert "no glossary entry defines 'nothing'" in capsys.readouterr().err
    monkeypatch.setattr(G, "engine_rules", lambda: {"engine.x.gone": ("ra.gone",)})
    assert main(["graph", "--stats"]) == 1
    assert "engine.x.gone --cited-by-engine--> ra.gone" in capsys.readouterr().out


def test_real_corpus_has_no_dangling_reference(corpus: Corpus) -> None:
    g = G.build_graph(corpus)
    assert G.GraphStats.from_graph(g).dangling == ()
