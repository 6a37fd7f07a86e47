// What every tavrei_lab widget drawn in SVG does with a click, in one place.
//
// Each widget's browser half is this file followed by its own (board.js,
// tree.js), joined in Python (widgets/esm.py) into the one inline ES module
// anywidget loads: a module loaded that way cannot import a neighbour file,
// and there is no build step and no CDN.
//
// Python draws the SVG; the browser only says what was hit:
// - the drawing goes into a holder element (`svgHolder`);
// - a click is on the drawn element carrying a data attribute (`data-square`
//   on the board, `data-node` in a tree), found from the event's target and
//   only inside this widget's drawing (`hitIn`);
// - it is reported by setting a synced trait to a message with a fresh `seq`
//   (`reporter`), so that the same click twice is still two changes that
//   Python hears. Tests drive the widgets by setting the same traits.
// - the listeners a widget adds are removed together when its view goes
//   (`listen`).

function svgHolder(el, className) {
  // The element the widget's drawing goes into.
  const holder = document.createElement("div");
  holder.className = className;
  el.appendChild(holder);
  return holder;
}

function hitIn(holder, event, attribute) {
  // The element carrying `attribute` that the event hit, if it is in this drawing.
  const hit = event.target.closest && event.target.closest(`[${attribute}]`);
  return hit && holder.contains(hit) ? hit : null;
}

function reporter(model) {
  // report(trait, message): tell Python, numbering the messages 1, 2, 3, ...
  let seq = 0;
  return (trait, message) => {
    seq += 1;
    model.set(trait, { ...message, seq });
    model.save_changes();
  };
}

function listen(bindings) {
  // Add each [target, event type, handler]; the function returned removes them all.
  for (const [target, type, handler] of bindings) target.addEventListener(type, handler);
  return () => {
    for (const [target, type, handler] of bindings) target.removeEventListener(type, handler);
  };
}
