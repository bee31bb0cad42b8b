"""Rune Age scenarios: their names, and how eliminating a player ends (or not) the scenario played.

:func:`end_on_elimination` is the one helper every situation that can eliminate a player (a siege, a battle
against an Instant, an Instant attacking every player, a Dragon Rune elimination, an elimination) calls to fill
its ``scenario_end`` outcome field (:func:`scenario_end_field`). Paragraphs: ``ra.the-cataclysm.victory`` (all
players lose), ``ra.runewars.victory`` with ``ra.winning-the-game.2`` (the last player left wins) and
``ra.resurgence-of-the-dragonlords.solitaire`` (the solo player loses).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from engine.core import Label, Trace, rule
from engine.corpus import Corpus
from engine.model import Field, labelled
from engine.rune_age.words import capital, plural

SCENARIO_NAMES = {"resurgence-of-the-dragonlords": "Resurgence of the Dragonlords", "runewars": "Runewars",
                  "the-cataclysm": "The Cataclysm", "the-monument": "The Monument"}
Scenario = Literal["resurgence-of-the-dragonlords", "runewars", "the-cataclysm", "the-monument"]
NamedScenario = Annotated[Scenario, Field(description="The scenario being played: it decides what an elimination ends.",
                                          json_schema_extra=labelled(SCENARIO_NAMES))]
"""A scenario, shown on the boards by its printed name."""

ScenarioEnd = Literal["game_continues", "all_players_lose", "last_player_wins", "solo_player_loses"]
SCENARIO_ENDS = {"game_continues": "The game goes on without him",
                 "all_players_lose": "The game ends: all players lose",
                 "last_player_wins": "The game ends: the last player left wins",
                 "solo_player_loses": "The game ends: the solo player loses"}
ENDS_LABEL: Label = ("Scenario end on this elimination", SCENARIO_ENDS)


def scenario_end_field() -> Any:
    """Return the ``scenario_end`` outcome field every situation that can eliminate a player shares: left out
    while nobody is eliminated (or the scenario is not known yet)."""
    return Field(None, title="Scenario end on this elimination", exclude_if=lambda v: v is None,
                 description="What an elimination does to the game in the scenario played; left out when no "
                             "player is eliminated.", json_schema_extra=labelled(SCENARIO_ENDS))


@rule("ra.the-cataclysm.victory", "ra.winning-the-game.3", "ra.runewars.victory", "ra.winning-the-game.2",
      "ra.resurgence-of-the-dragonlords.solitaire", "ra.winning-the-game")
def scenario_end(scenario: str, others_left: int) -> ScenarioEnd:
    """Return what eliminating a player does to the game: The Cataclysm is lost by all; in Runewars the last
    player left wins; a solo player eliminated loses; otherwise the others play on."""
    if scenario == "the-cataclysm":
        return "all_players_lose"
    if others_left == 0:
        return "solo_player_loses"
    if scenario == "runewars" and others_left == 1:
        return "last_player_wins"
    return "game_continues"


@rule("ra.the-cataclysm.victory", "ra.winning-the-game.3", "ra.runewars.victory", "ra.winning-the-game.2",
      "ra.resurgence-of-the-dragonlords.solitaire", "ra.winning-the-game")
def end_on_elimination(scenario: str, loser: str, others: list[str] | int, trace: Trace) -> ScenarioEnd:
    """Write the step saying how *loser*'s elimination ends (or not) the scenario; return the end.

    *others* is the players still in the game besides the loser, by name or as a count."""
    count = others if isinstance(others, int) else len(others)
    end = scenario_end(scenario, count)
    name = SCENARIO_NAMES.get(scenario, scenario)
    if end == "all_players_lose":
        trace.step(f"In {name} the players win or lose together: {loser} being eliminated ends the game, and "
                   f"every player loses.", "ra.the-cataclysm.victory", "ra.winning-the-game.3")
    elif end == "solo_player_loses":
        trace.step(f"{capital(loser)} was the only player: being eliminated, he loses the solo game.",
                   "ra.resurgence-of-the-dragonlords.solitaire", "ra.winning-the-game")
    elif end == "last_player_wins":
        last = f" ({others[0]})" if isinstance(others, list) else ""
        trace.step(f"In Runewars the last player left wins: with {loser} out, only one player{last} remains and "
                   f"wins the game.", "ra.runewars.victory", "ra.winning-the-game.2")
    else:
        left = plural(count, "player")
        trace.step(f"In {name} an elimination does not end the game by itself: the other {left} play on "
                   f"toward the scenario's objective.", "ra.winning-the-game")
    return end


END_WORDS = {"all_players_lose": "; in The Cataclysm the game ends and all players lose",
             "last_player_wins": "; only one player is left, and he wins the game",
             "solo_player_loses": "; he loses the solo game"}
"""What a summary adds after an elimination, by scenario end (nothing when the game goes on)."""


@rule("ra.player-elimination")
def is_eliminated(total_damage: int, corpus: Corpus) -> bool:
    """Return whether a Home Realm's damage reaches the elimination threshold (20)."""
    return total_damage >= int(corpus.fact("ra.player-elimination", "elimination_damage"))


def needs_player_count(scenario: str) -> bool:
    """Return whether an elimination's end in *scenario* depends on how many players are left (all but The
    Cataclysm, which every elimination ends, and The Monument, which has no solo game)."""
    return scenario in ("runewars", "resurgence-of-the-dragonlords")


@rule("ra.the-cataclysm.victory", "ra.runewars.victory", "ra.resurgence-of-the-dragonlords.solitaire")
def settle_end(scenario: str | None, players_in_game: int | None, loser: str, trace: Trace,
               last: str | None = None, field: str = "", least: int = 1) -> ScenarioEnd | None:
    """A player is eliminated: return the scenario's end, or ``None`` after asking for what it depends on (the
    scenario, or how many players were in the game counting the loser, at *field* + the key; *least* is the
    fewest the situation admits)."""
    if scenario is None:
        trace.decide("players", "the scenario being played (an elimination ends some scenarios)",
                     end_on_elimination, options=list(SCENARIO_NAMES), field=f"{field}scenario")
        return None
    if players_in_game is None and needs_player_count(scenario):
        trace.decide("players", f"how many players were in the game before {loser} was eliminated, him included",
                     end_on_elimination, options=list(range(max(least, 2 if scenario == "runewars" else 1), 5)),
                     field=f"{field}players_in_game")
        return None
    others = (players_in_game or 2) - 1
    return end_on_elimination(scenario, loser, [last] if last and others == 1 else others, trace)
