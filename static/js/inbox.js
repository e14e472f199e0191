// The header's challenge inbox (templates/challenges/_inbox.html): the challenges waiting
// for the account's answer, with Accept (the join form: the game opens) and Decline with a
// reason, sent from here so that the page stays where it is. Live: bell.js passes on the
// lobby socket's {"type": "challenges"} as a "challenges" event of the document, and the
// list is read again from GET /challenges.json. Without this script the forms still work
// (Decline comes back to the page, saying so).

import { formToken } from "./forms.js";

const inbox = document.getElementById("inbox");
const KIND_NAME = { othello: gettext("Othello"), go: pgettext("the game", "Go") };

/** The number on the toggle, hidden at 0. */
function showCount(n) {
  const count = document.getElementById("inbox-count");
  count.hidden = n === 0;
  count.firstChild.textContent = String(n);
  inbox.dataset.count = String(n);
  document.getElementById("inbox-empty").hidden = n > 0;
}

const items = () => [...document.getElementById("inbox-list").querySelectorAll(".inbox-item")].map((li) => /** @type {HTMLElement} */ (li));

/** An item for `challenge` (an entry of /challenges.json's `incoming`), from #inbox-item. */
function item(challenge) {
  const template = /** @type {HTMLTemplateElement} */ (document.getElementById("inbox-item"));
  const made = /** @type {HTMLElement} */ (template.content.firstElementChild?.cloneNode(true));
  const game = encodeURIComponent(challenge.game);
  made.dataset.game = challenge.game;
  const from = /** @type {HTMLAnchorElement} */ (made.querySelector(".inbox-from"));
  from.href = `/games/${game}/`;
  from.textContent = challenge.from;
  const what = [`${KIND_NAME[challenge.kind] ?? challenge.kind} ${challenge.size}×${challenge.size}`, challenge.clock_text];
  if (challenge.rated) what.push(gettext("Rated"));
  made.querySelector(".inbox-game").textContent = what.join(" · ");
  const accept = /** @type {HTMLFormElement} */ (made.querySelector(".inbox-accept"));
  accept.action = `/games/${game}/join/`;
  accept.append(Object.assign(document.createElement("input"), { type: "hidden", name: "form_token", value: formToken() }));
  /** @type {HTMLFormElement} */ (made.querySelector(".inbox-decline")).action = `/games/${game}/decline/`;
  /** @type {HTMLInputElement} */ (made.querySelector('[name="next"]')).value = location.pathname + location.search;
  made.querySelector("label").htmlFor = `reason-${challenge.game}`;
  made.querySelector("select").id = `reason-${challenge.game}`;
  return made;
}

/** The list as /challenges.json has it now: an item kept as it is (its reason picked)
 * while its challenge still waits, the new ones added in order, the others gone. */
function draw(incoming) {
  const list = document.getElementById("inbox-list");
  const shown = new Map(items().map((li) => [li.dataset.game, li]));
  list.replaceChildren(...incoming.map((challenge) => shown.get(challenge.game) ?? item(challenge)));
  showCount(incoming.length);
}

let reading = null;
async function read() {
  // One read at a time; a change heard meanwhile reads once more after it.
  if (reading) {
    reading.again = true;
    return;
  }
  reading = { again: false };
  try {
    const response = await fetch("/challenges.json", { headers: { Accept: "application/json" } });
    if (response.ok) draw((await response.json()).incoming);
  } catch {
    // offline: the socket's return reads them again
  } finally {
    const again = reading.again;
    reading = null;
    if (again) read();
  }
}

/** Decline without leaving the page: the item goes, or says why it could not. */
async function decline(form) {
  const li = form.closest(".inbox-item");
  const error = li.querySelector(".inbox-error");
  const button = form.querySelector("button");
  button.disabled = true;
  error.hidden = true;
  try {
    const response = await fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
    });
    if (response.ok) {
      li.remove();
      showCount(items().length);
      return;
    }
    const answer = await response.json().catch(() => ({}));
    error.textContent = answer.message ?? gettext("The challenge could not be declined: try again.");
  } catch {
    error.textContent = gettext("The challenge could not be declined: try again.");
  }
  error.hidden = false;
  button.disabled = false;
}

if (inbox) {
  inbox.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("inbox-decline")) return;
    event.preventDefault();
    decline(form);
  });
  document.addEventListener("challenges", (event) => {
    if (typeof event.detail?.incoming === "number") showCount(event.detail.incoming);
    read();
  });
}
