// The browser half of the tavrei_lab board (anywidget, inline ESM, no build step).
//
// It only draws and reports, after chessground's split: Python computes every
// legal move and sends a finished SVG (trait `svg`); this code puts it into the
// page, greys the towers listed in `greyed`, and reports clicks on anything
// carrying `data-square` (and `data-layer` for a layer of a tower's strip)
// through the `click` trait, arrow keys through the `key` trait. Every report
// carries a fresh `seq`, so clicking the same square twice is two changes.

function render({ model, el }) {
  el.classList.add("tavrei-board-widget");
  el.tabIndex = 0;                                  // focusable: arrow keys step moves
  el.setAttribute("data-lm-suppress-shortcuts", "true");  // JupyterLab: keys are ours
  const holder = document.createElement("div");
  holder.className = "tavrei-board-svg";
  el.appendChild(holder);

  let seq = 0;
  let clickedAt = null;                             // performance.now() of the last click

  function draw() {
    // Replace the drawing in place: the widget (and its focus) stays.
    holder.innerHTML = model.get("svg");
    for (const square of model.get("greyed") || []) {
      for (const node of holder.querySelectorAll(`.tower[data-square="${square}"]`)) {
        node.classList.add("greyed");
      }
    }
    if (clickedAt !== null) {
      // Click-to-redraw time, read by the browser tests: from the click to the
      // new drawing in the page and laid out (reading the size forces layout;
      // no animation frame is awaited, as a hidden tab would never get one).
      holder.getBoundingClientRect();
      el.dataset.redrawMs = (performance.now() - clickedAt).toFixed(1);
      clickedAt = null;
    }
    el.dataset.version = String(model.get("version"));
  }

  // svg, greyed and version arrive together (one message); draw once for them.
  let queued = false;
  function scheduleDraw() {
    if (queued) return;
    queued = true;
    queueMicrotask(() => { queued = false; draw(); });
  }

  function onClick(event) {
    const hit = event.target.closest("[data-square]");
    if (!hit || !holder.contains(hit)) return;
    const layerNode = event.target.closest("[data-layer]");
    const layer = layerNode && holder.contains(layerNode)
      ? Number(layerNode.getAttribute("data-layer")) : null;
    event.preventDefault();
    el.focus({ preventScroll: true });
    clickedAt = performance.now();
    seq += 1;
    model.set("click", { square: hit.getAttribute("data-square"), layer, seq });
    model.save_changes();
  }

  const KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);
  function onKey(event) {
    if (!KEYS.has(event.key)) return;
    event.preventDefault();
    event.stopPropagation();
    clickedAt = performance.now();
    seq += 1;
    model.set("key", { key: event.key, seq });
    model.save_changes();
  }

  async function onClipboard() {
    const text = (model.get("clipboard") || {}).text;
    if (!text) return;
    try {
      await navigator.clipboard.writeText(text);
    } catch (err) {
      // Older browsers or an insecure origin: the classic selection copy.
      const area = document.createElement("textarea");
      area.value = text;
      el.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
  }

  holder.addEventListener("click", onClick);
  el.addEventListener("keydown", onKey);
  for (const name of ["svg", "greyed", "version"]) model.on(`change:${name}`, scheduleDraw);
  model.on("change:clipboard", onClipboard);
  draw();
  return () => {
    for (const name of ["svg", "greyed", "version"]) model.off(`change:${name}`, scheduleDraw);
    model.off("change:clipboard", onClipboard);
    holder.removeEventListener("click", onClick);
    el.removeEventListener("keydown", onKey);
  };
}

export default { render };
