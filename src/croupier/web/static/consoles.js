// The dealer's and the supervisor's consoles, the shooter's dice, history and recall, the chart.
import { s, text, money } from "./svg.js";
import { alertPanel } from "./alerts.js";
import { kids, sentence, drawText, decisionWord } from "./messages.js";

const $ = (id) => document.getElementById(id);

function message(ctx, box, err, ok) {
  box.replaceChildren();
  if (err) {
    box.className = "console-msg error";
    box.append(ctx.h("strong", {}, err.code === "refused" ? "Refused: " : "Error: "), ctx.explain(err));
  } else {
    box.className = "console-msg ok";
    box.textContent = sentence(ok);
  }
}

// Run an action from a console, reporting in its message line.
async function run(ctx, box, path, body, ok) {
  let failure = null;
  const data = await ctx.act(path, body, { onError: (err) => { failure = err; } });
  message(ctx, box, failure, failure ? "" : ok(data));
  return data;
}

function checkboxes(ctx, name, serials, checkedCount) {
  return ctx.h("div", { class: "dice-picks", role: "group", "aria-label": name },
    serials.map((serial, i) => ctx.h("label", {}, ctx.h("input", { type: "checkbox", name, value: serial, checked: i < checkedCount }), serial)));
}
const picked = (root, name) => [...root.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);

function lateBets(ctx, listId, box) {
  const list = $(listId);
  if (!list) return;
  const bets = ctx.app.table.late_bets || [];
  list.replaceChildren(...(bets.length ? bets.map((b) => ctx.h("li", {},
    `Late bet ${b.id}: ${b.player}'s ${ctx.wagerName(b.qualifier !== null && b.qualifier !== undefined ? `${b.wager}:${Array.isArray(b.qualifier) ? b.qualifier.join("-") : b.qualifier}` : b.wager)} of ${money(b.amount)}, confirmed by ${Object.keys(b.confirmed_by).join(" and ") || "nobody yet"}. `,
    ctx.h("button", { type: "button", class: "confirm-late", onclick: () => run(ctx, box, `/late-bets/${b.id}/confirm`, undefined, () => `Late bet ${b.id} confirmed`) }, "Confirm")))
    : [ctx.h("li", { class: "muted" }, "No late bets waiting.")]));
}

export function renderConsoles(ctx) {
  const { app } = ctx;
  const key = `${app.tableId}|${app.role}`;
  const dealer = $("dealer-console");
  const supervisor = $("supervisor-console");
  dealer.hidden = app.role !== "dealer";
  supervisor.hidden = app.role !== "supervisor";
  renderShooter(ctx);
  if (app.role === "dealer") {
    if (dealer.dataset.key !== key) { dealer.dataset.key = key; buildDealer(ctx, dealer); }
    updateDealer(ctx);
  }
  if (app.role === "supervisor") {
    if (supervisor.dataset.key !== key) { supervisor.dataset.key = key; buildSupervisor(ctx, supervisor); }
    lateBets(ctx, "sup-late", $("sup-msg"));
    waiting(ctx, $("sup-waiting"), $("sup-msg"));
  }
}

