// The pointer (part of board.js's module): a press and release on one spot is a
// click; a press on a tower that may move, then a drag, lifts it and shows its
// destinations from `moves`; a drop is reported through `drop`. The keys too.

function countFor(ui, square, layer) {
  // How many tavrels a press takes: the strip's layer, else the count chosen
  // before (the selected tower's pill), else the whole tower or the largest
  // part that may move (as Python does for a click).
  const tower = ui.holder.querySelector(`g.tower[data-square="${square}"]`);
  const height = Number(tower ? tower.getAttribute("data-height") : 1);
  if (layer !== null) return height - layer;
  const pill = ui.holder.querySelector(`.split-count[data-square="${square}"]`);
  if (pill) return Number(pill.getAttribute("data-count"));
  const counts = Object.keys((ui.model.get("moves") || {})[square] || {}).map(Number);
  return counts.includes(height) || !counts.length ? height : Math.max(...counts);
}
function startDrag(ui, event) {
  const { square, layer } = ui.press;
  const tower = ui.holder.querySelector(`g.tower[data-square="${square}"]`);
  const options = (ui.model.get("moves") || {})[square];
  if (!tower || !options) return false;
  const count = countFor(ui, square, layer);
  const height = Number(tower.getAttribute("data-height"));
  const dests = options[String(count)] || [];
  const ghost = tower.cloneNode(true);
  ghost.classList.add("drag-ghost");
  ghost.setAttribute("pointer-events", "none");
  for (const band of ghost.querySelectorAll("[data-layer]")) {
    if (Number(band.getAttribute("data-layer")) < height - count) band.style.opacity = "0.15";
  }
  tower.classList.add("drag-source");
  const marks = overlay(ui, "drag-dests");
  for (const name of dests) {
    const r = squareRect(ui, name);
    if (r) shape(marks, "circle", { cx: r.x + r.w / 2, cy: r.y + r.w / 2, r: r.w * 0.17,
                                    class: "drag-dest", "data-square": name });
  }
  overlay(ui, "drag-layer").appendChild(ghost);
  // the tower keeps its offset to the pointer from where it was grabbed
  ui.drag = { square, count, dests, tower, ghost,
           start: toUnits(ui, { clientX: ui.press.x, clientY: ui.press.y }) };
  ui.el.dataset.dragging = `${square}:${count}`;
  moveDrag(ui, event);
  return true;
}
function moveDrag(ui, event) {
  const p = toUnits(ui, event);
  if (!p || !ui.drag) return;
  ui.drag.ghost.setAttribute("transform", `translate(${p.x - ui.drag.start.x},${p.y - ui.drag.start.y})`);
  const over = squareAt(ui, event);
  for (const m of ui.holder.querySelectorAll(".drag-dest")) {
    m.classList.toggle("hover", m.dataset.square === over);
  }
}
function endDrag(ui, event) {
  const d = ui.drag;
  delete ui.el.dataset.dragging;
  const target = squareAt(ui, event);
  if (target === d.square) {               // put back where it was: a click
    cancelDrag(ui);
    sendClick(ui, d.square, null);
    return;
  }
  if (target && d.dests.includes(target)) {
    // Stay on the target until Python's drawing replaces this one.
    const a = squareRect(ui, d.square), b = squareRect(ui, target);
    d.ghost.setAttribute("transform", `translate(${b.x - a.x},${b.y - a.y})`);
    for (const m of ui.holder.querySelectorAll(".drag-dest")) m.remove();
    ui.pendingDrop = d;
    setTimeout(() => { if (ui.pendingDrop === d) { snapHome(ui, d); ui.pendingDrop = null; } }, 5000);
  } else {
    snapHome(ui, d);
    if (target) flash(ui, target);
  }
  if (target) {
    ui.clickedAt = performance.now();
    ui.report("drop", { from: d.square, count: d.count, to: target });
  }
}
function snapHome(ui, d) {
  const back = () => { d.ghost.remove(); d.tower.classList.remove("drag-source"); };
  for (const m of ui.holder.querySelectorAll(".drag-dest")) m.remove();
  ui.drag = null;
  const t = d.ghost.getAttribute("transform") || "";
  const m = /translate\(([-\d.e]+),([-\d.e]+)\)/.exec(t);
  if (!m || !animationsOn(ui)) { back(); return; }
  d.ghost.removeAttribute("transform");
  const anim = d.ghost.animate([{ transform: `translate(${m[1]}px, ${m[2]}px)` },
                                { transform: "translate(0px, 0px)" }],
                               { duration: SLIDE_MS, easing: "ease-out" });
  anim.onfinish = back;
  ui.el.dataset.snapped = d.square;
}
function cancelDrag(ui) {
  if (!ui.drag) return;
  ui.drag.ghost.remove();
  ui.drag.tower.classList.remove("drag-source");
  for (const m of ui.holder.querySelectorAll(".drag-dest")) m.remove();
  ui.drag = null;
}

