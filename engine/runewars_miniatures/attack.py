"""RuneWars Miniatures attacks: the 11 steps of entry 10, from the attack profile to the morale test.

Paragraphs: ``rwm.10`` and ``rwm.10.1``-``rwm.10.13``; target legality (``rwm.10.2.b1`` melee must be
engaged, ``rwm.10.2.b2`` ranged at range 1-5 in line of sight, ``rwm.65.2`` no ranged attack while engaged,
``rwm.65.3`` shooting into a melee); flanking (``rwm.41.1.b2`` +1 die, ``rwm.41.1.b3`` no rank rerolls
against the flanker); rank rerolls (``rwm.10.4.b1``/``.b2``, Precise ``rwm.45.3``); surges, accuracy, mortal
strikes, hits x threat (``threat.py``), damage and wounds (``damage.py``), reconfigure, morale
(``morale.py``).

Answers the attacker may state (each settles one decision): ``attacker.flanking_die``, ``attacker.contacted_edge``,
``attacker.surge_abilities`` (names; ``[]`` pays for none), ``attacker.accuracy_assigned`` (upgrade names),
``attacker.wound_assignment`` (``concentrate``: finish each figure and tray first; ``spread``: as many figures and
trays keep standing as 22.2 allows) and ``attacker.morale_card`` (the card resolved).
"""

from __future__ import annotations

from engine.core import Label, Trace, rule, situation, summarized
from engine.corpus import Corpus
from engine.errors import UnreadableInputError
from engine.runewars_miniatures.attack_position import (
    BANE_WORDS,
    AlliedTest,
    Attacker,
    AttackOutcome,
    AttackPosition,
    Rerolls,
)
from engine.runewars_miniatures.attack_steps import Book
from engine.runewars_miniatures.common import (
    GAME,
    Formation,
    full_ranks_behind,
    is_partial,
    keyword_instances,
    keyword_value,
    plural,
    possessive,
)
from engine.runewars_miniatures.damage import (
    Casualties,
    Placement,
    casualties,
    damage_from_hits,
    effective_defense,
    mortal_strike_wounds,
    spread_casualties,
    wounds_from_damage,
)
from engine.runewars_miniatures.morale import attack_severity, can_spend_panic, shooting_into_melee_severity
from engine.runewars_miniatures.table_attack import from_table
from engine.runewars_miniatures.threat import Contact, explain_melee, ranged_base_threat, with_brutal
from engine.runewars_miniatures.trays import wounds_on_trays

PROFILE_RULE = {"melee": "rwm.48.1", "ranged": "rwm.65.1"}


# ------------------------------------------------------------------------------------------ rules

@rule("rwm.10.1", "rwm.48.1", "rwm.65.1")
def is_profile_allowed(profile: str | None, attack_type: str) -> bool:
    """Return whether the chosen attack profile matches the attack action's type (melee or ranged)."""
    return profile is None or profile == attack_type


@rule("rwm.10.2.b1", "rwm.48")
def can_melee(engaged: bool) -> bool:
    """Return whether a melee target is legal: the attacker must be engaged with the defender."""
    return engaged


@rule("rwm.65.2")
def can_shoot_while(engaged: bool, corpus: Corpus) -> bool:
    """Return whether the attacker may make a ranged attack: not while it is engaged."""
    return not engaged or bool(corpus.fact("rwm.65.2", "allowed_while_engaged"))


@rule("rwm.10.2.b2", "rwm.64.6.b3")
def is_in_range(distance: int, corpus: Corpus) -> bool:
    """Return whether a ranged target is at range 1-5 (both ends of the span included)."""
    lo = int(corpus.fact("rwm.10.2.b2", "ranged_attack_min_range"))
    hi = int(corpus.fact("rwm.10.2.b2", "ranged_attack_max_range"))
    return lo <= distance <= hi


@rule("rwm.10.2.b2", "rwm.46.1", "rwm.65", "rwm.39.3")
def can_see(line_of_sight: bool, in_firing_arc: bool) -> bool:
    """Return whether a ranged target is in line of sight, traced inside the attacker's firing arc."""
    return line_of_sight and in_firing_arc


@rule("rwm.41.1", "rwm.41.1.b2", "rwm.51.2")
def flanking_dice(flanking: bool, corpus: Corpus) -> int:
    """Return the extra dice of a flanking attacker: 1 (blue or red, its choice), added before any removal."""
    return int(corpus.fact("rwm.41.1.b2", "flanking_extra_dice")) if flanking else 0


@rule("rwm.10.3.b1", "rwm.51.2")
def dice_to_roll(profile_dice: int, extra: int, removed: int) -> int:
    """Return the dice rolled: the profile's plus dice added, minus dice removed (0 cancels the attack)."""
    return max(0, profile_dice + extra - removed)