function buildDealer(ctx, root) {
  const { h, app } = ctx;
  const msg = h("p", { id: "dealer-msg", class: "console-msg", role: "status" });
  const parts = [h("h2", { id: "dealer-title" }, "Dealer console")];
  parts.push(h("button", { type: "button", id: "no-more-bets", onclick: () => run(ctx, msg, "/no-more-bets", undefined,
    () => (app.craps ? "The dice are in the air: later wagers need two confirmations" : "No more bets")) },
  app.craps ? "Dice in the air (no more bets)" : "No more bets"));
  if (app.craps) {
    const face = (id) => h("select", { id, "aria-label": id === "die1" ? "first die" : "second die" }, [1, 2, 3, 4, 5, 6].map((v) => h("option", { value: v }, v)));
    parts.push(
      h("div", { class: "row" },
        h("button", { type: "button", id: "roll-rng", class: "primary", onclick: () => run(ctx, msg, "/roll", {}, (d) => rollText(d)) }, "Roll (RNG)")),
      h("div", { class: "row" }, h("span", {}, "Physical dice: "), face("die1"), face("die2"),
        h("button", { type: "button", id: "roll-physical", onclick: () => run(ctx, msg, "/roll", { dice: [Number($("die1").value), Number($("die2").value)] }, (d) => rollText(d)) }, "Enter roll")),
      h("div", { class: "row" },
        h("button", { type: "button", id: "next-shooter", onclick: () => run(ctx, msg, "/dice/pass", undefined, () => "The dice pass to the next player") }, "Next shooter"),
        h("button", { type: "button", id: "dice-change", onclick: () => run(ctx, msg, "/dice/change", undefined, () => "Dice change called: it takes place after the next decision") }, "Call dice change")),
      h("h3", {}, "Dice"),
      h("div", { id: "dealer-dice" }),
      h("h3", {}, "Late bets"), h("ul", { id: "dealer-late", class: "late" }));
  } else {
    const pockets = app.offer.wheel.in_play;
    parts.push(
      h("div", { class: "row" }, h("button", { type: "button", id: "spin-rng", class: "primary", onclick: () => spin(ctx, msg, null) }, "No more bets and spin (RNG)")),
      h("p", { class: "hint" }, "\u201cNo more bets\u201d is called while the ball still circles (20.32(j)2): the spin button calls it first when betting is open."),
      h("div", { class: "row" }, h("label", {}, "Ball rests in ", h("select", { id: "spin-number" }, pockets.map((p) => h("option", { value: String(p) }, String(p))))),
        h("button", { type: "button", id: "spin-physical", onclick: () => {
          const v = $("spin-number").value;
          spin(ctx, msg, v === "00" ? "00" : Number(v));
        } }, "Enter result")),
      h("details", {}, h("summary", {}, "Irregular spin (20.32(m))"),
        h("label", {}, "Revolutions ", h("input", { id: "spin-revs", inputmode: "numeric", size: 3 })),
        h("label", {}, h("input", { type: "checkbox", id: "spin-same" }), " same direction as the wheel"),
        h("label", {}, h("input", { type: "checkbox", id: "spin-foreign" }), " foreign object")));
  }
  const alerts = h("div", { id: "dealer-alerts", class: "alerts-panel" });
  parts.push(msg, alerts);
  root.replaceChildren(...parts);
  app.reloadAlerts = alertPanel(ctx, alerts, () => [app.tableId]);
}

// One step for the dealer: "No more bets" (if betting is still open), then the spin.
async function spin(ctx, msg, number) {
  if (ctx.app.table.betting_open) {
    let failure = null;
    await ctx.act("/no-more-bets", undefined, { onError: (err) => { failure = err; } });
    if (failure) { message(ctx, msg, failure); return null; }
  }
  return run(ctx, msg, "/spin", spinBody(number), (d) => spinText(d));
}

function spinBody(number) {
  const body = {};
  if (number !== null) body.number = number;
  const revs = $("spin-revs") && $("spin-revs").value.trim();
  if (revs) body.revolutions = Number(revs);
  if ($("spin-same") && $("spin-same").checked) body.same_direction = true;
  if ($("spin-foreign") && $("spin-foreign").checked) body.foreign_object = true;
  return body;
}

function rollText(d) {
  const r = d && d.events.find((e) => e.type === "roll");
  return r ? `Roll ${r.round}: ${r.dice[0]} + ${r.dice[1]} = ${r.total}` : "The dice are rolled";
}
function spinText(d) {
  const c = d && d.events.find((e) => e.type === "crown");
  return c ? `No more bets; the ball rests in ${c.number}` : "No spin: every wager stays";
}

