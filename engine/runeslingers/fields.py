"""Typed fields shared by the Runeslingers situations added in 0.2 (pay_cost, boons, keyword, trigger_order,
end_of_turn): players, card types and keywords, labelled for the generated board forms.

Every field carries a ``title`` and, where it helps, a ``description`` and a ``default`` (an optional boolean
defaults to false, an optional list or object to empty, as CONTRACT.md says), so the board's form generator
can label it without knowing the situation.

Keywords are the book's (an enum with player-word labels); numbered ones carry their number (``"token 2"``,
``"ail 2"``). Positions may write them in any case and with extra spaces (:func:`keyword_key` normalizes them
while reading); any other word is unreadable input naming its path.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BeforeValidator

from engine.errors import UnreadableInputError
from engine.model import Field, labelled, refuse
from engine.runeslingers.common import AILMENT_TYPES, Ailment

CardType = Literal["runespell", "trinket", "chant", "boon"]
CARD_TYPE_HINT = "Runespell (spirit, utility or attack card), or a defense card: trinket, chant or boon."
_NUMBERED = re.compile(r"^([a-z][a-z-]*)(?:\s+([0-9]{1,2}))?$")

KeywordWord = Literal["fate", "choice", "distract", "charge", "use", "quick", "shout", "pierce",
                      "token 1", "token 2", "token 3", "token 4", "token 5", "token 6", "token 7", "token 8",
                      "token 9", "ail 1", "ail 2", "ail 3", "ail 4", "ail 5", "ail 6", "ail 7", "ail 8", "ail 9"]
KEYWORDS: tuple[str, ...] = get_args(KeywordWord)
"""The book's keywords; Token X and Ail X carry their number."""
KEYWORD_WORDS: dict[str, str] = {k: k.title() for k in KEYWORDS}

Name = Annotated[str, Field(max_length=200)]
Player = Annotated[str, Field(max_length=80)]


def _keyword_word(value: Any) -> Any:
    """Read a keyword in any case and spacing (``"Token  2"`` is ``token 2``); refuse a word the book does not
    have as a keyword (its path is the keyword's)."""
    if not isinstance(value, str):
        return value
    key = keyword_key(value)
    if key in ("token", "ail"):
        raise refuse(f"{key!r} needs its number, e.g. '{key} 2'")
    if key not in KEYWORDS:
        raise refuse(f"{value[:40]!r} is not a keyword of the book (fate, choice, distract, charge, use, quick, "
                     "shout, pierce, token 1 to 9, ail 1 to 9)")
    return key


Keyword = Annotated[KeywordWord, BeforeValidator(_keyword_word),
                    Field(title="Keyword", description="As printed on the keyword bar; Token X and Ail X carry "
                                                       "their number.",
                          json_schema_extra=labelled(KEYWORD_WORDS))]


def _distinct(values: list[str]) -> list[str]:
    """Refuse a keyword bar naming one keyword twice (in any case or spacing: each is printed once)."""
    if first_repeat(keywords_of(values)) is not None:
        raise refuse("a card is printed with different keywords; one is listed twice")
    return values


PrintedKeywords = Annotated[list[Keyword], AfterValidator(_distinct)]


def player(title: str = "Player", description: str = "The player's name, e.g. Emily.") -> Any:
    """Return the ``Field`` of a required player's name."""
    return Field(title=title, description=description)


def flag(title: str, description: str) -> Any:
    """Return an optional yes/no field that defaults to false."""
    return Field(False, title=title, description=description)


def card_type() -> Any:
    """Return the ``Field`` of a card's type (runespell or a defense card)."""
    return Field(title="Card type", description=CARD_TYPE_HINT)


def printed_keywords() -> Any:
    """Return the ``Field`` of a card's printed keywords (at most 3, each once)."""
    return Field([], max_length=3, title="Keywords (printed)",
                 description="The keywords on the card's keyword bar, left to right (at most 3).",
                 json_schema_extra={"uniqueItems": True})


def added_keywords() -> Any:
    """Return the ``Field`` of the keywords effects gave a card."""
    return Field([], max_length=10, title="Keywords added by effects",
                 description="Keywords effects have given the card, in the order they were added.")


def ailments(title: str = "Ailments", description: str = "Instances of each ailment type, e.g. {\"burn\": 5}.",
             **extra: Any) -> Any:
    """Return the ``Field`` of an ``{ailment: instances}`` map that defaults to empty."""
    return Field(default_factory=dict, title=title, description=description, **extra)


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


def keywords_of(printed: Iterable[str]) -> list[str]:
    """Return a card's printed keywords, normalized, left to right."""
    return [keyword_key(k) for k in printed]


def first_repeat(values: Sequence[str]) -> int | None:
    """Return the index of the first value already seen earlier in *values*, or None when all differ."""
    seen: set[str] = set()
    for i, value in enumerate(values):
        if value in seen:
            return i
        seen.add(value)
    return None


def unique_ids(values: Sequence[str], key: str, path: str) -> None:
    """Refuse (in a model validator) two entries of the list at *path* sharing the same *key*."""
    i = first_repeat(values)
    if i is not None:
        raise refuse(f"two entries share the {key} {values[i]!r}; give each its own {key}", f"{path}[{i}].{key}")


def ailment_list(counts: Mapping[Ailment, int]) -> dict[str, int]:
    """Return the ailments with at least 1 instance, in the book's order."""
    return {t: int(counts[t]) for t in AILMENT_TYPES if counts.get(t, 0) > 0}
