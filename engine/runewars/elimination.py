"""Runewars player elimination at zero controlled areas, and when a player may destroy his own pieces (p. 31-32).

Paragraphs: ``rw.player-elimination`` (no area controlled: heroes leave the board, Tactics, Quest, Reward and Hero
cards shuffled into their decks, Title cards back to the common play area with their influence, to be taken by
Acquire Power, ``rw.acquire-power-order.supremacy``); ``rw.component-limitations`` (five kinds of token are
unlimited, every other piece limited to the box), ``.units`` (all figures of a type in play: destroy one of one's
own in a friendly area, then recruit it), ``.voluntary`` (that and building with no piece left are the only times
a player destroys his own units, strongholds or developments; unit limits are another matter),
``rw.component-limitations.decks`` (an empty deck: shuffle its discard pile).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome
from engine.runewars.common import GAME, Faction, Labels, Name, capital, names, plural, the_player


class TitleHeld(Model):
    """A Title card he holds and the influence on it."""

    model_config = ConfigDict(title="Title card")

    name: Name = Field(title="Title card", description="The Title card's name.")
    influence: int = Field(0, ge=0, le=200, title="Influence on it", description="Influence tokens on the card.")


class EliminationPosition(OpenPosition):
    """A player's areas and cards when his last area may have gone."""

    game: Literal["runewars"]
    situation: Literal["elimination"]
    player: Faction = Field(title="Player", description="The faction whose areas are counted.")
    areas: int = Field(0, ge=0, le=60, title="Areas he controls", description="Areas he still controls.")
    heroes: int = Field(0, ge=0, le=3, title="Heroes on the board", description="His hero figures.")
    tactics: int = Field(0, ge=0, le=10, title="Tactics cards", description="Tactics cards he holds.")
    quests: int = Field(0, ge=0, le=3, title="Quest cards", description="Quest cards he holds.")
    rewards: int = Field(0, ge=0, le=30, title="Reward cards", description="Reward cards under his Hero cards.")
    titles: list[TitleHeld] = Field(default_factory=list, max_length=8, title="Title cards",
                                    description="The Title cards he holds.")

    def reading(self) -> list[str]:
        """His areas, heroes and cards, in a player's words."""
        who = capital(the_player(self.player))
        held = [f"{t.name} ({plural(t.influence, 'influence token')} on it)" for t in self.titles]
        titles = f" and the Title cards {names(held)}." if held else " and no Title card."
        return [f"{who} controls {plural(self.areas, 'area')} and has {plural(self.heroes, 'hero', 'heroes')} on the "
                "board.", f"He holds {plural(self.tactics, 'Tactics card')}, {plural(self.quests, 'Quest card')}, "
                f"{plural(self.rewards, 'Reward card')}{titles}"]


class EliminationOutcome(Outcome):
    """Whether he is out, and where his cards go."""

    eliminated: bool | None = None
    shuffled_back: dict[str, int] = Field(default_factory=dict)
    titles_to_common_area: list[Name] = Field(default_factory=list)


@rule("rw.player-elimination", "rw.acquire-power-order.supremacy")
def _eliminate(pos: EliminationPosition, trace: Trace, out: EliminationOutcome) -> None:
    out.eliminated = True
    out.shuffled_back = {"Tactics": pos.tactics, "Quest": pos.quests, "Reward": pos.rewards, "Hero": pos.heroes}
    trace.step(f"He controls no area: he is eliminated and takes no further part; his "
               f"{plural(pos.heroes, 'hero', 'heroes')} leave the board.", "rw.player-elimination")
    trace.step(f"Shuffled back into their decks: {plural(pos.tactics, 'Tactics card')}, "
               f"{plural(pos.quests, 'Quest card')}, {plural(pos.rewards, 'Reward card')} and "
               f"{plural(pos.heroes, 'Hero card')}.", "rw.player-elimination")
    if pos.titles:
        out.titles_to_common_area = [t.name for t in pos.titles]
        trace.step("His Title cards go to the common play area with their influence still on them ("
                   + ", ".join(f"{t.name}: {t.influence}" for t in pos.titles)
                   + "); another player claims one only with Acquire Power, spending more than it carries.",
                   "rw.player-elimination", "rw.acquire-power-order.supremacy")


LABELS: dict[str, Label] = {"eliminated": "Eliminated", "shuffled_back": "Cards shuffled back, by deck",
                            "titles_to_common_area": "Title cards to the common play area"}


def _summary(pos: EliminationPosition, out: EliminationOutcome, trace: Trace) -> str:
    who = capital(the_player(pos.player))
    if out.eliminated:
        return f"{who} controls no area and is eliminated; his cards go back to their decks"
    return f"{who} still controls {plural(pos.areas, 'area')} and stays in the game"


