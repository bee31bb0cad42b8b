"""Rune Age influence: a Spend Influence action, keeping cards at the Discard Hand step, or an ability's cost.

Paragraphs: ``ra.spend-influence-action`` (exhausting cards for influence, once per round),
``ra.spending-influence`` (pooling, no carry-over), ``ra.a-player-s-turn.3``/``.4`` (1 influence per kept
card, then draw up to 5), ``ra.drawing-cards`` (no maximum hand size), ``rafaq.faq.general.13`` (influence
made for an ability cannot be saved) and the page-7 erratum (Rewards refresh with cities and strongholds).

Choices made where the books are silent: ``lost`` is never negative (an unaffordable spend is illegal and
reports ``lost: 0``); ``discarded`` is null at ``discard_hand`` when ``hand`` is not given; when
``retained_cards`` is given without ``retain``, its length is the number kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, SerializerFunctionWrapHandler, model_serializer, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.rune_age.words import choice, listing, plural

Timing = Literal["perform_actions", "discard_hand", "ability"]
PurchaseKind = Literal["neutral", "gold", "faction_unit", "stronghold", "ability"]
TIMINGS = {"perform_actions": "A Spend Influence action (Perform Actions step)",
           "discard_hand": "Keeping cards at the Discard Hand step", "ability": "Paying an ability's influence cost"}
TIMING_WORDS = {"perform_actions": "a Spend Influence action", "discard_hand": "the Discard Hand step",
                "ability": "paying an ability's cost"}
SOURCE_KINDS = {"city": "City", "stronghold": "Stronghold", "reward": "Reward", "unit": "Unit"}
PURCHASE_KINDS = {"neutral": "A neutral card", "gold": "A gold card", "faction_unit": "A faction unit",
                  "stronghold": "A stronghold", "ability": "An ability's cost"}
PURCHASE_WORDS = {"neutral": "a neutral card", "gold": "a gold card", "faction_unit": "a faction unit",
                  "stronghold": "a stronghold", "ability": "an ability's cost"}


class Source(Model):
    """A card exhausted to produce influence."""

    model_config = ConfigDict(title="Exhausted card")

    name: str = Field(max_length=200, title="Card", description="The city, stronghold, Reward or unit exhausted.")
    kind: Literal["city", "stronghold", "reward", "unit"] = Field("city", title="Kind",
                                                                  json_schema_extra=choice(SOURCE_KINDS))
    influence: int = Field(ge=0, le=20, title="Influence", description="The influence the card produces.")
    exhausted: bool = Field(False, title="Already exhausted",
                            description="The card was already exhausted before this spend.")


class InfluencePurchase(Model):
    """A card bought, or an ability's cost paid, with the influence produced."""

    model_config = ConfigDict(title="Purchase")

    name: str = Field(max_length=200, title="Card bought or ability paid")
    kind: PurchaseKind = Field("neutral", title="Kind", json_schema_extra=choice(PURCHASE_KINDS))
    cost: int = Field(ge=0, le=50, title="Influence cost")


