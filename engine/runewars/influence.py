"""Runewars influence bids called for by Season cards: who the bid singles out, who breaks a tie, what is left.

Paragraphs: ``rw.influence-bids`` with its steps ``.1``-``.4`` (declare, bid secretly, reveal together, and every
player discards what he bid, winner or not) and ``rw.ties-on-influence-bids`` (the Primarch of the Wizards'
Council holder decides among the tied players; without him, the tied player with the most unspent influence; then
the tied player with the highest starting influence); the book's ``rw.influence-bid-example``.

Where even the starting influence is tied (it differs between factions in the base game, so only house setups get
there) the rules name no one: ``chooser`` stays null and the tied players settle it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome
from engine.runewars.common import (
    GAME,
    Faction,
    Labels,
    faction_name,
    faction_names,
    plural,
    refuse_duplicates,
)

Contest = Annotated[Literal["highest", "lowest"], Labels({"highest": "The highest bid", "lowest": "The lowest bid"})]

class Bidder(Model):
    """A player in the bid: influence held, bid, starting influence and whether he is the Primarch."""

    model_config = ConfigDict(title="Player")

    faction: Faction = Field(title="Faction")
    influence: int = Field(ge=0, le=200, title="Influence held", description="Influence tokens held before the bid.",
                           json_schema_extra={"default": 0})
    bid: int = Field(ge=0, le=200, title="Bid", description="Influence tokens in the closed fist (0 is a bid too).",
                     json_schema_extra={"default": 0})
    starting_influence: int = Field(0, ge=0, le=50, title="Starting influence",
                                    description="The influence printed on the faction sheet (the last tie-break).")
    primarch: bool = Field(False, title="Primarch of the Wizards' Council", description="Holds this Title card.")

    @property
    def unspent(self) -> int:
        """Return the influence he keeps: held less bid."""
        return self.influence - self.bid


class InfluenceBidPosition(OpenPosition):
    """An influence bid called for by a Season card: every player's influence and bid, and who is singled out."""

    game: Literal["runewars"]
    situation: Literal["influence_bid"]
    players: list[Bidder] = Field(min_length=1, max_length=4, title="Players",
                                  description="Every player, in play order.")
    contest: Contest = Field("highest", title="The Season card singles out",
                                                  description="The highest bid (usually, to win something) or the "
                                                              "lowest.")
    tie_choice: Faction | None = Field(None, title="Tie broken in favour of",
                                       description="The tied faction the tie-breaker picks.")

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        refuse_duplicates([p.faction for p in self.players], "faction", "players")
        return self

    def reading(self) -> list[str]:
        """Each player's bid and influence held, the Primarch, what the Season card singles out, a stated pick."""
        out = []
        for p in self.players:
            extra = ", holding the Primarch of the Wizards' Council" if p.primarch else ""
            out.append(f"{faction_name(p.faction)} bids {p.bid} of {plural(p.influence, 'influence token')} "
                       f"(starting influence {p.starting_influence}){extra}.")
        out.append(f"The Season card singles out the {self.contest} bid.")
        if self.tie_choice:
            out.append(f"A tie is broken in favour of {faction_name(self.tie_choice)}.")
        return out


class InfluenceBidOutcome(Outcome):
    """The deciding bid, who made it, who breaks a tie, who is singled out, and each player's influence left."""

    deciding_bid: int | None = None
    contenders: list[Faction] = Field(default_factory=list)
    chooser: Faction | None = None
    selected: Faction | None = None
    influence_after: dict[str, int] = Field(default_factory=dict)


@rule("rw.influence-bids.3")
def contenders(players: Sequence[Bidder], contest: str) -> tuple[int, list[Faction]]:
    """Return the deciding bid (highest or lowest, as the Season card says) and the factions that bid it."""
    bids = [p.bid for p in players]
    top = max(bids) if contest == "highest" else min(bids)
    return top, [p.faction for p in players if p.bid == top]


@rule("rw.ties-on-influence-bids")
def tie_breaker(players: Sequence[Bidder], tied: Sequence[str]) -> tuple[Faction | None, str]:
    """Return who decides a tie and why: the Primarch holder (tied or not); else the tied player with the most
    unspent influence; then the tied player with the highest starting influence (None if still tied)."""
    primarch = [p for p in players if p.primarch]
    if primarch:
        return primarch[0].faction, "holds the Primarch of the Wizards' Council"
    pool = [p for p in players if p.faction in tied]
    most = max(p.unspent for p in pool)
    pool = [p for p in pool if p.unspent == most]
    if len(pool) == 1:
        return pool[0].faction, f"has the most unspent influence among the tied players ({most})"
    high = max(p.starting_influence for p in pool)
    pool = [p for p in pool if p.starting_influence == high]
    if len(pool) == 1:
        return pool[0].faction, (f"ties on unspent influence ({most}) but has the highest starting influence "
                                 f"({high})")
    return None, "the tied players are level on unspent and starting influence; the rules name no one further"


@rule("rw.influence-bids.4")
def influence_after(players: Sequence[Bidder]) -> dict[str, int]:
    """Return each player's influence after the bid: every bid is discarded, the winner's and the losers'."""
    return {p.faction: p.unspent for p in players}


