"""Runeslingers effects on a deck: sear, void, set, place, discard from the deck, and look.

The deck is bottomless (``rs.golden-rules.bottomless-deck``): an effect that takes cards from the deck always
resolves in full (``rs.resolving-effects.deck-exception``). When the deck holds 0 cards, everything pauses, the
Runeslinger loses a power (``rs.power-loss-conditions.empty-deck``), the discard pile is shuffled in as the new
deck, and the effect resumes; with no cards in deck and discard pile at once the player loses
(``rs.game-loss-conditions``). Seared cards go face up to the discard pile (``rs.term.sear``), voided ones to
the void pile, which is never shuffled back (``rs.term.void``, ``rs.your-field.void-pile``). Looking takes no
card, so an empty deck costs nothing (``rs.golden-rules.bottomless-deck``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome, labelled, maybe
from engine.runeslingers.common import (
    GAME,
    Determination,
    Power,
    Standing,
    is_defeated,
    plural,
    record_power_loss,
    standing_words,
)
from engine.runeslingers.draw import is_deck_empty, is_game_lost

DeckEffect = Literal["sear", "void", "discard", "set", "place", "look"]
WORDS = {"sear": "Sear (top cards to the discard pile)", "void": "Void (top cards to the void pile)",
         "discard": "Discard from the deck", "set": "Set from the deck", "place": "Place from the deck",
         "look": "Look at the top cards"}
GOES = {"sear": "the discard pile", "void": "the void pile", "discard": "the discard pile",
        "set": "where the effect sets them", "place": "where the effect places them"}


class DeckEffectPosition(OpenPosition):
    """An effect taking cards from the top of a deck (or looking at them), and the piles it works on."""

    game: Literal["runeslingers"]
    situation: Literal["deck_effect"]
    effect: DeckEffect = Field(title="Effect", description="What the effect does with the top cards of the deck.",
                               json_schema_extra=labelled(WORDS))
    amount: int = Field(ge=1, le=99, title="How many cards", description="The number the effect names.")
    deck: int = Field(ge=0, le=999, title="Cards in deck", description="Cards in the deck before the effect.")
    discard: int = Field(ge=0, le=999, title="Cards in discard pile", description="Cards in the discard pile "
                         "before the effect (shuffled in as the new deck when the deck runs out).")
    void: int = Field(0, ge=0, le=999, title="Cards in void pile", description="Cards in the void pile (never "
                      "shuffled back).")
    power: Power = Field(title="Power", description="The Runeslinger's power before the effect (an empty deck "
                         "costs 1).")
    determination: Determination | None = maybe("Determination held (1 is gained per power lost).",
                                                title="Determination")

    def reading(self) -> list[str]:
        """The effect, the piles and the Runeslinger's standing."""
        return [f"Effect: {WORDS[self.effect].lower()}, {plural(self.amount, 'card')}.",
                f"Deck: {plural(self.deck, 'card')}; discard pile: {plural(self.discard, 'card')}; void pile: "
                f"{plural(self.void, 'card')}.",
                f"The Runeslinger has {standing_words(self.power, self.determination)}."]


class DeckEffectOutcome(Outcome):
    """The piles after the effect, the cards it took, reshuffles, power lost, and a loss."""

    deck: int
    discard: int
    void: int
    taken: int
    looked_at: int
    reshuffles: int
    power: int
    determination: int
    power_lost: int
    defeated: bool
    game_lost: bool


@dataclass(frozen=True)
class Piles:
    """Deck, discard and void piles (card counts) and the standing, while the effect resolves."""

    deck: int
    discard: int
    void: int
    standing: Standing
    taken: int = 0
    reshuffles: int = 0
    game_lost: bool = False


@rule("rs.term.sear", "rs.term.void", "rs.your-field.void-pile", "rs.your-field.discard-pile")
def destination(effect: str) -> str:
    """Return the pile the cards go to: sear and discard to the discard pile, void to the void pile."""
    return {"sear": "discard", "discard": "discard", "void": "void"}.get(effect, "elsewhere")


@rule("rs.power-loss-conditions.empty-deck", "rs.golden-rules.bottomless-deck", "rs.your-field.deck",
      "rs.your-field.void-pile",
      "rs.game-loss-conditions")
def _empty(piles: Piles, trace: Trace, corpus: Corpus) -> Piles:
    """The deck holds 0 cards: pause, lose a power, shuffle the discard pile in (or lose), resume."""
    standing = record_power_loss(piles.standing, "The deck holds 0 cards, so everything pauses", trace, corpus,
                                 is_deck_empty)
    piles = replace(piles, standing=standing)
    if is_defeated(standing.power, corpus):
        return piles
    if is_game_lost(piles.deck, piles.discard, corpus):
        trace.step("The discard pile is empty too: no cards in deck and discard pile at the same time, so the "
                   "player loses the encounter" + (" (the void pile never comes back)." if piles.void else "."),
                   is_game_lost, "rs.your-field.void-pile")
        return replace(piles, game_lost=True)
    trace.step(f"The discard pile ({plural(piles.discard, 'card')}) is shuffled and placed face down as the new "
               "deck" + (f"; the {plural(piles.void, 'card')} in the void pile stay there" if piles.void else "")
               + "; the paused effect resumes.", "rs.your-field.deck", "rs.your-field.void-pile")
    return replace(piles, deck=piles.discard, discard=0, reshuffles=piles.reshuffles + 1)


