"""Rune Age sieges: one player's army against another player's city or Home Realm.

Paragraphs: ``ra.conduct-a-siege`` and its steps, ``ra.player-elimination`` and the scenario rules of
The Monument (no Home Realm sieges) and The Cataclysm (secured cities enter exhausted).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.rune_age.battle import (
    BONUS,
    CARD,
    cards_from,
    is_army_empty,
    keeps_bonuses_without_units,
    strength_of,
    wounded_to_destroy,
)
from engine.schema import BOOL, arr, enum, integer, obj, text

SCENARIO = enum("resurgence-of-the-dragonlords", "runewars", "the-cataclysm", "the-monument")
SIDE = obj(["army"], player=text(), army=arr(CARD, max_items=200), resolution_bonuses=arr(BONUS, max_items=200))
SCHEMA: dict[str, Any] = obj(
    ["target", "attacker", "defender"], extra=True,
    scenario=SCENARIO,
    target=obj(["kind"], kind=enum("home_realm", "city"), name=text(), auto_defense=integer(None),
               damage=integer(0), exhausted=BOOL),
    attacker=SIDE, defender=SIDE,
)


@rule("ra.the-monument.no-home-realm-attacks")
def can_besiege_home_realm(scenario: str | None, corpus: Corpus) -> bool:
    """Return whether Home Realms may be besieged: not in The Monument."""
    if scenario == "the-monument":
        return bool(corpus.fact("ra.the-monument.no-home-realm-attacks", "home_realm_sieges_allowed"))
    return True


@rule("ra.conduct-a-siege.3.auto-defense")
def auto_defense(target: Mapping[str, Any]) -> int:
    """Return the besieged city's auto-defense bonus, added to the defender (cities only)."""
    return int(target.get("auto_defense") or 0) if target["kind"] == "city" else 0


@rule("ra.conduct-a-siege.3.ties")
def is_attacker_winner(attacker: int, defender: int) -> bool:
    """Return whether the attacker wins: only with a strictly higher strength (the defender wins ties)."""
    return attacker > defender


@rule("ra.conduct-a-siege.3.home-realm")
def home_realm_damage(attacker: int, defender: int) -> int:
    """Return the damage to a besieged Home Realm: the attacker's strength minus the defender's."""
    return attacker - defender


@rule("ra.player-elimination")
def is_eliminated(total_damage: int, corpus: Corpus) -> bool:
    """Return whether a Home Realm's damage reaches the elimination threshold (20)."""
    return total_damage >= int(corpus.fact("ra.player-elimination", "elimination_damage"))


@rule("ra.the-cataclysm.exhausted-cities")
def city_state_after_capture(scenario: str | None) -> str:
    """Return how a city secured by siege enters play: exhausted in The Cataclysm, else refreshed."""
    return "exhausted" if scenario == "the-cataclysm" else "refreshed"


