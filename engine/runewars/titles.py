"""Runewars Acquire Power (Order #7): influence from the dials, and taking a Title card by outbidding its influence.

Paragraphs: ``rw.acquire-power-order`` (1 influence per influence icon at or below each dial's arrow, the dials
not lowered; ``rw.resource-dials.adjusting``, ``rw.frequently-overlooked-rules.1``), ``rw.acquire-power-order
.supremacy`` (spend more influence than the Title card carries: its influence is removed, the card moves to the
player's play area with what he spent on it), ``rw.acquire-power-order.spent`` (influence on a Title card is spent:
no bids, no other use), ``rw.title-cards`` and ``rw.component.title-cards`` (one owner at a time, taken from its
holder), ``rw.order-card-summary.acquire-power``. The icons on the dials are the player's to count (the faction
sheets are not in the books): he states how many influence icons the three dials show at or below their arrows.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome, maybe, refuse
from engine.runewars.common import GAME, Faction, Name, capital, faction_name, plural, the_player

MAX_OPTIONS = 12


class AcquirePowerPosition(OpenPosition):
    """A player resolving Acquire Power: his influence, his dials' influence icons and the Title card he wants."""

    game: Literal["runewars"]
    situation: Literal["acquire_power"]
    player: Faction = Field(title="Player", description="The faction resolving Acquire Power.")
    influence: int = Field(0, ge=0, le=200, title="Influence held", description="Influence tokens he holds before "
                           "the order (influence already on his Title cards not counted).")
    icons: int = Field(0, ge=0, le=30, title="Influence icons on his dials",
                       description="Influence icons on the three resource dials, counting the space each arrow points "
                                   "to and every space below it.")
    supremacy: bool = Field(False, title="He gets the Supremacy Bonus",
                            description="Acquire Power is his highest Order card in play (see the Supremacy Bonus "
                                        "situation).")
    title: Name | None = maybe("The Title card he wants to take with the Supremacy Bonus (absent: none).",
                               title="Title card wanted")
    holder: Faction | None = Field(None, title="Its holder", description="Who holds that Title card now (none: "
                                   "it lies in the common play area).")
    on_title: int = Field(0, ge=0, le=200, title="Influence on that Title card",
                          description="Influence tokens lying on the Title card now.")
    spend: int | None = maybe("Influence he spends on the Title card (0: he does not use the bonus; absent: the "
                              "ruling asks).", title="Influence spent on it", ge=0, le=230)

    @model_validator(mode="after")
    def _readable(self) -> Self:
        if self.holder == self.player:
            raise refuse(f"the {faction_name(self.player)} player already holds {self.title or 'that Title card'}",
                         "holder")
        if self.spend and self.title is None:
            raise refuse("influence spent on no Title card", "spend")
        return self

    def reading(self) -> list[str]:
        """The player's influence, dials, bonus and the Title card, in a player's words."""
        who = capital(the_player(self.player))
        out = [f"{who} holds {plural(self.influence, 'influence token')}; his dials show "
               f"{plural(self.icons, 'influence icon')} at or below their arrows.",
               f"He {'gets' if self.supremacy else 'does not get'} the Supremacy Bonus."]
        if self.title:
            where = f"held by {the_player(self.holder)}" if self.holder else "in the common play area"
            out.append(f"He wants {self.title}, {where}, with {plural(self.on_title, 'influence token')} on it.")
        if self.spend is not None:
            out.append(f"He spends {self.spend} on it." if self.spend else "He does not use the bonus.")
        return out


class AcquirePowerOutcome(Outcome):
    """Influence gained and held after, and what became of the Title card."""

    gained: int | None = None
    influence_after: int | None = None
    title_taken: bool | None = None
    taken_from: Faction | None = None
    on_title_after: int | None = None
    returned: int | None = None


@rule("rw.acquire-power-order", "rw.resource-dials.adjusting", "rw.frequently-overlooked-rules.1")
def dial_influence(icons: int) -> int:
    """Return the influence the primary ability gives: one per influence icon at or below the arrows."""
    return icons


@rule("rw.acquire-power-order.supremacy")
def least_to_take(on_title: int) -> int:
    """Return the least influence that takes a Title card: one more than it carries."""
    return on_title + 1


@rule("rw.acquire-power-order", "rw.order-card-summary.acquire-power", "rw.resource-dials.adjusting",
      "rw.frequently-overlooked-rules.1")
