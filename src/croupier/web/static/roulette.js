// The roulette layout, the wheel replica (racetrack) and the animated wheel, drawn in SVG from
// what the table offers (offer.js): the layout's boxes with each pocket's colour, and each
// wager where its definition's felt says (on the numbers, in the outside rows, at the end of
// them, on the racetrack, or among the "more bets").
import { s, text, chip, money } from "./svg.js";
import { inArea, nameOf, describe, spotElement } from "./offer.js";
import { rove } from "./roving.js";

const C = 56; // along the layout (one row of numbers)
const R = 62; // across it (the three columns of numbers)
const M = 12; // margin
const EPS = 1e-6;

// Each pocket's colour, as the offer's boxes give it.
function colours(offer) {
  const map = new Map(offer.boxes.map((b) => [String(b.pocket), b.colour]));
  return (p) => map.get(String(p)) || "green";
}

// Where the boxes ``bs`` meet: the common part of their spans along and across the layout,
// or, for boxes in a row that meet nowhere (a street, a line of six), its outside edge.
function meeting(bs, nearSide) {
  const common = (lo, hi) => [Math.max(...bs.map(lo)), Math.min(...bs.map(hi))];
  const [l0, l1] = common((b) => b.l0, (b) => b.l1);
  const [s0, s1] = common((b) => b.s0, (b) => b.s1);
  const l = l0 <= l1 + EPS ? (l0 + l1) / 2 : (Math.min(...bs.map((b) => b.l0)) + Math.max(...bs.map((b) => b.l1))) / 2;
  if (s0 > s1 + EPS) return { l, s: nearSide, kind: "corner" };
  const alongL = l1 - l0 > EPS;
  const acrossS = s1 - s0 > EPS;
  if (alongL === acrossS) return { l, s: (s0 + s1) / 2, kind: "corner" };
  return { l, s: (s0 + s1) / 2, kind: alongL ? "along" : "across" };
}

