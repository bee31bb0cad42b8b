"""Runeslingers: a card leaving the field (destroyed, discarded, returned to hand, voided, or concealed).

A card's effects end when it leaves play (``rs.phases-of-a-turn.discard``, step 1); a card with another card on
top of it is concealed: out of play, with no effect (``rs.term.concealed``). A destroyed or discarded card goes to
its owner's discard pile (``rs.term.destroy``, ``rs.your-field.discard-pile``), a voided one to the void pile
(``rs.term.void``). When a Distract card leaves, the concentration under it goes to its owner's discard pile
(``rs.term.distract``). The card's own "when this leaves the field" effects trigger at once and resolve off the
ladder (``rs.triggered-effects``, with Stone Trap's example ``rs.triggered-effects.example``); effects triggering
together resolve the active player's first, in the order that player picks, then the other players'
(``rs.triggered-effects.simultaneous``). A card waiting on the ladder that leaves or is concealed before its rung
resolves does nothing then (``rs.the-ladder.example``, ``rs.term.destroy``).

The trigger effects come from the card's printed text, which is not in the book: the player states each as one of
an enumerated list of effects, never as free text.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, labelled, maybe, refuse
from engine.runeslingers.common import GAME, joined
from engine.runeslingers.fields import CardType, Player, card_type, flag
from engine.runeslingers.keywords import distract_discards
from engine.runeslingers.triggers import Trigger, trigger_order

How = Literal["destroyed", "discarded", "returned_to_hand", "voided", "concealed"]
HOW = {"destroyed": "Destroyed", "discarded": "Discarded", "returned_to_hand": "Returned to its owner's hand",
       "voided": "Voided", "concealed": "Concealed under another card"}
TriggerEffect = Literal["return_card_under_to_owner_hand", "discard_card_under", "void_card_under",
                        "discard_concentration_under", "draw_a_card", "other_printed_effect"]
EFFECTS = {"return_card_under_to_owner_hand": "Return the card under it to its owner's hand",
           "discard_card_under": "Put the card under it in its owner's discard pile",
           "void_card_under": "Put the card under it in its owner's void pile",
           "discard_concentration_under": "Put the concentration under it in its owner's discard pile",
           "draw_a_card": "Its controller draws a card",
           "other_printed_effect": "Another effect printed on the card (resolved as printed)"}
SAID = {"return_card_under_to_owner_hand": "the card under it returns to its owner's hand",
        "discard_card_under": "the card under it goes to its owner's discard pile",
        "void_card_under": "the card under it goes to its owner's void pile",
        "discard_concentration_under": "the concentration under it goes to its owner's discard pile",
        "draw_a_card": "a card is drawn",
        "other_printed_effect": "another printed effect resolves"}
UNDER = {"return_card_under_to_owner_hand": "hand", "discard_card_under": "discard_pile",
         "void_card_under": "void_pile"}
Place = Literal["discard_pile", "hand", "void_pile", "concealed_on_field"]
PLACE_WORDS = {"discard_pile": "discard pile", "hand": "hand", "void_pile": "void pile",
               "concealed_on_field": "field, concealed"}


class LeaveTrigger(Model):
    """An effect that triggers as the card leaves the field: whose it is and what it does."""

    model_config = ConfigDict(title="Triggered effect")

    source: str | None = maybe("The card or stance it comes from; the card leaving the field when absent.",
                               title="From", max_length=200)
    controller: Player | None = maybe("The player who controls the effect; the card's controller when absent.",
                                      title="Controller")
    effect: TriggerEffect = Field(title="What it does", description="The triggered effect printed after the "
                                  "card's leave-the-field condition.", json_schema_extra=labelled(EFFECTS))


class LeaveFieldPosition(OpenPosition):
    """A card leaving the field, how it leaves, what lies under it, and the effects that trigger."""

    game: Literal["runeslingers"]
    situation: Literal["leave_field"]
    card: str = Field("the card", max_length=200, title="Card", description="The card's name, e.g. Stone Trap.")
    type: CardType = card_type()
    owner: Player = Field(title="Owner", description="The player who owns the card (whose deck it came from).")
    controller: Player | None = maybe("The player who controls it; its owner when absent.", title="Controller")
    how: How = Field(title="How it leaves", description="What takes the card off the field (destroyed and "
                     "discarded cards go to the owner's discard pile).", json_schema_extra=labelled(HOW))
    active_player: Player | None = maybe("Whose turn it is; needed only to order triggers of different players.",
                                         title="Active player")
    distract: bool = flag("Distract on a concentration", "The card has Distract and sits on a concentration.")
    concentration_owner: Player | None = maybe("Owner of the concentration under a Distract card; the card's "
                                               "controller when absent.", title="Concentration's owner")
    card_under: str | None = maybe("A card concealed under this one (as Stone Trap holds one); none when absent.",
                                   title="Card under it", max_length=200)
    card_under_owner: Player | None = maybe("The owner of the card under it.", title="Owner of the card under it")
    triggers: list[LeaveTrigger] = Field(
        default_factory=list, max_length=8, title="Effects triggered by its leaving",
        description="The card's own 'when this leaves the field' effects, and others with the same trigger, in "
                    "the order each player wants them; none when empty.")
    waiting_on_ladder: bool = flag("Its rung is still on the ladder", "The card was played and its rung has not "
                                   "resolved yet.")

    @model_validator(mode="after")
    def _readable(self) -> LeaveFieldPosition:
        for i, t in enumerate(self.triggers):
            if t.effect in UNDER and self.card_under is None:
                raise refuse(f"{t.effect} needs a card under this one; give card_under", f"triggers[{i}].effect")
            if t.effect == "discard_concentration_under" and not self.distract:
                raise refuse("no concentration lies under this card (it is not a Distract card on one)",
                             f"triggers[{i}].effect")
        if self.card_under is not None and self.card_under_owner is None:
            raise refuse("the card under it needs its owner", "card_under_owner")
        return self

    def reading(self) -> list[str]:
        """The card, how it leaves, what is under it and the triggered effects."""
        who = self.controller or self.owner
        out = [f"{self.card} ({self.type}), owned by {self.owner}" + (f" and controlled by {who}"
                                                                       if who != self.owner else "")
               + f": {HOW[self.how].lower()}."]
        if self.distract:
            out.append(f"It has Distract and sits on a concentration of {self.concentration_owner or who}.")
        if self.card_under:
            out.append(f"Under it: {self.card_under}, owned by {self.card_under_owner}.")
        for t in self.triggers:
            out.append(f"Triggered: {EFFECTS[t.effect].lower()} (from {t.source or self.card}, controlled by "
                       f"{t.controller or who}).")
        if self.active_player:
            out.append(f"Active player: {self.active_player}.")
        if self.waiting_on_ladder:
            out.append("Its rung is still waiting on the ladder.")
        return out


class LeaveFieldOutcome(Outcome):
    """Where the card goes, what else moves, and the order its triggered effects resolve in."""

    effects_end: bool
    card_goes_to: Place
    card_goes_to_player: str
    concentration_discarded: bool
    card_under_goes_to: Place | None
    trigger_order: list[str]
    rung_does_nothing: bool


@rule("rs.term.destroy", "rs.your-field.discard-pile", "rs.term.void", "rs.your-field.void-pile",
      "rs.term.concealed")
def destination(how: str) -> Place:
    """Return where the leaving card ends: discard pile, hand, void pile, or on the field under another card."""
    places: dict[str, Place] = {"destroyed": "discard_pile", "discarded": "discard_pile",
                                "returned_to_hand": "hand", "voided": "void_pile", "concealed": "concealed_on_field"}
    return places[how]


@rule("rs.phases-of-a-turn.discard", "rs.term.concealed")
def _effects_end(pos: LeaveFieldPosition, trace: Trace) -> None:
    """Its effects stop: a card that leaves play, or is concealed, has no effect any more."""
    if pos.how == "concealed":
        trace.step(f"A card lies on top of {pos.card} now: it is concealed, out of play, and none of its effects "
                   "apply any more (it stays on the field, under that card).", "rs.term.concealed")
    else:
        trace.step(f"{pos.card} leaves the field, so its effects stop; an effect it already resolved that lasts "
                   "for a stated time keeps going until that time is up.", "rs.phases-of-a-turn.discard")


@rule("rs.term.destroy", "rs.your-field.discard-pile", "rs.term.void")
def _goes(pos: LeaveFieldPosition, place: Place, trace: Trace) -> None:
    """Where the card itself goes: always its owner's pile or hand."""
    if place == "concealed_on_field":
        return
    why = {"destroyed": "a destroyed card goes to its owner's discard pile",
           "discarded": "a discarded card goes to its owner's discard pile",
           "returned_to_hand": "it returns to its owner's hand",
           "voided": "a voided card goes to its owner's void pile, which is never shuffled back"}[pos.how]
    cite = {"destroyed": "rs.term.destroy", "discarded": "rs.your-field.discard-pile",
            "returned_to_hand": "rs.term.destroy", "voided": "rs.term.void"}[pos.how]
    if pos.how == "returned_to_hand":
        trace.step(f"{pos.card} goes to {pos.owner}'s hand (its owner's, whoever controlled it).", destination)
        return
    trace.step(f"{pos.card} goes to {pos.owner}'s {PLACE_WORDS[place]}: {why}.", cite, destination)


