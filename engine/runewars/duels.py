"""Runewars duels between two heroes in the summer Quest Phase: who may start one, four rounds, defeat and rewards.

Paragraphs: ``rw.duels`` with its steps ``.1`` (one enemy hero in the same area), ``.2`` (start-of-duel
abilities), ``.3``/``.3a``/``.3b`` (4 rounds, 1 Fate card each, circle section: a special deals 1 damage or uses a
Reward card, a rout number prevents that much damage to one's own hero this round, a damage number is dealt),
``.simultaneous-damage``, ``.4`` (the duel stops after the round a hero falls), ``.routed`` (a routed hero cannot
start a duel but fights one as standing) and ``.no-quest-after-duel``; ``rw.quest-phase`` / ``.move`` (a duel
follows a move action); ``rw.reward-cards-in-duels`` (at most 1 Weapon and 1 Armor per duel; a special is either
the Hero card's 1 damage or a Reward card, not both); ``rw.damaging-and-defeating-heroes`` with ``.duel`` (the
survivor's controller takes the loser's Reward cards) and ``.elsewhere`` (both fall: under defeated hero markers).

What a Reward card does is printed on the card: positions state the damage a Reward card deals (``reward.damage``)
or prevents (``prevent.amount``). Prevention never takes damage below 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars.common import FACTIONS, GAME, NAME, faction_name, names
from engine.runewars.forms import doc, read_section, record, section
from engine.schema import BOOL, arr, enum, integer, nullable, obj

SIDES = ("attacker", "defender")
TRAIT = doc(enum("weapon", "armor", None), "Trait", "Weapon, Armor or neither (at most 1 Weapon and 1 Armor "
            "per hero per duel).", None)
REWARD = doc(obj(["name"], name=doc(NAME, "Reward card"), trait=TRAIT,
                 damage=doc(integer(0, 20), "Damage dealt", "The damage the card deals this round.", 0)),
             "Reward card used", "The Reward card a special icon is spent on.")
PREVENT = doc(obj(["name"], name=doc(NAME, "Reward card"), trait=TRAIT,
                  amount=doc(integer(0, 20), "Damage prevented", "The damage it prevents to this hero this round.",
                             0)),
              "Reward card preventing damage", "A Reward card that prevents damage to this hero this round.")
PLAY = obj(["card"], card=section("Circle section drawn"),
           special_use=doc(nullable(enum("damage", "reward")), "Special icon spent on", "Deal the Hero card's 1 "
                           "damage, or use a Reward card (not both).", None),
           reward=REWARD, prevent=PREVENT)
REQUIRED = ("hero", "faction", "area", "health")
HERO = {
    "hero": doc(NAME, "Hero", "The hero's name."),
    "faction": doc(enum(*FACTIONS), "Controlled by"),
    "area": doc(NAME, "Area", "The area the hero is in."),
    "health": doc(integer(1, 20), "Health", "The hero's health.", 4),
    "damage": doc(integer(0, 40), "Damage on the Hero card", "Damage tokens already on the Hero card.", 0),
    "routed": doc(BOOL, "Routed", "Whether the hero is routed.", False),
}
ATTACKER = doc(record({**HERO,
                       "action": doc(enum("move", "heal", "train"), "Quest Phase action", "The action the hero took "
                                     "this Quest Phase.", "move"),
                       "attempted_quest": doc(BOOL, "Attempted a quest", "The hero already attempted a quest this "
                                              "Quest Phase.", False)}, REQUIRED),
               "Attacker", "The hero starting the duel.")
DEFENDER = doc(record(HERO, REQUIRED), "Defender", "The enemy hero challenged.")
SCHEMA: dict[str, Any] = obj(
    ["attacker", "defender"], extra=True,
    attacker=ATTACKER,
    defender=DEFENDER,
    start_damage=doc(obj(attacker=doc(integer(0, 20), "To the attacker", default=0),
                         defender=doc(integer(0, 20), "To the defender", default=0)),
                     "Start-of-duel damage", "Damage dealt to each hero by start-of-duel abilities (step 2)."),
    rounds=doc(arr(doc(obj(["attacker", "defender"], attacker=doc(PLAY, "Attacker's card"),
                           defender=doc(PLAY, "Defender's card")), "Round"), max_items=4),
               "Rounds", "Up to 4 rounds, each with the circle section each hero drew.", []),
)


@dataclass(frozen=True)
class Hero:
    """A duelling hero: name, faction, area, health and damage already taken."""

    name: str
    faction: str
    area: str
    health: int
    damage: int
    routed: bool

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Hero:
        """Read a hero of the position."""
        return cls(str(raw["hero"]), raw["faction"], str(raw["area"]), int(raw["health"]),
                   int(raw.get("damage") or 0), bool(raw.get("routed", False)))


@rule("rw.damaging-and-defeating-heroes")
def is_defeated(damage: int, health: int) -> bool:
    """Return whether a hero is defeated: his damage equals or exceeds his health."""
    return damage >= health


@rule("rw.duels.3b", "rw.reward-cards-in-duels", "rw.duels.simultaneous-damage")
def damage_taken(incoming: int, prevented: int) -> int:
    """Return the damage a hero takes in a round: what the other dealt less what he prevents, never below 0."""
    return max(0, incoming - prevented)


@rule("rw.duels.3b", "rw.reward-cards-in-duels")
def damage_dealt(play: Mapping[str, Any], corpus: Corpus) -> int:
    """Return the damage a hero deals in a round: the damage icon, plus 1 for a special spent on the Hero card's
    damage, or the Reward card's damage for a special spent on a Reward card."""
    icons = read_section(play["card"])
    use = play.get("special_use")
    extra = 0
    if icons["special"] and use == "damage":
        extra = int(corpus.fact("rw.reward-cards-in-duels", "special_ability_damage"))
    elif icons["special"] and use == "reward":
        extra = int((play.get("reward") or {}).get("damage") or 0)
    return icons["damage"] + extra


