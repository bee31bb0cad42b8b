"""Measure the engine on the held-out rulings: how many blind answers it rules right.

The held-out set (written blind from the rulebooks by someone who never saw the engine) is kept out of the
repository; what is here are its rulings translated into our positions, one or more files per blind ruling:
``bench/heldout-25-26/<game>/*.json``, each in the format of the worked examples (``title``, ``from``,
``position``, ``expect``) plus ``heldout_id`` (the blind ruling's id), ``topic`` and an optional ``note`` (what
the blind answer decides that the outcome has no field for, and the choices the translation had to make).
Each file is resolved with :func:`engine.core.resolve` and checked with :func:`engine.examples.problems`, the
same check as the worked examples. A blind ruling passes when every file translating it passes.

Rulings that cannot be put into a position at all are listed, with the reason, in
``bench/heldout-25-26/untranslatable.json`` (``[{"id", "game", "topic", "why"}]``): a finding, not a failure.

This is a measurement: it exits 0 whatever the score.

    .venv/bin/python bench/heldout_rulings.py [--game G] [--topic T] [--notes] [--untranslatable] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core import resolve  # noqa: E402
from engine.errors import RunecodexError  # noqa: E402
from engine.examples import problems  # noqa: E402

HELDOUT = ROOT / "bench" / "heldout-25-26"
UNTRANSLATABLE = HELDOUT / "untranslatable.json"


@dataclass
class Check:
    """One translated file, resolved and checked."""

    file: str
    heldout_id: str
    game: str
    topic: str
    title: str
    mismatches: list[str]
    summary: str = ""
    note: str = ""

    @property
    def passed(self) -> bool:
        return not self.mismatches


@dataclass
class Ruling:
    """One blind ruling: every file that translates it."""

    heldout_id: str
    game: str
    topic: str
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)


def translation_files(game: str | None = None) -> Iterable[Path]:
    """Yield every translated ruling file (of *game* when given), sorted."""
    if not HELDOUT.is_dir():
        return
    for folder in sorted(p for p in HELDOUT.iterdir() if p.is_dir()):
        if game is None or folder.name == game:
            yield from sorted(folder.glob("*.json"))


def check_file(path: Path) -> Check:
    """Resolve one translated file and return its mismatches with the blind answer."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    check = Check(file=str(path.relative_to(ROOT)), heldout_id=str(data.get("heldout_id", path.stem)),
                  game=path.parent.name, topic=str(data.get("topic", "?")), title=str(data.get("title", "")),
                  mismatches=[], note=str(data.get("note", "")))
    try:
        answer = resolve(data["position"]).to_json()
    except RunecodexError as exc:
        where = getattr(exc, "path", None)
        check.mismatches = [f"position refused as unreadable: {exc}" + (f" (at {where})" if where else "")]
        return check
    check.summary = str(answer.get("summary") or "")
    check.mismatches = problems(data, answer)
    return check


def group(checks: Iterable[Check]) -> list[Ruling]:
    """Gather the checks by blind ruling, in the order first met."""
    rulings: dict[str, Ruling] = {}
    for c in checks:
        rulings.setdefault(c.heldout_id, Ruling(c.heldout_id, c.game, c.topic)).checks.append(c)
    return list(rulings.values())


def untranslatable() -> list[dict[str, Any]]:
    """Return the blind rulings listed as impossible to put into a position, with the reason."""
    if not UNTRANSLATABLE.is_file():
        return []
    data = json.loads(UNTRANSLATABLE.read_text(encoding="utf-8"))
    rows: list[dict[str, Any]] = data.get("rulings", []) if isinstance(data, dict) else data
    return rows


def _score(rulings: list[Ruling]) -> str:
    files = [c for r in rulings for c in r.checks]
    return (f"{sum(r.passed for r in rulings)}/{len(rulings)} rulings "
            f"({sum(c.passed for c in files)}/{len(files)} files)")


def report(rulings: list[Ruling], notes: bool) -> list[str]:
    """Return the printed report: per game, per topic, then each failure and its mismatches."""
    lines = [f"held-out rulings: {_score(rulings)}"]
    by_game: dict[str, list[Ruling]] = defaultdict(list)
    for r in rulings:
        by_game[r.game].append(r)
    for game, rs in by_game.items():
        lines.append(f"\n{game}: {_score(rs)}")
        by_topic: dict[str, list[Ruling]] = defaultdict(list)
        for r in rs:
            by_topic[r.topic].append(r)
        for topic, trs in by_topic.items():
            lines.append(f"  {topic:<28} {_score(trs)}")
    failed = [c for r in rulings for c in r.checks if not c.passed]
    if failed:
        lines.append("\nfailures:")
    for c in failed:
        lines.append(f"  {c.heldout_id}  [{Path(c.file).stem}]  {c.title}")
        if c.summary:
            lines.append(f"      engine: {c.summary}")
        lines.extend(f"      - {m}" for m in c.mismatches)
        if notes and c.note:
            lines.append(f"      note: {c.note}")
    if notes:
        passed_notes = [c for r in rulings for c in r.checks if c.passed and c.note]
        if passed_notes:
            lines.append("\nnotes on passing files (facts not checked, choices made):")
        for c in passed_notes:
            lines.append(f"  {c.heldout_id}  [{Path(c.file).stem}]  {c.note}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the measurement; always exit 0."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", help="only this game's folder (e.g. runewars-miniatures)")
    ap.add_argument("--topic", help="only this topic (e.g. reform)")
    ap.add_argument("--notes", action="store_true", help="also print each file's note")
    ap.add_argument("--untranslatable", action="store_true",
                    help="list the blind rulings that could not be put into a position, and why")
    ap.add_argument("--json", type=Path, help="write the report as JSON to this file")
    args = ap.parse_args(argv)
    checks = [check_file(p) for p in translation_files(args.game)]
    if args.topic:
        checks = [c for c in checks if c.topic == args.topic]
    rulings = group(checks)
    print("\n".join(report(rulings, args.notes)))
    rows = untranslatable()
    if args.untranslatable:
        print(f"\nuntranslatable: {len(rows)}")
        for row in rows:
            print(f"  {row.get('id')}  ({row.get('game', '?')}, {row.get('topic', '?')}): {row.get('why')}")
    if args.json:
        out = {"passed": sum(r.passed for r in rulings), "total": len(rulings),
               "rulings": [{"heldout_id": r.heldout_id, "game": r.game, "topic": r.topic, "passed": r.passed,
                            "checks": [asdict(c) | {"passed": c.passed} for c in r.checks]} for r in rulings],
               "untranslatable": rows}
        args.json.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
