"""Old schema pieces, kept only while the Runeslingers situations are converted to typed models.
end_of_turn): labelled fields for the generated board forms, card types and keywords.

Every field carries a ``title`` and, where it helps, a ``description`` and a ``default`` (an optional boolean
defaults to false, an optional list or object to empty, as CONTRACT.md says), so the board's form generator
can label it without knowing the situation.

Keywords are lower-case strings; numbered ones carry their number (``"token 2"``, ``"ail 2"``). Positions may
write them in any case and with extra spaces: :func:`keyword_key` normalizes them before any rule reads them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import UnreadableInputError
from engine.runeslingers.common import AILMENT_TYPES
from engine.schema import BOOL, Schema, arr, enum, integer, text

AILMENT: Schema = enum(*AILMENT_TYPES)
AILMENT_COUNTS: Schema = {"type": "object", "propertyNames": AILMENT, "additionalProperties": integer(0, 999)}
POWER: Schema = integer(1, 99)
DETERMINATION: Schema = integer(0, 999)

CARD_TYPES = ("runespell", "trinket", "chant", "boon")
KEYWORD_PATTERN = r"^\s*[A-Za-z][A-Za-z-]*(\s+[0-9]{1,2})?\s*$"
_NUMBERED = re.compile(r"^([a-z][a-z-]*)(?:\s+([0-9]{1,2}))?$")


def doc(schema: Schema, title: str, description: str | None = None, **extra: Any) -> Schema:
    """Return *schema* with a form label (``title``), an optional ``description`` and extra keys (``default``)."""
    out: Schema = {**schema, "title": title}
    if description:
        out["description"] = description
    out.update(extra)
    return out


def flag(title: str, description: str) -> Schema:
    """Return an optional yes/no field that defaults to false."""
    return doc(BOOL, title, description, default=False)


PLAYER: Schema = doc(text(80), "Player", "The player's name, e.g. Emily.")
CARD_TYPE: Schema = doc(enum(*CARD_TYPES), "Card type",
                        "Runespell (spirit, utility or attack card), or a defense card: trinket, chant or boon.")
KEYWORD: Schema = doc({"type": "string", "maxLength": 30, "pattern": KEYWORD_PATTERN}, "Keyword",
                      "As printed, lower case; numbered keywords carry their number: fate, choice, distract, charge, "
                      "use, quick, shout, pierce, token 2, ail 2.")
KEYWORDS: Schema = doc({**arr(KEYWORD, max_items=3), "uniqueItems": True}, "Keywords (printed)",
                       "The keywords on the card's keyword bar, left to right (at most 3).", default=[])
ADDED_KEYWORDS: Schema = doc(arr(KEYWORD, max_items=10), "Keywords added by effects",
                             "Keywords effects have given the card, in the order they were added.", default=[])
AILMENTS: Schema = doc(AILMENT_COUNTS, "Ailments", "Instances of each ailment type, e.g. {\"burn\": 5}.", default={})


def keyword_key(raw: str) -> str:
    """Return a keyword in its normal form: lower case, one space before its number (``"Token  2"`` → ``"token 2"``)."""
    return " ".join(raw.split()).lower()


def keyword_parts(keyword: str) -> tuple[str, int | None]:
    """Return (name, number) of a normalized keyword: ``"ail 2"`` → ``("ail", 2)``, ``"fate"`` → ``("fate", None)``."""
    m = _NUMBERED.match(keyword)
    if m is None:  # the schema's pattern admits only this shape; kept for callers outside resolve
        raise UnreadableInputError(f"{keyword!r} is not a keyword (a word, optionally followed by a number)",
                                   path="card.keywords")
    return m.group(1), int(m.group(2)) if m.group(2) is not None else None


def keywords_of(card: Mapping[str, Any]) -> list[str]:
    """Return the card's printed keywords, normalized, left to right."""
    return [keyword_key(k) for k in card.get("keywords", [])]


def unique_ids(items: Sequence[Mapping[str, Any]], key: str, path: str) -> None:
    """Raise :class:`UnreadableInputError` when two entries of *items* share the same *key*."""
    seen: set[str] = set()
    for i, item in enumerate(items):
        value = item[key]
        if value in seen:
            raise UnreadableInputError(f"two entries share the {key} {value!r}; give each its own {key}",
                                       path=f"{path}[{i}].{key}")
        seen.add(value)


def ailment_list(counts: Mapping[str, int]) -> dict[str, int]:
    """Return the ailments with at least 1 instance, in the book's order."""
    return {t: int(counts[t]) for t in AILMENT_TYPES if counts.get(t, 0) > 0}
