"""The attack's ruling steps numbered as the Rules Reference's 11 steps of an attack (10.1-10.11).

:class:`Book` gathers the sentences of one printed step (and the paragraphs each rests on) into one ruling step,
so the ruling's step 4 is always the book's step 4, Reroll for extra ranks, however many things a step says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Decision, Step, Trace, Violation

Cite = str | Callable[..., Any]
"""A paragraph id, or an @rule function standing for its paragraphs."""



class Book:
    """The ruling's steps numbered as the book's: the sentences of each printed step of an attack (10.1-10.11)
    gathered into one ruling step, so that the ruling's step 4 is the book's step 4, Reroll for extra ranks."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.parts: list[str] = []
        self.cites: list[Cite] = []

    @property
    def decisions(self) -> list[Decision]:
        """Return the choices left open so far."""
        return self.trace.decisions

    @property
    def violations(self) -> list[Violation]:
        """Return the broken rules so far."""
        return self.trace.violations

    def begin(self) -> None:
        """Close the printed step gathered so far (one ruling step) and start the next."""
        if self.parts:
            self.trace.step(" ".join(self.parts), *self.cites)
            last = self.trace.steps[-1]
            self.trace.steps[-1] = Step(last.text, tuple(dict.fromkeys(last.cites)))
        self.parts, self.cites = [], []

    def step(self, text: str, *cites: Cite) -> None:
        """Add a sentence, and the paragraphs it rests on, to the current printed step."""
        self.parts.append(text if text.endswith((".", ")", ":")) else text + ".")
        self.cites.extend(cites)

    def absorb(self, steps: list[Step]) -> None:
        """Add steps already written (what the table showed) to the current printed step."""
        for s in steps:
            self.parts.append(s.text if s.text.endswith(".") else s.text + ".")
            self.cites.extend(s.cites)

    def decide(self, who: str, choose: str, *cites: Cite, options: tuple[Any, ...] = (), field: str = "") -> None:
        """Leave a choice open (it does not add a step)."""
        self.trace.decide(who, choose, *cites, options=options, field=field)

    def violate(self, message: str, *cites: Cite) -> None:
        """Record a broken rule, said in the current printed step."""
        before = len(self.trace.steps)
        self.trace.violate(message, *cites)
        self.absorb(self.trace.steps[before:])
        del self.trace.steps[before:]

