"""Rune Age Event phase: start-of-phase Enemy abilities and an empty Event deck in each scenario.

Paragraphs: ``ra.enemy-event-cards.start-of-event-phase``, ``ra.event-cards-the-event-phase.depleted``
and the scenarios' victory rules.
"""

from __future__ import annotations

from typing import Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome
from engine.rune_age.scenarios import SCENARIO_NAMES, NamedScenario
from engine.rune_age.words import listing, plural


class Enemy(Model):
    """An Enemy card in play, and whether it has an ability that resolves at the start of the Event phase."""

    name: str = Field(max_length=200)
    start_of_event_phase: bool = False
    drawn_this_round: bool = False


class Hand(Model):
    """A player and the cards in his hand once the Event card is resolved."""

    player: str = Field(max_length=80, min_length=1, title="Player")
    cards_in_hand: int = Field(ge=0, le=20, title="Cards in his hand")


class EventPhasePosition(OpenPosition):
    """The start of a Rune Age Event phase: the scenario, the Event cards left and the Enemies in play."""

    game: Literal["rune-age"]
    situation: Literal["event_phase"]
    scenario: NamedScenario
    event_deck_remaining: int = Field(ge=0, le=40)
    enemies: list[Enemy] = Field([], max_length=40)
    hands: list[Hand] = Field([], max_length=4, title="Hands after the Event card",
                              description="Each player's hand once the Event card is resolved (none listed: the "
                                          "refill is not ruled).")
    holy_war: bool = Field(False, title="Holy War is in play")
    renegade_oracle: bool = Field(False, title="Renegade Oracle's effect is waiting")

    def reading(self) -> list[str]:
        """Restate the scenario, the Event cards left and the Enemies in play with their start-of-phase abilities."""
        out = [f"Scenario: {SCENARIO_NAMES[self.scenario]}.",
               f"Event deck: {plural(self.event_deck_remaining, 'card')} left." if self.event_deck_remaining
               else "Event deck: empty."]
        enemies = []
        for e in self.enemies:
            notes = (["start-of-Event-phase ability"] if e.start_of_event_phase else []) + (
                ["drawn this round"] if e.drawn_this_round else [])
            enemies.append(f"{e.name} ({', '.join(notes)})" if notes else e.name)
        out.append(f"Enemies in play: {listing(enemies)}." if enemies else "No Enemy in play.")
        if self.hands:
            out.append("Hands after the Event card: " + listing(f"{h.player} {h.cards_in_hand}" for h in self.hands)
                       + (" (Holy War in play)." if self.holy_war else "."))
        if self.renegade_oracle:
            out.append("Renegade Oracle's effect is waiting.")
        return out


EventResult = Literal["draw_event", "all_players_win", "reshuffle_stage_2"]


class EventPhaseOutcome(Outcome):
    """What the start of the Event phase decides: the Enemy abilities that resolve and what the deck does."""

    triggers: list[str]
    game_over: bool = False
    result: EventResult = "draw_event"
    draws: dict[str, int] = Field(default_factory=dict, exclude_if=lambda v: not v)


@rule("ra.enemy-event-cards.start-of-event-phase", "rafaq.faq.general.10")
def is_triggered(enemy: Enemy) -> bool:
    """Return whether an Enemy's start-of-Event-phase ability resolves: not in the round it was drawn."""
    return enemy.start_of_event_phase and not enemy.drawn_this_round


@rule("ra.event-cards-the-event-phase.depleted", "ra.the-cataclysm.event-deck", "ra.the-cataclysm.victory")
def is_game_over_on_empty_deck(scenario: str, corpus: Corpus) -> bool:
    """Return whether an empty Event deck ends the game: only in The Cataclysm (all players win)."""
    return not corpus.fact("ra.the-cataclysm.event-deck", "reshuffle_when_empty") if scenario == "the-cataclysm" \
        else False


LABELS: dict[str, Label] = {
    "triggers": "Start-of-Event-phase abilities that resolve", "game_over": "Game over",
    "draws": "Cards each player draws to refill his hand",
    "result": ("Result", {"draw_event": "Draw an Event card", "all_players_win": "All players win",
                          "reshuffle_stage_2": "Reshuffle the Stage 2 Events"}),
}
THEN: dict[EventResult, str] = {
    "draw_event": "then the first player draws an Event card",
    "all_players_win": "then the empty Event deck ends The Cataclysm and all players win",
    "reshuffle_stage_2": "then the empty Event deck is rebuilt from the Stage 2 Events"}


