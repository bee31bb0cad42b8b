// RuneWars Miniatures: "Import roster" beside Import JSON. The player picks the army list they exported from
// BattleScribe (.ros, .rosz) or New Recruit (JSON); the server reads it into an army position and rules on it
// (POST /api/army/import), and the board shows that position with its ruling: what was read and every rule
// the list breaks, cited. This module adds no situation editor; it only adds the toolbar button.
import {h} from "../dom.js";

export const editors = {};

async function send(file) {
  const body = new FormData();
  body.append("file", file, file.name);
  const resp = await fetch("/api/army/import", {method: "POST", body, headers: {Accept: "application/json"}});
  let data = null;
  try { data = await resp.json(); } catch { data = {error: `unexpected answer (${resp.status})`, path: ""}; }
  return {ok: resp.ok, status: resp.status, data};
}

/** Add the button and its file picker to the board's toolbar; board.adopt(position, ruling) shows an import. */
export function toolbar(board) {
  const after = document.getElementById("import");
  if (!after || document.getElementById("import-roster")) return;
  const picker = h("input", {id: "import-roster-file", type: "file", hidden: true,
                             accept: ".ros,.rosz,.json,application/json,application/zip"});
  const button = h("button", {id: "import-roster", type: "button", class: "button secondary",
                              "aria-label": "Import roster (BattleScribe or New Recruit)",
                              onclick: () => picker.click()},
                   // on a phone the toolbar shortens "Import JSON" to "Import": this one reads "Roster", not a second "Import"
                   h("span", {class: "wide-only"}, "Import "), h("span", {class: "wide-only"}, "roster"), h("span", {class: "narrow-only"}, "Roster"));
  picker.addEventListener("change", async () => {
    const file = picker.files[0];
    picker.value = "";
    if (!file) return;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      const {ok, status, data} = await send(file);
      if (ok) board.adopt(data.position, data.ruling);
      else board.fail(status === 413 ? "The roster file is too large" : "The roster cannot be read", data);
    } catch (err) {
      board.fail("No answer from the server", {error: String(err)});
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  });
  after.after(button, picker);
}
