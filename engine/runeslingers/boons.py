"""Runeslingers boons: playing one (control, ownership, concealing, replacing a boon) and losing one (``boons``).

Paragraphs: ``rs.boons`` (and the Divine Barrier example), ``rs.boons-advanced-rules`` (replace, damage,
opponent's field), ``rs.your-field.discard-pile``, ``rs.term.own``, ``rs.term.control``, ``rs.term.concealed``,
``rs.term.destroy``, ``rs.areas-of-the-field``, ``rs.the-ladder.defense-cards``.

Choices where the book is silent (documented here and in the steps):

- A boon's controller is the player whose field it is on (``on.field``, the player's own field when not
  stated); its owner is ``boon.owner``, or the player playing it when not stated.
- A boon is played on one ailment: an ailment area holds one ailment type, so ``on.ailments`` naming two
  types cannot be read. Playing it on an ailment area with no instance is illegal (there is no ailment).
- For ``destroy``, ``controller``, ``owner`` and ``effects_apply_to`` describe the destroyed boon, and the
  ailments it concealed are exposed on its controller's Runeslinger.
- A boon's penalty for being destroyed while its controller does not own it (``if_destroyed_not_owned``)
  falls on the controller; it also applies to a boon destroyed by being replaced.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from pydantic import ConfigDict, model_validator

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, maybe, refuse
from engine.runeslingers.common import GAME, AilmentCounts, ailment_words, describe
from engine.runeslingers.fields import Player, ailment_list, ailments

PENALTY_HINT = ("An effect on the boon's controller when it is destroyed and that controller does not own it, "
                "e.g. its controller loses 9 health; null when the boon has none.")
PlaceKind = Literal["ailment", "boon", "concentration", "utility_slot", "defense_card"]


class ExistingBoon(Model):
    """The boon already on that ailment, which the new boon replaces."""

    name: str = Field(max_length=200, title="Boon name")
    owner: str = Field(max_length=80, title="Owner", description="The player in whose deck it began the encounter.")
    controller: str | None = maybe("The player whose field it is on (the same as the field).", title="Controller",
                                   max_length=80)
    conceals: AilmentCounts = ailments()
    if_destroyed_not_owned: str | None = Field(None, max_length=200, title="Penalty if destroyed while not owned",
                                               description=PENALTY_HINT)


class PlayedBoon(Model):
    """The boon played, or the boon destroyed."""

    model_config = ConfigDict(title="Boon")

    name: str = Field(max_length=200, title="Boon name")
    owner: str | None = maybe("The player in whose deck the boon began the encounter.", title="Owner",
                              max_length=80)
    controller: str | None = maybe("For destroy: the player whose field it is on.", title="Controller",
                                   max_length=80)
    conceals: AilmentCounts = ailments("Ailments concealed", "For destroy: the ailments under it.")
    if_destroyed_not_owned: str | None = Field(None, max_length=200, title="Penalty if destroyed while not owned",
                                               description=PENALTY_HINT)


class PlayedOn(Model):
    """For play: where the boon goes."""

    model_config = ConfigDict(title="Played on")

    kind: PlaceKind = Field(title="Played on", description="What the boon is put on.")
    field: str | None = maybe("The player whose field it is (the player's own when not stated).",
                              title="Whose field", max_length=80)
    ailments: AilmentCounts | None = maybe("For an ailment: its type and instances, e.g. {\"burn\": 5}.",
                                           title="Ailment there")
    boon: ExistingBoon | None = maybe()

    @model_validator(mode="after")
    def _readable(self) -> PlayedOn:
        if self.kind == "boon" and self.boon is None:
            raise refuse("missing field 'boon'", "boon")
        if self.kind == "ailment" and len(ailment_list(self.ailments or {})) > 1:
            raise refuse("an ailment area holds one ailment type; a boon is played on one of them, "
                         f"not on {describe(ailment_list(self.ailments or {}))}", "ailments")
        return self


class BoonsPosition(OpenPosition):
    """A boon played (on an ailment or a boon, on any player's field) or a boon destroyed."""

    game: Literal["runeslingers"]
    situation: Literal["boons"]
    action: Literal["play", "destroy"] = Field(title="What happens", description="A boon is played, or a boon is "
                                               "destroyed.", json_schema_extra={"default": "play"})
    player: Player | None = maybe("For play: who plays the boon.", title="Player")
    boon: PlayedBoon
    on: PlayedOn | None = maybe()
    cause: Literal["damage", "effect"] | None = maybe("For destroy: damage or an effect.", title="Destroyed by")

    @model_validator(mode="after")
    def _readable(self) -> BoonsPosition:
        if self.action == "destroy":
            for key in ("owner", "controller"):
                if getattr(self.boon, key) is None:
                    raise refuse(f"missing field {key!r}", f"boon.{key}")
            return self
        if self.player is None or self.on is None:
            raise refuse(f"missing field {'player' if self.player is None else 'on'!r}",
                         "player" if self.player is None else "on")
        field = self.on.field or self.player
        if self.boon.controller is not None and self.boon.controller != field:
            raise refuse(f"the boon is played on {field}'s field, so {field} controls it, not "
                         f"{self.boon.controller!r}", "boon.controller")
        old = self.on.boon
        if self.on.kind == "boon" and old is not None and old.controller not in (None, "", field):
            raise refuse(f"the existing boon is on {field}'s field, so {field} controls it, not "
                         f"{old.controller!r}", "on.boon.controller")
        return self

    def reading(self) -> list[str]:
        """The boon with its owner and controller, where it goes or why it is destroyed."""
        b = self.boon
        owner = f", owned by {b.owner}" if b.owner else ""
        penalty = f" If destroyed while not owned: {b.if_destroyed_not_owned}." if b.if_destroyed_not_owned else ""
        if self.action == "destroy":
            cause = {"damage": " by damage", "effect": " by an effect", None: ""}[self.cause]
            out = [f"{b.name}{owner}, on {b.controller}'s field, is destroyed{cause}.{penalty}"]
            out.append(f"It conceals {ailment_words(b.conceals)}." if b.conceals else "It conceals no ailment.")
            return out
        on = self.on
        if on is None:
            return [f"{self.player} plays {b.name}{owner}.{penalty}"]
        field = on.field or self.player
        what = {"ailment": f"the ailment {ailment_words(on.ailments)}" if on.ailments else "an ailment",
                "boon": f"the boon {on.boon.name} (owned by {on.boon.owner})" if on.boon else "a boon",
                "concentration": "a concentration", "utility_slot": "a utility slot",
                "defense_card": "a defense card"}[on.kind]
        return [f"{self.player} plays {b.name}{owner} on {what}, on {field}'s field.{penalty}"]


class BoonsOutcome(Outcome):
    """Who controls and owns the boon, the ailments concealed or exposed, and any penalty or discard."""

    controller: str | None = None
    owner: str | None = None
    effects_apply_to: str | None = None
    concealed: dict[str, int] = Field(default_factory=dict)
    exposed: dict[str, int] = Field(default_factory=dict)
    replaced: str | None = None
    penalty_to: str | None = None
    penalty: str | None = None
    discard_to: dict[str, str] = Field(default_factory=dict)
    answerable_action: bool = False


@dataclass(frozen=True)
class Boon:
    """A boon: its name, owner, controller, the ailments under it and its penalty for a non-owning controller."""

    name: str
    owner: str
    controller: str
    conceals: Mapping[str, int]
    penalty: str | None

    @classmethod
    def of(cls, raw: PlayedBoon | ExistingBoon, owner: str, controller: str) -> Boon:
        """Read a boon; *owner* and *controller* fill what the position leaves out."""
        return cls(raw.name, raw.owner or owner, raw.controller or controller,
                   ailment_list(raw.conceals), raw.if_destroyed_not_owned)


LABELS: dict[str, Label] = {
    "controller": "Controller", "owner": "Owner", "effects_apply_to": "Its effects apply to",
    "concealed": "Ailments concealed", "exposed": "Ailments exposed again", "replaced": "Boon replaced",
    "penalty_to": "Penalty falls on", "penalty": "Penalty", "discard_to": "Discard pile (card: owner)",
    "answerable_action": "Creates an answerable action",
}


# ------------------------------------------------------------------------------------------ rules

@rule("rs.boons", "rs.boons-advanced-rules", "rs.playing-a-card")
def can_go_on(kind: str) -> bool:
    """Return whether a boon may be played on this: only on an ailment or on a boon, on any player's field."""
    return kind in ("ailment", "boon")


@rule("rs.areas-of-the-field", "rs.term.control", "rs.boons-advanced-rules.opponent-field")
def controller_of(field_owner: str) -> str:
    """Return who controls a card: the player whose field it is on; its effects apply to that player."""
    return field_owner


@rule("rs.boons-advanced-rules.replace", "rs.term.concealed")
def after_replacement(old: Boon) -> tuple[dict[str, int], dict[str, int]]:
    """Return (concealed, exposed) after a new boon replaces *old*: the ailments stay concealed, none exposed."""
    return dict(old.conceals), {}


@rule("rs.boons", "rs.term.concealed")
def after_destruction(boon: Boon) -> tuple[dict[str, int], dict[str, int]]:
    """Return (concealed, exposed) after a boon is destroyed: the ailments under it are exposed again."""
    return {}, dict(boon.conceals)


@rule("rs.boons-advanced-rules.replace", "rs.boons.divine-barrier", "rs.term.own", "rs.term.control")
def penalty_falls_on(boon: Boon) -> str | None:
    """Return who suffers a destroyed boon's penalty for a non-owning controller (its controller), or None."""
    if boon.penalty and boon.controller != boon.owner:
        return boon.controller
    return None


@rule("rs.your-field.discard-pile", "rs.term.destroy", "rs.term.own")
def discard_pile_of(boon: Boon) -> str:
    """Return whose discard pile a destroyed boon goes to: its owner's."""
    return boon.owner


@rule("rs.the-ladder.defense-cards")
def creates_answerable_action(card_type: str) -> bool:
    """Return whether playing this card type creates an answerable action (a defense card such as a boon does not)."""
    return card_type == "runespell"


# ----------------------------------------------------------------------------------- resolution

def _destroyed(boon: Boon, why: str, out: BoonsOutcome, trace: Trace) -> None:
    """Record a boon's destruction: its owner's discard pile and any penalty on a non-owning controller."""
    pile = discard_pile_of(boon)
    out.discard_to[boon.name] = pile
    trace.step(f"{boon.name} is destroyed{f' ({why})' if why else ''} and goes to the discard pile of its owner, {pile}"
               + (f", not of {boon.controller}, who controlled it." if pile != boon.controller else "."),
               discard_pile_of)
    victim = penalty_falls_on(boon)
    out.penalty_to = victim
    if victim:
        out.penalty = boon.penalty
        trace.step(f"{boon.controller} controls {boon.name} but does not own it, so its penalty falls on "
                   f"{victim}: {boon.penalty}.", penalty_falls_on)
    elif boon.penalty:
        trace.step(f"{boon.controller} owns the {boon.name} they control, so its penalty for a non-owning "
                   "controller does not apply.", penalty_falls_on)


@rule("rs.term.concealed")
def _on_ailment(pos: BoonsPosition, on: PlayedOn, boon: Boon, out: BoonsOutcome, trace: Trace) -> bool:
    """Played on an ailment: it conceals the ailment; return whether the play is legal."""
    ailments = ailment_list(on.ailments or {})
    field = on.field or pos.player
    if on.ailments is not None and not ailments:
        trace.violate("there is no ailment there to play the boon on (0 instances)", can_go_on)
        return False
    out.concealed = ailments
    trace.step(f"{pos.player} plays {boon.name} on "
               + (f"{describe(ailments)}" if ailments else "an ailment")
               + f" on {field}'s field: the ailments under it are concealed, out of play; they neither affect "
               f"{field} nor count as on {field}'s Runeslinger.", can_go_on, "rs.term.concealed")
    return True


@rule("rs.boons-advanced-rules")
def _on_boon(pos: BoonsPosition, existing: ExistingBoon, field: str, boon: Boon, out: BoonsOutcome,
             trace: Trace) -> None:
    """Played on a boon: the old boon is destroyed and replaced; its ailments stay concealed."""
    old = Boon.of(existing, existing.owner, field)
    concealed, exposed = after_replacement(old)
    out.concealed, out.exposed, out.replaced = concealed, exposed, old.name
    trace.step(f"{pos.player} plays {boon.name} on {old.name} ({field}'s field): {old.name} is destroyed and "
               f"replaced; the {describe(concealed)} under it are never exposed and stay concealed under "
               f"{boon.name}.", after_replacement, "rs.boons-advanced-rules")
    _destroyed(old, f"replaced by {boon.name}", out, trace)


@rule("rs.term.own", "rs.boons-advanced-rules.opponent-field")
def _ownership(boon: Boon, controller: str, out: BoonsOutcome, trace: Trace) -> None:
    """Who owns and who controls the boon, and that playing it is not answerable."""
    if boon.owner == controller:
        trace.step(f"{boon.name} is on {controller}'s field: {controller} owns and controls it, and its effects "
                   f"apply to {controller}.", controller_of, "rs.term.own")
    else:
        trace.step(f"{boon.name} goes on {controller}'s field turned to face {boon.owner}: {boon.owner} owns it, "
                   f"{controller} controls it, and its effects apply to {controller}, not to {boon.owner}.",
                   controller_of, "rs.term.own", "rs.boons-advanced-rules.opponent-field")
    out.answerable_action = creates_answerable_action("boon")
    trace.step("A boon is a defense card: playing it creates no answerable action, so no one can answer it.",
               creates_answerable_action)


def _play_sentence(boon: Boon, controller: str, out: BoonsOutcome) -> str:
    """One sentence: where the boon goes, who controls and owns it, and what it replaces."""
    whose = f"{controller} owns and controls it" if boon.owner == controller else \
        f"{controller} controls it and {boon.owner} owns it"
    hidden = f"conceals {describe(out.concealed)}" if out.concealed else "goes on the ailment"
    if not out.replaced:
        return f"{boon.name} {hidden} on {controller}'s field; {whose}, so its effects apply to {controller}"
    penalty = f"; {out.penalty_to} suffers its penalty: {out.penalty}" if out.penalty_to else ""
    pile = out.discard_to[out.replaced]
    return f"{boon.name} replaces {out.replaced} (to {pile}'s discard pile{penalty}) " \
        f"and keeps {describe(out.concealed) if out.concealed else 'its ailments'} concealed; {whose}"


def _play(pos: BoonsPosition, out: BoonsOutcome, trace: Trace) -> str:
    """A boon is played: where it may go, what it conceals or replaces, who controls and owns it."""
    assert pos.player is not None and pos.on is not None  # required for play by the position model
    on = pos.on
    field = on.field or pos.player
    controller = controller_of(field)
    boon = Boon(pos.boon.name, pos.boon.owner or pos.player, controller, {}, pos.boon.if_destroyed_not_owned)
    out.controller, out.owner, out.effects_apply_to = controller, boon.owner, controller
    if not can_go_on(on.kind):
        trace.violate(f"a boon is played only on an ailment or a boon, not on a {on.kind.replace('_', ' ')}",
                      can_go_on)
        return f"{boon.name} cannot be played there"
    if on.kind == "ailment":
        if not _on_ailment(pos, on, boon, out, trace):
            return f"{boon.name} cannot be played there"
    elif on.boon is not None:
        _on_boon(pos, on.boon, field, boon, out, trace)
    _ownership(boon, controller, out, trace)
    return _play_sentence(boon, controller, out)


@rule("rs.boons-advanced-rules.damage", "rs.damage.defense-cards")
def _destroy(pos: BoonsPosition, out: BoonsOutcome, trace: Trace) -> str:
    """A boon is destroyed: to its owner's discard pile, its ailments exposed, any penalty."""
    raw = pos.boon
    boon = Boon.of(raw, raw.owner or "", raw.controller or "")
    out.controller, out.owner, out.effects_apply_to = boon.controller, boon.owner, boon.controller
    cause = pos.cause
    why = {"damage": "by damage", "effect": "by an effect"}.get(cause or "", "")
    concealed, exposed = after_destruction(boon)
    out.concealed, out.exposed = concealed, exposed
    if cause == "damage":
        trace.step(f"Boons are defense cards, so damage can target {boon.name} and destroy it.",
                   "rs.boons-advanced-rules.damage", "rs.damage.defense-cards")
    _destroyed(boon, why, out, trace)
    if exposed:
        trace.step(f"The {describe(exposed)} under {boon.name} are exposed again and affect {boon.controller} "
                   "once more.", after_destruction)
    else:
        trace.step(f"{boon.name} concealed no ailment, so nothing is exposed.", after_destruction)
    penalty = f"; {out.penalty_to} suffers its penalty ({boon.penalty})" if out.penalty_to else ""
    back = f", exposing {describe(exposed)} on {boon.controller}" if exposed else ""
    return f"{boon.name} goes to {boon.owner}'s discard pile{back}{penalty}"


@situation(GAME, "boons", BoonsPosition, labels=LABELS)
def resolve_boons(pos: BoonsPosition, trace: Trace, corpus: Corpus) -> BoonsOutcome:
    """Play or lose a boon: control and ownership, concealed and exposed ailments, replacing, the penalty."""
    out = BoonsOutcome()
    sentence = _play(pos, out, trace) if pos.action == "play" else _destroy(pos, out, trace)
    trace.summarize(sentence)
    return out
