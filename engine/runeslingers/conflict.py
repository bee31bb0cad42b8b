"""Runeslingers conflicting effects: ailment beats stance/ability beats card; ties go to the active player.

Paragraphs: ``rs.golden-rules.conflict-priority``, ``rs.golden-rules.active-player-tiebreak``,
``rs.golden-rules.effects-over-rules``, ``rs.setup-steps.simultaneous-effects``.

``chosen`` states the active player's pick among equal-priority effects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runeslingers.common import GAME
from engine.schema import arr, enum, obj, text

LEVELS = ("card", "stance_ability", "ailment")
LEVEL_NAMES = {"card": "card effect", "stance_ability": "stance or ability effect",
               "ailment": "ailment effect"}
SCHEMA: dict[str, Any] = obj(
    ["active_player", "effects"], extra=True,
    active_player=text(),
    effects=arr(obj(["id", "level", "controller"], id=text(), level=enum(*LEVELS), controller=text()),
                min_items=1, max_items=50),
    chosen=text(),
)


@dataclass(frozen=True)
class Effect:
    """One of the contradicting effects: its id, priority level and controller."""

    id: str
    level: str
    controller: str

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Effect:
        """Read an effect."""
        return cls(raw["id"], raw["level"], raw["controller"])


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


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: the effect that prevails and why (or the active player's open choice)."""
    if out["prevails"] is None:
        options = [str(o) for d in trace.decisions for o in d.options]
        both = ", ".join(options[:-1]) + " and " + options[-1] if len(options) > 1 else "".join(options)
        return (f"{both} are on the same level ({LEVEL_NAMES[out['level']]}): the active player "
                f"({pos['active_player']}) chooses which applies.")
    if not out["overridden"]:
        return f"{out['prevails']} applies: nothing contradicts it."
    level = LEVEL_NAMES[out["level"]]
    return (f"{out['prevails']} prevails over {', '.join(out['overridden'])} "
            f"({'an' if level[0] in 'aeiou' else 'a'} {level}).")


@situation(GAME, "conflict", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_conflict(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve contradicting effects: the higher level prevails; at equal level the active player's effect."""
    effects = [Effect.from_json(e) for e in pos["effects"]]
    ids = [e.id for e in effects]
    for i, e in enumerate(effects):
        if ids.index(e.id) != i:
            raise UnreadableInputError(f"two effects share the id {e.id!r}", path=f"effects[{i}].id")
    active = pos["active_player"]
    out: dict[str, Any] = {"prevails": None, "overridden": [], "level": None}
    if len(effects) == 1:
        out.update(prevails=effects[0].id, level=effects[0].level)
        trace.step("Only 1 effect: nothing contradicts it, and an effect takes precedence over the rules it "
                   "contradicts.", "rs.golden-rules.effects-over-rules")
        return out
    trace.step("Contradicting effects: " + "; ".join(f"{e.id} ({LEVEL_NAMES[e.level]}, {e.controller})"
                                                    for e in effects) + ".", "rs.golden-rules")
    top = top_level(effects, corpus)
    out["level"] = top[0].level
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
    if len(candidates) == 1:
        out.update(prevails=candidates[0].id, overridden=beaten)
        trace.step(f"{candidates[0].id} prevails.", top_level if len(top) == 1 else active_players)
        return out
    chosen = pos.get("chosen")
    if chosen is not None:
        ids_left = [e.id for e in candidates]
        if chosen not in ids_left:
            trace.violate(f"{chosen!r} is not one of the equal-priority effects ({', '.join(ids_left)})",
                          "rs.golden-rules.active-player-tiebreak")
            return out
        out.update(prevails=chosen, overridden=beaten + [i for i in ids_left if i != chosen])
        trace.step(f"The active player ({active}) chooses {chosen}, which applies.",
                   "rs.golden-rules.active-player-tiebreak", "rs.setup-steps.simultaneous-effects")
        return out
    out["overridden"] = beaten
    same = len({e.controller for e in candidates}) == 1
    who = "the same player" if same else "players other than the active one"
    trace.step(f"{len(candidates)} effects on the same level controlled by {who}: no rule ranks them, so the "
               f"active player ({active}) decides which applies.", "rs.golden-rules.active-player-tiebreak",
               "rs.setup-steps.simultaneous-effects")
    trace.decide(active, "which of the equal-priority effects applies",
                 "rs.golden-rules.active-player-tiebreak", "rs.setup-steps.simultaneous-effects",
                 options=[e.id for e in candidates], field="chosen")
    return out
