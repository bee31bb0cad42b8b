"""What a RuneWars Miniatures attack reads and what its ruling decides: the typed position and outcome.

The position is stated (ranks, engagement, range, line of sight) or laid out on a table (``units``), and the
outcome carries, for a table, what the table showed (:class:`TableProof` and its kinds). The rules that use
them are in :mod:`engine.runewars_miniatures.attack` (the steps of entry 10) and
:mod:`engine.runewars_miniatures.table_attack` (the facts measured from the table).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import model_validator

from engine.model import Field, Model, OpenPosition, Outcome, labelled, maybe, refuse
from engine.runewars_miniatures.common import (
    EdgeKind,
    Game,
    KeywordX,
    Name,
    Ranks,
    formation_words,
    plural,
)
from engine.runewars_miniatures.contact import CornerEdges
from engine.runewars_miniatures.table import Id, TableSizes, Terrains, Units, table_reading, unit_name


class TableProof(Outcome):
    """The units read from the table, and what the table shows about them."""

    attacker: str
    defender: str


class OverlapProof(TableProof):
    """An illegal table: pieces overlap."""

    overlaps: list[list[str]]


class MeleeProof(TableProof):
    """Engagement, the attacker's contacted edges and where the units touch, and flanking."""

    engaged: bool
    contacted_edges: list[str] | None = Field(None, exclude_if=lambda v: v is None)
    contact_points: list[list[float]] | None = Field(None, exclude_if=lambda v: v is None)
    flanking: bool = False
    flanked_by_defender: bool = False


class RangedProof(TableProof):
    """Engagement, firing arc, line of sight (a clear line and the blockers), range with its closest points."""

    engaged: bool
    in_firing_arc: bool
    line_of_sight: bool
    witness: list[list[float]] | None
    blockers: list[str]
    arc_degrees: float | None
    range: int | None
    distance: float
    closest: list[list[float]]
    band: float | None
    flanking: bool = False
    flanked_by_defender: bool = False


AnyProof = MeleeProof | RangedProof | OverlapProof | TableProof
"""What the table showed, by what was measured (the most specific proof first)."""


class TableRefusal(Outcome):
    """An attack the table makes illegal: the units read and the overlapping pieces, if any."""

    from_table: AnyProof
    overlaps: list[list[str]] | None = Field(None, exclude_if=lambda v: v is None)


AttackType = Annotated[Literal["melee", "ranged"],
                       Field(json_schema_extra=labelled({"melee": "Melee", "ranged": "Ranged"}))]
DieColour = Annotated[Literal["blue", "red"], Field(json_schema_extra=labelled({"blue": "Blue die", "red": "Red die"}))]
Count = Annotated[int, Field(ge=0, le=99)]
WOUND_WORDS = {"concentrate": "Finish each figure and tray first", "spread": "Spread the wounds out"}
WoundAssignment = Annotated[Literal["concentrate", "spread"], Field(json_schema_extra=labelled(WOUND_WORDS))]

BANE_WORDS = {"blight": "Blight", "immobilize": "Immobilize", "panic": "Panic", "stun": "Stun"}
Bane = Annotated[Literal["blight", "immobilize", "panic", "stun"], Field(json_schema_extra=labelled(BANE_WORDS))]


