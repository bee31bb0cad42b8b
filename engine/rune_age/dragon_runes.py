"""Rune Age Dragon Rune power cards (Runewars scenario): using one, gaining a second, and eliminations.

Paragraphs: ``ra.term.dragon-rune-power-card`` (Runewars only), ``ra.runewars.setup``,
``ra.runewars.once-per-round`` (used by exhausting it), ``ra.runewars.special-rules`` (the victor takes the
eliminated player's card), ``ra.runewars.one-active`` with ``rafaq.faq.scenarios.runewars.1`` (one active
card; the other is removed from the game), ``ra.runewars.event-elimination`` (eliminated by an Event card:
the card is removed), ``ra.player-elimination`` and ``rafaq.faq.scenarios.runewars.2`` (faceup, open).

What each Dragon Rune power does is printed on its card, not in the books, so the ruling names the cards
and never applies their effects.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse, refuse_repeats
from engine.rune_age.scenarios import (
    ENDS_LABEL,
    SCENARIO_NAMES,
    Scenario,
    ScenarioEnd,
    end_on_elimination,
    scenario_end_field,
)
from engine.rune_age.words import choice, possessive

EVENT_TYPES = {"use": "A player uses his card", "discovery": "Dragon Rune Discovery (a new card)",
               "elimination": "A player is eliminated"}
CAUSES = {"siege": "By a siege", "event_card": "By an Event card"}


class RunePlayer(Model):
    """A player and the Dragon Rune power card he holds active, if any."""

    model_config = ConfigDict(title="Player")

    player: str = Field(max_length=80, title="Player")
    dragon_rune: str | None = Field(None, max_length=200, title="Active Dragon Rune power card")
    used_this_round: bool = Field(False, title="Used (exhausted) this round")


class RuneEvent(Model):
    """What happens to the Dragon Rune power cards: a player uses his, discovers a new one, or is eliminated."""

    model_config = ConfigDict(title="Event")

    type: Literal["use", "discovery", "elimination"] = Field(title="What happens",
                                                             json_schema_extra=choice(EVENT_TYPES, "use"))
    player: str | None = maybe(title="Player (use, discovery)", max_length=80)
    card: str | None = maybe(title="New Dragon Rune power (discovery)", max_length=200)
    eliminated: str | None = maybe(title="Eliminated player (elimination)", max_length=80)
    cause: Literal["siege", "event_card"] = Field("siege", title="Eliminated by (elimination)",
                                                  json_schema_extra=choice(CAUSES))
    victor: str | None = maybe(title="Victor of the siege (elimination by siege)", max_length=80)
    keep: str | None = Field(None, max_length=200, title="Card kept active",
                             description="The obtaining player's choice when he holds two cards.")

    def needs(self) -> tuple[str, ...]:
        """Return the fields this kind of event must name (all players but the discovered ``card``)."""
        if self.type == "use":
            return ("player",)
        if self.type == "discovery":
            return ("player", "card")
        return ("eliminated", "victor") if self.cause == "siege" else ("eliminated",)


class DragonRunesPosition(OpenPosition):
    """A Dragon Rune power event in the Runewars scenario: the players' cards and what happens to them."""

    game: Literal["rune-age"]
    situation: Literal["dragon_runes"]
    scenario: Scenario = Field(title="Scenario", json_schema_extra=choice(SCENARIO_NAMES, "runewars"))
    players: list[RunePlayer] = Field(min_length=1, max_length=6, title="Players and their Dragon Rune power cards")
    event: RuneEvent

    @model_validator(mode="after")
    def _named(self) -> DragonRunesPosition:
        refuse_repeats([p.player for p in self.players], "players[{i}].player", "player")
        names = {p.player for p in self.players}
        if not has_dragon_runes(self.scenario):
            return self  # the ruling says so; the event is not read
        event = self.event
        for key in event.needs():
            value = getattr(event, key)
            if value is None:
                raise refuse(f"missing field {key!r} (required for a {event.type} event)", f"event.{key}")
            if key != "card" and value not in names:
                raise refuse(f"{value!r} is not one of the players", f"event.{key}")
        if "victor" in event.needs() and event.victor == event.eliminated:
            raise refuse(f"{event.eliminated!r} cannot be both the eliminated player and the victor", "event.victor")
        return self

    def reading(self) -> list[str]:
        """Restate the scenario, each player's active card, and the event with the choice already stated."""
        out = [f"Scenario: {SCENARIO_NAMES[self.scenario]}."]
        for p in self.players:
            used = " (used this round)" if p.used_this_round and p.dragon_rune else ""
            out.append(f"{p.player}: {p.dragon_rune}{used}." if p.dragon_rune
                       else f"{p.player}: no Dragon Rune power card.")
        ev = self.event
        if ev.type == "use":
            out.append(f"Event: {ev.player} uses his Dragon Rune power.")
        elif ev.type == "discovery":
            out.append(f"Event: Dragon Rune Discovery, {ev.player} obtains {ev.card}.")
        else:
            how = f"by {possessive(ev.victor or '')} siege" if ev.cause == "siege" else "by an Event card"
            out.append(f"Event: {ev.eliminated} is eliminated {how}.")
        if ev.keep:
            out.append(f"Card kept active: {ev.keep}.")
        return out