let diceCache = { at: 0, list: [] };
async function cupDice(ctx) {
  if (Date.now() - diceCache.at < 5000) return diceCache.list;
  try {
    diceCache = { at: Date.now(), list: await ctx.api.get("/equipment/dice") };
  } catch { diceCache = { at: Date.now(), list: [] }; }
  return diceCache.list;
}

async function updateDealer(ctx) {
  const { app, h } = ctx;
  const msg = $("dealer-msg");
  if (!app.craps) return;
  lateBets(ctx, "dealer-late", msg);
  const box = $("dealer-dice");
  const t = app.table;
  const stamp = `${t.dice_in_play}|${t.dice_offered}|${t.shooter}`;
  if (box.dataset.stamp === stamp) return;
  box.dataset.stamp = stamp;
  if (t.dice_in_play.length) {
    box.replaceChildren(h("p", {}, `In play: ${t.dice_in_play.join(", ")}`));
    return;
  }
  if (t.dice_offered.length) {
    const picks = checkboxes(ctx, "select-die", t.dice_offered, 2);
    box.replaceChildren(h("p", {}, `Offered to ${t.shooter}; select two for the shooter:`), picks,
      h("button", { type: "button", id: "select-dice", onclick: () => run(ctx, msg, "/dice/select", { serials: picked(box, "select-die") }, () => "Two dice selected: in play") }, "Select two"));
    return;
  }
  const cup = (await cupDice(ctx)).filter((d) => d.table_id === app.tableId && !d.retired);
  const usable = cup.filter((d) => d.in_spec).map((d) => d.serial);
  const picks = checkboxes(ctx, "offer-die", usable, 5);
  box.replaceChildren(h("p", {}, `Offer at least five inspected dice to ${t.shooter || "the shooter"}:`), picks,
    h("button", { type: "button", id: "offer-dice", onclick: () => run(ctx, msg, "/dice/offer", { serials: picked(box, "offer-die") }, () => "Dice offered to the shooter: next, the shooter selects two on their page, or you select two for them here") }, "Offer dice"));
}

function buildSupervisor(ctx, root) {
  const { h, app } = ctx;
  const msg = h("p", { id: "sup-msg", class: "console-msg", role: "status" });
  const inspect = h("div", { id: "inspection" });
  root.replaceChildren(...kids(
    h("h2", { id: "supervisor-title" }, "Supervisor console"),
    h("form", { id: "void-form", onsubmit: async (e) => {
      e.preventDefault();
      await run(ctx, msg, "/void", { reason: $("void-reason").value.trim() }, (d) => (d.void_asked
        ? `Void of ${decisionWord(app.craps).toLowerCase()} ${d.void_asked} asked: the RNG's outcome stands, and its stakes are returned once a second supervisor approves`
        : `${decisionWord(app.craps)} ${d.voided_round} voided; its wagers and chips are restored`));
      ctx.refresh();
    } },
    h("label", {}, "Void the last decision, reason: ", h("input", { id: "void-reason", required: true, minlength: 3, size: 24, placeholder: "e.g. a die left the table" })),
    h("button", { type: "submit", id: "void-btn", class: "danger" }, "Void decision")),
    h("div", { id: "sup-waiting" }),
    app.craps ? h("div", {}, h("h3", {}, "Late bets (boxperson)"), h("ul", { id: "sup-late", class: "late" }),
      h("button", { type: "button", id: "sup-dice-change", onclick: () => run(ctx, msg, "/dice/change", undefined, () => "Dice change called") }, "Call dice change"),
      h("h3", {}, "Dice inspection"), inspect) : null,
    msg, h("div", { id: "sup-alerts", class: "alerts-panel" })));
  app.reloadAlerts = alertPanel(ctx, $("sup-alerts"), () => [app.tableId]);
  if (app.craps) renderInspection(ctx, inspect, msg);
  // Alerts raised before this console opened: the monitors still alarmed on the equipment in play.
  ctx.api.get(`/tables/${encodeURIComponent(app.tableId)}/alerts`).then((r) => {
    for (const m of r.monitors) if (m.alarmed && (m.in_play || m.kind === "wheel")) showAlert(ctx, { message: m.alarms[0].message });
  }).catch(() => {});
}

