"""Runeslingers Discard Phase: what the end of a turn clears, what lasts, and who goes next (``end_of_turn``).

Paragraphs: ``rs.phases-of-a-turn.discard`` (steps 1–5) and ``rs.phases-of-a-turn``, ``rs.your-field.discard-pile``,
``rs.term.light``, ``rs.card-types-areas-of-play.defense-cards`` and ``rs.anatomy-of-a-card`` (a defense card's
defense and the damage dealt to it within a single turn), ``rs.blocking-advanced-rules`` (a barrier lasts the
turn), ``rs.equips.stances``.

Choices where the book is silent (documented here and in the steps):

- ``this_turn`` covers a stance's or ability's effect activated or triggered this turn (step 1 ends them) and a
  card effect stated to last this turn: both end now. A card's ongoing effect with no duration stated is
  ``while_source_in_play``.
- An effect whose ``source_card`` names a runespell in ``runespells_in_play`` loses its source in step 1 (the
  runespell is discarded), so a ``while_source_in_play`` effect of it ends.
- A card named twice in ``defense_cards`` cannot be told apart in the outcome; give copies distinct names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runeslingers._legacy import PLAYER, doc, unique_ids
from engine.runeslingers.common import GAME
from engine.schema import BOOL, Schema, arr, enum, integer, obj, text

SOURCES = ("runeslinger_ability", "stance", "card")
DURATIONS = ("this_turn", "until_end_of_next_turn", "while_source_in_play")
RUNESPELL: Schema = obj(["name", "owner"], name=doc(text(), "Runespell"),
                        owner=doc(text(80), "Owner", "The player in whose deck it began the encounter."))
DEFENSE_CARD: Schema = obj(["name", "defense", "max_defense"],
                           name=doc(text(), "Defense card"),
                           controller=doc(text(80), "Controller"),
                           defense=doc(integer(0, 999), "Defense now", "Its defense after damage this turn."),
                           max_defense=doc(integer(1, 999), "Full defense", "Its defense value."))
BARRIER: Schema = obj(["on", "value"],
                      on=doc(text(), "On", "The Runeslinger or defense card it protects."),
                      value=doc(integer(0, 999), "Value left", "What remains of the barrier."),
                      applied_by=doc(text(80), "Applied by", "The player who blocked."))
EFFECT: Schema = obj(["id", "source", "duration"],
                     id=doc(text(), "Effect"),
                     source=doc(enum(*SOURCES), "Comes from", "A Runeslinger ability, a stance, or a card."),
                     source_card=doc(text(), "Source card", "The card it comes from, if any (a runespell in play "
                                     "here is discarded in step 1)."),
                     duration=doc(enum(*DURATIONS), "Lasts",
                                  "this_turn: a stance's or ability's effect, or a card effect stated to last this "
                                  "turn; until_end_of_next_turn; while_source_in_play: a card's ongoing effect "
                                  "with no duration stated.", default="this_turn"),
                     started=doc(enum("this_turn", "previous_turn"), "Started", "When it began.",
                                 default="this_turn"),
                     source_in_play=doc(BOOL, "Source still in play", "Its source has not left play.", default=True))
SCHEMA: dict[str, Any] = obj(
    ["active_player", "player_to_left"], extra=True,
    active_player=doc(PLAYER, "Active player", "The player whose turn is ending."),
    player_to_left=doc(PLAYER, "Player to the left", "The player on the active player's left."),
    runespells_in_play=doc(arr(RUNESPELL, max_items=20), "Runespells in play", default=[]),
    light_unspent=doc({"type": "object", "additionalProperties": integer(0, 99), "maxProperties": 8},
                      "Unspent light", "Light each player created this turn and did not spend, e.g. {\"Emily\": 1}.",
                      default={}),
    defense_cards=doc(arr(DEFENSE_CARD, max_items=30), "Defense cards in play", default=[]),
    block_barriers=doc(arr(BARRIER, max_items=20), "Block barriers", default=[]),
    effects=doc(arr(EFFECT, max_items=30), "Effects with a duration", default=[]),
)


@dataclass(frozen=True)
class Effect:
    """An effect in play at the end of the turn: where it comes from and how long it lasts."""

    id: str
    source: str
    duration: str
    started: str
    source_in_play: bool
    source_card: str | None

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Effect:
        """Read an effect (started this turn, source in play, when not stated)."""
        return cls(raw["id"], raw["source"], raw["duration"], raw.get("started", "this_turn"),
                   bool(raw.get("source_in_play", True)), raw.get("source_card"))


LABELS: dict[str, Label] = {
    "discarded": "Runespells discarded", "discard_to": "Discard piles", "effects_ended": "Effects that end",
    "effects_continue": "Effects that continue", "light_removed": "Unspent light removed",
    "defense": "Defense after recovering", "barriers_removed": "Block barriers removed",
    "next_active": "Next active player",
}


# ------------------------------------------------------------------------------------------ rules

@rule("rs.phases-of-a-turn.discard", "rs.your-field.discard-pile", "rs.card-types-areas-of-play.runespells")
def discard_runespells(runespells: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Return {owner: [runespells]}: every runespell in play goes to its owner's discard pile (step 1)."""
    piles: dict[str, list[str]] = {}
    for r in runespells:
        piles.setdefault(r["owner"], []).append(r["name"])
    return piles


