// Decisions the engine leaves to the players, answered in place: each decision names the JSON path of
// its answer (`field`) and, when finite, its `options`. Options become buttons (or a select, or
// checkboxes when the field is a list); a free answer gets an input of the field's schema type.
// Answering writes the value at that path into the position and resolves again.
import {copy, h, humanize, uid} from "./dom.js";
import {getAt, parsePath, schemaAt, setAt} from "./paths.js";
import {valueWords} from "./names.js";

function typeOf(schema) {
  if (!schema) return null;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null") || null;
  if (schema.type) return schema.type;
  if (schema.enum) return "enum";
  if (schema.properties || schema.additionalProperties) return "object";
  if (schema.items) return "array";
  return null;
}

function optionLabel(opt, words = null) {
  if (words && words.has(JSON.stringify(opt))) return words.get(JSON.stringify(opt));
  if (Array.isArray(opt)) return opt.map((o) => optionLabel(o)).join(", ");
  if (opt !== null && typeof opt === "object") {
    // counts per kind, e.g. {"curse": 2} → "Curse 2"
    const text = Object.entries(opt).map(([k, v]) => `${valueWords(k)} ${typeof v === "object" ? optionLabel(v) : valueWords(v)}`).join(", ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  const w = valueWords(opt);
  return typeof opt === "string" ? w.charAt(0).toUpperCase() + w.slice(1) : w;
}

/** When the options are entries of the same shape (e.g. the next play of a sequence: {by, action}), return
 *  the words of what tells them apart ("Play", "Pass"), or of the whole entry when there is only one. */
export function entryWords(opts) {
  const plain = (o) => o !== null && typeof o === "object" && !Array.isArray(o);
  if (!opts.length || !opts.every(plain)) return null;
  const keys = Object.keys(opts[0]).sort().join(",");
  if (!opts.every((o) => Object.keys(o).sort().join(",") === keys)) return null;
  const varying = Object.keys(opts[0]).filter((k) => opts.some((o) => !same(o[k], opts[0][k])));
  const shown = opts.length > 1 ? varying : Object.keys(opts[0]);
  if (!shown.length) return null;
  const out = new Map();
  for (const o of opts) {
    const text = shown.map((k) => (typeof o[k] === "object" ? optionLabel(o[k]) : valueWords(o[k]))).join(", ");
    out.set(JSON.stringify(o), text.charAt(0).toUpperCase() + text.slice(1));
  }
  return out;
}

/** When the answer is an index into a list of the position (the field's title or description says
 *  "index in the drawn …"), return the words of each index option: "Morale card drawn 1: Fear 1". */
export function indexWords(decision, position, fieldSchema, schema) {
  const opts = decision.options || [];
  if (!fieldSchema || !opts.length || !opts.every((o) => Number.isInteger(o))) return null;
  const text = `${fieldSchema.title || ""} ${fieldSchema.description || ""}`.toLowerCase();
  if (!/\bindex\b/.test(text)) return null;
  const keys = parsePath(decision.field);
  const parentKeys = keys.slice(0, -1);
  const parentPath = parentKeys.map((k, i) => (typeof k === "number" ? `[${k}]` : `${i ? "." : ""}${k}`)).join("");
  const parent = parentKeys.length ? getAt(position, parentPath) : position;
  if (!parent || typeof parent !== "object") return null;
  const lists = Object.keys(parent).filter((k) => Array.isArray(parent[k]) && new RegExp(`\\b${k.replace(/_/g, " ")}\\b`).test(text.replace(/_/g, " ")));
  if (lists.length !== 1) return null;
  const key = lists[0];
  const listSchema = schema ? schemaAt(schema, parentPath ? `${parentPath}.${key}` : key) : null;
  const one = (listSchema && listSchema.items && listSchema.items.title) || humanize(key).replace(/s$/, "");
  const out = new Map();
  for (const i of opts) {
    const item = parent[key][i];
    let name = null;
    if (item && typeof item === "object" && !Array.isArray(item)) name = item.name || item.id || null;
    else if (item !== undefined && item !== null && typeof item !== "object") name = valueWords(item);
    out.set(JSON.stringify(i), `${one} ${i + 1}${name ? `: ${name}` : ""}`);
  }
  return out;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function fieldLabel(path, fieldSchema = null) {
  if (fieldSchema && fieldSchema.title) return fieldSchema.title;
  return humanize(String(path).split(/[.[\]]+/).filter(Boolean).pop() || "answer");
}

function answerButton(label, onclick, attrs = {}) {
  return h("button", {type: "button", class: "button", onclick, ...attrs}, label);
}

/** Options as buttons (few) or a select with an answer button (many). */
function chooseOne(decision, position, onAnswer, words = null, fieldSchema = null) {
  const path = decision.field;
  const current = getAt(position, path);
  const opts = decision.options;
  if (opts.length <= 6 && opts.every((o) => optionLabel(o, words).length <= 40)) {
    return h("div", {class: "answer options", role: "group", "aria-label": `Answer: ${decision.choose}`},
      opts.map((opt) => answerButton(optionLabel(opt, words), () => onAnswer((pos) => setAt(pos, path, copy(opt))),
        {class: `button${same(current, opt) ? "" : " secondary"}`, "aria-pressed": same(current, opt) ? "true" : "false",
         dataset: {answer: JSON.stringify(opt)}})));
  }
  const id = uid("answer");
  const sel = h("select", {id}, opts.map((opt, i) => h("option", {value: String(i), selected: same(current, opt)}, optionLabel(opt, words))));
  return h("div", {class: "answer"}, h("div", {class: "field"}, h("label", {for: id}, fieldLabel(path, fieldSchema)), sel),
    answerButton("Answer and resolve again", () => onAnswer((pos) => setAt(pos, path, copy(opts[parseInt(sel.value, 10)])))));
}

/** A list answer chosen among options (e.g. "2 participating units to destroy"): one checkbox per option. */
function chooseSome(decision, position, onAnswer) {
  const path = decision.field;
  const m = /^(?:which\s+)?(\d+)\b/.exec(decision.choose);
  const n = m ? parseInt(m[1], 10) : null;
  const rows = decision.options.map((opt) => {
    const id = uid("pick");
    return [opt, id, h("div", {class: "field check"}, h("input", {id, type: "checkbox"}), h("label", {for: id}, optionLabel(opt)))];
  });
  const msg = h("p", {class: "hint", "aria-live": "polite"});
  return h("div", {class: "answer"}, rows.map((r) => r[2]), msg,
    answerButton(n === null ? "Answer and resolve again" : `Choose these ${n}`, () => {
      const chosen = rows.filter(([, id]) => document.getElementById(id).checked).map(([opt]) => copy(opt));
      if (n !== null && chosen.length !== n) {
        msg.textContent = `Choose exactly ${n} (chosen: ${chosen.length}).`;
        return;
      }
      onAnswer((pos) => setAt(pos, path, chosen));
    }));
}

/** A free answer: an input of the field's schema type. */
function freeAnswer(decision, position, onAnswer, fieldSchema) {
  const path = decision.field;
  const type = typeOf(fieldSchema);
  const current = getAt(position, path);
  if (fieldSchema && fieldSchema.enum) {
    return chooseOne({...decision, options: fieldSchema.enum}, position, onAnswer);
  }
  if (type === "boolean") {
    return chooseOne({...decision, options: [true, false]}, position, onAnswer);
  }
  if (type === "integer" || type === "number") {
    const id = uid("answer");
    const lo = fieldSchema.minimum ?? 0;
    const input = h("input", {id, type: "number", class: "num", inputmode: "numeric", min: fieldSchema.minimum ?? null,
                              max: fieldSchema.maximum ?? null, value: typeof current === "number" ? current : Math.max(lo, 0)});
    return h("div", {class: "answer"}, h("div", {class: "field"}, h("label", {for: id}, fieldLabel(path, fieldSchema)), input),
      answerButton("Answer and resolve again", () => onAnswer((pos) => setAt(pos, path, Number(input.value) || 0))));
  }
  if (type === "array") {
    const items = fieldSchema.items || {};
    const m = /(\d+) time/.exec(decision.choose);
    if (["integer", "number"].includes(typeOf(items)) && m) {
      const n = parseInt(m[1], 10);
      const inputs = Array.from({length: n}, (_, i) => {
        const id = uid("num");
        return [id, h("div", {class: "field"}, h("label", {for: id}, `Roll ${i + 1}`),
          h("input", {id, type: "number", class: "num", inputmode: "numeric", min: items.minimum ?? 0, max: items.maximum ?? null,
                      value: Array.isArray(current) && typeof current[i] === "number" ? current[i] : 0}))];
      });
      return h("div", {class: "answer"}, h("div", {class: "row"}, inputs.map(([, el]) => el)),
        answerButton("Answer and resolve again", () => onAnswer((pos) => setAt(pos, path,
          inputs.map(([id]) => Math.max(0, parseInt(document.getElementById(id).value, 10) || 0))))));
    }
    const id = uid("answer");
    const input = h("input", {id, type: "text", value: Array.isArray(current) ? current.join(", ") : "", placeholder: "comma-separated"});
    const numeric = ["integer", "number"].includes(typeOf(items));
    return h("div", {class: "answer"}, h("div", {class: "field"}, h("label", {for: id}, `${fieldLabel(path, fieldSchema)} (separate with commas; leave empty for none)`), input),
      answerButton("Answer and resolve again", () => onAnswer((pos) => setAt(pos, path,
        input.value.split(",").map((x) => x.trim()).filter(Boolean).map((x) => (numeric ? Number(x) || 0 : x))))));
  }
  if (type === "object") {
    // counts per kind (e.g. which ailments to remove): one number per named key
    const names = (fieldSchema.propertyNames && fieldSchema.propertyNames.enum) || Object.keys(fieldSchema.properties || {});
    if (!names.length) return null;
    const draft = current && typeof current === "object" ? copy(current) : {};
    const rows = names.map((k) => {
      const id = uid("answer");
      return [k, id, h("div", {class: "field"}, h("label", {for: id}, humanize(k)),
        h("input", {id, type: "number", class: "num", inputmode: "numeric", min: 0, value: draft[k] ?? 0}))];
    });
    return h("div", {class: "answer"}, h("div", {class: "row"}, rows.map((r) => r[2])),
      answerButton("Answer and resolve again", () => onAnswer((pos) => {
        const out = {};
        for (const [k, id] of rows) {
          const v = Math.max(0, parseInt(document.getElementById(id).value, 10) || 0);
          if (v) out[k] = v;
        }
        setAt(pos, path, out);
      })));
  }
  const id = uid("answer");
  const input = h("input", {id, type: "text", value: typeof current === "string" ? current : "", maxlength: 200});
  return h("div", {class: "answer"}, h("div", {class: "field"}, h("label", {for: id}, fieldLabel(path, fieldSchema)), input),
    answerButton("Answer and resolve again", () => onAnswer((pos) => setAt(pos, path, input.value.trim()))));
}

/** Return controls answering decision (or null when the decision names no field of the position). */
export function answerControls(ruling, decision, position, onAnswer, schema) {
  if (!decision.field) return null;
  const fieldSchema = schema ? schemaAt(schema, decision.field) : null;
  const words = indexWords(decision, position, fieldSchema, schema) || entryWords(decision.options || []);
  const el = decision.options && decision.options.length
    ? (typeOf(fieldSchema) === "array" ? chooseSome(decision, position, onAnswer)
                                        : chooseOne(decision, position, onAnswer, words, fieldSchema))
    : freeAnswer(decision, position, onAnswer, fieldSchema);
  if (el) el.dataset.field = decision.field;
  return el;
}

