"""Rune Age Reward cards: claiming one, exhausting it for gold or influence, its text benefit, where it goes
when destroyed or when its owner is eliminated, and why it never counts as a unit.

Paragraphs: ``ra.rewards`` and ``ra.rewards.resources`` (what a Reward gives, exhausting it),
``ra.conduct-a-battle.4.enemy`` and ``ra.the-play-area`` (a beaten Enemy claimed as a Reward goes above the Home
Realm), ``ra.a-player-s-turn.1`` with the page-7 erratum (Rewards refresh at their owner's turn start),
``ra.term.gold`` / ``ra.term.influence`` (what each resource pays for), ``ra.spending-gold`` /
``ra.spending-influence`` (pooled, spent whole, no carry-over), ``rafaq.faq.general.12`` (a destroyed Reward
from the Event deck goes to the Event discard pile), ``ra.player-elimination`` (Rewards removed from the game),
``ra.term.army`` and the page-16 erratum (only unit cards count in an army or in a Monument tie).

The card's printed text is not in the books: the player states its upper-left icon and number, or that its text
gives another benefit. Choices made where the books are silent: a destroyed Reward that did not come from the
Event deck goes back to where it came from (the general rule for destroyed cards); influence from a Reward pays
what influence pays for (a Spend Influence action, keeping cards at the Discard Hand step, an ability's cost),
gold only a Spend Gold action.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, labelled, maybe, refuse
from engine.rune_age.words import possessive

Gives = Literal["gold", "influence", "text"]
Use = Literal["claim", "exhaust", "text", "destroyed", "eliminated", "army", "monument_tie"]
Spending = Literal["spend_gold", "spend_influence", "discard_hand", "ability_cost"]
Place = Literal["above_home_realm", "event_discard", "place_of_origin", "removed_from_game"]

GIVES = {"gold": "A gold icon (it produces gold)", "influence": "An influence icon (it produces influence)",
         "text": "No icon: its text gives another benefit"}
SOURCES = {"event_deck": "The Event deck (a defeated Enemy or another Event card)",
           "other": "Elsewhere (a scenario's own Reward)"}
USES = {"claim": "He claims it (an Enemy he has just defeated becomes his Reward)",
        "exhaust": "He exhausts it for its gold or influence",
        "text": "He uses the benefit its text describes",
        "destroyed": "An effect destroys it",
        "eliminated": "Its owner is eliminated",
        "army": "Does its strength count in his army?",
        "monument_tie": "Does its strength count in a Monument tie?"}
USE_WORDS = {"claim": "{p} claims it.", "exhaust": "{p} exhausts it for its resource.",
             "text": "{p} uses the benefit its text describes.", "destroyed": "An effect destroys it.",
             "eliminated": "{p} is eliminated.", "army": "{p} asks whether its strength counts in his army.",
             "monument_tie": "{p} asks whether its strength counts in a Monument tie."}
SOURCE_WORDS = {"event_deck": "the Event deck", "other": "elsewhere than the Event deck"}
SPENDINGS = {"spend_gold": "A Spend Gold action", "spend_influence": "A Spend Influence action",
             "discard_hand": "Keeping cards at the Discard Hand step", "ability_cost": "Paying an ability's cost"}
SPENDING_WORDS = {"spend_gold": "a Spend Gold action", "spend_influence": "a Spend Influence action",
                  "discard_hand": "keeping cards at the Discard Hand step", "ability_cost": "paying an ability's cost"}
PLACES = {"above_home_realm": "Above his Home Realm", "event_discard": "The Event discard pile",
          "place_of_origin": "Back where it came from", "removed_from_game": "Removed from the game"}
PLACE_WORDS = {"above_home_realm": "stays above his Home Realm", "event_discard": "goes to the Event discard pile",
               "place_of_origin": "goes back where it came from", "removed_from_game": "is removed from the game"}
SPEND_CITES = {"gold": ("ra.term.gold", "ra.spend-gold-action", "ra.spending-gold"),
               "influence": ("ra.term.influence", "ra.spend-influence-action", "ra.spending-influence")}
RESOURCE_SPENDINGS: dict[str, tuple[str, ...]] = {
    "gold": ("spend_gold",), "influence": ("spend_influence", "discard_hand", "ability_cost")}


class RewardCard(Model):
    """A Reward card: its name, where it came from, what its upper-left corner shows, and whether it is exhausted."""

    model_config = ConfigDict(title="Reward card")

    name: str = Field(max_length=200, min_length=1, title="Reward card", description="Its name as printed.")
    came_from: Literal["event_deck", "other"] = Field("event_deck", title="Where it came from",
                                                      json_schema_extra=labelled(SOURCES))
    gives: Gives = Field(title="Upper-left corner", json_schema_extra=labelled(GIVES))
    amount: int | None = maybe("The number on its gold or influence icon (left out when it has no icon).",
                               title="Number on the icon", ge=1, le=10)
    exhausted: bool = Field(False, title="Already exhausted",
                            description="Turned sideways since its owner's last refresh step.")
    strength: int | None = maybe("A strength still printed on it, as on a defeated Enemy (left out: none).",
                                 title="Printed strength", ge=0, le=50)

    @model_validator(mode="after")
    def _icon(self) -> RewardCard:
        """Refuse an icon without its number, or a number on a card without an icon."""
        if self.gives != "text" and self.amount is None:
            raise refuse(f"a Reward with {'an' if self.gives == 'influence' else 'a'} {self.gives} icon needs "
                         f"the number on it", "amount")
        if self.gives == "text" and self.amount is not None:
            raise refuse(f"a Reward without an icon has no number, but {self.amount} is given", "amount")
        return self


class RewardPosition(OpenPosition):
    """A player's Reward card and what happens to it, or what he asks about it."""

    game: Literal["rune-age"]
    situation: Literal["reward_card"]
    player: str = Field(max_length=80, min_length=1, title="Owner")
    reward: RewardCard = Field(title="The Reward")
    use: Use | None = maybe("What happens to the Reward, or what he asks about it (left out: what can he do with "
                            "it now?).", title="What happens", labels=USES)
    spending: Spending | None = maybe("When he exhausts it: the spending its resource joins (left out: the "
                                      "ordinary action for its resource).", title="Spent in", labels=SPENDINGS)
    pooled: int = Field(0, ge=0, le=60, title="Other resource pooled with it",
                        description="Gold from gold cards played, or influence from other cards exhausted, in "
                                    "the same spending.")
    cost: int | None = maybe("What that spending pays for, in all (left out: not said).", title="Cost paid",
                             ge=0, le=99)

    def reading(self) -> list[str]:
        """Restate the Reward, its state and what happens to it."""
        r = self.reward
        icon = (f"{'an' if r.gives == 'influence' else 'a'} {r.gives} icon showing {r.amount}" if r.amount
                else "no icon (its text gives its benefit)")
        out = [f"{possessive(self.player)} Reward: {r.name}, from {SOURCE_WORDS[r.came_from]}, with {icon}"
               + (f" and a printed strength of {r.strength}." if r.strength is not None else "."),
               "It is exhausted." if r.exhausted else "It is ready (not exhausted)."]
        if self.use is None:
            return [*out, "He asks what he can do with it now."]
        out.append(USE_WORDS[self.use].format(p=self.player))
        if self.use == "exhaust":
            when = SPENDING_WORDS[self.spending] if self.spending else "the ordinary action for its resource"
            pays = f", paying for {self.cost} in all" if self.cost is not None else ""
            out.append(f"Spent in {when}" + (f", pooled with {self.pooled} more" if self.pooled else "") + pays + ".")
        return out


