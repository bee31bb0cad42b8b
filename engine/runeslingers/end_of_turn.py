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
from typing import Annotated, Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runeslingers.common import GAME, agree, joined, plural
from engine.runeslingers.fields import Player, player, unique_ids

Source = Literal["runeslinger_ability", "stance", "card"]
Duration = Literal["this_turn", "until_end_of_next_turn", "while_source_in_play"]


class Runespell(Model):
    """A runespell in play, and the player in whose deck it began."""

    name: str = Field(max_length=200, title="Runespell")
    owner: str = Field(max_length=80, title="Owner", description="The player in whose deck it began the encounter.")


class DefenseCard(Model):
    """A defense card in play: its defense now and its full defense."""

    name: str = Field(max_length=200, title="Defense card")
    controller: str | None = maybe(title="Controller", max_length=80)
    defense: int = Field(ge=0, le=999, title="Defense now", description="Its defense after damage this turn.")
    max_defense: int = Field(ge=1, le=999, title="Full defense", description="Its defense value.")


class Barrier(Model):
    """A block barrier still in play."""

    on: str = Field(max_length=200, title="On", description="The Runeslinger or defense card it protects.")
    value: int = Field(ge=0, le=999, title="Value left", description="What remains of the barrier.")
    applied_by: str | None = maybe("The player who blocked.", title="Applied by", max_length=80)


class Effect(Model):
    """An effect in play at the end of the turn: where it comes from and how long it lasts."""

    id: str = Field(max_length=200, title="Effect")
    source: Source = Field(title="Comes from", description="A Runeslinger ability, a stance, or a card.")
    source_card: str | None = maybe("The card it comes from, if any (a runespell in play here is discarded in "
                                    "step 1).", title="Source card", max_length=200)
    duration: Duration = Field(title="Lasts", json_schema_extra={"default": "this_turn"},
                               description="this_turn: a stance's or ability's effect, or a card effect stated to "
                                           "last this turn; until_end_of_next_turn; while_source_in_play: a card's "
                                           "ongoing effect with no duration stated.")
    started: Literal["this_turn", "previous_turn"] = Field("this_turn", title="Started", description="When it began.")
    source_in_play: bool = Field(True, title="Source still in play", description="Its source has not left play.")


class EndOfTurnPosition(OpenPosition):
    """The end of a turn: what is in play, the light unspent, the barriers and the effects with a duration."""

    model_config = ConfigDict(title="End of turn")

    game: Literal["runeslingers"]
    situation: Literal["end_of_turn"]
    active_player: Player = player("Active player", "The player whose turn is ending.")
    player_to_left: Player = player("Player to the left", "The player on the active player's left.")
    runespells_in_play: list[Runespell] = Field([], max_length=20, title="Runespells in play")
    light_unspent: dict[str, Annotated[int, Field(ge=0, le=99)]] = Field(
        {}, max_length=8, title="Unspent light",
        description="Light each player created this turn and did not spend, e.g. {\"Emily\": 1}.")
    defense_cards: list[DefenseCard] = Field([], max_length=30, title="Defense cards in play")
    block_barriers: list[Barrier] = Field([], max_length=20, title="Block barriers")
    effects: list[Effect] = Field([], max_length=30, title="Effects with a duration")

    @model_validator(mode="after")
    def _cards_readable(self) -> EndOfTurnPosition:
        unique_ids([c.name for c in self.defense_cards], "name", "defense_cards")
        for i, card in enumerate(self.defense_cards):
            if card.defense > card.max_defense:
                raise refuse(f"defense {card.defense} is above max_defense {card.max_defense}; damage only lowers "
                             "a defense card's defense", f"defense_cards[{i}].defense")
        return self

    def reading(self) -> list[str]:
        """The players, what is in play, the light unspent, the barriers and the effects with their durations."""
        out = [f"{self.active_player}'s turn ends; {self.player_to_left} is on their left."]
        if self.runespells_in_play:
            out.append("Runespells in play: " + joined([f"{r.name} ({r.owner}'s)" for r in self.runespells_in_play])
                       + ".")
        if self.light_unspent:
            out.append("Light unspent: " + joined([f"{who} {n}" for who, n in self.light_unspent.items()]) + ".")
        for d in self.defense_cards:
            by = f" ({d.controller}'s)" if d.controller else ""
            out.append(f"Defense card {d.name}{by}: defense {d.defense} of {d.max_defense}.")
        for b in self.block_barriers:
            by = f", applied by {b.applied_by}" if b.applied_by else ""
            out.append(f"Block barrier on {b.on}: {b.value} left{by}.")
        source = {"runeslinger_ability": "a Runeslinger ability", "stance": "a stance", "card": "a card"}
        lasts = {"this_turn": "lasts this turn", "until_end_of_next_turn": "lasts until the end of the next turn",
                 "while_source_in_play": "lasts while its source is in play"}
        for e in self.effects:
            card = f" ({e.source_card})" if e.source_card else ""
            gone = "" if e.source_in_play else "; its source has left play"
            began = "began this turn" if e.started == "this_turn" else "began on the previous turn"
            out.append(f"Effect {e.id}: from {source[e.source]}{card}, {lasts.get(e.duration, e.duration)}, "
                       f"{began}{gone}.")
        return out


