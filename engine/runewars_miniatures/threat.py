"""RuneWars Miniatures threat: trays of the contacted edge in melee, of the front edge at range, plus Brutal.

Paragraphs: ``rwm.82.1`` with its bullets (several contacted edges; a partial rank on the side or rear edge,
the side case being contested), ``rwm.82.2`` (ranged), ``rwm.45.1`` (Brutal X).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import rule
from engine.runewars_miniatures.common import Formation, plural


class StepWriter(Protocol):
    """Where a rule writes its step: a ruling's trace, or the attack's printed step being gathered."""

    def step(self, text: str, *cites: str | Callable[..., Any]) -> None:
        """Record a step citing paragraph ids or @rule functions."""

SIDE_CONTESTED = ("rwm.82.1.b2.side", "rwm.66.4")


@dataclass(frozen=True)
class Contact:
    """How the attacker touches the defender: its contacted edge and which of its trays are touched."""

    edge: str
    touching_partial_rank: bool = False
    touching_other_trays: bool = False

    @property
    def touching_only_partial_rank(self) -> bool:
        """Return whether the defender touches trays of the partial rank and no other (rear-edge case)."""
        return self.touching_partial_rank and not self.touching_other_trays


@rule("rwm.82.1", "rwm.82.1.b2.side", "rwm.82.1.b2.rear")
def melee_base_threat(formation: Formation, contact: Contact) -> int:
    """Return the melee threat before Brutal: the number of trays that make up the contacted edge.

    Front edge: the trays of the front rank. Side edge: one tray per rank; with a partial rank that the
    defender does not touch, every rank except the partial one (the engine's reading of the contested
    82.1 side case), else every rank. Rear edge: the front rank's trays, or only the partial rank's trays
    when the defender touches nothing else.
    """
    if contact.edge == "front":
        return formation.front
    if contact.edge == "side":
        if formation.has_partial_rank and not contact.touching_partial_rank:
            return formation.depth - 1
        return formation.depth
    if formation.has_partial_rank and contact.touching_only_partial_rank:
        return formation.ranks[-1]
    return formation.front


@rule("rwm.82.2")
def ranged_base_threat(formation: Formation) -> int:
    """Return the ranged threat before Brutal: the trays that make up the front edge, whatever the shape."""
    return formation.front


@rule("rwm.45.1")
def with_brutal(threat: int, brutal: int) -> int:
    """Return the threat while attacking with Brutal X: increased by X."""
    return threat + brutal


@rule("rwm.82.1", "rwm.34.3", "rwm.82.1.b2", "rwm.82.1.b2.side", "rwm.82.1.b2.rear")
def explain_melee(formation: Formation, contact: Contact, trace: StepWriter) -> int:
    """Work out the melee threat before Brutal, recording the step and the rule case that decides it."""
    base = melee_base_threat(formation, contact)
    shape = formation.describe()
    if contact.edge == "front":
        trace.step(f"Threat (melee, front edge): the contacted edge is the front edge, made of the "
                   f"{plural(formation.front, 'tray')} of the front rank (formation {shape}): threat {base}.",
                   "rwm.82.1", "rwm.34.3")
    elif contact.edge == "side" and not formation.has_partial_rank:
        trace.step(f"Threat (melee, side edge): a side edge is made of 1 tray per rank; formation {shape} "
                   f"has {plural(formation.depth, 'rank')}: threat {base}.", "rwm.82.1", "rwm.34.3")
    elif contact.edge == "side" and contact.touching_partial_rank:
        trace.step(f"Threat (melee, side edge, partial rank touched): the defender touches a tray of the "
                   f"partial rank, so threat is every rank including the partial one: {base}.",
                   "rwm.82.1.b2", "rwm.82.1.b2.side")
    elif contact.edge == "side":
        trace.step("Threat (melee, side edge, partial rank not touched): threat is the number of full "
                   "ranks. This rule is contested: read literally with 66.4 (the front rank is neither full "
                   f"nor partial) it would be {formation.full_ranks_behind_front}; the corpus note settles "
                   f"on every rank except the partial one, the front rank included: threat {base}.",
                   "rwm.82.1.b2", *SIDE_CONTESTED)
    elif not formation.has_partial_rank:
        trace.step(f"Threat (melee, rear edge): the back edge of formation {shape} is made of "
                   f"{plural(formation.ranks[-1], 'tray')}: threat {base}.", "rwm.82.1", "rwm.34.3")
    elif contact.touching_only_partial_rank:
        trace.step("Threat (melee, rear edge): the defender touches only trays of the partial rank, so "
                   f"threat is that rank's {plural(formation.ranks[-1], 'tray')}: {base}.",
                   "rwm.82.1.b2", "rwm.82.1.b2.rear")
    else:
        trace.step("Threat (melee, rear edge): the defender does not touch only the partial rank, so "
                   f"threat is the front rank's {plural(formation.front, 'tray')}: {base}.",
                   "rwm.82.1.b2", "rwm.82.1.b2.rear")
    return base
