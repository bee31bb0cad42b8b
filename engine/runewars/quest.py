"""Runewars Quest Phase: one hero's action (move, heal or train) and the quest he attempts after moving.

Paragraphs: ``rw.quest-phase`` with ``.move`` (up to 2 areas, through enemy and neutral areas, no activation, not
when routed), ``.heal`` (only in a friendly area), ``.train`` (+1 to two attributes or +2 to one, at most +2 on an
attribute) and ``.quest-card-training``; ``rw.hero-movement`` and ``.enemy-areas``;
``rw.frequently-overlooked-rules.4`` (quests only in the Quest Phase); ``rw.quest-cards`` with ``.hand-limit``,
``rw.quest-card-breakdown`` (the area named on the card), ``rw.attempting-and-completing-quests`` with ``.limits``
(one quest per hero, not when routed) and ``.complete`` (the completed card discarded and replaced, a failed one
kept unless it says otherwise), ``rw.frequently-overlooked-rules.2`` and ``.3``; ``rw.attribute-tests`` (Fate cards
equal to the attribute, one kept, its destiny icon read), ``rw.resolving-fate-cards``; ``rw.reward-cards`` and
``rw.reward-card-secrecy`` (facedown under the Hero card); ``rw.duel-quests`` (a neutral unit run by the player on
the left, reading its base shape's section, its special ability on a special icon, returned afterwards) with
``rw.duels.3a``; ``rw.term.training-token`` / ``rw.component.training-tokens``.

What a drawn card's destiny icon means is printed on the Quest card, not in the books: the player states each
drawn card's result as the Quest card reads it (reward, no reward, or no reward and discard the card). Answers:
``chosen`` (the result he keeps among those drawn).
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars.areas import AreaMap, Map
from engine.runewars.common import (
    GAME,
    Faction,
    Labels,
    Name,
    UnitClass,
    capital,
    faction_name,
    figure_name,
    left_of,
    names,
    plural,
    the_player,
)
from engine.runewars.duels import Action
from engine.runewars.movement import Mover, can_cross

Attribute = Annotated[Literal["strength", "agility", "wisdom"],
                      Labels({"strength": "Strength", "agility": "Agility", "wisdom": "Wisdom"})]
QuestKind = Annotated[Literal["test", "duel", "other"],
                      Labels({"test": "An attribute test", "duel": "A duel with a neutral unit",
                              "other": "Other instructions"})]
Result = Annotated[Literal["reward", "nothing", "discard"],
                   Labels({"reward": "Reward (the quest is completed)", "nothing": "No reward",
                           "discard": "No reward, and the Quest card is discarded"})]
DuelResult = Annotated[Literal["hero_won", "hero_lost", "both_stand"],
                       Labels({"hero_won": "The hero defeated the unit", "hero_lost": "The hero was defeated",
                               "both_stand": "Both still stand after 4 rounds"})]
RESULT_WORDS = {"reward": "a reward", "nothing": "no reward", "discard": "no reward and the card discarded"}


class QuestHero(Model):
    """The hero taking the action: his attributes and state."""

    model_config = ConfigDict(title="Hero")

    name: Name = Field(title="Hero", description="The hero's name.")
    strength: int = Field(ge=0, le=12, title="Strength", description="Strength, training included.")
    agility: int = Field(ge=0, le=12, title="Agility", description="Agility, training included.")
    wisdom: int = Field(ge=0, le=12, title="Wisdom", description="Wisdom, training included.")
    start: Name | None = Field(None, alias="from", title="Area", description="The area the hero starts in.")
    flying: bool = Field(False, title="Flying", description="Whether the hero flies (mountain and water borders).")
    routed: bool = Field(False, title="Routed", description="Whether the hero is routed.")
    attempted_quest: bool = Field(False, title="Already attempted a quest", description="Whether he already attempted "
                                  "a quest this Quest Phase.")


class Training(Model):
    """The training tokens already on the Hero card, as the bonus each gives."""

    model_config = ConfigDict(title="Training tokens")

    strength: int = Field(0, ge=0, le=2, title="On strength", description="0, +1 or +2.")
    agility: int = Field(0, ge=0, le=2, title="On agility", description="0, +1 or +2.")
    wisdom: int = Field(0, ge=0, le=2, title="On wisdom", description="0, +1 or +2.")


class NeutralFoe(Model):
    """The neutral unit a duel quest sets against the hero (never on the board)."""

    model_config = ConfigDict(title="Neutral unit")

    name: Name = Field(title="Unit", description="The kind of neutral unit the Quest card names, e.g. Dragon.")
    unit_class: UnitClass = Field(alias="class", title="Base shape", description="The shape of its base (the Fate "
                                  "card section it reads).")


class QuestCard(Model):
    """The Quest card the hero attempts."""

    model_config = ConfigDict(title="Quest card")

    name: Name = Field(title="Quest card", description="The card's name.")
    area: Name | None = maybe("The area printed on the card where the hero must be (none: any area).", title="Area")
    kind: QuestKind = Field("test", title="What it asks")
    attribute: Attribute | None = maybe("For a test: the attribute tested.", title="Attribute tested")
    foe: NeutralFoe | None = maybe("For a duel quest: the neutral unit the hero duels.", title="Neutral unit")


class QuestPosition(OpenPosition):
    """A hero's Quest Phase action and the quest he attempts after moving."""

    game: Literal["runewars"]
    situation: Literal["quest"]
    player: Faction = Field(title="Player", description="The faction controlling the hero.")
    hero: QuestHero
    action: Action = Field("move", title="Action", description="The hero's one action this Quest Phase.")
    path: list[Name] = Field([], max_length=4, title="Areas entered", description="For a move: the areas he enters, "
                             "in order (none: he stays).")
    map: AreaMap | None = maybe("The areas of the move and their borders (left out: the move is not checked on a "
                                "map).", title="Map")
    friendly_area: bool | None = maybe("For a heal: whether the hero stands in a friendly area.",
                                       title="In a friendly area")
    train: list[Attribute] = Field([], max_length=2, title="Attributes trained", description="For a train action: "
                                   "two different attributes (+1 each) or one (+2).")
    training: Training = Field(default_factory=Training, title="Training tokens already on the card",
                               json_schema_extra={"default": {}})
    quest: QuestCard | None = maybe("The Quest card he attempts after moving (none: no quest).", title="Quest card")
    drawn: list[Result] = Field([], max_length=12, title="Fate cards drawn",
                                description="For a test: each drawn card's result as the Quest card reads its "
                                            "destiny icon.")
    chosen: Result | None = maybe("The result of the card he keeps (left out: asked).", title="Card kept")
    duel_result: DuelResult | None = maybe("For a duel quest: how the duel ended.", title="Duel result")
    quest_cards: int = Field(2, ge=0, le=6, title="Quest cards in hand", description="How many Quest cards he holds, "
                             "the one attempted included.")

    @model_validator(mode="after")
    def _readable(self) -> Self:
        if len(set(self.train)) != len(self.train):
            raise refuse("training names the same attribute twice; name it once for +2", "train")
        q = self.quest
        if q is not None and q.kind == "test" and q.attribute is None:
            raise refuse("a test quest needs the attribute it tests", "quest.attribute")
        if q is not None and q.kind == "duel" and q.foe is None:
            raise refuse("a duel quest needs the neutral unit", "quest.foe")
        if self.chosen is not None and self.drawn and self.chosen not in self.drawn:
            raise refuse(f"no drawn card shows {self.chosen}", "chosen")
        if self.map is not None:
            for i, a in enumerate([self.hero.start, *self.path]):
                if a is not None and not self.map.has(a):
                    raise refuse(f"{a!r} is not an area of the map", "hero.from" if i == 0 else f"path[{i - 1}]")
        return self

    def reading(self) -> list[str]:
        """The hero, his action, the quest and the cards drawn."""
        h = self.hero
        out = [f"{capital(the_player(self.player))}'s hero {figure_name(h.name)} (strength {h.strength}, agility "
               f"{h.agility}, wisdom {h.wisdom})" + (f" stands in {h.start}" if h.start else "")
               + "".join(f", {w}" for w, on in (("flying", h.flying), ("routed", h.routed),
                                                 ("has already attempted a quest", h.attempted_quest)) if on) + "."]
        what = {"move": "moves" + (f" through {' then '.join(self.path)}" if self.path else " (staying put)"),
                "heal": "heals" + ({True: " in a friendly area", False: " outside a friendly area", None: ""}
                                   [self.friendly_area]),
                "train": f"trains {names(list(self.train))}" if self.train else "trains"}[self.action]
        out.append(f"His action: he {what}.")
        q = self.quest
        if q is not None:
            ask = (f"a {q.attribute} test" if q.kind == "test" else
                   f"a duel with a {q.foe.name if q.foe else 'neutral unit'}" if q.kind == "duel" else "other steps")
            out.append(f"He attempts the quest {q.name}" + (f" in {q.area}" if q.area else "") + f" ({ask}).")
        if self.drawn:
            out.append(f"Fate cards drawn: {names([RESULT_WORDS[r] for r in self.drawn])}.")
        if self.chosen:
            out.append(f"He keeps a card showing {RESULT_WORDS[self.chosen]}.")
        if self.duel_result:
            out.append({"hero_won": "The hero defeated the unit.", "hero_lost": "The hero was defeated.",
                        "both_stand": "Both still stand after 4 rounds."}[self.duel_result])
        out.append(f"He holds {plural(self.quest_cards, 'Quest card')}.")
        return out