@rule("rwm.10.4", "rwm.10.4.b1", "rwm.10.4.b2", "rwm.45.3", "rwm.41.1.b3")
def rank_rerolls(formation: Formation, precise: int, flanked_by_defender: bool,
                 corpus: Corpus) -> tuple[int, int]:
    """Return (full-rank rerolls, dice of the partial-rank reroll).

    One reroll of any dice per full rank behind the front rank (Precise X counts X more full ranks), then 1
    die for a partial rank; none at all when the attacker is flanked by the unit it attacks.
    """
    if flanked_by_defender:
        return 0, 0
    per_rank = int(corpus.fact("rwm.10.4.b1", "rerolls_per_full_rank_behind_front"))
    partial = 0
    if formation.has_partial_rank:
        partial = int(corpus.fact("rwm.10.4.b2", "dice_per_partial_rank_reroll"))
    return (formation.full_ranks_behind_front + precise) * per_rank, partial


# ----------------------------------------------------------------------------------- resolution

@rule("rwm.82.1.b1")
def _contact(att: Attacker, flanking: bool, trace: Book) -> tuple[Contact | None, list[str]]:
    """Read the contacted edge(s); return the chosen contact (None when the attacker still has to choose)."""
    edges: list[str] = list(dict.fromkeys(att.contacted_edges or []))
    chosen = att.contacted_edge
    if chosen is not None and edges and chosen not in edges:
        raise UnreadableInputError(f"contacted_edge {chosen!r} is not among contacted_edges {edges!r}",
                                   path="attacker.contacted_edge")
    options = edges or ([chosen] if chosen else [])
    if not options:
        raise UnreadableInputError("missing field 'contacted_edge' (a melee attacker touches the defender "
                                   "with one of its edges)", path="attacker.contacted_edge")
    if flanking and "front" not in options:
        raise UnreadableInputError("a flanking unit touches the enemy with its front edge, but no "
                                   "contacted edge is the front edge", path="attacker.flanking")
    if chosen is None and len(options) > 1:
        return None, options
    edge = chosen or options[0]
    if len(options) > 1:
        trace.step(f"The attacker touches the defender with several edges ({', '.join(options)}); he chooses "
                   f"the {edge} edge to set his threat.", "rwm.82.1.b1")
    return Contact(edge, bool(att.touching_partial_rank), bool(att.touching_other_trays)), options


@rule("rwm.10.2")
def _melee_target(pos: AttackPosition, engaged: bool, d_name: str, trace: Book) -> None:
    """Step 2 for a melee attack: the defender must be engaged with the attacker."""
    if can_melee(engaged):
        trace.step(f"Choose target: {d_name} is an enemy unit engaged with the attacker, so it may be "
                   f"the target of a melee attack.", "rwm.10.2", can_melee)
    else:
        trace.violate("a melee attack needs a defender engaged with the attacker, and the attacker is "
                      f"not engaged with {d_name}", can_melee)


@rule("rwm.10.2", "rwm.65.3")
def _target(pos: AttackPosition, trace: Book, corpus: Corpus) -> None:
    """Step 2: check that the defender is a legal target for this attack type."""
    att = pos.attacker
    flanking, flanked = bool(att.flanking), bool(att.flanked_by_defender)
    engaged = att.engaged
    if engaged is None:
        engaged = flanking or flanked or pos.attack_type == "melee"
    d_name = pos.defender.name or "the defender"
    if pos.attack_type == "melee":
        _melee_target(pos, engaged, d_name, trace)
        return
    if not can_shoot_while(engaged, corpus):
        why = " (flanking or being flanked means it is engaged)" if (flanking or flanked) and not att.engaged else ""
        trace.violate(f"the attacker is engaged{why}; an engaged unit cannot make a ranged attack",
                      can_shoot_while)
    distance = att.range or 0
    if not is_in_range(distance, corpus):
        trace.violate(f"{d_name} is at range {distance}; a ranged target must be at range "
                      f"{corpus.fact('rwm.10.2.b2', 'ranged_attack_min_range')}-"
                      f"{corpus.fact('rwm.10.2.b2', 'ranged_attack_max_range')}", is_in_range)
    los, arc = att.line_of_sight is not False, att.in_firing_arc is not False
    if not can_see(los, arc):
        trace.violate(f"{d_name} is not " + ("inside the attacker's firing arc" if not arc else
                                              "in the attacker's line of sight") +
                      "; a ranged target must be in line of sight, traced within the firing arc", can_see)
    if not trace.violations:
        trace.step(f"Choose target: {d_name} is at range {distance}, in line of sight and inside the "
                   f"firing arc, and the attacker is not engaged: a legal ranged target.",
                   "rwm.10.2", is_in_range, can_see, can_shoot_while)
        allies = list(pos.defender.engaged_with_allies or [])
        if allies:
            trace.step(f"{d_name} is engaged with {', '.join(allies)}, allied to the attacker: shooting into "
                       "that melee is allowed, but each of those units will suffer a morale test afterwards.",
                       "rwm.65.3")


