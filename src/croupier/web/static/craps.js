// The craps felt: drawn in SVG from what the table offers (offer.js): each wager where its
// definition's felt says (the numbers' columns, the bar, the bands across the felt, the side
// box, the proposition rows, or the "more bets"), with what is printed there.
import { s, text, die, setDie, chip, money } from "./svg.js";
import { spotOf, defOf, inArea, nameOf, describe, spotElement } from "./offer.js";

const WORD = { 4: "4", 5: "5", 6: "SIX", 8: "8", 9: "NINE", 10: "10" };
const STRIPS = ["top", "box", "foot"];
const GAP = 4;

const bySlot = (a, b) => a.felt.slot - b.felt.slot;
const has = (def, art) => (def.felt.art || []).includes(art);

// The felt on a wide screen: the numbers across the top with the bar beside them, the bands
// below, the side box at the right.
function wideFelt(ctx) {
  ctx.offer.points.forEach((n, i) => numberColumn(ctx, n, 190 + i * 100, 14, 100, [26, 84, 26]));
  bar(ctx, 90, 14, 100, 136);
  const end = bands(ctx, 90, 154, 700, false);
  side(ctx, 798, 14, 90, 136);
  return { W: 900, H: Math.max(end + 14, 420), tray: [798, 160, 90, 150], off: [116, 100],
    puck: (n) => ctx.puckAt(n, 80, 18) };
}

// The felt on a phone: the numbers in two rows of three, every spot a thumb's width or more.
function phoneFelt(ctx) {
  const cw = 118;
  ctx.offer.points.forEach((n, i) => numberColumn(ctx, n, 8 + (i % 3) * cw, 8 + Math.floor(i / 3) * 160, cw, [46, 66, 46]));
  const top = 8 + Math.ceil(ctx.offer.points.length / 3) * 160 + 2;
  const barEnd = barBand(ctx, 8, top, 354, 46);
  const below = bands(ctx, 8, barEnd, 354, true) + GAP;
  const sided = side(ctx, 8, below, 170, 100);
  return { W: 370, H: below + 108, tray: [sided ? 186 : 100, below, 176, 100], off: [330, top + 23],
    puck: (n) => ctx.puckAt(n, cw - 18, 18) };
}

// One number's column: its strips (top, box, foot), each shared by the wagers drawn there.
function numberColumn(ctx, n, x, y, w, heights) {
  const { spot, box, offer } = ctx;
  let sy = y;
  STRIPS.forEach((strip, i) => {
    const sh = heights[i];
    const here = inArea(offer, "numbers").filter((d) => d.felt.strip === strip).sort(bySlot)
      .map((d) => d.keys.find((k) => offer.spots[k].q === n)).filter(Boolean);
    const share = w / Math.max(here.length, 1);
    let first = null;
    here.forEach((key, j) => {
      const sx = x + j * share;
      const sp = offer.spots[key];
      const drawn = strip === "box"
        ? spot(key, box(sx, sy, share, sh, "number-box"), [sx + share * 0.62, sy + sh * 0.67], [
          text(sx + share / 2, sy + sh * 0.4, WORD[n] || String(n), { class: `felt-number${WORD[n] && WORD[n].length > 2 ? " word" : ""}` }),
          text(sx + share / 2, sy + sh * 0.84, sp.pay || "", { class: "felt-text tiny pay" })])
        : spot(key, box(sx, sy, share, sh, "strip"), [sx + share / 2, sy + sh / 2],
          [text(sx + share / 2, sy + sh / 2, sp.label || sp.name, { class: "felt-text tiny" })]);
      first = first || drawn;
    });
    const at = first ? [first.x, first.y] : [x + w / 2, sy + sh / 2];
    ctx.anchors.set(`${n}|${strip}`, { key: first ? first.key : null, svg: ctx.svg, x: at[0], y: at[1] });
    if (strip === "box") ctx.columns.set(n, { x, y: sy });
    sy += sh;
  });
}

