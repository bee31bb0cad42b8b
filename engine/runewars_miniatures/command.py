"""RuneWars Miniatures command tools: whether the modifier applies, the move's speed, canceled actions.

Paragraphs: ``rwm.78.2``/``rwm.78.3`` (stances match; white matches every stance), ``rwm.56.1``-``rwm.56.3``
and ``rwm.75.2``/``rwm.75.3`` (speed arithmetic, no move at 0 or less, highest template), ``rwm.47.2`` (an
engaged unit's march is canceled), ``rwm.65.2``, ``rwm.10.2.b1``, ``rwm.73.2``-``rwm.73.4`` (shifting while
engaged), ``rwm.15.1``/``rwm.15.2`` and ``rwm.14.2`` (canceling), ``rwm.12.1.b2``/``.b4`` (immobilize, stun),
``rwm.6.2`` (no action), ``rwm.5.1``-``rwm.5.3`` (activation steps), ``rwm.16`` (charge).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import model_validator

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.model import Field, Model, OpenPosition, Outcome, labelled, maybe, refuse
from engine.runewars_miniatures.common import GAME, ActionIcon, Game, ModifierIcon, Stance, plural

Template = Literal["straight", "turn", "wheel"]
MOVES = ("march", "shift")
MOVEMENT_MODIFIERS = ("turn", "wheel", "charge", "turning-charge")
TEMPLATES: dict[str, Template] = {"turn": "turn", "turning-charge": "turn", "wheel": "wheel"}
ATTACKS = ("melee", "ranged")
ShiftPurpose = Annotated[Literal["reposition", "disengage"],
                         Field(json_schema_extra=labelled({"reposition": "Reposition", "disengage": "Disengage"}))]


class Action(Model):
    """The action selected on the command tool."""

    icon: ActionIcon
    stance: Stance
    speed: int | None = maybe(ge=0, le=9)
    initiative: int | None = maybe(ge=1, le=10)


class Modifier(Model):
    """The modifier selected on the command tool."""

    icon: ModifierIcon
    stance: Stance
    speed: int | None = maybe(ge=-9, le=9)
    value: int | None = maybe(ge=0, le=9)
    bonus_action: ActionIcon | None = maybe()


class CommandPosition(OpenPosition):
    """A revealed command tool (action and modifier, each null when none) and the unit's situation."""

    game: Game
    situation: Literal["command"]
    action: Action | None
    modifier: Modifier | None
    engaged: bool | None = maybe()
    max_template_speed: int | None = maybe(ge=1, le=9)
    stun_spent: bool | None = maybe()
    immobilize_spent: bool | None = maybe()
    shift_purpose: ShiftPurpose | None = maybe()
    engaged_enemies: int | None = maybe("How many enemy units the unit is engaged with (1 or more).", ge=1, le=20)


    def reading(self) -> list[str]:
        """Return the revealed action and modifier, and the unit's situation."""
        act, mod = self.action, self.modifier
        out = [f"Action: {act.stance} {act.icon}" + (f", speed {act.speed}" if act.speed is not None else "")
               + (f", initiative {act.initiative}" if act.initiative is not None else "") + "." if act
               else "Action: none."]
        if mod:
            extra = [f"speed {mod.speed:+d}" if mod.speed is not None else "",
                     f"value {mod.value}" if mod.value is not None else "",
                     f"bonus action {mod.bonus_action}" if mod.bonus_action else ""]
            out.append(f"Modifier: {mod.stance} {mod.icon.replace('-', ' ')}"
                       + "".join(f", {x}" for x in extra if x) + ".")
        else:
            out.append("Modifier: none.")
        state = ["engaged" + (f" with {plural(self.engaged_enemies, 'enemy unit')}" if self.engaged_enemies else "")
                 if self.engaged else "not engaged" if self.engaged is False else "",
                 f"largest speed on its movement template {self.max_template_speed}" if self.max_template_speed
                 else "", "a stun token spent" if self.stun_spent else "",
                 "an immobilize token spent" if self.immobilize_spent else "",
                 f"the shift {'disengages' if self.shift_purpose == 'disengage' else 'repositions'} it"
                 if self.shift_purpose else ""]
        if any(state):
            out.append("The unit: " + "; ".join(x for x in state if x) + ".")
        return out
    @model_validator(mode="after")
    def _move_shows_speed(self) -> CommandPosition:
        act = self.action
        if act is None or act.icon not in MOVES or act.speed is not None:
            return self
        if march_canceled_by_engagement(act.icon, bool(self.engaged)) or canceled_by_immobilize(
                act.icon, bool(self.immobilize_spent)):
            return self  # a canceled move never reads its speed
        raise refuse(f"a {act.icon} action shows a speed", "action.speed")


