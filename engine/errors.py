"""The errors Runecodex raises: unreadable input is an error; an illegal action is a ruling, not an error."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the corpus, located by file and line."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class RunecodexError(ValueError):
    """Base class: a message in lower case and the JSON path of the offending value."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def to_json(self) -> dict[str, str]:
        """Return the contract's error body ``{"error": ..., "path": ...}``."""
        return {"error": self.message, "path": self.path}


class UnreadableInputError(RunecodexError):
    """Raise when a position or query cannot be read (wrong type, missing field, unknown situation)."""


class UnknownParagraphError(RunecodexError, LookupError):
    """Raise when a paragraph id does not exist in the corpus."""


class CorpusError(RunecodexError):
    """Raise when the rules corpus does not validate; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        first = str(self.problems[0]) if self.problems else "unknown problem"
        super().__init__(f"the rules corpus has {len(self.problems)} problem(s); first: {first}", path="rules")


class OutputRefusedError(RunecodexError):
    """Raise when a command would write or remove a path it does not own (see :mod:`engine.files.ownership`)."""
