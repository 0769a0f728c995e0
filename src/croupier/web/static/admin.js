// The organiser's console (admin): users and roles, the cage (deposits), tables, dice records,
// locking and unlocking; everything through the same HTTP API as any other client.
import { explain, sentence, checkAmount, kids } from "./messages.js";
import { money } from "./svg.js";
import { intent, once } from "./api.js";
import { alertPanel } from "./alerts.js";

const $ = (id) => document.getElementById(id);

// The rule sets a table may be opened under, from the server (GET /profiles): for each game,
// its profiles with their titles and the clauses they cite; the console names none itself.
async function ruleSets(api) {
  const byGame = new Map();
  for (const s of await api.get("/profiles")) {
    if (!byGame.has(s.game)) byGame.set(s.game, []);
    byGame.get(s.game).push(s);
  }
  return byGame;
}

// A rule set as the organiser reads it: the code beside the regulation it follows.
const ruleSetName = (s) => `${s.profile}: ${s.title}`;
const titleOf = (sets, game, profile) => ((sets.get(game) || []).find((s) => s.profile === profile) || {}).title;

// A result line under a form: a sentence, green when done, red with the reason when refused.
function say(box, err, ok) {
  box.className = `console-msg ${err ? "error" : "ok"}`;
  box.textContent = err ? explain(err) : sentence(ok);
}

async function attempt(box, fn, ok) {
  try {
    const r = await fn();
    say(box, null, ok(r));
    return r;
  } catch (err) { say(box, err); return null; }
}

const field = (h, label, input) => h("label", {}, label, input);