@situation(GAME, "elimination", EliminationPosition, labels=LABELS)
@summarized(_summary)
@rule("rw.player-elimination")
def resolve_elimination(pos: EliminationPosition, trace: Trace, corpus: Corpus) -> EliminationOutcome:
    """Decide whether a player is eliminated, and where his heroes, cards and Title cards go."""
    out = EliminationOutcome()
    if pos.areas:
        out.eliminated = False
        trace.step(f"He still controls {plural(pos.areas, 'area')}: only a player controlling none is eliminated.",
                   "rw.player-elimination")
        return out
    _eliminate(pos, trace, out)
    return out


# ------------------------------------------------------------------ destroying one's own pieces

Piece = Annotated[Literal["unit", "stronghold", "development"], Labels({
    "unit": "One of his units", "stronghold": "One of his strongholds", "development": "One of his developments"})]
Reason = Annotated[Literal["recruit", "build", "unit_limit", "other"], Labels({
    "recruit": "To recruit that unit type, all its figures being in play",
    "build": "To build one, none being left", "unit_limit": "A unit limit forces it",
    "other": "For another reason of his own"})]


class DestroyOwnPosition(OpenPosition):
    """A player who wants to destroy one of his own pieces, and why."""

    game: Literal["runewars"]
    situation: Literal["destroy_own"]
    player: Faction = Field(title="Player", description="The faction destroying its piece.")
    piece: Piece = Field("unit", title="Piece destroyed", description="What he wants to remove.")
    reason: Reason = Field("recruit", title="Why", description="The reason he destroys it.")
    left: int = Field(0, ge=0, le=20, title="Pieces of that kind left in the box",
                      description="Figures of that unit type, or stronghold or development pieces, not yet in play.")
    friendly: bool = Field(True, title="It stands in a friendly area", description="For a unit: the area it is in "
                           "is one he controls.")

    def reading(self) -> list[str]:
        """The piece, the reason and the pieces left, in a player's words."""
        why = {"recruit": "to recruit that unit type", "build": "to build that piece", "unit_limit":
               "because a unit limit forces it", "other": "for a reason of his own"}[self.reason]
        where = "" if self.piece != "unit" else (" in a friendly area" if self.friendly else " in an area he does "
                                                                                                "not control")
        return [f"{capital(the_player(self.player))} wants to destroy one of his {self.piece}s{where} {why}; "
                f"{plural(self.left, 'piece')} of that kind left in the box."]


class DestroyOwnOutcome(Outcome):
    """Whether he may destroy it."""

    allowed: bool | None = None


@rule("rw.component-limitations", "rw.component-limitations.units", "rw.component-limitations.voluntary")
def may_destroy(pos: DestroyOwnPosition) -> tuple[bool, str]:
    """Return whether he may destroy his own piece, and why."""
    if pos.reason == "unit_limit":
        return True, "a unit limit forcing losses is not the voluntary destruction the component rules restrict"
    if pos.reason == "other":
        return False, "a player destroys his own pieces only to reuse them when none is left"
    if pos.left:
        return False, f"{plural(pos.left, 'piece')} of that kind {'is' if pos.left == 1 else 'are'} still in the box"
    if pos.reason == "recruit" and pos.piece != "unit":
        return False, "recruiting reuses unit figures only"
    if pos.reason == "recruit" and not pos.friendly:
        return False, "the unit he removes to recruit it again must stand in a friendly area"
    return True, "none of that kind is left in the box, so he may take one of his own in play and reuse it"


def _destroy_summary(pos: DestroyOwnPosition, out: DestroyOwnOutcome, trace: Trace) -> str:
    return f"{capital(the_player(pos.player))} {'may' if out.allowed else 'may not'} destroy his own {pos.piece}"


@situation(GAME, "destroy_own", DestroyOwnPosition, labels={"allowed": "Allowed"})
@summarized(_destroy_summary)
@rule("rw.component-limitations", "rw.component-limitations.units", "rw.component-limitations.voluntary")
def resolve_destroy_own(pos: DestroyOwnPosition, trace: Trace, corpus: Corpus) -> DestroyOwnOutcome:
    """Decide whether a player may destroy one of his own units, strongholds or developments."""
    trace.step("Activation, damage, influence and training tokens and defeated hero markers are unlimited; every "
               "other piece is limited to what the box holds.", "rw.component-limitations")
    ok, why = may_destroy(pos)
    trace.step(f"{'He may' if ok else 'He may not'} destroy it: {why}.", "rw.component-limitations.voluntary",
               *(["rw.component-limitations.units"] if pos.reason == "recruit" else []))
    return DestroyOwnOutcome(allowed=ok)