def _summary(pos: EventPhasePosition, out: EventPhaseOutcome, trace: Trace) -> str:
    """One sentence: which Enemy abilities resolve, then what the Event deck does."""
    triggers = out.triggers
    first = (f"{listing(triggers)} resolve{'s' if len(triggers) == 1 else ''} "
             f"{'its start-of-Event-phase ability' if len(triggers) == 1 else 'their start-of-Event-phase abilities'}"
             if triggers else "No start-of-Event-phase ability resolves")
    refill = f"; then every player draws back up to {5 - pos.holy_war}" if out.draws else ""
    oracle = ", and only then Renegade Oracle resolves" if out.draws and pos.renegade_oracle else ""
    return f"{first}; {THEN[out.result]}{refill}{oracle}."


@rule("ra.enemy-event-cards")
def _enemy_abilities(pos: EventPhasePosition, trace: Trace) -> list[str]:
    """Start of the Event phase: Enemies' start-of-phase abilities resolve; return those that do."""
    enemies = pos.enemies
    for e in enemies:
        if e.start_of_event_phase:
            trace.step(f"{e.name}'s start-of-Event-phase ability "
                       + ("resolves." if is_triggered(e) else "does not resolve: it was drawn this round."),
                       is_triggered)
    if not any(e.start_of_event_phase for e in enemies):
        trace.step("No Enemy in play has a start-of-Event-phase ability.", "ra.enemy-event-cards")
    return [e.name for e in enemies if is_triggered(e)]


@rule("ra.event-cards-the-event-phase.draw", "ra.event-cards-the-event-phase.depleted")
def _draw(pos: EventPhasePosition, out: EventPhaseOutcome, trace: Trace, corpus: Corpus) -> None:
    """The first player draws an Event card; an empty deck is rebuilt, or ends The Cataclysm."""
    if pos.event_deck_remaining > 0:
        trace.step(f"The first player draws the top Event card ({pos.event_deck_remaining} left) and resolves it.",
                   "ra.event-cards-the-event-phase.draw")
        return
    if is_game_over_on_empty_deck(pos.scenario, corpus):
        out.game_over, out.result = True, "all_players_win"
        trace.step("The Event deck is empty when the first player must draw: in The Cataclysm the deck is not "
                   "rebuilt and the players all win together.", is_game_over_on_empty_deck)
    else:
        out.result = "reshuffle_stage_2"
        trace.step("The Event deck is empty: shuffle the Stage 2 Events from the Event discard pile into a new "
                   "deck (Stage 1 Events are not reused), then draw.", "ra.event-cards-the-event-phase.depleted")


@rule("rafaq.faq.scenarios.the-cataclysm.1", "ra.drawing-cards")
def refill_to(holy_war: bool, corpus: Corpus) -> int:
    """Return the hand size players draw back up to: 5, or 4 while Holy War is in play."""
    return 4 if holy_war else 5


@rule("ra.event-cards-the-event-phase.replenish", "rafaq.faq.general.9", "rafaq.errata.rulebook.back-cover",
      "rafaq.oa.scenarios.ascent-of-the-overlord.1", "ra.event-cards-the-event-phase")
def _refill(pos: EventPhasePosition, out: EventPhaseOutcome, trace: Trace, corpus: Corpus) -> None:
    """Once the Event card is resolved, every player draws back up to 5 (4 under Holy War); then Renegade Oracle."""
    if not pos.hands or out.game_over:
        return
    size = refill_to(pos.holy_war, corpus)
    out.draws = {h.player: max(0, size - h.cards_in_hand) for h in pos.hands}
    trace.step("The Event card resolved, every player draws back up to "
               + (f"{size} cards (Holy War caps the refill after the Event phase too): " if pos.holy_war
                  else f"{size} cards (the round summary's missing last step): ")
               + listing(f"{k} draws {v}" for k, v in out.draws.items()) + ".",
               "ra.event-cards-the-event-phase.replenish", "rafaq.faq.general.9", "rafaq.errata.rulebook.back-cover",
               *([refill_to] if pos.holy_war else []))
    if pos.renegade_oracle:
        trace.step("Only after the hands are refilled does Renegade Oracle's effect resolve.",
                   "rafaq.oa.scenarios.ascent-of-the-overlord.1")


@situation("rune-age", "event_phase", EventPhasePosition, labels=LABELS)
@summarized(_summary)
def resolve_event_phase(pos: EventPhasePosition, trace: Trace, corpus: Corpus) -> EventPhaseOutcome:
    """Resolve the start of an Event phase: which Enemy abilities trigger, and an empty Event deck."""
    out = EventPhaseOutcome(triggers=_enemy_abilities(pos, trace))
    _draw(pos, out, trace, corpus)
    _refill(pos, out, trace, corpus)
    return out