class SpendInfluencePosition(OpenPosition):
    """A spending of influence: the cards exhausted, what the influence pays for, and the cards kept in hand."""

    game: Literal["rune-age"]
    situation: Literal["spend_influence"]
    player: str | None = maybe(title="Player", max_length=200)
    timing: Timing = Field(title="When", json_schema_extra=choice(TIMINGS, "perform_actions"),
                           description="perform_actions: a Spend Influence action; discard_hand: keeping cards in "
                                       "turn step 3; ability: paying an ability's influence cost.")
    exhaust: list[Source] = Field(max_length=30, title="Cards exhausted for influence")
    purchases: list[InfluencePurchase] = Field([], max_length=50, title="Purchases")
    retain: int | None = maybe("Cards kept in hand at the discard_hand step.", title="Cards kept", ge=0, le=60)
    hand: int | None = maybe("Cards in hand at the discard_hand step.", title="Cards in hand", ge=0, le=60)
    retained_cards: list[Annotated[str, Field(max_length=200)]] | None = maybe(title="Cards kept (names)",
                                                                               max_length=60)
    carried_over: int = Field(0, ge=0, le=50, title="Influence carried over",
                              description="Influence left from an earlier spend that the player wants to add.")

    @property
    def kept(self) -> int:
        """Return the cards kept in hand: ``retain``, else as many as ``retained_cards`` names, else none."""
        if self.retain is not None:
            return self.retain
        return len(self.retained_cards) if self.retained_cards is not None else 0

    @model_validator(mode="after")
    def _retained(self) -> SpendInfluencePosition:
        names, retain = self.retained_cards, self.kept
        if names is not None and len(names) != retain:
            raise refuse(f"retained_cards names {len(names)} card(s) but retain is {retain}", "retained_cards")
        if retain > 0 and self.hand is None:
            raise refuse("missing field 'hand' (required when retain is above 0)", "hand")
        return self

    def reading(self) -> list[str]:
        """Restate who spends, when, the cards exhausted, what the influence pays for and the cards kept."""
        out = [f"Player: {self.player}."] if self.player else []
        out.append(f"When: {TIMING_WORDS[self.timing]}.")
        cards = [f"{c.name} ({SOURCE_KINDS[c.kind].lower()}, {c.influence} influence"
                 + (", already exhausted)" if c.exhausted else ")") for c in self.exhaust]
        out.append(f"Exhausts: {listing(cards)}." if cards else "Exhausts no card.")
        bought = [f"{p.name} ({PURCHASE_WORDS[p.kind]}, cost {p.cost})" for p in self.purchases]
        out.append(f"Pays for: {listing(bought)}." if bought else "Buys nothing.")
        if self.carried_over:
            out.append(f"Adds {self.carried_over} influence left from an earlier spend.")
        if self.hand is not None:
            out.append(f"Holds {plural(self.hand, 'card')} in hand.")
        if self.retain is not None or self.retained_cards is not None:
            names = f" ({listing(self.retained_cards)})" if self.retained_cards else ""
            out.append(f"Keeps {plural(self.kept, 'card')}{names}.")
        return out