// What waits for a supervisor: a void another supervisor asked of the RNG's outcome (a second
// person approves it), and a halted table (resolved by returning the wager it could not settle).
function waiting(ctx, box, msg) {
  if (!box) return;
  const { h, app } = ctx;
  const t = app.table || {};
  const parts = [];
  const asked = t.void_asked;
  if (asked) {
    const word = decisionWord(app.craps).toLowerCase();
    parts.push(h("p", {}, `${asked.by} asked to void ${word} ${asked.round}: ${sentence(asked.reason)}`),
      asked.by === app.me
        ? h("p", { class: "muted" }, "A second supervisor approves it.")
        : h("button", { type: "button", id: "approve-void", class: "danger", onclick: async () => {
          await run(ctx, msg, "/void/approve", undefined, (d) => `${decisionWord(app.craps)} ${d.voided_round} voided: the outcome stands and the stakes it decided are returned`);
          ctx.refresh();
        } }, `Approve the void of ${word} ${asked.round}`));
  }
  const halted = t.halted;
  if (halted) {
    parts.push(h("p", { class: "error", role: "alert" }, `The table is halted: ${sentence(halted.reason)}`),
      h("form", { id: "resolve-form", onsubmit: async (e) => {
        e.preventDefault();
        await run(ctx, msg, "/halt/resolve", { reason: $("resolve-reason").value.trim() }, () => "Halt resolved: the wager's stake is returned and the outcome settled");
        ctx.refresh();
      } },
      h("label", {}, "Resolve by returning the wager's stake, reason: ", h("input", { id: "resolve-reason", required: true, minlength: 3, size: 24 })),
      h("button", { type: "submit", id: "resolve-btn", class: "danger" }, "Resolve halt")));
  }
  box.replaceChildren(...parts);
}

// A fairness monitor's alert (an "integrity_alert" event): a banner atop the supervisor console.
export function showAlert(ctx, e) {
  const root = $("supervisor-console");
  if (ctx.app.role !== "supervisor" || !root) return;
  const text = `Integrity alert: ${sentence(e.message)}${ctx.app.craps ? " A change of dice is called." : ""}`;
  if ([...root.querySelectorAll(".integrity-alert")].some((b) => b.firstChild.textContent === text)) return;
  const banner = ctx.h("p", { class: "integrity-alert", role: "alert" }, text,
    ctx.h("button", { type: "button", "aria-label": "dismiss", onclick: () => banner.remove() }, "×"));
  root.prepend(banner);
}

