"""Rune Age ability limits: once per card per round, which effects that covers, and when each keyword works.

Paragraphs: ``ra.abilities`` (optional, once per card per round, four keywords), the four keyword paragraphs
(``ra.abilities.when-played``, ``.resolution``, ``.end-of-combat``, ``.action``), ``ra.card-action`` and
``ra.card-action.combat`` with the page-7 erratum (no Card action in combat; a unit whose ability is an Action
played into a combat adds only its strength), ``ra.conduct-a-battle.2`` / ``ra.conduct-a-siege.2`` (When Played right
after the card is played), ``rafaq.faq.neutral-cards.1`` and ``rafaq.oa.faction-cards.3`` (effects without a
keyword, such as Naga, Demon and Guardian, are not limited) and the Storm Sorceress FAQ.

For an effect without a keyword (``none``) the moment is set by the card's own text, which the books do
not print, so it is not checked. ``strength_only`` is reported for unit cards only (a tactic card with an
Action ability in combat simply cannot use it).
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, labelled
from engine.rune_age.battle import CARD_KINDS
from engine.rune_age.words import article, capital, choice, plural, times

Keyword = Literal["when_played", "resolution", "end_of_combat", "action", "none"]
Moment = Literal["own_actions", "played_into_combat", "assault_later", "resolution", "end_of_combat", "other_turn"]
IN_COMBAT = frozenset({"played_into_combat", "assault_later", "resolution", "end_of_combat"})
ALLOWED: dict[str, Moment] = {"when_played": "played_into_combat", "resolution": "resolution",
                              "end_of_combat": "end_of_combat", "action": "own_actions"}
KEYWORD_RULE = {"when_played": "ra.abilities.when-played", "resolution": "ra.abilities.resolution",
                "end_of_combat": "ra.abilities.end-of-combat", "action": "ra.abilities.action"}
KEYWORD_NAME = {"when_played": "When Played", "resolution": "Resolution", "end_of_combat": "End of Combat",
                "action": "Action", "none": "keyword-free"}
MOMENT_TEXT = {"own_actions": "in the Perform Actions step of the owner's turn",
               "played_into_combat": "right after the card is played into a combat",
               "assault_later": "later in the Assault, after another card was played",
               "resolution": "in the Resolution step", "end_of_combat": "in the End of Combat step",
               "other_turn": "on another player's turn"}


MOMENT_NAMES = {"own_actions": "During my own Perform Actions step",
                "played_into_combat": "Right after the card is played into a combat",
                "assault_later": "Later in the Assault, after another card was played",
                "resolution": "In the Resolution step", "end_of_combat": "In the End of Combat step",
                "other_turn": "On another player's turn"}
KEYWORD_LABELS = {"when_played": "When Played", "resolution": "Resolution", "end_of_combat": "End of Combat",
                  "action": "Action", "none": "No keyword (Naga, Demon, Guardian)"}


class AbilityCard(Model):
    """The card whose ability or effect is to be used, and the keyword its ability carries."""

    model_config = ConfigDict(title="Card")

    name: str = Field(max_length=200, title="Card name")
    kind: Literal["unit", "tactic"] = Field("unit", title="Card kind", json_schema_extra=labelled(CARD_KINDS))
    keyword: Keyword = Field(title="Ability keyword",
                             description="none: an effect without one of the four keywords (Naga, Demon, Guardian).",
                             json_schema_extra=choice(KEYWORD_LABELS, "when_played"))


class AbilityLimitsPosition(OpenPosition):
    """A card's ability about to be used: how often it was used this round, and at which moment."""

    game: Literal["rune-age"]
    situation: Literal["ability_limits"]
    card: AbilityCard
    uses_this_round: int = Field(0, ge=0, le=20, title="Uses this round",
                                 description="Times this card's ability or effect has already been used this round.")
    moment: Moment = Field(title="Moment", json_schema_extra=choice(MOMENT_NAMES, "own_actions"))

    def reading(self) -> list[str]:
        """Restate the card, its keyword, the uses so far and the moment, in a player's words."""
        card = self.card
        what = ("an effect without an ability keyword" if card.keyword == "none"
                else f"{article(KEYWORD_NAME[card.keyword])} ability")
        return [f"Card: {card.name} ({'a tactic' if card.kind == 'tactic' else 'a unit'}), with {what}.",
                ("Used this round: not yet." if not self.uses_this_round
                 else f"Used this round: {times(self.uses_this_round)} already."),
                f"Moment: {MOMENT_TEXT[self.moment]}."]


class AbilityLimitsOutcome(Outcome):
    """Whether the once-per-round limit applies, the uses left, and whether the unit adds only its strength."""

    limited: bool
    uses_left: int | None
    strength_only: bool


LABELS: dict[str, Label] = {
    "limited": "Once per round", "uses_left": "Uses left this round", "strength_only": "Counts only its strength",
}


@rule("ra.abilities", "rafaq.faq.neutral-cards.1", "rafaq.oa.faction-cards.3")
def is_limited(keyword: str) -> bool:
    """Return whether the once-per-card-per-round limit applies: to keyword abilities, not keyword-free effects."""
    return keyword != "none"


