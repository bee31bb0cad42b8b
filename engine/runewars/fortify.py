"""Runewars Fortify order: build a stronghold, repair one, and move (and hide again) rune tokens.

Paragraphs: ``rw.fortify-order`` (any or all of 3 actions, in any order, each at most once), ``rw.build-a-stronghold``
(1 wood and 1 ore; an area he controls with neither stronghold nor city; not with either dial at 0; placed
undamaged), ``rw.repair-a-stronghold`` (1 ore; one damaged stronghold of his turned back; not with the ore dial at
0), ``rw.move-rune-tokens`` (2 areas he controls: their tokens taken up, mixed, looked at and put back facedown, at
most 1 per area; his home realm allowed), ``rw.revealing-rune-tokens`` (only the tokens in those 2 areas are turned
facedown again), ``rw.looking-at-rune-tokens`` and ``rw.receiving-dragon-runes.one-per-area``; control from the
Frequently Used Terms (:mod:`engine.runewars.areas`).

Answers: ``rune_to`` (which of the 2 areas gets the single token taken up).
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.areas import AreaMap, Map, is_friendly, map_reading
from engine.runewars.common import GAME, Faction, Labels, Name, capital, names, plural, refuse_duplicates, the_player

RuneKind = Annotated[Literal["dragon", "false", "unknown"], Labels({"dragon": "Dragon rune", "false": "False rune",
                                                                   "unknown": "Not known"})]


class RuneToken(Model):
    """A rune token on the map."""

    model_config = ConfigDict(title="Rune token")

    area: Name = Field(title="Area", description="The area the token lies in.")
    kind: RuneKind = Field("unknown", title="Face", description="Dragon rune or false rune, when the player knows.")
    faceup: bool = Field(False, title="Revealed", description="Whether the token lies faceup (revealed).")


class FortifyPosition(OpenPosition):
    """A Fortify order: the dials, the map, his damaged strongholds, the rune tokens and the actions he takes."""

    game: Literal["runewars"]
    situation: Literal["fortify"]
    player: Faction = Field(title="Player", description="The faction resolving the Fortify order.")
    wood: int = Field(ge=0, le=20, title="Wood dial", description="The space the wood dial's arrow points to.")
    ore: int = Field(ge=0, le=20, title="Ore dial", description="The space the ore dial's arrow points to.")
    map: AreaMap
    damaged: list[Name] = Field([], max_length=16, title="His damaged strongholds",
                                description="Areas where his stronghold lies damaged side up (none: leave empty).")
    runes: list[RuneToken] = Field([], max_length=60, title="Rune tokens", description="Every rune token in the "
                                   "areas that matter.")
    build: Name | None = maybe("The area he builds a stronghold in (none: he does not build).", title="Build in")
    repair: Name | None = maybe("The area of the damaged stronghold he repairs (none: he does not repair).",
                                title="Repair in")
    move_runes: list[Name] = Field([], max_length=2, title="Areas for moving rune tokens",
                                   description="The 2 areas he picks to move rune tokens (none: he does not move any).")
    rune_to: Name | None = maybe("When only one token is taken up: the area it goes back to (left out: asked).",
                                 title="Token goes to")

    @model_validator(mode="after")
    def _readable(self) -> Self:
        refuse_duplicates([r.area for r in self.runes], "area", "runes", "a rune token's area")
        for key in ("build", "repair", "rune_to"):
            value = getattr(self, key)
            if value is not None and not self.map.has(value):
                raise refuse(f"{value!r} is not an area of the map", key)
        for key in ("damaged", "move_runes"):
            for i, value in enumerate(getattr(self, key)):
                if not self.map.has(value):
                    raise refuse(f"{value!r} is not an area of the map", f"{key}[{i}]")
        for i, r in enumerate(self.runes):
            if not self.map.has(r.area):
                raise refuse(f"{r.area!r} is not an area of the map", f"runes[{i}].area")
        if len(self.move_runes) == 1:
            raise refuse("moving rune tokens takes 2 areas", "move_runes")
        refuse_duplicates(self.move_runes, "area", "move_runes", "the area")
        return self

    def reading(self) -> list[str]:
        """The dials, the map, his damaged strongholds, the rune tokens and the actions chosen."""
        out = [f"{capital(the_player(self.player))} resolves a Fortify order; his wood dial is at {self.wood} and "
               f"his ore dial at {self.ore}."]
        out += map_reading(self.map)
        if self.damaged:
            out.append(f"His damaged strongholds: {names(list(self.damaged))}.")
        for r in self.runes:
            face = {"dragon": "a dragon rune", "false": "a false rune", "unknown": "a rune token"}[r.kind]
            out.append(f"{capital(face)} lies {'faceup' if r.faceup else 'facedown'} in {r.area}.")
        acts = ([f"build a stronghold in {self.build}"] if self.build else []) + (
            [f"repair the stronghold in {self.repair}"] if self.repair else []) + (
            [f"move rune tokens between {names(list(self.move_runes))}"] if self.move_runes else [])
        out.append(f"He chooses to {names(acts)}." if acts else "He takes no action.")
        if self.rune_to:
            out.append(f"The token goes to {self.rune_to}.")
        return out


class FortifyOutcome(Outcome):
    """What he built and repaired, the dials after, and the rune tokens in the 2 areas afterwards."""

    built: str | None = None
    repaired: str | None = None
    wood: int
    ore: int
    runes_taken: int = 0
    runes_in: list[str] = Field(default_factory=list)


LABELS: dict[str, Label] = {"built": "Stronghold built in", "repaired": "Stronghold repaired in",
                            "wood": "Wood dial after", "ore": "Ore dial after",
                            "runes_taken": "Rune tokens taken up", "runes_in": "Areas holding a token afterwards"}


@rule("rw.build-a-stronghold", "rw.term.controlled-area", "rw.fortify-order")
def _build(pos: FortifyPosition, board: Map, out: FortifyOutcome, trace: Trace) -> None:
    """Build a stronghold: both dials above 0, an area he controls without a stronghold or a city."""
    area = pos.build
    if area is None:
        return
    a = board.areas[area]
    why = ("his wood dial is at 0" if out.wood == 0 else "his ore dial is at 0" if out.ore == 0
           else f"he does not control {area}" if not is_friendly(a, pos.player)
           else f"{area} already holds a stronghold" if a.stronghold
           else f"{area} holds a city" if a.city else None)
    if why:
        trace.violate(f"he cannot build a stronghold in {area}: {why}", "rw.build-a-stronghold")
        return
    out.wood, out.ore, out.built = out.wood - 1, out.ore - 1, area
    trace.step(f"Build: he lowers wood and ore by 1 each (to {out.wood} and {out.ore}) and places a stronghold, "
               f"undamaged side up, in {area}, an area he controls with neither stronghold nor city.",
               "rw.build-a-stronghold", "rw.term.controlled-area")


@rule("rw.repair-a-stronghold", "rw.fortify-order")
def _repair(pos: FortifyPosition, out: FortifyOutcome, trace: Trace) -> None:
    """Repair a stronghold: the ore dial above 0 and a damaged stronghold of his."""
    area = pos.repair
    if area is None:
        return
    if area not in pos.damaged:
        trace.violate(f"he cannot repair in {area}: no damaged stronghold of his is there", "rw.repair-a-stronghold")
        return
    if out.ore == 0:
        trace.violate(f"he cannot repair the stronghold in {area}: his ore dial is at 0"
                      + (" after building" if out.built else ""), "rw.repair-a-stronghold", "rw.fortify-order")
        return
    out.ore -= 1
    out.repaired = area
    trace.step(f"Repair: he lowers ore by 1 (to {out.ore}) and turns the stronghold in {area} back to its undamaged "
               "side.", "rw.repair-a-stronghold")


@rule("rw.move-rune-tokens", "rw.revealing-rune-tokens", "rw.looking-at-rune-tokens",
      "rw.receiving-dragon-runes.one-per-area", "rw.term.controlled-area")
def _move_runes(pos: FortifyPosition, board: Map, out: FortifyOutcome, trace: Trace) -> None:
    """Move rune tokens: both areas his; their tokens taken up, looked at and put back facedown, one per area."""
    if not pos.move_runes:
        return
    pair = list(pos.move_runes)
    foreign = [a for a in pair if not is_friendly(board.areas[a], pos.player)]
    if foreign:
        trace.violate(f"he may move rune tokens only between areas he controls, and he does not control "
                      f"{names(foreign)}", "rw.move-rune-tokens")
        return
    held = [r for r in pos.runes if r.area in pair]
    out.runes_taken = len(held)
    shown = [r.area for r in held if r.faceup]
    trace.step(f"Move rune tokens: he takes up {plural(len(held), 'token')} from {names(pair)}, mixes and looks at "
               "them, and puts each back facedown, at most 1 per area (his home realm is allowed).",
               "rw.move-rune-tokens", "rw.looking-at-rune-tokens", "rw.receiving-dragon-runes.one-per-area")
    if shown:
        trace.step(f"The revealed token in {names(shown)} goes back facedown; revealed tokens in other areas stay "
                   "faceup.", "rw.revealing-rune-tokens")
    if len(held) == 2:
        out.runes_in = pair
    elif len(held) == 1 and pos.rune_to is None:
        trace.decide(the_player(pos.player), "the area the token goes back to", "rw.move-rune-tokens", options=pair,
                     field="rune_to")
    elif len(held) == 1 and pos.rune_to not in pair:
        trace.violate(f"the token must go back to {names(pair)}, not {pos.rune_to}", "rw.move-rune-tokens")
    elif len(held) == 1:
        out.runes_in = [str(pos.rune_to)]
        trace.step(f"He puts the token facedown in {pos.rune_to}.", "rw.move-rune-tokens")


def _summary(pos: FortifyPosition, out: FortifyOutcome, trace: Trace) -> str:
    """One sentence: what he builds, repairs and moves, and the dials after."""
    done = ([f"builds a stronghold in {out.built}"] if out.built else []) + (
        [f"repairs the stronghold in {out.repaired}"] if out.repaired else []) + (
        [f"moves rune tokens between {names(list(pos.move_runes))}"
         + (" (which area gets the token is his choice)" if trace.decisions else "")] if pos.move_runes else [])
    return (f"Fortify: {the_player(pos.player)} " + (names(done) if done else "takes no action")
            + f"; his wood dial ends at {out.wood} and his ore dial at {out.ore}.")


@situation(GAME, "fortify", FortifyPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.fortify-order")
def resolve_fortify(pos: FortifyPosition, trace: Trace, corpus: Corpus) -> FortifyOutcome:
    """Fortify: build a stronghold, repair one and move rune tokens, each at most once."""
    board = Map.of(pos.map)
    trace.step("Fortify: he may build a stronghold, repair one and move rune tokens, in any order, each at most "
               "once.", "rw.fortify-order")
    out = FortifyOutcome(wood=pos.wood, ore=pos.ore)
    _build(pos, board, out, trace)
    _repair(pos, out, trace)
    _move_runes(pos, board, out, trace)
    return out
