"""Runeslingers: activating a Runeslinger's ability (the equip ability, or the inherent one).

An ability is an activated effect, paid each time it is used, and only in its controller's own Play Phase
(``rs.equips.abilities``, ``rs.phases-of-a-turn.play``: as often as the player can pay). The equip ability is paid
in determination (the card shows the cost, ``rs.anatomy-of-a-runeslinger.determination-cost``), gained one per
power lost (``rs.gaining-determination``); the inherent ability printed on the Runeslinger is paid in light,
created by using ready exposed concentrations (``rs.card-states-positions.light``, ``rs.how-to-play-cards``). Its
effects end in the Discard Phase unless it says otherwise (``rs.phases-of-a-turn.discard``).
"""

from __future__ import annotations

from typing import Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome, labelled, maybe
from engine.runeslingers.common import GAME, Determination, plural

AbilityKind = Literal["equip", "inherent"]
Moment = Literal["own_play_phase", "own_other_phase", "opponent_turn"]
MOMENTS = {"own_play_phase": "my Play Phase", "own_other_phase": "another phase of my turn",
           "opponent_turn": "an opponent's turn"}
SAID = {"own_play_phase": "the player's own Play Phase", "own_other_phase": "another phase of the player's turn",
        "opponent_turn": "an opponent's turn"}


class ActivateAbilityPosition(OpenPosition):
    """A player wanting to activate a Runeslinger ability: which one, when, its cost and what the player holds."""

    game: Literal["runeslingers"]
    situation: Literal["activate_ability"]
    ability: AbilityKind = Field(title="Ability", description="The equipped ability card (paid in determination) "
                                 "or the inherent ability printed on the Runeslinger (paid in light).",
                                 json_schema_extra=labelled({"equip": "Equip ability (ability card)",
                                                             "inherent": "Inherent ability (Runeslinger card)"}))
    when: Moment = Field(title="When", description="The moment the player wants to activate it.",
                         json_schema_extra=labelled(MOMENTS))
    cost: int = Field(ge=0, le=20, title="Cost", description="As printed: determination for the equip ability, "
                      "light for the inherent one.")
    determination: Determination | None = maybe("Determination the Runeslinger holds.", title="Determination")
    light: int | None = maybe("Unspent light in the pool this turn.", title="Unspent light", ge=0, le=20)
    ready_concentrations: int | None = maybe("Ready exposed concentrations the player controls (each can create 1 "
                                             "light).", title="Ready exposed concentrations", ge=0, le=6)
    times: int = Field(1, ge=1, le=20, title="Activations", description="How many times in a row (an ability may "
                       "be used again as long as it can be paid).")

    def reading(self) -> list[str]:
        """The ability, the moment, the cost and what the player can pay with."""
        which = "the equip ability" if self.ability == "equip" else "the inherent ability"
        out = [f"The player wants to activate {which} {plural(self.times, 'time')}, during {SAID[self.when]}; "
               f"it costs {self.cost} {'determination' if self.ability == 'equip' else 'light'}."]
        if self.ability == "equip":
            out.append(f"The Runeslinger holds {self.determination or 0} determination.")
        else:
            out.append(f"Unspent light: {self.light or 0}; ready exposed concentrations: "
                       f"{self.ready_concentrations or 0}.")
        return out


class ActivateAbilityOutcome(Outcome):
    """Whether the ability may be activated, how many times, and what is left to pay with."""

    may_activate: bool
    activations: int
    determination: int | None
    light: int | None
    concentrations_used: int


@rule("rs.equips.abilities", "rs.phases-of-a-turn.play")
def is_right_moment(when: str, corpus: Corpus) -> bool:
    """Return whether an ability may be activated now: only in its controller's own Play Phase."""
    return corpus.fact("rs.equips.abilities", "activate_in") == "own_play_phase" and when == "own_play_phase"


