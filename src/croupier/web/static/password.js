// Change password: the holder of an account chooses their own (POST /auth/me/password). Until
// they do, a password the organiser typed in the console is the organiser's as much as theirs,
// and the two-person rules count the account as the organiser's. On success the server ends
// every session of the account, so the page goes back to the log-in form.
import { ApiError, once } from "./api.js";
import { explain, malformedText } from "./messages.js";

const $ = (id) => document.getElementById(id);

// The server's reason in words: it names the field it refuses ("body.current: not the
// account's password", "body.new: a password has at least 12 characters").
export function passwordRefusal(err) {
  const reason = err && typeof err.reason === "string" ? err.reason : "";
  return /^body\.(current|new): /.test(reason) ? malformedText(reason) : explain(err);
}

// The field a refusal names, to mark it and put the cursor in it (none for a wait or an error).
const FIELDS = { current: "pw-current", new: "pw-new" };
const fieldOf = (err) => FIELDS[(/^body\.(current|new): /.exec((err && err.reason) || "") || [])[1]] || null;

// Wire the dialog of index.html; returns the function that opens it. ``ended(note, username)``:
// the session is over, back to the log-in form with ``note`` said above it.
export function passwordDialog({ api, app, ended }) {
  const dialog = $("password-dialog");
  const form = $("password-form");
  const msg = $("password-msg");
  const fields = ["pw-current", "pw-new", "pw-repeat"].map($);
  const say = (text, bad = null) => {
    msg.textContent = text;
    msg.hidden = !text;
    for (const f of fields) f.toggleAttribute("aria-invalid", f.id === bad);
    if (bad) $(bad).focus();
  };
  const clear = () => { form.reset(); say(""); };
  $("password-cancel").addEventListener("click", () => dialog.close());
  // Esc, Cancel or success: nothing typed stays in the page, and the cursor returns to the header.
  dialog.addEventListener("close", () => { clear(); const b = $("password-btn"); if (b) b.focus(); });
  form.addEventListener("input", () => { if (!msg.hidden) say(""); });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const [current, fresh, repeat] = fields.map((f) => f.value);
    if (fresh !== repeat) {
      say("The two new passwords differ: type the same new password twice.", "pw-repeat");
      return;
    }
    once($("pw-submit"), async () => {
      const username = app.me;
      try {
        // Not money: no Idempotency-Key, as for the log-in and the console's user form.
        await api.call("POST", "/auth/me/password", { current, new: fresh }, { idempotent: false });
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          dialog.close();
          ended("Your session has ended: log in again.", username);
        } else say(passwordRefusal(err), fieldOf(err));
        return;
      }
      dialog.close();
      ended("Password changed: log in again.", username);
    });
  });
  return () => { clear(); $("pw-user").value = app.me || ""; dialog.showModal(); fields[0].focus(); };
}
