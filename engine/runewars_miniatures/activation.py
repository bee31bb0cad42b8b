"""RuneWars Miniatures activation order: lowest initiative first, equal initiatives alternate.

Paragraphs: ``rwm.6.1`` (counting out initiative, alternating 1 unit at a time, first player first),
``rwm.6.2`` (no action selected: initiative 10), ``rwm.44.3``/``rwm.44.4`` (ascending order, ties alternate),
``rwm.40.2`` (the first player starts a tie).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, refuse
from engine.runewars_miniatures.common import GAME, Game, Name


class Unit(Model):
    """A unit waiting to activate: its owner, name and initiative (null when no action was chosen)."""

    player: Name
    name: Name
    initiative: int | None = Field(ge=1, le=10)


class ActivationPosition(OpenPosition):
    """The units of both players with the initiative of the action each chose, and who is first player."""

    game: Game
    situation: Literal["activation_order"]
    first_player: Name
    units: list[Unit] = Field(max_length=60)


    def reading(self) -> list[str]:
        """Return who is first player and each player's units with the initiative of their chosen action."""
        out = [f"First player: {self.first_player}."]
        players = list(dict.fromkeys([self.first_player, *(u.player for u in self.units)]))
        for player in players:
            units = [u for u in self.units if u.player == player]
            if units:
                out.append(f"{player}: " + ", ".join(
                    f"{u.name} (initiative {u.initiative})" if u.initiative is not None
                    else f"{u.name} (no action chosen)" for u in units) + ".")
        return out
    @model_validator(mode="after")
    def _two_players(self) -> ActivationPosition:
        others = list(dict.fromkeys(u.player for u in self.units if u.player != self.first_player))
        if len(others) > 1:
            raise refuse(f"units belong to {len(others) + 1} players ({self.first_player!r}, "
                         f"{', '.join(map(repr, others))}); the game has 2 (in team play, name the team as the "
                         f"player)", "units")
        return self

    @property
    def second_player(self) -> str | None:
        """Return the second player (who does not hold the round counter)."""
        return next((u.player for u in self.units if u.player != self.first_player), None)


class Activation(Model):
    """One activation: the unit, its player and the initiative it activates at."""

    name: str
    player: str
    initiative: int


class ActivationOutcome(Outcome):
    """The units in activation order."""

    order: list[str] = Field(default_factory=list)
    activations: list[Activation] = Field(default_factory=list)


@rule("rwm.6.2", "rwm.44.1")
def initiative_of(unit: Unit, corpus: Corpus) -> int:
    """Return the unit's initiative: that of its selected action, or 10 when no action was chosen."""
    if unit.initiative is None:
        return int(corpus.fact("rwm.6.2", "no_action_initiative"))
    return unit.initiative


@rule("rwm.6.1", "rwm.44.4", "rwm.40.2")
def alternate(first: Sequence[Unit], second: Sequence[Unit]) -> list[Unit]:
    """Return the activations at one initiative: the players alternate 1 unit at a time, first player first;
    when one runs out, the other activates the rest."""
    out: list[Unit] = []
    for i in range(max(len(first), len(second))):
        out.extend(side[i] for side in (first, second) if i < len(side))
    return out


@rule("rwm.6", "rwm.44.3", "rwm.6.1")
def activation_order(units: Sequence[Unit], first_player: str, second_player: str | None,
                     corpus: Corpus) -> list[tuple[int, list[Unit]]]:
    """Return (initiative, activations) counting up from the lowest initiative; each player's own units
    with the same initiative keep the order he listed them in (his choice)."""
    values = sorted({initiative_of(u, corpus) for u in units})
    out = []
    for value in values:
        mine = [u for u in units if u.player == first_player and initiative_of(u, corpus) == value]
        theirs = [u for u in units if u.player == second_player and initiative_of(u, corpus) == value]
        out.append((value, alternate(mine, theirs)))
    return out


LABELS: dict[str, Label] = {"order": "Activation order", "activations": "Activations (unit, player, initiative)"}


def _summary(pos: ActivationPosition, out: ActivationOutcome, trace: Trace) -> str:
    """One sentence: the units in activation order with their initiatives."""
    acts = out.activations
    if not acts:
        return "No unit activates this round."
    return "Activation order: " + ", ".join(f"{a.name} ({a.player}, {a.initiative})" for a in acts) + "."


@rule("rwm.40", "rwm.71")
def _first_player(pos: ActivationPosition, trace: Trace) -> None:
    """Who holds the round counter."""
    second = pos.second_player
    trace.step(f"{pos.first_player} holds the round counter and is the first player"
               + (f"; {second} is the second player." if second else "."), "rwm.40", "rwm.71")


def _no_action(pos: ActivationPosition, trace: Trace, corpus: Corpus) -> None:
    """Units with no action chosen activate at initiative 10."""
    no_action = [u.name for u in pos.units if u.initiative is None]
    if no_action:
        ten = corpus.fact("rwm.6.2", "no_action_initiative")
        trace.step(f"No action chosen on the command tool of {', '.join(no_action)}: activates at initiative "
                   f"{ten}, performing no action and gaining nothing from its modifier.", initiative_of)


@rule("rwm.44.4", "rwm.6")
def _count_up(pos: ActivationPosition, out: ActivationOutcome, trace: Trace, corpus: Corpus) -> None:
    """Count up from initiative 1; equal initiatives alternate, first player first."""
    first = pos.first_player
    for value, group in activation_order(pos.units, first, pos.second_player, corpus):
        names = [f"{u.name} ({u.player})" for u in group]
        players = {u.player for u in group}
        if len(players) > 1:
            trace.step(f"Initiative {value}: both players have units; they alternate 1 at a time, "
                       f"{first} first: {', '.join(names)}.", alternate, "rwm.44.4")
        else:
            trace.step(f"Initiative {value}: {', '.join(names)}.", activation_order)
        for u in group:
            out.order.append(u.name)
            out.activations.append(Activation(name=u.name, player=u.player, initiative=value))
    if not pos.units:
        trace.step("No unit to activate.", "rwm.6")


@situation(GAME, "activation_order", ActivationPosition, labels=LABELS)
@summarized(_summary)
def resolve_activation_order(pos: ActivationPosition, trace: Trace, corpus: Corpus) -> ActivationOutcome:
    """Order the Activation Phase: count up from initiative 1, alternating equal initiatives."""
    out = ActivationOutcome()
    _first_player(pos, trace)
    _no_action(pos, trace, corpus)
    _count_up(pos, out, trace, corpus)
    return out
