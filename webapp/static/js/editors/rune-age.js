// Rune Age: cards dragged (or added with buttons) into armies; target, attrition and siege boards.
import {h, humanize} from "../dom.js";
import {factionName} from "../names.js";
import {draggable} from "../drag.js";
import {checkbox, segmented, select, smallButton, stepper, textInput} from "../widgets.js";
import {FACTIONS, live, panel, row} from "./common.js";

// The cards of each faction offered at hand (a palette to build armies from, not part of the position):
// the units as printed in the worked examples of the rulebook; "Make a card" adds any other card.
const FACTION_CARDS = {
  daqan: [{name: "Footman", strength: 2, kind: "unit"}, {name: "Archer", strength: 2, kind: "unit"},
          {name: "Knight", strength: 3, kind: "unit"}, {name: "Siege Engine", strength: 5, kind: "unit"}],
  elves: [{name: "Storm Sorceress", strength: 2, kind: "unit"}, {name: "Darnati Warrior", strength: 3, kind: "unit"},
          {name: "Forest Guardian", strength: 4, kind: "unit"}],
  uthuk: [{name: "Berserker", strength: 1, kind: "unit"}, {name: "Flesh Ripper", strength: 3, kind: "unit"}],
  waiqar: [{name: "Reanimate", strength: 1, kind: "unit"}, {name: "Skeleton Archer", strength: 2, kind: "unit"},
           {name: "Dark Knight", strength: 3, kind: "unit"}],
};
const made = [];  // cards the player made on this page
// The effects the engine accepts as a bonus from outside the army by their name alone (engine/rune_age/battle.py).
const OUTSIDE_BY_NAME = ["A Time for War", "Battle Cry", "Tact and Diplomacy"];

/** Return whether a bonus is tied to a card of the army (it then goes with that card), as the engine reads it:
 *  not when marked as from outside, nor when it names an outside effect that no card of the army bears. */
function tiedToCard(b, army) {
  if (b.outside) return false;
  return !OUTSIDE_BY_NAME.includes(b.source) || army.some((c) => c.name === b.source);
}

/** After `card` left the army, drop the bonuses it carried (one bonus per copy of a card), so that a bonus never
 *  outlives its card on screen or in the position. */
export function pruneBonuses(holder, army, card) {
  if (!Array.isArray(holder.resolution_bonuses) || !card) return;
  let left = army.filter((c) => c.name === card.name).length;
  holder.resolution_bonuses = holder.resolution_bonuses.filter((b) => {
    if (b.outside || b.source !== card.name) return true;
    left -= 1;
    return left >= 0;
  });
}

/** Return "1 card" / "2 cards". */
function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function handOf(faction) {
  return [...(FACTION_CARDS[faction] || []), ...made];
}

/** Make a battle position exactly what the board shows: nothing may name a card no longer in the army. */
export function cleanBattle(pos) {
  pos.army = Array.isArray(pos.army) ? pos.army : [];
  const t = pos.target = pos.target || {kind: "enemy", strength: 1};
  if (t.kind !== "stronghold") delete t.faction;
  t.attrition_icons = t.attrition_icons || 0;   // the field shows 0: the position says so
  const icons = t.attrition_icons || 0;
  if (!icons) { delete pos.attrition_skulls; delete pos.destroyed_by_attrition; }
  if (Array.isArray(pos.attrition_skulls)) {
    pos.attrition_skulls = pos.attrition_skulls.slice(0, icons);
    while (pos.attrition_skulls.length < icons) pos.attrition_skulls.push(0);
  } else {
    delete pos.destroyed_by_attrition;
  }
  if (Array.isArray(pos.destroyed_by_attrition)) {
    const left = {};
    for (const c of pos.army) if (c.kind !== "tactic") left[c.name] = (left[c.name] || 0) + 1;
    pos.destroyed_by_attrition = pos.destroyed_by_attrition.filter((n) => (left[n] = (left[n] || 0) - 1) >= 0);
  }
  if (Array.isArray(pos.resolution_bonuses) && !pos.resolution_bonuses.length) delete pos.resolution_bonuses;
  return pos;
}

