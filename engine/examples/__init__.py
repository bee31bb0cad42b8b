"""Worked examples: rulings as data, and the check of a ruling against one.

Each file ``engine/examples/<game>/<situation>-<case>.json`` is ``{"title", "from", "position", "expect"}``
(CONTRACT.md): a position, the ruling expected and the paragraphs it must cite. The boards offer them as
worked positions, ``tests/test_scenarios.py`` resolves every one, and the benchmarks time them; all read them
through :func:`example_files` / :func:`load_example` here.

A ruling meets an example by the rules of ``../shared/bin/check-examples``: ``expect.legal`` equal; each key of
``expect.outcome`` equal (an expected object constrains only the keys it names); at least
``expect.decisions_min`` decisions; an illegal ruling lists violations; each ``expect.cites`` entry met
by a cited paragraph; every step cites something.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parent
"""The folder of worked examples, one sub-folder per game."""


def example_files(game: str | None = None) -> Iterator[Path]:
    """Yield every worked example file (of *game* when given), sorted by game and name."""
    for folder in sorted(p for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith("_")):
        if game is None or folder.name == game:
            yield from sorted(folder.glob("*.json"))


def load_example(path: Path) -> dict[str, Any]:
    """Return one example file's data (``title``, ``from``, ``position``, ``expect``)."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def matches(want: Any, got: Any) -> bool:
    """Return whether *got* meets *want* (objects constrain only the keys they name)."""
    if isinstance(want, dict) and isinstance(got, dict):
        return all(k in got and matches(v, got[k]) for k, v in want.items())
    return bool(want == got)


def cite_matches(want: Mapping[str, Any], entry: Mapping[str, Any]) -> bool:
    """Return whether a cited paragraph's source entry meets one expected citation."""
    source = entry.get("source") or {}
    if source.get("doc") != want["doc"]:
        return False
    if "paragraph" in want and str(source.get("paragraph")) != str(want["paragraph"]):
        return False
    where = f"{source.get('section') or ''} {entry.get('title') or ''}".lower()
    return not ("section" in want and want["section"].lower() not in where)


def problems(example: Mapping[str, Any], answer: Mapping[str, Any]) -> list[str]:
    """Return the mismatches between an example's expectation and a ruling (empty when it passes)."""
    out: list[str] = []
    exp = example["expect"]
    if "legal" in exp and answer.get("legal") != exp["legal"]:
        out.append(f"legal: want {exp['legal']!r}, got {answer.get('legal')!r}")
    outcome = answer.get("outcome") or {}
    for key, want in exp.get("outcome", {}).items():
        if key not in outcome or not matches(want, outcome[key]):
            out.append(f"outcome.{key}: want {want!r}, got {outcome.get(key)!r}")
    if "decisions_min" in exp and len(answer.get("decisions") or []) < exp["decisions_min"]:
        out.append(f"decisions: want at least {exp['decisions_min']}, got {len(answer.get('decisions') or [])}")
    if exp.get("legal") is False and not outcome.get("violations"):
        out.append("illegal, but outcome.violations is empty")
    sources = answer.get("sources") or {}
    cited = answer.get("cites") or []
    out.extend(f"cited {sid!r} has no entry in sources" for sid in cited if sid not in sources)
    for want in exp.get("cites", []):
        if not any(cite_matches(want, sources.get(sid) or {}) for sid in cited):
            out.append(f"no cited paragraph matches {want}")
    out.extend(f"step {i} cites nothing" for i, step in enumerate(answer.get("steps") or []) if not step.get("cites"))
    if not answer.get("steps"):
        out.append("no steps")
    return out
