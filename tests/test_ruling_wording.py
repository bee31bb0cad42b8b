"""Rulings read like a judge's answer: no (s) plurals, positions counted from 1, faction names as printed, no
internal ids, no "4 instead of 4", each refusal citing a paragraph once, the summary agreeing with the outcome
(issue 24, case 6).

Every worked example of a game in :data:`GAMES` (ours and the public ones) is resolved and its sentences read by
:func:`ruling_words.wording_problems`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ruling_words import wording_problems

from engine.core import resolve
from engine.examples import example_files, load_example

ROOT = Path(__file__).resolve().parents[1]
GAMES: tuple[str, ...] = ("rune-age", "runewars", "runewars-miniatures", "runeslingers")
"""The games whose rulings are held to the wording rules (each game joins once its rulings pass)."""

SHARED = ROOT.parent / "shared"
FILES = [p for g in GAMES for p in (*example_files(g), *sorted((SHARED / "examples" / g).glob("*.json")),
                                    *sorted((SHARED / "examples-new" / g).glob("*.json")))]


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_the_ruling_reads_like_a_judge(path: Path) -> None:
    ruling = resolve(load_example(path)["position"]).to_json()
    problems = wording_problems(ruling)
    assert not problems, "\n".join(problems)
