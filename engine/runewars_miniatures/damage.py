"""RuneWars Miniatures damage and wounds: hits into damage, defense with its floor, wounds, figures and trays.

Paragraphs: ``rwm.10.8``-``rwm.10.10``, ``rwm.22.1``-``rwm.22.6`` (damage assigned one figure at a time, to
the backmost rank only, leftover ignored), ``rwm.24.2`` (defense modifiers add up, minimum 1), ``rwm.54.1``
(mortal strikes wound directly), ``rwm.92.1``-``rwm.92.6`` (wounds, wound threshold, empty trays destroyed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.core import rule
from engine.corpus import Corpus
from engine.runewars_miniatures.common import Formation


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
