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
from typing import Annotated, Literal

from pydantic import AfterValidator, ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runewars_miniatures.common import GAME, Game, Name, and_list, plural


class Upgrade(Model):
    """An upgrade card equipped to a unit: its name, points and whether it was discarded."""

    name: Name | None = maybe()
    points: int = Field(ge=0, le=200)
    discarded: bool | None = maybe()

    @property
    def label(self) -> str:
        """Return the card's name as shown ("upgrade" when unnamed)."""
        return self.name or "upgrade"


def _costing_row(row: list[int]) -> list[int]:
    if row[0] < 1:
        raise refuse(f"a costing row lists {row[0]} trays; a configuration has at least 1", 0)
    return row


CostingRow = Annotated[list[Annotated[int, Field(ge=0, le=999)]], Field(min_length=2, max_length=2),
                       AfterValidator(_costing_row)]


class ScoredUnit(Model):
    """A unit at the end of the game: its costing table ([trays, cost] rows) and the trays it has left."""

    model_config = ConfigDict(title="Unit")

    name: Name | None = maybe()
    costing: list[CostingRow] = Field(min_length=1, max_length=20)
    trays_remaining: int = Field(ge=0, le=30)
    configuration_trays: int | None = maybe(ge=1, le=30)
    upgrades: list[Upgrade] | None = maybe(max_length=20)


class Player(Model):
    """A player's army at the end of the game and the objective tokens he holds."""

    name: Name
    objective_tokens: int | None = maybe(ge=0, le=50)
    units: list[ScoredUnit] = Field(max_length=60)


class ScoringPosition(OpenPosition):
    """The end of a game: each player's remaining army, the objective's value and the rounds played."""

    game: Game
    situation: Literal["scoring"]
    rounds_completed: int | None = maybe(ge=0, le=20)
    objective_value: int | None = maybe(ge=0, le=200)
    skirmish: bool | None = maybe()
    players: list[Player] = Field(min_length=1, max_length=8)


    def reading(self) -> list[str]:
        """Return the rounds, the objective value, and each player's objective tokens and remaining units."""
        game = [f"{plural(self.rounds_completed, 'round')} completed" if self.rounds_completed is not None else "",
                f"objective tokens worth {self.objective_value} each" if self.objective_value is not None else "",
                "a skirmish game" if self.skirmish else ""]
        out = [("; ".join(x for x in game if x) + ".").capitalize()] if any(game) else []
        for p in self.players:
            units = []
            for u in p.units:
                ups = [f"{x.label} worth {x.points}{', discarded' if x.discarded else ''}" for x in u.upgrades or []]
                of = f" of {u.configuration_trays}" if u.configuration_trays is not None else ""
                state = "destroyed" if u.trays_remaining == 0 else f"{u.trays_remaining}{of} trays left"
                units.append(f"{u.name or 'a unit'} ({state}" + "".join(f"; {x}" for x in ups) + ")")
            tokens_text = plural(p.objective_tokens or 0, "objective token")
            out.append(f"{p.name}: {tokens_text}; " + (", ".join(units) if units else "no unit left") + ".")
        return out
    @model_validator(mode="after")
    def _distinct_names(self) -> ScoringPosition:
        names = [p.name for p in self.players]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise refuse(f"two players are named {name!r}", f"players[{i}].name")
        return self


class Breakdown(Model):
    """A player's points by source."""

    units: int
    upgrades: int
    objectives: int


class ScoringOutcome(Outcome):
    """Each player's score and its sources, who is eliminated, and the winner (null for a draw)."""

    scores: dict[str, int] = Field(default_factory=dict)
    winner: str | None = None
    game_over: bool = True
    eliminated: list[str] = Field(default_factory=list)
    objective_token_value: int
    breakdown: dict[str, Breakdown] = Field(default_factory=dict)


@dataclass(frozen=True)
class ArmyUnit:
    """A unit at the end of the game: its costing table (sorted by trays) and the trays it has left."""

    name: str
    costing: tuple[tuple[int, int], ...]
    trays_remaining: int
    upgrades: tuple[Upgrade, ...]
    configuration_trays: int | None = None

    @classmethod
    def of(cls, unit: ScoredUnit) -> ArmyUnit:
        """Return the unit of a position, its costing rows sorted by trays."""
        return cls(unit.name or "unit", tuple(sorted((r[0], r[1]) for r in unit.costing)), unit.trays_remaining,
                   tuple(unit.upgrades or []), unit.configuration_trays)

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

@rule("rwm.70.4.b2", "rwm.70.3", "rwm.88.3", "rwm.70.4", "rwm.70.4.b1")
def _score_units(name: str, units: Sequence[ArmyUnit], trace: Trace, corpus: Corpus) -> tuple[int, int]:
    """Return (unit points, upgrade points) of a player's remaining army, recording a step per unit."""
    army = upgrades = 0
    for unit in units:
        points, row = unit_value(unit, corpus)
        kept = [u for u in unit.upgrades if upgrade_scores(u, unit.destroyed)]
        extra = sum(u.points for u in kept)
        army += points
        upgrades += extra
        lost = [u for u in unit.upgrades if u not in kept]
        kept_names = and_list([f"{u.label} ({u.points})" for u in kept])
        up_text = (f", plus {extra} for {'its upgrade' if len(kept) == 1 else 'its upgrades'} {kept_names}"
                   if kept else "")
        lost_text = (f"; {and_list([u.label for u in lost])} no longer {'counts' if len(lost) == 1 else 'count'}"
                     if lost else "")
        if unit.destroyed:
            gone = (f"; its upgrades ({', '.join(u.label for u in lost)}) were discarded with it"
                    if lost else "")
            trace.step(f"{name}: {unit.name} was destroyed: 0 points{gone}.", unit_value,
                       *([upgrade_scores] if lost else []))
        elif row is None:
            trace.step(f"{name}: {unit.name} has {plural(unit.trays_remaining, 'tray')} left, fewer than "
                       f"the smallest row of its costing table: it rounds down to 0 points"
                       f"{f', but its upgrades still count: {extra} for {kept_names}' if kept else ''}"
                       f"{lost_text}.", "rwm.70.4.b2", upgrade_scores)
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
    return army, upgrades