// -- pointer events and keys -------------------------------------------------------
function hitOf(ui, event) {
  const hit = hitIn(ui.holder, event, "data-square");
  if (!hit) return null;
  const layerNode = hitIn(ui.holder, event, "data-layer");
  const layer = layerNode ? Number(layerNode.getAttribute("data-layer")) : null;
  return { square: hit.getAttribute("data-square"), layer };
}
function sendClick(ui, square, layer) {
  ui.el.focus({ preventScroll: true });
  ui.clickedAt = performance.now();
  ui.report("click", { square, layer });
}
function onPointerDown(ui, event) {
  if (ui.rolling) ui.rolling.finish();           // any press skips the die's tumble
  if (event.button === 2) {
    ui.rightFrom = squareAt(ui, event);
    event.preventDefault();
    return;
  }
  if (event.button !== 0 || ui.pendingDrop) return;
  const hit = hitOf(ui, event);
  if (!hit) return;
  event.preventDefault();
  ui.el.focus({ preventScroll: true });         // arrow keys step moves after a drag too
  clearUserShapes(ui);
  ui.press = { ...hit, x: event.clientX, y: event.clientY, id: event.pointerId };
  ui.holder.setPointerCapture(event.pointerId);
}
function onPointerMove(ui, event) {
  if (!ui.press || event.pointerId !== ui.press.id) return;
  ui.lastPointer = { clientX: event.clientX, clientY: event.clientY };
  if (ui.drag) { moveDrag(ui, event); return; }
  const moved = Math.hypot(event.clientX - ui.press.x, event.clientY - ui.press.y);
  if (moved >= DRAG_START_PX && !startDrag(ui, event)) ui.press.noDrag = true;
}
function onPointerUp(ui, event) {
  if (event.button === 2) {
    const to = squareAt(ui, event);
    if (ui.rightFrom && to) {
      const brush = event.shiftKey ? "red" : event.altKey ? "blue" : event.ctrlKey
        ? "yellow" : "green";
      toggleUserShape(ui, ui.rightFrom, to, brush);
    }
    ui.rightFrom = null;
    return;
  }
  if (!ui.press || event.pointerId !== ui.press.id) return;
  const p = ui.press;
  ui.press = null;
  if (ui.drag) { endDrag(ui, event); return; }
  const target = squareAt(ui, event);
  if (p.noDrag && target !== p.square) {
    // A tower that may not move was dragged away: nothing moves, but the
    // square flashes and Python says why (not your turn, the die, no move).
    if (!target || !ui.holder.querySelector(`g.tower[data-square="${p.square}"]`)) return;
    ui.clickedAt = performance.now();
    ui.report("drop", { from: p.square, count: countFor(ui, p.square, p.layer), to: target });
    return;
  }
  sendClick(ui, p.square, p.layer);
}
function onPointerCancel(ui) {
  ui.press = null;
  if (ui.drag) snapHome(ui, ui.drag);
}
function onContextMenu(ui, event) {
  // Over the board the right button draws; Jupyter's menu must not open.
  event.preventDefault();
  event.stopPropagation();
}

// lichess's keys: arrows step, up/down (or Home/End) go to the start/end, f flips
const KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "f"]);
function onKey(ui, event) {
  if (event.key === "Escape" && ui.drag) { snapHome(ui, ui.drag); return; }
  if (!KEYS.has(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
  event.preventDefault();
  event.stopPropagation();
  ui.clickedAt = performance.now();
  ui.report("key", { key: event.key });
}
