"""Rune Age Dragon Rune power cards (Runewars scenario): using one, gaining a second, and eliminations.

Paragraphs: ``ra.term.dragon-rune-power-card`` (Runewars only), ``ra.runewars.setup``,
``ra.runewars.once-per-round`` (used by exhausting it), ``ra.runewars.special-rules`` (the victor takes the
eliminated player's card), ``ra.runewars.one-active`` with ``rafaq.faq.scenarios.runewars.1`` (one active
card; the other is removed from the game), ``ra.runewars.event-elimination`` (eliminated by an Event card:
the card is removed), ``ra.player-elimination`` and ``rafaq.faq.scenarios.runewars.2`` (faceup, open).

What each Dragon Rune power does is printed on its card, not in the books, so the ruling names the cards
and never applies their effects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.schema import BOOL, Schema, arr, enum, nullable, obj, text

SCENARIOS = ("resurgence-of-the-dragonlords", "runewars", "the-cataclysm", "the-monument")
PLAYER: Schema = {
    **obj(["player"],
          player={**text(80), "title": "Player"},
          dragon_rune={**nullable(text()), "title": "Active Dragon Rune power card", "default": None},
          used_this_round={**BOOL, "title": "Used (exhausted) this round", "default": False}),
    "title": "Player",
}
EVENT: Schema = {
    **obj(["type"],
          type={**enum("use", "discovery", "elimination"), "title": "What happens", "default": "use"},
          player={**text(80), "title": "Player (use, discovery)"},
          card={**text(), "title": "New Dragon Rune power (discovery)"},
          eliminated={**text(80), "title": "Eliminated player (elimination)"},
          cause={**enum("siege", "event_card"), "title": "Eliminated by (elimination)", "default": "siege"},
          victor={**text(80), "title": "Victor of the siege (elimination by siege)"},
          keep={**nullable(text()), "title": "Card kept active",
                "description": "The obtaining player's choice when he holds two cards.", "default": None}),
    "title": "Event",
}
SCHEMA: dict[str, Any] = obj(
    ["scenario", "players", "event"], extra=True,
    scenario={**enum(*SCENARIOS), "title": "Scenario", "default": "runewars"},
    players={**arr(PLAYER, 1, 6), "title": "Players and their Dragon Rune power cards"},
    event=EVENT,
)

LABELS: dict[str, Label] = {
    "obtains": "Obtains a Dragon Rune power", "dragon_runes": "Active Dragon Rune powers",
    "removed_from_game": "Removed from the game", "exhausted": "Exhausted (used)",
}


@rule("ra.term.dragon-rune-power-card", "ra.runewars.setup")
def has_dragon_runes(scenario: str) -> bool:
    """Return whether the scenario uses Dragon Rune power cards: only Runewars."""
    return scenario == "runewars"


@rule("ra.runewars.once-per-round")
def can_use(card: str | None, used_this_round: bool) -> bool:
    """Return whether a player can use his Dragon Rune power: he has one and has not exhausted it this round."""
    return card is not None and not used_this_round


@rule("ra.runewars.special-rules", "ra.runewars.event-elimination", "ra.player-elimination")
def who_obtains(cause: str, victor: str | None) -> str | None:
    """Return who obtains an eliminated player's card: the siege victor; nobody after an Event card."""
    return victor if cause == "siege" else None


def _field(event: Mapping[str, Any], key: str, names: Mapping[str, Any]) -> str:
    value = event.get(key)
    if value is None:
        raise UnreadableInputError(f"missing field {key!r} (required for a {event['type']} event)",
                                   path=f"event.{key}")
    if key != "card" and value not in names:
        raise UnreadableInputError(f"{value!r} is not one of the players", path=f"event.{key}")
    return str(value)


