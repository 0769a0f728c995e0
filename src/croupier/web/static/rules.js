// The "Rules" panel: the rules of the game posted at the open table (GET /tables/{id}/rules),
// its notices first (each citing the clause that requires it), the rest folded away.
import { explain } from "./messages.js";

const $ = (id) => document.getElementById(id);

const pairs = (h, items) => h("ul", {}, items.map((p) => h("li", {}, `${p.name}: ${p.value}`)));

function wagerLine(h, w) {
  const pays = w.pays.map((p) => (p.on ? `${p.on}: ${p.odds}` : p.odds)).join("; ");
  return h("li", { "data-wager": w.id }, h("strong", {}, w.name), ` ${pays} `, h("span", { class: "clause" }, `(${w.clause})`));
}

function section(h, title, body) {
  return [h("h3", {}, title), body];
}

export async function renderRules(ctx) {
  const { app, api, h } = ctx;
  const root = $("rules-panel");
  if (!root) return;
  let doc;
  try {
    doc = await api.get(`/tables/${encodeURIComponent(app.tableId)}/rules`);
  } catch (err) {
    root.replaceChildren(h("h2", { id: "rules-title" }, "Rules of the game"), h("p", { class: "error" }, explain(err)));
    root.hidden = false;
    return;
  }
  const notices = h("ul", { class: "notices", id: "rules-notices" }, doc.notices.map((n) =>
    h("li", { class: "notice", "data-clause": n.clause }, n.text, " ", h("span", { class: "clause" }, `(${n.clause})`))));
  const more = [
    ...section(h, "Wagers and what they pay", h("ul", { class: "wagers" }, doc.wagers.map((w) => wagerLine(h, w)))),
    ...section(h, "Limits", pairs(h, doc.limits)),
  ];
  if (doc.odds_multiples.length) more.push(...section(h, "Free odds", pairs(h, doc.odds_multiples)));
  if (doc.commission.length) more.push(...section(h, "Commission", pairs(h, doc.commission)));
  if (doc.fire.length) more.push(...section(h, "Fire bet pay table", pairs(h, doc.fire)));
  if (doc.six_seven_eight) more.push(...section(h, "6-7-8", h("p", {}, `The 6-7-8 wager is ${doc.six_seven_eight} at this table.`)));
  if (doc.zero_rule) more.push(...section(h, "Zero rule", h("p", { id: "rules-zero" }, doc.zero_rule)));
  root.replaceChildren(
    h("h2", { id: "rules-title" }, "Rules of the game"),
    h("p", { class: "small muted" }, `${doc.game} under ${doc.profile} (${doc.title})`),
    h("h3", {}, "Notices"), notices,
    h("details", { id: "rules-more" }, h("summary", {}, "Wagers, pay table, limits and options"), ...more));
  root.hidden = false;
}