@rule("ra.abilities")
def uses_left(uses: int, corpus: Corpus) -> int:
    """Return the uses left this round after the use asked about (never below 0)."""
    return max(0, int(corpus.fact("ra.abilities", "uses_per_card_per_round")) - uses - 1)


@rule("ra.card-action.combat", "rafaq.errata.rulebook.p7-card-action")
def is_strength_only(kind: str, keyword: str, moment: str) -> bool:
    """Return whether a unit adds only its strength: it has an Action ability and is in a combat."""
    return kind == "unit" and keyword == "action" and moment in IN_COMBAT


def timing_cites(keyword: str, moment: str) -> tuple[str, ...]:
    """Return the paragraphs that set when a keyword ability may be used."""
    if keyword == "when_played":
        return ("ra.abilities.when-played", "ra.term.when-played-ability", "ra.conduct-a-battle.2",
                "ra.conduct-a-siege.2")
    if keyword == "action":
        return ("ra.card-action", "ra.abilities.action", "rafaq.errata.rulebook.p7-card-action",
                *(["ra.card-action.combat"] if moment in IN_COMBAT else []))
    return (KEYWORD_RULE[keyword],)


@rule("ra.abilities.when-played", "ra.abilities.resolution", "ra.abilities.end-of-combat", "ra.abilities.action")
def is_right_moment(keyword: str, moment: str) -> bool:
    """Return whether a keyword ability may be used at this moment (keyword-free effects are not checked)."""
    return keyword == "none" or ALLOWED[keyword] == moment


def _storm_sorceress(name: str, keyword: str, moment: str) -> list[str]:
    if "storm sorceress" not in name.lower() or keyword != "action":
        return []
    return ["rafaq.faq.faction-cards.4"] if moment in IN_COMBAT else ["rafaq.faq.faction-cards.3"]


@rule("ra.abilities")
def _limit(pos: AbilityLimitsPosition, limited: bool, trace: Trace) -> None:
    """Once per card per round: a keyword ability already used this round cannot be used again."""
    name, keyword, uses = pos.card.name, pos.card.keyword, pos.uses_this_round
    if limited:
        so_far = "not been used yet" if not uses else f"already been used {times(uses)}"
        trace.step(f"{name}'s {KEYWORD_NAME[keyword]} ability is optional and may be used once per round; it has "
                   f"{so_far} this round.", "ra.abilities")
        if uses >= 1:
            trace.violate(f"{name}'s {KEYWORD_NAME[keyword]} ability was already used this round; each card's "
                          f"ability may be used only once per round", uses_left)
    else:
        earlier = ("it has not been used yet" if not uses
                   else f"the {plural(uses, 'earlier use')} this round {'does' if uses == 1 else 'do'} not count")
        trace.step(f"{name}'s effect has no ability keyword, so the once-per-round limit does not apply "
                   f"({earlier}); when it applies is set by the card's own text.",
                   is_limited)


@rule("rafaq.faq.faction-cards.3")
def _moment(pos: AbilityLimitsPosition, strength_only: bool, sorceress: list[str], trace: Trace) -> None:
    """The keyword's moment: each keyword ability is used only at its own moment (Actions not in combat)."""
    name, keyword, moment = pos.card.name, pos.card.keyword, pos.moment
    if strength_only:
        trace.step(f"{name} is in a combat: it adds only its strength, and its Action ability cannot resolve.",
                   is_strength_only, *sorceress)
    if not is_right_moment(keyword, moment):
        must = MOMENT_TEXT[ALLOWED[keyword]]
        trace.violate(f"{name}'s {KEYWORD_NAME[keyword]} ability can only be used {must}, not "
                      f"{MOMENT_TEXT[moment]}", *timing_cites(keyword, moment), *sorceress)
    elif keyword != "none":
        trace.step(f"{capital(article(KEYWORD_NAME[keyword]))} ability is used {MOMENT_TEXT[moment]}: this is its "
                   f"moment.",
                   *timing_cites(keyword, moment), *sorceress)
    if sorceress == ["rafaq.faq.faction-cards.3"]:
        trace.step("Used as a Card action, the Storm Sorceress is destroyed at the end of the turn even if she was "
                   "never exhausted for influence.", "rafaq.faq.faction-cards.3")


@situation("rune-age", "ability_limits", AbilityLimitsPosition, labels=LABELS)
def resolve_ability_limits(pos: AbilityLimitsPosition, trace: Trace, corpus: Corpus) -> AbilityLimitsOutcome:
    """Resolve whether a card's ability may be used now: once per card per round and the keyword's moment."""
    card, moment = pos.card, pos.moment
    limited = is_limited(card.keyword)
    out = AbilityLimitsOutcome(limited=limited, uses_left=uses_left(pos.uses_this_round, corpus) if limited else None,
                               strength_only=is_strength_only(card.kind, card.keyword, moment))
    _limit(pos, limited, trace)
    _moment(pos, out.strength_only, _storm_sorceress(card.name, card.keyword, moment), trace)
    if not trace.violations:
        trace.summarize(f"{card.name} may use its {KEYWORD_NAME[card.keyword]} "
                        + ("ability now, its one use this round." if limited
                           else "effect now; it is not limited to once per round."))
    return out
