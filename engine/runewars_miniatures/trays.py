"""The attack on real trays: wounds placed tray by tray, figure upgrades with their own defense, Regenerate.

Used by step 9 (Spend hits) and step 10 (Reconfigure) of :mod:`engine.runewars_miniatures.attack` when the
position states the defender's trays (``defender.trays``) and figure upgrades (``defender.upgrades``).
Paragraphs: ``rwm.22`` (damage to the backmost rank, never splitting the unit), ``rwm.2``/``rwm.10.7``
(accuracy), ``rwm.38``/``rwm.24.3``/``rwm.24.4``/``rwm.23.2`` (figure upgrades), ``rwm.92`` (wounds),
``rwm.45.4`` (Regenerate X).
"""

from __future__ import annotations

from collections import Counter

from engine.core import rule
from engine.corpus import Corpus
from engine.runewars_miniatures.attack_position import AttackOutcome, AttackPosition, TrayLeft
from engine.runewars_miniatures.attack_steps import Book
from engine.runewars_miniatures.common import keyword_value, plural, possessive
from engine.runewars_miniatures.damage import Fig, Placement, effective_defense, place_wounds, regenerate


@rule("rwm.38.2", "rwm.24.3", "rwm.38.5", "rwm.24.4", "rwm.23.2", "rwm.10.7.b4", "rwm.38.3")
def upgrade_figures(pos: AttackPosition, corpus: Corpus) -> list[Fig]:
    """Return the defender's figure upgrades as figures: each its own defense, with every defense modifier of the
    unit (the defend modifier too), and the accuracy icons assigned to it (several may go to one)."""
    dfd = pos.defender
    mods = [dfd.defend_modifier or 0, *(dfd.defense_modifiers or [])]
    names = list(pos.attacker.accuracy_assigned or [])[:pos.results.accuracy or 0]
    acc = Counter(names)
    return [Fig((1, u.column), effective_defense(u.defense, mods, corpus), u.wound_threshold, u.wounds, u.name,
                acc[u.name]) for u in dfd.upgrades or []]


@rule("rwm.22.1", "rwm.22.2", "rwm.22.3", "rwm.22.4", "rwm.22.5", "rwm.22.6", "rwm.2.4", "rwm.2.5",
      "rwm.10.7.b2", "rwm.38.4", "rwm.38.6", "rwm.92.3", "rwm.92.4", "rwm.66.1.b1")
def wounds_on_trays(pos: AttackPosition, ms_wounds: int, damage: int, defense: int, out: AttackOutcome,
                    trace: Book, corpus: Corpus) -> Placement:
    """Step 9 on the defender's own trays: place the wounds, then step 10 (Reconfigure) with what is left."""
    dfd = pos.defender
    d_name = dfd.name or "the defender"
    threshold = dfd.wound_threshold or 1
    figs = upgrade_figures(pos, corpus)
    trays = [(t.rank, t.column, t.figures, t.wounds) for t in dfd.trays or []]
    p = place_wounds(trays, figs, defense, threshold, ms_wounds, damage)
    for f in figs:
        trace.step(f"{f.upgrade} is a figure upgrade with its own defense {f.defense} (the unit's defense "
                   f"modifiers included) and wound threshold {f.threshold}"
                   + (f"; {plural(f.accuracy, 'accuracy icon')} let the attacker put damage on it outside the "
                      "backmost rank" if f.accuracy else "") + ".", upgrade_figures, "rwm.38.4",
                   *(["rwm.22.5", "rwm.2.4", "rwm.38.6"] if f.accuracy else []))
    single = len({t[0] for t in trays}) == 1
    trace.step("Damage on the trays: the attacker puts mortal-strike wounds, then damage, on 1 figure at a time "
               "until it is wounded, only on figures of the backmost rank"
               + (" (a single rank is the back rank too)" if single else "")
               + " and never in a tray whose removal would split the unit in 2; here he finishes a wounded figure "
               "first, then the tray with the fewest figures.", "rwm.22.1", "rwm.22.2", "rwm.22.3", "rwm.22.4",
               *(["rwm.66.1.b1"] if single else []))
    spent = f"; {plural(p.accuracy_spent, 'accuracy icon')} used up by wounds" if p.accuracy_spent else ""
    lost = f"; {plural(p.wounds_lost, 'wound')} found no figure to take it" if p.wounds_lost else ""
    ignored = (f"; the last {p.damage_ignored} damage is too little to wound any figure that may take it and is "
               "ignored" if p.damage_ignored else "")
    trace.step(f"Wounds: {d_name} suffers {plural(p.wounds, 'wound')}, removing "
               f"{plural(p.figures_removed, 'ordinary figure')}"
               + (f" and {', '.join(p.upgrades_removed)}" if p.upgrades_removed else "") + f"{spent}{ignored}{lost}.",
               "rwm.92.3", "rwm.92.4", *(["rwm.2.5", "rwm.10.7.b2"] if p.accuracy_spent else []),
               *(["rwm.22.6"] if p.damage_ignored else []))
    _record(p, out, figs)
    _reconfigure_trays(pos, p, trace)
    return p


