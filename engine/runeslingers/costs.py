"""Runeslingers card play costs: light from concentrations, where the card goes, and targets (``pay_cost``).

Paragraphs: ``rs.card-play-steps`` (step 1 pay costs, step 2 play, step 5 targets), ``rs.playing-a-card``,
``rs.how-to-play-cards`` (and Emily's Plutonic Spike), ``rs.card-states-positions`` and its light rule,
``rs.phases-of-a-turn.play``, ``rs.anatomy-of-a-card``, ``rs.card-types-areas-of-play`` (runespells, defense
cards: placement and one copy of a trinket), ``rs.your-field`` (concentration areas, utility slots),
``rs.boons``, ``rs.advanced-rules-targets``, ``rs.resolving-effects``.

Choices where the book is silent (documented here and in the steps):

- A concentration in ``use`` that is not in ``concentrations`` (the ones the player controls) is not the
  player's: using it is illegal. Naming the same concentration twice in ``use`` is illegal too, because a used
  concentration cannot be used again until it is readied.
- Using more concentrations than the cost needs is legal: the extra light stays in the pool until the
  Discard Phase removes it.
- An illegal play does not happen: the outcome then reports ``light_created`` 0, ``light_spent`` 0,
  ``light_left`` = ``light_pool`` and no ``used`` concentrations, while ``light_available`` and ``light_short``
  show the arithmetic that was checked.
- A card with Fate or Choice needs no valid target for every effect (the ``keyword`` situation rules which
  bullet may be chosen); its ``targeting_effects`` are not checked here. A Distract card on a utility slot
  is illegal (Distract cards go only on concentrations). ``ail X`` is reported as the additional cost paid
  after the light cost (card play step 1); the ``keyword`` situation checks how it is paid.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runeslingers.common import GAME, joined, keyword_words
from engine.runeslingers.fields import (
    CardType,
    Player,
    PrintedKeywords,
    card_type,
    flag,
    keyword_parts,
    keywords_of,
    player,
    printed_keywords,
    unique_ids,
)

PLACE_NAMES = {"utility_slot": "a utility slot", "ailment": "an ailment", "boon": "a boon",
               "concentration": "a concentration"}


class PlayedCard(Model):
    """The card being played from hand."""

    model_config = ConfigDict(title="Card played")

    name: str = Field(max_length=200, title="Card name")
    type: CardType = card_type()
    light_cost: int = Field(ge=0, le=99, title="Light cost", description="The light cost printed on the card.")
    keywords: PrintedKeywords = printed_keywords()


class Concentration(Model):
    """A concentration the player controls: exposed (nothing on it) and ready (upright)."""

    id: str = Field(max_length=40, title="Concentration", description="A label for the concentration, e.g. c1.")
    exposed: bool = Field(title="Exposed", description="No card lies on it.")
    ready: bool = Field(title="Ready", description="Upright (not yet used this turn).")


class Placement(Model):
    """Where the card goes on the field."""

    kind: Literal["concentration", "utility_slot", "ailment", "boon"] = Field(
        title="Placed on", description="Where the card is put when it is played.")
    id: str | None = maybe("Which concentration (when placed on a concentration).", title="Concentration",
                           max_length=40)
    field: Literal["own", "opponent"] = Field("own", title="Whose field",
                                              description="The player's own field or an opponent's.")
    occupied: bool = flag("Slot occupied", "The utility slot already holds a card.")

    @model_validator(mode="after")
    def _names_its_concentration(self) -> Placement:
        if self.kind == "concentration" and self.id is None:
            raise refuse("missing field 'id'", "id")
        return self

    @property
    def own_field(self) -> bool:
        """Return whether the card goes on the player's own field."""
        return self.field == "own"


class TargetingEffect(Model):
    """An effect of the card that targets, and whether it has a valid target now."""

    model_config = ConfigDict(title="Targeting")

    text: str | None = maybe("The effect's text, e.g. deal 4 damage to target defense card.", title="Effect",
                             max_length=200)
    valid_target: bool = Field(title="Has a valid target", description="A valid target is in play for it now.")


