"""Shared Runeslingers pieces: ailment vocabulary, a Runeslinger's standing and the power loss rules.

Paragraphs: ``rs.power-loss-conditions``, ``rs.gaining-determination``, ``rs.how-to-win-power``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, get_args

from pydantic import BeforeValidator

from engine.core import Trace, rule
from engine.corpus import Corpus
from engine.model import Field, refuse

GAME = "runeslingers"
Ailment = Literal["burn", "debilitate", "curse", "fragment", "weaken", "insanity"]
AILMENT_TYPES: tuple[Ailment, ...] = get_args(Ailment)


def _known_ailments(value: Any) -> Any:
    """Refuse an ailment map naming a type the book does not have (the path is the map itself)."""
    if isinstance(value, dict):
        for key in value:
            if key not in AILMENT_TYPES:
                raise refuse(f"{key!r} is not one of {', '.join(map(repr, AILMENT_TYPES))}")
    return value


AilmentCounts = Annotated[dict[Ailment, Annotated[int, Field(ge=0, le=999)]], BeforeValidator(_known_ailments)]
"""Instances of each ailment type, ``{"burn": 5}``."""
Power = Annotated[int, Field(ge=1, le=99)]
Determination = Annotated[int, Field(ge=0, le=999)]


@dataclass(frozen=True)
class Standing:
    """A Runeslinger's power and determination, and the power lost while resolving."""

    power: int
    determination: int = 0
    power_lost: int = 0

    def values(self, corpus: Corpus) -> tuple[int, int, int, bool]:
        """Return the outcome fields (``power``, ``determination``, ``power_lost``, ``defeated``)."""
        return self.power, self.determination, self.power_lost, is_defeated(self.power, corpus)


@rule("rs.how-to-win-power", "rs.anatomy-of-a-runeslinger.power")
def is_defeated(power: int, corpus: Corpus) -> bool:
    """Return whether a Runeslinger is defeated: it has lost all of its power."""
    return power <= int(corpus.fact("rs.how-to-win-power", "defeated_at_power"))


@rule("rs.power-loss-conditions", "rs.gaining-determination")
def lose_power(standing: Standing, corpus: Corpus) -> Standing:
    """Return the standing after losing a power: 1 power less and 1 determination more per power lost."""
    gain = int(corpus.fact("rs.gaining-determination", "determination_per_power_lost"))
    return replace(standing, power=standing.power - 1, determination=standing.determination + gain,
                   power_lost=standing.power_lost + 1)


def record_power_loss(standing: Standing, why: str, trace: Trace, corpus: Corpus,
                      *cites: str | Callable[..., Any]) -> Standing:
    """Lose a power for *why*, recording the step (and the defeat when it was the last power)."""
    after = lose_power(standing, corpus)
    trace.step(f"{why}: the Runeslinger loses a power ({standing.power} → {after.power}) and gains a "
               f"determination ({standing.determination} → {after.determination}).", *cites, lose_power)
    if is_defeated(after.power, corpus):
        trace.step("That was the last power: the Runeslinger is defeated and the encounter is over.",
                   is_defeated)
    return after


def total(counts: Mapping[str, int]) -> int:
    """Return the number of ailment instances in an ``{ailment: instances}`` map."""
    return sum(counts.values())


def types_present(counts: Mapping[str, int]) -> list[str]:
    """Return the ailment types with at least 1 instance, in the book's order."""
    return [t for t in AILMENT_TYPES if counts.get(t, 0) > 0]


def describe(counts: Mapping[str, int]) -> str:
    """Return ``5 burn, 3 curse`` (or ``none``)."""
    return ", ".join(f"{counts[t]} {t}" for t in types_present(counts)) or "none"


def plural(n: int, word: str, many: str | None = None) -> str:
    """Return ``"1 card"`` / ``"3 cards"`` (*many* for an irregular plural)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def joined(items: Sequence[str]) -> str:
    """Return items joined for a sentence: ``a``, ``a and b``, ``a, b and c`` (``nothing`` when empty)."""
    items = list(items)
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def agree(n: int, one: str, many: str) -> str:
    """Return the verb agreeing with a count: ``agree(1, "is", "are")`` -> ``"is"``."""
    return one if n == 1 else many


def ailment_words(counts: Mapping[Any, int] | None) -> str:
    """Return ailments as a player says them: ``5 Burn and 3 Curse`` (``none`` when there are none)."""
    counts = counts or {}
    return joined([f"{counts[t]} {t.title()}" for t in types_present(counts)]) if types_present(counts) else "none"


def standing_words(power: int, determination: int | None) -> str:
    """Return ``5 power and 0 determination`` (determination 0 when unstated)."""
    return f"{power} power and {determination or 0} determination"


def keyword_words(keys: Sequence[str]) -> str:
    """Return keywords as printed: ``keywords Token 2, Shout and Quick``, ``keyword Fate``, ``no keyword``."""
    if not keys:
        return "no keyword"
    return f"{agree(len(keys), 'keyword', 'keywords')} {joined([k.title() for k in keys])}"
