"""The BattleScribe data files a player already has (``.gst``/``.cat``, or ``.gstz``/``.catz``), read for
checking a RuneWars Miniatures roster against them. We ship no catalogue data: the folder is the player's.

What is read, and how (BattleScribe's catalogue schema, as the community's RuneWars files use it):

* an **entry** is any ``selectionEntry`` (top level, shared, or inside a group), found by its ``id``; its
  cost is the cost named ``Points`` (the game system names it ``" Points"``, leading space and all);
* a **unit** is an entry of type ``unit`` or ``model``; its faction is its catalogue's (the catalogue's name
  says it: "Daqan Lords" -> daqan); its unit type is the category it links to named Infantry, Cavalry or
  Siege; it is unique when it holds or links to the "Unique Unit" entry;
* a unit's **configurations** are the entries of its own groups whose names read as trays
  ("2x3  Trays" = 6 trays, "1 Tray" = 1);
* an **upgrade card**'s icon is the name of the group it sits in ("Heavy", "Music - Daqan", "Champions":
  the words before " - ", singular); the faction after " - " is its faction icon ("Common" or "Neutral":
  none; in no such group, a card of a faction catalogue bears that faction, one of the game system none);
  its unit-type icon is in its name ("(Infantry Upgrade)") or in a "set hidden" modifier on a unit-type
  category; it is unique when a constraint allows at most 1 in the roster;
* a configuration's **upgrade icons** come from the icon groups the unit holds or links to: a group counts
  for a configuration when it is not hidden there, after its "set hidden" modifiers whose conditions name
  the unit's configurations, and shows as many icons as its ``max`` selections constraint. A condition on
  anything else, or a group with no ``max``, leaves that configuration's icons unknown (the ruling asks).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import UnreadableInputError
from engine.files.battlescribe import MAX_DATA_FILE, Node, read_data_file

MAX_DATA_FILES = 64
SUFFIXES = (".gst", ".gstz", ".cat", ".catz")
UNIT_TYPES = ("infantry", "cavalry", "siege")
ICONS = ("artifact", "champion", "equipment", "heavy", "heraldry", "music", "training", "unique")

FACTION_WORDS = (("daqan", "daqan"), ("latari", "elves"), ("elves", "elves"), ("elf", "elves"),
                 ("uthuk", "uthuk"), ("waiqar", "waiqar"))
"""Words in a catalogue's (or force's) name and the faction they name."""

_TRAYS = re.compile(r"^\s*(\d{1,2})\s*[x×]\s*(\d{1,2})\s+trays?\s*$", re.IGNORECASE)
_TRAY_COUNT = re.compile(r"^\s*(\d{1,2})\s+trays?\s*$", re.IGNORECASE)
_TYPE_IN_NAME = re.compile(r"\((infantry|cavalry|siege)\s+upgrade\)\s*$", re.IGNORECASE)


def faction_of(name: str) -> str | None:
    """Return the faction a catalogue or force name says (``"Daqan Lords"`` -> ``daqan``), or ``None``."""
    low = name.casefold()
    return next((faction for word, faction in FACTION_WORDS if word in low), None)


def trays_of(name: str) -> int | None:
    """Return the trays a configuration's name says (``"2x3  Trays"`` -> 6, ``"1 Tray"`` -> 1), or ``None``."""
    grid = _TRAYS.match(name)
    if grid:
        return int(grid.group(1)) * int(grid.group(2))
    count = _TRAY_COUNT.match(name)
    return int(count.group(1)) if count else None


def icon_of(group_name: str) -> str | None:
    """Return the upgrade icon a group's name says (``"Music - Daqan"`` -> ``music``, ``"Champions"``)."""
    word = group_name.split(" - ", 1)[0].strip().casefold()
    if word.endswith("s") and word[:-1] in ICONS:
        word = word[:-1]
    return word if word in ICONS else None


def unit_type_in_name(name: str) -> str | None:
    """Return the unit type an upgrade card's name states (``"Lord Hawthorne (Infantry Upgrade)"``)."""
    found = _TYPE_IN_NAME.search(name)
    return found.group(1).lower() if found else None


def points(node: Node) -> float | None:
    """Return the ``Points`` cost of an entry or selection (``None`` when it states no such cost)."""
    for cost in node.items("costs", "cost"):
        if cost.get("name").strip().casefold() in ("points", "pts"):
            try:
                value = float(cost.get("value"))
            except ValueError:
                return None
            return value if value == value and abs(value) < 1e6 else None
    return None


@dataclass(frozen=True)
class Entry:
    """A selection entry of the data files: what a roster's ``entryId`` names."""

    id: str
    name: str
    type: str
    cost: float | None
    catalogue: str
    faction: str | None = None
    icon: str | None = None
    unit_type: str | None = None
    unique: bool = False
    node: Node | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Configuration:
    """A row of a unit's costing table: trays, cost and the upgrade icons it shows (``None``: unknown)."""

    id: str
    name: str
    trays: int | None
    cost: float | None
    icons: tuple[str, ...] | None


