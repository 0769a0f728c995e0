// The craps felt: drawn in SVG from what the table's profile offers.
import { s, text, die, setDie, chip, money } from "./svg.js";

const NUMBERS = [4, 5, 6, 8, 9, 10];
const WORD = { 4: "4", 5: "5", 6: "SIX", 8: "8", 9: "NINE", 10: "10" };
const HARD = [[6, 3], [10, 5], [8, 4], [4, 2]];
export const NAMES = {
  pass: "Pass Line", dont_pass: "Don't Pass Bar", come: "Come", dont_come: "Don't Come Bar",
  pass_odds: "odds on the Pass Line", dont_pass_odds: "odds on Don't Pass",
  come_odds: "odds on Come", dont_come_odds: "odds on Don't Come",
  place_win: "Place to win", place_lose: "Place to lose", buy: "Buy", lay: "Lay",
  hard: "Hardway", field: "Field", any_seven: "Any Seven", any_craps: "Any Craps",
  craps_2: "Craps Two (aces)", craps_3: "Craps Three (ace-deuce)", craps_12: "Craps Twelve",
  yo_11: "Eleven (yo)", c_and_e: "C and E", horn: "Horn", horn_high: "Horn High",
  whirl: "Whirl", hop: "Hop", six_seven_eight: "6-7-8", fire: "Fire Bet",
};

// "place_win:6" -> {wager: "place_win", number: 6}; "hop:1-3" -> {wager: "hop", dice: [1, 3]}.
export function specOf(label) {
  const [id, q] = label.split(":");
  if (q === undefined) return { wager: id };
  if (id === "hop") return { wager: id, dice: q.split("-").map(Number) };
  return { wager: id, number: Number(q) };
}

// A wager's name as the decision and recall read it: "Place to win 6", "Hard 8", "1-3 on the Hop".
export function nameOf(label) {
  const spec = specOf(label);
  const name = NAMES[spec.wager] || spec.wager.replaceAll("_", " ");
  if (spec.wager === "hop") return `${spec.dice.join("-")} on the Hop`;
  if (spec.wager === "hard") return `Hard ${spec.number}`;
  if (spec.wager === "come" || spec.wager === "dont_come") return spec.number ? `${name} on ${spec.number}` : name;
  if (spec.wager === "horn_high") return `Horn High ${spec.number}`;
  if (spec.number !== undefined) return `${name} ${spec.number}`;
  return name;
}

export function describe(label, offer) {
  const pay = offer && offer.pays[label];
  return pay ? `${nameOf(label)}, pays ${pay}` : nameOf(label);
}

// Where a wager's chips sit: the spot they are on and an offset inside it.
function placeOf(label) {
  const spec = specOf(label);
  const n = spec.number;
  switch (spec.wager) {
    case "come": return n ? { key: `place_win:${n}`, dx: -26, dy: 22 } : { key: "come", dx: 0, dy: 0 };
    case "come_odds": return { key: `place_win:${n}`, dx: -8, dy: 26 };
    case "dont_come": return n ? { key: `lay:${n}`, dx: -12, dy: 0 } : { key: "dont_come", dx: 0, dy: 0 };
    case "dont_come_odds": return { key: `lay:${n}`, dx: 10, dy: 0 };
    case "pass_odds": return { key: "pass", dx: 0, dy: 22 };
    case "dont_pass_odds": return { key: "dont_pass", dx: 34, dy: 0 };
    default: return { key: label, dx: 0, dy: 0 };
  }
}

// The felt on a wide screen: the classic layout, numbers across the top, the lines below.
function wideFelt(ctx) {
  const { spot, box, offers, offer } = ctx;
  spot("dont_come", box(90, 14, 100, 136), [140, 96], [
    text(140, 40, "DON'T", { class: "felt-text small" }), text(140, 58, "COME", { class: "felt-text small" }),
    text(140, 76, "BAR", { class: "felt-text small" }), die(128, 122, 18, 6, "die art"),
    die(152, 122, 18, 6, "die art")]);
  NUMBERS.forEach((n, i) => numberBlock(ctx, n, 190 + i * 100, 14, 100, [26, 84, 26]));
  spot("come", box(90, 154, 700, 80, "line-box come"), [640, 194], [
    text(440, 194, "COME", { class: "felt-title come-text" })]);
  fieldSpot(ctx, 90, 238, 700, 70);
  spot("dont_pass", box(90, 312, 700, 36, "line-box"), [260, 330], [
    text(440, 330, "DON'T PASS BAR", { class: "felt-text" }), die(560, 330, 16, 6, "die art"),
    die(580, 330, 16, 6, "die art")]);
  // The pass line runs up the left side too: that strip bets the pass line as well, while the
  // spot itself (what a click on "the middle of the pass line" finds) is the strip along the foot.
  const side = s("g", { class: "spot-extra", "aria-hidden": "true" },
    s("path", { d: "M14 14 H86 V352 H14 Z", class: "line-box pass" }),
    text(50, 200, "PASS LINE", { class: "felt-text", transform: "rotate(-90 50 200)" }));
  ctx.spotsLayer.append(side);
  const pass = spot("pass", box(14, 352, 776, 54, "line-box pass"), [640, 379], [
    text(440, 381, "PASS LINE", { class: "felt-title" })]);
  if (pass) side.addEventListener("click", () => ctx.hooks.activate(pass));
  if (offers("fire")) fireSpot(ctx, 798, 14, 90, 136);
  return { W: 900, H: 420, tray: [798, 160, 90, 150], puck: (n) => [190 + NUMBERS.indexOf(n) * 100 + 80, 58], off: [116, 100] };
}

