"""RuneWars Miniatures scoring: each player's surviving army, objective tokens, skirmish halving, the winner.

Paragraphs: ``rwm.70`` and ``rwm.70.1``-``rwm.70.5`` (a player scores his own remaining units and upgrades;
a partly destroyed unit is valued from its costing table, rounding down), ``rwm.88.3``/``rwm.27.2``
(discarded upgrades do not score), ``rwm.57.4``, ``rwm.skirmish.objective`` (objective value halved,
rounded up), ``rwm.30``/``rwm.90.1``-``rwm.90.4`` (elimination, draws, both eliminated at once).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars_miniatures.common import GAME, NAME, plural
from engine.schema import BOOL, arr, integer, obj

UPGRADE = obj(["points"], name=NAME, points=integer(0, 200), discarded=BOOL)
UNIT = obj(["costing", "trays_remaining"], name=NAME, costing=arr(arr(integer(0, 999), 2, 2), 1, 20),
           trays_remaining=integer(0, 30), configuration_trays=integer(1, 30),
           upgrades=arr(UPGRADE, max_items=20))
PLAYER = obj(["name", "units"], name=NAME, objective_tokens=integer(0, 50), units=arr(UNIT, max_items=60))
SCHEMA: dict[str, Any] = obj(["players"], extra=True, rounds_completed=integer(0, 20),
                             objective_value=integer(0, 200), skirmish=BOOL, players=arr(PLAYER, 1, 8))


@dataclass(frozen=True)
class Upgrade:
    """An upgrade card equipped to a unit: its name, points and whether it was discarded."""

    name: str
    points: int
    discarded: bool

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Upgrade:
        """Read an upgrade card."""
        return cls(raw.get("name") or "upgrade", int(raw["points"]), bool(raw.get("discarded", False)))


@dataclass(frozen=True)
class ArmyUnit:
    """A unit at the end of the game: its costing table and the trays it has left."""

    name: str
    costing: tuple[tuple[int, int], ...]
    trays_remaining: int
    upgrades: tuple[Upgrade, ...]
    configuration_trays: int | None = None

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], path: str) -> ArmyUnit:
        """Read a unit; its costing rows are [trays, cost] with at least 1 tray, sorted by trays."""
        rows = []
        for i, (trays, cost) in enumerate(raw["costing"]):
            if trays < 1:
                raise UnreadableInputError(f"a costing row lists {trays} trays; a configuration has at "
                                           f"least 1", path=f"{path}.costing[{i}][0]")
            rows.append((int(trays), int(cost)))
        return cls(raw.get("name") or "unit", tuple(sorted(rows)), int(raw["trays_remaining"]),
                   tuple(Upgrade.from_json(u) for u in raw.get("upgrades") or []),
                   raw.get("configuration_trays"))

    @property
    def destroyed(self) -> bool:
        """Return whether the unit lost its last tray."""
        return self.trays_remaining == 0


# ------------------------------------------------------------------------------------------ rules

@rule("rwm.70.3", "rwm.70.4", "rwm.70.4.b1", "rwm.70.4.b2", "rwm.27")
def unit_value(unit: ArmyUnit, corpus: Corpus) -> tuple[int, int | None]:
    """Return (points, costing row used): the Cost of the row for the trays left, rounding down to the
    largest row below when none matches; 0 when fewer trays remain than the smallest row (or none)."""
    rows = [row for row in unit.costing if row[0] <= unit.trays_remaining]
    if unit.destroyed or not rows:
        return int(corpus.fact("rwm.70.4.b2", "below_smallest_tray_entry_value")), None
    trays, cost = rows[-1]
    return cost, trays


@rule("rwm.70.3", "rwm.88.3", "rwm.27.2")
def upgrade_scores(upgrade: Upgrade, unit_destroyed: bool) -> bool:
    """Return whether an upgrade still counts: not discarded, and not on a destroyed unit (those are
    discarded with it)."""
    return not upgrade.discarded and not unit_destroyed


@rule("rwm.57.4", "rwm.70.5", "rwm.skirmish.objective")
def objective_token_value(card_value: int, skirmish: bool, corpus: Corpus) -> int:
    """Return what each objective token is worth: the objective card's value, halved and rounded up in a
    skirmish."""
    if not skirmish:
        return card_value
    divisor = int(corpus.fact("rwm.skirmish.objective", "objective_value_divisor"))
    rounding = corpus.fact("rwm.skirmish.objective", "objective_value_rounding")
    return math.ceil(card_value / divisor) if rounding == "up" else card_value // divisor


@rule("rwm.30", "rwm.27")
def is_eliminated(units: Sequence[ArmyUnit]) -> bool:
    """Return whether a player is eliminated: every one of his units is destroyed."""
    return all(u.destroyed for u in units)


@rule("rwm.70.1", "rwm.70.1.b1", "rwm.90.2", "rwm.90.3")
def winner_by_score(scores: Mapping[str, int]) -> str | None:
    """Return the player with the highest score, or None when the highest score is shared (a draw)."""
    best = max(scores.values())
    leaders = [name for name, score in scores.items() if score == best]
    return leaders[0] if len(leaders) == 1 else None


# ----------------------------------------------------------------------------------- resolution

def _score_player(raw: Mapping[str, Any], path: str, token_value: int, skirmish: bool, trace: Trace,
                  corpus: Corpus) -> tuple[int, dict[str, int], list[ArmyUnit]]:
    """Return (score, breakdown, units) for one player, recording a step per unit."""
    name = raw["name"]
    units = [ArmyUnit.from_json(u, f"{path}.units[{i}]") for i, u in enumerate(raw["units"])]
    army = upgrades = 0
    for unit in units:
        points, row = unit_value(unit, corpus)
        kept = [u for u in unit.upgrades if upgrade_scores(u, unit.destroyed)]
        extra = sum(u.points for u in kept)
        army += points
        upgrades += extra
        lost = [u for u in unit.upgrades if u not in kept]
        up_text = (f" + upgrades {', '.join(f'{u.name} {u.points}' for u in kept)}" if kept else "")
        lost_text = (f"; {', '.join(u.name for u in lost)} no longer count" if lost else "")
        if unit.destroyed:
            gone = (f"; its upgrades ({', '.join(u.name for u in lost)}) were discarded with it"
                    if lost else "")
            trace.step(f"{name}: {unit.name} was destroyed: 0 points{gone}.", unit_value,
                       *([upgrade_scores] if lost else []))
        elif row is None:
            trace.step(f"{name}: {unit.name} has {plural(unit.trays_remaining, 'tray')} left, fewer than "
                       f"the smallest row of its costing table: it rounds down to 0 points, but its upgrades "
                       f"still count{up_text}{lost_text}.", "rwm.70.4.b2", upgrade_scores)
        elif row == unit.trays_remaining and row == unit.configuration_trays:
            trace.step(f"{name}: {unit.name} keeps all {plural(row, 'tray')}: {points} points{up_text}"
                       f"{lost_text}.", "rwm.70.3", *(["rwm.88.3"] if lost else []))
        elif row == unit.trays_remaining:
            partly = ("is partly destroyed, " if unit.configuration_trays is not None
                      and unit.configuration_trays > row else "has ")
            trace.step(f"{name}: {unit.name} {partly}{plural(row, 'tray')} left: the costing "
                       f"table's row for {row} trays costs {points}{up_text}{lost_text}.", "rwm.70.4",
                       *(["rwm.88.3"] if lost else []))
        else:
            trace.step(f"{name}: {unit.name} has {plural(unit.trays_remaining, 'tray')} left; no costing row "
                       f"matches, so it rounds down to the row for {row} trays: {points} points"
                       f"{up_text}{lost_text}.", "rwm.70.4", "rwm.70.4.b1", *(["rwm.88.3"] if lost else []))
    tokens = int(raw.get("objective_tokens") or 0)
    objectives = tokens * token_value
    if tokens:
        trace.step(f"{name}: {plural(tokens, 'objective token')} × {token_value} = {objectives} points.",
                   *((objective_token_value,) if skirmish else ("rwm.57.4", "rwm.70.5")))
    total = army + upgrades + objectives
    trace.step(f"{name} scores {army} (units) + {upgrades} (upgrades) + {objectives} (objectives) = {total}.",
               "rwm.70.2")
    return total, {"units": army, "upgrades": upgrades, "objectives": objectives}, units


LABELS: dict[str, Label] = {
    "scores": "Scores", "winner": "Winner", "game_over": "Game over", "eliminated": "Eliminated",
    "objective_token_value": "Points per objective token", "breakdown": "Points by source",
}


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: the winner (or draw) and the scores."""
    scores = out["scores"]
    listed = ", ".join(f"{n} {s}" for n, s in scores.items())
    if not out["game_over"]:
        return f"The game goes on, so nobody wins yet (scores so far: {listed})."
    winner = out["winner"]
    if winner is not None and out["eliminated"] and winner not in out["eliminated"]:
        return f"{winner} wins by eliminating every enemy unit ({listed})."
    if winner is None:
        return f"The game is a draw: the highest score is shared ({listed})."
    return f"{winner} wins with the highest score ({listed})."


