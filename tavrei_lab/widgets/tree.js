// The browser half of the tree view (widgets/tree.py): after svg_clicks.js.
//
// It shows the tree Python draws and reports a click on a node (anything
// carrying `data-node`) through the `click` trait as {node, action, seq}:
// a click folds or unfolds (action "toggle"), a double-click selects
// ("select"). The click waits to see whether a second one follows, so a
// double-click never folds on its way. The node under the pointer goes to
// `hover` ({node}, node null when the pointer leaves the nodes).
//
// The camera. The drawing is shown through the SVG's own viewBox, so it stays
// sharp at every scale: `scale` CSS pixels per drawing unit and (x, y), the
// drawing point at the box's top-left corner.
// - On the first draw (and while the reader has not moved it, whenever the
//   box changes size) the whole drawing is fitted into the box, never
//   enlarged past its natural size.
// - The wheel, a trackpad's pinch (a wheel event with ctrlKey) and two
//   fingers zoom about the pointer: the drawing point under it stays under it.
//   A sideways wheel (or shift and the wheel) and a drag move the drawing.
// - The +, − and fit buttons (and `command` from Python) zoom by steps, about
//   the middle of the part of the tree in sight (about the box's middle they
//   pushed a short fitted tree out of the box). Fit centres the whole tree; where
//   its labels are then under READABLE_PX, a "readable" button zooms until
//   they are not.
// - When a new drawing arrives, the node Python names in `anchor` (the node
//   just clicked) keeps its place on the screen: its drawing point moved as
//   the subtrees beside it unfolded, and the camera follows it.
// Where it ended goes back to Python in `camera` (and in the box's data-*
// attributes); nothing of it is sent while a gesture goes on.

const DOUBLE_CLICK_WAIT_MS = 250;
const HOVER_WAIT_MS = 120;
const CAMERA_REPORT_MS = 200;
const ZOOM_STEP = 1.25;            // one button press
const WHEEL_ZOOM = 0.002;          // per pixel of wheel (a mouse notch is 100 px: x1.22)
const PINCH_ZOOM = 0.01;           // per pixel of a trackpad pinch (small deltas)
const MAX_SCALE = 4;               // 11 px labels at 44 px: closer is no use
const FIT_MAX = 1;                 // a small tree is shown at its natural size
const DRAG_PX = 4;                 // a press that moves less is a click
const KEEP_PX = 40;                // a pan keeps this much of the drawing in the box
const READABLE_PX = 12;            // a label smaller than this is not read from a seat

function nodeCentre(root, node) {
  // The centre of a node's shape in drawing units (from its attributes: no layout).
  const g = root.querySelector(`g.node[data-node="${node}"]`);
  const shape = g && g.querySelector(".shape");
  if (!shape) return null;
  const n = (name) => Number(shape.getAttribute(name));
  switch (shape.tagName.toLowerCase()) {
    case "circle": return { x: n("cx"), y: n("cy") };
    case "rect": return { x: n("x") + n("width") / 2, y: n("y") + n("height") / 2 };
    default: {
      const points = (shape.getAttribute("points") || "").trim().split(/[\s,]+/).map(Number);
      if (points.length < 2) return null;
      let x = 0, y = 0;
      for (let i = 0; i < points.length; i += 2) { x += points[i]; y += points[i + 1]; }
      return { x: x / (points.length / 2), y: y / (points.length / 2) };
    }
  }
}

