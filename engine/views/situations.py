"""The reference of a situation: what it answers, every field of its position, its worked examples.

One composition, read from the situation's typed model (its published JSON Schema: titles, descriptions,
bounds, enum labels) and from its worked examples (``engine/examples/<game>/<situation>-*.json``), so the
documentation is never written a second time beside the code. ``runecodex situations NAME`` prints it as text
(:func:`to_text`); the site shows it as one page per game (:func:`to_blocks`, parsed by the site extension).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import Situation
from engine.examples import example_files, load_example

SKIPPED = ("game", "situation")
"""Fields every position carries and no reference needs to explain (the contract's envelope)."""
MAX_DEPTH = 6


@dataclass(frozen=True)
class FieldDoc:
    """One field of a position: where it sits, what it is called, what it takes, what it means."""

    path: str
    title: str
    takes: str
    required: bool
    description: str


@dataclass(frozen=True)
class ExampleDoc:
    """One worked example: its file name, its title and the source passage it comes from."""

    name: str
    title: str
    source: str


@dataclass(frozen=True)
class SituationDoc:
    """The reference of one situation."""

    game: str
    name: str
    description: str
    position: str
    fields: tuple[FieldDoc, ...]
    examples: tuple[ExampleDoc, ...]


def _humanize(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _number(schema: Mapping[str, Any]) -> str:
    kind = "a whole number" if schema.get("type") == "integer" else "a number"
    lo, above, hi = schema.get("minimum"), schema.get("exclusiveMinimum"), schema.get("maximum")
    if lo is not None and hi is not None:
        return f"{kind} from {lo:g} to {hi:g}"
    bounds = [f"at least {lo:g}" if lo is not None else "", f"more than {above:g}" if above is not None else "",
              f"at most {hi:g}" if hi is not None else ""]
    said = " and ".join(b for b in bounds if b)
    return f"{kind}, {said}" if said else kind


def _enum(schema: Mapping[str, Any]) -> str:
    labels = schema.get("x-enum-labels") or {}
    words = [f"{v} ({labels[v]})" if v in labels and labels[v] != v else str(v) for v in schema["enum"]]
    return "one of: " + ", ".join(words)


def takes(schema: Mapping[str, Any]) -> str:
    """Return what a field takes, in words: "a whole number from 0 to 9", "one of: …", "a list of units"."""
    if "enum" in schema:
        return _enum(schema)
    if "const" in schema:
        return f"always {schema['const']}"
    options = [s for s in schema.get("anyOf", []) if s.get("type") != "null"]
    if options:
        return " or ".join(dict.fromkeys(takes(s) for s in options))
    kind = schema.get("type")
    if kind in ("integer", "number"):
        return _number(schema)
    if kind == "boolean":
        return "yes or no (true/false)"
    if kind == "string":
        return "text" if "maxLength" not in schema else f"text of at most {schema['maxLength']} characters"
    if kind == "array":
        item = schema.get("items") or {}
        size = f" (at most {schema['maxItems']})" if "maxItems" in schema else ""
        if item.get("type") == "object":
            return f"a list{size}; each: the fields below"
        return f"a list{size}; each: {takes(item)}"
    if kind == "object":
        return "the fields below"
    return "a value"


def _fields(schema: Mapping[str, Any], prefix: str = "", depth: int = 0) -> Iterator[FieldDoc]:
    required = set(schema.get("required", ()))
    for key, sub in (schema.get("properties") or {}).items():
        if not prefix and key in SKIPPED:
            continue
        path = f"{prefix}{key}"
        inner = next((s for s in sub.get("anyOf", []) if s.get("type") != "null"), sub)
        yield FieldDoc(path, sub.get("title") or inner.get("title") or _humanize(key), takes(sub),
                       key in required, sub.get("description") or inner.get("description") or "")
        if depth >= MAX_DEPTH:
            continue
        if inner.get("type") == "object":
            yield from _fields(inner, f"{path}.", depth + 1)
        elif inner.get("type") == "array" and (inner.get("items") or {}).get("type") == "object":
            yield from _fields(inner["items"], f"{path}[].", depth + 1)


@functools.lru_cache(maxsize=8)
def _examples_of(game: str) -> dict[str, tuple[ExampleDoc, ...]]:
    """Return the worked examples of *game* by situation (read once per process: they ship with the code)."""
    out: dict[str, list[ExampleDoc]] = {}
    for path in example_files(game):
        data = load_example(path)
        name = str((data.get("position") or {}).get("situation", ""))
        out.setdefault(name, []).append(ExampleDoc(path.stem, str(data.get("title", path.stem)),
                                                   str(data.get("from", ""))))
    return {k: tuple(v) for k, v in out.items()}


def describe(situation: Situation) -> SituationDoc:
    """Return the reference of *situation*, from its schema and its worked examples."""
    schema = situation.schema
    return SituationDoc(situation.game, situation.name, situation.description, str(schema.get("description", "")),
                        tuple(_fields(schema)), _examples_of(situation.game).get(situation.name, ()))


def to_text(doc: SituationDoc, width: int = 100) -> str:
    """Return the reference as plain text for the terminal."""
    import textwrap

    def wrap(text: str, indent: str) -> list[str]:
        rest = " " * len(indent)
        return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=rest) or [indent.rstrip()]

    lines = [f"{doc.name}  ({doc.game})", *wrap(doc.description, "  "), ""]
    if doc.position:
        lines += [*wrap("Position: " + doc.position, "  "), ""]
    lines.append("Fields (path: what it takes; * required)")
    for f in doc.fields:
        mark = "*" if f.required else " "
        lines.append(f" {mark} {f.path}  [{f.title}]")
        lines += wrap(f.takes, "      takes: ")
        if f.description:
            lines += wrap(f.description, "      ")
    lines += ["", f"Worked examples ({len(doc.examples)}): runecodex resolve engine/examples/{doc.game}/NAME.json"]
    lines += [f"  {e.name}: {e.title}" for e in doc.examples]
    return "\n".join(lines)


def to_blocks(doc: SituationDoc) -> dict[str, Any]:
    """Return the reference as one section block of a site page spec (see :mod:`engine.site.ext`)."""
    rows = [[("* " if f.required else "") + f.path, f.title, f.takes, f.description] for f in doc.fields]
    blocks: list[dict[str, Any]] = [{"b": "p", "inl": [doc.description]}]
    if doc.position:
        blocks.append({"b": "p", "inl": [{"t": "strong", "text": "Position: "}, doc.position]})
    blocks.append({"b": "table", "columns": ["Field (* required)", "Name", "Takes", "Meaning"], "rows": rows})
    items = [[{"t": "code", "text": e.name}, f": {e.title}" + (f" ({e.source})" if e.source else "")]
             for e in doc.examples]
    blocks.append({"b": "p", "inl": [{"t": "strong", "text": f"Worked examples ({len(doc.examples)})"}]})
    if items:
        blocks.append({"b": "bullets", "items": items})
    return {"b": "section", "id": f"situation-{doc.name.replace('_', '-')}", "title": doc.name, "blocks": blocks,
            "cls": "rc-situation"}
