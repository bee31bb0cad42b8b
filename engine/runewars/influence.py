"""Runewars influence bids called for by Season cards: who the bid singles out, who breaks a tie, what is left.

Paragraphs: ``rw.influence-bids`` with its steps ``.1``-``.4`` (declare, bid secretly, reveal together, and every
player discards what he bid, winner or not) and ``rw.ties-on-influence-bids`` (the Primarch of the Wizards'
Council holder decides among the tied players; without him, the tied player with the most unspent influence; then
the tied player with the highest starting influence); the book's ``rw.influence-bid-example``.

Where even the starting influence is tied (it differs between factions in the base game, so only house setups get
there) the rules name no one: ``chooser`` stays null and the tied players settle it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.runewars.common import FACTIONS, GAME, faction_name, names, plural, unique_keys
from engine.runewars.forms import doc
from engine.schema import BOOL, arr, enum, integer, nullable, obj

PLAYER = obj(["faction", "influence", "bid"],
             faction=doc(enum(*FACTIONS), "Faction"),
             influence=doc(integer(0, 200), "Influence held", "Influence tokens held before the bid.", 0),
             bid=doc(integer(-20, 200), "Bid", "Influence tokens in the closed fist (0 is a bid too).", 0),
             starting_influence=doc(integer(0, 50), "Starting influence", "The influence printed on the faction "
                                    "sheet (the last tie-break).", 0),
             primarch=doc(BOOL, "Primarch of the Wizards' Council", "Holds this Title card.", False))
SCHEMA: dict[str, Any] = obj(
    ["players"], extra=True,
    players=doc(arr(PLAYER, min_items=1, max_items=4), "Players", "Every player, in play order."),
    contest=doc(enum("highest", "lowest"), "The Season card singles out", "The highest bid (usually, to win "
                "something) or the lowest.", "highest"),
    tie_choice=doc(nullable(enum(*FACTIONS)), "Tie broken in favour of", "The tied faction the tie-breaker picks.",
                   None),
)


@dataclass(frozen=True)
class Bidder:
    """A player in the bid: influence held, bid, starting influence and whether he is the Primarch."""

    faction: str
    influence: int
    bid: int
    starting_influence: int
    primarch: bool

    @property
    def unspent(self) -> int:
        """Return the influence he keeps: held less bid."""
        return self.influence - self.bid

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Bidder:
        """Read a player of the position."""
        return cls(raw["faction"], int(raw["influence"]), int(raw["bid"]), int(raw.get("starting_influence") or 0),
                   bool(raw.get("primarch", False)))


@rule("rw.influence-bids.3")
def contenders(players: Sequence[Bidder], contest: str) -> tuple[int, list[str]]:
    """Return the deciding bid (highest or lowest, as the Season card says) and the factions that bid it."""
    bids = [p.bid for p in players]
    top = max(bids) if contest == "highest" else min(bids)
    return top, [p.faction for p in players if p.bid == top]


@rule("rw.ties-on-influence-bids")
def tie_breaker(players: Sequence[Bidder], tied: Sequence[str]) -> tuple[str | None, str]:
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


@situation(GAME, "influence_bid", SCHEMA, labels=LABELS)
def resolve_influence_bid(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve an influence bid: the deciding bid, the tie-breaker, the player singled out, influence left."""
    unique_keys(pos["players"], "faction", "players")
    players = [Bidder.from_json(p) for p in pos["players"]]
    contest = pos.get("contest") or "highest"
    out: dict[str, Any] = {"deciding_bid": None, "contenders": [], "chooser": None, "selected": None,
                           "influence_after": {}}
    for p in players:
        if p.bid < 0 or p.bid > p.influence:
            trace.violate(f"{p.faction} bids {p.bid} but holds {p.influence} influence; a bid is 0 up to the "
                          f"tokens he holds", "rw.influence-bids.2", "rw.influence-bids.1")
    holders = [p.faction for p in players if p.primarch]
    if len(holders) > 1:
        trace.violate(f"{names(holders)} both hold the Primarch of the Wizards' Council; there is only 1 such Title "
                      f"card", "rw.ties-on-influence-bids", "rw.title-cards")
    if trace.violations:
        return out
    trace.step("Each player states his influence, hides his tokens and bids in a closed fist; all reveal at once ("
               + ", ".join(f"{p.faction} {p.bid} of {p.influence}" for p in players) + ").",
               "rw.influence-bids", "rw.influence-bids.1", "rw.influence-bids.2", "rw.influence-bids.3")
    top, tied = contenders(players, contest)
    out.update(deciding_bid=top, contenders=tied)
    choice = pos.get("tie_choice")
    if len(tied) == 1:
        if choice is not None and choice != tied[0]:
            trace.violate(f"there is no tie: {tied[0]} alone made the {contest} bid, not {choice}", contenders)
            return out
        out["selected"] = tied[0]
        trace.step(f"{tied[0]} alone made the {contest} bid ({top}) and is singled out by the Season card.",
                   contenders)
    else:
        if choice is not None and choice not in tied:
            trace.violate(f"{choice} is not among the tied players ({names(tied)})", "rw.ties-on-influence-bids")
            return out
        who, why = tie_breaker(players, tied)
        out["chooser"] = who
        trace.step(f"{names(tied)} tie on the {contest} bid ({top}): "
                   + (f"{who} decides, as he {why}." if who else f"{why}."), tie_breaker)
        if choice is not None:
            out["selected"] = choice
            trace.step(f"{who or 'The tied players'} picks {choice}.", "rw.ties-on-influence-bids")
        else:
            trace.decide(who or f"the tied players ({names(tied)})", "which of the tied players the bid singles out",
                         "rw.ties-on-influence-bids", options=tied, field="tie_choice")
    after = influence_after(players)
    out["influence_after"] = after
    trace.step("Every player discards the influence he bid, winner or not: "
               + ", ".join(f"{f} {n} left" for f, n in after.items()) + ".", influence_after)
    who = out["chooser"]
    if out["selected"]:
        head = (f"{faction_name(out['selected'])} is singled out by the {contest} bid of {top}"
                + (f" ({faction_name(who) or 'the tied players'} broke the tie)" if len(tied) > 1 else ""))
    else:
        head = (f"{names([faction_name(f) for f in tied])} tie on the {contest} bid of {top} and "
                f"{faction_name(who) or 'the tied players'} "
                f"{'picks' if who else 'pick'} which one the Season card singles out")
    spent = sum(p.bid for p in players)
    trace.summarize(f"{head}; all bids are lost ({plural(spent, 'influence token')} in all)")
    return out
