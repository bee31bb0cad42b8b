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
from typing import Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runeslingers.common import (
    AILMENT_TYPES,
    GAME,
    AilmentCounts,
    ailment_words,
    describe,
    joined,
    keyword_words,
    plural,
)
from engine.runeslingers.fields import (
    CardType,
    Keyword,
    Player,
    PrintedKeywords,
    added_keywords,
    ailment_list,
    flag,
    keyword_key,
    keyword_parts,
    keywords_of,
    player,
    printed_keywords,
)


class Bullet(Model):
    """One bullet effect of a Fate or Choice card."""

    text: str | None = maybe("The bullet's text.", title="Bullet effect", max_length=200)
    valid_target: bool = Field(title="Has a valid target",
                               description="A valid target is in play for this bullet's effect.")


class KeywordCard(Model):
    """The card and its keywords."""

    model_config = ConfigDict(title="Card")

    name: str = Field(max_length=200, title="Card name")
    type: CardType | None = maybe("Runespell (spirit, utility or attack card), or a defense card: trinket, chant "
                                  "or boon.", title="Card type")
    keywords: PrintedKeywords = printed_keywords()
    added_keywords: list[Keyword] = added_keywords()

    @model_validator(mode="after")
    def _numbered(self) -> KeywordCard:
        for path, group in (("keywords", self.keywords), ("added_keywords", self.added_keywords)):
            for i, k in enumerate(keywords_of(group)):
                base, n = keyword_parts(k)
                if base in ("token", "ail") and n is None:
                    raise refuse(f"{k!r} needs its number, e.g. '{base} 2'", f"{path}[{i}]")
        return self

    @property
    def order(self) -> list[str]:
        """Return the keywords in resolution order (normalized)."""
        return keyword_order(keywords_of(self.keywords), [keyword_key(k) for k in self.added_keywords])


class KeywordPosition(OpenPosition):
    """A card with keywords played, used, charged, or leaving the field."""

    game: Literal["runeslingers"]
    situation: Literal["keyword"]
    player: Player = player()
    card: KeywordCard
    action: Literal["play", "use", "charge", "leave_field"] = Field(
        title="What happens", description="The card is played, used (turned sideways), charged, or leaves the field.",
        json_schema_extra={"default": "play"})
    bullets: list[Bullet] = Field([], max_length=8, title="Bullet effects",
                                  description="For play (Fate or Choice): the card's bullet effects, in order.")
    target_enemy: str | None = maybe("For Fate: the enemy chosen to pick the bullet.",
                                     title="Target enemy Runeslinger", max_length=80)
    chosen_bullet: int | None = Field(None, ge=1, le=8, title="Chosen bullet",
                                      description="For Fate or Choice: the bullet picked (1 = first); null while "
                                                  "not chosen.")
    place_on: Literal["concentration", "utility_slot"] | None = maybe(
        "For play: where the card is put (a Distract card only on a concentration).", title="Placed on")
    ail_paid: AilmentCounts | None = maybe("For play (Ail X): the ailments the player applies to their own "
                                           "Runeslinger as the cost.", title="Ailments applied for Ail X")
    played_this_turn: bool = flag("Played this turn", "For use: the card was played this turn.")
    used: bool = flag("Already used", "For use: the card is already turned sideways.")
    tokens: int = Field(0, ge=0, le=99, title="Tokens on the card", description="For charge: the tokens on it now.")
    charged_this_turn: bool = flag("Already charged this turn", "For charge: it was charged earlier this turn.")
    own_play_phase: bool | None = maybe("For charge: it is the player's own Play Phase.",
                                        title="In the player's own Play Phase")
    concentration_owner: str | None = maybe("For leave_field (Distract): whose card the concentration is (the "
                                            "player's when not stated).",
                                            title="Owner of the concentration under it", max_length=80)

    @model_validator(mode="after")
    def _complete(self) -> KeywordPosition:
        if self.action == "charge" and self.own_play_phase is None:
            raise refuse("missing field 'own_play_phase'", "own_play_phase")
        deciding = next((k for k in self.card.order if k in ("fate", "choice")), None)
        if self.action == "play" and deciding and not self.bullets:
            raise refuse(f"a card with {deciding.title()} has bullet effects; list them in 'bullets'", "bullets")
        return self

    def reading(self) -> list[str]:
        """The card with its keywords, what happens to it, and the facts that action reads."""
        c = self.card
        added = f"; {keyword_words(c.added_keywords)} added by effects" if c.added_keywords else ""
        out = [f"{self.player}'s {c.name}: {keyword_words(c.keywords)}{added}."]
        if self.action == "play":
            where = {"concentration": " on a concentration", "utility_slot": " on a utility slot", None: ""}
            out.append(f"It is played{where[self.place_on]}.")
            for i, b in enumerate(self.bullets, 1):
                text = f" ({b.text})" if b.text else ""
                out.append(f"Bullet {i}{text}: {'has' if b.valid_target else 'has no'} valid target.")
            if self.target_enemy:
                out.append(f"Target enemy Runeslinger: {self.target_enemy}.")
            if self.chosen_bullet is not None:
                out.append(f"Bullet {self.chosen_bullet} was picked.")
            if self.ail_paid is not None:
                out.append(f"Ailments applied for Ail X: {ailment_words(self.ail_paid)}.")
        elif self.action == "use":
            out.append("It is used (turned sideways)" + ("; it was played this turn" if self.played_this_turn else "")
                       + ("; it is already turned sideways." if self.used else "."))
        elif self.action == "charge":
            out.append(f"It is charged; it has {plural(self.tokens, 'token')}"
                       + ("; it was already charged this turn" if self.charged_this_turn else "")
                       + ("; in the player's own Play Phase." if self.own_play_phase else
                          "; outside the player's own Play Phase."))
        else:
            owner = self.concentration_owner or self.player
            out.append(f"It leaves the field; the concentration under it is {owner}'s.")
        return out