class QuestOutcome(Outcome):
    """Where the hero ends, whether the quest is attempted and completed, and where the cards go."""

    hero_area: str | None = None
    may_attempt: bool = False
    fate_cards: int | None = Field(None, exclude_if=lambda v: v is None)
    result: str | None = None
    completed: bool | None = None
    reward_cards: int = 0
    quest_card: Literal["discarded_and_replaced", "kept", "discarded"] | None = None
    quest_cards_after: int
    neutral_controller: str | None = Field(None, exclude_if=lambda v: v is None)
    neutral_section: str | None = Field(None, exclude_if=lambda v: v is None)
    attributes: dict[str, int] = Field(default_factory=dict)


LABELS: dict[str, Label] = {
    "hero_area": "Hero ends in", "may_attempt": "May attempt the quest", "fate_cards": "Fate cards to draw",
    "result": ("Result kept", {"reward": "Reward", "nothing": "No reward", "discard": "No reward, card discarded"}),
    "completed": "Quest completed", "reward_cards": "Reward cards gained",
    "quest_card": ("The Quest card", {"discarded_and_replaced": "Discarded, a new one drawn", "kept": "Kept",
                                      "discarded": "Discarded"}),
    "quest_cards_after": "Quest cards in hand after", "neutral_controller": "The neutral unit is run by",
    "neutral_section": "The unit reads the section", "attributes": "Attributes after training"}


