"""One typed model per situation: the position's fields, its published JSON Schema and its validation.

A situation declares its input as a :class:`Position` subclass (pydantic v2) and, ideally, its outcome as an
:class:`Outcome` subclass. From that one declaration come

* the **published JSON Schema** (:func:`published_schema`: references inlined, so the boards' form generator
  and the contract read one self-contained object per situation; titles and descriptions from ``Field``;
  ``enum`` values with player-word labels under ``x-enum-labels``),
* **validation** (:func:`validate`): strict JSON types (``2.0`` is not a count, ``true`` is not a number), no
  unknown keys, bounded lists checked before their items, and the first error reported in the contract's
  notation (``army[2].strength``) as an :class:`~engine.errors.UnreadableInputError`,
* **typed access** in resolvers (``pos.target.kind``): mypy sees a misspelt field.

Two kinds of optional field, as the boards show them:

* ``Maybe`` (:func:`maybe`): the player may leave it out ("unknown"); absent and ``null`` read the same,
  and the published schema shows the field without a default and without ``null``;
* a plain default (``Field(0)``, ``Field(False)``): the published schema shows the default.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails, PydanticCustomError

from engine.errors import UnreadableInputError

JsonSchema = dict[str, Any]

MAX_ITEMS = 200
"""Every list of a position has a length cap, checked before its items are read."""


def words(name: str) -> str:
    """Return a class name as a player's words: ``SiegeTarget`` -> ``Siege target`` (a model's default title)."""
    out = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    return out[:1] + out[1:].lower()


class Model(BaseModel):
    """A part of a position: frozen, strict JSON types, no unknown keys.

    The class docstring is published as the schema's description (the boards show it as the hint), and the
    class name in words as its title (``SiegeTarget`` -> "Siege target"; set ``title`` to say it otherwise).
    """

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid", hide_input_in_errors=True,
                              validate_default=False, model_title_generator=lambda cls: words(cls.__name__))


class Position(Model):
    """A whole position: ``game`` and ``situation`` plus the situation's fields.

    Subclasses narrow ``game`` and ``situation`` with ``Literal`` types, and restate themselves in a player's
    words with :meth:`reading` (contract 0.3): the ruling carries those sentences so a player sees at a glance
    that it is about the position they meant.
    """

    game: str
    situation: str

    def reading(self) -> list[str]:
        """Return short sentences restating what the ruling reads: sides, units or cards with the numbers that
        count, bonuses and their sources, roles, choices already stated. Situations override this; the default
        restates every stated field by its title."""
        return restate(self)


class OpenPosition(Position):
    """A position that tolerates keys it does not read (kept for situations whose schema always did)."""

    model_config = ConfigDict(extra="allow")


class Outcome(Model):
    """A situation's outcome: typed fields, dumped to JSON as the contract's ``outcome`` object."""

    model_config = ConfigDict(extra="forbid", frozen=False)

    def to_json(self) -> dict[str, Any]:
        """Return the outcome as a JSON object (field order kept)."""
        return self.model_dump(mode="json")


# ------------------------------------------------------------------------------------------ fields

def _absent(schema: JsonSchema) -> None:
    """Publish an optional field as "may be left out": no default, no ``null`` branch."""
    schema.pop("default", None)
    branches = schema.get("anyOf")
    if isinstance(branches, list):
        rest = [b for b in branches if b != {"type": "null"}]
        if len(rest) == 1:
            del schema["anyOf"]
            inner = rest[0]
            for key, value in inner.items():
                schema.setdefault(key, value)


def maybe(description: str | None = None, *, title: str | None = None, ge: int | None = None,
          le: int | None = None, max_length: int | None = None, labels: Mapping[str, str] | None = None) -> Any:
    """Return a ``Field`` for an optional value a player may leave out (absent and ``null`` alike); *labels*
    gives an enum's values in a player's words (``x-enum-labels``, as :func:`labelled`)."""
    words = dict(labels) if labels else None

    def hook(schema: JsonSchema) -> None:
        _absent(schema)
        if words:
            schema["x-enum-labels"] = words
    return Field(None, description=description, title=title, ge=ge, le=le, max_length=max_length,
                 json_schema_extra=hook)


def choices(vocabulary: Any) -> tuple[Any, ...]:
    """Return the values of a vocabulary type: a ``Literal`` (possibly ``Annotated`` with labels) -> its values."""
    args = typing.get_args(vocabulary)
    if typing.get_origin(vocabulary) is typing.Annotated:
        return choices(args[0])
    if typing.get_origin(vocabulary) is typing.Literal:
        return tuple(args)
    return tuple(v for a in args for v in choices(a))


def labelled(labels: Mapping[str, str]) -> Callable[[JsonSchema], None]:
    """Return a schema hook adding player-word labels to an ``enum`` (``x-enum-labels``)."""
    words = dict(labels)

    def hook(schema: JsonSchema) -> None:
        schema["x-enum-labels"] = words
    return hook


def refuse(message: str, field: str | int | None = None) -> PydanticCustomError:
    """Return the error a model validator raises for a position its types admit but the situation cannot read.

    *field* (a key or list index below the model being validated) makes the reported path point at the
    offending value: ``raise refuse("a unit cannot be its own target", "target")`` inside the model at
    ``attacks[1]`` reports ``attacks[1].target``. The message is lower case and names the value.
    """
    return PydanticCustomError("runecodex", "{message}", {"message": message, "field": field})


def refuse_repeats(values: Sequence[str], path: str, what: str) -> None:
    """Refuse, in a model validator, a value listed twice (``player 'Ann' is listed twice``); *path* is the
    offending entry's path with ``{i}`` for its index (``"players[{i}].player"``)."""
    seen: set[str] = set()
    for i, value in enumerate(values):
        if value in seen:
            raise refuse(f"{what} {value!r} is listed twice", path.format(i=i))
        seen.add(value)


