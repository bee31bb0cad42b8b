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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.common import GAME, Faction, Labels, Name, faction_name, names, plural, the_player
from engine.runewars.forms import Section

SIDES = ("attacker", "defender")
DuelSide = Literal["attacker", "defender"]
Action = Annotated[Literal["move", "heal", "train"], Labels({"move": "Move", "heal": "Heal", "train": "Train"})]
Trait = Annotated[Literal["weapon", "armor"], Labels({"weapon": "Weapon", "armor": "Armor"})]
TRAIT_HINT = "Weapon, Armor or neither (at most 1 Weapon and 1 Armor per hero per duel)."


class Reward(Model):
    """The Reward card a special icon is spent on."""

    name: str = Field(max_length=80, title="Reward card")
    trait: Trait | None = Field(None, title="Trait", description=TRAIT_HINT)
    damage: int = Field(0, ge=0, le=20, title="Damage dealt", description="The damage the card deals this round.")


class Prevent(Model):
    """A Reward card that prevents damage to this hero this round."""

    name: str = Field(max_length=80, title="Reward card")
    trait: Trait | None = Field(None, title="Trait", description=TRAIT_HINT)
    amount: int = Field(0, ge=0, le=20, title="Damage prevented",
                        description="The damage it prevents to this hero this round.")


class Play(Model):
    """The circle section a hero drew in a round, and how he spends its special icon."""

    card: Section = Field(title="Circle section drawn")
    special_use: Annotated[Literal["damage", "reward"], Labels({"damage": "The Hero card's damage",
                                                               "reward": "A Reward card"})] | None = Field(
        None, title="Special icon spent on", description="Deal the Hero card's 1 damage, or use a Reward card (not "
                                                         "both).")
    reward: Reward | None = maybe(title="Reward card used")
    prevent: Prevent | None = maybe(title="Reward card preventing damage")


class Hero(Model):
    """The enemy hero challenged."""

    model_config = ConfigDict(title="Defender")

    hero: Name = Field(title="Hero", description="The hero's name.")
    faction: Faction = Field(title="Controlled by")
    area: Name = Field(title="Area", description="The area the hero is in.")
    health: int = Field(ge=1, le=20, title="Health", description="The hero's health.",
                        json_schema_extra={"default": 4})
    damage: int = Field(0, ge=0, le=40, title="Damage on the Hero card",
                        description="Damage tokens already on the Hero card.")
    routed: bool = Field(False, title="Routed", description="Whether the hero is routed.")

    @model_validator(mode="after")
    def _standing(self) -> Self:
        if is_defeated(self.damage, self.health):
            raise refuse(f"hero {self.hero!r} already has {self.damage} damage and {self.health} health: a hero "
                         f"whose damage reaches his health is already defeated", "damage")
        return self

    @property
    def name(self) -> str:
        """Return the hero's name."""
        return self.hero


class Challenger(Hero):
    """The hero starting the duel."""

    model_config = ConfigDict(title="Attacker")

    action: Action = Field(
        "move", title="Quest Phase action", description="The action the hero took this Quest Phase.")
    attempted_quest: bool = Field(False, title="Attempted a quest",
                                  description="The hero already attempted a quest this Quest Phase.")


class StartDamage(Model):
    """Damage dealt to each hero by start-of-duel abilities (step 2)."""

    model_config = ConfigDict(title="Start-of-duel damage")

    attacker: int = Field(0, ge=0, le=20, title="To the attacker")
    defender: int = Field(0, ge=0, le=20, title="To the defender")


class Round(Model):
    """The circle section each hero drew in one round."""

    model_config = ConfigDict(title="Round")

    attacker: Play = Field(title="Attacker's card")
    defender: Play = Field(title="Defender's card")

    def play(self, side: str) -> Play:
        """Return one side's play."""
        return self.attacker if side == "attacker" else self.defender