LABELS: dict[str, Label] = {
    "deciding_bid": "Deciding bid", "contenders": "Made that bid", "chooser": "Breaks the tie",
    "selected": "Singled out", "influence_after": "Influence after the bid",
}


@rule("rw.influence-bids.2", "rw.influence-bids.1", "rw.ties-on-influence-bids", "rw.title-cards")
def _legal_bids(pos: InfluenceBidPosition, trace: Trace) -> bool:
    """Step 2: each bid is 0 up to the tokens held; only 1 Primarch of the Wizards' Council exists."""
    for p in pos.players:
        if p.bid > p.influence:
            trace.violate(f"{faction_name(p.faction)} bids {p.bid} but holds {p.influence} influence; a bid is 0 up "
                          f"to the tokens he holds", "rw.influence-bids.2", "rw.influence-bids.1")
    holders = [p.faction for p in pos.players if p.primarch]
    if len(holders) > 1:
        trace.violate(f"{faction_names(holders)} both hold the Primarch of the Wizards' Council; there is only 1 "
                      f"such Title card", "rw.ties-on-influence-bids", "rw.title-cards")
    return not trace.violations


@rule("rw.ties-on-influence-bids")
def _single_out(pos: InfluenceBidPosition, top: int, tied: list[Faction], trace: Trace,
                out: InfluenceBidOutcome) -> bool:
    """Step 3 and the ties: the one player who made the deciding bid, or the tie-breaker's pick."""
    choice, contest = pos.tie_choice, pos.contest
    if len(tied) == 1:
        if choice is not None and choice != tied[0]:
            trace.violate(f"there is no tie: {faction_name(tied[0])} alone made the {contest} bid, not "
                          f"{faction_name(choice)}", contenders)
            return False
        out.selected = tied[0]
        trace.step(f"{faction_name(tied[0])} alone made the {contest} bid ({top}) and is singled out by the Season "
                   "card.",
                   contenders)
        return True
    if choice is not None and choice not in tied:
        trace.violate(f"{faction_name(choice)} is not among the tied players ({faction_names(tied)})",
                      "rw.ties-on-influence-bids")
        return False
    who, why = tie_breaker(pos.players, tied)
    out.chooser = who
    trace.step(f"{faction_names(tied)} tie on the {contest} bid ({top}): "
               + (f"{faction_name(who)} decides, as he {why}." if who else f"{why}."), tie_breaker)
    if choice is not None:
        out.selected = choice
        trace.step(f"{faction_name(who) or 'The tied players'} {'picks' if who else 'pick'} "
                   f"{'himself' if who == choice else faction_name(choice)}.", "rw.ties-on-influence-bids")
    else:
        trace.decide(faction_name(who) or f"the tied players ({faction_names(tied)})",
                     "which of the tied players the bid singles out",
                     "rw.ties-on-influence-bids", options=tied, field="tie_choice")
    return True


def _summary(pos: InfluenceBidPosition, out: InfluenceBidOutcome, top: int, tied: Sequence[str]) -> str:
    who, contest = out.chooser, pos.contest
    if out.selected:
        head = (f"{faction_name(out.selected)} is singled out by the {contest} bid of {top}"
                + (f" ({faction_name(who) or 'the tied players'} broke the tie)" if len(tied) > 1 else ""))
    else:
        head = (f"{faction_names(tied)} tie on the {contest} bid of {top} and "
                f"{faction_name(who) or 'the tied players'} "
                f"{'picks' if who else 'pick'} which one the Season card singles out")
    spent = sum(p.bid for p in pos.players)
    return f"{head}; all bids are lost ({plural(spent, 'influence token')} in all)"


@situation(GAME, "influence_bid", InfluenceBidPosition, labels=LABELS)
@rule("rw.influence-bids", "rw.influence-bids.1", "rw.influence-bids.2", "rw.influence-bids.3")
def resolve_influence_bid(pos: InfluenceBidPosition, trace: Trace, corpus: Corpus) -> InfluenceBidOutcome:
    """Resolve an influence bid: the deciding bid, the tie-breaker, the player singled out, influence left."""
    players = pos.players
    out = InfluenceBidOutcome()
    if not _legal_bids(pos, trace):
        return out
    trace.step("Each player states his influence, hides his tokens and bids in a closed fist; all reveal at once ("
               + ", ".join(f"{faction_name(p.faction)} {p.bid} of {p.influence}" for p in players) + ").",
               "rw.influence-bids", "rw.influence-bids.1", "rw.influence-bids.2", "rw.influence-bids.3")
    top, tied = contenders(players, pos.contest)
    out.deciding_bid, out.contenders = top, tied
    if not _single_out(pos, top, tied, trace, out):
        return out
    after = influence_after(players)
    out.influence_after = after
    trace.step("Every player discards the influence he bid, winner or not: "
               + ", ".join(f"{faction_name(f)} {n} left" for f, n in after.items()) + ".", influence_after)
    trace.summarize(_summary(pos, out, top, tied))
    return out
