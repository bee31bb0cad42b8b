"""The public JSON shapes of the contract (``../shared/CONTRACT.md``) as typed models.

Positions and outcomes are declared by each situation (:mod:`engine.model`); this module declares the shapes
around them: a ruling, a paragraph, a search result, an error, the situation listing. The OpenAPI description
(:mod:`webapp.openapi`) is generated from these models and the situations' own, so the API document and the
code cannot drift apart.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Shape(BaseModel):
    """A JSON shape the API returns (documentation and typed access; never used to read input)."""

    model_config = ConfigDict(extra="allow")


class Error(Shape):
    """An unreadable request: what is wrong and where."""

    error: str = Field(description="what is wrong, in lower case, naming the offending value")
    path: str = Field(description="JSON path of the offending value, e.g. army[2].strength ('' for the whole body)")


class Source(Shape):
    """Where a paragraph is printed."""

    doc: str
    page: int | None = None
    section: str | None = None
    paragraph: str | None = None


class Paragraph(Shape):
    """One paragraph of the corpus, errata applied (``runecodex rule ID --json``, ``GET /api/rules/{id}``)."""

    id: str
    game: str
    kind: Literal["rule", "glossary", "errata", "faq", "example", "table", "scenario"]
    title: str
    text: str = Field(description="errata-corrected text")
    short: str | None = Field(None, description="the rule in one line")
    asked: list[str] = Field([], description="how players ask about it")
    source: Source
    locator: str | None = None
    terms: list[str] = []
    related: list[str] = []
    amends: list[str] = []
    clarifies: list[str] = []
    amended_by: list[str] = []
    faq: list[str] = []
    cited_by: list[str] = []
    implemented_by: list[str] = []
    url: str | None = Field(None, description="where to read it: the built site of this version, else /rules/<id>")


class SearchHit(Shape):
    """One search result."""

    id: str
    title: str
    snippet: str = Field(description="escaped text; only <mark> markup")
    score: float
    source: Source
    url: str | None = None
    locator: str | None = None
    short: str | None = Field(None, description="the rule in one line")


class SearchResult(Shape):
    """A page of search results, best first."""

    query: str
    total: int
    hits: list[SearchHit]
    corrected: str | None = None
    game: str | None = Field(None, description="the game searched")
    detected_game: str | None = Field(None, description="the game named in the question (detect=0 to ignore)")
    offset: int = 0
    limit: int = 10
    next_offset: int | None = Field(None, description="the next page, null on the last")


class Step(Shape):
    """One step of a ruling and the paragraphs that decide it."""

    text: str
    cites: list[str]


class Decision(Shape):
    """A choice the rules leave to a player that the position did not state."""

    who: str
    choose: str
    cites: list[str]
    field: str = Field(description="JSON path in the position where the answer goes (the notation of error "
                                   "paths, e.g. attacker.flanking_die, units[0].army_rules_met); stating it and "
                                   "resolving again settles the decision")
    options: list[Any] | None = Field(None, description="the allowed answers when finite (for a list field, the "
                                                        "allowed items)")


class CitedSource(Shape):
    """The short citation of a cited paragraph."""

    title: str
    kind: str
    short: str | None = None
    source: Source
    locator: str | None = None


class Ruling(Shape):
    """What happens now: the outcome, the steps that lead to it, every paragraph cited."""

    game: str
    situation: str
    legal: bool
    summary: str = Field(description="one plain sentence a player reads first: the verdict and the numbers that "
                                     "matter; \"Illegal: <first violation>.\" when not legal")
    reading: list[str] = Field(description="short sentences restating what the ruling read from the position: the "
                                           "sides, units or cards with the numbers that count, every bonus and its "
                                           "source, who holds which role, the choices already stated (contract 0.3)")
    outcome: dict[str, Any] = Field(description="the situation's outcome (its `<Game><Situation>Outcome` "
                                                "component where declared); `violations` when not legal")
    decisions: list[Decision]
    steps: list[Step]
    cites: list[str]
    sources: dict[str, CitedSource]
    links: dict[str, str] | None = Field(None, description="where to read each cited paragraph")


class SituationEntry(Shape):
    """A situation the engine resolves, with the JSON Schema of its position."""

    game: str
    situation: str
    description: str
    schema_: dict[str, Any] = Field(alias="schema", description="the position's JSON Schema (draft 2020-12)")
    labels: dict[str, str] = Field(description="outcome key -> label a player reads (\"Army strength\"); keys "
                                               "without one read as the key humanized")
    values: dict[str, dict[str, str]] = Field(description="outcome key -> {coded value: words} "
                                                          "(\"army\": \"The army\")")


class SituationList(Shape):
    """Every situation."""

    situations: list[SituationEntry]


class Version(Shape):
    """The corpus version served, and whether a rebuild is pending (and why)."""

    version: str | None = Field(description="the corpus version served, its content digest (null while the first "
                                             "one loads)")
    built_at: str | None = Field(description="when that version was loaded (UTC, ISO 8601)")
    paragraphs: int = Field(description="paragraphs in the served version")
    pending: bool = Field(description="the rules changed and the new version is not served yet")
    reason: str | None = Field(description="why a rebuild is pending or failed")


SHAPES: tuple[type[Shape], ...] = (Error, Source, Paragraph, SearchHit, SearchResult, Step, Decision,
                                   CitedSource, Ruling, SituationEntry, SituationList, Version)
"""Every shape, in the order the OpenAPI document lists them."""