def _primary(pos: AcquirePowerPosition, trace: Trace, out: AcquirePowerOutcome) -> None:
    gained = dial_influence(pos.icons)
    out.gained, out.influence_after = gained, pos.influence + gained
    trace.step(f"Primary ability: {plural(gained, 'influence token')}, one for each influence icon at or below the "
               f"dials' arrows; the dials stay where they are. He now holds {out.influence_after}.",
               "rw.acquire-power-order", "rw.order-card-summary.acquire-power", "rw.resource-dials.adjusting",
               "rw.frequently-overlooked-rules.1")


@rule("rw.acquire-power-order.supremacy", "rw.acquire-power-order.spent", "rw.title-cards",
      "rw.component.title-cards")
def _bonus(pos: AcquirePowerPosition, trace: Trace, out: AcquirePowerOutcome) -> None:
    held = out.influence_after or 0
    need = least_to_take(pos.on_title)
    title = pos.title or "the Title card"
    if held < need:
        out.title_taken = False
        trace.step(f"{title} carries {pos.on_title}: taking it needs at least {need}, more than the {held} he holds.",
                   "rw.acquire-power-order.supremacy")
        return
    if pos.spend is None:
        top = min(held, need + MAX_OPTIONS - 2)
        trace.decide(the_player(pos.player), f"how much influence to spend on {title} (0 to leave it, or {need} to "
                     f"{held})", "rw.acquire-power-order.supremacy", options=[0, *range(need, top + 1)],
                     field="spend")
        return
    if pos.spend == 0:
        out.title_taken = False
        trace.step(f"He leaves {title} where it is.", "rw.acquire-power-order.supremacy")
        return
    if pos.spend > held:
        trace.violate(f"he spends {pos.spend} but holds only {held}", "rw.acquire-power-order.supremacy")
        return
    if pos.spend < need:
        trace.violate(f"{title} carries {pos.on_title}, so taking it needs more than that: at least {need}, not "
                      f"{pos.spend}", "rw.acquire-power-order.supremacy")
        return
    _take(pos, pos.spend, trace, out)


@rule("rw.acquire-power-order.supremacy", "rw.acquire-power-order.spent", "rw.title-cards",
      "rw.component.title-cards")
def _take(pos: AcquirePowerPosition, spend: int, trace: Trace, out: AcquirePowerOutcome) -> None:
    title = pos.title or "the Title card"
    out.title_taken, out.taken_from, out.on_title_after, out.returned = True, pos.holder, spend, pos.on_title
    out.influence_after = (out.influence_after or 0) - spend
    source = f"from {the_player(pos.holder)}'s play area" if pos.holder else "from the common play area"
    trace.step(f"He spends {spend}, more than the {pos.on_title} on {title}: the {pos.on_title} already there are "
               f"removed and the card moves {source} to his own, a Title card having one owner at a time.",
               "rw.acquire-power-order.supremacy", "rw.title-cards", "rw.component.title-cards")
    trace.step(f"The {spend} he spent lie on {title}: spent influence he cannot bid or use, which makes the card "
               f"dearer for anyone to take. He keeps {out.influence_after}.", "rw.acquire-power-order.spent")


LABELS: dict[str, Label] = {"gained": "Influence gained", "influence_after": "Influence held after",
                            "title_taken": "Title card taken", "taken_from": "Taken from",
                            "on_title_after": "Influence on the Title card after",
                            "returned": "Influence removed from the card"}


def _summary(pos: AcquirePowerPosition, out: AcquirePowerOutcome, trace: Trace) -> str:
    head = f"{capital(the_player(pos.player))} gains {plural(out.gained or 0, 'influence token')}"
    if trace.decisions:
        return f"{head} and chooses how much to spend on {pos.title}"
    if out.title_taken:
        return f"{head} and takes {pos.title} for {out.on_title_after}, keeping {out.influence_after}"
    return f"{head} and holds {out.influence_after}" + (f"; {pos.title} stays where it is" if pos.title else "")


@situation(GAME, "acquire_power", AcquirePowerPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.acquire-power-order.supremacy", "rw.supremacy-bonus", "rw.resolve-order-cards.primary-first")
def resolve_acquire_power(pos: AcquirePowerPosition, trace: Trace, corpus: Corpus) -> AcquirePowerOutcome:
    """Resolve Acquire Power: influence from the dials, then, with the Supremacy Bonus, taking a Title card."""
    out = AcquirePowerOutcome()
    _primary(pos, trace, out)
    if pos.title is None:
        return out
    if not pos.supremacy:
        out.title_taken = False
        trace.step(f"Without the Supremacy Bonus he cannot take {pos.title}: only the primary ability resolves.",
                   "rw.supremacy-bonus", "rw.acquire-power-order.supremacy")
        return out
    trace.step("After the primary ability he may use the Supremacy Bonus.", "rw.resolve-order-cards.primary-first")
    _bonus(pos, trace, out)
    return out
