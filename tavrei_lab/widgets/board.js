// The browser half of the tavrei_lab board (anywidget, inline ESM, no build step):
// after svg_clicks.js, whose svgHolder, hitIn, reporter and listen it uses.
//
// After chessground's model, this code owns the pointer and nothing else:
// Python computes every legal move and sends a finished SVG (trait `svg`)
// together with each tower's legal destinations per count (trait `moves`).
//
// - A press and release on the same spot is a click: reported through
//   `click` ({square, layer}), exactly as before drag and drop existed.
// - A press on a tower that may move, then a drag, lifts it: the part taken
//   (chosen by where on the strip the drag starts: layer i of h takes the top
//   h - i) follows the pointer and its destinations are shown from `moves`,
//   with no kernel round trip. Released on a destination it stays there and
//   `drop` ({from, count, to}) tells Python, which redraws; released anywhere
//   else it slides home and the square flashes (Python says why).
// - The right button draws the user's own marks, as on lichess: right-drag
//   an arrow, right-click a circle (again to remove). Jupyter's context menu
//   stays closed over the board. The marks are reported through `drawn`.
// - `effects` arrive with a drawing: squares to flash, towers to slide in
//   (the computer's move, undo/redo, a rejected move going home), a die roll
//   to tumble. `animations` false turns the movement off.
//
// - With `inspector` on, a panel beside the board lists the tower under the
//   pointer (or the selected one) bottom to top -- picture, colour, Russian
//   and English name, destiny, promoted mark -- each row a large target that
//   picks the tower up "from here up" (a `click` with that layer), and a
//   legend of the strip letters under it. All from `towers`, `glyphs` and
//   `legend`: hovering never asks the kernel.
//
// Pointer events serve mouse, pen and touch alike (`touch-action: none` on
// the board keeps a finger drag from scrolling the page).

const SLIDE_MS = 220;       // a tower sliding (the issue allows up to 300 ms)
const FLASH_MS = 650;       // a refused square flashes this long
const ROLL_MS = 420;        // the die tumbles this long (a click skips it)
const DRAG_START_PX = 5;    // a press that moves less than this is a click
const BRUSHES = { green: "#15781b", red: "#b72a2a", blue: "#1d5fb0", yellow: "#d49a00" };

