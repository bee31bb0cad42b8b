"""Wounds placed on a RuneWars Miniatures unit's own trays (Rules Reference 22.3, 22.4, 92.3, 92.6): properties.

Whatever the formation and the wounds, a tray is only ever emptied from the backmost rank, the trays left always
form one group (22.4: no tray whose removal splits the unit), and every wound either removes or stays on a figure
or is lost once no figure is left.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.runewars_miniatures.damage import connected, damageable_trays, place_wounds


@st.composite
def formations(draw: st.DrawFn) -> tuple[list[tuple[int, int, int, int]], int]:
    """A unit in ranks (front rank full, the back rank possibly partial) with figures on each tray."""
    width = draw(st.integers(1, 4))
    depth = draw(st.integers(1, 3))
    back = draw(st.integers(1, width))
    per_tray = draw(st.integers(1, 4))
    trays = []
    for rank in range(1, depth + 1):
        for column in range(1, (back if rank == depth else width) + 1):
            trays.append((rank, column, draw(st.integers(1, per_tray)), 0))
    return trays, per_tray


@settings(max_examples=150, deadline=None)
@given(formations(), st.integers(0, 40), st.integers(1, 3))
def test_wounds_never_split_the_unit_and_empty_the_back_first(unit: tuple[list[tuple[int, int, int, int]], int],
                                                               wounds: int, threshold: int) -> None:
    trays, _ = unit
    p = place_wounds(trays, [], 1, threshold, wounds, 0)
    left = set(p.trays)
    assert connected(left)
    # a tray is removed only while it stands in the backmost rank: no tray left stands behind it
    for r, _c in p.trays_removed:
        assert all(rank <= r for rank, _ in left)
    figures = sum(f for _, _, f, _ in trays)
    assert p.figures_removed == min(figures, p.wounds // threshold) or p.destroyed
    assert p.wounds + p.wounds_lost == wounds
    assert p.wounds_lost == 0 or p.destroyed


@settings(max_examples=150, deadline=None)
@given(formations(), st.integers(0, 40))
def test_full_trays_removed_match_the_figures_removed(unit: tuple[list[tuple[int, int, int, int]], int],
                                                      wounds: int) -> None:
    """With 1-wound figures and every tray full, trays removed × figures per tray ≤ figures removed and the
    figures left are those the unit had less those removed."""
    trays, per_tray = unit
    full = [(r, c, per_tray, 0) for r, c, _, _ in trays]
    p = place_wounds(full, [], 1, 1, wounds, 0)
    assert len(p.trays_removed) * per_tray <= p.figures_removed
    assert sum(t.figures for t in p.trays.values()) == len(full) * per_tray - p.figures_removed
    assert len(p.trays_removed) == p.figures_removed // per_tray


@settings(max_examples=100, deadline=None)
@given(formations(), st.integers(0, 60), st.integers(1, 4))
def test_damage_wounds_whole_multiples_of_defense(unit: tuple[list[tuple[int, int, int, int]], int], damage: int,
                                                  defense: int) -> None:
    trays, _ = unit
    p = place_wounds(trays, [], defense, 1, 0, damage)
    assert p.wounds * defense + p.damage_ignored == damage
    assert p.damage_ignored < defense or p.destroyed


def test_only_the_end_trays_of_a_single_rank_take_damage() -> None:
    assert damageable_trays({(1, 1), (1, 2), (1, 3)}) == [(1, 1), (1, 3)]
    assert damageable_trays({(1, 1), (1, 2), (2, 1)}) == [(2, 1)]