class CommandOutcome(Outcome):
    """What the revealed tool does: the modifier, the move, the action and the modifier's effect."""

    modifier_applies: bool = False
    modifier_effective: bool = False
    speed: int | None = None
    moves: bool = False
    action_canceled: bool = False
    action_performed: bool = False
    template: Template | None = None
    charge: bool = False
    bonus_action: ActionIcon | None = None
    defense_bonus: int = 0
    panic_tokens: int | None = Field(None, exclude_if=lambda v: v is None)


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
def template_type(modifier_icon: str | None) -> Template:
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

LABELS: dict[str, Label] = {
    "modifier_applies": "Modifier resolved", "modifier_effective": "Modifier has an effect", "speed": "Speed",
    "moves": "Unit moves", "action_canceled": "Action canceled", "action_performed": "Action performed",
    "template": "Template", "charge": "Charge", "bonus_action": "Bonus action", "defense_bonus": "Defense bonus",
    "panic_tokens": "Panic tokens received",
}


def _summary(pos: CommandPosition, out: CommandOutcome, trace: Trace) -> str:
    """One sentence: what the unit does with its action, and what its modifier adds."""
    act, mod = pos.action, pos.modifier
    if act is None:
        return "No action is chosen: the unit activates last, does nothing and gains nothing from its modifier."
    icon = act.icon
    if out.action_canceled:
        text = f"The {icon} action is canceled"
    elif out.moves:
        text = f"The unit performs its {icon} at speed {out.speed} on the {out.template} template"
        if out.charge:
            text += " as a charge"
    elif out.action_performed:
        text = f"The unit performs its {icon} action"
    else:
        text = f"The {icon} action cannot be performed"
    if mod is not None and not out.modifier_applies:
        text += f"; the {mod.stance} {mod.icon} modifier is not resolved"
    if out.defense_bonus:
        text += f"; its defense is {out.defense_bonus} higher until the end of the round"
    if out.bonus_action:
        text += f"; then it performs the {out.bonus_action} bonus action"
    if out.panic_tokens:
        text += f"; it receives {plural(out.panic_tokens, 'panic token')} for disengaging"
    if any(d.field == "shift_purpose" for d in trace.decisions):
        text += "; the player still says whether the shift repositions or disengages it"
    return text + "."


@rule("rwm.5.1", "rwm.19.1.b1", "rwm.6.2")
def _reveal(pos: CommandPosition, trace: Trace, corpus: Corpus) -> bool:
    """Reveal the tool; return whether an action was chosen (none: initiative 10, nothing happens, 6.2)."""
    trace.step("Reveal the command tool: the icons at the top of its dials are the selected action and "
               "modifier.", "rwm.5.1", "rwm.19.1.b1")
    if pos.action is not None:
        return True
    ten = corpus.fact("rwm.6.2", "no_action_initiative")
    trace.step(f"No action is chosen on the command tool: the unit activates at initiative {ten}, performs "
               f"no action and gains nothing from its modifier.", "rwm.6.2")
    return False


