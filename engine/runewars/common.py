"""Shared vocabulary of the Runewars situations: the game key, factions, seasons and small schema parts."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from pydantic import Field

from engine.errors import UnreadableInputError
from engine.schema import Schema, enum, text

GAME = "runewars"
FACTIONS = ("daqan", "elves", "uthuk", "waiqar")
SEASONS = ("spring", "summer", "fall", "winter")
NAME: Schema = text(80)
SEASON: Schema = enum(*SEASONS)

Faction = Literal["daqan", "elves", "uthuk", "waiqar"]
"""The four factions (a player's side)."""
Side = Literal["daqan", "elves", "uthuk", "waiqar", "neutral"]
"""A faction, or the neutral units."""
Season = Literal["spring", "summer", "fall", "winter"]
Name = Annotated[str, Field(max_length=80)]
"""A unit's, area's or card's name as the player writes it."""


FACTION_NAMES = {"daqan": "Daqan", "elves": "Elves", "uthuk": "Uthuk", "waiqar": "Waiqar", "neutral": "Neutral"}
FACTION_LABELS = {k: v for k, v in FACTION_NAMES.items() if k != "neutral"}


def faction_name(key: str | None) -> str:
    """Return a faction as printed (``daqan`` -> ``Daqan``); other names are returned as they are."""
    return FACTION_NAMES.get(key or "", key or "")


def plural(n: int, word: str, many: str | None = None) -> str:
    """Return ``"1 unit"`` / ``"3 units"``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def names(items: Sequence[str]) -> str:
    """Return items joined for a sentence: ``a``, ``a and b``, ``a, b and c`` (``none`` when empty)."""
    if not items:
        return "none"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def unique_keys(rows: Sequence[Mapping[str, Any]], key: str, path: str) -> None:
    """Raise :class:`UnreadableInputError` when two rows share the same *key* value."""
    seen: set[Any] = set()
    for i, row in enumerate(rows):
        value = row[key]
        if value in seen:
            raise UnreadableInputError(f"{key} {value!r} appears twice", path=f"{path}[{i}].{key}")
        seen.add(value)


# ------------------------------------------------------------------ large arrays: a fast check, schema errors

Check = Callable[[Any], bool]


def compile_check(schema: Mapping[str, Any]) -> Check:
    """Return a function telling whether a value meets *schema*, for the keywords this package's item schemas use
    (a fast path built once; :class:`ItemsCheck` refuses a schema with any other keyword)."""
    if "anyOf" in schema:
        options = [compile_check(s) for s in schema["anyOf"]]
        return lambda v: any(ok(v) for ok in options)
    if "enum" in schema:
        allowed = {(type(e), e) for e in schema["enum"]}
        return lambda v: isinstance(v, str | int | bool | type(None)) and (type(v), v) in allowed
    kind = schema.get("type")
    if kind == "string":
        longest = schema.get("maxLength", 10**9)
        return lambda v: isinstance(v, str) and len(v) <= longest
    if kind == "integer":
        low, high = schema.get("minimum", -10**18), schema.get("maximum", 10**18)
        return lambda v: type(v) is int and low <= v <= high
    if kind == "boolean":
        return lambda v: isinstance(v, bool)
    if kind == "array":
        return _array_check(schema)
    if kind == "object":
        return _object_check(schema)
    if kind == "null":
        return lambda v: v is None
    if kind is None:
        return lambda v: True
    raise ValueError(f"compile_check does not handle type {kind!r}")


def _array_check(schema: Mapping[str, Any]) -> Check:
    low, high = schema.get("minItems", 0), schema.get("maxItems", 10**9)
    prefix = [compile_check(s) for s in schema.get("prefixItems", [])]
    rest = compile_check(schema["items"]) if "items" in schema else None

    def check(v: Any) -> bool:
        if not isinstance(v, list) or not low <= len(v) <= high:
            return False
        if not all(ok(x) for ok, x in zip(prefix, v, strict=False)):
            return False
        return rest is None or all(rest(x) for x in v[len(prefix):])
    return check


def _object_check(schema: Mapping[str, Any]) -> Check:
    required = tuple(schema.get("required", ()))
    props = {k: compile_check(s) for k, s in schema.get("properties", {}).items()}
    closed = schema.get("additionalProperties", True) is False

    def check(v: Any) -> bool:
        if not isinstance(v, dict) or not all(k in v for k in required):
            return False
        for k, x in v.items():
            ok = props.get(k)
            if ok is None:
                if closed:
                    return False
            elif not ok(x):
                return False
        return True
    return check


KNOWN = {"anyOf", "enum", "type", "maxLength", "minimum", "maximum", "minItems", "maxItems", "prefixItems", "items",
         "required", "properties", "additionalProperties", "description"}


def _keywords(schema: Any) -> set[str]:
    if isinstance(schema, list):
        return set().union(*(_keywords(s) for s in schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    out = set(schema)
    for key in ("anyOf", "prefixItems"):
        out |= _keywords(schema.get(key, []))
    out |= _keywords(schema.get("items")) | _keywords(list(schema.get("properties", {}).values()))
    return out


def _schema_message(error: ValidationError) -> str:
    if error.validator == "required":
        return f"missing field {error.message.split(chr(39))[1]!r}" if "'" in error.message else error.message
    if error.validator == "type":
        return f"expected {error.validator_value}, got {type(error.instance).__name__} {error.instance!r}"
    if error.validator == "enum":
        allowed = error.validator_value if isinstance(error.validator_value, list) else []
        return f"{error.instance!r} is not one of {', '.join(map(repr, allowed))}"
    return error.message[0].lower() + error.message[1:]


class ItemsCheck:
    """Check every item of a large array against an item schema: fast when the items are right, and reporting
    the first wrong one as the JSON Schema would (message and JSON path). Used for map areas and borders, where
    checking each item through ``jsonschema`` would cost more than the ruling itself."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        unknown = _keywords(dict(schema)) - KNOWN
        if unknown:
            raise ValueError(f"ItemsCheck does not handle the keyword(s) {sorted(unknown)}")
        self.schema = schema
        self.conforms = compile_check(schema)
        self.validator = Draft202012Validator(dict(schema))

    def check(self, items: Sequence[Any], path: str) -> None:
        """Raise :class:`UnreadableInputError` for the first item of *items* (found at *path*) that is wrong."""
        for i, item in enumerate(items):
            if self.conforms(item):
                continue
            errors = list(self.validator.iter_errors(item))
            if not errors:  # the fast check is stricter than the schema somewhere: trust the schema
                continue
            error = min(errors, key=lambda e: (-len(e.absolute_path), str(e.validator)))
            where = f"{path}[{i}]"
            for part in error.absolute_path:
                where += f"[{part}]" if isinstance(part, int) else f".{part}"
            if error.validator == "required" and "'" in error.message:
                where += f".{error.message.split(chr(39))[1]}"
            raise UnreadableInputError(_schema_message(error), path=where)
