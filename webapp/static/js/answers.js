// Decisions the engine leaves to the players, turned into questions whose answers go into the position.
import {h, uid} from "./dom.js";

function answerButton(label, onclick) {
  return h("button", {type: "button", class: "button", onclick}, label);
}

/** Rune Age battle: "roll the attrition die N time(s) and give the skulls rolled". */
function attritionRoll(decision, position, onAnswer) {
  const m = /roll the attrition die (\d+) time/.exec(decision.choose);
  if (!m) return null;
  const n = parseInt(m[1], 10);
  const inputs = Array.from({length: n}, (_, i) => {
    const id = uid("skull");
    return [id, h("div", {class: "field"}, h("label", {for: id}, `Skulls on roll ${i + 1}`),
      h("input", {id, type: "number", min: 0, max: 10, value: 0, inputmode: "numeric", class: "num"}))];
  });
  return h("div", {class: "answer"}, inputs.map(([, el]) => el), answerButton("Answer and resolve again", () => {
    onAnswer((pos) => {
      pos.attrition_skulls = inputs.map(([id]) => Math.max(0, parseInt(document.getElementById(id).value, 10) || 0));
    });
  }));
}

/** Rune Age battle: "N participating unit(s) to destroy" with the candidates as options. */
function attritionVictims(decision, position, onAnswer) {
  const m = /^(\d+) participating unit/.exec(decision.choose);
  if (!m || !decision.options) return null;
  const n = parseInt(m[1], 10);
  const rows = [];
  (position.army || []).forEach((card, i) => {
    if (!decision.options.includes(card.name) || card.kind === "tactic") return;
    const id = uid("victim");
    rows.push([card.name, id, h("div", {class: "field check"},
      h("input", {id, type: "checkbox"}), h("label", {for: id}, `${card.name} (${card.strength})`))]);
  });
  const msg = h("p", {class: "hint", "aria-live": "polite"});
  return h("div", {class: "answer"}, rows.map((r) => r[2]), msg, answerButton(`Destroy these ${n}`, () => {
    const chosen = rows.filter(([, id]) => document.getElementById(id).checked).map(([name]) => name);
    if (chosen.length !== n) {
      msg.textContent = `Choose exactly ${n} (chosen: ${chosen.length}).`;
      return;
    }
    onAnswer((pos) => { pos.destroyed_by_attrition = chosen; });
  }));
}

/** Runeslingers damage: "whether to block … and with what block value". */
function block(decision, position, onAnswer) {
  if (!/whether to block/.test(decision.choose)) return null;
  const id = uid("blockval");
  return h("div", {class: "answer"},
    h("div", {class: "field"}, h("label", {for: id}, "Block value"),
      h("input", {id, type: "number", min: 0, value: 1, inputmode: "numeric", class: "num"})),
    answerButton("Block", () => onAnswer((pos) => {
      pos.block = {...(pos.block || {}), declared: true, value: parseInt(document.getElementById(id).value, 10) || 0};
    })),
    " ",
    answerButton("Do not block", () => onAnswer((pos) => { pos.block = {...(pos.block || {}), declared: false}; })));
}

/** A choice among options the position can state in one field (the field is named by the answer). */
function optionField(field) {
  return (decision, position, onAnswer) => {
    if (!decision.options || !decision.options.length) return null;
    return h("div", {class: "answer options"}, decision.options.map((opt) =>
      answerButton(String(opt), () => onAnswer((pos) => { pos[field] = opt; }))));
  };
}

/** Runeslingers ailment phase: "which N exposed ailments to remove (any mix of types)". */
function ailmentsToRemove(decision, position, onAnswer) {
  const m = /which (\d+) exposed ailments to remove/.exec(decision.choose);
  if (!m || !decision.options) return null;
  const n = parseInt(m[1], 10);
  const rows = decision.options.map((kind) => {
    const id = uid("remove");
    return [kind, id, h("div", {class: "field"}, h("label", {for: id}, `Remove ${kind}`),
      h("input", {id, type: "number", min: 0, max: n, value: 0, inputmode: "numeric", class: "num"}))];
  });
  const msg = h("p", {class: "hint", "aria-live": "polite"});
  return h("div", {class: "answer"}, rows.map((r) => r[2]), msg, answerButton(`Remove these ${n}`, () => {
    const remove = {};
    let total = 0;
    for (const [kind, id] of rows) {
      const v = Math.max(0, parseInt(document.getElementById(id).value, 10) || 0);
      if (v) remove[kind] = v;
      total += v;
    }
    if (total !== n) {
      msg.textContent = `Remove exactly ${n} in all (now: ${total}).`;
      return;
    }
    onAnswer((pos) => { pos.remove = remove; });
  }));
}

const ANSWERS = {
  "rune-age/battle": [attritionRoll, attritionVictims],
  "runeslingers/damage": [block],
  "runeslingers/draw": [optionField("pass_choice")],
  "runeslingers/ailment_phase": [ailmentsToRemove],
};

/** Return controls answering decision (or null when the position has no field for it). */
export function answerControls(ruling, decision, position, onAnswer) {
  for (const fn of ANSWERS[`${ruling.game}/${ruling.situation}`] || []) {
    const el = fn(decision, position, onAnswer);
    if (el) return el;
  }
  return null;
}