class PayCostPosition(OpenPosition):
    """A card played from hand: its cost, the concentrations used for light, where it goes and its targets."""

    game: Literal["runeslingers"]
    situation: Literal["pay_cost"]
    player: Player = player()
    card: PlayedCard
    concentrations: list[Concentration] = Field(max_length=6, title="Concentrations",
                                                description="The concentrations the player controls (at most 6 "
                                                            "concentration areas).")
    use: list[Annotated[str, Field(max_length=40)]] = Field(
        max_length=12, title="Concentrations used",
        description="The concentrations turned sideways now to create 1 light each for this card.")
    light_pool: int = Field(0, ge=0, le=99, title="Light in the pool",
                            description="Unspent light created earlier this turn.")
    place_on: Placement
    trinkets_controlled: list[Annotated[str, Field(max_length=200)]] = Field(
        [], max_length=50, title="Trinkets controlled", description="Names of the trinkets the player already "
                                                                      "controls.")
    targeting_effects: list[TargetingEffect] = Field(
        [], max_length=10, title="Targeting effects",
        description="Each effect on the card that targets, and whether it has a valid target now.")

    @model_validator(mode="after")
    def _distinct_concentrations(self) -> PayCostPosition:
        unique_ids([c.id for c in self.concentrations], "id", "concentrations")
        return self

    def reading(self) -> list[str]:
        """The card with its cost and keywords, the light, where it goes, the trinkets and the targets."""
        c, place = self.card, self.place_on
        kind = {"runespell": "a runespell", "trinket": "a trinket", "chant": "a chant", "boon": "a boon"}[c.type]
        out = [f"{self.player} plays {c.name}, {kind} with light cost {c.light_cost} and "
               f"{keyword_words(c.keywords)}."]
        conc = [f"{x.id} ({'exposed' if x.exposed else 'covered'}, {'ready' if x.ready else 'used'})"
                for x in self.concentrations]
        out.append(f"Concentrations: {joined(conc) if conc else 'none'}; turned for light now: "
                   f"{joined(self.use) if self.use else 'none'}; light in the pool: {self.light_pool}.")
        field = "the player's own field" if place.own_field else "an opponent's field"
        where = {"concentration": f"concentration {place.id}", "utility_slot": "a utility slot"
                 + (" that already holds a card" if place.occupied else ""),
                 "ailment": "an ailment", "boon": "a boon"}[place.kind]
        out.append(f"It goes on {where}, on {field}.")
        if self.trinkets_controlled:
            out.append(f"Trinkets already controlled: {joined(self.trinkets_controlled)}.")
        for i, e in enumerate(self.targeting_effects, 1):
            what = e.text or f"Targeting effect {i}"
            out.append(f"{what[:1].upper()}{what[1:]}: {'has' if e.valid_target else 'has no'} valid target.")
        return out


class PayCostOutcome(Outcome):
    """The light created, spent and left, the concentrations used, and any additional cost."""

    light_created: int = 0
    light_spent: int = 0
    light_left: int
    used: list[str] = Field(default_factory=list)
    light_available: int
    light_short: int = 0
    additional_costs: list[str] = Field(default_factory=list)


LABELS: dict[str, Label] = {
    "light_created": "Light created", "light_spent": "Light spent", "light_left": "Light left in the pool",
    "used": "Concentrations used", "light_available": "Light available", "light_short": "Light missing",
    "additional_costs": "Additional costs",
}


# ------------------------------------------------------------------------------------------ rules

@rule("rs.card-states-positions.light", "rs.card-states-positions", "rs.phases-of-a-turn.play", "rs.how-to-play-cards")
def light_problem(cid: str, mine: Mapping[str, Concentration], already: set[str]) -> str | None:
    """Return why *cid* cannot create light for the player (None when it can): his, exposed and ready."""
    c = mine.get(cid)
    if c is None:
        return f"{cid} is not a concentration the player controls, so it cannot create light for this card"
    if cid in already:
        return f"{cid} is named twice: once used it cannot be used again until it is readied"
    if not c.exposed:
        return f"{cid} is concealed (a card lies on it), and only an exposed concentration creates light"
    if not c.ready:
        return f"{cid} is already used this turn, and a used concentration cannot be used again until readied"
    return None