LABELS: dict[str, Label] = {
    "upgrades_removed": "Figure upgrades removed", "accuracy_spent": "Accuracy icons spent",
    "trays_left": "Trays left (rank by rank)", "banes_received": "Banes received",
    "threat": "Threat", "extra_dice": "Extra dice", "dice": "Dice rolled",
    "rerolls": "Rerolls (full ranks, partial rank)", "damage": "Damage", "defense": "Defense",
    "wounds": "Wounds", "figures_removed": "Figures removed", "trays_removed": "Trays removed",
    "wound_tokens": "Wound tokens left", "ranks_after": "Trays per rank after",
    "morale_test_severity": "Morale test severity", "destroyed": "Defender destroyed",
    "canceled": "Attack canceled", "threat_by_edge": "Threat by contacted edge",
    "allied_morale_tests": "Allied units' morale tests", "morale_card": "Morale card resolved",
    "from_table": "Read from the table",
}
OPEN: dict[str, str] = {
    "attacker.flanking_die": "the flanking die's colour", "attacker.surge_abilities": "the surge abilities",
    "attacker.accuracy_assigned": "the accuracy targets", "attacker.wound_assignment": "which figures take "
    "the wounds", "attacker.morale_card": "the morale card", "attacker.contacted_edge": "the contacted edge",
}


def _open_choices(trace: Trace) -> str:
    """Return ``"; the attacker still chooses a and b"`` for the open decisions (empty when none)."""
    open_ = [OPEN.get(d.field, d.choose) for d in trace.decisions]
    if not open_:
        return ""
    return "; the attacker still chooses " + (", ".join(open_[:-1]) + " and " + open_[-1] if len(open_) > 1
                                              else open_[0])


def _verb(name: str, singular: str) -> str:
    """Return *singular* ("loses") agreeing with a unit's name: plural names ("Spearmen") take "lose"."""
    many = name.endswith("men") or (name.endswith("s") and not name.endswith("ss"))
    plural_forms = {"does": "do", "is": "are", "loses": "lose", "suffers": "suffer", "tests": "test"}
    return plural_forms.get(singular, singular) if many else singular


def _summary(pos: AttackPosition, out: AttackOutcome, trace: Trace) -> str:
    """One sentence: what the defender loses, and the morale test, with the choices still open."""
    d_name = pos.defender.name or "the defender"
    d_cap = d_name[:1].upper() + d_name[1:]
    if out.canceled:
        return "The attack is canceled: game effects removed every die, so nothing is rolled."
    severity = out.morale_test_severity or 0
    morale = (f"{_verb(d_name, 'tests')} morale at severity {severity}" if severity
              else f"{_verb(d_name, 'does')} not test morale")
    allies = out.allied_morale_tests or []
    ally_names = ", ".join(a.unit for a in allies)
    ally_text = (f"; {ally_names} then {_verb(ally_names, 'tests') if len(allies) == 1 else 'test'} morale at "
                 f"severity {allies[0].severity}" if allies else "")
    if out.threat is None:
        by_edge = ", ".join(f"{e} {t}" for e, t in (out.threat_by_edge or {}).items())
        return (f"The damage to {d_name} waits for the attacker's choice of contacted edge (threat {by_edge}); "
                f"{d_name} {morale}{ally_text}{_open_choices(trace)}.")
    wounds, figures, trays = out.wounds or 0, out.figures_removed, out.trays_removed
    numbers = f"{out.damage} damage at threat {out.threat} against defense {out.defense}"
    strikes = pos.results.mortal_strike or 0
    if strikes:
        numbers += f", plus {plural(strikes, 'mortal strike')}"
    if out.destroyed:
        return (f"{d_cap} {_verb(d_name, 'suffers')} {plural(wounds, 'wound')} ({numbers}) and "
                f"{_verb(d_name, 'is')} destroyed{ally_text}{_open_choices(trace)}.")
    lose = (plural(figures, "figure") + (f" ({plural(trays, 'tray')})" if trays else "")) if figures \
        else "no figure"
    if any(d.field == "attacker.wound_assignment" for d in trace.decisions):
        empties = f" and empties {plural(trays, 'tray')}" if trays else ""
        # which figures take the wounds is still open: the figures and trays lost are not settled yet
        return (f"{d_cap} {_verb(d_name, 'suffers')} {plural(wounds, 'wound')} ({numbers}) and {morale}"
                f"{ally_text}{_open_choices(trace)} (finishing each figure and tray first removes "
                f"{plural(figures or 0, 'figure')}{empties}).")
    return (f"{d_cap} {_verb(d_name, 'loses')} {lose} to {plural(wounds, 'wound')} ({numbers}) and {morale}"
            f"{ally_text}{_open_choices(trace)}.")


