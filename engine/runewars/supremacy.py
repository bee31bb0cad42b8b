"""Runewars Supremacy Bonus: an Order card gets it only as the highest-numbered Order card in its player's play area.

Paragraphs: ``rw.supremacy-bonus`` (compared with the player's own cards in play this year, the active one
included), ``rw.supremacy-bonus.spring`` (always in spring), ``rw.supremacy-bonus.example`` (Recruit after Fortify),
``rw.order-card-summary.fortify`` (Fortify has no Supremacy Bonus), ``rw.choose-order-cards.used-cards`` (8 different
cards, 4 used a year; they return to hand each spring).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus, get_corpus
from engine.model import Field, OpenPosition, Outcome, maybe
from engine.runewars.common import GAME, Season, names

OrderNumber = Annotated[int, Field(ge=1, le=8)]


class SupremacyPosition(OpenPosition):
    """An Order card being resolved, and its player's Order cards in play this year."""

    game: Literal["runewars"]
    situation: Literal["supremacy"]
    order: OrderNumber
    orders_in_play: list[OrderNumber] = Field(max_length=16)
    season: Season | None = maybe()

    def reading(self) -> list[str]:
        """The Order card resolved, the player's other cards in play, the season."""
        corpus = get_corpus()
        others = [order_name(o, corpus) for o in self.orders_in_play if o != self.order]
        out = [f"The player resolves {order_name(self.order, corpus)}.",
               f"His other Order cards in play this year: {names(others)}."]
        if self.season:
            out.append(f"Season: {self.season}.")
        return out


class SupremacyOutcome(Outcome):
    """Whether the Order card gets its Supremacy Bonus (null when the position is not legal)."""

    supremacy_bonus: bool | None = None


def order_name(number: int, corpus: Corpus) -> str:
    """Return ``Recruit (#5)`` for an Order card number."""
    cards: Mapping[int, str] = corpus.fact("rw.order-card-details", "order_cards")
    return f"{cards.get(number, 'Order')} (#{number})"


@rule("rw.order-card-summary.fortify")
def has_supremacy_ability(order: int, corpus: Corpus) -> bool:
    """Return whether the Order card has a Supremacy Bonus at all (Fortify has none)."""
    facts = corpus.facts_of("rw.order-card-summary.fortify")
    return not (order == int(facts["number"]) and not facts["has_supremacy_bonus"])


@rule("rw.supremacy-bonus", "rw.order-card-breakdown")
def is_highest_in_play(order: int, in_play: Sequence[int]) -> bool:
    """Return whether the card is the highest-numbered Order card in its player's play area."""
    return all(o <= order for o in in_play)


@rule("rw.choose-order-cards.used-cards")
def max_cards_per_year(corpus: Corpus) -> int:
    """Return how many Order cards a player uses in a year (4 of his 8)."""
    return int(corpus.fact("rw.choose-order-cards.used-cards", "order_cards_used_per_year"))


LABELS: dict[str, Label] = {"supremacy_bonus": "Supremacy Bonus"}


def _summary(pos: SupremacyPosition, out: SupremacyOutcome, trace: Trace) -> str:
    """One sentence: whether the Order card gets its Supremacy Bonus, and why."""
    corpus = get_corpus()
    order = pos.order
    card = order_name(order, corpus)
    others = [o for o in pos.orders_in_play if o != order]
    if out.supremacy_bonus:
        return f"{card} gets its Supremacy Bonus: no higher Order card of the player is in play."
    higher = sorted(o for o in others if o > order)
    if higher:
        above = names([order_name(o, corpus) for o in higher])
        return f"{card} gets no Supremacy Bonus: {above} {'is' if len(higher) == 1 else 'are'} higher."
    return f"{card} has no Supremacy Bonus ability."


@situation(GAME, "supremacy", SupremacyPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.choose-order-cards.used-cards", "rw.supremacy-bonus.spring", "rw.spring", "rw.supremacy-bonus",
      "rw.fortify-order", "rw.resolve-order-cards.primary-first", "rw.supremacy-bonus.example")
def resolve_supremacy(pos: SupremacyPosition, trace: Trace, corpus: Corpus) -> SupremacyOutcome:
    """Decide whether an Order card gets its Supremacy Bonus from the player's Order cards in play this year."""
    order = pos.order
    listed = list(pos.orders_in_play)
    season = pos.season
    out = SupremacyOutcome()
    active = order_name(order, corpus)
    others = list(listed)
    if order in others:
        others.remove(order)
    if len(set(others)) != len(others) or order in others:
        trace.violate("a player holds 8 different Order cards and plays each at most once a year; the same number "
                      "cannot be in his play area twice", "rw.choose-order-cards.used-cards")
        return out
    if len(others) + 1 > max_cards_per_year(corpus):
        trace.violate(f"a player uses only {max_cards_per_year(corpus)} Order cards a year, so at most "
                      f"{max_cards_per_year(corpus) - 1} others can be in play with the active one", max_cards_per_year)
        return out
    if season == "spring" and others:
        trace.violate("in spring every Order card has just returned to its player's hand, so no other Order card "
                      "can be in play", "rw.supremacy-bonus.spring", "rw.spring")
        return out
    earlier = names([order_name(o, corpus) for o in sorted(others)])
    trace.step(f"The player resolves {active}; his other Order cards in play this year: {earlier}. Other players' "
               f"cards do not matter.", "rw.supremacy-bonus")
    if not has_supremacy_ability(order, corpus):
        out.supremacy_bonus = False
        trace.step(f"{active} has no Supremacy Bonus ability (it is always its player's highest card in play).",
                   has_supremacy_ability, "rw.fortify-order")
        return out
    bonus = is_highest_in_play(order, others)
    out.supremacy_bonus = bonus
    if season == "spring":
        trace.step("In spring no other Order card is in play, so the card always gets its Supremacy Bonus.",
                   "rw.supremacy-bonus.spring", is_highest_in_play)
    elif bonus:
        trace.step(f"{active} is the highest-numbered Order card in his play area, so after the primary ability he "
                   f"may also use its Supremacy Bonus.", is_highest_in_play, "rw.resolve-order-cards.primary-first")
    else:
        above = [order_name(o, corpus) for o in sorted(others) if o > order]
        verb = "is" if len(above) == 1 else "are"
        trace.step(f"{names(above)} in his play area {verb} higher than {active}, so he resolves only the primary "
                   f"ability.",
                   is_highest_in_play, "rw.supremacy-bonus.example")
    return out
