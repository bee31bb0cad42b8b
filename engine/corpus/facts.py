"""Facts as data: the schema in ``rules/facts.yaml`` and the checks every paragraph's ``facts`` pass.

A fact is a named value a paragraph states (``elimination_damage: 20``); the engine reads it with
``corpus.fact(pid, key)``. ``rules/facts.yaml`` declares every key once, with its type::

    facts:
      elimination_damage: {type: int, description: damage tokens that eliminate a Home Realm}
      turn_steps: {type: "list[str]", names: true}

Types: ``int``, ``number`` (int or float), ``bool``, ``str``, ``list[str]``, ``list[int]``,
``list[list[int]]``, ``list`` (any items) and ``mapping``; a key whose value legitimately takes two
shapes names both, ``"int | str"``. ``names: true`` marks a list of printed names (turn steps,
components) that may repeat the book's own names (see :mod:`engine.corpus.own_words`).

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
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BeforeValidator,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from engine.corpus.schema import problems_of
from engine.corpus.yamlio import YamlDoc, YamlError, read_yaml
from engine.model import Model, refuse

SCHEMA_FILE = "facts.yaml"
KEY_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_FRAGMENT = re.compile(r"^(and|or|but|then)\b|,$", re.IGNORECASE)

TYPES: dict[str, Any] = {
    "int": StrictInt,
    "number": StrictInt | StrictFloat,
    "bool": StrictBool,
    "str": StrictStr,
    "list[str]": list[StrictStr],
    "list[int]": list[StrictInt],
    "list[list[int]]": list[list[StrictInt]],
    "list": list[Any],
    "mapping": dict[Any, Any],
}
"""The declared types, each checked by pydantic (strict: ``true`` is not an ``int``, ``2`` is not a ``str``)."""


@functools.cache
def adapter(types: tuple[str, ...]) -> TypeAdapter[Any]:
    """Return the validator of a value declared as one of *types* (e.g. ``("int", "str")``)."""
    return TypeAdapter(functools.reduce(operator.or_, (TYPES[t] for t in types)))


def has_type(value: Any, types: tuple[str, ...]) -> bool:
    """Return whether *value* is of one of the declared *types*."""
    try:
        adapter(types).validate_python(value, strict=True)
    except ValidationError:
        return False
    return True


@dataclass(frozen=True)
class FactType:
    """The declared shape of one facts key."""

    key: str
    types: tuple[str, ...]
    description: str = ""
    names: bool = False

    def accepts(self, value: Any) -> bool:
        """Return whether *value* has one of the declared types."""
        return has_type(value, self.types)


def type_of(value: Any) -> str:
    """Return the narrowest schema type of *value* (used to write and to report)."""
    for name in ("bool", "int", "number", "str", "list[int]", "list[str]", "list[list[int]]", "list", "mapping"):
        if has_type(value, (name,)) and not (name.startswith("list[") and value == []):
            return name
    return "list" if isinstance(value, list) else type(value).__name__


def _declared_types(value: str) -> str:
    types = [t.strip() for t in value.split("|")]
    if not types or any(t not in TYPES for t in types):
        raise refuse(f"must be one of {', '.join(TYPES)} (or two joined by |), got {value!r}")
    return value


def _shorthand(value: Any) -> Any:
    """``key: int`` is short for ``key: {type: int}``."""
    return {"type": value} if isinstance(value, str) else value


class FactDeclaration(Model):
    """One key of ``rules/facts.yaml``: its type, what it means, whether it lists printed names."""

    type: Annotated[str, AfterValidator(_declared_types)]
    description: str = ""
    names: bool = False


class FactsFile(Model):
    """``rules/facts.yaml``: one declaration per facts key (each read on its own)."""

    facts: dict[Any, Any]


_DECLARATION = TypeAdapter(Annotated[FactDeclaration, BeforeValidator(_shorthand)])
_MUST = {"": "a mapping with 'facts: {key: {type: ...}}'", "facts": "a mapping of keys to declarations"}
_DECLARATION_MUST = {"": "a type or a mapping with 'type'", "description": "a string", "names": "true or false",
                     "type": "a type name"}

Report = Callable[[int, str], None]


def read_schema(root: Path, report: Report) -> dict[str, FactType] | None:
    """Return the schema of ``root/facts.yaml`` (``None`` when there is none); *report(line, message)*."""
    path = root / SCHEMA_FILE
    if not path.is_file():
        return None
    try:
        doc = read_yaml(path, SCHEMA_FILE)
        FactsFile.model_validate(doc.data)
    except YamlError as exc:
        report(exc.line, exc.message)
        return {}
    except ValidationError as exc:
        for problem in problems_of(exc, doc, doc.data, "", _MUST):
            report(problem.line, problem.message)
        return {}
    entries = doc.data["facts"]  # the mapping read (its lines are known), now known to be one
    schema: dict[str, FactType] = {}
    for key, spec in entries.items():
        found = _declaration(doc, entries, key, spec, report)
        if found is not None:
            schema[key] = found
    return schema


def _declaration(doc: YamlDoc, entries: Mapping[Any, Any], key: Any, spec: Any, report: Report) -> FactType | None:
    """Return the declaration of *key* (*spec*), or ``None`` after reporting what is wrong with it."""
    line = doc.line_of((key,), entries)
    if not isinstance(key, str) or not KEY_RE.match(key):
        report(line, f"facts.{key}: key {key!r} is not a snake_case word")
        return None
    try:
        declared = _DECLARATION.validate_python(spec)
    except ValidationError as exc:
        for problem in problems_of(exc, doc, spec, "", _DECLARATION_MUST, at=("facts", key), line=line):
            report(problem.line, problem.message)
        return None
    types = tuple(t.strip() for t in declared.type.split("|"))
    return FactType(key, types, declared.description, declared.names)


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