@rule("rwm.10.1")
def _profile(pos: AttackPosition, trace: Book) -> None:
    """Step 1, Choose attack profile: one of the attacker's profiles of the attack's type."""
    kind, profile = pos.attack_type, pos.attacker.profile
    if not is_profile_allowed(profile, kind):
        trace.violate(f"a {profile} attack profile cannot be used for a {kind} attack action",
                      is_profile_allowed)
    else:
        trace.step(f"Choose attack profile: the attacker uses one of its {kind} attack profiles.",
                   "rwm.10.1", PROFILE_RULE[kind])


def _the_icons(n: int) -> str:
    """Return "the accuracy icon" / "the 2 accuracy icons"."""
    return "the accuracy icon" if n == 1 else f"the {n} accuracy icons"


def _panic_tokens(pos: AttackPosition, trace: Book) -> int:
    """The defender's panic tokens the attacker spends (not more than it has): return how many."""
    spent = pos.panic_tokens_spent or 0
    have = pos.defender.panic_tokens
    if not can_spend_panic(spent, have):
        trace.violate(f"{plural(spent, 'panic token')} to spend, but "
                      f"{pos.defender.name or 'the defender'} has only {have}",
                      can_spend_panic)
    return spent


@rule("rwm.10.3", "rwm.51.1", "rwm.51.2.b2")
def _roll(pos: AttackPosition, out: AttackOutcome, trace: Book, corpus: Corpus) -> bool:
    """Step 3, Roll dice (a flanker adds 1 die); return False when every die was removed (attack canceled)."""
    att = pos.attacker
    flanking = bool(att.flanking)
    a_name, d_name = att.name or "the attacker", pos.defender.name or "the defender"
    extra = out.extra_dice = flanking_dice(flanking, corpus)
    if flanking:
        trace.step(f"Roll dice: {possessive(a_name)} front edge touches a side or the back edge of {d_name}, so it is "
                   f"flanking and adds {plural(extra, 'extra die', 'extra dice')} to its roll.", "rwm.10.3",
                   flanking_dice)
        if att.flanking_die is None:
            trace.decide("attacker", "the colour of the flanking die (blue or red)", flanking_dice,
                         options=("blue", "red"), field="attacker.flanking_die")
        else:
            trace.step(f"The attacker adds a {att.flanking_die} die for flanking.", flanking_dice)
    else:
        trace.step("Roll dice: the attacker rolls the dice shown on its attack profile.", "rwm.10.3")
    if att.dice is None:
        return True
    rolled = out.dice = dice_to_roll(att.dice, extra, att.dice_removed or 0)
    if att.dice_removed:
        trace.step(f"Before rolling, {plural(att.dice_removed, 'die', 'dice')} "
                   f"{'is' if att.dice_removed == 1 else 'are'} removed (the attacker picks which when the effect "
                   f"names no colour): {rolled} left to roll.", "rwm.51.1", "rwm.51.2.b2")
    if rolled:
        return True
    trace.step("Game effects removed every die: there is nothing to roll, so the attack is canceled.", dice_to_roll)
    out.canceled, out.damage, out.wounds, out.figures_removed, out.trays_removed = True, 0, 0, 0, 0
    out.morale_test_severity, out.destroyed = 0, False
    return False


@rule("rwm.10.4", "rwm.41.1.b3", "rwm.45.3")
def _rerolls(pos: AttackPosition, formation: Formation, out: AttackOutcome, trace: Book, corpus: Corpus) -> None:
    """Step 4, Reroll for extra ranks: full ranks behind the front (and Precise), then the partial rank."""
    att = pos.attacker
    a_name, d_name = att.name or "the attacker", pos.defender.name or "the defender"
    flanked = bool(att.flanked_by_defender)
    precise = keyword_value(att.precise)
    full, partial = rank_rerolls(formation, precise, flanked, corpus)
    out.rerolls = Rerolls(full_rank=full, partial_rank=partial)
    if flanked:
        lost = " (Precise too: it only counts extra full ranks)" if precise else ""
        trace.step(f"Reroll for extra ranks: {a_name} is flanked by {d_name}, the unit it attacks, so it "
                   f"gets no rerolls for its ranks{lost}.", "rwm.10.4", "rwm.41.1.b3",
                   *(["rwm.45.3"] if precise else []))
        return
    behind = formation.full_ranks_behind_front
    parts = [f"{plural(behind, 'full rank')} behind the front rank"]
    if precise:
        parts.append(f"Precise {precise} counts as {plural(precise, 'more full rank', 'more full ranks')}")
    text = (f"Reroll for extra ranks: {'; '.join(parts)}: {plural(full, 'reroll')} of any number of dice"
            + (", then 1 die for the partial rank" if partial else "") + ".")
    cites: list[object] = ["rwm.10.4", "rwm.10.4.b1", full_ranks_behind]
    if partial:
        cites += ["rwm.10.4.b2", is_partial]
    if precise:
        cites.append("rwm.45.3")
        if keyword_instances(att.precise) > 1:
            cites.append(keyword_value)
    trace.step(text, *cites)  # type: ignore[arg-type]


