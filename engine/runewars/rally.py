"""Runewars Rally Support (Order #6): one benefit per controlled city, and the Supremacy Bonus's new hero.

Paragraphs: ``rw.rally-support-order`` (for each city in an area he controls the player picks one of four
benefits, in the amount the city shows), its steps ``.1`` (neutral units of the city's class put in its area,
allied since he controls it, never a class with no figure left; ``rw.allied-units``, ``rw.component-limitations``),
``.2`` (Tactics cards, then the 10-card limit ``rw.tactics-cards.hand-limit``), ``.3`` (influence), ``.4`` (Quest
cards, then down to 3, ``rw.quest-cards.hand-limit``), ``rw.rally-support-order.supremacy`` (spend up to 3
influence, draw that many Hero cards, keep 1, the rest shuffled back; the kept hero placed as ``rw.gaining-heroes``
says; a fourth hero makes one desert, ``rw.gaining-heroes.limit``), ``rw.order-card-summary.rally-support``.

The city tokens' printed amounts are the player's to state: for each city, the amount it shows for the benefit he
picks, and for neutral units how many figures of that class remain in the box.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe
from engine.runewars.common import GAME, Faction, Labels, Name, capital, names, plural, the_player

Benefit = Annotated[Literal["units", "tactics", "influence", "quests"], Labels({
    "units": "Neutral units", "tactics": "Tactics cards", "influence": "Influence", "quests": "Quest cards"})]
BENEFIT_WORDS = {"units": "neutral units", "tactics": "Tactics cards", "influence": "influence",
                 "quests": "Quest cards"}
TACTICS_LIMIT, QUEST_LIMIT, HERO_LIMIT, HERO_SPEND = 10, 3, 3, 3


class City(Model):
    """A city token: whether he controls its area, the benefit picked and the amount shown."""

    model_config = ConfigDict(title="City")

    area: Name = Field(title="Area", description="The area of the city, e.g. 4B.")
    controlled: bool = Field(True, title="He controls the area", description="Only a city in an area he controls "
                             "gives a benefit.")
    benefit: Benefit | None = maybe("The benefit he picks (absent: the ruling asks).", title="Benefit picked")
    amount: int = Field(1, ge=1, le=6, title="Amount shown", description="The amount the city shows for that "
                        "benefit.")
    figures_left: int | None = maybe("For neutral units: figures of the city's class still in the box (absent: "
                                     "enough).", title="Figures of that class left", ge=0, le=20)


class RallyPosition(OpenPosition):
    """A player resolving Rally Support: his cities, his cards and influence, and the Supremacy Bonus."""

    game: Literal["runewars"]
    situation: Literal["rally_support"]
    player: Faction = Field(title="Player", description="The faction resolving Rally Support.")
    cities: list[City] = Field(default_factory=list, max_length=12, title="Cities",
                               description="Every city token in or near his areas.")
    influence: int = Field(0, ge=0, le=200, title="Influence held", description="Influence tokens before the order.")
    tactics: int = Field(0, ge=0, le=10, title="Tactics cards in hand", description="Before the order (10 at most).")
    quests: int = Field(0, ge=0, le=3, title="Quest cards in hand", description="Before the order (3 at most).")
    supremacy: bool = Field(False, title="He gets the Supremacy Bonus",
                            description="Rally Support is his highest Order card in play.")
    hero_spend: int | None = maybe("Influence spent to draw Hero cards, 0 to 3 (absent with the bonus: the ruling "
                                   "asks).", title="Influence spent on heroes", ge=0, le=3)
    heroes: int = Field(0, ge=0, le=3, title="Heroes he controls", description="Before the order.")
    kept: Name | None = maybe("The Hero card he keeps of those drawn (absent: the ruling asks).",
                              title="Hero card kept")

    def reading(self) -> list[str]:
        """The cities, hand, influence and bonus in a player's words."""
        who = capital(the_player(self.player))
        out = [f"{who} holds {plural(self.influence, 'influence token')}, {plural(self.tactics, 'Tactics card')}, "
               f"{plural(self.quests, 'Quest card')} and controls {plural(self.heroes, 'hero', 'heroes')}."]
        for c in self.cities:
            pick = f"picks {BENEFIT_WORDS[c.benefit]} ({c.amount})" if c.benefit else "has not picked yet"
            left = f", {plural(c.figures_left, 'figure')} of its class left" if c.figures_left is not None else ""
            out.append(f"City in {c.area}: {'controlled' if c.controlled else 'not controlled'}, {pick}{left}.")
        if self.supremacy:
            spend = "" if self.hero_spend is None else f" and spends {self.hero_spend} on heroes"
            out.append(f"He gets the Supremacy Bonus{spend}.")
        if self.kept:
            out.append(f"He keeps {self.kept}.")
        return out