export function drawRoulette(host, offer, hooks, { vertical = false } = {}) {
  const colour = colours(offer);
  const spots = new Map();
  host.replaceChildren();

  // The boxes in layout units: ``l`` along the rows of numbers (the zero row first), ``s``
  // across them (the far column at 0, the near one, beside the outside bets, at 3R).
  const X = Math.max(...offer.boxes.map((b) => b.x1));
  const rows = Math.max(...offer.boxes.map((b) => b.y1));
  const boxes = new Map(offer.boxes.map((b) => [String(b.pocket),
    { ...b, l0: b.y0 * C, l1: b.y1 * C, s0: ((X - b.x1) * 3 * R) / X, s1: ((X - b.x0) * 3 * R) / X }]));
  const outside = inArea(offer, "outside");
  const outRows = Math.max(inArea(offer, "end").length ? 1 : 0, ...outside.map((d) => d.felt.row));
  const more = inArea(offer, "more").flatMap((d) => d.keys);
  const track = inArea(offer, "racetrack");

  const long = (rows + 1) * C;
  const O = vertical ? 54 : 40; // each row of outside wagers, deeper on a phone for the thumb
  const across = 3 * R + outRows * O;
  const trackTop = across + 14;
  const trackDepth = track.length ? 120 : 0;
  const moreTop = trackTop + trackDepth;
  const PER_ROW = 4;
  const moreDepth = more.length ? 24 + Math.ceil(more.length / PER_ROW) * 48 : 0;
  const depth = across + trackDepth + moreDepth;
  // (l, s) on the layout to (x, y) on the page: along the numbers, across the rows. Upright on
  // a phone the rows read 1, 2, 3 from the left, the outside bets and the racetrack beside them.
  const P = (l, sAcross) => (vertical ? [M + depth + 10 - sAcross, M + l] : [M + l, M + sAcross]);
  const rect = (l0, s0, l1, s1, attrs) => {
    const [x0, y0] = P(l0, s0);
    const [x1, y1] = P(l1, s1);
    return s("rect", { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0),
      height: Math.abs(y1 - y0), ...attrs });
  };

  const [W, H] = vertical ? [depth + 2 * M + 10, long + 2 * M] : [long + 2 * M, depth + 2 * M + 10];
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: `felt roulette-felt${vertical ? " vertical" : ""}`,
    role: "group", "aria-label": `Roulette layout, ${offer.wheel.name}, ${offer.title}` });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, rx: 22, class: "felt-bg" }));
  const cells = s("g", { class: "cells" });
  const targets = s("g", { class: "targets" });
  const chipsLayer = s("g", { class: "chips" });
  const dollyLayer = s("g", { class: "dolly-layer" });
  const badgeLayer = s("g", { class: "badges" });
  svg.append(cells, targets, chipsLayer, dollyLayer, badgeLayer);

  const spot = (layer, key, shape, anchor, art = [], extra = {}) => {
    if (!offer.spots[key]) return null;
    let info = null;
    const { g, spot: sp, name } = spotElement(s, offer, key, shape, art, () => hooks.activate(info));
    layer.append(g);
    info = { key, el: g, svg, x: anchor[0], y: anchor[1], spec: sp.spec, covers: sp.covers || [], name, ...extra };
    spots.set(key, info);
    return info;
  };

  // On the numbers: a single number's box, or a target where the boxes covered meet.
  const centre = (b) => P((b.l0 + b.l1) / 2, (b.s0 + b.s1) / 2);
  for (const d of inArea(offer, "grid")) {
    for (const key of d.keys) {
      const sp = offer.spots[key];
      const bs = sp.covers.map((p) => boxes.get(String(p))).filter(Boolean);
      if (!bs.length) continue;
      if (bs.length === 1) {
        const [b] = bs;
        const c = centre(b);
        spot(cells, key, rect(b.l0, b.s0, b.l1, b.s1, { class: `cell cell-${b.colour}${b.in_play ? "" : " void"}` }),
          [c[0] + 12, c[1] + 14], [text(c[0], c[1], sp.label || String(b.pocket), { class: `cell-number num-${b.colour}` })],
          { cell: true });
        continue;
      }
      const at = meeting(bs, 3 * R);
      const [x, y] = P(at.l, at.s);
      if (at.kind === "corner") {
        spot(targets, key, s("circle", { cx: x, cy: y, r: 9, class: "target" }), [x, y]);
        continue;
      }
      const horizontalBar = vertical ? at.kind !== "along" : at.kind === "along";
      const [w, hh] = horizontalBar ? [C * 0.55, 12] : [12, R * 0.5];
      spot(targets, key, s("rect", { x: x - w / 2, y: y - hh / 2, width: w, height: hh, rx: 5, class: "target" }), [x, y]);
    }
  }

  // Outside wagers: beside each row of numbers at the end (row 0), along the numbers in the
  // outside rows (each spot an equal share of a row), and the box at the end of those rows.
  const first = Math.min(...offer.boxes.map((b) => b.y1)) * C; // where the zero row ends
  const last = rows * C;
  for (const d of outside.filter((o) => o.felt.row === 0)) {
    for (const key of d.keys) {
      const sp = offer.spots[key];
      const bs = sp.covers.map((p) => boxes.get(String(p))).filter(Boolean);
      if (!bs.length) continue;
      const s0 = Math.min(...bs.map((b) => b.s0));
      const s1 = Math.max(...bs.map((b) => b.s1));
      const [cx, cy] = P(last + C / 2, (s0 + s1) / 2);
      spot(cells, key, rect(last, s0, last + C, s1, { class: "cell outside" }), [cx, cy + 14],
        [text(cx, cy - 6, sp.label || "", { class: "cell-text small" }), text(cx, cy + 10, sp.note || "", { class: "cell-text micro" })]);
    }
  }
  for (let row = 1; row <= outRows; row++) {
    const here = outside.filter((o) => o.felt.row === row).sort((a, b) => a.felt.slot - b.felt.slot).flatMap((d) => d.keys);
    const each = (last - first) / Math.max(here.length, 1);
    const s0 = 3 * R + (row - 1) * O;
    here.forEach((key, i) => {
      const sp = offer.spots[key];
      const l0 = first + i * each;
      const [cx, cy] = P(l0 + each / 2, s0 + O / 2);
      spot(cells, key, rect(l0, s0, l0 + each, s0 + O, { class: "cell outside" }), [cx + Math.min(40, each / 4), cy],
        [text(cx, cy, sp.label || sp.name, { class: `cell-text${sp.style ? ` ${sp.style}` : ""}` })]);
    });
  }
  for (const d of inArea(offer, "end")) {
    const sp = offer.spots[d.keys[0]];
    const [cx, cy] = P(last + C / 2, 3 * R + (outRows * O) / 2);
    const lines = sp.lines || [sp.label || sp.name];
    spot(cells, d.keys[0], rect(last, 3 * R, last + C, 3 * R + outRows * O, { class: "cell outside" }),
      [cx, cy + 22], lines.map((line, i) => text(cx, cy - 28 + i * 12, line, { class: "cell-text micro" })));
  }

  // The wheel replica (racetrack): a spot for each pocket, in the wheel's order around it.
  for (const d of track) {
    const rr = 44;
    const la = 1.2 * C + rr;
    const lb = (rows + 0.2) * C - rr;
    const sc = trackTop + rr + 6;
    const straight = lb - la;
    const per = 2 * straight + 2 * Math.PI * rr;
    const group = s("g", { class: "racetrack" });
    const [ox, oy] = P(la - rr, sc - rr);
    const [ex, ey] = P(lb + rr, sc + rr);
    group.append(s("rect", { x: Math.min(ox, ex), y: Math.min(oy, ey), width: Math.abs(ex - ox), height: Math.abs(ey - oy),
      rx: rr, class: "track-bg" }));
    const [tx, ty] = P((la + lb) / 2, sc);
    group.append(text(tx, ty, d.felt.label || d.name.toUpperCase(), { class: "cell-text micro",
      transform: vertical ? `rotate(-90 ${tx} ${ty})` : undefined }));
    cells.append(group);
    d.keys.forEach((key, i) => {
      const sp = offer.spots[key];
      let t = (i / d.keys.length) * per;
      let l; let sA;
      if (t < straight) { l = la + t; sA = sc - rr; } else if ((t -= straight) < Math.PI * rr) {
        const a = t / rr; l = lb + rr * Math.sin(a); sA = sc - rr * Math.cos(a);
      } else if ((t -= Math.PI * rr) < straight) { l = lb - t; sA = sc + rr; } else {
        t -= straight; const a = t / rr; l = la - rr * Math.sin(a); sA = sc + rr * Math.cos(a);
      }
      const [x, y] = P(l, sA);
      spot(cells, key, s("circle", { cx: x, cy: y, r: 13, class: `pocket pocket-${colour(sp.q)}` }),
        [x, y], [text(x, y, sp.label || String(sp.q), { class: "pocket-number" })],
        { printed: true, q: sp.q, track: { index: i, keys: d.keys } });
    });
  }

  // The "more bets": every wager offered that has no place of its own, in boxes under the rest.
  if (more.length) {
    const [hx, hy] = P((first + last) / 2, moreTop + 12);
    cells.append(text(hx, hy, "MORE BETS", { class: "cell-text micro",
      transform: vertical ? `rotate(-90 ${hx} ${hy})` : undefined }));
    const each = (last - first) / PER_ROW;
    more.forEach((key, i) => {
      const sp = offer.spots[key];
      const l0 = first + (i % PER_ROW) * each;
      const s0 = moreTop + 24 + Math.floor(i / PER_ROW) * 48;
      const [cx, cy] = P(l0 + each / 2, s0 + 22);
      spot(cells, key, rect(l0 + 2, s0, l0 + each - 2, s0 + 44, { class: "cell outside" }), [cx + each * 0.3, cy],
        [text(cx, cy - 7, sp.label || sp.name, { class: "cell-text micro" }), text(cx, cy + 9, sp.pay || "", { class: "cell-text micro" })]);
    });
  }

  host.append(svg);
  rove(svg, [...spots.values()].map((sp) => sp.el));

  function render(state, me) {
    chipsLayer.replaceChildren();
    const byKey = new Map();
    for (const w of state.layout || []) {
      const e = byKey.get(w.wager) || { mine: 0, others: 0 };
      if (w.player === me) e.mine += Number(w.stake); else e.others += Number(w.stake);
      byKey.set(w.wager, e);
    }
    for (const [label, e] of byKey) {
      const sp = spots.get(label);
      if (!sp) continue;
      if (e.others) chipsLayer.append(chip(sp.x - 10, sp.y + 8, e.others, { mine: false, label: "other players" }));
      if (e.mine) chipsLayer.append(chip(sp.x, sp.y, e.mine, { label: sp.name }));
    }
    const last = state.last_number;
    const shown = dollyLayer.querySelector(".dolly");
    if (shown && shown.dataset.number === String(last)) return;
    dollyLayer.replaceChildren();
    if (last !== null && last !== undefined) {
      const b = boxes.get(String(last));
      if (b) {
        const [x, y] = centre(b);
        const dolly = s("g", { class: "dolly", role: "img", "data-number": String(last),
          "aria-label": `The dolly marks the winning number ${last}` });
        dolly.append(s("ellipse", { cx: x, cy: y + 10, rx: 13, ry: 5, class: "dolly-base" }));
        dolly.append(s("rect", { x: x - 9, y: y - 14, width: 18, height: 24, rx: 4, class: "dolly-body" }));
        dolly.append(s("ellipse", { cx: x, cy: y - 14, rx: 9, ry: 4, class: "dolly-top" }));
        dollyLayer.append(dolly);
      }
    }
  }

  function clearBadges() { badgeLayer.replaceChildren(); }

  // Where a number is printed (the layout's boxes and the racetrack's pockets): badges keep off.
  let numberBoxes = null;
  const printed = () => {
    if (!numberBoxes) {
      numberBoxes = [...boxes.values()].map((b) => { const [x, y] = centre(b); return [x - 17, y - 13, x + 17, y + 13]; });
      for (const sp of spots.values()) {
        if (sp.printed) numberBoxes.push([sp.x - 13, sp.y - 13, sp.x + 13, sp.y + 13]);
      }
    }
    return numberBoxes;
  };
  const clear = (r) => r[0] >= 2 && r[1] >= 2 && r[2] <= W - 2 && r[3] <= H - 2 && !printed().some((n) => r[0] < n[2] && n[0] < r[2] && r[1] < n[3] && n[1] < r[3])
    && ![...badgeLayer.querySelectorAll("rect")].some((b) => {
      const bx = Number(b.getAttribute("x")); const by = Number(b.getAttribute("y"));
      return r[0] < bx + Number(b.getAttribute("width")) && bx < r[2] && r[1] < by + Number(b.getAttribute("height")) && by < r[3];
    });

  // A settlement's badge beside its chips, on the felt between the printed numbers.
  function badge(label, result, amount, mine) {
    const sp = spots.get(label);
    if (!sp) return;
    const sign = result === "win" ? "+" : result === "lose" ? "−" : "";
    const str = result === "win" ? `WIN ${sign}${money(amount)}` : `${sign}${money(amount)}`;
    const w = str.length * 6.4 + 10;
    const hh = 16;
    const offsets = [[0, -26], [0, 26], [-(w / 2 + 18), 0], [w / 2 + 18, 0], [0, -44], [0, 44], [-(w / 2 + 18), -26], [w / 2 + 18, -26],
      [-(w / 2 + 18), 26], [w / 2 + 18, 26], [0, -62], [0, 62]];
    let at = offsets.map(([dx, dy]) => [sp.x + dx, sp.y + dy]).find(([x, y]) => clear([x - w / 2, y - hh / 2, x + w / 2, y + hh / 2]));
    if (!at) at = [sp.x, sp.y - 26];
    const g = s("g", { class: `badge badge-${result}${mine ? " mine" : ""}`, "data-for": label });
    g.append(s("rect", { x: at[0] - w / 2, y: at[1] - hh / 2, width: w, height: hh, rx: 8 }));
    g.append(text(at[0], at[1], str, { class: "badge-text" }));
    badgeLayer.append(g);
  }

  // Every wager on the numbers that covers a number, smallest first (the offer lists them so):
  // on a phone the lines and corners between numbers are too small for a thumb, so a tap on a
  // number offers them as a list.
  const onGrid = new Set(inArea(offer, "grid").map((d) => d.id));
  function covering(number) {
    const n = String(number);
    return Object.entries(offer.spots).filter(([key, sp]) => onGrid.has(sp.wager) && spots.has(key)
      && sp.covers.map(String).includes(n)).map(([key]) => spots.get(key));
  }

  // A racetrack pocket's wagers (every wager of the racetrack centred on that pocket) and the
  // pockets either side of it round the wheel: on a phone the pockets are closer together
  // than a thumb, so a tap lists these as buttons and steps along the wheel from there.
  function around(info) {
    const { index, keys } = info.track;
    const at = (i) => spots.get(keys[(i + keys.length) % keys.length]);
    const choices = [...spots.values()].filter((sp) => sp.track && String(sp.q) === String(info.q));
    return { choices, before: at(index - 1), after: at(index + 1) };
  }

  return { spots, render, clearBadges, badge, covering, around, placeOf: (l) => ({ key: l, dx: 0, dy: 0 }),
    describe: (l) => describe(offer, l), nameOf: (l) => nameOf(offer, l) };
}

