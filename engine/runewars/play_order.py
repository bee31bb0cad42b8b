"""Runewars play order: lowest Order card first, then most influence, then highest starting influence.

Paragraphs: ``rw.play-order`` and its criteria ``rw.play-order.1``/``.2``/``.3``, ``rw.resolve-order-cards`` (cards
resolve lowest number first, ties to the most influence) and the book's example ``rw.example-of-a-game-season``.

``tie_order`` settles a complete tie: the listed factions go first, in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Literal, Self

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.common import (
    FACTION_LABELS,
    GAME,
    Faction,
    faction_name,
    faction_names,
    plural,
    refuse_duplicates,
)


class Player(Model):
    """A player's standing for play order: his faction, active Order card (null if none revealed), influence."""

    faction: Faction
    order: int | None = Field(ge=1, le=8)
    influence: int = Field(ge=0, le=500)
    starting_influence: int = Field(ge=0, le=50)


class PlayOrderPosition(OpenPosition):
    """Every player's active Order card, influence and starting influence, and how a complete tie is settled."""

    game: Literal["runewars"]
    situation: Literal["play_order"]
    players: list[Player] = Field(min_length=1, max_length=4)
    tie_order: list[Faction] | None = maybe(max_length=4)

    def reading(self) -> list[str]:
        """Each player's Order card, influence and starting influence, and a stated tie order."""
        out = []
        for p in self.players:
            card = f"Order card #{p.order}" if p.order is not None else "no Order card revealed"
            out.append(f"{faction_name(p.faction)}: {card}, {plural(p.influence, 'influence token')}, starting "
                       f"influence {p.starting_influence}.")
        if self.tie_order:
            out.append(f"A complete tie is settled as: {', '.join(faction_name(f) for f in self.tie_order)}.")
        return out

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        refuse_duplicates([p.faction for p in self.players], "faction", "players")
        revealed = [p.order is not None for p in self.players]
        if any(revealed) and not all(revealed):
            raise refuse("either every player has a revealed Order card or none has",
                         f"players[{revealed.index(False)}].order")
        return self


class PlayOrderOutcome(Outcome):
    """The factions in play order."""

    order: list[Faction]


@rule("rw.play-order.1", "rw.resolve-order-cards")
def by_order_card(p: Player) -> int:
    """Return the first criterion: the lower the active Order card's number, the earlier the player acts."""
    return p.order or 0


@rule("rw.play-order.2")
def by_influence(p: Player) -> int:
    """Return the second criterion: among players still tied, the more influence tokens, the earlier."""
    return -p.influence


@rule("rw.play-order.3")
def by_starting_influence(p: Player) -> int:
    """Return the third criterion: among players still tied, the higher the faction's starting influence, the
    earlier."""
    return -p.starting_influence


@rule("rw.play-order")
def play_order(players: Sequence[Player]) -> list[Player]:
    """Return the players in play order; each criterion only breaks ties left by the one before (stable sort)."""
    return sorted(players, key=lambda p: (by_order_card(p), by_influence(p), by_starting_influence(p)))


LABELS: dict[str, Label] = {"order": ("Play order", FACTION_LABELS)}


def _summary(pos: PlayOrderPosition, out: PlayOrderOutcome, trace: Trace) -> str:
    """One sentence: the play order, and any tie the players still settle."""
    text = "Play order: " + ", ".join(faction_name(f) for f in out.order)
    for d in trace.decisions:
        text += f"; {faction_names(d.options)} still settle their tie"
    return text + "."


def _by_cards(ordered: Sequence[Player], trace: Trace) -> None:
    """First criterion: the lowest Order card acts first (by influence when no card is revealed)."""
    if all(p.order is not None for p in ordered):
        cards = ", ".join(f"{faction_name(p.faction)} #{p.order}" for p in ordered)
        trace.step(f"Lowest Order card first: {cards}.", by_order_card)
    else:
        trace.step("No Order card is revealed, so every player is ordered by influence.", by_influence)


def _on_starting_influence(tied: Sequence[Player], tie: Sequence[str], trace: Trace) -> None:
    """Third criterion, and a tie left on every criterion (settled by the stated order, or still open)."""
    trace.step(f"{faction_names([p.faction for p in tied])} also tie on influence ({tied[0].influence}): the "
               f"higher starting influence goes first "
               f"({', '.join(f'{faction_name(p.faction)} {p.starting_influence}' for p in tied)}).",
               by_starting_influence)
    for start, last in groupby(tied, key=by_starting_influence):
        still = [p.faction for p in last]
        if len(still) > 1 and sum(1 for f in still if f not in tie) > 1:
            trace.decide("players", f"the order of {faction_names(still)}, tied on every criterion (starting "
                         f"influence {-start}); the rules give no further tie-break", play_order,
                         options=still, field="tie_order")
        elif len(still) > 1:
            trace.step(f"The players settle the tie between {faction_names(still)} as stated: "
                       f"{', '.join(faction_name(f) for f in still)}.", play_order)


def _ties(ordered: Sequence[Player], tie: Sequence[str], trace: Trace) -> None:
    """Second criterion: among players on the same card, the most influence first."""
    for key, grp in groupby(ordered, key=by_order_card):
        group = list(grp)
        if len(group) < 2:
            continue
        label = f"#{key}" if key else "no Order card"
        trace.step(f"{faction_names([p.faction for p in group])} tie on {label}: the one with more influence "
                   f"goes first ({', '.join(f'{faction_name(p.faction)} {p.influence}' for p in group)}).",
                   by_influence)
        for _, sub in groupby(group, key=by_influence):
            tied = list(sub)
            if len(tied) > 1:
                _on_starting_influence(tied, tie, trace)


@situation(GAME, "play_order", PlayOrderPosition, labels=LABELS)
@summarized(_summary)
def resolve_play_order(pos: PlayOrderPosition, trace: Trace, corpus: Corpus) -> PlayOrderOutcome:
    """Order the players: lowest Order card first, ties to the most influence, then the highest starting influence."""
    tie = list(pos.tie_order or [])
    players = sorted(pos.players, key=lambda p: tie.index(p.faction) if p.faction in tie else len(tie))
    ordered = play_order(players)
    _by_cards(ordered, trace)
    _ties(ordered, tie, trace)
    order = [p.faction for p in ordered]
    trace.step(f"Play order: {', '.join(faction_name(f) for f in order)}.", play_order)
    return PlayOrderOutcome(order=order)
