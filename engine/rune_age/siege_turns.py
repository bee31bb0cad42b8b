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
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.schema import Schema, arr, enum, integer, obj, text

SIDES = ("attacker", "defender")
SIDE: Schema = enum(*SIDES)
ACTION: Schema = {
    **obj(["by", "action"],
          by={**SIDE, "title": "By"},
          action={**enum("play", "pass"), "title": "Action", "default": "play"},
          card={**text(), "title": "Card played"},
          kind={**enum("unit", "tactic", "gold", "other"), "title": "Card kind", "default": "unit",
                "description": "Only unit and tactic cards can be played into a siege."},
          draws={**integer(0, 20), "title": "Cards drawn by its When Played ability", "default": 0}),
    "title": "Play or pass",
}
SCHEMA: dict[str, Any] = obj(
    ["hands", "sequence"], extra=True,
    attacker={**text(80), "title": "Attacker (player)"},
    defender={**text(80), "title": "Defender (player)"},
    hands={**obj(["attacker", "defender"], attacker={**integer(0, 60), "title": "Attacker's cards in hand"},
                 defender={**integer(0, 60), "title": "Defender's cards in hand"}),
           "title": "Cards in hand when the Assault begins"},
    sequence={**arr(ACTION, max_items=200), "title": "Plays and passes, in order"},
    resolution_abilities={**arr({**obj(["by", "source"], by={**SIDE, "title": "By"},
                                       source={**text(), "title": "Card"}), "title": "Resolution ability"},
                                max_items=100),
                          "title": "Resolution abilities, each player's in his chosen order"},
)

LABELS: dict[str, Label] = {
    "assault_over": "Assault over", "next": ("Next to play or pass", {"attacker": "Attacker", "defender": "Defender"}),
    "passed": "Passed (in order)", "played": "Cards played", "resolution_order": "Resolution abilities, in order",
}


def other(side: str) -> str:
    """Return the opposing side."""
    return "defender" if side == "attacker" else "attacker"


@dataclass
class Assault:
    """The state of the alternation while the sequence is replayed (local to one ruling)."""

    hands: dict[str, int]
    turn: str = "attacker"
    passed: list[str] = field(default_factory=list)
    by_default: set[str] = field(default_factory=set)
    played: dict[str, int] = field(default_factory=lambda: {"attacker": 0, "defender": 0})


@rule("ra.conduct-a-siege.2", "ra.conduct-a-siege.2.passing")
def next_to_act(state: Assault) -> str | None:
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
def may_pass(side: str, state: Assault) -> bool:
    """Return whether the side may pass: the attacker only after committing at least one card."""
    return side != "attacker" or state.played["attacker"] > 0


@rule("ra.conduct-a-siege.2", "ra.combat-action")
def is_playable_kind(kind: str) -> bool:
    """Return whether a card can be played into the Assault: only unit and tactic cards."""
    return kind in ("unit", "tactic")


@rule("ra.abilities.resolution", "ra.conduct-a-siege.3")
def resolution_order(abilities: Sequence[Mapping[str, Any]]) -> list[str]:
    """Return the Resolution abilities in the order applied: all the attacker's, then all the defender's."""
    return ([a["source"] for a in abilities if a["by"] == "attacker"]
            + [a["source"] for a in abilities if a["by"] == "defender"])


