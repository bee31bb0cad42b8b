"""Rune Age siege Assault: alternating plays, passing by choice or by default, and the Resolution order.

Paragraphs: ``ra.conduct-a-siege.2`` (one card at a time, the attacker first), ``ra.conduct-a-siege.2.passing``
(passing, playing on alone after the other passed), ``rafaq.faq.general.6`` (a Combat action needs at least
one card), ``ra.abilities.resolution`` / ``ra.conduct-a-siege.3`` (the attacker's Resolution abilities first).

The sequence is replayed until its first illegal entry; what follows that entry cannot be placed in the
alternation, so it is not judged. A side whose hand is empty when its turn comes passes by default, and that
default pass is listed in ``passed`` at the moment it happens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import ConfigDict

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe
from engine.rune_age.words import capital, choice, listing, plural, possessive

SideName = Literal["attacker", "defender"]
SIDES: tuple[SideName, SideName] = ("attacker", "defender")
SIDE_LABELS = {"attacker": "The attacker", "defender": "The defender"}
ACTIONS = {"play": "Plays a card", "pass": "Passes"}
PLAY_KINDS = {"unit": "A unit card", "tactic": "A tactic card", "gold": "A gold card", "other": "Another card"}


class Play(Model):
    """One entry of the Assault: a side plays a card, or passes."""

    model_config = ConfigDict(title="Play or pass")

    by: SideName = Field(title="By", json_schema_extra=choice(SIDE_LABELS))
    action: Literal["play", "pass"] = Field(title="Action", json_schema_extra=choice(ACTIONS, "play"))
    card: str | None = maybe(title="Card played", max_length=200)
    kind: Literal["unit", "tactic", "gold", "other"] = Field(
        "unit", title="Card kind", description="Only unit and tactic cards can be played into a siege.",
        json_schema_extra=choice(PLAY_KINDS))
    draws: int = Field(0, ge=0, le=20, title="Cards drawn by its When Played ability")


class Hands(Model):
    """How many cards each player holds."""

    attacker: int = Field(ge=0, le=60, title="Attacker's cards in hand")
    defender: int = Field(ge=0, le=60, title="Defender's cards in hand")


class ResolutionAbility(Model):
    """A Resolution ability, and the side whose card it is."""

    by: SideName = Field(title="By", json_schema_extra=choice(SIDE_LABELS))
    source: str = Field(max_length=200, title="Card")


class SiegeTurnsPosition(OpenPosition):
    """A siege's Assault step: the cards in hand, then the plays and passes so far, in order."""

    game: Literal["rune-age"]
    situation: Literal["siege_turns"]
    attacker: str | None = maybe(title="Attacker (player)", max_length=80)
    defender: str | None = maybe(title="Defender (player)", max_length=80)
    hands: Hands = Field(title="Cards in hand when the Assault begins")
    sequence: list[Play] = Field(max_length=200, title="Plays and passes, in order")
    resolution_abilities: list[ResolutionAbility] = Field(
        [], max_length=100, title="Resolution abilities, each player's in his chosen order")

    def reading(self) -> list[str]:
        """Restate the two players, their hands, every play and pass in order, and the Resolution abilities."""
        names = {"attacker": self.attacker or "the attacker", "defender": self.defender or "the defender"}
        out = [f"Attacker: {names['attacker']}, {plural(self.hands.attacker, 'card')} in hand.",
               f"Defender: {names['defender']}, {plural(self.hands.defender, 'card')} in hand."]
        moves = []
        for i, p in enumerate(self.sequence, 1):
            if p.action == "pass":
                moves.append(f"{i}. {names[p.by]} passes")
                continue
            drawn = f", drawing {plural(p.draws, 'card')}" if p.draws else ""
            kind = "" if p.kind == "unit" else f" ({p.kind} card)"
            moves.append(f"{i}. {names[p.by]} plays {p.card or 'a card'}{kind}{drawn}")
        out.append("Plays and passes so far: " + "; ".join(moves) + "." if moves else "Nothing played yet.")
        if self.resolution_abilities:
            out.append("Resolution abilities: " + listing(f"{a.source} ({names[a.by]})"
                                                         for a in self.resolution_abilities) + ".")
        return out


class SiegeTurnsOutcome(Outcome):
    """Whether the Assault is over, who plays or passes next, the passes and plays so far, the Resolution order."""

    assault_over: bool
    next: SideName | None
    passed: list[SideName]
    played: dict[SideName, int]
    resolution_order: list[str]