function naturalSize(svg) {
  // The drawing's own size in drawing units (its viewBox as Python wrote it).
  const box = (svg.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
  if (box.length === 4 && box[2] > 0 && box[3] > 0) return { w: box[2], h: box[3] };
  return { w: Number(svg.getAttribute("width")) || 1, h: Number(svg.getAttribute("height")) || 1 };
}

function render({ model, el }) {
  const holder = svgHolder(el, "tavrei-tree-svg");
  Object.assign(holder.style, {
    position: "relative", overflow: "hidden", height: "100%", minHeight: "320px",
    maxHeight: "75vh",     // on the screen whole: a tree fitted into it is in sight
    touchAction: "none", userSelect: "none", cursor: "grab",
    border: "1px solid rgba(128,128,128,.35)", borderRadius: "4px", boxSizing: "border-box",
  });
  // The drawing grows a thumbnail under the mouse (for a picture in a page); here
  // the board beside the tree shows that position full size, so it stays as drawn.
  const style = document.createElement("style");
  style.textContent = ".tavrei-tree-svg .tavrei-tree .thumbnail:hover{transform:none}";
  holder.appendChild(style);
  const stage = document.createElement("div");
  stage.className = "tavrei-tree-stage";
  holder.appendChild(stage);
  const tools = document.createElement("div");
  tools.className = "tavrei-tree-tools";
  Object.assign(tools.style, { position: "absolute", top: "6px", right: "6px",
                               display: "flex", gap: "4px", zIndex: "1" });
  const buttons = {};
  for (const [name, text] of [["zoom_in", "+"], ["zoom_out", "\u2212"], ["fit", ""],
                              ["readable", ""]]) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `tavrei-tree-${name.replace("_", "-")}`;
    b.textContent = text;
    Object.assign(b.style, { minWidth: "30px", height: "30px", font: "bold 16px sans-serif",
                             cursor: "pointer", opacity: ".9" });
    tools.appendChild(b);
    buttons[name] = b;
  }
  holder.appendChild(tools);
  const report = reporter(model);

  let svg = null;                  // the drawing now shown
  let natural = { w: 1, h: 1 };
  let cam = { scale: 1, x: 0, y: 0 };
  let following = true;            // refit when the box changes, until the reader moves it
  let drawnOnce = false;

  function boxSize() {
    return { w: holder.clientWidth, h: holder.clientHeight };
  }
  function fitScale(box) {
    return Math.min(box.w / natural.w, box.h / natural.h, FIT_MAX);
  }
  function minScale(box) {
    return Math.min(0.2, fitScale(box) / 2);
  }
  function clampPan(box) {
    // Keep part of the drawing in the box: a pan never loses the tree.
    const vw = box.w / cam.scale, vh = box.h / cam.scale, keep = KEEP_PX / cam.scale;
    cam.x = Math.min(Math.max(cam.x, keep - vw), natural.w - keep);
    cam.y = Math.min(Math.max(cam.y, keep - vh), natural.h - keep);
  }
  let reportTimer = null;
  function apply() {
    if (!svg) return;
    const box = boxSize();
    if (box.w <= 0 || box.h <= 0) return;
    svg.setAttribute("width", box.w);
    svg.setAttribute("height", box.h);
    svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
    svg.setAttribute("viewBox", [cam.x, cam.y, box.w / cam.scale, box.h / cam.scale]
      .map((v) => +v.toFixed(3)).join(" "));
    svg.style.display = "block";
    const readable = readableScale();
    buttons.readable.style.display = readable && cam.scale < readable - 1e-6 ? "" : "none";
    holder.dataset.labelPx = (labelUnits() * cam.scale).toFixed(2);
    holder.dataset.scale = cam.scale.toFixed(4);
    holder.dataset.x = cam.x.toFixed(2);
    holder.dataset.y = cam.y.toFixed(2);
    holder.dataset.naturalWidth = natural.w;
    clearTimeout(reportTimer);
    reportTimer = setTimeout(() => report("camera", {
      scale: cam.scale, x: cam.x, y: cam.y, width: box.w, height: box.h }), CAMERA_REPORT_MS);
  }
  function fit() {
    const box = boxSize();
    if (!svg || box.w <= 0 || box.h <= 0) return false;
    const s = fitScale(box);
    // centred both ways: the zoom buttons then zoom about the tree itself
    cam = { scale: s, x: (natural.w - box.w / s) / 2, y: (natural.h - box.h / s) / 2 };
    following = true;
    apply();
    return true;
  }
  function zoomAt(factor, px, py) {
    const box = boxSize();
    if (!svg || box.w <= 0) return;
    const s = Math.min(Math.max(cam.scale * factor, minScale(box)), MAX_SCALE);
    const dx = cam.x + px / cam.scale, dy = cam.y + py / cam.scale;   // under the point
    cam = { scale: s, x: dx - px / s, y: dy - py / s };
    following = false;
    clampPan(box);
    apply();
  }
  function panBy(sx, sy) {
    cam.x -= sx / cam.scale;
    cam.y -= sy / cam.scale;
    following = false;
    clampPan(boxSize());
    apply();
  }
  function local(event) {
    const r = holder.getBoundingClientRect();
    return { x: event.clientX - r.left - holder.clientLeft, y: event.clientY - r.top - holder.clientTop };
  }
  function labelUnits() {
    // A node label's size in drawing units (the drawing's own style sets it).
    const label = svg && svg.querySelector("text.label");
    return (label && parseFloat(getComputedStyle(label).fontSize)) || 11;
  }
  function readableScale() {
    return Math.min(MAX_SCALE, READABLE_PX / labelUnits());
  }
  function inSight(box) {
    // The middle of the part of the drawing in the box, in the box's pixels.
    const left = Math.max(0, -cam.x * cam.scale);
    const right = Math.min(box.w, (natural.w - cam.x) * cam.scale);
    const top = Math.max(0, -cam.y * cam.scale);
    const bottom = Math.min(box.h, (natural.h - cam.y) * cam.scale);
    if (right <= left || bottom <= top) return { x: box.w / 2, y: box.h / 2 };
    return { x: (left + right) / 2, y: (top + bottom) / 2 };
  }
  function step(action) {
    const box = boxSize();
    const middle = inSight(box);
    if (action === "fit") fit();
    else if (action === "in") zoomAt(ZOOM_STEP, middle.x, middle.y);
    else if (action === "out") zoomAt(1 / ZOOM_STEP, middle.x, middle.y);
    else if (action === "readable") zoomAt(readableScale() / cam.scale, middle.x, middle.y);
  }

  function draw() {
    // Where the anchor node is on the screen now, before the drawing changes.
    const anchor = model.get("anchor");
    let held = null;
    if (svg && drawnOnce && anchor >= 0) {
      const c = nodeCentre(stage, anchor);
      if (c) held = { x: (c.x - cam.x) * cam.scale, y: (c.y - cam.y) * cam.scale };
    }
    stage.innerHTML = model.get("svg");
    svg = stage.querySelector("svg");
    if (!svg) return;
    natural = naturalSize(svg);
    if (!drawnOnce) {
      drawnOnce = fit();
      if (!drawnOnce) return;        // not laid out yet: the resize observer fits it
    } else if (held) {
      const c = nodeCentre(stage, anchor);
      if (c) { cam.x = c.x - held.x / cam.scale; cam.y = c.y - held.y / cam.scale; }
      following = false;
      apply();
    } else {
      apply();
    }
  }
  function labels() {
    const words = model.get("labels") || {};
    buttons.zoom_in.title = words.zoom_in || "";
    buttons.zoom_out.title = words.zoom_out || "";
    buttons.fit.title = words.fit_title || "";
    buttons.fit.textContent = words.fit || "";
    buttons.fit.style.font = "13px sans-serif";
    buttons.readable.title = words.readable_title || "";
    buttons.readable.textContent = words.readable || "";
    buttons.readable.style.font = "13px sans-serif";
    holder.title = words.hint || "";
  }

  // -- clicks (folding, selecting) ----------------------------------------------
  function send(hit, action) {
    report("click", { node: Number(hit.getAttribute("data-node")), action });
  }
  let pending = null;
  let dragged = false;             // the press that ends in this click moved the tree
  function onClick(event) {
    if (dragged) { dragged = false; return; }
    const hit = hitIn(holder, event, "data-node");
    if (!hit) return;
    clearTimeout(pending);
    if (event.detail > 1) return;              // the second click of a double-click
    pending = setTimeout(() => send(hit, "toggle"), DOUBLE_CLICK_WAIT_MS);
  }
  function onDoubleClick(event) {
    clearTimeout(pending);
    const hit = hitIn(holder, event, "data-node");
    if (!hit) return;
    event.preventDefault();
    send(hit, "select");
  }

  // -- the node under the pointer ------------------------------------------------
  let hovered = null, hoverTimer = null;
  function hoverOn(node) {
    if (node === hovered) return;
    hovered = node;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => report("hover", { node: hovered }), HOVER_WAIT_MS);
  }
  function onOver(event) {
    if (drag && drag.moved) return;
    const hit = hitIn(holder, event, "data-node");
    hoverOn(hit ? Number(hit.getAttribute("data-node")) : null);
  }
  function onLeave() { hoverOn(null); }

  // -- zoom and pan ----------------------------------------------------------------
  function onWheel(event) {
    if (!svg) return;
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? boxSize().h : 1;
    const dx = event.deltaX * unit, dy = event.deltaY * unit;
    if (!event.ctrlKey && Math.abs(dx) > Math.abs(dy)) { panBy(-dx, 0); return; }
    const p = local(event);
    zoomAt(Math.exp(-dy * (event.ctrlKey ? PINCH_ZOOM : WHEEL_ZOOM)), p.x, p.y);
  }
  const pointers = new Map();      // pointerId -> its last point in the box
  let drag = null;                 // {moved, start} for one pointer; {distance, middle} for two
  function onDown(event) {
    if (event.button !== 0 || tools.contains(event.target)) return;
    pointers.set(event.pointerId, local(event));
    dragged = false;
    if (pointers.size === 1) drag = { moved: false, start: local(event) };
    else drag = { moved: true, ...pinchOf() };
  }
  function pinchOf() {
    const [a, b] = [...pointers.values()];
    return { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1,
             middle: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
  }
  function onMove(event) {
    if (!drag || !pointers.has(event.pointerId)) return;
    const p = local(event);
    const last = pointers.get(event.pointerId);
    pointers.set(event.pointerId, p);
    if (pointers.size >= 2) {
      const now = pinchOf();
      zoomAt(now.distance / drag.distance, now.middle.x, now.middle.y);
      panBy(now.middle.x - drag.middle.x, now.middle.y - drag.middle.y);
      drag = { moved: true, ...now };
      return;
    }
    if (!drag.moved && Math.hypot(p.x - drag.start.x, p.y - drag.start.y) < DRAG_PX) return;
    if (!drag.moved) {
      drag.moved = true;
      holder.style.cursor = "grabbing";
      try { holder.setPointerCapture(event.pointerId); } catch (e) { /* gone already */ }
    }
    panBy(p.x - last.x, p.y - last.y);
  }
  function onUp(event) {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    if (drag && drag.moved) dragged = event.type === "pointerup";
    if (pointers.size === 0) { drag = null; holder.style.cursor = "grab"; }
    else if (pointers.size === 1) {
      drag = { moved: true, start: [...pointers.values()][0] };
    }
  }
  function onTool(event) {
    const name = Object.keys(buttons).find((k) => buttons[k] === event.target);
    if (!name) return;
    event.stopPropagation();
    step({ zoom_in: "in", zoom_out: "out", fit: "fit", readable: "readable" }[name]);
  }
  function onCommand() {
    const c = model.get("command") || {};
    if (c.action) step(c.action);
  }

  const resize = new ResizeObserver(() => {
    if (!svg) return;
    if (!drawnOnce) drawnOnce = fit();
    else if (following) fit();
    else apply();
  });
  resize.observe(holder);
  const unlisten = listen([
    [holder, "click", onClick], [holder, "dblclick", onDoubleClick],
    [holder, "pointerdown", onDown], [holder, "pointermove", onMove],
    [holder, "pointerup", onUp], [holder, "pointercancel", onUp],
    [holder, "mouseover", onOver], [holder, "mouseleave", onLeave],
    [tools, "click", onTool],
  ]);
  holder.addEventListener("wheel", onWheel, { passive: false });
  model.on("change:svg", draw);
  model.on("change:labels", labels);
  model.on("change:command", onCommand);
  labels();
  draw();
  return () => {
    model.off("change:svg", draw);
    model.off("change:labels", labels);
    model.off("change:command", onCommand);
    holder.removeEventListener("wheel", onWheel);
    resize.disconnect();
    clearTimeout(pending);
    clearTimeout(hoverTimer);
    clearTimeout(reportTimer);
    unlisten();
  };
}

export default { render };
