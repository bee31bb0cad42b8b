"""Runeslingers drawing: the bottomless deck, the maximum hand size, and discarding from a short hand.

Paragraphs: ``rs.phases-of-a-turn.draw``, ``rs.setup-steps.hand``, ``rs.setup-steps.5``,
``rs.golden-rules.bottomless-deck``, ``rs.power-loss-conditions.empty-deck`` (contested: the engine
follows the power loss condition), ``rs.game-loss-conditions``, ``rs.resolving-effects`` and its deck
exception, and the targets example ``rs.advanced-rules-targets.example-3``.

``chosen`` [card names] states which cards a hand discard takes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome, maybe
from engine.runeslingers.common import (
    GAME,
    Determination,
    Power,
    Standing,
    agree,
    is_defeated,
    joined,
    plural,
    record_power_loss,
    standing_words,
)

PassChoice = Literal["draw_third_card", "return_concentration"]


class DrawPosition(OpenPosition):
    """A player drawing cards: the hand, deck and discard pile, the draw, and the player's standing."""

    game: Literal["runeslingers"]
    situation: Literal["draw"]
    hand: int = Field(ge=0, le=99)
    max_hand: int | None = maybe(ge=0, le=99)
    deck: int = Field(ge=0, le=999)
    discard: int = Field(ge=0, le=999)
    draw: int | None = maybe(ge=0, le=99)
    power: Power
    determination: Determination | None = maybe()
    first_turn: bool | None = maybe()
    passed: bool | None = maybe()
    pass_choice: PassChoice | None = maybe()

    def reading(self) -> list[str]:
        """The piles, the draw, the player's standing and the pass."""
        out = [f"Hand: {plural(self.hand, 'card')} (at most {'8' if self.max_hand is None else self.max_hand}); "
               f"deck: {plural(self.deck, 'card')}; discard pile: {plural(self.discard, 'card')}.",
               f"Draw: {plural(self.draw, 'card')} from an effect." if self.draw is not None else
               "Draw: the Draw Phase" + (", on the first turn of the encounter." if self.first_turn else "."),
               f"The player has {standing_words(self.power, self.determination)}."]
        if self.pass_choice == "draw_third_card":
            out.append("The player passes and draws 1 more card.")
        elif self.pass_choice == "return_concentration":
            out.append("The player passes and returns an exposed concentration to the hand.")
        elif self.passed:
            out.append("The player passes (what they take for it is not stated).")
        return out


class DiscardFromHandPosition(OpenPosition):
    """An effect discarding cards from a hand: the hand, the amount, and the cards taken."""

    game: Literal["runeslingers"]
    situation: Literal["discard_from_hand"]
    hand: int = Field(ge=0, le=99)
    amount: int = Field(ge=0, le=99)
    at_random: bool | None = maybe()
    chosen: list[Annotated[str, Field(max_length=200)]] | None = maybe(max_length=99)

    def reading(self) -> list[str]:
        """The hand, the amount, and how the cards are picked."""
        out = [f"An effect discards {plural(self.amount, 'card')} from a hand of {self.hand}"
               + (", at random." if self.at_random else ".")]
        if self.chosen is not None:
            out.append(f"Cards named: {joined(self.chosen)}.")
        return out


class DrawOutcome(Outcome):
    """What drawing does: the piles after it, the cards drawn and discarded, and any power lost."""

    hand: int
    deck: int
    discard: int
    discarded: int
    drawn: int
    reshuffles: int
    game_lost: bool
    power: int
    determination: int
    power_lost: int
    defeated: bool


class DiscardFromHandOutcome(Outcome):
    """What a hand discard does: the cards discarded and those left."""

    discarded: int
    hand: int


@dataclass(frozen=True)
class Piles:
    """A player's hand, deck and discard pile (card counts) and standing while drawing."""

    hand: int
    deck: int
    discard: int
    standing: Standing
    drawn: int = 0
    discarded: int = 0
    reshuffles: int = 0
    game_lost: bool = False

    @property
    def stopped(self) -> bool:
        """Return whether the encounter ended for this player (game loss; defeat is checked by the caller)."""
        return self.game_lost


@rule("rs.setup-steps.hand", "rs.phases-of-a-turn.draw")
def max_hand_size(stated: int | None, corpus: Corpus) -> int:
    """Return the maximum hand size: 8 unless the position states another (for example Fragment II's 4)."""
    return stated if stated is not None else int(corpus.fact("rs.setup-steps.hand", "max_hand_size"))


@rule("rs.phases-of-a-turn.draw", "rs.setup-steps.5")
def phase_draws(first_turn: bool, corpus: Corpus) -> int:
    """Return the Draw Phase draw: 2 cards, only 1 for the player taking the encounter's first turn."""
    if first_turn:
        return int(corpus.fact("rs.setup-steps.5", "first_turn_draw_first_player"))
    return int(corpus.fact("rs.phases-of-a-turn.draw", "draw_per_turn"))