@rule("rwm.12.1.b4", "rwm.15.1")
def _stance(act: Action, mod: Modifier | None, pos: CommandPosition, trace: Trace, corpus: Corpus) -> bool:
    """Whether the modifier is resolved: stances match (white matches all) and no stun token cancels it."""
    if mod is None:
        return False
    applies = stances_match(mod.stance, act.stance, corpus)
    if applies:
        white = " (white, neutral)" if mod.stance.casefold() == "white" else ""
        trace.step(f"Stance: the {mod.stance}{white} {mod.icon} modifier matches the "
                   f"{act.stance} {act.icon} action, so it is resolved.", stances_match)
    else:
        trace.step(f"Stance: the {mod.stance} {mod.icon} modifier does not match the {act.stance} "
                   f"{act.icon} action and is not white: the modifier is ignored.", stances_match)
    if applies and pos.stun_spent:
        trace.step("A stun token is spent: the modifier is canceled and not resolved; the unit still "
                   "performs its action.", "rwm.12.1.b4", "rwm.15.1")
        return False
    return applies


@rule("rwm.15.1")
def _cancels(icon: str, pos: CommandPosition, trace: Trace) -> tuple[bool, bool]:
    """Whether the action is canceled (engaged march, immobilize) or cannot be performed: (canceled, performable)."""
    engaged = bool(pos.engaged)
    if march_canceled_by_engagement(icon, engaged):
        trace.step("The unit is engaged with an enemy unit, so it cannot march: the march action is "
                   "canceled.", march_canceled_by_engagement, "rwm.15.1")
        return True, False
    if canceled_by_immobilize(icon, bool(pos.immobilize_spent)):
        trace.step(f"An immobilize token is spent on the revealed {icon}: the action is canceled.",
                   canceled_by_immobilize, "rwm.15.1")
        return True, False
    if not can_perform(icon, engaged):
        why = ("an engaged unit cannot make a ranged attack" if icon == "ranged" else
               "a melee attack needs an enemy engaged with the unit, and it is not engaged")
        trace.step(f"The {icon} attack action cannot be performed: {why}.", can_perform)
        return False, False
    return False, True


@situation(GAME, "command", CommandPosition, labels=LABELS)
@summarized(_summary)
@rule("rwm.5.2", "rwm.4.4", "rwm.16.2.b1")
def resolve_command(pos: CommandPosition, trace: Trace, corpus: Corpus) -> CommandOutcome:
    """Resolve a revealed command tool: stance matching, modifier effects, speed and template, cancels."""
    out = CommandOutcome()
    act, mod = pos.action, pos.modifier
    if not _reveal(pos, trace, corpus) or act is None:
        out.modifier_applies = out.modifier_effective = out.action_performed = False
        return out
    icon = act.icon
    applies = out.modifier_applies = _stance(act, mod, pos, trace, corpus)
    m_icon = mod.icon if mod is not None and applies else None
    canceled, performed = _cancels(icon, pos, trace)
    moved = False
    if icon in MOVES and not canceled:
        moved, canceled = _movement(act, mod if applies else None, pos, out, trace, corpus)
        performed = not canceled
    elif performed:
        trace.step(f"Perform action: the unit performs its {icon} action, as it must when able.", "rwm.5.2",
                   "rwm.4.4")
    out.action_canceled, out.action_performed, out.moves = canceled, performed, moved
    if canceled and icon in MOVES and m_icon and is_charge(m_icon):
        trace.step("The charge came with a canceled action: the unit does not receive the panic token of a "
                   "failed charge.", "rwm.16.2.b1")
    if m_icon is not None and mod is not None:
        effective = out.modifier_effective = modifier_has_effect(m_icon, icon, performed, moved)
        _modifier_effect(m_icon, mod, icon, effective, canceled, out, trace)
    return out