class DuelPosition(OpenPosition):
    """A duel between two heroes in the summer Quest Phase, and the rounds drawn so far."""

    game: Literal["runewars"]
    situation: Literal["duel"]
    attacker: Challenger
    defender: Hero
    start_damage: StartDamage | None = maybe()
    rounds: list[Round] = Field([], max_length=4, title="Rounds",
                                description="Up to 4 rounds, each with the circle section each hero drew.")

    def reading(self) -> list[str]:
        """Both heroes (controller, area, health, damage, routed), the challenger's action, start-of-duel damage
        and each round's circle sections with how a special icon is spent."""
        att, dfd = self.attacker, self.defender
        out = [f"Attacker: {_hero_words(att)}; this Quest Phase he took the {att.action} action"
               + (" and already attempted a quest." if att.attempted_quest else "."),
               f"Defender: {_hero_words(dfd)}."]
        start = self.start_damage
        if start and (start.attacker or start.defender):
            out.append(f"Start-of-duel abilities deal {start.attacker} damage to {att.name} and {start.defender} to "
                       f"{dfd.name}.")
        for i, rnd in enumerate(self.rounds, 1):
            out.append(f"Round {i}: {att.name} draws {_play_words(rnd.attacker)}; {dfd.name} draws "
                       f"{_play_words(rnd.defender)}.")
        if not self.rounds:
            out.append("No round drawn yet.")
        return out


def _hero_words(h: Hero) -> str:
    state = f"health {h.health}" + (f", {plural(h.damage, 'damage token')} on his card" if h.damage else "")
    return (f"{h.name} ({faction_name(h.faction)}) in {h.area}, {state}" + (", routed" if h.routed else ""))


def _play_words(p: Play) -> str:
    c = p.card
    icons = [t for n, t in ((c.special, plural(c.special, "special icon")), (c.rout, f"rout {c.rout}"),
                            (c.damage, f"damage {c.damage}")) if n] or ["a miss"]
    text = ", ".join(icons)
    if p.special_use == "damage":
        text += ", the special spent on the Hero card's damage"
    elif p.special_use == "reward":
        text += f", the special spent on {p.reward.name if p.reward else 'a Reward card'}"
    if p.prevent:
        text += f", {p.prevent.name} preventing {p.prevent.amount}"
    return text


@rule("rw.damaging-and-defeating-heroes")
def is_defeated(damage: int, health: int) -> bool:
    """Return whether a hero is defeated: his damage equals or exceeds his health."""
    return damage >= health


@rule("rw.duels.3b", "rw.reward-cards-in-duels", "rw.duels.simultaneous-damage")
def damage_taken(incoming: int, prevented: int) -> int:
    """Return the damage a hero takes in a round: what the other dealt less what he prevents, never below 0."""
    return max(0, incoming - prevented)


@rule("rw.duels.3b", "rw.reward-cards-in-duels")
def damage_dealt(play: Play, corpus: Corpus) -> int:
    """Return the damage a hero deals in a round: the damage icon, plus 1 for a special spent on the Hero card's
    damage, or the Reward card's damage for a special spent on a Reward card."""
    icons = play.card
    extra = 0
    if icons.special and play.special_use == "damage":
        extra = int(corpus.fact("rw.reward-cards-in-duels", "special_ability_damage"))
    elif icons.special and play.special_use == "reward":
        extra = play.reward.damage if play.reward else 0
    return icons.damage + extra


@rule("rw.duels.3b")
def damage_prevented(play: Play) -> int:
    """Return the damage a hero prevents to himself this round: his rout number plus a preventing Reward card."""
    return play.card.rout + (play.prevent.amount if play.prevent else 0)


@rule("rw.damaging-and-defeating-heroes.duel", "rw.damaging-and-defeating-heroes.elsewhere", "rw.duels.4")
def rewards_go_to(defeated: Sequence[str]) -> Literal["attacker", "defender", "marker"] | None:
    """Return where the defeated heroes' Reward cards go: to the survivor's controller, or under defeated hero
    markers when both fall at once (None when nobody is defeated)."""
    if not defeated:
        return None
    if len(defeated) == 2:
        return "marker"
    return "defender" if defeated[0] == "attacker" else "attacker"


