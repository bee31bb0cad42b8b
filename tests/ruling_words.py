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
    return out + disagreements(ruling)


def disagreements(ruling: Mapping[str, Any]) -> list[str]:
    """Return where the summary and the outcome disagree: an illegal ruling whose summary does not say so (or the
    reverse), a tie in the summary with no tied players in the outcome (or the reverse), an elimination in the
    outcome the summary leaves out."""
    summary = str(ruling.get("summary", ""))
    outcome = ruling.get("outcome") or {}
    out = []
    if ruling.get("legal") is False and not summary.startswith("Illegal"):
        out.append(f"summary: an illegal ruling whose summary does not say so: {summary!r}")
    if ruling.get("legal") is True and summary.startswith("Illegal"):
        out.append(f"summary: a legal ruling whose summary says 'Illegal': {summary!r}")
    tied = outcome.get("tied")
    says_tie = re.search(r"\btie[sd]?\b", summary, re.I) is not None
    if isinstance(tied, list) and says_tie and not tied and "no tie" not in summary.lower():
        out.append(f"summary: says players tied but outcome.tied is empty: {summary!r}")
    if outcome.get("eliminated") is True and not re.search(r"eliminat|out of the game", summary, re.I):
        out.append(f"summary: the outcome eliminates a player the summary does not mention: {summary!r}")
    return out
