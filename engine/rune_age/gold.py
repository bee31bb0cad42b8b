"""Rune Age Spend Gold actions: whole gold cards, no carry-over, and Promise of Riches discounts.

Paragraphs: ``ra.spending-gold``, ``ra.spend-gold-action`` and the Oath and Anvil FAQ on Promise of Riches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome
from engine.rune_age.words import choice, listing, plural

PURCHASE_KINDS = {"unit": "A unit card", "stronghold": "A stronghold", "special": "Another card"}


class Purchase(Model):
    """A card bought with the gold played: its name, its gold cost and what kind of card it is."""

    name: str = Field(max_length=200)
    cost: int = Field(ge=0, le=99)
    kind: Literal["unit", "stronghold", "special"] = Field("unit", json_schema_extra=choice(PURCHASE_KINDS))


BREAKS = {"nothing": "No: one action", "combat": "After a combat", "card_action": "After a Card action",
          "spend_influence": "After a Spend Influence action"}


class SpendGoldPosition(OpenPosition):
    """A Rune Age Spend Gold action: the gold cards played, what they buy and the Promise of Riches destroyed."""

    game: Literal["rune-age"]
    situation: Literal["spend_gold"]
    gold_cards: list[Annotated[int, Field(ge=1, le=3)]] = Field(max_length=100)
    purchases: list[Purchase] = Field(max_length=100)
    promise_of_riches: int = Field(0, ge=0, le=50)
    come_back_after: Literal["nothing", "combat", "card_action", "spend_influence"] = Field(
        "nothing", title="Spends the rest after another action",
        description="The player means to stop partway, take this other action, then come back and spend the gold "
                    "left over.", json_schema_extra=choice(BREAKS))

    def reading(self) -> list[str]:
        """Restate the gold cards played, the purchases and the Promise of Riches destroyed."""
        gold = sum(self.gold_cards)
        out = [f"Gold cards played: {plural(len(self.gold_cards), 'card')} worth "
               f"{listing(str(g) for g in self.gold_cards)}, {gold} gold in all."]
        bought = [f"{p.name} ({'a stronghold, ' if p.kind == 'stronghold' else ''}cost {p.cost})"
                  for p in self.purchases]
        out.append(f"Buys: {listing(bought)}." if bought else "Buys nothing.")
        if self.promise_of_riches:
            out.append(f"Promise of Riches destroyed: {self.promise_of_riches}.")
        if self.come_back_after != "nothing":
            out.append(f"He means to spend the rest {BREAKS[self.come_back_after].lower()}.")
        return out


class SpendGoldOutcome(Outcome):
    """What a Spend Gold action decides: the gold played, the cost paid and the gold lost."""

    gold: int
    cost: int
    lost: int = 0


@rule("rafaq.oa.neutral-cards.1")
def discounted_costs(purchases: Sequence[Purchase], promises: int) -> tuple[list[int], int]:
    """Return each purchase's cost after Promise of Riches, and the discounts left unused.

    Each Promise of Riches destroyed lowers the cost of one unit card by 1; several may lower the same
    unit, never below 0.
    """
    costs = [p.cost for p in purchases]
    left = promises
    for i, p in enumerate(purchases):
        if p.kind != "unit":
            continue
        take = min(left, costs[i])
        costs[i] -= take
        left -= take
    return costs, left


@rule("ra.spending-gold")
def unspent_gold_lost(gold: int, cost: int) -> int:
    """Return the gold lost: what the played gold cards provide beyond the cost (no carry-over, no change)."""
    return max(0, gold - cost)


@rule("ra.spending-gold")
def is_affordable(gold: int, cost: int) -> bool:
    """Return whether the gold played covers the purchases."""
    return gold >= cost


LABELS: dict[str, Label] = {"gold": "Gold played", "cost": "Cost", "lost": "Gold lost"}


def _summary(pos: SpendGoldPosition, out: SpendGoldOutcome, trace: Trace) -> str:
    """One sentence: what the gold buys and what is lost."""
    lost = out.lost
    return (f"{out.gold} gold pays for purchases costing {out.cost}"
            + (f"; the other {lost} gold is lost." if lost else ", with nothing lost."))


@rule("ra.spend-gold-action")
def _play_gold(pos: SpendGoldPosition, trace: Trace) -> int:
    """The player plays gold cards: return the gold they provide in all."""
    gold = sum(pos.gold_cards)
    trace.step(f"The player plays {plural(len(pos.gold_cards), 'gold card')} worth {gold} gold in all.",
               "ra.spend-gold-action")
    return gold


@rule("ra.spend-gold-action")
def _cost(pos: SpendGoldPosition, trace: Trace) -> int:
    """The purchases' cost, after any Promise of Riches destroyed lowers unit costs: return it."""
    purchases, promises = pos.purchases, pos.promise_of_riches
    costs, unused = discounted_costs(purchases, promises)
    cost = sum(costs)
    listed = listing((f"{p.name} ({p.cost})" for p in purchases), "nothing")
    if promises:
        full = sum(p.cost for p in purchases)
        saved = (f"so {listed} cost {cost} instead of {full}" if cost != full
                 else f"but no unit card is bought, so the cost stays {cost}")
        trace.step(f"{promises} Promise of Riches destroyed: each lowers one unit card's cost by 1, {saved}"
                   + (f"; {plural(unused, 'discount')} {'finds' if unused == 1 else 'find'} no unit cost left to "
                      f"lower." if unused and cost != full else "."), discounted_costs)
    else:
        trace.step(f"Purchases: {listed}, {cost} gold in all.", "ra.spend-gold-action")
    return cost


