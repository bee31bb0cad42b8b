"""The engine core: positions in, rulings out, every step citing the paragraphs that decide it.

A *situation* (``rune-age``/``battle``, ...) is a JSON Schema plus a resolver. A resolver receives the
validated position and a :class:`Trace`; it calls small rule functions, each decorated with
:func:`rule` naming the paragraph ids it implements, and records steps, decisions and violations on
the trace. :func:`resolve` turns the trace into a :class:`Resolution` (the contract's JSON shape).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from jsonschema import Draft202012Validator

from engine.corpus import Corpus, get_corpus
from engine.errors import UnreadableInputError
from engine.model import Outcome, Position, published_schema, validate

F = TypeVar("F", bound=Callable[..., Any])

# dotted function name -> paragraph ids it implements; filled at import time by @rule
RULES: dict[str, tuple[str, ...]] = {}


def rule(*cites: str) -> Callable[[F], F]:
    """Mark a function as the executable form of the paragraphs *cites* (read by the graph and site)."""
    def mark(fn: F) -> F:
        fn.__cites__ = tuple(cites)  # type: ignore[attr-defined]
        RULES[f"{fn.__module__}.{fn.__qualname__}"] = tuple(cites)
        return fn
    return mark


def cites_of(fn: Callable[..., Any]) -> tuple[str, ...]:
    """Return the paragraph ids a @rule function implements."""
    return tuple(getattr(fn, "__cites__", ()))


@dataclass(frozen=True)
class Step:
    """One step of a ruling: what happens and the paragraphs that decide it."""

    text: str
    cites: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """Return ``{"text", "cites"}``."""
        return {"text": self.text, "cites": list(self.cites)}


@dataclass(frozen=True)
class Decision:
    """A choice the rules leave to a player, which the position did not state."""

    who: str
    choose: str
    cites: tuple[str, ...]
    options: tuple[Any, ...] = ()
    field: str = ""

    def to_json(self) -> dict[str, Any]:
        """Return ``{"who", "choose", "cites", "field"[, "options"]}``."""
        out: dict[str, Any] = {"who": self.who, "choose": self.choose, "cites": list(self.cites),
                               "field": self.field}
        if self.options:
            out["options"] = list(self.options)
        return out


@dataclass(frozen=True)
class Violation:
    """A rule the position breaks (the action is illegal: a ruling, not an error)."""

    message: str
    cites: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """Return ``{"message", "cites"}``."""
        return {"message": self.message, "cites": list(self.cites)}


class Trace:
    """Collect a ruling's steps, decisions and violations in the order the rules are applied."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.decisions: list[Decision] = []
        self.violations: list[Violation] = []
        self.summary: str = ""

    @staticmethod
    def _ids(cites: Iterable[str | Callable[..., Any]]) -> tuple[str, ...]:
        out: list[str] = []
        for c in cites:
            out.extend([c] if isinstance(c, str) else cites_of(c))
        return tuple(out)

    def step(self, text: str, *cites: str | Callable[..., Any]) -> None:
        """Record a step citing paragraph ids or @rule functions (their ids)."""
        self.steps.append(Step(text, self._ids(cites)))

    def decide(self, who: str, choose: str, *cites: str | Callable[..., Any],
               options: Iterable[Any] = (), field: str = "") -> None:
        """Record a choice left to *who*; *field* is the JSON path in the position where the answer goes."""
        self.decisions.append(Decision(who, choose, self._ids(cites), tuple(options), field))

    def summarize(self, sentence: str) -> None:
        """Set the ruling's one-sentence summary: the verdict and the numbers that matter."""
        self.summary = sentence.strip()

    def violate(self, message: str, *cites: str | Callable[..., Any]) -> None:
        """Record a broken rule, and a step saying so."""
        ids = self._ids(cites)
        self.violations.append(Violation(message, ids))
        self.steps.append(Step(f"Not allowed: {message}", ids))