// The felt on a phone: the numbers in two rows of three, every spot a thumb's width or more.
function phoneFelt(ctx) {
  const { spot, box, offers } = ctx;
  const cw = 118;
  NUMBERS.forEach((n, i) => numberBlock(ctx, n, 8 + (i % 3) * cw, 8 + Math.floor(i / 3) * 160, cw, [46, 66, 46]));
  spot("dont_come", box(8, 330, 354, 46), [60, 353], [text(185, 353, "DON'T COME BAR", { class: "felt-text" })]);
  spot("come", box(8, 380, 354, 62, "line-box come"), [322, 411], [text(185, 411, "COME", { class: "felt-title come-text" })]);
  fieldSpot(ctx, 8, 446, 354, 84);
  spot("dont_pass", box(8, 534, 354, 46), [60, 557], [text(185, 557, "DON'T PASS BAR", { class: "felt-text" })]);
  spot("pass", box(8, 584, 354, 62, "line-box pass"), [318, 615], [text(185, 615, "PASS LINE", { class: "felt-title" })]);
  if (offers("fire")) fireSpot(ctx, 8, 650, 170, 100);
  return { W: 370, H: 758, tray: [offers("fire") ? 186 : 100, 650, 176, 100], puck: (n) => {
    const i = NUMBERS.indexOf(n);
    return [8 + (i % 3) * cw + cw - 18, 8 + Math.floor(i / 3) * 160 + hh0(ctx) + 18];
  }, off: [330, 353] };
}
const hh0 = (ctx) => (ctx.offers("lay") || ctx.offers("place_lose") ? 46 : 0);

// One number's column: lay and place-to-lose strips, the place box, the buy strip.
function numberBlock(ctx, n, x, y, w, [top, mid, foot]) {
  const { spot, box, offers, offer } = ctx;
  const both = offers("place_lose") && offers("lay");
  const half = both ? w / 2 : w;
  spot(`lay:${n}`, box(x, y, half, top, "strip"), [x + half / 2, y + top / 2],
    [text(x + half / 2, y + top / 2, "LAY", { class: "felt-text tiny" })]);
  const lx = x + (offers("lay") ? half : 0);
  spot(`place_lose:${n}`, box(lx, y, half, top, "strip"), [lx + half / 2, y + top / 2],
    [text(lx + half / 2, y + top / 2, "LOSE", { class: "felt-text tiny" })]);
  const py = y + top;
  spot(`place_win:${n}`, box(x, py, w, mid, "number-box"), [x + w * 0.62, py + mid * 0.67], [
    text(x + w / 2, py + mid * 0.4, WORD[n], { class: `felt-number${n === 6 || n === 9 ? " word" : ""}` }),
    text(x + w / 2, py + mid * 0.84, offer.pays[`place_win:${n}`] || "", { class: "felt-text tiny pay" })]);
  spot(`buy:${n}`, box(x, py + mid, w, foot, "strip"), [x + w / 2, py + mid + foot / 2],
    [text(x + w / 2, py + mid + foot / 2, `BUY ${n}`, { class: "felt-text tiny" })]);
}

function fieldSpot(ctx, x, y, w, hh) {
  const { spot, box, offer } = ctx;
  const pays = (k) => offer.pays[k] || "";
  const cx = x + w / 2;
  spot("field", box(x, y, w, hh, "line-box"), [x + w - 90, y + hh / 2], [
    text(cx, y + hh * 0.29, "2 · 3 · 4 · 9 · 10 · 11 · 12", { class: "felt-field" }),
    text(cx, y + hh * 0.72, "FIELD", { class: "felt-title" }),
    s("circle", { cx: x + 34, cy: y + hh / 2, r: 26, class: "ring" }),
    text(x + 34, y + hh / 2 - 7, "2", { class: "felt-text" }), text(x + 34, y + hh / 2 + 10, pays("field:2"), { class: "felt-text tiny" }),
    s("circle", { cx: x + w - 34, cy: y + hh / 2, r: 26, class: "ring" }),
    text(x + w - 34, y + hh / 2 - 7, "12", { class: "felt-text" }), text(x + w - 34, y + hh / 2 + 10, pays("field:12"), { class: "felt-text tiny" })]);
}

