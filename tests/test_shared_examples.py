"""The public example positions in ../shared/examples (and examples-new), run as the contract's checker runs them.

``examples`` must all pass, strictly (a ``summary`` on every ruling, a ``field`` on every decision).
``examples-new`` holds the worked examples of the situations added in 0.2; each runs as soon as its
situation is registered, strictly too, and a last test lists the situations not built yet.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import load_situations, resolve
from engine.examples import problems

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def _files(folder: str) -> list[Path]:
    base = SHARED / folder
    return sorted(base.rglob("*.json")) if base.is_dir() else []


EXAMPLES = _files("examples")
NEW = _files("examples-new")


def strict_problems(example: dict[str, object], answer: dict[str, object]) -> list[str]:
    """Return the checker's problems plus the strict ones (summary sentence, decision fields)."""
    found = problems(example, answer)  # type: ignore[arg-type]
    summary = answer.get("summary")
    if not isinstance(summary, str) or not summary.strip():
        found.append("no summary sentence")
    for i, d in enumerate(answer.get("decisions") or []):  # type: ignore[attr-defined]
        if not isinstance(d.get("field"), str) or not d["field"]:
            found.append(f"decision {i} names no field for its answer")
    return found


@pytest.mark.parametrize("path", EXAMPLES, ids=[f"{p.parent.name}/{p.stem}" for p in EXAMPLES])
def test_shared_example_in_process(path: Path) -> None:
    example = json.loads(path.read_text())
    assert strict_problems(example, resolve(example["position"]).to_json()) == []


@pytest.mark.parametrize("path", NEW, ids=[f"{p.parent.name}/{p.stem}" for p in NEW])
def test_new_example_in_process(path: Path) -> None:
    example = json.loads(path.read_text())
    pos = example["position"]
    if (pos["game"], pos["situation"]) not in load_situations():
        pytest.skip(f"situation {pos['game']}/{pos['situation']} not built yet")
    assert strict_problems(example, resolve(pos).to_json()) == []


@pytest.mark.skipif(not (SHARED / "bin" / "check-examples").exists(), reason="no ../shared beside this checkout")
def test_check_examples_script_passes_through_the_cli() -> None:
    cmd = f"{sys.executable} -m engine.cli"
    # The public examples go through the real command line, one process each, as the checker runs them,
    # strictly; our own scenario files run in-process (engine/examples, resolved by tests/test_scenarios.py).
    proc = subprocess.run([sys.executable, str(SHARED / "bin" / "check-examples"), "--strict",
                           str(SHARED / "examples"), "--cmd", cmd], capture_output=True, text=True, cwd=ROOT,
                          timeout=600, env={**os.environ})
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " 0 failed" in proc.stdout
