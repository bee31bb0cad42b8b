"""RuneWars Miniatures damage and wounds: hits into damage, defense with its floor, wounds, figures and trays.

Paragraphs: ``rwm.10.8``-``rwm.10.10``, ``rwm.22.1``-``rwm.22.6`` (damage assigned one figure at a time, to
the backmost rank only, leftover ignored), ``rwm.24.2`` (defense modifiers add up, minimum 1), ``rwm.54.1``
(mortal strikes wound directly), ``rwm.92.1``-``rwm.92.6`` (wounds, wound threshold, empty trays destroyed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.core import rule
from engine.corpus import Corpus
from engine.runewars_miniatures.common import Formation, possessive


@rule("rwm.24.2")
def effective_defense(base: int, modifiers: Sequence[int], corpus: Corpus) -> int:
    """Return the defense after every modifier (they add up); below the minimum (1) it counts as 1."""
    return max(int(corpus.fact("rwm.24.2", "minimum_defense")), base + sum(modifiers))


@rule("rwm.10.9", "rwm.42.1", "rwm.82.3")
def damage_from_hits(hits: int, threat: int) -> int:
    """Return the damage the defender suffers: hits spent multiplied by the attacker's threat."""
    return hits * threat


@rule("rwm.10.8", "rwm.54.1")
def mortal_strike_wounds(mortal_strikes: int, corpus: Corpus) -> int:
    """Return the wounds mortal strikes cause: 1 per icon, defense does not apply."""
    return mortal_strikes * int(corpus.fact("rwm.54.1", "wounds_per_mortal_strike"))


@rule("rwm.22.1.b1", "rwm.92.1", "rwm.22.6")
def wounds_from_damage(damage: int, defense: int) -> tuple[int, int]:
    """Return (wounds, damage ignored): each full defense's worth of damage on a figure is 1 wound; the rest,
    too little to wound any figure, is ignored."""
    return damage // defense, damage % defense


@dataclass(frozen=True)
class Casualties:
    """What the wounds did to the defender when the attacker finishes each figure, then each tray, in turn."""

    wounds: int
    wounds_ignored: int
    figures_removed: int
    wound_tokens: int
    trays_removed: int | None
    ranks_after: tuple[int, ...] | None
    fewest_trays_removed: int | None
    spreading_possible: bool

    @property
    def destroyed(self) -> bool:
        """Return whether the defender lost its last tray."""
        return self.ranks_after is not None and not self.ranks_after


@rule("rwm.22.2", "rwm.22.3", "rwm.92.3", "rwm.92.4", "rwm.92.6", "rwm.10.10")
def casualties(wounds: int, threshold: int, formation: Formation | None,
               figures_per_tray: int | None) -> Casualties:
    """Return the figures and trays removed by *wounds* taken from the backmost rank forward.

    A figure is removed once its wounds reach the wound threshold; a tray whose last figure is removed is
    destroyed and taken away, and the next rank becomes the backmost. Wounds beyond the last figure are lost.
    """
    if formation is None or figures_per_tray is None:
        removed = wounds // threshold
        return Casualties(wounds, 0, removed, wounds % threshold, None, None, None,
                          threshold > 1 and wounds > 1)
    capacity = formation.trays * figures_per_tray * threshold
    suffered = min(wounds, capacity)
    removed = suffered // threshold
    tokens = suffered % threshold
    emptied = removed // figures_per_tray
    ranks = list(formation.ranks)
    left = emptied
    while left and ranks:
        take = min(left, ranks[-1])
        ranks[-1] -= take
        left -= take
        if ranks[-1] == 0:
            ranks.pop()
    # the rank hit last: how few of its trays would have emptied had the attacker spread the removals
    cleared_trays = 0
    rest = removed
    fewest = 0
    for width in reversed(formation.ranks):
        if rest >= width * figures_per_tray:
            cleared_trays += width
            rest -= width * figures_per_tray
            continue
        fewest = cleared_trays + max(0, rest - width * (figures_per_tray - 1))
        break
    else:
        fewest = cleared_trays
    spread_wounds = (threshold > 1 and suffered > 1 and bool(ranks)
                     and formation.ranks[-1] * figures_per_tray > 1)
    spreading = fewest < emptied or spread_wounds
    return Casualties(suffered, wounds - suffered, removed, tokens if ranks else 0, emptied, tuple(ranks),
                      fewest, spreading)


