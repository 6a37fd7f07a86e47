// The board's size (part of board.js's module): the room it has (trait `fit`), times
// the size control (`zoom`), with the inspector beside it or under the buttons.

const INSPECTOR_MIN = 200;      // px: narrower than this the inspector goes under the board
const FIT_MIN = 320;            // px: a fitted puzzle board is never drawn smaller
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
  if (!found) return { top: 0, height: window.innerHeight };
  const r = found.getBoundingClientRect();
  const top = Math.max(0, r.top);
  return { top, height: Math.min(r.top + found.clientHeight, window.innerHeight) - top };
}
const VERDICT_LINES = 2;        // a puzzle's verdict line under its buttons: room kept for two
function roomUnder(app, board) {
  // What must be seen under the board: its row of buttons (Undo ...); in a puzzle,
  // the puzzle's rows under its board too (its answer row, the verdict, kept room
  // for two lines before there is one), so a Check's verdict appears in sight.
  const row = board && board.querySelector(".tavrei-controls-row");
  let under = row ? row.getBoundingClientRect().height : 0;
  if (app !== board && board) {
    for (let node = board.nextElementSibling; node; node = node.nextElementSibling) {
      let height = node.getBoundingClientRect().height;
      if (node.classList.contains("tavrei-puzzle-verdict")) {
        const style = getComputedStyle(node);
        const line = parseFloat(style.lineHeight) || 1.5 * parseFloat(style.fontSize) || 24;
        height = Math.max(height, VERDICT_LINES * line);
      }
      under += height;
    }
  }
  return under;
}
function roomBelow(ui) {
  // How tall the board may be: a screen (the notebook's scrolling area) less the
  // app's own rows above the board (a puzzle's title and prompt, the status line)
  // and under it, as the teacher scrolls the app's first line to the top. The
  // page above the app is not counted, so the board has one size wherever on the
  // page it first appears.
  const area = scrollArea(ui);
  const board = ui.el.closest(".tavrei-board-app");
  const app = (board && board.closest(".tavrei-puzzle")) || board;
  if (app && ui.resize && ui.observedApp !== app) {
    // the rows above and under the board render after it: refit as they come
    ui.resize.observe(app);
    ui.observedApp = app;
  }
  const top = ui.holder.getBoundingClientRect().top;
  const above = app ? top - app.getBoundingClientRect().top : 0;
  return area.height - above - roomUnder(app, board) - 16;
}
function outerWidth(node) {
  const style = getComputedStyle(node);
  return node.getBoundingClientRect().width + parseFloat(style.marginLeft || 0) +
    parseFloat(style.marginRight || 0);
}
function roomBeside(ui) {
  // The width of the board's row (watched: a sidebar opening changes it) and what
  // stands beside the board in it (the evaluation bar, the side column).
  const box = ui.el.parentElement;
  if (ui.resize && ui.observedBox !== box) { ui.resize.observe(box); ui.observedBox = box; }
  const others = Array.from(box.children).filter(node => node !== ui.el &&
    node.getBoundingClientRect().width > 0);
  return { room: box.clientWidth - 4,
           besides: others.reduce((sum, node) => sum + outerWidth(node), 0) };
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
  let under = false;                     // the inspector under the first row of buttons
  const placed = ui.el.parentElement && ui.el.isConnected ? roomBeside(ui) : null;
  if (placed && !ui.model.get("fit")) {
    // a board of its own size: the inspector beside it where it fits, else under
    // the Undo row (between the board and that row it pushed the row off a laptop's
    // screen)
    under = Boolean(ui.model.get("inspector")) &&
      placed.room - placed.besides - base * zoom - 10 < INSPECTOR_MIN;
  } else if (placed) {
    let room = placed.room;
    if (room - placed.besides >= base) room -= placed.besides;   // the side column stays beside
    const tall = roomBelow(ui) * aspect;       // as wide as the height allows
    // the least it is drawn: its own size (a projector board's letters stay 14 px);
    // a puzzle's board, with the title above it and the answer row and verdict under
    // it, less on a short screen, never under FIT_MIN
    const inPuzzle = Boolean(ui.el.closest(".tavrei-puzzle"));
    const least = inPuzzle ? Math.min(base, Math.max(FIT_MIN, tall)) : base;
    const wanted = ui.model.get("inspector") ? 290 : 0;
    if (!wanted) {
      width = Math.max(least, Math.min(room, tall));
    } else if (Math.min(room - wanted - 10, tall) >= least) {
      width = Math.min(room - wanted - 10, tall);
      inspector = wanted;
    } else if (room - least - 10 >= INSPECTOR_MIN) {
      width = least;
      inspector = Math.min(wanted, room - least - 10);
    } else {
      width = Math.max(least, Math.min(room, tall));   // the inspector goes under it
      under = true;
    }
  }
  width = Math.floor(width * zoom);
  svg.style.width = `${width}px`;
  svg.style.maxWidth = ui.model.get("fit") ? "none" : "";
  placeInspector(ui, under);
  ui.aside.style.width = inspector ? `${Math.floor(inspector)}px` : "";
  ui.aside.style.maxHeight = `${Math.max(360, Math.round(width / aspect))}px`;
  ui.el.dataset.boardWidth = String(width);
  if (ui.banner.classList.contains("shown")) placeBanner(ui);
}
