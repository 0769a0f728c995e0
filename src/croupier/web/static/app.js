// The browser table: log in, pick a table, play, deal or supervise it; live over WebSocket.
import { api, ApiError, intent, once } from "./api.js";
import { h, money } from "./svg.js";
import { explain, sentence, checkAmount, kids, decisionWord } from "./messages.js";
import { movesFor, payableUp, stakeStep, addWithin, cents, dollars } from "./legal.js";
import { installShortcuts } from "./keys.js";
import { renderAdmin } from "./admin.js";
import { drawCraps } from "./craps.js";
import { drawRoulette, drawWheel } from "./roulette.js";
import { spotOf, defOf } from "./offer.js";
import { renderConsoles, renderHistory, renderChart, showAlert } from "./consoles.js";
import { renderRules } from "./rules.js";
import { passwordDialog } from "./password.js";

const $ = (id) => document.getElementById(id);
const CHIPS = ["1", "5", "10", "25", "100"];

export const app = {
  user: null, tableId: null, table: null, offer: null, layout: null, wheel: null, stream: null,
  seen: new Set(), calls: new Map(), downOnWin: new Set(), offPoint: new Set(), amount: "5", lastDecision: null, late: new Map(), dice: [], vertical: null,
  get me() { return this.user && this.user.username; },
  get role() { return this.user && this.user.role; },
  get craps() { return this.table && this.table.game !== "roulette"; },
};

// --- messages ---------------------------------------------------------------------------------
function toast(message) {
  const t = $("toast");
  t.textContent = message;
  t.classList.add("shown");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove("shown"), 4000);
}

export { explain };

// A refusal next to the spot clicked, in the regulation's words. It is read out as it appears
// (an alert region, shown before its words are put in), and it never blocks the felt: a tap
// on its words reaches the spot beneath (style.css: only its buttons take a tap), and a tap
// anywhere else puts it away.
function showRefusal(spot, err) {
  const box = $("refusal");
  const wrap = $("felt-wrap").getBoundingClientRect();
  const r = spot.el.getBoundingClientRect();
  const lead = { refused: "Refused: ", info: "" }[err.code] ?? "Not taken: ";
  const reason = err.code === "malformed" ? explain(err) : sentence(err.reason);
  box.hidden = false;
  box.replaceChildren(...kids(
    lead ? h("strong", {}, lead) : null,
    h("span", { class: "refusal-reason" }, reason),
    err.clause ? h("span", { class: "refusal-clause" }, ` (${err.clause})`) : null,
    // No chips yet: the control that buys them is on this page, so the refusal leads to it.
    app.role === "player" && /buy in/.test(err.reason || "") && $("buyin-amount")
      ? h("button", { type: "button", class: "refusal-buy", onclick: () => { box.hidden = true; $("buyin-amount").scrollIntoView({ block: "center" }); $("buyin-amount").focus(); } }, "Buy chips here")
      : null,
    h("button", { type: "button", class: "close", "aria-label": "Dismiss", onclick: () => { box.hidden = true; spot.el.focus(); } }, "×")));
  box.dataset.for = spot.key;
  const left = Math.max(4, Math.min(r.left - wrap.left, wrap.width - box.offsetWidth - 4));
  box.style.left = `${left}px`;
  box.style.top = `${r.bottom - wrap.top + 6}px`;
  spot.el.setAttribute("aria-describedby", "refusal");
}

function hideOverlays() {
  $("popover").hidden = true;
  $("refusal").hidden = true;
}

// --- acting -----------------------------------------------------------------------------------
export async function act(path, body, { spot = null, onError = null, key = null } = {}) {
  try {
    const data = await api.post(`/tables/${encodeURIComponent(app.tableId)}${path}`, body, key);
    if (data && Array.isArray(data.events)) handleEvents(data.events);
    if (data && data.late_bet) lateAsked(data.late_bet, body);
    scheduleRefresh();
    return data;
  } catch (err) {
    if (spot) showRefusal(spot, err);
    else if (onError) onError(err);
    else toast(explain(err));
    if (err instanceof ApiError && err.status === 401) logout();
    return null;
  }
}

function specFor(label) { return spotOf(app.offer, label).spec; }
function myWagersAt(spot) {
  return (app.table.layout || []).filter((w) => {
    const place = w.player === app.me && app.layout.placeOf(w.wager);
    return place && place.key === spot.key;
  });
}

function bet(spot, spec, amount = app.amount) {
  hideOverlays();
  const checked = checkAmount(amount);
  if (checked.error) { showRefusal(spot, { code: "info", reason: checked.error, clause: "" }); return null; }
  return act("/bets", { ...spec, amount: checked.value }, { spot });
}

