"""Runewars diplomacy with unallied neutral units: the influence spent, the Fate cards drawn and the chosen result.

Paragraphs: ``rw.diplomacy`` with its steps ``.1`` (spend 1 to 6 influence; none, no diplomacy), ``.2`` (1 Fate
card per influence spent) and ``.3`` (resolve exactly 1 card's destiny symbol), the results ``.result-ally``,
``.result-retreat`` (every neutral unit retreats routed, even routed ones; the player on the current player's
left picks among several areas; none, they are destroyed) and ``.result-battle-or-retreat``;
``rw.movement-restrictions.unit-limit.battle`` (more than 8 units in the area: battle, no diplomacy) and
``.unit-limit`` / ``rw.allied-units.limits`` (allies count towards 8); ``rw.resolving-fate-cards.1`` (the full
number is drawn); ``rw.battle-against-unallied-neutral-units.all-units`` (the result applies to every neutral unit
in the area); the retreat rules of :mod:`engine.runewars.retreat`.

The book prints the destiny symbols as pictures; positions name them by their diplomacy result, in the book's
order: ``ally``, ``rout``, ``hostile``. The player's own units carry no flying flag in this position: unless
``units_flying`` says every one of them flies, his retreat obeys mountain and water borders.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.model import Field, Model, OpenPosition, Outcome, maybe
from engine.runewars.areas import AreaMap, Map, map_reading, retreat_areas
from engine.runewars.common import (
    GAME,
    Faction,
    Labels,
    Name,
    Season,
    capital,
    faction_name,
    figure_name,
    figure_names,
    left_of,
    names,
    plural,
    refuse_duplicates,
    the_player,
)
from engine.runewars.retreat import chooser, narrate_options, pick_destination, units_over_limit

SYMBOLS = ("ally", "rout", "hostile")
Symbol = Annotated[Literal["ally", "rout", "hostile"], Labels({"ally": "Ally", "rout": "Rout (they retreat)",
                                                              "hostile": "Hostile (battle or retreat)"})]
Response = Annotated[Literal["battle", "retreat"], Labels({"battle": "Start a battle", "retreat": "Retreat"})]
Result = Literal["allied", "neutrals_retreat", "neutrals_destroyed", "battle", "player_retreat"]


class NeutralUnit(Model):
    """An unallied neutral unit in the area."""

    model_config = ConfigDict(title="Neutral unit")

    id: Name = Field(title="Neutral unit", description="A name for the unit, e.g. beastman-1.")
    flying: bool = Field(False, title="Flying", description="Whether the unit flies.")
    routed: bool = Field(False, title="Routed", description="Whether it is already routed (a rout result routs it all "
                         "the same).")


class DiplomacyPosition(OpenPosition):
    """A diplomacy attempt with unallied neutral units: the influence spent, the cards drawn and the answers."""

    game: Literal["runewars"]
    situation: Literal["diplomacy"]
    player: Faction = Field(title="Player", description="The current player, attempting diplomacy.")
    season: Season = Field("spring", title="Season", description="The current season (winter opens water borders).")
    influence: int = Field(ge=0, le=200, title="Influence held", description="Influence tokens the player holds "
                           "before spending.", json_schema_extra={"default": 0})
    spend: int = Field(ge=0, le=200, title="Influence spent", description="Influence tokens spent on the attempt (1 "
                       "to 6).", json_schema_extra={"default": 1})
    area: Name = Field(title="Area", description="The area of the neutral units, e.g. 6B.")
    units_in_area: int = Field(1, ge=0, le=80, title="Player's units in the area", description="His units there now, "
                               "allied neutral units included.")
    units_flying: bool = Field(False, title="All his units fly", description="Every one of the player's units in the "
                               "area flies (only matters if he retreats).")
    neutral_units: list[NeutralUnit] = Field(max_length=16, title="Unallied neutral units",
                                             description="Every unallied neutral unit in the area.")
    drawn: list[Symbol] | None = maybe("The diplomacy result of each Fate card drawn, in order: ally, rout (they "
                                       "retreat) or hostile (battle or retreat).", title="Destiny symbols drawn",
                                       max_length=6)
    chosen: int | None = Field(None, ge=0, le=5, title="Card resolved", description="Index of the drawn card the "
                               "player resolves.")
    map: AreaMap | None = maybe("The areas around the action and the borders between them.", title="Map")
    response: Response | None = Field(None, title="Answer to a hostile card", description="After "
                                                          "a hostile card: start a battle, or retreat his units.")
    retreat_to: Name | None = Field(None, title="Retreat to", description="Where his units retreat after a hostile "
                                    "card, when several areas are allowed.")
    neutral_destination: Name | None = Field(None, title="Neutral units go to", description="Where the neutral units "
                                             "retreat after a rout card, when several areas are allowed.")

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        refuse_duplicates([n.id for n in self.neutral_units], "id", "neutral_units")
        return self

    def reading(self) -> list[str]:
        """The player, his influence and what he spends, his units in the area, the neutral units, the cards drawn
        and the answers stated, and the map."""
        who = capital(the_player(self.player))
        neutrals = [figure_name(n.id) + _traits(n) for n in self.neutral_units]
        out = [f"{who} holds {plural(self.influence, 'influence token')} and spends {self.spend} ({self.season}).",
               f"In {self.area}: his {plural(self.units_in_area, 'unit')}"
               + (" (all flying)" if self.units_flying else "")
               + f" and the unallied neutral units {names(neutrals)}."]
        if self.drawn is not None:
            out.append("Fate cards drawn: " + (", ".join(f"card {i}: {s}" for i, s in enumerate(self.drawn, 1))
                                               or "none") + ".")
        if self.chosen is not None:
            out.append(f"He resolves card {self.chosen + 1}.")
        if self.response:
            out.append(f"He answers a hostile card with {'a battle' if self.response == 'battle' else 'a retreat'}.")
        if self.retreat_to:
            out.append(f"His units retreat to {self.retreat_to}.")
        if self.neutral_destination:
            out.append(f"The neutral units go to {self.neutral_destination}.")
        if self.map is not None:
            out += map_reading(self.map)
        return out


def _traits(unit: NeutralUnit) -> str:
    words = [w for w, on in (("flying", unit.flying), ("routed", unit.routed)) if on]
    return f" ({', '.join(words)})" if words else ""


class PlayerRetreat(Outcome):
    """Where the player's units retreat after a hostile card."""

    options: list[str]
    destination: str | None
    destroyed: bool
    over_limit: int