@rule("rw.quest-phase.move", "rw.hero-movement", "rw.hero-movement.enemy-areas", "rw.movement-restrictions",
      "rw.activation-tokens.other-movement")
def _move(pos: QuestPosition, out: QuestOutcome, trace: Trace, corpus: Corpus) -> bool:
    """The move action: up to 2 areas, through any area, across borders the hero may cross, no activation."""
    h, most = pos.hero, int(corpus.fact("rw.quest-phase.move", "max_areas"))
    if h.routed:
        trace.violate(f"{figure_name(h.name)} is routed and cannot take the move action", "rw.quest-phase.move")
        return False
    if len(pos.path) > most:
        trace.violate(f"a hero moves at most {most} areas in the Quest Phase, not {len(pos.path)}",
                      "rw.quest-phase.move", "rw.hero-movement")
        return False
    if pos.map is not None and h.start is not None:
        board, here = Map.of(pos.map), h.start
        for there in pos.path:
            kind = board.neighbours[here].get(there)
            if kind is None or not can_cross(kind, Mover(h.name, here, flying=h.flying, hero=True), "summer"):
                why = "not adjacent" if kind is None else f"behind a {kind} border"
                trace.violate(f"{figure_name(h.name)} cannot move from {here} to {there}: {why}",
                              "rw.quest-phase.move", "rw.movement-restrictions")
                return False
            here = there
    out.hero_area = pos.path[-1] if pos.path else h.start
    trace.step(f"Move: {figure_name(h.name)} moves {plural(len(pos.path), 'area')} (at most {most})"
               + (f", ending in {out.hero_area}" if out.hero_area else "") + "; enemy and neutral areas do not stop "
               "him, and the area he ends in is not activated.", "rw.quest-phase.move", "rw.hero-movement",
               "rw.hero-movement.enemy-areas", "rw.activation-tokens.other-movement")
    return True


