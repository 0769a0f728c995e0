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

export function describe(label, offer) {
  const spec = specOf(label);
  const name = NAMES[spec.wager] || spec.wager;
  let what = name;
  if (spec.wager === "hop") what = `${spec.dice.join("-")} on the Hop`;
  else if (spec.wager === "hard") what = `Hard ${spec.number}`;
  else if (spec.number !== undefined) what = `${name} ${spec.number}`;
  const pay = offer && offer.pays[label];
  return pay ? `${what}, pays ${pay}` : what;
}

// Where a wager's chips sit: the spot they are on and an offset inside it.
function placeOf(label) {
  const spec = specOf(label);
  const n = spec.number;
  switch (spec.wager) {
    case "come": return n ? { key: `place_win:${n}`, dx: -26, dy: 26 } : { key: "come", dx: 0, dy: 0 };
    case "come_odds": return { key: `place_win:${n}`, dx: -8, dy: 30 };
    case "dont_come": return n ? { key: `lay:${n}`, dx: -12, dy: 0 } : { key: "dont_come", dx: 0, dy: 0 };
    case "dont_come_odds": return { key: `lay:${n}`, dx: 10, dy: 0 };
    case "pass_odds": return { key: "pass", dx: 0, dy: 22 };
    case "dont_pass_odds": return { key: "dont_pass", dx: 34, dy: 0 };
    default: return { key: label, dx: 0, dy: 0 };
  }
}

