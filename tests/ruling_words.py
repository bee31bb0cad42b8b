"""The words a judge would not write, found in a ruling (issue 24, case 6).

:func:`wording_problems` reads every sentence of a ruling a player reads (summary, reading, steps, decisions,
violations) and lists what breaks the house style: ``(s)`` plurals, positions counted from 0, faction names in
lower case, internal ids or field names in a sentence, "4 instead of 4", "a Elves unit", a refusal citing one
paragraph twice. ``tests/test_ruling_wording.py`` runs it over every worked example.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

FACTIONS = ("daqan", "elves", "latari", "uthuk", "waiqar")

CHECKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a '(s)' plural", re.compile(r"\w\(s\)|\(es\)|\(ies\)")),
    ("a position counted from 0", re.compile(r"\b(?:card|unit|item|position|entry|rank|tray|figure|effect|rung|"
                                             r"area|player|bullet|step|play)s? (?:#)?0\b", re.I)),
    ("a faction name in lower case", re.compile(rf"(?<![\w-])(?:{'|'.join(FACTIONS)})(?![\w-])")),
    ("an internal id or field name", re.compile(r"(?<![\w/.])(?:[a-z]+_[a-z_]+|(?!(?:severity|speed|range|rank|"
                                                r"level|tier|strength)-)[a-z]+-\d+|(?:ra|rafaq|rwm|rw|rs)\."
                                                r"[a-z0-9][\w.-]*)(?![\w/])")),
    ("a number 'instead of' itself", re.compile(r"\b(\d+) instead of \1\b")),
    ("'a' before a vowel", re.compile(r"\b[Aa] (?:[AEIO][a-z]+)\b")),
)


def sentences(ruling: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Yield (where, sentence) for every sentence of the ruling a player reads."""
    yield "summary", str(ruling.get("summary", ""))
    for i, line in enumerate(ruling.get("reading") or [], 1):
        yield f"reading {i}", str(line)
    for i, step in enumerate(ruling.get("steps") or [], 1):
        yield f"step {i}", str(step.get("text", ""))
    for i, d in enumerate(ruling.get("decisions") or [], 1):
        yield f"decision {i}", f"{d.get('who', '')} chooses {d.get('choose', '')}"
    for i, v in enumerate((ruling.get("outcome") or {}).get("violations") or [], 1):
        yield f"violation {i}", str(v.get("message", ""))


def wording_problems(ruling: Mapping[str, Any]) -> list[str]:
    """Return every wording problem of *ruling*, each naming where it is and the words at fault."""
    out = []
    for where, text in sentences(ruling):
        for what, pattern in CHECKS:
            for m in pattern.finditer(text):
                out.append(f"{where}: {what}: {m.group(0)!r} in {text!r}")
    for i, v in enumerate((ruling.get("outcome") or {}).get("violations") or [], 1):
        cites = list(v.get("cites") or [])
        if len(cites) != len(set(cites)):
            out.append(f"violation {i}: cites a paragraph twice: {cites}")
    return out