async function renderInspection(ctx, root, msg) {
  const { h } = ctx;
  diceCache.at = 0;
  const dice = await cupDice(ctx);
  const rows = dice.map((d) => h("tr", {}, h("td", {}, d.serial), h("td", {}, d.table_id || "—"),
    h("td", { class: d.in_spec ? "ok" : "error" }, d.in_spec ? "in spec" : "not in spec"),
    h("td", {}, d.last_inspection ? `${d.last_inspection.by}${d.last_inspection.failures.length ? `: ${d.last_inspection.failures.join("; ")}` : ""}` : "never")));
  const bool = ["transparent_cellulose", "sides_flat_spots_flush", "edges_square", "texture_identical", "weight_balanced", "spots_white_equal_diameter", "provider_name_imprinted"];
  const form = h("form", { id: "inspect-form", class: "inspect", onsubmit: async (e) => {
    e.preventDefault();
    const serial = $("inspect-serial").value;
    const body = { sides_inch: ["side-a", "side-b", "side-c"].map((id) => $(id).value.trim()),
      opposite_faces: [[1, 6], [2, 5], [3, 4]], spot_depths_inch: [$("spot-depth").value.trim()] };
    for (const b of bool) body[b] = form.querySelector(`input[name="${b}"]`).checked;
    try {
      const r = await ctx.api.post(`/equipment/dice/${encodeURIComponent(serial)}/inspections`, body);
      message(ctx, msg, null, r.passed ? `${serial} passed inspection (${r.clause})` : `${serial} failed (${r.clause}): ${r.failures.join("; ")}`);
      if (!r.passed) msg.className = "console-msg error"; // a failed die is not good news
      renderInspection(ctx, root, msg);
    } catch (err) { message(ctx, msg, err); }
  } },
  h("label", {}, "Die ", h("select", { id: "inspect-serial" }, dice.map((d) => h("option", { value: d.serial }, d.serial)))),
  h("fieldset", {}, h("legend", {}, "Sides (inches)"), ["side-a", "side-b", "side-c"].map((id) => h("input", { id, value: "0.750", size: 5, "aria-label": id.replace("-", " ") }))),
  h("label", {}, "Spot depth (inches) ", h("input", { id: "spot-depth", value: "0.017", size: 5 })),
  h("fieldset", { class: "checks" }, h("legend", {}, "Checks"), bool.map((b) => h("label", {}, h("input", { type: "checkbox", name: b, checked: true }), ` ${b.replaceAll("_", " ")}`))),
  h("button", { type: "submit", id: "inspect-btn" }, "Record inspection"));
  root.replaceChildren(h("table", { class: "dice-table" }, h("thead", {}, h("tr", {}, ["Die", "Table", "Status", "Last inspection"].map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, rows)), form);
}

function renderShooter(ctx) {
  const { app, h } = ctx;
  const panel = $("shooter-panel");
  const t = app.table;
  const mine = app.craps && app.role === "player" && t.shooter === app.me;
  panel.hidden = !mine;
  if (!mine) return;
  const stamp = `${t.dice_offered}|${t.dice_in_play}|${t.point}`;
  if (panel.dataset.stamp === stamp) return;
  panel.dataset.stamp = stamp;
  const msg = h("p", { class: "console-msg", role: "status" });
  const parts = [h("h2", {}, "You are the shooter")];
  if (t.dice_offered.length) {
    const picks = checkboxes(ctx, "my-die", t.dice_offered, 2);
    parts.push(h("p", {}, "Select two of the dice offered:"), picks,
      h("button", { type: "button", onclick: () => run(ctx, msg, "/dice/select", { serials: picked(panel, "my-die") }, () => "Your dice are in play") }, "Select two"));
  } else parts.push(h("p", {}, t.dice_in_play.length ? `Your dice: ${t.dice_in_play.join(", ")}` : "Waiting for the stickperson to offer dice."));
  parts.push(h("div", { class: "row" },
    h("button", { type: "button", onclick: () => run(ctx, msg, "/dice/refuse", undefined, () => "You passed your turn to shoot") }, "Refuse to shoot"),
    h("button", { type: "button", onclick: () => run(ctx, msg, "/dice/pass", undefined, () => "The dice pass on") }, "Pass the dice"),
    h("button", { type: "button", onclick: () => run(ctx, msg, "/dice/change", undefined, () => "Dice change called") }, "Call for new dice")), msg);
  panel.replaceChildren(...parts);
}

// --- history and recall -------------------------------------------------------------------------
function outcomeText(o) {
  if (!o) return "not decided yet";
  if (o.dice) return `${o.dice[0]} + ${o.dice[1]} = ${o.total}${o.point_after ? `, point ${o.point_after}` : ""}`;
  if (o.number !== undefined) return `the ball rests in ${o.number}`;
  if (o.kind === "no_spin") return "no spin";
  return String(o.kind || "decided").replaceAll("_", " ");
}

// One settlement in a recalled round, in words.
function settledText(ctx, e) {
  const who = e.player ? `${e.player}'s ` : "";
  const what = e.wager ? ctx.wagerName(e.wager) : "";
  switch (e.result || e.type) {
    case "win": return `${who}${what} won ${money(e.paid)}${Number(e.returned) ? `; the stake of ${money(e.returned)} came back` : ""}${e.stays_up ? "; it stays up" : ""}.`;
    case "lose": return `${who}${what} lost ${money(e.taken)}.`;
    case "push": return `${who}${what} was a push: ${money(e.returned)} came back.`;
    case "move": return `${who}${what} moved to ${e.state !== undefined && e.state !== null ? `the point ${e.state}` : ctx.wagerName(e.to)}.`;
    default: return sentence(`${who}${what} ${String(e.result || e.type).replaceAll("_", " ")}`);
  }
}

const table = (h, head, rows) => h("table", { class: "recall-table" },
  h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
  h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c))))));