// The wheel: pockets in their order, turning one way while the ball runs the other.
export function drawWheel(host, offer) {
  const colour = colours(offer);
  const order = offer.wheel.order;
  const n = order.length;
  const svg = s("svg", { viewBox: "-110 -110 220 220", class: "wheel", role: "img",
    "aria-label": `The ${offer.wheel.name}` });
  svg.append(s("circle", { r: 108, class: "wheel-rim" }));
  const turning = s("g", { class: "wheel-turning" });
  const step = (2 * Math.PI) / n;
  order.forEach((p, i) => {
    const a0 = i * step - step / 2;
    const a1 = a0 + step;
    const pt = (a, r) => `${(Math.sin(a) * r).toFixed(2)} ${(-Math.cos(a) * r).toFixed(2)}`;
    turning.append(s("path", { d: `M${pt(a0, 60)} L${pt(a0, 96)} A96 96 0 0 1 ${pt(a1, 96)} L${pt(a1, 60)} A60 60 0 0 0 ${pt(a0, 60)} Z`,
      class: `wedge wedge-${colour(p)}` }));
    const a = i * step;
    turning.append(text(Math.sin(a) * 86, -Math.cos(a) * 86, String(p), { class: "wedge-number",
      transform: `rotate(${(a * 180) / Math.PI} ${Math.sin(a) * 86} ${-Math.cos(a) * 86})` }));
  });
  turning.append(s("circle", { r: 58, class: "wheel-cone" }));
  turning.append(s("path", { d: "M-40 0 H40 M0 -40 V40", class: "wheel-turret" }));
  turning.append(s("circle", { r: 10, class: "wheel-hub" }));
  const ball = s("circle", { cx: 0, cy: -100, r: 5, class: "ball" });
  const ballGroup = s("g", { class: "ball-orbit" }, ball);
  svg.append(turning, ballGroup);
  const result = s("text", { x: 0, y: 0, "text-anchor": "middle", "dominant-baseline": "central", class: "wheel-result" });
  svg.append(result);
  host.replaceChildren(svg);

  let wheelAngle = 0;
  let frame = null;
  function spin(number, animate, done = () => {}) {
    const i = order.findIndex((p) => String(p) === String(number));
    const pocketAngle = (i * 360) / n;
    const w0 = wheelAngle;
    const w1 = w0 + 540 + Math.random() * 90;
    const ballEnd = w1 + pocketAngle; // the ball rests in pocket i, which turns with the wheel
    const b0 = ballEnd + 1440;
    const set = (w, b, r) => {
      turning.setAttribute("transform", `rotate(${w})`);
      ballGroup.setAttribute("transform", `rotate(${b})`);
      ball.setAttribute("cy", String(-r));
    };
    const finish = () => {
      set(w1, ballEnd, 74);
      wheelAngle = w1 % 360;
      turning.setAttribute("transform", `rotate(${wheelAngle})`);
      ballGroup.setAttribute("transform", `rotate(${ballEnd % 360})`);
      result.textContent = String(number);
      result.setAttribute("class", `wheel-result result-${colour(number)}`);
      done();
    };
    if (frame) cancelAnimationFrame(frame);
    result.textContent = "";
    if (!animate || matchMedia("(prefers-reduced-motion: reduce)").matches) { finish(); return; }
    const start = performance.now();
    const dur = 2200;
    const tick = (now) => {
      const t = Math.min(1, (now - start) / dur);
      const e = 1 - (1 - t) ** 3;
      set(w0 + (w1 - w0) * e, b0 + (ballEnd - b0) * e, t < 0.7 ? 100 : 100 - ((t - 0.7) / 0.3) * 26);
      if (t < 1) frame = requestAnimationFrame(tick); else { frame = null; finish(); }
    };
    frame = requestAnimationFrame(tick);
  }
  function show(number) { if (number !== null && number !== undefined) spin(number, false); }
  return { spin, show };
}