def _players(raw: Any) -> dict[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {}
    for i, p in enumerate(raw):
        if p["player"] in out:
            raise UnreadableInputError(f"player {p['player']!r} is listed twice", path=f"players[{i}].player")
        out[p["player"]] = p
    return out


@rule("ra.runewars.one-active", "rafaq.faq.scenarios.runewars.1", "rafaq.faq.scenarios.runewars.2")
def _gain(who: str, new: str, runes: dict[str, str | None], keep: str | None, out: dict[str, Any],
          trace: Trace) -> None:
    """A player gains a card: with none active it becomes active; with one, he keeps one and removes the other."""
    old = runes[who]
    out["obtains"] = who
    if old is None:
        runes[who] = new
        trace.step(f"{who} had no Dragon Rune power card, so {new} becomes his active card, faceup for all to "
                   f"see.", "ra.runewars.one-active", "rafaq.faq.scenarios.runewars.2")
        return
    trace.step(f"{who} now holds {old} and {new} but may have only one: he keeps one active (faceup, open "
               f"information) and removes the other from the game.", _gain)
    if keep is None:
        del runes[who]
        trace.decide(who, f"which Dragon Rune power stays active: {old} or {new}", _gain,
                     options=[old, new], field="event.keep")
        return
    if keep not in (old, new):
        trace.violate(f"{who} may keep only {old} or {new}, not {keep}", _gain)
        del runes[who]
        return
    runes[who] = keep
    out["removed_from_game"].append(new if keep == old else old)
    trace.step(f"{who} keeps {keep} active; {out['removed_from_game'][-1]} is removed from the game.",
               "ra.runewars.one-active", "rafaq.faq.scenarios.runewars.1")


@situation("rune-age", "dragon_runes", SCHEMA, labels=LABELS)
def resolve_dragon_runes(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve a Dragon Rune power event in Runewars: a use, a Dragon Rune Discovery, or an elimination."""
    players = _players(pos["players"])
    event = pos["event"]
    kind = event["type"]
    runes: dict[str, str | None] = {name: p.get("dragon_rune") for name, p in players.items()}
    out: dict[str, Any] = {"obtains": None, "dragon_runes": dict(runes), "removed_from_game": [], "exhausted": []}
    if not has_dragon_runes(pos["scenario"]):
        trace.violate(f"Dragon Rune power cards are used only in the Runewars scenario, not in "
                      f"{pos['scenario'].replace('-', ' ')}", has_dragon_runes)
        return out
    if kind == "use":
        who = _field(event, "player", players)
        card = runes[who]
        if card is None:
            trace.violate(f"{who} holds no Dragon Rune power card to use", can_use)
        elif not can_use(card, players[who].get("used_this_round", False)):
            trace.violate(f"{who} already exhausted {card} this round; it can be used once per round", can_use)
        else:
            out["exhausted"] = [card]
            trace.step(f"{who} exhausts {card} to use it; it stays exhausted, so it cannot be used again this "
                       f"round.", can_use)
            trace.summarize(f"{who} uses {card} by exhausting it, its one use this round.")
        return out
    if kind == "discovery":
        who, new = _field(event, "player", players), _field(event, "card", players)
        trace.step(f"Dragon Rune Discovery: {who} obtains {new}.", "ra.runewars.one-active")
        _gain(who, new, runes, event.get("keep"), out, trace)
    else:
        _eliminate(event, players, runes, out, trace)
    out["dragon_runes"] = runes
    if trace.decisions:
        trace.summarize(f"{out['obtains']} now holds two Dragon Rune power cards and must choose which one stays "
                        f"active; the other is removed from the game.")
    elif not trace.violations:
        trace.summarize(_summary(out, runes))
    return out


def _eliminate(event: Mapping[str, Any], players: Mapping[str, Any], runes: dict[str, str | None],
               out: dict[str, Any], trace: Trace) -> None:
    loser = _field(event, "eliminated", players)
    cause = event.get("cause", "siege")
    victor = _field(event, "victor", players) if cause == "siege" else None
    if victor == loser:
        raise UnreadableInputError(f"{loser!r} cannot be both the eliminated player and the victor",
                                   path="event.victor")
    card = runes[loser]
    runes[loser] = None
    trace.step(f"{loser} is eliminated" + (f" by {victor}'s siege." if victor else " by damage from an Event card."),
               "ra.player-elimination")
    if card is None:
        trace.step(f"{loser} held no Dragon Rune power card, so nobody obtains one.", who_obtains)
        return
    taker = who_obtains(cause, victor)
    if taker is None:
        out["removed_from_game"].append(card)
        trace.step(f"No player eliminated {loser}, so nobody obtains {card}: it is removed from the game.",
                   "ra.runewars.event-elimination")
        return
    trace.step(f"{taker} eliminated {loser} and obtains {card}.", "ra.runewars.special-rules")
    _gain(taker, card, runes, event.get("keep"), out, trace)


def _summary(out: Mapping[str, Any], runes: Mapping[str, str | None]) -> str:
    removed = out["removed_from_game"]
    gone = f"; {', '.join(removed)} {'is' if len(removed) == 1 else 'are'} removed from the game" if removed else ""
    who = out["obtains"]
    if who is None:
        return f"Nobody obtains a Dragon Rune power card{gone}."
    return f"{who} obtains a Dragon Rune power card and keeps {runes[who]} active{gone}."
