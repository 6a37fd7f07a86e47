// The tower inspector beside the board and the legend of strip letters (part of
// board.js's module), from `towers`, `glyphs` and `legend`: hovering never asks the kernel.

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
function word(ui, key, fill) {
  const words = ui.model.get("words") || {};
  let text = typeof words[key] === "string" ? words[key] : ENGLISH[key];
  for (const [k, v] of Object.entries(fill || {})) text = text.split(`{${k}}`).join(String(v));
  return text;
}
function towerWords(ui, h) {
  const towers = (ui.model.get("words") || {}).tower || {};
  return towers[String(h)] ||
    `tower of ${h}, as it stands: top tavrel first, bottom one last`;
}
function renderInspector(ui) {
  if (!ui.model.get("inspector")) { ui.aside.style.display = "none"; return; }
  ui.aside.style.display = "";
  const towers = ui.model.get("towers") || {};
  const glyphs = ui.model.get("glyphs") || {};
  const selectedRect = ui.holder.querySelector("rect.square.selected");
  const selected = selectedRect ? selectedRect.dataset.square : null;
  if (selected !== ui.shownSelected) { ui.shownSelected = selected; if (selected) ui.shown = selected; }
  if (ui.shown && !towers[ui.shown]) ui.shown = selected;
  const parts = [];
  const layers = ui.shown ? towers[ui.shown] : null;
  if (layers) {
    const h = layers.length;
    const pill = ui.holder.querySelector(`.split-count[data-square="${ui.shown}"]`);
    const taking = ui.shown === selected ? (pill ? Number(pill.dataset.count) : h) : 0;
    const what = h === 1 ? word(ui, "one") : towerWords(ui, h);
    parts.push(`<div class="insp-head"><b>${esc(ui.shown)}</b>: ${what}</div>`);
    // a tall tower lists one line a layer, so all of it is in sight beside the board
    parts.push(`<ol class="insp-rows${h > 5 ? " compact" : ""}">`);
    layers.forEach((t, i) => {
      const take = h - i;
      const cls = ["insp-row", t.color, i >= h - taking ? "taken" : ""].join(" ");
      const tip = h === 1 ? word(ui, "pick") : take === h ? word(ui, "whole")
        : word(ui, "top_tip", { n: take });
      const note = t.note !== undefined ? t.note : `${t.russian}, ${t.english}`;
      parts.push(`<li class="${cls}" data-square="${esc(ui.shown)}" data-layer="${i}" ` +
        `title="${esc(tip)}" role="button">` +
        `<span class="insp-glyph">${glyphs[t.glyph] || ""}</span>` +
        `<span class="insp-letter ${t.color}">${esc(t.letter)}</span>` +
        `<span class="insp-name">${esc(t.colour || t.color)} <b>${esc(t.name)}</b> ` +
        (note ? `<span class="insp-note">(${esc(note)})</span>` : "") +
        (t.promoted ? ` <span class="insp-promoted" title="${esc(word(ui, "promoted"))}">` +
                      "\u2605</span>" : "") +
        (t.destiny ? `<small><br>${esc(t.destiny)}</small>` : "") + "</span>" +
        (h > 1 ? `<span class="insp-take">${esc(take === h ? word(ui, "all")
                                                 : word(ui, "top", { n: take }))}</span>` : "") +
        "</li>");
    });
    parts.push("</ol>");
  } else {
    parts.push(`<div class="insp-head">${esc(word(ui, "point"))}</div>`);
  }
  const legend = ui.model.get("legend") || [];
  if (legend.length) {
    parts.push('<div class="insp-legend"><div class="insp-legend-title">' +
               `${esc(word(ui, "legend"))}</div>`);
    for (const [letter, name, russian, english, written] of legend) {
      const inText = written && written !== letter
        ? `; ${esc(word(ui, "in_text", { letter: written }))}` : "";
      parts.push(`<div class="insp-legend-row"><span class="insp-letter white">${esc(letter)}` +
        `</span> ${esc(name)}${russian ? ` (${esc(russian)})` : ""} \u2013 ` +
        `${esc(english)}${inText}</div>`);
    }
    parts.push("</div>");
  }
  ui.aside.innerHTML = parts.join("");
  ui.aside.dataset.square = layers ? ui.shown : "";
}
function onHover(ui, event) {
  const hit = event.target.closest && event.target.closest(".tower[data-square], [data-layer]");
  if (!hit || ui.drag) return;
  const square = hit.getAttribute("data-square");
  if (square && square !== ui.shown && (ui.model.get("towers") || {})[square]) {
    ui.shown = square;
    renderInspector(ui);
  }
}
function onInspectorClick(ui, event) {
  const row = event.target.closest && event.target.closest(".insp-row");
  if (!row) return;
  event.preventDefault();
  sendClick(ui, row.dataset.square, Number(row.dataset.layer));
}
