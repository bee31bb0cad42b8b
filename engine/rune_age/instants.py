"""Rune Age Instant Event cards that hit several players in turn: an attacking Instant, and Barbarian Invasion.

Paragraphs: ``ra.instant-event-cards`` (first player, then clockwise; where the card goes after),
``ra.event-cards-the-event-phase.home-realm-attacks`` and ``ra.conduct-a-battle.4.instant-repelled`` (each
player in turn fights the Instant), the errata'd Instant damage, elimination through the shared scenario end,
the co-op variant's one target (``rafaq.oa.scenarios.resurgence-of-the-dragonlords-co-op-variant.1``), A Time
for War's erratum (``rafaq.errata.cards.1``) and Barbarian Invasion's order and ties
(``rafaq.faq.scenarios.runewars.4`` and ``.5``). The card's printed text is not in the books: the players state
its strength, whether its effect lasts through the next round, and what Barbarian Invasion compares.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, labelled, maybe, refuse, refuse_repeats
from engine.rune_age.battle import MAX_STRENGTH, instant_damage, is_army_winner
from engine.rune_age.scenarios import (
    ENDS_LABEL,
    SCENARIO_NAMES,
    NamedScenario,
    ScenarioEnd,
    is_eliminated,
    scenario_end_field,
    settle_end,
)
from engine.rune_age.words import listing, plural, possessive

Name = Annotated[str, Field(max_length=80, min_length=1)]


class Defender(Model):
    """A player the Instant attacks, in turn order from the first player, and the army he fights it with."""

    model_config = ConfigDict(title="Player")

    player: str = Field(max_length=80, min_length=1, title="Player")
    home_realm_damage: int = Field(0, ge=0, le=MAX_STRENGTH, title="Damage already on his Home Realm")
    army_strength: int | None = maybe("His army's strength at Resolution against the Instant (left out: he has "
                                      "not fought it yet).", title="Army strength", ge=0, le=MAX_STRENGTH)


class InstantAttackPosition(OpenPosition):
    """An Instant Event card attacking every player's Home Realm in turn, and each player's battle against it."""

    game: Literal["rune-age"]
    situation: Literal["instant_attack"]
    scenario: NamedScenario
    instant: str = Field("the Instant", max_length=200, min_length=1, title="Instant card",
                         description="Its name as printed.")
    strength: int = Field(ge=0, le=MAX_STRENGTH, title="Instant's strength", description="As printed on the card.")
    lasts_next_round: bool = Field(False, title="Its effect lasts through the next round",
                                   description="As printed (A Time for War's effect does, by the errata).")
    co_op_variant: bool = Field(False, title="Resurgence of the Dragonlords co-op variant")
    players: list[Defender] = Field(min_length=1, max_length=4, title="Players, from the first player clockwise")

    @model_validator(mode="after")
    def _distinct(self) -> InstantAttackPosition:
        """Refuse a player listed twice."""
        refuse_repeats([p.player for p in self.players], "players[{i}].player", "player")
        return self

    def reading(self) -> list[str]:
        """Restate the scenario, the Instant and each player's damage and army."""
        out = [f"Scenario: {SCENARIO_NAMES[self.scenario]}" + (" (co-op variant)." if self.co_op_variant else "."),
               f"Instant: {self.instant}, strength {self.strength}"
               + (", its effect lasting through the next round." if self.lasts_next_round else ".")]
        for p in self.players:
            army = f"army strength {p.army_strength}" if p.army_strength is not None else "has not fought it yet"
            out.append(f"{p.player}: {p.home_realm_damage} damage on his Home Realm, {army}.")
        return out


CardPlace = Literal["event_discard", "beside_objective"]
PLACES = {"event_discard": "The Event discard pile", "beside_objective": "Beside the objective card"}


