"""Runewars Harvest order: the resource dials set to what the player's areas produce, then developments.

Paragraphs: ``rw.harvest-order`` (each dial set to the total his controlled areas show: up or down),
``rw.resource-dials`` with ``.adjusting`` / ``rw.frequently-overlooked-rules.1`` (dials move only when told),
``rw.order-card-summary.harvest``; the Supremacy Bonus ``rw.harvest-order.supremacy`` (first every development's
benefit, then one development built for 1 wood at a friendly stronghold, never with the wood dial at 0),
``rw.developments`` with ``.resources`` (+1 to a dial the area produces), ``.diplomat`` (2 influence),
``.training-ground`` (1 Tactics card) and ``.limit`` (one development per stronghold, lost with the stronghold);
``rw.component.development-tokens``.

The player states what his controlled areas produce (the totals of their printed icons) and, for each of his
strongholds, its development and what its area produces. Answers: ``raise`` on a resources development when its
area produces more than one resource, ``build`` (whether he builds), ``build_area`` and ``build_kind``.
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.common import GAME, Faction, Labels, Name, capital, names, plural, refuse_duplicates, the_player
from engine.runewars.recruit import RESOURCES, Resource

DevelopmentKind = Annotated[Literal["resources", "diplomat", "training_ground", "defensive"],
                            Labels({"resources": "Resources", "diplomat": "Diplomat",
                                    "training_ground": "Training ground", "defensive": "Defensive bonus"})]
KIND_WORDS = {"resources": "resources", "diplomat": "diplomat", "training_ground": "training ground",
              "defensive": "defensive"}


class Dials(Model):
    """The three resource dials of the faction sheet."""

    model_config = ConfigDict(title="Resource dials")

    food: int = Field(ge=0, le=20, title="Food", description="The space the food dial's arrow points to.")
    wood: int = Field(ge=0, le=20, title="Wood", description="The space the wood dial's arrow points to.")
    ore: int = Field(ge=0, le=20, title="Ore", description="The space the ore dial's arrow points to.")

    def words(self) -> str:
        """Return the dials for a sentence."""
        return f"food {self.food}, wood {self.wood}, ore {self.ore}"


class Produced(Model):
    """What the areas the player controls show, added up per resource."""

    model_config = ConfigDict(title="Resources his areas show")

    food: int = Field(0, ge=0, le=60, title="Food", description="Food icons in all the areas he controls.")
    wood: int = Field(0, ge=0, le=60, title="Wood", description="Wood icons in all the areas he controls.")
    ore: int = Field(0, ge=0, le=60, title="Ore", description="Ore icons in all the areas he controls.")


class StrongholdArea(Model):
    """An area with one of the player's strongholds: its development and what it produces."""

    model_config = ConfigDict(title="Stronghold")

    area: Name = Field(title="Area", description="The area of the stronghold, e.g. 1B.")
    development: DevelopmentKind | None = Field(None, title="Development",
                                                description="The development token there (none: no development).")
    produces: list[Resource] = Field([], max_length=3, title="Resources the area shows",
                                     description="The resources printed in the area (a resources development raises "
                                                 "one of them).")
    raise_: Resource | None = Field(None, alias="raise", title="Dial raised", description="For a resources "
                                    "development: the dial he raises by 1 (left out: asked when there is a choice).")


