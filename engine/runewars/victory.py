"""Runewars Victory cards: placing one with 6 dragon runes to win early, and revealing it a game year later.

Paragraphs: ``rw.victory-cards`` (6 dragon runes, resolved in the same season a year later) with ``.placing``
(during his own turn, on the current season's deck), ``.resolving`` (revealed before the Season card is drawn:
6 or more dragon runes wins; otherwise the card goes back and a Season card is drawn as usual), ``.limit`` (1
Victory card per Season deck), ``.final-year`` (none placed in year 7); ``rw.term.turn`` and
``rw.quest-phase.not-a-turn`` (a player's turn is the resolution of his Order card; the Quest Phase is nobody's
turn).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import SerializerFunctionWrapHandler, model_serializer
from pydantic.json_schema import SkipJsonSchema

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome
from engine.runewars.common import GAME, Faction, Labels, Season, capital, faction_name, plural, the_player

Action = Annotated[Literal["place", "reveal"], Labels({"place": "Place it now", "reveal": "Reveal it"})]


class VictoryCardPosition(OpenPosition):
    """A Victory card placed now, or revealed as the Resolve Season Card step starts a year later."""

    game: Literal["runewars"]
    situation: Literal["victory_card"]
    action: Action = Field(title="Action", description="Place the Victory card now, or reveal it as the Resolve "
                           "Season Card step starts a year later.", json_schema_extra={"default": "place"})
    year: int = Field(ge=1, le=7, title="Game year", description="The current game year, 1 to 7.",
                      json_schema_extra={"default": 1})
    season: Season = Field(title="Season", description="The current season (for a reveal: the season whose "
                           "Resolve Season Card step is starting).", json_schema_extra={"default": "spring"})
    faction: Faction = Field(title="Player", description="The faction placing or revealing the card.")
    dragon_runes: int = Field(ge=0, le=40, title="Dragon runes controlled",
                              description="Dragon runes the player controls now.", json_schema_extra={"default": 0})
    timing: Annotated[Literal["own_turn", "quest_phase", "other"], Labels({"own_turn": "During his own turn",
                    "quest_phase": "In the Quest Phase", "other": "At another moment"})] = Field(
        "own_turn", title="When (place)", description="While resolving his own Order card, in the Quest Phase, or "
        "at any other moment.")
    deck_top: Faction | None = Field(None, title="Victory card already on this deck (place)", description="The "
                                     "faction whose Victory card already lies on the current season's deck, if any.")

    def reading(self) -> list[str]:
        """Who places or reveals the card, when, and the dragon runes he controls."""
        who = the_player(self.faction)
        if self.action == "reveal":
            return [f"{capital(who)} reveals his Victory card as the Resolve Season Card step of {self.season}, year "
                    f"{self.year}, starts.", f"He controls {plural(self.dragon_runes, 'dragon rune')}."]
        when = {"own_turn": "during his own turn", "quest_phase": "in the Quest Phase",
                "other": "outside his own turn"}[self.timing]
        out = [f"{capital(who)} places his Victory card {when}, in {self.season} of year {self.year}.",
               f"He controls {plural(self.dragon_runes, 'dragon rune')}."]
        out.append(f"The {faction_name(self.deck_top)} Victory card already lies on the {self.season} deck."
                   if self.deck_top else f"No Victory card lies on the {self.season} deck yet.")
        return out


class Resolves(Outcome):
    """When a placed Victory card is revealed."""

    year: int
    season: Season


class VictoryCardOutcome(Outcome):
    """Placing: whether the card is placed and when it is revealed. Revealing: the winner, or the card goes back
    and a Season card is drawn."""

    action: SkipJsonSchema[Action] = Field(exclude=True)
    placed: bool = False
    resolves: Resolves | None = None
    winner: Faction | None = None
    card_returned: bool | None = None
    season_card: bool | None = None

    @model_serializer(mode="wrap")
    def _keys(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        for key in (("winner", "card_returned", "season_card") if self.action == "place"
                    else ("placed", "resolves")):
            out.pop(key, None)
        return out


@rule("rw.victory-cards", "rw.victory-cards.resolving")
def has_enough_runes(dragon_runes: int, corpus: Corpus) -> bool:
    """Return whether the player controls the dragon runes a Victory card needs (6)."""
    return dragon_runes >= int(corpus.fact("rw.victory-cards", "dragon_runes_needed"))


@rule("rw.victory-cards.final-year")
def is_too_late(year: int, corpus: Corpus) -> bool:
    """Return whether it is too late to place a Victory card (after year 6: it could not resolve)."""
    return year > int(corpus.fact("rw.victory-cards.final-year", "last_year_to_place"))


@rule("rw.victory-cards.placing", "rw.victory-cards.limit", "rw.term.turn", "rw.quest-phase.not-a-turn")
def _may_place(pos: VictoryCardPosition, trace: Trace, corpus: Corpus) -> bool:
    """Placing: 6 dragon runes, not in the last year, 1 card per Season deck, during his own turn."""
    faction, year, season, runes, top = pos.faction, pos.year, pos.season, pos.dragon_runes, pos.deck_top
    need = int(corpus.fact("rw.victory-cards", "dragon_runes_needed"))
    if not has_enough_runes(runes, corpus):
        trace.violate(f"{the_player(faction)} controls {plural(runes, 'dragon rune')}; placing a Victory card "
                      f"takes {need}",
                      has_enough_runes, "rw.victory-cards.placing")
    if is_too_late(year, corpus):
        trace.violate(f"no Victory card may be placed in year {year}: it would resolve after the game ends",
                      is_too_late)
    if top is not None:
        trace.violate(f"the {season} deck already carries the {faction_name(top)} Victory card; only 1 per Season "
                      f"deck, so {the_player(faction)} must wait for his turn next season", "rw.victory-cards.limit")
    if pos.timing != "own_turn":
        why = ("the Quest Phase is no player's turn" if pos.timing == "quest_phase"
               else "a Victory card is placed only during its owner's turn")
        trace.violate(f"{why}; he places it while resolving his own Order card", "rw.victory-cards.placing",
                      "rw.term.turn", *(["rw.quest-phase.not-a-turn"] if pos.timing == "quest_phase" else []))
    return not trace.violations


@rule("rw.victory-cards.placing", "rw.term.turn", "rw.victory-cards", "rw.victory-cards.final-year")
def _place(pos: VictoryCardPosition, trace: Trace, corpus: Corpus) -> VictoryCardOutcome:
    """He shows the dragon runes and places the card facedown on the current Season deck."""
    if not _may_place(pos, trace, corpus):
        return VictoryCardOutcome(action="place", placed=False)
    faction, year, season, runes = pos.faction, pos.year, pos.season, pos.dragon_runes
    need = int(corpus.fact("rw.victory-cards", "dragon_runes_needed"))
    trace.step(f"During his turn {the_player(faction)} reveals dragon runes one by one until {need} are shown ({runes} "
               f"controlled); they stay faceup.", "rw.victory-cards.placing", "rw.term.turn", has_enough_runes)
    trace.step(f"He places his Victory card facedown on the {season} Season deck; it resolves in {season} of year "
               f"{year + 1}.", "rw.victory-cards.placing", "rw.victory-cards", "rw.victory-cards.final-year")
    player = faction_name(faction)
    trace.summarize(f"The {player} player places the Victory card on the {season} deck: it is revealed in "
                    f"{season} of year {year + 1}, and wins if he still controls {need} dragon runes then")
    return VictoryCardOutcome(action="place", placed=True, resolves=Resolves(year=year + 1, season=season))


@rule("rw.victory-cards", "rw.victory-cards.placing", "rw.victory-cards.resolving", "rw.victory-cards.example")
def _reveal(pos: VictoryCardPosition, trace: Trace, corpus: Corpus) -> VictoryCardOutcome:
    """A year later, before the Season card is drawn: 6 dragon runes win, else the card goes back."""
    faction, year, season, runes = pos.faction, pos.year, pos.season, pos.dragon_runes
    need = int(corpus.fact("rw.victory-cards", "dragon_runes_needed"))
    if year == 1:
        trace.violate("no Victory card can be revealed in year 1: it is placed a year before it is revealed",
                      "rw.victory-cards", "rw.victory-cards.placing")
        return VictoryCardOutcome(action="reveal")
    trace.step(f"The Resolve Season Card step of {season}, year {year}, starts with the {faction_name(faction)} "
               f"Victory card on "
               f"the deck: he reveals it before any Season card is drawn.", "rw.victory-cards.resolving")
    if has_enough_runes(runes, corpus):
        trace.step(f"{capital(the_player(faction))} shows {runes} dragon runes, at least {need}: he resolves the "
                   "card and wins the game.",
                   has_enough_runes)
        trace.summarize(f"The {faction_name(faction)} player "
                        f"controls {runes} dragon runes and wins the game with the Victory card")
        return VictoryCardOutcome(action="reveal", winner=faction, card_returned=False, season_card=False)
    trace.step(f"{capital(the_player(faction))} controls only {runes} of the {need} dragon runes needed: he takes "
               f"the Victory card back "
               f"and a Season card is drawn and resolved as usual.", has_enough_runes, "rw.victory-cards.example")
    short = need - runes
    trace.summarize(f"The {faction_name(faction)} player is {plural(short, 'dragon rune')} short: the "
                    f"Victory card goes back to him and the Season card is drawn as usual")
    return VictoryCardOutcome(action="reveal", card_returned=True, season_card=True)


LABELS: dict[str, Label] = {
    "placed": "Victory card placed", "resolves": "Revealed in", "winner": "Wins the game",
    "card_returned": "Card goes back to its owner", "season_card": "Season card drawn as usual",
}


@situation(GAME, "victory_card", VictoryCardPosition, labels=LABELS)
def resolve_victory_card(pos: VictoryCardPosition, trace: Trace, corpus: Corpus) -> VictoryCardOutcome:
    """Place a Victory card with 6 dragon runes, or reveal it a year later to win (or take it back)."""
    return _place(pos, trace, corpus) if pos.action == "place" else _reveal(pos, trace, corpus)