@rule("rwm.10.5", "rwm.10.13", "rwm.10.6", "rwm.80.1", "rwm.80.3", "rwm.80.1.b1", "rwm.80.1.b2", "rwm.1.3",
      "rwm.1.3.b1")
def _surges(pos: AttackPosition, formation: Formation, out: AttackOutcome, trace: Book, corpus: Corpus) -> None:
    """Step 5, Modify dice (the final results), and step 6, Spend surges."""
    r, kind = pos.results, pos.attack_type
    hits, strikes, accuracy, morale, surge = (r.hit or 0, r.mortal_strike or 0, r.accuracy or 0, r.morale or 0,
                                              r.surge or 0)
    trace.step(f"Modify dice: the final results are {plural(hits, 'hit')}, "
               f"{plural(strikes, 'mortal strike')}, {accuracy} accuracy, {morale} morale and "
               f"{plural(surge, 'surge')}; every icon must be spent if possible.", "rwm.10.5", "rwm.10.13")
    trace.begin()
    if not surge:
        trace.step("Spend surges: no surge was rolled.", "rwm.10.6")
        return
    trace.step(f"Spend surges: the attacker spends its {plural(surge, 'surge')} on {kind}-icon surge "
               f"abilities of its unit and upgrade cards, 1 surge per surge icon.", "rwm.10.6", "rwm.80.1", "rwm.80.3",
               "rwm.1.3", "rwm.1.3.b1")
    paid = pos.attacker.surge_abilities
    if paid is None:
        trace.decide("attacker", f"which {kind} surge abilities to pay with {plural(surge, 'surge')} "
                     "(name them; an empty list pays for none)", "rwm.10.6", "rwm.80.1.b1", "rwm.10.13",
                     field="attacker.surge_abilities")
    else:
        again = len(set(paid)) < len(paid)
        trace.step(f"The attacker pays for {', '.join(paid) if paid else 'no surge ability'}"
                   + (" (an ability may be paid for more than once, each time with its own surges)." if again else "."),
                   "rwm.10.6", "rwm.80.1.b1", *(["rwm.80.1.b2"] if again else []))


@rule("rwm.10.7", "rwm.10.7.b3", "rwm.2.3", "rwm.10.7.b1", "rwm.2.1", "rwm.2.2", "rwm.10.7.b4")
def _accuracy(pos: AttackPosition, formation: Formation, out: AttackOutcome, trace: Book,
              corpus: Corpus) -> None:
    """Step 7, Assign accuracy: to the defender's figure upgrades, if it has any."""
    accuracy = pos.results.accuracy or 0
    upgrades = len(pos.defender.upgrades or []) or pos.defender.figure_upgrades or 0
    d_name = pos.defender.name or "the defender"
    if not accuracy:
        trace.step("Assign accuracy: no accuracy icon was rolled.", "rwm.10.7")
        return
    if not upgrades:
        trace.step(f"Assign accuracy: {d_name} has no figure upgrade, so {_the_icons(accuracy)} "
                   f"{'has' if accuracy == 1 else 'have'} no effect.", "rwm.10.7.b3", "rwm.2.3")
        return
    trace.step(f"Assign accuracy: the attacker assigns {plural(accuracy, 'accuracy icon')} to "
               f"{possessive(d_name)} figure "
               f"upgrades; wounds and damage may then reach those figures outside the backmost rank"
               + (", and several icons may go to one of them." if pos.defender.upgrades else
                  ". The count below follows the ordinary figures of the backmost rank."),
               "rwm.10.7", "rwm.10.7.b1", *(["rwm.10.7.b4"] if pos.defender.upgrades else []))
    assigned = pos.attacker.accuracy_assigned
    if assigned is None:
        trace.decide("attacker", f"which of the {plural(upgrades, 'figure upgrade')} "
                                 f"{'gets' if accuracy == 1 else 'get'} {_the_icons(accuracy)} (name them)",
                     "rwm.2.1", "rwm.2.2", field="attacker.accuracy_assigned")
    else:
        trace.step(f"The attacker assigns the accuracy to {', '.join(assigned) or 'no figure upgrade'}.",
                   "rwm.2.1", "rwm.2.2")


@rule("rwm.92.5", "rwm.10.8")
def _mortal_strikes(pos: AttackPosition, trace: Book, corpus: Corpus) -> int:
    """Step 8, Spend mortal strikes: 1 wound each, defense does not apply; return the wounds."""
    strikes = pos.results.mortal_strike or 0
    ms_wounds = mortal_strike_wounds(strikes, corpus)
    if strikes:
        verb = "causes" if strikes == 1 else "cause"
        trace.step(f"Spend mortal strikes: {plural(strikes, 'mortal strike')} {verb} "
                   f"{plural(ms_wounds, 'wound')}; defense does not apply.", mortal_strike_wounds, "rwm.92.5")
    else:
        trace.step("Spend mortal strikes: no mortal strike was rolled.", "rwm.10.8")
    return ms_wounds


