"""Rune Age, The Monument's Event cards the FAQ rules on: Thieves' Guild, A Change of Seasons and Dar Hilzernod.

Paragraphs: ``rafaq.errata.cards.2`` and ``rafaq.faq.scenarios.the-monument.1`` (Thieves' Guild),
``ra.setup.4`` with ``rafaq.faq.scenarios.the-monument.2`` (play order), ``rafaq.faq.scenarios.the-monument.3``
and ``.4`` (where Dar Hilzernod goes) and ``ra.instant-event-cards`` (first player, then clockwise). The cards'
printed effects are not in the books: a player states which of Thieves' Guild's two options he picks and
whether he can carry it out in full.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, labelled, maybe, refuse_repeats
from engine.rune_age.words import listing

CARDS = {"thieves_guild": "Thieves' Guild", "change_of_seasons": "A Change of Seasons",
         "dar_hilzernod": "Dar Hilzernod"}
OPTIONS = {"first": "The card's first option", "second": "The card's second option"}
DIRECTIONS = {"clockwise": "Clockwise", "counter_clockwise": "Counter-clockwise"}
MOMENTS = {"drawn": "It is drawn", "defeated": "It is defeated", "city_taken": "Its city is taken in combat"}


class City(Model):
    """A city and its influence."""

    name: str = Field(max_length=200, min_length=1, title="City")
    influence: int = Field(ge=0, le=20, title="Influence", description="As printed on the city.")


class MonumentPlayer(Model):
    """A player, in turn order from the first player, his cities and his Thieves' Guild choice."""

    model_config = ConfigDict(title="Player")

    player: str = Field(max_length=80, min_length=1, title="Player")
    cities: list[City] = Field([], max_length=12, title="Cities he controls")
    option: Literal["first", "second"] | None = maybe("Thieves' Guild: the option he picks (left out: not "
                                                      "chosen yet).", title="Option picked", labels=OPTIONS)
    can_fully_resolve: bool = Field(True, title="Can carry out his option in full (Thieves' Guild)")


class MonumentEventPosition(OpenPosition):
    """A Monument Event card being resolved, the players in turn order and what the card needs to know."""

    game: Literal["rune-age"]
    situation: Literal["monument_event"]
    card: Literal["thieves_guild", "change_of_seasons", "dar_hilzernod"] = Field(
        title="Event card", description="The Monument scenario's Event card being resolved.",
        json_schema_extra=labelled(CARDS))
    players: list[MonumentPlayer] = Field(min_length=1, max_length=4, title="Players, from the first player on")
    play_order: Literal["clockwise", "counter_clockwise"] = Field(
        "clockwise", title="Play order so far", json_schema_extra=labelled(DIRECTIONS))
    moment: Literal["drawn", "defeated", "city_taken"] = Field(
        "drawn", title="Dar Hilzernod: when", description="For Dar Hilzernod: whether it was just drawn, its "
        "Enemy was defeated, or the city it stands on was taken.", json_schema_extra=labelled(MOMENTS))
    central_cities: list[City] = Field([], max_length=12, title="Cities in the central play area")
    placed_on: str | None = maybe("Dar Hilzernod: the city the placing player chooses among those tied for the "
                                  "highest influence (left out: not chosen yet).", title="City chosen",
                                  max_length=200)

    @model_validator(mode="after")
    def _distinct(self) -> MonumentEventPosition:
        """Refuse a player listed twice."""
        refuse_repeats([p.player for p in self.players], "players[{i}].player", "player")
        return self

    def reading(self) -> list[str]:
        """Restate the card, the play order and each player's cities and choice."""
        out = [f"Event card: {CARDS[self.card]}.", f"Play order so far: {DIRECTIONS[self.play_order].lower()}."]
        for p in self.players:
            cities = listing((f"{c.name} (influence {c.influence})" for c in p.cities), "no city")
            pick = f"; picks {OPTIONS[p.option].lower()}" if p.option else ""
            out.append(f"{p.player}: {cities}{pick}.")
        if self.central_cities:
            out.append("Central cities: " + listing(f"{c.name} (influence {c.influence})"
                                                    for c in self.central_cities) + ".")
        return out


class MonumentEventOutcome(Outcome):
    """What the card decides: the play order, each player's option, or where Dar Hilzernod goes."""

    play_order: Literal["clockwise", "counter_clockwise"] | None = Field(None, exclude_if=lambda v: v is None)
    options: dict[str, str] = Field(default_factory=dict)
    placed_by: str | None = None
    placed_on: str | None = None


LABELS: dict[str, Label] = {"play_order": ("Play order from now on", DIRECTIONS), "options": "Options picked",
                            "placed_by": "Placed by", "placed_on": "Placed on"}


def _summary(pos: MonumentEventPosition, out: MonumentEventOutcome, trace: Trace) -> str:
    """One sentence per card."""
    pending = next((d for d in trace.decisions), None)
    if pending:
        return f"{pending.who} chooses next: {pending.choose}."
    if pos.card == "change_of_seasons":
        return "Play runs counter-clockwise for the rest of the game; resolving the card again never turns it back."
    if pos.card == "thieves_guild":
        return "Every player has picked an option of Thieves' Guild and carries it out as far as he can."
    if pos.moment == "city_taken":
        return "Dar Hilzernod stays on its city, now in the hands of the player who won it."
    return f"{out.placed_by} places Dar Hilzernod on {out.placed_on}."