@rule("rs.term.distract")
def _distract(pos: LeaveFieldPosition, trace: Trace) -> bool:
    """Distract: the concentration under the card goes to its owner's discard pile."""
    gone = pos.distract and distract_discards(["distract"])
    if gone:
        who = pos.concentration_owner or pos.controller or pos.owner
        trace.step(f"{pos.card} has Distract: the concentration it sat on goes to {who}'s discard pile.",
                   distract_discards)
    return gone


@rule("rs.triggered-effects.simultaneous")
def _ordered(pos: LeaveFieldPosition, trace: Trace, corpus: Corpus) -> list[LeaveTrigger]:
    """The triggered effects in the order they resolve (the active player's first)."""
    who = pos.controller or pos.owner
    triggers = [Trigger(id=str(i), controller=t.controller or who) for i, t in enumerate(pos.triggers)]
    players = list(dict.fromkeys(t.controller for t in triggers))
    if len(players) > 1 and pos.active_player is None:
        trace.decide("the players", "whose turn it is (the active player's triggered effects resolve first)",
                     "rs.triggered-effects.simultaneous", options=players, field="active_player")
        return list(pos.triggers)
    order = trigger_order(triggers, pos.active_player or who, corpus)
    return [pos.triggers[int(t.id)] for t in order]


