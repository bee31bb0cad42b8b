"""Runewars heroes: gaining one (at most three, even with a card that stops desertion) and desertion (p. 25, 28).

Paragraphs: ``rw.heroes``, ``rw.frequently-used-terms.heroes`` and ``rw.component.hero-cards`` (holding a hero's
card is controlling him; heroes are not units), ``rw.gaining-heroes`` (the card faceup in the play area, the figure
in an area with one of his strongholds), ``rw.gaining-heroes.limit`` (3 at most: gaining a fourth makes one of his
heroes desert, even one that normally cannot, e.g. under the Title card Captain of the Heroes' League),
``rw.hero-card-breakdown`` (a hero of another alignment than his controller is more prone to desert),
``rw.deserting-heroes`` (figure off the board, card shuffled into the Hero deck, Reward cards discarded faceup
beside the Reward deck, not left on the board as a defeated hero's are) and ``rw.frequently-overlooked-rules.3``.
What stops a hero deserting is card text the books do not print: the player states it as a yes/no field.
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.common import GAME, Faction, Labels, Name, capital, names, plural, refuse_duplicates, the_player

Event = Annotated[Literal["gain", "desert"], Labels({
    "gain": "He gains a hero", "desert": "A card makes one of his heroes desert"})]
LIMIT = 3


class Hero(Model):
    """A hero he controls and the Reward cards under his Hero card."""

    model_config = ConfigDict(title="Hero")

    name: Name = Field(title="Hero", description="The hero's name.")
    rewards: int = Field(0, ge=0, le=12, title="Reward cards", description="Reward cards under his Hero card.")


class HeroesPosition(OpenPosition):
    """A player's heroes, and a hero gained or a desertion called for."""

    game: Literal["runewars"]
    situation: Literal["heroes"]
    player: Faction = Field(title="Player", description="The faction controlling the heroes.")
    event: Event = Field("gain", title="What happens", description="A new hero, or a desertion a card calls for.")
    heroes: list[Hero] = Field(default_factory=list, max_length=LIMIT, title="His heroes",
                               description="The heroes he controls now (3 at most).")
    gained: Name | None = maybe("The hero he gains (absent: not named).", title="Hero gained")
    protected: bool = Field(False, title="His heroes cannot desert",
                            description="A card he holds stops his heroes deserting (e.g. the Title card Captain of "
                                        "the Heroes' League).")
    deserter: Name | None = maybe("The hero who deserts (absent: the ruling asks when one must).", title="Deserter")

    @model_validator(mode="after")
    def _readable(self) -> Self:
        refuse_duplicates([h.name for h in self.heroes], "name", "heroes", "hero")
        if self.deserter is not None and self.deserter not in [h.name for h in self.heroes]:
            raise refuse(f"{self.deserter!r} is not one of his heroes", "deserter")
        if self.gained is not None and self.gained in [h.name for h in self.heroes]:
            raise refuse(f"he already controls {self.gained!r}", "gained")
        return self

    def reading(self) -> list[str]:
        """His heroes, the event and any stated deserter, in a player's words."""
        who = capital(the_player(self.player))
        held = [f"{h.name} ({plural(h.rewards, 'Reward card')})" for h in self.heroes]
        out = [f"{who} controls {plural(len(self.heroes), 'hero', 'heroes')}: {names(held)}."]
        out.append(f"He gains {self.gained or 'a hero'}." if self.event == "gain" else
                   "A card makes one of his heroes desert.")
        if self.protected:
            out.append("A card he holds stops his heroes deserting.")
        if self.deserter:
            out.append(f"{self.deserter} deserts.")
        return out


class HeroesOutcome(Outcome):
    """Who deserts, where his Reward cards go, and the heroes he ends with."""

    deserter: Name | None = None
    rewards_discarded: int = 0
    heroes_after: list[Name] = Field(default_factory=list)


@rule("rw.deserting-heroes", "rw.frequently-used-terms.heroes", "rw.component.hero-cards")
def _desert(pos: HeroesPosition, name: str, trace: Trace, out: HeroesOutcome) -> None:
    hero = next(h for h in pos.heroes if h.name == name)
    out.deserter, out.rewards_discarded = name, hero.rewards
    out.heroes_after = [h for h in out.heroes_after if h != name]
    trace.step(f"{name} deserts: his figure leaves the board and his Hero card, no longer in the player's play area, "
               "is shuffled back into the Hero deck.", "rw.deserting-heroes", "rw.component.hero-cards",
               "rw.frequently-used-terms.heroes")
    trace.step(f"His {plural(hero.rewards, 'Reward card')} go faceup on the discard pile beside the Reward deck, not "
               "onto the board for other heroes to pick up.", "rw.deserting-heroes")