@rule("rafaq.faq.scenarios.the-monument.2", "ra.setup.4")
def order_after_seasons(before: str) -> Literal["counter_clockwise"]:
    """Return the play order once A Change of Seasons resolves: counter-clockwise, whatever it was before."""
    return "counter_clockwise"


@rule("rafaq.faq.scenarios.the-monument.2", "ra.setup.4")
def _seasons(pos: MonumentEventPosition, out: MonumentEventOutcome, trace: Trace) -> None:
    """A Change of Seasons: play turns counter-clockwise for good."""
    out.play_order = order_after_seasons(pos.play_order)
    again = pos.play_order == "counter_clockwise"
    trace.step("Play normally runs clockwise from the first player; A Change of Seasons makes it run "
               "counter-clockwise for the rest of the game"
               + ("; it already does, and resolving the card again does not flip it back." if again else "."),
               "ra.setup.4", "rafaq.faq.scenarios.the-monument.2")


@rule("rafaq.faq.scenarios.the-monument.1", "rafaq.errata.cards.2", "ra.instant-event-cards")
def _thieves(pos: MonumentEventPosition, out: MonumentEventOutcome, trace: Trace) -> None:
    """Thieves' Guild: from the first player clockwise, each picks either option and does what he can of it."""
    trace.step("Thieves' Guild is resolved for the first player, then clockwise; where it says the common play "
               "area it means the central play area (erratum).", "ra.instant-event-cards", "rafaq.errata.cards.2")
    for i, p in enumerate(pos.players):
        if p.option is None:
            trace.decide(p.player, "which option of Thieves' Guild he picks (either, even one he cannot carry out "
                         "in full)", "rafaq.faq.scenarios.the-monument.1", options=list(OPTIONS),
                         field=f"players[{i}].option")
            return
        out.options[p.player] = p.option
        trace.step(f"{p.player} picks {OPTIONS[p.option].lower()}"
                   + (" and carries it out." if p.can_fully_resolve
                      else "; he cannot carry it out in full, which is allowed: he does as much of it as he can."),
                   "rafaq.faq.scenarios.the-monument.1")


def best_cities(cities: list[City]) -> list[City]:
    """Return the cities tied for the highest influence."""
    top = max(c.influence for c in cities)
    return [c for c in cities if c.influence == top]


@rule("rafaq.faq.scenarios.the-monument.4", "rafaq.faq.scenarios.the-monument.3")
def _dar(pos: MonumentEventPosition, out: MonumentEventOutcome, trace: Trace) -> None:
    """Dar Hilzernod: the first player with a city (clockwise from the first) puts it on his best city."""
    if pos.moment == "city_taken":
        trace.step("The city Dar Hilzernod stands on is won in combat by another player: Dar Hilzernod stays on "
                   "that city.", "rafaq.faq.scenarios.the-monument.3")
        out.placed_on = "the same city"
        return
    holder = next((p for p in pos.players if p.cities), None)
    if holder is not None:
        skipped = [p.player for p in pos.players[:pos.players.index(holder)]]
        trace.step((f"{listing(skipped)} {'controls' if len(skipped) == 1 else 'control'} no city, so it passes "
                    f"clockwise; " if skipped else "") + f"{holder.player} places it on his own city of highest "
                   "influence.", "rafaq.faq.scenarios.the-monument.4")
        out.placed_by, pool = holder.player, list(holder.cities)
    else:
        trace.step("No player controls a city, so the first player places it on the central city of highest "
                   "influence.", "rafaq.faq.scenarios.the-monument.4")
        out.placed_by, pool = pos.players[0].player, list(pos.central_cities)
        if not pool:
            trace.violate("no city lies in the central play area to place it on", "rafaq.faq.scenarios.the-monument.4")
            return
    tied = best_cities(pool)
    names = [c.name for c in tied]
    if len(tied) == 1 or pos.placed_on in names:
        out.placed_on = pos.placed_on if pos.placed_on in names else names[0]
        trace.step(f"Dar Hilzernod goes on {out.placed_on} (influence {tied[0].influence}).",
                   "rafaq.faq.scenarios.the-monument.4")
        return
    trace.decide(out.placed_by, f"which city of highest influence ({tied[0].influence}) gets Dar Hilzernod",
                 "rafaq.faq.scenarios.the-monument.4", options=names, field="placed_on")


@situation("rune-age", "monument_event", MonumentEventPosition, labels=LABELS)
@summarized(_summary)
def resolve_monument_event(pos: MonumentEventPosition, trace: Trace, corpus: Corpus) -> MonumentEventOutcome:
    """Resolve Thieves' Guild, A Change of Seasons or Dar Hilzernod as the FAQ rules."""
    out = MonumentEventOutcome()
    {"change_of_seasons": _seasons, "thieves_guild": _thieves, "dar_hilzernod": _dar}[pos.card](pos, out, trace)
    return out
