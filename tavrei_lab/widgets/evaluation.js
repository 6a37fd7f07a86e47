// The evaluation bar's and graph's browser half (after svg_clicks.js). Python draws
// both (trait `svg`); `kind` says which this view is.
// - "graph": one column a ply, each carrying `data-ply`; a click on a column is
//   reported through `click` ({ply, seq}) and Python shows that ply on the board.
// - "bar": drawn as tall as the board beside it (the board grows to its room in the
//   page, so its height is known here only), its figure (`label`) written over it.

function boardBeside(el) {
  // The board's drawing in the same board app as this view.
  const app = el.closest(".tavrei-board-app");
  return app && app.querySelector(".tavrei-board-svg svg");
}

function renderBar(model, el, holder) {
  const label = document.createElement("div");
  label.className = "tavrei-eval-label";
  el.appendChild(label);
  let observed = null;
  const resize = new ResizeObserver(() => {
    if (observed) holder.style.height = `${Math.round(observed.getBoundingClientRect().height)}px`;
  });
  const follow = () => {
    const board = boardBeside(el);
    if (board !== observed) {
      if (observed) resize.unobserve(observed);
      observed = board;
      if (board) resize.observe(board);
    }
    if (observed) holder.style.height = `${Math.round(observed.getBoundingClientRect().height)}px`;
  };
  const draw = () => {
    holder.innerHTML = model.get("svg");
    label.textContent = model.get("label");
    label.classList.toggle("black-ahead", model.get("share") < 0.5);
    requestAnimationFrame(follow);
  };
  draw();
  model.on("change:svg", draw);
  const timer = setInterval(follow, 1000);   // the board's drawing is replaced on redraw
  return () => { clearInterval(timer); resize.disconnect(); model.off("change:svg", draw); };
}

function renderGraph(model, el, holder) {
  const report = reporter(model);
  const draw = () => { holder.innerHTML = model.get("svg"); };
  draw();
  model.on("change:svg", draw);
  const stop = listen([[holder, "click", (event) => {
    const hit = hitIn(holder, event, "data-ply");
    if (hit) report("click", { ply: Number(hit.getAttribute("data-ply")) });
  }]]);
  return () => { stop(); model.off("change:svg", draw); };
}

function render({ model, el }) {
  const kind = model.get("kind");
  el.classList.add(`tavrei-eval-${kind}-widget`);
  const holder = svgHolder(el, `tavrei-eval-${kind}-svg`);
  return kind === "bar" ? renderBar(model, el, holder) : renderGraph(model, el, holder);
}

export default { render };
