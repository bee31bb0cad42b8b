"""How many of each game's rule, FAQ and errata paragraphs the engine cites (its ``@rule`` declarations).

    python scripts/engine_coverage.py                 # one line per game
    python scripts/engine_coverage.py runewars --missing   # and the paragraphs no engine function cites

"Cited" means some engine function declares the paragraph with ``@rule`` (engine.registry.all_rules); the
declarations are checked against the traces by tests/test_engine_citations.py, so a cited paragraph is one a
ruling step applies. Glossary entries, tables and section headings are not counted.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from engine.corpus import get_corpus
from engine.registry import all_rules

KINDS = ("rule", "faq", "errata")


def coverage() -> tuple[Counter[str], Counter[str], dict[str, list[str]]]:
    """Return (paragraphs, cited paragraphs, uncited ids) per game."""
    cited = {pid for ids in all_rules().values() for pid in ids}
    total: Counter[str] = Counter()
    hit: Counter[str] = Counter()
    missing: dict[str, list[str]] = {}
    for p in get_corpus().paragraphs.values():
        if p.kind not in KINDS:
            continue
        total[p.game] += 1
        if p.id in cited:
            hit[p.game] += 1
        else:
            missing.setdefault(p.game, []).append(p.id)
    return total, hit, missing


def main(argv: list[str] | None = None) -> int:
    """Print the coverage per game (and the uncited ids with ``--missing``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to report (default: all)")
    parser.add_argument("--missing", action="store_true", help="list the paragraphs no engine function cites")
    args = parser.parse_args(argv)
    total, hit, missing = coverage()
    for game in args.games or sorted(total):
        if game not in total:
            print(f"unknown game {game!r}; one of {', '.join(sorted(total))}", file=sys.stderr)
            return 2
        print(f"{game:22} {hit[game]:4}/{total[game]:<4} {100 * hit[game] / total[game]:5.1f} %")
        if args.missing:
            print("  " + " ".join(missing.get(game, [])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
