// The browser half of the tavrei_lab board (anywidget, inline ESM, no build step):
// after svg_clicks.js (svgHolder, hitIn, reporter, listen) and the board's parts, each a
// file joined before this one (widgets/esm.py): board_geometry.js, board_effects.js,
// board_marks.js, board_drag.js, board_inspector.js and board_fit.js. Their functions
// take `ui`, the board's state in the page, which render() makes below.
//
// After chessground's model, this code owns the pointer and nothing else:
// Python computes every legal move and sends a finished SVG (trait `svg`)
// together with each tower's legal destinations per count (trait `moves`).
//
// - A press and release on the same spot is a click: reported through
//   `click` ({square, layer}), the same message as a click with no drag at all.
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

const SLIDE_MS = 220;       // a tower sliding (under 300 ms: a move never waits for it)
const FLASH_MS = 650;       // a refused square flashes this long
const ROLL_MS = 420;        // the die tumbles this long (a click skips it)
const DRAG_START_PX = 5;    // a press that moves less than this is a click
const BRUSHES = { green: "#15781b", red: "#b72a2a", blue: "#1d5fb0", yellow: "#d49a00" };

function boardState(model, el) {
  // Everything the board's functions share in the page.
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
  return {
    model, el, holder, aside, banner,
    report: reporter(model),
    bannerTimer: null,
    shown: null,              // the square whose tower the inspector lists
    shownSelected: null,      // the selection it followed last
    clickedAt: null,          // performance.now() of the last click or drop
    press: null,              // the left-button press being watched
    drag: null,               // the tower being dragged
    rightFrom: null,          // where a right-button press started
    userShapes: [],           // [[from, to, brush]] drawn with the right button
    lastEffects: 0,
    rolling: null,            // the die's running animation
    pendingDrop: null,        // a drop waiting for Python's redraw
    lastPointer: null,        // where the pointer was last seen during a press
    queued: false,            // a drawing is scheduled
    observedBox: null,        // the box whose width is the room (watched once attached)
    observedApp: null,        // the app (a puzzle, else the board app) whose rows it leaves room for
    resize: null,             // the ResizeObserver that refits the board
    fitQueued: false,
  };
}

// -- drawing ---------------------------------------------------------------------
function draw(ui) {
  // Replace the drawing in place: the widget (and its focus) stays. A drag
  // under way (a drawing can arrive mid-drag: a hint, a teacher's arrow)
  // is picked up again on the new drawing.
  const resume = ui.drag && ui.press ? ui.lastPointer : null;
  ui.holder.innerHTML = ui.model.get("svg");
  ui.drag = null;
  ui.pendingDrop = null;
  for (const square of ui.model.get("greyed") || []) {
    for (const node of ui.holder.querySelectorAll(`.tower[data-square="${square}"]`)) {
      node.classList.add("greyed");
    }
  }
  drawUserShapes(ui);
  renderInspector(ui);
  fitBoard(ui);
  if (ui.clickedAt !== null) {
    // Click- (or drop-) to-redraw time, read by the browser tests: from the
    // pointer going up to the new drawing in the page and laid out (reading
    // the size forces layout; no animation frame is awaited, as a hidden
    // tab would never get one).
    ui.holder.getBoundingClientRect();
    ui.el.dataset.redrawMs = (performance.now() - ui.clickedAt).toFixed(1);
    ui.clickedAt = null;
  }
  playEffects(ui, ui.model.get("effects") || {});
  if (resume && !startDrag(ui, resume)) ui.press.noDrag = true;
  ui.el.dataset.version = String(ui.model.get("version"));
}

// svg, greyed, moves, effects and version arrive together; draw once for them.

// svg, greyed, moves, effects and version arrive together; draw once for them.
function scheduleDraw(ui) {
  if (ui.queued) return;
  ui.queued = true;
  queueMicrotask(() => { ui.queued = false; draw(ui); });
}

async function onClipboard(ui) {
  const text = (ui.model.get("clipboard") || {}).text;
  if (!text) return;
  try {
    await navigator.clipboard.writeText(text);
  } catch (err) {
    // Older browsers or an insecure origin: the classic selection copy.
    const area = document.createElement("textarea");
    area.value = text;
    ui.el.appendChild(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

function render({ model, el }) {
  const ui = boardState(model, el);
  const on = handler => event => handler(ui, event);
  const unlisten = listen([
    [ui.holder, "pointerdown", on(onPointerDown)],
    [ui.holder, "pointermove", on(onPointerMove)],
    [ui.holder, "pointerup", on(onPointerUp)],
    [ui.holder, "pointercancel", on(onPointerCancel)],
    [ui.holder, "pointerover", on(onHover)],
    [ui.aside, "click", on(onInspectorClick)],
    [el, "contextmenu", on(onContextMenu)],
    [el, "keydown", on(onKey)],
  ]);
  const redraw = () => scheduleDraw(ui);
  const clipboard = () => onClipboard(ui);
  const verdict = () => showBanner(ui);
  const fit = () => fitBoard(ui);
  const traits = ["svg", "greyed", "version", "effects", "inspector", "legend", "words"];
  for (const name of traits) model.on(`change:${name}`, redraw);
  model.on("change:clipboard", clipboard);
  model.on("change:banner", verdict);
  model.on("change:zoom", fit);
  model.on("change:fit", fit);
  // the room changes: the window, the notebook's panel, a sidebar opening
  const refit = () => {
    if (ui.fitQueued) return;
    ui.fitQueued = true;
    requestAnimationFrame(() => { ui.fitQueued = false; fitBoard(ui); });
  };
  ui.resize = typeof ResizeObserver === "function" ? new ResizeObserver(refit) : null;
  if (ui.resize) ui.resize.observe(el);
  window.addEventListener("resize", refit);
  // Python empties `drawn` on New game / Set position: the marks go with the old position
  const forget = () => {
    const wanted = model.get("drawn") || [];
    if (wanted.length || !ui.userShapes.length) return;
    ui.userShapes = [];
    drawUserShapes(ui);
  };
  model.on("change:drawn", forget);
  draw(ui);
  showBanner(ui);
  return () => {
    clearTimeout(ui.bannerTimer);
    if (ui.aside.parentElement !== el) ui.aside.remove();   // moved under the buttons
    if (ui.resize) ui.resize.disconnect();
    window.removeEventListener("resize", refit);
    model.off("change:zoom", fit);
    model.off("change:fit", fit);
    model.off("change:banner", verdict);
    model.off("change:drawn", forget);
    for (const name of traits) model.off(`change:${name}`, redraw);
    model.off("change:clipboard", clipboard);
    unlisten();
  };
}

export default { render };