class RewardOutcome(Outcome):
    """Where the Reward is afterwards, what it produced and lost, whether it is exhausted, and what it counts."""

    placed: Place | None = Field(None, exclude_if=lambda v: v is None)
    resource: Literal["gold", "influence"] | None = Field(None, exclude_if=lambda v: v is None)
    produced: int | None = Field(None, exclude_if=lambda v: v is None)
    lost: int | None = Field(None, exclude_if=lambda v: v is None)
    exhausted: bool | None = Field(None, exclude_if=lambda v: v is None)
    counts: int | None = Field(None, exclude_if=lambda v: v is None)


LABELS: dict[str, Label] = {
    "placed": ("Where the card is afterwards", PLACES), "resource": "Resource produced",
    "produced": "Amount produced (with what it is pooled with)", "lost": "Left over and lost",
    "exhausted": "Exhausted until his next refresh step", "counts": "Strength it adds",
}


@rule("ra.rewards.resources", "ra.term.exhaust")
def can_exhaust_reward(card: RewardCard) -> bool:
    """Return whether a Reward can be exhausted for a resource: it shows a gold or influence icon and is ready."""
    return card.gives != "text" and not card.exhausted


@rule("ra.term.gold", "ra.term.influence", "ra.spend-gold-action", "ra.spend-influence-action")
def spending_fits(gives: str, spending: str) -> bool:
    """Return whether a Reward's resource can pay in this spending: gold only in a Spend Gold action; influence in
    a Spend Influence action, to keep cards at the Discard Hand step, or for an ability's cost."""
    return spending in RESOURCE_SPENDINGS.get(gives, ())


