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

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars.areas import MAP, Map, retreat_areas
from engine.runewars.common import FACTIONS, GAME, NAME, SEASON, faction_name, names, plural, unique_keys
from engine.runewars.forms import doc
from engine.runewars.retreat import chooser, narrate_options, pick_destination, units_over_limit
from engine.schema import BOOL, arr, enum, integer, nullable, obj

SYMBOLS = ("ally", "rout", "hostile")
RESULT = {"ally": "allied", "rout": "neutrals_retreat", "hostile": None}
NEUTRAL = obj(["id"], id=doc(NAME, "Neutral unit", "A name for the unit, e.g. beastman-1."),
              flying=doc(BOOL, "Flying", "Whether the unit flies.", False),
              routed=doc(BOOL, "Routed", "Whether it is already routed (a rout result routs it all the same).",
                         False))
SCHEMA: dict[str, Any] = obj(
    ["player", "influence", "spend", "area", "neutral_units"], extra=True,
    player=doc(enum(*FACTIONS), "Player", "The current player, attempting diplomacy."),
    season=doc(SEASON, "Season", "The current season (winter opens water borders).", "spring"),
    influence=doc(integer(0, 200), "Influence held", "Influence tokens the player holds before spending.", 0),
    spend=doc(integer(0, 200), "Influence spent", "Influence tokens spent on the attempt (1 to 6).", 1),
    area=doc(NAME, "Area", "The area of the neutral units, e.g. 6B."),
    units_in_area=doc(integer(0, 80), "Player's units in the area", "His units there now, allied neutral units "
                      "included.", 1),
    units_flying=doc(BOOL, "All his units fly", "Every one of the player's units in the area flies (only matters "
                     "if he retreats).", False),
    neutral_units=doc(arr(NEUTRAL, max_items=16), "Unallied neutral units", "Every unallied neutral unit in the "
                      "area."),
    drawn=doc(arr(enum(*SYMBOLS), max_items=6), "Destiny symbols drawn", "The diplomacy result of each Fate card "
              "drawn, in order: ally, rout (they retreat) or hostile (battle or retreat)."),
    chosen=doc(nullable(integer(0, 5)), "Card resolved", "Index of the drawn card the player resolves.", None),
    map=MAP,
    response=doc(nullable(enum("battle", "retreat")), "Answer to a hostile card", "After a hostile card: start a "
                 "battle, or retreat his units.", None),
    retreat_to=doc(nullable(NAME), "Retreat to", "Where his units retreat after a hostile card, when several "
                   "areas are allowed.", None),
    neutral_destination=doc(nullable(NAME), "Neutral units go to", "Where the neutral units retreat after a rout "
                            "card, when several areas are allowed.", None),
)


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


