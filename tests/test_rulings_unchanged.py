"""Refactors keep every ruling: each worked example, public example and worked position rules as recorded.

``tests/golden/rulings.json.gz`` holds the whole ruling of every position file (summary, outcome, steps,
decisions and cites) as it was when recorded with ``scripts/rulings_snapshot.py``. A change meant to alter
rulings regenerates it (and the diff is reviewed); any other change must leave every ruling equal.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _snapshot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rulings_snapshot", ROOT / "scripts" / "rulings_snapshot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rulings_snapshot", module)
    spec.loader.exec_module(module)
    return module


SNAPSHOT = _snapshot()
GOLDEN: dict[str, dict[str, Any]] = SNAPSHOT.load()
POSITIONS: dict[str, dict[str, Any]] = dict(SNAPSHOT.position_files())


def test_every_recorded_position_is_still_there() -> None:
    local = {k for k in GOLDEN if k.startswith("scenarios/")}
    assert local <= POSITIONS.keys(), sorted(local - POSITIONS.keys())[:5]


@pytest.mark.parametrize("key", sorted(POSITIONS))
def test_ruling_is_unchanged(key: str) -> None:
    if key not in GOLDEN:
        pytest.skip("a position added after the rulings were recorded")
    now = SNAPSHOT.ruling_of(POSITIONS[key])
    old = GOLDEN[key]
    if now != old:
        diff = {k: (old.get(k), now.get(k)) for k in old.keys() | now.keys() if old.get(k) != now.get(k)}
        pytest.fail(f"ruling changed for {key}:\n" + json.dumps(diff, indent=1, ensure_ascii=False)[:3000])