class SpendInfluenceOutcome(Outcome):
    """What a spending of influence decides: influence produced and spent, what is lost, bought and kept.

    ``kept``, ``discarded`` and ``draws`` are given at the Discard Hand step only (``discarded`` is null there
    when the hand's size is not given).
    """

    influence: int
    cost: int
    lost: int = 0
    exhausted: list[str]
    acquired: list[str] = Field(default_factory=list)
    kept: int | None = None
    discarded: int | None = None
    draws: int | None = None
    at_discard_hand: bool = Field(False, exclude=True)

    @model_serializer(mode="wrap")
    def _keys(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        if not self.at_discard_hand:
            for key in ("kept", "discarded", "draws"):
                out.pop(key, None)
        return out


LABELS: dict[str, Label] = {
    "influence": "Influence produced", "cost": "Influence spent", "lost": "Influence lost",
    "exhausted": "Cards exhausted", "acquired": "Cards acquired (to the discard pile)",
    "kept": "Cards kept in hand", "discarded": "Cards discarded", "draws": "Cards drawn (step 4)",
}
BOUGHT_WITH_GOLD = {"faction_unit": "ra.spend-gold-action.units", "stronghold": "ra.spend-gold-action.strongholds"}


@rule("ra.spend-influence-action", "ra.term.exhaust")
def can_exhaust(already_exhausted: bool) -> bool:
    """Return whether a card can be exhausted for influence: not while it is already exhausted."""
    return not already_exhausted


@rule("ra.spending-influence")
def is_affordable(influence: int, cost: int) -> bool:
    """Return whether the influence produced covers the cost (pooled from every exhausted card)."""
    return influence >= cost


@rule("ra.spending-influence")
def influence_lost(influence: int, cost: int) -> int:
    """Return the influence left unspent, which is lost: it never carries over."""
    return max(0, influence - cost)


@rule("ra.a-player-s-turn.3")
def retain_cost(kept: int, corpus: Corpus) -> int:
    """Return the influence paid to keep cards at the Discard Hand step (1 per card)."""
    return kept * int(corpus.fact("ra.a-player-s-turn.3", "retain_cost_influence_per_card"))


@rule("ra.a-player-s-turn.4", "ra.drawing-cards")
def draws_after(kept: int, corpus: Corpus) -> int:
    """Return the cards drawn in turn step 4: up to 5 in hand, none when 5 or more are kept (no maximum)."""
    return max(0, int(corpus.fact("ra.a-player-s-turn.4", "hand_size")) - kept)


@rule("ra.spend-influence-action.neutral-cards", "ra.spend-influence-action.gold-cards", "ra.term.influence")
def purchase_fits(kind: str, timing: str) -> bool:
    """Return whether a purchase kind can be paid with influence at this timing (never for gold-only kinds)."""
    return timing == {"neutral": "perform_actions", "gold": "perform_actions", "ability": "ability"}.get(kind)


def _who(pos: SpendInfluencePosition) -> str:
    return pos.player or "The player"


def _ability_faq(timing: str) -> list[str]:
    return ["rafaq.faq.general.13"] if timing == "ability" else []


@rule("ra.spend-influence-action", "ra.spending-influence", "rafaq.errata.rulebook.p7")
def _exhaust(pos: SpendInfluencePosition, out: SpendInfluenceOutcome, trace: Trace, corpus: Corpus) -> None:
    """Exhaust cards for influence, pooled for this spend; then what it pays for (purchases, cards kept)."""
    exhaust, purchases = pos.exhaust, pos.purchases
    rewards = any(c.kind == "reward" for c in exhaust)
    listed = ", ".join(f"{c.name} ({c.influence})" for c in exhaust) or "no card"
    trace.step(f"{_who(pos)} exhausts {listed}: {out.influence} influence in all, pooled for this spend.",
               "ra.spend-influence-action", "ra.spending-influence",
               *(["rafaq.errata.rulebook.p7"] if rewards else []))
    if purchases:
        trace.step("Purchases: " + ", ".join(f"{p.name} ({p.cost})" for p in purchases)
                   + f", {sum(p.cost for p in purchases)} influence.", "ra.spend-influence-action",
                   *_ability_faq(pos.timing))
    if pos.kept:
        trace.step(f"Keeping {plural(pos.kept, 'card')} in hand costs {retain_cost(pos.kept, corpus)} influence "
                   f"(1 per card).", retain_cost)


@rule("ra.a-player-s-turn.1", "rafaq.errata.rulebook.p7")
def _check_exhausted(pos: SpendInfluencePosition, trace: Trace) -> None:
    """Only a refreshed card can be exhausted, and influence from an earlier spend never carries over."""
    for c in pos.exhaust:
        if not can_exhaust(c.exhausted):
            trace.violate(f"{c.name} is already exhausted; it is refreshed only at the start of "
                          f"its controller's turn", can_exhaust, "ra.a-player-s-turn.1",
                          *(["rafaq.errata.rulebook.p7"] if c.kind == "reward" else []))
    carried = pos.carried_over
    if carried:
        trace.violate(f"{carried} influence from an earlier spend cannot be added: unspent influence never "
                      f"carries over", is_affordable, *_ability_faq(pos.timing))


@rule("ra.term.influence", "rafaq.faq.general.13", "ra.a-player-s-turn.2", "ra.a-player-s-turn.3",
      "ra.spend-influence-action.neutral-cards", "ra.spend-influence-action.gold-cards")
def _check_purchases(purchases: Sequence[InfluencePurchase], timing: str, trace: Trace) -> None:
    """Each purchase is one influence may pay for, at this timing (a card is bought only by a Spend Influence
    action, an action of the Perform Actions step)."""
    for p in purchases:
        kind = p.kind
        if kind in BOUGHT_WITH_GOLD:
            trace.violate(f"{p.name} is {PURCHASE_WORDS[kind]}, bought with gold, not influence",
                          BOUGHT_WITH_GOLD[kind], "ra.term.influence")
        elif not purchase_fits(kind, timing):
            trace.violate(*_misplaced(p, timing))


def _misplaced(p: InfluencePurchase, timing: str) -> tuple[str, ...]:
    """Return the refusal of a purchase made at the wrong time, and the paragraphs that forbid it."""
    if p.kind == "ability":
        return (f"{p.name} is an ability's cost, paid with influence made for that ability, not in "
                f"{TIMING_WORDS[timing]}", "rafaq.faq.general.13", "ra.term.influence")
    rule_of_kind = ("ra.spend-influence-action.neutral-cards" if p.kind == "neutral"
                    else "ra.spend-influence-action.gold-cards")
    if timing == "discard_hand":
        return (f"{p.name} is {PURCHASE_WORDS[p.kind]}, bought only with a Spend Influence action in the Perform "
                f"Actions step of the turn; in the Discard Hand step influence pays only for the cards kept",
                rule_of_kind, "ra.a-player-s-turn.2", "ra.a-player-s-turn.3")
    return (f"{p.name} is {PURCHASE_WORDS[p.kind]}, bought only with a Spend Influence action, not with "
            f"influence made for an ability", rule_of_kind, "rafaq.faq.general.13")


def _check_retain(pos: SpendInfluencePosition, out: SpendInfluenceOutcome, trace: Trace) -> None:
    """Cards are kept only at the Discard Hand step, from the hand; the influence must cover the whole cost."""
    retain, hand, timing = pos.kept, pos.hand, pos.timing
    if retain and timing != "discard_hand":
        trace.violate(f"cards are kept in hand only at the Discard Hand step, not in {TIMING_WORDS[timing]}",
                      retain_cost)
    if hand is not None and retain > hand:
        trace.violate(f"{plural(retain, 'card')} cannot be kept from a hand of {plural(hand, 'card')}", retain_cost)
    if not is_affordable(out.influence, out.cost):
        trace.violate(f"the spend costs {out.cost} influence but the exhausted cards produce only {out.influence}",
                      is_affordable)


@rule("ra.spend-influence-action.neutral-cards", "ra.spend-influence-action.gold-cards")
def _spend(pos: SpendInfluencePosition, out: SpendInfluenceOutcome, trace: Trace) -> None:
    """The influence is spent: cards bought go to the discard pile, and what is left unspent is lost."""
    out.lost = lost = influence_lost(out.influence, out.cost)
    out.acquired = [p.name for p in pos.purchases if p.kind in ("neutral", "gold")]
    if out.acquired:
        trace.step(f"{listing(out.acquired)} {'goes' if len(out.acquired) == 1 else 'go'} faceup into "
                   f"{_who(pos)}'s discard pile.",
                   "ra.spend-influence-action.neutral-cards", "ra.spend-influence-action.gold-cards")
    trace.step(f"{lost} influence is left unspent and lost; it cannot be saved for later."
               if lost else "All the influence produced is spent; nothing is lost.", influence_lost,
               *_ability_faq(pos.timing))


@situation("rune-age", "spend_influence", SpendInfluencePosition, labels=LABELS)
def resolve_spend_influence(pos: SpendInfluencePosition, trace: Trace, corpus: Corpus) -> SpendInfluenceOutcome:
    """Resolve a spending of influence: what it buys, what is kept in hand, and what is lost."""
    retain, hand = pos.kept, pos.hand
    out = SpendInfluenceOutcome(influence=sum(c.influence for c in pos.exhaust),
                                cost=sum(p.cost for p in pos.purchases) + retain_cost(retain, corpus),
                                exhausted=[c.name for c in pos.exhaust])
    if pos.timing == "discard_hand":
        out.at_discard_hand = True
        out.kept, out.discarded = retain, None if hand is None else max(0, hand - retain)
        out.draws = draws_after(retain, corpus)
    _exhaust(pos, out, trace, corpus)
    _check_exhausted(pos, trace)
    _check_purchases(pos.purchases, pos.timing, trace)
    _check_retain(pos, out, trace)
    if trace.violations:
        return out
    _spend(pos, out, trace)
    if pos.timing == "discard_hand":
        _discard_hand(pos, out, trace, corpus)
    trace.summarize(_summary(pos, out))
    return out


def _discard_hand(pos: SpendInfluencePosition, out: SpendInfluenceOutcome, trace: Trace, corpus: Corpus) -> None:
    """Turn steps 3 and 4: the cards kept stay in hand, the others are discarded, then draw up to the hand size."""
    who, names, kept = _who(pos), pos.retained_cards, pos.kept
    gone = plural(out.discarded, "card") if out.discarded is not None else "every other card"
    trace.step(f"{who} keeps {plural(kept, 'card')}" + (f" ({listing(names)})" if names else "")
               + f" and discards {gone}.", retain_cost)
    size = corpus.fact("ra.a-player-s-turn.4", "hand_size")
    if kept > size:
        trace.step(f"With {kept} cards kept, {who} already holds more than {size}: he draws nothing and "
                   f"keeps them all, as there is no maximum hand size.", draws_after)
    else:
        trace.step(f"Turn step 4: {who} draws {plural(out.draws or 0, 'card')} to hold {size}.", draws_after)
    if kept and names is None:
        trace.decide(who, f"which {plural(kept, 'card')} to keep in hand", retain_cost, field="retained_cards")


def _summary(pos: SpendInfluencePosition, out: SpendInfluenceOutcome) -> str:
    """One sentence: what the influence pays for, what is kept and drawn, and what is lost."""
    who, lost = _who(pos), out.lost
    lost_text = f"{lost} influence is lost" if lost else "nothing is lost"
    if pos.timing == "discard_hand":
        discard = f", discards {out.discarded}" if out.discarded is not None else ""
        return (f"{who} pays {out.cost} of {out.influence} influence to keep {plural(out.kept or 0, 'card')}{discard} "
                f"and draws {out.draws}; {lost_text}.")
    what = ", ".join(p.name for p in pos.purchases) or "nothing"
    return f"{who} spends {out.cost} of {out.influence} influence on {what}; {lost_text}."