LABELS: dict[str, Label] = {
    "assault_over": "Assault over", "next": ("Next to play or pass", {"attacker": "Attacker", "defender": "Defender"}),
    "passed": "Passed (in order)", "played": "Cards played", "resolution_order": "Resolution abilities, in order",
}


def other(side: SideName) -> SideName:
    """Return the opposing side."""
    return "defender" if side == "attacker" else "attacker"


def _no_plays() -> dict[SideName, int]:
    return {"attacker": 0, "defender": 0}


@dataclass
class Assault:
    """The state of the alternation while the sequence is replayed (local to one ruling)."""

    hands: dict[SideName, int]
    turn: SideName = "attacker"
    passed: list[SideName] = field(default_factory=list)
    by_default: set[SideName] = field(default_factory=set)
    played: dict[SideName, int] = field(default_factory=_no_plays)


@rule("ra.conduct-a-siege.2", "ra.conduct-a-siege.2.passing")
def next_to_act(state: Assault) -> SideName | None:
    """Return the side to play or pass next (None once both passed), applying passes by default.

    The turn alternates after each play, except that a side that has passed is skipped; a side whose turn
    comes with an empty hand passes by default.
    """
    while len(state.passed) < 2:
        side = state.turn if state.turn not in state.passed else other(state.turn)
        if state.hands[side] > 0:
            return side
        state.passed.append(side)
        state.by_default.add(side)
        state.turn = other(side)
    return None


@rule("rafaq.faq.general.6")
def may_pass(side: SideName, state: Assault) -> bool:
    """Return whether the side may pass: the attacker only after committing at least one card."""
    return side != "attacker" or state.played["attacker"] > 0


@rule("ra.conduct-a-siege.2", "ra.combat-action")
def is_playable_kind(kind: str) -> bool:
    """Return whether a card can be played into the Assault: only unit and tactic cards."""
    return kind in ("unit", "tactic")


@rule("ra.abilities.resolution", "ra.conduct-a-siege.3")
def resolution_order(abilities: Sequence[ResolutionAbility]) -> list[str]:
    """Return the Resolution abilities in the order applied: all the attacker's, then all the defender's."""
    return ([a.source for a in abilities if a.by == "attacker"]
            + [a.source for a in abilities if a.by == "defender"])


def _out_of_turn(i: int, side: SideName, expected: SideName, state: Assault, names: Mapping[str, str]) -> str:
    """Return why a side may not act now, when the alternation expects the other."""
    if i == 0:
        return "the attacker acts first in the Assault"
    if side in state.by_default:
        return f"{names[side]} has no card left in hand and has passed by default"
    if side in state.passed:
        return f"{names[side]} has passed and may play no more cards in this siege"
    return f"it is {possessive(names[expected])} turn to play or pass"


@rule("ra.conduct-a-siege.2.passing")
def _pass(i: int, side: SideName, state: Assault, names: Mapping[str, str], trace: Trace) -> bool:
    """A side passes by choice (the attacker only once he played a card); return whether it may."""
    if not may_pass(side, state):
        trace.violate(f"in play {i + 1}, the attacker passes without playing a card; a Combat action "
                      f"needs at least one unit or tactic card", may_pass)
        return False
    state.passed.append(side)
    state.turn = other(side)
    trace.step(f"{names[side]} passes by choice" + (f"; {names[other(side)]} may now play on alone."
                                                      if other(side) not in state.passed else "."),
               "ra.conduct-a-siege.2.passing")
    return True


@rule("ra.conduct-a-siege.2")
def _play(i: int, entry: Play, state: Assault, names: Mapping[str, str], trace: Trace) -> bool:
    """A side plays one unit or tactic card (and draws what its When Played ability gives); return whether it may."""
    side, kind, card = entry.by, entry.kind, entry.card or "a card"
    if not is_playable_kind(kind):
        trace.violate(f"in play {i + 1}, {card} is a {kind} card; only unit and tactic cards are played into a "
                      f"siege", is_playable_kind)
        return False
    drawn = entry.draws
    state.hands[side] += drawn - 1
    state.played[side] += 1
    state.turn = other(side)
    draws = f" and draws {plural(drawn, 'card')}" if drawn else ""
    trace.step(f"{capital(names[side])} plays {card} ({kind}){draws}; {plural(state.hands[side], 'card')} left in "
               f"hand.", "ra.conduct-a-siege.2")
    return True