@rule("ra.spending-gold", "ra.spending-influence")
def resource_lost(produced: int, cost: int) -> int:
    """Return what is left over and lost: resources are spent whole and never carried over."""
    return max(0, produced - cost)


@rule("rafaq.faq.general.12", "ra.term.destroy")
def destroyed_place(came_from: str) -> Place:
    """Return where a destroyed Reward goes: the Event discard pile when it came from the Event deck, otherwise
    back where it came from."""
    return "event_discard" if came_from == "event_deck" else "place_of_origin"


@rule("ra.rewards", "ra.rewards.resources")
def available_uses(card: RewardCard) -> list[Use]:
    """Return what the owner can do with his Reward now: exhaust a ready resource Reward, or use a text one."""
    if card.gives == "text":
        return ["text"]
    return ["exhaust"] if can_exhaust_reward(card) else []


@rule("ra.conduct-a-battle.4.enemy", "ra.rewards", "ra.the-play-area", "ra.term.reward")
def _claim(pos: RewardPosition, out: RewardOutcome, trace: Trace) -> None:
    """A defeated Enemy that becomes a Reward goes above its new owner's Home Realm, to give its benefit there."""
    out.placed = "above_home_realm"
    trace.step(f"{pos.player} defeated {pos.reward.name} and it becomes his Reward: he places it above his Home "
               f"Realm, beside his strongholds and cities, instead of in the Event discard pile.",
               "ra.conduct-a-battle.4.enemy", "ra.the-play-area")
    trace.step(f"There it gives him its benefit for as long as he holds it: {_benefit(pos.reward)}.",
               "ra.rewards", "ra.term.reward")


def _benefit(card: RewardCard) -> str:
    if card.gives == "text":
        return "what its text describes"
    return f"{card.amount} {card.gives} each time he exhausts it, once between two of his refresh steps"


@rule("ra.rewards.resources", "ra.a-player-s-turn.1", "rafaq.errata.rulebook.p7", "ra.term.gold",
      "ra.spend-gold-action", "ra.term.influence", "ra.spend-influence-action")
