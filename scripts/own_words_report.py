"""List every corpus field that shares 8+ words in a row with a rulebook (for rewording).

    .venv/bin/python scripts/own_words_report.py [--game GAME] [--id PREFIX] [--json] [--seeds DIR]

One line per field: ``FILE:LINE: ID.FIELD: N words of DOC: 'the shared run'`` (longest run first within
a file, files in order), then a count per field kind. Exit status 1 when anything is listed. The same
check as ``tests/test_own_words.py`` (see :mod:`engine.corpus.own_words`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from engine.corpus import get_corpus
from engine.corpus.own_words import RUN, copies
from engine.corpus.sources import default_sources


def main(argv: list[str] | None = None) -> int:
    """Print the report; return the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", help="only paragraphs of this game (e.g. rune-age)")
    ap.add_argument("--id", default="", help="only ids starting with this prefix (e.g. rwm.34)")
    ap.add_argument("--json", action="store_true", help="print a JSON list instead of lines")
    ap.add_argument("--seeds", type=Path, help="the rulebooks folder (default ../shared/seeds)")
    args = ap.parse_args(argv)
    seeds = args.seeds or default_sources()
    if seeds is None or not seeds.is_dir():
        print("own_words_report: no seeds folder (give --seeds DIR)", file=sys.stderr)
        return 2
    corpus = get_corpus()
    found = [c for c in copies(corpus, seeds)
             if c.pid.startswith(args.id) and (args.game is None or corpus.get(c.pid).game == args.game)]
    found.sort(key=lambda c: (c.file, c.line, -c.length))
    if args.json:
        print(json.dumps([c.__dict__ for c in found], indent=1, ensure_ascii=False))
    else:
        for c in found:
            print(c)
        kinds = Counter(c.field.split("[")[0].split(".")[0] for c in found)
        print(f"{len(found)} field(s) in {len({c.pid for c in found})} paragraph(s) share {RUN}+ words with a book"
              + (": " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()) if found else ""))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