class HarvestPosition(OpenPosition):
    """A Harvest order: the dials, what his areas produce, his strongholds and developments, and what he builds."""

    game: Literal["runewars"]
    situation: Literal["harvest"]
    player: Faction = Field(title="Player", description="The faction resolving the Harvest order.")
    dials: Dials = Field(title="Dials before harvesting")
    produced: Produced = Field(title="Resources his areas show")
    supremacy: bool = Field(False, title="Supremacy Bonus", description="Whether Harvest is his highest Order card in "
                            "play (he takes its Supremacy Bonus).")
    strongholds: list[StrongholdArea] = Field([], max_length=16, title="His strongholds",
                                              description="Each area holding one of his strongholds.")
    lost: list[Name] = Field([], max_length=16, title="Developments without their stronghold",
                             description="Areas where a development of his lies but his stronghold was destroyed or "
                                         "captured (none: leave empty).")
    build: bool | None = maybe("With the Supremacy Bonus: whether he builds a development (left out: asked).",
                               title="Builds a development")
    build_area: Name | None = maybe("The stronghold area he builds in (left out: asked).", title="Build in")
    build_kind: DevelopmentKind | None = maybe("The development he builds (left out: asked).",
                                               title="Development built")

    @model_validator(mode="after")
    def _readable(self) -> Self:
        refuse_duplicates([s.area for s in self.strongholds], "area", "strongholds")
        for i, s in enumerate(self.strongholds):
            if s.raise_ is not None and s.development != "resources":
                raise refuse(f"{s.area} has no resources development, so it raises no dial", f"strongholds[{i}].raise")
            if s.raise_ is not None and s.raise_ not in s.produces:
                raise refuse(f"{s.area} does not produce {s.raise_}", f"strongholds[{i}].raise")
        for i, a in enumerate(self.lost):
            if any(s.area == a for s in self.strongholds):
                raise refuse(f"{a} is listed with a stronghold of his and as lost", f"lost[{i}]")
        return self

    def reading(self) -> list[str]:
        """The dials, what his areas show, his strongholds and developments, the bonus and his choices."""
        p = self.produced
        out = [f"{capital(the_player(self.player))} resolves a Harvest order; his dials show {self.dials.words()}.",
               f"The areas he controls show {p.food} food, {p.wood} wood and {p.ore} ore."]
        for s in self.strongholds:
            dev = f"a {KIND_WORDS[s.development]} development" if s.development else "no development"
            shows = names(list(s.produces)) if s.produces else "nothing"
            out.append(f"Stronghold in {s.area}: {dev}; the area shows {shows}"
                       + (f"; he raises {s.raise_}" if s.raise_ else "") + ".")
        if self.lost:
            out.append(f"Developments left without their stronghold: {names(list(self.lost))}.")
        out.append("He takes the Supremacy Bonus." if self.supremacy else "He takes no Supremacy Bonus.")
        if self.build is not None:
            out.append("He builds a development" + (f" in {self.build_area}" if self.build_area else "")
                       + (f" ({KIND_WORDS[self.build_kind]})" if self.build_kind else "") + "."
                       if self.build else "He builds no development.")
        return out


class HarvestOutcome(Outcome):
    """The dials after harvesting and after the bonus, influence and Tactics cards gained, and what is built."""

    harvested: dict[str, int]
    dials: dict[str, int]
    influence: int = 0
    tactics_cards: int = 0
    destroyed: list[str] = Field(default_factory=list)
    can_build: bool | None = None
    built: str | None = None


LABELS: dict[str, Label] = {"harvested": "Dials after harvesting", "dials": "Dials at the end",
                            "influence": "Influence gained", "tactics_cards": "Tactics cards drawn",
                            "destroyed": "Developments destroyed", "can_build": "May build a development",
                            "built": "Development built in"}


@rule("rw.harvest-order", "rw.resource-dials", "rw.resource-dials.adjusting", "rw.frequently-overlooked-rules.1",
      "rw.order-card-summary.harvest")
def _harvest(pos: HarvestPosition, trace: Trace) -> dict[str, int]:
    """Set each dial to the total its resource shows in his areas (a dial may go down)."""
    out = {}
    for r in RESOURCES:
        before, now = getattr(pos.dials, r), getattr(pos.produced, r)
        out[r] = now
        move = "stays at" if now == before else ("rises from" if now > before else "falls from")
        trace.step(f"His areas show {now} {r}: the {r} dial {move} {before}"
                   + (f" to {now}" if now != before else "") + ".", "rw.harvest-order", "rw.resource-dials")
    trace.step("Until a card or an order turns them again the dials stay there, whatever his areas show later.",
               "rw.resource-dials.adjusting", "rw.frequently-overlooked-rules.1", "rw.order-card-summary.harvest")
    return out


@rule("rw.harvest-order.supremacy", "rw.developments", "rw.developments.resources", "rw.developments.diplomat",
      "rw.developments.training-ground", "rw.developments.limit")
def _benefits(pos: HarvestPosition, dials: dict[str, int], out: HarvestOutcome, trace: Trace,
              corpus: Corpus) -> None:
    """Supremacy Bonus, first part: every development standing with its stronghold gives its benefit; one left
    without its stronghold is destroyed and gives nothing."""
    for a in pos.lost:
        out.destroyed.append(a)
        trace.step(f"The development in {a} lost its stronghold: it is destroyed and gives nothing.",
                   "rw.developments.limit")
    for i, s in enumerate(pos.strongholds):
        if s.development == "diplomat":
            gain = int(corpus.fact("rw.developments.diplomat", "influence_gained"))
            out.influence += gain
            trace.step(f"The diplomat in {s.area} gives him {gain} influence.", "rw.developments.diplomat")
        elif s.development == "training_ground":
            out.tactics_cards += 1
            trace.step(f"The training ground in {s.area} draws him 1 Tactics card.", "rw.developments.training-ground")
        elif s.development == "resources":
            pick = s.raise_ or (s.produces[0] if len(s.produces) == 1 else None)
            if pick is None and s.produces:
                trace.decide(the_player(pos.player), f"the dial the development in {s.area} raises",
                             "rw.developments.resources", options=list(s.produces), field=f"strongholds[{i}].raise")
            elif pick is None:
                trace.step(f"The area {s.area} shows no resource, so its resources development raises no dial.",
                           "rw.developments.resources")
            else:
                dials[pick] += 1
                trace.step(f"The resources development in {s.area} raises his {pick} dial by 1, to {dials[pick]}.",
                           "rw.developments.resources")
    if any(s.development == "defensive" for s in pos.strongholds):
        trace.step("A defensive development gives nothing at harvest; it works in battles.", "rw.developments")


