"""Runewars allied neutral units: when an alliance holds, breaks or passes to another player (page 19).

Paragraphs: ``rw.allied-units`` (neutral units sharing an area with a player's units are his allies and act as his
own), ``rw.allied-units.lost`` (allies in an area the player does not control turn back into ordinary neutral
units, except during a battle), ``rw.allied-units.last-unit`` (the player's last own unit destroyed in a battle:
the allies stay allied until it ends and, if he lost, may retreat into a friendly area still allied),
``rw.allied-units.unaccompanied`` (allies may move without his own units, ending in a friendly area),
``rw.allied-units.decisions`` (the allied player decides for them), and
``rw.moving-and-placing-neutral-units-with-tactics-cards`` (neutral units a card places or moves into a
player's area join him; allies moved into an empty or neutral area leave him).

The areas are described by the facts that decide control for the allied player (``rw.term.controlled-area``):
his own faction's units there (the allies themselves do not count: otherwise allies could never stand in an area
he does not control), his stronghold, his home realm (held unless an enemy unit or stronghold is there). An area
the allies retreat into after a lost battle: a friendly one if any, else an empty one (``rw.retreats.player-units``)
where, the battle over, they break away (our reading of the two paragraphs together).
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.common import (
    GAME,
    Faction,
    Labels,
    Name,
    capital,
    faction_name,
    plural,
    refuse_duplicates,
    the_player,
)

Event = Annotated[Literal["check", "last_unit", "move_alone", "card"], Labels({
    "check": "Allies are in an area (is the alliance still on?)",
    "last_unit": "His last own unit there was destroyed in a battle",
    "move_alone": "The allies move without any of his own units",
    "card": "A Tactics card places or moves neutral units"})]
Realm = Annotated[Literal["his", "other", "none"], Labels({
    "his": "His own home realm", "other": "Another faction's home realm", "none": "No home realm"})]
BattleState = Annotated[Literal["fighting", "won", "lost"], Labels({
    "fighting": "Still being fought", "won": "He won it", "lost": "He lost it"})]


class AreaFacts(Model):
    """An area as it stands for the allied player: what decides whether he controls it."""

    model_config = ConfigDict(title="Area")

    name: Name = Field("the area", title="Area", description="The area's name or number, e.g. 5B.")
    own_units: int = Field(0, ge=0, le=8, title="His own units there",
                           description="Units of the player's own faction in the area, routed or not (not counting "
                                       "the allied neutral units).")
    stronghold: bool = Field(False, title="His stronghold there", description="One of his strongholds is here.")
    realm: Realm = Field("none", title="Home realm", description="Whose home realm the area belongs to.")
    enemy: bool = Field(False, title="An enemy is there",
                        description="An enemy unit (unallied neutral units included) or another faction's "
                                    "stronghold is in the area.")

    def reads(self) -> str:
        """The area in a player's words."""
        facts = [plural(self.own_units, "unit") + " of his own faction" if self.own_units else "none of his own units"]
        facts += ["his stronghold"] if self.stronghold else []
        facts += {"his": ["in his home realm"], "other": ["in another faction's home realm"], "none": []}[self.realm]
        facts += ["an enemy there"] if self.enemy else []
        return f"{self.name}: {', '.join(facts)}"


class AlliesPosition(OpenPosition):
    """Allied neutral units of one player, and what just happened to them."""

    game: Literal["runewars"]
    situation: Literal["allied_units"]
    player: Faction = Field(title="Allied with", description="The player the neutral units are allied with (for a "
                            "card: the player playing it).")
    event: Event = Field(title="What happens", description="The moment the question is asked about.")
    allies: int = Field(1, ge=1, le=8, title="Allied neutral units", description="How many neutral units are "
                        "concerned (allied, or placed or moved by the card).")
    here: AreaFacts = Field(default_factory=AreaFacts, title="Where they are (or end)",
                            description="The area the neutral units are in, or the area a move or card puts them in.",
                            json_schema_extra={"default": {}})
    in_battle: bool = Field(False, title="A battle is under way there",
                            description="Whether a battle is being fought in that area right now.")
    battle: BattleState | None = maybe("For the last own unit destroyed: how the battle stands.",
                                       title="The battle")
    nearby: list[AreaFacts] = Field(default_factory=list, max_length=8, title="Areas they may retreat into",
                                    description="After a lost battle: the adjacent areas open to a retreat.")
    retreat_to: Name | None = maybe("After a lost battle: the area the player sends his allies to (absent: the "
                                    "ruling asks).", title="Allies retreat to")
    card_controller: Faction | None = Field(None, title="That area is controlled by",
                                            description="For a card: the faction controlling the area the card puts "
                                                        "the neutral units in (none: an empty area, or one holding "
                                                        "only neutral units).")

    @model_validator(mode="after")
    def _readable(self) -> Self:
        refuse_duplicates([a.name for a in self.nearby], "name", "nearby", "area")
        if self.retreat_to is not None and self.retreat_to not in [a.name for a in self.nearby]:
            raise refuse(f"{self.retreat_to!r} is not one of the areas they may retreat into", "retreat_to")
        return self

    def reading(self) -> list[str]:
        """The allies, the event and the areas, in a player's words."""
        who = capital(the_player(self.player))
        out = [f"{plural(self.allies, 'neutral unit')} allied with {the_player(self.player)}; the event: "
               f"{dict(_EVENTS)[self.event]}.", f"Area {self.here.reads()}."]
        out += ["A battle is under way there."] if self.in_battle else []
        if self.battle:
            out.append({"fighting": "The battle is still being fought.", "won": f"{who} won the battle.",
                        "lost": f"{who} lost the battle."}[self.battle])
        out += [f"They may retreat into area {a.reads()}." for a in self.nearby]
        if self.retreat_to:
            out.append(f"{who} sends them to {self.retreat_to}.")
        if self.event == "card":
            owner = faction_name(self.card_controller) if self.card_controller else "no player"
            out.append(f"The card's area is controlled by {owner}.")
        return out