class DragonRunesOutcome(Outcome):
    """Who obtains a Dragon Rune power card, every player's active card, and the cards removed or exhausted."""

    obtains: str | None = None
    dragon_runes: dict[str, str | None]
    removed_from_game: list[str] = Field(default_factory=list)
    exhausted: list[str] = Field(default_factory=list)
    scenario_end: ScenarioEnd | None = scenario_end_field()


LABELS: dict[str, Label] = {
    "obtains": "Obtains a Dragon Rune power", "dragon_runes": "Active Dragon Rune powers",
    "removed_from_game": "Removed from the game", "exhausted": "Exhausted (used)", "scenario_end": ENDS_LABEL,
}


@rule("ra.term.dragon-rune-power-card", "ra.runewars.setup")
def has_dragon_runes(scenario: str) -> bool:
    """Return whether the scenario uses Dragon Rune power cards: only Runewars."""
    return scenario == "runewars"


@rule("ra.runewars.once-per-round")
def can_use(card: str | None, used_this_round: bool) -> bool:
    """Return whether a player can use his Dragon Rune power: he has one and has not exhausted it this round."""
    return card is not None and not used_this_round


@rule("ra.runewars.special-rules", "ra.runewars.event-elimination", "ra.player-elimination")
def who_obtains(cause: str, victor: str | None) -> str | None:
    """Return who obtains an eliminated player's card: the siege victor; nobody after an Event card."""
    return victor if cause == "siege" else None


def _named(value: str | None) -> str:
    """Return a player or card the event names (the position's validator made sure it is there)."""
    assert value is not None
    return value


@rule("ra.runewars.one-active", "rafaq.faq.scenarios.runewars.1", "rafaq.faq.scenarios.runewars.2")
def _gain(who: str, new: str, keep: str | None, out: DragonRunesOutcome, trace: Trace) -> None:
    """A player gains a card: with none active it becomes active; with one, he keeps one and removes the other."""
    runes = out.dragon_runes
    old = runes[who]
    out.obtains = who
    if old is None:
        runes[who] = new
        trace.step(f"{who} had no Dragon Rune power card, so {new} becomes his active card, faceup for all to "
                   f"see.", "ra.runewars.one-active", "rafaq.faq.scenarios.runewars.2")
        return
    trace.step(f"{who} now holds {old} and {new} but may have only one: he keeps one active (faceup, open "
               f"information) and removes the other from the game.", _gain)
    if keep is None:
        del runes[who]
        trace.decide(who, f"which Dragon Rune power stays active: {old} or {new}", _gain,
                     options=[old, new], field="event.keep")
        return
    if keep not in (old, new):
        trace.violate(f"{who} may keep only {old} or {new}, not {keep}", _gain)
        del runes[who]
        return
    runes[who] = keep
    out.removed_from_game.append(new if keep == old else old)
    trace.step(f"{who} keeps {keep} active; {out.removed_from_game[-1]} is removed from the game.",
               "ra.runewars.one-active", "rafaq.faq.scenarios.runewars.1")