def _exhaust(pos: RewardPosition, out: RewardOutcome, trace: Trace) -> None:
    """Exhausting a resource Reward: refused when it has no icon or is already exhausted, or its resource cannot
    pay in this spending; otherwise it joins the spending and stays exhausted until its owner's next turn."""
    card = pos.reward
    if card.gives == "text":
        trace.violate(f"{card.name} shows no gold or influence icon, so it cannot be exhausted for a resource; "
                      f"its text alone says what it gives", "ra.rewards.resources")
        return
    if card.exhausted:
        trace.violate(f"{card.name} is already exhausted: it gives its {card.gives} only once, and is turned upright "
                      f"again only in the refresh step of {possessive(pos.player)} next turn", can_exhaust_reward,
                      "ra.a-player-s-turn.1", "rafaq.errata.rulebook.p7")
        return
    spending = pos.spending or RESOURCE_SPENDINGS[card.gives][0]
    if not spending_fits(card.gives, spending):
        trace.violate(f"{card.name} produces {card.gives}, which cannot pay in {SPENDING_WORDS[spending]}",
                      spending_fits)
        return
    out.resource = "gold" if card.gives == "gold" else "influence"
    out.exhausted = True
    total = out.produced = (card.amount or 0) + pos.pooled
    trace.step(f"{pos.player} exhausts {card.name}, turning it sideways, for {card.amount} {card.gives} in "
               f"{SPENDING_WORDS[spending]}" + (f", pooled with {pos.pooled} more: {total} in all." if pos.pooled
                                                else "."), "ra.rewards.resources", *SPEND_CITES[card.gives][:2])
    trace.step(f"{card.name} stays exhausted until the refresh step at the start of {possessive(pos.player)} next "
               f"turn, when it is turned upright with his cities and strongholds.", "ra.a-player-s-turn.1",
               "rafaq.errata.rulebook.p7")
    _pay(pos, out, total, trace)


@rule("ra.spending-gold", "ra.spending-influence")
def _pay(pos: RewardPosition, out: RewardOutcome, total: int, trace: Trace) -> None:
    """The pooled resource pays the cost whole; what is left over is lost."""
    if pos.cost is None:
        return
    word = out.resource or "gold"
    if pos.cost > total:
        trace.violate(f"the spending costs {pos.cost} {word} but only {total} is produced", resource_lost)
        return
    out.lost = resource_lost(total, pos.cost)
    trace.step(f"It pays {pos.cost} {word}; " + (f"the other {out.lost} is lost, as {word} never carries over."
                                                 if out.lost else "nothing is left over."), SPEND_CITES[word][2])


@rule("ra.rewards.resources")
def _text(pos: RewardPosition, out: RewardOutcome, trace: Trace) -> None:
    """A Reward without an icon gives the benefit its own text describes."""
    card = pos.reward
    if card.gives != "text":
        trace.violate(f"{card.name} gives its {card.gives} by being exhausted, not through a text benefit",
                      "ra.rewards.resources")
        return
    out.placed = "above_home_realm"
    trace.step(f"{card.name} has no gold or influence icon: its own text says what it gives and when, usually a "
               f"benefit special to the scenario; it stays above {possessive(pos.player)} Home Realm.",
               "ra.rewards.resources")


@rule("rafaq.faq.general.12", "ra.term.destroy")
def _destroyed(pos: RewardPosition, out: RewardOutcome, trace: Trace) -> None:
    """A destroyed Reward from the Event deck goes to the Event discard pile; any other back where it came from."""
    card = pos.reward
    out.placed = destroyed_place(card.came_from)
    if out.placed == "event_discard":
        trace.step(f"{card.name} came from the Event deck, so once destroyed it goes to the Event discard pile.",
                   "rafaq.faq.general.12")
    else:
        trace.step(f"{card.name} did not come from the Event deck; destroyed, it goes back where it came from, as "
                   f"any destroyed card does.", "ra.term.destroy")


@rule("ra.rewards", "ra.player-elimination")
def _eliminated(pos: RewardPosition, out: RewardOutcome, trace: Trace) -> None:
    """An eliminated player's Rewards are removed from the game, wherever they came from."""
    out.placed = "removed_from_game"
    trace.step(f"{pos.player} is eliminated, so {pos.reward.name} is removed from the game (not discarded, and "
               f"not given to another player), wherever it came from.", "ra.rewards", "ra.player-elimination")


