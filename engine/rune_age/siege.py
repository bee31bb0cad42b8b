"""Rune Age sieges: one player's army against another player's city or Home Realm.

Paragraphs: ``ra.conduct-a-siege`` and its steps, ``ra.player-elimination`` and the scenario rules of
The Monument (no Home Realm sieges) and The Cataclysm (secured cities enter exhausted).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import MAX_ITEMS, Field, Model, OpenPosition, Outcome, labelled, maybe, refuse
from engine.rune_age.battle import (
    MAX_STRENGTH,
    Bonus,
    Card,
    army_words,
    bonus_problem,
    bonus_words,
    is_army_empty,
    keeps_bonuses_without_units,
    strength_of,
    wounded_to_destroy,
)
from engine.rune_age.scenarios import (
    END_WORDS,
    ENDS_LABEL,
    SCENARIO_NAMES,
    NamedScenario,
    ScenarioEnd,
    is_eliminated,
    scenario_end_field,
    settle_end,
)
from engine.rune_age.words import capital, listing, plural, possessive

SIEGE_KINDS = {"home_realm": "A Home Realm", "city": "A city"}


class Side(Model):
    """One side of a siege: the player, the cards played and the bonuses counted at Resolution."""

    player: str | None = maybe(max_length=200)
    army: list[Card] = Field(max_length=MAX_ITEMS)
    resolution_bonuses: list[Bonus] = Field([], max_length=MAX_ITEMS)


class SiegeTarget(Model):
    """The besieged city or Home Realm."""

    kind: Literal["home_realm", "city"] = Field(json_schema_extra=labelled(SIEGE_KINDS))
    name: str | None = maybe(max_length=200)
    auto_defense: int | None = maybe("The city's auto-defense bonus (cities only).", ge=0, le=MAX_STRENGTH)
    damage: int | None = maybe("The damage already on the Home Realm (Home Realms only).", ge=0, le=MAX_STRENGTH)
    exhausted: bool | None = maybe()


class SiegePosition(OpenPosition):
    """A Rune Age siege: the attacker's army against another player's city or Home Realm."""

    game: Literal["rune-age"]
    situation: Literal["siege"]
    scenario: NamedScenario | None = maybe()
    target: SiegeTarget
    attacker: Side
    defender: Side
    players_in_game: int | None = maybe("How many players are still in the game before this siege, counting both "
                                        "sides (Runewars: read when the defender is eliminated).",
                                        title="Players still in the game", ge=2, le=4)

    def reading(self) -> list[str]:
        """Restate the scenario, what is besieged, each side's cards and bonuses."""
        t = self.target
        out = [f"Scenario: {SCENARIO_NAMES[self.scenario]}."] if self.scenario else []
        what = "a Home Realm" if t.kind == "home_realm" else "a city"
        named = f" ({t.name})" if t.name else ""
        notes = []
        if t.kind == "home_realm" and t.damage is not None:
            notes.append(f"{t.damage} damage already on it")
        if t.kind == "city":
            notes.append(f"auto-defense {t.auto_defense or 0}")
            if t.exhausted:
                notes.append("exhausted")
        out.append(f"Besieged: {what}{named}" + (f", {', '.join(notes)}" if notes else "") + ".")
        for key, side in (("Attacker", self.attacker), ("Defender", self.defender)):
            who = f"{side.player}, " if side.player else ""
            out.append(f"{key}: {who}{army_words(side.army)}.")
            out.append(bonus_words(side.resolution_bonuses, side.army, f" of the {key.lower()}"))
        return out

    @model_validator(mode="after")
    def _bonuses_have_cards(self) -> SiegePosition:
        """Refuse a card bonus whose card is not in that side's army (see :class:`Bonus`)."""
        for key, side in (("attacker", self.attacker), ("defender", self.defender)):
            problem = bonus_problem(side.army, side.resolution_bonuses, f"the {key}'s army")
            if problem:
                message, i, field = problem
                raise refuse(message, f"{key}.resolution_bonuses[{i}].{field}")
        return self


def _no_losses() -> dict[str, list[str]]:
    return {"attacker": [], "defender": []}


class SiegeOutcome(Outcome):
    """What a siege decides: both strengths, the winner, the damage or the city taken."""

    attacker_strength: int | None = None
    defender_strength: int | None = None
    winner: Literal["attacker", "defender"] | None = None
    home_realm_damage: int = 0
    home_realm_total: int | None = None
    eliminated: bool = False
    city_state: Literal["refreshed", "exhausted", "unchanged"] = "unchanged"
    destroyed_at_end_of_combat: dict[str, list[str]] = Field(default_factory=_no_losses)
    scenario_end: ScenarioEnd | None = scenario_end_field()


@rule("ra.the-monument.no-home-realm-attacks")
def can_besiege_home_realm(scenario: str | None, corpus: Corpus) -> bool:
    """Return whether Home Realms may be besieged: not in The Monument."""
    if scenario == "the-monument":
        return bool(corpus.fact("ra.the-monument.no-home-realm-attacks", "home_realm_sieges_allowed"))
    return True