@rule("rs.gaining-determination", "rs.anatomy-of-a-runeslinger.determination-cost", "rs.equips.abilities")
def determination_activations(cost: int, held: int, wanted: int) -> int:
    """Return how many equip activations the determination pays for (a cost of 0 pays for all)."""
    return wanted if cost == 0 else min(wanted, held // cost)


@rule("rs.card-states-positions.light", "rs.how-to-play-cards", "rs.equips.abilities")
def light_activations(cost: int, light: int, ready: int, wanted: int) -> tuple[int, int]:
    """Return (inherent activations paid, concentrations used): unspent light first, then a concentration each."""
    if cost == 0:
        return wanted, 0
    n = min(wanted, (light + ready) // cost)
    return n, max(0, n * cost - light)


@rule("rs.equips", "rs.anatomy-of-a-runeslinger.determination-cost", "rs.gaining-determination")
def _pay_equip(pos: ActivateAbilityPosition, trace: Trace) -> tuple[int, int]:
    held = pos.determination or 0
    n = determination_activations(pos.cost, held, pos.times)
    trace.step(f"The equip ability costs {pos.cost} determination per use; with {held} the player can pay for "
               f"{plural(n, 'activation')}" + (f" of the {pos.times} wanted" if n < pos.times else "")
               + ". Determination comes from lost power (1 per power) and may be saved up.",
               determination_activations)
    return n, held - n * pos.cost


@rule("rs.card-states-positions.light", "rs.how-to-play-cards")
def _pay_inherent(pos: ActivateAbilityPosition, trace: Trace) -> tuple[int, int, int]:
    light, ready = pos.light or 0, pos.ready_concentrations or 0
    n, used = light_activations(pos.cost, light, ready, pos.times)
    left = light + used - n * pos.cost
    trace.step(f"The inherent ability costs {pos.cost} light per use; {light} unspent light and {ready} ready "
               f"exposed {'concentration' if ready == 1 else 'concentrations'} pay for {plural(n, 'activation')}"
               + (f", using {used}" if used else "") + ".", light_activations)
    return n, left, used


def _summary(pos: ActivateAbilityPosition, out: ActivateAbilityOutcome, trace: Trace) -> str:
    if not out.may_activate:
        return ("The ability cannot be activated now: only in its controller's own Play Phase."
                if pos.when != "own_play_phase" else "The ability cannot be paid for.")
    paid = f"{out.determination} determination" if pos.ability == "equip" else f"{out.light} light"
    return f"The ability is activated {plural(out.activations, 'time')}, leaving {paid}."


LABELS: dict[str, Label] = {"may_activate": "May activate", "activations": "Activations paid", "determination":
                            "Determination left", "light": "Light left", "concentrations_used": "Concentrations used"}


@situation(GAME, "activate_ability", ActivateAbilityPosition, labels=LABELS)
@summarized(_summary)
@rule("rs.equips.abilities", "rs.phases-of-a-turn.discard")
def resolve_activate_ability(pos: ActivateAbilityPosition, trace: Trace, corpus: Corpus) -> ActivateAbilityOutcome:
    """Resolve activating a Runeslinger ability: the moment (own Play Phase) and paying its cost each time."""
    if not is_right_moment(pos.when, corpus):
        trace.violate(f"an ability is activated only in its controller's own Play Phase, not during "
                      f"{SAID[pos.when]}", is_right_moment)
        return ActivateAbilityOutcome(may_activate=False, activations=0, determination=pos.determination,
                                      light=pos.light, concentrations_used=0)
    determination, light, used = pos.determination, pos.light, 0
    if pos.ability == "equip":
        n, determination = _pay_equip(pos, trace)
    else:
        n, light, used = _pay_inherent(pos, trace)
    if not n:
        trace.violate("the ability cannot be paid for even once", "rs.equips.abilities")
    else:
        trace.step("What the ability does lasts until the Discard Phase of this turn, unless it says otherwise.",
                   "rs.phases-of-a-turn.discard")
    return ActivateAbilityOutcome(may_activate=n > 0, activations=n, determination=determination, light=light,
                                  concentrations_used=used)
