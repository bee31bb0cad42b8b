"""RuneWars Miniatures command tools: whether the modifier applies, the move's speed, canceled actions.

Paragraphs: ``rwm.78.2``/``rwm.78.3`` (stances match; white matches every stance), ``rwm.56.1``-``rwm.56.3``
and ``rwm.75.2``/``rwm.75.3`` (speed arithmetic, no move at 0 or less, highest template), ``rwm.47.2`` (an
engaged unit's march is canceled), ``rwm.65.2``, ``rwm.10.2.b1``, ``rwm.73.2``-``rwm.73.4`` (shifting while
engaged), ``rwm.15.1``/``rwm.15.2`` and ``rwm.14.2`` (canceling), ``rwm.12.1.b2``/``.b4`` (immobilize, stun),
``rwm.6.2`` (no action), ``rwm.5.1``-``rwm.5.3`` (activation steps), ``rwm.16`` (charge).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars_miniatures.common import ACTION_ICON, GAME, MODIFIER_ICON, STANCE, plural
from engine.schema import BOOL, enum, integer, obj

ACTION = obj(["icon", "stance"], icon=ACTION_ICON, stance=STANCE, speed=integer(0, 9),
             initiative=integer(1, 10))
MODIFIER = obj(["icon", "stance"], icon=MODIFIER_ICON, stance=STANCE, speed=integer(-9, 9),
               value=integer(0, 9), bonus_action=ACTION_ICON)
SCHEMA: dict[str, Any] = obj(
    ["action", "modifier"], extra=True,
    action={**ACTION, "type": ["object", "null"]}, modifier={**MODIFIER, "type": ["object", "null"]},
    engaged=BOOL, max_template_speed=integer(1, 9),
    stun_spent=BOOL, immobilize_spent=BOOL, shift_purpose=enum("reposition", "disengage"),
    engaged_enemies=integer(0, 20),
)
MOVES = ("march", "shift")
MOVEMENT_MODIFIERS = ("turn", "wheel", "charge", "turning-charge")
TEMPLATES = {"turn": "turn", "turning-charge": "turn", "wheel": "wheel"}
ATTACKS = ("melee", "ranged")


# ------------------------------------------------------------------------------------------ rules

@rule("rwm.78.2", "rwm.78.3")
def stances_match(modifier_stance: str, action_stance: str, corpus: Corpus) -> bool:
    """Return whether the modifier may be resolved: its stance matches the action's, or it is white."""
    neutral = str(corpus.fact("rwm.78.3", "neutral_stance"))
    return modifier_stance.casefold() in (neutral, action_stance.casefold())


@rule("rwm.47.2")
def march_canceled_by_engagement(action: str, engaged: bool) -> bool:
    """Return whether the action is a march revealed by an engaged unit: it is canceled."""
    return action == "march" and engaged


@rule("rwm.12.1.b2")
def canceled_by_immobilize(action: str, immobilize_spent: bool) -> bool:
    """Return whether an immobilize token spent on a revealed march or shift cancels it."""
    return action in MOVES and immobilize_spent


@rule("rwm.65.2", "rwm.10.2.b1", "rwm.48", "rwm.4.4")
def can_perform(action: str, engaged: bool) -> bool:
    """Return whether an attack action can be performed: a ranged attack not while engaged, a melee attack
    only while engaged (it needs an engaged enemy to target)."""
    if action == "ranged":
        return not engaged
    if action == "melee":
        return engaged
    return True


@rule("rwm.56.2", "rwm.56.2.b1", "rwm.75.1")
def modified_speed(action_speed: int, modifier_speed: int) -> int:
    """Return the move's speed: the modifier's speed added to (plus) or taken from (minus) the action's."""
    return action_speed + modifier_speed


@rule("rwm.75.2", "rwm.56.2.b2")
def can_move_at(speed: int, corpus: Corpus) -> bool:
    """Return whether a move at this speed happens: at 0 or less it is canceled and the unit stays put."""
    return speed > int(corpus.fact("rwm.75.2", "canceled_at_or_below_speed"))