class InstantAttackOutcome(Outcome):
    """Who fought the Instant in which order, the damage each Home Realm took, and who is out."""

    fought: list[str] = Field(default_factory=list)
    repelled_by: list[str] = Field(default_factory=list)
    damage: dict[str, int] = Field(default_factory=dict)
    eliminated: list[str] = Field(default_factory=list)
    scenario_end: ScenarioEnd | None = scenario_end_field()
    card_goes_to: CardPlace | None = Field(None, exclude_if=lambda v: v is None)


LABELS: dict[str, Label] = {
    "fought": "Fought it, in order", "repelled_by": "Repelled by", "damage": "Home Realm damage taken",
    "eliminated": "Eliminated", "scenario_end": ENDS_LABEL, "card_goes_to": ("Afterwards the card goes to", PLACES),
}


def _summary(pos: InstantAttackPosition, out: InstantAttackOutcome, trace: Trace) -> str:
    """One sentence: who is still to fight, or the damage dealt and who is out."""
    pending = next((d for d in trace.decisions), None)
    if pending:
        return f"{pending.who} fights {pos.instant} next: his army's strength decides the damage."
    hurt = [f"{k} ({v} damage)" for k, v in out.damage.items() if v]
    first = f"{pos.instant} damages {listing(hurt)}" if hurt else f"Every player repels {pos.instant}"
    gone = f"; {listing(out.eliminated)} {'is' if len(out.eliminated) == 1 else 'are'} eliminated" \
        if out.eliminated else ""
    end = "; the game ends and all players lose" if out.scenario_end == "all_players_lose" else ""
    return f"{first}{gone}{end}."


@rule("ra.instant-event-cards", "rafaq.oa.scenarios.resurgence-of-the-dragonlords-co-op-variant.1")
def attack_order(players: list[str], co_op: bool) -> list[str]:
    """Return the players an Instant attacks, in order: the first player, then clockwise (one in the co-op
    variant)."""
    return players[:1] if co_op else list(players)


@rule("ra.instant-event-cards", "ra.event-cards-the-event-phase.home-realm-attacks",
      "rafaq.oa.scenarios.resurgence-of-the-dragonlords-co-op-variant.1")
def _order(pos: InstantAttackPosition, trace: Trace) -> list[Defender]:
    """The Instant is resolved at once, for the first player and then clockwise: return who fights it."""
    names = attack_order([p.player for p in pos.players], pos.co_op_variant)
    trace.step(f"{pos.instant} is resolved at once: it attacks each Home Realm in turn, starting with the first "
               f"player and going clockwise ({listing(names)}); each player defends by fighting a battle against it.",
               "ra.instant-event-cards", "ra.event-cards-the-event-phase.home-realm-attacks")
    if pos.co_op_variant and len(pos.players) > 1:
        trace.step("In the co-op variant an effect aimed at each player is aimed at one player only: "
                   f"{names[0]} alone fights it.", "rafaq.oa.scenarios.resurgence-of-the-dragonlords-co-op-variant.1")
    return [p for p in pos.players if p.player in names]


@rule("ra.conduct-a-battle.4.instant-repelled", "ra.player-elimination")
def _fight(pos: InstantAttackPosition, p: Defender, out: InstantAttackOutcome, trace: Trace,
           corpus: Corpus) -> bool:
    """One player's battle against the Instant: return whether play goes on to the next player."""
    army = p.army_strength or 0
    out.fought.append(p.player)
    if is_army_winner(army, pos.strength):
        out.repelled_by.append(p.player)
        out.damage[p.player] = 0
        trace.step(f"{p.player} ({army}) repels {pos.instant} ({pos.strength}): his Home Realm takes no damage, "
                   f"and the card moves on to the next player clockwise.", "ra.conduct-a-battle.4.instant-repelled",
                   is_army_winner)
        return True
    dmg = out.damage[p.player] = instant_damage(pos.strength, army)
    total = p.home_realm_damage + dmg
    trace.step(f"{pos.instant} ({pos.strength}) beats {possessive(p.player)} army ({army}): his Home Realm takes "
               f"{dmg} damage, {total} in all.", instant_damage)
    if not is_eliminated(total, corpus):
        return True
    out.eliminated.append(p.player)
    trace.step(f"{p.player} is eliminated: his Home Realm holds {total} damage.", is_eliminated)
    others = len(pos.players) - len(out.eliminated) + 1
    out.scenario_end = settle_end(pos.scenario, others, p.player, trace)
    return out.scenario_end not in ("all_players_lose", "last_player_wins", "solo_player_loses")