@rule("rw.duels.routed", "rw.term.routed", "rw.routed-units-and-heroes", "rw.quest-phase.move", "rw.quest-phase",
      "rw.duels", "rw.duels.no-quest-after-duel", "rw.attempting-and-completing-quests.limits", "rw.duels.1")
def _may_start(att: Challenger, dfd: Hero, trace: Trace) -> None:
    if att.routed:
        trace.violate(f"{att.name} is routed, and a routed hero cannot start a duel", "rw.duels.routed",
                      "rw.term.routed", "rw.routed-units-and-heroes")
    if att.action != "move":
        trace.violate(f"{att.name} took the {att.action} action; only a hero taking the move action may start a "
                      f"duel", "rw.quest-phase.move", "rw.quest-phase", "rw.duels")
    if att.attempted_quest:
        trace.violate(f"{att.name} already attempted a quest this Quest Phase, so he may not start a duel",
                      "rw.duels.no-quest-after-duel", "rw.attempting-and-completing-quests.limits")
    if att.area != dfd.area:
        trace.violate(f"{att.name} is in {att.area} and {dfd.name} in {dfd.area}; the defender must be an enemy hero "
                      f"in the attacker's area", "rw.duels.1")
    if att.faction == dfd.faction:
        trace.violate(f"both heroes serve {faction_name(att.faction)}; a duel is fought against an enemy hero",
                      "rw.duels.1",
                      "rw.duels")


@rule("rw.duels.3b", "rw.reward-cards-in-duels")
def _check_plays(rounds: Sequence[Round], trace: Trace) -> None:
    """Refuse a special spent without a special icon, and a second Weapon or Armor card in the duel."""
    used: dict[tuple[str, str], str] = {}
    for i, rnd in enumerate(rounds):
        for side in SIDES:
            play = rnd.play(side)
            if not play.card.special and (play.special_use or play.reward):
                trace.violate(f"round {i + 1}: the {side} uses a special ability but his card shows no special "
                              f"icon in its circle section", "rw.duels.3b", "rw.reward-cards-in-duels")
            for card in (play.reward, play.prevent):
                if not card or not card.trait:
                    continue
                key = (side, card.trait)
                if used.setdefault(key, card.name) != card.name:
                    trace.violate(f"the {side} uses 2 {card.trait.capitalize()} Reward cards ({used[key]} and "
                                  f"{card.name}) in one duel; at most 1 Weapon and 1 Armor", "rw.reward-cards-in-duels")


LABELS: dict[str, Label] = {
    "rounds_played": "Rounds played", "damage": "Damage on each hero", "defeated": "Defeated",
    "rewards_to": ("Reward cards go to", {"attacker": "The attacker's controller",
                                          "defender": "The defender's controller",
                                          "marker": "Under defeated hero markers"}),
    "finished": "Duel over",
}


class HeroDamage(Outcome):
    """The damage on each Hero card."""

    attacker: int
    defender: int


class DuelOutcome(Outcome):
    """The rounds played, each hero's damage, who falls and where the Reward cards go."""

    rounds_played: int = 0
    damage: HeroDamage
    defeated: list[str] = Field(default_factory=list)
    rewards_to: Literal["attacker", "defender", "marker"] | None = None
    finished: bool = False


@dataclass
class Duel:
    """The duel as the rounds go: both heroes, their damage, the rounds played and who has fallen."""

    att: Challenger
    dfd: Hero
    damage: dict[str, int]
    total_rounds: int
    played: int = 0
    fallen: list[str] = field(default_factory=list)

    def hero(self, side: str) -> Hero:
        """Return one side's hero."""
        return self.att if side == "attacker" else self.dfd

    def check_fallen(self) -> None:
        """Note the heroes whose damage reaches their health."""
        self.fallen = [s for s in SIDES if is_defeated(self.damage[s], self.hero(s).health)]


