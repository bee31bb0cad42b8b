"""The command line as a user runs it: exit statuses, human output and the contract's JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``runecodex`` in a subprocess, as a user would."""
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                          input=stdin, cwd=ROOT, timeout=120, env={**os.environ, "COLUMNS": "100"})


def test_rule_json_has_the_contract_shape(corpus):
    proc = run("rule", "ra.conduct-a-battle", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    for key in ("id", "game", "kind", "title", "text", "source", "terms", "related", "amends", "clarifies",
                "amended_by", "faq", "cited_by", "implemented_by"):
        assert key in data
    assert data["source"]["doc"] == "rune-age"
    assert set(data["source"]) == {"doc", "page", "section", "paragraph"}


def test_errata_show_both_ways(corpus):
    erratum = json.loads(run("rule", "rafaq.errata.rulebook.p10", "--json").stdout)
    assert erratum["kind"] == "errata" and erratum["amends"]
    amended = json.loads(run("rule", erratum["amends"][0], "--json").stdout)
    assert "rafaq.errata.rulebook.p10" in amended["amended_by"]
    assert amended["original_text"] != amended["text"]


def test_every_errata_and_faq_entry_is_linked_both_ways(corpus):
    for p in corpus.select("rune-age"):
        for target in p.amends:
            assert p.id in corpus.to_json(target)["amended_by"]
        for target in p.clarifies:
            assert p.id in corpus.to_json(target)["faq"]
    faq = corpus.select("rune-age", "faq")
    errata = corpus.select("rune-age", "errata")
    assert len(faq) >= 40 and len(errata) >= 7


def test_rule_human_output_names_locator_and_links(corpus):
    proc = run("rule", "ra.conduct-a-battle.4.instant-damage")
    assert proc.returncode == 0
    assert "AMENDED by rafaq.errata.rulebook.p10" in proc.stdout
    assert "Rune Age Rulebook p. 10" in proc.stdout
    assert "The rule as first printed (no longer applies)" in proc.stdout  # the page's words (engine.views.paragraph)


def test_unknown_rule_is_exit_1_with_a_clear_message(corpus):
    proc = run("rule", "ra.no-such-rule")
    assert proc.returncode == 1
    assert "unknown paragraph id 'ra.no-such-rule'" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = run("rule", "ra.no-such-rule", "--json")
    assert proc.returncode == 1 and json.loads(proc.stdout)["error"].startswith("unknown paragraph id")


def test_list_filters_by_game_and_kind(corpus, capsys):
    assert main(["list", "--game", "rune-age", "--kind", "faq", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["paragraphs"]
    assert listed and all(p["kind"] == "faq" and p["game"] == "rune-age" for p in listed)
    assert set(listed[0]) == {"id", "game", "kind", "title", "text", "short", "asked", "source"}


def test_list_unknown_game_is_exit_2(capsys):
    assert main(["list", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_check_passes_on_the_real_corpus_and_sources(seeds):
    proc = run("check", "--sources", str(seeds))
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "no problems" in proc.stdout
    for doc in ("rune-age", "rune-age-faq", "runewars-miniatures", "runewars", "runeslingers"):
        assert doc in proc.stdout


def test_check_fails_with_file_and_line_on_a_broken_corpus(make_rules, capsys):
    root = make_rules({"rune-age/01.yaml": """\
        paragraphs:
          - {id: ra.x, kind: rule, title: T, text: x, source: {section: S}, related: [ra.gone]}
        """})
    assert main(["check", "--rules", str(root), "--no-sources"]) == 1
    out = capsys.readouterr().out
    assert "rune-age/01.yaml:2: ra.x.related: unknown id 'ra.gone'" in out


def test_source_check_reports_a_heading_that_is_not_in_the_book(make_rules, seeds, capsys):
    root = make_rules({"rune-age/01.yaml": """\
        paragraphs:
          - {id: ra.x, kind: rule, title: T, text: Roll 2 dice., source: {page: 10, section: Conduct a Parley}}
          - {id: ra.y, kind: rule, title: T, text: A Home Realm with 37 damage is gone.,
             source: {page: 14, section: Player Elimination}}
        """})
    assert main(["check", "--rules", str(root), "--sources", str(seeds)]) == 1
    out = capsys.readouterr().out
    assert "'Conduct a Parley' is not a heading of rune-age" in out
    assert "the number 37 does not occur in rune-age section 'Player Elimination'" in out


def test_resolve_reads_stdin_and_prints_numbered_cited_steps():
    position = {"game": "rune-age", "situation": "spend_gold", "gold_cards": [3, 2],
                "purchases": [{"name": "Knight", "cost": 3}]}
    proc = run("resolve", "-", stdin=json.dumps(position))
    assert proc.returncode == 0, proc.stderr
    assert "  1. " in proc.stdout and "[ra.spending-gold]" in proc.stdout
    assert "lost: 2" in proc.stdout


@pytest.mark.parametrize(("body", "path"), [
    ('{"game": "rune-age", "situation": "battle", "target": {"kind": "enemy", "strength": 4}, '
     '"army": [{"name": "A", "strength": "two"}]}', "army[0].strength"),
    ('{"game": "chess", "situation": "battle"}', "game"),
    ('{"game": "rune-age", "situation": "duel"}', "situation"),
    ('{"game": "rune-age", "situation": "spend_gold", "purchases": []}', "gold_cards"),
    ("[1, 2", ""),
])
def test_unreadable_positions_are_exit_2_with_a_json_path(body, path):
    proc = run("resolve", "-", "--json", stdin=body)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert json.loads(proc.stdout)["path"] == path


def test_situations_lists_every_game_with_schemas():
    proc = run("situations", "--json")
    assert proc.returncode == 0
    sits = json.loads(proc.stdout)["situations"]
    assert {"rune-age"} <= {s["game"] for s in sits}
    assert all(s["schema"]["type"] == "object" for s in sits)


def test_source_check_catches_a_wrong_page(make_rules, seeds, capsys):
    root = make_rules({"rune-age/01.yaml": """\
        paragraphs:
          - {id: ra.x, kind: rule, title: T, text: Ties go to the army., source: {page: 3, section: Conduct a Battle}}
        """})
    assert main(["check", "--rules", str(root), "--sources", str(seeds)]) == 1
    assert "source.page 3 is not where rune-age prints 'Conduct a Battle'" in capsys.readouterr().out


def test_source_check_catches_a_missing_printed_paragraph_number(seeds, capsys, tmp_path):
    import shutil

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    (rules / "runewars-miniatures" / "99-bad.yaml").write_text(
        "paragraphs:\n  - {id: rwm.10.99, kind: rule, title: T, text: x, "
        "source: {section: Attack, paragraph: '10.99'}}\n")
    assert main(["check", "--rules", str(rules), "--sources", str(seeds), "--doc", "runewars-miniatures"]) == 1
    assert "source.paragraph '10.99' is not printed under 'Attack'" in capsys.readouterr().out
