"""Read a JSON document a user gave us (``runecodex resolve FILE``), refusing what no position holds.

JSON can carry values Python turns into trouble later: nesting deep enough to exhaust the stack,
integers beyond 4,300 digits (``int`` refuses to convert them), ``NaN``/``Infinity`` and numbers such
as ``1e400`` that overflow to infinity, and strings with a lone surrogate (``"\\ud800"``: not Unicode,
cannot be printed or sent back). :func:`parse` refuses each with an
:class:`~engine.errors.UnreadableInputError` naming the JSON path of the offending value, in the
notation of every other error (``army[2].name``). The check is iterative and linear in the input.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from engine.errors import UnreadableInputError

MAX_DEPTH = 32  # nesting levels: far beyond any position's structure
MAX_INTEGER = 2**53 - 1  # the largest integer a browser's JSON reads exactly
_LONG_DIGITS = 17  # integer literals longer than this are refused before conversion


@dataclass(frozen=True)
class _Bad:
    """A value the parser met and refused; reported with its path once the document is read."""

    why: str


def _parse_int(text: str) -> int | _Bad:
    digits = len(text.lstrip("-"))
    if digits > _LONG_DIGITS:
        return _Bad(f"the integer with {digits} digits is too large (at most {MAX_INTEGER})")
    return int(text)


def _parse_float(text: str) -> float | _Bad:
    value = float(text)
    if not math.isfinite(value):
        return _Bad(f"the number {text[:40]} is too large (numbers must be finite)")
    return value


def _parse_constant(text: str) -> _Bad:
    return _Bad(f"{text} is not a number a position can hold (numbers must be finite)")


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _join(path: str, part: str | int) -> str:
    if isinstance(part, int):
        return f"{path}[{part}]"
    return f"{path}.{part}" if path else part


def check(value: Any) -> None:
    """Raise :class:`UnreadableInputError` (with the JSON path) at the first value no position may hold.

    Numbers that are not finite, integers beyond ``MAX_INTEGER``, text with a lone surrogate and nesting
    deeper than ``MAX_DEPTH``. Iterative (no recursion), linear in the size of the value.
    """
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, _Bad):
            raise UnreadableInputError(item.why, path=path)
        if isinstance(item, str):
            if not _is_unicode(item):
                raise UnreadableInputError("text must be valid unicode (it holds a lone surrogate)", path=path)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if abs(item) > MAX_INTEGER:
                raise UnreadableInputError(f"the integer {item} is too large (at most {MAX_INTEGER})", path=path)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise UnreadableInputError("numbers must be finite", path=path)
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise UnreadableInputError(f"the document is nested too deeply (at most {MAX_DEPTH} levels)",
                                           path=path)
            if isinstance(item, dict):
                for key, child in item.items():
                    if not _is_unicode(key):
                        raise UnreadableInputError("a field name must be valid unicode (it holds a lone "
                                                   "surrogate)", path=path)
                    stack.append((child, _join(path, key), depth + 1))
            else:
                stack.extend((child, _join(path, i), depth + 1) for i, child in enumerate(item))


def parse(text: str) -> Any:
    """Return the JSON value of *text*, or raise :class:`UnreadableInputError` (malformed JSON at path ``""``)."""
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise UnreadableInputError(f"not valid JSON: {exc.msg.lower()} at line {exc.lineno} column {exc.colno}",
                                   path="") from None
    except RecursionError:
        raise UnreadableInputError(f"the document is nested too deeply (at most {MAX_DEPTH} levels)",
                                   path="") from None
    except ValueError as exc:
        raise UnreadableInputError(f"not valid JSON: {str(exc).lower()}", path="") from None
    check(value)
    return value


def parse_bytes(body: bytes, what: str = "the request body") -> Any:
    """Return the JSON value of UTF-8 *body* (a request body), refused as :func:`parse` refuses."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableInputError(f"{what} is not UTF-8 text", path="") from None
    if not text.strip():
        raise UnreadableInputError(f"{what} is empty: send one JSON position", path="")
    return parse(text)