@rule("rwm.82.1.b1", "rwm.10.9", "rwm.10.10")
def _threat(pos: AttackPosition, formation: Formation, contact: Contact | None, options: list[str],
            out: AttackOutcome, trace: Book) -> int | None:
    """Step 9, the threat: the contacted edge's trays (melee) or the front edge's (ranged), plus Brutal.

    None while the attacker still chooses which of several contacted edges sets it.
    """
    att = pos.attacker
    brutal = keyword_value(att.brutal)
    if pos.attack_type == "ranged":
        base = ranged_base_threat(formation)
        trace.step(f"Threat (ranged): the front edge is made of {plural(base, 'tray')}: threat {base}.",
                   ranged_base_threat)
    elif contact is None:
        touch = (bool(att.touching_partial_rank), bool(att.touching_other_trays))
        threats = {e: with_brutal(explain_melee(formation, Contact(e, *touch), Trace()), brutal) for e in options}
        trace.decide("attacker", "which contacted edge sets the threat ("
                     + ", ".join(f"{e}: threat {t}" for e, t in threats.items()) + ")", "rwm.82.1.b1",
                     options=tuple(threats), field="attacker.contacted_edge")
        trace.step(f"Spend hits: the attacker touches {pos.defender.name or 'the defender'} with {len(options)} "
                   f"edges and must choose which one sets his threat "
                   f"({', '.join(f'{e} {t}' for e, t in threats.items())}); damage waits for that choice.",
                   "rwm.82.1.b1", "rwm.10.9")
        trace.begin()
        trace.step("Reconfigure: no tray is removed before that choice is made.", "rwm.10.10")
        out.threat_by_edge = threats
        return None
    else:
        base = explain_melee(formation, contact, trace)
    threat = out.threat = with_brutal(base, brutal)
    if brutal:
        trace.step(f"Brutal {brutal}: threat {base} + {brutal} = {threat} while attacking.", with_brutal,
                   *([keyword_value] if keyword_instances(att.brutal) > 1 else []))
    return threat


@rule("rwm.24.1", "rwm.23", "rwm.23.1", "rwm.22.1", "rwm.22.2", "rwm.22.3")
def _damage(pos: AttackPosition, threat: int, out: AttackOutcome, trace: Book, corpus: Corpus) -> int:
    """Step 9, Spend hits: hits × threat damage against the defense; return the defense."""
    dfd = pos.defender
    hits = pos.results.hit or 0
    damage = out.damage = damage_from_hits(hits, threat)
    trace.step(f"Damage: {plural(hits, 'hit')} × threat {threat} = {damage} damage.", damage_from_hits)
    mods = [dfd.defend_modifier or 0, *(dfd.defense_modifiers or [])]
    defense = out.defense = effective_defense(dfd.defense, mods, corpus)
    mod_text = "".join(f" {'+' if m >= 0 else '−'} {abs(m)}" for m in mods if m)
    floor = " (below 1, so it counts as 1)" if dfd.defense + sum(mods) < defense else ""
    if any(mods):
        trace.step(f"Defense: {dfd.defense}{mod_text} = {defense}{floor}; modifiers add up.", effective_defense,
                   "rwm.24.1", *(["rwm.23", "rwm.23.1"] if mods[0] else []))
    else:
        trace.step(f"Defense: {defense}{floor}, with no modifier.", "rwm.24.1", effective_defense)
    return defense


@rule("rwm.22.1", "rwm.22.2", "rwm.22.3")
def _damage_into_wounds(damage: int, defense: int, trace: Book) -> int:
    """Step 9 counted from ranks: each defense's worth of damage on a figure is a wound; return the wounds."""
    dmg_wounds, ignored = wounds_from_damage(damage, defense)
    trace.step(f"Damage into wounds: the attacker assigns the damage to figures of the backmost rank, one "
               f"figure at a time, each {defense} damage on a figure being 1 wound: {plural(dmg_wounds, 'wound')}"
               + (f"; the last {ignored} damage cannot wound a figure and is ignored." if ignored else "."),
               wounds_from_damage, "rwm.22.1", "rwm.22.2", "rwm.22.3")
    return dmg_wounds