@rule("ra.instant-event-cards", "rafaq.errata.cards.1")
def _afterwards(pos: InstantAttackPosition, out: InstantAttackOutcome, trace: Trace) -> None:
    """The Instant resolved: it goes to the Event discard pile, or beside the objective while its effect lasts."""
    if pos.lasts_next_round:
        out.card_goes_to = "beside_objective"
        trace.step(f"Its effect lasts through the next round, so {pos.instant} stays beside the objective card as "
                   f"a reminder until that round ends (A Time for War, by its erratum, is such a card).",
                   "ra.instant-event-cards", "rafaq.errata.cards.1")
    else:
        out.card_goes_to = "event_discard"
        trace.step(f"{pos.instant} is resolved and goes to the Event discard pile.", "ra.instant-event-cards")


@situation("rune-age", "instant_attack", InstantAttackPosition, labels=LABELS)
@summarized(_summary)
@rule("ra.event-cards-the-event-phase.home-realm-attacks")
def resolve_instant_attack(pos: InstantAttackPosition, trace: Trace, corpus: Corpus) -> InstantAttackOutcome:
    """Resolve an Instant attacking the players in turn: each battle, the damage, eliminations, the card after."""
    out = InstantAttackOutcome()
    for p in _order(pos, trace):
        if p.army_strength is None:
            i = pos.players.index(p)
            trace.decide(p.player, f"the strength of the army he fights {pos.instant} with (its strength is "
                         f"{pos.strength})", "ra.event-cards-the-event-phase.home-realm-attacks",
                         options=list(range(0, max(pos.strength, 1) + 1)), field=f"players[{i}].army_strength")
            return out
        if not _fight(pos, p, out, trace, corpus):
            return out
    _afterwards(pos, out, trace)
    return out


# ------------------------------------------------------------------------------------- Barbarian Invasion

Compare = Literal["fewest", "most"]
COMPARES = {"fewest": "Those who destroyed the fewest gold cards",
            "most": "Those who destroyed the most gold cards"}


class Barbarian(Model):
    """A player facing Barbarian Invasion, in turn order from the first player, and the gold he destroys."""

    model_config = ConfigDict(title="Player")

    player: str = Field(max_length=80, min_length=1, title="Player")
    gold_in_hand: list[Annotated[int, Field(ge=1, le=3)]] = Field([], max_length=10, title="Gold cards in his hand",
                                                                  description="The value of each.")
    destroys: int | None = maybe("How many of those gold cards he destroys (left out: he has not chosen yet).",
                                 title="Gold cards he destroys", ge=0, le=10)


class BarbarianPosition(OpenPosition):
    """Barbarian Invasion (Runewars Event): each player in turn destroys gold from his hand; the card then hits
    the players its printed text names, stated here by what it compares."""

    game: Literal["rune-age"]
    situation: Literal["barbarian_invasion"]
    players: list[Barbarian] = Field(min_length=1, max_length=4, title="Players, from the first player clockwise")
    hits: Compare = Field("fewest", title="Then the card hits",
                          description="As printed on the card.", json_schema_extra=labelled(COMPARES))

    @model_validator(mode="after")
    def _valid(self) -> BarbarianPosition:
        """Refuse a player listed twice, or destroying more gold cards than he holds."""
        refuse_repeats([p.player for p in self.players], "players[{i}].player", "player")
        for i, p in enumerate(self.players):
            if p.destroys is not None and p.destroys > len(p.gold_in_hand):
                raise refuse(f"{p.player} holds {len(p.gold_in_hand)} gold cards and cannot destroy {p.destroys}",
                             f"players[{i}].destroys")
        return self

    def reading(self) -> list[str]:
        """Restate each player's gold in hand and what he destroys, and what the card compares."""
        out = [f"Then the card hits: {COMPARES[self.hits].lower()}."]
        for p in self.players:
            did = f"destroys {p.destroys}" if p.destroys is not None else "has not chosen yet"
            out.append(f"{p.player}: gold in hand {listing((str(g) for g in p.gold_in_hand), 'none')}; {did}.")
        return out


