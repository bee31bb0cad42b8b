"""Write (or check) the rulings of every scenario, public example and worked position to tests/golden/.

The golden file keeps, per position file, the whole ruling (``legal``, ``summary``, ``outcome``, ``steps``,
``decisions``, ``cites``; ``sources`` is derived from ``cites`` and left out). ``tests/test_rulings_unchanged.py``
compares today's rulings with it, so a refactor that must not change a ruling proves it did not. After a change
that is meant to alter rulings (wording, a fixed rule), regenerate it and review the diff:

    .venv/bin/python scripts/rulings_snapshot.py            # rewrite tests/golden/rulings.json.gz
    .venv/bin/python scripts/rulings_snapshot.py --diff     # list the positions whose ruling changed
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOLDEN = ROOT / "tests" / "golden" / "rulings.json.gz"


def sources() -> list[tuple[str, Path]]:
    """Return the folders of position files: (label, folder)."""
    from engine.examples import EXAMPLES

    shared = ROOT.parent / "shared"
    return [("scenarios", EXAMPLES), ("shared/examples", shared / "examples"),
            ("shared/examples-new", shared / "examples-new")]


def position_files() -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield (key, position) for every position file found (missing folders are skipped)."""
    for label, folder in sources():
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*/*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data.get("position"), dict):
                yield f"{label}/{path.parent.name}/{path.name}", data["position"]


def ruling_of(position: dict[str, Any]) -> dict[str, Any]:
    """Return the ruling of *position* as compared (sources left out), or its error."""
    from engine.core import resolve
    from engine.errors import RunecodexError

    try:
        out = resolve(position).to_json()
    except RunecodexError as exc:
        return {"error": exc.to_json()}
    out.pop("sources", None)
    return json.loads(json.dumps(out))


def current() -> dict[str, dict[str, Any]]:
    """Return today's rulings, keyed by position file."""
    return {key: ruling_of(pos) for key, pos in position_files()}


def load() -> dict[str, dict[str, Any]]:
    """Return the golden rulings."""
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as fh:
        data: dict[str, dict[str, Any]] = json.load(fh)
    return data


def main(argv: list[str] | None = None) -> int:
    """Rewrite the golden rulings, or (``--diff``) list the positions whose ruling changed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diff", action="store_true", help="list changed rulings instead of rewriting")
    args = parser.parse_args(argv)
    now = current()
    if args.diff:
        old = load()
        changed = sorted(k for k in now.keys() | old.keys() if now.get(k) != old.get(k))
        for key in changed:
            print(key)
        print(f"{len(changed)} of {len(now)} rulings differ")
        return 1 if changed else 0
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(now, ensure_ascii=False, sort_keys=True, indent=0)
    with gzip.GzipFile(GOLDEN, "wb", compresslevel=9, mtime=0) as fh:
        fh.write(text.encode("utf-8"))
    print(f"{len(now)} rulings written to {GOLDEN.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
