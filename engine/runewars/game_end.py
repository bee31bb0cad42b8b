"""Runewars end of the game: the most dragon runes wins, ties to the most influence, then the highest starting
influence.

Paragraphs: ``rw.winning-the-game`` and ``rw.winning-the-game.tie-breaks``; ``rw.victory-cards`` (the early win
with 6 dragon runes is a Victory card's, not this count's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.runewars.common import FACTION_LABELS, FACTIONS, GAME, faction_name, names, unique_keys
from engine.schema import arr, enum, integer, obj

PLAYER = obj(["faction", "dragon_runes", "influence", "starting_influence"], faction=enum(*FACTIONS),
             dragon_runes=integer(0, 40), influence=integer(0, 500), starting_influence=integer(0, 50))
SCHEMA: dict[str, Any] = obj(["players"], extra=True, players=arr(PLAYER, min_items=1, max_items=4))


@dataclass(frozen=True)
class Standing:
    """A player's final count: dragon runes controlled, influence tokens held and starting influence."""

    faction: str
    dragon_runes: int
    influence: int
    starting_influence: int

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Standing:
        """Read a player of the position."""
        return cls(raw["faction"], int(raw["dragon_runes"]), int(raw["influence"]), int(raw["starting_influence"]))


@rule("rw.winning-the-game")
def most_dragon_runes(players: Sequence[Standing]) -> list[Standing]:
    """Return the players controlling the most dragon runes."""
    top = max(p.dragon_runes for p in players)
    return [p for p in players if p.dragon_runes == top]


@rule("rw.winning-the-game.tie-breaks")
def most_influence(players: Sequence[Standing]) -> list[Standing]:
    """Return, among players tied on dragon runes, those with the most influence tokens."""
    top = max(p.influence for p in players)
    return [p for p in players if p.influence == top]


@rule("rw.winning-the-game.tie-breaks")
def highest_starting_influence(players: Sequence[Standing]) -> list[Standing]:
    """Return, among players still tied, those whose faction started with the most influence."""
    top = max(p.starting_influence for p in players)
    return [p for p in players if p.starting_influence == top]


LABELS: dict[str, Label] = {"winner": ("Winner", FACTION_LABELS), "tied": ("Tied on every criterion", FACTION_LABELS)}


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: the winner and the criterion that decided it (or a complete tie)."""
    players = {p["faction"]: p for p in pos["players"]}
    if out["winner"] is None:
        return (f"No winner: {names([faction_name(f) for f in out['tied']])} tie on dragon runes, influence and "
                "starting influence.")
    win = players[out["winner"]]
    rivals = [p for f, p in players.items() if f != out["winner"]]
    name = faction_name(out["winner"])
    if not rivals or all(p["dragon_runes"] < win["dragon_runes"] for p in rivals):
        return f"{name} wins with the most dragon runes ({win['dragon_runes']})."
    if all(p["influence"] < win["influence"] for p in rivals if p["dragon_runes"] == win["dragon_runes"]):
        return (f"{name} wins: tied on {win['dragon_runes']} dragon runes, it has the most influence "
                f"({win['influence']}).")
    return (f"{name} wins: tied on dragon runes and influence, it started with the most influence "
            f"({win['starting_influence']}).")


@situation(GAME, "game_end", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_game_end(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Find the winner at the end of the 7th year: most dragon runes, then most influence, then starting influence."""
    unique_keys(pos["players"], "faction", "players")
    players = [Standing.from_json(p) for p in pos["players"]]
    trace.step("At the end of the last winter every rune token is revealed; the player controlling the most dragon "
               "runes wins (" + ", ".join(f"{p.faction} {p.dragon_runes}" for p in players) + ").",
               most_dragon_runes)
    left = most_dragon_runes(players)
    if len(left) > 1:
        trace.step(f"{names([p.faction for p in left])} tie on dragon runes; the one with more influence wins ("
                   + ", ".join(f"{p.faction} {p.influence}" for p in left) + ").", most_influence)
        left = most_influence(left)
        if len(left) > 1:
            trace.step(f"{names([p.faction for p in left])} also tie on influence; the faction that started with "
                       f"more influence wins (" + ", ".join(f"{p.faction} {p.starting_influence}" for p in left)
                       + ").", highest_starting_influence)
            left = highest_starting_influence(left)
    if len(left) > 1:
        tied = [p.faction for p in left]
        trace.step(f"{names(tied)} are tied on every criterion; the rules name no further tie-break.",
                   "rw.winning-the-game.tie-breaks")
        return {"winner": None, "tied": tied}
    trace.step(f"{left[0].faction} wins the game.", "rw.winning-the-game")
    return {"winner": left[0].faction, "tied": []}