@rule("rs.phases-of-a-turn.discard", "rs.equips.stances", "rs.equips.abilities")
def effect_ends(effect: Effect, source_leaves: bool) -> tuple[bool, str]:
    """Return (ends now, why) for an effect at step 1: turn-long effects end, lasting ones run their course."""
    if effect.duration == "this_turn":
        what = "a stance's or ability's effect from this turn" if effect.source != "card" \
            else "a card effect that lasts this turn"
        return True, what
    if effect.duration == "until_end_of_next_turn":
        if effect.started == "previous_turn":
            return True, "it lasted until the end of this turn, the turn after it began"
        return False, "it lasts until the end of the next turn, even if its source has left play"
    if not effect.source_in_play or source_leaves:
        return True, "its source has left play" + (" (the runespell is discarded in step 1)" if source_leaves
                                                   and effect.source_in_play else "")
    return False, "its source is still in play"


@rule("rs.phases-of-a-turn.discard", "rs.term.light")
def light_removed(unspent: Mapping[str, int]) -> dict[str, int]:
    """Return the light removed from each player (step 2): all light created this turn and not spent."""
    return {p: int(n) for p, n in unspent.items()}


@rule("rs.phases-of-a-turn.discard", "rs.card-types-areas-of-play.defense-cards", "rs.anatomy-of-a-card")
def recovered_defense(card: Mapping[str, Any]) -> int:
    """Return a defense card's defense after step 3: it recovers to its full defense value."""
    return int(card["max_defense"])


@rule("rs.phases-of-a-turn.discard", "rs.blocking-advanced-rules", "rs.term.block-barrier")
def barriers_removed(barriers: Sequence[Mapping[str, Any]]) -> int:
    """Return how many block barriers step 4 removes: all of them, on every card and Runeslinger."""
    return len(barriers)


@rule("rs.phases-of-a-turn.discard", "rs.phases-of-a-turn")
def next_active(player_to_left: str) -> str:
    """Return the next active player (step 5): the player on the active player's left."""
    return player_to_left


# ----------------------------------------------------------------------------------- resolution

