"""The public example positions in ../shared/examples, run as the contract's checker runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import resolve
from engine.examples import problems

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EXAMPLES = sorted((SHARED / "examples").rglob("*.json")) if (SHARED / "examples").is_dir() else []


@pytest.mark.parametrize("path", EXAMPLES, ids=[f"{p.parent.name}/{p.stem}" for p in EXAMPLES])
def test_shared_example_in_process(path: Path) -> None:
    example = json.loads(path.read_text())
    assert problems(example, resolve(example["position"]).to_json()) == []


@pytest.mark.skipif(not (SHARED / "bin" / "check-examples").exists(), reason="no ../shared beside this checkout")
def test_check_examples_script_passes_through_the_cli() -> None:
    cmd = f"{sys.executable} -m engine.cli"
    # The public examples go through the real command line, one process each, as the checker runs them;
    # our own scenario files run in-process (tests/scenarios, collected by conftest.py).
    proc = subprocess.run([sys.executable, str(SHARED / "bin" / "check-examples"), str(SHARED / "examples"),
                           "--cmd", cmd], capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={**os.environ})
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " 0 failed" in proc.stdout
