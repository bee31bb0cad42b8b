"""Rune Age player elimination: where the eliminated player's cards go, and how an elimination ends a scenario.

Paragraphs: ``ra.player-elimination`` (20 damage; neutral and gold cards back, cities to the central play area,
Rewards removed), ``ra.rewards``, and the scenarios' ends on an elimination: ``ra.the-cataclysm.victory`` (all
players lose), ``ra.runewars.victory`` with ``ra.winning-the-game.2`` (the last player left wins) and
``ra.resurgence-of-the-dragonlords.solitaire`` (the solo player loses), through the shared helper
:func:`engine.rune_age.scenarios.end_on_elimination`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome, refuse
from engine.rune_age.scenarios import (
    ENDS_LABEL,
    SCENARIO_NAMES,
    NamedScenario,
    ScenarioEnd,
    end_on_elimination,
    is_eliminated,
    scenario_end_field,
)
from engine.rune_age.words import listing, plural, possessive


class EliminationPosition(OpenPosition):
    """A Rune Age player whose Home Realm damage may have reached the limit, and the cards he holds."""

    game: Literal["rune-age"]
    situation: Literal["elimination"]
    scenario: NamedScenario
    player: str = Field(max_length=80, min_length=1, title="Player", description="The player whose Home Realm "
                        "took the damage.")
    home_realm_damage: int = Field(ge=0, le=99, title="Damage on his Home Realm",
                                   description="All the damage his Home Realm now holds, in damage points.")
    other_players: list[Annotated[str, Field(max_length=80, min_length=1)]] = Field(
        [], max_length=5, title="Other players still in the game",
        description="By name; none when he plays alone.")
    neutral_cards: list[Annotated[str, Field(max_length=200, min_length=1)]] = Field(
        [], max_length=60, title="His neutral cards", description="Neutral unit and tactic cards he owns (deck, "
        "hand and discard pile), by name.")
    gold_cards: list[Annotated[int, Field(ge=1, le=3)]] = Field(
        [], max_length=60, title="His gold cards", description="The value of each gold card he owns.")
    cities: list[Annotated[str, Field(max_length=200, min_length=1)]] = Field(
        [], max_length=12, title="Cities he controls", description="By name.")
    rewards: list[Annotated[str, Field(max_length=200, min_length=1)]] = Field(
        [], max_length=20, title="His Rewards", description="Reward cards near his Home Realm, by name.")

    @model_validator(mode="after")
    def _distinct(self) -> EliminationPosition:
        """Refuse the player listed among the others, or another player listed twice."""
        seen = {self.player}
        for i, name in enumerate(self.other_players):
            if name in seen:
                raise refuse(f"player {name!r} is listed twice", f"other_players[{i}]")
            seen.add(name)
        return self

    def reading(self) -> list[str]:
        """Restate the scenario, the damage, the other players and what the player holds."""
        out = [f"Scenario: {SCENARIO_NAMES[self.scenario]}.",
               f"{self.player}: {self.home_realm_damage} damage on his Home Realm.",
               f"Other players still in the game: {listing(self.other_players, 'none (a solo game)')}."]
        gold = listing(str(g) for g in self.gold_cards)
        out.append(f"His neutral cards: {listing(self.neutral_cards)}. His gold cards: "
                   + (f"{plural(len(self.gold_cards), 'card')} worth {gold}." if self.gold_cards else "none."))
        out.append(f"Cities he controls: {listing(self.cities)}. His Rewards: {listing(self.rewards)}.")
        return out


class EliminationOutcome(Outcome):
    """Whether the player is out, where each of his cards goes, and what his elimination does to the game."""

    eliminated: bool
    to_central_play_area: list[str] = Field(default_factory=list)
    to_gold_supply: list[int] = Field(default_factory=list)
    removed_from_game: list[str] = Field(default_factory=list)
    scenario_end: ScenarioEnd | None = scenario_end_field()
    winner: str | None = Field(None, exclude_if=lambda v: v is None)


LABELS: dict[str, Label] = {
    "eliminated": "Eliminated", "to_central_play_area": "Back to the central play area",
    "to_gold_supply": "Gold cards back to the gold supply", "removed_from_game": "Removed from the game",
    "scenario_end": ENDS_LABEL, "winner": "Winner",
}
ENDS_SUMMARY = {"game_continues": "the others play on", "all_players_lose": "the game ends and all players lose",
                "last_player_wins": "the game ends", "solo_player_loses": "he loses the solo game"}


def _summary(pos: EliminationPosition, out: EliminationOutcome, trace: Trace) -> str:
    """One sentence: out or not, then the scenario's end."""
    if not out.eliminated:
        return f"{pos.player} stays in the game with {pos.home_realm_damage} damage on his Home Realm."
    end = ENDS_SUMMARY[out.scenario_end or "game_continues"]
    won = f" and {out.winner} wins" if out.winner else ""
    return f"{pos.player} is eliminated; his cards leave the game as the book says, and {end}{won}."


@rule("ra.player-elimination", "ra.term.eliminated")
def _check(pos: EliminationPosition, trace: Trace, corpus: Corpus) -> bool:
    """Is the player out? Return whether his Home Realm damage reaches the limit."""
    limit = corpus.fact("ra.player-elimination", "elimination_damage")
    out = is_eliminated(pos.home_realm_damage, corpus)
    trace.step(f"{possessive(pos.player)} Home Realm holds {pos.home_realm_damage} damage: "
               + (f"at least {limit}, so he is eliminated at once." if out
                  else f"under {limit}, so he stays in the game and keeps his cards."), is_eliminated)
    return out


@rule("ra.player-elimination", "ra.rewards")
def _cards(pos: EliminationPosition, out: EliminationOutcome, trace: Trace) -> None:
    """His neutral and gold cards go back where they came from, his cities to the centre, his Rewards away."""
    out.to_central_play_area = list(pos.neutral_cards) + list(pos.cities)
    out.to_gold_supply = list(pos.gold_cards)
    out.removed_from_game = list(pos.rewards)
    if pos.neutral_cards:
        trace.step(f"His neutral cards ({listing(pos.neutral_cards)}) go back to their piles in the central play "
                   f"area.", "ra.player-elimination")
    if pos.gold_cards:
        trace.step(f"His {plural(len(pos.gold_cards), 'gold card')} go back to the gold supply.",
                   "ra.player-elimination")
    if pos.cities:
        one = len(pos.cities) == 1
        trace.step(f"{'The city' if one else 'The cities'} he controlled ({listing(pos.cities)}) "
                   f"{'goes' if one else 'go'} back to the central play area, neutral again.", "ra.player-elimination")
    if pos.rewards:
        trace.step(f"His Rewards ({listing(pos.rewards)}) are removed from the game.", "ra.rewards",
                   "ra.player-elimination")
    if not (pos.neutral_cards or pos.gold_cards or pos.cities or pos.rewards):
        trace.step("He holds no neutral card, gold card, city or Reward to give back.", "ra.player-elimination")


@situation("rune-age", "elimination", EliminationPosition, labels=LABELS)
@summarized(_summary)
def resolve_elimination(pos: EliminationPosition, trace: Trace, corpus: Corpus) -> EliminationOutcome:
    """Resolve a possible elimination: the damage limit, where his cards go, and the scenario's end."""
    if not _check(pos, trace, corpus):
        return EliminationOutcome(eliminated=False)
    out = EliminationOutcome(eliminated=True)
    _cards(pos, out, trace)
    out.scenario_end = end_on_elimination(pos.scenario, pos.player, list(pos.other_players), trace)
    if out.scenario_end == "last_player_wins":
        out.winner = pos.other_players[0]
    return out
