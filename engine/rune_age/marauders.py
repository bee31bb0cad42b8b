"""Rune Age, The Quest for Power's Event card Marauders: the order in which tied players choose their landmarks.

Paragraph: ``rafaq.oa.scenarios.the-quest-for-power.1`` (tied players choose counter-clockwise, starting with the
tied player nearest the first player's right, so a tied first player chooses last). The card's printed text is
not in the books: the players state who is tied and the landmarks left to choose from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse, refuse_repeats
from engine.rune_age.words import listing

FAQ = "rafaq.oa.scenarios.the-quest-for-power.1"


class MaraudersPlayer(Model):
    """A player, in clockwise order from the first player, whether Marauders ties him, and the landmark he picks."""

    model_config = ConfigDict(title="Player")

    player: str = Field(max_length=80, min_length=1, title="Player")
    tied: bool = Field(False, title="Tied on Marauders", description="One of the players the card ties.")
    landmark: str | None = maybe("The landmark he secures (left out: not chosen yet).", title="Landmark chosen",
                                 max_length=200)


class MaraudersPosition(OpenPosition):
    """Marauders resolved with tied players: the players from the first player clockwise, and the landmarks left."""

    game: Literal["rune-age"]
    situation: Literal["marauders"]
    players: list[MaraudersPlayer] = Field(min_length=1, max_length=4,
                                           title="Players, from the first player clockwise")
    landmarks: list[str] = Field([], max_length=20, title="Landmarks left to secure",
                                 description="By name (left empty: not listed, so no options are offered).")

    @model_validator(mode="after")
    def _valid(self) -> MaraudersPosition:
        """Refuse a player listed twice, a landmark picked by an untied player, twice, or not among those left."""
        refuse_repeats([p.player for p in self.players], "players[{i}].player", "player")
        picked: set[str] = set()
        for i, p in enumerate(self.players):
            if p.landmark is None:
                continue
            if not p.tied:
                raise refuse(f"{p.player} is not tied, so he does not choose a landmark", f"players[{i}].landmark")
            if p.landmark in picked:
                raise refuse(f"landmark {p.landmark!r} is chosen twice", f"players[{i}].landmark")
            if self.landmarks and p.landmark not in self.landmarks:
                raise refuse(f"landmark {p.landmark!r} is not among those left", f"players[{i}].landmark")
            picked.add(p.landmark)
        return self

    def reading(self) -> list[str]:
        """Restate the seating, who is tied and what each has chosen."""
        out = [f"Players, from the first player clockwise: {listing(p.player for p in self.players)}."]
        tied = [p.player + (f" (chose {p.landmark})" if p.landmark else "") for p in self.players if p.tied]
        out.append(f"Tied on Marauders: {listing(tied)}.")
        if self.landmarks:
            out.append(f"Landmarks left: {listing(self.landmarks)}.")
        return out


class MaraudersOutcome(Outcome):
    """The order in which the tied players choose, and the landmark each has secured so far."""

    order: list[str] = Field(default_factory=list)
    secured: dict[str, str] = Field(default_factory=dict)


LABELS: dict[str, Label] = {"order": "Tied players choose, in order", "secured": "Landmarks secured"}


@rule(FAQ)
def counter_clockwise_order(seats: Sequence[str], tied: Sequence[str]) -> list[str]:
    """Return the tied players in choosing order: counter-clockwise from the first player's right, so a tied first
    player chooses last. *seats* run clockwise from the first player."""
    ring = [*reversed(seats[1:]), *seats[:1]]
    return [s for s in ring if s in tied]


def _summary(pos: MaraudersPosition, out: MaraudersOutcome, trace: Trace) -> str:
    """One sentence: who chooses next, or the whole order."""
    pending = next((d for d in trace.decisions), None)
    if pending:
        return f"{pending.who} chooses his landmark next; the tied players go {listing(out.order)}."
    if not out.order:
        return "No player is tied, so nobody chooses a landmark in turn."
    return f"The tied players chose in the order {listing(out.order)}."


@situation("rune-age", "marauders", MaraudersPosition, labels=LABELS)
@summarized(_summary)
@rule(FAQ)
def resolve_marauders(pos: MaraudersPosition, trace: Trace, corpus: Corpus) -> MaraudersOutcome:
    """Resolve the tied players' choice of landmarks on Marauders: counter-clockwise from the first player's right."""
    seats = [p.player for p in pos.players]
    tied = [p.player for p in pos.players if p.tied]
    out = MaraudersOutcome(order=counter_clockwise_order(seats, tied))
    if not tied:
        trace.step("No player is tied on Marauders: there is no order of choosing to settle.", FAQ)
        return out
    first = seats[0]
    last = f"; {first}, the first player, is tied and so chooses last" if first in tied and len(tied) > 1 else ""
    trace.step(f"Tied players secure landmarks going counter-clockwise, starting with the tied player seated "
               f"nearest the first player's right: {listing(out.order)}{last}.", FAQ)
    by_name = {p.player: (i, p) for i, p in enumerate(pos.players)}
    for name in out.order:
        i, p = by_name[name]
        if p.landmark is None:
            left = [m for m in pos.landmarks if m not in out.secured.values()]
            trace.decide(name, "the landmark he secures", FAQ, options=left, field=f"players[{i}].landmark")
            return out
        out.secured[name] = p.landmark
        trace.step(f"{name} secures {p.landmark}.", FAQ)
    return out