class Attacker(Model):
    """The attacking unit: its formation and contact, the facts of its target, and the choices it made."""

    name: Name | None = maybe()
    unit: Annotated[Id, Field(json_schema_extra={"x-table-role": "acting"})] | None = maybe(title="Unit on the table")
    ranks: Ranks | None = maybe()
    contacted_edge: EdgeKind | None = maybe()
    contacted_edges: Annotated[list[EdgeKind], Field(min_length=1, max_length=3)] | None = maybe()
    touching_partial_rank: bool | None = maybe()
    touching_other_trays: bool | None = maybe()
    brutal: KeywordX | None = maybe()
    precise: KeywordX | None = maybe()
    flanking: bool | None = maybe()
    flanking_die: DieColour | None = maybe()
    flanked_by_defender: bool | None = maybe()
    engaged: bool | None = maybe()
    range: int | None = maybe(ge=1, le=99)
    line_of_sight: bool | None = maybe()
    in_firing_arc: bool | None = maybe()
    profile: AttackType | None = maybe()
    dice: int | None = maybe(ge=0, le=30)
    dice_removed: int | None = maybe(ge=0, le=30)
    surge_abilities: Annotated[list[Name], Field(max_length=20)] | None = maybe()
    accuracy_assigned: Annotated[list[Name], Field(max_length=30)] | None = maybe()
    wound_assignment: WoundAssignment | None = maybe()
    morale_card: Name | None = maybe()
    banes_given: Annotated[list[Bane], Field(max_length=20)] | None = maybe(
        "The bane tokens the attacker's abilities or morale card give the defender in this attack, one entry per "
        "token. Absent: none.", title="Banes given")


class DefenderTray(Model):
    """One of the defender's trays as it stands on the table: where it is in the formation and what is on it."""

    rank: int = Field(ge=1, le=12, title="Rank", description="The tray's rank, counted from the front: 1 is the "
                      "front rank.")
    column: int = Field(ge=1, le=12, title="Place in its rank", description="The file the tray stands in, "
                        "counted from the left as the defender faces, every rank's trays lined up behind the front "
                        "rank's: 1 is the leftmost file.")
    figures: int = Field(ge=0, le=12, title="Ordinary figures", description="The unit's ordinary figures in this "
                         "tray now (a figure upgrade slotted here is not counted).")
    wounds: int = Field(0, ge=0, le=19, title="Wounds already on a figure", description="Wound tokens already "
                        "beside one ordinary figure of this tray from earlier damage, fewer than the wound "
                        "threshold; 0 or absent: no figure here is wounded.")


class FigureUpgrade(Model):
    """A figure upgrade the defender has equipped: its own figure in a front-rank tray, with its own defense."""

    name: Name = Field(title="Upgrade card", description="The figure upgrade card's name, as the attacker names "
                       "it when assigning accuracy.")
    column: int = Field(ge=1, le=12, title="Front-rank tray", description="The front-rank tray its figure is "
                        "slotted in, counted from the left as the defender faces (1 is the leftmost).")
    defense: int = Field(ge=0, le=20, title="Its defense", description="The defense printed on the upgrade card "
                         "(the shield at its top left), used instead of the unit's.")
    wound_threshold: int = Field(ge=1, le=20, title="Its wound threshold", description="The wound threshold "
                                 "printed on the upgrade card, used instead of the unit's.")
    wounds: int = Field(0, ge=0, le=19, title="Wounds already on it", description="Wound tokens already beside "
                        "this figure, fewer than its wound threshold; 0 or absent: unwounded.")