@rule("ra.conduct-a-siege.3.auto-defense")
def auto_defense(target: SiegeTarget) -> int:
    """Return the besieged city's auto-defense bonus, added to the defender (cities only)."""
    return (target.auto_defense or 0) if target.kind == "city" else 0


@rule("ra.conduct-a-siege.3.ties")
def is_attacker_winner(attacker: int, defender: int) -> bool:
    """Return whether the attacker wins: only with a strictly higher strength (the defender wins ties)."""
    return attacker > defender


@rule("ra.conduct-a-siege.3.home-realm")
def home_realm_damage(attacker: int, defender: int) -> int:
    """Return the damage to a besieged Home Realm: the attacker's strength minus the defender's."""
    return attacker - defender


@rule("ra.the-cataclysm.exhausted-cities")
def city_state_after_capture(scenario: str | None) -> Literal["refreshed", "exhausted"]:
    """Return how a city secured by siege enters play: exhausted in The Cataclysm, else refreshed."""
    return "exhausted" if scenario == "the-cataclysm" else "refreshed"


LABELS: dict[str, Label] = {
    "scenario_end": ENDS_LABEL,
    "attacker_strength": "Attacker's strength", "defender_strength": "Defender's strength",
    "winner": ("Winner", {"attacker": "The attacker", "defender": "The defender"}),
    "home_realm_damage": "Home Realm damage", "home_realm_total": "Home Realm damage in all",
    "eliminated": "Defender eliminated", "destroyed_at_end_of_combat": "Destroyed at End of Combat",
    "city_state": ("City", {"refreshed": "Enters play refreshed", "exhausted": "Enters play exhausted",
                            "unchanged": "Unchanged"}),
}


def _names(pos: SiegePosition) -> tuple[str, str, str]:
    """Return the attacker's and defender's names and the target's, as the steps say them."""
    kind = "the Home Realm" if pos.target.kind == "home_realm" else "the city"
    return (pos.attacker.player or "the attacker", pos.defender.player or "the defender", pos.target.name or kind)


def _summary(pos: SiegePosition, out: SiegeOutcome, trace: Trace) -> str:
    """One sentence: who wins the siege, the strengths, and the damage or the city taken."""
    target = pos.target
    a_name = pos.attacker.player or "The attacker"
    d_name = pos.defender.player or "the defender"
    a_str, d_str = out.attacker_strength, out.defender_strength
    place = target.name or ("the Home Realm" if target.kind == "home_realm" else "the city")
    if out.winner == "defender":
        why = "ties go to the defender" if a_str == d_str else "the siege is repelled"
        return f"{d_name[:1].upper()}{d_name[1:]} ({d_str}) holds {place} against {a_name} ({a_str}): {why}."
    if target.kind == "home_realm":
        prior = target.damage or 0
        end = (f"and {d_name} is eliminated" if out.eliminated
               else f"{out.home_realm_total} in all" if prior else f"and {d_name} stays in the game")
        return (f"{a_name} ({a_str}) beats {d_name} ({d_str}): the Home Realm takes "
                f"{out.home_realm_damage} damage, {end}{END_WORDS.get(out.scenario_end or '', '')}.")
    return f"{a_name} ({a_str}) beats {d_name} ({d_str}) and secures {place}, which enters play {out.city_state}."


@rule("ra.conduct-a-siege.1")
def _declare(pos: SiegePosition, out: SiegeOutcome, trace: Trace, corpus: Corpus) -> bool:
    """Step 1, Declare target: return whether this siege may be made at all."""
    a_name, d_name, name = _names(pos)
    target, prior = pos.target, pos.target.damage or 0
    trace.step(f"Declare target: {a_name} besieges {name}"
               + (f", {possessive(d_name)} {'Home Realm' if target.kind == 'home_realm' else 'city'}."
                  if pos.target.name else f" of {d_name}."), "ra.conduct-a-siege.1")
    if target.kind == "home_realm" and not can_besiege_home_realm(pos.scenario, corpus):
        trace.violate("in The Monument no player may attack another player's Home Realm", can_besiege_home_realm)
        return False
    if target.kind == "home_realm" and is_eliminated(prior, corpus):
        trace.violate(f"{possessive(d_name)} Home Realm already holds {prior} damage: that player is out of the "
                      f"game and cannot be besieged", is_eliminated)
        out.eliminated = True
        return False
    if is_army_empty(pos.attacker.army):
        trace.violate("the attacker played no card; a Combat action needs at least one unit or tactic card",
                      is_army_empty)
        return False
    return True


@rule("ra.conduct-a-siege.2", "ra.conduct-a-siege.2.passing")
def _assault(pos: SiegePosition, trace: Trace) -> None:
    """Step 2, Assault: the players alternate cards until both pass."""
    a_name, d_name, _ = _names(pos)
    trace.step(f"Assault: starting with the attacker, the players take turns playing one card at a time "
               f"({plural(len(pos.attacker.army), 'card')} for {a_name}, {len(pos.defender.army)} for {d_name}) "
               f"until both pass.",
               "ra.conduct-a-siege.2", "ra.conduct-a-siege.2.passing")


