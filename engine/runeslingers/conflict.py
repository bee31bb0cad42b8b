"""Runeslingers conflicting effects: ailment beats stance/ability beats card; ties go to the active player.

Paragraphs: ``rs.golden-rules.conflict-priority``, ``rs.golden-rules.active-player-tiebreak``,
``rs.golden-rules.effects-over-rules``, ``rs.setup-steps.simultaneous-effects``.

``chosen`` states the active player's pick among equal-priority effects.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runeslingers.common import GAME
from engine.runeslingers.fields import first_repeat

Level = Literal["card", "stance_ability", "ailment"]
LEVEL_NAMES = {"card": "card effect", "stance_ability": "stance or ability effect",
               "ailment": "ailment effect"}


class Effect(Model):
    """One of the contradicting effects: its id, priority level and controller."""

    id: str = Field(max_length=200)
    level: Level
    controller: str = Field(max_length=200)


class ConflictPosition(OpenPosition):
    """Effects that contradict each other, the active player, and the active player's pick when needed."""

    game: Literal["runeslingers"]
    situation: Literal["conflict"]
    active_player: str = Field(max_length=200)
    effects: list[Effect] = Field(min_length=1, max_length=50)
    chosen: str | None = maybe(max_length=200)

    @model_validator(mode="after")
    def _distinct_ids(self) -> ConflictPosition:
        i = first_repeat([e.id for e in self.effects])
        if i is not None:
            raise refuse(f"two effects share the id {self.effects[i].id!r}", f"effects[{i}].id")
        return self

    def reading(self) -> list[str]:
        """The active player, each effect with its level and controller, and the pick already made."""
        level = {"card": "a card effect", "stance_ability": "a stance or ability", "ailment": "an ailment"}
        out = [f"Active player: {self.active_player}."]
        out += [f"Effect {e.id}: {level[e.level]}, controlled by {e.controller}." for e in self.effects]
        if self.chosen is not None:
            out.append(f"The active player picked {self.chosen}.")
        return out


class ConflictOutcome(Outcome):
    """Which effect prevails, the effects it overrides, and the priority level that decides."""

    prevails: str | None = None
    overridden: list[str] = Field(default_factory=list)
    level: Level | None = None


@rule("rs.golden-rules.conflict-priority")
def rank(level: str, corpus: Corpus) -> int:
    """Return a level's priority: card effects lowest, then stance and ability, ailment effects highest."""
    return list(corpus.fact("rs.golden-rules.conflict-priority", "priority_levels_low_to_high")).index(level)


@rule("rs.golden-rules.conflict-priority")
def top_level(effects: Sequence[Effect], corpus: Corpus) -> list[Effect]:
    """Return the effects on the highest priority level present (the others are overridden)."""
    best = max(rank(e.level, corpus) for e in effects)
    return [e for e in effects if rank(e.level, corpus) == best]


@rule("rs.golden-rules.active-player-tiebreak")
def active_players(effects: Sequence[Effect], active_player: str, corpus: Corpus) -> list[Effect]:
    """Return, among equal-level effects of different controllers, the active player's (they prevail)."""
    if corpus.fact("rs.golden-rules.active-player-tiebreak", "same_level_tiebreak") != "active_player":
        return []
    return [e for e in effects if e.controller == active_player]


LABELS: dict[str, Label] = {
    "prevails": "Effect that prevails", "overridden": "Overridden effects",
    "level": ("Priority level", LEVEL_NAMES),
}


def _summary(pos: ConflictPosition, out: ConflictOutcome, trace: Trace) -> str:
    """One sentence: the effect that prevails and why (or the active player's open choice)."""
    if out.prevails is None or out.level is None:
        options = [str(o) for d in trace.decisions for o in d.options]
        both = ", ".join(options[:-1]) + " and " + options[-1] if len(options) > 1 else "".join(options)
        return (f"{both} are on the same level ({LEVEL_NAMES[str(out.level)]}): the active player "
                f"({pos.active_player}) chooses which applies.")
    if not out.overridden:
        return f"{out.prevails} applies: nothing contradicts it."
    level = LEVEL_NAMES[out.level]
    return (f"{out.prevails} prevails over {', '.join(out.overridden)} "
            f"({'an' if level[0] in 'aeiou' else 'a'} {level}).")