@rule("rwm.75", "rwm.56.1.b1", "rwm.55.4.b1", "rwm.16.1", "rwm.16.2", "rwm.16.3")
def _movement(act: Action, mod: Modifier | None, pos: CommandPosition, out: CommandOutcome, trace: Trace,
              corpus: Corpus) -> tuple[bool, bool]:
    """Work out a march or shift: speed, template, charge; return (moved, canceled)."""
    icon = act.icon
    base = act.speed or 0
    m_icon = mod.icon if mod is not None and mod.icon in MOVEMENT_MODIFIERS else None
    speed = base
    if m_icon is not None and mod is not None and mod.speed:
        speed = modified_speed(base, mod.speed)
        trace.step(f"Speed: the {icon} action's speed {base} {'+' if mod.speed > 0 else '−'} "
                   f"{abs(mod.speed)} from the {m_icon} modifier = {speed}.", modified_speed)
    else:
        trace.step(f"Speed: the {icon} action's speed is {base}.", "rwm.75")
    if not can_move_at(speed, corpus):
        out.speed, out.template = 0, None
        trace.step(f"Speed {speed} is 0 or less: the movement is canceled and the unit stays where it is.",
                   can_move_at)
        return False, True
    used = template_speed(speed, pos.max_template_speed)
    template = template_type(m_icon)
    out.speed, out.template, out.charge = used, template, is_charge(m_icon)
    if used < speed:
        trace.step(f"No {template} template has speed {speed}: the unit uses the fastest one, speed {used}.",
                   template_speed)
    direction = "forward" if icon == "march" else "forward, backward or sideways"
    trace.step(f"Perform action: the unit moves {direction} along the speed-{used} {template} template.",
               template_type, "rwm.56.1.b1", "rwm.55.4.b1")
    if icon == "shift" and pos.engaged:
        _engaged_shift(pos, out, trace, corpus)
    if is_charge(m_icon):
        trace.step("The movement is a charge: if the unit collides with an enemy unit it takes no collision "
                   "panic and then makes a melee attack against it; if it collides with no enemy it "
                   "receives 1 panic token.", is_charge, "rwm.16.1", "rwm.16.2", "rwm.16.3")
    return True, False


@rule("rwm.73.2", "rwm.73.3", "rwm.73.4", "rwm.73.4.b1")
def _engaged_shift(pos: CommandPosition, out: CommandOutcome, trace: Trace, corpus: Corpus) -> None:
    """Record what an engaged unit's shift may do: reposition or disengage."""
    purpose = pos.shift_purpose
    trace.step("An engaged unit may still shift: the shift either repositions it (same contacted edges, "
               "nothing new touched) or disengages it (straight away from its contacted edge).", "rwm.73.2",
               "rwm.73.3", "rwm.73.4")
    if purpose is None:
        trace.decide("active player", "whether the shift repositions or disengages the unit", "rwm.73.2",
                     options=("reposition", "disengage"), field="shift_purpose")
    elif purpose == "disengage":
        per = int(corpus.fact("rwm.73.4.b1", "panic_tokens_per_unit_disengaged_from"))
        enemies = pos.engaged_enemies or 1
        out.panic_tokens = per * enemies
        trace.step(f"Disengaging from {plural(enemies, 'enemy unit')}: the unit receives "
                   f"{plural(per * enemies, 'panic token')}.",
                   "rwm.73.4", *(["rwm.73.4.b1"] if enemies > 1 else []))


@rule("rwm.35", "rwm.23", "rwm.23.1", "rwm.15.2", "rwm.5.3", "rwm.14.1", "rwm.14.2")
def _modifier_effect(m_icon: str, mod: Modifier, action: str, effective: bool, canceled: bool,
                     out: CommandOutcome, trace: Trace) -> None:
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
        bonus = mod.value or 0
        out.defense_bonus = bonus
        even = ", even though its action was canceled." if canceled else "."
        trace.step(f"Defend: the unit's defense is raised by {bonus} from the moment the tool is revealed "
                   f"until the end of the round{even}",
                   "rwm.23", "rwm.23.1", *(["rwm.15.2"] if canceled else []))
    elif m_icon == "bonus":
        bonus_action = mod.bonus_action
        out.bonus_action = bonus_action
        what = f"the {bonus_action} bonus action" if bonus_action else "its bonus action"
        trace.step(f"Bonus action: after its action the unit performs {what}"
                   + (", even though the first action was canceled." if canceled else "."),
                   "rwm.5.3", "rwm.14.1", *(["rwm.14.2"] if canceled else []))
