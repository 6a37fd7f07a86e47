// The browser half of the tree view (widgets/tree.py): after svg_clicks.js.
//
// It shows the tree Python draws and reports a click on a node (anything
// carrying `data-node`) through the `click` trait as {node, action, seq}:
// a click folds or unfolds (action "toggle"), a double-click selects
// ("select"). The click waits to see whether a second one follows, so a
// double-click never folds on its way.

const DOUBLE_CLICK_WAIT_MS = 250;

function render({ model, el }) {
  const holder = svgHolder(el, "tavrei-tree-svg");
  holder.style.overflow = "auto";
  holder.style.maxHeight = "640px";
  holder.style.maxWidth = "100%";
  const report = reporter(model);
  function draw() {
    holder.innerHTML = model.get("svg");
    // keep the selected node in sight when a wide subtree unfolds
    const picked = holder.querySelector(".selected");
    if (picked) picked.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  function send(hit, action) {
    report("click", { node: Number(hit.getAttribute("data-node")), action });
  }
  let pending = null;
  function onClick(event) {
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
  const unlisten = listen([[holder, "click", onClick], [holder, "dblclick", onDoubleClick]]);
  model.on("change:svg", draw);
  draw();
  return () => {
    model.off("change:svg", draw);
    unlisten();
  };
}

export default { render };