function cardFace(card, extra = []) {
  return [
    h("span", {class: "card-strength", "aria-label": `strength ${card.strength}`}, String(card.strength)),
    h("span", {class: "card-name"}, card.name),
    h("span", {class: `card-kind ${card.kind || "unit"}`}, card.kind || "unit"),
    ...extra,
  ];
}

/** Return the palette of cards with a "new card" form; zones: [{id, label, add(card)}]; cards() lists them. */
function handPanel(zones, redrawAll, cards, title = "Cards at hand — drag into an army, or use the buttons") {
  const {el, draw} = live((redraw) => {
    const list = h("ul", {class: "cards hand", "aria-label": "Cards at hand"});
    cards().forEach((card) => {
      const li = h("li", {class: "card"}, cardFace(card),
        h("span", {class: "card-actions"}, zones.map((z) =>
          smallButton(z.short || "Add", () => { z.add({...card}); redrawAll(); },
                      {"aria-label": `Add ${card.name} to ${z.label}`, dataset: {add: z.id}}))));
      draggable(li, `${card.name}, strength ${card.strength}`, (zone) => {
        const z = zones.find((x) => x.id === zone);
        if (z) { z.add({...card}); redrawAll(); }
      });
      list.append(li);
    });
    const draft = {name: "", strength: 1, kind: "unit"};
    const form = h("div", {class: "new-card"},
      textInput("New card name", () => draft.name, (v) => { draft.name = v; }, {path: "new-card-name"}),
      stepper("Strength", () => draft.strength, (v) => { draft.strength = v; }, {min: -20, max: 99, small: true}),
      segmented("Kind", ["unit", "tactic"], () => draft.kind, (v) => { draft.kind = v; }),
      smallButton("Add to hand", () => {
        if (!draft.name.trim()) return;
        made.push({name: draft.name.trim(), strength: draft.strength, kind: draft.kind});
        redraw();
      }, {id: "new-card-add"}));
    return [list, h("details", {class: "new-card-box"}, h("summary", {}, "Make a card"), form)];
  });
  return {el: panel(title, el), draw};
}

/** Return an army drop zone listing its cards, editable; structural changes call changed(true); removing a card
 *  calls removed() first (its bonus goes with it). */
function armyZone(id, label, army, changed, removed = () => {}) {
  const {el, draw} = live(() => {
    const total = army.reduce((s, c) => s + (Number(c.strength) || 0), 0);
    const list = h("ul", {class: "cards army", "aria-label": label});
    if (!army.length) list.append(h("li", {class: "empty"}, "Drop cards here"));
    army.forEach((card, i) => {
      list.append(h("li", {class: "card in-army", dataset: {index: String(i)}}, cardFace(card),
        h("span", {class: "card-actions"},
          h("label", {class: "mini-check"},
            h("input", {type: "checkbox", checked: !!card.cannot_be_destroyed, onchange: (e) => {
              if (e.target.checked) card.cannot_be_destroyed = true; else delete card.cannot_be_destroyed;
              changed(false);
            }}), "can’t be destroyed"),
          smallButton("Remove", () => { army.splice(i, 1); removed(card); changed(); draw(); },
                      {"aria-label": `Remove ${card.name} from ${label}`}))));
    });
    return [h("p", {class: "zone-total"}, `${label}: ${count(army.length, "card")}, printed strength ${total}`), list];
  }, {class: "dropzone", dataset: {dropzone: id, path: id === "army" ? "army" : `${id}.army`}});
  return {el, draw};
}

const OUTSIDE = "\u0000outside";

/** Return the Resolution bonuses of holder[key] (the list is created on the first addition). Each bonus comes
 *  from a card of the army (chosen by name: it goes when that card is removed) or from outside the army (an
 *  Event, a tactic already spent: its name typed, and it stays whatever cards are left). */
