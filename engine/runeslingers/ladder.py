"""Runeslingers ladder: answers with Shout stack as rungs and resolve top-down; removed cards fizzle.

Paragraphs: ``rs.the-ladder``, ``rs.the-ladder.resolution``, ``rs.the-ladder.defense-cards``,
``rs.the-ladder.example`` (Stone Trap), ``rs.answerable-actions``, ``rs.answering-with-a-shout``,
``rs.card-play-steps.6``, ``rs.resolving-effects.fizzle``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runeslingers.common import GAME, agree, joined, plural
from engine.runeslingers.fields import first_repeat

LadderEffect = Literal["damage", "ailment", "block", "conceal", "destroy", "discard", "return_to_hand", "void",
                       "place_under", "other"]
EFFECT_WORDS: dict[str, str] = {
    "damage": "Deals damage or health loss",
    "ailment": "Applies ailments",
    "block": "Blocks or prevents damage",
    "conceal": "Conceals its target",
    "destroy": "Destroys its target",
    "discard": "Discards its target",
    "return_to_hand": "Returns its target to a hand",
    "void": "Voids its target",
    "place_under": "Places its target under a card",
    "other": "Something else (its target stays in play)",
}
"""What a rung's effect does to its targets, in a player's words (the board's choice)."""
REMOVING: frozenset[str] = frozenset({"conceal", "destroy", "discard", "return_to_hand", "void", "place_under"})
"""Effects that take their target out of play (a concealed card counts as out of play)."""
HIDING: frozenset[str] = frozenset({"conceal", "place_under"})


class PlayedCard(Model):
    """One rung: a card played by a player, its effect and the targets it declared."""

    model_config = ConfigDict(title="Play")

    card: str = Field(max_length=200)
    id: str | None = maybe(max_length=200)
    player: str = Field(max_length=200)
    effect: LadderEffect | None = maybe("What the card's effect does to its targets; left unstated, the ruling "
                                        "asks when it matters.", title="Effect", labels=EFFECT_WORDS)
    targets: list[Annotated[str, Field(max_length=200)]] | None = maybe(max_length=20)
    card_type: Literal["runespell", "defense_card"] | None = maybe()
    shout: bool | None = maybe()


class LadderPosition(OpenPosition):
    """The cards played, bottom rung first: each answer climbs a rung above the one it answers."""

    game: Literal["runeslingers"]
    situation: Literal["ladder"]
    plays: list[PlayedCard] = Field(min_length=1, max_length=50)

    @model_validator(mode="after")
    def _distinct_rungs(self) -> LadderPosition:
        i = first_repeat([p.id or p.card for p in self.plays])
        if i is not None:
            name = self.plays[i].id or self.plays[i].card
            raise refuse(f"two plays are both called {name!r}; give each copy its own 'id'", f"plays[{i}].id")
        return self

    def reading(self) -> list[str]:
        """Each rung, bottom first: the card, its player, what its effect does and its targets."""
        out = []
        top = len(self.plays) - 1
        for i, p in enumerate(self.plays):
            where = " (bottom)" if i == 0 and top else " (top)" if i == top and top else ""
            kind = {"runespell": "a runespell", "defense_card": "a defense card", None: ""}[p.card_type]
            bits = [kind, "with Shout" if p.shout else "without Shout" if p.shout is False else ""]
            extra = f" ({' '.join(b for b in bits if b)})" if any(bits) else ""
            copy = f" [{p.id}]" if p.id and p.id != p.card else ""
            does = EFFECT_WORDS[p.effect].lower() if p.effect else "effect not stated"
            on = f", targeting {joined(p.targets)}" if p.targets else ", no target"
            out.append(f"Rung {i + 1}{where}: {p.card}{copy}{extra}, played by {p.player}: {does}{on}.")
        return out


class LadderOutcome(Outcome):
    """The order the rungs resolve in, what fizzles, what leaves play and the targets lost."""

    resolution_order: list[str] = Field(default_factory=list)
    fizzled: list[str] = Field(default_factory=list)
    left_play: list[str] = Field(default_factory=list)
    lost_targets: dict[str, list[str]] = Field(default_factory=dict)


@dataclass(frozen=True)
class Play:
    """One rung: a card played by a player, its effect and the targets it declared."""

    id: str
    card: str
    player: str
    effect: str | None
    targets: tuple[str, ...]
    card_type: str | None
    shout: bool | None
    index: int = 0

    @classmethod
    def of(cls, raw: PlayedCard, index: int = 0) -> Play:
        """Read a play (*index* is its place in ``plays``, counted from 0)."""
        return cls(raw.id or raw.card, raw.card, raw.player, raw.effect, tuple(raw.targets or ()), raw.card_type,
                   raw.shout, index)

    @property
    def removes(self) -> bool:
        """Return whether its effect takes its targets out of play (an unstated effect does not say)."""
        return self.effect in REMOVING


@rule("rs.the-ladder", "rs.the-ladder.resolution")
def resolution_order(plays: Sequence[Play]) -> list[Play]:
    """Return the rungs in resolution order: from the top rung (latest answer) down to the first card."""
    return list(reversed(plays))


@rule("rs.the-ladder.resolution", "rs.term.concealed", "rs.the-ladder.example")
def has_left_play(play: Play, gone: set[str]) -> bool:
    """Return whether the card itself left play or was concealed before its rung resolves (no effects)."""
    return play.id in gone or play.card in gone


@rule("rs.resolving-effects.fizzle", "rs.the-ladder.resolution", "rs.term.target")
def live_targets(play: Play, gone: set[str]) -> list[str]:
    """Return the targets still in play; an effect whose targets have all left the field fizzles."""
    return [t for t in play.targets if t not in gone]


@rule("rs.card-play-steps.6", "rs.answerable-actions", "rs.answering-with-a-shout",
      "rs.the-ladder.defense-cards")
def answer_problems(below: Play, answer: Play) -> list[str]:
    """Return why *answer* cannot answer the rung below: only an enemy, with Shout, after a runespell."""
    out = []
    if below.card_type == "defense_card":
        out.append(f"{below.card} is a defense card: playing it creates no answerable action, so "
                   f"{answer.card} cannot answer it")
    if answer.player == below.player:
        out.append(f"{answer.card}: the answerable action for {below.card} is created for an enemy of "
                   f"{below.player}, not for {below.player}")
    if answer.shout is False:
        out.append(f"{answer.card} has no Shout keyword, so it cannot be played as an answer")
    return out


LABELS: dict[str, Label] = {
    "resolution_order": "Resolution order", "fizzled": "Fizzled", "left_play": "Left play",
    "lost_targets": "Targets lost",
}


def _summary(pos: LadderPosition, out: LadderOutcome, trace: Trace) -> str:
    """One sentence: the order the rungs resolve in, and what fizzles (or what an open decision decides)."""
    order, fizzled = out.resolution_order, out.fizzled
    if trace.decisions:
        asked = pos.plays[int(trace.decisions[0].field.split("[")[1].split("]")[0])]
        text = f"The ladder resolves top down: {joined(order)}" if len(order) > 1 else f"{order[0]} resolves"
        return (text + f"; what resolves after {asked.card} depends on what its effect does to its "
                "targets, still to be stated.")
    if len(order) == 1:
        return f"{order[0]} " + ("fizzles." if fizzled else "resolves: nobody answers it.")
    text = "The ladder resolves top down: " + ", ".join(order)
    text += f"; {', '.join(fizzled)} {agree(len(fizzled), 'fizzles', 'fizzle')}" if fizzled else \
        "; nothing fizzles"
    return text + "."


@rule("rs.the-ladder")
def _climb(plays: Sequence[Play], trace: Trace) -> bool:
    """The rungs as played: each answer must be a legal answer to the rung below; return whether all are."""
    first = plays[0]
    trace.step(f"{first.card} ({first.player}) is the bottom rung"
               + (f"; {plural(len(plays) - 1, 'answer')} {agree(len(plays) - 1, 'climbs', 'climb')} above it."
                  if len(plays) > 1 else
                  "; nobody answers, so no ladder forms and it simply resolves."), "rs.the-ladder")
    for below, answer in itertools.pairwise(plays):
        for problem in answer_problems(below, answer):
            trace.violate(problem, answer_problems)
    if trace.violations:
        return False
    if len(plays) > 1:
        trace.step("No answerable action remains: the ladder is complete; it resolves from the top rung "
                   "down.",
                   resolution_order)
    return True


def _still_matters(play: Play, below: Sequence[Play], live: Sequence[str]) -> bool:
    """Return whether a target of *play* is a rung still to resolve, or one of that rung's targets."""
    later = {name for b in below for name in (b.id, b.card, *b.targets)}
    return any(t in later for t in live)


@rule("rs.resolving-effects", "rs.card-play-steps.7", "rs.term.concealed", "rs.the-ladder.resolution")
def _resolve_rung(play: Play, below: Sequence[Play], gone: set[str], out: LadderOutcome, trace: Trace) -> bool:
    """One rung resolves: it fizzles if it or all its targets left play, else does what it can. Return False
    when what it does is unstated and decides how the rungs below resolve (the ruling stops there)."""
    out.resolution_order.append(play.card)
    if has_left_play(play, gone):
        out.fizzled.append(play.card)
        trace.step(f"{play.card} has left play or is concealed before its rung resolves: it has no "
                   "effects and does nothing.", has_left_play)
        return True
    live = live_targets(play, gone)
    if play.targets and not live:
        out.fizzled.append(play.card)
        trace.step(f"{play.card}'s {agree(len(play.targets), 'target', 'targets')} ({joined(play.targets)}) "
                   f"{agree(len(play.targets), 'has', 'have')} left the field or been concealed: the effect "
                   "fizzles.", live_targets)
        return True
    if play.effect is None and _still_matters(play, below, live):
        trace.decide(play.player, f"what {play.card}'s effect does to {joined(live)}", "rs.the-ladder.resolution",
                     options=list(EFFECT_WORDS), field=f"plays[{play.index}].effect")
        return False
    lost = [t for t in play.targets if t not in live]
    does = f": it {EFFECT_WORDS[play.effect][:1].lower()}{EFFECT_WORDS[play.effect][1:]}" if play.effect else ""
    if lost:
        out.lost_targets[play.card] = lost
        trace.step(f"{play.card} resolves on {joined(live)} only ({joined(lost)} left the field){does}; "
                   "an effect does as much as it can.", live_targets, "rs.resolving-effects")
    else:
        on = f" on {joined(live)}" if live else ""
        trace.step(f"{play.card} resolves{on}{does}.", resolution_order, "rs.card-play-steps.7")
    if play.removes and live:
        gone.update(live)
        out.left_play.extend(t for t in live if t not in out.left_play)
        hidden = play.effect in HIDING
        trace.step(f"{joined(live)} {agree(len(live), 'is', 'are')} now out of play"
                   + (" (a concealed card counts as out of play)." if hidden else "."),
                   *(["rs.term.concealed"] if hidden else []), "rs.the-ladder.resolution")
    return True


@situation(GAME, "ladder", LadderPosition, labels=LABELS)
@summarized(_summary)
def resolve_ladder(pos: LadderPosition, trace: Trace, corpus: Corpus) -> LadderOutcome:
    """Resolve a ladder: rungs resolve from the top down; a removed card or a removed target fizzles."""
    plays = [Play.of(p, i) for i, p in enumerate(pos.plays)]
    out = LadderOutcome()
    if not _climb(plays, trace):
        return out
    gone: set[str] = set()
    order = resolution_order(plays)
    for k, play in enumerate(order):
        if not _resolve_rung(play, order[k + 1:], gone, out, trace):
            out.resolution_order.extend(p.card for p in order[k + 1:])
            break
    return out