@rule("rwm.75.3", "rwm.56.2.b3")
def template_speed(speed: int, max_template_speed: int | None) -> int:
    """Return the template speed used: above the fastest template of that type, the fastest one."""
    return speed if max_template_speed is None else min(speed, max_template_speed)


@rule("rwm.47", "rwm.47.1", "rwm.73", "rwm.73.1", "rwm.56.1", "rwm.85")
def template_type(modifier_icon: str | None) -> str:
    """Return the template: turn or wheel with such a modifier (turning charge: turn), else straight."""
    return TEMPLATES.get(modifier_icon or "", "straight")


@rule("rwm.56.3", "rwm.16", "rwm.85")
def is_charge(modifier_icon: str | None) -> bool:
    """Return whether the movement is also a charge: its modifier's arrow ends in a burst."""
    return modifier_icon in ("charge", "turning-charge")


@rule("rwm.15.2", "rwm.35", "rwm.56")
def modifier_has_effect(modifier_icon: str, action: str, performed: bool, moved: bool) -> bool:
    """Return whether a resolved modifier does something: a movement modifier needs a move, enhance an attack
    actually performed; defend and bonus actions work even when the action is not performed."""
    if modifier_icon in MOVEMENT_MODIFIERS:
        return moved
    if modifier_icon == "enhance":
        return action in ATTACKS and performed
    return True


# ----------------------------------------------------------------------------------- resolution

