"""Worked examples read like rulings: each position, resolved, gives the ruling its file expects.

The examples are data (``engine/examples/<game>/*.json``: a position, the expected outcome and the paragraphs
the ruling must cite); the boards offer the same files as worked positions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import resolve
from engine.examples import EXAMPLES, example_files, load_example, problems

FILES = list(example_files())


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_example_rules_as_written(path: Path) -> None:
    example = load_example(path)
    found = problems(example, resolve(example["position"]).to_json())
    assert not found, f"{example.get('title', path.stem)}\n  " + "\n  ".join(found)


def test_examples_are_found() -> None:
    assert len(FILES) > 500, f"only {len(FILES)} worked examples under {EXAMPLES}"
