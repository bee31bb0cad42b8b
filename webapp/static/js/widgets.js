// Form widgets with labels, big tap targets and keyboard support, bound to get/set functions.
import {h, uid, humanize} from "./dom.js";
import {FACTION_NAMES} from "./names.js";

/** Return the words of an option value: factions as printed, other keys humanized. */
function optionText(v) {
  if (v === null || v === undefined) return "none";
  return Object.prototype.hasOwnProperty.call(FACTION_NAMES, v) ? FACTION_NAMES[v] : humanize(v);
}

/** Return a labelled whole-number input with − and + buttons. The − and + buttons stay within min and max; a
 *  number typed in is sent as typed, never clamped, so the engine refuses one out of range at this field. With empty = {label, start, clear}, the
 *  number may be left blank (shown as empty.label, e.g. "unknown"): − or + start from empty.start, and
 *  clearing the input (or the ✕ button) calls empty.clear(). */
export function stepper(label, get, set, {min = null, max = null, path = "", hint = null, small = false, empty = null} = {}) {
  const id = uid("num");
  const input = h("input", {id, type: "number", inputmode: "numeric", step: "1", class: "num",
                            min: min ?? null, max: max ?? null, value: get() ?? "", dataset: {path},
                            placeholder: empty ? empty.label : null});
  const clamp = (v) => {
    if (min !== null && v < min) v = min;
    if (max !== null && v > max) v = max;
    return v;
  };
  const commit = (v) => { input.value = v; input.removeAttribute("aria-invalid"); set(v); };
  input.addEventListener("input", () => {
    if (empty && input.value.trim() === "") {
      input.removeAttribute("aria-invalid");
      empty.clear();
      return;
    }
    if (input.value === "" || !/^-?\d+$/.test(input.value.trim())) {
      input.setAttribute("aria-invalid", "true");
      return;
    }
    input.removeAttribute("aria-invalid");
    set(parseInt(input.value, 10));
  });
  // a typed number is sent as typed (the engine refuses one out of range, naming the field); only − and + stay
  // within the field's bounds
  input.addEventListener("change", () => {
    if (/^-?\d+$/.test(input.value.trim())) commit(parseInt(input.value, 10));
  });
  const bump = (d) => () => {
    if (empty && input.value.trim() === "") commit(clamp(empty.start ?? 0));
    else commit(clamp((parseInt(input.value, 10) || 0) + d));
  };
  return h("div", {class: `field stepper${small ? " small" : ""}`, dataset: {path}},
    h("label", {for: id}, label),
    h("div", {class: "stepper-row"},
      h("button", {type: "button", class: "step", "aria-label": `${label}: one less`, onclick: bump(-1)}, "−"),
      input,
      h("button", {type: "button", class: "step", "aria-label": `${label}: one more`, onclick: bump(1)}, "+"),
      empty ? h("button", {type: "button", class: "step clear", "aria-label": `${label}: unknown`, title: empty.label,
                           onclick: () => { input.value = ""; empty.clear(); }}, "✕") : null),
    hint ? h("small", {class: "hint"}, hint) : null);
}

/** Return a labelled text input. */
export function textInput(label, get, set, {maxLength = 200, path = "", placeholder = null, list = null} = {}) {
  const id = uid("txt");
  const input = h("input", {id, type: "text", value: get() ?? "", maxlength: maxLength, dataset: {path},
                            placeholder, list, autocomplete: "off",
                            oninput: (e) => set(e.target.value)});
  return h("div", {class: "field text", dataset: {path}}, h("label", {for: id}, label), input);
}

/** Return a labelled checkbox (the whole row is the tap target). */
export function checkbox(label, get, set, {path = "", onchange = null} = {}) {
  const id = uid("chk");
  return h("div", {class: "field check", dataset: {path}},
    h("input", {id, type: "checkbox", checked: !!get(),
                onchange: (e) => { set(e.target.checked); if (onchange) onchange(e.target.checked); }}),
    h("label", {for: id}, label));
}

/** Return a segmented choice (radio buttons styled as buttons); options are values or [value, label]. */
export function segmented(label, options, get, set, {path = "", onchange = null} = {}) {
  const name = uid("seg");
  const group = h("div", {class: "segmented", role: "radiogroup", "aria-label": label});
  for (const opt of options) {
    const [value, text] = Array.isArray(opt) ? opt : [opt, optionText(opt)];
    const id = uid("opt");
    group.append(
      h("input", {type: "radio", id, name, value: JSON.stringify(value), checked: get() === value,
                  onchange: () => { set(value); if (onchange) onchange(value); }}),
      h("label", {for: id}, text));
  }
  return h("fieldset", {class: "field seg", dataset: {path}}, h("legend", {}, label), group);
}

/** Return a labelled select; options are values or [value, label]. */
export function select(label, options, get, set, {path = "", onchange = null} = {}) {
  const id = uid("sel");
  const el = h("select", {id, dataset: {path}, onchange: (e) => {
    const value = JSON.parse(e.target.value);
    set(value);
    if (onchange) onchange(value);
  }});
  for (const opt of options) {
    const [value, text] = Array.isArray(opt) ? opt : [opt, opt === null ? "(none)" : optionText(opt)];
    el.append(h("option", {value: JSON.stringify(value), selected: get() === value}, text));
  }
  return h("div", {class: "field select", dataset: {path}}, h("label", {for: id}, label), el);
}

/** Return a small icon-ish button. */
export function smallButton(text, onclick, attrs = {}) {
  return h("button", {type: "button", class: "button small secondary", onclick, ...attrs}, text);
}
