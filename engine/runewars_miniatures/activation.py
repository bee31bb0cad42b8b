"""RuneWars Miniatures activation order: lowest initiative first, equal initiatives alternate.

Paragraphs: ``rwm.6.1`` (counting out initiative, alternating 1 unit at a time, first player first),
``rwm.6.2`` (no action selected: initiative 10), ``rwm.44.3``/``rwm.44.4`` (ascending order, ties alternate),
``rwm.40.2`` (the first player starts a tie).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars_miniatures.common import GAME, NAME
from engine.schema import arr, integer, nullable, obj

UNIT = obj(["player", "name", "initiative"], player=NAME, name=NAME, initiative=nullable(integer(1, 10)))
SCHEMA: dict[str, Any] = obj(["first_player", "units"], extra=True, first_player=NAME,
                             units=arr(UNIT, max_items=60))


@dataclass(frozen=True)
class Unit:
    """A unit waiting to activate: its owner, name and initiative (None when no action was chosen)."""

    player: str
    name: str
    initiative: int | None

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Unit:
        """Read a unit of the position."""
        return cls(raw["player"], raw["name"], raw["initiative"])


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


def _players(units: Sequence[Unit], first_player: str) -> str | None:
    """Return the second player (who does not hold the round counter); there are 2 players at most."""
    others = list(dict.fromkeys(u.player for u in units if u.player != first_player))
    if len(others) > 1:
        raise UnreadableInputError(f"units belong to {len(others) + 1} players ({first_player!r}, "
                                   f"{', '.join(map(repr, others))}); the game has 2 (in team play, name the "
                                   f"team as the player)", path="units")
    return others[0] if others else None


LABELS: dict[str, Label] = {"order": "Activation order", "activations": "Activations (unit, player, initiative)"}


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: the units in activation order with their initiatives."""
    acts = out["activations"]
    if not acts:
        return "No unit activates this round."
    return "Activation order: " + ", ".join(f"{a['name']} ({a['player']}, {a['initiative']})" for a in acts) + "."


@situation(GAME, "activation_order", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_activation_order(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Order the Activation Phase: count up from initiative 1, alternating equal initiatives."""
    units = [Unit.from_json(u) for u in pos["units"]]
    first = pos["first_player"]
    second = _players(units, first)
    trace.step(f"{first} holds the round counter and is the first player"
               + (f"; {second} is the second player." if second else "."), "rwm.40", "rwm.71")
    no_action = [u.name for u in units if u.initiative is None]
    if no_action:
        ten = corpus.fact("rwm.6.2", "no_action_initiative")
        trace.step(f"No action chosen on the command tool of {', '.join(no_action)}: activates at initiative "
                   f"{ten}, performing no action and gaining nothing from its modifier.", initiative_of)
    order: list[str] = []
    activations: list[dict[str, Any]] = []
    for value, group in activation_order(units, first, second, corpus):
        names = [f"{u.name} ({u.player})" for u in group]
        players = {u.player for u in group}
        if len(players) > 1:
            trace.step(f"Initiative {value}: both players have units; they alternate 1 at a time, "
                       f"{first} first: {', '.join(names)}.", alternate, "rwm.44.4")
        else:
            trace.step(f"Initiative {value}: {', '.join(names)}.", activation_order)
        for u in group:
            order.append(u.name)
            activations.append({"name": u.name, "player": u.player, "initiative": value})
    if not units:
        trace.step("No unit to activate.", "rwm.6")
    return {"order": order, "activations": activations}