function activate(spot) {
  hideOverlays();
  if (app.role !== "player") {
    showRefusal(spot, { code: "info", reason: `${spot.name}. Only players wager; you are logged in as ${app.role}.`, clause: "" });
    return;
  }
  const checked = checkAmount(app.amount);
  if (checked.error) { showRefusal(spot, { code: "info", reason: checked.error, clause: "" }); return; }
  if (app.vertical && (spot.cell || spot.track)) { openChooser(spot, checked.value); return; }
  place(spot, checked.value);
}

function place(spot, amount) {
  hideOverlays();
  const mine = myWagersAt(spot);
  // An amount the table cannot pay on this spot: offer the nearest one it can, never a refusal.
  const fresh = app.craps ? payableUp(app.offer, spot.key, cents(amount), app.table.point) : cents(amount);
  if (!mine.length && fresh === cents(amount)) { bet(spot, spot.spec, amount); return; }
  openPopover(spot, mine, cents(amount));
}

// On a phone a tap on a number lists every inside wager covering it (straight, splits, three,
// corners, six numbers), each a button a thumb can hit, in place of the narrow lines between
// the numbers; the wagers the player already has there say so.
// A racetrack pocket (the wheel replica) lists the wagers centred on it the same way, with the
// pockets either side a button away: a tap that lands one pocket off is put right here.
function openChooser(spot, amount) {
  const track = spot.track ? app.layout.around(spot) : null;
  const parts = [h("h3", { id: "pop-title" }, track ? `On the wheel at ${spot.q}` : `Bets on ${spot.covers[0]}`),
    h("p", { class: "pop-note" }, `Each bet is ${money(amount)}; choose one${track ? ", or move round the wheel" : ""}.`)];
  for (const info of track ? track.choices : app.layout.covering(spot.covers[0])) {
    const held = myWagersAt(info).reduce((sum, w) => sum + Number(w.stake), 0);
    const label = held ? `${info.name} (yours: ${money(held)})` : info.name;
    const b = popButton("pop-choice", label, () => place(info, amount));
    b.dataset.choice = info.key;
    parts.push(b);
  }
  if (track) {
    const step = (side, to, label) => {
      const b = popButton(`pop-step pop-step-${side}`, label, () => openChooser(to, amount));
      b.setAttribute("aria-label", `The pocket ${side} ${spot.q} round the wheel: ${to.q}`);
      return b;
    };
    parts.push(h("div", { class: "pop-steps" }, step("before", track.before, `‹ ${track.before.q}`),
      step("after", track.after, `${track.after.q} ›`)));
  }
  parts.push(popButton("pop-close", "Close", () => spot.el.focus()));
  showPopover($("popover"), parts, spot);
}

function showPopover(pop, parts, spot) {
  pop.replaceChildren(...parts);
  pop.setAttribute("aria-labelledby", "pop-title");
  pop.hidden = false;
  const wrap = $("felt-wrap").getBoundingClientRect();
  const r = spot.el.getBoundingClientRect();
  pop.style.left = `${Math.max(4, Math.min(r.left - wrap.left, wrap.width - pop.offsetWidth - 4))}px`;
  pop.style.top = `${r.bottom - wrap.top + 6}px`;
  pop.querySelector("button").focus();
  pop.onkeydown = (e) => { if (e.key === "Escape") { hideOverlays(); spot.el.focus(); } };
}

function popButton(cls, label, run) {
  return h("button", { type: "button", class: cls, onclick: () => { hideOverlays(); run(); } }, label);
}