class Defender(Model):
    """The defending unit: defense and its modifiers, wounds, formation, panic tokens and engaged allies."""

    name: Name | None = maybe()
    unit: Annotated[Id, Field(json_schema_extra={"x-table-role": "target"})] | None = maybe(title="Unit on the table")
    defense: int = Field(ge=0, le=20)
    defend_modifier: int | None = maybe(ge=0, le=20)
    defense_modifiers: Annotated[list[Annotated[int, Field(ge=-20, le=20)]], Field(max_length=20)] | None = maybe()
    wound_threshold: int | None = maybe(ge=1, le=20)
    ranks: Ranks | None = maybe()
    figures_per_tray: int | None = maybe(ge=1, le=12)
    figure_upgrades: int | None = maybe(ge=0, le=12)
    panic_tokens: Count | None = maybe()
    engaged_with_allies: Annotated[list[Name], Field(max_length=20)] | None = maybe()
    trays: Annotated[list[DefenderTray], Field(min_length=1, max_length=40)] | None = maybe(
        "Every tray of the defender with the figures and wounds on it; given, the wounds are placed tray by "
        "tray (backmost rank first, never splitting the unit) instead of counted from ranks and figures per tray. "
        "Absent: the count uses ranks and figures per tray.", title="Trays on the table")
    upgrades: Annotated[list[FigureUpgrade], Field(max_length=12)] | None = maybe(
        "The defender's figure upgrades, each with its own defense and wound threshold (needs the trays). "
        "Absent: none, or not placed.", title="Figure upgrades with their figures")
    regenerate: KeywordX | None = maybe("The defender's Regenerate X: at the end of the Activation Phase it "
                                        "slots up to X new figures into empty slots. Absent: no Regenerate.")
    resilient: Annotated[list[Bane], Field(max_length=4)] | None = maybe(
        "The banes the defender's Resilient keyword names: it never receives them. Absent: none.",
        title="Resilient")

    @model_validator(mode="after")
    def _trays_readable(self) -> Defender:
        threshold = self.wound_threshold or 1
        seen: set[tuple[int, int]] = set()
        for i, tray in enumerate(self.trays or []):
            if (tray.rank, tray.column) in seen:
                raise refuse(f"two trays stand at rank {tray.rank}, place {tray.column}", f"trays[{i}].column")
            seen.add((tray.rank, tray.column))
            if tray.wounds and (tray.wounds >= threshold or not tray.figures):
                raise refuse(f"{tray.wounds} wounds on a figure of a tray with {tray.figures} figures and wound "
                             f"threshold {threshold}: a figure holds fewer wounds than its threshold",
                             f"trays[{i}].wounds")
            if self.figures_per_tray is not None and tray.figures > self.figures_per_tray:
                raise refuse(f"{tray.figures} figures in a tray that holds {self.figures_per_tray}",
                             f"trays[{i}].figures")
        fronts = {c for r, c in seen if r == 1}
        for i, up in enumerate(self.upgrades or []):
            if self.trays is None:
                raise refuse("figure upgrades are placed on the defender's trays: state the trays", "trays")
            if up.column not in fronts:
                raise refuse(f"no front-rank tray at place {up.column} for {up.name}", f"upgrades[{i}].column")
            if up.wounds >= up.wound_threshold:
                raise refuse(f"{up.wounds} wounds on {up.name}, whose wound threshold is {up.wound_threshold}",
                             f"upgrades[{i}].wounds")
        return self


class Results(Model):
    """The final dice results, by icon."""

    hit: Count | None = maybe()
    mortal_strike: Count | None = maybe()
    accuracy: Count | None = maybe()
    morale: Count | None = maybe()
    surge: Count | None = maybe()


class AttackPosition(OpenPosition):
    """A melee or ranged attack, either with its facts stated or read from the table.

    Stated: ``attacker.ranks`` (and ``attacker.range`` for a ranged attack) with the contact, flanking, range and
    sight facts. On the table: ``table``, ``units`` (and ``terrain``) with ``attacker.unit`` and
    ``defender.unit`` naming the two units; those facts are then measured.
    """

    game: Game
    situation: Literal["attack"]
    attack_type: AttackType
    attacker: Attacker
    defender: Defender
    results: Results
    panic_tokens_spent: Count | None = maybe()
    table: TableSizes | None = maybe()
    units: Units | None = maybe()
    terrain: Terrains | None = maybe()
    corner_edges: CornerEdges | None = maybe()


    def reading(self) -> list[str]:
        """Return the attack in a player's words: the two units with what counts, the dice and the choices."""
        return attack_reading(self)
    @model_validator(mode="after")
    def _stated_or_on_the_table(self) -> AttackPosition:
        if self.units is None:
            if self.attacker.ranks is None:
                raise refuse("missing field 'ranks'", "attacker.ranks")
            if self.attack_type == "ranged" and self.attacker.range is None:
                raise refuse("missing field 'range'", "attacker.range")
            return self
        ids = {u.id for u in self.units}
        for role, uid in (("attacker", self.attacker.unit), ("defender", self.defender.unit)):
            if uid is None:
                raise refuse("missing field 'unit'", f"{role}.unit")
            if uid not in ids:
                raise refuse(f"{uid!r} names no unit of the position", f"{role}.unit")
        if self.attacker.unit == self.defender.unit:
            raise refuse("the attacker and the defender must be different units", "defender.unit")
        return self