@rule("rs.golden-rules")
def _priority(effects: Sequence[Effect], active: str, out: ConflictOutcome, trace: Trace,
              corpus: Corpus) -> tuple[list[Effect], list[str], list[Effect]]:
    """The highest level prevails; at equal level, the active player's effect. Return (top, beaten, candidates)."""
    trace.step("Contradicting effects: " + "; ".join(f"{e.id} ({LEVEL_NAMES[e.level]}, {e.controller})"
                                                    for e in effects) + ".", "rs.golden-rules")
    top = top_level(effects, corpus)
    out.level = top[0].level
    beaten = [e.id for e in effects if e not in top]
    if beaten:
        trace.step(f"The highest level present is the {LEVEL_NAMES[top[0].level]}: it overrides "
                   f"{', '.join(beaten)} (card < stance and ability < ailment).", top_level)
    candidates = top
    if len({e.controller for e in top}) > 1:
        mine = active_players(top, active, corpus)
        if mine:
            dropped = [e.id for e in top if e not in mine]
            trace.step(f"Equal level, different controllers: the active player ({active})'s effect prevails "
                       f"for this turn over {', '.join(dropped)}.", active_players)
            candidates = mine
            beaten += dropped
    return top, beaten, candidates


@rule("rs.golden-rules.active-player-tiebreak", "rs.setup-steps.simultaneous-effects")
def _tie(pos: ConflictPosition, candidates: Sequence[Effect], beaten: list[str], out: ConflictOutcome,
         trace: Trace) -> None:
    """Equal-priority effects no rule ranks: the active player's pick, or the choice left open."""
    active, chosen = pos.active_player, pos.chosen
    if chosen is not None:
        ids_left = [e.id for e in candidates]
        if chosen not in ids_left:
            trace.violate(f"{chosen!r} is not one of the equal-priority effects ({', '.join(ids_left)})",
                          "rs.golden-rules.active-player-tiebreak")
            return
        out.prevails, out.overridden = chosen, beaten + [i for i in ids_left if i != chosen]
        trace.step(f"The active player ({active}) chooses {chosen}, which applies.",
                   "rs.golden-rules.active-player-tiebreak", "rs.setup-steps.simultaneous-effects")
        return
    out.overridden = beaten
    same = len({e.controller for e in candidates}) == 1
    who = "the same player" if same else "players other than the active one"
    trace.step(f"{len(candidates)} effects on the same level controlled by {who}: no rule ranks them, so the "
               f"active player ({active}) decides which applies.", "rs.golden-rules.active-player-tiebreak",
               "rs.setup-steps.simultaneous-effects")
    trace.decide(active, "which of the equal-priority effects applies",
                 "rs.golden-rules.active-player-tiebreak", "rs.setup-steps.simultaneous-effects",
                 options=[e.id for e in candidates], field="chosen")


@situation(GAME, "conflict", ConflictPosition, labels=LABELS)
@summarized(_summary)
@rule("rs.golden-rules.effects-over-rules")
def resolve_conflict(pos: ConflictPosition, trace: Trace, corpus: Corpus) -> ConflictOutcome:
    """Resolve contradicting effects: the higher level prevails; at equal level the active player's effect."""
    effects = pos.effects
    out = ConflictOutcome()
    if len(effects) == 1:
        out.prevails, out.level = effects[0].id, effects[0].level
        trace.step("Only 1 effect: nothing contradicts it, and an effect takes precedence over the rules it "
                   "contradicts.", "rs.golden-rules.effects-over-rules")
        return out
    top, beaten, candidates = _priority(effects, pos.active_player, out, trace, corpus)
    if len(candidates) == 1:
        out.prevails, out.overridden = candidates[0].id, beaten
        trace.step(f"{candidates[0].id} prevails.", top_level if len(top) == 1 else active_players)
        return out
    _tie(pos, candidates, beaten, out, trace)
    return out