class KeywordOutcome(Outcome):
    """The keywords in order, the bullet picked and by whom, the tokens, the Ail X cost and what else happens."""

    keyword_order: list[str]
    chooser: str | None = None
    selectable: list[int] = Field(default_factory=list)
    chosen: int | None = None
    tokens: int | None = None
    concentration_discarded: bool = False
    concentration_to: str | None = None
    ailments_applied: dict[str, int] = Field(default_factory=dict)
    turned: bool = False


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
def selectable_bullets(bullets: Sequence[Bullet]) -> list[int]:
    """Return the bullet numbers (1-based) that may be picked: those whose effect has a valid target."""
    return [i + 1 for i, b in enumerate(bullets) if b.valid_target]


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

def _bullets(pos: KeywordPosition, deciding: str, out: KeywordOutcome, trace: Trace) -> None:
    """Fate or Choice: who picks, which bullets may be picked, and the pick."""
    bullets = pos.bullets
    player, enemy = pos.player, pos.target_enemy
    if deciding == "fate" and enemy is None:
        trace.decide(player, "the target enemy Runeslinger who picks the bullet (Fate)", bullet_chooser,
                     field="target_enemy")
    chooser = bullet_chooser(deciding, player, enemy)
    out.chooser = chooser
    who = chooser or "the target enemy Runeslinger"
    trace.step(f"{deciding.title()}: {who} picks one bullet effect, and only that one is used"
               + (f" ({player} chose {enemy} as the target enemy)." if deciding == "fate" and enemy else "."),
               bullet_chooser)
    selectable = selectable_bullets(bullets)
    out.selectable = selectable
    blocked = [i + 1 for i in range(len(bullets)) if i + 1 not in selectable]
    if not selectable:
        trace.violate(f"no bullet of the card has a valid target, so with {deciding.title()} it cannot be played",
                      selectable_bullets)
        return
    trace.step(f"Bullets that may be picked: {', '.join(map(str, selectable))}"
               + (f"; {'bullet' if len(blocked) == 1 else 'bullets'} {joined([str(b) for b in blocked])} "
                  f"{'has' if len(blocked) == 1 else 'have'} no valid target and may not be." if blocked else
                  " (each has a valid target, even if it could do little)."), selectable_bullets)
    chosen = pos.chosen_bullet
    if chosen is None:
        trace.decide(who, f"one bullet of {pos.card.name} to use", selectable_bullets,
                     field="chosen_bullet", options=selectable)
    elif chosen not in selectable:
        reason = "there is no such bullet" if chosen > len(bullets) else "its effect has no valid target"
        trace.violate(f"bullet {chosen} cannot be picked: {reason}", selectable_bullets)
    else:
        out.chosen = chosen
        text_ = bullets[chosen - 1].text
        trace.step(f"{who} picks bullet {chosen}" + (f" ({text_})" if text_ else "") + "; only it is used.",
                   selectable_bullets)


def _ail(pos: KeywordPosition, x: int, out: KeywordOutcome, trace: Trace) -> None:
    if pos.ail_paid is None:
        trace.step(f"Ail {x}: the position does not say which ailment type {pos.player} applies to pay it.",
                   ail_problem)
        trace.decide(pos.player, f"which ailment type to apply {x} times to their own Runeslinger (Ail {x})",
                     ail_problem, field="ail_paid", options=[{t: x} for t in AILMENT_TYPES])
        return
    paid = ailment_list(pos.ail_paid)
    problem = ail_problem(x, paid)
    if problem:
        trace.violate(problem, ail_problem)
        return
    out.ailments_applied = paid
    trace.step(f"Ail {x}: as a cost of playing the card, {pos.player} applies {describe(paid)} to their own "
               "Runeslinger (paid in card play step 1).", ail_problem)