function bonusesPanel(holder, key, army, changed, path) {
  const {el, draw} = live((redraw) => [
    h("ul", {class: "plain bonuses"}, (holder[key] || []).map((b, i, bonuses) => {
      const names = [...new Set(army.map((c) => c.name))];
      const tied = tiedToCard(b, army);
      const orphan = tied && !names.includes(b.source);   // an imported bonus whose card is not here: the engine refuses it
      const opts = [...names.map((n) => [n, n]),
                    ...(orphan ? [[b.source ?? null, `${b.source ?? "no card named"} (not in this army)`]] : []),
                    [OUTSIDE, "Outside the army"]];
      return h("li", {class: "row bonus", dataset: {bonus: String(i)}},
        select("From", opts, () => (tied ? b.source ?? null : OUTSIDE), (v) => {
          if (v === OUTSIDE) { b.outside = true; if (!OUTSIDE_BY_NAME.includes(b.source)) delete b.source; }
          else { delete b.outside; b.source = v; }
          changed(); redraw();
        }, {path: `${path}[${i}].source`}),
        tied ? null : textInput("Effect", () => b.source ?? "", (v) => {
          if (v.trim()) b.source = v; else delete b.source;
          changed();
        }, {path: `${path}[${i}].outside`, placeholder: "its name"}),
        stepper("Strength", () => b.strength, (v) => { b.strength = v; changed(); },
                {min: -20, max: 99, path: `${path}[${i}].strength`, small: true}),
        smallButton("Remove", () => { bonuses.splice(i, 1); changed(); redraw(); },
                    {"aria-label": `Remove bonus ${i + 1}`}));
    })),
    smallButton("Add a Resolution bonus", () => {
      const first = army.find((c) => !(holder[key] || []).some((b) => tiedToCard(b, army) && b.source === c.name));
      (holder[key] = holder[key] || []).push(first ? {source: first.name, strength: 1} : {outside: true, strength: 1});
      changed(); redraw();
    }),
  ]);
  return {el, draw};
}