def _no_action(out: dict[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Record a command tool with no action chosen (6.2)."""
    ten = corpus.fact("rwm.6.2", "no_action_initiative")
    trace.step(f"No action is chosen on the command tool: the unit activates at initiative {ten}, performs "
               f"no action and gains nothing from its modifier.", "rwm.6.2")
    out.update(modifier_applies=False, modifier_effective=False, action_performed=False)
    return out


LABELS: dict[str, Label] = {
    "modifier_applies": "Modifier resolved", "modifier_effective": "Modifier has an effect", "speed": "Speed",
    "moves": "Unit moves", "action_canceled": "Action canceled", "action_performed": "Action performed",
    "template": "Template", "charge": "Charge", "bonus_action": "Bonus action", "defense_bonus": "Defense bonus",
    "panic_tokens": "Panic tokens received",
}


def _summary(pos: Mapping[str, Any], out: Mapping[str, Any], trace: Trace) -> str:
    """One sentence: what the unit does with its action, and what its modifier adds."""
    act, mod = pos.get("action"), pos.get("modifier")
    if act is None:
        return "No action is chosen: the unit activates last, does nothing and gains nothing from its modifier."
    icon = act["icon"]
    if out["action_canceled"]:
        text = f"The {icon} action is canceled"
    elif out["moves"]:
        text = f"The unit performs its {icon} at speed {out['speed']} on the {out['template']} template"
        if out.get("charge"):
            text += " as a charge"
    elif out["action_performed"]:
        text = f"The unit performs its {icon} action"
    else:
        text = f"The {icon} action cannot be performed"
    if mod is not None and not out["modifier_applies"]:
        text += f"; the {mod['stance']} {mod['icon']} modifier is not resolved"
    if out.get("defense_bonus"):
        text += f"; its defense is {out['defense_bonus']} higher until the end of the round"
    if out.get("bonus_action"):
        text += f"; then it performs the {out['bonus_action']} bonus action"
    if out.get("panic_tokens"):
        text += f"; it receives {plural(out['panic_tokens'], 'panic token')} for disengaging"
    if any(d.field == "shift_purpose" for d in trace.decisions):
        text += "; the player still says whether the shift repositions or disengages it"
    return text + "."


@situation(GAME, "command", SCHEMA, labels=LABELS)
@summarized(_summary)
def resolve_command(pos: Mapping[str, Any], trace: Trace, corpus: Corpus) -> dict[str, Any]:
    """Resolve a revealed command tool: stance matching, modifier effects, speed and template, cancels."""
    act, mod = pos.get("action"), pos.get("modifier")
    engaged = bool(pos.get("engaged", False))
    out: dict[str, Any] = {"modifier_applies": False, "modifier_effective": False, "speed": None,
                           "moves": False, "action_canceled": False, "action_performed": False,
                           "template": None, "charge": False, "bonus_action": None, "defense_bonus": 0}
    trace.step("Reveal the command tool: the icons at the top of its dials are the selected action and "
               "modifier.", "rwm.5.1", "rwm.19.1.b1")
    if act is None:
        return _no_action(out, trace, corpus)
    icon = act["icon"]
    # --- the modifier: stance, stun
    applies = False
    if mod is not None:
        applies = stances_match(mod["stance"], act["stance"], corpus)
        if applies:
            white = " (white, neutral)" if mod["stance"].casefold() == "white" else ""
            trace.step(f"Stance: the {mod['stance']}{white} {mod['icon']} modifier matches the "
                       f"{act['stance']} {icon} action, so it is resolved.", stances_match)
        else:
            trace.step(f"Stance: the {mod['stance']} {mod['icon']} modifier does not match the "
                       f"{act['stance']} "
                       f"{icon} action and is not white: the modifier is ignored.", stances_match)
        if applies and pos.get("stun_spent"):
            applies = False
            trace.step("A stun token is spent: the modifier is canceled and not resolved; the unit still "
                       "performs its action.", "rwm.12.1.b4", "rwm.15.1")
    out["modifier_applies"] = applies
    m_icon = mod["icon"] if mod is not None and applies else None
    # --- the action
    canceled = performed = False
    if march_canceled_by_engagement(icon, engaged):
        canceled = True
        trace.step("The unit is engaged with an enemy unit, so it cannot march: the march action is "
                   "canceled.",
                   march_canceled_by_engagement, "rwm.15.1")
    elif canceled_by_immobilize(icon, bool(pos.get("immobilize_spent"))):
        canceled = True
        trace.step(f"An immobilize token is spent on the revealed {icon}: the action is canceled.",
                   canceled_by_immobilize, "rwm.15.1")
    elif not can_perform(icon, engaged):
        why = ("an engaged unit cannot make a ranged attack" if icon == "ranged" else
               "a melee attack needs an enemy engaged with the unit, and it is not engaged")
        trace.step(f"The {icon} attack action cannot be performed: {why}.", can_perform)
    else:
        performed = True
    moved = False
    if icon in MOVES and not canceled:
        moved, canceled = _movement(act, mod if applies else None, pos, out, trace, corpus)
        performed = not canceled
    elif performed:
        trace.step(f"Perform action: the unit performs its {icon} action, as it must when able.", "rwm.5.2",
                   "rwm.4.4")
    out.update(action_canceled=canceled, action_performed=performed, moves=moved)
    if canceled and icon in MOVES and m_icon and is_charge(m_icon):
        trace.step("The charge came with a canceled action: the unit does not receive the panic token of a "
                   "failed charge.", "rwm.16.2.b1")
    # --- the modifier's effect
    if m_icon is not None:
        effective = modifier_has_effect(m_icon, icon, performed, moved)
        out["modifier_effective"] = effective
        _modifier_effect(m_icon, mod or {}, icon, effective, canceled, out, trace)
    return out


def _movement(act: Mapping[str, Any], mod: Mapping[str, Any] | None, pos: Mapping[str, Any],
              out: dict[str, Any], trace: Trace, corpus: Corpus) -> tuple[bool, bool]:
    """Work out a march or shift: speed, template, charge; return (moved, canceled)."""
    icon = act["icon"]
    if act.get("speed") is None:
        raise UnreadableInputError(f"a {icon} action shows a speed", path="action.speed")
    base = int(act["speed"])
    m_icon = mod["icon"] if mod is not None and mod["icon"] in MOVEMENT_MODIFIERS else None
    speed = base
    if m_icon is not None and mod is not None and mod.get("speed"):
        speed = modified_speed(base, int(mod["speed"]))
        trace.step(f"Speed: the {icon} action's speed {base} {'+' if mod['speed'] > 0 else '−'} "
                   f"{abs(mod['speed'])} from the {m_icon} modifier = {speed}.", modified_speed)
    else:
        trace.step(f"Speed: the {icon} action's speed is {base}.", "rwm.75")
    if not can_move_at(speed, corpus):
        out.update(speed=0, template=None)
        trace.step(f"Speed {speed} is 0 or less: the movement is canceled and the unit stays where it is.",
                   can_move_at)
        return False, True
    used = template_speed(speed, pos.get("max_template_speed"))
    template = template_type(m_icon)
    out.update(speed=used, template=template, charge=is_charge(m_icon))
    if used < speed:
        trace.step(f"No {template} template has speed {speed}: the unit uses the fastest one, speed {used}.",
                   template_speed)
    direction = "forward" if icon == "march" else "forward, backward or sideways"
    trace.step(f"Perform action: the unit moves {direction} along the speed-{used} {template} template.",
               template_type, "rwm.56.1.b1", "rwm.55.4.b1")
    if icon == "shift" and bool(pos.get("engaged", False)):
        _engaged_shift(pos, out, trace, corpus)
    if is_charge(m_icon):
        trace.step("The movement is a charge: if the unit collides with an enemy unit it takes no collision "
                   "panic and then makes a melee attack against it; if it collides with no enemy it "
                   "receives 1 panic token.", is_charge, "rwm.16.1", "rwm.16.2", "rwm.16.3")
    return True, False


def _engaged_shift(pos: Mapping[str, Any], out: dict[str, Any], trace: Trace, corpus: Corpus) -> None:
    """Record what an engaged unit's shift may do: reposition or disengage."""
    purpose = pos.get("shift_purpose")
    trace.step("An engaged unit may still shift: the shift either repositions it (same contacted edges, "
               "nothing new touched) or disengages it (straight away from its contacted edge).", "rwm.73.2",
               "rwm.73.3", "rwm.73.4")
    if purpose is None:
        trace.decide("active player", "whether the shift repositions or disengages the unit", "rwm.73.2",
                     options=("reposition", "disengage"), field="shift_purpose")
    elif purpose == "disengage":
        per = int(corpus.fact("rwm.73.4.b1", "panic_tokens_per_unit_disengaged_from"))
        enemies = max(1, int(pos.get("engaged_enemies") or 1))
        out["panic_tokens"] = per * enemies
        trace.step(f"Disengaging from {enemies} unit(s): the unit receives {per * enemies} panic token(s).",
                   "rwm.73.4", *(["rwm.73.4.b1"] if enemies > 1 else []))


def _modifier_effect(m_icon: str, mod: Mapping[str, Any], action: str, effective: bool, canceled: bool,
                     out: dict[str, Any], trace: Trace) -> None:
    """Record what the resolved modifier does."""
    if m_icon in MOVEMENT_MODIFIERS and not effective:
        why = "the action was canceled" if canceled else f"a {action} action makes no move"
        trace.step(f"The {m_icon} movement modifier does nothing: {why}.", modifier_has_effect)
    elif m_icon == "enhance":
        if effective:
            trace.step("Enhance: the icon shown on the modifier is added to the attack's dice results.",
                       "rwm.35")
        else:
            trace.step("Enhance does nothing: no attack action is performed.", modifier_has_effect)
    elif m_icon == "defend":
        bonus = int(mod.get("value") or 0)
        out["defense_bonus"] = bonus
        even = ", even though its action was canceled." if canceled else "."
        trace.step(f"Defend: the unit's defense is raised by {bonus} from the moment the tool is revealed "
                   f"until the end of the round{even}",
                   "rwm.23", "rwm.23.1", *(["rwm.15.2"] if canceled else []))
    elif m_icon == "bonus":
        bonus_action = mod.get("bonus_action")
        out["bonus_action"] = bonus_action
        what = f"the {bonus_action} bonus action" if bonus_action else "its bonus action"
        trace.step(f"Bonus action: after its action the unit performs {what}"
                   + (", even though the first action was canceled." if canceled else "."),
                   "rwm.5.3", "rwm.14.1", *(["rwm.14.2"] if canceled else []))