class RallyOutcome(Outcome):
    """What each city gave, and his hand, influence and heroes after."""

    allied_units: dict[str, int] = Field(default_factory=dict)
    influence_after: int | None = None
    tactics_after: int | None = None
    quests_after: int | None = None
    discard_tactics: int = 0
    discard_quests: int = 0
    heroes_drawn: int = 0
    hero_kept: Name | None = None
    must_desert: bool = False


@rule("rw.rally-support-order", "rw.rally-support-order.1", "rw.component-limitations", "rw.allied-units",
      "rw.rally-support-order.2", "rw.rally-support-order.3", "rw.rally-support-order.4",
      "rw.order-card-summary.rally-support")
def _cities(pos: RallyPosition, trace: Trace, out: RallyOutcome) -> None:
    """Each controlled city gives the benefit picked; a city in another's area gives nothing."""
    gains = {"tactics": 0, "influence": 0, "quests": 0}
    for i, c in enumerate(pos.cities):
        if not c.controlled:
            trace.step(f"The city in {c.area} is in an area he does not control: it gives nothing.",
                       "rw.rally-support-order")
            continue
        allowed = ["units", "tactics", "influence", "quests"] if c.figures_left != 0 else ["tactics", "influence",
                                                                                           "quests"]
        if c.benefit is None:
            trace.decide(the_player(pos.player), f"which benefit the city in {c.area} gives",
                         "rw.rally-support-order", options=allowed, field=f"cities[{i}].benefit")
        elif c.benefit not in allowed:
            trace.violate(f"no neutral figure of the city's class is left, so the city in {c.area} cannot give "
                          "neutral units", "rw.rally-support-order.1", "rw.component-limitations")
        elif c.benefit == "units":
            placed = min(c.amount, c.figures_left if c.figures_left is not None else c.amount)
            out.allied_units[c.area] = placed
            trace.step(f"The city in {c.area}: {plural(placed, 'neutral unit')} of its class go into {c.area}; he "
                       "controls that area, so they are his allies"
                       + (" (only the figures left in the box)." if placed < c.amount else "."),
                       "rw.rally-support-order.1", "rw.allied-units", "rw.component-limitations")
        else:
            gains[c.benefit] += c.amount
            step = {"tactics": "rw.rally-support-order.2", "influence": "rw.rally-support-order.3",
                    "quests": "rw.rally-support-order.4"}[c.benefit]
            trace.step(f"The city in {c.area}: {c.amount} {BENEFIT_WORDS[c.benefit]}.", step,
                       "rw.order-card-summary.rally-support")
    out.influence_after = pos.influence + gains["influence"]
    out.tactics_after, out.quests_after = pos.tactics + gains["tactics"], pos.quests + gains["quests"]


@rule("rw.tactics-cards.hand-limit", "rw.rally-support-order.4", "rw.quest-cards.hand-limit",
      "rw.frequently-overlooked-rules.3", "rw.tactics-cards")
def _limits(pos: RallyPosition, trace: Trace, out: RallyOutcome) -> None:
    """Hand limits after drawing: 10 Tactics cards, 3 Quest cards."""
    tactics, quests = out.tactics_after or 0, out.quests_after or 0
    if tactics > TACTICS_LIMIT:
        out.discard_tactics, out.tactics_after = tactics - TACTICS_LIMIT, TACTICS_LIMIT
        trace.step(f"He holds {tactics} Tactics cards, over the limit of {TACTICS_LIMIT}: he discards "
                   f"{tactics - TACTICS_LIMIT} of his choice.", "rw.tactics-cards.hand-limit", "rw.tactics-cards",
                   "rw.frequently-overlooked-rules.3")
    if quests > QUEST_LIMIT:
        out.discard_quests, out.quests_after = quests - QUEST_LIMIT, QUEST_LIMIT
        trace.step(f"He holds {quests} Quest cards: he discards down to {QUEST_LIMIT} ({quests - QUEST_LIMIT} of his "
                   "choice).", "rw.rally-support-order.4", "rw.quest-cards.hand-limit",
                   "rw.frequently-overlooked-rules.3")


