// The HTTP API and the table's WebSocket stream, with the bearer token kept per browser tab.
const KEY = "croupier.token";

// A key no one else can guess or repeat. randomUUID exists only in a secure context (HTTPS or
// localhost); over plain HTTP the key was the clock and Math.random, which another page can
// predict. getRandomValues is the same generator and exists in every context.
export function newKey() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `k-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

// One Idempotency-Key per intent: made when a form is opened, made anew whenever it is edited,
// and sent by every submit in between (a double click, a retry after a lost answer), so the
// server moves the money once however often the same intent is sent; the repeat gets the first
// answer back. ``form``: the form whose edits make a new intent (none: renew() by hand).
export function intent(form = null) {
  const it = { key: newKey(), renew() { it.key = newKey(); } };
  if (form) { form.addEventListener("input", it.renew); form.addEventListener("change", it.renew); }
  return it;
}

// Run ``fn`` with ``button`` disabled until its answer is in: the request is sent once per
// press, and the intent's key covers whatever is pressed again (another tab, a retry).
export async function once(button, fn) {
  if (button && button.dataset.busy) return null;
  if (button) { button.dataset.busy = "1"; button.setAttribute("aria-busy", "true"); }
  try { return await fn(); } finally {
    if (button) { delete button.dataset.busy; button.removeAttribute("aria-busy"); }
  }
}

export class ApiError extends Error {
  constructor(status, error) {
    super(error.reason || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || "error";
    this.reason = error.reason || `HTTP ${status}`;
    this.clause = error.clause || "";
    this.request_id = error.request_id || ""; // the server's access log names it too
  }
}

export const api = {
  token: sessionStorage.getItem(KEY),

  setToken(token) {
    this.token = token;
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
  },

  // GET/POST returning the JSON body; a refusal or error throws ApiError (with its clause).
  // ``key``: the intent's Idempotency-Key (intent()); otherwise one made for this call alone.
  async call(method, path, body, { idempotent = true, key = null } = {}) {
    const headers = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method !== "GET" && idempotent) headers["Idempotency-Key"] = key || newKey();
    let response;
    try {
      response = await fetch(path, { method, headers,
        body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      throw new ApiError(0, { code: "network", reason: "the server cannot be reached" });
    }
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    if (!response.ok) {
      throw new ApiError(response.status, (data && data.error) || { reason: `HTTP ${response.status}` });
    }
    return data;
  },

  get(path) { return this.call("GET", path); },
  post(path, body = {}, key = null) { return this.call("POST", path, body, { key }); },

  async login(username, password) {
    const data = await this.call("POST", "/auth/login", { username, password }, { idempotent: false });
    this.setToken(data.token);
    return data;
  },

  // The tab forgets the token at once, before the server answers: on a slow network the log-in
  // form showed while the tab still held it, and a reload then logged straight back in. The
  // request is kept alive past a reload or a closed tab, so the server still ends the session.
  async logout() {
    const token = this.token;
    this.setToken(null);
    if (!token) return;
    try {
      await fetch("/auth/logout", { method: "POST", keepalive: true,
        headers: { Accept: "application/json", Authorization: `Bearer ${token}` } });
    } catch { /* out of reach: the token ends at its expiry, or when the password changes */ }
  },

  // The table's events as they are committed; reconnects until closed. ``onEnded``: the
  // server has ended the session (locked, deleted, another role, logged out elsewhere).
  stream(tableId, since, onEvent, onStatus, onEnded = () => {}) {
    let socket = null;
    let closed = false;
    let last = since;
    let delay = 500;
    const open = () => {
      if (closed) return;
      const proto = location.protocol === "https:" ? "wss" : "ws";
      const url = `${proto}://${location.host}/tables/${encodeURIComponent(tableId)}/stream`;
      socket = new WebSocket(url);
      // The token goes in the first message, never in the URL (which logs and proxies keep).
      socket.onopen = () => {
        socket.send(JSON.stringify({ token: this.token || "", since: last, mark: true }));
        delay = 500;
        onStatus(true);
      };
      socket.onmessage = (msg) => {
        const event = JSON.parse(msg.data);
        if (typeof event.seq === "number") last = Math.max(last, event.seq);
        // The replay reads at most 1000 events: where it ended is where the next one starts.
        if (event.type === "replayed" && typeof event.through === "number") last = Math.max(last, event.through);
        onEvent(event);
      };
      socket.onclose = (ev) => {
        onStatus(false);
        if (!closed && ev.code === 4401) onEnded();
        if (closed || ev.code === 4401 || ev.code === 4404 || ev.code === 4422) return;
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 8000);
      };
    };
    open();
    return {
      close() { closed = true; if (socket) socket.close(); },
      // Ask for the events after the last one received (the replay's next part) on a new
      // socket at once; nothing is missed between the two, and what comes twice has its seq.
      more() {
        if (closed || !socket) return;
        const old = socket;
        old.onclose = () => {};
        old.close();
        onStatus(false);
        open();
      },
    };
  },
};