@rule("rw.quest-phase.heal", "rw.quest-phase.train", "rw.term.training-token", "rw.component.training-tokens")
def _heal_or_train(pos: QuestPosition, out: QuestOutcome, trace: Trace, corpus: Corpus) -> None:
    """The heal action (only in a friendly area) or the train action (+1 to two attributes or +2 to one, at most
    +2 on an attribute)."""
    name = figure_name(pos.hero.name)
    out.hero_area = pos.hero.start
    if pos.action == "heal":
        if pos.friendly_area is False:
            trace.violate(f"{name} can heal only in a friendly area", "rw.quest-phase.heal")
        else:
            trace.step(f"Heal: {name} removes all damage from himself (he must stand in a friendly area).",
                       "rw.quest-phase.heal")
        return
    cap = int(corpus.fact("rw.quest-phase.train", "max_training_bonus_per_attribute"))
    gain = 1 if len(pos.train) == 2 else 2
    if not pos.train:
        trace.decide(the_player(pos.player), "the attributes trained: two different ones (+1 each) or one (+2)",
                     "rw.quest-phase.train", field="train")
        return
    for attr in pos.train:
        now = getattr(pos.training, attr)
        if now + gain > cap:
            trace.violate(f"{name}'s {attr} already carries +{now} of training: a training token raises an attribute "
                          f"by at most {cap}", "rw.quest-phase.train")
            return
        out.attributes[attr] = getattr(pos.hero, attr) + gain
    trace.step(f"Train: {name} raises {names([f'{a} by {gain}' for a in pos.train])}, placing or flipping a training "
               f"token on each (at most +{cap} per attribute).", "rw.quest-phase.train", "rw.term.training-token",
               "rw.component.training-tokens")


@rule("rw.attempting-and-completing-quests", "rw.attempting-and-completing-quests.limits", "rw.quest-cards",
      "rw.quest-card-breakdown", "rw.frequently-overlooked-rules.4", "rw.quest-phase.move")
def _may_attempt(pos: QuestPosition, moved: bool, out: QuestOutcome, trace: Trace) -> bool:
    """Whether the hero may attempt the quest: after a move action, not routed, no quest yet this phase, in the
    area the card names."""
    q, name = pos.quest, figure_name(pos.hero.name)
    if q is None:
        return False
    why = ("he did not take the move action" if pos.action != "move"
           else "he is routed" if pos.hero.routed
           else "he has already attempted a quest this Quest Phase" if pos.hero.attempted_quest
           else f"he is in {out.hero_area}, not in {q.area}, the area the card names"
           if q.area and out.hero_area and out.hero_area != q.area else None)
    if why or not moved:
        if why:
            trace.violate(f"{name} cannot attempt {q.name}: {why}", "rw.attempting-and-completing-quests",
                          "rw.attempting-and-completing-quests.limits")
        return False
    trace.step(f"Having moved, {name} stands in the area {q.name} names"
               + (f" ({q.area})" if q.area else "") + ": he reveals the Quest card from his player's hand and "
               "follows it (one quest per hero in a Quest Phase, only in the Quest Phase).",
               "rw.attempting-and-completing-quests", "rw.attempting-and-completing-quests.limits", "rw.quest-cards",
               "rw.quest-card-breakdown", "rw.frequently-overlooked-rules.4")
    return True