@dataclass
class Catalogue:
    """Every entry, group and category of a folder of BattleScribe data files."""

    folder: str
    files: list[str] = field(default_factory=list)
    game_system_id: str = ""
    game_system_name: str = ""
    entries: dict[str, Entry] = field(default_factory=dict)
    groups: dict[str, Node] = field(default_factory=dict)
    categories: dict[str, str] = field(default_factory=dict)
    catalogue_names: dict[str, str] = field(default_factory=dict)

    def configurations(self, unit: Entry) -> dict[str, Configuration]:
        """Return the unit's configurations by entry id."""
        if unit.node is None:
            return {}
        sources = self._slot_sources(unit.node)
        out: dict[str, Configuration] = {}
        for entry in self._group_entries(unit.node):
            trays = trays_of(entry.get("name"))
            if trays is not None:
                out[entry.get("id")] = Configuration(entry.get("id"), entry.get("name"), trays, points(entry), None)
        ids = set(out)
        return {cid: Configuration(c.id, c.name, c.trays, c.cost, _icons(sources, cid, ids))
                for cid, c in out.items()}

    def fixed_icons(self, unit: Entry) -> tuple[str, ...] | None:
        """Return the upgrade icons of a unit bought in no named configuration (a hero's single row)."""
        return _icons(self._slot_sources(unit.node), "", set()) if unit.node is not None else None

    def _group_entries(self, unit: Node) -> list[Node]:
        """The entries inside the unit's own groups (not inside linked groups, not inside other entries)."""
        found: list[Node] = []
        stack = list(unit.items("selectionEntryGroups", "selectionEntryGroup"))
        while stack:
            group = stack.pop()
            found.extend(group.items("selectionEntries", "selectionEntry"))
            stack.extend(group.items("selectionEntryGroups", "selectionEntryGroup"))
        return found

    def _slot_sources(self, unit: Node) -> list[tuple[str, list[Node]]]:
        """Return (icon, [link or group, target group]) for every upgrade-icon group the unit holds or links."""
        out: list[tuple[str, list[Node]]] = []
        for group in unit.items("selectionEntryGroups", "selectionEntryGroup"):
            icon = icon_of(group.get("name"))
            if icon:
                out.append((icon, [group]))
        for link in unit.items("entryLinks", "entryLink"):
            if link.get("type") != "selectionEntryGroup":
                continue
            target = self.groups.get(link.get("targetId"))
            icon = icon_of(target.get("name")) if target else None
            if target is not None and icon:
                out.append((icon, [link, target]))
        return out


class _Unknown(Exception):
    """A condition the narrow reading cannot evaluate."""


def _compare(kind: str, have: float, value: float) -> bool:
    table = {"equalTo": have == value, "notEqualTo": have != value, "atLeast": have >= value,
             "atMost": have <= value, "greaterThan": have > value, "lessThan": have < value}
    if kind not in table:
        raise _Unknown(kind)
    return table[kind]


def _condition(cond: Node, chosen: str, configs: set[str]) -> bool:
    child = cond.get("childId")
    if cond.get("field") != "selections" or child not in configs:
        raise _Unknown(child)
    try:
        value = float(cond.get("value", "0"))
    except ValueError:
        raise _Unknown(cond.get("value")) from None
    return _compare(cond.get("type"), 1.0 if child == chosen else 0.0, value)


def _group_holds(group: Node, chosen: str, configs: set[str]) -> bool:
    results = [_condition(c, chosen, configs) for c in group.items("conditions", "condition")]
    results += [_group_holds(g, chosen, configs) for g in group.items("conditionGroups", "conditionGroup")]
    if not results:
        return True
    return any(results) if group.get("type") == "or" else all(results)


def _hidden(nodes: Iterable[Node], chosen: str, configs: set[str]) -> bool:
    hidden = False
    for node in nodes:
        hidden = hidden or node.get("hidden") == "true"
    for node in nodes:
        for mod in node.items("modifiers", "modifier"):
            if mod.get("type") == "set" and mod.get("field") == "hidden" and _group_holds(mod, chosen, configs):
                hidden = mod.get("value") == "true"
    return hidden


def _slots(nodes: list[Node]) -> int:
    for node in nodes:  # the link's own constraint first, then the group's
        for con in node.items("constraints", "constraint"):
            if con.get("type") == "max" and con.get("field") == "selections":
                value = float(con.get("value", "-1"))
                if value < 0:
                    raise _Unknown("no maximum")
                return int(value)
    raise _Unknown("no maximum")


def _icons(sources: list[tuple[str, list[Node]]], chosen: str, configs: set[str]) -> tuple[str, ...] | None:
    icons: list[str] = []
    try:
        for icon, nodes in sources:
            if not _hidden(nodes, chosen, configs):
                icons.extend([icon] * _slots(nodes))
    except _Unknown:
        return None
    return tuple(sorted(icons))


# ------------------------------------------------------------------------------------------ reading