@rule("rs.card-states-positions.light", "rs.phases-of-a-turn.play")
def light_from(uses: int, corpus: Corpus) -> int:
    """Return the light created by using *uses* concentrations (1 light each)."""
    return uses * int(corpus.fact("rs.card-states-positions.light", "light_per_concentration_use"))


@rule("rs.card-play-steps.1", "rs.how-to-play-cards", "rs.anatomy-of-a-card")
def can_pay(available: int, cost: int) -> bool:
    """Return whether the light available (pool plus light created now) pays the card's light cost."""
    return available >= cost


@rule("rs.playing-a-card", "rs.boons", "rs.boons-advanced-rules")
def field_problem(card_type: str, place: Placement) -> str | None:
    """Return why the card may not go on that field: only a boon is played on an opponent's field."""
    if card_type != "boon" and not place.own_field:
        return f"a {card_type} must be played on the player's own field; only boons go on an opponent's field"
    return None


@rule("rs.card-types-areas-of-play.runespells", "rs.how-to-play-cards", "rs.your-field.concentration-areas")
def runespell_problem(place: Placement, mine: Mapping[str, Concentration]) -> str | None:
    """Return why a runespell may not go there: it is slung on an exposed concentration the player controls."""
    if place.kind != "concentration":
        return f"a runespell is slung on an exposed concentration the player controls, not on {PLACE_NAMES[place.kind]}"
    return _concentration_problem(place, mine, "runespell")


@rule("rs.card-types-areas-of-play.defense-cards", "rs.your-field.concentration-areas",
      "rs.your-field.utility-slots")
def trinket_chant_problem(card_type: str, place: Placement, mine: Mapping[str, Concentration]) -> str | None:
    """Return why a trinket or chant may not go there: an own exposed concentration or a free own utility slot."""
    if place.kind == "utility_slot":
        return f"a {card_type} needs a free utility slot, and this one already holds a card" \
            if place.occupied else None
    if place.kind != "concentration":
        return f"a {card_type} goes on an exposed concentration the player controls or a free utility slot, " \
            f"not on {PLACE_NAMES[place.kind]}"
    return _concentration_problem(place, mine, card_type)


def _concentration_problem(place: Placement, mine: Mapping[str, Concentration], what: str) -> str | None:
    c = mine.get(place.id or "")
    if c is None:
        return f"{place.id} is not a concentration the player controls, so the {what} cannot be placed on it"
    if not c.exposed:
        return f"{place.id} is concealed (a card already lies on it); the {what} needs an exposed concentration"
    return None


@rule("rs.boons", "rs.playing-a-card", "rs.card-types-areas-of-play.defense-cards")
def boon_problem(place: Placement) -> str | None:
    """Return why a boon may not go there: a boon is played only on an ailment or on a boon."""
    if place.kind in ("ailment", "boon"):
        return None
    return f"a boon is played only on an ailment or a boon, not on {PLACE_NAMES[place.kind]}"


@rule("rs.card-types-areas-of-play.defense-cards", "rs.anatomy-of-a-card")
def is_second_trinket(name: str, controlled: Sequence[str], corpus: Corpus) -> bool:
    """Return whether playing this trinket would make the player control more copies than allowed (1)."""
    limit = int(corpus.fact("rs.card-types-areas-of-play.defense-cards", "max_controlled_copies_same_trinket"))
    return sum(1 for t in controlled if t.casefold() == name.casefold()) + 1 > limit


@rule("rs.term.distract")
def distract_problem(keywords: Sequence[str], place: Placement) -> str | None:
    """Return why a Distract card may not go there: it is only ever placed on a concentration."""
    if "distract" in keywords and place.kind == "utility_slot":
        return "a card with Distract may only be placed on a concentration, not on a utility slot"
    return None


