"""Runeslingers with three or four players: who receives the answerable action, and who plays next.

Card play step 6 gives the answerable action to the enemy player on the left of the player who played the card
(``rs.card-play-steps.6``); the Answerable Actions section gives it to you when the opponent on your left plays, so
to the player on the right of whoever played (``rs.answerable-actions``). With 2 players both mean the one
opponent; with more they disagree, and the engine follows the card play steps, saying so in the ruling. A defense
card creates no answerable action (``rs.the-ladder.defense-cards``). At the end of a turn the player on the left of
the active player becomes the active player (``rs.phases-of-a-turn.discard``, step 5; ``rs.term.active-player``).

Seating order: the players are listed going to the left, so each player's left-hand neighbour is the next name
in the list, and the last player's is the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome, maybe, refuse
from engine.runeslingers.common import GAME, joined
from engine.runeslingers.fields import CARD_TYPE_HINT, CardType, Player, first_repeat


class SeatingPosition(OpenPosition):
    """Players around the table, whose turn it is, and who plays a card."""

    game: Literal["runeslingers"]
    situation: Literal["seating"]
    players: list[Player] = Field(min_length=2, max_length=4, title="Players in seating order",
                                  description="2 to 4 names, going to the left: each player's left-hand "
                                              "neighbour is the next name, and the last player's is the first.")
    active_player: Player = Field(title="Active player", description="Whose turn it is.")
    card_player: Player | None = maybe("The player who plays a card now; none when nobody plays one.",
                                       title="Player playing a card")
    card_type: CardType | None = maybe(CARD_TYPE_HINT + " A runespell when absent.", title="Card type")

    @model_validator(mode="after")
    def _known(self) -> SeatingPosition:
        i = first_repeat(self.players)
        if i is not None:
            raise refuse(f"{self.players[i]!r} is seated twice; each player has one seat", f"players[{i}]")
        if self.active_player not in self.players:
            raise refuse(f"{self.active_player!r} is not one of the players", "active_player")
        if self.card_player is not None and self.card_player not in self.players:
            raise refuse(f"{self.card_player!r} is not one of the players", "card_player")
        return self

    def reading(self) -> list[str]:
        """The table, the active player and the card played."""
        out = [f"Seated, going to the left: {joined(self.players)} (then back to {self.players[0]}).",
               f"Active player: {self.active_player}."]
        if self.card_player:
            out.append(f"{self.card_player} plays a {self.card_type or 'runespell'}.")
        return out


class SeatingOutcome(Outcome):
    """Who receives the answerable action (and whom the other reading names), and the next active player."""

    answerable_action_to: str | None
    other_reading_to: str | None
    next_active_player: str
    left_of: dict[str, str]


def left_of(players: Sequence[str], who: str) -> str:
    """Return the player on *who*'s left (the next one in seating order)."""
    return players[(players.index(who) + 1) % len(players)]


def right_of(players: Sequence[str], who: str) -> str:
    """Return the player on *who*'s right (the previous one in seating order)."""
    return players[(players.index(who) - 1) % len(players)]


@rule("rs.phases-of-a-turn.discard", "rs.term.active-player")
def next_active(players: Sequence[str], active: str) -> str:
    """Return the next active player: the one on the active player's left."""
    return left_of(players, active)


@rule("rs.card-play-steps.6", "rs.answerable-actions")
def answerer(players: Sequence[str], card_player: str) -> tuple[str, str]:
    """Return (the engine's answerer, the other reading's): the enemy on the left, and the one on the right."""
    return left_of(players, card_player), right_of(players, card_player)


@rule("rs.card-play-steps.6", "rs.answerable-actions", "rs.the-ladder.defense-cards")
def _answerable(pos: SeatingPosition, trace: Trace) -> tuple[str | None, str | None]:
    """Who receives the answerable action when a card is played."""
    if pos.card_player is None:
        return None, None
    if pos.card_type in ("trinket", "chant", "boon"):
        trace.step(f"{pos.card_player} plays a defense card ({pos.card_type}): a defense card creates no "
                   "answerable action, so nobody receives one.", "rs.the-ladder.defense-cards")
        return None, None
    left, right = answerer(pos.players, pos.card_player)
    if len(pos.players) == 2:
        trace.step(f"With 2 players the answerable action goes to {left}, {pos.card_player}'s only opponent; both "
                   "passages of the book agree here.", answerer)
        return left, left
    trace.step(f"{pos.card_player} plays a card: the card play steps give the answerable action to the enemy on "
               f"{pos.card_player}'s left, {left}. The Answerable Actions section reads the other way (you receive "
               f"one when the opponent on your left plays), which would give it to {right}. The book contradicts "
               "itself here; the engine follows the card play steps.", answerer)
    return left, right


def _summary(pos: SeatingPosition, out: SeatingOutcome, trace: Trace) -> str:
    """One sentence: the answerer and the next active player."""
    text = f"{out.next_active_player} becomes the active player when {pos.active_player}'s turn ends"
    if out.answerable_action_to:
        how = " (following the card play steps)" if len(pos.players) > 2 else ""
        text = f"{out.answerable_action_to} receives the answerable action{how}; " + text
    elif pos.card_player:
        text = "Nobody receives an answerable action for a defense card; " + text
    return text + "."


LABELS: dict[str, Label] = {"answerable_action_to": "Receives the answerable action", "other_reading_to":
                            "Under the other passage's reading", "next_active_player": "Next active player",
                            "left_of": "Each player's left-hand neighbour"}


@situation(GAME, "seating", SeatingPosition, labels=LABELS)
@summarized(_summary)
@rule("rs.phases-of-a-turn.discard", "rs.term.active-player")
def resolve_seating(pos: SeatingPosition, trace: Trace, corpus: Corpus) -> SeatingOutcome:
    """Resolve who receives the answerable action for a card played, and who plays after the active player."""
    to, other = _answerable(pos, trace)
    nxt = next_active(pos.players, pos.active_player)
    trace.step(f"At the end of the turn (the last step of the Discard Phase) the player on {pos.active_player}'s "
               f"left, {nxt}, becomes the active player.", next_active)
    return SeatingOutcome(answerable_action_to=to, other_reading_to=other, next_active_player=nxt,
                          left_of={p: left_of(pos.players, p) for p in pos.players})