@rule("rw.rally-support-order.supremacy", "rw.gaining-heroes", "rw.gaining-heroes.limit",
      "rw.resolve-order-cards.primary-first")
def _heroes(pos: RallyPosition, trace: Trace, out: RallyOutcome) -> None:
    """The Supremacy Bonus: spend up to 3 influence, draw as many Hero cards, keep 1."""
    held = out.influence_after or 0
    most = min(HERO_SPEND, held)
    if pos.hero_spend is None:
        trace.decide(the_player(pos.player), f"how much influence to spend on Hero cards (0 to {most})",
                     "rw.rally-support-order.supremacy", options=list(range(most + 1)), field="hero_spend")
        return
    if pos.hero_spend > held:
        trace.violate(f"he spends {pos.hero_spend} on heroes but holds only {held}",
                      "rw.rally-support-order.supremacy")
        return
    if pos.hero_spend == 0:
        trace.step("He spends nothing on heroes.", "rw.rally-support-order.supremacy")
        return
    out.heroes_drawn, out.influence_after = pos.hero_spend, held - pos.hero_spend
    trace.step(f"After the primary ability, he spends {pos.hero_spend} and draws {plural(pos.hero_spend, 'Hero card')}"
               ": he keeps exactly 1 and shuffles the others back into the Hero deck.",
               "rw.rally-support-order.supremacy", "rw.resolve-order-cards.primary-first")
    if pos.kept is None:
        trace.decide(the_player(pos.player), "which of the Hero cards drawn he keeps",
                     "rw.rally-support-order.supremacy", field="kept")
        return
    out.hero_kept = pos.kept
    trace.step(f"{pos.kept}'s card goes faceup into his play area and the figure into an area holding one of his "
               "strongholds.", "rw.gaining-heroes", "rw.rally-support-order.supremacy")
    if pos.heroes >= HERO_LIMIT:
        out.must_desert = True
        trace.step(f"He already controls {HERO_LIMIT} heroes: he must choose one of his heroes to desert (see the "
                   "heroes situation).", "rw.gaining-heroes.limit")


LABELS: dict[str, Label] = {
    "allied_units": "Allied neutral units placed, by area", "influence_after": "Influence after",
    "tactics_after": "Tactics cards after", "quests_after": "Quest cards after",
    "discard_tactics": "Tactics cards to discard", "discard_quests": "Quest cards to discard",
    "heroes_drawn": "Hero cards drawn", "hero_kept": "Hero kept", "must_desert": "A hero must desert"}


def _summary(pos: RallyPosition, out: RallyOutcome, trace: Trace) -> str:
    head = capital(the_player(pos.player))
    if trace.decisions:
        return f"{head} still has to choose {trace.decisions[0].choose}"
    got = [f"{plural(n, 'allied neutral unit')} in {a}" for a, n in out.allied_units.items()]
    tail = (f"; he keeps {pos.kept}" + (" and one of his heroes deserts" if out.must_desert else "")
            if out.hero_kept else "")
    return (f"{head} ends with {out.influence_after} influence, {plural(out.tactics_after or 0, 'Tactics card')} "
            f"and {plural(out.quests_after or 0, 'Quest card')}" + (f", and {names(got)}" if got else "") + tail)


@situation(GAME, "rally_support", RallyPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.rally-support-order", "rw.supremacy-bonus")
def resolve_rally_support(pos: RallyPosition, trace: Trace, corpus: Corpus) -> RallyOutcome:
    """Resolve Rally Support: each controlled city's benefit, hand limits, then the Supremacy Bonus's hero."""
    out = RallyOutcome()
    listed = plural(len(pos.cities), "city", "cities")
    trace.step(f"Each city in an area he controls gives one benefit of his choice ({listed} listed).",
               "rw.rally-support-order")
    _cities(pos, trace, out)
    if trace.violations:
        return out
    _limits(pos, trace, out)
    if pos.supremacy and not trace.decisions:
        _heroes(pos, trace, out)
    elif pos.hero_spend:
        trace.step("Without the Supremacy Bonus he cannot spend influence on heroes.", "rw.supremacy-bonus")
    return out