_EVENTS = (("check", "allies standing in an area"), ("last_unit", "his last own unit there destroyed in a battle"),
           ("move_alone", "the allies moving without his own units"),
           ("card", "a Tactics card placing or moving neutral units"))


class AlliesOutcome(Outcome):
    """Whom the neutral units are allied with afterwards, and where they end."""

    allied_with: Faction | None = None
    allowed: bool | None = None
    ends_in: Name | None = None
    destroyed: bool = False


@rule("rw.term.controlled-area", "rw.term.friendly-area", "rw.term.home-realm")
def controls(area: AreaFacts) -> bool:
    """Return whether the allied player controls the area: his own unit or stronghold there, or his home realm with
    no enemy in it (the allied units themselves do not give control)."""
    return area.own_units > 0 or area.stronghold or (area.realm == "his" and not area.enemy)


@rule("rw.term.empty-area")
def empty(area: AreaFacts) -> bool:
    """Return whether the area is empty: outside every home realm, with no unit and no stronghold."""
    return area.realm == "none" and not area.own_units and not area.stronghold and not area.enemy


@rule("rw.allied-units", "rw.allied-units.lost", "rw.neutral-units")
def _check(pos: AlliesPosition, trace: Trace, out: AlliesOutcome) -> None:
    """Allies standing in an area: the alliance holds where he controls the area, or while a battle is fought."""
    who = capital(the_player(pos.player))
    out.ends_in = pos.here.name
    if pos.in_battle:
        out.allied_with = pos.player
        trace.step(f"A battle is under way in {pos.here.name}: the allies stay with {who} whatever the area's "
                   "control until it ends.", "rw.allied-units.lost")
    elif controls(pos.here):
        out.allied_with = pos.player
        trace.step(f"{who} controls {pos.here.name}, so the neutral units there stay his allies and count as his "
                   "own units.", "rw.allied-units", controls)
    else:
        trace.step(f"{who} does not control {pos.here.name} and no battle is under way there: the allies turn "
                   "back into ordinary neutral units, enemies to every player.", "rw.allied-units.lost",
                   "rw.neutral-units", controls)


@rule("rw.allied-units.unaccompanied", "rw.allied-units")
def _move_alone(pos: AlliesPosition, trace: Trace, out: AlliesOutcome) -> None:
    """Allies moving alone must end in a friendly area."""
    who = the_player(pos.player)
    out.allowed = controls(pos.here)
    if out.allowed:
        out.allied_with, out.ends_in = pos.player, pos.here.name
        trace.step(f"The allies may move without {who}'s own units: they end in {pos.here.name}, an area he "
                   "controls, and stay his allies.", "rw.allied-units.unaccompanied", controls)
    else:
        trace.violate(f"allied units moving without {who}'s own units must end in a friendly area, and "
                      f"{pos.here.name} is not one", "rw.allied-units.unaccompanied", controls)


@rule("rw.moving-and-placing-neutral-units-with-tactics-cards", "rw.allied-units")
def _card(pos: AlliesPosition, trace: Trace, out: AlliesOutcome) -> None:
    """A card placing or moving neutral units: they join whoever controls the area, else stay unallied."""
    out.ends_in = pos.here.name
    if pos.card_controller:
        out.allied_with = pos.card_controller
        trace.step(f"The card puts the neutral units in {pos.here.name}, an area {faction_name(pos.card_controller)} "
                   f"controls: they become {the_player(pos.card_controller)}'s allies.",
                   "rw.moving-and-placing-neutral-units-with-tactics-cards", "rw.allied-units")
    else:
        trace.step(f"The card puts the neutral units in {pos.here.name}, an empty area or one held only by neutral "
                   "units: any alliance ends and they are ordinary neutral units.",
                   "rw.moving-and-placing-neutral-units-with-tactics-cards")