@situation(GAME, "attack", AttackPosition, labels=LABELS)
@from_table  # a table position: derive contact, flanking, range, sight first
@summarized(_summary)
@rule("rwm.10", "rwm.10.12", "rwm.10.9")
def resolve_attack(pos: AttackPosition, trace: Trace, corpus: Corpus) -> AttackOutcome:
    """Resolve a melee or ranged attack: threat, dice, rerolls, damage, wounds, casualties and morale.

    The ruling's steps are the book's 11 (10.1-10.11), numbered alike: what the table showed, if anything, is
    said in step 2 (Choose target), where engagement, range and line of sight decide the target.
    """
    att, dfd = pos.attacker, pos.defender
    formation = Formation.of(att.ranks or [])
    out = AttackOutcome()
    table_steps = list(trace.steps)
    del trace.steps[:]
    book = Book(trace)
    book.step(f"{att.name or 'the attacker'} (formation {formation.describe()}) makes a {pos.attack_type} attack "
              f"against {dfd.name or 'the defender'}; the 11 steps of an attack resolve in order.", "rwm.10",
              "rwm.10.12")
    _profile(pos, book)
    book.begin()
    book.absorb(table_steps)
    _target(pos, book, corpus)
    panic_spent = _panic_tokens(pos, book)
    contact: Contact | None = None
    options: list[str] = []
    if pos.attack_type == "melee":
        contact, options = _contact(att, bool(att.flanking), book)
    if book.violations:
        book.begin()
        return out
    book.begin()
    if not _roll(pos, out, book, corpus):
        book.begin()
        return out
    for step in (_rerolls, _surges, _accuracy):
        book.begin()
        step(pos, formation, out, book, corpus)
    book.begin()
    ms_wounds = _mortal_strikes(pos, book, corpus)
    book.begin()
    book.step("Spend hits: each hit deals damage equal to the attacker's threat.", "rwm.10.9")
    threat = _threat(pos, formation, contact, options, out, book)
    hurt = None if threat is None else _wounds(pos, threat, ms_wounds, out, book, corpus)
    book.begin()
    _morale(out, pos, panic_spent, hurt, book, corpus)
    book.begin()
    return out


def _wounds(pos: AttackPosition, threat: int, ms_wounds: int, out: AttackOutcome, trace: Book,
            corpus: Corpus) -> Casualties | Placement:
    """Step 9 (damage and wounds) and step 10, Reconfigure: return what the defender lost."""
    dfd = pos.defender
    d_form = Formation.of(dfd.ranks) if dfd.ranks else None
    defense = _damage(pos, threat, out, trace, corpus)
    if dfd.trays is not None:
        return wounds_on_trays(pos, ms_wounds, out.damage or 0, defense, out, trace, corpus)
    dmg_wounds = _damage_into_wounds(out.damage or 0, defense, trace)
    threshold = dfd.wound_threshold or 1
    assignment = pos.attacker.wound_assignment
    count = spread_casualties if assignment == "spread" else casualties
    hurt = count(ms_wounds + dmg_wounds, threshold, d_form, dfd.figures_per_tray)
    _report(out, hurt, threshold, dfd.name or "the defender", d_form, trace, assignment)
    return hurt


@rule("rwm.92.2", "rwm.10.10")
def _report(out: AttackOutcome, hurt: Casualties, threshold: int, d_name: str, d_form: Formation | None,
            trace: Book, assignment: str | None = None) -> None:
    """Record the wounds, figures and trays lost (steps 9 and 10)."""
    out.wounds, out.figures_removed, out.trays_removed = hurt.wounds, hurt.figures_removed, hurt.trays_removed
    out.wound_tokens = hurt.wound_tokens
    lost = ""
    if hurt.wounds_ignored:
        lost = (f"; {plural(hurt.wounds_ignored, 'more wound')} "
                f"{'finds' if hurt.wounds_ignored == 1 else 'find'} no figure left and "
                f"{'is' if hurt.wounds_ignored == 1 else 'are'} lost")
    tokens = (f"; {plural(hurt.wound_tokens, 'wound token')} marks the figure left wounded"
              if hurt.wound_tokens else "")
    how = {"spread": " The attacker spreads the wounds over as many figures and trays as he can.",
           "concentrate": " The attacker finishes each figure and each tray before the next."}.get(assignment or "", "")
    trace.step(f"Wounds: {d_name} suffers {plural(hurt.wounds, 'wound')}; with wound threshold {threshold} "
               f"that removes {plural(hurt.figures_removed, 'figure')}{tokens}{lost}.{how}",
               spread_casualties if assignment == "spread" else casualties, "rwm.92.2")
    if hurt.trays_removed is None or hurt.ranks_after is None or d_form is None:
        trace.begin()
        trace.step("Reconfigure: every tray left with no figure is removed (which trays empty depends on "
                   "the defender's ranks and figures per tray, not stated here).", "rwm.10.10")
        return
    out.ranks_after = list(hurt.ranks_after)
    out.destroyed = hurt.destroyed
    _reconfigure(hurt, d_name, d_form, trace, assignment)