def _illegal(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> bool:
    spend, influence = int(pos["spend"]), int(pos["influence"])
    problem = spend_problem(spend, influence, corpus)
    if problem:
        trace.violate(problem, spend_problem, "rw.diplomacy")
    units = int(pos.get("units_in_area", 1))
    if must_battle(units, corpus):
        trace.violate(f"with {units} units in the area, more than 8, he may not attempt diplomacy and must battle",
                      must_battle, "rw.diplomacy")
    if not pos["neutral_units"]:
        trace.violate("there is no unallied neutral unit in the area to treat with", "rw.diplomacy",
                      "rw.battle-against-unallied-neutral-units.all-units")
    drawn = pos.get("drawn")
    if drawn is not None and not problem and len(drawn) != spend:
        trace.violate(f"{plural(len(drawn), 'card')} listed, but spending {spend} influence draws exactly {spend} "
                      f"(the full number is always drawn)", fate_cards_drawn, "rw.resolving-fate-cards.1")
    chosen = pos.get("chosen")
    if drawn is not None and chosen is not None and chosen >= len(drawn):
        trace.violate(f"card {chosen} is not among the {plural(len(drawn), 'card')} drawn", "rw.diplomacy.3")
    return bool(trace.violations)


def _symbol(drawn: Sequence[str], chosen: int | None, trace: Trace) -> str | None:
    """Return the destiny symbol resolved, or None with a decision when the player has a real choice."""
    if chosen is not None:
        trace.step(f"He resolves card {chosen} of the {len(drawn)} drawn: {drawn[chosen]}.", "rw.diplomacy.3")
        return drawn[chosen]
    if len(set(drawn)) == 1:
        trace.step(f"Every card drawn shows the same symbol ({drawn[0]}), so whichever he picks gives that result.",
                   "rw.diplomacy.3")
        return drawn[0]
    trace.decide("the player", "the one drawn card he resolves", "rw.diplomacy.3",
                 options=list(range(len(drawn))), field="chosen")
    trace.step(f"He picks exactly 1 of the cards ({', '.join(f'{i}: {s}' for i, s in enumerate(drawn))}) and "
               f"applies its symbol.", "rw.diplomacy.3")
    return None


def _board(pos: Mapping[str, Any]) -> Map:
    if pos.get("map") is None:
        raise UnreadableInputError("the map is needed to find where the retreating units may go", path="map")
    board = Map.from_json(pos["map"])
    board.area(pos["area"], "area")
    return board


def _ally(pos: Mapping[str, Any], ids: list[str], trace: Trace, corpus: Corpus, out: dict[str, Any]) -> None:
    out.update(result="allied", allied=ids)
    trace.step(f"Ally: every neutral unit in {pos['area']} ({names(ids)}) allies with {pos['player']}; all stay "
               f"there and he uses them as his own.", "rw.diplomacy.result-ally",
               "rw.battle-against-unallied-neutral-units.all-units", "rw.allied-units")
    total = int(pos.get("units_in_area", 1)) + len(ids)
    over = units_over_limit(0, total, corpus)
    out["over_limit"] = over
    if over:
        trace.step(f"With its new allies {pos['area']} holds {total} of his units, more than 8: he destroys "
                   f"{plural(over, 'unit')} of his choice there.", "rw.allied-units.limits",
                   "rw.movement-restrictions.unit-limit")


def _neutrals_flee(pos: Mapping[str, Any], neutrals: Sequence[Mapping[str, Any]], trace: Trace,
                   out: dict[str, Any]) -> None:
    board = _board(pos)
    ids = [str(n["id"]) for n in neutrals]
    out["routed"] = ids
    trace.step(f"Rout: every neutral unit in {pos['area']} ({names(ids)}) retreats into a single adjacent area and "
               f"is routed, even one already routed.", "rw.diplomacy.result-retreat",
               "rw.battle-against-unallied-neutral-units.all-units", "rw.retreats.routed")
    reach = retreat_areas(board, pos["area"], "neutral", [bool(n.get("flying", False)) for n in neutrals],
                          pos.get("season"))
    out["neutral_options"] = list(reach.options)
    narrate_options(reach, pos["area"], "neutral", pos.get("season"), trace)
    _, who = chooser("neutral", pos["player"])
    dest = pick_destination(reach, pos.get("neutral_destination"), "neutral_destination", who, trace)
    if not reach.options:
        out.update(result="neutrals_destroyed", destroyed=ids, routed=[])
        return
    out.update(result="neutrals_retreat", neutral_destination=dest)


def _hostile(pos: Mapping[str, Any], trace: Trace, corpus: Corpus, out: dict[str, Any]) -> None:
    player = pos["player"]
    trace.step(f"Hostile: {player} must either start a battle in {pos['area']} or retreat all his units from it "
               f"into 1 adjacent area.", "rw.diplomacy.result-battle-or-retreat")
    response = pos.get("response")
    if response is None:
        trace.decide(player, "battle the neutral units or retreat from the area",
                     "rw.diplomacy.result-battle-or-retreat", options=["battle", "retreat"], field="response")
        return
    if response == "battle":
        out["result"] = "battle"
        trace.step(f"{player} starts a battle against every neutral unit in {pos['area']}; the player on his left "
                   f"controls them.", "rw.battles", "rw.battle-against-unallied-neutral-units")
        return
    board = _board(pos)
    units = int(pos.get("units_in_area", 1))
    reach = retreat_areas(board, pos["area"], player, [bool(pos.get("units_flying", False))], pos.get("season"))
    narrate_options(reach, pos["area"], player, pos.get("season"), trace)
    dest = pick_destination(reach, pos.get("retreat_to"), "retreat_to", player, trace)
    out["result"] = "player_retreat"
    over = units_over_limit(board.areas[dest].count(player), units, corpus) if dest else 0
    out["retreat"] = {"options": list(reach.options), "destination": dest, "destroyed": not reach.options,
                      "over_limit": over}
    if reach.options:
        trace.step(f"His {plural(units, 'unit')} retreat" + (f" to {dest}" if dest else "") + " and are routed.",
                   "rw.retreats", "rw.retreats.routed")
    if over:
        trace.step(f"{dest} would then hold more than 8 of his units: he destroys {over} there.", units_over_limit)


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


@situation(GAME, "diplomacy", SCHEMA, labels=LABELS)
def resolve_diplomacy(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Attempt diplomacy with unallied neutral units: influence spent, cards drawn, the chosen card's result."""
    unique_keys(pos["neutral_units"], "id", "neutral_units")
    spend, influence = int(pos["spend"]), int(pos["influence"])
    out: dict[str, Any] = {"draws": None, "influence_left": None, "result": None, "allied": [],
                           "neutral_options": None, "neutral_destination": None, "routed": [], "destroyed": [],
                           "retreat": None}
    if _illegal(pos, trace, corpus):
        return out
    player, area = pos["player"], pos["area"]
    neutrals = list(pos["neutral_units"])
    out.update(draws=fate_cards_drawn(spend), influence_left=influence - spend)
    trace.step(f"The {player} player spends {spend} of his {influence} influence ({influence - spend} left) and draws "
               f"{plural(spend, 'Fate card')}, every one of them even if an early card already suits him.",
               "rw.diplomacy", "rw.diplomacy.1", fate_cards_drawn)
    drawn = pos.get("drawn")
    if drawn is None:
        trace.summarize(f"The {faction_name(player)} player spends {spend} influence ({influence - spend} left) "
                        f"and draws {plural(spend, 'Fate card')}, then resolves one of them against all "
                        f"{plural(len(neutrals), 'neutral unit')} in {area}")
        return out
    symbol = _symbol(drawn, pos.get("chosen"), trace)
    if symbol is None:
        return out
    ids = [str(n["id"]) for n in neutrals]
    if symbol == "ally":
        _ally(pos, ids, trace, corpus, out)
    elif symbol == "rout":
        _neutrals_flee(pos, neutrals, trace, out)
    else:
        _hostile(pos, trace, corpus, out)
    if not trace.violations:
        trace.summarize(_summary(pos, symbol, out))
    return out


def _summary(pos: Mapping[str, Any], symbol: str, out: Mapping[str, Any]) -> str:
    player, spend = pos["player"], int(pos["spend"])
    head = (f"The {faction_name(player)} player spends {spend} influence ({out['influence_left']} left), draws "
            f"{plural(spend, 'Fate card')} ")
    n = len(pos["neutral_units"])
    if symbol == "ally":
        return head + f"and the {plural(n, 'neutral unit')} ally with him" + (
            f"; he must destroy {out['over_limit']} over the 8-unit limit" if out.get("over_limit") else "")
    if symbol == "rout":
        if out["result"] == "neutrals_destroyed":
            return head + f"and the {plural(n, 'neutral unit')} have nowhere to retreat: all destroyed"
        dest = out["neutral_destination"]
        where = dest or (" or ".join(out["neutral_options"]) + f" (the player on {player}'s left picks)")
        return head + f"and the {plural(n, 'neutral unit')} retreat routed to {where}"
    if out["result"] is None:
        return head + "and draws a hostile result: he must battle or retreat"
    if out["result"] == "battle":
        return head + f"and answers the hostile result with a battle in {pos['area']}"
    r = out["retreat"]
    if r["destroyed"]:
        return head + "and must retreat from the hostile neutrals, but no area can take his units: destroyed"
    where = r["destination"] or " or ".join(r["options"]) + " (his choice)"
    over = f"; he destroys {r['over_limit']} over the 8-unit limit there" if r["over_limit"] else ""
    return head + f"and retreats his units routed to {where}{over}"