def _use(pos: DragonRunesPosition, out: DragonRunesOutcome, trace: Trace) -> None:
    """A player uses his Dragon Rune power by exhausting it, once per round."""
    who = _named(pos.event.player)
    card = out.dragon_runes[who]
    used = next(p.used_this_round for p in pos.players if p.player == who)
    if card is None:
        trace.violate(f"{who} holds no Dragon Rune power card to use", can_use)
    elif not can_use(card, used):
        trace.violate(f"{who} already exhausted {card} this round; it can be used once per round", can_use)
    else:
        out.exhausted = [card]
        trace.step(f"{who} exhausts {card} to use it; it stays exhausted, so it cannot be used again this "
                   f"round.", can_use)
        trace.summarize(f"{who} uses {card} by exhausting it, its one use this round.")


@rule("ra.runewars.one-active")
def _discover(event: RuneEvent, out: DragonRunesOutcome, trace: Trace) -> None:
    """Dragon Rune Discovery: the player obtains a new card."""
    who, new = _named(event.player), _named(event.card)
    trace.step(f"Dragon Rune Discovery: {who} obtains {new}.", "ra.runewars.one-active")
    _gain(who, new, event.keep, out, trace)


@rule("ra.player-elimination", "ra.runewars.event-elimination", "ra.runewars.special-rules")
def _eliminate(event: RuneEvent, out: DragonRunesOutcome, trace: Trace) -> None:
    """A player is eliminated: the siege's victor obtains his card; after an Event card it is removed."""
    loser, cause = _named(event.eliminated), event.cause
    victor = _named(event.victor) if cause == "siege" else None
    card = out.dragon_runes[loser]
    out.dragon_runes[loser] = None
    trace.step(f"{loser} is eliminated" + (f" by {victor}'s siege." if victor else " by damage from an Event card."),
               "ra.player-elimination")
    if card is None:
        trace.step(f"{loser} held no Dragon Rune power card, so nobody obtains one.", who_obtains)
        return
    taker = who_obtains(cause, victor)
    if taker is None:
        out.removed_from_game.append(card)
        trace.step(f"No player eliminated {loser}, so nobody obtains {card}: it is removed from the game.",
                   "ra.runewars.event-elimination")
        return
    trace.step(f"{taker} eliminated {loser} and obtains {card}.", "ra.runewars.special-rules")
    _gain(taker, card, event.keep, out, trace)


@situation("rune-age", "dragon_runes", DragonRunesPosition, labels=LABELS)
def resolve_dragon_runes(pos: DragonRunesPosition, trace: Trace, corpus: Corpus) -> DragonRunesOutcome:
    """Resolve a Dragon Rune power event in Runewars: a use, a Dragon Rune Discovery, or an elimination."""
    out = DragonRunesOutcome(dragon_runes={p.player: p.dragon_rune for p in pos.players})
    if not has_dragon_runes(pos.scenario):
        trace.violate(f"Dragon Rune power cards are used only in the Runewars scenario, not in "
                      f"{SCENARIO_NAMES[pos.scenario]}", has_dragon_runes)
        return out
    if pos.event.type == "use":
        _use(pos, out, trace)
        return out
    if pos.event.type == "discovery":
        _discover(pos.event, out, trace)
    else:
        _eliminate(pos.event, out, trace)
        loser = _named(pos.event.eliminated)
        others = [p.player for p in pos.players if p.player != loser]
        out.scenario_end = end_on_elimination(pos.scenario, loser, others, trace)
    if trace.decisions:
        trace.summarize(f"{out.obtains} now holds two Dragon Rune power cards and must choose which one stays "
                        f"active; the other is removed from the game.")
    elif not trace.violations:
        last = [p.player for p in pos.players if p.player != pos.event.eliminated]
        trace.summarize(_summary(out) + (f" {last[0]} is the last player left and wins the game."
                                         if out.scenario_end == "last_player_wins" else ""))
    return out


def _summary(out: DragonRunesOutcome) -> str:
    """One sentence: who obtains a card and keeps which one active, and what is removed from the game."""
    removed = out.removed_from_game
    gone = f"; {', '.join(removed)} {'is' if len(removed) == 1 else 'are'} removed from the game" if removed else ""
    who = out.obtains
    if who is None:
        return f"Nobody obtains a Dragon Rune power card{gone}."
    return f"{who} obtains a Dragon Rune power card and keeps {out.dragon_runes[who]} active{gone}."