@rule("ra.conduct-a-siege.3")
def _strengths(pos: SiegePosition, out: SiegeOutcome, trace: Trace) -> None:
    """Step 3, Resolution: each side's strength, the city's auto-defense added to the defender."""
    a_name, d_name, name = _names(pos)
    att, dfd = pos.attacker, pos.defender
    a_str = strength_of(att.army, att.resolution_bonuses)
    d_base = strength_of(dfd.army, dfd.resolution_bonuses)
    bonus = auto_defense(pos.target)
    d_str = d_base + bonus
    trace.step(f"Resolution: {a_name} has strength {a_str}.", "ra.conduct-a-siege.3", strength_of)
    if bonus:
        trace.step(f"{capital(possessive(name))} auto-defense bonus adds {bonus}: {d_name} has {d_base} + {bonus} = "
                   f"{d_str}.", auto_defense)
    else:
        trace.step(f"{capital(d_name)} has strength {d_str}.", "ra.conduct-a-siege.3")
    out.attacker_strength, out.defender_strength = a_str, d_str
    for who, side in ((a_name, att), (d_name, dfd)):
        if keeps_bonuses_without_units(side.army, side.resolution_bonuses):
            trace.step(f"{capital(who)} has no unit left in the siege, but his strength bonuses still count.",
                       keeps_bonuses_without_units)


@rule("ra.conduct-a-siege.3.city")
def _result(pos: SiegePosition, out: SiegeOutcome, trace: Trace, corpus: Corpus) -> None:
    """Step 3, Resolution: the winner (ties to the defender), then the Home Realm's damage or the city taken."""
    a_name, d_name, name = _names(pos)
    target, prior = pos.target, pos.target.damage or 0
    a_str, d_str = out.attacker_strength or 0, out.defender_strength or 0
    if not is_attacker_winner(a_str, d_str):
        out.winner = "defender"
        why = "Tie: the defender wins ties" if a_str == d_str else f"{d_name} is stronger"
        trace.step(f"{why}; the siege is repelled and {name} is unchanged.", is_attacker_winner,
                   "ra.conduct-a-siege.3.city" if target.kind == "city" else home_realm_damage)
        return
    out.winner = "attacker"
    if target.kind == "home_realm":
        dmg = home_realm_damage(a_str, d_str)
        total = prior + dmg
        out.home_realm_damage, out.home_realm_total = dmg, total
        trace.step(f"{capital(a_name)} wins: the Home Realm takes {a_str} − {d_str} = {dmg} damage "
                   f"({prior} already on it, {total} in all).", is_attacker_winner, home_realm_damage)
        out.eliminated = is_eliminated(total, corpus)
        limit = corpus.fact("ra.player-elimination", "elimination_damage")
        trace.step(f"{capital(d_name)} is eliminated: the Home Realm holds {total} damage, at least {limit}."
                   if out.eliminated else f"{capital(d_name)} stays in the game ({total} of {limit} damage).",
                   is_eliminated)
        if out.eliminated:
            _scenario_end(pos, out, trace)
        return
    state = city_state_after_capture(pos.scenario)
    out.city_state = state
    cites: list[Any] = [is_attacker_winner, "ra.conduct-a-siege.3.city"]
    if state == "exhausted":
        cites.append(city_state_after_capture)
    trace.step(f"{capital(a_name)} wins and secures {name}, which enters his play area {state}.", *cites)


def _scenario_end(pos: SiegePosition, out: SiegeOutcome, trace: Trace) -> None:
    """The defender is eliminated: what that does to the game (asked when not known)."""
    a_name, d_name, _ = _names(pos)
    out.scenario_end = settle_end(pos.scenario, pos.players_in_game, d_name, trace, last=a_name, least=2)


@rule("ra.conduct-a-siege.4")
def _end_of_combat(pos: SiegePosition, out: SiegeOutcome, trace: Trace) -> None:
    """Step 4, End of combat: wounded units are destroyed, the rest are discarded."""
    doomed = {"attacker": wounded_to_destroy(pos.attacker.army), "defender": wounded_to_destroy(pos.defender.army)}
    out.destroyed_at_end_of_combat = doomed
    if doomed["attacker"] or doomed["defender"]:
        trace.step("The wounded units counted at Resolution and are now destroyed: "
                   f"{listing(doomed['attacker'] + doomed['defender'])}.", wounded_to_destroy, "ra.conduct-a-siege.4")
    trace.step("End of combat: wounded units are destroyed; surviving units go to their owners' discard piles.",
               "ra.conduct-a-siege.4")


@situation("rune-age", "siege", SiegePosition, labels=LABELS)
@summarized(_summary)
def resolve_siege(pos: SiegePosition, trace: Trace, corpus: Corpus) -> SiegeOutcome:
    """Resolve a siege of a player-controlled city or Home Realm: both armies, ties, damage, elimination."""
    out = SiegeOutcome(home_realm_total=(pos.target.damage or 0) if pos.target.kind == "home_realm" else None)
    if not _declare(pos, out, trace, corpus):
        return out
    _assault(pos, trace)
    _strengths(pos, out, trace)
    _result(pos, out, trace, corpus)
    _end_of_combat(pos, out, trace)
    return out