class EndOfTurnOutcome(Outcome):
    """What the Discard Phase clears and what lasts, and who goes next."""

    discarded: list[str] = Field(default_factory=list)
    discard_to: dict[str, list[str]] = Field(default_factory=dict)
    effects_ended: list[str] = Field(default_factory=list)
    effects_continue: list[str] = Field(default_factory=list)
    light_removed: dict[str, int] = Field(default_factory=dict)
    defense: dict[str, int] = Field(default_factory=dict)
    barriers_removed: int = 0
    next_active: str | None = None


LABELS: dict[str, Label] = {
    "discarded": "Runespells discarded", "discard_to": "Discard piles", "effects_ended": "Effects that end",
    "effects_continue": "Effects that continue", "light_removed": "Unspent light removed",
    "defense": "Defense after recovering", "barriers_removed": "Block barriers removed",
    "next_active": "Next active player",
}


# ------------------------------------------------------------------------------------------ rules

@rule("rs.phases-of-a-turn.discard", "rs.your-field.discard-pile", "rs.card-types-areas-of-play.runespells")
def discard_runespells(runespells: Sequence[Runespell]) -> dict[str, list[str]]:
    """Return {owner: [runespells]}: every runespell in play goes to its owner's discard pile (step 1)."""
    piles: dict[str, list[str]] = {}
    for r in runespells:
        piles.setdefault(r.owner, []).append(r.name)
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
def recovered_defense(card: DefenseCard) -> int:
    """Return a defense card's defense after step 3: it recovers to its full defense value."""
    return card.max_defense


@rule("rs.phases-of-a-turn.discard", "rs.blocking-advanced-rules", "rs.term.block-barrier")
def barriers_removed(barriers: Sequence[Barrier]) -> int:
    """Return how many block barriers step 4 removes: all of them, on every card and Runeslinger."""
    return len(barriers)


@rule("rs.phases-of-a-turn.discard", "rs.phases-of-a-turn")
def next_active(player_to_left: str) -> str:
    """Return the next active player (step 5): the player on the active player's left."""
    return player_to_left


# ----------------------------------------------------------------------------------- resolution

@rule("rs.phases-of-a-turn.discard")
def _step1(pos: EndOfTurnPosition, out: EndOfTurnOutcome, trace: Trace) -> None:
    """Step 1: runespells go to their owners' discard piles; effects lasting the turn end."""
    spells = pos.runespells_in_play
    piles = discard_runespells(spells)
    out.discarded = [r.name for r in spells]
    out.discard_to = piles
    if spells:
        trace.step("Step 1: every runespell in play goes to its owner's discard pile: "
                   + "; ".join(f"{', '.join(names)} to {owner}'s" for owner, names in piles.items()) + ".",
                   discard_runespells)
    else:
        trace.step("Step 1: no runespell is in play.", "rs.phases-of-a-turn.discard")
    leaving = {r.name for r in spells}
    for effect in pos.effects:
        ends, why = effect_ends(effect, effect.source_card in leaving)
        (out.effects_ended if ends else out.effects_continue).append(effect.id)
        trace.step(f"“{effect.id}” {'ends' if ends else 'continues'}: {why}.", effect_ends)


