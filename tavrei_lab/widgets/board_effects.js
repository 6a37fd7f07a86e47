// What a drawing plays (part of board.js's module): a refused square flashing, a tower
// sliding in, the die tumbling (`effects`), and a puzzle's verdict banner (`banner`).

function flash(ui, name) {
  const r = squareRect(ui, name);
  const g = overlay(ui, "flashes");
  if (!r || !g) return;
  const mark = shape(g, "rect", { x: r.x, y: r.y, width: r.w, height: r.w,
                                  class: "flash", "data-square": name });
  ui.el.dataset.flashed = name;
  setTimeout(() => mark.remove(), FLASH_MS);
}
function slide(ui, fromName, toName) {
  // The tower now drawn on toName comes in from fromName.
  const a = squareRect(ui, fromName), b = squareRect(ui, toName);
  const tower = ui.holder.querySelector(`g.tower[data-square="${toName}"]`);
  if (!a || !b || !tower || !animationsOn(ui)) return;
  const dx = a.x - b.x, dy = a.y - b.y;
  tower.animate([{ transform: `translate(${dx}px, ${dy}px)` },
                 { transform: "translate(0px, 0px)" }],
                { duration: SLIDE_MS, easing: "ease-out" });
  ui.el.dataset.slid = `${fromName}-${toName}`;
}
function tumble(ui) {
  const die = ui.holder.querySelector("g.die.current") || ui.holder.querySelector("g.die");
  if (!die || !animationsOn(ui)) return;
  die.style.transformBox = "fill-box";
  die.style.transformOrigin = "center";
  ui.rolling = die.animate([
    { transform: "rotate(-200deg) scale(0.55)", opacity: 0.3 },
    { transform: "rotate(25deg) scale(1.1)", opacity: 1, offset: 0.7 },
    { transform: "rotate(0deg) scale(1)", opacity: 1 }],
    { duration: ROLL_MS, easing: "ease-out" });
  ui.rolling.onfinish = () => { ui.rolling = null; };
  ui.el.dataset.rolled = String(ui.model.get("version"));
}
function playEffects(ui, effects) {
  const version = Number(effects.version || 0);
  if (!version || version === ui.lastEffects) return;
  ui.lastEffects = version;
  for (const [from, to] of effects.slide || []) slide(ui, from, to);
  for (const name of effects.flash || []) flash(ui, name);
  if (effects.roll) tumble(ui);
}

// -- the verdict banner ------------------------------------------------------------
function placeBanner(ui) {
  // over the board's top, as wide as the board less a margin; the type scales
  // with the board (a projector board gets projector-sized words)
  const w = ui.holder.offsetWidth, h = ui.holder.offsetHeight;
  if (!w) return;
  ui.banner.style.left = `${ui.holder.offsetLeft + w * 0.04}px`;
  ui.banner.style.width = `${w * 0.92}px`;
  ui.banner.style.top = `${ui.holder.offsetTop + h * 0.04}px`;
  ui.banner.style.fontSize = `${Math.max(34, Math.round(w * 0.11))}px`;
}
function showBanner(ui) {
  const b = ui.model.get("banner") || {};
  clearTimeout(ui.bannerTimer);
  ui.banner.className = "tavrei-banner";
  if (!b.text) { ui.banner.replaceChildren(); delete ui.el.dataset.banner; return; }
  const title = document.createElement("span");
  title.className = "banner-text";
  title.textContent = b.text;
  ui.banner.replaceChildren(title);
  if (b.detail) {
    const detail = document.createElement("span");
    detail.className = "banner-detail";
    detail.textContent = b.detail;
    ui.banner.appendChild(detail);
  }
  placeBanner(ui);
  void ui.banner.offsetWidth;                       // restart the entrance on every verdict
  ui.banner.classList.add("shown", b.kind || "right");
  ui.el.dataset.banner = `${b.kind || "right"}:${b.seq || 0}`;
  if (b.kind === "right" && animationsOn(ui)) {
    ui.holder.animate([{ boxShadow: "0 0 0 14px rgba(46, 160, 67, 0.95)" },
                    { boxShadow: "0 0 0 0 rgba(46, 160, 67, 0)" }],
                   { duration: 1400, easing: "ease-out" });
  }
  // a wrong verdict fades (the board is needed for the next try); a right one
  // stays large a while, then settles into a corner badge that stays
  ui.bannerTimer = setTimeout(() => {
    ui.banner.classList.add(b.kind === "right" ? "settled" : "faded");
  }, b.kind === "right" ? 4000 : 3000);
}
