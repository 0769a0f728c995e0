// Which moves the rules allow now on a craps wager, with amounts the table can pay, derived
// from the table's state and its offer (offer.js: when each wager may be made and removed,
// the odds behind it, the pay-table entries of each spot); the engine still decides, this
// keeps the page honest. Amounts are whole cents (integers), never floats.
import { spotOf, defOf } from "./offer.js";

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

// The pay-table entries a spot is paid at (odds behind a line bet: at the table's point).
function payKeys(offer, label, point) {
  const spot = spotOf(offer, label);
  if (spot.pays_at) return point ? spot.pays_at[String(point)] || [] : [];
  return spot.pays || [];
}

const unitsOf = (offer, keys) => keys.map((k) => unitsFor(offer.pays[k])).reduce(lcm, 1);

// The step (in cents) every stake on ``label`` must be a multiple of: a split wager's stake
// divides into its parts' units, each paid in whole table units.
export function stakeStep(offer, label, point) {
  const unit = cents(offer.unit || "1");
  const parts = spotOf(offer, label).parts;
  if (parts) {
    const per = parts.map((p) => unitsOf(offer, p.pays)).reduce(lcm, 1);
    return unit * per * parts.reduce((n, p) => n + p.units, 0);
  }
  return unit * unitsOf(offer, payKeys(offer, label, point));
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

// What may be added to a wager of ``stake`` cents with the ``chip`` picked, in multiples of
// ``step``: the chip, less where the table's maximum leaves less room, null where it leaves
// none; and the reason, when the maximum is what limits it.
export function addWithin(offer, stake, chip, step) {
  const { max } = limits(offer);
  if (stake + chip <= max) return { add: chip, note: "" };
  const add = Math.max(0, Math.floor((max - stake) / step) * step);
  const most = dollars(max);
  return add > 0
    ? { add, note: `The table maximum of ${most} a wager leaves room for ${dollars(add)} more.` }
    : { add: null, note: `Your wager is at the table maximum of ${most}: nothing more may be added.` };
}

// The odds limit as a multiple of the flat bet on ``number`` ("3-4-5" or one figure), or null.
function oddsMultiple(offer, number) {
  const o = String(offer.odds || "");
  if (o === "3-4-5") return { 4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5 }[number] || null;
  return /^\d+$/.test(o) ? Number(o) : null;
}

// Odds a player may still add behind a flat bet of ``flat`` cents on ``number`` (take odds
// limited by their stake, lay odds by what they win), in cents.
function oddsRoom(offer, oddsLabel, number, flat, current) {
  const mult = oddsMultiple(offer, number);
  if (mult === null) return Infinity;
  const def = defOf(offer, oddsLabel);
  if (def && def.lay_odds) {
    const r = ratio(offer.pays[payKeys(offer, oddsLabel, number)[0]]);
    if (!r) return Infinity;
    return Math.floor((mult * flat * r[1]) / r[0]) - current;
  }
  return mult * flat - current;
}

// The most odds the player may add now, as a multiple of the odds' step: ``chip`` made payable
// if the room takes it, else all the room there is.
function oddsAmount(offer, oddsLabel, chip, number, room, already) {
  const add = payableUp(offer, oddsLabel, chip, number, already);
  const step = stakeStep(offer, oddsLabel, number);
  return add !== null && add <= room ? add : (room >= step ? Math.floor(room / step) * step : null);
}

// How long a wager that may not come down stays: "until the shooter's hand ends".
const stays = (def) => (def.hand_end ? "until the shooter's hand ends" : "until it is decided");

// Taking it down (13:69F-1.3(c), (d)): never a wager that stays until decided, not a line or
// come bet on its point, not a flat bet with odds behind it; reduced in steps the table pays.
function removal(offer, ctx, moves) {
  const { def, label, stake, chip, onNumber, point, pointFor, oddsBehind } = ctx;
  const onPoint = def.removal === "until_point" && (def.travels ? onNumber : Boolean(point));
  if (def.removal === "never") moves.note = `The ${def.name} stays ${stays(def)}.`;
  else if (onPoint) moves.note = `It stands on the point ${ctx.numberOf}: it may not be added to, reduced or removed.`;
  else if (oddsBehind) moves.note = "Take the odds down first to reduce or remove it.";
  else {
    moves.remove = true;
    const step = stakeStep(offer, label, pointFor);
    const { min } = limits(offer);
    const want = Math.floor(chip / step) * step;
    if (want > 0 && stake - want >= min && stake - want >= step) moves.reduce = want;
  }
  if (ctx.reduced) moves.note = moves.note || "It was reduced: a don't bet may not be increased afterwards.";
  else if (def.dont) moves.note = moves.note || "A don't bet reduced or removed may not be replaced or increased until the next decision.";
}

// The calls the table's options allow (the offer's ``calls``: the wager ids each call may be
// made on, none where the option is off): "down on the win" until it is called, and "off" while
// a point stands, or back "on" once it is off for the point.
function optionCalls(offer, table, wager, label, moves) {
  const takes = (option) => ((offer.calls || {})[option] || []).includes(wager);
  const down = Boolean(table.downOnWin && table.downOnWin.has(label));
  const offForPoint = Boolean(table.offPoint && table.offPoint.has(label));
  moves.downOnWin = takes("down_on_win") && !down;
  moves.offDuringPoint = takes("off_during_point") && Boolean(table.point) && !offForPoint;
  moves.onForPoint = offForPoint && Boolean(table.point);
  if (down) moves.state = `${moves.state}; down on the win: its next win takes it down`;
  if (moves.onForPoint) moves.state = "off until it is called on or the point is decided";
}

/**
 * The moves the rules allow now on one of the player's wagers ``w`` ({wager, stake}), with
 * ``chip`` (cents) the amount the player has picked. Returns {state, add, reduce, remove,
 * call, odds, oddsSpec, note}: amounts in cents (null when not allowed), call "on"/"off"/null.
 */
export function movesFor(offer, table, mine, w, chip, calls) {
  const label = w.wager;
  const spot = spotOf(offer, label);
  const def = defOf(offer, label) || { name: spot.name, removal: "any_time", timing: "any_time" };
  const point = table.point;
  const stake = cents(w.stake);
  const onNumber = spot.state !== undefined; // a travelling wager standing on its number
  const isOdds = Boolean(def.odds_of);
  const numberOf = onNumber ? spot.state : point;
  const pointFor = isOdds && spot.q !== undefined ? spot.q : point;
  const oddsBehind = spot.odds ? mine.find((x) => x.wager === spot.odds) : undefined;
  const moves = { add: null, reduce: null, remove: false, call: null, odds: null, oddsSpec: null, note: "", state: "" };
  // Making more of it: not after the time it is made in has passed, not a travelling wager on
  // its number, not a don't bet once reduced; odds up to what the flat bet behind them allows.
  const newShooter = !point && (table.hand_rolls === 0 || table.hand_rolls === null || table.hand_rolls === undefined);
  const reduced = Boolean(table.reduced && table.reduced.has(label));
  const late = (def.timing === "come_out" && point) || (def.timing === "point_on" && !point)
    || (def.timing === "new_shooter" && !newShooter);
  if (isOdds) {
    const flat = spot.place && mine.find((x) => x.wager === spot.place.with);
    const room = flat ? oddsRoom(offer, label, pointFor, cents(flat.stake), stake) : 0;
    moves.add = oddsAmount(offer, label, chip, pointFor, room, stake);
  } else if (!late && !onNumber && !reduced) moves.add = payableUp(offer, label, chip, pointFor, stake);
  removal(offer, { def, label, stake, chip, onNumber, point, pointFor, numberOf, oddsBehind, reduced }, moves);
  if (def.timing === "new_shooter" && !newShooter) {
    moves.note = `The ${def.name} is made only before the shooter's first roll${def.removal === "never" ? `, and stays ${stays(def)}` : ""}.`;
  }
  // Called on or off: only wagers that are off on the come-out unless called on.
  if (def.off_on_come_out) {
    const on = calls.get(label) === true;
    moves.call = on ? "off" : "on";
    moves.state = on ? "called on: it works on the come-out roll" : point ? "working; off on the next come-out roll unless called on" : "off on this come-out roll";
  } else moves.state = "working";
  optionCalls(offer, table, spot.wager, label, moves);
  // Odds behind a flat bet standing on its number.
  if (spot.odds && offer.spots[spot.odds] && (onNumber || point) && !oddsBehind) {
    const room = oddsRoom(offer, spot.odds, numberOf, stake, 0);
    moves.odds = oddsAmount(offer, spot.odds, chip, numberOf, room, 0);
    moves.oddsSpec = spotOf(offer, spot.odds).spec;
  }
  return moves;
}