@rule("rs.card-play-steps.5", "rs.advanced-rules-targets", "rs.card-types-areas-of-play.targets-required",
      "rs.resolving-effects")
def untargeted(effects: Sequence[TargetingEffect]) -> list[int]:
    """Return the (0-based) targeting effects without a valid target; any one of them forbids the play."""
    return [i for i, e in enumerate(effects) if not e.valid_target]


@rule("rs.card-types-areas-of-play.targets-required", "rs.term.fate", "rs.term.choice")
def exempt_from_targets(keywords: Sequence[str]) -> bool:
    """Return whether the card has Fate or Choice (then not every effect needs a valid target)."""
    return "fate" in keywords or "choice" in keywords


# ----------------------------------------------------------------------------------- resolution

def _placement_problems(card: PlayedCard, keywords: Sequence[str], place: Placement,
                        mine: Mapping[str, Concentration], controlled: Sequence[str], trace: Trace,
                        corpus: Corpus) -> Callable[..., Any]:
    """Record each placement rule the play breaks; return the rule that decides where this card type goes."""
    kind = card.type
    problem = field_problem(kind, place)
    decider: Callable[..., Any] = field_problem
    if problem:
        trace.violate(problem, field_problem)
    elif kind == "runespell":
        problem, decider = runespell_problem(place, mine), runespell_problem
    elif kind in ("trinket", "chant"):
        problem, decider = trinket_chant_problem(kind, place, mine), trinket_chant_problem
    else:
        problem, decider = boon_problem(place), boon_problem
    if problem and decider is not field_problem:
        trace.violate(problem, decider)
    d_problem = distract_problem(keywords, place)
    if d_problem:
        trace.violate(d_problem, distract_problem)
    if kind == "trinket" and is_second_trinket(card.name, controlled, corpus):
        trace.violate(f"the player already controls a copy of {card.name}, and may control only 1 copy of "
                      "the same trinket at a time", is_second_trinket)
    return decider


def _where(place: Placement) -> str:
    whose = "the player's own" if place.own_field else "an opponent's"
    if place.kind == "concentration":
        return f"on concentration {place.id} ({whose} field)"
    return f"on {PLACE_NAMES[place.kind]} ({whose} field)"


@rule("rs.card-states-positions", "rs.how-to-play-cards", "rs.phases-of-a-turn.play")
def _light(pos: PayCostPosition, mine: Mapping[str, Concentration], out: PayCostOutcome, trace: Trace,
           corpus: Corpus) -> list[str]:
    """Card play step 1: light from the concentrations used, added to the pool; return those that create light."""
    player, pool = pos.player, pos.light_pool
    good: list[str] = []
    seen: set[str] = set()
    for cid in pos.use:
        problem = light_problem(cid, mine, seen)
        seen.add(cid)
        if problem:
            trace.violate(problem, light_problem)
        else:
            good.append(cid)
    created = light_from(len(good), corpus)
    available = pool + created
    if good:
        trace.step(f"{player} uses {', '.join(good)} (turned sideways): {created} light into the pool"
                   + (f", which already held {pool}" if pool else "") + f"; {available} light available.",
                   light_from, "rs.card-states-positions")
    else:
        trace.step(f"No concentration is used now; the pool holds {pool} light from earlier this turn.",
                   "rs.how-to-play-cards", "rs.phases-of-a-turn.play")
    out.light_available, out.light_short = available, max(0, pos.card.light_cost - available)
    return good


@rule("rs.card-play-steps.1", "rs.term.ail-x")
def _pay(card: PlayedCard, keywords: Sequence[str], available: int, out: PayCostOutcome, trace: Trace) -> None:
    """Card play step 1: the light pays the cost, then any additional cost (Ail X)."""
    cost = card.light_cost
    if can_pay(available, cost):
        trace.step(f"{available} light pays the cost of {cost}.", can_pay)
    else:
        trace.violate(f"{card.name} costs {cost} light and only {available} is available "
                      f"({cost - available} short)", can_pay)
    extra = [k for k in keywords if keyword_parts(k)[0] == "ail"]
    if extra:
        out.additional_costs = extra
        trace.step(f"After the light cost, the additional cost is paid: {', '.join(extra)} (the player applies "
                   "that many ailments of one type to their own Runeslinger).", "rs.card-play-steps.1",
                   "rs.term.ail-x")