// The moves the rules allow on a spot: a bet the table can pay, and for each of the player's
// wagers there its state and only the calls, reductions and odds that apply now.
function openPopover(spot, mine, chip) {
  const pop = $("popover");
  const parts = [h("h3", { id: "pop-title" }, spot.name)];
  const own = mine.find((w) => w.wager === spot.key);
  if (!own) {
    const add = app.craps ? payableUp(app.offer, spot.key, chip, app.table.point) : chip;
    if (add !== null) {
      if (add !== chip) parts.push(h("p", { class: "pop-note" }, `The table pays this wager only on multiples of ${money(dollars(stakeStep(app.offer, spot.key, app.table.point)))}.`));
      parts.push(popButton("pop-bet", `Bet ${money(dollars(add))}`, () => bet(spot, spot.spec, dollars(add))));
    }
  }
  const all = (app.table.layout || []).filter((w) => w.player === app.me);
  for (const w of mine) {
    const spec = specFor(w.wager);
    parts.push(h("p", { class: "pop-wager" }, `Your ${wagerName(w.wager)}: ${money(w.stake)}`));
    if (!app.craps) {
      // Never more than the table's maximum lets the wager hold (in whole chips of its parts).
      const step = cents(app.offer.unit || "1") * ((defOf(app.offer, w.wager) || {}).parts || 1);
      const within = addWithin(app.offer, cents(w.stake), chip, step);
      parts.push(...kids(within.add !== null ? popButton("pop-bet", `Add ${money(dollars(within.add))}`, () => bet(spot, spec, dollars(within.add))) : null,
        within.note ? h("p", { class: "pop-note" }, within.note) : null,
        popButton("pop-remove", "Remove", () => act("/bets/take-down", spec, { spot }))));
      continue;
    }
    const m = movesFor(app.offer, { ...app.table, hand_rolls: app.handRolls, reduced: app.reduced, downOnWin: app.downOnWin, offPoint: app.offPoint }, all, w, chip, app.calls);
    // The moves already stop at the table's maximum; say so where it is what stops them.
    if (!defOf(app.offer, w.wager)?.odds_of) {
      const limit = addWithin(app.offer, cents(w.stake), chip, stakeStep(app.offer, w.wager, app.table.point));
      if (limit.add === null || (m.add !== null && m.add < chip && m.add === limit.add)) m.note = m.note ? `${m.note} ${limit.note}` : limit.note;
    }
    parts.push(h("p", { class: `pop-state ${m.call === "off" || m.state === "working" || m.state.startsWith("working") ? "on" : "off"}` }, sentence(m.state)));
    if (m.add !== null) parts.push(popButton("pop-bet", `Add ${money(dollars(m.add))}`, () => bet(spot, spec, dollars(m.add))));
    if (m.reduce !== null) parts.push(popButton("pop-reduce", `Reduce by ${money(dollars(m.reduce))}`, () => act("/bets/take-down", { ...spec, amount: dollars(m.reduce) }, { spot })));
    if (m.remove) parts.push(popButton("pop-remove", "Remove", () => act("/bets/take-down", spec, { spot })));
    if (m.call) parts.push(popButton(`pop-${m.call}`, m.call === "on" ? "Call it on for the come-out" : "Call it off for the come-out", () => act("/bets/call", { ...spec, on: m.call === "on" }, { spot })));
    if (m.downOnWin) parts.push(popButton("pop-down-on-win", "Down on the win", () => act("/bets/down-on-win", spec, { spot })));
    if (m.offDuringPoint) parts.push(popButton("pop-off-point", "Off for this point", () => act("/bets/off-during-point", spec, { spot })));
    if (m.onForPoint) parts.push(popButton("pop-on-point", "Call it back on", () => act("/bets/call", { ...spec, on: true }, { spot })));
    if (m.odds !== null) parts.push(popButton("pop-odds", `Odds ${money(dollars(m.odds))}`, () => bet(spot, m.oddsSpec, dollars(m.odds))));
    if (m.note) parts.push(h("p", { class: "pop-note" }, m.note));
  }
  parts.push(popButton("pop-close", "Close", () => spot.el.focus()));
  showPopover(pop, parts, spot);
}

// --- events -----------------------------------------------------------------------------------
export function wagerName(label) { return app.layout ? app.layout.nameOf(label) : label; }

// --- the player's late bets -------------------------------------------------------------------
// A wager made while the dice are in the air waits for two confirmations (the table's profile
// names who gives them); until then it is drawn as a pending chip on its spot, and a line in the
// chip tray (in view on a phone, where the player panel is screens below) says where it stands.
const lateLabel = (b) => (b.qualifier !== null && b.qualifier !== undefined
  ? `${b.wager}:${Array.isArray(b.qualifier) ? b.qualifier.join("-") : b.qualifier}` : b.wager);

function lateAsked(id, body) {
  if (!app.late.has(id)) app.late.set(id, { what: `${wagerName(lateLabel(body))} of ${money(body.amount)}`, by: [], state: "waits" });
  renderLate();
  toast(lateText(id, app.late.get(id)));
}

// The player's own late bets the table's state lists as waiting (a page opened meanwhile).
function syncLate() {
  for (const b of app.table.late_bets || []) {
    if (b.player !== app.me) continue;
    const known = app.late.get(b.id) || { what: `${wagerName(lateLabel(b))} of ${money(b.amount)}`, by: [], state: "waits" };
    known.by = Object.values(b.confirmed_by || {}).length ? Object.keys(b.confirmed_by) : known.by;
    app.late.set(b.id, known);
  }
}

function lateText(id, b) {
  if (b.state === "lapsed") return `Late bet ${id} (${b.what}) lapsed: ${b.reason}. No chips moved.`;
  const by = b.by.map((role) => `the ${role}`).join(" and ");
  if (b.state === "confirmed") return `Late bet ${id} (${b.what}) is confirmed by ${by}: it is on the layout.`;
  return `Late bet ${id} (${b.what}) waits for two confirmations, the dealer's and a supervisor's${b.by.length ? `; confirmed by ${by} so far` : ""}.`;
}