@rule("rw.duels.3b")
def damage_prevented(play: Mapping[str, Any]) -> int:
    """Return the damage a hero prevents to himself this round: his rout number plus a preventing Reward card."""
    return read_section(play["card"])["rout"] + int((play.get("prevent") or {}).get("amount") or 0)


@rule("rw.damaging-and-defeating-heroes.duel", "rw.damaging-and-defeating-heroes.elsewhere", "rw.duels.4")
def rewards_go_to(defeated: Sequence[str]) -> str | None:
    """Return where the defeated heroes' Reward cards go: to the survivor's controller, or under defeated hero
    markers when both fall at once (None when nobody is defeated)."""
    if not defeated:
        return None
    if len(defeated) == 2:
        return "marker"
    return "defender" if defeated[0] == "attacker" else "attacker"


def _may_start(att: Hero, dfd: Hero, raw: Mapping[str, Any], trace: Trace) -> None:
    if att.routed:
        trace.violate(f"{att.name} is routed, and a routed hero cannot start a duel", "rw.duels.routed",
                      "rw.term.routed", "rw.routed-units-and-heroes")
    if raw.get("action", "move") != "move":
        trace.violate(f"{att.name} took the {raw['action']} action; only a hero taking the move action may start a "
                      f"duel", "rw.quest-phase.move", "rw.quest-phase", "rw.duels")
    if raw.get("attempted_quest"):
        trace.violate(f"{att.name} already attempted a quest this Quest Phase, so he may not start a duel",
                      "rw.duels.no-quest-after-duel", "rw.attempting-and-completing-quests.limits")
    if att.area != dfd.area:
        trace.violate(f"{att.name} is in {att.area} and {dfd.name} in {dfd.area}; the defender must be an enemy hero "
                      f"in the attacker's area", "rw.duels.1")
    if att.faction == dfd.faction:
        trace.violate(f"both heroes serve {att.faction}; a duel is fought against an enemy hero", "rw.duels.1",
                      "rw.duels")


def _check_plays(rounds: Sequence[Mapping[str, Any]], trace: Trace) -> None:
    """Refuse a special spent without a special icon, and a second Weapon or Armor card in the duel."""
    used: dict[tuple[str, str], str] = {}
    for i, rnd in enumerate(rounds):
        for side in SIDES:
            play = rnd[side]
            if not read_section(play["card"])["special"] and (play.get("special_use") or play.get("reward")):
                trace.violate(f"round {i + 1}: the {side} uses a special ability but his card shows no special "
                              f"icon in its circle section", "rw.duels.3b", "rw.reward-cards-in-duels")
            for card in (play.get("reward"), play.get("prevent")):
                if not card or not card.get("trait"):
                    continue
                key = (side, card["trait"])
                if used.setdefault(key, card["name"]) != card["name"]:
                    trace.violate(f"the {side} uses 2 {card['trait']} Reward cards ({used[key]} and {card['name']}) "
                                  f"in one duel; at most 1 weapon and 1 armor", "rw.reward-cards-in-duels")


LABELS: dict[str, Label] = {
    "rounds_played": "Rounds played", "damage": "Damage on each hero", "defeated": "Defeated",
    "rewards_to": ("Reward cards go to", {"attacker": "The attacker's controller",
                                          "defender": "The defender's controller",
                                          "marker": "Under defeated hero markers"}),
    "finished": "Duel over",
}