@rule("rwm.22.2", "rwm.22.3", "rwm.92.3", "rwm.92.4", "rwm.92.6", "rwm.10.10")
def spread_casualties(wounds: int, threshold: int, formation: Formation | None,
                      figures_per_tray: int | None) -> Casualties:
    """Return the casualties when the attacker spreads the wounds as far as the rules allow.

    Damage only has to stay on a figure until it is wounded (22.2), so each figure of the backmost rank may
    hold up to threshold − 1 wounds before any is removed; removals are spread so that every tray keeps a
    figure as long as it can. A rank that cannot absorb the wounds is removed whole and the next rank forward
    takes the rest.
    """
    if formation is None or figures_per_tray is None:
        return replace(casualties(wounds, threshold, formation, figures_per_tray), spreading_possible=False)
    ranks = list(formation.ranks)
    left, removed, emptied, tokens = wounds, 0, 0, 0
    while left and ranks:
        width = ranks[-1]
        figures = width * figures_per_tray
        if left >= figures * threshold:
            left -= figures * threshold
            removed += figures
            emptied += width
            ranks.pop()
            continue
        gone = max(0, left - figures * (threshold - 1))
        removed += gone
        tokens = left - gone * threshold
        trays_gone = max(0, gone - width * (figures_per_tray - 1))
        emptied += trays_gone
        ranks[-1] -= trays_gone
        if ranks[-1] == 0:
            ranks.pop()
        left = 0
    return Casualties(wounds - left, left, removed, tokens if ranks else 0, emptied, tuple(ranks), emptied,
                      False)


# ------------------------------------------------------------------ wounds placed on the trays themselves

@dataclass
class Fig:
    """A figure that can take damage: an ordinary figure of a tray, or a figure upgrade with its own numbers."""

    key: tuple[int, int]
    defense: int
    threshold: int
    wounds: int = 0
    upgrade: str | None = None
    accuracy: int = 0


@dataclass
class TrayState:
    """A tray during the attack: ordinary figures, wounds on its wounded figure, and the upgrades slotted in it."""

    key: tuple[int, int]
    figures: int
    wounds: int = 0
    upgrades: list[Fig] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """Return whether no figure is left in the tray."""
        return self.figures == 0 and not self.upgrades


@dataclass
class Placement:
    """What the wounds did, tray by tray: figures and upgrades removed, trays removed, what is left."""

    wounds: int = 0
    wounds_lost: int = 0
    damage_ignored: int = 0
    figures_removed: int = 0
    upgrades_removed: list[str] = field(default_factory=list)
    trays_removed: list[tuple[int, int]] = field(default_factory=list)
    accuracy_spent: int = 0
    refills: list[str] = field(default_factory=list)
    trays: dict[tuple[int, int], TrayState] = field(default_factory=dict)

    @property
    def ranks_after(self) -> tuple[int, ...]:
        """Return the trays left in each rank, front rank first."""
        ranks = sorted({r for r, _ in self.trays})
        return tuple(sum(1 for k in self.trays if k[0] == r) for r in ranks)

    @property
    def destroyed(self) -> bool:
        """Return whether no tray is left."""
        return not self.trays


def connected(keys: set[tuple[int, int]]) -> bool:
    """Return whether trays at (rank, place) form one group: neighbours share a side in a rank or a file."""
    if not keys:
        return True
    start = next(iter(keys))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for n in ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)):
            if n in keys and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(keys)


