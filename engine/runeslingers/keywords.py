"""Runeslingers keywords: what Fate, Choice, Distract, Charge, Use, Quick, Ail X and Token X do (``keyword``).

Paragraphs: ``rs.keywords`` and ``rs.keywords.added-removed`` (order), ``rs.card-play-steps.3`` (keywords resolve
when the card is played), ``rs.card-play-steps.1`` (Ail X is a cost), the keyword entries ``rs.term.*``,
``rs.resolving-effects`` and ``rs.resolving-effects.choice-and-fate`` (only a bullet with a valid target),
``rs.advanced-rules-targets.example-3`` (Supernova), ``rs.your-field.discard-pile``.

Choices where the book is silent (documented here and in the steps):

- A keyword added by an effect that the card already has is listed once, where it first appears.
- Two ``token X`` keywords (one printed, one added) both resolve: the card enters play with their sum.
- With both Fate and Choice, the first of them in resolution order decides who picks the bullet.
- A Fate card whose ``target_enemy`` is not stated asks the player to choose the target enemy Runeslinger
  (a decision), and then that enemy picks the bullet (a second decision when ``chosen_bullet`` is null).
- Ail X with ``ail_paid`` not stated asks the player which ailment type to apply (a decision whose options are
  the six ways to pay); stated but not exactly X instances of one type is illegal.
- Charging needs the Charge keyword; ``own_play_phase`` must be stated for a charge.
- Keywords without a rule in this book (for example from a later set) are listed in order and otherwise left
  to the card's text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runeslingers._legacy import (
    ADDED_KEYWORDS,
    AILMENTS,
    CARD_TYPE,
    KEYWORDS,
    PLAYER,
    ailment_list,
    doc,
    flag,
    keyword_key,
    keyword_parts,
    keywords_of,
)
from engine.runeslingers.common import AILMENT_TYPES, GAME, describe
from engine.schema import BOOL, Schema, arr, enum, integer, nullable, obj, text

BULLET: Schema = obj(["valid_target"],
                     text=doc(text(), "Bullet effect", "The bullet's text."),
                     valid_target=doc(BOOL, "Has a valid target",
                                      "A valid target is in play for this bullet's effect."))
CARD: Schema = doc(obj(["name", "keywords"],
                       name=doc(text(), "Card name"), type=CARD_TYPE,
                       keywords=KEYWORDS, added_keywords=ADDED_KEYWORDS),
                   "Card", "The card and its keywords.")
SCHEMA: dict[str, Any] = {
    **obj(["player", "card", "action"], extra=True,
          player=PLAYER, card=CARD,
          action=doc(enum("play", "use", "charge", "leave_field"), "What happens",
                     "The card is played, used (turned sideways), charged, or leaves the field.", default="play"),
          bullets=doc(arr(BULLET, max_items=8), "Bullet effects", "For play (Fate or Choice): the card's bullet "
                      "effects, in order.", default=[]),
          target_enemy=doc(text(80), "Target enemy Runeslinger", "For Fate: the enemy chosen to pick the bullet."),
          chosen_bullet=doc(nullable(integer(1, 8)), "Chosen bullet",
                            "For Fate or Choice: the bullet picked (1 = first); null while not chosen.", default=None),
          place_on=doc(enum("concentration", "utility_slot"), "Placed on",
                       "For play: where the card is put (a Distract card only on a concentration)."),
          ail_paid=doc(AILMENTS, "Ailments applied for Ail X",
                       "For play (Ail X): the ailments the player applies to their own Runeslinger as the cost."),
          played_this_turn=flag("Played this turn", "For use: the card was played this turn."),
          used=flag("Already used", "For use: the card is already turned sideways."),
          tokens=doc(integer(0, 99), "Tokens on the card", "For charge: the tokens on it now.", default=0),
          charged_this_turn=flag("Already charged this turn", "For charge: it was charged earlier this turn."),
          own_play_phase=doc(BOOL, "In the player's own Play Phase", "For charge: it is the player's own Play "
                             "Phase."),
          concentration_owner=doc(text(80), "Owner of the concentration under it",
                                  "For leave_field (Distract): whose card the concentration is (the player's when "
                                  "not stated).")),
    "allOf": [{"if": {"properties": {"action": {"const": "charge"}}, "required": ["action"]},
               "then": {"required": ["own_play_phase"]}}],
}
KNOWN = ("fate", "choice", "distract", "charge", "use", "quick", "shout", "pierce", "token", "ail")
MEANING = {
    "shout": ("the card may also be played as an answer to an answerable action created for its player",
              "rs.term.shout"),
    "pierce": ("its damage is dealt in full, past a power loss and past a defense card's defense",
               "rs.term.pierce"),
    "quick": ("it may be used on the turn it is played", "rs.term.quick"),
    "use": ("its Use effect is used by turning it sideways, not on the turn it is played", "rs.term.use"),
    "charge": ("once per turn, in its player's Play Phase, it may be charged with 1 more token", "rs.term.charge"),
}


LABELS: dict[str, Label] = {
    "keyword_order": "Keyword order", "chooser": "Picks the bullet", "selectable": "Bullets that may be picked",
    "chosen": "Bullet used", "tokens": "Tokens", "concentration_discarded": "Concentration discarded",
    "concentration_to": "Concentration goes to the discard pile of", "ailments_applied": "Ailments applied (Ail X)",
    "turned": "Turned sideways",
}


# ------------------------------------------------------------------------------------------ rules

@rule("rs.keywords", "rs.keywords.added-removed", "rs.card-play-steps.3")
def keyword_order(printed: Sequence[str], added: Sequence[str]) -> list[str]:
    """Return the order keywords resolve in: printed ones left to right, then added ones in the order added."""
    out: list[str] = []
    for k in [*printed, *added]:
        if k not in out:
            out.append(k)
    return out


@rule("rs.term.fate", "rs.term.choice", "rs.advanced-rules-targets.example-3")
def bullet_chooser(deciding: str, player: str, target_enemy: str | None) -> str | None:
    """Return who picks the bullet: the target enemy Runeslinger for Fate, the player for Choice."""
    return target_enemy if deciding == "fate" else player


@rule("rs.resolving-effects.choice-and-fate", "rs.term.fate", "rs.term.choice", "rs.resolving-effects")
def selectable_bullets(bullets: Sequence[Mapping[str, Any]]) -> list[int]:
    """Return the bullet numbers (1-based) that may be picked: those whose effect has a valid target."""
    return [i + 1 for i, b in enumerate(bullets) if b["valid_target"]]


@rule("rs.term.token")
def tokens_on_entry(order: Sequence[str]) -> int:
    """Return the basic tokens the card enters play with: the X of each Token X keyword."""
    return sum(n or 0 for base, n in map(keyword_parts, order) if base == "token")


@rule("rs.term.charge")
def tokens_after_charge(tokens: int, corpus: Corpus) -> int:
    """Return the tokens after a charge: 1 more basic token."""
    return tokens + int(corpus.fact("rs.term.charge", "tokens_per_charge"))


@rule("rs.term.charge")
def charge_problems(order: Sequence[str], own_play_phase: bool, charged: bool, corpus: Corpus) -> list[str]:
    """Return why the card may not be charged now: Charge keyword, own Play Phase, once per turn."""
    out = []
    if "charge" not in order:
        out.append("the card has no Charge keyword, so it cannot be charged")
    if not own_play_phase:
        out.append("a card is charged only during its player's own Play Phase")
    if charged and int(corpus.fact("rs.term.charge", "charges_per_turn")) <= 1:
        out.append("the card was already charged this turn; it may be charged once per turn")
    return out


@rule("rs.term.use", "rs.term.quick", "rs.card-states-positions")
def use_problems(order: Sequence[str], played_this_turn: bool, used: bool) -> list[str]:
    """Return why the card may not be used now: played this turn without Quick, or already used."""
    out = []
    if played_this_turn and "quick" not in order:
        out.append("the card was played this turn and has no Quick, so it cannot be used until a later turn")
    if used:
        out.append("the card is already used (sideways) and must be readied before it can be used again")
    return out


@rule("rs.term.ail-x", "rs.card-play-steps.1")
def ail_problem(x: int, paid: Mapping[str, int]) -> str | None:
    """Return why the Ail X cost is not paid correctly: exactly X ailments, all of one type."""
    if len(paid) != 1:
        return f"Ail {x} is paid with {x} ailments of one type, not {describe(paid)}"
    kind, n = next(iter(paid.items()))
    if n != x:
        return f"Ail {x} is paid with exactly {x} ailments of one type, not {n} {kind}"
    return None


@rule("rs.term.distract", "rs.your-field.discard-pile")
def distract_discards(order: Sequence[str]) -> bool:
    """Return whether the concentration under the card is discarded when it leaves the field (Distract)."""
    return "distract" in order


# ----------------------------------------------------------------------------------- resolution

def _normalized(card: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    printed = keywords_of(card)
    if len(set(printed)) != len(printed):
        raise UnreadableInputError("a card is printed with different keywords; one is listed twice",
                                   path="card.keywords")
    added = [keyword_key(k) for k in card.get("added_keywords", [])]
    for path, group in (("card.keywords", printed), ("card.added_keywords", added)):
        for i, k in enumerate(group):
            base, n = keyword_parts(k)
            if base in ("token", "ail") and n is None:
                raise UnreadableInputError(f"{k!r} needs its number, e.g. '{base} 2'", path=f"{path}[{i}]")
    return printed, added


def _bullets(pos: Mapping[str, Any], deciding: str, out: dict[str, Any], trace: Trace) -> None:
    """Fate or Choice: who picks, which bullets may be picked, and the pick."""
    bullets = pos.get("bullets", [])
    if not bullets:
        raise UnreadableInputError(f"a card with {deciding.title()} has bullet effects; list them in 'bullets'",
                                   path="bullets")
    player, enemy = pos["player"], pos.get("target_enemy")
    if deciding == "fate" and enemy is None:
        trace.decide(player, "the target enemy Runeslinger who picks the bullet (Fate)", bullet_chooser,
                     field="target_enemy")
    chooser = bullet_chooser(deciding, player, enemy)
    out["chooser"] = chooser
    who = chooser or "the target enemy Runeslinger"
    trace.step(f"{deciding.title()}: {who} picks one bullet effect, and only that one is used"
               + (f" ({player} chose {enemy} as the target enemy)." if deciding == "fate" and enemy else "."),
               bullet_chooser)
    selectable = selectable_bullets(bullets)
    out["selectable"] = selectable
    blocked = [i + 1 for i in range(len(bullets)) if i + 1 not in selectable]
    if not selectable:
        trace.violate(f"no bullet of the card has a valid target, so with {deciding.title()} it cannot be played",
                      selectable_bullets)
        return
    trace.step(f"Bullets that may be picked: {', '.join(map(str, selectable))}"
               + (f"; bullet {', '.join(map(str, blocked))} has no valid target and may not be." if blocked else
                  " (each has a valid target, even if it could do little)."), selectable_bullets)
    chosen = pos.get("chosen_bullet")
    if chosen is None:
        trace.decide(who, f"one bullet of {pos['card']['name']} to use", selectable_bullets,
                     field="chosen_bullet", options=selectable)
    elif chosen not in selectable:
        reason = "there is no such bullet" if chosen > len(bullets) else "its effect has no valid target"
        trace.violate(f"bullet {chosen} cannot be picked: {reason}", selectable_bullets)
    else:
        out["chosen"] = chosen
        text_ = bullets[chosen - 1].get("text")
        trace.step(f"{who} picks bullet {chosen}" + (f" ({text_})" if text_ else "") + "; only it is used.",
                   selectable_bullets)


def _ail(pos: Mapping[str, Any], x: int, out: dict[str, Any], trace: Trace) -> None:
    if "ail_paid" not in pos:
        trace.step(f"Ail {x}: the position does not say which ailment type {pos['player']} applies to pay it.",
                   ail_problem)
        trace.decide(pos["player"], f"which ailment type to apply {x} times to their own Runeslinger (Ail {x})",
                     ail_problem, field="ail_paid", options=[{t: x} for t in AILMENT_TYPES])
        return
    paid = ailment_list(pos["ail_paid"])
    problem = ail_problem(x, paid)
    if problem:
        trace.violate(problem, ail_problem)
        return
    out["ailments_applied"] = paid
    trace.step(f"Ail {x}: as a cost of playing the card, {pos['player']} applies {describe(paid)} to their own "
               "Runeslinger (paid in card play step 1).", ail_problem)


def _play(pos: Mapping[str, Any], order: Sequence[str], out: dict[str, Any], trace: Trace) -> str:
    name = pos["card"]["name"]
    deciding = next((k for k in order if k in ("fate", "choice")), None)
    for k in order:
        base, n = keyword_parts(k)
        if base == "token":
            trace.step(f"Token {n}: {name} enters play with {n} basic token(s).", tokens_on_entry)
        elif base == "ail":
            _ail(pos, n or 0, out, trace)
        elif base in ("fate", "choice") and base == deciding:
            _bullets(pos, base, out, trace)
        elif base == "distract":
            if pos.get("place_on") == "utility_slot":
                trace.violate("a card with Distract may only be placed on a concentration, not on a utility slot",
                              distract_discards)
            else:
                trace.step(f"Distract: {name} must sit on a concentration; when it leaves the field, the "
                           "concentration under it is discarded.", distract_discards)
        elif base in MEANING:
            meaning, cite = MEANING[base]
            trace.step(f"{base.title()}: nothing to resolve on play; {meaning}.", cite)
        elif base not in KNOWN:
            trace.step(f"{k!r} is not a keyword of this book: the card's own text says what it does.", "rs.keywords")
    out["tokens"] = tokens_on_entry(order)
    if deciding and out["chosen"] is None and not trace.violations:
        who = out["chooser"] or "the target enemy Runeslinger (to be chosen)"
        return f"{who} picks which bullet of {name} is used: {' or '.join(map(str, out['selectable']))}"
    if "ail" in (keyword_parts(k)[0] for k in order) and "ail_paid" not in pos and not trace.violations:
        return f"{pos['player']} chooses which ailment type to apply to pay {name}'s Ail cost"
    bits = [f"bullet {out['chosen']} is used" if out["chosen"] else "",
            f"it enters play with {out['tokens']} token(s)" if out["tokens"] else "",
            f"{pos['player']} applies {describe(out['ailments_applied'])} as its cost"
            if out["ailments_applied"] else ""]
    said = "; ".join(b for b in bits if b)
    return f"{name}'s keywords resolve in order ({', '.join(order) or 'none'})" + (f": {said}" if said else "")


def _use(pos: Mapping[str, Any], order: Sequence[str], out: dict[str, Any], trace: Trace) -> str:
    name = pos["card"]["name"]
    for problem in use_problems(order, bool(pos.get("played_this_turn")), bool(pos.get("used"))):
        trace.violate(problem, use_problems)
    if pos.get("played_this_turn") and "quick" in order:
        trace.step(f"Quick: {name} may be used on the turn it was played.", "rs.term.quick")
    if trace.violations:
        return f"{name} cannot be used now"
    out["turned"] = True
    trace.step(f"{name} is turned sideways (used) to use its effect; it is readied in its controller's Ready Phase.",
               use_problems, "rs.phases-of-a-turn.ready")
    return f"{pos['player']} may use {name}: turn it sideways"


def _charge(pos: Mapping[str, Any], order: Sequence[str], out: dict[str, Any], trace: Trace,
            corpus: Corpus) -> str:
    name, tokens = pos["card"]["name"], int(pos.get("tokens", 0))
    for problem in charge_problems(order, bool(pos["own_play_phase"]), bool(pos.get("charged_this_turn")), corpus):
        trace.violate(problem, charge_problems)
    if trace.violations:
        out["tokens"] = tokens
        return f"{name} cannot be charged now"
    out["tokens"] = tokens_after_charge(tokens, corpus)
    trace.step(f"Charge: 1 more basic token on {name} ({tokens} → {out['tokens']}); tokens from charging have no "
               "special effect.", tokens_after_charge)
    return f"{pos['player']} charges {name}: it now has {out['tokens']} token(s)"


def _leave(pos: Mapping[str, Any], order: Sequence[str], out: dict[str, Any], trace: Trace) -> str:
    name = pos["card"]["name"]
    if not distract_discards(order):
        trace.step(f"{name} has no Distract: the concentration under it stays where it is.", "rs.keywords",
                   "rs.term.distract")
        return f"{name} leaves the field; the concentration under it stays"
    owner = pos.get("concentration_owner") or pos["player"]
    out.update(concentration_discarded=True, concentration_to=owner)
    trace.step(f"Distract: {name} has left the field, so the concentration it was on is discarded into its "
               f"owner's discard pile ({owner}'s).", distract_discards)
    return f"{name} leaves the field: the concentration under it goes to {owner}'s discard pile"


@situation(GAME, "keyword", SCHEMA, labels=LABELS)
def resolve_keyword(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve a card's keywords on play, use, charge or leaving the field, in keyword order."""
    printed, added = _normalized(pos["card"])
    order = keyword_order(printed, added)
    out: dict[str, Any] = {"keyword_order": order, "chooser": None, "selectable": [], "chosen": None,
                           "tokens": None, "concentration_discarded": False, "concentration_to": None,
                           "ailments_applied": {}, "turned": False}
    action = pos["action"]
    if order:
        trace.step(f"{pos['card']['name']}'s keywords resolve in this order: {', '.join(order)}"
                   + (" (the printed ones left to right, then the added ones in the order they were added)."
                      if added else " (left to right)."), keyword_order)
    else:
        trace.step(f"{pos['card']['name']} has no keyword.", "rs.keywords")
    if action == "play":
        sentence = _play(pos, order, out, trace)
    elif action == "use":
        sentence = _use(pos, order, out, trace)
    elif action == "charge":
        sentence = _charge(pos, order, out, trace, corpus)
    else:
        sentence = _leave(pos, order, out, trace)
    trace.summarize(sentence)
    return out