@rule("rs.keywords")
def _play(pos: KeywordPosition, order: Sequence[str], out: KeywordOutcome, trace: Trace) -> str:
    name = pos.card.name
    deciding = next((k for k in order if k in ("fate", "choice")), None)
    for k in order:
        base, n = keyword_parts(k)
        if base == "token":
            trace.step(f"Token {n}: {name} enters play with {plural(n or 0, 'basic token')}.", tokens_on_entry)
        elif base == "ail":
            _ail(pos, n or 0, out, trace)
        elif base in ("fate", "choice") and base == deciding:
            _bullets(pos, base, out, trace)
        elif base == "distract":
            if pos.place_on == "utility_slot":
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
    out.tokens = tokens_on_entry(order)
    if deciding and out.chosen is None and not trace.violations:
        who = out.chooser or "the target enemy Runeslinger (to be chosen)"
        return f"{who} picks which bullet of {name} is used: {' or '.join(map(str, out.selectable))}"
    if "ail" in (keyword_parts(k)[0] for k in order) and pos.ail_paid is None and not trace.violations:
        return f"{pos.player} chooses which ailment type to apply to pay {name}'s Ail cost"
    bits = [f"bullet {out.chosen} is used" if out.chosen else "",
            f"it enters play with {plural(out.tokens, 'token')}" if out.tokens else "",
            f"{pos.player} applies {describe(out.ailments_applied)} as its cost"
            if out.ailments_applied else ""]
    said = "; ".join(b for b in bits if b)
    return f"{name}'s keywords resolve in order ({', '.join(order) or 'none'})" + (f": {said}" if said else "")


@rule("rs.term.quick", "rs.phases-of-a-turn.ready")
def _use(pos: KeywordPosition, order: Sequence[str], out: KeywordOutcome, trace: Trace) -> str:
    name = pos.card.name
    for problem in use_problems(order, pos.played_this_turn, pos.used):
        trace.violate(problem, use_problems)
    if pos.played_this_turn and "quick" in order:
        trace.step(f"Quick: {name} may be used on the turn it was played.", "rs.term.quick")
    if trace.violations:
        return f"{name} cannot be used now"
    out.turned = True
    trace.step(f"{name} is turned sideways (used) to use its effect; it is readied in its controller's Ready Phase.",
               use_problems, "rs.phases-of-a-turn.ready")
    return f"{pos.player} may use {name}: turn it sideways"


def _charge(pos: KeywordPosition, order: Sequence[str], out: KeywordOutcome, trace: Trace,
            corpus: Corpus) -> str:
    name, tokens = pos.card.name, pos.tokens
    for problem in charge_problems(order, bool(pos.own_play_phase), pos.charged_this_turn, corpus):
        trace.violate(problem, charge_problems)
    if trace.violations:
        out.tokens = tokens
        return f"{name} cannot be charged now"
    out.tokens = tokens_after_charge(tokens, corpus)
    trace.step(f"Charge: 1 more basic token on {name} ({tokens} → {out.tokens}); tokens from charging have no "
               "special effect.", tokens_after_charge)
    return f"{pos.player} charges {name}: it now has {plural(out.tokens or 0, 'token')}"


@rule("rs.keywords", "rs.term.distract")
def _leave(pos: KeywordPosition, order: Sequence[str], out: KeywordOutcome, trace: Trace) -> str:
    name = pos.card.name
    if not distract_discards(order):
        trace.step(f"{name} has no Distract: the concentration under it stays where it is.", "rs.keywords",
                   "rs.term.distract")
        return f"{name} leaves the field; the concentration under it stays"
    owner = pos.concentration_owner or pos.player
    out.concentration_discarded, out.concentration_to = True, owner
    trace.step(f"Distract: {name} has left the field, so the concentration it was on is discarded into its "
               f"owner's discard pile ({owner}'s).", distract_discards)
    return f"{name} leaves the field: the concentration under it goes to {owner}'s discard pile"


@situation(GAME, "keyword", KeywordPosition, labels=LABELS)
@rule("rs.keywords")
def resolve_keyword(pos: KeywordPosition, trace: Trace, corpus: Corpus) -> KeywordOutcome:
    """Resolve a card's keywords on play, use, charge or leaving the field, in keyword order."""
    added = pos.card.added_keywords
    order = pos.card.order
    out = KeywordOutcome(keyword_order=order)
    action = pos.action
    if order:
        trace.step(f"{pos.card.name}'s keywords resolve in this order: {', '.join(order)}"
                   + (" (the printed ones left to right, then the added ones in the order they were added)."
                      if added else " (left to right)."), keyword_order)
    else:
        trace.step(f"{pos.card.name} has no keyword.", "rs.keywords")
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
