"""Every paragraph id the engine cites is real: declared by @rule, passed to a trace, or cited by a ruling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import RULES, load_situations, resolve
from engine.examples import example_files
from engine.registry import all_rules, implemented_by, trace_citations

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = list(example_files())
for folder in ("examples", "examples-new"):
    if (ROOT.parent / "shared" / folder).is_dir():
        POSITIONS += sorted((ROOT.parent / "shared" / folder).glob("*/*.json"))


def test_every_declared_rule_cites_real_paragraphs(corpus) -> None:
    load_situations()
    missing = {name: [i for i in ids if i not in corpus] for name, ids in RULES.items()}
    assert {k: v for k, v in missing.items() if v} == {}


def test_every_literal_trace_citation_is_real(corpus) -> None:
    found = trace_citations()
    assert len(found) > 50  # the scan sees the engine's trace calls
    missing = {name: [i for i in ids if i not in corpus] for name, ids in found.items()}
    assert {k: v for k, v in missing.items() if v} == {}


def test_every_ruling_cites_real_paragraphs(corpus) -> None:
    load_situations()
    unknown: dict[str, list[str]] = {}
    for path in POSITIONS:
        pos = json.loads(path.read_text(encoding="utf-8"))["position"]
        if (pos.get("game"), pos.get("situation")) not in load_situations():
            continue
        ruling = resolve(pos).to_json()
        ids = [*ruling["cites"], *(c for d in ruling["decisions"] for c in d["cites"])]
        bad = [i for i in ids if i not in corpus]
        if bad:
            unknown[path.name] = bad
    assert unknown == {}


@pytest.mark.parametrize("pid", ["rwm.10.9", "ra.spending-gold"])
def test_implemented_by_lists_decorated_and_tracing_functions(pid: str) -> None:
    names = implemented_by(pid)
    assert names
    assert set(names) == {n for n, ids in all_rules().items() if pid in ids}


def test_a_function_citing_only_through_its_trace_is_listed() -> None:
    only_traced = {n: ids for n, ids in trace_citations().items() if n not in RULES}
    assert only_traced, "some resolver cites paragraphs only through trace calls"
    name, ids = next(iter(only_traced.items()))
    assert name in implemented_by(ids[0])


def test_every_declared_situation_is_listed_by_its_game_package() -> None:
    """A resolver declared with @situation is served only when its game package lists it in SITUATIONS."""
    import importlib

    from engine.core import DECLARED
    from engine.situations import GAMES, MODULES

    for module in MODULES:
        importlib.import_module(module)
    listed = {fn for game in GAMES for fn in game.SITUATIONS}
    missing = sorted(f"{fn.__module__}.{fn.__qualname__}" for fn in DECLARED if fn not in listed)
    assert not missing, f"declared with @situation but listed by no game package: {missing}"
    assert len(load_situations()) == len(listed)
