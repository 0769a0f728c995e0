// The roulette layout, the wheel replica (racetrack) and the animated wheel, drawn in SVG.
import { s, text, chip, money } from "./svg.js";

const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
const C = 56; // along the layout (the twelve streets)
const R = 62; // across it (the three rows)
const M = 12; // margin
export const colour = (p) => (RED.has(p) ? "red" : p === 0 || p === "00" ? "green" : "black");
const pkey = (p) => (p === "00" ? 1 : 2 * Number(p));
export const keyOf = (nums) => [...nums].sort((a, b) => pkey(a) - pkey(b)).join("-");
const parsePocket = (t) => (t === "00" ? "00" : Number(t));

const NAMES = {
  straight: "Straight", split: "Split", three_numbers: "Three numbers", four_numbers: "Corner",
  six_numbers: "Six numbers", first_five: "First five numbers (0-00-1-2-3)",
  column: "Column", dozen: "Dozen", red: "Red", black: "Black", odd: "Odd", even: "Even",
  low: "1 to 18", high: "19 to 36", seven_numbers: "Seven numbers (10-15 and 33)",
  five_adjacent: "Five adjacent numbers",
};

export function specOf(label) {
  const [id, q] = label.split(":");
  if (q === undefined) return { wager: id };
  if (id === "column" || id === "dozen") return { wager: id, [id]: Number(q) };
  if (id === "five_adjacent") return { wager: id, center: parsePocket(q) };
  return { wager: id, numbers: q.split("-").map(parsePocket) };
}

// A wager's name as the decision and recall read it: "Split 17-20", "Red", "First dozen".
export function nameOf(label, offer) {
  const spec = specOf(label);
  let what = NAMES[spec.wager] || spec.wager.replaceAll("_", " ");
  if (spec.numbers) what = `${what} ${spec.numbers.join("-")}`;
  if (spec.column) what = `Column ${spec.column}`;
  if (spec.dozen) what = `${["First", "Second", "Third"][spec.dozen - 1]} dozen`;
  if (spec.center !== undefined) {
    const order = offer.wheel.order;
    const i = order.indexOf(spec.center);
    const five = [-2, -1, 0, 1, 2].map((d) => order[(i + d + order.length) % order.length]);
    what = `Five adjacent numbers on the wheel centred on ${spec.center} (${five.join("-")})`;
  }
  return what;
}

export function describe(label, offer) {
  const spec = specOf(label);
  const what = nameOf(label, offer);
  const pay = offer.pays[spec.wager === "five_adjacent" ? "straight" : spec.wager];
  return pay ? `${what}, pays ${pay}` : what;
}

