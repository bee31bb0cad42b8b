"""Rune Age, The Monument: who wins when Monuments are built (with the errata'd tie-break).

Paragraphs: ``ra.the-monument.victory`` and the erratum ``rafaq.errata.rulebook.p16``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe
from engine.rune_age.words import listing, possessive


class UnitStrength(Model):
    """The strength of the unit cards a player holds in his deck, his hand and his discard pile."""

    deck: int = Field(ge=0)
    hand: int = Field(0, ge=0)
    discard: int = Field(0, ge=0)


class Builder(Model):
    """A player, whether he built his Monument this round, and his unit strength for the tie-break."""

    player: str = Field(max_length=200)
    built_this_round: bool
    unit_strength: UnitStrength | None = maybe()


class MonumentPosition(OpenPosition):
    """The end of a round of The Monument: which players built their Monument, and their unit strength."""

    game: Literal["rune-age"]
    situation: Literal["monument_victory"]
    players: list[Builder] = Field(min_length=1, max_length=4)

    def reading(self) -> list[str]:
        """Restate who built a Monument this round and each builder's unit strength."""
        built = [p for p in self.players if p.built_this_round]
        out = [f"Built a Monument this round: {listing((p.player for p in built), 'nobody')}."]
        others = [p.player for p in self.players if not p.built_this_round]
        if others:
            out.append(f"Did not build one: {listing(others)}.")
        for p in built:
            s = p.unit_strength
            if s:
                out.append(f"{possessive(p.player)} unit strength: {s.deck} in the deck, {s.hand} in hand, "
                           f"{s.discard} in the discard pile.")
        return out


class MonumentOutcome(Outcome):
    """Who wins The Monument, and the tie-break totals when several players built one."""

    winners: list[str] = Field(default_factory=list)
    totals: dict[str, int] = Field(default_factory=dict)


@rule("rafaq.errata.rulebook.p16")
def tiebreak_strength(strength: UnitStrength | None) -> int:
    """Return a builder's tie-break total: unit strength in deck, hand and discard pile (errata)."""
    return strength.deck + strength.hand + strength.discard if strength else 0


LABELS: dict[str, Label] = {"winners": "Winners", "totals": "Unit strength (deck, hand and discard)"}


def _summary(pos: MonumentPosition, out: MonumentOutcome, trace: Trace) -> str:
    """One sentence: who wins The Monument (and on what tie-break total)."""
    winners, totals = out.winners, out.totals
    if not winners:
        return "Nobody wins yet: no player built a Monument this round."
    if not totals:
        return f"{winners[0]} wins: the only player to build a Monument this round."
    best = totals[winners[0]]
    if len(winners) > 1:
        return f"{' and '.join(winners)} share the victory, tied on {best} unit strength."
    return f"{winners[0]} wins the Monument tie-break with {best} unit strength."


@rule("ra.the-monument.victory")
def _tiebreak(builders: Sequence[Builder], trace: Trace) -> MonumentOutcome:
    """Several Monuments: each builder adds up his unit strength; the highest total wins, ties share."""
    totals = {p.player: tiebreak_strength(p.unit_strength) for p in builders}
    trace.step(f"{len(builders)} players built a Monument this round; each adds up the strength of the unit "
               f"cards in his deck, hand and discard pile (the errata; the rulebook counted the deck only): "
               + ", ".join(f"{k} {v}" for k, v in totals.items()) + ".",
               "ra.the-monument.victory", tiebreak_strength)
    best = max(totals.values())
    winners = [k for k, v in totals.items() if v == best]
    trace.step(f"{' and '.join(winners)} " + ("share the victory (tied)." if len(winners) > 1 else "wins."),
               "ra.the-monument.victory")
    return MonumentOutcome(winners=winners, totals=totals)


@situation("rune-age", "monument_victory", MonumentPosition, labels=LABELS)
@summarized(_summary)
@rule("ra.the-monument.victory")
def resolve_monument(pos: MonumentPosition, trace: Trace, corpus: Corpus) -> MonumentOutcome:
    """Decide who wins The Monument at the end of a round in which Monuments were built."""
    builders = [p for p in pos.players if p.built_this_round]
    if not builders:
        trace.step("No player built his Monument this round: nobody wins yet.", "ra.the-monument.victory")
        return MonumentOutcome()
    if len(builders) == 1:
        trace.step(f"Only {builders[0].player} built a Monument this round: he wins at the end of the round.",
                   "ra.the-monument.victory")
        return MonumentOutcome(winners=[builders[0].player])
    return _tiebreak(builders, trace)