@rule("rs.triggered-effects", "rs.triggered-effects.simultaneous", "rs.triggered-effects.example")
def _triggers(pos: LeaveFieldPosition, trace: Trace, corpus: Corpus) -> tuple[list[str], Place | None]:
    """The effects triggered by its leaving resolve at once, off the ladder, the active player's first."""
    if not pos.triggers:
        return [], None
    who = pos.controller or pos.owner
    ordered = _ordered(pos, trace, corpus)
    said = [f"{SAID[t.effect]} ({t.controller or who}'s effect)" for t in ordered]
    several = len({t.controller or who for t in ordered}) > 1
    trace.step("Its leaving triggers, in this order: " + joined(said) + ". Triggered effects never go on the "
               "ladder: play pauses while they resolve, then carries on"
               + (", the active player's first, in the order that player picks, then the others'." if several
                  else "."), "rs.triggered-effects", *(["rs.triggered-effects.simultaneous"] if several else []))
    under: Place | None = None
    for t in ordered:
        if t.effect in UNDER and under is None:
            under = UNDER[t.effect]  # type: ignore[assignment]
            trace.step(f"{pos.card_under} comes out from under {pos.card} to {pos.card_under_owner}'s "
                       f"{PLACE_WORDS[UNDER[t.effect]]}, as Stone Trap's second effect does.",
                       "rs.triggered-effects.example")
    return [f"{EFFECTS[t.effect]} ({t.controller or who})" for t in ordered], under


@rule("rs.the-ladder.example", "rs.term.destroy", "rs.the-ladder.resolution")
def _rung(pos: LeaveFieldPosition, trace: Trace) -> bool:
    """A card that left (or is concealed) before its rung resolves does nothing when the rung comes up."""
    if not pos.waiting_on_ladder:
        return False
    trace.step(f"{pos.card}'s rung is still on the ladder: when it comes to resolve, the card is no longer in "
               "play, so it has no effect (as Flaming Fists under Stone Trap).", "rs.the-ladder.example",
               "rs.term.destroy", "rs.the-ladder.resolution")
    return True


def _summary(pos: LeaveFieldPosition, out: LeaveFieldOutcome, trace: Trace) -> str:
    """One sentence: where the card goes, and what its leaving sets off."""
    if out.card_goes_to == "concealed_on_field":
        text = f"{pos.card} is concealed: it stays under the other card with no effect"
    else:
        text = f"{pos.card}'s effects stop and it goes to {out.card_goes_to_player}'s {PLACE_WORDS[out.card_goes_to]}"
    if out.concentration_discarded:
        text += "; the concentration under it is discarded"
    if out.card_under_goes_to:
        text += f"; {pos.card_under} goes to {pos.card_under_owner}'s {PLACE_WORDS[out.card_under_goes_to]}"
    if out.rung_does_nothing:
        text += "; its rung on the ladder will do nothing"
    if trace.decisions:
        text += "; who is the active player decides the trigger order"
    return text + "."


LABELS: dict[str, Label] = {
    "effects_end": "Its effects stop", "card_goes_to": ("Card goes to", {k: v.capitalize() for k, v in
                                                                         PLACE_WORDS.items()}),
    "card_goes_to_player": "Whose", "concentration_discarded": "Concentration under it discarded",
    "card_under_goes_to": ("Card under it goes to", {k: v.capitalize() for k, v in PLACE_WORDS.items()}),
    "trigger_order": "Triggered effects, in order", "rung_does_nothing": "Its rung does nothing",
}


@situation(GAME, "leave_field", LeaveFieldPosition, labels=LABELS)
@summarized(_summary)
def resolve_leave_field(pos: LeaveFieldPosition, trace: Trace, corpus: Corpus) -> LeaveFieldOutcome:
    """Resolve a card leaving the field: effects stop, where it goes, Distract, its triggers and its rung."""
    place = destination(pos.how)
    _effects_end(pos, trace)
    _goes(pos, place, trace)
    gone = _distract(pos, trace)
    order, under = _triggers(pos, trace, corpus)
    fizzles = _rung(pos, trace)
    return LeaveFieldOutcome(effects_end=True, card_goes_to=place,
                             card_goes_to_player=pos.owner if place != "concealed_on_field" else "",
                             concentration_discarded=gone, card_under_goes_to=under, trigger_order=order,
                             rung_does_nothing=fizzles)
