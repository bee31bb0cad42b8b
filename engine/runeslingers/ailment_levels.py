"""Runeslingers ailment levels: which levels of each ailment are on, maximum health, and losing at 0.

An ailment's level I triggers once for each new instance applied; each higher level is on while the
Runeslinger has at least the instances that level needs (``rs.ailments.instances-and-levels``). The book gives
Burn's numbers (I: lose 2 health per new instance; II: on at 4 or more, ``rs.ailments.burn``) and Fragment II's
maximum hand size of 4 (``rs.ailments.fragment``); every other level is printed on its ailment card, so the
position states the instances level II needs (``level_ii_at``) and the maximum health each Debilitate
instance takes away (``max_health_per_debilitate``; the book's game loss example, 20 instances bringing the
usual 20 to 0, reads as 1, the default). Concealed ailments have no effect (``rs.boons``). A maximum health of 0
loses the encounter (``rs.game-loss-conditions``); health never stays above its maximum
(``rs.anatomy-of-a-runeslinger.health``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, OpenPosition, Outcome, maybe, refuse
from engine.runeslingers.common import AILMENT_TYPES, GAME, Ailment, AilmentCounts, ailment_words, joined, plural
from engine.runeslingers.fields import ailments

NAMES: dict[str, str] = {t: t.capitalize() for t in AILMENT_TYPES}
Threshold = Annotated[int, Field(ge=2, le=99)]


class AilmentLevelsPosition(OpenPosition):
    """A Runeslinger's ailments (exposed and under boons), the instances just applied, and its health."""

    game: Literal["runeslingers"]
    situation: Literal["ailment_levels"]
    exposed: AilmentCounts = ailments("Exposed ailments", "Instances of each ailment type on the Runeslinger "
                                      "and not under a boon, counting any just applied, e.g. {\"burn\": 5}.")
    concealed: AilmentCounts = ailments("Ailments under boons", "Instances under a boon: they have no effect.")
    new: AilmentCounts = ailments("Just applied", "Instances applied at this moment (each one triggers level I "
                                  "once); they are already counted in the exposed ailments.")
    level_ii_at: dict[Ailment, Threshold] = Field(
        default_factory=dict, title="Level II needs (from the ailment card)",
        description="For each ailment whose card you read: the instances its level II needs. Burn's 4 is in the "
                    "book and need not be given.")
    max_health_per_debilitate: int | None = maybe(
        "Maximum health each Debilitate instance takes away, as its card says (1 unless given: the book's "
        "example of 20 instances bringing 20 to 0).", title="Max health lost per Debilitate", ge=0, le=20)
    starting_max_health: int | None = maybe("The Runeslinger card's maximum health (20 unless given).",
                                            title="Starting maximum health", ge=1, le=99)
    other_max_health_change: int | None = maybe(
        "Maximum health added (positive) or taken away (negative) by card, stance or ability effects.",
        title="Other maximum health changes", ge=-99, le=99)
    health: int | None = maybe("Current health (after any Burn I already paid), if you want it checked against the new "
                               "maximum.",
                               title="Current health", ge=0, le=99)

    @model_validator(mode="after")
    def _new_are_counted(self) -> AilmentLevelsPosition:
        for kind, n in self.new.items():
            have = self.exposed.get(kind, 0)
            if n > have:
                raise refuse(f"{n} {kind} just applied but only {have} exposed; the exposed ailments count those "
                             "just applied", f"new.{kind}")
        return self

    def reading(self) -> list[str]:
        """The ailments, those under boons, the new instances and the stated card numbers."""
        out = [f"Exposed ailments: {ailment_words(self.exposed) or 'none'}."]
        if self.concealed:
            out.append(f"Under boons: {ailment_words(self.concealed)}.")
        if self.new:
            out.append(f"Just applied: {ailment_words(self.new)}.")
        for kind, at in self.level_ii_at.items():
            out.append(f"{NAMES[kind]} II needs {plural(at, 'instance')} (from its card).")
        if self.max_health_per_debilitate is not None:
            out.append(f"Each Debilitate takes {self.max_health_per_debilitate} maximum health away.")
        start = self.starting_max_health or 20
        change = self.other_max_health_change or 0
        out.append(f"Starting maximum health {start}" + (f", {change:+d} from other effects" if change else "")
                   + (f"; current health {self.health}." if self.health is not None else "."))
        return out


