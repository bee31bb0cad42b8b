// Names as players read them: factions as printed, outcome keys with labels, values in words.
import {humanize} from "./dom.js";

export const FACTION_NAMES = {
  daqan: "Daqan", uthuk: "Uthuk Y'llan", waiqar: "Waiqar", elves: "Latari Elves", neutral: "Neutral",
};

/** Return the printed name of a faction key (other values unchanged). */
export function factionName(key) {
  return Object.prototype.hasOwnProperty.call(FACTION_NAMES, key) ? FACTION_NAMES[key] : key;
}

/** Return a value in words: booleans as yes/no, faction keys as printed, snake_case enums humanized. */
export function valueWords(value) {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === null || value === undefined) return "unknown";
  if (typeof value === "string") {
    if (value in FACTION_NAMES) return FACTION_NAMES[value];
    if (/^[a-z]+([_-][a-z]+)*$/.test(value)) return humanize(value).toLowerCase();
    return value;
  }
  return String(value);
}

/** Return the player's label of an outcome key: the situation's label when it has one, else the key humanized. */
export function keyLabel(key, labels) {
  if (labels && typeof labels[key] === "string") return labels[key];
  if (key === "") return "(no name)";
  if (/^[a-z0-9]+(_[a-z0-9]+)*$/.test(key)) return humanize(key);
  return key;  // a unit, card or player name: shown as printed
}