function recallView(ctx, rec) {
  const { app, h } = ctx;
  const mine = (e) => app.role !== "player" || e.player === app.me;
  const word = decisionWord(app.craps);
  const players = Object.keys(rec.balances.before || {}).filter((p) => app.role !== "player" || p === app.me);
  const both = (b) => (b ? `${money(b.chips)} in chips, ${money(b.on_table)} on the layout` : "none");
  const outcome = rec.outcome && rec.outcome.dice ? `the dice ${rec.outcome.dice.join(" and ")}` : rec.outcome && rec.outcome.number !== undefined ? `the pocket ${rec.outcome.number}` : "the outcome";
  const wagers = (rec.wagers_in_action || []).filter(mine);
  return kids(
    h("h3", {}, `${word} ${rec.round} at ${rec.table}: ${outcomeText(rec.outcome)}.`),
    rec.voided ? h("p", { class: "error" }, `Voided by ${rec.voided.by}${rec.voided.approved_by ? `, approved by ${rec.voided.approved_by} (the outcome stands; its stakes were returned)` : ""}: ${sentence(rec.voided.reason)}`) : null,
    rec.draw ? h("p", { class: "muted" }, drawText(rec.draw, outcome)) : h("p", { class: "muted" }, "The result was entered by the dealer (physical equipment)."),
    h("h4", {}, "Wagers in action"),
    wagers.length ? table(h, ["Player", "Wager", "Stake"], wagers.map((w) => [w.player, ctx.wagerName(w.wager), money(w.stake)])) : h("p", {}, "No wagers were in action."),
    h("h4", {}, "Settlements"),
    rec.settlements.filter(mine).length ? h("ul", {}, rec.settlements.filter(mine).map((e) => h("li", {}, settledText(ctx, e)))) : h("p", {}, "Nothing was settled."),
    h("h4", {}, "Balances"),
    table(h, ["Player", "Before", "After"], players.map((p) => [p, both(rec.balances.before[p]), both(rec.balances.after[p])])));
}