class DiplomacyOutcome(Outcome):
    """The cards drawn, the influence left, the result and where units go."""

    draws: int | None = None
    influence_left: int | None = None
    result: Result | None = None
    allied: list[str] = Field(default_factory=list)
    neutral_options: list[str] | None = None
    neutral_destination: str | None = None
    routed: list[str] = Field(default_factory=list)
    destroyed: list[str] = Field(default_factory=list)
    retreat: PlayerRetreat | None = None
    over_limit: int | None = Field(None, exclude_if=lambda v: v is None)


@rule("rw.diplomacy.1")
def spend_problem(spend: int, influence: int, corpus: Corpus) -> str | None:
    """Return why the influence spent is not allowed (1 to 6, and no more than the player holds), or None."""
    low = int(corpus.fact("rw.diplomacy.1", "min_influence"))
    high = int(corpus.fact("rw.diplomacy.1", "max_influence"))
    if influence < low:
        return "a player with no influence tokens cannot attempt diplomacy"
    if spend < low or spend > high:
        return f"he must spend from {low} to {high} influence tokens, not {spend}"
    if spend > influence:
        return f"he spends {spend} influence but holds only {influence}"
    return None


@rule("rw.movement-restrictions.unit-limit.battle", "rw.movement-restrictions.unit-limit", "rw.allied-units.limits")
def must_battle(units_in_area: int, corpus: Corpus) -> bool:
    """Return whether the player has more than 8 units in the area, so he must battle instead."""
    return units_in_area > int(corpus.fact("rw.movement-restrictions.unit-limit", "max_units_per_area"))