def _record(p: Placement, out: AttackOutcome, figs: list[Fig]) -> None:
    """Write what the wounds did into the outcome."""
    out.wounds, out.figures_removed = p.wounds, p.figures_removed + len(p.upgrades_removed)
    out.trays_removed, out.destroyed = len(p.trays_removed), p.destroyed
    out.ranks_after = list(p.ranks_after)
    out.upgrades_removed = list(p.upgrades_removed)
    out.accuracy_spent = p.accuracy_spent if any(f.accuracy for f in figs) else None
    out.trays_left = [TrayLeft(rank=t.key[0], column=t.key[1], figures=t.figures, wounds=t.wounds,
                               upgrades=[u.upgrade or "" for u in t.upgrades]) for t in p.trays.values()]


@rule("rwm.10.10", "rwm.92.6", "rwm.27", "rwm.27.1", "rwm.38.7", "rwm.38.7.b1", "rwm.2.6", "rwm.34.4",
      "rwm.45.4", "rwm.army-building.configuration-during-play")
def _reconfigure_trays(pos: AttackPosition, p: Placement, trace: Book) -> None:
    """Step 10 on the trays: destroyed figure upgrades' slots, empty trays removed, the unit destroyed, and
    what Regenerate will slot at the end of the Activation Phase."""
    d_name = pos.defender.name or "the defender"
    trace.begin()
    where = ", ".join(f"rank {r} place {c}" for r, c in p.trays_removed)
    trace.step(f"Reconfigure: {plural(len(p.trays_removed), 'tray')} left with no figure "
               + (f"({where}) {'is' if len(p.trays_removed) == 1 else 'are'} removed" if where else "to remove")
               + (f"; trays per rank now {'-'.join(map(str, p.ranks_after))}." if p.trays else "."),
               "rwm.10.10", "rwm.92.6")
    for name, refill in zip(p.upgrades_removed, p.refills, strict=False):
        trace.step(f"{name} is destroyed: its card is discarded and its figure taken out; {refill}; any "
                   f"accuracy left on it is lost.", "rwm.38.7", *(["rwm.38.7.b1"] if "empty" in refill else []),
                   "rwm.2.6")
    if p.destroyed:
        trace.step(f"{d_name} lost its last tray: it is destroyed.", "rwm.27", "rwm.27.1")
        return
    if p.trays_removed and pos.attack_type == "melee":
        trace.step("If losing these trays means the two units no longer touch, the attacker, having lost no "
                   "tray, may try to close in.", "rwm.34.4")
    x = keyword_value(pos.defender.regenerate)
    per_tray = pos.defender.figures_per_tray
    if x and per_tray:
        placed = regenerate(p.trays, x, per_tray)
        trace.step(f"Regenerate {x}: when the Activation Phase ends, {d_name} slots "
                   f"{plural(len(placed), 'new figure')} into empty slots, 1 at a time into the frontmost tray "
                   "with room, one already holding a figure when possible"
                   + (f" ({', '.join(f'rank {r} place {c}' for r, c in placed)})" if placed else
                      " (no slot is empty)") + "; a unit's shape may differ from what army building allows.",
                   regenerate, "rwm.45.4", "rwm.army-building.configuration-during-play")
    elif x:
        trace.step(f"Regenerate {x}: at the end of the Activation Phase {possessive(d_name)} empty slots take new "
                   "figures (how many fit depends on the figures per tray, not stated).", "rwm.45.4")
