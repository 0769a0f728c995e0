// The keyboard on a layout drawn in SVG: Tab enters and leaves it as one stop (a roving
// tabindex: only the spot last on is in the tab order), the arrow keys move to the nearest
// spot in that direction as the layout is shown on the screen (a number, the split or corner
// beside it, the next number, the outside bets), Home and End to its first and last spot.
const DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

function centre(el) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

// The spot nearest ``from`` in the direction [dx, dy]: what lies along it first, with a step
// sideways counted thrice, so a line of numbers is followed rather than left.
function nearest(from, els, [dx, dy]) {
  const [x0, y0] = centre(from);
  let best = null;
  let score = Infinity;
  for (const el of els) {
    if (el === from) continue;
    const [x, y] = centre(el);
    const along = (x - x0) * dx + (y - y0) * dy;
    if (along < 1) continue;
    const s = along + 3 * Math.abs((x - x0) * dy + (y - y0) * dx);
    if (s < score) { score = s; best = el; }
  }
  return best;
}

export function rove(host, els) {
  if (!els.length) return;
  let current = els[0];
  for (const el of els) {
    el.setAttribute("tabindex", el === current ? "0" : "-1");
    el.addEventListener("focus", () => {
      current.setAttribute("tabindex", "-1");
      current = el;
      el.setAttribute("tabindex", "0");
    });
  }
  host.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || !els.includes(e.target)) return;
    let to = null;
    if (e.key === "Home") to = els[0];
    else if (e.key === "End") to = els[els.length - 1];
    else if (DIRECTIONS[e.key]) to = nearest(e.target, els, DIRECTIONS[e.key]);
    else return;
    e.preventDefault(); // the page does not scroll under the arrows
    if (to) to.focus();
  });
}