function card(h, id, title, ...body) {
  return h("section", { class: "card", id, "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title` }, title), ...kids(body));
}

async function usersCard(ctx) {
  const { h, api } = ctx;
  const msg = h("p", { class: "console-msg", role: "status", id: "users-msg" });
  const body = h("tbody", {});
  const load = async () => {
    const users = await api.get("/users");
    body.replaceChildren(...users.map((u) => h("tr", { "data-user": u.username }, h("td", {}, u.username), h("td", {}, u.role),
      h("td", {}, u.locked ? "locked" : "active"),
      h("td", {}, h("button", { type: "button", class: u.locked ? "unlock-btn" : "lock-btn", onclick: () => attempt(msg,
        () => api.post(`/users/${encodeURIComponent(u.username)}/${u.locked ? "unlock" : "lock"}`),
        () => `User ${u.username} is ${u.locked ? "unlocked and may log in again" : "locked out until unlocked"}`).then(load) },
      u.locked ? "Unlock" : "Lock")))));
    const select = $("deposit-player");
    if (select) select.replaceChildren(...users.filter((u) => u.role === "player").map((u) => h("option", { value: u.username }, u.username)));
  };
  const form = h("form", { id: "user-form", onsubmit: async (e) => {
    e.preventDefault();
    const name = $("new-user").value.trim();
    const made = await attempt(msg, () => api.call("POST", "/users", { username: name, password: $("new-pass").value, role: $("new-role").value }, { idempotent: false }),
      (u) => `User ${u.username} is registered as ${u.role}`);
    // The chosen password must not stay on the console for the next person (or account).
    if (made) $("new-pass").value = "";
    await load();
  } },
  field(h, "Name", h("input", { id: "new-user", required: true, size: 10, autocomplete: "off" })),
  field(h, "Password (12 or more characters)", h("input", { id: "new-pass", type: "password", required: true, minlength: 12, size: 10, autocomplete: "new-password" })),
  field(h, "Role", h("select", { id: "new-role" }, ["player", "dealer", "supervisor", "auditor", "admin"].map((r) => h("option", { value: r }, r)))),
  h("button", { type: "submit", id: "user-btn" }, "Register"));
  const root = card(h, "admin-users", "Users and roles",
    h("table", {}, h("thead", {}, h("tr", {}, ["Name", "Role", "State", ""].map((c) => h("th", { scope: "col" }, c)))), body), form, msg);
  return { root, load };
}

function cageCard(ctx) {
  const { h, api } = ctx;
  const msg = h("p", { class: "console-msg", role: "status", id: "cage-msg" });
  const entries = h("div", { id: "wallet-view" });
  const queue = h("div", { id: "cage-queue" });
  const show = async (player) => {
    try {
      const w = await api.get(`/wallets/${encodeURIComponent(player)}`);
      entries.replaceChildren(h("p", {}, `${player}'s wallet holds ${money(w.balance)}.`),
        h("table", {}, h("thead", {}, h("tr", {}, ["Entry", "Table", "Amount", "After"].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, w.entries.slice(0, 8).map((e) => h("tr", {}, h("td", {}, e.kind.replaceAll("_", " ")), h("td", {}, e.table || "cage"),
            h("td", {}, money(e.amount)), h("td", {}, money(e.balance_after)))))));
    } catch (err) { entries.replaceChildren(h("p", { class: "error" }, explain(err))); }
  };
  // A cash-out is asked (by the player from their page, or here) and paid by a second person:
  // an admin who neither asked it nor is one person with the player (the server refuses
  // otherwise, citing the cage's control). Each row's buttons keep one intent (api.js).
  const decide = (c, verb, body, done) => {
    const it = intent();
    return async (e) => {
      const path = `/wallets/${encodeURIComponent(c.player)}/cash-outs/${c.cash_out}/${verb}`;
      await once(e.currentTarget, () => attempt(msg, () => api.post(path, body(), it.key), done));
      await loadQueue();
      await show(c.player);
    };
  };
  const reason = h("input", { id: "cage-decline-reason", size: 18, minlength: 3, placeholder: "e.g. no ID shown" });
  const loadQueue = async () => {
    let waiting;
    try { waiting = await api.get("/cage/cash-outs"); } catch (err) { queue.replaceChildren(h("p", { class: "error" }, explain(err))); return; }
    queue.replaceChildren(h("h3", {}, "Cash-outs waiting at the cage"), waiting.length
      ? h("table", { id: "cage-queue-table" }, h("thead", {}, h("tr", {}, ["No.", "Player", "Amount", "Asked by", ""].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, waiting.map((c) => h("tr", { "data-cash-out": String(c.cash_out) }, h("td", {}, String(c.cash_out)), h("td", {}, c.player),
          h("td", {}, money(c.amount)), h("td", {}, c.requested_by),
          h("td", {}, h("button", { type: "button", class: "pay-btn", onclick: decide(c, "pay", () => ({}),
            (r) => `${money(r.paid)} paid out in cash to ${r.player} from their wallet (cash-out ${r.cash_out}); it holds ${money(r.balance)}`) }, "Pay in cash"),
          " ", h("button", { type: "button", class: "decline-btn", onclick: decide(c, "decline", () => ({ reason: reason.value.trim() }),
            (r) => `Cash-out ${r.cash_out} to ${r.player} declined: ${r.reason}; nothing was paid`) }, "Decline"))))))
      : h("p", { class: "muted", id: "cage-queue-empty" }, "No cash-out waits at the cage."),
    field(h, "Reason to decline ", reason));
  };
  // One intent per form (api.js: intent): a double click, or a retry, moves the money once.
  const cageForm = (id, path, what, done) => {
    const form = h("form", { id: `${id}-form`, onsubmit: async (e) => {
      e.preventDefault();
      const player = $("deposit-player").value;
      const checked = checkAmount($(`${id}-amount`).value, what);
      if (checked.error) { msg.className = "console-msg error"; msg.textContent = checked.error; return; }
      await once($(`${id}-btn`), () => attempt(msg, () => api.post(`/wallets/${encodeURIComponent(player)}/${path}`, { amount: checked.value }, moving.key),
        (r) => done(money(checked.value), player, r)));
      await show(player);
      await loadQueue();
    } },
    field(h, "Amount", h("input", { id: `${id}-amount`, inputmode: "decimal", size: 7, value: "200" })),
    h("button", { type: "submit", id: `${id}-btn` }, what === "deposit" ? "Deposit" : "Ask cash-out"));
    const moving = intent(form);
    return [form, moving];
  };
  const player = field(h, "Player", h("select", { id: "deposit-player", onchange: (e) => show(e.target.value) }));
  const [deposit, depositing] = cageForm("deposit", "deposits", "deposit",
    (amount, who) => `${amount} deposited to ${who}'s wallet: the player buys chips with it at a table`);
  const [cashOut, cashing] = cageForm("cage-out", "cash-outs", "cash-out",
    (amount, who, r) => `Cash-out ${r.cash_out} of ${amount} asked for ${who}: it is held in the wallet until a second admin pays it`);
  player.querySelector("select").addEventListener("change", () => { depositing.renew(); cashing.renew(); });
  loadQueue();
  return card(h, "admin-cage", "Cage: deposits and cash-outs", player,
    h("div", { class: "row" }, h("span", {}, "Cash in (deposit): "), deposit),
    h("div", { class: "row" }, h("span", {}, "Cash out (ask, from the wallet): "), cashOut), msg, queue, entries,
    h("p", { class: "hint" }, "Players buy chips at a table from their wallet, and cash their chips back into it, from their own page; there they also ask for their wallet in cash. "
      + "A cash-out is paid here by an admin who is a second person: never the one who asked it, nor an account that is one person with the player."));
}

// The limits a table opened with, as its offer states them: a blank maximum is none at all.
async function limitsOf(api, t) {
  const q = new URLSearchParams({ game: t.game, profile: t.profile, options: JSON.stringify(t.options || {}) });
  const offer = await api.get(`/web/offer?${q}`).catch(() => null);
  if (!offer) return "";
  const least = offer.min_bet || offer.unit;
  return `bets from ${least ? money(least) : "the rules' minimum"} to ${offer.max_bet ? money(offer.max_bet) : "no maximum"}`;
}

function tablesCard(ctx) {
  const { h, api } = ctx;
  const msg = h("p", { class: "console-msg", role: "status", id: "tables-msg" });
  const body = h("tbody", {});
  const load = async () => {
    const tables = await api.get("/tables");
    body.replaceChildren(...tables.map((t) => h("tr", { "data-table": t.id }, h("td", {}, t.id), h("td", {}, t.game),
      h("td", {}, h("span", { class: "code" }, t.profile), h("span", { class: "rule-title" }, titleOf(ctx.ruleSets, t.game, t.profile) || "")),
      h("td", {}, t.entry === "physical" ? "physical (dealer enters)" : t.entry === "rng" ? "RNG" : ""),
      h("td", {}, `${t.players} of ${t.capacity}`))));
  };
  const sets = ctx.ruleSets;
  const note = h("p", { class: "hint", id: "table-profile-note" });
  const cited = () => {
    const s = (sets.get(game.value) || []).find((r) => r.profile === profile.value);
    note.textContent = s ? `${s.profile} follows ${s.title}: the wagers ${s.citation} permits, paid as ${s.pays_citation} says.` : "";
  };
  const profile = h("select", { id: "table-profile", onchange: cited });
  const game = h("select", { id: "table-game", onchange: () => fillProfiles() }, [...sets.keys()].map((g) => h("option", { value: g }, g)));
  const fillProfiles = () => {
    profile.replaceChildren(...(sets.get(game.value) || []).map((s) => h("option", { value: s.profile }, ruleSetName(s))));
    cited();
  };
  fillProfiles();
  const form = h("form", { id: "table-form", onsubmit: async (e) => {
    e.preventDefault();
    const options = {};
    for (const [id, key] of [["table-min", "min_bet"], ["table-max", "max_bet"]]) {
      const v = $(id).value.trim();
      if (!v) continue;
      const checked = checkAmount(v, key === "min_bet" ? "minimum bet" : "maximum bet");
      if (checked.error) { msg.className = "console-msg error"; msg.textContent = checked.error; return; }
      options[key] = checked.value;
    }
    const capacity = $("table-capacity").value.trim();
    const body = { id: $("table-id").value.trim(), game: game.value, profile: profile.value, options, entry: $("table-entry").value };
    if (capacity) body.capacity = Number(capacity);
    const opened = await attempt(msg, () => api.call("POST", "/tables", body, { idempotent: false }),
      (t) => `Table ${t.id} is open: ${t.game} under ${t.profile}, ${t.entry === "physical"
        ? `real ${t.game === "roulette" ? "wheel" : "dice"}: the dealer enters each result` : "results drawn by the server's RNG"}`);
    if (opened) msg.textContent = sentence(`${msg.textContent.replace(/\.$/, "")}; ${await limitsOf(api, opened)}`);
    await load();
    ctx.reloadTables();
  } },
  field(h, "Table name", h("input", { id: "table-id", required: true, size: 10, placeholder: "craps-2" })),
  field(h, "Game", game), field(h, "Rules", profile),
  field(h, "Results", h("select", { id: "table-entry" },
    h("option", { value: "rng" }, "RNG: the server draws them"),
    h("option", { value: "physical" }, "Physical: real dice or wheel, the dealer enters them"))),
  field(h, "Minimum bet", h("input", { id: "table-min", inputmode: "decimal", size: 5 })),
  field(h, "Maximum bet", h("input", { id: "table-max", inputmode: "decimal", size: 12, placeholder: "blank = no maximum",
    "aria-describedby": "table-limits-hint" })),
  field(h, "Seats", h("input", { id: "table-capacity", inputmode: "numeric", size: 3 })),
  h("button", { type: "submit", id: "table-btn" }, "Open table"));
  const root = card(h, "admin-tables", "Tables",
    h("table", {}, h("thead", {}, h("tr", {}, ["Table", "Game", "Rules", "Results", "Players"].map((c) => h("th", { scope: "col" }, c)))), body), form, note, msg,
    h("p", { class: "hint", id: "table-limits-hint" }, "The limits are the table's options: a blank minimum is the rules' smallest unit, a blank maximum means no maximum. The house pay table is the rule profile's. Closing a table is not offered by the server yet."));
  return { root, load };
}

function diceCard(ctx) {
  const { h, api } = ctx;
  const msg = h("p", { class: "console-msg", role: "status", id: "dice-msg" });
  const body = h("tbody", {});
  const load = async () => {
    const dice = await api.get("/equipment/dice");
    body.replaceChildren(...dice.map((d) => h("tr", {}, h("td", {}, d.serial), h("td", {}, d.set_name), h("td", {}, d.table_id || "store"),
      h("td", { class: d.in_spec ? "ok" : "error" }, d.retired ? "retired" : d.in_spec ? "in spec" : "not inspected or failed"))));
  };
  const form = h("form", { id: "die-form", onsubmit: async (e) => {
    e.preventDefault();
    const table = $("die-table").value.trim();
    await attempt(msg, () => api.call("POST", "/equipment/dice", { serial: $("die-serial").value.trim(), set_name: $("die-set").value.trim(), table_id: table || null }, { idempotent: false }),
      (d) => `Die ${d.serial} is registered${d.table_id ? ` in the cup of ${d.table_id}` : ""}; a supervisor inspects it before it is put in play`);
    await load();
  } },
  field(h, "Serial", h("input", { id: "die-serial", required: true, size: 9 })),
  field(h, "Set", h("input", { id: "die-set", required: true, size: 9 })),
  field(h, "Table", h("input", { id: "die-table", size: 9 })),
  h("button", { type: "submit", id: "die-btn" }, "Register die"));
  const root = card(h, "admin-dice", "Dice and equipment",
    h("table", {}, h("thead", {}, h("tr", {}, ["Serial", "Set", "Where", "State"].map((c) => h("th", { scope: "col" }, c)))), body), form, msg);
  return { root, load };
}

// The wagers a table offers only on a layout approved for them, as the profiles' own offers
// say (GET /web/offer): what a layout registered here may show.
async function wagersOnLayouts(api) {
  const pairs = [...(await ruleSets(api)).values()].flat().map((s) => ({ game: s.game, profile: s.profile }));
  const offers = await Promise.all(pairs.map((q) => api.get(`/web/offer?${new URLSearchParams(q)}`).catch(() => null)));
  const found = new Map();
  for (const offer of offers) {
    for (const d of Object.values((offer && offer.defs) || {})) if (d.approved_layout) found.set(d.id, d);
  }
  return [...found.values()];
}

// The equipment register (tables, wheels, balls, layouts, dice: approvals and inspections) and the
// dice's chain of custody; every record is a link of the house's hash chain.
function registerCard(ctx) {
  const { h, api } = ctx;
  // Only a layout shows wagers: their boxes appear when the item is one.
  const wagerBoxes = h("span", { id: "item-wagers" });
  let layoutWagers = null;
  const showWagers = async () => {
    if ($("item-type").value !== "layout") { wagerBoxes.replaceChildren(); return; }
    layoutWagers = layoutWagers || await wagersOnLayouts(api);
    if ($("item-type").value !== "layout") return;
    wagerBoxes.replaceChildren(...layoutWagers.map((d) => field(h, d.name, h("input", { type: "checkbox", name: "wager", value: d.id }))));
  };
  const msg = h("p", { class: "console-msg", role: "status", id: "register-msg" });
  const body = h("tbody", {});
  const record = (id, path, payload, done) => attempt(msg, () => api.call("POST", `/equipment/items/${encodeURIComponent(id)}/${path}`, payload, { idempotent: false }), () => done);
  const state = (i) => i.retired ? "retired" : i.in_service ? "in service" : i.approved ? "failed its inspection" : "awaiting approval";
  const load = async () => {
    const items = await api.get("/equipment/items");
    body.replaceChildren(...items.map((i) => h("tr", { "data-item": i.id }, h("td", {}, i.id), h("td", {}, i.type), h("td", {}, i.table || "store"),
      h("td", {}, i.wagers.join(", ")), h("td", {}, i.approvals.map((a) => `${a.authority} ${a.reference}`).join("; ")),
      h("td", { class: i.in_service ? "ok" : "error" }, state(i)),
      h("td", {}, h("button", { type: "button", onclick: async () => {
        const reference = window.prompt(`Approval of ${i.id}: the reference`);
        if (reference) { await record(i.id, "approvals", { authority: "Casino Control Commission", reference }, `${i.id}: approval recorded`); await load(); }
      } }, "Approval"), h("button", { type: "button", onclick: async () => {
        const findings = window.prompt(`Inspection of ${i.id}: what was found (start with "fail" if it failed)`);
        if (findings) { await record(i.id, "inspections", { passed: !/^fail/i.test(findings), findings }, `${i.id}: inspection recorded`); await load(); }
      } }, "Inspection")))));
  };
  const form = h("form", { id: "item-form", onsubmit: async (e) => {
    e.preventDefault();
    const wagers = [...document.querySelectorAll("#item-form input[name=wager]:checked")].map((c) => c.value);
    await attempt(msg, () => api.call("POST", "/equipment/items", { id: $("item-id").value.trim(), type: $("item-type").value, description: $("item-desc").value.trim(),
      table: $("item-table").value.trim() || null, wagers }, { idempotent: false }), (i) => `${i.id} is registered; it is in service once approved`);
    await load();
  } },
  field(h, "Id", h("input", { id: "item-id", required: true, size: 9 })),
  field(h, "Type", h("select", { id: "item-type", onchange: showWagers }, ["table", "wheel", "ball", "layout", "dice"].map((t) => h("option", { value: t }, t)))),
  field(h, "Description", h("input", { id: "item-desc", required: true, size: 16 })),
  field(h, "Table", h("input", { id: "item-table", size: 9 })),
  wagerBoxes,
  h("button", { type: "submit", id: "item-btn" }, "Register"));
  const custody = h("form", { id: "custody-form", onsubmit: async (e) => {
    e.preventDefault();
    const serial = $("custody-serial").value.trim();
    const table = $("custody-table").value.trim();
    await attempt(msg, () => api.call("POST", `/equipment/dice/${encodeURIComponent(serial)}/custody`, { step: $("custody-step").value, table: table || null }, { idempotent: false }),
      (r) => `Die ${serial}: ${r.payload.step}${r.payload.table ? ` to ${r.payload.table}` : ""} (record ${r.seq})`);
  } },
  field(h, "Die", h("input", { id: "custody-serial", required: true, size: 9 })),
  field(h, "Step", h("select", { id: "custody-step" }, ["received", "stored", "issued", "returned", "cancelled"].map((t) => h("option", { value: t }, t)))),
  field(h, "To table", h("input", { id: "custody-table", size: 9 })),
  h("button", { type: "submit", id: "custody-btn" }, "Record custody"));
  const root = card(h, "admin-register", "Equipment register",
    h("table", {}, h("thead", {}, h("tr", {}, ["Id", "Type", "Where", "Shows", "Approvals", "State", ""].map((c) => h("th", { scope: "col" }, c)))), body), form, custody, msg);
  return { root, load };
}

// The house's pay table per game and profile and its scheduled changes: proposed with an
// effective time and a reason, approved by a second person, applied between rounds. The
// change is made in a form of one field per pay-table entry, from the profile's own pay table
// (GET /web/offer): the request carries the entries that differ from the profile's.
function payTableCard(ctx) {
  const { h, api } = ctx;
  const msg = h("p", { class: "console-msg", role: "status", id: "paytable-msg" });
  const house = h("tbody", {});
  const changes = h("tbody", {});
  const entries = h("div", { id: "pt-entries", class: "pt-entries" });
  let houseTables = [];
  let defaults = {};
  const pays = (p) => Object.entries(p).map(([k, v]) => `${k} ${v}`).join(", ") || "the minimums";
  const chosen = () => $("pt-game").value.split(" ");
  // An entry's field: the wager's name and qualifier, its pay now, the profile's as the hint.
  const entryField = (key, now, least) => {
    const [, on] = key.split(":");
    const input = h("input", { name: "pay", "data-entry": key, value: now, placeholder: least, size: 7, autocomplete: "off",
      oninput: () => input.classList.toggle("changed", input.value.trim() !== least) });
    if (now !== least) input.classList.add("changed");
    return h("label", { class: "pt-entry" }, on ? `${on} ` : "all ", input);
  };
  // The chosen game's pay table, a fieldset per wager; the raw JSON's placeholder an example.
  const fill = async () => {
    const [game, profile] = chosen();
    // Another game's fields go at once: nothing is typed into a table about to be replaced.
    if (entries.dataset.for !== `${game} ${profile}`) { entries.replaceChildren(); delete entries.dataset.for; }
    const offer = await api.get(`/web/offer?${new URLSearchParams({ game, profile })}`).catch(() => null);
    if (!offer || $("pt-game").value !== `${game} ${profile}`) return;
    defaults = offer.pays;
    entries.dataset.for = `${game} ${profile}`;
    const now = (houseTables.find((t) => t.game === game && t.profile === profile) || {}).pays || {};
    const byWager = new Map();
    for (const [key, least] of Object.entries(defaults)) {
      const wager = key.split(":")[0];
      if (!byWager.has(wager)) byWager.set(wager, []);
      byWager.get(wager).push(entryField(key, now[key] || least, least));
    }
    entries.replaceChildren(...[...byWager].map(([wager, fields]) => h("fieldset", { "data-wager": wager },
      h("legend", {}, (offer.defs[wager] || {}).name || wager), ...fields)));
    const last = Object.entries(defaults).pop();
    if (last) $("pt-pays").placeholder = JSON.stringify({ [last[0]]: last[1] });
  };
  // What the fields say: each entry set to other odds than the profile's own.
  const fromFields = () => Object.fromEntries([...entries.querySelectorAll("input[data-entry]")]
    .map((i) => [i.dataset.entry, i.value.trim()]).filter(([k, v]) => v && v !== defaults[k]));
  const load = async () => {
    const [tables, listed] = await Promise.all([api.get("/paytables"), api.get("/paytables/changes")]);
    houseTables = tables;
    await fill();
    house.replaceChildren(...tables.map((t) => h("tr", {}, h("td", {}, `${t.game} ${t.profile}`), h("td", {}, pays(t.pays)), h("td", {}, t.source),
      h("td", {}, Object.entries(t.tables).map(([id, same]) => same ? id : `${id} (next round)`).join(", ")))));
    changes.replaceChildren(...listed.map((c) => h("tr", { "data-change": String(c.id) }, h("td", {}, String(c.id)), h("td", {}, `${c.game} ${c.profile}`), h("td", {}, pays(c.pays)),
      h("td", {}, c.effective), h("td", {}, c.reason), h("td", {}, `${c.proposed_by}${c.approved_by ? ` / ${c.approved_by}` : ""}`), h("td", {}, c.status),
      h("td", {}, c.status === "proposed" ? h("button", { type: "button", onclick: async () => {
        await attempt(msg, () => api.call("POST", `/paytables/changes/${c.id}/approve`, undefined, { idempotent: false }), () => `Change ${c.id} approved`);
        await load();
      } }, "Approve") : ""))));
  };
  const form = h("form", { id: "paytable-form", onsubmit: async (e) => {
    e.preventDefault();
    let table;
    const raw = $("pt-pays").value.trim();
    if (raw) {
      try { table = JSON.parse(raw); } catch { say(msg, { message: `pays: write a JSON object of pay-table entries and their odds, as ${$("pt-pays").placeholder}` }); return; }
    } else table = fromFields();
    const when = new Date($("pt-when").value);
    if (Number.isNaN(when.getTime())) { say(msg, { message: "effective: give a date and time" }); return; }
    const [game, profile] = chosen();
    await attempt(msg, () => api.call("POST", "/paytables/changes", { game, profile, pays: table, effective: when.toISOString(), reason: $("pt-reason").value.trim() }, { idempotent: false }),
      (c) => `Change ${c.id} proposed: ${pays(c.pays)}; a second person approves it`);
    await load();
  } },
  field(h, "Game", h("select", { id: "pt-game", onchange: () => fill() }, [...ctx.ruleSets.values()].flat().filter((s) => s.house_pay_table)
    .map((s) => h("option", { value: `${s.game} ${s.profile}` }, `${s.game} ${ruleSetName(s)}`)))),
  h("p", { class: "hint" }, "Each entry's odds as \"x to y\" or \"x for y\"; the profile's minimum is shown in an emptied field. The change holds the entries that differ from it; a table left as it is returns to the profile's pays."),
  entries,
  h("details", { id: "pt-advanced" }, h("summary", {}, "Advanced: the whole table as JSON"),
    field(h, "Pays (JSON; used instead of the fields when given)", h("input", { id: "pt-pays", size: 30, placeholder: '{"entry": "3 to 1"}' }))),
  field(h, "Effective", h("input", { id: "pt-when", type: "datetime-local", required: true })),
  field(h, "Reason", h("input", { id: "pt-reason", required: true, size: 16 })),
  h("button", { type: "submit", id: "pt-btn" }, "Propose"));
  const head = (cols) => h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c))));
  const root = card(h, "admin-paytables", "Pay tables",
    h("table", {}, head(["Game", "Pays", "From", "Tables"]), house),
    h("table", {}, head(["#", "Game", "Pays", "Effective", "Reason", "By / approved", "Status", ""]), changes), form, msg);
  return { root, load };
}