export function drawCraps(host, offer, hooks) {
  const offers = (id) => id in offer.wagers;
  const spots = new Map();
  host.replaceChildren();

  // --- the main felt ------------------------------------------------------------------------
  const felt = s("svg", { viewBox: "0 0 900 420", class: "felt craps-felt", role: "group",
    "aria-label": `Craps layout, ${offer.title}` });
  felt.append(s("rect", { x: 0, y: 0, width: 900, height: 420, rx: 22, class: "felt-bg" }));
  const spotsLayer = s("g", { class: "spots" });
  const chipsLayer = s("g", { class: "chips" });
  const badgeLayer = s("g", { class: "badges" });
  const puckLayer = s("g", { class: "puck-layer" });
  felt.append(spotsLayer);

  const spot = (svg, layer, label, shape, anchor, art = []) => {
    const wager = specOf(label).wager;
    if (!offers(wager)) return null;
    const name = describe(label, offer);
    const g = s("g", { class: `spot spot-${wager}`, role: "button", tabindex: 0,
      "aria-label": name, "data-spot": label });
    g.append(shape, ...art);
    g.append(s("title", {}, name));
    layer.append(g);
    const info = { key: label, el: g, svg, x: anchor[0], y: anchor[1], spec: specOf(label), name };
    spots.set(label, info);
    g.addEventListener("click", () => hooks.activate(info));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); hooks.activate(info); }
    });
    return info;
  };
  const box = (x, y, w, hgt, cls = "line-box", rx = 4) =>
    s("rect", { x, y, width: w, height: hgt, rx, class: cls });

  // Don't come bar and the numbers.
  spot(felt, spotsLayer, "dont_come", box(90, 14, 100, 136), [140, 96], [
    text(140, 40, "DON'T", { class: "felt-text small" }), text(140, 58, "COME", { class: "felt-text small" }),
    text(140, 76, "BAR", { class: "felt-text small" }), die(128, 122, 18, 6, "die art"),
    die(152, 122, 18, 6, "die art")]);
  NUMBERS.forEach((n, i) => {
    const x = 190 + i * 100;
    const lay = `lay:${n}`;
    const lose = `place_lose:${n}`;
    const half = offers("place_lose") && offers("lay") ? 50 : 100;
    spot(felt, spotsLayer, lay, box(x, 14, half, 26, "strip"), [x + half / 2, 27],
      [text(x + half / 2, 27, "LAY", { class: "felt-text tiny" })]);
    spot(felt, spotsLayer, lose, box(x + (offers("lay") ? half : 0), 14, half, 26, "strip"),
      [x + (offers("lay") ? half : 0) + half / 2, 27],
      [text(x + (offers("lay") ? half : 0) + half / 2, 27, "LOSE", { class: "felt-text tiny" })]);
    spot(felt, spotsLayer, `place_win:${n}`, box(x, 40, 100, 84, "number-box"), [x + 62, 96], [
      text(x + 50, 74, WORD[n], { class: `felt-number${n === 6 || n === 9 ? " word" : ""}` }),
      text(x + 50, 112, offer.pays[`place_win:${n}`] || "", { class: "felt-text tiny pay" })]);
    spot(felt, spotsLayer, `buy:${n}`, box(x, 124, 100, 26, "strip"), [x + 50, 137],
      [text(x + 50, 137, `BUY ${n}`, { class: "felt-text tiny" })]);
  });

  spot(felt, spotsLayer, "come", box(90, 154, 700, 80, "line-box come"), [440, 194], [
    text(440, 194, "COME", { class: "felt-title come-text" })]);

  const fieldPays = (k, dflt) => offer.pays[k] || dflt;
  spot(felt, spotsLayer, "field", box(90, 238, 700, 70, "line-box"), [700, 272], [
    text(440, 258, "2 · 3 · 4 · 9 · 10 · 11 · 12", { class: "felt-field" }),
    text(440, 288, "FIELD", { class: "felt-title" }),
    s("circle", { cx: 160, cy: 272, r: 26, class: "ring" }),
    text(160, 266, "2", { class: "felt-text" }), text(160, 282, `${fieldPays("field:2", "")}`, { class: "felt-text tiny" }),
    s("circle", { cx: 720, cy: 272, r: 26, class: "ring" }),
    text(720, 266, "12", { class: "felt-text" }), text(720, 282, `${fieldPays("field:12", "")}`, { class: "felt-text tiny" })]);

  spot(felt, spotsLayer, "dont_pass", box(90, 312, 700, 36, "line-box"), [260, 330], [
    text(440, 330, "DON'T PASS BAR", { class: "felt-text" }), die(560, 330, 16, 6, "die art"),
    die(580, 330, 16, 6, "die art")]);
  const passShape = s("path", { d: "M14 14 H86 V352 H790 V406 H14 Z", class: "line-box pass" });
  spot(felt, spotsLayer, "pass", passShape, [440, 379], [
    text(440, 381, "PASS LINE", { class: "felt-title" }),
    text(50, 200, "PASS LINE", { class: "felt-text", transform: "rotate(-90 50 200)" })]);

  // Fire bet and the dice tray on the right.
  if (offers("fire")) {
    const pays = ["4", "5", "6"].map((k) => `${k} points ${offer.pays[`fire:${k}`] || ""}`);
    spot(felt, spotsLayer, "fire", box(798, 14, 90, 136, "line-box fire"), [843, 118], [
      text(843, 34, "FIRE BET", { class: "felt-text small fire-text" }),
      ...pays.map((p, i) => text(843, 56 + i * 16, p, { class: "felt-text micro" }))]);
  }
  const tray = s("g", { class: "dice-tray", "aria-hidden": "true" });
  tray.append(s("rect", { x: 798, y: 160, width: 90, height: 150, rx: 10, class: "tray" }));
  const d1 = die(826, 212, 34, 1, "die rolled");
  const d2 = die(862, 248, 34, 1, "die rolled");
  tray.append(d1, d2, text(843, 292, "", { class: "felt-text small roll-total" }));
  felt.append(tray, chipsLayer, puckLayer, badgeLayer);

  // --- the proposition area -----------------------------------------------------------------
  const props = s("svg", { viewBox: "0 0 380 420", class: "felt craps-props", role: "group",
    "aria-label": "Proposition wagers" });
  props.append(s("rect", { x: 0, y: 0, width: 380, height: 420, rx: 22, class: "felt-bg" }));
  const pSpots = s("g", { class: "spots" });
  const pChips = s("g", { class: "chips" });
  const pBadges = s("g", { class: "badges" });
  props.append(pSpots);
  let y = 12;
  const row = (items, height) => {
    const shown = items.filter((it) => offers(specOf(it.label).wager));
    if (!shown.length) return;
    const w = (356 - (shown.length - 1) * 4) / shown.length;
    shown.forEach((it, i) => {
      const x = 12 + i * (w + 4);
      spot(props, pSpots, it.label, box(x, y, w, height, "prop-box"), [x + w - 16, y + height / 2],
        it.art(x, y, w, height));
    });
    y += height + 4;
  };
  const caption = (x, yy, w, hh, title, pay) => [
    text(x + w / 2 - 6, yy + hh / 2 - (pay ? 6 : 0), title, { class: "felt-text small" }),
    pay ? text(x + w / 2 - 6, yy + hh / 2 + 9, pay, { class: "felt-text micro pay" }) : null];
  const pair = (x, yy, w, hh, a, b, pay) => [die(x + w / 2 - 22, yy + hh / 2 - 5, 16, a, "die art"),
    die(x + w / 2 - 4, yy + hh / 2 - 5, 16, b, "die art"),
    text(x + w / 2 - 13, yy + hh - 7, pay || "", { class: "felt-text micro pay" })];

  row([{ label: "any_seven", art: (x, yy, w, hh) => caption(x, yy, w, hh, "SEVEN", offer.pays.any_seven) }], 30);
  for (const pairRow of [HARD.slice(0, 2), HARD.slice(2)]) {
    row(pairRow.map(([n, f]) => ({ label: `hard:${n}`,
      art: (x, yy, w, hh) => pair(x, yy, w, hh, f, f, `HARD ${n} · ${offer.pays[`hard:${n}`] || ""}`) })), 48);
  }
  row([["craps_3", 1, 2], ["yo_11", 5, 6], ["craps_2", 1, 1], ["craps_12", 6, 6]].map(([label, a, b]) => ({
    label, art: (x, yy, w, hh) => pair(x, yy, w, hh, a, b, offer.pays[label]) })), 46);
  row([{ label: "any_craps", art: (x, yy, w, hh) => caption(x, yy, w, hh, "ANY CRAPS", offer.pays.any_craps) }], 30);
  row([["c_and_e", "C & E"], ["horn", "HORN"], ["whirl", "WHIRL"], ["six_seven_eight", "6-7-8"]].map(([label, t]) => ({
    label, art: (x, yy, w, hh) => caption(x, yy, w, hh, t, label === "six_seven_eight" ? offer.pays.six_seven_eight : "") })), 30);
  row([2, 3, 11, 12].map((n) => ({ label: `horn_high:${n}`,
    art: (x, yy, w, hh) => [text(x + w / 2 - 6, yy + 9, "HORN HIGH", { class: "felt-text micro" }),
      text(x + w / 2 - 6, yy + 21, String(n), { class: "felt-text small" })] })), 30);
  const hops = Object.keys(offer.pays).filter((k) => k.startsWith("hop:"));
  for (let i = 0; i < hops.length; i += 6) {
    row(hops.slice(i, i + 6).map((label) => {
      const [a, b] = label.slice(4).split("-").map(Number);
      return { label, art: (x, yy, w, hh) => pair(x + 6, yy, w, hh, a, b, offer.pays[label]) };
    }), 40);
  }
  if (hops.length) {
    props.append(text(190, y + 6, "HOPS: one roll, the dice shown", { class: "felt-text micro" }));
    y += 12;
  }
  props.append(pChips, pBadges);
  props.setAttribute("viewBox", `0 0 380 ${Math.max(y + 16, 200)}`);
  props.querySelector(".felt-bg").setAttribute("height", Math.max(y + 16, 200));
  host.append(felt, props);

  const layers = new Map([[felt, { chips: chipsLayer, badges: badgeLayer }],
    [props, { chips: pChips, badges: pBadges }]]);

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
    const px = point ? 190 + NUMBERS.indexOf(point) * 100 + 80 : 116;
    const py = point ? 58 : 100;
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
    const yy = spotInfo.y + place.dy - 24;
    const sign = result === "win" ? "+" : result === "lose" ? "−" : "";
    const str = `${result.toUpperCase()} ${sign}${money(amount)}`;
    const g = s("g", { class: `badge badge-${result}${mine ? " mine" : ""}` });
    const w = str.length * 6.2 + 10;
    g.append(s("rect", { x: x - w / 2, y: yy - 9, width: w, height: 18, rx: 9 }));
    g.append(text(x, yy, str, { class: "badge-text" }));
    badges.append(g);
  }

  return { spots, render, roll, clearBadges, badge, placeOf, describe: (l) => describe(l, offer) };
}
