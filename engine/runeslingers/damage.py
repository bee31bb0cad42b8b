"""Runeslingers damage: basic, direct and pierce damage, health loss, blocking and defense cards.

Paragraphs: ``rs.damage`` and its types, ``rs.health-loss`` (with Eva's example), the power loss on 0 health,
``rs.blocking-damage`` and the blocking advanced rules, ``rs.damage.defense-cards``.

"Block: yes" needs no number: an unstated ``block.value`` is the blocking Runeslinger's ``block_value`` (the target's,
or the defense card controller's), else the usual printed starting value, 4
(``rs.blocking-advanced-rules.block-value``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runeslingers.ailments import areas_in_use
from engine.runeslingers.common import (
    GAME,
    AilmentCounts,
    Determination,
    Power,
    Standing,
    ailment_words,
    is_defeated,
    record_power_loss,
    standing_words,
)
from engine.runeslingers.hits import (
    BlockTrigger,
    OnHitAilment,
    apply_on_hit,
    hit_clause,
    in_order,
    no_hit,
    resolve_block_triggers,
)

DamageType = Literal["basic", "direct", "pierce", "health_loss"]
TYPE_RULE = {"basic": "rs.damage.basic", "direct": "rs.damage.direct", "pierce": "rs.damage.pierce",
             "health_loss": "rs.health-loss"}


def _health_fits(health: int | None, max_health: int | None) -> None:
    """Refuse health above the current maximum: it cannot happen."""
    if health is not None and max_health is not None and health > max_health:
        raise refuse(f"health {health} is above max_health {max_health}; health can never exceed its current "
                     "maximum", "health")


class Controller(Model):
    """The Runeslinger controlling the defense card: its health track, power and block value."""

    model_config = ConfigDict(title="Runeslinger")

    name: str | None = maybe(max_length=200)
    health: int = Field(ge=1, le=999)
    max_health: int = Field(ge=1, le=999)
    power: Power
    determination: Determination | None = maybe()
    block_value: int | None = maybe(ge=0, le=999)

    @model_validator(mode="after")
    def _fits(self) -> Controller:
        _health_fits(self.health, self.max_health)
        return self


class DamageTarget(Model):
    """What the damage is dealt to: a Runeslinger (health, power) or a defense card (defense)."""

    model_config = ConfigDict(title="Target")

    kind: Literal["runeslinger", "defense_card"]
    name: str | None = maybe(max_length=200)
    health: int | None = maybe(ge=1, le=999)
    max_health: int | None = maybe(ge=1, le=999)
    power: Power | None = maybe()
    determination: Determination | None = maybe()
    defense: int | None = maybe(ge=1, le=999)
    controller: Controller | None = maybe()
    block_value: int | None = maybe(ge=0, le=999)
    damage_this_turn: int = Field(0, ge=0, le=999, title="Damage already this turn",
                                  description="Defense card: damage already dealt to it this turn (its defense is "
                                              "reduced until the Discard Phase); defense is then its full value.")
    ailments: AilmentCounts | None = maybe("Runeslinger: the exposed ailments already on it (for ailments the damage "
                                           "applies on a hit), e.g. {\"burn\": 2}; none when absent.",
                                           title="Ailments on it")
    concealed: AilmentCounts | None = maybe("Runeslinger: ailments under its boons; none when absent.",
                                            title="Ailments under boons")
    boons: int | None = maybe("Runeslinger: boons on its ailment areas (each holds an area); none when absent.",
                              title="Boons on ailment areas", ge=0, le=4)

    @model_validator(mode="after")
    def _complete(self) -> DamageTarget:
        needed = ("health", "max_health", "power") if self.kind == "runeslinger" else ("defense",)
        for key in needed:
            if getattr(self, key) is None:
                raise refuse(f"missing field {key!r}", key)
        _health_fits(self.health, self.max_health)
        if self.defense is not None and self.kind == "defense_card" and self.damage_this_turn >= self.defense:
            raise refuse(f"damage_this_turn {self.damage_this_turn} reaches the card's defense {self.defense}: it "
                         "would already have been destroyed this turn", "damage_this_turn")
        exposed = {str(k): n for k, n in (self.ailments or {}).items()}
        hidden = {str(k): n for k, n in (self.concealed or {}).items()}
        if areas_in_use(exposed, hidden, self.boons or 0) > 4:
            raise refuse(f"{areas_in_use(exposed, hidden, self.boons or 0)} ailment areas in use (exposed types and "
                         "boons); a Runeslinger has 4", "ailments")
        return self


class BlockDeclared(Model):
    """A block declared against this damage, and any barrier already on the target.

    A declared block's value defaults to the blocking Runeslinger's block value (target.block_value, or the
    controller's for a defense card), else the usual printed starting value (4): a player can say "Block: yes".
    """

    model_config = ConfigDict(title="Block")

    declared: bool | None = maybe()
    value: int | None = maybe(ge=0, le=99)
    already_blocked_this_turn: bool | None = maybe()
    barrier: int | None = maybe(ge=0, le=999)
    timing: Literal["before_damage", "after_damage"] | None = maybe()


class DamagePosition(OpenPosition):
    """Damage or health loss dealt to a Runeslinger or a defense card, and any block against it."""

    game: Literal["runeslingers"]
    situation: Literal["damage"]
    target: DamageTarget
    amount: int = Field(ge=0, le=999)
    damage_type: DamageType
    block: BlockDeclared | None = maybe()
    source_is_enemy: bool | None = maybe()
    on_hit: list[OnHitAilment] = Field(
        default_factory=list, max_length=6, title="Ailments on a hit",
        description="Ailments the damage effect applies if it hits (deals at least 1 damage to the Runeslinger), "
                    "in the order printed; none when empty.")
    block_triggers: list[BlockTrigger] = Field(
        default_factory=list, max_length=8, title="Block triggers",
        description="Effects that trigger when the block is declared, each as the change it makes to the block "
                    "value (+2, -1); they resolve before the barrier is worked out. None when empty.")

    @model_validator(mode="after")
    def _hits_readable(self) -> DamagePosition:
        if self.on_hit and self.damage_type == "health_loss":
            raise refuse("health loss is not damage and never hits, so it applies no ailment on a hit", "on_hit")
        if self.block_triggers and self.block is not None and self.block.declared is False:
            raise refuse("effects that trigger on a block need a declared block; this damage is not blocked",
                         "block_triggers")
        return self

    def reading(self) -> list[str]:
        """The target with its numbers, the incoming damage and the block."""
        t, b = self.target, self.block or BlockDeclared()
        name = t.name or "the target"
        called = f"{t.name}, a" if t.name else "a"
        if t.kind == "runeslinger":
            value = "" if t.block_value is None else f", block value {t.block_value}"
            out = [f"Target: {called} Runeslinger with {t.health} of {t.max_health} health, "
                   f"{standing_words(t.power or 0, t.determination)}{value}."]
        else:
            already = f" ({t.damage_this_turn} damage already this turn)" if t.damage_this_turn else ""
            out = [f"Target: {called} defense card with defense {t.defense}{already}."]
            if t.controller:
                c = t.controller
                value = "" if c.block_value is None else f", block value {c.block_value}"
                out.append(f"Its controller: {c.name or 'a Runeslinger'}, with {c.health} of {c.max_health} health, "
                           f"{standing_words(c.power, c.determination)}{value}.")
        kind = f"{self.amount} health loss" if self.damage_type == "health_loss" else \
            f"{self.amount} {self.damage_type} damage"
        source = {True: ", from an enemy", False: ", from the target's own side", None: ""}[self.source_is_enemy]
        out.append(f"Incoming: {kind}{source}.")
        if b.declared is True:
            value = "its printed block value" if b.value is None else f"block value {b.value}"
            when = " after the damage" if b.timing == "after_damage" else ""
            out.append(f"Block: {name}'s player blocks{when}, with {value}.")
        elif b.declared is False:
            out.append(f"Block: {name}'s player does not block.")
        else:
            out.append("Block: not decided yet.")
        if b.barrier:
            out.append(f"A block barrier of {b.barrier} is already on the target.")
        if b.already_blocked_this_turn:
            out.append("That player has already blocked this turn.")
        return out + self._hit_reading()

    def _hit_reading(self) -> list[str]:
        """The block triggers, the ailments applied on a hit and those already on the target."""
        out = []
        if self.block_triggers:
            out.append("Effects triggered by the block change its value by "
                       f"{', '.join(f'{c:+d}' for c in self.block_triggers)}.")
        if self.on_hit:
            words = in_order({e.ailment: e.instances for e in self.on_hit})
            out.append(f"On a hit the damage applies {words}.")
            t = self.target
            if t.kind == "runeslinger":
                out.append(f"Ailments already on the target: {ailment_words(t.ailments)}"
                           + (f"; {t.boons} boons on its ailment areas" if t.boons else "")
                           + (f"; under boons: {ailment_words(t.concealed)}" if t.concealed else "") + ".")
        return out


def _absent_if_none(value: object) -> bool:
    return value is None


class DamageOutcome(Outcome):
    """What the damage does: what is prevented and dealt, and the target's health, power or defense after."""

    health: int | None = None
    power: int | None = None
    determination: int | None = None
    power_lost: int = 0
    prevented: int = 0
    destroyed: bool = False
    defeated: bool = False
    dealt: int = 0
    barrier_left: int | None = None
    defense: int | None = Field(None, exclude_if=_absent_if_none)
    excess_to_controller: int | None = Field(None, exclude_if=_absent_if_none)
    damage_this_turn: int | None = Field(None, exclude_if=_absent_if_none)
    hit: bool | None = Field(None, exclude_if=_absent_if_none)
    ailments_applied: dict[str, int] | None = Field(None, exclude_if=_absent_if_none)
    ailments_not_applied: dict[str, int] | None = Field(None, exclude_if=_absent_if_none)
    ailments_after: dict[str, int] | None = Field(None, exclude_if=_absent_if_none)
    burn_i_health_loss: list[int] | None = Field(None, exclude_if=_absent_if_none)

    def record(self, who: Runeslinger, corpus: Corpus) -> None:
        """Set the health and standing fields from a Runeslinger after the damage."""
        self.health = who.health
        self.power, self.determination, self.power_lost, self.defeated = who.standing.values(corpus)


@dataclass(frozen=True)
class Runeslinger:
    """A Runeslinger's health track and standing (power, determination)."""

    health: int
    max_health: int
    standing: Standing


def runeslinger_of(raw: DamageTarget | Controller) -> Runeslinger:
    """Return the Runeslinger a target or a controller describes (their health fields are validated present)."""
    assert raw.health is not None and raw.max_health is not None and raw.power is not None
    return Runeslinger(raw.health, raw.max_health, Standing(raw.power, raw.determination or 0))


@dataclass(frozen=True)
class Block:
    """A block declared against this damage, and any barrier already on the target."""

    declared: bool | None
    value: int
    already_blocked: bool
    barrier: int
    late: bool

    @classmethod
    def of(cls, raw: BlockDeclared | None, default_value: int = 0) -> Block:
        """Read the ``block`` field; ``declared`` is None when the position does not say; an unstated value is
        *default_value* (the blocking Runeslinger's block value)."""
        raw = raw or BlockDeclared()
        return cls(raw.declared, default_value if raw.value is None else raw.value,
                   bool(raw.already_blocked_this_turn), raw.barrier or 0, raw.timing == "after_damage")


# ------------------------------------------------------------------------------------------ rules

@rule("rs.blocking-advanced-rules.unblockable", "rs.damage.direct", "rs.health-loss")
def is_blockable(damage_type: str, corpus: Corpus) -> bool:
    """Return whether a block may be declared: never against direct damage or health loss."""
    return damage_type not in corpus.fact("rs.blocking-advanced-rules.unblockable", "unblockable")


@rule("rs.damage.direct")
def ignores_barriers(damage_type: str, corpus: Corpus) -> bool:
    """Return whether the damage goes straight through block barriers (direct damage does)."""
    return damage_type == "direct" and bool(corpus.fact("rs.damage.direct", "ignores_block_barriers"))


@rule("rs.damage.pierce", "rs.health-loss", "rs.power-loss-conditions.zero-health")
def carries_past_reset(damage_type: str, corpus: Corpus) -> bool:
    """Return whether what is left after a health reset still applies (pierce damage and health loss)."""
    if damage_type == "health_loss":
        return bool(corpus.fact("rs.health-loss", "pierces"))
    return damage_type == "pierce" and bool(corpus.fact("rs.damage.pierce", "carries_over_health_reset"))


@rule("rs.blocking-advanced-rules.zero-block")
def can_block_with(value: int, corpus: Corpus) -> bool:
    """Return whether a Runeslinger with this block value may block (not with 0 block)."""
    return value >= int(corpus.fact("rs.blocking-advanced-rules.zero-block", "min_block_value_to_block"))


@rule("rs.blocking-advanced-rules.once-per-turn")
def can_block_again(already_blocked: bool, corpus: Corpus) -> bool:
    """Return whether the player may still block this turn (once per turn, on any player's turn)."""
    per_turn = int(corpus.fact("rs.blocking-advanced-rules.once-per-turn", "blocks_per_turn"))
    return not already_blocked or per_turn > 1


@rule("rs.blocking-damage", "rs.blocking-damage.barrier-value", "rs.blocking-advanced-rules",
      "rs.blocking-advanced-rules.depleted")
def through_barrier(amount: int, barrier: int) -> tuple[int, int, int]:
    """Return (prevented, going through, barrier left): a barrier stops damage up to its value."""
    prevented = min(amount, barrier)
    return prevented, amount - prevented, barrier - prevented


@rule("rs.damage.basic", "rs.resolving-effects")
def basic_dealt(amount: int, health: int) -> int:
    """Return the damage actually dealt: never more than the current health (the excess is lost)."""
    return min(amount, health)


@rule("rs.damage.defense-cards", "rs.card-types-areas-of-play.defense-cards")
def defense_hit(amount: int, defense: int) -> tuple[int, bool, int]:
    """Return (defense left, destroyed, excess): a card is destroyed once its defense this turn reaches 0."""
    dealt = min(amount, defense)
    left = defense - dealt
    return left, left == 0, amount - dealt


@rule("rs.blocking-advanced-rules.block-value", "rs.anatomy-of-a-runeslinger.block")
def block_value_of(target: DamageTarget, corpus: Corpus) -> tuple[int, str]:
    """Return the blocking Runeslinger's block value and where it comes from: the target Runeslinger's (or a defense
    card's controller's) stated ``block_value``, else the usual starting value printed on a Runeslinger card."""
    blocker = target if target.kind == "runeslinger" else target.controller
    stated = blocker.block_value if blocker is not None and blocker.block_value is not None else target.block_value
    if stated is not None:
        return int(stated), "the blocking Runeslinger's block value"
    usual = int(corpus.fact("rs.blocking-advanced-rules.block-value", "usual_starting_block"))
    return usual, "the usual starting block value printed on a Runeslinger card"


# ----------------------------------------------------------------------------------- resolution

def _cap(words: str) -> str:
    """Return *words* with the first letter in upper case (names keep their own case)."""
    return words[:1].upper() + words[1:]


@rule("rs.power-loss-conditions.zero-health", "rs.damage.direct", "rs.health-loss.example")
def harm_runeslinger(who: Runeslinger, amount: int, damage_type: str, trace: Trace, corpus: Corpus,
                     label: str = "the Runeslinger") -> tuple[Runeslinger, int]:
    """Apply *amount* of damage or health loss to a Runeslinger; return it and the amount actually dealt."""
    word = "health" if damage_type == "health_loss" else "damage"
    carries = carries_past_reset(damage_type, corpus)
    left = amount
    while left > 0:
        take = min(left, who.health) if carries else basic_dealt(left, who.health)
        health = who.health - take
        left -= take
        if health > 0:
            trace.step(f"{_cap(label)} {'loses' if word == 'health' else 'is dealt'} {take} {word}: health "
                       f"{who.health} → {health}.", TYPE_RULE[damage_type])
            return replace(who, health=health), amount - left
        trace.step(f"{_cap(label)} {'loses' if word == 'health' else 'is dealt'} {take} {word}, bringing "
                   f"health from {who.health} to 0.", TYPE_RULE[damage_type])
        standing = record_power_loss(who.standing, "Health reached 0", trace, corpus,
                                     "rs.power-loss-conditions.zero-health")
        if is_defeated(standing.power, corpus):
            return replace(who, health=0, standing=standing), amount - left
        who = replace(who, health=who.max_health, standing=standing)
        trace.step("Health resets to its current maximum, "
                   f"{who.max_health}.", "rs.power-loss-conditions.zero-health")
        if left and not carries:
            trace.step(f"The other {left} damage is not carried over: basic damage beyond current health is "
                       "lost."
                       + (" Direct damage follows the same rule; it only differs in ignoring blocks."
                          if damage_type == "direct" else ""),
                       basic_dealt, *(["rs.damage.direct"] if damage_type == "direct" else []))
            return who, amount - left
        if left:
            what = "health loss always pierces" if damage_type == "health_loss" \
                else "pierce damage is dealt in full"
            trace.step(f"The remaining {left} {word} was paused by the power loss and now applies to the "
                       f"reset health ({what}).", TYPE_RULE[damage_type],
                       "rs.power-loss-conditions.zero-health",
                       *(["rs.health-loss.example"] if damage_type == "health_loss" else []))
    return who, amount


@rule("rs.blocking-damage", "rs.blocking-advanced-rules.declare")
def _check_block(block: Block, damage_type: str, source_is_enemy: bool, trace: Trace, corpus: Corpus) -> None:
    """Record a violation for each blocking rule a declared block breaks."""
    if not is_blockable(damage_type, corpus):
        kind = "direct damage" if damage_type == "direct" else "health loss"
        trace.violate(f"{kind} cannot be blocked", is_blockable)
    if not source_is_enemy:
        trace.violate("only damage from a source an enemy controls can be blocked", "rs.blocking-damage")
    if not can_block_again(block.already_blocked, corpus):
        trace.violate("this player has already blocked this turn; a player may block only once per turn",
                      can_block_again)
    if not can_block_with(block.value, corpus):
        trace.violate("a Runeslinger whose block value is 0 cannot block", can_block_with)
    if block.late:
        trace.violate("a block must be declared before the damage resolves on its target; it is too late",
                      "rs.blocking-advanced-rules.declare")


@rule("rs.blocking-advanced-rules", "rs.blocking-damage", "rs.blocking-damage.barrier-value",
      "rs.blocking-advanced-rules.triggers-first", "rs.blocking-advanced-rules.declare")
def _barrier(block: Block, damage_type: str, source_is_enemy: bool, trace: Trace, corpus: Corpus) -> int:
    """Return the block barrier standing between this damage and its target, recording why."""
    if damage_type == "health_loss":
        trace.step("Health loss is not damage: it cannot be blocked and no block barrier stops "
                   "it.", is_blockable)
        return 0
    if ignores_barriers(damage_type, corpus):
        trace.step("Direct damage cannot be blocked and ignores block barriers"
                   + (f" (the barrier of {block.barrier} on the target stops none of "
                      "it)." if block.barrier else "."),
                   ignores_barriers, is_blockable)
        return 0
    barrier = block.barrier
    if block.barrier:
        trace.step(f"A block barrier of {block.barrier} from an earlier block this turn is still on the "
                   "target.",
                   "rs.blocking-advanced-rules")
    if block.declared:
        cost = corpus.fact("rs.blocking-damage", "block_cost_cards_discarded")
        trace.step(f"The controlling player discards {cost} card to block: a block barrier of {block.value} (the "
                   "Runeslinger's block value, worked out after any block triggers) is put on the target.",
                   "rs.blocking-damage", "rs.blocking-damage.barrier-value",
                   "rs.blocking-advanced-rules.triggers-first")
        barrier += block.value
    elif block.declared is None and source_is_enemy and can_block_again(block.already_blocked, corpus):
        trace.decide("target's controller",
                     "whether to block (discard 1 card before the damage resolves)",
                     "rs.blocking-damage", "rs.blocking-advanced-rules.declare", options=(True, False),
                     field="block.declared")
        trace.step("The position does not say whether the target's controller blocks; resolved without a "
                   "block.",
                   "rs.blocking-damage")
    return barrier


LABELS: dict[str, Label] = {
    "health": "Health", "power": "Power", "determination": "Determination", "power_lost": "Power lost",
    "prevented": "Damage prevented", "destroyed": "Defense card destroyed", "defeated": "Defeated",
    "dealt": "Damage dealt", "barrier_left": "Block barrier left", "defense": "Defense left",
    "excess_to_controller": "Damage through to the controller", "damage_this_turn": "Damage on the card this turn",
    "hit": "Hit", "ailments_applied": "Ailments applied on the hit", "ailments_not_applied": "Ailments with no free "
    "area", "ailments_after": "Ailments after", "burn_i_health_loss": "Burn I health losses",
}


def _summary(pos: DamagePosition, out: DamageOutcome, trace: Trace) -> str:
    """One sentence: what reaches the target, and its health, power or destruction after; while the block is
    still to be decided, said as what happens without one (never as settled)."""
    text = _settled(pos, out)
    clause = hit_clause(out.hit, out.ailments_applied)
    if clause and not trace.violations:
        text = text[:-1] + clause + "."
    if not trace.decisions:
        return text
    target = pos.target
    who = f"{target.name}'s player" if target.name and target.kind == "runeslinger" else "the target's controller"
    first = text[:1].lower() + text[1:] if text.startswith(("The ", "Its ")) else text
    return f"If {who} does not block, {first[:-1]}; a block would change this."


def _settled(pos: DamagePosition, out: DamageOutcome) -> str:
    """The summary once every choice is made."""
    target = pos.target
    is_slinger = target.kind == "runeslinger"
    name = target.name or ("The Runeslinger" if is_slinger else "The defense card")
    name = name[:1].upper() + name[1:]
    block = f" after the block prevents {out.prevented}" if out.prevented else ""
    loss = pos.damage_type == "health_loss"
    if is_slinger or out.excess_to_controller:
        if out.defeated:
            return f"{name} is defeated: {plural_power(out.power_lost)} lost and none left{block}."
        if out.health is None:
            return f"{name} is destroyed{block}; the excess waits for the controller's health to be known."
        head = name if is_slinger else "Its controller"
        if is_slinger and out.prevented and not out.dealt:
            return f"The block prevents all {out.prevented} damage: {name} stays at {out.health} health."
        lost = f", losing {plural_power(out.power_lost)}" if out.power_lost else ""
        what = "loses" if loss else "takes"
        amount = out.dealt if is_slinger else out.excess_to_controller
        return (f"{head} {what} {amount} {'health' if loss else 'damage'}{block} and ends at {out.health} "
                f"health{lost}.")
    if out.destroyed:
        return f"{name} is destroyed{block}."
    return f"{name} takes {out.dealt} damage{block}; its defense drops to {out.defense} this turn."


def plural_power(n: int) -> str:
    """Return ``1 power`` / ``2 powers``."""
    return f"{n} power" if n == 1 else f"{n} powers"


@rule("rs.damage", "rs.health-loss", "rs.blocking-advanced-rules.block-value", "rs.blocking-damage.barrier-value")
def _declare(pos: DamagePosition, block: Block, value: int, where: str, trace: Trace, corpus: Corpus) -> None:
    """The damage and its target, and the rules a declared block or a health loss on a card breaks."""
    target, damage_type = pos.target, pos.damage_type
    is_slinger = target.kind == "runeslinger"
    name = target.name or ("the target Runeslinger" if is_slinger else "the target defense card")
    what = "health loss" if damage_type == "health_loss" else f"{damage_type} damage"
    noun = "" if target.name is None else (" (a Runeslinger)" if is_slinger else " (a defense card)")
    trace.step(f"{pos.amount} {what} to {name}{noun}.",
               "rs.damage", TYPE_RULE[damage_type])
    if damage_type == "health_loss" and not is_slinger:
        trace.violate("health loss makes a Runeslinger lose health; a defense card has no health to lose",
                      "rs.health-loss")
    if block.declared:
        if pos.block is None or pos.block.value is None:
            trace.step(f"The block value is not stated: it is {where}, {value}.",
                       "rs.blocking-advanced-rules.block-value", "rs.blocking-damage.barrier-value")
        _check_block(block, damage_type, pos.source_is_enemy is not False, trace, corpus)


def _through(amount: int, barrier: int, out: DamageOutcome, trace: Trace) -> int:
    """The block barrier stops what it can; return the damage going through."""
    prevented, through, barrier_left = through_barrier(amount, barrier)
    if barrier:
        trace.step(f"The block barrier prevents {prevented} damage; {through} goes through"
                   + (f" and {barrier_left} barrier is left for the rest of the turn." if barrier_left
                      else (" (the barrier is depleted, so the rest reaches the "
                            "target)." if through else ".")),
                   through_barrier)
        out.barrier_left = barrier_left
    out.prevented = prevented
    return through


@situation(GAME, "damage", DamagePosition, labels=LABELS)
@summarized(_summary)
def resolve_damage(pos: DamagePosition, trace: Trace, corpus: Corpus) -> DamageOutcome:
    """Resolve damage or health loss to a Runeslinger or a defense card: blocks, power loss, destruction."""
    target, damage_type = pos.target, pos.damage_type
    value, where = block_value_of(target, corpus)
    block = Block.of(pos.block, value)
    source_is_enemy = pos.source_is_enemy is not False
    is_slinger = target.kind == "runeslinger"
    name = target.name or ("the target Runeslinger" if is_slinger else "the target defense card")
    out = DamageOutcome()
    _declare(pos, block, value, where, trace, corpus)
    if trace.violations:
        return out
    block = replace(block, value=resolve_block_triggers(block.value, pos.block_triggers, block.declared, trace))
    barrier = _barrier(block, damage_type, source_is_enemy, trace, corpus)
    through = _through(pos.amount, barrier, out, trace)
    if is_slinger:
        after, dealt = harm_runeslinger(runeslinger_of(target), through, damage_type, trace, corpus, name)
        out.dealt = dealt
        if pos.on_hit:
            after = _on_hit(pos, out, after, name, trace, corpus)
        out.record(after, corpus)
        return out
    controller = runeslinger_of(target.controller) if target.controller is not None else None
    out = _defense_card_this_turn(out, target, name, through, damage_type, controller, trace, corpus)
    if pos.on_hit:
        out.hit = out.dealt >= 1
        no_hit(out.dealt, False, False, pos.on_hit, trace)
    return out


@rule("rs.ailments.burn", "rs.health-loss")
def _on_hit(pos: DamagePosition, out: DamageOutcome, who: Runeslinger, name: str, trace: Trace,
            corpus: Corpus) -> Runeslinger:
    """Whether the damage hit the Runeslinger; if so its ailments go on, and each Burn I costs 2 health."""
    out.hit = out.dealt >= 1
    defeated = is_defeated(who.standing.power, corpus)
    t = pos.target
    exposed = {str(k): n for k, n in (t.ailments or {}).items()}
    if not no_hit(out.dealt, True, defeated, pos.on_hit, trace):
        out.ailments_applied, out.ailments_after = {}, {k: n for k, n in exposed.items() if n}
        return who
    concealed = {str(k): n for k, n in (t.concealed or {}).items()}
    result = apply_on_hit(pos.on_hit, exposed, concealed, t.boons or 0, trace, corpus)
    out.ailments_applied, out.ailments_after = result.applied, result.after
    out.ailments_not_applied = result.not_applied or None
    out.burn_i_health_loss = result.burn_losses or None
    for loss in result.burn_losses:
        if is_defeated(who.standing.power, corpus):
            break
        who, _ = harm_runeslinger(who, loss, "health_loss", trace, corpus, name)
    return who


@rule("rs.card-types-areas-of-play.defense-cards", "rs.damage.defense-cards", "rs.anatomy-of-a-card")
def defense_left_this_turn(defense: int, earlier: int) -> int:
    """Return a defense card's defense left this turn: its defense value less the damage dealt to it this turn."""
    return defense - earlier


@rule("rs.phases-of-a-turn.discard")
def _defense_card_this_turn(out: DamageOutcome, target: DamageTarget, name: str, through: int,
                            damage_type: str, controller: Runeslinger | None, trace: Trace,
                            corpus: Corpus) -> DamageOutcome:
    """Count the damage already dealt to the card this turn against its defense, then deal this damage."""
    assert target.defense is not None  # validated present for a defense card
    defense, earlier = target.defense, target.damage_this_turn
    left = defense_left_this_turn(defense, earlier)
    if earlier:
        trace.step(f"{_cap(name)} was already dealt {earlier} damage this turn: {left} of its defense {defense} "
                   "is left until the Discard Phase.", defense_left_this_turn, "rs.phases-of-a-turn.discard")
    out = _hit_defense_card(out, left, name, through, damage_type, controller, trace, corpus)
    out.damage_this_turn = earlier + out.dealt
    return out


@rule("rs.phases-of-a-turn.discard", "rs.damage.defense-cards", "rs.damage.pierce")
def _hit_defense_card(out: DamageOutcome, defense: int, name: str, through: int, damage_type: str,
                      controller: Runeslinger | None, trace: Trace, corpus: Corpus) -> DamageOutcome:
    """Finish damage to a defense card: lower its defense, destroy it at 0, send pierce excess on."""
    out.defense, out.excess_to_controller = defense, 0
    if controller is not None:
        out.record(controller, corpus)
    left, destroyed, excess = defense_hit(through, defense)
    out.defense, out.destroyed, out.dealt = left, destroyed, through - excess
    if not destroyed:
        trace.step(f"{_cap(name)}'s defense drops from {defense} to {left} for the rest of the turn; it "
                   "recovers in the Discard Phase.", defense_hit, "rs.phases-of-a-turn.discard")
        return out
    trace.step(f"{through} damage against defense {defense}: the damage this turn reaches its defense, so "
               f"{name} is destroyed and goes to its owner's discard pile.", defense_hit)
    if not excess:
        return out
    if damage_type != "pierce":
        trace.step(f"The other {excess} damage is lost: only pierce damage carries past a destroyed defense "
                   "card.",
                   "rs.damage.defense-cards")
        return out
    out.excess_to_controller = excess
    if controller is None:
        trace.step(f"Pierce: the {excess} damage over the card's defense is dealt to the Runeslinger who "
                   "controls it (give `target.controller` to resolve it).", "rs.damage.pierce")
        return out
    trace.step(f"Pierce: the {excess} damage over the card's defense is dealt to its controlling "
               "Runeslinger.",
               "rs.damage.pierce")
    after, _ = harm_runeslinger(controller, excess, damage_type, trace, corpus, "the controlling Runeslinger")
    out.record(after, corpus)
    return out
