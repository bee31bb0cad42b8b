"""Runeslingers deck building: deck size per mode of play, copies per card, X cards, one class.

Paragraphs: ``rs.modes-of-play`` and ``.constructed``/``.draft``/``.sealed``. The deck size is contested:
``rs.setup-steps.3`` speaks of a 30-card deck while ``rs.modes-of-play.constructed`` requires 40; both notes
say the engine follows Modes of Play (constructed 40, sealed 40, draft 30), and every ruling cites both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import ConfigDict

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import MAX_ITEMS, Field, Model, OpenPosition, Outcome, maybe
from engine.runeslingers.common import GAME, joined, plural

Format = Literal["constructed", "draft", "sealed"]
FORMATS = {"constructed": "rs.modes-of-play.constructed", "draft": "rs.modes-of-play.draft",
           "sealed": "rs.modes-of-play.sealed"}
X_SUFFIX = re.compile(r"(?:^|\s)X$")


class ListedCard(Model):
    """A card of the deck list: its name, its copies, and whether it is an X card (read from the name if unsaid)."""

    model_config = ConfigDict(title="Card")

    name: str = Field(max_length=200)
    copies: int = Field(ge=1, le=99)
    x_card: bool | None = maybe()


class DeckRuneslinger(Model):
    """The Runeslinger the deck is for, and the classes of its Runeslinger, stance and ability."""

    model_config = ConfigDict(title="Runeslinger")

    name: str | None = maybe(max_length=200)
    class_: Annotated[str | None, Field(alias="class")] = maybe(max_length=200)
    stance_class: str | None = maybe(max_length=200)
    ability_class: str | None = maybe(max_length=200)


class DeckPosition(OpenPosition):
    """A deck list for a mode of play, and the Runeslinger it is built for."""

    game: Literal["runeslingers"]
    situation: Literal["deck"]
    format: Format
    cards: list[ListedCard] = Field(max_length=MAX_ITEMS)
    runeslinger: DeckRuneslinger | None = maybe()

    def reading(self) -> list[str]:
        """The mode of play, every card with its copies, and the Runeslinger's classes."""
        size = sum(c.copies for c in self.cards)
        cards = [f"{c.name} ×{c.copies}" + (" (an X card)" if c.x_card else "") for c in self.cards]
        out = [f"A {self.format} deck of {plural(size, 'card')}: {joined(cards)}."]
        s = self.runeslinger
        if s is not None:
            classes = [f"{what} class {value}" for what, value in (("Runeslinger", s.class_),
                                                                   ("stance", s.stance_class),
                                                                   ("ability", s.ability_class)) if value]
            out.append(f"Runeslinger: {s.name or 'not named'}" + (f"; {', '.join(classes)}." if classes else "."))
        return out


class DeckOutcome(Outcome):
    """The deck's size and the size its mode of play requires."""

    size: int
    required_size: int
    violations: list[dict[str, Any]] = Field(default_factory=list)


@dataclass(frozen=True)
class DeckCard:
    """A card of a deck list: its name, copies, and whether it is an X card."""

    name: str
    copies: int
    x_card: bool

    @classmethod
    def of(cls, card: ListedCard) -> DeckCard:
        """Read a card; without ``x_card``, a name ending in the X suffix marks an X card."""
        name = card.name.strip()
        return cls(name, card.copies, X_SUFFIX.search(name) is not None if card.x_card is None else card.x_card)


def merged(cards: Sequence[DeckCard]) -> list[DeckCard]:
    """Return the deck list with repeated names counted together (copies of one card, case-insensitive)."""
    out: dict[str, DeckCard] = {}
    for c in cards:
        key = c.name.casefold()
        prev = out.get(key)
        out[key] = c if prev is None else DeckCard(prev.name, prev.copies + c.copies, prev.x_card or c.x_card)
    return list(out.values())


@rule("rs.modes-of-play.constructed", "rs.modes-of-play.draft", "rs.modes-of-play.sealed", "rs.setup-steps.3")
def required_size(fmt: str, corpus: Corpus) -> int:
    """Return the exact deck size of a mode of play (Modes of Play: constructed 40, sealed 40, draft 30)."""
    return int(corpus.fact(FORMATS[fmt], "deck_size"))


