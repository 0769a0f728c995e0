// Small SVG and DOM helpers shared by the layouts and the page.
export const NS = "http://www.w3.org/2000/svg";

export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function text(x, y, str, attrs = {}) {
  return s("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, str);
}

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

// A die centred at (cx, cy) of side `size` showing `value` (1 to 6).
export function die(cx, cy, size, value, cls = "die") {
  const g = s("g", { class: cls, "data-value": value });
  g.append(s("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size,
    rx: size * 0.18, class: "die-body" }));
  const step = size * 0.27;
  for (const [dx, dy] of PIPS[value] || []) {
    g.append(s("circle", { cx: cx + dx * step, cy: cy + dy * step, r: size * 0.09, class: "pip" }));
  }
  return g;
}

export function setDie(g, value) {
  const rect = g.querySelector("rect");
  const size = Number(rect.getAttribute("width"));
  const cx = Number(rect.getAttribute("x")) + size / 2;
  const cy = Number(rect.getAttribute("y")) + size / 2;
  g.querySelectorAll(".pip").forEach((p) => p.remove());
  const step = size * 0.27;
  for (const [dx, dy] of PIPS[value] || []) {
    g.append(s("circle", { cx: cx + dx * step, cy: cy + dy * step, r: size * 0.09, class: "pip" }));
  }
  g.setAttribute("data-value", value);
}

// Chip colours by the value of the chip (casino convention).
export function chipClass(amount) {
  const a = Number(amount);
  if (a >= 500) return "chip-500";
  if (a >= 100) return "chip-100";
  if (a >= 25) return "chip-25";
  if (a >= 5) return "chip-5";
  return "chip-1";
}

export function money(value) {
  const n = Number(value);
  return Number.isFinite(n) ? n.toFixed(2) : String(value);
}

// A chip's face: at most four characters ("5", "12.5", "100", "1.2k") so that it fits the chip.
export function shortMoney(value) {
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  if (n >= 10000) return `${Math.floor(n / 1000)}k`;
  if (n >= 1000) return `${(Math.floor(n / 100) / 10).toString()}k`;
  if (Number.isInteger(n)) return String(n);
  return n >= 100 ? String(Math.round(n)) : String(Number(n.toFixed(2)));
}

// A chip (own or another player's) at (x, y) carrying `amount`.
export function chip(x, y, amount, { mine = true, off = false, label = "" } = {}) {
  const g = s("g", { class: `chip ${mine ? chipClass(amount) : "chip-other"}`, "aria-hidden": "true" });
  const r = mine ? 14 : 10;
  g.append(s("circle", { cx: x, cy: y, r, class: "chip-body" }));
  g.append(s("circle", { cx: x, cy: y, r: r - 3, class: "chip-edge" }));
  const face = shortMoney(amount);
  // The face fits inside the chip's dashed edge: smaller type for longer figures.
  const size = (mine ? [11, 11, 10, 8.5, 7][face.length] : [9, 9, 8, 6.5, 5.5][face.length]) || (mine ? 7 : 5.5);
  g.append(text(x, y + 0.5, face, { class: "chip-text", "font-size": size }));
  if (off) {
    g.append(s("circle", { cx: x + r, cy: y - r, r: 9, class: "lammer-off" }));
    g.append(text(x + r, y - r, "OFF", { class: "lammer-text", "font-size": 7 }));
  }
  if (label) g.append(s("title", {}, label));
  return g;
}
