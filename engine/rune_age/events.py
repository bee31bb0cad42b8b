"""Rune Age Event phase: start-of-phase Enemy abilities and an empty Event deck in each scenario.

Paragraphs: ``ra.enemy-event-cards.start-of-event-phase``, ``ra.event-cards-the-event-phase.depleted``
and the scenarios' victory rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.schema import BOOL, arr, enum, integer, obj, text

SCHEMA: dict[str, Any] = obj(
    ["scenario", "event_deck_remaining"], extra=True,
    scenario=enum("resurgence-of-the-dragonlords", "runewars", "the-cataclysm", "the-monument"),
    event_deck_remaining=integer(0, 40),
    enemies=arr(obj(["name"], name=text(), start_of_event_phase=BOOL, drawn_this_round=BOOL), max_items=40),
)


@rule("ra.enemy-event-cards.start-of-event-phase", "rafaq.faq.general.10")
def is_triggered(enemy: Mapping[str, Any]) -> bool:
    """Return whether an Enemy's start-of-Event-phase ability resolves: not in the round it was drawn."""
    return bool(enemy.get("start_of_event_phase")) and not enemy.get("drawn_this_round", False)


@rule("ra.event-cards-the-event-phase.depleted", "ra.the-cataclysm.event-deck", "ra.the-cataclysm.victory")
def is_game_over_on_empty_deck(scenario: str, corpus: Corpus) -> bool:
    """Return whether an empty Event deck ends the game: only in The Cataclysm (all players win)."""
    return not corpus.fact("ra.the-cataclysm.event-deck", "reshuffle_when_empty") if scenario == "the-cataclysm" \
        else False


LABELS: dict[str, Label] = {
    "triggers": "Start-of-Event-phase abilities that resolve", "game_over": "Game over",
    "result": ("Result", {"draw_event": "Draw an Event card", "all_players_win": "All players win",
                          "reshuffle_stage_2": "Reshuffle the Stage 2 Events"}),
}


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: which Enemy abilities resolve, then what the Event deck does."""
    triggers = out["triggers"]
    first = (f"{', '.join(triggers)} resolve{'s' if len(triggers) == 1 else ''} "
             f"{'its' if len(triggers) == 1 else 'their'} start-of-Event-phase ability"
             if triggers else "No start-of-Event-phase ability resolves")
    then = {"draw_event": "then the first player draws an Event card",
            "all_players_win": "then the empty Event deck ends The Cataclysm and all players win",
            "reshuffle_stage_2": "then the empty Event deck is rebuilt from the Stage 2 Events"}[out["result"]]
    return f"{first}; {then}."


@situation("rune-age", "event_phase", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_event_phase(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve the start of an Event phase: which Enemy abilities trigger, and an empty Event deck."""
    enemies = pos.get("enemies", [])
    triggers = [e["name"] for e in enemies if is_triggered(e)]
    for e in enemies:
        if e.get("start_of_event_phase"):
            trace.step(f"{e['name']}'s start-of-Event-phase ability "
                       + ("resolves." if is_triggered(e) else "does not resolve: it was drawn this round."),
                       is_triggered)
    if not any(e.get("start_of_event_phase") for e in enemies):
        trace.step("No Enemy in play has a start-of-Event-phase ability.", "ra.enemy-event-cards")
    out: dict[str, Any] = {"triggers": triggers, "game_over": False, "result": "draw_event"}
    if pos["event_deck_remaining"] > 0:
        trace.step(f"The first player draws the top Event card ({pos['event_deck_remaining']} left) and resolves it.",
                   "ra.event-cards-the-event-phase.draw")
        return out
    if is_game_over_on_empty_deck(pos["scenario"], corpus):
        out.update(game_over=True, result="all_players_win")
        trace.step("The Event deck is empty when the first player must draw: in The Cataclysm the deck is not "
                   "rebuilt and the players all win together.", is_game_over_on_empty_deck)
    else:
        out["result"] = "reshuffle_stage_2"
        trace.step("The Event deck is empty: shuffle the Stage 2 Events from the Event discard pile into a new "
                   "deck (Stage 1 Events are not reused), then draw.", "ra.event-cards-the-event-phase.depleted")
    return out