function lateEvent(e) {
  const b = app.late.get(e.late_id);
  if (!b) return;
  if (e.type === "late_bet_confirmed") {
    if (!b.by.includes(e.role)) b.by.push(e.role);
    if (b.by.length >= 2) b.state = "confirmed";
  } else { b.state = "lapsed"; b.reason = e.reason; }
  renderLate();
  toast(lateText(e.late_id, b));
}

function renderLate() {
  const note = $("late-note");
  if (!note) return;
  const lines = [...app.late].map(([id, b]) => lateText(id, b));
  note.hidden = !lines.length;
  note.textContent = lines.join(" ");
}

// One settlement as the dealer pays it: what goes to or comes from whom.
function settlementText(e) {
  const part = e.part_of ? ` (part of the ${wagerName(e.part_of)})` : "";
  const what = `${wagerName(e.wager)}${part}`;
  if (e.result === "win") return `${e.player}'s ${what} wins: pay ${money(e.paid)}${Number(e.returned) ? ` and return the stake of ${money(e.returned)}` : ""}${e.stays_up ? ", the wager stays up" : ""}.`;
  if (e.result === "lose") return `${e.player}'s ${what} loses: take ${money(e.taken)}.`;
  return `${e.player}'s ${what} is a push: return ${money(e.returned)}.`;
}

function decided(title, live) {
  if (live) hideOverlays(); // a popover opened before the decision offers moves that may no longer apply
  app.layout.clearBadges();
  app.lastDecision = { title, lines: [], payouts: new Map() };
  if (live) {
    for (const [id, b] of app.late) if (b.state !== "waits") app.late.delete(id);
    renderLate();
  }
}

// Many replayed events arrive one by one: draw the layout once after them.
let redrawTimer = null;
function redrawSoon() {
  clearTimeout(redrawTimer);
  redrawTimer = setTimeout(() => { renderTable(); renderDecision(); }, 60);
}

// What the table's state does not say but the rules need, from the table's events: which of
// the player's wagers are called on or off, which don't bets were reduced (they may not be
// increased), and how many rolls the shooter's hand has had (a fire bet only before the first).
function foldCall(e) {
  if (e.type === "shooter") app.handRolls = 0;
  else if (e.type === "roll") {
    app.handRolls = (app.handRolls ?? 0) + 1;
    if (e.point_before !== null && e.point_before !== undefined && (e.point_after === null || e.point_after === undefined)) app.offPoint.clear();
  }
  // A corrected entry takes its roll back; the RNG's outcome stands when its stakes are returned.
  else if (e.type === "void" && !e.approved_by && app.craps && app.handRolls) app.handRolls -= 1;
  if (e.player !== app.me) return;
  if (e.type === "call") app.calls.set(e.wager, e.on);
  else if (e.type === "down_on_win") app.downOnWin.add(e.wager);
  else if (e.type === "off_during_point") { if (e.off) app.offPoint.add(e.wager); else app.offPoint.delete(e.wager); }
  else if (e.type === "take_down" && !e.whole && (defOf(app.offer, e.wager) || {}).dont) app.reduced.add(e.wager);
  else if ((e.type === "take_down" && e.whole) || (e.type === "settle" && !e.stays_up)) {
    app.calls.delete(e.wager);
    app.reduced.delete(e.wager);
    app.downOnWin.delete(e.wager);
    app.offPoint.delete(e.wager);
  }
}

// The stream says where its replay ended: the player's own events may end before the
// table's (another player's are not shown to them).
function replayDone(e) {
  // The stream replays at most 1000 events at a time: one further back (the last decision,
  // when play went on long after it) takes more parts, each read from where the last ended.
  // A part that read nothing new ends it (never asked again from the same place).
  if (typeof e.through === "number" && e.through > app.replayedTo && e.through < (app.replayUpTo || 0) && app.stream) {
    app.replayedTo = e.through;
    app.stream.more();
    return;
  }
  document.body.dataset.replayed = "true";
  redrawSoon();
}

function handleEvents(events) {
  const fresh = events.filter((e) => typeof e.seq !== "number" || !app.seen.has(e.seq));
  if (!fresh.length) return;
  fresh.forEach((e) => { app.seen.add(e.seq); foldCall(e); });
  if (fresh.some((e) => e.seq >= (app.replayUpTo || 0))) document.body.dataset.replayed = "true";
  const replayed = fresh.filter((e) => typeof e.seq === "number" && e.seq <= (app.replayUpTo || 0));
  // The replay's decisions and settlements rebuild the last decision as it was, shown at rest.
  replayed.forEach((e) => foldDecision(e, false));
  if (replayed.length) {
    if (replayed.length === fresh.length) { redrawSoon(); return; }
    events = fresh.filter((e) => !replayed.includes(e));
  } else events = fresh;
  handleFresh(events);
}

