"""Runewars Tactics cards: when one may be played, and the 10-card hand limit (page 31).

Paragraphs: ``rw.tactics-cards`` and ``rw.component.tactics-cards`` (the deck and where cards come from),
``rw.tactics-cards.timing`` (each card names its moment; most are played during the player's own turn, which
runs from just before to just after resolving his Order card), ``rw.tactics-cards.same-season`` (never in the
season it was drawn), ``rw.tactics-cards.battles-and-duels`` (a battle or duel card needs the player's own units
or hero taking part), ``rw.battles.2.neutral-controller`` (the player controlling defending unallied neutral units
plays no Tactics card for them), ``rw.tactics-cards.hand-limit`` and ``rw.frequently-overlooked-rules.3`` (10 at
most: discard the excess at once). The card's printed moment is the player's to state, as an enumerated choice.
"""

from __future__ import annotations

from typing import Annotated, Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome
from engine.runewars.common import GAME, Faction, Labels, capital, plural, the_player

Drawn = Annotated[Literal["this_season", "earlier"], Labels({
    "this_season": "In this same season", "earlier": "In an earlier season"})]
Timing = Annotated[Literal["own_turn", "battle", "duel", "other"], Labels({
    "own_turn": "During his own turn", "battle": "During a battle", "duel": "During a duel",
    "other": "At another moment the card names"})]
LIMIT = 10


class TacticsPosition(OpenPosition):
    """A player wanting to play a Tactics card: when he drew it, when it says to play it, and where he stands."""

    game: Literal["runewars"]
    situation: Literal["tactics_card"]
    player: Faction = Field(title="Player", description="The faction playing the card.")
    drawn: Drawn = Field("earlier", title="He drew the card", description="When the card came into his hand.")
    timing: Timing = Field("own_turn", title="The card is played", description="The moment printed on the card.")
    own_turn: bool = Field(True, title="It is his own turn", description="He is resolving his Order card now (just "
                           "before or just after it included).")
    moment: bool = Field(True, title="The card's moment has come", description="For a card naming another moment: "
                         "that moment is now.")
    units: int = Field(0, ge=0, le=8, title="His units taking part", description="For a battle: his own units (allied "
                       "neutral units included) fighting in it.")
    hero: bool = Field(False, title="His hero takes part", description="For a battle or duel: one of his heroes is "
                       "in it.")
    neutral_controller: bool = Field(False, title="He only controls the neutral defenders",
                                     description="For a battle: he takes part only as the player controlling the "
                                                 "defending unallied neutral units.")
    hand: int = Field(1, ge=1, le=LIMIT, title="Tactics cards in hand", description="Including this one.")
    draws: int = Field(0, ge=0, le=12, title="Tactics cards he draws now",
                       description="Cards he is about to draw (Strategize, Rally Support, a Season card), if any.")

    def reading(self) -> list[str]:
        """The card, its moment and the player's part, in a player's words."""
        who = capital(the_player(self.player))
        when = {"own_turn": "during his own turn", "battle": "in a battle", "duel": "in a duel",
                "other": "at a moment it names"}[self.timing]
        out = [f"{who} holds {plural(self.hand, 'Tactics card')} and wants to play one that is played {when}, drawn "
               + ("this season." if self.drawn == "this_season" else "in an earlier season.")]
        if self.timing == "own_turn":
            out.append("It is his own turn." if self.own_turn else "It is not his turn.")
        elif self.timing == "other":
            out.append("The card's moment has come." if self.moment else "The card's moment has not come.")
        else:
            out.append(f"He has {plural(self.units, 'unit')} taking part" + (" and a hero." if self.hero else "."))
            if self.neutral_controller:
                out.append("He controls the defending unallied neutral units.")
        if self.draws:
            out.append(f"He draws {plural(self.draws, 'Tactics card')}.")
        return out