// The bar beside the numbers (wide screens): its words stacked, its dice under them.
function bar(ctx, x, y, w, hh) {
  const defs = inArea(ctx.offer, "bar");
  const each = hh / Math.max(defs.length, 1);
  defs.forEach((d, i) => {
    const top = y + i * each;
    const key = d.keys[0];
    const sp = ctx.offer.spots[key];
    const words = (sp.label || sp.name).split(" ");
    const art = words.map((word, j) => text(x + w / 2, top + 26 + j * 18, word, { class: "felt-text small" }));
    if (sp.dice) art.push(...sp.dice.map((v, j) => die(x + w / 2 - 12 + j * 24, top + each - 28, 18, v, "die art")));
    ctx.spot(key, ctx.box(x, top, w, each), [x + w / 2, top + each * 0.6], art);
  });
}

// The bar on a phone: a band of its own above the others.
function barBand(ctx, x, y, w, hh) {
  const defs = inArea(ctx.offer, "bar");
  for (const d of defs) {
    const sp = ctx.offer.spots[d.keys[0]];
    ctx.spot(d.keys[0], ctx.box(x, y, w, hh), [x + 52, y + hh / 2],
      [text(x + w / 2, y + hh / 2, sp.label || sp.name, { class: "felt-text" })]);
    y += hh + GAP;
  }
  return y;
}

// The bands across the felt, top to bottom in their rows; a band's wagers share its width.
function bands(ctx, x, y, w, phone) {
  const defs = inArea(ctx.offer, "band").sort((a, b) => a.felt.row - b.felt.row);
  for (const d of defs) {
    const size = d.felt.size || [46, 46];
    const hh = phone ? size[1] : size[0];
    const each = w / d.keys.length;
    d.keys.forEach((key, i) => band(ctx, d, key, x + i * each, y, each, hh, phone));
    y += hh + GAP;
  }
  return y - GAP;
}

function band(ctx, d, key, x, y, w, hh, phone) {
  const sp = ctx.offer.spots[key];
  const style = d.felt.style || "";
  const edge = has(d, "edge") && !phone;
  const cx = x + w / 2;
  const mid = y + hh / 2;
  const label = sp.label || sp.name;
  const art = [];
  if (sp.totals) art.push(text(cx, y + hh * 0.29, sp.totals.join(" · "), { class: "felt-field" }));
  if (has(d, "title")) {
    art.push(text(cx, sp.totals ? y + hh * 0.72 : mid + 2, label, { class: `felt-title${style ? ` ${style}-text` : ""}` }));
  } else art.push(text(cx, mid, label, { class: "felt-text" }));
  if (sp.dice && !phone) art.push(...sp.dice.map((v, j) => die(cx + 120 + j * 20, mid, 16, v, "die art")));
  (sp.rings || []).slice(0, 2).forEach((ring, j) => {
    const rx = j === 0 ? x + 34 : x + w - 34;
    art.push(s("circle", { cx: rx, cy: mid, r: 26, class: "ring" }),
      text(rx, mid - 7, ring.text, { class: "felt-text" }), text(rx, mid + 10, ring.pay, { class: "felt-text tiny" }));
  });
  const left = edge ? 14 : x;
  const anchor = [x + w - (sp.rings ? 90 : phone ? 40 : 150), mid];
  if (!edge) { ctx.spot(key, ctx.box(left, y, x + w - left, hh, `line-box ${style}`.trim()), anchor, art); return; }
  // The wager runs up the felt's edge too: that strip bets it as well, while the spot itself
  // (what a click on "the middle of the pass line" finds) is the band along the foot.
  const strip = s("g", { class: "spot-extra", "aria-hidden": "true" },
    s("path", { d: `M14 14 H${x - 4} V${y} H14 Z`, class: `line-box ${style}`.trim() }),
    text((14 + x - 4) / 2, (14 + y) / 2, label, { class: "felt-text", transform: `rotate(-90 ${(14 + x - 4) / 2} ${(14 + y) / 2})` }));
  ctx.spotsLayer.append(strip);
  const drawn = ctx.spot(key, ctx.box(left, y, x + w - left, hh, `line-box ${style}`.trim()), anchor, art);
  if (drawn) strip.addEventListener("click", () => ctx.hooks.activate(drawn));
}