@rule("rw.diplomacy.2", "rw.resolving-fate-cards.1")
def fate_cards_drawn(spend: int) -> int:
    """Return the Fate cards drawn: 1 per influence token spent, all of them always drawn."""
    return spend


@rule("rw.diplomacy", "rw.battle-against-unallied-neutral-units.all-units", "rw.resolving-fate-cards.1",
      "rw.diplomacy.3")
def _illegal(pos: DiplomacyPosition, trace: Trace, corpus: Corpus) -> bool:
    """Return whether the attempt breaks a rule: the influence spent, more than 8 units, nobody to treat with, the
    cards drawn and the card chosen."""
    spend, influence = pos.spend, pos.influence
    problem = spend_problem(spend, influence, corpus)
    if problem:
        trace.violate(problem, spend_problem, "rw.diplomacy")
    units = pos.units_in_area
    if must_battle(units, corpus):
        trace.violate(f"with {units} units in the area, more than 8, he may not attempt diplomacy and must battle",
                      must_battle, "rw.diplomacy")
    if not pos.neutral_units:
        trace.violate("there is no unallied neutral unit in the area to treat with", "rw.diplomacy",
                      "rw.battle-against-unallied-neutral-units.all-units")
    drawn, chosen = pos.drawn, pos.chosen
    if drawn is not None and not problem and len(drawn) != spend:
        trace.violate(f"{plural(len(drawn), 'card')} listed, but spending {spend} influence draws exactly {spend} "
                      f"(the full number is always drawn)", fate_cards_drawn)
    if drawn is not None and chosen is not None and chosen >= len(drawn):
        trace.violate(f"card {chosen + 1} is not among the {plural(len(drawn), 'card')} drawn", "rw.diplomacy.3")
    return bool(trace.violations)


@rule("rw.diplomacy.3")
def _symbol(drawn: Sequence[Symbol], chosen: int | None, trace: Trace) -> Symbol | None:
    """Return the destiny symbol resolved, or None with a decision when the player has a real choice."""
    if chosen is not None:
        trace.step(f"He resolves card {chosen + 1} of the {len(drawn)} drawn: {drawn[chosen]}.", "rw.diplomacy.3")
        return drawn[chosen]
    if len(set(drawn)) == 1:
        trace.step(f"Every card drawn shows the same symbol ({drawn[0]}), so whichever he picks gives that result.",
                   "rw.diplomacy.3")
        return drawn[0]
    trace.decide("the player", "the one drawn card he resolves", "rw.diplomacy.3",
                 options=list(range(len(drawn))), field="chosen")
    trace.step(f"He picks exactly 1 of the cards ({', '.join(f'{i}: {s}' for i, s in enumerate(drawn, 1))}) and "
               f"applies its symbol.", "rw.diplomacy.3")
    return None


def _board(pos: DiplomacyPosition) -> Map:
    """Return the map the retreating units move on (it must hold the area)."""
    if pos.map is None:
        raise UnreadableInputError("the map is needed to find where the retreating units may go", path="map")
    board = Map.of(pos.map)
    board.area(pos.area, "area")
    return board


@rule("rw.diplomacy.result-ally", "rw.battle-against-unallied-neutral-units.all-units", "rw.allied-units",
      "rw.allied-units.limits", "rw.movement-restrictions.unit-limit")
def _ally(pos: DiplomacyPosition, ids: list[str], trace: Trace, corpus: Corpus, out: DiplomacyOutcome) -> None:
    """Ally: every neutral unit allies with the player and stays; the limit of 8 units then applies."""
    out.result, out.allied = "allied", ids
    trace.step(f"Ally: every neutral unit in {pos.area} ({figure_names(ids)}) allies with {the_player(pos.player)}; "
               f"all stay "
               f"there and he uses them as his own.", "rw.diplomacy.result-ally",
               "rw.battle-against-unallied-neutral-units.all-units", "rw.allied-units")
    total = pos.units_in_area + len(ids)
    over = units_over_limit(0, total, corpus)
    out.over_limit = over
    if over:
        trace.step(f"With its new allies {pos.area} holds {total} of his units, more than 8: he destroys "
                   f"{plural(over, 'unit')} of his choice there.", "rw.allied-units.limits",
                   "rw.movement-restrictions.unit-limit")