class Rerolls(Model):
    """Rerolls of step 4: one per full rank behind the front (and Precise), and the partial rank's dice."""

    full_rank: int
    partial_rank: int


class AlliedTest(Model):
    """A morale test an allied unit engaged with the target suffers after a shot into the melee."""

    unit: str
    severity: int


class TrayLeft(Model):
    """A tray of the defender after the attack: the figures and wounds left on it."""

    rank: int
    column: int
    figures: int
    wounds: int
    upgrades: list[str]


def _absent(v: object) -> bool:
    return v is None


class AttackOutcome(Outcome):
    """Threat, dice, rerolls, damage against defense, wounds and casualties, and the morale test."""

    threat: int | None = None
    extra_dice: int | None = None
    rerolls: Rerolls | None = None
    damage: int | None = None
    defense: int | None = None
    wounds: int | None = None
    figures_removed: int | None = None
    trays_removed: int | None = None
    morale_test_severity: int | None = None
    destroyed: bool | None = None
    canceled: bool = False
    dice: int | None = Field(None, exclude_if=_absent)
    wound_tokens: int | None = Field(None, exclude_if=_absent)
    ranks_after: list[int] | None = Field(None, exclude_if=_absent)
    threat_by_edge: dict[str, int] | None = Field(None, exclude_if=_absent)
    allied_morale_tests: list[AlliedTest] | None = Field(None, exclude_if=_absent)
    morale_card: str | None = Field(None, exclude_if=_absent)
    from_table: AnyProof | None = Field(None, exclude_if=_absent)
    upgrades_removed: list[str] | None = Field(None, exclude_if=_absent)
    accuracy_spent: int | None = Field(None, exclude_if=_absent)
    trays_left: list[TrayLeft] | None = Field(None, exclude_if=_absent)
    banes_received: list[str] | None = Field(None, exclude_if=_absent)



def _keyword(name: str, raw: int | list[int] | None) -> str:
    if raw is None or raw == 0 or raw == []:
        return ""
    total = raw if isinstance(raw, int) else sum(raw)
    return f"{name} {total}"


def _army(pos: AttackPosition, uid: str | None) -> str:
    """Return " (Daqan)": the army of a unit on the table ("" for a stated attack)."""
    player = next((u.player for u in pos.units or [] if u.id == uid), None)
    return f" ({player})" if player else ""


def _attacker_words(pos: AttackPosition, names: dict[str, str]) -> str:
    att = pos.attacker
    name = names.get(att.unit or "", "") if pos.units is not None else ""
    name = name or att.name or "the attacker"
    name += _army(pos, att.unit)
    parts = [f"{pos.attack_type} attack"]
    if pos.units is None:
        parts.insert(0, formation_words(att.ranks or []))
        if pos.attack_type == "melee":
            edge = att.contacted_edge or (" and ".join(att.contacted_edges) if att.contacted_edges else None)
            parts.append(f"touching with its {edge or 'front'} edge" + (", flanking" if att.flanking else "")
                         + (", flanked by the defender" if att.flanked_by_defender else ""))
            if att.engaged is False:
                parts.append("not engaged with the defender")
        else:
            parts.append(f"at range {att.range}")
            parts += [w for w, on in (("engaged", att.engaged), ("no line of sight", att.line_of_sight is False),
                                      ("target outside its firing arc", att.in_firing_arc is False)) if on]
    parts += [k for k in (_keyword("Brutal", att.brutal), _keyword("Precise", att.precise)) if k]
    if att.dice is not None:
        parts.append(f"{att.dice} dice in its profile")
    return f"Attacker: {name}, " + ", ".join(parts) + "."


