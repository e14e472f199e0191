// The header's player search: as one types, up to 10 usernames that start with it
// (GET /players/search.json) become the input's suggestions, bots marked; choosing one,
// or Enter, opens the profile (the form's GET /players/search/ answers with it).

const input = /** @type {HTMLInputElement | null} */ (document.getElementById("player-search"));
const list = /** @type {HTMLDataListElement | null} */ (document.getElementById("player-suggestions"));
const WAIT_MS = 150;
let timer = null;
let asked = "";

async function suggest() {
  const prefix = input.value.trim();
  if (!prefix || prefix === asked) return;
  asked = prefix;
  try {
    const response = await fetch(`/players/search.json?q=${encodeURIComponent(prefix)}`, {
      headers: { Accept: "application/json" },
    });
    if (!response.ok || prefix !== input.value.trim()) return;
    const { players } = await response.json();
    list.replaceChildren(
      ...players.map(({ username, bot }) => {
        const option = new Option(username, username);
        if (bot) option.label = interpolate(gettext("%(name)s (BOT)"), { name: username }, true);
        return option;
      }),
    );
  } catch {
    asked = ""; // offline for a moment: the next keystroke asks again
  }
}

// A suggestion picked from the list fills the input with a whole name: go there at once.
function chosen() {
  const name = input.value.trim();
  return [...list.options].some((option) => option.value === name) ? name : null;
}

if (input && list) {
  input.addEventListener("input", (event) => {
    clearTimeout(timer);
    const { inputType } = /** @type {InputEvent} */ (event);
    if (inputType === undefined || inputType === "insertReplacementText") {
      const name = chosen();
      if (name) {
        window.location.assign(`/players/${encodeURIComponent(name)}/`);
        return;
      }
    }
    timer = setTimeout(suggest, WAIT_MS);
  });
}