@rule("rs.setup-steps.hand", "rs.phases-of-a-turn.draw")
def split_draw(take: int, hand: int, max_hand: int) -> tuple[int, int]:
    """Return (into hand, discarded): a card drawn while the hand is at its maximum is discarded instead."""
    room = max(0, max_hand - hand)
    into = min(take, room)
    return into, take - into


@rule("rs.power-loss-conditions.empty-deck", "rs.golden-rules.bottomless-deck")
def is_deck_empty(deck: int, corpus: Corpus) -> bool:
    """Return whether the empty-deck power loss applies: the deck holds 0 cards (the engine's reading)."""
    return deck <= int(corpus.fact("rs.power-loss-conditions.empty-deck", "deck_empty_at_cards"))


@rule("rs.game-loss-conditions")
def is_game_lost(deck: int, discard: int, corpus: Corpus) -> bool:
    """Return whether the player loses the encounter: deck and discard pile both hold no cards at once."""
    return bool(corpus.fact("rs.game-loss-conditions", "lose_if_deck_and_discard_empty")) and deck == 0 \
        and discard == 0


@rule("rs.resolving-effects.deck-exception")
def _empty_deck(piles: Piles, trace: Trace, corpus: Corpus) -> Piles:
    """Apply the empty-deck power loss, then shuffle the discard pile in as the new deck (or lose)."""
    why = "The deck holds 0 cards, so everything pauses"
    standing = record_power_loss(piles.standing, why, trace, corpus, is_deck_empty)
    piles = replace(piles, standing=standing)
    if is_defeated(standing.power, corpus):
        return piles
    if is_game_lost(piles.deck, piles.discard, corpus):
        trace.step("The discard pile is empty too: with no cards in deck and discard pile at the same time, "
                   "the player loses the encounter.", is_game_lost)
        return replace(piles, game_lost=True)
    trace.step(f"The discard pile ({plural(piles.discard, 'card')}) is shuffled and becomes the new deck; the paused "
               "draw resumes.", is_deck_empty, "rs.resolving-effects.deck-exception")
    return replace(piles, deck=piles.discard, discard=0, reshuffles=piles.reshuffles + 1)


def draw_cards(piles: Piles, count: int, max_hand: int, trace: Trace, corpus: Corpus) -> Piles:
    """Draw *count* cards in full (the deck is bottomless), discarding those beyond the maximum hand size."""
    if is_deck_empty(piles.deck, corpus):
        trace.step("The deck already holds 0 cards.", is_deck_empty)
        piles = _empty_deck(piles, trace, corpus)
    left = count
    while left > 0 and not piles.stopped and not is_defeated(piles.standing.power, corpus):
        take = min(left, piles.deck)
        into, over = split_draw(take, piles.hand, max_hand)
        left -= take
        piles = replace(piles, hand=piles.hand + into, deck=piles.deck - take, discard=piles.discard + over,
                        drawn=piles.drawn + take, discarded=piles.discarded + over)
        trace.step(f"Draw {plural(take, 'card')}: {into} into the hand (now {piles.hand})"
                   + (f", {over} discarded because the hand is at its maximum of {max_hand}" if over else "")
                   + f"; {piles.deck} left in the deck.", split_draw)
        if is_deck_empty(piles.deck, corpus):
            piles = _empty_deck(piles, trace, corpus)
    return piles


DRAW_LABELS: dict[str, Label] = {
    "hand": "Cards in hand", "deck": "Cards in deck", "discard": "Cards in discard pile",
    "discarded": "Cards discarded", "drawn": "Cards drawn", "reshuffles": "Reshuffles", "game_lost": "Game lost",
    "power": "Power", "determination": "Determination", "power_lost": "Power lost", "defeated": "Defeated",
}
HAND_LABELS: dict[str, Label] = {"discarded": "Cards discarded", "hand": "Cards left in hand"}


def _draw_summary(pos: DrawPosition, out: DrawOutcome, trace: Trace) -> str:
    """One sentence: cards drawn, discarded and the power lost to an empty deck."""
    if out.game_lost:
        return (f"The player loses the encounter: after drawing {plural(out.drawn, 'card')}, the deck and the "
                "discard pile are both empty.")
    if out.defeated:
        return (f"The player is defeated: after drawing {plural(out.drawn, 'card')}, the empty deck costs the "
                "last power.")
    text = f"The player draws {plural(out.drawn, 'card')} and holds {out.hand}"
    if out.discarded:
        text += f", discarding {out.discarded} because the hand is full"
    if out.power_lost:
        text += (f"; the empty deck costs {'1 power' if out.power_lost == 1 else str(out.power_lost) + ' powers'}"
                 f" and the discard pile is reshuffled")
    if trace.decisions:
        text += "; on passing, the player still chooses to draw 1 more card or return a concentration"
    return text + "."


def _hand_summary(pos: DiscardFromHandPosition, out: DiscardFromHandOutcome, trace: Trace) -> str:
    """One sentence: how many cards go, how many stay, and who picks them."""
    text = f"{plural(out.discarded, 'card')} {agree(out.discarded, 'is', 'are')} discarded "
    text += f"from the hand, leaving {out.hand}"
    if trace.decisions:
        text += "; picked at random by an enemy" if pos.at_random else "; the discarding player picks them"
    return text + "."