export function drawRoulette(host, offer, hooks, { vertical = false } = {}) {
  const offers = (id) => id in offer.wagers;
  const single = offer.wheel.layout === "single-zero";
  const inPlay = new Set(offer.wheel.in_play.map(String));
  const spots = new Map();
  host.replaceChildren();

  const long = 14 * C;
  const O = vertical ? 54 : 40; // each row of outside wagers, deeper on a phone for the thumb
  const across = 3 * R + 2 * O;
  const trackTop = across + 14;
  const trackDepth = offers("five_adjacent") ? 120 : 0;
  // (l, s) on the layout to (x, y) on the page: along the numbers, across the rows. Upright on
  // a phone the rows read 1, 2, 3 from the left, the outside bets and the racetrack beside them.
  const P = (l, sAcross) => (vertical ? [M + across + trackDepth + 10 - sAcross, M + l] : [M + l, M + sAcross]);
  const rect = (l0, s0, l1, s1, attrs) => {
    const [x0, y0] = P(l0, s0);
    const [x1, y1] = P(l1, s1);
    return s("rect", { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0),
      height: Math.abs(y1 - y0), ...attrs });
  };
  const at = (l, sA, str, attrs) => { const [x, y] = P(l, sA); return text(x, y, str, attrs); };

  const [W, H] = vertical ? [across + trackDepth + 2 * M + 10, long + 2 * M]
    : [long + 2 * M, across + trackDepth + 2 * M + 10];
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: `felt roulette-felt${vertical ? " vertical" : ""}`,
    role: "group", "aria-label": `Roulette layout, ${offer.wheel.name}, ${offer.title}` });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, rx: 22, class: "felt-bg" }));
  const cells = s("g", { class: "cells" });
  const targets = s("g", { class: "targets" });
  const chipsLayer = s("g", { class: "chips" });
  const dollyLayer = s("g", { class: "dolly-layer" });
  const badgeLayer = s("g", { class: "badges" });
  svg.append(cells, targets, chipsLayer, dollyLayer, badgeLayer);

  const spot = (layer, label, shape, anchor, art = [], cls = "") => {
    const spec = specOf(label);
    if (!offers(spec.wager)) return null;
    const name = describe(label, offer);
    const g = s("g", { class: `spot spot-${spec.wager} ${cls}`, role: "button", tabindex: 0,
      "aria-label": name, "data-spot": label });
    g.append(shape, ...art, s("title", {}, name));
    layer.append(g);
    const info = { key: label, el: g, svg, x: anchor[0], y: anchor[1], spec, name };
    spots.set(label, info);
    g.addEventListener("click", () => hooks.activate(info));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); hooks.activate(info); }
    });
    return info;
  };

  // Boxes: number n in street k = ceil(n/3) - 1, row 3 on the far side (0), 1 on the near side (2).
  const boxes = new Map();
  for (let n = 1; n <= 36; n++) {
    const k = Math.ceil(n / 3) - 1;
    const row = 2 - ((n - 1) % 3);
    boxes.set(String(n), { l0: C + k * C, l1: C + (k + 1) * C, s0: row * R, s1: (row + 1) * R });
  }
  if (single) boxes.set("0", { l0: 0, l1: C, s0: 0, s1: 3 * R });
  else {
    boxes.set("00", { l0: 0, l1: C, s0: 0, s1: 1.5 * R });
    boxes.set("0", { l0: 0, l1: C, s0: 1.5 * R, s1: 3 * R });
  }
  const centre = (b) => P((b.l0 + b.l1) / 2, (b.s0 + b.s1) / 2);
  for (const [name, b] of boxes) {
    const p = parsePocket(name);
    const c = centre(b);
    spot(cells, `straight:${name}`, rect(b.l0, b.s0, b.l1, b.s1, { class: `cell cell-${colour(p)}${inPlay.has(name) ? "" : " void"}` }),
      [c[0] + 12, c[1] + 14], [text(c[0], c[1], name, { class: `cell-number num-${colour(p)}` })]);
  }

  // Lines and corners between the boxes (splits, three, four and six numbers).
  const line = (label, l, sA, alongL) => {
    const [x, y] = P(l, sA);
    const horizontalBar = vertical ? !alongL : alongL;
    const [w, hh] = horizontalBar ? [C * 0.55, 12] : [12, R * 0.5];
    spot(targets, label, s("rect", { x: x - w / 2, y: y - hh / 2, width: w, height: hh, rx: 5, class: "target" }), [x, y]);
  };
  const corner = (label, l, sA) => {
    const [x, y] = P(l, sA);
    spot(targets, label, s("circle", { cx: x, cy: y, r: 9, class: "target" }), [x, y]);
  };
  for (let n = 1; n <= 36; n++) {
    const b = boxes.get(String(n));
    if (n + 3 <= 36) line(`split:${keyOf([n, n + 3])}`, b.l1, (b.s0 + b.s1) / 2, false);
    if (n % 3 !== 0) line(`split:${keyOf([n, n + 1])}`, (b.l0 + b.l1) / 2, b.s0, true);
    if (n % 3 !== 0 && n + 4 <= 36) corner(`four_numbers:${keyOf([n, n + 1, n + 3, n + 4])}`, b.l1, b.s0);
    if (n % 3 === 1) {
      corner(`three_numbers:${keyOf([n, n + 1, n + 2])}`, (b.l0 + b.l1) / 2, 3 * R);
      if (n + 5 <= 36) corner(`six_numbers:${keyOf([n, n + 1, n + 2, n + 3, n + 4, n + 5])}`, b.l1, 3 * R);
    }
  }
  if (single) {
    line("split:0-1", C, 2.5 * R, false); line("split:0-2", C, 1.5 * R, false); line("split:0-3", C, 0.5 * R, false);
    corner("three_numbers:0-1-2", C, 2 * R); corner("three_numbers:0-2-3", C, R);
    corner("four_numbers:0-1-2-3", C, 3 * R);
  } else {
    line("split:0-1", C, 2.5 * R, false); line("split:0-2", C, 1.75 * R, false);
    line("split:00-2", C, 1.25 * R, false); line("split:00-3", C, 0.5 * R, false);
    line("split:0-00", C / 2, 1.5 * R, true);
    corner("three_numbers:0-1-2", C, 2 * R); corner("three_numbers:0-00-2", C, 1.5 * R);
    corner("three_numbers:00-2-3", C, R);
    corner("first_five", C, 3 * R);
  }

  // Outside wagers: columns, dozens, even money, seven numbers.
  for (let col = 1; col <= 3; col++) {
    const row = 3 - col;
    const [cx, cy] = P(13.5 * C, (row + 0.5) * R);
    spot(cells, `column:${col}`, rect(13 * C, row * R, 14 * C, (row + 1) * R, { class: "cell outside" }),
      [cx, cy + 14], [text(cx, cy - 6, "2 to 1", { class: "cell-text small" }), text(cx, cy + 10, `col ${col}`, { class: "cell-text micro" })]);
  }
  ["1st 12", "2nd 12", "3rd 12"].forEach((t, i) => {
    const [cx, cy] = P(C + (i + 0.5) * 4 * C, 3 * R + O / 2);
    spot(cells, `dozen:${i + 1}`, rect(C + i * 4 * C, 3 * R, C + (i + 1) * 4 * C, 3 * R + O, { class: "cell outside" }),
      [cx + 40, cy], [text(cx, cy, t, { class: "cell-text" })]);
  });
  [["low", "1-18"], ["even", "EVEN"], ["red", "◆"], ["black", "◆"], ["odd", "ODD"], ["high", "19-36"]].forEach(([id, t], i) => {
    const [cx, cy] = P(C + (i + 0.5) * 2 * C, 3 * R + 1.5 * O);
    spot(cells, id, rect(C + i * 2 * C, 3 * R + O, C + (i + 1) * 2 * C, 3 * R + 2 * O, { class: "cell outside" }),
      [cx + 28, cy], [text(cx, cy, t, { class: `cell-text${id === "red" || id === "black" ? ` diamond-${id}` : ""}` })]);
  });
  {
    const [cx, cy] = P(13.5 * C, 3 * R + O);
    spot(cells, "seven_numbers", rect(13 * C, 3 * R, 14 * C, 3 * R + 2 * O, { class: "cell outside seven" }),
      [cx, cy + 22], [text(cx, cy - 28, "7 NUMS", { class: "cell-text micro" }),
        text(cx, cy - 16, "10-15", { class: "cell-text micro" }), text(cx, cy - 4, "& 33", { class: "cell-text micro" })]);
  }

  // The wheel replica (racetrack): five adjacent numbers on the wheel, centred on a pocket.
  if (offers("five_adjacent")) {
    const order = offer.wheel.order;
    const rr = 44;
    const la = 1.2 * C + rr;
    const lb = 13.2 * C - rr;
    const sc = trackTop + rr + 6;
    const straight = lb - la;
    const per = 2 * straight + 2 * Math.PI * rr;
    const track = s("g", { class: "racetrack" });
    const [ox, oy] = P(la - rr, sc - rr);
    const [ex, ey] = P(lb + rr, sc + rr);
    track.append(s("rect", { x: Math.min(ox, ex), y: Math.min(oy, ey), width: Math.abs(ex - ox), height: Math.abs(ey - oy),
      rx: rr, class: "track-bg" }));
    const [tx, ty] = P((la + lb) / 2, sc);
    track.append(text(tx, ty, "FIVE ADJACENT NUMBERS ON THE WHEEL", { class: "cell-text micro",
      transform: vertical ? `rotate(-90 ${tx} ${ty})` : undefined }));
    cells.append(track);
    order.forEach((p, i) => {
      let t = (i / order.length) * per;
      let l; let sA;
      if (t < straight) { l = la + t; sA = sc - rr; } else if ((t -= straight) < Math.PI * rr) {
        const a = t / rr; l = lb + rr * Math.sin(a); sA = sc - rr * Math.cos(a);
      } else if ((t -= Math.PI * rr) < straight) { l = lb - t; sA = sc + rr; } else {
        t -= straight; const a = t / rr; l = la - rr * Math.sin(a); sA = sc + rr * Math.cos(a);
      }
      const [x, y] = P(l, sA);
      spot(cells, `five_adjacent:${p}`, s("circle", { cx: x, cy: y, r: 13, class: `pocket pocket-${colour(p)}` }),
        [x, y], [text(x, y, String(p), { class: "pocket-number" })]);
    });
  }

  host.append(svg);

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
      if (e.mine) chipsLayer.append(chip(sp.x, sp.y, e.mine, { label }));
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
        if (sp.spec.wager === "five_adjacent") numberBoxes.push([sp.x - 13, sp.y - 13, sp.x + 13, sp.y + 13]);
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

  // Every inside wager that covers a number, straight first: on a phone the lines and corners
  // between numbers are too small for a thumb, so a tap on a number offers them as a list.
  const ORDER = ["straight", "split", "three_numbers", "four_numbers", "first_five", "six_numbers"];
  const FIRST_FIVE = new Set(["0", "00", "1", "2", "3"]);
  const byNumbers = (a, b) => {
    const [x, y] = [a, b].map((sp) => (sp.spec.numbers || []).map(pkey));
    const i = x.findIndex((v, j) => v !== y[j]);
    return i < 0 ? x.length - y.length : x[i] - (y[i] ?? -1);
  };
  function covering(number) {
    const n = String(number);
    return [...spots.values()].filter((sp) => (sp.spec.numbers ? sp.spec.numbers.map(String).includes(n)
      : sp.spec.wager === "first_five" && FIRST_FIVE.has(n)))
      .sort((a, b) => ORDER.indexOf(a.spec.wager) - ORDER.indexOf(b.spec.wager) || byNumbers(a, b));
  }

  return { spots, render, clearBadges, badge, covering, placeOf: (l) => ({ key: l, dx: 0, dy: 0 }),
    describe: (l) => describe(l, offer), nameOf: (l) => nameOf(l, offer) };
}

// The wheel: pockets in their order, turning one way while the ball runs the other.
export function drawWheel(host, offer) {
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
