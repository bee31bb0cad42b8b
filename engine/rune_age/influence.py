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

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.schema import BOOL, Schema, arr, enum, integer, obj, text

TIMINGS = ("perform_actions", "discard_hand", "ability")
SOURCE: Schema = {
    **obj(["name", "influence"],
          name={**text(), "title": "Card", "description": "The city, stronghold, Reward or unit exhausted."},
          kind={**enum("city", "stronghold", "reward", "unit"), "title": "Kind", "default": "city"},
          influence={**integer(0, 20), "title": "Influence", "description": "The influence the card produces."},
          exhausted={**BOOL, "title": "Already exhausted",
                     "description": "The card was already exhausted before this spend.", "default": False}),
    "title": "Exhausted card",
}
PURCHASE: Schema = {
    **obj(["name", "cost"],
          name={**text(), "title": "Card bought or ability paid"},
          kind={**enum("neutral", "gold", "faction_unit", "stronghold", "ability"), "title": "Kind",
                "default": "neutral"},
          cost={**integer(0, 50), "title": "Influence cost"}),
    "title": "Purchase",
}
SCHEMA: dict[str, Any] = obj(
    ["timing", "exhaust"], extra=True,
    player={**text(), "title": "Player"},
    timing={**enum(*TIMINGS), "title": "When",
            "description": "perform_actions: a Spend Influence action; discard_hand: keeping cards in turn step 3; "
                           "ability: paying an ability's influence cost.", "default": "perform_actions"},
    exhaust={**arr(SOURCE, max_items=30), "title": "Cards exhausted for influence"},
    purchases={**arr(PURCHASE, max_items=50), "title": "Purchases"},
    retain={**integer(0, 60), "title": "Cards kept", "description": "Cards kept in hand at the discard_hand step."},
    hand={**integer(0, 60), "title": "Cards in hand", "description": "Cards in hand at the discard_hand step."},
    retained_cards={**arr(text(), max_items=60), "title": "Cards kept (names)"},
    carried_over={**integer(0, 50), "title": "Influence carried over",
                  "description": "Influence left from an earlier spend that the player wants to add.", "default": 0},
)
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


def _retained(pos: Mapping[str, Any]) -> tuple[int, Sequence[str] | None]:
    names = pos.get("retained_cards")
    retain = pos.get("retain")
    if retain is None:
        retain = len(names) if names is not None else 0
    if names is not None and len(names) != retain:
        raise UnreadableInputError(f"retained_cards names {len(names)} card(s) but retain is {retain}",
                                   path="retained_cards")
    if retain > 0 and pos.get("hand") is None:
        raise UnreadableInputError("missing field 'hand' (required when retain is above 0)", path="hand")
    return int(retain), names


def _check_purchases(purchases: Sequence[Mapping[str, Any]], timing: str, trace: Trace) -> None:
    for i, p in enumerate(purchases):
        kind = p.get("kind", "neutral")
        if kind in BOUGHT_WITH_GOLD:
            trace.violate(f"purchases[{i}] ({p['name']}) is a {kind.replace('_', ' ')}; those are bought with "
                          f"gold, not influence", BOUGHT_WITH_GOLD[kind], "ra.term.influence")
        elif not purchase_fits(kind, timing):
            when = "a Spend Influence action" if kind != "ability" else "paying an ability's cost"
            trace.violate(f"purchases[{i}] ({p['name']}) is a {kind} purchase, which is only made in {when}, "
                          f"not at {timing.replace('_', ' ')}", purchase_fits,
                          *(["rafaq.faq.general.13"] if kind == "ability" or timing == "ability" else []))