@rule("rw.diplomacy.result-retreat", "rw.battle-against-unallied-neutral-units.all-units", "rw.retreats.routed")
def _neutrals_flee(pos: DiplomacyPosition, trace: Trace, out: DiplomacyOutcome) -> None:
    """Rout: every neutral unit retreats routed into one adjacent uncontrolled area, or is destroyed."""
    board = _board(pos)
    ids = [n.id for n in pos.neutral_units]
    out.routed = ids
    trace.step(f"Rout: every neutral unit in {pos.area} ({figure_names(ids)}) retreats into a single adjacent area and "
               f"is routed, even one already routed.", "rw.diplomacy.result-retreat",
               "rw.battle-against-unallied-neutral-units.all-units", "rw.retreats.routed")
    reach = retreat_areas(board, pos.area, "neutral", [n.flying for n in pos.neutral_units], pos.season)
    out.neutral_options = list(reach.options)
    narrate_options(reach, pos.area, "neutral", pos.season, trace)
    _, who = chooser("neutral", pos.player)
    dest = pick_destination(reach, pos.neutral_destination, "neutral_destination", who, trace)
    if not reach.options:
        out.result, out.destroyed, out.routed = "neutrals_destroyed", ids, []
        return
    out.result, out.neutral_destination = "neutrals_retreat", dest


@rule("rw.retreats", "rw.retreats.routed")
def _player_retreats(pos: DiplomacyPosition, trace: Trace, corpus: Corpus, out: DiplomacyOutcome) -> None:
    """Hostile, answered by a retreat: all his units go routed into 1 adjacent area, or are destroyed."""
    player = pos.player
    board = _board(pos)
    units = pos.units_in_area
    reach = retreat_areas(board, pos.area, player, [pos.units_flying], pos.season)
    narrate_options(reach, pos.area, player, pos.season, trace)
    dest = pick_destination(reach, pos.retreat_to, "retreat_to", the_player(player), trace)
    out.result = "player_retreat"
    over = units_over_limit(board.areas[dest].count(player), units, corpus) if dest else 0
    out.retreat = PlayerRetreat(options=list(reach.options), destination=dest, destroyed=not reach.options,
                                over_limit=over)
    if reach.options:
        trace.step(f"His {plural(units, 'unit')} retreat" + (f" to {dest}" if dest else "") + " and are routed.",
                   "rw.retreats", "rw.retreats.routed")
    if over:
        trace.step(f"{dest} would then hold more than 8 of his units: he destroys {over} there.", units_over_limit)


@rule("rw.diplomacy.result-battle-or-retreat", "rw.battles", "rw.battle-against-unallied-neutral-units")
def _hostile(pos: DiplomacyPosition, trace: Trace, corpus: Corpus, out: DiplomacyOutcome) -> None:
    """Hostile: the player starts a battle or retreats all his units."""
    player = pos.player
    trace.step(f"Hostile: {the_player(player)} must either start a battle in {pos.area} or retreat all his units "
               f"from it "
               f"into 1 adjacent area.", "rw.diplomacy.result-battle-or-retreat")
    if pos.response is None:
        trace.decide(the_player(player), "battle the neutral units or retreat from the area",
                     "rw.diplomacy.result-battle-or-retreat", options=["battle", "retreat"], field="response")
        return
    if pos.response == "battle":
        out.result = "battle"
        trace.step(f"{capital(the_player(player))} starts a battle against every neutral unit in {pos.area}; the "
                   f"player on his left "
                   f"controls them.", "rw.battles", "rw.battle-against-unallied-neutral-units")
        return
    _player_retreats(pos, trace, corpus, out)


