"""Write `short` and `asked` into the rules corpus from a JSON file, keeping every other line as it is.

    .venv/bin/python scripts/corpus_fill.py FILL.json [FILL.json ...]

FILL.json maps paragraph ids to ``{"short": "...", "asked": ["...", ...]}`` (either key may be left out).
Each value is written into the paragraph's own entry in ``rules/**.yaml`` right after its ``title:`` line,
replacing an earlier ``short``/``asked`` of that paragraph, as double-quoted YAML strings. The rest of the
file (comments, layout, other keys) is untouched, so rules editors keep reading the same file. Unknown ids
are listed and skipped; exit status 1 when any id was unknown.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(os.environ.get("RUNECODEX_RULES") or Path(__file__).resolve().parent.parent / "rules")
ID_LINE = re.compile(r"^(\s*)- id:\s*(\S+)\s*$")
KEY_LINE = re.compile(r"^(\s*)([a-z_]+):")


def _quote(s: str) -> str:
    return json.dumps(" ".join(s.split()), ensure_ascii=False)


def _block(indent: str, entry: dict[str, object]) -> list[str]:
    out: list[str] = []
    if entry.get("short"):
        out.append(f"{indent}short: {_quote(str(entry['short']))}\n")
    asked = entry.get("asked")
    if isinstance(asked, list) and asked:
        out.append(f"{indent}asked:\n")
        out.extend(f"{indent}  - {_quote(str(a))}\n" for a in asked)
    return out


def fill_file(path: Path, fills: dict[str, dict[str, object]]) -> set[str]:
    """Write the entries of *fills* whose ids are in *path*; return the ids written."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    starts = [(i, m.group(2)) for i, line in enumerate(lines) if (m := ID_LINE.match(line))]
    if not any(pid in fills for _, pid in starts):
        return set()
    done: set[str] = set()
    bounds = [*(i for i, _ in starts), len(lines)]
    out: list[str] = lines[: starts[0][0]] if starts else list(lines)
    for n, (start, pid) in enumerate(starts):
        chunk = lines[start: bounds[n + 1]]
        if pid in fills:
            indent = " " * (len(ID_LINE.match(chunk[0]).group(1)) + 2)  # type: ignore[union-attr]
            kept: list[str] = []
            skipping = False
            for line in chunk:
                m = KEY_LINE.match(line)
                if m and len(m.group(1)) == len(indent):
                    skipping = m.group(2) in {k for k in ("short", "asked") if k in fills[pid]}
                elif line.strip() and not line.startswith(indent + " ") and not line.startswith(indent + "-"):
                    skipping = False
                if not skipping:
                    kept.append(line)
            at = next((i for i, line in enumerate(kept) if line.startswith(indent + "title:")), 0)
            kept[at + 1: at + 1] = _block(indent, fills[pid])
            chunk = kept
            done.add(pid)
        out.extend(chunk)
    tmp = path.with_suffix(path.suffix + ".fill-tmp")
    tmp.write_text("".join(out), encoding="utf-8")
    tmp.replace(path)
    return done


def main(argv: list[str]) -> int:
    """Fill every JSON file named on the command line; report unknown ids."""
    fills: dict[str, dict[str, object]] = {}
    for name in argv:
        fills.update(json.loads(Path(name).read_text(encoding="utf-8")))
    done: set[str] = set()
    for path in sorted(ROOT.rglob("*.yaml")):
        done |= fill_file(path, fills)
    missing = sorted(set(fills) - done)
    print(f"wrote {len(done)} paragraph(s)" + (f"; unknown ids: {', '.join(missing)}" if missing else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