// The end-of-night report (GET /reports/...): the server's printable HTML shown in the console,
// then printed from it; the CSV downloaded. Both need the bearer token, so they are fetched.
async function fetchReport(ctx, path) {
  const r = await fetch(path, { headers: { Authorization: `Bearer ${ctx.api.token}` } });
  if (!r.ok) {
    let error = { reason: `the report could not be made (HTTP ${r.status})` };
    try { error = (await r.json()).error || error; } catch { /* not JSON */ }
    throw Object.assign(new Error(error.reason), error);
  }
  return r.text();
}

function reportCard(ctx) {
  const { h } = ctx;
  const msg = h("p", { class: "console-msg", role: "status", id: "report-msg" });
  const view = h("div", { id: "report-view", class: "report-view" });
  const which = h("select", { id: "report-table" });
  const path = (format) => (which.value ? `/reports/tables/${encodeURIComponent(which.value)}` : "/reports/event") + `?format=${format}`;
  const load = async () => {
    const tables = await ctx.api.get("/tables");
    which.replaceChildren(h("option", { value: "" }, "The whole event"), ...tables.map((t) => h("option", { value: t.id }, `Table ${t.id}`)));
  };
  const show = async () => {
    try {
      const page = new DOMParser().parseFromString(await fetchReport(ctx, path("html")), "text/html");
      view.replaceChildren(...[...page.body.childNodes].map((n) => document.importNode(n, true)));
      say(msg, null, "The report is below; print it, or download it as CSV");
      return true;
    } catch (err) { say(msg, err); return false; }
  };
  const print = async () => { if (await show()) window.print(); };
  const csv = async () => {
    try {
      const url = URL.createObjectURL(new Blob([await fetchReport(ctx, path("csv"))], { type: "text/csv" }));
      const a = h("a", { href: url, download: `${which.value || "event"}-report.csv` });
      document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      say(msg, null, "The report is downloaded as CSV");
    } catch (err) { say(msg, err); }
  };
  const root = card(h, "admin-report", "End-of-night report",
    h("div", { class: "report-actions" }, field(h, "Report of", which),
      h("button", { type: "button", id: "report-show-btn", onclick: show }, "Show report"),
      h("button", { type: "button", id: "report-print-btn", class: "primary", onclick: print }, "Print report"),
      h("button", { type: "button", id: "report-csv-btn", onclick: csv }, "Download CSV")),
    msg, view,
    h("p", { class: "hint" }, "Drop, win, hold, theoretical win (exact house edges of the wagers played) against actual win, big wins, voids and adjustments."));
  return { root, load };
}

export async function renderAdmin(ctx) {
  const root = $("admin");
  root.hidden = false;
  ctx.ruleSets = await ruleSets(ctx.api);
  const users = await usersCard(ctx);
  const tables = tablesCard(ctx);
  const dice = diceCard(ctx);
  const report = reportCard(ctx);
  const equipment = registerCard(ctx);
  const paytables = payTableCard(ctx);
  const alerts = ctx.h("div", { id: "admin-alerts", class: "alerts-panel" });
  const alertCard = card(ctx.h, "admin-alert-records", "Fairness alerts", alerts);
  let tableIds = [];
  const reloadAlerts = alertPanel(ctx, alerts, () => tableIds);
  ctx.api.get("/tables").then((ts) => { tableIds = ts.map((t) => t.id); reloadAlerts(); }).catch(() => {});
  root.replaceChildren(h2(ctx), users.root, cageCard(ctx), alertCard, tables.root, dice.root, equipment.root, paytables.root, report.root);
  await Promise.all([users.load(), tables.load(), dice.load(), equipment.load(), paytables.load(), report.load()].map((p) => p.catch((err) => ctx.toast(explain(err)))));
}

const h2 = (ctx) => ctx.h("h2", { class: "admin-title" }, "Organiser console");
