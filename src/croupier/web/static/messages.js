// What a person reads: every message a sentence, every wager by its name, never raw JSON.
import { ApiError } from "./api.js";

// "the wager needs 5.00" -> "The wager needs 5.00."
export function sentence(text) {
  const t = String(text === null || text === undefined ? "" : text).trim();
  if (!t) return "";
  const first = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?)]$/.test(first) ? first : `${first}.`;
}

const MONEY_FIELDS = new Set(["amount", "stake"]);
const FIELD_NAMES = { reason: "reason", username: "name", password: "password", serial: "serial number",
  set_name: "set name", table_id: "table", serials: "dice", dice: "dice", number: "number", id: "table name",
  capacity: "capacity", profile: "rule profile", game: "game", options: "table options", role: "role",
  current: "current password", new: "new password" };

// A validation message ("body.amount: String should match pattern '^[0-9]...'") in words.
export function malformedText(reason) {
  const m = /^([\w.[\]]+): (.*)$/.exec(String(reason || ""));
  if (!m) return sentence(reason || "the request was not understood");
  const parts = m[1].split(".").filter((p) => p !== "body" && p !== "query" && p !== "path" && !/^\d+$/.test(p));
  const field = parts[parts.length - 1] || "request";
  const name = FIELD_NAMES[field] || field.replaceAll("_", " ");
  const msg = m[2];
  if (/should match pattern/i.test(msg)) {
    if (MONEY_FIELDS.has(field)) return `The ${name} must be dollars and cents, such as 25 or 12.50.`;
    if (field === "username" || field === "id") return `The ${name} must start with a lower-case letter and have 2 to 32 lower-case letters, digits, "-" or "_".`;
    if (field === "serial") return "A serial number has 1 to 32 letters, digits or \"-\".";
    return `The ${name} is not written the way it should be.`;
  }
  let r = /at least (\d+) characters?/i.exec(msg);
  if (r) return `The ${name} needs at least ${r[1]} characters.`;
  r = /at most (\d+) characters?/i.exec(msg);
  if (r) return `The ${name} may have at most ${r[1]} characters.`;
  if (/field required/i.test(msg)) return `The ${name} is missing.`;
  if (/extra inputs are not permitted/i.test(msg)) return `The ${name} is not something this request takes.`;
  r = /input should be (.*)/i.exec(msg);
  if (r) return `The ${name} should be ${r[1].replace(/'/g, "\"")}.`;
  return sentence(`${name}: ${msg.charAt(0).toLowerCase()}${msg.slice(1)}`);
}

// An error from the API, or any other failure, as one sentence with the clause it cites.
export function explain(err) {
  if (err instanceof ApiError || (err && typeof err.reason === "string")) {
    const reason = err.code === "malformed" ? malformedText(err.reason) : sentence(err.reason);
    const text = err.clause ? `${reason.replace(/\.$/, "")} (${err.clause}).` : reason;
    // An internal error names its request, so the staff can find it in the server's log.
    return err.code === "internal" && err.request_id
      ? `${text.replace(/\.$/, "")} (request ${err.request_id}: quote it to the staff).` : text;
  }
  return sentence(err && err.message ? err.message : err);
}

// A money amount typed by a person: dollars and cents, or a sentence saying what is wrong.
export function checkAmount(text, what = "amount") {
  const t = String(text || "").trim().replace(/^\$/, "");
  if (!t) return { error: `Enter the ${what} in dollars, such as 25 or 12.50.` };
  if (!/^[0-9]{1,13}(\.[0-9]{1,2})?$/.test(t)) return { error: `The ${what} "${t}" is not dollars and cents: write it like 25 or 12.50.` };
  if (Number(t) === 0) return { error: `The ${what} must be more than zero.` };
  return { value: t };
}

// Non-empty children only: DOM's append and replaceChildren write null as the text "null".
export const kids = (...nodes) => nodes.flat().filter((n) => n !== null && n !== undefined && n !== false && n !== "");

// The word for one decision: craps decides a roll, roulette a spin.
export const decisionWord = (craps) => (craps ? "Roll" : "Spin");

const SOURCES = {
  os: "the operating system's random number generator",
  "insecure-test-seeded": "a seeded test generator (test mode only, never in production)",
};
export function drawText(draw, outcomeWords) {
  if (!draw) return "";
  const src = String(draw.source || "");
  const who = SOURCES[src] || (src.startsWith("seeded") ? `a seeded test generator (${src.replace("seeded:", "seed ")})` : src || "the random number generator");
  const raw = Array.isArray(draw.raw) ? draw.raw.join(" and ") : String(draw.raw);
  return `Drawn by ${who}: raw value${Array.isArray(draw.raw) && draw.raw.length > 1 ? "s" : ""} ${raw}, giving ${outcomeWords}.`;
}