function fireSpot(ctx, x, y, w, hh) {
  const { spot, box, offer } = ctx;
  const pays = ["4", "5", "6"].map((k) => `${k} pts ${offer.pays[`fire:${k}`] || ""}`);
  spot("fire", box(x, y, w, hh, "line-box fire"), [x + w / 2, y + hh - 20], [
    text(x + w / 2, y + 18, "FIRE BET", { class: "felt-text small fire-text" }),
    ...pays.map((p, i) => text(x + w / 2, y + 38 + i * 16, p, { class: "felt-text micro" }))]);
}

// The proposition area: one-roll and hardway wagers, labels at least 11 px on any screen.
function drawProps(ctx, phone) {
  const { spot, box, offers, offer } = ctx;
  const W = phone ? 370 : 380;
  let y = 10;
  const row = (items, height) => {
    const shown = items.filter((it) => offers(specOf(it.label).wager));
    if (!shown.length) return;
    const w = (W - 20 - (shown.length - 1) * 4) / shown.length;
    shown.forEach((it, i) => {
      const x = 10 + i * (w + 4);
      spot(it.label, box(x, y, w, height, "prop-box"), [x + w - 16, y + height / 2], it.art(x, y, w, height));
    });
    y += height + 4;
  };
  const caption = (x, yy, w, hh, title, pay) => [
    text(x + w / 2 - 8, yy + hh / 2 - (pay ? 8 : 0), title, { class: "prop-text" }),
    pay ? text(x + w / 2 - 8, yy + hh / 2 + 10, pay, { class: "prop-text pay" }) : null];
  const pair = (x, yy, w, hh, a, b, pay) => [die(x + w / 2 - 20, yy + 14, 18, a, "die art"),
    die(x + w / 2, yy + 14, 18, b, "die art"),
    text(x + w / 2 - 10, yy + hh - 11, pay || "", { class: "prop-text pay" })];
  row([{ label: "any_seven", art: (x, yy, w, hh) => caption(x, yy, w, hh, "ANY SEVEN", offer.pays.any_seven) }], 46);
  for (const pairRow of [HARD.slice(0, 2), HARD.slice(2)]) {
    row(pairRow.map(([n, f]) => ({ label: `hard:${n}`,
      art: (x, yy, w, hh) => pair(x, yy, w, hh, f, f, `HARD ${n} · ${offer.pays[`hard:${n}`] || ""}`) })), 50);
  }
  row([["craps_3", 1, 2], ["yo_11", 5, 6], ["craps_2", 1, 1], ["craps_12", 6, 6]].map(([label, a, b]) => ({
    label, art: (x, yy, w, hh) => pair(x, yy, w, hh, a, b, offer.pays[label]) })), 50);
  row([{ label: "any_craps", art: (x, yy, w, hh) => caption(x, yy, w, hh, "ANY CRAPS", offer.pays.any_craps) }], 46);
  row([["c_and_e", "C & E"], ["horn", "HORN"], ["whirl", "WHIRL"], ["six_seven_eight", "6-7-8"]].map(([label, t]) => ({
    label, art: (x, yy, w, hh) => caption(x, yy, w, hh, t, label === "six_seven_eight" ? offer.pays.six_seven_eight : "") })), 46);
  row([2, 3, 11, 12].map((n) => ({ label: `horn_high:${n}`,
    art: (x, yy, w, hh) => caption(x, yy, w, hh, `HIGH ${n}`, "HORN") })), 46);
  const hops = Object.keys(offer.pays).filter((k) => k.startsWith("hop:"));
  for (let i = 0; i < hops.length; i += 4) {
    row(hops.slice(i, i + 4).map((label) => {
      const [a, b] = label.slice(4).split("-").map(Number);
      return { label, art: (x, yy, w, hh) => pair(x + 8, yy, w, hh, a, b, offer.pays[label]) };
    }), 50);
  }
  if (hops.length) {
    ctx.svg.append(text(W / 2, y + 8, "HOPS: one roll, the dice shown", { class: "prop-text" }));
    y += 18;
  }
  return { W, H: Math.max(y + 10, 200) };
}

