"""Small builders for the JSON Schemas of positions (kept terse so each situation's schema reads as a form)."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]


def obj(required: list[str] | None = None, extra: bool = False, **props: Schema) -> Schema:
    """Return an object schema with *props*; *required* lists the mandatory ones."""
    out: Schema = {"type": "object", "properties": props, "additionalProperties": extra}
    if required:
        out["required"] = required
    return out


MAX_ITEMS = 200  # every list has a length cap, so a hostile position is refused before its items are read


def arr(items: Schema, min_items: int = 0, max_items: int = MAX_ITEMS) -> Schema:
    """Return an array schema of at most *max_items* items (checked before the items themselves)."""
    out: Schema = {"type": "array", "maxItems": max_items}
    if min_items:
        out["minItems"] = min_items
    out["items"] = items
    return out


def integer(minimum: int | None = 0, maximum: int | None = None) -> Schema:
    """Return an integer schema (non-negative by default)."""
    out: Schema = {"type": "integer"}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


def text(max_length: int = 200) -> Schema:
    """Return a free-text schema (names are shown back as text, never as markup)."""
    return {"type": "string", "maxLength": max_length}


def enum(*values: Any) -> Schema:
    """Return an enum schema."""
    return {"enum": list(values)}


def nullable(schema: Schema) -> Schema:
    """Return *schema* that also admits null."""
    return {"anyOf": [schema, {"type": "null"}]}


BOOL: Schema = {"type": "boolean"}
FACTION = enum("daqan", "elves", "uthuk", "waiqar")
