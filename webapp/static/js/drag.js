// Pointer-based drag and drop (mouse, pen and touch alike); every drop has a button equivalent.

/** Make el draggable: on a drop over an element with [data-dropzone], call onDrop(zoneName). */
export function draggable(el, label, onDrop) {
  el.classList.add("draggable");
  el.addEventListener("pointerdown", (down) => {
    if (down.button !== 0 || down.target.closest("button, input, select, a")) return;
    const start = {x: down.clientX, y: down.clientY};
    let ghost = null;
    let over = null;
    const move = (e) => {
      if (!ghost) {
        if (Math.hypot(e.clientX - start.x, e.clientY - start.y) < 6) return;
        ghost = el.cloneNode(true);
        ghost.classList.add("ghost");
        ghost.setAttribute("aria-hidden", "true");
        ghost.style.width = `${el.getBoundingClientRect().width}px`;
        document.body.append(ghost);
        el.classList.add("dragging");
        document.body.classList.add("dragging");
        const sel = window.getSelection && window.getSelection();
        if (sel) sel.removeAllRanges();
      }
      ghost.style.left = `${e.clientX + 4}px`;
      ghost.style.top = `${e.clientY + 4}px`;
      ghost.hidden = true;
      const target = document.elementFromPoint(e.clientX, e.clientY);
      ghost.hidden = false;
      const zone = target && target.closest("[data-dropzone]");
      if (over && over !== zone) over.classList.remove("drop-over");
      over = zone;
      if (over) over.classList.add("drop-over");
      e.preventDefault();
    };
    const up = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      el.classList.remove("dragging");
      document.body.classList.remove("dragging");
      if (ghost) ghost.remove();
      if (over) {
        over.classList.remove("drop-over");
        if (ghost) onDrop(over.dataset.dropzone);
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  });
  el.setAttribute("aria-roledescription", "draggable card");
  if (label) el.setAttribute("aria-label", label);
}