class AilmentLevelsOutcome(Outcome):
    """Which levels are on, the level I triggers, maximum health and hand size, and whether the game is lost."""

    active_levels: dict[str, list[str]]
    level_i_triggers: dict[str, int]
    unknown_level_ii: list[str]
    max_health: int
    health: int | None
    max_hand_size: int | None
    health_lost_to_burn: int
    game_lost: bool


@rule("rs.ailments.instances-and-levels", "rs.ailments.burn")
def level_ii_threshold(kind: str, stated: dict[Ailment, int], corpus: Corpus) -> int | None:
    """Return the instances level II of *kind* needs: Burn's 4 from the book, else what the card says (or None)."""
    if kind == "burn":
        return int(corpus.fact("rs.ailments.burn", "burn_ii_min_instances"))
    found = stated.get(kind)  # type: ignore[call-overload]
    return int(found) if found is not None else None


@rule("rs.ailments.instances-and-levels")
def is_level_on(instances: int, threshold: int) -> bool:
    """Return whether a continuous level is on: at least as many instances as it needs."""
    return instances >= threshold


@rule("rs.ailments.debilitate", "rs.game-loss-conditions", "rs.anatomy-of-a-runeslinger.health")
def max_health_after(start: int, debilitate: int, per_instance: int, other: int) -> int:
    """Return the maximum health: the card's, less Debilitate's share, plus other effects (never below 0)."""
    return max(0, start - debilitate * per_instance + other)


@rule("rs.game-loss-conditions")
def is_lost_by_max_health(max_health: int, corpus: Corpus) -> bool:
    """Return whether a maximum health of 0 loses the encounter."""
    return bool(corpus.fact("rs.game-loss-conditions", "lose_if_max_health_zero")) and max_health <= 0


@rule("rs.ailments", "rs.boons")
def _present(pos: AilmentLevelsPosition, trace: Trace) -> dict[str, int]:
    """The ailments that count: exposed ones; those under boons are set aside."""
    exposed: dict[str, int] = {str(k): n for k, n in pos.exposed.items() if n > 0}
    trace.step(f"Ailments on the Runeslinger: {ailment_words(exposed) or 'none'}. Ailments are not cards; each "
               "type sits on one of the 4 ailment areas.", "rs.ailments")
    if any(n > 0 for n in pos.concealed.values()):
        trace.step(f"{ailment_words(pos.concealed)} under boons: concealed, so they have no effect and are not "
                   "counted as on the Runeslinger.", "rs.boons")
    return exposed


@rule("rs.ailments.instances-and-levels", "rs.ailments.burn", "rs.health-loss")
def _level_i(pos: AilmentLevelsPosition, trace: Trace, corpus: Corpus) -> tuple[dict[str, int], int]:
    """Level I: once per new instance, in the order applied; Burn I loses 2 health each time."""
    triggers: dict[str, int] = {str(k): n for k, n in pos.new.items() if n > 0}
    lost = 0
    for kind, n in triggers.items():
        if kind == "burn":
            each = int(corpus.fact("rs.ailments.burn", "burn_i_health_loss"))
            lost = each * n
            trace.step(f"Burn I triggers {plural(n, 'time')}, once per new instance: lose {each} health each "
                       f"time ({lost} in all), one after another. Health loss cannot be blocked.",
                       "rs.ailments.burn", "rs.health-loss")
        else:
            trace.step(f"{NAMES[kind]} I triggers {plural(n, 'time')}, once per new instance (its effect is "
                       f"printed on the {NAMES[kind]} card).", "rs.ailments.instances-and-levels")
    return triggers, lost


@rule("rs.ailments.instances-and-levels", "rs.ailments.burn", "rs.ailments.curse", "rs.ailments.weaken",
      "rs.ailments.insanity", "rs.ailments.fragment", "rs.ailments.debilitate")
def _level_ii(exposed: dict[str, int], pos: AilmentLevelsPosition, trace: Trace,
              corpus: Corpus) -> tuple[dict[str, list[str]], list[str]]:
    """Level II of each type: on while its instances reach what it needs; unknown when its card was not read."""
    active: dict[str, list[str]] = {}
    unknown: list[str] = []
    for kind in AILMENT_TYPES:
        n = exposed.get(kind, 0)
        if n <= 0:
            continue
        at = level_ii_threshold(kind, pos.level_ii_at, corpus)
        cite = f"rs.ailments.{kind}"
        if at is None:
            unknown.append(kind)
            trace.step(f"{NAMES[kind]}: {plural(n, 'instance')}. How many instances {NAMES[kind]} II needs is "
                       f"printed on the {NAMES[kind]} card, not in the book: read it and give it.", cite)
            continue
        on = is_level_on(n, at)
        if on:
            active[kind] = ["II"]
        trace.step(f"{NAMES[kind]} II needs {at} or more instances; with {n} it is {'on' if on else 'off'}.",
                   cite, is_level_on)
    return active, unknown