def _pay(out: SpendGoldOutcome, trace: Trace) -> None:
    """The gold pays the cost whole: what is left over is lost."""
    gold, cost = out.gold, out.cost
    if not is_affordable(gold, cost):
        trace.violate(f"the purchases cost {cost} gold but the gold cards played provide only {gold}",
                      is_affordable)
        return
    out.lost = unused_gold = unspent_gold_lost(gold, cost)
    trace.step(f"{unused_gold} gold is left over and lost: a played gold card is spent whole and gold never "
               f"carries over." if unused_gold else "All the gold played is spent; nothing is lost.",
               unspent_gold_lost)


PLACES = {"unit": ("go faceup to his discard pile", "ra.spend-gold-action.units"),
          "stronghold": ("go refreshed above his Home Realm", "ra.spend-gold-action.strongholds"),
          "special": ("come from his Barracks (the Monument is placed next to his Home Realm)",
                      "ra.spend-gold-action.special-cards")}


@rule("ra.spend-gold-action.units", "ra.spend-gold-action.strongholds", "ra.spend-gold-action.special-cards",
      "rafaq.oa.general.1", "ra.spend-gold-action.no-interruption")
def _bought(pos: SpendGoldPosition, out: SpendGoldOutcome, trace: Trace) -> None:
    """Where the cards bought go; a Spend Gold action cannot be broken off and resumed."""
    if pos.come_back_after != "nothing":
        trace.violate(f"a Spend Gold action cannot be interrupted: the player cannot stop, take an action "
                      f"({BREAKS[pos.come_back_after].lower()}) and come back to the gold left over, which is lost "
                      f"when the action ends", "ra.spend-gold-action.no-interruption")
    if not pos.purchases:
        trace.step("Nothing is bought, which a Spend Gold action allows.", "rafaq.oa.general.1")
    for kind, (where, para) in PLACES.items():
        names = [p.name for p in pos.purchases if p.kind == kind]
        if names:
            trace.step(f"{listing(names)} {where}.", para)


@situation("rune-age", "spend_gold", SpendGoldPosition, labels=LABELS)
@summarized(_summary)
def resolve_spend_gold(pos: SpendGoldPosition, trace: Trace, corpus: Corpus) -> SpendGoldOutcome:
    """Resolve a Spend Gold action: gold played, purchases, Promise of Riches, gold lost."""
    gold = _play_gold(pos, trace)
    out = SpendGoldOutcome(gold=gold, cost=_cost(pos, trace))
    _pay(out, trace)
    if not trace.violations:
        _bought(pos, out, trace)
    return out