export function drawCraps(host, offer, hooks, { phone = false } = {}) {
  const offers = (id) => id in offer.wagers;
  const spots = new Map();
  host.replaceChildren();
  const box = (x, y, w, hgt, cls = "line-box", rx = 4) => s("rect", { x, y, width: w, height: hgt, rx, class: cls });
  const surface = (cls, label) => {
    const svg = s("svg", { class: `felt ${cls}`, role: "group", "aria-label": label });
    const bg = s("rect", { x: 0, y: 0, rx: 22, class: "felt-bg" });
    const layers = { spots: s("g", { class: "spots" }), chips: s("g", { class: "chips" }), badges: s("g", { class: "badges" }) };
    svg.append(bg, layers.spots);
    const ctx = { svg, offer, offers, box, hooks, spotsLayer: layers.spots, layers,
      spot: (label, shape, anchor, art = []) => makeSpot(ctx, label, shape, anchor, art),
      size: (W, H) => { svg.setAttribute("viewBox", `0 0 ${W} ${H}`); bg.setAttribute("width", W); bg.setAttribute("height", H); } };
    return ctx;
  };
  const makeSpot = (ctx, label, shape, anchor, art) => {
    const wager = specOf(label).wager;
    if (!offers(wager)) return null;
    const name = describe(label, offer);
    const g = s("g", { class: `spot spot-${wager}`, role: "button", tabindex: 0, "aria-label": name, "data-spot": label });
    g.append(shape, ...art.filter(Boolean), s("title", {}, name));
    ctx.spotsLayer.append(g);
    const info = { key: label, el: g, svg: ctx.svg, x: anchor[0], y: anchor[1], spec: specOf(label), name };
    spots.set(label, info);
    g.addEventListener("click", () => hooks.activate(info));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); hooks.activate(info); }
    });
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
  // --- what is on the layout ----------------------------------------------------------------
  function render(state, me, calls) {
    for (const { chips } of layers.values()) chips.replaceChildren();
    puckLayer.replaceChildren();
    const offIds = new Set(offer.off_on_come_out || []);
    const byPlace = new Map();
    for (const w of state.layout || []) {
      const place = placeOf(w.wager);
      const spotInfo = spots.get(place.key);
      if (!spotInfo) continue;
      const k = `${place.key}|${place.dx}|${place.dy}`;
      const entry = byPlace.get(k) || { spot: spotInfo, place, mine: 0, others: 0, labels: [] };
      if (w.player === me) { entry.mine += Number(w.stake); entry.labels.push(w.wager); }
      else entry.others += Number(w.stake);
      byPlace.set(k, entry);
    }
    for (const e of byPlace.values()) {
      const { chips } = layers.get(e.spot.svg);
      const x = e.spot.x + e.place.dx;
      const yy = e.spot.y + e.place.dy;
      if (e.others) chips.append(chip(x - 14, yy + 10, e.others, { mine: false, label: "other players" }));
      if (e.mine) {
        const off = state.point === null && e.labels.some((l) => offIds.has(specOf(l).wager) && !calls.get(l));
        chips.append(chip(x, yy, e.mine, { off, label: e.labels.join(", ") }));
      }
    }
    // The puck: ON on the point, OFF in the don't come bar.
    const point = state.point;
    const target = point ? spots.get(`place_win:${point}`) : spots.get("dont_come");
    const [px, py] = point ? geo.puck(point) : geo.off;
    if (target || !point) {
      const puck = s("g", { class: `puck ${point ? "puck-on" : "puck-off"}`, role: "img",
        "aria-label": point ? `Point is ${point}` : "No point: come-out roll" });
      puck.append(s("circle", { cx: px, cy: py, r: 16 }));
      puck.append(text(px, py, point ? "ON" : "OFF", { class: "puck-text" }));
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
    const place = placeOf(label);
    const spotInfo = spots.get(place.key) || spots.get(placeOf(specOf(label).wager).key);
    if (!spotInfo) return;
    const { badges } = layers.get(spotInfo.svg);
    const x = spotInfo.x + place.dx;
    // Where the chips were (a lost wager's are gone): the box's number and pay stay readable.
    const yy = spotInfo.y + place.dy;
    const sign = result === "win" ? "+" : result === "lose" ? "−" : "";
    const str = `${result.toUpperCase()} ${sign}${money(amount)}`;
    const g = s("g", { class: `badge badge-${result}${mine ? " mine" : ""}` });
    const w = str.length * 7.4 + 12;
    g.append(s("rect", { x: Math.max(2, x - w / 2), y: yy - 10, width: w, height: 20, rx: 10 }));
    g.append(text(Math.max(2, x - w / 2) + w / 2, yy, str, { class: "badge-text craps-badge" }));
    badges.append(g);
  }

  return { spots, render, roll, clearBadges, badge, placeOf, describe: (l) => describe(l, offer), nameOf };
}