@rule("rw.gaining-heroes.limit", "rw.frequently-overlooked-rules.3", "rw.deserting-heroes")
def _choose(pos: HeroesPosition, trace: Trace, out: HeroesOutcome, why: str) -> None:
    if pos.deserter is None:
        trace.decide(the_player(pos.player), "which of his heroes deserts", "rw.gaining-heroes.limit",
                     "rw.deserting-heroes", options=[h.name for h in pos.heroes], field="deserter")
        return
    trace.step(f"{why} He chooses {pos.deserter}.", "rw.gaining-heroes.limit", "rw.frequently-overlooked-rules.3")
    _desert(pos, pos.deserter, trace, out)


@rule("rw.gaining-heroes", "rw.gaining-heroes.limit", "rw.frequently-overlooked-rules.3")
def _gain(pos: HeroesPosition, trace: Trace, out: HeroesOutcome) -> None:
    new = pos.gained or "the new hero"
    out.heroes_after.append(new)
    trace.step(f"{capital(new)}'s Hero card goes faceup into his play area and the figure into an area holding one "
               "of his strongholds.", "rw.gaining-heroes")
    if len(pos.heroes) < LIMIT:
        if pos.deserter:
            trace.violate(f"he controls {plural(len(pos.heroes), 'hero', 'heroes')}, under the limit of {LIMIT}: "
                          "gaining one makes no hero desert", "rw.gaining-heroes.limit")
        return
    why = (f"He now has {LIMIT + 1} heroes, one over the limit: one of his heroes must desert"
           + (", even though a card normally stops them deserting." if pos.protected else "."))
    if pos.deserter is None:
        trace.step(why, "rw.gaining-heroes.limit", "rw.frequently-overlooked-rules.3")
    _choose(pos, trace, out, why if pos.deserter else "")


@rule("rw.deserting-heroes", "rw.hero-card-breakdown")
def _card_desertion(pos: HeroesPosition, trace: Trace, out: HeroesOutcome) -> None:
    if not pos.heroes:
        trace.step("He controls no hero: nobody deserts.", "rw.deserting-heroes")
        return
    if pos.protected:
        trace.step("A card he holds stops his heroes deserting, and the hero limit is not at stake: nobody deserts.",
                   "rw.deserting-heroes")
        return
    trace.step("Desertions usually come from Season cards, striking heroes whose alignment banner differs from their "
               "controller's faction.", "rw.deserting-heroes", "rw.hero-card-breakdown")
    if pos.deserter is None:
        trace.decide(the_player(pos.player), "which of his heroes the card makes desert", "rw.deserting-heroes",
                     options=[h.name for h in pos.heroes], field="deserter")
        return
    _desert(pos, pos.deserter, trace, out)


LABELS: dict[str, Label] = {"deserter": "Deserts", "rewards_discarded": "Reward cards discarded faceup",
                            "heroes_after": "Heroes after"}


def _summary(pos: HeroesPosition, out: HeroesOutcome, trace: Trace) -> str:
    head = capital(the_player(pos.player))
    if trace.decisions:
        return f"{head} must choose which of his heroes deserts"
    if out.deserter:
        rewards = plural(out.rewards_discarded, "Reward card")
        return (f"{out.deserter} deserts: his card is shuffled into the Hero deck and {rewards} go to the discard "
                f"pile; {the_player(pos.player)} keeps {names(out.heroes_after)}")
    return f"{head} controls {names(out.heroes_after)}; nobody deserts"


@situation(GAME, "heroes", HeroesPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.heroes", "rw.component.hero-cards", "rw.frequently-used-terms.heroes")
def resolve_heroes(pos: HeroesPosition, trace: Trace, corpus: Corpus) -> HeroesOutcome:
    """Resolve a hero gained (the three-hero limit) or a desertion: who leaves and where his Reward cards go."""
    out = HeroesOutcome(heroes_after=[h.name for h in pos.heroes])
    trace.step("Heroes are not units: a player controls a hero while the Hero card lies in front of him; heroes quest, "
               "duel and support his units.", "rw.heroes", "rw.component.hero-cards", "rw.frequently-used-terms.heroes")
    (_gain if pos.event == "gain" else _card_desertion)(pos, trace, out)
    return out