@rule("rw.duels", "rw.duels.1", "rw.quest-phase.move", "rw.duels.routed")
def _challenge(duel: Duel, trace: Trace) -> None:
    """Step 1: the hero who moved challenges an enemy hero in his area (a routed defender fights as standing)."""
    att, dfd = duel.att, duel.dfd
    trace.step(f"In the Quest Phase {att.name} ({faction_name(att.faction)}), having moved, challenges {dfd.name} "
               f"({faction_name(dfd.faction)}) in {att.area}: up to {duel.total_rounds} rounds, 1 Fate card each, "
               "circle section.", "rw.duels",
               "rw.duels.1", "rw.quest-phase.move", *(["rw.duels.routed"] if dfd.routed else []))
    if dfd.routed:
        trace.step(f"{dfd.name} is routed but fights the duel as if standing.", "rw.duels.routed")


@rule("rw.duels.2")
def _start_of_duel(duel: Duel, start: StartDamage | None, trace: Trace) -> None:
    """Step 2: start-of-duel abilities deal their damage."""
    if start is None or not (start.attacker or start.defender):
        return
    duel.damage["attacker"] += start.attacker
    duel.damage["defender"] += start.defender
    trace.step(f"Start of duel: abilities deal {start.attacker} damage to {duel.att.name} and "
               f"{start.defender} to {duel.dfd.name}.", "rw.duels.2")


@rule("rw.duels.3", "rw.duels.3b", "rw.duels.simultaneous-damage", "rw.reward-cards-in-duels")
def _round(duel: Duel, i: int, rnd: Round, trace: Trace, corpus: Corpus) -> None:
    """Step 3: one round's damage, dealt at the same time (less what each hero prevents)."""
    att, dfd, damage = duel.att, duel.dfd, duel.damage
    dealt = {s: damage_dealt(rnd.play(s), corpus) for s in SIDES}
    taken = {s: damage_taken(dealt[_other(s)], damage_prevented(rnd.play(s))) for s in SIDES}
    for s in SIDES:
        damage[s] += taken[s]
    duel.played = i + 1
    trace.step(f"Round {i + 1}: {att.name} deals {dealt['attacker']} and {dfd.name} deals {dealt['defender']}; "
               f"after prevention {att.name} takes {taken['attacker']} ({damage['attacker']}/{att.health}) and "
               f"{dfd.name} takes {taken['defender']} ({damage['defender']}/{dfd.health}), at the same time.",
               "rw.duels.3", "rw.duels.3b", "rw.duels.simultaneous-damage",
               *(["rw.reward-cards-in-duels"] if any(rnd.play(s).reward or rnd.play(s).prevent
                                                     for s in SIDES) else []))
    duel.check_fallen()


@rule("rw.reward-cards-in-duels", "rw.duels.3b")
def _rounds(duel: Duel, rounds: Sequence[Round], trace: Trace, corpus: Corpus) -> bool:
    """Step 3 and 4: the rounds, until a hero falls or a special icon's use is open; return False on a violation."""
    live = list(rounds[:duel.total_rounds])
    for i, rnd in enumerate(live):
        if duel.fallen:
            break
        _check_plays(live[: i + 1], trace)
        if trace.violations:
            return False
        open_ = [s for s in SIDES if rnd.play(s).card.special and rnd.play(s).special_use is None]
        for s in open_:
            hero = duel.hero(s)
            trace.decide(the_player(hero.faction), f"how {hero.name} spends the special icon of round {i + 1}: "
                         f"the Hero "
                         f"card's 1 damage or a Reward card", "rw.reward-cards-in-duels", "rw.duels.3b",
                         options=["damage", "reward"], field=f"rounds[{i}].{s}.special_use")
        if open_:
            break
        _round(duel, i, rnd, trace, corpus)
    return True