@rule("rs.ailments.fragment", "rs.golden-rules.conflict-priority")
def _hand_size(active: dict[str, list[str]], trace: Trace, corpus: Corpus) -> int | None:
    """Fragment II: the maximum hand size is 4, and no card effect can raise it (ailments rank highest)."""
    if "II" not in active.get("fragment", []):
        return None
    size = int(corpus.fact("rs.ailments.fragment", "fragment_ii_max_hand_size"))
    trace.step(f"Fragment II is on: the maximum hand size is {size}. An ailment effect outranks a card effect "
               "that sets another hand size.", "rs.ailments.fragment", "rs.golden-rules.conflict-priority")
    return size


@rule("rs.ailments.debilitate", "rs.anatomy-of-a-runeslinger.health", "rs.game-loss-conditions")
def _max_health(exposed: dict[str, int], pos: AilmentLevelsPosition, trace: Trace,
                corpus: Corpus) -> tuple[int, int | None]:
    """Maximum health after Debilitate and other effects; health above it comes down to it."""
    start = pos.starting_max_health or 20
    per = 1 if pos.max_health_per_debilitate is None else pos.max_health_per_debilitate
    debilitate = exposed.get("debilitate", 0)
    top = max_health_after(start, debilitate, per, pos.other_max_health_change or 0)
    if debilitate:
        trace.step(f"Debilitate ({plural(debilitate, 'instance')}, {per} maximum health each) and other effects "
                   f"leave a maximum health of {top} (from {start}).", max_health_after)
    elif pos.other_max_health_change:
        trace.step(f"Other effects leave a maximum health of {top} (from {start}).",
                   "rs.anatomy-of-a-runeslinger.health")
    health = pos.health
    if health is not None and health > top:
        trace.step(f"Health can never be above its maximum: it comes down from {health} to {top}.",
                   "rs.anatomy-of-a-runeslinger.health")
        health = top
    return top, health


def _summary(pos: AilmentLevelsPosition, out: AilmentLevelsOutcome, trace: Trace) -> str:
    """One sentence: the encounter lost, or the levels on and the maximum health."""
    if out.game_lost:
        return "The Runeslinger's maximum health is 0: its player loses the encounter."
    on = [f"{NAMES[k]} II" for k in out.active_levels]
    text = (f"{joined(on)} {'is' if len(on) == 1 else 'are'} on" if on else "No level II is on")
    text += f"; maximum health is {out.max_health}"
    if out.max_hand_size is not None:
        text += f" and the maximum hand size is {out.max_hand_size}"
    if out.health_lost_to_burn:
        text += f"; Burn I costs {out.health_lost_to_burn} health"
    if out.unknown_level_ii:
        cards = joined([NAMES[k] for k in out.unknown_level_ii])
        text += f"; read the {cards} {'card' if len(out.unknown_level_ii) == 1 else 'cards'} for level II"
    return text + "."


LABELS: dict[str, Label] = {
    "active_levels": "Levels on", "level_i_triggers": "Level I triggers", "unknown_level_ii": "Level II to read "
    "on the card", "max_health": "Maximum health", "health": "Health", "max_hand_size": "Maximum hand size",
    "health_lost_to_burn": "Health lost to Burn I", "game_lost": "Encounter lost",
}


@situation(GAME, "ailment_levels", AilmentLevelsPosition, labels=LABELS)
@summarized(_summary)
@rule("rs.game-loss-conditions")
def resolve_ailment_levels(pos: AilmentLevelsPosition, trace: Trace, corpus: Corpus) -> AilmentLevelsOutcome:
    """Resolve which ailment levels are on, the level I triggers, maximum health, and a loss at 0."""
    exposed = _present(pos, trace)
    triggers, burned = _level_i(pos, trace, corpus)
    active, unknown = _level_ii(exposed, pos, trace, corpus)
    hand = _hand_size(active, trace, corpus)
    top, health = _max_health(exposed, pos, trace, corpus)
    lost = is_lost_by_max_health(top, corpus)
    if lost:
        trace.step("A maximum health of 0 loses the encounter at once.", is_lost_by_max_health)
    return AilmentLevelsOutcome(active_levels=active, level_i_triggers=triggers, unknown_level_ii=unknown,
                                max_health=top, health=health, max_hand_size=hand, health_lost_to_burn=burned,
                                game_lost=lost)
