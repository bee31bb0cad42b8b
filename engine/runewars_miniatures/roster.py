"""Import a RuneWars Miniatures army list a player built in BattleScribe or New Recruit, and check it.

The roster (``.ros``, ``.rosz`` or New Recruit's JSON export, read safely by
:mod:`engine.files.battlescribe`) becomes an ``army`` position:

* the **faction** is the force's catalogue's ("Daqan Lords" -> daqan); the **points limit** is the roster's
  ``costLimit`` named Points (none, or -1: the standard limit applies);
* each selection of type ``unit`` (or ``model``) at the top of a force is a **unit**: its configuration is the
  child selection whose name reads as trays ("2x3  Trays" = 6 trays), its cost the unit's own Points plus the
  configuration's, its unit type the category named Infantry, Cavalry or Siege, unique when it holds the
  "Unique Unit" selection (a zero-cost marker, not an upgrade card);
* every other child selection is an **upgrade card**, at its own Points plus its children's; a unit-type
  icon stated in its name ("(Infantry Upgrade)") is read;
* a **character's army rule** is a rule of the unit selection whose name says "army" (its description is
  the rule's text; the players judge it).

A roster states costs but not upgrade icons, the icons a configuration shows, nor a card's faction icon:
without data files each of those is a decision in the ruling or a named missing field (``import.missing``),
never a guess. With the player's BattleScribe data files (:mod:`engine.runewars_miniatures.catalogue`),
every selection is read from the catalogue entry its ``entryId`` names (the last id of a ``a::b`` chain):
configuration trays and cost, upgrade icons and slots, faction, unit type, uniqueness. A roster whose
stated costs or trays differ from those entries breaks the costing table, and the army's points are the
catalogue's (the list's true cost).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core import Resolution, Trace, find_situation
from engine.corpus import Corpus, get_corpus
from engine.errors import UnreadableInputError
from engine.files.battlescribe import Document, Node, read_roster
from engine.model import Outcome
from engine.runewars_miniatures.catalogue import (
    UNIT_TYPES,
    Catalogue,
    Entry,
    faction_of,
    load,
    points,
    trays_of,
    unit_type_in_name,
)
from engine.runewars_miniatures.common import GAME, plural

COSTING = "rwm.army-building.costing"
UNITS = "rwm.army-building.units"
UPGRADES = "rwm.army-building.upgrades"
FORMATS = {"battlescribe-xml": "BattleScribe roster (.ros)", "battlescribe-zip": "BattleScribe roster (.rosz)",
           "newrecruit-json": "New Recruit roster (JSON export)"}


@dataclass
class Imported:
    """An army position read from a roster, with what the reading says and what the roster left unstated."""

    position: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    missing: list[dict[str, str]] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (message, cited paragraph)
    source: dict[str, Any] = field(default_factory=dict)

    def lack(self, path: str, why: str) -> None:
        """Name a field the roster does not state."""
        self.missing.append({"path": path, "why": why})


def _whole(value: float | None, what: str, path: str) -> int:
    if value is None:
        return 0
    if value != int(value):
        raise UnreadableInputError(f"{what} costs {value:g} points, not a whole number", path=path)
    return int(value)


def _cost(sel: Node) -> float:
    """The Points of a selection and of every selection inside it."""
    return sum(points(node) or 0.0 for node, _ in sel.walk() if node.tag == "selection")


def _entry_id(sel: Node) -> str:
    return sel.get("entryId").split("::")[-1].strip()


def _children(sel: Node) -> list[Node]:
    return sel.items("selections", "selection")


def _army_rules(sel: Node) -> str | None:
    texts = []
    for rule in sel.items("rules", "rule"):
        if "army" in rule.get("name").casefold():
            box = rule.child("description")
            text = " ".join((box.text if box is not None else rule.text).split())
            texts.append(text or rule.get("name").strip())
    joined = " ".join(texts)
    return joined[:1000] if joined else None


def _unit_type(sel: Node) -> str | None:
    names = [(c.get("name").strip().casefold(), c.get("primary") == "true") for c in sel.items("categories",
                                                                                                  "category")]
    found = sorted((not primary, name) for name, primary in names if name in UNIT_TYPES)
    return found[0][1] if found else None


@dataclass
class _Reader:
    """Reads one roster into an :class:`Imported`, against a catalogue when one is given."""

    doc: Document
    catalogue: Catalogue | None
    out: Imported = field(default_factory=lambda: Imported({}))

    def problem(self, message: str, cite: str) -> None:
        self.out.problems.append((message, cite))

    def card(self, sel: Node, at: str, where: str) -> dict[str, Any]:
        name = " ".join(sel.get("name").split())
        stated = _whole(_cost(sel), name, where)
        card: dict[str, Any] = {"name": name, "cost": stated}
        kind = unit_type_in_name(name)
        if kind:
            card["unit_type"] = kind
        entry = self.catalogue.entries.get(_entry_id(sel)) if self.catalogue else None
        if self.catalogue is not None and entry is None:
            self.problem(f"the upgrade {name} (entry {_entry_id(sel) or 'not given'}) is not in the BattleScribe "
                         "data given", UPGRADES)
        if entry is None:
            self.out.lack(f"{at}.icon", f"{name}: a roster does not state an upgrade card's icon")
            return card
        true = _whole(entry.cost, name, where)
        if true != stated:
            self.problem(f"the roster prices {name} at {plural(stated, 'point')} but its card costs {true}", UPGRADES)
        card["cost"] = true
        if entry.icon:
            card["icon"] = entry.icon
        else:
            self.out.lack(f"{at}.icon", f"{name}: no upgrade group of the data files names its icon")
        if entry.faction:
            card["faction"] = entry.faction
        if entry.unit_type or kind:
            card["unit_type"] = entry.unit_type or kind
        if entry.unique:
            card["unique"] = True
        return card

    def configuration(self, unit: dict[str, Any], sel: Node, confs: list[Node], entry: Entry | None,
                      at: str, where: str) -> None:
        own = _whole(points(sel), unit["name"], where)
        conf = confs[0] if confs else None
        stated_trays = trays_of(conf.get("name")) if conf is not None else None
        stated = own + (_whole(_cost(conf), unit["name"], where) if conf is not None else 0)
        config: dict[str, Any] = {"trays": stated_trays or 1, "cost": stated}
        unit["configuration"] = config
        if conf is None:
            self.out.notes.append(f"The roster names no tray configuration for {unit['name']}: read as 1 tray "
                                  "(a unit whose card offers one configuration).")
        if entry is None or self.catalogue is None:
            self.out.lack(f"{at}.configuration.upgrade_icons",
                          f"{unit['name']}: a roster does not state the upgrade icons of a configuration")
            return
        table = self.catalogue.configurations(entry)
        row = table.get(_entry_id(conf)) if conf is not None else None
        if conf is not None and row is None:
            self.problem(f"{unit['name']} is bought as {' '.join(conf.get('name').split())!r}, which is not a row "
                         f"of its costing table", COSTING)
        elif conf is None and table:
            self.problem(f"{unit['name']} names no configuration; its costing table has {len(table)}", COSTING)
        true = _whole(entry.cost, unit["name"], where) + (_whole(row.cost, unit["name"], where) if row else 0)
        if row is not None and row.trays and stated_trays and row.trays != stated_trays:
            self.problem(f"the roster gives {unit['name']} {plural(stated_trays, 'tray')} but the configuration it "
                         f"names ({' '.join(row.name.split())}) has {row.trays}", COSTING)
        if true != stated and (row is not None or not table):
            self.problem(f"the roster prices {unit['name']} at {plural(stated, 'point')} but its configuration "
                         f"costs {true}", COSTING)
        config["cost"] = true
        if row is not None and row.trays:
            config["trays"] = row.trays
        icons = row.icons if row is not None else (self.catalogue.fixed_icons(entry) if not table else None)
        if icons is None:
            self.out.lack(f"{at}.configuration.upgrade_icons",
                          f"{unit['name']}: the data files do not say plainly which icons this configuration shows")
        else:
            config["upgrade_icons"] = list(icons)

    def unit(self, sel: Node, at: str, where: str, faction: str | None) -> dict[str, Any]:
        name = " ".join(sel.get("name").split())
        if sel.get("number", "1") not in ("1", "1.0", ""):
            raise UnreadableInputError(f"the unit selection {name!r} counts {sel.get('number')}; list each unit "
                                       "on its own", path=where)
        entry = self.catalogue.entries.get(_entry_id(sel)) if self.catalogue else None
        if self.catalogue is not None and (entry is None or entry.type not in ("unit", "model")):
            self.problem(f"the unit {name} (entry {_entry_id(sel) or 'not given'}) is not a unit of the "
                         "BattleScribe data given", UNITS)
            entry = None
        kids = _children(sel)
        confs = [k for k in kids if trays_of(k.get("name")) is not None]
        if len(confs) > 1:
            raise UnreadableInputError(f"{name} holds {len(confs)} configurations "
                                       f"({', '.join(c.get('name') for c in confs)}); a unit is bought in one",
                                       path=where)
        marker = [k for k in kids if k.get("name").strip().casefold() == "unique unit"]
        unit: dict[str, Any] = {"name": name}
        unit_faction = entry.faction if entry and entry.faction else faction
        if unit_faction:
            unit["faction"] = unit_faction
        kind = (entry.unit_type if entry else None) or _unit_type(sel)
        if kind:
            unit["type"] = kind
        else:
            self.out.lack(f"{at}.type", f"{name}: no Infantry, Cavalry or Siege category")
        if marker or (entry is not None and entry.unique):
            unit["unique"] = True
        self.configuration(unit, sel, confs, entry, at, where)
        cards = [k for k in kids if k not in confs and k not in marker]
        unit["upgrades"] = [self.card(k, f"{at}.upgrades[{j}]", f"{where}.selections[{kids.index(k)}]")
                            for j, k in enumerate(cards)]
        rules = _army_rules(sel)
        if rules:
            unit["army_rules"] = rules
        return unit

    def force_faction(self, force: Node, where: str) -> str | None:
        name = force.get("catalogueName")
        if self.catalogue is not None and force.get("catalogueId") in self.catalogue.catalogue_names:
            name = self.catalogue.catalogue_names[force.get("catalogueId")]
        faction = faction_of(name)
        if faction is None:
            self.out.lack(f"{where}.catalogueName", f"the catalogue {name!r} names no faction this engine knows")
        return faction

    def read(self) -> Imported:
        root = self.doc.root
        forces = root.items("forces", "force")
        if not forces:
            raise UnreadableInputError(f"{self.doc.name}: the roster has no force", path="roster.forces")
        units: list[dict[str, Any]] = []
        factions: list[str] = []
        for i, force in enumerate(forces):
            faction = self.force_faction(force, f"roster.forces[{i}]")
            factions += [faction] if faction else []
            for j, sel in enumerate(force.items("selections", "selection")):
                where = f"roster.forces[{i}].selections[{j}]"
                if sel.get("type") not in ("unit", "model"):
                    self.out.notes.append(f"The roster's {sel.get('type') or 'untyped'} selection "
                                          f"{sel.get('name').strip()!r} outside a unit is not read.")
                    continue
                units.append(self.unit(sel, f"units[{len(units)}]", where, faction))
        position: dict[str, Any] = {"game": GAME, "situation": "army"}
        limit = self.limit(root)
        if limit is not None:
            position["points_limit"] = limit
        if factions:
            position["faction"] = factions[0]
        position["units"] = units
        self.out.position = position
        self.describe(forces, units)
        return self.out

    def limit(self, root: Node) -> int | None:
        for cap in root.items("costLimits", "costLimit"):
            if cap.get("name").strip().casefold() in ("points", "pts"):
                try:
                    value = float(cap.get("value"))
                except ValueError:
                    raise UnreadableInputError(f"the roster's points limit {cap.get('value')!r} is not a number",
                                               path="roster.costLimits") from None
                if value > 0:
                    return int(value)
        self.out.notes.append("The roster sets no points limit: the standard limit applies.")
        return None

    def describe(self, forces: Sequence[Node], units: list[dict[str, Any]]) -> None:
        root = self.doc.root
        cards = sum(len(u["upgrades"]) for u in units)
        force_names = ", ".join(f"{f.get('name').strip() or 'force'} ({f.get('catalogueName').strip()})"
                                for f in forces)
        self.out.notes.insert(0, f"Read {FORMATS[self.doc.format]} {root.get('name').strip()!r} "
                                 f"({self.doc.name}), game system {root.get('gameSystemName').strip() or 'unnamed'}: "
                                 f"{force_names}; {plural(len(units), 'unit')} and "
                                 f"{plural(cards, 'upgrade card')}.")
        stated = points(root)
        summed = sum(u["configuration"]["cost"] + sum(c["cost"] for c in u["upgrades"]) for u in units)
        if self.catalogue is None:
            self.out.notes.insert(1, "Costs and trays are the roster's own: no BattleScribe data files were given, "
                                     "so a hand-edited cost is not caught. A roster does not state upgrade icons, the "
                                     "icons a configuration shows or a card's faction icon: icons are asked, faction "
                                     "icons of cards are not checked.")
            if stated is not None and int(stated) != summed:
                self.out.notes.append(f"The roster's own total ({stated:g} points) differs from the sum of its "
                                      f"selections ({summed}).")
        else:
            cat = self.catalogue
            self.out.notes.insert(1, f"Checked against the BattleScribe data files {', '.join(cat.files)}: each "
                                     "configuration, cost, upgrade icon and faction is the catalogue entry's that "
                                     "the roster's entryId names.")
        if self.out.missing:
            self.out.notes.append(f"Not stated in the roster, left to the players: "
                                  f"{plural(len(self.out.missing), 'field')} (listed under import.missing).")


def _check_system(doc: Document, catalogue: Catalogue | None) -> None:
    system = doc.root.get("gameSystemName")
    if "runewars" not in system.casefold().replace(" ", ""):
        raise UnreadableInputError(f"{doc.name}: the roster is for the game system {system.strip()!r}, not "
                                   "RuneWars Miniatures", path="roster.gameSystemName")
    if catalogue is not None and catalogue.game_system_id and doc.root.get("gameSystemId") not in (
            "", catalogue.game_system_id):
        raise UnreadableInputError(f"{doc.name}: the roster's game system id {doc.root.get('gameSystemId')!r} is "
                                   f"not the data files' ({catalogue.game_system_id!r})", path="data")


def read(data: bytes, name: str, data_dir: str | Path | None = None) -> Imported:
    """Return the army position of a roster file's bytes (checked against *data_dir*'s catalogue if given)."""
    return from_document(read_roster(data, name), data_dir)


def from_document(doc: Document, data_dir: str | Path | None = None) -> Imported:
    """Return the army position of a roster already read (checked against *data_dir*'s catalogue if given)."""
    name = doc.name
    catalogue = load(data_dir) if data_dir else None
    _check_system(doc, catalogue)
    out = _Reader(doc, catalogue).read()
    out.source = {"format": doc.format, "file": name, "roster": doc.root.get("name"),
                  "game_system": doc.root.get("gameSystemName"),
                  "data": {"folder": catalogue.folder, "files": catalogue.files} if catalogue else None}
    return out


def rule_on(imported: Imported, corpus: Corpus | None = None) -> Resolution:
    """Return the ruling on an imported army: the catalogue's findings first, then every army-building rule."""
    sit = find_situation(imported.position)
    pos = sit.read(imported.position)
    corpus = corpus or get_corpus()
    trace = Trace()
    for message, cite in imported.problems:
        trace.violate(message, cite)
    outcome = sit.resolver(pos, trace, corpus)
    if isinstance(outcome, Outcome):
        outcome = outcome.to_json()
    return Resolution.from_trace(sit.game, sit.name, outcome, trace, corpus, [*imported.notes, *pos.reading()])


def import_roster(data: bytes, name: str, data_dir: str | Path | None = None,
                  corpus: Corpus | None = None) -> dict[str, Any]:
    """Return ``{"position", "ruling", "import"}`` for a roster file: the position, its ruling and what was read."""
    imported = read(data, name, data_dir)
    ruling = rule_on(imported, corpus)
    return {"position": imported.position, "ruling": ruling.to_json(),
            "import": {**imported.source, "missing": imported.missing}}


_SAFE_NAME = re.compile(r"[^\w.\- ]+")


def shown_name(filename: str | None) -> str:
    """Return an uploaded file's name as safe to show (no path, no control characters, at most 80 characters)."""
    base = (filename or "roster").replace("\\", "/").rsplit("/", 1)[-1]
    return _SAFE_NAME.sub("_", base)[:80] or "roster"


__all__ = ["Imported", "from_document", "import_roster", "read", "rule_on", "shown_name"]