@rule("rwm.22.3", "rwm.22.4", "rwm.66.1", "rwm.66.1.b1")
def damageable_trays(keys: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """Return the trays whose figures may be assigned damage: those of the backmost rank (a unit of 1 rank has
    it as its back rank too) whose removal would not break the unit into 2 groups."""
    if not keys:
        return []
    back = max(r for r, _ in keys)
    return sorted(k for k in keys if k[0] == back and connected(keys - {k}))


def _candidates(p: Placement, damage: int | None, defense: int = 1) -> list[Fig | TrayState]:
    """Return, in the order the attacker finishes them, what may take the next wound (or *damage*)."""
    out: list[tuple[tuple[int, ...], Fig | TrayState]] = []
    for t in p.trays.values():
        out += [((0, i), u) for i, u in enumerate(t.upgrades) if u.accuracy > 0]
    normal = damageable_trays(set(p.trays))
    for key in normal:
        t = p.trays[key]
        if t.figures:
            out.append(((1, 0 if t.wounds else 1, t.figures, key[1]), t))
        out += [((2, key[1]), u) for u in t.upgrades if u.accuracy == 0]
    return [c for _, c in sorted(out, key=lambda x: x[0])
            if damage is None or (c.defense if isinstance(c, Fig) else defense) <= damage]


def _wound(p: Placement, target: Fig | TrayState, threshold: int) -> None:
    """One wound on *target*; remove the figure at its threshold, then refill a slot and remove empty trays."""
    p.wounds += 1
    if isinstance(target, TrayState):
        target.wounds += 1
        if target.wounds >= threshold:
            target.figures, target.wounds = target.figures - 1, 0
            p.figures_removed += 1
    else:
        target.wounds += 1
        if target.accuracy:
            target.accuracy -= 1
            p.accuracy_spent += 1
        if target.wounds >= target.threshold:
            tray = p.trays[target.key]
            tray.upgrades.remove(target)
            p.upgrades_removed.append(target.upgrade or "")
            _refill(p, tray, target.upgrade or "")
    for key in [k for k, t in p.trays.items() if t.empty]:
        del p.trays[key]
        p.trays_removed.append(key)


def _refill(p: Placement, slot: TrayState, name: str) -> None:
    """Fill a destroyed figure upgrade's slot with an ordinary figure that could take damage (or leave it)."""
    donors = [p.trays[k] for k in damageable_trays(set(p.trays)) if p.trays[k].figures and p.trays[k] is not slot]
    if not donors:
        p.refills.append(f"no other figure could take damage, so {possessive(name)} slot stays empty")
        return
    donor = min(donors, key=lambda t: (t.figures, t.key[1]))
    donor.figures -= 1
    slot.figures += 1
    p.refills.append(f"an ordinary figure from the tray at rank {donor.key[0]}, place {donor.key[1]} fills "
                     f"{possessive(name)} slot")


@rule("rwm.22.1", "rwm.22.2", "rwm.22.3", "rwm.22.4", "rwm.22.6", "rwm.92.3", "rwm.92.4", "rwm.92.6",
      "rwm.2.4", "rwm.2.5", "rwm.2.6", "rwm.10.7.b2", "rwm.22.5", "rwm.38.4", "rwm.38.6", "rwm.38.7",
      "rwm.38.7.b1")
def place_wounds(trays: Sequence[tuple[int, int, int, int]], upgrades: Sequence[Fig], defense: int,
                 threshold: int, mortal_wounds: int, damage: int) -> Placement:
    """Place the wounds of mortal strikes, then the damage, on the defender's trays one figure at a time.

    *trays* are (rank, place, ordinary figures, wounds on its wounded figure). Figure upgrades carrying accuracy
    take wounds first, wherever they stand, each wound using 1 accuracy; then figures of the backmost rank,
    never in a tray whose removal would split the unit; a wounded figure is finished first, then the tray with
    the fewest figures. Damage goes to a figure only in whole multiples of that figure's defense; what is left
    over, too little to wound any figure that may take it, is ignored. Wounds with no figure to take them are
    lost.
    """
    p = Placement(trays={(r, c): TrayState((r, c), f, w) for r, c, f, w in trays})
    for up in upgrades:
        p.trays[up.key].upgrades.append(replace(up))
    for _ in range(mortal_wounds):
        options = _candidates(p, None)
        if not options:
            p.wounds_lost += 1
            continue
        _wound(p, options[0], threshold)
    left = damage
    while left > 0:
        options = _candidates(p, left, defense)
        if not options:
            break
        first = options[0]
        left -= first.defense if isinstance(first, Fig) else defense
        _wound(p, first, threshold)
    p.damage_ignored = left
    return p


@rule("rwm.45.4", "rwm.45.4.b1", "rwm.45.4.b2")
def regenerate(trays: dict[tuple[int, int], TrayState], x: int, per_tray: int) -> list[tuple[int, int]]:
    """Return the trays that get a new figure, 1 at a time: the frontmost tray with an empty slot, one already
    holding a figure whenever possible; never more figures than empty slots. Updates *trays*."""
    placed: list[tuple[int, int]] = []
    for _ in range(x):
        open_ = [t for t in trays.values() if t.figures + len(t.upgrades) < per_tray]
        if not open_:
            break
        tray = min(open_, key=lambda t: (t.figures + len(t.upgrades) == 0, t.key))
        tray.figures += 1
        placed.append(tray.key)
    return placed
