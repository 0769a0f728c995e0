// The browser table: log in, pick a table, play, deal or supervise it; live over WebSocket.
import { api, ApiError } from "./api.js";
import { h, money } from "./svg.js";
import { drawCraps, specOf as crapsSpec, NAMES as CRAPS_NAMES } from "./craps.js";
import { drawRoulette, drawWheel, specOf as rouletteSpec } from "./roulette.js";
import { renderConsoles, renderHistory, renderChart, showAlert } from "./consoles.js";

const $ = (id) => document.getElementById(id);
const CHIPS = ["1", "5", "10", "25", "100"];

export const app = {
  user: null, tableId: null, table: null, offer: null, layout: null, wheel: null, stream: null,
  seen: new Set(), calls: new Map(), amount: "5", lastDecision: null, dice: [], vertical: null,
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

export function explain(err) {
  if (err instanceof ApiError) return err.clause ? `${err.reason} (${err.clause})` : err.reason;
  return String(err && err.message ? err.message : err);
}

// A refusal next to the spot clicked, in the regulation's words.
function showRefusal(spot, err) {
  const box = $("refusal");
  const wrap = $("felt-wrap").getBoundingClientRect();
  const r = spot.el.getBoundingClientRect();
  box.replaceChildren(
    h("strong", {}, err.code === "refused" ? "Refused: " : "Not taken: "),
    h("span", { class: "refusal-reason" }, err.reason),
    err.clause ? h("span", { class: "refusal-clause" }, ` — ${err.clause}`) : null,
    h("button", { type: "button", class: "close", "aria-label": "Dismiss", onclick: () => { box.hidden = true; spot.el.focus(); } }, "×"));
  box.dataset.for = spot.key;
  box.hidden = false;
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
export async function act(path, body, { spot = null, onError = null } = {}) {
  try {
    const data = await api.post(`/tables/${encodeURIComponent(app.tableId)}${path}`, body);
    if (data && Array.isArray(data.events)) handleEvents(data.events);
    if (data && data.late_bet) toast(`Late bet ${data.late_bet} waits for the dealer's and the boxperson's confirmation`);
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

function specFor(label) { return app.craps ? crapsSpec(label) : rouletteSpec(label); }
function myWagersAt(spot) {
  return (app.table.layout || []).filter((w) => w.player === app.me && app.layout.placeOf(w.wager).key === spot.key)
    .map((w) => w);
}

function bet(spot, spec) {
  hideOverlays();
  return act("/bets", { ...spec, amount: app.amount }, { spot });
}

function activate(spot) {
  hideOverlays();
  if (app.role !== "player") {
    showRefusal(spot, { code: "info", reason: `${spot.name}. Only players wager; you are logged in as ${app.role}.`, clause: "" });
    return;
  }
  const mine = myWagersAt(spot);
  if (!mine.length) { bet(spot, spot.spec); return; }
  openPopover(spot, mine);
}

function openPopover(spot, mine) {
  const pop = $("popover");
  const offer = app.offer;
  const offIds = new Set(offer.off_on_come_out || []);
  const buttons = [h("button", { type: "button", class: "pop-bet", onclick: () => bet(spot, spot.spec) }, `Bet ${money(app.amount)} more`)];
  for (const w of mine) {
    const spec = specFor(w.wager);
    const name = app.layout.describe(w.wager).split(",")[0];
    buttons.push(h("p", { class: "pop-wager" }, `Your ${name}: ${money(w.stake)}`));
    if (app.craps) {
      buttons.push(h("button", { type: "button", class: "pop-reduce", onclick: () => { hideOverlays(); act("/bets/take-down", { ...spec, amount: app.amount }, { spot }); } },
        `Reduce by ${money(app.amount)}`));
    }
    buttons.push(h("button", { type: "button", class: "pop-remove", onclick: () => { hideOverlays(); act("/bets/take-down", spec, { spot }); } }, "Remove"));
    if (app.craps && offIds.has(spec.wager)) {
      const on = app.calls.get(w.wager);
      buttons.push(h("button", { type: "button", class: "pop-on", "aria-pressed": on === true ? "true" : "false",
        onclick: () => { hideOverlays(); act("/bets/call", { ...spec, on: true }, { spot }); } }, "Call on"));
      buttons.push(h("button", { type: "button", class: "pop-off", "aria-pressed": on === false ? "true" : "false",
        onclick: () => { hideOverlays(); act("/bets/call", { ...spec, on: false }, { spot }); } }, "Call off"));
    }
    const odds = { pass: "pass_odds", dont_pass: "dont_pass_odds", come: "come_odds", dont_come: "dont_come_odds" }[spec.wager];
    if (app.craps && odds && odds in offer.wagers && (spec.number || app.table.point)) {
      const oddsSpec = spec.number ? { wager: odds, number: spec.number } : { wager: odds };
      buttons.push(h("button", { type: "button", class: "pop-odds", onclick: () => bet(spot, oddsSpec) }, `Odds ${money(app.amount)}`));
    }
  }
  buttons.push(h("button", { type: "button", class: "pop-close", onclick: () => { hideOverlays(); spot.el.focus(); } }, "Close"));
  pop.replaceChildren(h("h3", { id: "pop-title" }, spot.name), ...buttons);
  pop.setAttribute("aria-labelledby", "pop-title");
  pop.hidden = false;
  const wrap = $("felt-wrap").getBoundingClientRect();
  const r = spot.el.getBoundingClientRect();
  pop.style.left = `${Math.max(4, Math.min(r.left - wrap.left, wrap.width - pop.offsetWidth - 4))}px`;
  pop.style.top = `${r.bottom - wrap.top + 6}px`;
  pop.querySelector("button").focus();
  pop.onkeydown = (e) => { if (e.key === "Escape") { hideOverlays(); spot.el.focus(); } };
}

// --- events -----------------------------------------------------------------------------------
function wagerName(label) {
  if (app.craps) return app.layout.describe(label).split(",")[0];
  return app.layout.describe(label).split(",")[0];
}

function handleEvents(events) {
  const fresh = events.filter((e) => typeof e.seq !== "number" || !app.seen.has(e.seq));
  if (!fresh.length) return;
  fresh.forEach((e) => app.seen.add(e.seq));
  let decided = false;
  for (const e of fresh) {
    switch (e.type) {
      case "roll":
        app.layout.clearBadges();
        app.layout.roll(e.dice, true);
        app.lastDecision = { title: `Roll ${e.dice[0]} + ${e.dice[1]} = ${e.total}${e.point_after ? ` · point ${e.point_after}` : ""}`, lines: [] };
        decided = true;
        break;
      case "crown":
        app.layout.clearBadges();
        if (app.wheel) app.wheel.spin(e.number, true);
        app.lastDecision = { title: `The ball rests in ${e.number} (${e.colour})`, lines: [] };
        decided = true;
        break;
      case "no_spin":
        app.lastDecision = { title: `No spin: ${e.reason || "irregular spin"}; every wager stays`, lines: [] };
        decided = true;
        break;
      case "settle": {
        const mine = e.player === app.me;
        const where = e.part_of || e.wager;
        const amount = e.result === "win" ? e.paid : e.result === "lose" ? e.taken : e.returned;
        if (!e.part_of || mine) app.layout.badge(e.part_of && !app.craps ? e.part_of : e.wager, e.result, amount, mine);
        if (app.lastDecision) {
          app.lastDecision.lines.push({ mine, text: `${e.player}: ${wagerName(e.wager)}${e.part_of ? ` (part of ${wagerName(where)})` : ""} — ${e.result} ${e.result === "win" ? `+${money(e.paid)}` : e.result === "lose" ? `−${money(e.taken)}` : money(amount)}${e.stays_up ? " (stays up)" : ""}` });
        }
        break;
      }
      case "call": app.calls.set(e.wager, e.on); break;
      case "void":
        app.layout.clearBadges();
        app.lastDecision = { title: `Round ${e.round} voided by ${e.by}: ${e.reason}`, lines: [] };
        decided = true;
        break;
      case "late_bet": toast(`Late bet ${e.late_id} from ${e.player} waits for confirmation`); break;
      case "dice_change_called": toast(`A change of dice is called (${e.clause})`); break;
      case "integrity_alert": showAlert(ctx, e); break;
      default: break;
    }
  }
  renderDecision();
  scheduleRefresh(decided);
}

function renderDecision() {
  const d = app.lastDecision;
  const box = $("decision");
  if (!d) { box.replaceChildren(h("h2", {}, "Last decision"), h("p", { class: "muted" }, "No decision yet.")); return; }
  box.replaceChildren(h("h2", {}, "Last decision"), h("p", { class: "decision-title" }, d.title),
    h("ul", { class: "settlements" }, d.lines.map((l) => h("li", { class: l.mine ? "mine" : "" }, l.text))));
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
    await Promise.all([renderHistory(ctx), renderChart(ctx), loadWallet()]);
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
  const parts = [`${t.id}`, `round ${t.round}`];
  if (app.craps) {
    parts.push(t.point ? `point ${t.point}` : "come-out roll");
    parts.push(t.shooter ? `shooter ${t.shooter}` : "no shooter");
    parts.push(t.betting_open ? "betting open" : "dice in the air");
    parts.push(t.dice_in_play && t.dice_in_play.length ? `dice ${t.dice_in_play.join(", ")}` : "no dice in play");
    if (t.dice_change_called) parts.push("dice change called");
  } else {
    parts.push(t.betting_open ? "place your bets" : "no more bets");
    if (t.last_number !== null && t.last_number !== undefined) parts.push(`last number ${t.last_number}`);
  }
  $("status").textContent = parts.join(" · ");
}

function renderTable() {
  if (!app.layout) return;
  renderStatus();
  if (app.craps) app.layout.render(app.table, app.me, app.calls);
  else app.layout.render(app.table, app.me);
  renderPlayer();
  renderConsoles(ctx);
}

function renderPlayer() {
  const panel = $("player-panel");
  if (app.role !== "player" || !app.table) { panel.hidden = true; return; }
  panel.hidden = false;
  const mine = app.table.players[app.me] || { chips: "0.00", on_table: "0.00" };
  if (!panel.dataset.built) {
    panel.dataset.built = "1";
    const chipButtons = CHIPS.map((c) => h("label", { class: `chip-pick chip-${c}` },
      h("input", { type: "radio", name: "chip", value: c, checked: c === app.amount,
        onchange: () => { app.amount = c; $("amount").value = c; } }), h("span", {}, c)));
    panel.replaceChildren(
      h("h2", { id: "player-title" }, "Your bankroll"),
      h("dl", { class: "bankroll" },
        h("dt", {}, "Chips in hand"), h("dd", { id: "bankroll-chips", "aria-live": "polite" }),
        h("dt", {}, "On the layout"), h("dd", { id: "bankroll-on" }),
        h("dt", {}, "Wallet"), h("dd", { id: "bankroll-wallet" })),
      h("form", { class: "inline", id: "buyin-form", onsubmit: (e) => { e.preventDefault(); act("/buy-in", { amount: $("buyin-amount").value }).then(loadWallet); } },
        h("label", {}, "Buy in ", h("input", { id: "buyin-amount", inputmode: "decimal", value: "200", size: 6 })),
        h("button", { type: "submit", id: "buyin-btn" }, "Buy chips")),
      h("button", { type: "button", id: "cashout-btn", onclick: () => act("/cash-out", {}).then(loadWallet) }, "Cash out chips"),
      h("fieldset", { class: "chips-picker" }, h("legend", {}, "Chip to bet"), ...chipButtons,
        h("label", { class: "amount" }, "Amount ", h("input", { id: "amount", inputmode: "decimal", value: app.amount, size: 6,
          oninput: (e) => { app.amount = e.target.value.trim(); } }))),
      h("p", { class: "hint" }, "Click or press Enter on a spot to bet; on a spot holding your wager: add, reduce, remove, call on or off."));
  }
  $("bankroll-chips").textContent = money(mine.chips);
  $("bankroll-on").textContent = money(mine.on_table);
  $("bankroll-wallet").textContent = app.wallet ? money(app.wallet) : "—";
}

// --- tables and login -------------------------------------------------------------------------
const ctx = { app, api, act, explain, toast, refresh: () => scheduleRefresh(true), h };

async function openTable(id) {
  if (app.stream) { app.stream.close(); app.stream = null; }
  hideOverlays();
  app.tableId = id;
  app.seen = new Set();
  app.calls = new Map();
  app.lastDecision = null;
  location.hash = `table=${encodeURIComponent(id)}`;
  document.querySelectorAll("#tables button").forEach((b) => b.setAttribute("aria-current", b.dataset.table === id ? "true" : "false"));
  app.table = await api.get(`/tables/${encodeURIComponent(id)}`);
  const q = new URLSearchParams({ game: app.table.game, profile: app.table.profile, options: JSON.stringify(app.table.options || {}) });
  app.offer = await api.get(`/web/offer?${q}`);
  drawLayout();
  $("table").hidden = false;
  $("side").hidden = false;
  renderDecision();
  renderTable();
  app.stream = api.stream(id, app.table.seq, (e) => handleEvents([e]),
    (up) => { const l = $("live"); l.textContent = up ? "live" : "offline"; l.classList.toggle("up", up); });
  await Promise.all([renderHistory(ctx), renderChart(ctx), loadWallet()]);
}

function drawLayout() {
  const host = $("layout");
  const hooks = { activate };
  if (app.craps) {
    $("wheel-host").hidden = true;
    app.wheel = null;
    app.layout = drawCraps(host, app.offer, hooks);
    document.body.dataset.game = "craps";
  } else {
    app.vertical = matchMedia("(max-width: 640px)").matches;
    $("wheel-host").hidden = false;
    app.wheel = drawWheel($("wheel-host"), app.offer);
    app.layout = drawRoulette(host, app.offer, hooks, { vertical: app.vertical });
    app.wheel.show(app.table.last_number);
    document.body.dataset.game = "roulette";
  }
}

matchMedia("(max-width: 640px)").addEventListener("change", () => {
  if (app.table && !app.craps) { drawLayout(); renderTable(); }
});

async function onLogin(user) {
  app.user = user;
  $("login").hidden = true;
  $("who").replaceChildren(h("span", { id: "whoami" }, `${user.username} (${user.role})`),
    h("button", { type: "button", id: "logout-btn", onclick: logout }, "Log out"));
  const tables = await api.get("/tables");
  $("tables").replaceChildren(...tables.map((t) => h("button", { type: "button", "data-table": t.id,
    onclick: () => openTable(t.id) }, `${t.id} · ${t.game}`)));
  const wanted = new URLSearchParams(location.hash.slice(1)).get("table");
  const first = tables.find((t) => t.id === wanted) || tables[0];
  if (first) await openTable(first.id);
}

function logout() {
  if (app.stream) app.stream.close();
  api.logout();
  Object.assign(app, { user: null, tableId: null, table: null, layout: null, stream: null });
  for (const id of ["table", "side"]) $(id).hidden = true;
  $("tables").replaceChildren();
  $("who").replaceChildren();
  $("player-panel").dataset.built = "";
  $("login").hidden = false;
}

$("login-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = $("login-error");
  err.hidden = true;
  try {
    const user = await api.login($("login-user").value.trim(), $("login-pass").value);
    await onLogin(user);
  } catch (ex) {
    err.textContent = explain(ex);
    err.hidden = false;
  }
});

document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideOverlays(); });

(async () => {
  if (api.token) {
    try { await onLogin(await api.get("/auth/me")); return; } catch { api.setToken(null); }
  }
  $("login").hidden = false;
})();

export { CRAPS_NAMES };
