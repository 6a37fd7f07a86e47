// The board's size (part of board.js's module): the room it has (trait `fit`), times
// the size control (`zoom`), with the inspector beside it or under the buttons.

const INSPECTOR_MIN = 200;      // px: narrower than this the inspector goes under the board
function scrollArea(ui) {
  // The notebook's scrolling area (JupyterLab's windowed list, Notebook 7's panel,
  // Voila's page), seen through the window: the nearest box around the board that
  // really scrolls, else the outermost that may (a short notebook), else the
  // window. A box that could scroll but holds all it has (ipywidgets' boxes,
  // JupyterLab's output area, which runs under the status bar) is not it: taking
  // that one sized the board to the window's 720 px, not the 599 px Lab shows.
  let found = null;
  let outermost = null;
  for (let node = ui.el.parentElement; node && node !== document.body; node = node.parentElement) {
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
function roomBelow(ui, status, row) {
  // How tall the board may be: near the top of the page, what is left of the first
  // screen under it; further down, a screen less the status line (the teacher
  // scrolls the status to the top). Either way the first row of buttons fits under.
  const area = scrollArea(ui);
  const top = ui.holder.getBoundingClientRect().top;
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
function placeInspector(ui, under) {
  // A fitted board too wide for the inspector beside it (a projector with the file
  // browser open) shows the inspector under its first row of buttons, not between
  // the board and that row: the Undo row stays in sight under the board.
  const row = under && ui.el.closest(".tavrei-board-app") &&
    ui.el.closest(".tavrei-board-app").querySelector(".tavrei-controls-row");
  if (row) {
    if (row.nextSibling !== ui.aside) row.after(ui.aside);
    ui.aside.classList.add("under-controls");
  } else if (ui.aside.parentElement !== ui.el) {
    ui.el.insertBefore(ui.aside, ui.banner);
    ui.aside.classList.remove("under-controls");
  }
}
function fitBoard(ui) {
  const svg = svgRoot(ui);
  if (!svg) return;
  const zoom = Math.max(10, Number(ui.model.get("zoom") || 100)) / 100;
  const base = Number(svg.getAttribute("width")) || svg.viewBox.baseVal.width;
  const vb = svg.viewBox.baseVal;
  const aspect = vb && vb.height ? vb.width / vb.height : 1;
  let width = base;
  let inspector = null;                  // the inspector's width beside the board
  if (ui.model.get("fit") && ui.el.parentElement && ui.el.isConnected) {
    const box = ui.el.parentElement;
    if (ui.resize && ui.observedBox !== box) { ui.resize.observe(box); ui.observedBox = box; }
    let room = box.clientWidth - 4;
    const others = Array.from(box.children).filter(node => node !== ui.el &&
      node.getBoundingClientRect().width > 0);
    const besides = others.reduce((sum, node) => sum + outerWidth(node), 0);
    if (room - besides >= base) room -= besides;       // the side column stays beside
    const app = ui.el.closest(".tavrei-board-app");
    const status = app && app.querySelector(".tavrei-status");
    const row = app && app.querySelector(".tavrei-controls-row");
    const tall = roomBelow(ui, status, row) * aspect;       // as wide as the height allows
    const wanted = ui.model.get("inspector") ? 290 : 0;
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
  svg.style.maxWidth = ui.model.get("fit") ? "none" : "";
  placeInspector(ui, inspector === null && ui.model.get("fit") && ui.model.get("inspector"));
  ui.aside.style.width = inspector ? `${Math.floor(inspector)}px` : "";
  ui.aside.style.maxHeight = `${Math.max(360, Math.round(width / aspect))}px`;
  ui.el.dataset.boardWidth = String(width);
  if (ui.banner.classList.contains("shown")) placeBanner(ui);
}