// A roll, a spin, a void or a halt as the "Last decision" box says it, with each settlement the
// viewer may see; whether it was a decision. ``live``: as it happens (the dice tumble, the wheel
// turns); else read on load, from the table's state or the stream's replay, and shown at rest.
function foldDecision(e, live) {
  switch (e.type) {
    case "roll":
      decided(`Roll ${e.round}: ${e.dice[0]} + ${e.dice[1]} = ${e.total}${e.point_after ? `, the point is ${e.point_after}` : e.point_before ? (e.total === 7 ? ", seven out" : ", the point is made") : ""}.`, live);
      app.layout.roll(e.dice, live);
      return true;
    case "crown":
      decided(`Spin ${e.round}: the ball rests in ${e.number} (${e.colour}).`, live);
      if (app.wheel && live) app.wheel.spin(e.number, true);
      else if (app.wheel) app.wheel.show(e.number);
      return true;
    case "no_spin":
      decided(`Spin ${e.round} is no spin: ${e.reason || "an irregular spin"}; every wager stays.`, live);
      return true;
    case "settle": {
      const mine = e.player === app.me;
      const amount = e.result === "win" ? e.paid : e.result === "lose" ? e.taken : e.returned;
      if (!e.part_of || mine) app.layout.badge(e.part_of && !app.craps ? e.part_of : e.wager, e.result, amount, mine);
      if (app.lastDecision) {
        app.lastDecision.lines.push({ mine, text: settlementText(e) });
        const p = app.lastDecision.payouts.get(e.player) || { pay: 0, take: 0, back: 0 };
        p.pay += cents(e.paid || "0"); p.take += cents(e.taken || "0"); p.back += cents(e.returned || "0");
        app.lastDecision.payouts.set(e.player, p);
      }
      return false;
    }
    case "void":
      decided(e.approved_by
        ? `${decisionWord(app.craps)} ${e.decision} was voided by ${e.by}, approved by ${e.approved_by}: ${e.reason}. The outcome stands; the stakes it decided are returned.`
        : `${decisionWord(app.craps)} ${e.decision} was voided by ${e.by}: ${e.reason}. Its wagers and chips are as they were before it.`, live);
      return true;
    case "table_halted":
      decided(sentence(`The table is halted${e.reason ? `: ${e.reason}` : ""}`), live);
      return true;
    default:
      return false;
  }
}

function handleFresh(fresh) {
  let any = false;
  for (const e of fresh) {
    if (foldDecision(e, true)) { any = true; continue; }
    switch (e.type) {
      case "void_asked": toast(`${e.by} asked to void ${decisionWord(app.craps).toLowerCase()} ${e.decision}; a second supervisor approves.`); any = true; break;
      case "late_bet": if (e.player !== app.me) toast(`Late bet ${e.late_id} from ${e.player} waits for confirmation.`); break;
      case "late_bet_confirmed": case "late_bet_lapsed": lateEvent(e); break;
      case "dice_change_called": toast(`A change of dice is called (${e.clause}).`); break;
      case "integrity_alert": showAlert(ctx, e); if (app.reloadAlerts) app.reloadAlerts(); break;
      default: break;
    }
  }
  renderDecision();
  scheduleRefresh(any);
}

function renderDecision() {
  const d = app.lastDecision;
  const box = $("decision");
  if (!d) { box.replaceChildren(h("h2", {}, "Last decision"), h("p", { class: "muted" }, "No decision yet.")); renderPayouts([], ""); return; }
  const payouts = [...d.payouts].map(([player, p]) => h("li", { class: player === app.me ? "mine" : "" },
    `${player}: ${sentence([p.pay ? `pay ${money(dollars(p.pay))}` : "", p.back ? `return ${money(dollars(p.back))} in stakes` : "", p.take ? `take ${money(dollars(p.take))}` : ""].filter(Boolean).join(", ") || "nothing to settle")}`));
  box.replaceChildren(...kids(h("h2", {}, "Last decision"), h("p", { class: "decision-title" }, d.title),
    d.lines.length ? h("ul", { class: "settlements" }, d.lines.map((l) => h("li", { class: l.mine ? "mine" : "" }, l.text))) : null));
  renderPayouts(app.role === "dealer" ? payouts : [], d.title);
}

// The dealer's payout list heads the side column, beside the felt: what to pay, return and
// take is in view at once after a decision (below the felt it was under the fold at 1366x768).
function renderPayouts(payouts, title) {
  const card = $("payout-card");
  card.hidden = !payouts.length;
  card.replaceChildren(...(payouts.length ? [h("div", { class: "payouts", id: "payouts" }, h("h2", { id: "payouts-title" }, "Payout list"),
    h("p", { class: "decision-title" }, title), h("ul", {}, payouts))] : []));
}

