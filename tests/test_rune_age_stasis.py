"""Rune Age Stasis Rune (Oath and Anvil FAQ, Neutral Cards Q2): it hits only the opponent's next unit played into
the combat, destroying it unless it cannot be destroyed, and never passes on; as properties over every play order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import resolve

UNIT = st.tuples(st.sampled_from(["Elves", "Uthuk"]), st.integers(0, 9), st.booleans())


@settings(deadline=None, max_examples=80)
@given(units=st.lists(UNIT, min_size=1, max_size=6), after=st.integers(-1, 5), by=st.sampled_from(["Elves", "Uthuk"]))
def test_stasis_rune_hits_the_next_opponent_unit_only(units: list[tuple[str, int, bool]], after: int,
                                                       by: str) -> None:
    """Exactly the first opponent's unit after the Rune is destroyed, if it can be; every other unit counts."""
    after = min(after, len(units) - 1)
    cards = [{"id": f"u{i}", "name": f"Unit {i}", "player": p, "strength": s, "cannot_be_destroyed": c}
             for i, (p, s, c) in enumerate(units)]
    rune = {"played_by": by, **({"played_after": f"u{after}"} if after >= 0 else {})}
    ruling = resolve({"game": "rune-age", "situation": "combat_wounds", "combat": "battle", "units": cards,
                      "stasis_runes": [rune]}).to_json()
    out = ruling["outcome"]
    assert ruling["legal"] and isinstance(out, dict)
    target = next((c for c in cards[after + 1:] if c["player"] != by), None)
    hit = target["id"] if target is not None and not target["cannot_be_destroyed"] else None
    assert out["stasis_hits"] == [hit]
    assert out["destroyed"] == ([hit] if hit else [])
    for side in {c["player"] for c in cards}:
        assert out["strength"][side] == sum(c["strength"] for c in cards if c["player"] == side and c["id"] != hit)