def _step1(pos: Mapping[str, Any], out: dict[str, Any], trace: Trace) -> None:
    spells = pos.get("runespells_in_play", [])
    piles = discard_runespells(spells)
    out["discarded"] = [r["name"] for r in spells]
    out["discard_to"] = piles
    if spells:
        trace.step("Step 1: every runespell in play goes to its owner's discard pile: "
                   + "; ".join(f"{', '.join(names)} to {owner}'s" for owner, names in piles.items()) + ".",
                   discard_runespells)
    else:
        trace.step("Step 1: no runespell is in play.", "rs.phases-of-a-turn.discard")
    leaving = {r["name"] for r in spells}
    for raw in pos.get("effects", []):
        effect = Effect.from_json(raw)
        ends, why = effect_ends(effect, effect.source_card in leaving)
        (out["effects_ended"] if ends else out["effects_continue"]).append(effect.id)
        trace.step(f"“{effect.id}” {'ends' if ends else 'continues'}: {why}.", effect_ends)


def _defense(pos: Mapping[str, Any], out: dict[str, Any], trace: Trace) -> None:
    cards = pos.get("defense_cards", [])
    unique_ids(cards, "name", "defense_cards")
    for i, card in enumerate(cards):
        if card["defense"] > card["max_defense"]:
            raise UnreadableInputError(f"defense {card['defense']} is above max_defense {card['max_defense']}; "
                                       "damage only lowers a defense card's defense",
                                       path=f"defense_cards[{i}].defense")
    out["defense"] = {c["name"]: recovered_defense(c) for c in cards}
    damaged = [c for c in cards if c["defense"] < c["max_defense"]]
    if damaged:
        trace.step("Step 3: every defense card recovers its full defense; damage only counts within a single "
                   "turn: " + "; ".join(f"{c['name']} {c['defense']} → {c['max_defense']}" for c in damaged) + ".",
                   recovered_defense)
    elif cards:
        trace.step("Step 3: every defense card is back at its full defense (none was damaged).", recovered_defense)
    else:
        trace.step("Step 3: no defense card is in play.", "rs.phases-of-a-turn.discard")


@situation(GAME, "end_of_turn", SCHEMA, labels=LABELS)
def resolve_end_of_turn(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve the Discard Phase: runespells discarded, effects end, light removed, defense back, barriers go."""
    active, left = pos["active_player"], pos["player_to_left"]
    out: dict[str, Any] = {"discarded": [], "discard_to": {}, "effects_ended": [], "effects_continue": [],
                           "light_removed": {}, "defense": {}, "barriers_removed": 0, "next_active": None}
    trace.step(f"{active}'s Discard Phase: its 5 steps are carried out in order.", "rs.phases-of-a-turn.discard",
               "rs.phases-of-a-turn")
    _step1(pos, out, trace)
    out["light_removed"] = light_removed(pos.get("light_unspent", {}))
    total = sum(out["light_removed"].values())
    trace.step("Step 2: all light created this turn and not spent is removed"
               + (": " + ", ".join(f"{n} from {p}" for p, n in out["light_removed"].items() if n) + "."
                  if total else " (there is none)."), light_removed)
    _defense(pos, out, trace)
    barriers = pos.get("block_barriers", [])
    out["barriers_removed"] = barriers_removed(barriers)
    trace.step(f"Step 4: all block barriers are removed ({len(barriers)}), whoever applied them: a barrier lasts "
               "only until the turn ends or it is used up.", barriers_removed)
    out["next_active"] = next_active(left)
    trace.step(f"Step 5: {active}'s turn ends; {left}, on {active}'s left, becomes the active player and starts at "
               "the beginning of their Ready Phase.", next_active)
    bits = [f"{len(out['discarded'])} runespell(s) discarded" if out["discarded"] else "",
            f"{total} unspent light removed" if total else "",
            f"{len(out['effects_ended'])} effect(s) end" if out["effects_ended"] else "",
            f"{len(out['effects_continue'])} continue" if out["effects_continue"] else "",
            f"{out['barriers_removed']} barrier(s) removed" if out["barriers_removed"] else ""]
    said = ", ".join(b for b in bits if b)
    trace.summarize(f"{active}'s turn ends" + (f" ({said})" if said else "") + f"; {left} is the next active player")
    return out