class TacticsOutcome(Outcome):
    """Whether the card may be played now, and how many cards he must discard to the limit."""

    may_play: bool | None = None
    discard: int = 0


@rule("rw.tactics-cards.same-season", "rw.tactics-cards.timing", "rw.tactics-cards.battles-and-duels",
      "rw.battles.2.neutral-controller")
def reason_not(pos: TacticsPosition) -> tuple[str, str] | None:
    """Return why the card may not be played now (and the paragraph), or None."""
    if pos.drawn == "this_season":
        return "he drew it this season; it can be played from the next season on", "rw.tactics-cards.same-season"
    if pos.timing == "own_turn" and not pos.own_turn:
        return "the card is played during his own turn and this is not his turn", "rw.tactics-cards.timing"
    if pos.timing == "other" and not pos.moment:
        return "the moment the card names has not come", "rw.tactics-cards.timing"
    if pos.timing in ("battle", "duel"):
        takes_part = pos.hero or (pos.timing == "battle" and pos.units > 0)
        if pos.neutral_controller and not takes_part:
            return ("controlling the defending unallied neutral units, he may not play Tactics cards in this battle",
                    "rw.battles.2.neutral-controller")
        if not takes_part:
            return (f"none of his own units or heroes takes part in that {pos.timing}",
                    "rw.tactics-cards.battles-and-duels")
    return None


@rule("rw.tactics-cards.hand-limit", "rw.frequently-overlooked-rules.3", "rw.tactics-cards")
def _limit(pos: TacticsPosition, trace: Trace, out: TacticsOutcome) -> None:
    after = pos.hand - (1 if out.may_play else 0) + pos.draws
    if pos.draws:
        trace.step(f"He draws {plural(pos.draws, 'Tactics card')} and holds {after}.", "rw.tactics-cards")
    if after > LIMIT:
        out.discard = after - LIMIT
        trace.step(f"{after} is over the limit of {LIMIT}: he discards {out.discard} of his choice at once.",
                   "rw.tactics-cards.hand-limit", "rw.frequently-overlooked-rules.3")


LABELS: dict[str, Label] = {"may_play": "May play it now", "discard": "Cards to discard"}


def _summary(pos: TacticsPosition, out: TacticsOutcome, trace: Trace) -> str:
    head = capital(the_player(pos.player))
    tail = f"; he discards {plural(out.discard, 'Tactics card')} to the limit" if out.discard else ""
    if out.may_play:
        return f"{head} may play the Tactics card now{tail}"
    why = reason_not(pos)
    return f"{head} may not play the Tactics card now: {why[0] if why else 'not its moment'}{tail}"


@situation(GAME, "tactics_card", TacticsPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.tactics-cards.timing", "rw.component.tactics-cards", "rw.tactics-cards.same-season",
      "rw.tactics-cards.battles-and-duels", "rw.battles.2.neutral-controller")
def resolve_tactics_card(pos: TacticsPosition, trace: Trace, corpus: Corpus) -> TacticsOutcome:
    """Decide whether a Tactics card may be played now, and the discards the 10-card limit calls for."""
    out = TacticsOutcome()
    trace.step("Each Tactics card names when it is played; most are played during their player's own turn, just "
               "before or just after his Order card included.", "rw.tactics-cards.timing",
               "rw.component.tactics-cards")
    why = reason_not(pos)
    out.may_play = why is None
    if why:
        trace.step(f"He may not play it now: {why[0]}.", why[1])
    else:
        part = {"battle": "his own units or hero take part in the battle", "duel": "his hero fights the duel"}
        trace.step("He drew it in an earlier season and its moment has come"
                   + (f", and {part[pos.timing]}" if pos.timing in part else "") + ": he may play it.",
                   "rw.tactics-cards.same-season", "rw.tactics-cards.timing",
                   *(["rw.tactics-cards.battles-and-duels"] if pos.timing in part else []))
    _limit(pos, trace, out)
    return out