@rule("rs.resolving-effects.choice-and-fate", "rs.card-play-steps.5")
def _targets(card: PlayedCard, keywords: Sequence[str], effects: Sequence[TargetingEffect], trace: Trace) -> None:
    """Card play step 5: every targeting effect needs a valid target (not with Fate or Choice)."""
    if effects and exempt_from_targets(keywords):
        trace.step(f"{card.name} has {'Fate' if 'fate' in keywords else 'Choice'}: not every effect needs a "
                   "valid target; only the chosen bullet must have one (see the keyword ruling).",
                   exempt_from_targets, "rs.resolving-effects.choice-and-fate")
    elif not effects:
        trace.step(f"No effect of {card.name} targets, so declaring targets (card play step 5) needs "
                   "nothing.", "rs.card-play-steps.5")
    else:
        missing = untargeted(effects)
        for i in missing:
            what = effects[i].text or f"targeting effect {i + 1}"
            trace.violate(f"{what!r} has no valid target in play, so {card.name} cannot be played at all",
                          untargeted)
        if not missing:
            trace.step(("The targeting effect has" if len(effects) == 1 else
                        f"Each of the {len(effects)} targeting effects has")
                       + " a valid target in play (card play "
                       "step 5); an effect with a valid target may be used even if it can do little.", untargeted)


@situation(GAME, "pay_cost", PayCostPosition, labels=LABELS)
@rule("rs.card-play-steps", "rs.card-play-steps.1", "rs.playing-a-card", "rs.card-play-steps.2",
      "rs.how-to-play-cards.example", "rs.phases-of-a-turn.discard", "rs.term.light")
def resolve_pay_cost(pos: PayCostPosition, trace: Trace, corpus: Corpus) -> PayCostOutcome:
    """Play a card from hand: pay its light cost from concentrations and the pool, place it, check targets."""
    card, player = pos.card, pos.player
    mine = {c.id: c for c in pos.concentrations}
    keywords = keywords_of(card.keywords)
    place = pos.place_on
    cost, pool = card.light_cost, pos.light_pool
    out = PayCostOutcome(light_left=pool, light_available=pool)
    trace.step(f"{player} plays {card.name} (a {card.type}, light cost {cost}): first its costs are paid "
               "(card play step 1).", "rs.card-play-steps", "rs.card-play-steps.1", "rs.playing-a-card")
    good = _light(pos, mine, out, trace, corpus)
    created, available = light_from(len(good), corpus), out.light_available
    _pay(card, keywords, available, out, trace)
    # step 2: play it somewhere valid
    decider = _placement_problems(card, keywords, place, mine, pos.trinkets_controlled, trace, corpus)
    _targets(card, keywords, pos.targeting_effects, trace)
    if trace.violations:
        return out
    trace.step(f"{card.name} goes {_where(place)} and is in play (card play step 2)"
               + (": the concentration used for light may hold the card it paid for." if place.kind ==
                  "concentration" and place.id in good else "."),
               "rs.card-play-steps.2", decider,
               *(["rs.how-to-play-cards.example"] if place.kind == "concentration" else []))
    left = available - cost
    out.light_created, out.light_spent, out.light_left, out.used = created, cost, left, good
    if left:
        trace.step(f"{left} light stays in the pool for the rest of the turn; unspent light is removed in the "
                   "Discard Phase.", "rs.phases-of-a-turn.discard", "rs.term.light")
    trace.summarize(f"{player} can play {card.name}: {created} light created"
                    + (f" plus {pool} in the pool" if pool else "") + f", {cost} spent, {left} left")
    return out