@rule("rs.modes-of-play.constructed", "rs.modes-of-play.sealed")
def copy_limits(fmt: str, corpus: Corpus) -> tuple[int | None, int | None]:
    """Return (copies per card, copies per X card); draft decks have no stated limit (None)."""
    facts = corpus.facts_of(FORMATS[fmt])
    per, x = facts.get("max_copies_per_card"), facts.get("max_copies_x_card")
    return (None if per is None else int(per)), (None if x is None else int(x))


@rule("rs.modes-of-play", "rs.anatomy-of-a-runeslinger.class")
def classes_match(slinger: DeckRuneslinger) -> bool:
    """Return whether the Runeslinger, stance and ability stated all share one class."""
    named = {k.casefold() for k in (slinger.class_, slinger.stance_class, slinger.ability_class) if k}
    return len(named) <= 1


LABELS: dict[str, Label] = {"size": "Deck size", "required_size": "Required size"}


def _summary(pos: DeckPosition, out: DeckOutcome, trace: Trace) -> str:
    """One sentence: the deck is legal for its mode of play, at its size."""
    return f"The {pos.format} deck is legal: {out.size} cards, as required."


@rule("rs.setup-steps.3", "rs.modes-of-play.constructed", "rs.modes-of-play.sealed")
def _size(fmt: str, cards: Sequence[DeckCard], need: int, trace: Trace) -> None:
    """The deck's size against its mode of play's (the contested 30 of Setup noted)."""
    size = sum(c.copies for c in cards)
    trace.step(f"A {fmt} deck: {plural(size, 'card')} in {plural(len(cards), 'distinct name')}.", FORMATS[fmt])
    trace.step("Deck size is contested: Setup step 3 speaks of a 30-card deck, while Modes of Play sets "
               f"each mode's size; the engine follows Modes of Play, so a {fmt} deck has exactly {need} "
               "cards.",
               "rs.setup-steps.3", "rs.modes-of-play.constructed",
               *([FORMATS[fmt]] if fmt != "constructed" else []))
    if fmt == "sealed":
        trace.step("A sealed deck follows the constructed deck-building rules.", "rs.modes-of-play.sealed")
    if size != need:
        trace.violate(f"a {fmt} deck must have exactly {need} cards; this one has {size}", FORMATS[fmt],
                      "rs.setup-steps.3")


@rule("rs.modes-of-play.draft")
def _copies(fmt: str, cards: Sequence[DeckCard], trace: Trace, corpus: Corpus) -> None:
    """Copies per card and per X card (none stated for draft)."""
    per, per_x = copy_limits(fmt, corpus)
    if per is None:
        trace.step("The book sets no copy limits for draft decks.", "rs.modes-of-play.draft")
    for c in cards:
        if c.x_card and per_x is not None and c.copies > per_x:
            trace.violate(f"{c.name} is an X card: at most {per_x} copy in a deck, {c.copies} "
                          "listed", copy_limits)
        elif per is not None and c.copies > per:
            trace.violate(f"{c.name}: at most {per} copies of a card in a deck, {c.copies} "
                          "listed", copy_limits)


@situation(GAME, "deck", DeckPosition, labels=LABELS)
@summarized(_summary)
def resolve_deck(pos: DeckPosition, trace: Trace, corpus: Corpus) -> DeckOutcome:
    """Check a deck list for its mode of play: exact size, copies per card and per X card, one class."""
    fmt = pos.format
    cards = merged([DeckCard.of(c) for c in pos.cards])
    need = required_size(fmt, corpus)
    out = DeckOutcome(size=sum(c.copies for c in cards), required_size=need)
    _size(fmt, cards, need, trace)
    _copies(fmt, cards, trace, corpus)
    slinger = pos.runeslinger
    if slinger and not classes_match(slinger):
        trace.violate("the Runeslinger, stance and ability must all be of the same class", classes_match)
    if not trace.violations:
        trace.step(f"The deck meets the {fmt} rules.", FORMATS[fmt])
    return out