@rule("rw.allied-units.last-unit", "rw.allied-units.decisions", "rw.retreats.player-units", "rw.allied-units.lost")
def _last_unit(pos: AlliesPosition, trace: Trace, out: AlliesOutcome) -> None:
    """The last own unit destroyed: allied until the battle ends; after a loss, a retreat the player steers."""
    who = capital(the_player(pos.player))
    state = pos.battle or "fighting"
    trace.step(f"{who}'s last own unit in {pos.here.name} is destroyed, but his allies there stay allied until the "
               "battle ends.", "rw.allied-units.last-unit")
    if state == "fighting":
        out.allied_with, out.ends_in = pos.player, pos.here.name
        return
    if state == "won":
        out.ends_in = pos.here.name
        if controls(pos.here.model_copy(update={"own_units": 0})):
            out.allied_with = pos.player
            trace.step(f"The battle is won and {who} still controls {pos.here.name} (his stronghold or home realm): "
                       "the allies stay his.", "rw.allied-units.lost", controls)
        else:
            trace.step(f"The battle is over and won, but with none of {who}'s own units left he no longer controls "
                       f"{pos.here.name}: the allies turn back into ordinary neutral units there.",
                       "rw.allied-units.lost", controls)
        return
    _retreat(pos, trace, out)


@rule("rw.allied-units.last-unit", "rw.allied-units.decisions", "rw.retreats.player-units", "rw.allied-units.lost")
def _retreat(pos: AlliesPosition, trace: Trace, out: AlliesOutcome) -> None:
    """After a lost battle: a friendly area keeps them allied; else an empty one, where they break away."""
    who = capital(the_player(pos.player))
    friendly = [a.name for a in pos.nearby if controls(a)]
    open_ = friendly or [a.name for a in pos.nearby if empty(a)]
    if not open_:
        out.destroyed = True
        trace.step("No adjacent friendly or empty area is open: the retreating allies are destroyed.",
                   "rw.retreats.player-units")
        return
    if pos.retreat_to is None:
        trace.decide(the_player(pos.player), "which area his allies retreat into", "rw.allied-units.decisions",
                     "rw.retreats.player-units", options=open_, field="retreat_to")
        return
    if pos.retreat_to not in open_:
        trace.violate(f"{pos.retreat_to} is not open to the retreat (open: {', '.join(open_)})",
                      "rw.retreats.player-units")
        return
    out.ends_in = pos.retreat_to
    if friendly:
        out.allied_with = pos.player
        trace.step(f"{who} lost; he decides for his allies, and they retreat into {pos.retreat_to}, a friendly "
                   "area, still allied with him.", "rw.allied-units.last-unit", "rw.allied-units.decisions")
    else:
        trace.step(f"{who} lost and no friendly area is open: his allies retreat into the empty area "
                   f"{pos.retreat_to}, where, the battle over, he controls nothing, so they turn back into ordinary "
                   "neutral units.", "rw.retreats.player-units", "rw.allied-units.lost")


LABELS: dict[str, Label] = {"allied_with": "Allied with afterwards", "allowed": "Move allowed",
                            "ends_in": "They end in", "destroyed": "Destroyed"}


def _summary(pos: AlliesPosition, out: AlliesOutcome, trace: Trace) -> str:
    one = pos.allies == 1
    n, are = ("neutral unit", "is") if one else (f"{pos.allies} neutral units", "are")
    if trace.decisions:
        return f"{capital(the_player(pos.player))} lost the battle and picks the area his allies retreat into"
    if out.destroyed:
        return f"The {n} cannot retreat anywhere and {'is' if one else 'are'} destroyed"
    where = f" in {out.ends_in}" if out.ends_in else ""
    if out.allied_with:
        return f"The {n}{where} {are} allied with {the_player(out.allied_with)}"
    plain = "an ordinary neutral unit" if one else "ordinary neutral units"
    return f"The {n}{where} {are} {plain} again, allied with no one"


@situation(GAME, "allied_units", AlliesPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.allied-units", "rw.term.allied-unit")
def resolve_allied_units(pos: AlliesPosition, trace: Trace, corpus: Corpus) -> AlliesOutcome:
    """Decide whom neutral units are allied with after an event: standing, losing the last unit, moving, a card."""
    out = AlliesOutcome()
    trace.step(f"Neutral units sharing an area with {the_player(pos.player)}'s units (outside diplomacy or a "
               "battle against them) are his allies and move and fight as his own.", "rw.allied-units",
               "rw.term.allied-unit")
    {"check": _check, "last_unit": _last_unit, "move_alone": _move_alone, "card": _card}[pos.event](pos, trace, out)
    return out
