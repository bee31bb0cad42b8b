"""Shared Runeslingers pieces: ailment vocabulary, a Runeslinger's standing and the power loss rules.

Paragraphs: ``rs.power-loss-conditions``, ``rs.gaining-determination``, ``rs.how-to-win-power``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core import Trace, rule
from engine.corpus import Corpus
from engine.schema import Schema, enum, integer

GAME = "runeslingers"
AILMENT_TYPES = ("burn", "debilitate", "curse", "fragment", "weaken", "insanity")
AILMENT: Schema = enum(*AILMENT_TYPES)
AILMENT_COUNTS: Schema = {"type": "object", "propertyNames": AILMENT, "additionalProperties": integer(0, 999)}
POWER: Schema = integer(1, 99)
DETERMINATION: Schema = integer(0, 999)


@dataclass(frozen=True)
class Standing:
    """A Runeslinger's power and determination, and the power lost while resolving."""

    power: int
    determination: int = 0
    power_lost: int = 0

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Standing:
        """Read ``power`` and ``determination`` (0 when absent) from a position or its target."""
        return cls(int(raw["power"]), int(raw.get("determination", 0)))

    def to_json(self, corpus: Corpus) -> dict[str, Any]:
        """Return the outcome fields ``power``, ``determination``, ``power_lost`` and ``defeated``."""
        return {"power": self.power, "determination": self.determination, "power_lost": self.power_lost,
                "defeated": is_defeated(self.power, corpus)}


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