@rule("rw.attribute-tests", "rw.resolving-fate-cards", "rw.resolving-fate-cards.3", "rw.hero-card-breakdown")
def _test(pos: QuestPosition, out: QuestOutcome, trace: Trace) -> str | None:
    """An attribute test: as many Fate cards as the attribute, one kept; its result as the Quest card reads it."""
    q = pos.quest
    assert q is not None and q.attribute is not None
    value = getattr(pos.hero, q.attribute)
    out.fate_cards = value
    trace.step(f"Test of {q.attribute}: {figure_name(pos.hero.name)} has {value}, so {the_player(pos.player)} draws "
               f"{plural(value, 'Fate card')} and keeps 1; its destiny icon decides the quest (should the Fate deck "
               "run out, the discards are shuffled into a new one to finish the draw).", "rw.attribute-tests",
               "rw.resolving-fate-cards", "rw.resolving-fate-cards.3", "rw.hero-card-breakdown")
    if not pos.drawn:
        return None
    if len(pos.drawn) != value:
        trace.violate(f"a {q.attribute} of {value} draws {plural(value, 'Fate card')}, not {len(pos.drawn)}",
                      "rw.attribute-tests", "rw.resolving-fate-cards")
        return None
    results = list(dict.fromkeys(pos.drawn))
    if pos.chosen is None and len(results) > 1:
        trace.decide(the_player(pos.player), "the Fate card he keeps (its result on the Quest card)",
                     "rw.attribute-tests", options=results, field="chosen")
        return None
    return pos.chosen or results[0]


@rule("rw.duel-quests", "rw.duels.3a", "rw.hero-card-breakdown")
def _duel(pos: QuestPosition, out: QuestOutcome, trace: Trace) -> str | None:
    """A duel quest: the neutral unit, run by the player on the left, reads its base shape's section and uses its
    special ability on a special icon; defeating it completes the quest; it goes back afterwards."""
    q = pos.quest
    assert q is not None and q.foe is not None
    out.neutral_controller = left_of(pos.player)
    out.neutral_section = q.foe.unit_class
    trace.step(f"Duel quest: {left_of(pos.player)} runs the {q.foe.name}, which never stands on the board. Each round "
               f"both draw 1 Fate card; the unit reads its {q.foe.unit_class} section, and a special icon there "
               "triggers its special ability (it cannot deal 1 damage instead, as a hero can). Up to 4 rounds.",
               "rw.duel-quests", "rw.duels.3a", "rw.hero-card-breakdown")
    if pos.duel_result is None:
        return None
    trace.step(f"Whatever the result, the {q.foe.name} goes back to the unused neutral units.", "rw.duel-quests")
    return "reward" if pos.duel_result == "hero_won" else "nothing"


@rule("rw.attempting-and-completing-quests.complete", "rw.reward-cards", "rw.reward-card-secrecy",
      "rw.component.reward-cards", "rw.component.quest-cards",
      "rw.frequently-overlooked-rules.2", "rw.quest-cards.hand-limit", "rw.frequently-overlooked-rules.3")