@rule("rwm.10.10", "rwm.92.6", "rwm.27", "rwm.22.4", "rwm.27.1", "rwm.27.2", "rwm.22.1", "rwm.22.2", "rwm.54.2")
def _reconfigure(hurt: Casualties, d_name: str, d_form: Formation, trace: Book, assignment: str | None) -> None:
    """Step 10, Reconfigure: empty trays are removed; a unit with no tray left is destroyed."""
    trace.begin()
    after = "-".join(str(r) for r in hurt.ranks_after or ()) or "none"
    trace.step(f"Reconfigure: {plural(hurt.trays_removed or 0, 'tray')} emptied and removed; formation "
               f"{d_form.describe()} becomes {after}.", "rwm.10.10", "rwm.92.6", "rwm.27")
    if d_form.depth == 1 and d_form.front >= 3 and hurt.figures_removed:
        trace.step("In a single rank, trays whose removal would split the unit in two cannot be assigned "
                   "damage first: the attacker works from an end tray.", "rwm.22.4")
    if hurt.destroyed:
        trace.step(f"{d_name} lost its last tray: it is destroyed, leaves play and its upgrade cards are "
                   f"discarded.", "rwm.27", "rwm.27.1", "rwm.27.2")
    if hurt.spreading_possible and assignment is None:
        fewer = (f" (spread out, as few as {plural(hurt.fewest_trays_removed or 0, 'tray')} would empty)"
                 if hurt.fewest_trays_removed is not None and hurt.fewest_trays_removed < (hurt.trays_removed or 0)
                 else "")
        trace.decide("attacker", "which figures of the backmost rank take the wounds: the counts assume he "
                     f"finishes each figure and each tray before the next{fewer}", "rwm.22.1", "rwm.22.2",
                     "rwm.54.2", options=("concentrate", "spread"), field="attacker.wound_assignment")


@rule("rwm.45.5", "rwm.12")
def resilient_keeps(banes: list[str], resilient: list[str]) -> tuple[list[str], list[str]]:
    """Return (banes received, banes not received): a Resilient unit never receives the banes it names."""
    return [b for b in banes if b not in resilient], [b for b in banes if b in resilient]


@rule("rwm.45.5", "rwm.12", "rwm.27.1")
def _banes(out: AttackOutcome, pos: AttackPosition, trace: Book) -> None:
    """The bane tokens the attack gives the defender, less those its Resilient keyword names."""
    given: list[str] = list(pos.attacker.banes_given or [])
    if not given:
        return
    d_name = pos.defender.name or "the defender"
    if out.destroyed:
        trace.step(f"{d_name} was destroyed, so it receives no bane token.", "rwm.27.1")
        out.banes_received = []
        return
    got, kept_off = resilient_keeps(list(given), [str(b) for b in pos.defender.resilient or []])
    out.banes_received = got
    words = ", ".join(BANE_WORDS[b].lower() for b in got) or "none"
    trace.step(f"Banes: {d_name} receives {plural(len(got), 'bane token')} ({words})"
               + (f"; Resilient keeps off the {', '.join(BANE_WORDS[b].lower() for b in kept_off)} token"
                  f"{'s' if len(kept_off) > 1 else ''}: it never receives that bane" if kept_off else "")
               + ".", resilient_keeps, "rwm.12")


@rule("rwm.10.11", "rwm.27.1", "rwm.53.2.b1", "rwm.53.1", "rwm.53.3")
def _morale(out: AttackOutcome, pos: AttackPosition, panic_spent: int, hurt: Casualties | Placement | None,
            trace: Book,
            corpus: Corpus) -> AttackOutcome:
    """Step 11, Resolve morale, and the morale tests of allies after shooting into a melee."""
    d_name = pos.defender.name or "the defender"
    morale = pos.results.morale or 0
    severity = attack_severity(morale, panic_spent, corpus)
    if hurt is not None and hurt.destroyed:
        out.morale_test_severity = 0
        trace.step(f"Resolve morale: {d_name} was destroyed, so no morale test is resolved.",
                   "rwm.10.11", "rwm.27.1")
    elif severity:
        out.morale_test_severity = severity
        trace.step(f"Resolve morale: {plural(morale, 'morale icon')} + "
                   f"{plural(panic_spent, 'panic token')} spent (panic tokens before any card is "
                   f"drawn): severity {severity}. The attacker draws {plural(severity, 'morale card')} "
                   f"and resolves 1 showing at most {severity} morale icons.",
                   attack_severity, "rwm.53.2.b1", "rwm.53.1", "rwm.53.3")
        card = pos.attacker.morale_card
        if card is None:
            trace.decide("attacker", f"which of the {plural(severity, 'morale card')} drawn to resolve "
                         f"(one showing at most {severity} morale icons)", "rwm.53.1", "rwm.53.3",
                         field="attacker.morale_card")
        else:
            out.morale_card = card
            trace.step(f"The attacker resolves the morale card {card}.", "rwm.53.1", "rwm.53.3")
    else:
        out.morale_test_severity = severity
        trace.step("Resolve morale: no morale icon and no panic token spent, so no morale test.", attack_severity)
    _banes(out, pos, trace)
    allies = list(pos.defender.engaged_with_allies or []) if pos.attack_type == "ranged" else []
    if allies:
        sev = shooting_into_melee_severity(corpus)
        out.allied_morale_tests = [AlliedTest(unit=a, severity=sev) for a in allies]
        trace.step(f"After the attack, each allied unit engaged with {d_name} suffers a severity-{sev} "
                   f"morale test: {', '.join(allies)}.", shooting_into_melee_severity)
    return out
