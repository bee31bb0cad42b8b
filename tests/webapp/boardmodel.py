"""Model-based testing of a board: a seeded random walk of a player's operations, with invariants after each.

A board test supplies an adapter (:class:`Board`): the operations a player can do on that board (add, remove,
edit, drag, select, switch tab, reset, import, …, each by clicks, taps, drags or keys, never by loading a
position in code) and how to read what the screen shows. :func:`walk` then plays ``steps`` operations chosen
with a seeded :class:`random.Random` and, after each one, checks the invariants of issue 24:

* **the screen is the position**: the position the board would send (the shared URL, which is what
  "What happens now?" sends) equals the position read back from the controls on screen, entry for entry;
* **roles change only through their own controls**: the roles read from the screen (attacker, defender, active
  player, controller, …) are unchanged by any operation that is not a role operation;
* **export -> import -> export is identity** (checked every ``roundtrip_every`` steps, through the board's own
  Export/Import dialog);
* **the ruling reads what the board shows** (every ``ask_every`` steps): the ruling's ``reading`` names every
  item the screen shows, and no item the screen does not show.

A failure names the seed, the step and the operations so far, so it is replayed exactly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from boardplay import ask

from engine.core import resolve


@dataclass(frozen=True)
class Op:
    """One thing a player does on the board. ``run(page, rng)`` does it (or does nothing when it does not apply
    now, returning False). ``roles`` marks the operations that may change who holds which role."""

    name: str
    run: Callable[[Any, random.Random], bool]
    roles: bool = False
    weight: float = 1.0
    removes: bool = False
    """A removal: a role held by the removed item may become empty (None); no other role may change."""


class Board(Protocol):
    """What a board test tells the walk about its board."""

    def ops(self) -> list[Op]:
        """Return the operations a player can do."""
        ...

    def shown(self, page: Any) -> dict[str, Any]:
        """Return the position as the controls on screen show it (read from the DOM, not from the page's state)."""
        ...

    def roles(self, page: Any) -> Mapping[str, Any]:
        """Return who holds which role, as the screen shows it."""
        ...

    def items(self, page: Any) -> Iterable[str]:
        """Return the names the screen shows (units, cards, players, bonuses) that a ruling must read."""
        ...

    # A board may also define ``normal(position) -> position``, applied to the position sent and the one shown
    # before they are compared, for what a player cannot tell apart on screen (an empty text and an absent one).


def walk_seeds(seeds: Iterable[int]) -> list[int]:
    """Return the seeds a run walks: the first of *seeds* (one 200-operation walk per board per run, as CI runs
    it), every one with ``RUNECODEX_WALK_SEEDS=all``, or the comma-separated seeds that variable names."""
    import os

    chosen = os.environ.get("RUNECODEX_WALK_SEEDS", "").strip()
    listed = list(seeds)
    if chosen == "all":
        return listed
    if chosen:
        return [int(x) for x in chosen.split(",") if x.strip()]
    return listed[:1]


def sent_position(page: Any) -> dict[str, Any]:
    """Return the position the board would send now: the one its URL carries (``#p=…``), written on change."""
    page.wait_for_timeout(200)  # the board writes the URL 150 ms after the last change
    value: dict[str, Any] = page.evaluate(
        """async () => (await import('/static/js/share.js')).readFromLocation()""")
    return value


def export_import_export(page: Any) -> None:
    """Export the position, import that JSON through the dialog, export again: the two exports are equal."""
    first = _export(page)
    page.click("#import")
    page.fill("#import-text", json.dumps(first))
    page.click("#import-load")
    second = _export(page)
    assert second == first, f"export -> import -> export changed the position:\n{first}\n{second}"


def _export(page: Any) -> dict[str, Any]:
    with page.expect_download() as dl:
        page.click("#export")
    path = dl.value.path()
    with open(path, encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def reading_matches(reading: list[str], shown: Iterable[str], known: Iterable[str]) -> list[str]:
    """Return what is wrong between a ruling's reading and the items on screen: an item shown but not read, or an
    item of the board's vocabulary (*known*) read but not shown."""
    text = " ".join(reading).lower()
    shown_set = {s for s in shown if s}
    problems = [f"{name!r} is on the board but not in the reading" for name in sorted(shown_set)
                if name.lower() not in text]
    rest = text  # a known name inside a longer name shown ("Archer" in "Skeleton Archer") is not read on its own
    for name in sorted(shown_set, key=len, reverse=True):
        rest = rest.replace(name.lower(), " ")
    problems += [f"{name!r} is in the reading but not on the board" for name in sorted(set(known) - shown_set)
                 if name and _word_in(name.lower(), rest)]
    return problems


def _word_in(word: str, text: str) -> bool:
    import re

    return re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text) is not None


@dataclass
class Walk:
    """The record of a walk, for the failure message."""

    seed: int
    done: list[str] = field(default_factory=list)

    def fail(self, what: str) -> AssertionError:
        trail = " -> ".join(self.done[-25:])
        return AssertionError(f"seed {self.seed}, step {len(self.done)}: {what}\n  after: {trail}")


def walk(page: Any, board: Board, seed: int, steps: int = 200, *, ask_every: int = 10, roundtrip_every: int = 25,
         known_items: Iterable[str] = ()) -> Walk:
    """Play *steps* operations of *board* chosen by *seed*, checking the invariants after each (see the module)."""
    rng = random.Random(seed)
    ops = board.ops()
    record = Walk(seed)
    roles = dict(board.roles(page))
    while len(record.done) < steps:
        op = rng.choices(ops, weights=[o.weight for o in ops])[0]
        if not op.run(page, rng):
            continue
        record.done.append(op.name)
        now = dict(board.roles(page))
        changed = {k for k in set(roles) | set(now) if roles.get(k) != now.get(k)}
        if op.removes:
            changed = {k for k in changed if now.get(k) is not None}
        if not op.roles and changed:
            raise record.fail(f"{op.name!r} changed the roles: {roles} -> {now}")
        roles = now
        normal = getattr(board, "normal", lambda p: p)
        shown = normal(board.shown(page))
        sent = normal(sent_position(page))
        if sent != shown:
            raise record.fail(f"the position sent differs from the screen:\n  sent  {sent}\n  shown {shown}")
        if len(record.done) % roundtrip_every == 0:
            export_import_export(page)
        if len(record.done) % ask_every == 0:
            _check_ruling(page, board, record, known_items)
    return record


def _check_ruling(page: Any, board: Board, record: Walk, known: Iterable[str]) -> None:
    shown = board.shown(page)
    try:
        resolve(shown)
    except ValueError:
        return  # the screen holds input the engine refuses: the board shows that refusal instead of a ruling
    sent, ruling = ask(page)
    problems = reading_matches(ruling.get("reading", []), board.items(page), known)
    if problems:
        raise record.fail("the ruling's reading does not match the board: " + "; ".join(problems))
    normal = getattr(board, "normal", lambda p: p)
    if normal(sent) != normal(shown):
        raise record.fail(f"asked about another position than the screen shows:\n  sent  {sent}\n  shown {shown}")