@situation("rune-age", "spend_influence", SCHEMA, labels=LABELS)
def resolve_spend_influence(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve a spending of influence: what it buys, what is kept in hand, and what is lost."""
    timing = pos["timing"]
    who = pos.get("player") or "The player"
    exhaust = list(pos["exhaust"])
    purchases = list(pos.get("purchases", []))
    retain, names = _retained(pos)
    hand = pos.get("hand")
    influence = sum(int(c["influence"]) for c in exhaust)
    bought = sum(int(p["cost"]) for p in purchases)
    keep_cost = retain_cost(retain, corpus)
    cost = bought + keep_cost
    out: dict[str, Any] = {"influence": influence, "cost": cost, "lost": 0,
                           "exhausted": [c["name"] for c in exhaust], "acquired": []}
    if timing == "discard_hand":
        out.update(kept=retain, discarded=None if hand is None else max(0, hand - retain),
                   draws=draws_after(retain, corpus))

    rewards = any(c.get("kind") == "reward" for c in exhaust)
    listed = ", ".join(f"{c['name']} ({c['influence']})" for c in exhaust) or "no card"
    trace.step(f"{who} exhausts {listed}: {influence} influence in all, pooled for this spend.",
               "ra.spend-influence-action", "ra.spending-influence",
               *(["rafaq.errata.rulebook.p7"] if rewards else []))
    if purchases:
        trace.step("Purchases: " + ", ".join(f"{p['name']} ({p['cost']})" for p in purchases)
                   + f", {bought} influence.", "ra.spend-influence-action",
                   *(["rafaq.faq.general.13"] if timing == "ability" else []))
    if retain:
        trace.step(f"Keeping {retain} card(s) in hand costs {keep_cost} influence (1 per card).", retain_cost)
    for i, c in enumerate(exhaust):
        if not can_exhaust(c.get("exhausted", False)):
            trace.violate(f"exhaust[{i}] ({c['name']}) is already exhausted; it is refreshed only at the start of "
                          f"its controller's turn", can_exhaust, "ra.a-player-s-turn.1",
                          *(["rafaq.errata.rulebook.p7"] if c.get("kind") == "reward" else []))
    carried = int(pos.get("carried_over", 0))
    if carried:
        trace.violate(f"{carried} influence from an earlier spend cannot be added: unspent influence never "
                      f"carries over", is_affordable,
                      *(["rafaq.faq.general.13"] if timing == "ability" else []))
    _check_purchases(purchases, timing, trace)
    if retain and timing != "discard_hand":
        trace.violate(f"cards are kept in hand only at the discard hand step, not at {timing.replace('_', ' ')}",
                      retain_cost)
    if hand is not None and retain > hand:
        trace.violate(f"retain is {retain} but the hand holds only {hand} card(s)", retain_cost)
    if not is_affordable(influence, cost):
        trace.violate(f"the spend costs {cost} influence but the exhausted cards produce only {influence}",
                      is_affordable)
    if trace.violations:
        return out
    out["lost"] = lost = influence_lost(influence, cost)
    out["acquired"] = [p["name"] for p in purchases if p.get("kind", "neutral") in ("neutral", "gold")]
    if out["acquired"]:
        trace.step(f"{', '.join(out['acquired'])} go(es) faceup into {who}'s discard pile.",
                   "ra.spend-influence-action.neutral-cards", "ra.spend-influence-action.gold-cards")
    trace.step(f"{lost} influence is left unspent and lost; it cannot be saved for later."
               if lost else "All the influence produced is spent; nothing is lost.", influence_lost,
               *(["rafaq.faq.general.13"] if timing == "ability" else []))
    if timing == "discard_hand":
        _discard_hand(out, who, names, trace, corpus)
    trace.summarize(_summary(out, who, timing, purchases, lost))
    return out


def _discard_hand(out: dict[str, Any], who: str, names: Sequence[str] | None, trace: Trace, corpus: Corpus) -> None:
    kept = out["kept"]
    gone = f"{out['discarded']} card(s)" if out["discarded"] is not None else "every other card"
    trace.step(f"{who} keeps {kept} card(s)" + (f" ({', '.join(names)})" if names else "")
               + f" and discards {gone}.", retain_cost)
    size = corpus.fact("ra.a-player-s-turn.4", "hand_size")
    if kept > size:
        trace.step(f"With {kept} cards kept, {who} already holds more than {size}: he draws nothing and "
                   f"keeps them all, as there is no maximum hand size.", draws_after)
    else:
        trace.step(f"Turn step 4: {who} draws {out['draws']} card(s) to hold {size}.", draws_after)
    if kept and names is None:
        trace.decide(who, f"which {kept} card(s) to keep in hand", retain_cost, field="retained_cards")


def _summary(out: Mapping[str, Any], who: str, timing: str, purchases: Sequence[Mapping[str, Any]],
             lost: int) -> str:
    lost_text = f"{lost} influence is lost" if lost else "nothing is lost"
    if timing == "discard_hand":
        discard = f", discards {out['discarded']}" if out["discarded"] is not None else ""
        return (f"{who} pays {out['cost']} of {out['influence']} influence to keep {out['kept']} card(s){discard} "
                f"and draws {out['draws']}; {lost_text}.")
    what = ", ".join(p["name"] for p in purchases) or "nothing"
    return f"{who} spends {out['cost']} of {out['influence']} influence on {what}; {lost_text}."