// The box at the felt's side: its name, then each of its pay entries on a line.
function side(ctx, x, y, w, hh) {
  const defs = inArea(ctx.offer, "side");
  defs.forEach((d, i) => {
    const bx = x + i * (w + GAP);
    const key = d.keys[0];
    const sp = ctx.offer.spots[key];
    const style = d.felt.style || "";
    ctx.spot(key, ctx.box(bx, y, w, hh, `line-box ${style}`.trim()), [bx + w / 2, y + hh - 20], [
      text(bx + w / 2, y + 18, sp.label || sp.name, { class: `felt-text small${style ? ` ${style}-text` : ""}` }),
      ...(sp.lines || []).map((line, j) => text(bx + w / 2, y + 38 + j * 16, line, { class: "felt-text micro" }))]);
  });
  return defs.length > 0;
}

// The proposition area: its rows in order, labels at least 11 px on any screen; then the
// "more bets", every wager offered that has no place of its own on the felt.
function drawProps(ctx, phone) {
  const { spot, box, offer } = ctx;
  const W = phone ? 370 : 380;
  let y = 10;
  const rows = new Map();
  const captions = new Map();
  for (const d of inArea(offer, "props")) {
    const per = d.felt.per_row || d.keys.length;
    d.keys.forEach((key, i) => {
      const row = d.felt.row + Math.floor(i / per);
      if (!rows.has(row)) rows.set(row, []);
      rows.get(row).push({ d, key, order: [d.felt.slot, i] });
      if (d.felt.caption) captions.set(d.id, { row, text: d.felt.caption });
    });
  }
  const caption = (x, yy, w, hh, title, sub) => [
    text(x + w / 2 - 8, yy + hh / 2 - (sub ? 8 : 0), title, { class: "prop-text" }),
    sub ? text(x + w / 2 - 8, yy + hh / 2 + 10, sub, { class: "prop-text pay" }) : null];
  const pair = (x, yy, w, hh, [a, b], under) => [die(x + w / 2 - 20, yy + 14, 18, a, "die art"),
    die(x + w / 2, yy + 14, 18, b, "die art"), text(x + w / 2 - 10, yy + hh - 11, under, { class: "prop-text pay" })];
  const drawRow = (cells, height, art) => {
    const w = (W - 20 - (cells.length - 1) * 4) / cells.length;
    cells.forEach((cell, i) => {
      const x = 10 + i * (w + 4);
      spot(cell.key, box(x, y, w, height, "prop-box"), [x + w - 16, y + height / 2], art(cell, x, w, height));
    });
    y += height + 4;
  };
  const artOf = ({ d, key }, x, w, hh) => {
    const sp = offer.spots[key];
    const pay = has(d, "pay") ? sp.pay || "" : "";
    if (sp.dice) return pair(x, y, w, hh, sp.dice, [sp.label, pay].filter(Boolean).join(" · "));
    return caption(x, y, w, hh, sp.label || sp.name.toUpperCase(), pay || sp.note || "");
  };
  for (const row of [...rows.keys()].sort((a, b) => a - b)) {
    const cells = rows.get(row).sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
    drawRow(cells, cells.some((c) => offer.spots[c.key].dice) ? 50 : 46, artOf);
    for (const c of captions.values()) {
      if (c.row !== row) continue;
      ctx.svg.append(text(W / 2, y + 8, c.text, { class: "prop-text" }));
      y += 18;
    }
  }
  const more = inArea(offer, "more").flatMap((d) => d.keys.map((key) => ({ d, key })));
  if (more.length) {
    ctx.svg.append(text(W / 2, y + 14, "MORE BETS", { class: "prop-text" }));
    y += 28;
    for (let i = 0; i < more.length; i += 2) {
      drawRow(more.slice(i, i + 2), 46, ({ key }, x, w, hh) => {
        const sp = offer.spots[key];
        return caption(x, y, w, hh, sp.label || sp.name, sp.pay || "");
      });
    }
  }
  return { W, H: Math.max(y + 10, 200) };
}