def _light(unspent: Mapping[str, int], out: EndOfTurnOutcome, trace: Trace) -> int:
    """Step 2: the light created this turn and not spent is removed; return how much."""
    out.light_removed = light_removed(unspent)
    total = sum(out.light_removed.values())
    trace.step("Step 2: all light created this turn and not spent is removed"
               + (": " + ", ".join(f"{n} from {p}" for p, n in out.light_removed.items() if n) + "."
                  if total else " (there is none)."), light_removed)
    return total


@rule("rs.phases-of-a-turn.discard")
def _defense(pos: EndOfTurnPosition, out: EndOfTurnOutcome, trace: Trace) -> None:
    """Step 3: every defense card recovers its full defense."""
    cards = pos.defense_cards
    out.defense = {c.name: recovered_defense(c) for c in cards}
    damaged = [c for c in cards if c.defense < c.max_defense]
    if damaged:
        trace.step("Step 3: every defense card recovers its full defense; damage only counts within a single "
                   "turn: " + "; ".join(f"{c.name} {c.defense} → {c.max_defense}" for c in damaged) + ".",
                   recovered_defense)
    elif cards:
        trace.step("Step 3: every defense card is back at its full defense (none was damaged).", recovered_defense)
    else:
        trace.step("Step 3: no defense card is in play.", "rs.phases-of-a-turn.discard")


def _summary(pos: EndOfTurnPosition, out: EndOfTurnOutcome, total: int) -> str:
    """One sentence: what the turn's end clears, and who is next."""
    bits = [f"{plural(len(out.discarded), 'runespell')} discarded" if out.discarded else "",
            f"{total} unspent light removed" if total else "",
            f"{plural(len(out.effects_ended), 'effect')} "
            f"{agree(len(out.effects_ended), 'ends', 'end')}" if out.effects_ended else "",
            f"{len(out.effects_continue)} continue" if out.effects_continue else "",
            f"{plural(out.barriers_removed, 'barrier')} removed" if out.barriers_removed else ""]
    said = ", ".join(b for b in bits if b)
    return (f"{pos.active_player}'s turn ends" + (f" ({said})" if said else "")
            + f"; {pos.player_to_left} is the next active player")


@situation(GAME, "end_of_turn", EndOfTurnPosition, labels=LABELS)
@rule("rs.phases-of-a-turn.discard", "rs.phases-of-a-turn")
def resolve_end_of_turn(pos: EndOfTurnPosition, trace: Trace, corpus: Corpus) -> EndOfTurnOutcome:
    """Resolve the Discard Phase: runespells discarded, effects end, light removed, defense back, barriers go."""
    active, left = pos.active_player, pos.player_to_left
    out = EndOfTurnOutcome()
    trace.step(f"{active}'s Discard Phase: its 5 steps are carried out in order.", "rs.phases-of-a-turn.discard",
               "rs.phases-of-a-turn")
    _step1(pos, out, trace)
    total = _light(pos.light_unspent, out, trace)
    _defense(pos, out, trace)
    barriers = pos.block_barriers
    out.barriers_removed = barriers_removed(barriers)
    trace.step(f"Step 4: all block barriers are removed ({len(barriers)}), whoever applied them: a barrier lasts "
               "only until the turn ends or it is used up.", barriers_removed)
    out.next_active = next_active(left)
    trace.step(f"Step 5: {active}'s turn ends; {left}, on {active}'s left, becomes the active player and starts at "
               "the beginning of their Ready Phase.", next_active)
    trace.summarize(_summary(pos, out, total))
    return out
