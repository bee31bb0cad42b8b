"""Runewars end of the game: the most dragon runes wins, ties to the most influence, then the highest starting
influence.

Paragraphs: ``rw.winning-the-game`` and ``rw.winning-the-game.tie-breaks``; ``rw.victory-cards`` (the early win
with 6 dragon runes is a Victory card's, not this count's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Self

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome
from engine.runewars.common import (
    FACTION_LABELS,
    GAME,
    Faction,
    faction_name,
    faction_names,
    names,
    plural,
    refuse_duplicates,
)


class Standing(Model):
    """A player's final count: dragon runes controlled, influence tokens held and starting influence."""

    faction: Faction
    dragon_runes: int = Field(ge=0, le=40)
    influence: int = Field(ge=0, le=500)
    starting_influence: int = Field(ge=0, le=50)


class GameEndPosition(OpenPosition):
    """The end of the last year: every player's dragon runes, influence and starting influence."""

    game: Literal["runewars"]
    situation: Literal["game_end"]
    players: list[Standing] = Field(min_length=1, max_length=4)

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        refuse_duplicates([p.faction for p in self.players], "faction", "players")
        return self

    def reading(self) -> list[str]:
        """Each player's dragon runes, influence and starting influence."""
        return [f"{faction_name(p.faction)}: {plural(p.dragon_runes, 'dragon rune')}, "
                f"{plural(p.influence, 'influence token')}, starting influence {p.starting_influence}."
                for p in self.players]


Criterion = Literal["dragon_runes", "influence", "starting_influence"]


class GameEndOutcome(Outcome):
    """The winner and the criterion that decided it, and the players tied before it (all of them when they tie
    on every criterion and no one wins)."""

    winner: Faction | None = None
    tied: list[Faction] = Field(default_factory=list)
    decided_by: Criterion | None = None


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


LABELS: dict[str, Label] = {
    "winner": ("Winner", FACTION_LABELS), "tied": ("Tied before the deciding criterion", FACTION_LABELS),
    "decided_by": ("Decided by", {"dragon_runes": "Most dragon runes", "influence": "Most influence",
                                  "starting_influence": "Highest starting influence"}),
}


def _summary(pos: GameEndPosition, out: GameEndOutcome, trace: Trace) -> str:
    """One sentence: the winner and the criterion that decided it (or a complete tie)."""
    players = {p.faction: p for p in pos.players}
    if out.winner is None:
        return (f"No winner: {faction_names(out.tied)} tie on dragon runes, influence and "
                "starting influence.")
    win = players[out.winner]
    rivals = [p for f, p in players.items() if f != out.winner]
    name = faction_name(out.winner)
    others = names([faction_name(f) for f in out.tied if f != out.winner])
    if out.decided_by == "dragon_runes" or not rivals:
        return f"{name} wins with the most dragon runes ({win.dragon_runes})."
    if out.decided_by == "influence":
        return (f"{name} wins: tied with {others} on {win.dragon_runes} dragon runes, it has the most influence "
                f"({win.influence}).")
    return (f"{name} wins: tied with {others} on dragon runes and influence, it started with the most influence "
            f"({win.starting_influence}).")


def _count_runes(players: Sequence[Standing], trace: Trace) -> list[Standing]:
    """Every rune token is revealed: the players with the most dragon runes are left."""
    trace.step("At the end of the last winter every rune token is revealed; the player controlling the most dragon "
               "runes wins (" + ", ".join(f"{faction_name(p.faction)} {p.dragon_runes}" for p in players) + ").",
               most_dragon_runes)
    return most_dragon_runes(players)


def _tie_on_influence(left: list[Standing], trace: Trace) -> list[Standing]:
    """First tie-break: the most influence tokens."""
    if len(left) < 2:
        return left
    trace.step(f"{faction_names([p.faction for p in left])} tie on dragon runes; the one with more influence "
               "wins (" + ", ".join(f"{faction_name(p.faction)} {p.influence}" for p in left) + ").", most_influence)
    return most_influence(left)


def _tie_on_starting_influence(left: list[Standing], trace: Trace) -> list[Standing]:
    """Second tie-break: the highest starting influence."""
    if len(left) < 2:
        return left
    trace.step(f"{faction_names([p.faction for p in left])} also tie on influence; the faction that started "
               f"with more influence wins ("
               + ", ".join(f"{faction_name(p.faction)} {p.starting_influence}" for p in left)
               + ").", highest_starting_influence)
    return highest_starting_influence(left)


@rule("rw.winning-the-game.tie-breaks", "rw.winning-the-game")
def _declare(left: list[Standing], before: list[Standing], decided_by: Criterion, trace: Trace) -> GameEndOutcome:
    """The one player left wins (*before*: the players still tied before the deciding criterion); several left are
    tied on every criterion."""
    if len(left) > 1:
        tied = [p.faction for p in left]
        trace.step(f"{faction_names(tied)} are tied on every criterion; the rules name no "
                   "further tie-break.", "rw.winning-the-game.tie-breaks")
        return GameEndOutcome(winner=None, tied=tied, decided_by=None)
    trace.step(f"{faction_name(left[0].faction)} wins the game.", "rw.winning-the-game")
    tied = [p.faction for p in before] if len(before) > 1 else []
    return GameEndOutcome(winner=left[0].faction, tied=tied, decided_by=decided_by)


@situation(GAME, "game_end", GameEndPosition, labels=LABELS)
@summarized(_summary)
def resolve_game_end(pos: GameEndPosition, trace: Trace, corpus: Corpus) -> GameEndOutcome:
    """Find the winner at the end of the 7th year: most dragon runes, then most influence, then starting influence."""
    left = _count_runes(pos.players, trace)
    before: list[Standing] = left
    decided_by: Criterion = "dragon_runes"
    if len(left) > 1:
        after = _tie_on_influence(left, trace)
        before = left if len(after) == 1 else after
        decided_by = "influence" if len(after) == 1 else "starting_influence"
        left = _tie_on_starting_influence(after, trace)
    return _declare(left, before if len(before) > 1 else [], decided_by, trace)
