"""Generate positions from a situation's JSON Schema, mutate them with hostile values, check the answers.

hypothesis-jsonschema does not run with the pinned hypothesis, and the engine's schemas use a small
subset of JSON Schema (as ``engine/model.py`` publishes it from the typed models), so :func:`from_schema`
covers that subset: objects with required and optional properties, arrays (``items``/``prefixItems``,
lengths), integers with bounds, strings with lengths and patterns, enums, consts, ``anyOf``/``oneOf``/``allOf``,
``$ref`` into ``$defs``.
Generated positions are mostly valid, so the resolvers run deep; :func:`mutate` then replaces a few
nodes with values the schema forbids or an attacker would send (``2.0`` for an integer, ``1e308``,
huge integers, lone surrogates, deep nesting, wrong types), so validation is fuzzed as well.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import strategies as st

Schema = Mapping[str, Any]
MAX_ARRAY = 6

HOSTILE: list[Any] = [
    2.0, 1e308, -1e308, 0.5, -1, 0, 10**6, 2**53, 2**64, -(2**63), "\ud800", "x" * 300, "", " ",
    "<script>alert(1)</script>", None, True, False, [], {}, [[[[[[]]]]]], {"a": {"b": {"c": {}}}},
    "💥", "\u0000", [None] * 30, {"\ud800": 1},
]


def _type_of(schema: Schema) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        return next((k for k in kind if k != "null"), kind[0] if kind else None)
    return kind if isinstance(kind, str) else None


def from_schema(schema: Schema, root: Schema | None = None) -> st.SearchStrategy[Any]:
    """Return a strategy of values of *schema* (mostly valid; ``if``/``then`` and ``not`` are ignored)."""
    root = root or schema
    if "$ref" in schema:
        ref = str(schema["$ref"])
        target: Any = root
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        return from_schema(target, root)
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([from_schema(s, root) for s in schema[key]])
    if "allOf" in schema:
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            for k, v in part.items():
                if k == "properties":
                    merged["properties"] = {**merged.get("properties", {}), **v}
                elif k == "required":
                    merged["required"] = [*merged.get("required", []), *v]
                else:
                    merged.setdefault(k, v)
        return from_schema(merged, root)
    kind = _type_of(schema)
    if kind == "object" or (kind is None and "properties" in schema):
        return _object(schema, root)
    if kind == "array":
        return _array(schema, root)
    if kind == "integer":
        lo, hi = schema.get("minimum"), schema.get("maximum")
        return st.integers(lo if lo is not None else -5, hi if hi is not None else max(lo or 0, 0) + 30)
    if kind == "number":
        return st.floats(schema.get("minimum", -100), schema.get("maximum", 100), allow_nan=False)
    if kind == "string":
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True).filter(
                lambda s: len(s) <= schema.get("maxLength", 200))
        return st.text(min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 40), 40))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=10)


def _object(schema: Schema, root: Schema) -> st.SearchStrategy[dict[str, Any]]:
    props: Mapping[str, Schema] = schema.get("properties", {})
    required = set(schema.get("required", []))
    fixed = {k: from_schema(v, root) for k, v in props.items() if k in required}
    optional = {k: from_schema(v, root) for k, v in props.items() if k not in required}
    base = st.fixed_dictionaries(fixed, optional=optional)
    pattern = next(iter(schema.get("patternProperties", {}).items()), None)
    names = schema.get("propertyNames")
    extra = schema.get("additionalProperties")
    if pattern is not None or (isinstance(extra, dict) and extra):
        key_strategy: st.SearchStrategy[str] = (
            st.from_regex(pattern[0], fullmatch=True) if pattern is not None
            else from_schema(names, root) if isinstance(names, dict) else st.text(min_size=1, max_size=12))
        value_schema: Schema = pattern[1] if pattern is not None else extra or {}
        more = st.dictionaries(key_strategy, from_schema(value_schema, root), max_size=4)
        return st.tuples(base, more).map(lambda pair: {**pair[1], **pair[0]})
    return base


def _array(schema: Schema, root: Schema) -> st.SearchStrategy[list[Any]]:
    lo = int(schema.get("minItems", 0))
    hi = min(int(schema.get("maxItems", lo + MAX_ARRAY)), lo + MAX_ARRAY)
    prefix = schema.get("prefixItems")
    items = schema.get("items", {})
    if prefix:
        head = st.tuples(*(from_schema(s, root) for s in prefix)).map(list)
        if items is False:
            return head
        return st.tuples(head, st.lists(from_schema(items or {}, root), max_size=max(0, hi - len(prefix)))).map(
            lambda pair: pair[0] + pair[1])
    return st.lists(from_schema(items, root), min_size=lo, max_size=max(lo, hi),
                    unique_by=(lambda v: json.dumps(v, sort_keys=True)) if schema.get("uniqueItems") else None)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _nodes(v, (*path, i))
    return out


def mutate(position: Any, rnd: random.Random, count: int = 1) -> Any:
    """Return a copy of *position* with *count* nodes replaced, dropped or given a hostile sibling."""
    value = json.loads(json.dumps(position))
    for _ in range(count):
        value = json.loads(json.dumps(value))  # no shared sub-objects: a mutation changes one node
        paths = [p for p in _nodes(value) if p]
        if not paths:
            return rnd.choice(HOSTILE)
        path = rnd.choice(paths)
        parent = value
        for part in path[:-1]:
            parent = parent[part]
        action = rnd.random()
        if action < 0.7:
            parent[path[-1]] = json.loads(json.dumps(rnd.choice(HOSTILE)))
        elif action < 0.85 and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, list):
            if len(json.dumps(value)) < 20_000:
                parent.extend([parent[path[-1]]] * rnd.choice([1, 50, 250]))  # over the length caps
        else:
            parent[rnd.choice(["extra", "ui_layout", "\ud800", "__proto__"])] = rnd.choice(HOSTILE)
    return value


def encode(value: Any) -> bytes:
    """Return *value* as the JSON bytes a client would send (lone surrogates as ``\\ud800`` escapes)."""
    return json.dumps(value, ensure_ascii=True).encode()


def _no_constants(text: str) -> Any:
    raise ValueError(f"{text} in the answer")


def check_answer(status: int, body: bytes, sent: bytes) -> dict[str, Any]:
    """Assert the contract of ``/api/resolve``: 200 with a ruling or 400/413 with an error, strict JSON."""
    assert status in (200, 400, 413), (status, body[:300], sent[:300])
    data = json.loads(body.decode("utf-8"), parse_constant=_no_constants)  # no NaN/Infinity, valid UTF-8
    assert isinstance(data, dict), body[:200]
    if status == 200:
        assert {"game", "situation", "legal", "outcome", "steps", "cites", "sources", "links"} <= set(data), data
        assert all(step["cites"] for step in data["steps"]), data["steps"]
    else:
        assert set(data) == {"error", "path"} and isinstance(data["path"], str), data
    return data


Post = Callable[[bytes], tuple[int, bytes]]


class Counter:
    """Count the requests a fuzz run sent, by answer status."""

    def __init__(self) -> None:
        self.by_status: dict[int, int] = {}

    @property
    def total(self) -> int:
        """Return the number of requests sent."""
        return sum(self.by_status.values())

    def post(self, post: Post, body: bytes) -> None:
        """Send *body*, check the answer and count it."""
        status, answer = post(body)
        check_answer(status, answer, body)
        self.by_status[status] = self.by_status.get(status, 0) + 1
