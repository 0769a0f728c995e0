// The "Rules" panel: the rules of the game posted at the open table (GET /tables/{id}/rules),
// its notices first (each citing the clause that requires it), the rest folded away.
import { explain } from "./messages.js";

const $ = (id) => document.getElementById(id);

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
  // The rest (limits, odds, commission, whatever the game's rules add) as the server titles it.
  const more = [
    ...section(h, "Wagers and what they pay", h("ul", { class: "wagers" }, doc.wagers.map((w) => wagerLine(h, w)))),
    ...doc.sections.flatMap((part) => section(h, part.title, h("ul", {}, part.lines.map((line) => h("li", {}, line))))),
  ];
  root.replaceChildren(
    h("h2", { id: "rules-title" }, "Rules of the game"),
    h("p", { class: "small muted" }, `${doc.game} under ${doc.profile} (${doc.title})`),
    h("h3", {}, "Notices"), notices,
    h("details", { id: "rules-more" }, h("summary", {}, "Wagers, pay table, limits and options"), ...more));
  root.hidden = false;
}