def _stopped(piles: Piles, corpus: Corpus) -> bool:
    return piles.game_lost or is_defeated(piles.standing.power, corpus)


@rule("rs.resolving-effects.deck-exception", "rs.term.sear", "rs.term.void")
def _take(pos: DeckEffectPosition, piles: Piles, trace: Trace, corpus: Corpus) -> Piles:
    """Take the cards in full, pausing for an empty deck whenever it runs out."""
    where = destination(pos.effect)
    if is_deck_empty(piles.deck, corpus):
        trace.step("The deck already holds 0 cards.", is_deck_empty)
        piles = _empty(piles, trace, corpus)
    left = pos.amount
    while left > 0 and not _stopped(piles, corpus):
        take = min(left, piles.deck)
        left -= take
        piles = replace(piles, deck=piles.deck - take, taken=piles.taken + take,
                        discard=piles.discard + (take if where == "discard" else 0),
                        void=piles.void + (take if where == "void" else 0))
        verb = "goes" if take == 1 else "go"
        trace.step(f"{plural(take, 'card')} from the top of the deck {verb} to {GOES[pos.effect]}"
                   + (" face up" if pos.effect in ("sear", "void") else "") + f"; {piles.deck} left in the deck.",
                   destination)
        if is_deck_empty(piles.deck, corpus):
            piles = _empty(piles, trace, corpus)
    if left > 0 and not _stopped(piles, corpus):
        trace.step("An effect on a deck always resolves in full: it goes on after the reshuffle.",
                   "rs.resolving-effects.deck-exception")
    return piles


@rule("rs.golden-rules.bottomless-deck")
def _look(pos: DeckEffectPosition, trace: Trace) -> int:
    """Looking takes no card: the player sees what there is, and an empty deck does nothing."""
    seen = min(pos.amount, pos.deck)
    trace.step(f"Looking moves no card, so the bottomless deck rule does not apply: the player looks at "
               f"{plural(seen, 'card')}" + (" (the deck holds no more); nothing is reshuffled and no power is lost."
                                            if seen < pos.amount else "."), "rs.golden-rules.bottomless-deck")
    return seen


def _summary(pos: DeckEffectPosition, out: DeckEffectOutcome, trace: Trace) -> str:
    """One sentence: the cards taken, power lost, and a loss or defeat."""
    if pos.effect == "look":
        return f"The player looks at {plural(out.looked_at, 'card')}; nothing else happens."
    if out.game_lost:
        return "The player loses the encounter: the deck and the discard pile are both empty."
    if out.defeated:
        return "The Runeslinger is defeated: the empty deck costs its last power."
    text = f"{plural(out.taken, 'card')} {'goes' if out.taken == 1 else 'go'} to {GOES[pos.effect]}"
    if out.power_lost:
        text += (f"; the empty deck costs {plural(out.power_lost, 'power', 'powers')} and the discard pile is "
                 "reshuffled")
    return text + "."


LABELS: dict[str, Label] = {
    "deck": "Cards in deck", "discard": "Cards in discard pile", "void": "Cards in void pile",
    "taken": "Cards taken", "looked_at": "Cards looked at", "reshuffles": "Reshuffles", "power": "Power",
    "determination": "Determination", "power_lost": "Power lost", "defeated": "Defeated",
    "game_lost": "Encounter lost",
}


@situation(GAME, "deck_effect", DeckEffectPosition, labels=LABELS)
@summarized(_summary)
@rule("rs.resolving-effects.deck-exception")
def resolve_deck_effect(pos: DeckEffectPosition, trace: Trace, corpus: Corpus) -> DeckEffectOutcome:
    """Resolve sear, void, set, place or discard from a deck (the bottomless deck), or looking at it."""
    piles = Piles(pos.deck, pos.discard, pos.void, Standing(pos.power, pos.determination or 0))
    seen = 0
    if pos.effect == "look":
        seen = _look(pos, trace)
    else:
        piles = _take(pos, piles, trace, corpus)
    power, determination, power_lost, defeated = piles.standing.values(corpus)
    return DeckEffectOutcome(deck=piles.deck, discard=piles.discard, void=piles.void, taken=piles.taken,
                             looked_at=seen, reshuffles=piles.reshuffles, power=power, determination=determination,
                             power_lost=power_lost, defeated=defeated, game_lost=piles.game_lost)
