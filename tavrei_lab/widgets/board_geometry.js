// The board's geometry in the page (part of board.js's module, see widgets/esm.py):
// squares in the drawing's units, and groups drawn over the board. Every function
// takes `ui`, the board's state in the page that render() (board.js) makes.

function svgRoot(ui) {
  return ui.holder.querySelector("svg");
}
function animationsOn(ui) {
  return ui.model.get("animations") !== false;
}
function squareRect(ui, name) {
  const r = ui.holder.querySelector(`rect.square[data-square="${name}"]`);
  if (!r) return null;
  return { x: Number(r.getAttribute("x")), y: Number(r.getAttribute("y")),
           w: Number(r.getAttribute("width")) };
}
function toUnits(ui, event) {
  const svg = svgRoot(ui);
  const ctm = svg && svg.getScreenCTM();
  if (!ctm) return null;
  const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
  return { x: p.x, y: p.y };
}
function squareAt(ui, event) {
  const p = toUnits(ui, event);
  if (!p) return null;
  for (const r of ui.holder.querySelectorAll("rect.square[data-square]")) {
    const x = Number(r.getAttribute("x")), y = Number(r.getAttribute("y"));
    const w = Number(r.getAttribute("width"));
    if (p.x >= x && p.x < x + w && p.y >= y && p.y < y + w) return r.dataset.square;
  }
  return null;
}
function overlay(ui, cls) {
  // A group drawn above everything else in the board's SVG.
  const svg = svgRoot(ui);
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
