"""RuneWars Miniatures morale in an attack: the test's severity from morale icons and panic tokens spent.

Paragraphs: ``rwm.10.11``, ``rwm.52.1``, ``rwm.53.1``-``rwm.53.3`` (severity, drawing and choosing a card,
panic tokens spent first), ``rwm.12.1.b3`` (panic), ``rwm.65.3`` (shooting into a melee tests allied units).
"""

from __future__ import annotations

from engine.core import rule
from engine.corpus import Corpus


@rule("rwm.10.11", "rwm.52.1", "rwm.53.2")
def attack_severity(morale_icons: int, panic_spent: int, corpus: Corpus) -> int:
    """Return the morale test's severity: 1 per morale icon spent plus 1 per panic token spent."""
    return (morale_icons * int(corpus.fact("rwm.52.1", "severity_per_morale_icon"))
            + panic_spent * int(corpus.fact("rwm.52.1", "severity_per_panic_token")))


@rule("rwm.12.1.b3", "rwm.10.11")
def can_spend_panic(spent: int, available: int | None) -> bool:
    """Return whether the attacker may spend that many of the defender's panic tokens (not more than held)."""
    return available is None or spent <= available


@rule("rwm.65.3")
def shooting_into_melee_severity(corpus: Corpus) -> int:
    """Return the severity of the test each allied unit engaged with the target suffers after the shot (1)."""
    return int(corpus.fact("rwm.65.3", "allied_morale_test_severity"))