def _replay(state: Assault, sequence: Sequence[Mapping[str, Any]], names: Mapping[str, str],
            trace: Trace) -> None:
    for i, entry in enumerate(sequence):
        side, action = entry["by"], entry["action"]
        expected = next_to_act(state)
        if expected is None:
            trace.violate(f"sequence[{i}]: both players have passed, so the Assault is already over",
                          next_to_act)
            return
        if side != expected:
            if i == 0:
                why = "the attacker acts first in the Assault"
            elif side in state.by_default:
                why = f"{names[side]} has no card left in hand and has passed by default"
            elif side in state.passed:
                why = f"{names[side]} has passed and may play no more cards in this siege"
            else:
                why = f"it is {names[expected]}'s turn to play or pass"
            trace.violate(f"sequence[{i}] ({names[side]} {action}s): {why}", next_to_act)
            return
        if action == "pass":
            if not may_pass(side, state):
                trace.violate(f"sequence[{i}]: the attacker passes without playing a card; a Combat action "
                              f"needs at least one unit or tactic card", may_pass)
                return
            state.passed.append(side)
            state.turn = other(side)
            trace.step(f"{names[side]} passes by choice" + (f"; {names[other(side)]} may now play on alone."
                                                              if other(side) not in state.passed else "."),
                       "ra.conduct-a-siege.2.passing")
            continue
        kind = entry.get("kind", "unit")
        card = entry.get("card") or "a card"
        if not is_playable_kind(kind):
            trace.violate(f"sequence[{i}]: {card} is a {kind} card; only unit and tactic cards are played into a "
                          f"siege", is_playable_kind)
            return
        drawn = int(entry.get("draws", 0))
        state.hands[side] += drawn - 1
        state.played[side] += 1
        state.turn = other(side)
        trace.step(f"{names[side]} plays {card} ({kind})" + (f" and draws {drawn} card(s)" if drawn else "")
                   + f"; {state.hands[side]} card(s) left in hand.", "ra.conduct-a-siege.2")


@situation("rune-age", "siege_turns", SCHEMA, labels=LABELS)
def resolve_siege_turns(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve a siege's Assault step: whose play it is, passes, when it ends, and the Resolution order."""
    names = {"attacker": pos.get("attacker") or "the attacker", "defender": pos.get("defender") or "the defender"}
    state = Assault(hands={s: int(pos["hands"][s]) for s in SIDES})
    trace.step(f"Assault: {names['attacker']} (attacker, {state.hands['attacker']} card(s)) and "
               f"{names['defender']} (defender, {state.hands['defender']}) take turns playing one card at a time, "
               f"the attacker first.", "ra.conduct-a-siege.2")
    if state.hands["attacker"] == 0:
        trace.violate("the attacker holds no card; a Combat action needs at least one unit or tactic card",
                      may_pass)
    else:
        _replay(state, pos["sequence"], names, trace)
    nxt = None if trace.violations else next_to_act(state)
    over = not trace.violations and nxt is None
    order = resolution_order(pos.get("resolution_abilities", []))
    out: dict[str, Any] = {"assault_over": over, "next": nxt, "passed": list(state.passed),
                           "played": dict(state.played), "resolution_order": order}
    if trace.violations:
        return out
    for side in state.passed:
        if side in state.by_default:
            trace.step(f"{names[side]} has no card left in hand and passes by default.",
                       "ra.conduct-a-siege.2.passing")
    if nxt is not None:
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
                     field=f"sequence[{len(pos['sequence'])}]")
        trace.summarize(f"The Assault goes on: {names[nxt]} ({nxt}) "
                        + ("plays or passes" if "pass" in options else "must play a card") + " next; played so far "
                        f"{state.played['attacker']} (attacker) and {state.played['defender']} (defender).")
        return out
    trace.step(f"Both players have passed: the Assault is over ({state.played['attacker']} card(s) played by "
               f"{names['attacker']}, {state.played['defender']} by {names['defender']}).",
               "ra.conduct-a-siege.2.passing")
    trace.step(f"Resolution: {names['attacker']}'s Resolution abilities first, then {names['defender']}'s"
               + (f": {', '.join(order)}." if order else " (none listed)."), resolution_order)
    trace.summarize(f"The Assault is over: {names['attacker']} played {state.played['attacker']} card(s) and "
                    f"{names['defender']} {state.played['defender']}"
                    + (f"; Resolution applies {', '.join(order)} in that order." if order else "."))
    return out