# ------------------------------------------------------------------------------------------ reading

def _title(model: BaseModel, name: str) -> str:
    info = type(model).model_fields[name]
    return info.title or name.replace("_", " ").capitalize()


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, BaseModel):
        parts = [f"{_title(value, k).lower()} {_words(v)}" for k, v in _stated(value)]
        return ", ".join(parts) or "nothing stated"
    if isinstance(value, list | tuple):
        return "; ".join(_words(v) for v in value) if value else "none"
    if isinstance(value, dict):  # in key order, so the sentence does not depend on how the JSON was written
        return "; ".join(f"{k}: {_words(v)}" for k, v in sorted(value.items())) if value else "none"
    return str(value).replace("_", " ")


def _stated(model: BaseModel) -> list[tuple[str, Any]]:
    """Return the fields whose value counts (set, and not the default), without the game and situation keys.

    A field left at its default reads the same whether or not the position states it, so two positions that
    mean the same read the same."""
    out = []
    for name, info in type(model).model_fields.items():
        if name in ("game", "situation"):
            continue
        value = getattr(model, name)
        if value is None or (not info.is_required() and value == info.get_default(call_default_factory=True)):
            continue
        out.append((name, value))
    return out


def restate(position: BaseModel) -> list[str]:
    """Return one sentence per stated field of *position*: "Title: value." (the default :meth:`Position.reading`)."""
    sentences = []
    for name, value in _stated(position):
        text = f"{_title(position, name)}: {_words(value)}"
        sentences.append(text if text.endswith((".", "!", "?")) else text + ".")
    return sentences


# ------------------------------------------------------------------------------------------ schema

