// Keyboard shortcuts for a dealer in a hurry (and a player's chips); listed in the page's help.
const $ = (id) => document.getElementById(id);

// Each shortcut presses the console's own button, so it does exactly what the button does.
export const SHORTCUTS = {
  dealer: [
    ["r", "roll-rng", "Roll the dice (RNG), or at roulette: no more bets and spin (RNG)"],
    ["n", "no-more-bets", "No more bets (roulette); dice in the air (craps)"],
    ["e", "roll-physical", "Enter the physical dice or the number the ball rests in"],
    ["o", "offer-dice", "Offer dice to the shooter, or select the two the shooter picked"],
    ["s", "next-shooter", "Next shooter"],
    ["c", "dice-change", "Call a change of dice"],
  ],
  supervisor: [["v", "void-reason", "Void the last decision: go to the reason"]],
  player: [["1 to 5", "", "Pick the 1, 5, 10, 25 or 100 chip"]],
};
const ALTERNATES = { "roll-rng": ["spin-rng"], "roll-physical": ["spin-physical"], "offer-dice": ["select-dice"] };

const typing = (el) => el && (el.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName));

function toggleHelp(show) {
  const help = $("help");
  help.hidden = show === undefined ? !help.hidden : !show;
  $("help-btn").setAttribute("aria-expanded", String(!help.hidden));
  if (!help.hidden) help.focus();
}

function press(id) {
  for (const candidate of [id, ...(ALTERNATES[id] || [])]) {
    const el = $(candidate);
    if (!el || el.closest("[hidden]")) continue;
    if (el.tagName === "INPUT") el.focus(); else el.click();
    return true;
  }
  return false;
}

export function installShortcuts({ app, pickChip, chips }) {
  $("help-btn").addEventListener("click", () => toggleHelp());
  $("help-close").addEventListener("click", () => toggleHelp(false));
  document.addEventListener("keydown", (e) => {
    // A modal dialog open (Change password) holds the keyboard: its buttons take no shortcut.
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || !app.user || document.querySelector("dialog[open]")) return;
    if (e.key === "?") { e.preventDefault(); toggleHelp(); return; }
    if (e.key === "Escape") { toggleHelp(false); return; }
    if (app.role === "player" && /^[1-5]$/.test(e.key)) { pickChip(chips[Number(e.key) - 1]); return; }
    const found = (SHORTCUTS[app.role] || []).find(([key, id]) => id && key === e.key.toLowerCase());
    if (found && press(found[1])) e.preventDefault();
  });
}
