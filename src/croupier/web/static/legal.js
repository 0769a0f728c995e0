// Which moves the rules allow on a craps wager now, with amounts the table can pay, derived
// from the table's state and its offer (the engine still decides; this keeps the page honest).
// Amounts are whole cents (integers), never floats.

// When a wager may come down (13:69F-1.3(c), (d)): as the engine's wager definitions say.
const REMOVAL = { pass: "until_point", come: "until_point", dont_pass: "dont", dont_come: "dont", fire: "never" };
// Split wagers: the one-roll wagers each unit of the stake stands on.
const PARTS = { c_and_e: ["any_craps", "yo_11"], horn: ["craps_2", "craps_3", "yo_11", "craps_12"],
  whirl: ["craps_2", "craps_3", "yo_11", "craps_12", "any_seven"] };
const ODDS_OF = { pass: "pass_odds", dont_pass: "dont_pass_odds", come: "come_odds", dont_come: "dont_come_odds" };
const FLAT_OF = Object.fromEntries(Object.entries(ODDS_OF).map(([k, v]) => [v, k]));

export const cents = (text) => {
  const [whole, frac = ""] = String(text).trim().split(".");
  return Number(whole || "0") * 100 + Number((frac + "00").slice(0, 2));
};
export const dollars = (c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, "0")}`;
const gcd = (a, b) => (b ? gcd(b, a % b) : a);
const lcm = (a, b) => (a / gcd(a, b)) * b;

// "7 to 6" -> [7, 6] in whole numbers (decimals scaled up).
function ratio(pays) {
  const m = /^([\d.]+) to ([\d.]+)$/.exec(String(pays || ""));
  if (!m) return null;
  const scale = 10 ** Math.max((m[1].split(".")[1] || "").length, (m[2].split(".")[1] || "").length);
  return [Math.round(Number(m[1]) * scale), Math.round(Number(m[2]) * scale)];
}

// How many table units a stake at these odds must be a multiple of for the win to be paid in units.
function unitsFor(pays) {
  const r = ratio(pays);
  return r ? r[1] / gcd(r[0], r[1]) : 1;
}

function payKeys(offer, label, point) {
  const [id, q] = label.split(":");
  if (id === "field") return ["field", "field:2", "field:12"];
  if (id === "six_seven_eight") return ["six_seven_eight", "six_seven_eight:hard"];
  if (id === "fire") return ["fire:4", "fire:5", "fire:6"];
  if (id === "pass_odds" || id === "dont_pass_odds") return point ? [`${id}:${point}`] : [];
  if (id === "come" || id === "dont_come") return [id];
  return [offer.pays[label] !== undefined ? label : id];
}

// The step (in cents) every stake on ``label`` must be a multiple of, and the units it splits into.
export function stakeStep(offer, label, point) {
  const unit = cents(offer.unit || "1");
  const [id, q] = label.split(":");
  if (id === "horn_high" || PARTS[id]) {
    const parts = id === "horn_high" ? PARTS.horn : PARTS[id];
    const per = parts.map((p) => unitsFor(offer.pays[p])).reduce(lcm, 1);
    return unit * per * (id === "horn_high" ? 5 : parts.length);
  }
  const per = payKeys(offer, label, point).map((k) => unitsFor(offer.pays[k])).reduce(lcm, 1);
  return unit * per;
}

export function limits(offer) {
  return { min: cents(offer.min_bet || offer.unit || "1"), max: offer.max_bet ? cents(offer.max_bet) : Infinity };
}

// The nearest stake at or above ``want`` (cents) the table takes on ``label``; null if none.
export function payableUp(offer, label, want, point, already = 0) {
  const step = stakeStep(offer, label, point);
  const { min, max } = limits(offer);
  let total = Math.max(Math.ceil((already + Math.max(want, 1)) / step) * step, Math.ceil(min / step) * step);
  if (total > max) total = Math.floor(max / step) * step;
  const add = total - already;
  return add > 0 ? add : null;
}

// The odds limit as a multiple of the flat bet on ``number`` ("3-4-5" or one figure), or null.
function oddsMultiple(offer, number) {
  const o = String(offer.odds || "");
  if (o === "3-4-5") return { 4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5 }[number] || null;
  return /^\d+$/.test(o) ? Number(o) : null;
}

// Odds a player may still add behind a flat bet of ``flat`` cents on ``number`` (take odds
// limited by their stake, lay odds by what they win), in cents.
function oddsRoom(offer, oddsId, number, flat, current) {
  const mult = oddsMultiple(offer, number);
  if (mult === null) return Infinity;
  if (oddsId.startsWith("dont")) {
    const r = ratio(offer.pays[`${oddsId}:${number}`]);
    if (!r) return Infinity;
    return Math.floor((mult * flat * r[1]) / r[0]) - current;
  }
  return mult * flat - current;
}

/**
 * The moves the rules allow now on one of the player's wagers ``w`` ({wager, stake}), with
 * ``chip`` (cents) the amount the player has picked. Returns {state, add, reduce, remove,
 * call, odds, note}: amounts in cents (null when not allowed), call "on"/"off"/null.
 */
export function movesFor(offer, table, mine, w, chip, calls) {
  const label = w.wager;
  const [id, q] = label.split(":");
  const point = table.point;
  const stake = cents(w.stake);
  const onNumber = q !== undefined && (id === "come" || id === "dont_come");
  const flatId = FLAT_OF[id];
  const numberOf = onNumber ? Number(q) : point;
  const moves = { add: null, reduce: null, remove: false, call: null, odds: null, note: "", state: "" };
  // Making more of it: line bets only before their point, travelling bets not on their number.
  const newShooter = !point && (table.hand_rolls === 0 || table.hand_rolls === null || table.hand_rolls === undefined);
  const reduced = table.reduced && table.reduced.has(label);
  const canAdd = !((id === "pass" || id === "dont_pass") && point) && !onNumber && !(id === "fire" && !newShooter) && !reduced;
  const pointFor = flatId ? (q ? Number(q) : point) : point;
  if (canAdd && !flatId) moves.add = payableUp(offer, label, chip, pointFor, stake) ;
  if (flatId) {
    const flat = mine.find((x) => x.wager === (q ? `${flatId}:${q}` : flatId));
    const room = flat ? oddsRoom(offer, id, pointFor, cents(flat.stake), stake) : 0;
    const add = payableUp(offer, label, chip, pointFor, stake);
    const step = stakeStep(offer, label, pointFor);
    moves.add = add !== null && add <= room ? add : (room >= step ? Math.floor(room / step) * step : null);
  }
  // Taking it down: never the fire bet, not a pass or come bet on its point.
  const removal = REMOVAL[id] || "any";
  const onPoint = (id === "pass" && point) || (id === "come" && onNumber);
  const oddsBehind = ODDS_OF[id] && mine.find((x) => x.wager === (onNumber ? `${ODDS_OF[id]}:${q}` : ODDS_OF[id]));
  if (removal === "never") moves.note = "The fire bet stays until the shooter's hand ends.";
  else if (removal === "until_point" && onPoint) moves.note = `It stands on the point ${numberOf}: it may not be added to, reduced or removed.`;
  else if (oddsBehind) moves.note = "Take the odds down first to reduce or remove it.";
  else {
    moves.remove = true;
    const step = stakeStep(offer, label, pointFor);
    const { min } = limits(offer);
    const want = Math.floor(chip / step) * step;
    if (want > 0 && stake - want >= min && stake - want >= step) moves.reduce = want;
  }
  if (reduced) moves.note = moves.note || "It was reduced: a don't bet may not be increased afterwards.";
  else if (id.startsWith("dont") && !flatId) moves.note = moves.note || "A don't bet reduced or removed may not be replaced or increased until the next decision.";
  if (id === "fire" && !newShooter) moves.note = "The fire bet is made only before the shooter's first roll, and stays until the hand ends.";
  // Called on or off: only wagers that are off on the come-out unless called on.
  if ((offer.off_on_come_out || []).includes(id)) {
    const on = calls.get(label) === true;
    moves.call = on ? "off" : "on";
    moves.state = on ? "called on: it works on the come-out roll" : point ? "working; off on the next come-out roll unless called on" : "off on this come-out roll";
  } else moves.state = "working";
  // Odds behind a flat bet standing on its number.
  const oddsId = ODDS_OF[id];
  if (oddsId && oddsId in offer.wagers && ((id === "pass" || id === "dont_pass") ? point : onNumber) && !oddsBehind) {
    const room = oddsRoom(offer, oddsId, numberOf, stake, 0);
    const oddsLabel = onNumber ? `${oddsId}:${q}` : oddsId;
    const add = payableUp(offer, oddsLabel, chip, numberOf, 0);
    const step = stakeStep(offer, oddsLabel, numberOf);
    moves.odds = add !== null && add <= room ? add : (room >= step ? Math.floor(room / step) * step : null);
  }
  return moves;
}