def _replay(state: Assault, sequence: Sequence[Play], names: Mapping[str, str], trace: Trace) -> None:
    """Step 2, Assault: replay the plays and passes in order, until the first one out of turn or not allowed."""
    for i, entry in enumerate(sequence):
        side, action = entry.by, entry.action
        expected = next_to_act(state)
        if expected is None:
            trace.violate(f"in play {i + 1}, both players have passed, so the Assault is already over",
                          next_to_act)
            return
        if side != expected:
            trace.violate(f"in play {i + 1} ({names[side]} {action}{'es' if action == 'pass' else 's'}), "
                          f"{_out_of_turn(i, side, expected, state, names)}",
                          next_to_act)
            return
        if not (_pass(i, side, state, names, trace) if action == "pass" else _play(i, entry, state, names, trace)):
            return


def _next(pos: SiegeTurnsPosition, nxt: SideName, state: Assault, names: Mapping[str, str], trace: Trace) -> None:
    """The Assault goes on: the side to act next plays a card or (unless the attacker has none played) passes."""
    options = ["play", "pass"] if may_pass(nxt, state) else ["play"]
    alone = other(nxt) in state.passed
    if "pass" in options:
        trace.step(f"Next: {names[nxt]} plays a unit or tactic card or passes"
                   + (f" (and, since {names[other(nxt)]} has passed, keeps playing until he passes)." if alone
                      else "."), next_to_act)
        choose = "play one unit or tactic card, or pass"
    else:
        trace.step(f"Next: {names[nxt]} must play a unit or tactic card; he cannot pass before committing "
                   f"one to the combat.", next_to_act, may_pass)
        choose = "which unit or tactic card to play first"
    # the answer is the next entry of the sequence, whose side is known: {by, action}
    trace.decide(names[nxt], choose, next_to_act, options=[{"by": nxt, "action": a} for a in options],
                 field=f"sequence[{len(pos.sequence)}]")
    trace.summarize(f"The Assault goes on: {names[nxt]}{'' if names[nxt] == f'the {nxt}' else f' ({nxt})'} "
                    + ("plays or passes" if "pass" in options else "must play a card") + " next; played so far "
                    f"{state.played['attacker']} (attacker) and {state.played['defender']} (defender).")


@rule("ra.conduct-a-siege.2.passing")
def _resolution(order: Sequence[str], state: Assault, names: Mapping[str, str], trace: Trace) -> None:
    """Both passed: the Assault is over; step 3, Resolution applies the attacker's abilities first."""
    trace.step(f"Both players have passed: the Assault is over ({plural(state.played['attacker'], 'card')} "
               f"played by {names['attacker']}, {state.played['defender']} by {names['defender']}).",
               "ra.conduct-a-siege.2.passing")
    trace.step(f"Resolution: {possessive(names['attacker'])} Resolution abilities first, then "
               f"{possessive(names['defender'])}" + (f": {listing(order)}." if order else " (none listed)."),
               resolution_order)
    trace.summarize(f"The Assault is over: {names['attacker']} played {plural(state.played['attacker'], 'card')} "
                    f"and {names['defender']} {state.played['defender']}"
                    + (f"; Resolution applies {listing(order)} in that order." if order else "."))


@situation("rune-age", "siege_turns", SiegeTurnsPosition, labels=LABELS)
@rule("ra.conduct-a-siege.2", "ra.conduct-a-siege.2.passing")
def resolve_siege_turns(pos: SiegeTurnsPosition, trace: Trace, corpus: Corpus) -> SiegeTurnsOutcome:
    """Resolve a siege's Assault step: whose play it is, passes, when it ends, and the Resolution order."""
    names = {"attacker": pos.attacker or "the attacker", "defender": pos.defender or "the defender"}
    state = Assault(hands={"attacker": pos.hands.attacker, "defender": pos.hands.defender})
    trace.step(f"Assault: {names['attacker']} (attacker, {plural(state.hands['attacker'], 'card')}) and "
               f"{names['defender']} (defender, {state.hands['defender']}) take turns playing one card at a time, "
               f"the attacker first.", "ra.conduct-a-siege.2")
    if state.hands["attacker"] == 0:
        trace.violate("the attacker holds no card; a Combat action needs at least one unit or tactic card",
                      may_pass)
    else:
        _replay(state, pos.sequence, names, trace)
    nxt = None if trace.violations else next_to_act(state)
    order = resolution_order(pos.resolution_abilities)
    out = SiegeTurnsOutcome(assault_over=not trace.violations and nxt is None, next=nxt, passed=list(state.passed),
                            played=dict(state.played), resolution_order=order)
    if trace.violations:
        return out
    for side in state.passed:
        if side in state.by_default:
            trace.step(f"{capital(names[side])} has no card left in hand and passes by default.",
                       "ra.conduct-a-siege.2.passing")
    if nxt is not None:
        _next(pos, nxt, state, names, trace)
    else:
        _resolution(order, state, names, trace)
    return out
