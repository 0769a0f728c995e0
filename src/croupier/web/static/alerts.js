// The fairness alerts as records (GET /tables/{id}/alert-records): every alert raised at a
// table, kept in its chain, for the supervisor, the dealer and the organiser; each one
// acknowledged once with a reason, which is recorded too. A reload shows them all again.
import { explain, sentence } from "./messages.js";
import { intent, once } from "./api.js";

const enc = encodeURIComponent;

function row(ctx, table, a, reload) {
  const { h, api } = ctx;
  const id = `${table}-${a.seq}`;
  const text = `${table} #${a.seq}: ${sentence(a.message)}`;
  if (a.acknowledged) {
    return h("li", { class: "alert-done", "data-alert": id }, text,
      h("span", { class: "muted" }, ` Acknowledged by ${a.acknowledged.by}: ${a.acknowledged.reason}`));
  }
  const msg = h("span", { class: "console-msg", role: "status" });
  const reason = h("input", { class: "ack-reason", required: true, minlength: 3, size: 22, "aria-label": `Reason for acknowledging alert ${a.seq}` });
  const form = h("form", { class: "inline ack-form", onsubmit: async (e) => {
    e.preventDefault();
    await once(form.querySelector("button"), async () => {
      try {
        await api.post(`/tables/${enc(table)}/alert-records/${a.seq}/acknowledge`, { reason: reason.value.trim() }, acking.key);
        await reload();
      } catch (err) { msg.className = "console-msg error"; msg.textContent = explain(err); }
    });
  } }, reason, h("button", { type: "submit", class: "ack-btn" }, "Acknowledge"), msg);
  const acking = intent(form);
  return h("li", { class: "alert-open", "data-alert": id }, h("strong", {}, "Open: "), text, form);
}

// A panel listing the alerts of ``tables`` (ids) in ``root``; returns its reload.
export function alertPanel(ctx, root, tables) {
  const { h, api } = ctx;
  const list = h("ul", { class: "alert-records" });
  root.replaceChildren(h("h3", {}, "Fairness alerts"), list);
  const reload = async () => {
    const found = [];
    for (const t of tables()) {
      try { found.push(...(await api.get(`/tables/${enc(t)}/alert-records`)).alerts.map((a) => [t, a])); } catch { /* no such table now */ }
    }
    list.replaceChildren(...(found.length ? found.map(([t, a]) => row(ctx, t, a, reload)) : [h("li", { class: "muted" }, "No alert so far.")]));
  };
  reload();
  return reload;
}
