"""Write the worked RuneWars Miniatures rosters and the small BattleScribe data files the tests check them with.

Everything here is our own: a made-up game system and two made-up catalogues in BattleScribe's schema (unit and
card names as players know them, ids and costs invented), and seven army lists written from them in each
export format a player has: BattleScribe ``.ros`` and ``.rosz`` and New Recruit's JSON. No catalogue data of
the community's files is copied. Run ``python scripts/make_roster_examples.py`` to rewrite them.

Outputs: ``engine/examples/runewars-miniatures/rosters/<case>.{ros,rosz,json}`` plus ``expect.json`` (the
ruling each case should get with and without the data files), and ``tests/fixtures/bsdata/`` (the data files).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "examples" / "runewars-miniatures" / "rosters"
DATA = ROOT / "tests" / "fixtures" / "bsdata"
PTS = "rcx0-cost-pts0"
GS = "rcx0-game-rwm0"
INF, CAV, SIE = "rcx0-cat0-inf0", "rcx0-cat0-cav0", "rcx0-cat0-sie0"
DAQAN, WAIQAR = "rcx0-catl-daqn", "rcx0-catl-waiq"

# ------------------------------------------------------------------------------------ data files

def cost(value: float) -> str:
    return f'<costs><cost name=" Points" typeId="{PTS}" value="{value:.1f}"/></costs>'


def entry(eid: str, name: str, value: float, kind: str = "upgrade", inner: str = "") -> str:
    return (f'<selectionEntry id="{eid}" name={quoteattr(name)} hidden="false" collective="false" import="true" '
            f'type="{kind}">{inner}{cost(value)}</selectionEntry>')


def group(gid: str, name: str, entries: str, most: int = 1, hidden_for: tuple[str, ...] = ()) -> str:
    mods = ""
    if hidden_for:
        conds = "".join(f'<condition field="selections" scope="parent" value="1.0" childId="{c}" type="equalTo"/>'
                        for c in hidden_for)
        mods = (f'<modifiers><modifier type="set" field="hidden" value="true"><conditionGroups>'
                f'<conditionGroup type="or"><conditions>{conds}</conditions></conditionGroup></conditionGroups>'
                f'</modifier></modifiers>')
    return (f'<selectionEntryGroup id="{gid}" name={quoteattr(name)} hidden="false" collective="false" '
            f'import="true">{mods}<constraints><constraint field="selections" scope="parent" value="{most}.0" '
            f'type="max" id="{gid}-max"/></constraints><selectionEntries>{entries}</selectionEntries>'
            f'</selectionEntryGroup>')


def link(lid: str, target: str, hidden_for: tuple[str, ...] = ()) -> str:
    mods = ""
    if hidden_for:
        conds = "".join(f'<condition field="selections" scope="parent" value="1.0" childId="{c}" type="equalTo"/>'
                        for c in hidden_for)
        mods = (f'<modifiers><modifier type="set" field="hidden" value="true"><conditionGroups>'
                f'<conditionGroup type="or"><conditions>{conds}</conditions></conditionGroup></conditionGroups>'
                f'</modifier></modifiers>')
    return (f'<entryLink id="{lid}" name="New EntryLink" hidden="false" collective="false" import="true" '
            f'targetId="{target}" type="selectionEntryGroup">{mods}</entryLink>')


def unit(uid: str, name: str, category: str, configs: list[tuple[str, str, float]], links: str,
         own: float = 0.0, unique: bool = False, rules: str = "") -> str:
    size = group(f"{uid}-size", " Unit Size", "".join(entry(c, n, v) for c, n, v in configs)) if configs else ""
    marker = (f'<entryLink id="{uid}-uq" name="Unique Unit" hidden="false" collective="false" import="true" '
              'targetId="rcx0-uniq-unit" type="selectionEntry"/>') if unique else ""
    return (f'<selectionEntry id="{uid}" name={quoteattr(name)} hidden="false" collective="false" import="true" '
            f'type="unit">{rules}<categoryLinks><categoryLink id="{uid}-cl" hidden="false" targetId="{category}" '
            f'primary="true"/></categoryLinks><selectionEntryGroups>{size}</selectionEntryGroups>'
            f'<entryLinks>{links}{marker}</entryLinks>{cost(own)}</selectionEntry>')


HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def game_system() -> str:
    groups = "".join([
        group("rcx0-grp0-trn0", "Training - Common", entry("rcx0-up00-rdis", "Rank Discipline", 4)
              + entry("rcx0-up00-ctac", "Column Tactics", 4)),
        group("rcx0-grp0-eqp0", "Equipment - Common", entry("rcx0-up00-shwl", "Shield Wall", 5)),
        group("rcx0-grp0-art0", "Artifact - Common", entry("rcx0-up00-rfat", "Rune of Fate", 6)),
    ])
    return (HEAD + f'<gameSystem id="{GS}" name="Runewars" revision="1" battleScribeVersion="2.03" '
            'xmlns="http://www.battlescribe.net/schema/gameSystemSchema">'
            f'<costTypes><costType id="{PTS}" name=" Points" defaultCostLimit="200.0"/></costTypes>'
            f'<categoryEntries><categoryEntry id="{INF}" name="Infantry" hidden="false"/>'
            f'<categoryEntry id="{CAV}" name="Cavalry" hidden="false"/>'
            f'<categoryEntry id="{SIE}" name="Siege" hidden="false"/></categoryEntries>'
            '<forceEntries><forceEntry id="rcx0-force-std" name="Standard Army" hidden="false"/></forceEntries>'
            '<sharedSelectionEntries>'
            + entry("rcx0-uniq-unit", "Unique Unit", 0,
                    inner='<constraints><constraint field="selections" scope="parent" value="1.0" type="max" '
                          'id="rcx0-uniq-max"/></constraints>')
            + f'</sharedSelectionEntries><sharedSelectionEntryGroups>{groups}</sharedSelectionEntryGroups>'
            '</gameSystem>\n')


SPEAR = [("rcx0-cfg0-sp12", "1x2 Trays", 16), ("rcx0-cfg0-sp22", "2x2  Trays", 28), ("rcx0-cfg0-sp33", "3x3 Trays", 54)]
OATH = [("rcx0-cfg0-oc11", "1x1 Tray", 20), ("rcx0-cfg0-oc12", "1x2 Trays", 36), ("rcx0-cfg0-oc22", "2x2  Trays", 60)]
GOLEM = [("rcx0-cfg0-rg11", "1x1 Tray", 44), ("rcx0-cfg0-rg12", "1x2 Trays", 80)]
KARI_RULE = ('<rules><rule id="rcx0-rule-kari" name="Kari Wraithstalker - Army Rule" hidden="false"><description>'
             'An army with Kari may field 1 unit of Deepwood Archers even though they are not Daqan.'
             '</description></rule></rules>')


def daqan() -> str:
    shared_groups = "".join([
        group("rcx0-grp0-hvyd", "Heavy - Daqan", entry("rcx0-up00-rfsh", "Rune-Forged Shields", 6)),
        group("rcx0-grp0-chmd", "Champions - Daqan",
              entry("rcx0-up00-lhin", "Lord Hawthorne (Infantry Upgrade)", 22,
                    inner='<constraints><constraint field="selections" scope="roster" value="1.0" type="max" '
                          'id="rcx0-lhin-max"/></constraints>')
              + entry("rcx0-up00-dvet", "Daqan Veteran", 8)),
        group("rcx0-grp0-musd", "Music - Daqan", entry("rcx0-up00-mcor", "Marching Cornicen", 2)),
    ])
    units = "".join([
        unit("rcx0-unit-sper", "Spearmen", INF, SPEAR,
             link("rcx0-ln00-sp01", "rcx0-grp0-trn0") + link("rcx0-ln00-sp02", "rcx0-grp0-eqp0")
             + link("rcx0-ln00-sp03", "rcx0-grp0-hvyd", ("rcx0-cfg0-sp12",))
             + link("rcx0-ln00-sp04", "rcx0-grp0-chmd", ("rcx0-cfg0-sp12",))),
        unit("rcx0-unit-oath", "Oathsworn Cavalry", CAV, OATH,
             link("rcx0-ln00-oc01", "rcx0-grp0-trn0") + link("rcx0-ln00-oc02", "rcx0-grp0-eqp0")
             + link("rcx0-ln00-oc03", "rcx0-grp0-musd", ("rcx0-cfg0-oc11",))),
        unit("rcx0-unit-golm", "Rune Golems", SIE, GOLEM,
             link("rcx0-ln00-rg01", "rcx0-grp0-eqp0") + link("rcx0-ln00-rg02", "rcx0-grp0-art0")),
        unit("rcx0-unit-lhaw", "Lord Hawthorne", CAV, [], link("rcx0-ln00-lh01", "rcx0-grp0-art0"),
             own=45, unique=True),
        unit("rcx0-unit-kari", "Kari Wraithstalker", INF, [], link("rcx0-ln00-kw01", "rcx0-grp0-art0"),
             own=38, unique=True, rules=KARI_RULE),
    ])
    return (HEAD + f'<catalogue id="{DAQAN}" name="Daqan Lords" revision="1" battleScribeVersion="2.03" '
            f'library="false" gameSystemId="{GS}" gameSystemRevision="1" '
            'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
            f'<sharedSelectionEntries>{units}</sharedSelectionEntries>'
            f'<sharedSelectionEntryGroups>{shared_groups}</sharedSelectionEntryGroups></catalogue>\n')


def waiqar() -> str:
    groups = group("rcx0-grp0-musw", "Music - Waiqar", entry("rcx0-up00-ddrm", "Dirge Drummer", 3))
    units = unit("rcx0-unit-rean", "Reanimates", INF, [("rcx0-cfg0-re22", "2x2  Trays", 26)],
                 link("rcx0-ln00-re01", "rcx0-grp0-musw"))
    return (HEAD + f'<catalogue id="{WAIQAR}" name="Waiqar the Undying" revision="1" battleScribeVersion="2.03" '
            f'library="false" gameSystemId="{GS}" gameSystemRevision="1" '
            'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
            f'<sharedSelectionEntries>{units}</sharedSelectionEntries>'
            f'<sharedSelectionEntryGroups>{groups}</sharedSelectionEntryGroups></catalogue>\n')


# ------------------------------------------------------------------------------------ rosters

UNITS = {"Spearmen": ("rcx0-unit-sper", "Infantry", INF, SPEAR), "Oathsworn Cavalry": ("rcx0-unit-oath", "Cavalry",
         CAV, OATH), "Rune Golems": ("rcx0-unit-golm", "Siege", SIE, GOLEM),
         "Lord Hawthorne": ("rcx0-unit-lhaw", "Cavalry", CAV, []), "Kari Wraithstalker": ("rcx0-unit-kari",
                                                                                          "Infantry", INF, [])}
CARDS = {"Rank Discipline": ("rcx0-up00-rdis", 4), "Column Tactics": ("rcx0-up00-ctac", 4),
         "Shield Wall": ("rcx0-up00-shwl", 5), "Rune of Fate": ("rcx0-up00-rfat", 6),
         "Rune-Forged Shields": ("rcx0-up00-rfsh", 6), "Lord Hawthorne (Infantry Upgrade)": ("rcx0-up00-lhin", 22),
         "Daqan Veteran": ("rcx0-up00-dvet", 8), "Marching Cornicen": ("rcx0-up00-mcor", 2),
         "Dirge Drummer": ("rcx0-up00-ddrm", 3)}
OWN = {"Lord Hawthorne": 45, "Kari Wraithstalker": 38}


def sel(sid: str, name: str, entry_id: str, kind: str, value: float, children: list[dict[str, Any]] | None = None,
        category: tuple[str, str] | None = None, rules: list[tuple[str, str]] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": sid, "name": name, "entryId": entry_id, "number": 1, "type": kind,
                           "costs": [{"name": " Points", "typeId": PTS, "value": float(value)}]}
    if rules:
        out["rules"] = [{"id": f"{sid}-r{i}", "name": n, "hidden": False, "description": d}
                        for i, (n, d) in enumerate(rules)]
    if children:
        out["selections"] = children
    if category:
        out["categories"] = [{"id": f"{sid}-c", "name": category[0], "entryId": category[1], "primary": True}]
    return out


def build_unit(n: int, spec: dict[str, Any]) -> dict[str, Any]:
    name = spec["unit"]
    uid, cat_name, cat_id, configs = UNITS[name]
    kids: list[dict[str, Any]] = []
    if "config" in spec:
        cid, cname, ccost = next(c for c in configs if c[1] == spec["config"])
        cname = spec.get("config_name", cname)
        kids.append(sel(f"u{n}-cfg", cname, f"{uid}::{cid}", "upgrade", spec.get("config_cost", ccost)))
    if name in OWN:
        kids.append(sel(f"u{n}-uq", "Unique Unit", "rcx0-uniq-unit", "upgrade", 0))
    for k, card in enumerate(spec.get("cards", [])):
        card_name, stated = (card, None) if isinstance(card, str) else card
        cid, value = CARDS[card_name]
        kids.append(sel(f"u{n}-up{k}", card_name, f"rcx0-ln00-x::{cid}", "upgrade",
                        value if stated is None else stated))
    rules = [("Kari Wraithstalker - Army Rule", "An army with Kari may field 1 unit of Deepwood Archers even "
              "though they are not Daqan.")] if name == "Kari Wraithstalker" else None
    return sel(f"u{n}", name, f"rcx0-ln00-top::{uid}", "unit", OWN.get(name, 0), kids, (cat_name, cat_id), rules)


def total(sels: list[dict[str, Any]]) -> float:
    return sum(s["costs"][0]["value"] + total(s.get("selections", [])) for s in sels)


def roster(case: str, title: str, units: list[dict[str, Any]]) -> dict[str, Any]:
    sels = [build_unit(i, u) for i, u in enumerate(units)]
    return {"roster": {
        "id": f"rcx0-ros0-{case[:8]}", "name": title, "battleScribeVersion": "2.03", "gameSystemId": GS,
        "gameSystemName": "Runewars", "gameSystemRevision": 1,
        "costs": [{"name": " Points", "typeId": PTS, "value": total(sels)}],
        "costLimits": [{"name": " Points", "typeId": PTS, "value": 200.0}],
        "forces": [{"id": f"rcx0-frc0-{case[:8]}", "name": "Standard Army", "entryId": "rcx0-force-std",
                    "catalogueId": DAQAN, "catalogueRevision": 1, "catalogueName": "Daqan Lords",
                    "selections": sels}]}}


def xml_attrs(obj: dict[str, Any], keys: tuple[str, ...]) -> str:
    out = []
    for k in keys:
        if k in obj:
            v = obj[k]
            out.append(f"{k}={quoteattr(str(v).lower() if isinstance(v, bool) else str(v))}")
    return " ".join(out)


def xml_costs(costs: list[dict[str, Any]], tag: str = "cost") -> str:
    return "".join(f'<{tag} name=" Points" typeId="{c["typeId"]}" value="{c["value"]:.1f}"/>' for c in costs)


def xml_sel(s: dict[str, Any], pad: str) -> str:
    parts = [f"{pad}<selection {xml_attrs(s, ('id', 'name', 'entryId', 'number', 'type'))}>"]
    if s.get("rules"):
        parts.append(f"{pad}  <rules>" + "".join(
            f'<rule {xml_attrs(r, ("id", "name", "hidden"))}><description>{r["description"]}</description></rule>'
            for r in s["rules"]) + "</rules>")
    if s.get("selections"):
        parts.append(f"{pad}  <selections>")
        parts.extend(xml_sel(c, pad + "    ") for c in s["selections"])
        parts.append(f"{pad}  </selections>")
    parts.append(f"{pad}  <costs>{xml_costs(s['costs'])}</costs>")
    if s.get("categories"):
        parts.append(f"{pad}  <categories>" + "".join(
            f'<category {xml_attrs(c, ("id", "name", "entryId", "primary"))}/>' for c in s["categories"])
            + "</categories>")
    parts.append(f"{pad}</selection>")
    return "\n".join(parts)


def to_xml(data: dict[str, Any]) -> str:
    r = data["roster"]
    f = r["forces"][0]
    sels = "\n".join(xml_sel(s, "        ") for s in f["selections"])
    head = xml_attrs(r, ("id", "name", "battleScribeVersion", "gameSystemId", "gameSystemName", "gameSystemRevision"))
    force = xml_attrs(f, ("id", "name", "entryId", "catalogueId", "catalogueRevision", "catalogueName"))
    return (HEAD + f"<roster {head} "
            'xmlns="http://www.battlescribe.net/schema/rosterSchema">\n'
            f"  <costs>{xml_costs(r['costs'])}</costs>\n"
            f"  <costLimits>{xml_costs(r['costLimits'], 'costLimit')}</costLimits>\n"
            "  <forces>\n"
            f"    <force {force}>\n"
            f"      <selections>\n{sels}\n      </selections>\n    </force>\n  </forces>\n</roster>\n")


CASES: list[dict[str, Any]] = [
    {"case": "legal-176", "title": "Daqan vanguard (legal, 176 points)", "units": [
        {"unit": "Spearmen", "config": "2x2  Trays", "cards": ["Rank Discipline", "Rune-Forged Shields"]},
        {"unit": "Oathsworn Cavalry", "config": "1x2 Trays", "cards": ["Marching Cornicen", "Shield Wall"]},
        {"unit": "Rune Golems", "config": "1x1 Tray", "cards": ["Rune of Fate"]},
        {"unit": "Lord Hawthorne"}],
     "plain": {"legal": True, "points": 176}, "data": {"legal": True, "points": 176, "decisions": 0}},
    {"case": "over-points-217", "title": "Daqan hammer (217 points, over the limit)", "units": [
        {"unit": "Spearmen", "config": "3x3 Trays",
         "cards": ["Rank Discipline", "Rune-Forged Shields", "Daqan Veteran"]},
        {"unit": "Oathsworn Cavalry", "config": "2x2  Trays", "cards": ["Shield Wall"]},
        {"unit": "Rune Golems", "config": "1x2 Trays"}],
     "plain": {"legal": False, "points": 217, "violation": "more than the 200-point limit"},
     "data": {"legal": False, "points": 217, "violation": "more than the 200-point limit"}},
    {"case": "duplicate-unique", "title": "Two Lord Hawthornes (unique name twice)", "units": [
        {"unit": "Lord Hawthorne"},
        {"unit": "Spearmen", "config": "2x2  Trays", "cards": ["Lord Hawthorne (Infantry Upgrade)"]},
        {"unit": "Oathsworn Cavalry", "config": "1x2 Trays"}],
     "plain": {"legal": False, "points": 131, "violation": "more than 1 card named Lord Hawthorne"},
     "data": {"legal": False, "points": 131, "violation": "more than 1 card named Lord Hawthorne"}},
    {"case": "wrong-faction-upgrade", "title": "A Waiqar drummer in a Daqan army", "units": [
        {"unit": "Oathsworn Cavalry", "config": "1x2 Trays", "cards": ["Dirge Drummer"]},
        {"unit": "Spearmen", "config": "2x2  Trays", "cards": ["Shield Wall"]}],
     "plain": {"legal": True, "points": 72},
     "data": {"legal": False, "points": 72, "violation": "Dirge Drummer shows the Waiqar faction icon"}},
    {"case": "character-army-rule", "title": "Kari Wraithstalker leads (her army rule to judge)", "units": [
        {"unit": "Kari Wraithstalker", "cards": ["Rune of Fate"]},
        {"unit": "Spearmen", "config": "2x2  Trays", "cards": ["Column Tactics"]}],
     "plain": {"legal": True, "points": 76, "decision": "army_rules_met"},
     "data": {"legal": True, "points": 76, "decision": "army_rules_met", "decisions": 1}},
    {"case": "hand-edited-cost", "title": "Spearmen at a price no card prints (hand-edited)", "units": [
        {"unit": "Spearmen", "config": "2x2  Trays", "config_cost": 20, "cards": [("Rank Discipline", 1)]},
        {"unit": "Oathsworn Cavalry", "config": "1x2 Trays"}],
     "plain": {"legal": True, "points": 57},
     "data": {"legal": False, "points": 68, "violation": "the roster prices Spearmen at 20 points but its "
              "configuration costs 28"}},
    {"case": "typed-configuration", "title": "A 5-tray, 30-point Spearmen that no card offers, with two heavy upgrades",
     "units": [
         {"unit": "Spearmen", "config": "1x2 Trays", "config_name": "5 Trays", "config_cost": 30,
          "cards": ["Rune-Forged Shields", "Rune-Forged Shields"]}],
     "plain": {"legal": True, "points": 42},
     "data": {"legal": False, "points": 28, "violation": "the roster gives Spearmen 5 trays but the configuration it "
              "names (1x2 Trays) has 2"}},
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    DATA.mkdir(parents=True, exist_ok=True)
    (DATA / "Runewars.gst").write_text(game_system(), encoding="utf-8")
    (DATA / "Daqan_Lords.cat").write_text(daqan(), encoding="utf-8")
    (DATA / "Waiqar_the_Undying.cat").write_text(waiqar(), encoding="utf-8")
    expect = {}
    for spec in CASES:
        data = roster(spec["case"], spec["title"], spec["units"])
        name = spec["case"]
        (OUT / f"{name}.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        xml = to_xml(data)
        (OUT / f"{name}.ros").write_text(xml, encoding="utf-8")
        info = zipfile.ZipInfo(f"{name}.ros", date_time=(2026, 1, 1, 0, 0, 0))
        with zipfile.ZipFile(OUT / f"{name}.rosz", "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(info, xml, compress_type=zipfile.ZIP_DEFLATED)
        expect[name] = {"title": spec["title"], "without_data": spec["plain"], "with_data": spec["data"]}
    (OUT / "expect.json").write_text(json.dumps(expect, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