const battle = {
  example: {
    attacker_faction: "waiqar",
    target: {kind: "enemy", name: "Dragonlord Kalladra", strength: 10, attrition_icons: 1},
    army: [{name: "Reanimate", strength: 1, kind: "unit"}, {name: "Reanimate", strength: 1, kind: "unit"},
           {name: "Reanimate", strength: 1, kind: "unit"}, {name: "Skeleton Archer", strength: 2, kind: "unit"},
           {name: "Dark Knight", strength: 3, kind: "unit"}],
    attrition_skulls: [1],
    destroyed_by_attrition: ["Reanimate"],
    resolution_bonuses: [{source: "Dark Knight", strength: 3}],
    already_attacked_this_round: false,
  },
  derive(pos) {
    return cleanBattle(pos);
  },
  render(el, pos, ctx) {
    cleanBattle(pos);
    pos.attacker_faction = pos.attacker_faction || "daqan";
    const t = pos.target;
    const changed = (structural = true) => {
      cleanBattle(pos);
      ctx.changed();
      if (structural) army.draw();
      attrition.draw();
      bonuses.draw();
    };
    const army = armyZone("army", "Army", pos.army, changed, (card) => pruneBonuses(pos, pos.army, card));
    const bonuses = bonusesPanel(pos, "resolution_bonuses", pos.army, () => changed(false), "resolution_bonuses");
    const attrition = live((redraw) => {
      const icons = t.attrition_icons || 0;
      if (!icons) return h("p", {class: "hint"}, "The target shows no attrition icon: no roll.");
      const rolled = Array.isArray(pos.attrition_skulls);
      const out = [checkbox("The attrition die has been rolled", () => rolled, (on) => {
        if (on) pos.attrition_skulls = Array(icons).fill(0); else { delete pos.attrition_skulls; delete pos.destroyed_by_attrition; }
        ctx.changed(); redraw();
      }, {path: "attrition_skulls?"})];
      if (rolled) {
        while (pos.attrition_skulls.length < icons) pos.attrition_skulls.push(0);
        pos.attrition_skulls.length = icons;
        pos.attrition_skulls.forEach((_, i) => out.push(stepper(`Skulls on roll ${i + 1}`, () => pos.attrition_skulls[i],
          (v) => { pos.attrition_skulls[i] = v; ctx.changed(); }, {min: 0, max: 10, path: `attrition_skulls[${i}]`, small: true})));
        const destroyed = pos.destroyed_by_attrition || [];
        const units = pos.army.filter((c) => c.kind !== "tactic");
        out.push(h("fieldset", {class: "field", dataset: {path: "destroyed_by_attrition"}},
          h("legend", {}, "Units the player destroys (one per skull)"),
          units.length ? units.map((card) => {
            const count = destroyed.filter((n) => n === card.name).length;
            const seen = units.filter((c) => c.name === card.name);
            const nth = seen.indexOf(card);
            const id = `destroy-${pos.army.indexOf(card)}`;
            return h("div", {class: "field check"},
              h("input", {id, type: "checkbox", checked: nth < count, onchange: (e) => {
                const list = pos.destroyed_by_attrition = pos.destroyed_by_attrition || [];
                if (e.target.checked) list.push(card.name);
                else list.splice(list.indexOf(card.name), 1);
                ctx.changed();
              }}), h("label", {for: id}, `${card.name} (${card.strength})`));
          }) : h("p", {class: "hint"}, "No units in the army.")));
      }
      return out;
    });
    const targetPanel = live((redraw) => [
      segmented("The army attacks", [["enemy", "Enemy"], ["city", "City"], ["stronghold", "Stronghold"], ["instant", "Instant"]],
                () => t.kind, (v) => {
                  if (v !== t.kind) delete t.name;   // another kind of target is another target
                  t.kind = v;
                  if (v !== "stronghold") delete t.faction; else t.faction = t.faction || pos.attacker_faction || "daqan";
                  ctx.changed(); redraw();
                }, {path: "target.kind"}),
      row(textInput("Name", () => t.name, (v) => { t.name = v; ctx.changed(); }, {path: "target.name"}),
          stepper("Strength", () => t.strength, (v) => { t.strength = v; ctx.changed(); }, {min: 0, max: 99, path: "target.strength"}),
          stepper("Attrition icons", () => t.attrition_icons || 0, (v) => {
            t.attrition_icons = v; ctx.changed(); attrition.draw();
          }, {min: 0, max: 10, path: "target.attrition_icons"})),
      t.kind === "stronghold"
        ? select("Stronghold of", FACTIONS.map((f) => [f, factionName(f)]), () => t.faction, (v) => { t.faction = v; ctx.changed(); }, {path: "target.faction"})
        : null,
      checkbox("This target was already attacked this round", () => pos.already_attacked_this_round,
               (v) => { pos.already_attacked_this_round = v; ctx.changed(); }, {path: "already_attacked_this_round"}),
    ]);
    const handBox = handPanel([{id: "army", label: "the army", short: "Add to army", add: (c) => pos.army.push(c)}],
                              () => { changed(); }, () => handOf(pos.attacker_faction),
                              "Your faction's cards — drag into the army, or use the buttons");
    el.append(h("div", {class: "ra-board"},
      panel("Attacker", segmented("Your faction", FACTIONS.map((f) => [f, factionName(f)]), () => pos.attacker_faction,
                                  (v) => { pos.attacker_faction = v; ctx.changed(); handBox.draw(); }, {path: "attacker_faction"})),
      panel("Target", targetPanel.el),
      handBox.el,
      panel("Army", army.el),
      panel("Attrition", attrition.el),
      panel("Resolution bonuses", bonuses.el)));
  },
};

