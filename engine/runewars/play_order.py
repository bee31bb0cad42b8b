"""Runewars play order: lowest Order card first, then most influence, then highest starting influence.

Paragraphs: ``rw.play-order`` and its criteria ``rw.play-order.1``/``.2``/``.3``, ``rw.resolve-order-cards`` (cards
resolve lowest number first, ties to the most influence) and the book's example ``rw.example-of-a-game-season``.

``tie_order`` settles a complete tie: the listed factions go first, in that order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars.common import FACTION_LABELS, FACTIONS, GAME, faction_name, names, unique_keys
from engine.schema import arr, enum, integer, nullable, obj

PLAYER = obj(["faction", "order", "influence", "starting_influence"], faction=enum(*FACTIONS),
             order=nullable(integer(1, 8)), influence=integer(0, 500), starting_influence=integer(0, 50))
SCHEMA: dict[str, Any] = obj(["players"], extra=True, players=arr(PLAYER, min_items=1, max_items=4),
                             tie_order=arr(enum(*FACTIONS), max_items=4))


@dataclass(frozen=True)
class Player:
    """A player's standing for play order: his faction, active Order card (None if none revealed), influence."""

    faction: str
    order: int | None
    influence: int
    starting_influence: int

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Player:
        """Read a player of the position."""
        return cls(raw["faction"], raw["order"], int(raw["influence"]), int(raw["starting_influence"]))


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


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: the play order, and any tie the players still settle."""
    text = "Play order: " + ", ".join(faction_name(f) for f in out["order"])
    for d in trace.decisions:
        text += f"; {names([faction_name(f) for f in d.options])} still settle their tie"
    return text + "."


@situation(GAME, "play_order", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_play_order(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Order the players: lowest Order card first, ties to the most influence, then the highest starting influence."""
    unique_keys(pos["players"], "faction", "players")
    players = [Player.from_json(p) for p in pos["players"]]
    revealed = [p.order is not None for p in players]
    if any(revealed) and not all(revealed):
        i = revealed.index(False)
        raise UnreadableInputError("either every player has a revealed Order card or none has",
                                   path=f"players[{i}].order")
    tie = list(pos.get("tie_order") or [])
    players = sorted(players, key=lambda p: tie.index(p.faction) if p.faction in tie else len(tie))
    ordered = play_order(players)
    if all(revealed):
        cards = ", ".join(f"{p.faction} #{p.order}" for p in ordered)
        trace.step(f"Lowest Order card first: {cards}.", by_order_card)
    else:
        trace.step("No Order card is revealed, so every player is ordered by influence.", by_influence)
    for key, grp in groupby(ordered, key=by_order_card):
        group = list(grp)
        if len(group) < 2:
            continue
        label = f"#{key}" if key else "no Order card"
        trace.step(f"{names([p.faction for p in group])} tie on {label}: the one with more influence goes first "
                   f"({', '.join(f'{p.faction} {p.influence}' for p in group)}).", by_influence)
        for infl, sub in groupby(group, key=by_influence):
            tied = list(sub)
            if len(tied) < 2:
                continue
            trace.step(f"{names([p.faction for p in tied])} also tie on influence ({-infl}): the higher starting "
                       f"influence goes first ({', '.join(f'{p.faction} {p.starting_influence}' for p in tied)}).",
                       by_starting_influence)
            for start, last in groupby(tied, key=by_starting_influence):
                still = [p.faction for p in last]
                if len(still) > 1 and sum(1 for f in still if f not in tie) > 1:
                    trace.decide("players", f"the order of {names(still)}, tied on every criterion (starting "
                                 f"influence {-start}); the rules give no further tie-break", play_order,
                                 options=still, field="tie_order")
                elif len(still) > 1:
                    trace.step(f"The players settle the tie between {names(still)} as stated: "
                               f"{', '.join(still)}.", play_order)
    order = [p.faction for p in ordered]
    trace.step(f"Play order: {', '.join(order)}.", play_order)
    return {"order": order}