@dataclass(frozen=True)
class Resolution:
    """A ruling: the outcome, the steps that lead to it and every paragraph cited."""

    game: str
    situation: str
    legal: bool
    summary: str
    outcome: Mapping[str, Any]
    steps: tuple[Step, ...]
    decisions: tuple[Decision, ...]
    cites: tuple[str, ...]
    sources: Mapping[str, Mapping[str, Any]]
    reading: tuple[str, ...] = ()

    @classmethod
    def from_trace(cls, game: str, situation: str, outcome: Mapping[str, Any], trace: Trace,
                   corpus: Corpus, reading: Iterable[str] = ()) -> Resolution:
        """Build a resolution from a finished trace, listing every cited paragraph once, in order."""
        order: dict[str, None] = {}
        groups: list[Iterable[Step | Decision | Violation]] = [trace.steps, trace.decisions, trace.violations]
        for group in groups:
            for item in group:
                for c in item.cites:
                    order.setdefault(c, None)
        cites = tuple(order)
        sources = {c: corpus.source_entry(c) for c in cites}
        outcome = dict(outcome)
        legal = not trace.violations
        if trace.violations:
            outcome["violations"] = [v.to_json() for v in trace.violations]
        elif "violations" in outcome:
            outcome["violations"] = []
        return cls(game, situation, legal, summary_of(trace), outcome, tuple(trace.steps), tuple(trace.decisions),
                   cites, sources, tuple(reading))

    def to_json(self) -> dict[str, Any]:
        """Return the contract's resolve output."""
        return {
            "game": self.game, "situation": self.situation, "legal": self.legal,
            "summary": self.summary,
            "reading": list(self.reading),
            "outcome": dict(self.outcome),
            "decisions": [d.to_json() for d in self.decisions],
            "steps": [s.to_json() for s in self.steps],
            "cites": list(self.cites),
            "sources": {k: dict(v) for k, v in self.sources.items()},
        }


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def summary_of(trace: Trace) -> str:
    """Return the ruling's one sentence: the first violation when illegal, else the resolver's summary.

    A resolver states its verdict with :meth:`Trace.summarize`; an illegal position always reads
    "Illegal: <first broken rule>."; an open choice is named when the resolver said nothing else.
    """
    if trace.violations:
        message = trace.violations[0].message.strip()
        return "Illegal: " + (message if message.endswith((".", "!", "?")) else message + ".")
    if trace.summary:
        return _sentence(trace.summary)
    if trace.decisions:
        d = trace.decisions[0]
        return _sentence(f"Needs a decision: {d.who} chooses {d.choose}")
    return _sentence(trace.steps[-1].text) if trace.steps else ""


# ------------------------------------------------------------------------------------ situations

Resolver = Callable[[Any, Trace, Corpus], Any]
"""A resolver: the validated position (typed model or checked dict), the trace and the corpus in; the outcome
(an :class:`~engine.model.Outcome` or a JSON object) out."""


# An outcome key's label for players: "Army strength", or ("Winner", {"army": "the army", ...}) to also say
# how its values read.
Label = str | tuple[str, Mapping[str, str]]


def humanize(key: str) -> str:
    """Return an outcome key as words: ``army_strength`` -> ``Army strength`` (the fallback label)."""
    words = key.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:]


@dataclass(frozen=True)
class Situation:
    """A kind of position the engine resolves: its game, name, description, input model and resolver.

    ``model`` is the typed position (:mod:`engine.model`): the published ``schema`` is derived from it and
    positions are validated by it, so the resolver receives a typed value. ``labels`` maps outcome keys to
    the words a player reads ("Army strength"); ``values`` maps an outcome key's values to words
    ({"winner": {"army": "The army"}}). Keys without a label read as humanized keys.
    """

    game: str
    name: str
    description: str
    schema: Mapping[str, Any]
    resolver: Resolver
    model: type[Position] = field(compare=False, repr=False)
    labels: Mapping[str, str] = field(default_factory=dict, compare=False)
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict, compare=False)

    def label(self, key: str) -> str:
        """Return the player's label of an outcome key (a humanized key when none is given)."""
        return self.labels.get(key) or humanize(key)

    def read(self, position: Any) -> Position:
        """Return *position* validated as this situation's typed model (or raise naming the offending path)."""
        return validate(self.model, position)

    def to_json(self) -> dict[str, Any]:
        """Return the contract's situation listing entry, with outcome labels and value words."""
        return {"game": self.game, "situation": self.name, "description": self.description,
                "schema": dict(self.schema), "labels": dict(self.labels),
                "values": {k: dict(v) for k, v in self.values.items()}}


DECLARED: dict[Callable[..., Any], Situation] = {}
"""Every resolver declared with :func:`situation`, and its situation (a declaration, not yet served)."""

