"""RuneWars Miniatures effects with the same timing: in what order both players' effects resolve.

The ``same_timing`` situation (not a table situation). Each effect is stated through enumerated fields, never
its card text: whose it is (the first player's, who holds the round counter, ``rwm.40``, or the second
player's, ``rwm.71``) and its timing. The timing is either a timing word with the event it names (before,
when, while, after: ``rwm.83.5``-``rwm.83.8``) or, for an attack, what the effect does, which fixes its step:
changing how many dice are rolled resolves in the Roll Dice step (``rwm.83.1``), changing dice results or adding
icons in the Modify Dice step (``rwm.83.2``), a surge effect in the Spend Surges step (``rwm.83.3``).

Effects in one timing window resolve in this order: every effect of the first player before any of the second
player's (``rwm.83.10``, ``rwm.40.1``); among one player's own, the order that player chooses (``rwm.83.9``),
stated as each effect's ``place``. The book gives the active unit's controller no priority here: only the
first player does. Windows of one event are listed before, when, while, after (``rwm.83.7``, ``rwm.83.5``,
``rwm.83.6``, ``rwm.83.8``); the attack's steps in their order; other events in the order first stated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, labelled, maybe, refuse
from engine.runewars_miniatures.common import GAME, Game, Name, and_list, plural, possessive

MAX_EFFECTS = 20
WHOSE = {"first_player": "The first player's", "second_player": "The second player's"}
Whose = Annotated[Literal["first_player", "second_player"], Field(json_schema_extra=labelled(WHOSE))]
WORDS = {"before": "Before", "when": "When", "while": "While", "after": "After"}
TimingWord = Annotated[Literal["before", "when", "while", "after"], Field(json_schema_extra=labelled(WORDS))]
EVENTS = {
    "round": "the round starts", "command_phase": "the Command Phase", "activation": "a unit activates",
    "dial_revealed": "a command tool is revealed", "action": "a unit performs an action",
    "move": "a unit moves", "collision": "a unit collides", "attack": "an attack",
    "wounds": "a unit suffers wounds", "panic_test": "a morale test", "tray_removed": "a tray is removed",
    "unit_destroyed": "a unit is destroyed", "end_phase": "the End Phase",
}
Event = Annotated[Literal["round", "command_phase", "activation", "dial_revealed", "action", "move", "collision",
                          "attack", "wounds", "panic_test", "tray_removed", "unit_destroyed", "end_phase"],
                  Field(json_schema_extra=labelled({k: v[:1].upper() + v[1:] for k, v in EVENTS.items()}))]
STEPS = {"dice_count": "the Roll Dice step of the attack", "dice_results": "the Modify Dice step of the attack",
         "surge": "the Spend Surges step of the attack"}
DOES = {"other": "Something else (give its timing)", "dice_count": "Changes how many attack dice are rolled",
        "dice_results": "Changes dice results or adds icons", "surge": "A surge effect"}
Does = Annotated[Literal["other", "dice_count", "dice_results", "surge"], Field(json_schema_extra=labelled(DOES))]
WORD_RULES = {"before": "rwm.83.7", "when": "rwm.83.5", "while": "rwm.83.6", "after": "rwm.83.8"}
STEP_RULES = {"dice_count": "rwm.83.1", "dice_results": "rwm.83.2", "surge": "rwm.83.3"}


class Effect(Model):
    """An effect waiting to resolve: whose it is, its timing, and where its player puts it among their own."""

    whose: Whose = Field(title="Whose effect", description="The player whose card or unit the effect comes from.")
    name: Name | None = maybe("The ability's or card's name, to tell the effects apart. Absent: Effect 1, 2, …")
    does: Does | None = maybe("For an effect during an attack, what it does: that sets its step. Absent: "
                              "something else, with its timing word and event.", title="What it does")
    timing: TimingWord | None = maybe("The timing word printed on the effect (needed unless what it does sets "
                                      "an attack step).", title="Timing word")
    event: Event | None = maybe("The event the timing word names (needed with a timing word).", title="Event")
    place: int | None = maybe("Where its player puts it among their own effects with the same timing, from 1 "
                              "(first). Absent: not chosen yet.", title="Order chosen", ge=1, le=MAX_EFFECTS)

    @property
    def window(self) -> str:
        """Return the timing window as a key: an attack step, or "word event"."""
        if self.does not in (None, "other"):
            return f"step {self.does}"
        return f"{self.timing} {self.event}"


class SameTimingPosition(OpenPosition):
    """Both players' effects waiting to resolve, each with its timing, and who holds the round counter."""

    model_config = ConfigDict(title="Same timing position")

    game: Game
    situation: Literal["same_timing"]
    first_player: Name = Field(title="First player", description="The player holding the round counter.")
    second_player: Name = Field(title="Second player", description="The other player.")
    effects: list[Effect] = Field(min_length=1, max_length=MAX_EFFECTS, title="Effects",
                                  description="The effects that could resolve now, both players' together.")

    def reading(self) -> list[str]:
        """Return the players and each effect with its owner and timing."""
        out = [f"First player (holds the round counter): {self.first_player}; second player: "
               f"{self.second_player}."]
        for i, e in enumerate(self.effects):
            place = f", chosen {ordinal(e.place)} among its player's own" if e.place else ""
            out.append(f"{label(e, i)}: {self.player(e)}'s, {window_words(e.window)}{place}.")
        return out

    def player(self, effect: Effect) -> str:
        """Return the name of the effect's player."""
        return self.first_player if effect.whose == "first_player" else self.second_player

    @model_validator(mode="after")
    def _timings(self) -> SameTimingPosition:
        if self.first_player.strip().lower() == self.second_player.strip().lower():
            raise refuse(f"{self.second_player!r} is also the first player; name the other player", "second_player")
        for i, e in enumerate(self.effects):
            step = e.does not in (None, "other")
            if step and (e.timing is not None or e.event is not None):
                raise refuse(f"an effect that {DOES[str(e.does)].lower()} resolves in {STEPS[str(e.does)]}; leave "
                             "its timing word and event out", f"effects[{i}].{'timing' if e.timing else 'event'}")
            if not step and (e.timing is None or e.event is None):
                missing = "timing" if e.timing is None else "event"
                raise refuse(f"missing {'timing word' if missing == 'timing' else 'event'}: give when the effect "
                             "resolves, or what it does during an attack", f"effects[{i}].{missing}")
        seen: dict[tuple[str, str, int], int] = {}
        counts: dict[tuple[str, str], int] = {}
        for e in self.effects:
            counts[(e.whose, e.window)] = counts.get((e.whose, e.window), 0) + 1
        for i, e in enumerate(self.effects):
            if e.place is None:
                continue
            n = counts[(e.whose, e.window)]
            if e.place > n:
                raise refuse(f"place {e.place} is past the last: its player has {n} such effects",
                             f"effects[{i}].place")
            key = (e.whose, e.window, e.place)
            if key in seen:
                raise refuse(f"place {e.place} is already taken by effect {seen[key] + 1}", f"effects[{i}].place")
            seen[key] = i
        return self


