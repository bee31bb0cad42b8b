"""Facts as data: the schema in ``rules/facts.yaml`` and the checks every paragraph's ``facts`` pass.

A fact is a named value a paragraph states (``elimination_damage: 20``); the engine reads it with
``corpus.fact(pid, key)``. ``rules/facts.yaml`` declares every key once, with its type::

    facts:
      elimination_damage: {type: int, description: damage tokens that eliminate a Home Realm}
      turn_steps: {type: "list[str]", names: true}

Types: ``int``, ``number`` (int or float), ``bool``, ``str``, ``list[str]``, ``list[int]``,
``list[list[int]]``, ``list`` (any items) and ``mapping``; a key whose value legitimately takes two
shapes names both, ``"int | str"``. ``names: true`` marks a list of printed names (turn steps,
components) that may repeat the book's own names (see :mod:`engine.own_words`).

Checked for every paragraph's ``facts`` and every erratum's ``corrected_facts`` (each problem is a
loader problem, so ``runecodex check`` fails on it):

- a key is a snake_case word (``same season`` is prose that fell out of a flow mapping split at a comma);
- no value is null or an empty string or list item (``max_hand_size: null`` says nothing: leave the key
  out, or state the value, e.g. ``unlimited``);
- no list item is a fragment of prose split at commas (an item starting with "and"/"or", or ending
  with a comma: ``[Cities, Strongholds, and Rewards]`` is one name, quote it);
- the key is declared in ``rules/facts.yaml`` and the value has the declared type (when the corpus
  folder has a ``facts.yaml``: small test corpora may go without one).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

SCHEMA_FILE = "facts.yaml"
KEY_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_FRAGMENT = re.compile(r"^(and|or|but|then)\b|,$", re.IGNORECASE)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


TYPES: dict[str, Callable[[Any], bool]] = {
    "int": _is_int,
    "number": lambda v: _is_int(v) or isinstance(v, float),
    "bool": lambda v: isinstance(v, bool),
    "str": lambda v: isinstance(v, str),
    "list[str]": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    "list[int]": lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
    "list[list[int]]": lambda v: isinstance(v, list) and all(
        isinstance(x, list) and all(_is_int(y) for y in x) for x in v),
    "list": lambda v: isinstance(v, list),
    "mapping": lambda v: isinstance(v, dict),
}


@dataclass(frozen=True)
class FactType:
    """The declared shape of one facts key."""

    key: str
    types: tuple[str, ...]
    description: str = ""
    names: bool = False

    def accepts(self, value: Any) -> bool:
        """Return whether *value* has one of the declared types."""
        return any(TYPES[t](value) for t in self.types)


def type_of(value: Any) -> str:
    """Return the narrowest schema type of *value* (used to write and to report)."""
    for name in ("bool", "int", "number", "str", "list[int]", "list[str]", "list[list[int]]", "list", "mapping"):
        if TYPES[name](value) and not (name.startswith("list[") and value == []):
            return name
    return "list" if isinstance(value, list) else type(value).__name__


Report = Callable[[int, str], None]


def read_schema(root: Path, report: Report) -> dict[str, FactType] | None:
    """Return the schema of ``root/facts.yaml`` (``None`` when there is none); *report(line, message)*."""
    path = root / SCHEMA_FILE
    if not path.is_file():
        return None
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        report(0, f"unreadable facts schema: {exc}")
        return {}
    entries = raw.get("facts") if isinstance(raw, dict) else None
    if not isinstance(entries, dict):
        report(1, "facts.yaml must be a mapping with 'facts: {key: {type: ...}}'")
        return {}
    schema: dict[str, FactType] = {}
    for key, spec in entries.items():
        if not isinstance(key, str) or not KEY_RE.match(key):
            report(0, f"facts.yaml: key {key!r} is not a snake_case word")
            continue
        if isinstance(spec, str):
            spec = {"type": spec}
        kind = spec.get("type") if isinstance(spec, dict) else None
        types = tuple(t.strip() for t in kind.split("|")) if isinstance(kind, str) else ()
        if not types or any(t not in TYPES for t in types):
            report(0, f"facts.yaml: {key}.type must be one of {', '.join(TYPES)} (or two joined by |), "
                      f"got {kind!r}")
            continue
        schema[key] = FactType(key, types, str(spec.get("description") or ""), bool(spec.get("names")))
    return schema


@functools.lru_cache(maxsize=4)
def schema_of(root: str) -> Mapping[str, FactType]:
    """Return the (cached) schema of the corpus folder *root*, empty when it has none or it is unreadable."""
    return read_schema(Path(root), lambda line, message: None) or {}


def check_facts(facts: Mapping[Any, Any], schema: Mapping[str, FactType] | None, label: str) -> list[str]:
    """Return the problems of one ``facts`` mapping (messages start with *label*, e.g. ``ra.x.facts``)."""
    out: list[str] = []
    for key, value in facts.items():
        where = f"{label}.{key}"
        if not isinstance(key, str) or not KEY_RE.match(key):
            out.append(f"{label}: key {key!r} is not a snake_case word (prose split at a comma? quote the value)")
            continue
        out.extend(_check_value(where, value))
        if schema is None:
            continue
        declared = schema.get(key)
        if declared is None:
            out.append(f"{where}: key not declared in rules/{SCHEMA_FILE} (value {value!r}, type {type_of(value)})")
        elif value is not None and not declared.accepts(value):
            out.append(f"{where}: {value!r} is not of type {' | '.join(declared.types)}")
    return out


def _check_value(where: str, value: Any) -> list[str]:
    if value is None:
        return [f"{where}: null value (state the value or leave the key out)"]
    if isinstance(value, str) and not value.strip():
        return [f"{where}: empty string"]
    out: list[str] = []
    if isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, str) and _FRAGMENT.search(item.strip()):
                out.append(f"{where}[{i}]: {item!r} is a fragment of prose split at a comma (quote the whole name)")
            else:
                out.extend(_check_value(f"{where}[{i}]", item))
    elif isinstance(value, dict):
        for k, v in value.items():
            out.extend(_check_value(f"{where}.{k}", v))
    return out