def _defender_words(pos: AttackPosition, names: dict[str, str]) -> str:
    dfd = pos.defender
    name = names.get(dfd.unit or "", "") if pos.units is not None else ""
    name = name or dfd.name or "the defender"
    name += _army(pos, dfd.unit)
    parts = [] if pos.units is not None or not dfd.ranks else [formation_words(dfd.ranks)]
    if dfd.figures_per_tray is not None:
        parts.append(plural(dfd.figures_per_tray, "figure") + " per tray")
    parts.append(f"defense {dfd.defense}")
    mods = [m for m in [dfd.defend_modifier or 0, *(dfd.defense_modifiers or [])] if m]
    if mods:
        parts.append("modifiers " + ", ".join(f"{m:+d}" for m in mods))
    parts.append(f"wound threshold {dfd.wound_threshold or 1}")
    if dfd.figure_upgrades and not dfd.upgrades:
        parts.append(plural(dfd.figure_upgrades, "figure upgrade"))
    for t in dfd.trays or []:
        parts.append(f"tray at rank {t.rank} place {t.column} with {plural(t.figures, 'figure')}"
                     + (f" ({plural(t.wounds, 'wound')} on one)" if t.wounds else ""))
    for u in dfd.upgrades or []:
        parts.append(f"figure upgrade {u.name} in the front-rank tray at place {u.column} (defense {u.defense}, "
                     f"wound threshold {u.wound_threshold}" + (f", {plural(u.wounds, 'wound')}" if u.wounds else "")
                     + ")")
    if _keyword("Regenerate", dfd.regenerate):
        parts.append(_keyword("Regenerate", dfd.regenerate))
    if dfd.resilient:
        parts.append("Resilient to " + ", ".join(BANE_WORDS[b].lower() for b in dfd.resilient))
    if dfd.panic_tokens:
        parts.append(plural(dfd.panic_tokens, "panic token"))
    if dfd.engaged_with_allies:
        parts.append("engaged with " + ", ".join(dfd.engaged_with_allies))
    return f"Defender: {name}, " + ", ".join(parts) + "."


def attack_reading(pos: AttackPosition) -> list[str]:
    """Return an attack in a player's words (CONTRACT 0.3 ``reading``)."""
    names = {u.id: unit_name(u, i) for i, u in enumerate(pos.units or [])}
    out = [_attacker_words(pos, names), _defender_words(pos, names)]
    res = pos.results
    rolled = [plural(n, word) for n, word in ((res.hit, "hit"), (res.mortal_strike, "mortal strike"),
                                              (res.accuracy, "accuracy icon"), (res.morale, "morale icon"),
                                              (res.surge, "surge")) if n]
    out.append(f"Rolled: {', '.join(rolled)}." if rolled else "Rolled: no icon.")
    att = pos.attacker
    chosen = [f"{plural(pos.panic_tokens_spent, 'panic token')} spent" if pos.panic_tokens_spent else "",
              f"flanking die {att.flanking_die}" if att.flanking_die else "",
              f"surge abilities {', '.join(att.surge_abilities)}" if att.surge_abilities else "",
              f"accuracy on {', '.join(att.accuracy_assigned)}" if att.accuracy_assigned else "",
              WOUND_WORDS[att.wound_assignment].lower() if att.wound_assignment else "",
              f"morale card {att.morale_card}" if att.morale_card else "",
              "banes given " + ", ".join(BANE_WORDS[b].lower() for b in att.banes_given) if att.banes_given else ""]
    if any(chosen):
        out.append("Chosen: " + "; ".join(c for c in chosen if c) + ".")
    if pos.units is not None:
        ranged = pos.attack_type == "ranged"
        out += table_reading(pos.table, pos.units, pos.terrain, band=ranged, arc=ranged)
    return out


__all__ = ["AlliedTest", "AnyProof", "AttackOutcome", "AttackPosition", "AttackType", "Attacker", "Count", "Defender",
           "MeleeProof", "OverlapProof", "RangedProof", "Rerolls", "Results", "TableProof", "TableRefusal", "TrayLeft",
           "attack_reading"]
