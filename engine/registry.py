"""Which engine functions cite which paragraphs (read by ``runecodex rule``, the graph and the site).

Two kinds of citation count: a rule function's ``@rule(ids)`` declaration (:data:`engine.core.RULES`), and
the paragraph ids a function passes as literals to a trace (``trace.step``, ``trace.decide``,
``trace.violate``), found by reading the engine's source with :mod:`ast`. A rule page lists both, so from a
paragraph a reader finds every piece of code that applies it.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from pathlib import Path

from engine.core import RULES, load_situations

ID_RE = re.compile(r"^(?:ra|rafaq|rwm|rw|rs)\.[a-z0-9][a-z0-9.-]*$")
TRACE_CALLS = frozenset({"step", "decide", "violate"})


def _literal_ids(node: ast.AST) -> list[str]:
    """Return the id literals in *node* (parts of f-strings are not whole ids: rulings check those)."""
    if isinstance(node, ast.JoinedStr):
        return []
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) and ID_RE.match(node.value) else []
    return [i for child in ast.iter_child_nodes(node) for i in _literal_ids(child)]


class _TraceCites(ast.NodeVisitor):
    """Collect, per function (dotted name), the paragraph ids it passes as literals to trace calls."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.scope: list[str] = []
        self.found: dict[str, list[str]] = {}

    def _enter(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _enter

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if self.scope and isinstance(func, ast.Attribute) and func.attr in TRACE_CALLS:
            ids = [i for arg in (*node.args, *(k.value for k in node.keywords)) for i in _literal_ids(arg)]
            if ids:
                name = f"{self.module}.{'.'.join(self.scope)}"
                self.found.setdefault(name, [])
                self.found[name].extend(i for i in ids if i not in self.found[name])
        self.generic_visit(node)


@functools.lru_cache(maxsize=1)
def trace_citations() -> dict[str, tuple[str, ...]]:
    """Return {function: ids} for every paragraph id passed as a literal to a trace call in the engine."""
    from engine.situations import MODULES

    out: dict[str, tuple[str, ...]] = {}
    for module in MODULES:
        path = Path(importlib.import_module(module).__file__ or "")
        visitor = _TraceCites(module)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        out.update({k: tuple(v) for k, v in visitor.found.items()})
    return out


def all_rules() -> dict[str, tuple[str, ...]]:
    """Return every engine function with the paragraph ids it cites (declared by @rule or passed to a trace)."""
    load_situations()
    merged: dict[str, tuple[str, ...]] = dict(RULES)
    for name, ids in trace_citations().items():
        merged[name] = tuple(dict.fromkeys((*merged.get(name, ()), *ids)))
    return merged


def implemented_by(pid: str) -> list[str]:
    """Return the dotted names of the engine functions that cite paragraph *pid*."""
    return sorted(name for name, ids in all_rules().items() if pid in ids)
