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
from typing import Any

from engine.core import Label, Trace, rule, situation
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runeslingers._legacy import AILMENTS, PLAYER, ailment_list, doc
from engine.runeslingers.common import GAME, describe
from engine.schema import Schema, enum, nullable, obj, text

PENALTY: Schema = doc(nullable(text()), "Penalty if destroyed while not owned",
                      "An effect on the boon's controller when it is destroyed and that controller does not own it, "
                      "e.g. its controller loses 9 health; null when the boon has none.", default=None)
EXISTING_BOON: Schema = doc(obj(["name", "owner"],
                                name=doc(text(), "Boon name"),
                                owner=doc(text(80), "Owner", "The player in whose deck it began the encounter."),
                                controller=doc(text(80), "Controller",
                                               "The player whose field it is on (the same as the field)."),
                                conceals=AILMENTS, if_destroyed_not_owned=PENALTY),
                            "Existing boon", "The boon already on that ailment, which the new boon replaces.")
BOON: Schema = doc(obj(["name"],
                       name=doc(text(), "Boon name"),
                       owner=doc(text(80), "Owner", "The player in whose deck the boon began the encounter."),
                       controller=doc(text(80), "Controller", "For destroy: the player whose field it is on."),
                       conceals=doc(AILMENTS, "Ailments concealed", "For destroy: the ailments under it.",
                                    default={}),
                       if_destroyed_not_owned=PENALTY),
                   "Boon", "The boon played, or the boon destroyed.")
ON: Schema = {
    **doc(obj(["kind"],
              kind=doc(enum("ailment", "boon", "concentration", "utility_slot", "defense_card"), "Played on",
                       "What the boon is put on."),
              field=doc(text(80), "Whose field", "The player whose field it is (the player's own when not stated)."),
              ailments=doc(AILMENTS, "Ailment there", "For an ailment: its type and instances, e.g. {\"burn\": 5}."),
              boon=EXISTING_BOON),
          "Played on", "For play: where the boon goes."),
    "allOf": [{"if": {"properties": {"kind": {"const": "boon"}}, "required": ["kind"]},
               "then": {"required": ["boon"]}}],
}
SCHEMA: dict[str, Any] = {
    **obj(["action", "boon"], extra=True,
          action=doc(enum("play", "destroy"), "What happens", "A boon is played, or a boon is destroyed.",
                     default="play"),
          player=doc(PLAYER, "Player", "For play: who plays the boon."),
          boon=BOON, on=ON,
          cause=doc(enum("damage", "effect"), "Destroyed by", "For destroy: damage or an effect.")),
    "allOf": [
        {"if": {"properties": {"action": {"const": "play"}}, "required": ["action"]},
         "then": {"required": ["player", "on"]}},
        {"if": {"properties": {"action": {"const": "destroy"}}, "required": ["action"]},
         "then": {"properties": {"boon": {"required": ["name", "owner", "controller"]}}}},
    ],
}


@dataclass(frozen=True)
class Boon:
    """A boon: its name, owner, controller, the ailments under it and its penalty for a non-owning controller."""

    name: str
    owner: str
    controller: str
    conceals: Mapping[str, int]
    penalty: str | None

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], owner: str, controller: str) -> Boon:
        """Read a boon; *owner* and *controller* fill what the position leaves out."""
        return cls(raw["name"], raw.get("owner") or owner, raw.get("controller") or controller,
                   ailment_list(raw.get("conceals", {})), raw.get("if_destroyed_not_owned"))


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

def _destroyed(boon: Boon, why: str, out: dict[str, Any], trace: Trace) -> None:
    """Record a boon's destruction: its owner's discard pile and any penalty on a non-owning controller."""
    pile = discard_pile_of(boon)
    out["discard_to"][boon.name] = pile
    trace.step(f"{boon.name} is destroyed{f' ({why})' if why else ''} and goes to the discard pile of its owner, {pile}"
               + (f", not of {boon.controller}, who controlled it." if pile != boon.controller else "."),
               discard_pile_of)
    victim = penalty_falls_on(boon)
    out["penalty_to"] = victim
    if victim:
        out["penalty"] = boon.penalty
        trace.step(f"{boon.controller} controls {boon.name} but does not own it, so its penalty falls on "
                   f"{victim}: {boon.penalty}.", penalty_falls_on)
    elif boon.penalty:
        trace.step(f"{boon.controller} owns the {boon.name} they control, so its penalty for a non-owning "
                   "controller does not apply.", penalty_falls_on)


