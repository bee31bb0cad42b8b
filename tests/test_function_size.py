"""No function in engine/ or webapp/ is over 60 statements (issue 23): a resolver is the book's steps, each its own
function. Statements are counted as ast counts them, nested ones included."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 60


def test_no_function_is_over_60_statements() -> None:
    over = []
    for path in sorted((*ROOT.glob("engine/**/*.py"), *ROOT.glob("webapp/**/*.py"))):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                count = sum(1 for child in ast.walk(node) if isinstance(child, ast.stmt) and child is not node)
                if count > LIMIT:
                    over.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} {count}")
    assert over == []
