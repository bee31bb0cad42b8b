"""Runewars: receiving one dragon rune, in three steps (discard false runes, receive two tokens, place them).

Paragraphs: ``rw.receiving-dragon-runes`` with ``.1`` (he may discard up to 2 false runes from areas he controls),
``.2`` (1 dragon rune and 1 false rune, mixed), ``.3`` (each placed facedown in a friendly or uncontrolled area
without a rune token; a token with no legal area is discarded faceup to the supply), ``.one-per-area`` and
``.other-cards`` (cards that only place or move tokens add no false rune); ``rw.component.rune-tokens``,
``rw.looking-at-rune-tokens`` (he sees both faces before placing); control from the Frequently Used Terms
(:mod:`engine.runewars.areas`).

Answers: ``discard`` (areas of the false runes he discards), ``dragon_to`` and ``false_to`` (where each token goes).
When a single legal area is left for two tokens, the one he places there is his choice; the other is discarded.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome, maybe, refuse
from engine.runewars.areas import AreaMap, Map, is_friendly, is_uncontrolled, map_reading
from engine.runewars.common import GAME, Faction, Name, capital, names, plural, refuse_duplicates, the_player
from engine.runewars.fortify import RuneToken

Face = Literal["dragon", "false"]


class DragonRunePosition(OpenPosition):
    """A player told to receive one dragon rune: the map, the rune tokens on it and where he puts his."""

    game: Literal["runewars"]
    situation: Literal["dragon_rune"]
    player: Faction = Field(title="Player", description="The faction receiving the dragon rune.")
    map: AreaMap
    runes: list[RuneToken] = Field([], max_length=60, title="Rune tokens", description="Every rune token in the "
                                   "areas that matter (his own he knows; others may be left as not known).")
    discard: list[Name] = Field([], max_length=2, title="False runes discarded",
                                description="The areas whose false rune he discards first, at most 2 (none: leave "
                                            "empty).")
    dragon_to: Name | None = maybe("The area he places the dragon rune in (left out: asked).",
                                   title="Dragon rune goes to")
    false_to: Name | None = maybe("The area he places the false rune in (left out: asked).",
                                  title="False rune goes to")

    only: Face | None = maybe("When a single area is open to the two tokens: the one he places there (the other "
                              "goes to the supply; left out: asked).", title="Token placed in the only open area",
                              labels={"dragon": "The dragon rune", "false": "The false rune"})

    @model_validator(mode="after")
    def _readable(self) -> Self:
        refuse_duplicates([r.area for r in self.runes], "area", "runes", "a rune token's area")
        refuse_duplicates(self.discard, "area", "discard", "the area")
        for i, r in enumerate(self.runes):
            if not self.map.has(r.area):
                raise refuse(f"{r.area!r} is not an area of the map", f"runes[{i}].area")
        for key in ("dragon_to", "false_to"):
            value = getattr(self, key)
            if value is not None and not self.map.has(value):
                raise refuse(f"{value!r} is not an area of the map", key)
        return self

    def reading(self) -> list[str]:
        """The player, the map, the rune tokens and his choices."""
        out = [f"{capital(the_player(self.player))} receives one dragon rune."]
        out += map_reading(self.map)
        for r in self.runes:
            face = {"dragon": "a dragon rune", "false": "a false rune", "unknown": "a rune token"}[r.kind]
            out.append(f"{capital(face)} lies {'faceup' if r.faceup else 'facedown'} in {r.area}.")
        out.append(f"He discards the false runes in {names(list(self.discard))}." if self.discard
                   else "He discards no false rune.")
        for what, where in (("dragon rune", self.dragon_to), ("false rune", self.false_to)):
            if where:
                out.append(f"He places the {what} in {where}.")
        if self.only:
            out.append(f"In the only open area he places the {self.only} rune.")
        return out


class DragonRuneOutcome(Outcome):
    """The false runes discarded, the areas open to the new tokens, where each goes and which are lost."""

    discarded: list[str] = Field(default_factory=list)
    legal_areas: list[str] = Field(default_factory=list)
    dragon_to: str | None = None
    false_to: str | None = None
    to_supply: list[str] = Field(default_factory=list)


LABELS: dict[str, Label] = {"discarded": "False runes discarded from", "legal_areas": "Areas open to the new tokens",
                            "dragon_to": "Dragon rune placed in", "false_to": "False rune placed in",
                            "to_supply": "Tokens discarded faceup to the supply"}


@rule("rw.receiving-dragon-runes.1", "rw.term.controlled-area")
def _discard(pos: DragonRunePosition, board: Map, out: DragonRuneOutcome, trace: Trace) -> None:
    """Step 1: up to 2 false runes discarded, each from an area he controls."""
    tokens = {r.area: r for r in pos.runes}
    if not pos.discard:
        trace.step("Step 1: he may discard up to 2 false runes from areas he controls; he discards none.",
                   "rw.receiving-dragon-runes.1")
        return
    for a in pos.discard:
        token = tokens.get(a)
        why = ("no rune token lies there" if token is None
               else "that token is a dragon rune" if token.kind == "dragon"
               else "he does not control that area" if not is_friendly(board.areas[a], pos.player) else None)
        if why:
            trace.violate(f"he cannot discard a false rune from {a}: {why}", "rw.receiving-dragon-runes.1")
            continue
        out.discarded.append(a)
    if out.discarded:
        trace.step(f"Step 1: he discards the false {'rune' if len(out.discarded) == 1 else 'runes'} in "
                   f"{names(out.discarded)}.", "rw.receiving-dragon-runes.1", "rw.term.controlled-area")


@rule("rw.receiving-dragon-runes.3", "rw.receiving-dragon-runes.one-per-area", "rw.term.friendly-area",
      "rw.term.uncontrolled-area")
def open_areas(board: Map, player: str, occupied: set[str]) -> list[str]:
    """Return the areas a new token may go to: friendly or uncontrolled, without a rune token."""
    return [a.id for a in board.areas.values()
            if a.id not in occupied and (is_friendly(a, player) or is_uncontrolled(a))]


@rule("rw.receiving-dragon-runes.3", "rw.receiving-dragon-runes.one-per-area")
def _place(pos: DragonRunePosition, free: list[str], out: DragonRuneOutcome, trace: Trace) -> None:
    """Step 3: each token into its own open area; with one area for two tokens he picks which goes there, and a
    token with no area goes faceup to the supply."""
    who = the_player(pos.player)
    stated = {"dragon": pos.dragon_to, "false": pos.false_to}
    if not free:
        out.to_supply = ["dragon", "false"]
        trace.step("No area is friendly or uncontrolled without a rune token: both tokens are discarded faceup to "
                   "the supply.", "rw.receiving-dragon-runes.3")
        return
    for kind, area in stated.items():
        if area is not None and area not in free:
            trace.violate(f"the {kind} rune cannot go to {area}: it must go to a friendly or uncontrolled area "
                          f"without a rune token ({names(free)})", "rw.receiving-dragon-runes.3",
                          "rw.receiving-dragon-runes.one-per-area")
            return
    if pos.dragon_to is not None and pos.dragon_to == pos.false_to:
        trace.violate(f"both tokens cannot go to {pos.dragon_to}: an area holds at most 1 rune token",
                      "rw.receiving-dragon-runes.one-per-area")
        return
    if len(free) == 1:
        placed = pos.only or ("dragon" if pos.dragon_to else "false" if pos.false_to else None)
        if placed is None:
            trace.step(f"Only {free[0]} is open: one token goes there and the other is discarded faceup to the "
                       "supply.", "rw.receiving-dragon-runes.3")
            trace.decide(who, f"the token he places in {free[0]}", "rw.receiving-dragon-runes.3",
                         options=["dragon", "false"], field="only")
            return
        setattr(out, f"{placed}_to", free[0])
        out.to_supply = ["false" if placed == "dragon" else "dragon"]
        trace.step(f"Only {free[0]} is open: the {placed} rune goes there facedown and the other token is discarded "
                   "faceup to the supply.", "rw.receiving-dragon-runes.3")
        return
    out.dragon_to, out.false_to = pos.dragon_to, pos.false_to
    for kind, area in stated.items():
        if area is None:
            taken = [a for a in stated.values() if a]
            trace.decide(who, f"the area the {kind} rune goes to", "rw.receiving-dragon-runes.3",
                         options=[a for a in free if a not in taken], field=f"{kind}_to")
    if pos.dragon_to and pos.false_to:
        trace.step(f"He places the two tokens facedown, one in {pos.dragon_to} and one in {pos.false_to}.",
                   "rw.receiving-dragon-runes.3")


def _summary(pos: DragonRunePosition, out: DragonRuneOutcome, trace: Trace) -> str:
    """One sentence: what is discarded, where the two tokens go, and what goes back to the supply."""
    text = f"{capital(the_player(pos.player))} receives one dragon rune"
    if out.discarded:
        text += f" after discarding the false {'rune' if len(out.discarded) == 1 else 'runes'} in " \
                f"{names(out.discarded)}"
    placed = [f"the {k} rune in {a}" for k, a in (("dragon", out.dragon_to), ("false", out.false_to)) if a]
    if placed:
        text += f": he places {names(placed)}"
    if out.to_supply:
        text += f"; {names([f'the {k} rune' for k in out.to_supply])} {'goes' if len(out.to_supply) == 1 else 'go'} " \
                "faceup to the supply, having no legal area"
    if trace.decisions and len(out.legal_areas) == 1:
        text += f"; which token goes to {out.legal_areas[0]} is his choice"
    elif trace.decisions:
        text += f"; where the tokens go is his choice among {names(out.legal_areas)}"
    return text + "."


@situation(GAME, "dragon_rune", DragonRunePosition, labels=LABELS)
@summarized(_summary)
@rule("rw.receiving-dragon-runes", "rw.receiving-dragon-runes.2", "rw.receiving-dragon-runes.other-cards",
      "rw.component.rune-tokens", "rw.looking-at-rune-tokens", "rw.receiving-dragon-runes.one-per-area")
def resolve_dragon_rune(pos: DragonRunePosition, trace: Trace, corpus: Corpus) -> DragonRuneOutcome:
    """Receive one dragon rune: discard false runes, take a dragon rune and a false rune, place them."""
    board = Map.of(pos.map)
    out = DragonRuneOutcome()
    trace.step("Receiving one dragon rune takes 3 steps: discard false runes, receive the tokens, place them (a card "
               "that only places or moves tokens adds no false rune).", "rw.receiving-dragon-runes",
               "rw.receiving-dragon-runes.other-cards")
    _discard(pos, board, out, trace)
    trace.step("Step 2: he takes 1 dragon rune and 1 false rune and mixes them; he may look at both before placing "
               "them.", "rw.receiving-dragon-runes.2", "rw.component.rune-tokens", "rw.looking-at-rune-tokens")
    occupied = {r.area for r in pos.runes} - set(out.discarded)
    out.legal_areas = open_areas(board, pos.player, occupied)
    n = len(out.legal_areas)
    trace.step(f"Step 3: {plural(n, 'area')} {'is' if n == 1 else 'are'} friendly or uncontrolled without a rune "
               f"token: {names(out.legal_areas) if n else 'none'}.", "rw.receiving-dragon-runes",
               "rw.receiving-dragon-runes.one-per-area", "rw.component.rune-tokens")
    _place(pos, out.legal_areas, out, trace)
    return out
