// The user's own marks (part of board.js's module), as on lichess: right-drag an
// arrow, right-click a circle (again to remove); reported to Python through `drawn`.

function drawUserShapes(ui) {
  const g = overlay(ui, "user-shapes");
  if (!g) return;
  g.replaceChildren();
  for (const [from, to, brush] of ui.userShapes) {
    const a = squareRect(ui, from), b = squareRect(ui, to);
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
function toggleUserShape(ui, from, to, brush) {
  const at = ui.userShapes.findIndex(([f, t]) => f === from && t === to);
  if (at >= 0 && ui.userShapes[at][2] === brush) ui.userShapes.splice(at, 1);
  else if (at >= 0) ui.userShapes[at][2] = brush;
  else ui.userShapes.push([from, to, brush]);
  drawUserShapes(ui);
  ui.model.set("drawn", ui.userShapes.map(s => [...s]));
  ui.model.save_changes();
}
function clearUserShapes(ui) {
  if (!ui.userShapes.length) return;
  ui.userShapes = [];
  drawUserShapes(ui);
  ui.model.set("drawn", []);
  ui.model.save_changes();
}