@rule("ra.term.army", "rafaq.errata.rulebook.p16", "ra.term.reward")
def _not_a_unit(pos: RewardPosition, out: RewardOutcome, trace: Trace) -> None:
    """A Reward is not a unit card: it adds nothing to an army, nor to the unit strength counted in a Monument tie."""
    card = pos.reward
    out.counts = 0
    printed = f" (even with its printed strength of {card.strength})" if card.strength else ""
    if pos.use == "army":
        trace.step(f"{card.name} adds no strength to {possessive(pos.player)} army{printed}: an army is only the "
                   f"units played into the combat, and a Reward sits above his Home Realm, never in his deck or hand.",
                   "ra.term.army", "ra.term.reward")
    else:
        trace.step(f"{card.name} adds nothing to {possessive(pos.player)} Monument tie total{printed}: that total "
                   f"counts only the unit cards in his deck, hand and discard pile.", "rafaq.errata.rulebook.p16",
                   "ra.term.reward")


def _summary(pos: RewardPosition, out: RewardOutcome, trace: Trace) -> str:
    """One sentence: what he can do, where the card goes, what it produced, or that it counts for nothing."""
    name = pos.reward.name
    pending = next((d for d in trace.decisions), None)
    if pending:
        if "exhaust" in pending.options:
            return f"{pos.player} may exhaust {name} now for its {pos.reward.amount} {pos.reward.gives}."
        return f"{pos.player} may use the benefit {possessive(name)} text describes."
    if out.counts is not None:
        return f"{name} is not a unit: it adds no strength."
    if out.resource is not None:
        lost = f", and {out.lost} is lost" if out.lost else ""
        return (f"{name} gives {pos.reward.amount} {out.resource} ({out.produced} pooled){lost}; it stays exhausted "
                f"until his next turn.")
    if out.placed is not None:
        return f"{name} {PLACE_WORDS[out.placed]}."
    return f"{name} has nothing to give until his next refresh step."


@rule("ra.rewards", "ra.rewards.resources", "ra.a-player-s-turn.1")
def _what_now(pos: RewardPosition, trace: Trace) -> None:
    """No use stated: list what the owner can do with his Reward now, or say it must wait for his refresh step."""
    options = available_uses(pos.reward)
    trace.step(f"{pos.reward.name} sits above {possessive(pos.player)} Home Realm and gives him "
               f"{_benefit(pos.reward)}.", "ra.rewards", "ra.rewards.resources")
    if options:
        what = (f"exhaust it now for its {pos.reward.amount} {pos.reward.gives}" if options == ["exhaust"]
                else "use the benefit its text describes")
        trace.decide(pos.player, f"whether to {what}", available_uses, options=options, field="use")
    else:
        trace.step(f"{pos.reward.name} is exhausted and gives nothing more until the refresh step of "
                   f"{possessive(pos.player)} next turn.", "ra.a-player-s-turn.1", "ra.rewards.resources")


@situation("rune-age", "reward_card", RewardPosition, labels=LABELS)
@summarized(_summary)
def resolve_reward_card(pos: RewardPosition, trace: Trace, corpus: Corpus) -> RewardOutcome:
    """Resolve what a Reward card gives, when it can be used, and where it goes."""
    out = RewardOutcome()
    if pos.use is None:
        _what_now(pos, trace)
    elif pos.use == "claim":
        _claim(pos, out, trace)
    elif pos.use == "exhaust":
        _exhaust(pos, out, trace)
    elif pos.use == "text":
        _text(pos, out, trace)
    elif pos.use == "destroyed":
        _destroyed(pos, out, trace)
    elif pos.use == "eliminated":
        _eliminated(pos, out, trace)
    else:
        _not_a_unit(pos, out, trace)
    return out