LABELS: dict[str, Label] = {
    "attacker_strength": "Attacker's strength", "defender_strength": "Defender's strength",
    "winner": ("Winner", {"attacker": "The attacker", "defender": "The defender"}),
    "home_realm_damage": "Home Realm damage", "home_realm_total": "Home Realm damage in all",
    "eliminated": "Defender eliminated", "destroyed_at_end_of_combat": "Destroyed at End of Combat",
    "city_state": ("City", {"refreshed": "Enters play refreshed", "exhausted": "Enters play exhausted",
                            "unchanged": "Unchanged"}),
}


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: who wins the siege, the strengths, and the damage or the city taken."""
    target = pos["target"]
    a_name = pos["attacker"].get("player") or "The attacker"
    d_name = pos["defender"].get("player") or "the defender"
    a_str, d_str = out["attacker_strength"], out["defender_strength"]
    place = target.get("name") or ("the Home Realm" if target["kind"] == "home_realm" else "the city")
    if out["winner"] == "defender":
        why = "ties go to the defender" if a_str == d_str else "the siege is repelled"
        return f"{d_name[:1].upper()}{d_name[1:]} ({d_str}) holds {place} against {a_name} ({a_str}): {why}."
    if target["kind"] == "home_realm":
        prior = int(target.get("damage") or 0)
        end = (f"and {d_name} is eliminated" if out["eliminated"]
               else f"{out['home_realm_total']} in all" if prior else f"and {d_name} stays in the game")
        return (f"{a_name} ({a_str}) beats {d_name} ({d_str}): the Home Realm takes "
                f"{out['home_realm_damage']} damage, {end}.")
    return f"{a_name} ({a_str}) beats {d_name} ({d_str}) and secures {place}, which enters play {out['city_state']}."


@situation("rune-age", "siege", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_siege(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve a siege of a player-controlled city or Home Realm: both armies, ties, damage, elimination."""
    target, scenario = pos["target"], pos.get("scenario")
    att, dfd = pos["attacker"], pos["defender"]
    a_name, d_name = att.get("player") or "the attacker", dfd.get("player") or "the defender"
    name = target.get("name") or target["kind"].replace("_", " ")
    prior = int(target.get("damage") or 0)
    out: dict[str, Any] = {"attacker_strength": None, "defender_strength": None, "winner": None,
                           "home_realm_damage": 0, "home_realm_total": prior if target["kind"] == "home_realm"
                           else None, "eliminated": False, "city_state": "unchanged",
                           "destroyed_at_end_of_combat": {"attacker": [], "defender": []}}
    trace.step(f"Declare target: {a_name} besieges {d_name}'s {name}.", "ra.conduct-a-siege.1")
    if target["kind"] == "home_realm" and not can_besiege_home_realm(scenario, corpus):
        trace.violate("in The Monument no player may attack another player's Home Realm", can_besiege_home_realm)
        return out
    if target["kind"] == "home_realm" and is_eliminated(prior, corpus):
        trace.violate(f"{d_name}'s Home Realm already holds {prior} damage: that player is out of the game and "
                      f"cannot be besieged", is_eliminated)
        out["eliminated"] = True
        return out
    attackers, defenders = cards_from(att["army"]), cards_from(dfd["army"])
    if is_army_empty(attackers):
        trace.violate("the attacker played no card; a Combat action needs at least one unit or tactic card",
                      is_army_empty)
        return out
    trace.step(f"Assault: starting with the attacker, the players take turns playing one card at a time "
               f"({len(attackers)} for {a_name}, {len(defenders)} for {d_name}) until both pass.",
               "ra.conduct-a-siege.2", "ra.conduct-a-siege.2.passing")
    a_str = strength_of(attackers, att.get("resolution_bonuses", []))
    d_base = strength_of(defenders, dfd.get("resolution_bonuses", []))
    bonus = auto_defense(target)
    d_str = d_base + bonus
    trace.step(f"Resolution: {a_name} has strength {a_str}.", "ra.conduct-a-siege.3", strength_of)
    if bonus:
        trace.step(f"{name}'s auto-defense bonus adds {bonus}: {d_name} has {d_base} + {bonus} = {d_str}.",
                   auto_defense)
    else:
        trace.step(f"{d_name} has strength {d_str}.", "ra.conduct-a-siege.3")
    out["attacker_strength"], out["defender_strength"] = a_str, d_str
    for who, cards, side in ((a_name, attackers, att), (d_name, defenders, dfd)):
        if keeps_bonuses_without_units(cards, side.get("resolution_bonuses", [])):
            trace.step(f"{who} has no unit left in the siege, but his strength bonuses still count.",
                       keeps_bonuses_without_units)
    if not is_attacker_winner(a_str, d_str):
        out["winner"] = "defender"
        why = "Tie: the defender wins ties" if a_str == d_str else f"{d_name} is stronger"
        trace.step(f"{why}; the siege is repelled and {name} is unchanged.", is_attacker_winner,
                   "ra.conduct-a-siege.3.city" if target["kind"] == "city" else home_realm_damage)
    else:
        out["winner"] = "attacker"
        if target["kind"] == "home_realm":
            dmg = home_realm_damage(a_str, d_str)
            total = prior + dmg
            out.update(home_realm_damage=dmg, home_realm_total=total)
            trace.step(f"{a_name} wins: the Home Realm takes {a_str} − {d_str} = {dmg} damage "
                       f"({prior} already on it, {total} in all).", is_attacker_winner, home_realm_damage)
            out["eliminated"] = is_eliminated(total, corpus)
            limit = corpus.fact("ra.player-elimination", "elimination_damage")
            trace.step(f"{d_name} is eliminated: the Home Realm holds {total} damage, at least {limit}."
                       if out["eliminated"] else f"{d_name} stays in the game ({total} of {limit} damage).",
                       is_eliminated)
        else:
            state = city_state_after_capture(scenario)
            out["city_state"] = state
            cites: list[Any] = [is_attacker_winner, "ra.conduct-a-siege.3.city"]
            if state == "exhausted":
                cites.append(city_state_after_capture)
            trace.step(f"{a_name} wins and secures {name}, which enters his play area {state}.", *cites)
    doomed = {"attacker": wounded_to_destroy(attackers), "defender": wounded_to_destroy(defenders)}
    out["destroyed_at_end_of_combat"] = doomed
    if doomed["attacker"] or doomed["defender"]:
        trace.step("The wounded units counted at Resolution and are now destroyed: "
                   f"{', '.join(doomed['attacker'] + doomed['defender'])}.", wounded_to_destroy, "ra.conduct-a-siege.4")
    trace.step("End of combat: wounded units are destroyed; surviving units go to their owners' discard piles.",
               "ra.conduct-a-siege.4")
    return out
