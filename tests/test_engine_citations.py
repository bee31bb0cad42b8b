"""Every paragraph id the engine cites is real and declared: by @rule, in a trace, or in a ruling.

The registry of citations is the ``@rule`` declarations alone (:mod:`engine.registry`); this test reads the
engine's source to hold it to that: every id a function passes as a literal to a trace call is among the
ids its own ``@rule`` declares. Ids are recognised by the document prefixes the corpus declares.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

import pytest

from engine.core import RULES, load_situations, resolve
from engine.corpus import Corpus
from engine.examples import example_files
from engine.registry import all_rules, implemented_by
from engine.situations import MODULES

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = list(example_files())
for folder in ("examples", "examples-new"):
    if (ROOT.parent / "shared" / folder).is_dir():
        POSITIONS += sorted((ROOT.parent / "shared" / folder).glob("*/*.json"))


def test_every_declared_rule_cites_real_paragraphs(corpus) -> None:
    load_situations()
    missing = {name: [i for i in ids if i not in corpus] for name, ids in RULES.items()}
    assert {k: v for k, v in missing.items() if v} == {}


TRACE_CALLS = frozenset({"step", "decide", "violate"})


def _id_pattern(corpus: Corpus) -> re.Pattern[str]:
    prefixes = sorted({d.prefix for d in corpus.documents.values()}, key=len, reverse=True)
    return re.compile(rf"^(?:{'|'.join(map(re.escape, prefixes))})\.[a-z0-9][a-z0-9.-]*$")


def _literal_ids(node: ast.AST, pattern: re.Pattern[str]) -> list[str]:
    if isinstance(node, ast.JoinedStr):
        return []  # part of an f-string is not a whole id; rulings check those
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) and pattern.match(node.value) else []
    return [i for child in ast.iter_child_nodes(node) for i in _literal_ids(child, pattern)]


def trace_citations(corpus: Corpus) -> dict[str, list[str]]:
    """Return {dotted function name: the ids it passes as literals to trace calls} over the game packages."""
    pattern = _id_pattern(corpus)
    found: dict[str, list[str]] = {}

    def visit(node: ast.AST, module: str, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(child, module, [*scope, child.name])
                continue
            if (scope and isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                    and child.func.attr in TRACE_CALLS):
                ids = found.setdefault(f"{module}.{'.'.join(scope)}", [])
                for arg in (*child.args, *(k.value for k in child.keywords)):
                    ids.extend(i for i in _literal_ids(arg, pattern) if i not in ids)
            visit(child, module, scope)

    for module in MODULES:
        path = Path(importlib.import_module(module).__file__ or "")
        visit(ast.parse(path.read_text(encoding="utf-8")), module, [])
    return {k: v for k, v in found.items() if v}


def test_every_trace_citation_is_declared_by_its_function(corpus: Corpus) -> None:
    load_situations()
    found = trace_citations(corpus)
    assert len(found) > 50  # the scan sees the engine's trace calls
    undeclared = {name: [i for i in ids if i not in RULES.get(name, ())] for name, ids in found.items()}
    assert {k: v for k, v in undeclared.items() if v} == {}, "cite these ids in the function's @rule"


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


def test_a_resolver_step_is_listed_with_the_paragraph_it_applies() -> None:
    assert "engine.rune_age.battle._declare" in implemented_by("ra.conduct-a-battle.1")


def test_every_declared_situation_is_listed_by_its_game_package() -> None:
    """A resolver declared with @situation is served only when its game package lists it in SITUATIONS."""
    from engine.core import DECLARED
    from engine.situations import GAMES

    for module in MODULES:
        importlib.import_module(module)
    listed = {fn for game in GAMES for fn in game.SITUATIONS}
    missing = sorted(f"{fn.__module__}.{fn.__qualname__}" for fn in DECLARED if fn not in listed)
    assert not missing, f"declared with @situation but listed by no game package: {missing}"
    assert len(load_situations()) == len(listed)