// --- state ------------------------------------------------------------------------------------
let refreshing = null;
let again = false;
let alsoHistory = false;
function scheduleRefresh(history = false) {
  alsoHistory = alsoHistory || history;
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    do {
      again = false;
      const h2 = alsoHistory; alsoHistory = false;
      await refresh(h2);
    } while (again);
    refreshing = null;
  })();
  return refreshing;
}

async function refresh(withHistory = false) {
  if (!app.tableId) return;
  try {
    app.table = await api.get(`/tables/${encodeURIComponent(app.tableId)}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) { logout(); return; }
    toast(explain(err));
    return;
  }
  renderTable();
  if (withHistory) {
    await Promise.all([renderHistory(ctx), renderChart(ctx), loadWallet(), renderRules(ctx)]);
  }
}

async function loadWallet() {
  if (app.role !== "player") return;
  try {
    const w = await api.get(`/wallets/${encodeURIComponent(app.me)}`);
    app.wallet = w.balance;
  } catch { app.wallet = null; }
  renderPlayer();
}

function renderStatus() {
  const t = app.table;
  const parts = [`${t.id}`];
  if (app.craps) {
    parts.push(`roll ${t.round}`, t.point ? `point ${t.point}` : "come-out roll");
    parts.push(t.shooter ? `shooter ${t.shooter}` : "no shooter");
    parts.push(t.betting_open ? "betting open" : "dice in the air");
    parts.push(t.dice_in_play && t.dice_in_play.length ? `dice ${t.dice_in_play.join(", ")}` : "no dice in play");
    if (t.dice_change_called) parts.push("dice change called");
  } else {
    parts.push(`spin ${t.round}`, t.betting_open ? "place your bets" : "no more bets");
    if (t.last_number !== null && t.last_number !== undefined) parts.push(`last number ${t.last_number}`);
  }
  $("status").textContent = parts.join(" · ");
}

function renderTable() {
  if (!app.layout) return;
  syncLate();
  renderLate();
  renderStatus();
  if (app.craps) app.layout.render(app.table, app.me, app.calls);
  else app.layout.render(app.table, app.me);
  renderPlayer();
  renderConsoles(ctx);
}

function pickChip(c) {
  app.amount = c;
  const amount = $("amount");
  if (amount) amount.value = c;
  const radio = document.querySelector(`input[name="chip"][value="${c}"]`);
  if (radio) radio.checked = true;
}

// The chip tray: at hand under the felt (and pinned to the bottom of a phone's screen).
function buildTray() {
  const tray = $("tray");
  const chipButtons = CHIPS.map((c) => h("label", { class: `chip-pick chip-${c}`, title: `${c} dollar chip` },
    h("input", { type: "radio", name: "chip", value: c, checked: c === app.amount, onchange: () => pickChip(c) }),
    h("span", { class: `digits-${c.length}` }, c)));
  tray.replaceChildren(h("fieldset", { class: "chips-picker" }, h("legend", {}, "Chip to bet"), ...chipButtons,
    h("label", { class: "amount" }, "Amount ", h("input", { id: "amount", inputmode: "decimal", value: app.amount, size: 5,
      oninput: (e) => { app.amount = e.target.value.trim(); } })),
    h("span", { class: "tray-chips" }, "Chips ", h("strong", { id: "tray-chips" }, "0.00"))),
    h("p", { id: "late-note", class: "late-note", role: "status", hidden: true }));
}

function renderPlayer() {
  const panel = $("player-panel");
  const tray = $("tray");
  if (app.role !== "player" || !app.table) { panel.hidden = true; tray.hidden = true; return; }
  panel.hidden = false;
  tray.hidden = false;
  const mine = app.table.players[app.me] || { chips: "0.00", on_table: "0.00" };
  if (!panel.dataset.built) {
    panel.dataset.built = "1";
    buildTray();
    const msg = h("p", { id: "player-msg", class: "console-msg", role: "status" });
    // Money moves once per intent: the form's key is reused by every click until it is edited,
    // and the button waits for the answer (api.js: intent).
    const buyForm = h("form", { class: "inline", id: "buyin-form", onsubmit: (e) => { e.preventDefault(); buyIn(); } },
      h("label", {}, "Buy in ", h("input", { id: "buyin-amount", inputmode: "decimal", value: "200", size: 6 })),
      h("button", { type: "submit", id: "buyin-btn" }, "Buy chips"));
    const buying = intent(buyForm);
    const buyIn = () => {
      const checked = checkAmount($("buyin-amount").value, "buy-in");
      if (checked.error) { msg.className = "console-msg error"; msg.textContent = checked.error; return; }
      msg.textContent = "";
      once($("buyin-btn"), () => act("/buy-in", { amount: checked.value }, { key: buying.key,
        onError: (err) => { msg.className = "console-msg error"; msg.textContent = explain(err); } }).then(loadWallet));
    };
    app.cashing = intent();
    const cashOut = () => once($("cashout-btn"), () => act("/cash-out", {}, { key: app.cashing.key }).then(loadWallet));
    // The wallet in cash: asked here, the player's own request, and paid at the cage by an
    // admin (service/cage.py); the amount is held in the wallet until then.
    const cageForm = h("form", { class: "inline", id: "cage-ask-form", onsubmit: (e) => { e.preventDefault(); askCash(); } },
      h("label", {}, "Cash at the cage ", h("input", { id: "cage-ask-amount", inputmode: "decimal", value: "", size: 6 })),
      h("button", { type: "submit", id: "cage-ask-btn" }, "Ask for cash"));
    const asking = intent(cageForm);
    const askCash = () => {
      const checked = checkAmount($("cage-ask-amount").value, "cash-out");
      if (checked.error) { msg.className = "console-msg error"; msg.textContent = checked.error; return; }
      once($("cage-ask-btn"), () => api.post(`/wallets/${encodeURIComponent(app.me)}/cash-outs`, { amount: checked.value }, asking.key)
        .then((r) => { msg.className = "console-msg ok"; msg.textContent = `Cash-out ${r.cash_out} of ${money(r.amount)} asked: it is held in your wallet until the cage pays it`; },
          (err) => { msg.className = "console-msg error"; msg.textContent = explain(err); }).then(loadWallet));
    };
    panel.replaceChildren(
      h("h2", { id: "player-title" }, "Your bankroll"),
      h("dl", { class: "bankroll" },
        h("dt", {}, "Chips in hand"), h("dd", { id: "bankroll-chips", "aria-live": "polite" }),
        h("dt", {}, "On the layout"), h("dd", { id: "bankroll-on" }),
        h("dt", {}, "Wallet"), h("dd", { id: "bankroll-wallet" })),
      buyForm,
      h("button", { type: "button", id: "cashout-btn", onclick: cashOut }, "Cash out chips"),
      cageForm,
      msg,
      h("p", { class: "hint" }, "Tap or press Enter on a spot to bet the chip picked below the felt. On a spot holding your wager you see its state and only the moves the rules allow now. Press ? for keyboard shortcuts."));
  }
  // Chips that changed are a new sum to cash out: a new intent.
  if (panel.dataset.chips !== mine.chips) { panel.dataset.chips = mine.chips; app.cashing.renew(); }
  $("bankroll-chips").textContent = money(mine.chips);
  $("tray-chips").textContent = money(mine.chips);
  $("bankroll-on").textContent = money(mine.on_table);
  $("bankroll-wallet").textContent = app.wallet ? money(app.wallet) : "not loaded";
}

// --- tables and login -------------------------------------------------------------------------
const ctx = { app, api, act, explain, toast, refresh: () => scheduleRefresh(true), h, wagerName,
  reloadTables: () => loadTables() };

async function openTable(id) {
  if (app.stream) { app.stream.close(); app.stream = null; }
  hideOverlays();
  app.tableId = id;
  app.seen = new Set();
  app.calls = new Map();
  app.reduced = new Set();
  app.downOnWin = new Set();
  app.offPoint = new Set();
  app.handRolls = null; // unknown until the stream's replay reaches the shooter's first roll
  app.lastDecision = null;
  app.late = new Map();
  location.hash = `table=${encodeURIComponent(id)}`;
  document.querySelectorAll("#tables button").forEach((b) => b.setAttribute("aria-current", b.dataset.table === id ? "true" : "false"));
  app.table = await api.get(`/tables/${encodeURIComponent(id)}`);
  const q = new URLSearchParams({ game: app.table.game, profile: app.table.profile, options: JSON.stringify(app.table.options || {}) });
  app.offer = await api.get(`/web/offer?${q}`);
  drawLayout();
  $("table").hidden = false;
  $("side").hidden = false;
  // The table's last decision, as this viewer may see it; the stream's replay adds what it
  // settled (when it reaches back that far).
  if (app.table.decision) foldDecision(app.table.decision, false);
  renderDecision();
  renderTable();
  // The stream replays the table's recent events first: they tell which of the player's wagers
  // were called on or off (the table's state does not say), and nothing else is redrawn for them.
  app.replayUpTo = app.table.seq;
  if (app.table.seq === 0) document.body.dataset.replayed = "true"; else delete document.body.dataset.replayed;
  // From the last decision on (its settlements make its lines and the dealer's payout list),
  // or the last 1000 events when the decision is more recent than that.
  const decidedAt = app.table.decision ? app.table.decision.seq - 1 : Infinity;
  app.replayedTo = -1;
  app.stream = api.stream(id, Math.max(0, Math.min(app.table.seq - 1000, decidedAt)), (e) => (e.type === "replayed" ? replayDone(e) : handleEvents([e])),
    (up) => { const l = $("live"); l.textContent = up ? "live" : "offline"; l.classList.toggle("up", up); },
    sessionEnded);
  await Promise.all([renderHistory(ctx), renderChart(ctx), loadWallet(), renderRules(ctx)]);
}

const NARROW = matchMedia("(max-width: 640px)");

function drawLayout() {
  const host = $("layout");
  const hooks = { activate };
  app.vertical = NARROW.matches;
  if (app.craps) {
    $("wheel-host").hidden = true;
    app.wheel = null;
    app.layout = drawCraps(host, app.offer, hooks, { phone: app.vertical });
    document.body.dataset.game = "craps";
  } else {
    $("wheel-host").hidden = false;
    app.wheel = drawWheel($("wheel-host"), app.offer);
    app.layout = drawRoulette(host, app.offer, hooks, { vertical: app.vertical });
    app.wheel.show(app.table.last_number);
    document.body.dataset.game = "roulette";
  }
}

NARROW.addEventListener("change", () => {
  if (app.table) { hideOverlays(); drawLayout(); renderTable(); }
});

async function onLogin(user) {
  app.user = user;
  $("login").hidden = true;
  $("who").replaceChildren(h("span", { id: "whoami" }, `${user.username} (${user.role})`),
    h("button", { type: "button", id: "password-btn", "aria-haspopup": "dialog", onclick: changePassword }, "Change password"),
    h("button", { type: "button", id: "logout-btn", onclick: logout }, "Log out"));
  const tables = await loadTables();
  const wanted = new URLSearchParams(location.hash.slice(1)).get("table");
  if (user.role === "admin") {
    // The organiser starts at the console; a table opens below it from the list above.
    await renderAdmin(ctx);
    if (wanted && tables.some((t) => t.id === wanted)) await openTable(wanted);
    return;
  }
  const first = tables.find((t) => t.id === wanted) || tables[0];
  if (first) await openTable(first.id);
}

async function loadTables() {
  const tables = await api.get("/tables");
  $("tables").replaceChildren(...tables.map((t) => h("button", { type: "button", "data-table": t.id,
    "aria-current": t.id === app.tableId ? "true" : "false", onclick: () => openTable(t.id) }, `${t.id} · ${t.game}`)));
  return tables;
}

function logout() {
  api.logout();
  leave();
}

// Back to the log-in form, the session over; ``note`` is said above the form, and
// ``username`` is filled in so that only the password is left to type. On a page loaded
// afresh: hiding the table and the consoles left what they showed (every account, the cage,
// the night's report, the players' chips and payouts) in the page for the next person at the
// terminal to read. The token is gone by now; the note and the name wait in the tab's storage.
const PARTING = "croupier.parting";

function leave(note = "", username = "") {
  if (app.stream) app.stream.close();
  Object.assign(app, { user: null, tableId: null, table: null, layout: null, stream: null });
  sessionStorage.setItem(PARTING, JSON.stringify({ note, username }));
  location.reload();
}

// The log-in form, saying why the last session ended if it was ended for the user.
function showLogin() {
  let parting = {};
  try { parting = JSON.parse(sessionStorage.getItem(PARTING) || "{}") || {}; } catch { parting = {}; }
  sessionStorage.removeItem(PARTING);
  const note = typeof parting.note === "string" ? parting.note : "";
  $("login").hidden = false;
  $("login-note").textContent = note;
  $("login-note").hidden = !note;
  $("login-pass").value = "";
  if (typeof parting.username === "string" && parting.username) {
    $("login-user").value = parting.username;
    $("login-pass").focus();
  }
}

// The server ended the session while the page shows the table (the account locked, deleted
// or given another role): nothing of it stays on the screen, nor the dead token in the tab.
function sessionEnded() {
  api.setToken(null);
  leave("Your session has ended: log in again to go on.", app.me || "");
}

// The server has ended every session of the account: the token is no longer any good.
const changePassword = passwordDialog({ api, app, ended: (note, username) => {
  api.setToken(null);
  leave(note, username);
} });

$("login-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = $("login-error");
  err.hidden = true;
  $("login-note").hidden = true;
  try {
    const user = await api.login($("login-user").value.trim(), $("login-pass").value);
    // The form stays in the page, hidden, for the whole session: the password goes now, or
    // anyone at the terminal could read it (and keep the account, not only the session).
    $("login-pass").value = "";
    await onLogin(user);
  } catch (ex) {
    err.textContent = explain(ex);
    err.hidden = false;
  }
});

document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideOverlays(); });
document.addEventListener("pointerdown", (e) => { if (!$("refusal").contains(e.target)) $("refusal").hidden = true; });
installShortcuts({ app, pickChip, chips: CHIPS });

(async () => {
  if (api.token) {
    try { await onLogin(await api.get("/auth/me")); return; } catch { api.setToken(null); }
  }
  showLogin();
})();