@rule("rw.duels.4", "rw.duels.simultaneous-damage")
def _defeat(duel: Duel, trace: Trace) -> None:
    """Step 4: the duel ends after the round a hero falls; his Reward cards go to the survivor's controller, or
    under defeated hero markers when both fall."""
    att, dfd, fallen, damage = duel.att, duel.dfd, duel.fallen, duel.damage
    who = names([duel.hero(s).name for s in fallen])
    when = f"in round {duel.played}" if duel.played else "to start-of-duel damage, before any round"
    trace.step(f"{who} {'is' if len(fallen) == 1 else 'are'} defeated {when} (damage reaches health); the duel "
               f"ends.", is_defeated, "rw.duels.4")
    if len(fallen) == 2:
        trace.step("Both heroes fall at once: each one's Reward cards are set beside the board under a defeated "
                   "hero marker.", rewards_go_to, "rw.duels.simultaneous-damage")
        trace.summarize(f"Both {att.name} and {dfd.name} fall {when}: their Reward cards go under "
                        f"defeated hero markers")
        return
    win = duel.hero(_other(fallen[0]))
    trace.step(f"{win.name}'s controller ({the_player(win.faction)}) takes all of {who}'s Reward cards.", rewards_go_to)
    trace.summarize(f"{who} is defeated {when} ({damage[fallen[0]]} damage, health "
                    f"{duel.hero(fallen[0]).health}) and the {faction_name(win.faction)} player takes his "
                    f"Reward cards")


@rule("rw.duels.4")
def _standing(duel: Duel, trace: Trace) -> None:
    """No hero fell: the damage stays after 4 rounds, or the duel goes on."""
    att, dfd, damage, total = duel.att, duel.dfd, duel.damage, duel.total_rounds
    if duel.played == total:
        trace.step(f"After {total} rounds both heroes stand: the damage stays on their Hero cards and "
                   "neither has to retreat.", "rw.duels.4")
        trace.summarize(f"No hero falls in {total} rounds: {att.name} ends with {damage['attacker']} damage, "
                        f"{dfd.name} with {damage['defender']}")
    else:
        trace.summarize(f"After {duel.played} of {total} rounds {att.name} has {damage['attacker']} damage and "
                        f"{dfd.name} {damage['defender']}; the duel goes on")


@situation(GAME, "duel", DuelPosition, labels=LABELS)
def resolve_duel(pos: DuelPosition, trace: Trace, corpus: Corpus) -> DuelOutcome:
    """Resolve a duel between two heroes: may it start, the damage of each round, who falls, where rewards go."""
    att, dfd = pos.attacker, pos.defender
    out = DuelOutcome(damage=HeroDamage(attacker=att.damage, defender=dfd.damage))
    _may_start(att, dfd, trace)
    if trace.violations:
        return out
    duel = Duel(att, dfd, {"attacker": att.damage, "defender": dfd.damage}, int(corpus.fact("rw.duels.3", "rounds")))
    _challenge(duel, trace)
    _start_of_duel(duel, pos.start_damage, trace)
    duel.check_fallen()
    if not _rounds(duel, pos.rounds, trace, corpus):
        return out
    out.rounds_played, out.defeated = duel.played, duel.fallen
    out.damage = HeroDamage(attacker=duel.damage["attacker"], defender=duel.damage["defender"])
    out.rewards_to = rewards_go_to(duel.fallen)
    out.finished = bool(duel.fallen) or duel.played == duel.total_rounds
    if trace.decisions:
        trace.summarize(f"After {plural(duel.played, 'round')} {att.name} has {duel.damage['attacker']} damage and "
                        f"{dfd.name} {duel.damage['defender']}; the next round waits for how a special icon is spent")
    elif duel.fallen:
        _defeat(duel, trace)
    else:
        _standing(duel, trace)
    return out


def _other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"
