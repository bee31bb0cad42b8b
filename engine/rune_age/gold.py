"""Rune Age Spend Gold actions: whole gold cards, no carry-over, and Promise of Riches discounts.

Paragraphs: ``ra.spending-gold``, ``ra.spend-gold-action`` and the Oath and Anvil FAQ on Promise of Riches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.schema import arr, enum, integer, obj, text

SCHEMA: dict[str, Any] = obj(
    ["gold_cards", "purchases"], extra=True,
    gold_cards=arr(integer(1, 3), max_items=100),
    purchases=arr(obj(["name", "cost"], name=text(), cost=integer(0, 99), kind=enum("unit", "stronghold",
                                                                                     "special")), max_items=100),
    promise_of_riches=integer(0, 50),
)


@rule("rafaq.oa.neutral-cards.1")
def discounted_costs(purchases: Sequence[Mapping[str, Any]], promises: int) -> tuple[list[int], int]:
    """Return each purchase's cost after Promise of Riches, and the discounts left unused.

    Each Promise of Riches destroyed lowers the cost of one unit card by 1; several may lower the same
    unit, never below 0.
    """
    costs = [p["cost"] for p in purchases]
    left = promises
    for i, p in enumerate(purchases):
        if p.get("kind", "unit") != "unit":
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


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: what the gold buys and what is lost."""
    lost = out["lost"]
    return (f"{out['gold']} gold pays for purchases costing {out['cost']}"
            + (f"; the other {lost} gold is lost." if lost else ", with nothing lost."))


@situation("rune-age", "spend_gold", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_spend_gold(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve a Spend Gold action: gold played, purchases, Promise of Riches, gold lost."""
    gold = sum(pos["gold_cards"])
    purchases = pos["purchases"]
    promises = int(pos.get("promise_of_riches", 0))
    trace.step(f"The player plays {len(pos['gold_cards'])} gold card(s) worth {gold} gold in all.",
               "ra.spend-gold-action")
    costs, unused = discounted_costs(purchases, promises)
    cost = sum(costs)
    listed = ", ".join(f"{p['name']} ({p['cost']})" for p in purchases) or "nothing"
    if promises:
        trace.step(f"{promises} Promise of Riches destroyed: each lowers one unit card's cost by 1, so "
                   f"{listed} cost {cost} instead of {sum(p['cost'] for p in purchases)}"
                   + (f"; {unused} discount(s) find no unit cost left to lower." if unused else "."),
                   discounted_costs)
    else:
        trace.step(f"Purchases: {listed}, {cost} gold in all.", "ra.spend-gold-action")
    out = {"gold": gold, "cost": cost, "lost": 0}
    if not is_affordable(gold, cost):
        trace.violate(f"the purchases cost {cost} gold but the gold cards played provide only {gold}",
                      is_affordable)
        return out
    out["lost"] = unused_gold = unspent_gold_lost(gold, cost)
    trace.step(f"{unused_gold} gold is left over and lost: a played gold card is spent whole and gold never "
               f"carries over." if unused_gold else "All the gold played is spent; nothing is lost.",
               unspent_gold_lost)
    return out