export function drawCraps(host, offer, hooks, { phone = false } = {}) {
  const spots = new Map();
  const anchors = new Map(); // "6|box" -> where chips sit in that strip of the 6's column
  const columns = new Map(); // 6 -> the top left of the 6's box strip
  host.replaceChildren();
  const box = (x, y, w, hgt, cls = "line-box", rx = 4) => s("rect", { x, y, width: w, height: hgt, rx, class: cls });
  const surface = (cls, label) => {
    const svg = s("svg", { class: `felt ${cls}`, role: "group", "aria-label": label });
    const bg = s("rect", { x: 0, y: 0, rx: 22, class: "felt-bg" });
    const layers = { spots: s("g", { class: "spots" }), chips: s("g", { class: "chips" }), badges: s("g", { class: "badges" }) };
    svg.append(bg, layers.spots);
    const ctx = { svg, offer, box, hooks, spotsLayer: layers.spots, layers, anchors, columns,
      spot: (key, shape, anchor, art = []) => makeSpot(ctx, key, shape, anchor, art),
      puckAt: (n, dx, dy) => { const c = columns.get(n); return c ? [c.x + dx, c.y + dy] : null; },
      size: (W, H) => { svg.setAttribute("viewBox", `0 0 ${W} ${H}`); bg.setAttribute("width", W); bg.setAttribute("height", H); } };
    return ctx;
  };
  const makeSpot = (ctx, key, shape, anchor, art) => {
    if (!offer.spots[key]) return null;
    let info = null;
    const { g, spot, name } = spotElement(s, offer, key, shape, art, () => hooks.activate(info));
    ctx.spotsLayer.append(g);
    info = { key, el: g, svg: ctx.svg, x: anchor[0], y: anchor[1], spec: spot.spec, name };
    spots.set(key, info);
    return info;
  };

  const main = surface(`craps-felt${phone ? " phone" : ""}`, `Craps layout, ${offer.title}`);
  const geo = phone ? phoneFelt(main) : wideFelt(main);
  main.size(geo.W, geo.H);
  const felt = main.svg;
  const puckLayer = s("g", { class: "puck-layer" });
  const tray = s("g", { class: "dice-tray", "aria-hidden": "true" });
  const [tx, ty, tw, th] = geo.tray;
  tray.append(s("rect", { x: tx, y: ty, width: tw, height: th, rx: 10, class: "tray" }));
  const d1 = die(tx + tw / 2 - 17, ty + th * 0.34, 34, 1, "die rolled");
  const d2 = die(tx + tw / 2 + 19, ty + th * 0.34 + (phone ? 0 : 36), 34, 1, "die rolled");
  tray.append(d1, d2, text(tx + tw / 2, ty + th - 16, "", { class: "felt-text small roll-total" }));
  felt.append(tray, main.layers.chips, puckLayer, main.layers.badges);

  const pr = surface(`craps-props${phone ? " phone" : ""}`, "Proposition wagers");
  const pgeo = drawProps(pr, phone);
  pr.size(pgeo.W, pgeo.H);
  pr.svg.append(pr.layers.chips, pr.layers.badges);
  const props = pr.svg;
  host.append(felt, props);

  const layers = new Map([[felt, main.layers], [props, pr.layers]]);

  // Where a wager's chips sit: on its own spot, or where the offer says (a come bet on its
  // number's column, odds with the flat bet they stand behind), with the spot found there.
  function placeOf(key, depth = 0) {
    const drawn = spots.get(key);
    if (drawn) return { key, svg: drawn.svg, x: drawn.x, y: drawn.y };
    const at = spotOf(offer, key).place;
    if (!at || depth > 4) return null;
    const base = at.with !== undefined ? placeOf(at.with, depth + 1) : anchors.get(`${at.number}|${at.strip}`);
    return base ? { key: base.key, svg: base.svg, x: base.x + at.dx, y: base.y + at.dy } : null;
  }

  // --- what is on the layout ----------------------------------------------------------------
  function render(state, me, calls) {
    for (const { chips } of layers.values()) chips.replaceChildren();
    puckLayer.replaceChildren();
    const byPlace = new Map();
    for (const w of state.layout || []) {
      const place = placeOf(w.wager);
      if (!place) continue;
      const k = `${place.key}|${place.x}|${place.y}`;
      const entry = byPlace.get(k) || { place, mine: 0, others: 0, labels: [] };
      if (w.player === me) { entry.mine += Number(w.stake); entry.labels.push(w.wager); }
      else entry.others += Number(w.stake);
      byPlace.set(k, entry);
    }
    for (const e of byPlace.values()) {
      const { chips } = layers.get(e.place.svg);
      const { x, y } = e.place;
      if (e.others) chips.append(chip(x - 14, y + 10, e.others, { mine: false, label: "other players" }));
      if (e.mine) {
        const off = state.point === null && e.labels.some((l) => { const d = defOf(offer, l); return d && d.off_on_come_out && !calls.get(l); });
        chips.append(chip(x, y, e.mine, { off, label: e.labels.map((l) => nameOf(offer, l)).join(", ") }));
      }
    }
    // The viewer's late bets waiting for their confirmations: a pending chip beside the spot.
    for (const b of state.late_bets || []) {
      if (b.player !== me) continue;
      const label = b.qualifier !== null && b.qualifier !== undefined ? `${b.wager}:${Array.isArray(b.qualifier) ? b.qualifier.join("-") : b.qualifier}` : b.wager;
      const place = placeOf(label);
      if (!place) continue;
      const pending = chip(place.x + 14, place.y - 12, Number(b.amount), { label: `Late bet ${b.id}: ${nameOf(offer, label)}, waiting for confirmation` });
      pending.classList.add("chip-pending");
      pending.dataset.late = String(b.id);
      layers.get(place.svg).chips.append(pending);
    }
    // The puck: ON on the point's column, OFF in the bar.
    const point = state.point;
    const at = point ? geo.puck(point) : geo.off;
    if (at) {
      const puck = s("g", { class: `puck ${point ? "puck-on" : "puck-off"}`, role: "img",
        "aria-label": point ? `Point is ${point}` : "No point: come-out roll" });
      puck.append(s("circle", { cx: at[0], cy: at[1], r: 16 }));
      puck.append(text(at[0], at[1], point ? "ON" : "OFF", { class: "puck-text" }));
      puckLayer.append(puck);
    }
  }

  // --- the dice and the settlements ---------------------------------------------------------
  let rolling = null;
  function roll(dice, animate) {
    const total = dice[0] + dice[1];
    const label = tray.querySelector(".roll-total");
    if (rolling) { clearInterval(rolling); rolling = null; }
    const finish = () => {
      setDie(d1, dice[0]); setDie(d2, dice[1]);
      tray.classList.remove("tumbling");
      label.textContent = `${dice[0]} + ${dice[1]} = ${total}`;
    };
    if (!animate || matchMedia("(prefers-reduced-motion: reduce)").matches) { finish(); return; }
    tray.classList.add("tumbling");
    let n = 0;
    rolling = setInterval(() => {
      setDie(d1, 1 + Math.floor(Math.random() * 6)); setDie(d2, 1 + Math.floor(Math.random() * 6));
      if (++n >= 8) { clearInterval(rolling); rolling = null; finish(); }
    }, 70);
  }

  function clearBadges() { for (const { badges } of layers.values()) badges.replaceChildren(); }

  function badge(label, result, amount, mine) {
    const d = defOf(offer, label);
    const place = placeOf(label) || (d && d.keys.length ? placeOf(d.keys[0]) : null);
    if (!place) return;
    const { badges } = layers.get(place.svg);
    // Where the chips were (a lost wager's are gone): the box's number and pay stay readable.
    const { x, y: yy } = place;
    const sign = result === "win" ? "+" : result === "lose" ? "−" : "";
    const str = `${result.toUpperCase()} ${sign}${money(amount)}`;
    const g = s("g", { class: `badge badge-${result}${mine ? " mine" : ""}` });
    const w = str.length * 7.4 + 12;
    const left = Math.max(2, Math.min(x - w / 2, place.svg.viewBox.baseVal.width - 2 - w)); // on the felt
    g.append(s("rect", { x: left, y: yy - 10, width: w, height: 20, rx: 10 }));
    g.append(text(left + w / 2, yy, str, { class: "badge-text craps-badge" }));
    badges.append(g);
  }

  return { spots, render, roll, clearBadges, badge, placeOf,
    describe: (l) => describe(offer, l), nameOf: (l) => nameOf(offer, l) };
}