@rule("rw.harvest-order.supremacy", "rw.developments.limit", "rw.component.development-tokens")
def may_build(wood: int, free: list[str]) -> bool:
    """Return whether he may build: his wood dial above 0 and a stronghold of his without a development."""
    return wood > 0 and bool(free)


@rule("rw.harvest-order.supremacy", "rw.developments.limit", "rw.component.development-tokens", "rw.developments")
def _build(pos: HarvestPosition, dials: dict[str, int], out: HarvestOutcome, trace: Trace) -> None:
    """Supremacy Bonus, second part: one development for 1 wood at a stronghold of his without one."""
    free = [s.area for s in pos.strongholds if s.development is None]
    out.can_build = may_build(dials["wood"], free)
    who = the_player(pos.player)
    if not out.can_build:
        why = "his wood dial is at 0" if dials["wood"] == 0 else "every stronghold of his already has a development"
        trace.step(f"He cannot build a development: {why}.", "rw.harvest-order.supremacy", "rw.developments.limit")
        if pos.build:
            trace.violate(f"he cannot build a development: {why}", "rw.harvest-order.supremacy")
        return
    trace.step(f"He may lower his wood dial by 1 to build 1 development at a stronghold of his without one: "
               f"{names(free)}.", "rw.harvest-order.supremacy", "rw.developments.limit",
               "rw.component.development-tokens")
    if pos.build is None:
        trace.decide(who, "whether he builds a development", "rw.harvest-order.supremacy", options=[True, False],
                     field="build")
        return
    if not pos.build:
        return
    if pos.build_area is not None and pos.build_area not in free:
        trace.violate(f"he cannot build in {pos.build_area}: each stronghold of his holds at most 1 development and "
                      f"he may build only at {names(free)}", "rw.developments.limit")
        return
    dials["wood"] -= 1
    if pos.build_area is None:
        trace.decide(who, "the stronghold area he builds in", "rw.harvest-order.supremacy", options=free,
                     field="build_area")
    if pos.build_kind is None:
        trace.decide(who, "the development he builds", "rw.developments",
                     options=["resources", "diplomat", "training_ground", "defensive"], field="build_kind")
    out.built = pos.build_area
    trace.step(f"He lowers his wood dial to {dials['wood']} and builds "
               + (f"a {KIND_WORDS[pos.build_kind]} development" if pos.build_kind else "a development")
               + (f" in {pos.build_area}." if pos.build_area else "."), "rw.harvest-order.supremacy",
               "rw.component.development-tokens")


def _summary(pos: HarvestPosition, out: HarvestOutcome, trace: Trace) -> str:
    """One sentence: the dials after harvesting, the bonus's gains and the development built."""
    d = out.dials
    text = f"Harvest: {the_player(pos.player)}'s dials end at food {d['food']}, wood {d['wood']}, ore {d['ore']}"
    gains = ([f"{out.influence} influence"] if out.influence else []) + (
        [plural(out.tactics_cards, "Tactics card")] if out.tactics_cards else [])
    if gains:
        text += f"; he gains {names(gains)}"
    if out.destroyed:
        text += f"; the development in {names(out.destroyed)} is destroyed with its stronghold"
    if out.built:
        text += f"; he builds a development in {out.built}"
    elif out.can_build is False and pos.supremacy:
        text += "; he cannot build a development"
    if trace.decisions:
        text += "; his choice is still open"
    return text + "."


@situation(GAME, "harvest", HarvestPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.harvest-order", "rw.harvest-order.supremacy")
def resolve_harvest(pos: HarvestPosition, trace: Trace, corpus: Corpus) -> HarvestOutcome:
    """Harvest: set the dials to what the player's areas show, then (with the Supremacy Bonus) use developments
    and build one."""
    harvested = _harvest(pos, trace)
    dials = dict(harvested)
    out = HarvestOutcome(harvested=harvested, dials=dials)
    if not pos.supremacy:
        trace.step("Without the Supremacy Bonus he neither uses his developments nor builds one.",
                   "rw.harvest-order.supremacy")
        if pos.build:
            trace.violate("only the Supremacy Bonus builds a development", "rw.harvest-order.supremacy")
        return out
    _benefits(pos, dials, out, trace, corpus)
    _build(pos, dials, out, trace)
    out.dials = dials
    return out