def _count(pos: DrawPosition, max_hand: int, trace: Trace, corpus: Corpus) -> int:
    """The draw: the cards an effect draws, or the Draw Phase's 2 (1 on the encounter's first turn)."""
    if pos.draw is not None:
        trace.step(f"Draw {plural(pos.draw, 'card')}; the maximum hand size is {max_hand}.", max_hand_size)
        return pos.draw
    count = phase_draws(bool(pos.first_turn), corpus)
    first = " (the first turn of the encounter)" if pos.first_turn else ""
    trace.step(f"Draw Phase: draw {plural(count, 'card')}{first}; the maximum hand size is {max_hand}.",
               phase_draws, max_hand_size)
    return count


@rule("rs.phases-of-a-turn.draw")
def _pass(pos: DrawPosition, count: int, trace: Trace) -> int:
    """Passing: the Play Phase is skipped, and the player draws 1 more card or returns a concentration."""
    choice = pos.pass_choice
    if pos.passed or choice:
        trace.step("The player passes: the Play Phase is skipped.", "rs.phases-of-a-turn.draw")
        if choice == "draw_third_card":
            count += 1
            trace.step("Passing, the player draws 1 more card.", "rs.phases-of-a-turn.draw")
        elif choice is None:
            trace.decide("active player", "on passing, draw 1 more card or return an exposed concentration "
                                          "to hand",
                         "rs.phases-of-a-turn.draw", options=["draw_third_card", "return_concentration"],
                         field="pass_choice")
    return count


@situation(GAME, "draw", DrawPosition, labels=DRAW_LABELS)
@summarized(_draw_summary)
@rule("rs.phases-of-a-turn.draw")
def resolve_draw(pos: DrawPosition, trace: Trace, corpus: Corpus) -> DrawOutcome:
    """Resolve drawing cards: a full hand discards, an empty deck costs a power and reshuffles, or loses."""
    piles = Piles(pos.hand, pos.deck, pos.discard, Standing(pos.power, pos.determination or 0))
    max_hand = max_hand_size(pos.max_hand, corpus)
    count = _pass(pos, _count(pos, max_hand, trace, corpus), trace)
    piles = draw_cards(piles, count, max_hand, trace, corpus)
    ended = piles.stopped or is_defeated(piles.standing.power, corpus)
    if pos.pass_choice == "return_concentration" and not ended:
        piles = replace(piles, hand=piles.hand + 1)
        trace.step(f"Passing, the player returns an exposed concentration to the hand (now {piles.hand}); "
                   "this is not a draw.", "rs.phases-of-a-turn.draw")
    power, determination, power_lost, defeated = piles.standing.values(corpus)
    return DrawOutcome(hand=piles.hand, deck=piles.deck, discard=piles.discard, discarded=piles.discarded,
                       drawn=piles.drawn, reshuffles=piles.reshuffles, game_lost=piles.game_lost, power=power,
                       determination=determination, power_lost=power_lost, defeated=defeated)


# -------------------------------------------------------------------------- discarding from a hand

@rule("rs.resolving-effects", "rs.advanced-rules-targets.example-3")
def hand_discards(amount: int, hand: int) -> int:
    """Return the cards an effect discards from a hand: as many as it can, never more than the hand holds."""
    return min(amount, hand)


@situation(GAME, "discard_from_hand", DiscardFromHandPosition, labels=HAND_LABELS)
@summarized(_hand_summary)
@rule("rs.resolving-effects", "rs.resolving-effects.deck-exception", "rs.term.at-random")
def resolve_discard_from_hand(pos: DiscardFromHandPosition, trace: Trace, corpus: Corpus) -> DiscardFromHandOutcome:
    """Resolve an effect discarding cards from a hand: it does as much as it can (unlike on a deck)."""
    hand, amount = pos.hand, pos.amount
    n = hand_discards(amount, hand)
    trace.step(f"The effect discards {plural(amount, 'card')} from a hand of {hand}: {n} can be discarded.",
               hand_discards)
    if n < amount:
        trace.step("Effects do only as much as they can; the rest is ignored. (Effects that take cards from "
                   "a deck are the exception: those always resolve in full.)", "rs.resolving-effects",
                   "rs.resolving-effects.deck-exception")
    chosen = pos.chosen
    if 0 < n < hand and chosen is None:
        if pos.at_random:
            trace.decide("enemy", f"{plural(n, 'card')} from the hand, without seeing them (name them)",
                         "rs.term.at-random",
                         field="chosen")
        else:
            trace.decide("discarding player", f"which {plural(n, 'card')} to discard (name them)",
                         "rs.resolving-effects",
                         field="chosen")
    elif chosen is not None and len(chosen) != n:
        trace.violate(f"{plural(n, 'card')} {agree(n, 'is', 'are')} discarded, the position names "
                      f"{len(chosen)}", hand_discards)
    elif chosen:
        trace.step(f"Discarded: {', '.join(chosen)}.", "rs.term.at-random" if pos.at_random
                   else "rs.resolving-effects")
    return DiscardFromHandOutcome(discarded=n, hand=hand - n)