class BarbarianOutcome(Outcome):
    """The gold cards each player destroyed, and the players the card then hits in the order they resolve it."""

    destroyed_gold: dict[str, int] = Field(default_factory=dict)
    hit_in_order: list[str] = Field(default_factory=list)


BARBARIAN_LABELS: dict[str, Label] = {"destroyed_gold": "Gold cards destroyed", "hit_in_order": "Hit, in order"}


@rule("rafaq.faq.scenarios.runewars.5", "ra.instant-event-cards")
def tie_order(seats: list[str], values: dict[str, int], hits: str) -> list[str]:
    """Return the players the card hits (the fewest or the most gold cards destroyed), tied players in clockwise order
    from the first player."""
    best = (min if hits == "fewest" else max)(values.values())
    return [s for s in seats if values[s] == best]


def _barbarian_summary(pos: BarbarianPosition, out: BarbarianOutcome, trace: Trace) -> str:
    """One sentence: who chooses next, or whom the card then hits and in what order."""
    pending = next((d for d in trace.decisions), None)
    if pending:
        return f"{pending.who} chooses next how many gold cards from his hand to destroy; nobody goes twice."
    tied = " (tied: first player, then clockwise)" if len(out.hit_in_order) > 1 else ""
    return f"Barbarian Invasion then hits {listing(out.hit_in_order)}{tied}."


@rule("rafaq.faq.scenarios.runewars.4", "rafaq.faq.scenarios.runewars.5")
def _destroy_round(pos: BarbarianPosition, out: BarbarianOutcome, trace: Trace) -> bool:
    """From the first player clockwise, each player once destroys any gold cards from his hand: return whether
    every player has chosen."""
    trace.step("Barbarian Invasion: starting with the first player and going clockwise, each player may destroy "
               "any number of the gold cards in his hand, with one chance only.", "rafaq.faq.scenarios.runewars.4")
    for i, p in enumerate(pos.players):
        if p.destroys is None:
            trace.decide(p.player, "how many gold cards from his hand to destroy (his one chance)",
                         "rafaq.faq.scenarios.runewars.4", options=list(range(len(p.gold_in_hand) + 1)),
                         field=f"players[{i}].destroys")
            return False
        out.destroyed_gold[p.player] = p.destroys
        trace.step(f"{p.player} destroys {plural(p.destroys, 'gold card')}.", "rafaq.faq.scenarios.runewars.4")
    return True


@situation("rune-age", "barbarian_invasion", BarbarianPosition, labels=BARBARIAN_LABELS)
@summarized(_barbarian_summary)
def resolve_barbarian_invasion(pos: BarbarianPosition, trace: Trace, corpus: Corpus) -> BarbarianOutcome:
    """Resolve Barbarian Invasion: each player's one chance to destroy gold, then who it hits and in what order."""
    out = BarbarianOutcome()
    if not _destroy_round(pos, out, trace):
        return out
    out.hit_in_order = tie_order([p.player for p in pos.players], out.destroyed_gold, pos.hits)
    many = len(out.hit_in_order) > 1
    trace.step(f"The card then hits {COMPARES[pos.hits].lower()}: {listing(out.hit_in_order)}"
               + ("; being tied, they resolve it in clockwise order starting from the first player." if many else "."),
               tie_order)
    return out
