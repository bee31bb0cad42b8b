"""Rune Age Marauders (Oath and Anvil FAQ, The Quest for Power Q1): tied players choose counter-clockwise from the
first player's right, a tied first player last; as properties over every seating and tie."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.rune_age.marauders import counter_clockwise_order

SEATS = ["Daqan", "Elves", "Uthuk", "Waiqar"]


@given(n=st.integers(1, 4), tied_mask=st.lists(st.booleans(), min_size=4, max_size=4))
def test_tied_players_choose_counter_clockwise(n: int, tied_mask: list[bool]) -> None:
    """Every tied player chooses once; the others go in reverse seating order; the first player, if tied, last."""
    seats = SEATS[:n]
    tied = [s for s, t in zip(seats, tied_mask, strict=False) if t]
    order = counter_clockwise_order(seats, tied)
    assert sorted(order) == sorted(tied)
    others = [s for s in order if s != seats[0]]
    assert others == [s for s in reversed(seats[1:]) if s in tied]
    if seats[0] in tied:
        assert order[-1] == seats[0]
