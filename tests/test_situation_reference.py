"""Every situation is documented from its own model: fields, what each takes, and its worked examples.

The reference (engine/views/situations.py) is read by ``runecodex situations NAME`` and the site's
"Situations the engine rules on" page of each game; nothing is written twice beside the code.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.core import load_situations
from engine.views.situations import describe, takes, to_blocks, to_text

SITUATIONS = sorted(load_situations().values(), key=lambda s: (s.game, s.name))


@pytest.mark.parametrize("sit", SITUATIONS, ids=lambda s: f"{s.game}:{s.name}")
def test_every_situation_has_fields_and_two_worked_examples(sit: object) -> None:
    doc = describe(sit)  # type: ignore[arg-type]
    assert doc.description
    assert doc.fields, "a position with no fields to document"
    assert all(f.title and f.takes for f in doc.fields)
    assert len(doc.examples) >= 2, f"{doc.name}: {len(doc.examples)} worked example(s)"
    section = to_blocks(doc)
    assert section["b"] == "section" and section["title"] == doc.name


def test_what_a_field_takes_reads_in_words() -> None:
    assert takes({"type": "integer", "minimum": 0, "maximum": 9}) == "a whole number from 0 to 9"
    assert takes({"enum": ["cover", "elevated"], "x-enum-labels": {"cover": "Cover X", "elevated": "Elevated"}}) \
        == "one of: cover (Cover X), elevated (Elevated)"
    assert takes({"anyOf": [{"type": "boolean"}, {"type": "null"}]}) == "yes or no (true/false)"
    assert takes({"type": "array", "maxItems": 3, "items": {"type": "object"}}) \
        == "a list (at most 3); each: the fields below"


def test_the_cli_prints_a_situation_reference_and_refuses_an_unknown_one() -> None:
    run = subprocess.run([sys.executable, "-m", "engine.cli", "situations", "spend_gold"], capture_output=True,
                         text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "gold_cards" in run.stdout and "Worked examples" in run.stdout
    assert run.stdout == to_text(describe(load_situations()[("rune-age", "spend_gold")])) + "\n"
    bad = subprocess.run([sys.executable, "-m", "engine.cli", "situations", "nope"], capture_output=True, text=True,
                         check=False)
    assert bad.returncode == 2 and "no situation 'nope'" in bad.stderr and "Traceback" not in bad.stderr