function render({ model, el }) {
  el.classList.add("tavrei-board-widget");
  el.tabIndex = 0;                                  // focusable: arrow keys step moves
  el.setAttribute("data-lm-suppress-shortcuts", "true");  // JupyterLab: keys are ours
  el.setAttribute("data-jp-suppress-context-menu", "true"); // JupyterLab: right button is ours
  const holder = svgHolder(el, "tavrei-board-svg");
  const aside = document.createElement("div");
  aside.className = "tavrei-inspector";
  el.appendChild(aside);
  // A puzzle's verdict, drawn large over the top of the board (trait `banner`): a
  // class looks at the board, so the verdict is where the board is.
  const banner = document.createElement("div");
  banner.className = "tavrei-banner";
  banner.setAttribute("role", "status");
  el.appendChild(banner);
  let bannerTimer = null;
  let shown = null;              // the square whose tower the inspector lists
  let shownSelected = null;      // the selection it followed last

  const report = reporter(model);
  let clickedAt = null;          // performance.now() of the last click or drop
  let press = null;              // the left-button press being watched
  let drag = null;               // the tower being dragged
  let rightFrom = null;          // where a right-button press started
  let userShapes = [];           // [[from, to, brush]] drawn with the right button
  let lastEffects = 0;
  let rolling = null;            // the die's running animation
  let pendingDrop = null;        // a drop waiting for Python's redraw
  let lastPointer = null;        // where the pointer was last seen during a press

  const svgRoot = () => holder.querySelector("svg");
  const animationsOn = () => model.get("animations") !== false;

  // -- geometry: squares in drawing units -----------------------------------------
  function squareRect(name) {
    const r = holder.querySelector(`rect.square[data-square="${name}"]`);
    if (!r) return null;
    return { x: Number(r.getAttribute("x")), y: Number(r.getAttribute("y")),
             w: Number(r.getAttribute("width")) };
  }
  function toUnits(event) {
    const svg = svgRoot();
    const ctm = svg && svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
    return { x: p.x, y: p.y };
  }
  function squareAt(event) {
    const p = toUnits(event);
    if (!p) return null;
    for (const r of holder.querySelectorAll("rect.square[data-square]")) {
      const x = Number(r.getAttribute("x")), y = Number(r.getAttribute("y"));
      const w = Number(r.getAttribute("width"));
      if (p.x >= x && p.x < x + w && p.y >= y && p.y < y + w) return r.dataset.square;
    }
    return null;
  }
  function overlay(cls) {
    // A group drawn above everything else in the board's SVG.
    const svg = svgRoot();
    let g = svg && svg.querySelector(`:scope > g.${cls}`);
    if (svg && !g) {
      g = document.createElementNS(svg.namespaceURI, "g");
      g.setAttribute("class", cls);
      g.setAttribute("pointer-events", "none");
      svg.appendChild(g);
    }
    return g;
  }
  function shape(parent, tag, attrs) {
    const node = document.createElementNS(parent.namespaceURI, tag);  // SVG's namespace
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    parent.appendChild(node);
    return node;
  }

  // -- drawing ---------------------------------------------------------------------
  function draw() {
    // Replace the drawing in place: the widget (and its focus) stays. A drag
    // under way (a drawing can arrive mid-drag: a hint, a teacher's arrow)
    // is picked up again on the new drawing.
    const resume = drag && press ? lastPointer : null;
    holder.innerHTML = model.get("svg");
    drag = null;
    pendingDrop = null;
    for (const square of model.get("greyed") || []) {
      for (const node of holder.querySelectorAll(`.tower[data-square="${square}"]`)) {
        node.classList.add("greyed");
      }
    }
    drawUserShapes();
    renderInspector();
    fitBoard();
    if (clickedAt !== null) {
      // Click- (or drop-) to-redraw time, read by the browser tests: from the
      // pointer going up to the new drawing in the page and laid out (reading
      // the size forces layout; no animation frame is awaited, as a hidden
      // tab would never get one).
      holder.getBoundingClientRect();
      el.dataset.redrawMs = (performance.now() - clickedAt).toFixed(1);
      clickedAt = null;
    }
    playEffects(model.get("effects") || {});
    if (resume && !startDrag(resume)) press.noDrag = true;
    el.dataset.version = String(model.get("version"));
  }

  // svg, greyed, moves, effects and version arrive together; draw once for them.
  let queued = false;
  function scheduleDraw() {
    if (queued) return;
    queued = true;
    queueMicrotask(() => { queued = false; draw(); });
  }

  // -- effects: flash, slide, roll ----------------------------------------------
  function flash(name) {
    const r = squareRect(name);
    const g = overlay("flashes");
    if (!r || !g) return;
    const mark = shape(g, "rect", { x: r.x, y: r.y, width: r.w, height: r.w,
                                    class: "flash", "data-square": name });
    el.dataset.flashed = name;
    setTimeout(() => mark.remove(), FLASH_MS);
  }
  function slide(fromName, toName) {
    // The tower now drawn on toName comes in from fromName.
    const a = squareRect(fromName), b = squareRect(toName);
    const tower = holder.querySelector(`g.tower[data-square="${toName}"]`);
    if (!a || !b || !tower || !animationsOn()) return;
    const dx = a.x - b.x, dy = a.y - b.y;
    tower.animate([{ transform: `translate(${dx}px, ${dy}px)` },
                   { transform: "translate(0px, 0px)" }],
                  { duration: SLIDE_MS, easing: "ease-out" });
    el.dataset.slid = `${fromName}-${toName}`;
  }
  function tumble() {
    const die = holder.querySelector("g.die.current") || holder.querySelector("g.die");
    if (!die || !animationsOn()) return;
    die.style.transformBox = "fill-box";
    die.style.transformOrigin = "center";
    rolling = die.animate([
      { transform: "rotate(-200deg) scale(0.55)", opacity: 0.3 },
      { transform: "rotate(25deg) scale(1.1)", opacity: 1, offset: 0.7 },
      { transform: "rotate(0deg) scale(1)", opacity: 1 }],
      { duration: ROLL_MS, easing: "ease-out" });
    rolling.onfinish = () => { rolling = null; };
    el.dataset.rolled = String(model.get("version"));
  }
  function playEffects(effects) {
    const version = Number(effects.version || 0);
    if (!version || version === lastEffects) return;
    lastEffects = version;
    for (const [from, to] of effects.slide || []) slide(from, to);
    for (const name of effects.flash || []) flash(name);
    if (effects.roll) tumble();
  }

  // -- the user's arrows and circles (right button) ----------------------------
  function drawUserShapes() {
    const g = overlay("user-shapes");
    if (!g) return;
    g.replaceChildren();
    for (const [from, to, brush] of userShapes) {
      const a = squareRect(from), b = squareRect(to);
      if (!a || !b) continue;
      const color = BRUSHES[brush] || BRUSHES.green;
      const half = a.w / 2;
      const x1 = a.x + half, y1 = a.y + half, x2 = b.x + half, y2 = b.y + half;
      const mark = shape(g, "g", { class: "user-shape", "data-from": from, "data-to": to,
                                   opacity: 0.8 });
      if (from === to) {
        shape(mark, "circle", { cx: x1, cy: y1, r: a.w * 0.44, fill: "none", stroke: color,
                                "stroke-width": a.w * 0.07 });
        continue;
      }
      const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
      const head = a.w * 0.38, tipX = x2 - ux * a.w * 0.12, tipY = y2 - uy * a.w * 0.12;
      const baseX = tipX - ux * head, baseY = tipY - uy * head;
      const px = -uy * head * 0.55, py = ux * head * 0.55;
      shape(mark, "line", { x1, y1, x2: baseX, y2: baseY, stroke: color,
                            "stroke-width": a.w * 0.16, "stroke-linecap": "round" });
      shape(mark, "polygon", { fill: color, points:
        `${tipX},${tipY} ${baseX + px},${baseY + py} ${baseX - px},${baseY - py}` });
    }
  }
  function toggleUserShape(from, to, brush) {
    const at = userShapes.findIndex(([f, t]) => f === from && t === to);
    if (at >= 0 && userShapes[at][2] === brush) userShapes.splice(at, 1);
    else if (at >= 0) userShapes[at][2] = brush;
    else userShapes.push([from, to, brush]);
    drawUserShapes();
    model.set("drawn", userShapes.map(s => [...s]));
    model.save_changes();
  }
  function clearUserShapes() {
    if (!userShapes.length) return;
    userShapes = [];
    drawUserShapes();
    model.set("drawn", []);
    model.save_changes();
  }

  // -- dragging a tower ------------------------------------------------------------
  function countFor(square, layer) {
    // How many tavrels a press takes: the strip's layer, else the count chosen
    // before (the selected tower's pill), else the whole tower or the largest
    // part that may move (as Python does for a click).
    const tower = holder.querySelector(`g.tower[data-square="${square}"]`);
    const height = Number(tower ? tower.getAttribute("data-height") : 1);
    if (layer !== null) return height - layer;
    const pill = holder.querySelector(`.split-count[data-square="${square}"]`);
    if (pill) return Number(pill.getAttribute("data-count"));
    const counts = Object.keys((model.get("moves") || {})[square] || {}).map(Number);
    return counts.includes(height) || !counts.length ? height : Math.max(...counts);
  }
  function startDrag(event) {
    const { square, layer } = press;
    const tower = holder.querySelector(`g.tower[data-square="${square}"]`);
    const options = (model.get("moves") || {})[square];
    if (!tower || !options) return false;
    const count = countFor(square, layer);
    const height = Number(tower.getAttribute("data-height"));
    const dests = options[String(count)] || [];
    const ghost = tower.cloneNode(true);
    ghost.classList.add("drag-ghost");
    ghost.setAttribute("pointer-events", "none");
    for (const band of ghost.querySelectorAll("[data-layer]")) {
      if (Number(band.getAttribute("data-layer")) < height - count) band.style.opacity = "0.15";
    }
    tower.classList.add("drag-source");
    const marks = overlay("drag-dests");
    for (const name of dests) {
      const r = squareRect(name);
      if (r) shape(marks, "circle", { cx: r.x + r.w / 2, cy: r.y + r.w / 2, r: r.w * 0.17,
                                      class: "drag-dest", "data-square": name });
    }
    overlay("drag-layer").appendChild(ghost);
    // the tower keeps its offset to the pointer from where it was grabbed
    drag = { square, count, dests, tower, ghost,
             start: toUnits({ clientX: press.x, clientY: press.y }) };
    el.dataset.dragging = `${square}:${count}`;
    moveDrag(event);
    return true;
  }
  function moveDrag(event) {
    const p = toUnits(event);
    if (!p || !drag) return;
    drag.ghost.setAttribute("transform", `translate(${p.x - drag.start.x},${p.y - drag.start.y})`);
    const over = squareAt(event);
    for (const m of holder.querySelectorAll(".drag-dest")) {
      m.classList.toggle("hover", m.dataset.square === over);
    }
  }
  function endDrag(event) {
    const d = drag;
    delete el.dataset.dragging;
    const target = squareAt(event);
    if (target === d.square) {               // put back where it was: a click
      cancelDrag();
      sendClick(d.square, null);
      return;
    }
    if (target && d.dests.includes(target)) {
      // Stay on the target until Python's drawing replaces this one.
      const a = squareRect(d.square), b = squareRect(target);
      d.ghost.setAttribute("transform", `translate(${b.x - a.x},${b.y - a.y})`);
      for (const m of holder.querySelectorAll(".drag-dest")) m.remove();
      pendingDrop = d;
      setTimeout(() => { if (pendingDrop === d) { snapHome(d); pendingDrop = null; } }, 5000);
    } else {
      snapHome(d);
      if (target) flash(target);
    }
    if (target) {
      clickedAt = performance.now();
      report("drop", { from: d.square, count: d.count, to: target });
    }
  }
  function snapHome(d) {
    const back = () => { d.ghost.remove(); d.tower.classList.remove("drag-source"); };
    for (const m of holder.querySelectorAll(".drag-dest")) m.remove();
    drag = null;
    const t = d.ghost.getAttribute("transform") || "";
    const m = /translate\(([-\d.e]+),([-\d.e]+)\)/.exec(t);
    if (!m || !animationsOn()) { back(); return; }
    d.ghost.removeAttribute("transform");
    const anim = d.ghost.animate([{ transform: `translate(${m[1]}px, ${m[2]}px)` },
                                  { transform: "translate(0px, 0px)" }],
                                 { duration: SLIDE_MS, easing: "ease-out" });
    anim.onfinish = back;
    el.dataset.snapped = d.square;
  }
  function cancelDrag() {
    if (!drag) return;
    drag.ghost.remove();
    drag.tower.classList.remove("drag-source");
    for (const m of holder.querySelectorAll(".drag-dest")) m.remove();
    drag = null;
  }

  // -- the tower inspector and the legend ----------------------------------------
  function esc(text) {
    const d = document.createElement("span");
    d.textContent = text;
    return d.innerHTML;
  }
  // The inspector's words come from Python in the board's language (`words`);
  // English stands in for any that is missing.
  const ENGLISH = {
    one: "one tavrel", pick: "pick it up", whole: "take the whole tower",
    top_tip: "take the top {n} (from here up)", all: "all", top: "top {n}",
    point: "Point at a tower to see every tavrel in it.", legend: "Strip letters",
    in_text: "{letter} in move text", promoted: "promoted",
  };
  function word(key, fill) {
    const words = model.get("words") || {};
    let text = typeof words[key] === "string" ? words[key] : ENGLISH[key];
    for (const [k, v] of Object.entries(fill || {})) text = text.split(`{${k}}`).join(String(v));
    return text;
  }
  function towerWords(h) {
    const towers = (model.get("words") || {}).tower || {};
    return towers[String(h)] ||
      `tower of ${h}, as it stands: top tavrel first, bottom one last`;
  }
  function renderInspector() {
    if (!model.get("inspector")) { aside.style.display = "none"; return; }
    aside.style.display = "";
    const towers = model.get("towers") || {};
    const glyphs = model.get("glyphs") || {};
    const selectedRect = holder.querySelector("rect.square.selected");
    const selected = selectedRect ? selectedRect.dataset.square : null;
    if (selected !== shownSelected) { shownSelected = selected; if (selected) shown = selected; }
    if (shown && !towers[shown]) shown = selected;
    const parts = [];
    const layers = shown ? towers[shown] : null;
    if (layers) {
      const h = layers.length;
      const pill = holder.querySelector(`.split-count[data-square="${shown}"]`);
      const taking = shown === selected ? (pill ? Number(pill.dataset.count) : h) : 0;
      const what = h === 1 ? word("one") : towerWords(h);
      parts.push(`<div class="insp-head"><b>${esc(shown)}</b>: ${what}</div>`);
      // a tall tower lists one line a layer, so all of it is in sight beside the board
      parts.push(`<ol class="insp-rows${h > 5 ? " compact" : ""}">`);
      layers.forEach((t, i) => {
        const take = h - i;
        const cls = ["insp-row", t.color, i >= h - taking ? "taken" : ""].join(" ");
        const tip = h === 1 ? word("pick") : take === h ? word("whole")
          : word("top_tip", { n: take });
        const note = t.note !== undefined ? t.note : `${t.russian}, ${t.english}`;
        parts.push(`<li class="${cls}" data-square="${esc(shown)}" data-layer="${i}" ` +
          `title="${esc(tip)}" role="button">` +
          `<span class="insp-glyph">${glyphs[t.glyph] || ""}</span>` +
          `<span class="insp-letter ${t.color}">${esc(t.letter)}</span>` +
          `<span class="insp-name">${esc(t.colour || t.color)} <b>${esc(t.name)}</b> ` +
          (note ? `<span class="insp-note">(${esc(note)})</span>` : "") +
          (t.promoted ? ` <span class="insp-promoted" title="${esc(word("promoted"))}">` +
                        "\u2605</span>" : "") +
          (t.destiny ? `<small><br>${esc(t.destiny)}</small>` : "") + "</span>" +
          (h > 1 ? `<span class="insp-take">${esc(take === h ? word("all")
                                                   : word("top", { n: take }))}</span>` : "") +
          "</li>");
      });
      parts.push("</ol>");
    } else {
      parts.push(`<div class="insp-head">${esc(word("point"))}</div>`);
    }
    const legend = model.get("legend") || [];
    if (legend.length) {
      parts.push('<div class="insp-legend"><div class="insp-legend-title">' +
                 `${esc(word("legend"))}</div>`);
      for (const [letter, name, russian, english, written] of legend) {
        const inText = written && written !== letter
          ? `; ${esc(word("in_text", { letter: written }))}` : "";
        parts.push(`<div class="insp-legend-row"><span class="insp-letter white">${esc(letter)}` +
          `</span> ${esc(name)}${russian ? ` (${esc(russian)})` : ""} \u2013 ` +
          `${esc(english)}${inText}</div>`);
      }
      parts.push("</div>");
    }
    aside.innerHTML = parts.join("");
    aside.dataset.square = layers ? shown : "";
  }
  function onHover(event) {
    const hit = event.target.closest && event.target.closest(".tower[data-square], [data-layer]");
    if (!hit || drag) return;
    const square = hit.getAttribute("data-square");
    if (square && square !== shown && (model.get("towers") || {})[square]) {
      shown = square;
      renderInspector();
    }
  }
  function onInspectorClick(event) {
    const row = event.target.closest && event.target.closest(".insp-row");
    if (!row) return;
    event.preventDefault();
    sendClick(row.dataset.square, Number(row.dataset.layer));
  }

  // -- the board's size: the room it has (trait `fit`), times the size control (`zoom`) --
  const INSPECTOR_MIN = 200;      // px: narrower than this the inspector goes under the board
  let observedBox = null;         // the box whose width is the room (watched once attached)
  let resize = null;
  function scrollArea() {
    // The notebook's scrolling area (JupyterLab's windowed list, Notebook 7's panel,
    // Voila's page), seen through the window: the nearest box around the board that
    // really scrolls, else the outermost that may (a short notebook), else the
    // window. A box that could scroll but holds all it has (ipywidgets' boxes,
    // JupyterLab's output area, which runs under the status bar) is not it: taking
    // that one sized the board to the window's 720 px, not the 599 px Lab shows.
    let found = null;
    let outermost = null;
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      const overflow = getComputedStyle(node).overflowY;
      if ((overflow !== "auto" && overflow !== "scroll") || node.clientHeight <= 0) continue;
      if (node.scrollHeight > node.clientHeight + 1) { found = node; break; }
      if (!node.classList.contains("jupyter-widgets")) outermost = node;
    }
    found = found || outermost;
    if (!found) return { top: 0, height: window.innerHeight, scrolled: window.scrollY };
    const r = found.getBoundingClientRect();
    const top = Math.max(0, r.top);
    return { top, height: Math.min(r.top + found.clientHeight, window.innerHeight) - top,
             scrolled: found.scrollTop };
  }
  function roomBelow(status, row) {
    // How tall the board may be: near the top of the page, what is left of the first
    // screen under it; further down, a screen less the status line (the teacher
    // scrolls the status to the top). Either way the first row of buttons fits under.
    const area = scrollArea();
    const top = holder.getBoundingClientRect().top;
    const inContent = top - area.top + area.scrolled;
    const above = inContent < area.height * 0.5 ? inContent
      : top - (status ? status.getBoundingClientRect().top : top);
    return area.height - above - (row ? row.getBoundingClientRect().height : 0) - 16;
  }
  function outerWidth(node) {
    const style = getComputedStyle(node);
    return node.getBoundingClientRect().width + parseFloat(style.marginLeft || 0) +
      parseFloat(style.marginRight || 0);
  }
  function placeInspector(under) {
    // A fitted board too wide for the inspector beside it (a projector with the file
    // browser open) shows the inspector under its first row of buttons, not between
    // the board and that row: the Undo row stays in sight under the board.
    const row = under && el.closest(".tavrei-board-app") &&
      el.closest(".tavrei-board-app").querySelector(".tavrei-controls-row");
    if (row) {
      if (row.nextSibling !== aside) row.after(aside);
      aside.classList.add("under-controls");
    } else if (aside.parentElement !== el) {
      el.insertBefore(aside, banner);
      aside.classList.remove("under-controls");
    }
  }
  function fitBoard() {
    const svg = svgRoot();
    if (!svg) return;
    const zoom = Math.max(10, Number(model.get("zoom") || 100)) / 100;
    const base = Number(svg.getAttribute("width")) || svg.viewBox.baseVal.width;
    const vb = svg.viewBox.baseVal;
    const aspect = vb && vb.height ? vb.width / vb.height : 1;
    let width = base;
    let inspector = null;                  // the inspector's width beside the board
    if (model.get("fit") && el.parentElement && el.isConnected) {
      const box = el.parentElement;
      if (resize && observedBox !== box) { resize.observe(box); observedBox = box; }
      let room = box.clientWidth - 4;
      const others = Array.from(box.children).filter(node => node !== el &&
        node.getBoundingClientRect().width > 0);
      const besides = others.reduce((sum, node) => sum + outerWidth(node), 0);
      if (room - besides >= base) room -= besides;       // the side column stays beside
      const app = el.closest(".tavrei-board-app");
      const status = app && app.querySelector(".tavrei-status");
      const row = app && app.querySelector(".tavrei-controls-row");
      const tall = roomBelow(status, row) * aspect;       // as wide as the height allows
      const wanted = model.get("inspector") ? 290 : 0;
      if (!wanted) {
        width = Math.max(base, Math.min(room, tall));
      } else if (Math.min(room - wanted - 10, tall) >= base) {
        width = Math.min(room - wanted - 10, tall);
        inspector = wanted;
      } else if (room - base - 10 >= INSPECTOR_MIN) {
        width = base;
        inspector = Math.min(wanted, room - base - 10);
      } else {
        width = Math.max(base, Math.min(room, tall));   // the inspector goes under it
      }
    }
    width = Math.floor(width * zoom);
    svg.style.width = `${width}px`;
    svg.style.maxWidth = model.get("fit") ? "none" : "";
    placeInspector(inspector === null && model.get("fit") && model.get("inspector"));
    aside.style.width = inspector ? `${Math.floor(inspector)}px` : "";
    aside.style.maxHeight = `${Math.max(360, Math.round(width / aspect))}px`;
    el.dataset.boardWidth = String(width);
    if (banner.classList.contains("shown")) placeBanner();
  }

  // -- the verdict banner -------------------------------------------------------------
  function placeBanner() {
    // over the board's top, as wide as the board less a margin; the type scales
    // with the board (a projector board gets projector-sized words)
    const w = holder.offsetWidth, h = holder.offsetHeight;
    if (!w) return;
    banner.style.left = `${holder.offsetLeft + w * 0.04}px`;
    banner.style.width = `${w * 0.92}px`;
    banner.style.top = `${holder.offsetTop + h * 0.04}px`;
    banner.style.fontSize = `${Math.max(34, Math.round(w * 0.11))}px`;
  }
  function showBanner() {
    const b = model.get("banner") || {};
    clearTimeout(bannerTimer);
    banner.className = "tavrei-banner";
    if (!b.text) { banner.replaceChildren(); delete el.dataset.banner; return; }
    const title = document.createElement("span");
    title.className = "banner-text";
    title.textContent = b.text;
    banner.replaceChildren(title);
    if (b.detail) {
      const detail = document.createElement("span");
      detail.className = "banner-detail";
      detail.textContent = b.detail;
      banner.appendChild(detail);
    }
    placeBanner();
    void banner.offsetWidth;                       // restart the entrance on every verdict
    banner.classList.add("shown", b.kind || "right");
    el.dataset.banner = `${b.kind || "right"}:${b.seq || 0}`;
    if (b.kind === "right" && animationsOn()) {
      holder.animate([{ boxShadow: "0 0 0 14px rgba(46, 160, 67, 0.95)" },
                      { boxShadow: "0 0 0 0 rgba(46, 160, 67, 0)" }],
                     { duration: 1400, easing: "ease-out" });
    }
    // a wrong verdict fades (the board is needed for the next try); a right one
    // stays large a while, then settles into a corner badge that stays
    bannerTimer = setTimeout(() => {
      banner.classList.add(b.kind === "right" ? "settled" : "faded");
    }, b.kind === "right" ? 4000 : 3000);
  }

  // -- pointer events ---------------------------------------------------------------
  function hitOf(event) {
    const hit = hitIn(holder, event, "data-square");
    if (!hit) return null;
    const layerNode = hitIn(holder, event, "data-layer");
    const layer = layerNode ? Number(layerNode.getAttribute("data-layer")) : null;
    return { square: hit.getAttribute("data-square"), layer };
  }
  function sendClick(square, layer) {
    el.focus({ preventScroll: true });
    clickedAt = performance.now();
    report("click", { square, layer });
  }
  function onPointerDown(event) {
    if (rolling) rolling.finish();           // any press skips the die's tumble
    if (event.button === 2) {
      rightFrom = squareAt(event);
      event.preventDefault();
      return;
    }
    if (event.button !== 0 || pendingDrop) return;
    const hit = hitOf(event);
    if (!hit) return;
    event.preventDefault();
    el.focus({ preventScroll: true });         // arrow keys step moves after a drag too
    clearUserShapes();
    press = { ...hit, x: event.clientX, y: event.clientY, id: event.pointerId };
    holder.setPointerCapture(event.pointerId);
  }
  function onPointerMove(event) {
    if (!press || event.pointerId !== press.id) return;
    lastPointer = { clientX: event.clientX, clientY: event.clientY };
    if (drag) { moveDrag(event); return; }
    const moved = Math.hypot(event.clientX - press.x, event.clientY - press.y);
    if (moved >= DRAG_START_PX && !startDrag(event)) press.noDrag = true;
  }
  function onPointerUp(event) {
    if (event.button === 2) {
      const to = squareAt(event);
      if (rightFrom && to) {
        const brush = event.shiftKey ? "red" : event.altKey ? "blue" : event.ctrlKey
          ? "yellow" : "green";
        toggleUserShape(rightFrom, to, brush);
      }
      rightFrom = null;
      return;
    }
    if (!press || event.pointerId !== press.id) return;
    const p = press;
    press = null;
    if (drag) { endDrag(event); return; }
    const target = squareAt(event);
    if (p.noDrag && target !== p.square) {
      // A tower that may not move was dragged away: nothing moves, but the
      // square flashes and Python says why (not your turn, the die, no move).
      if (!target || !holder.querySelector(`g.tower[data-square="${p.square}"]`)) return;
      clickedAt = performance.now();
      report("drop", { from: p.square, count: countFor(p.square, p.layer), to: target });
      return;
    }
    sendClick(p.square, p.layer);
  }
  function onPointerCancel() {
    press = null;
    if (drag) snapHome(drag);
  }
  function onContextMenu(event) {
    // Over the board the right button draws; Jupyter's menu must not open.
    event.preventDefault();
    event.stopPropagation();
  }

  // lichess's keys: arrows step, up/down (or Home/End) go to the start/end, f flips
  const KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "f"]);
  function onKey(event) {
    if (event.key === "Escape" && drag) { snapHome(drag); return; }
    if (!KEYS.has(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    clickedAt = performance.now();
    report("key", { key: event.key });
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

  const unlisten = listen([
    [holder, "pointerdown", onPointerDown],
    [holder, "pointermove", onPointerMove],
    [holder, "pointerup", onPointerUp],
    [holder, "pointercancel", onPointerCancel],
    [holder, "pointerover", onHover],
    [aside, "click", onInspectorClick],
    [el, "contextmenu", onContextMenu],
    [el, "keydown", onKey],
  ]);
  const traits = ["svg", "greyed", "version", "effects", "inspector", "legend", "words"];
  for (const name of traits) model.on(`change:${name}`, scheduleDraw);
  model.on("change:clipboard", onClipboard);
  model.on("change:banner", showBanner);
  model.on("change:zoom", fitBoard);
  model.on("change:fit", fitBoard);
  // the room changes: the window, the notebook's panel, a sidebar opening
  let fitQueued = false;
  const refit = () => {
    if (fitQueued) return;
    fitQueued = true;
    requestAnimationFrame(() => { fitQueued = false; fitBoard(); });
  };
  resize = typeof ResizeObserver === "function" ? new ResizeObserver(refit) : null;
  if (resize) resize.observe(el);
  window.addEventListener("resize", refit);
  // Python empties `drawn` on New game / Set position: the marks go with the old position
  model.on("change:drawn", () => {
    const wanted = model.get("drawn") || [];
    if (wanted.length || !userShapes.length) return;
    userShapes = [];
    drawUserShapes();
  });
  draw();
  showBanner();
  return () => {
    clearTimeout(bannerTimer);
    if (aside.parentElement !== el) aside.remove();   // moved under the buttons
    if (resize) resize.disconnect();
    window.removeEventListener("resize", refit);
    model.off("change:zoom", fitBoard);
    model.off("change:fit", fitBoard);
    model.off("change:banner", showBanner);
    for (const name of traits) model.off(`change:${name}`, scheduleDraw);
    model.off("change:clipboard", onClipboard);
    unlisten();
  };
}

export default { render };