LABELS: dict[str, Label] = {
    "draws": "Fate cards drawn", "influence_left": "Influence left",
    "result": ("Result", {"allied": "The neutral units ally", "neutrals_retreat": "The neutral units retreat",
                          "neutrals_destroyed": "The neutral units are destroyed", "battle": "Battle",
                          "player_retreat": "The player's units retreat"}),
    "allied": "Neutral units allied", "neutral_options": "Areas open to the neutral units",
    "neutral_destination": "Neutral units go to", "routed": "Neutral units routed",
    "destroyed": "Neutral units destroyed", "retreat": "The player's retreat",
    "over_limit": "Units to destroy (over 8)",
}


@situation(GAME, "diplomacy", DiplomacyPosition, labels=LABELS)
@rule("rw.diplomacy", "rw.diplomacy.1")
def resolve_diplomacy(pos: DiplomacyPosition, trace: Trace, corpus: Corpus) -> DiplomacyOutcome:
    """Attempt diplomacy with unallied neutral units: influence spent, cards drawn, the chosen card's result."""
    spend, influence, player = pos.spend, pos.influence, pos.player
    out = DiplomacyOutcome()
    if _illegal(pos, trace, corpus):
        return out
    out.draws, out.influence_left = fate_cards_drawn(spend), influence - spend
    trace.step(f"{capital(the_player(player))} spends {spend} of his {influence} influence ({influence - spend} "
               f"left) and draws "
               f"{plural(spend, 'Fate card')}, every one of them even if an early card already suits him.",
               "rw.diplomacy", "rw.diplomacy.1", fate_cards_drawn)
    if pos.drawn is None:
        trace.summarize(f"The {faction_name(player)} player spends {spend} influence ({influence - spend} left) "
                        f"and draws {plural(spend, 'Fate card')}, then resolves one of them against all "
                        f"{plural(len(pos.neutral_units), 'neutral unit')} in {pos.area}")
        return out
    symbol = _symbol(pos.drawn, pos.chosen, trace)
    if symbol is None:
        return out
    if symbol == "ally":
        _ally(pos, [n.id for n in pos.neutral_units], trace, corpus, out)
    elif symbol == "rout":
        _neutrals_flee(pos, trace, out)
    else:
        _hostile(pos, trace, corpus, out)
    if not trace.violations:
        trace.summarize(_summary(pos, symbol, out))
    return out


def _summary(pos: DiplomacyPosition, symbol: Symbol, out: DiplomacyOutcome) -> str:
    player, spend = pos.player, pos.spend
    head = (f"The {faction_name(player)} player spends {spend} influence ({out.influence_left} left), draws "
            f"{plural(spend, 'Fate card')} ")
    n = len(pos.neutral_units)
    if symbol == "ally":
        return head + f"and the {plural(n, 'neutral unit')} ally with him" + (
            f"; he must destroy {out.over_limit} over the 8-unit limit" if out.over_limit else "")
    if symbol == "rout":
        if out.result == "neutrals_destroyed":
            return head + f"and the {plural(n, 'neutral unit')} have nowhere to retreat: all destroyed"
        where = out.neutral_destination or (" or ".join(out.neutral_options or [])
                                            + f" ({left_of(player)} picks)")
        return head + f"and the {plural(n, 'neutral unit')} retreat routed to {where}"
    if out.result is None:
        return head + "and draws a hostile result: he must battle or retreat"
    if out.result == "battle":
        return head + f"and answers the hostile result with a battle in {pos.area}"
    r = out.retreat
    assert r is not None  # the hostile card answered by a retreat
    if r.destroyed:
        return head + "and must retreat from the hostile neutrals, but no area can take his units: destroyed"
    where = r.destination or " or ".join(r.options) + " (his choice)"
    over = f"; he destroys {r.over_limit} over the 8-unit limit there" if r.over_limit else ""
    return head + f"and retreats his units routed to {where}{over}"