SITUATIONS: dict[tuple[str, str], Situation] = {}
"""The situations the engine resolves: each game package's ``SITUATIONS`` list (filled by :func:`load_situations`)."""

P = TypeVar("P")
Out = TypeVar("Out")


def summarized(writer: Callable[[P, Out, Trace], str]
               ) -> Callable[[Callable[[P, Trace, Corpus], Out]], Callable[[P, Trace, Corpus], Out]]:
    """Wrap a resolver so that, once it has run, *writer(position, outcome, trace)* gives its summary.

    The writer runs only for a legal ruling whose resolver did not call :meth:`Trace.summarize` itself
    (an illegal ruling always reads "Illegal: <first violation>.").
    """
    def wrap(fn: Callable[[P, Trace, Corpus], Out]) -> Callable[[P, Trace, Corpus], Out]:
        @functools.wraps(fn)
        def resolver(pos: P, trace: Trace, corpus: Corpus) -> Out:
            out = fn(pos, trace, corpus)
            if not trace.violations and not trace.summary:
                trace.summarize(writer(pos, out, trace))
            return out
        return resolver
    return wrap


def _split_labels(labels: Mapping[str, Label] | None) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    names: dict[str, str] = {}
    values: dict[str, dict[str, str]] = {}
    for key, label in (labels or {}).items():
        if isinstance(label, str):
            names[key] = label
        else:
            names[key], values[key] = label[0], dict(label[1])
    return names, values


def situation(game: str, name: str, model: type[Position],
              labels: Mapping[str, Label] | None = None) -> Callable[[F], F]:
    """Declare a resolver for ``game``/``name``; its docstring's first line describes it.

    *model* is the situation's typed position (a :class:`~engine.model.Position` subclass): the published JSON
    Schema and the validation of positions come from it. *labels* (optional) maps outcome keys to
    player-readable labels, or to (label, {value: words}). A game package lists the resolvers it serves in
    its ``SITUATIONS`` (see :mod:`engine.situations`).
    """
    full: dict[str, Any] = published_schema(model, title=f"{game} {name}")
    Draft202012Validator.check_schema(full)

    def register(fn: F) -> F:
        doc = (fn.__doc__ or name).strip().splitlines()[0]
        names, values = _split_labels(labels)
        DECLARED[fn] = Situation(game, name, doc, full, fn, model, names, values)
        return fn
    return register


def situation_of(fn: Callable[..., Any]) -> Situation:
    """Return the situation a resolver was declared for with :func:`situation`."""
    try:
        return DECLARED[fn]
    except KeyError:
        raise LookupError(f"{getattr(fn, '__qualname__', fn)!r} is not declared with @situation") from None


def load_situations() -> dict[tuple[str, str], Situation]:
    """Return the registry: the situations each game package lists, by (game, name)."""
    if not SITUATIONS:
        from engine.situations import registry

        SITUATIONS.update(registry())
    return SITUATIONS


def find_situation(position: Any) -> Situation:
    """Return the situation a position asks about, or raise :class:`UnreadableInputError` with its path."""
    situations = load_situations()
    if not isinstance(position, dict):
        raise UnreadableInputError(f"a position must be a JSON object, got {type(position).__name__}", path="")
    game, name = position.get("game"), position.get("situation")
    if not isinstance(name, str) or not isinstance(game, str) or (game, name) not in situations:
        games = sorted({g for g, _ in situations})  # the lists are for the error message only
        if game not in games:
            raise UnreadableInputError(f"unknown game {game!r} (one of {', '.join(games)})", path="game")
        names = sorted(n for g, n in situations if g == game)
        raise UnreadableInputError(f"unknown situation {name!r} for {game} (one of {', '.join(names)})",
                                   path="situation")
    return situations[(game, name)]


def read_position(position: Any) -> Situation:
    """Return the situation a position asks about once the position validates against it."""
    sit = find_situation(position)
    sit.read(position)
    return sit


def resolve(position: Any, corpus: Corpus | None = None) -> Resolution:
    """Resolve a position ("what happens now") into a ruling with cited steps."""
    sit = find_situation(position)
    pos = sit.read(position)
    corpus = corpus or get_corpus()
    trace = Trace()
    outcome = sit.resolver(pos, trace, corpus)
    if isinstance(outcome, Outcome):
        outcome = outcome.to_json()
    return Resolution.from_trace(sit.game, sit.name, outcome, trace, corpus, pos.reading())