@situation(GAME, "scoring", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_scoring(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Score the end of a game: surviving units and upgrades, objective tokens, then the winner."""
    names = [p["name"] for p in pos["players"]]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise UnreadableInputError(f"two players are named {name!r}", path=f"players[{i}].name")
    trace.step("Each player scores his own remaining army: every unit and upgrade neither destroyed nor "
               "discarded, plus his objective tokens.", "rwm.70.2", "rwm.70.3")
    skirmish = bool(pos.get("skirmish", False))
    card_value = int(pos.get("objective_value") or 0)
    token_value = objective_token_value(card_value, skirmish, corpus)
    if skirmish:
        trace.step(f"Skirmish: the objective card's value {card_value} is halved, rounding up: each "
                   f"objective token is worth {token_value}.", objective_token_value)
    scores: dict[str, int] = {}
    breakdown: dict[str, dict[str, int]] = {}
    eliminated: list[str] = []
    for i, raw in enumerate(pos["players"]):
        score, parts, units = _score_player(raw, f"players[{i}]", token_value, skirmish, trace, corpus)
        scores[raw["name"]], breakdown[raw["name"]] = score, parts
        if is_eliminated(units):
            eliminated.append(raw["name"])
    out: dict[str, Any] = {"scores": scores, "winner": None, "game_over": True, "eliminated": eliminated,
                           "objective_token_value": token_value, "breakdown": breakdown}
    standing = [n for n in names if n not in eliminated]
    if eliminated and len(standing) == 1:
        out["winner"] = standing[0]
        trace.step(f"{', '.join(eliminated)} lost every unit and is eliminated: {standing[0]} wins by "
                   f"elimination, whatever the scores.", is_eliminated, "rwm.30.1", "rwm.90.1")
        return out
    if eliminated and not standing:
        trace.step("The last units of both armies were destroyed at the same moment: the scores decide.",
                   "rwm.90.4")
    else:
        last = int(corpus.fact("rwm.69.3", "last_round"))
        rounds = pos.get("rounds_completed")
        if rounds is not None and int(rounds) < last:
            out["game_over"] = False
            trace.step(f"Only {plural(int(rounds), 'round')} of {last} played and nobody is eliminated: the "
                       f"game goes on, so these scores decide nothing yet.", "rwm.69.3", "rwm.70", "rwm.90")
            return out
        trace.step(f"Nobody is eliminated after round {last}: the scores decide.", "rwm.70", "rwm.90.2")
    winner = winner_by_score(scores)
    out["winner"] = winner
    if winner is None:
        trace.step(f"The highest score ({max(scores.values())}) is shared: the game is a draw.",
                   winner_by_score)
    else:
        trace.step(f"{winner} has the highest score ({scores[winner]}) and wins.", winner_by_score)
    return out