export async function renderHistory(ctx) {
  const { app, api, h } = ctx;
  const root = $("history");
  const detail = h("div", { id: "recall", class: "recall", "aria-live": "polite" });
  const word = decisionWord(app.craps);
  let rounds = [];
  try {
    if (app.role === "player") {
      rounds = (await api.get(`/players/${encodeURIComponent(app.me)}/rounds`)).filter((r) => r.table === app.tableId);
    } else {
      rounds = (await api.get(`/tables/${encodeURIComponent(app.tableId)}/rounds?limit=20`)).map((r) => ({ ...r, table: app.tableId }));
    }
  } catch (err) {
    root.replaceChildren(h("h2", { id: "history-title" }, "History"), h("p", { class: "muted" }, ctx.explain(err)));
    return;
  }
  // The round recalled stays recalled when the history is drawn again (an event at the table
  // redraws it), and its answer goes to the panel on the page when it comes, not to one a
  // redraw has replaced meanwhile.
  const recall = async (r) => {
    app.recalled = { table: r.table, round: r.round };
    const shown = (...nodes) => { ($("recall") || detail).replaceChildren(...nodes); };
    try {
      shown(...recallView(ctx, await api.get(`/tables/${encodeURIComponent(r.table)}/rounds/${r.round}`)));
    } catch (err) { shown(h("p", { class: "error" }, ctx.explain(err))); }
  };
  root.replaceChildren(h("h2", { id: "history-title" }, app.role === "player" ? `Your last ${word.toLowerCase()}s` : "History and recall"),
    rounds.length ? h("ol", { class: "rounds" }, rounds.map((r) => h("li", { class: r.voided ? "voided" : "" },
      h("span", {}, `${word} ${r.round}: ${outcomeText(r.outcome)}${r.voided ? " (void)" : ""}${r.balance_after ? `; after it ${money(r.balance_after.chips)} in chips and ${money(r.balance_after.on_table)} on the layout` : ""}`),
      h("button", { type: "button", class: "recall-btn", "aria-label": `Recall ${word.toLowerCase()} ${r.round}`, onclick: () => recall(r) }, "Recall"))))
      : h("p", { class: "muted" }, `No ${word.toLowerCase()}s decided yet.`), detail);
  const again = app.recalled;
  if (again && again.table === app.tableId) recall(again);
}

// --- the bankroll chart -----------------------------------------------------------------------
export async function renderChart(ctx) {
  const { app, api, h } = ctx;
  const root = $("chart");
  root.hidden = app.role !== "player";
  if (root.hidden) return;
  let rounds = [];
  try { rounds = (await api.get(`/players/${encodeURIComponent(app.me)}/rounds`)).filter((r) => r.table === app.tableId).reverse(); } catch { rounds = []; }
  const total = (b) => (b ? Number(b.chips) + Number(b.on_table) : null);
  const points = [];
  if (rounds.length && rounds[0].balance_before) points.push({ label: "start", v: total(rounds[0].balance_before) });
  for (const r of rounds) if (r.balance_after) points.push({ label: `${decisionWord(app.craps).toLowerCase()} ${r.round}`, v: total(r.balance_after), voided: !!r.voided });
  const mine = app.table && app.table.players[app.me];
  if (mine) points.push({ label: "now", v: Number(mine.chips) + Number(mine.on_table) });
  const W = 320; const H = 130; const pad = 28;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": points.length ? `Bankroll over ${points.length} points, from ${money(points[0].v)} to ${money(points[points.length - 1].v)}` : "No bankroll history yet" });
  if (points.length) {
    const vs = points.map((p) => p.v);
    const lo = Math.min(...vs); const hi = Math.max(...vs);
    const span = hi - lo || 1;
    const x = (i) => pad + (points.length === 1 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (points.length - 1));
    const y = (v) => H - pad + 8 - ((v - lo) / span) * (H - 2 * pad);
    svg.append(s("line", { x1: pad, y1: H - pad + 8, x2: W - pad, y2: H - pad + 8, class: "axis" }));
    svg.append(text(pad - 4, y(hi), shortNum(hi), { class: "axis-text", "text-anchor": "end" }));
    if (hi !== lo) svg.append(text(pad - 4, y(lo), shortNum(lo), { class: "axis-text", "text-anchor": "end" }));
    svg.append(s("polyline", { points: points.map((p, i) => `${x(i)},${y(p.v)}`).join(" "), class: "chart-line" }));
    points.forEach((p, i) => svg.append(s("circle", { cx: x(i), cy: y(p.v), r: 3.5, class: p.voided ? "chart-dot void" : "chart-dot" },
      s("title", {}, `${p.label}: ${money(p.v)}${p.voided ? " (voided)" : ""}`))));
  }
  root.replaceChildren(h("h2", { id: "chart-title" }, "Bankroll at this table"), svg,
    h("p", { class: "muted small" }, "Chips in hand plus wagers on the layout, after each of your last decisions."));
}
const shortNum = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
