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

from engine.registry import coverage


def main(argv: list[str] | None = None) -> int:
    """Print the coverage per game (and the uncited ids with ``--missing``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to report (default: all)")
    parser.add_argument("--missing", action="store_true", help="list the paragraphs no engine function cites")
    args = parser.parse_args(argv)
    found = coverage()
    for game in args.games or sorted(found):
        if game not in found:
            print(f"unknown game {game!r}; one of {', '.join(sorted(found))}", file=sys.stderr)
            return 2
        c = found[game]
        print(f"{game:22} {c.cited:4}/{c.total:<4} {100 * c.share:5.1f} %")
        if args.missing:
            print("  " + " ".join(c.missing))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