def _inline(node: Any, defs: Mapping[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = _inline(defs[ref.split("/")[-1]], defs)
            rest = {k: _inline(v, defs) for k, v in node.items() if k != "$ref"}
            return {**target, **rest}
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def _auto_title(name: str) -> str:
    return name.title().replace("_", " ")


def drop_auto_titles(node: Any) -> None:
    """Remove the titles pydantic makes up from field names (the boards humanize keys the same way)."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for name, sub in props.items():
                if isinstance(sub, dict) and sub.get("title") == _auto_title(name):
                    del sub["title"]
        for value in node.values():
            drop_auto_titles(value)
    elif isinstance(node, list):
        for value in node:
            drop_auto_titles(value)


def published_schema(model: type[BaseModel], title: str | None = None) -> JsonSchema:
    """Return *model*'s JSON Schema (draft 2020-12) with every reference inlined and no made-up titles."""
    raw = model.model_json_schema(mode="validation")
    schema: JsonSchema = _inline(raw, raw.get("$defs", {}))
    drop_auto_titles(schema)
    out: JsonSchema = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if title:
        schema["title"] = title
    out.update(schema)
    return out


# ------------------------------------------------------------------------------------------ validation

def json_path(loc: tuple[int | str, ...]) -> str:
    """Return a pydantic location as the contract's JSON path: ``("army", 2, "strength")`` -> ``army[2].strength``."""
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


_TYPES = {"int_type": "integer", "int_parsing": "integer", "string_type": "string", "bool_type": "boolean",
          "list_type": "array", "dict_type": "object", "model_type": "object", "float_type": "number",
          "model_attributes_type": "object"}
_JSON_NAMES = {"str": "str", "int": "int", "float": "float", "bool": "bool", "list": "list", "dict": "dict",
               "NoneType": "NoneType"}


def _message(error: ErrorDetails, value: Any) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "missing":
        return f"missing field {error['loc'][-1]!r}"
    if kind in _TYPES:
        return f"expected {_TYPES[kind]}, got {_JSON_NAMES.get(type(value).__name__, 'value')} {value!r}"
    if kind == "too_long" and isinstance(value, list | dict):
        return f"too many items ({len(value)}, at most {ctx.get('max_length')})"
    if kind == "too_short":
        return f"too few items ({ctx.get('actual_length')}, at least {ctx.get('min_length')})"
    if kind == "string_too_long" and isinstance(value, str):
        return f"text too long ({len(value)} characters, at most {ctx.get('max_length')})"
    if kind in ("literal_error", "enum"):
        return f"{value!r} is not one of {ctx.get('expected', '')}"
    if kind == "extra_forbidden":
        return f"unknown field {error['loc'][-1]!r}"
    if kind in ("greater_than_equal", "greater_than"):
        return f"{value!r} is out of range (at least {ctx.get('ge', ctx.get('gt'))})"
    if kind in ("less_than_equal", "less_than"):
        return f"{value!r} is out of range (at most {ctx.get('le', ctx.get('lt'))})"
    text = str(error.get("msg", "invalid value"))
    return text[:1].lower() + text[1:]


_RANGE = ("greater_than_equal", "greater_than", "less_than_equal", "less_than")


def value_at(data: Any, loc: tuple[int | str, ...]) -> Any:
    """Return the value of *data* at a pydantic error location, or ``None`` when it is not there."""
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _best(errors: list[ErrorDetails]) -> ErrorDetails:
    """Return the error to report: a length cap at once, else the deepest (then first) one."""
    for error in errors:
        if error["type"] == "too_long":
            return error
    return max(errors, key=lambda e: len(e["loc"]))


def unreadable(exc: ValidationError, data: Any) -> UnreadableInputError:
    """Return the contract's error for a failed validation of *data* (first error, path in our notation)."""
    error = _best(exc.errors(include_url=False, include_input=False))
    loc = tuple(p for p in error["loc"] if isinstance(p, int | str))
    if error["type"] == "runecodex":
        ctx = error.get("ctx") or {}
        field = ctx.get("field")
        return UnreadableInputError(str(ctx.get("message", "")), path=json_path((*loc, field) if field is not None
                                                                                else loc))
    message = _message(error, value_at(data, loc))
    names = [p for p in loc if isinstance(p, str)]
    if error["type"] in _RANGE and names:  # the refusal names the field as well as its path
        message = f"{names[-1].replace('_', ' ')} {message}"
    return UnreadableInputError(message if len(message) <= 300 else message[:297] + "...", path=json_path(loc))


def validate(model: type[Position], data: Any) -> Position:
    """Return *data* read as *model*, or raise :class:`UnreadableInputError` naming the first bad path."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise unreadable(exc, data) from None


__all__ = [
    "MAX_ITEMS",
    "Field",
    "Model",
    "OpenPosition",
    "Outcome",
    "Position",
    "choices",
    "drop_auto_titles",
    "labelled",
    "maybe",
    "published_schema",
    "refuse",
    "restate",
    "unreadable",
    "validate",
    "value_at",
]