def _unique_marker(node: Node, names: dict[str, str]) -> bool:
    inner = [e.get("name") for e in node.items("selectionEntries", "selectionEntry")]
    linked = [names.get(link.get("targetId"), link.get("name")) for link in node.items("entryLinks", "entryLink")]
    return any(n.strip().casefold() == "unique unit" for n in (*inner, *linked))


def _card_type(node: Node, categories: dict[str, str]) -> str | None:
    named = unit_type_in_name(node.get("name"))
    if named:
        return named
    for mod in node.items("modifiers", "modifier"):
        if mod.get("field") != "hidden":
            continue
        for cond, _ in mod.walk():
            if cond.tag != "condition":
                continue
            kind = categories.get(cond.get("childId"), "").casefold()
            if kind in UNIT_TYPES and ((cond.get("type") == "instanceOf" and mod.get("value") == "false")
                                       or (cond.get("type") == "notInstanceOf" and mod.get("value") == "true")):
                return kind
    return None


def _card_faction(above: tuple[Node, ...], catalogue_faction: str | None) -> str | None:
    for node in reversed(above):
        if node.tag == "selectionEntryGroup" and " - " in node.get("name"):
            suffix = node.get("name").split(" - ", 1)[1]
            if suffix.strip().casefold() in ("common", "neutral", "any"):
                return None
            return faction_of(suffix) or catalogue_faction
    return catalogue_faction


def _roster_unique(node: Node) -> bool:
    return any(c.get("type") == "max" and c.get("scope") == "roster" and c.get("value") in ("1", "1.0")
               for c in node.items("constraints", "constraint"))


def _index_file(cat: Catalogue, root: Node, names: dict[str, str]) -> None:
    faction = faction_of(root.get("name")) if root.tag == "catalogue" else None
    source = root.get("name")
    for node, above in root.walk():
        if node.tag == "selectionEntryGroup" and node.get("id"):
            cat.groups[node.get("id")] = node
        if node.tag != "selectionEntry" or not node.get("id"):
            continue
        kind = node.get("type")
        icon = next((icon_of(a.get("name")) for a in reversed(above)
                     if a.tag == "selectionEntryGroup" and icon_of(a.get("name"))), None)
        if kind in ("unit", "model"):
            types = [cat.categories.get(link.get("targetId"), "").casefold()
                     for link in node.items("categoryLinks", "categoryLink")]
            entry = Entry(node.get("id"), node.get("name"), kind, points(node), source, faction, None,
                          next((t for t in types if t in UNIT_TYPES), None), _unique_marker(node, names), node)
        else:
            entry = Entry(node.get("id"), node.get("name"), kind, points(node), source,
                          _card_faction(above, faction), icon, _card_type(node, cat.categories),
                          _roster_unique(node), node)
        cat.entries.setdefault(entry.id, entry)


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise UnreadableInputError(f"no BattleScribe data folder {str(folder)!r}", path="data")
    found = sorted(p for p in folder.iterdir() if p.name.lower().endswith(SUFFIXES) and p.is_file())
    if not found:
        raise UnreadableInputError(f"the folder {str(folder)!r} holds no BattleScribe data file "
                                   "(.gst, .cat, .gstz, .catz)", path="data")
    if len(found) > MAX_DATA_FILES:
        raise UnreadableInputError(f"the folder {str(folder)!r} holds {len(found)} data files (at most "
                                   f"{MAX_DATA_FILES})", path="data")
    return found


def _read(folder: Path, found: list[Path]) -> Catalogue:
    roots: list[tuple[str, Node]] = []
    for path in found:
        with path.open("rb") as handle:
            data = handle.read(MAX_DATA_FILE + 1)
        roots.append((path.name, read_data_file(data, path.name)))
    cat = Catalogue(str(folder), [name for name, _ in roots])
    names: dict[str, str] = {}
    for _, root in roots:
        if root.tag == "gameSystem":
            cat.game_system_id, cat.game_system_name = root.get("id"), root.get("name")
        else:
            cat.catalogue_names[root.get("id")] = root.get("name")
        for node, _ in root.walk():
            if node.tag == "categoryEntry":
                cat.categories[node.get("id")] = node.get("name").strip()
            if node.tag == "selectionEntry":
                names[node.get("id")] = node.get("name")
    for _, root in roots:
        _index_file(cat, root, names)
    return cat


_CACHE: dict[tuple[str, tuple[tuple[str, int, int], ...]], Catalogue] = {}
_LOCK = threading.Lock()


def load(folder: str | os.PathLike[str]) -> Catalogue:
    """Return the data files of *folder* read and indexed (kept in memory until a file changes)."""
    path = Path(folder)
    found = _files(path)
    stamp = tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in found)
    key = (str(path.resolve()), stamp)
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
    cat = _read(path, found)
    with _LOCK:
        if len(_CACHE) > 8:
            _CACHE.clear()
        _CACHE[key] = cat
    return cat


__all__ = ["Catalogue", "Configuration", "Entry", "faction_of", "icon_of", "load", "points", "trays_of",
           "unit_type_in_name"]