class Resolved(Model):
    """One effect in the order it resolves."""

    effect: int
    name: str
    player: str
    window: str


class Window(Model):
    """One timing window: whose effects go first and the effects in order (numbered from 1)."""

    window: str
    first: str | None
    effects: list[int]
    chosen: bool


class SameTimingOutcome(Outcome):
    """The effects in the order they resolve, window by window, and whether a player still has to choose."""

    order: list[Resolved] = Field(default_factory=list)
    windows: list[Window] = Field(default_factory=list)
    waiting_for_choice: bool = False


def label(effect: Effect, i: int) -> str:
    """Return an effect's name as a player reads it."""
    return (effect.name or "").strip() or f"Effect {i + 1}"


def ordinal(n: int) -> str:
    """Return 1st, 2nd, 3rd, 4th…"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def window_words(window: str) -> str:
    """Return a window key in a player's words ("after an attack", "in the Roll Dice step of the attack")."""
    kind, rest = window.split(" ", 1)
    if kind == "step":
        return f"in {STEPS[rest]}"
    return f"{kind} {EVENTS[rest]}"


def window_order(effects: Sequence[Effect]) -> list[str]:
    """Return the windows present: attack steps in step order, then each event's windows before, when, while,
    after, events in the order first stated."""
    steps = [f"step {s}" for s in STEPS if any(e.window == f"step {s}" for e in effects)]
    events = list(dict.fromkeys(e.event for e in effects if e.does in (None, "other")))
    rest = [f"{w} {ev}" for ev in events for w in WORDS if any(e.window == f"{w} {ev}" for e in effects)]
    return steps + rest


@rule("rwm.40", "rwm.71")
def _players(pos: SameTimingPosition, trace: Trace) -> None:
    trace.step(f"{pos.first_player} holds the round counter and is the first player; {pos.second_player} is the "
               "second player.", "rwm.40", "rwm.71")


