"""Every corpus file is read by the one YAML reader: duplicate keys, aliases and merge keys are refused.

A chapter file, ``quickref.yaml`` and ``facts.yaml`` each get the same refusals with file and line, and a
value of the wrong type in a paragraph is reported at the line of its key, through ``runecodex check``.
An alias is reported at the line of the anchor it repeats (libyaml keeps no position of the alias).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MakeCorpus = Callable[[dict[str, str]], Path]  # the make_rules fixture of conftest.py

GOOD_CHAPTER = """\
    paragraphs:
      - id: ra.setup
        kind: rule
        title: Setup
        source: {page: 3, section: Setup}
        text: Each player takes a hand of cards.
    """

# A paragraph whose page is not a number: the problem is at the line of `page:` (7), not of the paragraph (2).
TYPED = """\
    paragraphs:
      - id: ra.typed
        kind: rule
        title: Typed
        source:
          section: Setup
          page: twelve
        text: A page number must be a number.
    """

QUICKREF_HEAD = """\
            games:
              rune-age:
                chapters:
"""

FAULTS = {
    "duplicate key": {
        "rune-age/02-bad.yaml": ("""\
            paragraphs:
              - id: ra.turn
                kind: rule
                kind: rule
                title: A turn
            """, 4, "duplicate key 'kind' (first at line 3)"),
        "quickref.yaml": (QUICKREF_HEAD + """\
                  - key: c
                    heading: C
                    heading: Again
                    topics: [{key: t, heading: T, default: true, paragraphs: [ra.setup]}]
            """, 6, "duplicate key 'heading' (first at line 5)"),
        "facts.yaml": ("""\
            facts:
              hand_size: {type: int}
              hand_size: {type: str}
            """, 3, "duplicate key 'hand_size' (first at line 2)"),
    },
    "alias": {
        "rune-age/02-bad.yaml": ("""\
            paragraphs:
              - &turn
                id: ra.turn
                kind: rule
                title: A turn
                source: {page: 7, section: A Player's Turn}
                text: A turn has two steps.
              - *turn
            """, 2, "yaml anchors and aliases (&name, *name) are not allowed"),
        "quickref.yaml": (QUICKREF_HEAD + """\
                  - key: c
                    heading: C
                    topics:
                      - &t {key: t, heading: T, default: true, paragraphs: [ra.setup]}
                      - *t
            """, 7, "yaml anchors and aliases (&name, *name) are not allowed"),
        "facts.yaml": ("""\
            facts:
              hand_size: &int {type: int}
              turn_count: *int
            """, 2, "yaml anchors and aliases (&name, *name) are not allowed"),
    },
    "merge key": {
        "rune-age/02-bad.yaml": ("""\
            paragraphs:
              - id: ra.turn
                kind: rule
                title: A turn
                source: &src {page: 7, section: A Player's Turn}
                text: A turn has two steps.
              - id: ra.turn.1
                kind: rule
                title: First step
                source: {<<: *src, paragraph: "1"}
                text: The first step.
            """, 10, "yaml merge keys (<<) are not allowed"),
        "quickref.yaml": (QUICKREF_HEAD + """\
                  - key: c
                    heading: C
                    topics:
                      - &t {key: t, heading: T, default: true, paragraphs: [ra.setup]}
                      - {<<: *t, key: u}
            """, 8, "yaml merge keys (<<) are not allowed"),
        "facts.yaml": ("""\
            facts:
              hand_size: &int {type: int}
              turn_count: {<<: *int, description: rounds played}
            """, 3, "yaml merge keys (<<) are not allowed"),
    },
}


def _check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.cli", "check", "--rules", str(root), "--no-sources"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("fault", list(FAULTS))
def test_each_corpus_file_refuses_the_fault_with_file_and_line(make_rules: MakeCorpus, fault: str) -> None:
    files = {name: body for name, (body, _, _) in FAULTS[fault].items()}
    root = make_rules({"rune-age/01-setup.yaml": GOOD_CHAPTER, "rune-age/03-typed.yaml": TYPED, **files})
    run = _check(root)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    for name, (_, line, message) in FAULTS[fault].items():
        expected = f"{name}:{line}: unreadable yaml: {message}"
        assert any(out.strip().startswith(expected) for out in run.stdout.splitlines()), (expected, run.stdout)
    typed = "rune-age/03-typed.yaml:7: paragraph 'ra.typed': source.page must be a positive integer, got 'twelve'"
    assert typed in run.stdout, run.stdout