@rule("rwm.57.4", "rwm.70.5", "rwm.70.2")
def _score_player(raw: Player, token_value: int, skirmish: bool, trace: Trace,
                  corpus: Corpus) -> tuple[int, Breakdown, list[ArmyUnit]]:
    """Return (score, breakdown, units) for one player, recording a step per unit."""
    name = raw.name
    units = [ArmyUnit.of(u) for u in raw.units]
    army, upgrades = _score_units(name, units, trace, corpus)
    tokens = raw.objective_tokens or 0
    objectives = tokens * token_value
    if tokens:
        trace.step(f"{name}: {plural(tokens, 'objective token')} × {token_value} = {objectives} points.",
                   *((objective_token_value,) if skirmish else ("rwm.57.4", "rwm.70.5")))
    total = army + upgrades + objectives
    trace.step(f"{name} scores {army} (units) + {upgrades} (upgrades) + {objectives} (objectives) = {total}.",
               "rwm.70.2")
    return total, Breakdown(units=army, upgrades=upgrades, objectives=objectives), units


LABELS: dict[str, Label] = {
    "scores": "Scores", "winner": "Winner", "game_over": "Game over", "eliminated": "Eliminated",
    "objective_token_value": "Points per objective token", "breakdown": "Points by source",
}


def _summary(pos: ScoringPosition, out: ScoringOutcome, trace: Trace) -> str:
    """One sentence: the winner (or draw) and the scores."""
    scores = out.scores
    listed = ", ".join(f"{n} {s}" for n, s in scores.items())
    if not out.game_over:
        return f"The game goes on, so nobody wins yet (scores so far: {listed})."
    winner = out.winner
    if winner is not None and out.eliminated and winner not in out.eliminated:
        return f"{winner} wins by eliminating every enemy unit ({listed})."
    if winner is None:
        return f"The game is a draw: the highest score is shared ({listed})."
    return f"{winner} wins with the highest score ({listed})."


@rule("rwm.70.2", "rwm.70.3")
def _token_value(pos: ScoringPosition, trace: Trace, corpus: Corpus) -> int:
    """What each objective token is worth (halved, rounding up, in a skirmish)."""
    trace.step("Each player scores his own remaining army: every unit and upgrade neither destroyed nor "
               "discarded, plus his objective tokens.", "rwm.70.2", "rwm.70.3")
    card_value = pos.objective_value or 0
    token_value = objective_token_value(card_value, bool(pos.skirmish), corpus)
    if pos.skirmish:
        trace.step(f"Skirmish: the objective card's value {card_value} is halved, rounding up: each "
                   f"objective token is worth {token_value}.", objective_token_value)
    return token_value


@rule("rwm.30.1", "rwm.90.1", "rwm.90.4", "rwm.69.3", "rwm.70", "rwm.90", "rwm.90.2")
def _game_over(pos: ScoringPosition, out: ScoringOutcome, trace: Trace, corpus: Corpus) -> bool:
    """Whether the scores decide: elimination wins outright, and before the last round nothing is decided."""
    eliminated = out.eliminated
    standing = [p.name for p in pos.players if p.name not in eliminated]
    if eliminated and len(standing) == 1:
        out.winner = standing[0]
        trace.step(f"{', '.join(eliminated)} lost every unit and is eliminated: {standing[0]} wins by "
                   f"elimination, whatever the scores.", is_eliminated, "rwm.30.1", "rwm.90.1")
        return False
    if eliminated and not standing:
        trace.step("The last units of both armies were destroyed at the same moment: the scores decide.",
                   "rwm.90.4")
        return True
    last = int(corpus.fact("rwm.69.3", "last_round"))
    rounds = pos.rounds_completed
    if rounds is not None and rounds < last:
        out.game_over = False
        trace.step(f"Only {plural(rounds, 'round')} of {last} played and nobody is eliminated: the "
                   f"game goes on, so these scores decide nothing yet.", "rwm.69.3", "rwm.70", "rwm.90")
        return False
    trace.step(f"Nobody is eliminated after round {last}: the scores decide.", "rwm.70", "rwm.90.2")
    return True


@situation(GAME, "scoring", ScoringPosition, labels=LABELS)
@summarized(_summary)
def resolve_scoring(pos: ScoringPosition, trace: Trace, corpus: Corpus) -> ScoringOutcome:
    """Score the end of a game: surviving units and upgrades, objective tokens, then the winner."""
    token_value = _token_value(pos, trace, corpus)
    out = ScoringOutcome(objective_token_value=token_value)
    for raw in pos.players:
        score, parts, units = _score_player(raw, token_value, bool(pos.skirmish), trace, corpus)
        out.scores[raw.name], out.breakdown[raw.name] = score, parts
        if is_eliminated(units):
            out.eliminated.append(raw.name)
    if not _game_over(pos, out, trace, corpus):
        return out
    winner = out.winner = winner_by_score(out.scores)
    if winner is None:
        trace.step(f"The highest score ({max(out.scores.values())}) is shared: the game is a draw.",
                   winner_by_score)
    else:
        trace.step(f"{winner} has the highest score ({out.scores[winner]}) and wins.", winner_by_score)
    return out
