"""Rune Age, The Monument: who wins when Monuments are built (with the errata'd tie-break).

Paragraphs: ``ra.the-monument.victory`` and the erratum ``rafaq.errata.rulebook.p16``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.schema import BOOL, arr, integer, obj, text

STRENGTH = obj(["deck"], deck=integer(0), hand=integer(0), discard=integer(0))
SCHEMA: dict[str, Any] = obj(
    ["players"], extra=True,
    players=arr(obj(["player", "built_this_round"], player=text(), built_this_round=BOOL,
                    unit_strength=STRENGTH), min_items=1, max_items=4),
)


@rule("rafaq.errata.rulebook.p16")
def tiebreak_strength(strength: Mapping[str, int]) -> int:
    """Return a builder's tie-break total: unit strength in deck, hand and discard pile (errata)."""
    return int(strength.get("deck", 0)) + int(strength.get("hand", 0)) + int(strength.get("discard", 0))


LABELS: dict[str, Label] = {"winners": "Winners", "totals": "Unit strength (deck, hand and discard)"}


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: who wins The Monument (and on what tie-break total)."""
    winners, totals = out["winners"], out["totals"]
    if not winners:
        return "Nobody wins yet: no player built a Monument this round."
    if not totals:
        return f"{winners[0]} wins: the only player to build a Monument this round."
    best = totals[winners[0]]
    if len(winners) > 1:
        return f"{' and '.join(winners)} share the victory, tied on {best} unit strength."
    return f"{winners[0]} wins the Monument tie-break with {best} unit strength."


@situation("rune-age", "monument_victory", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_monument(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Decide who wins The Monument at the end of a round in which Monuments were built."""
    builders = [p for p in pos["players"] if p["built_this_round"]]
    if not builders:
        trace.step("No player built his Monument this round: nobody wins yet.", "ra.the-monument.victory")
        return {"winners": [], "totals": {}}
    if len(builders) == 1:
        trace.step(f"Only {builders[0]['player']} built a Monument this round: he wins at the end of the round.",
                   "ra.the-monument.victory")
        return {"winners": [builders[0]["player"]], "totals": {}}
    totals = {p["player"]: tiebreak_strength(p.get("unit_strength") or {}) for p in builders}
    trace.step(f"{len(builders)} players built a Monument this round; each adds up the strength of the unit "
               f"cards in his deck, hand and discard pile (the errata; the rulebook counted the deck only): "
               + ", ".join(f"{k} {v}" for k, v in totals.items()) + ".",
               "ra.the-monument.victory", tiebreak_strength)
    best = max(totals.values())
    winners = [k for k, v in totals.items() if v == best]
    trace.step(f"{' and '.join(winners)} " + ("share the victory (tied)." if len(winners) > 1 else "wins."),
               "ra.the-monument.victory")
    return {"winners": winners, "totals": totals}