@rule("rwm.83", "rwm.83.1", "rwm.83.2", "rwm.83.3", "rwm.83.5", "rwm.83.6", "rwm.83.7", "rwm.83.8")
def _window_step(window: str, names: list[str], trace: Trace) -> None:
    """Say which effects share this timing, and the paragraph that puts them there."""
    kind, rest = window.split(" ", 1)
    cite = STEP_RULES[rest] if kind == "step" else WORD_RULES[kind]
    what = (f"{'it resolves' if len(names) == 1 else 'they resolve'} {window_words(window)}" if kind == "step" else
            f"{'it has' if len(names) == 1 else 'they have'} the timing {window_words(window)}")
    lasting = " (a while effect lasts for the whole event)" if kind == "while" else ""
    trace.step(f"{and_list(names)}: {what}{lasting}.", "rwm.83", cite)


@rule("rwm.83.9")
def _own_order(pos: SameTimingPosition, mine: list[int], window: str, trace: Trace) -> tuple[list[int], bool]:
    """Order one player's effects in a window: the order that player chose, or a choice still to make."""
    if len(mine) <= 1:
        return mine, True
    effects = pos.effects
    who = pos.player(effects[mine[0]])
    places = {i: effects[i].place for i in mine}
    open_ = [i for i in mine if places[i] is None]
    free = [n for n in range(1, len(mine) + 1) if n not in places.values()]
    if len(open_) == 1:  # the other places are chosen: the last effect takes the place left
        places[open_[0]] = free[0]
    if all(p is not None for p in places.values()):
        ordered = sorted(mine, key=lambda i: places[i] or 0)
        trace.step(f"{who} resolves their own effects {window_words(window)} in the order they chose: "
                   f"{', '.join(label(effects[i], i) for i in ordered)}.", "rwm.83.9")
        return ordered, True
    first = open_[0]
    trace.decide(who, f"where {label(effects[first], first)} comes among their {plural(len(mine), 'effect')} "
                      f"{window_words(window)} (1 = first)", "rwm.83.9", options=free,
                 field=f"effects[{first}].place")
    return mine, False


@rule("rwm.83.10", "rwm.40.1")
def _both(pos: SameTimingPosition, window: str, first: list[int], second: list[int], trace: Trace) -> str | None:
    """Both players have effects in the window: all of the first player's resolve before any of the other's."""
    if first and second:
        trace.step(f"Both players have effects {window_words(window)}: all of {possessive(pos.first_player)} "
                   f"resolve before any of {possessive(pos.second_player)}, because {pos.first_player} is the "
                   "first player.", "rwm.83.10", "rwm.40.1")
        return pos.first_player
    return None


TABLE_LABELS: dict[str, Label] = {
    "order": "Order of resolution",
    "windows": "Timing windows",
    "waiting_for_choice": "Waiting for a player's choice",
}
"""The outcome's fields in a player's words (the ruling's outcome list on the boards and the CLI)."""


@situation(GAME, "same_timing", SameTimingPosition, labels=TABLE_LABELS)
def resolve_same_timing(pos: SameTimingPosition, trace: Trace, corpus: Corpus) -> SameTimingOutcome:
    """Put both players' effects in the order they resolve, window by window."""
    _players(pos, trace)
    out = SameTimingOutcome()
    for window in window_order(pos.effects):
        members = [i for i, e in enumerate(pos.effects) if e.window == window]
        _window_step(window, [label(pos.effects[i], i) for i in members], trace)
        first = [i for i in members if pos.effects[i].whose == "first_player"]
        second = [i for i in members if pos.effects[i].whose == "second_player"]
        leader = _both(pos, window, first, second, trace)
        first, done_a = _own_order(pos, first, window, trace)
        second, done_b = _own_order(pos, second, window, trace)
        ordered = first + second
        chosen = done_a and done_b
        out.waiting_for_choice = out.waiting_for_choice or not chosen
        out.windows.append(Window(window=window_words(window), first=leader, effects=[i + 1 for i in ordered],
                                  chosen=chosen))
        out.order += [Resolved(effect=i + 1, name=label(pos.effects[i], i), player=pos.player(pos.effects[i]),
                               window=window_words(window)) for i in ordered]
    trace.summarize(_summary(pos, out))
    return out


def _summary(pos: SameTimingPosition, out: SameTimingOutcome) -> str:
    parts = []
    for w in out.windows:
        names = [r.name for r in out.order if r.window == w.window]
        lead = f"{pos.first_player} first, " if w.first else ""
        order = ", then ".join(names) if w.chosen else f"{and_list(names)}, in an order still to be chosen"
        parts.append(f"{w.window}: {lead}{order}")
    text = "; ".join(parts) + "."
    return text[:1].upper() + text[1:]