def _complete(pos: QuestPosition, result: str, out: QuestOutcome, trace: Trace) -> None:
    """Where the cards go: a reward puts a Reward card facedown under the Hero card and the Quest card is replaced;
    a failed quest keeps its card unless the card says to discard it."""
    name = figure_name(pos.hero.name)
    out.result, out.completed = result, result == "reward"
    if result == "reward":
        out.reward_cards, out.quest_card = 1, "discarded_and_replaced"
        trace.step(f"Completed: {name} gets the top Reward card, which his player looks at and slides facedown under "
                   "the Hero card (secret until used). The Quest card is discarded and a new one drawn, so his hand "
                   f"stays at {plural(out.quest_cards_after, 'card')}.", "rw.attempting-and-completing-quests.complete",
                   "rw.reward-cards", "rw.reward-card-secrecy", "rw.frequently-overlooked-rules.2",
                   "rw.component.reward-cards", "rw.component.quest-cards")
    elif result == "discard":
        out.quest_card, out.quest_cards_after = "discarded", pos.quest_cards - 1
        trace.step("The quest fails and the card tells him to discard it.",
                   "rw.attempting-and-completing-quests.complete")
    else:
        out.quest_card = "kept"
        trace.step("The quest fails; he keeps the Quest card.", "rw.attempting-and-completing-quests.complete")
    if out.quest_cards_after > 3:
        trace.step(f"He holds {out.quest_cards_after} Quest cards, more than 3: he discards down to 3 at once.",
                   "rw.quest-cards.hand-limit", "rw.frequently-overlooked-rules.3")


def _summary(pos: QuestPosition, out: QuestOutcome, trace: Trace) -> str:
    """One sentence: the action, the quest's result and where the cards go."""
    name = figure_name(pos.hero.name)
    text = {"move": f"{name} moves" + (f" to {out.hero_area}" if out.hero_area and pos.path else " nowhere"),
            "heal": f"{name} heals", "train": f"{name} trains" + (f" {names(list(pos.train))}" if pos.train else "")
            }[pos.action]
    q = pos.quest
    if q is None or not out.may_attempt:
        return text + "."
    if out.completed:
        return text + f" and completes {q.name}: a Reward card goes facedown under his Hero card and the Quest card " \
                      "is replaced."
    if out.completed is False:
        return text + f" but fails {q.name}" + ("; the Quest card is discarded." if out.quest_card == "discarded"
                                               else "; he keeps the Quest card.")
    if q.kind == "duel":
        return text + f" and duels the {q.foe.name if q.foe else 'unit'} of {q.name}, run by {left_of(pos.player)}."
    draw = f"; he draws {plural(out.fate_cards, 'Fate card')}" if out.fate_cards is not None else ""
    return text + f" and attempts {q.name}{draw}" + ("; which card he keeps is his choice." if trace.decisions
                                                      else ".")


@situation(GAME, "quest", QuestPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.quest-phase", "rw.quest-phase.quest-card-training", "rw.quest-cards", "rw.duel-quests", "rw.heroes",
      "rw.component.hero-cards", "rw.frequently-used-terms.heroes")
def resolve_quest(pos: QuestPosition, trace: Trace, corpus: Corpus) -> QuestOutcome:
    """A hero's Quest Phase: his one action, then (after moving) the quest he attempts and where its cards go."""
    out = QuestOutcome(quest_cards_after=pos.quest_cards)
    trace.step(f"Quest Phase: {faction_name(pos.player)}'s hero {figure_name(pos.hero.name)} takes one action: move, "
               "heal or train (a Quest card that trains an attribute adds only 1). His player controls him by holding "
               "his Hero card; heroes are not units.", "rw.quest-phase", "rw.quest-phase.quest-card-training",
               "rw.heroes", "rw.component.hero-cards", "rw.frequently-used-terms.heroes")
    moved = _move(pos, out, trace, corpus) if pos.action == "move" else False
    if pos.action != "move":
        _heal_or_train(pos, out, trace, corpus)
    out.may_attempt = _may_attempt(pos, moved, out, trace)
    if not out.may_attempt or pos.quest is None:
        return out
    result = (_test(pos, out, trace) if pos.quest.kind == "test" else _duel(pos, out, trace)
              if pos.quest.kind == "duel" else pos.chosen)
    if pos.quest.kind == "other" and result is None:
        trace.decide(the_player(pos.player), "how the Quest card's instructions end", "rw.quest-cards",
                     options=["reward", "nothing", "discard"], field="chosen")
    if pos.quest.kind == "duel" and result is None:
        trace.decide(the_player(pos.player), "how the duel ended", "rw.duel-quests",
                     options=["hero_won", "hero_lost", "both_stand"], field="duel_result")
    if result is not None:
        _complete(pos, result, out, trace)
    return out