def _play(pos: Mapping[str, Any], out: dict[str, Any], trace: Trace) -> str:
    player, on = pos["player"], pos["on"]
    field = on.get("field") or player
    controller = controller_of(field)
    if pos["boon"].get("controller", controller) != controller:
        raise UnreadableInputError(f"the boon is played on {field}'s field, so {field} controls it, not "
                                   f"{pos['boon']['controller']!r}", path="boon.controller")
    boon = Boon(pos["boon"]["name"], pos["boon"].get("owner") or player, controller, {},
                pos["boon"].get("if_destroyed_not_owned"))
    out.update(controller=controller, owner=boon.owner, effects_apply_to=controller)
    if not can_go_on(on["kind"]):
        trace.violate(f"a boon is played only on an ailment or a boon, not on a {on['kind'].replace('_', ' ')}",
                      can_go_on)
        return f"{boon.name} cannot be played there"
    if on["kind"] == "ailment":
        ailments = ailment_list(on.get("ailments", {}))
        if len(ailments) > 1:
            raise UnreadableInputError("an ailment area holds one ailment type; a boon is played on one of them, "
                                       f"not on {describe(ailments)}", path="on.ailments")
        if "ailments" in on and not ailments:
            trace.violate("there is no ailment there to play the boon on (0 instances)", can_go_on)
            return f"{boon.name} cannot be played there"
        out["concealed"] = ailments
        trace.step(f"{player} plays {boon.name} on "
                   + (f"{describe(ailments)}" if ailments else "an ailment")
                   + f" on {field}'s field: the ailments under it are concealed, out of play; they neither affect "
                   f"{field} nor count as on {field}'s Runeslinger.", can_go_on, "rs.term.concealed")
    else:
        old = Boon.from_json(on["boon"], on["boon"]["owner"], field)
        if old.controller != field:
            raise UnreadableInputError(f"the existing boon is on {field}'s field, so {field} controls it, not "
                                       f"{old.controller!r}", path="on.boon.controller")
        concealed, exposed = after_replacement(old)
        out.update(concealed=concealed, exposed=exposed, replaced=old.name)
        trace.step(f"{player} plays {boon.name} on {old.name} ({field}'s field): {old.name} is destroyed and "
                   f"replaced; the {describe(concealed)} under it are never exposed and stay concealed under "
                   f"{boon.name}.", after_replacement, "rs.boons-advanced-rules")
        _destroyed(old, f"replaced by {boon.name}", out, trace)
    if boon.owner == controller:
        trace.step(f"{boon.name} is on {controller}'s field: {controller} owns and controls it, and its effects "
                   f"apply to {controller}.", controller_of, "rs.term.own")
    else:
        trace.step(f"{boon.name} goes on {controller}'s field turned to face {boon.owner}: {boon.owner} owns it, "
                   f"{controller} controls it, and its effects apply to {controller}, not to {boon.owner}.",
                   controller_of, "rs.term.own", "rs.boons-advanced-rules.opponent-field")
    out["answerable_action"] = creates_answerable_action("boon")
    trace.step("A boon is a defense card: playing it creates no answerable action, so no one can answer it.",
               creates_answerable_action)
    whose = f"{controller} owns and controls it" if boon.owner == controller else \
        f"{controller} controls it and {boon.owner} owns it"
    hidden = f"conceals {describe(out['concealed'])}" if out["concealed"] else "goes on the ailment"
    if not out["replaced"]:
        return f"{boon.name} {hidden} on {controller}'s field; {whose}, so its effects apply to {controller}"
    penalty = f"; {out['penalty_to']} suffers its penalty: {out['penalty']}" if out["penalty_to"] else ""
    pile = out["discard_to"][out["replaced"]]
    return f"{boon.name} replaces {out['replaced']} (to {pile}'s discard pile{penalty}) " \
        f"and keeps {describe(out['concealed']) if out['concealed'] else 'its ailments'} concealed; {whose}"


def _destroy(pos: Mapping[str, Any], out: dict[str, Any], trace: Trace) -> str:
    raw = pos["boon"]
    boon = Boon.from_json(raw, raw["owner"], raw["controller"])
    out.update(controller=boon.controller, owner=boon.owner, effects_apply_to=boon.controller)
    cause = pos.get("cause")
    why = {"damage": "by damage", "effect": "by an effect"}.get(cause or "", "")
    concealed, exposed = after_destruction(boon)
    out.update(concealed=concealed, exposed=exposed)
    if cause == "damage":
        trace.step(f"Boons are defense cards, so damage can target {boon.name} and destroy it.",
                   "rs.boons-advanced-rules.damage", "rs.damage.defense-cards")
    _destroyed(boon, why, out, trace)
    if exposed:
        trace.step(f"The {describe(exposed)} under {boon.name} are exposed again and affect {boon.controller} "
                   "once more.", after_destruction)
    else:
        trace.step(f"{boon.name} concealed no ailment, so nothing is exposed.", after_destruction)
    penalty = f"; {out['penalty_to']} suffers its penalty ({boon.penalty})" if out["penalty_to"] else ""
    back = f", exposing {describe(exposed)} on {boon.controller}" if exposed else ""
    return f"{boon.name} goes to {boon.owner}'s discard pile{back}{penalty}"


@situation(GAME, "boons", SCHEMA, labels=LABELS)
def resolve_boons(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Play or lose a boon: control and ownership, concealed and exposed ailments, replacing, the penalty."""
    out: dict[str, Any] = {"controller": None, "owner": None, "effects_apply_to": None, "concealed": {},
                           "exposed": {}, "replaced": None, "penalty_to": None, "penalty": None,
                           "discard_to": {}, "answerable_action": False}
    sentence = _play(pos, out, trace) if pos["action"] == "play" else _destroy(pos, out, trace)
    trace.summarize(sentence)
    return out