function sideColumn(side, label, pos, ctx, draws) {
  const s = pos[side] = pos[side] || {army: []};
  s.army = s.army || [];
  const army = armyZone(side, label, s.army, (structural = true) => {
    ctx.changed();
    if (structural) draws.forEach((d) => d());
  }, (card) => pruneBonuses(s, s.army, card));
  const bonuses = bonusesPanel(s, "resolution_bonuses", s.army, ctx.changed, `${side}.resolution_bonuses`);
  draws.push(army.draw, bonuses.draw);
  return h("div", {class: `side side-${side}`},
    h("h3", {}, label),
    textInput("Player", () => s.player, (v) => { s.player = v; ctx.changed(); }, {path: `${side}.player`}),
    army.el, h("h4", {}, "Resolution bonuses"), bonuses.el);
}

const siege = {
  example: {
    scenario: "runewars",
    target: {kind: "home_realm", name: "Elf Home Realm", damage: 0},
    attacker: {player: "Uthuk", army: [{name: "Flesh Ripper", strength: 3, kind: "unit"},
                                       {name: "Battle Cry", strength: 0, kind: "tactic"},
                                       {name: "Berserker", strength: 1, kind: "unit"},
                                       {name: "Berserker", strength: 1, kind: "unit"}],
               resolution_bonuses: [{source: "Battle Cry", strength: 2}]},
    defender: {player: "Elves", army: [{name: "Storm Sorceress", strength: 2, kind: "unit"},
                                       {name: "Darnati Warrior", strength: 3, kind: "unit"}],
               resolution_bonuses: []},
  },
  render(el, pos, ctx) {
    const t = pos.target = pos.target || {kind: "home_realm"};
    if (t.kind === "city" && t.auto_defense === undefined) t.auto_defense = 0;   // the numbers the fields show
    if (t.kind === "home_realm" && t.damage === undefined) t.damage = 0;
    const draws = [];
    const targetPanel = live((redraw) => [
      select("Scenario", [["resurgence-of-the-dragonlords", "Resurgence of the Dragonlords"], ["runewars", "Runewars"],
                          ["the-cataclysm", "The Cataclysm"], ["the-monument", "The Monument"]],
             () => pos.scenario, (v) => { pos.scenario = v; ctx.changed(); }, {path: "scenario"}),
      segmented("Besieged", [["home_realm", "Home Realm"], ["city", "City"]], () => t.kind, (v) => {
        // another kind of target is another target: its name and the other kind's numbers do not carry over
        if (v !== t.kind) for (const k of ["name", "damage", "auto_defense", "exhausted"]) delete t[k];
        t.kind = v;
        if (v === "city") t.auto_defense = 0; else t.damage = 0;   // the number the field shows is the one sent
        ctx.changed(); redraw();
      }, {path: "target.kind"}),
      row(textInput("Name", () => t.name, (v) => { t.name = v; ctx.changed(); }, {path: "target.name"}),
          t.kind === "home_realm"
            ? stepper("Damage already on it", () => t.damage || 0, (v) => { t.damage = v; ctx.changed(); }, {min: 0, max: 99, path: "target.damage"})
            : stepper("Auto-defense", () => t.auto_defense || 0, (v) => { t.auto_defense = v; ctx.changed(); }, {min: 0, max: 99, path: "target.auto_defense"})),
      t.kind === "city" ? checkbox("The city is exhausted", () => t.exhausted, (v) => { t.exhausted = v; ctx.changed(); }, {path: "target.exhausted"}) : null,
    ]);
    const cols = h("div", {class: "siege-sides"},
      sideColumn("attacker", "Attacker", pos, ctx, draws),
      sideColumn("defender", "Defender", pos, ctx, draws));
    const handBox = handPanel([
      {id: "attacker", label: "the attacker", short: "Attacker", add: (c) => pos.attacker.army.push(c)},
      {id: "defender", label: "the defender", short: "Defender", add: (c) => pos.defender.army.push(c)},
    ], () => { ctx.changed(); draws.forEach((d) => d()); }, () => [...Object.values(FACTION_CARDS).flat(), ...made]);
    el.append(h("div", {class: "ra-board"}, panel("Siege target", targetPanel.el), handBox.el,
                panel("Armies", cols)));
  },
};

export const editors = {battle, siege};
export const label = humanize;