@situation(GAME, "duel", SCHEMA, labels=LABELS)
def resolve_duel(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve a duel between two heroes: may it start, the damage of each round, who falls, where rewards go."""
    heroes = {s: Hero.from_json(pos[s]) for s in SIDES}
    for s, h in heroes.items():
        if is_defeated(h.damage, h.health):
            raise UnreadableInputError(f"hero {h.name!r} already has {h.damage} damage and {h.health} health: a hero "
                                       f"whose damage reaches his health is already defeated", path=f"{s}.damage")
    att, dfd = heroes["attacker"], heroes["defender"]
    out: dict[str, Any] = {"rounds_played": 0, "damage": {s: heroes[s].damage for s in SIDES}, "defeated": [],
                           "rewards_to": None, "finished": False}
    _may_start(att, dfd, pos["attacker"], trace)
    if trace.violations:
        return out
    total_rounds = int(corpus.fact("rw.duels.3", "rounds"))
    rounds = list(pos.get("rounds") or [])
    trace.step(f"In the Quest Phase {att.name} ({att.faction}), having moved, challenges {dfd.name} ({dfd.faction}) "
               f"in {att.area}: up to {total_rounds} rounds, 1 Fate card each, circle section.", "rw.duels",
               "rw.duels.1", "rw.quest-phase.move", *(["rw.duels.routed"] if dfd.routed else []))
    if dfd.routed:
        trace.step(f"{dfd.name} is routed but fights the duel as if standing.", "rw.duels.routed")
    damage = dict(out["damage"])
    start = pos.get("start_damage") or {}
    if any(start.get(s) for s in SIDES):
        for s in SIDES:
            damage[s] += int(start.get(s) or 0)
        trace.step(f"Start of duel: abilities deal {start.get('attacker', 0)} damage to {att.name} and "
                   f"{start.get('defender', 0)} to {dfd.name}.", "rw.duels.2")
    played = 0
    fallen = [s for s in SIDES if is_defeated(damage[s], heroes[s].health)]
    live = rounds[:total_rounds]
    for i, rnd in enumerate(live):
        if fallen:
            break
        _check_plays(live[: i + 1], trace)
        if trace.violations:
            return out
        open_ = [s for s in SIDES if read_section(rnd[s]["card"])["special"] and rnd[s].get("special_use") is None]
        for s in open_:
            trace.decide(heroes[s].faction, f"how {heroes[s].name} spends the special icon of round {i + 1}: the Hero "
                         f"card's 1 damage or a Reward card", "rw.reward-cards-in-duels", "rw.duels.3b",
                         options=["damage", "reward"], field=f"rounds[{i}].{s}.special_use")
        if open_:
            break
        dealt = {s: damage_dealt(rnd[s], corpus) for s in SIDES}
        taken = {s: damage_taken(dealt[_other(s)], damage_prevented(rnd[s])) for s in SIDES}
        for s in SIDES:
            damage[s] += taken[s]
        played = i + 1
        trace.step(f"Round {i + 1}: {att.name} deals {dealt['attacker']} and {dfd.name} deals {dealt['defender']}; "
                   f"after prevention {att.name} takes {taken['attacker']} ({damage['attacker']}/{att.health}) and "
                   f"{dfd.name} takes {taken['defender']} ({damage['defender']}/{dfd.health}), at the same time.",
                   "rw.duels.3", "rw.duels.3b", "rw.duels.simultaneous-damage",
                   *(["rw.reward-cards-in-duels"] if any(rnd[s].get("reward") or rnd[s].get("prevent")
                                                         for s in SIDES) else []))
        fallen = [s for s in SIDES if is_defeated(damage[s], heroes[s].health)]
    out.update(rounds_played=played, damage=damage, defeated=fallen, rewards_to=rewards_go_to(fallen))
    out["finished"] = bool(fallen) or played == total_rounds
    if trace.decisions:
        trace.summarize(f"After {played} round(s) {att.name} has {damage['attacker']} damage and {dfd.name} "
                        f"{damage['defender']}; the next round waits for how a special icon is spent")
        return out
    if fallen:
        who = names([heroes[s].name for s in fallen])
        when = f"in round {played}" if played else "to start-of-duel damage, before any round"
        trace.step(f"{who} {'is' if len(fallen) == 1 else 'are'} defeated {when} (damage reaches health); the duel "
                   f"ends.", is_defeated, "rw.duels.4")
        if len(fallen) == 2:
            trace.step("Both heroes fall at once: each one's Reward cards are set beside the board under a defeated "
                       "hero marker.", rewards_go_to, "rw.duels.simultaneous-damage")
            trace.summarize(f"Both {att.name} and {dfd.name} fall {when}: their Reward cards go under "
                            f"defeated hero markers")
        else:
            win = heroes[_other(fallen[0])]
            trace.step(f"{win.name}'s controller ({win.faction}) takes all of {who}'s Reward cards.", rewards_go_to)
            trace.summarize(f"{who} is defeated {when} ({damage[fallen[0]]} damage, health "
                            f"{heroes[fallen[0]].health}) and the {faction_name(win.faction)} player takes his "
                            f"Reward cards")
        return out
    if played == total_rounds:
        trace.step(f"After {total_rounds} rounds both heroes stand: the damage stays on their Hero cards and "
                   "neither has to retreat.", "rw.duels.4")
        trace.summarize(f"No hero falls in {total_rounds} rounds: {att.name} ends with {damage['attacker']} damage, "
                        f"{dfd.name} with {damage['defender']}")
    else:
        trace.summarize(f"After {played} of {total_rounds} rounds {att.name} has {damage['attacker']} damage and "
                        f"{dfd.name} {damage['defender']}; the duel goes on")
    return out


def _other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"
