// What the table offers, as the server says it (GET /web/offer): each wager offered by id
// (`defs`: its name, when it may be made and removed, the odds behind it, where it is drawn)
// and every spot a wager may take on the layout (`spots`: what the page sends to make it, its
// name, pays and art). The page draws the felt and the moves from these alone: a wager the
// server adds appears with nothing changed here.

// A key the offer does not list (a wager on the layout the table no longer offers): what can
// be said of it from the key itself.
function unlisted(offer, key) {
  const [wager, q] = String(key).split(":");
  const def = (offer && offer.defs && offer.defs[wager]) || null;
  const name = def ? def.name : wager.replaceAll("_", " ");
  const pays = offer && offer.pays && offer.pays[key] !== undefined ? [key] : [wager];
  return { wager, spec: { wager }, name: q === undefined ? name : `${name} ${q}`, pays, covers: [] };
}

// The spot ``key`` names ("place_win:6", "come:9", "split:17-20", "red").
export function spotOf(offer, key) {
  return (offer && offer.spots && offer.spots[key]) || unlisted(offer, key);
}

// The definition of the wager a key belongs to (null for one the table does not offer).
export function defOf(offer, key) {
  return (offer && offer.defs && offer.defs[spotOf(offer, key).wager]) || null;
}

// Every wager offered that is drawn in ``area``, in the order of the definitions.
export function inArea(offer, area) {
  return Object.values(offer.defs || {}).filter((d) => d.felt.area === area);
}

// A wager by its name as the decision and recall read it: "Place to win 6", "Split 17-20".
export const nameOf = (offer, key) => spotOf(offer, key).name;

// Its name with what it pays, where it is paid at one entry: "Place to win 6, pays 7 to 6".
export function describe(offer, key) {
  const spot = spotOf(offer, key);
  return spot.pay ? `${spot.name}, pays ${spot.pay}` : spot.name;
}

// The spot's SVG group: a button named for the wager, activated by a click, Enter or Space.
export function spotElement(s, offer, key, shape, art, activate) {
  const spot = spotOf(offer, key);
  const name = describe(offer, key);
  const g = s("g", { class: `spot spot-${spot.wager}`, role: "button", tabindex: 0, "aria-label": name, "data-spot": key });
  g.append(shape, ...art.filter(Boolean), s("title", {}, name));
  g.addEventListener("click", activate);
  g.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(); }
  });
  return { g, spot, name };
}
