// The home page's pools: one click seeks an opponent on the lobby's socket (lobby.js);
// while seeking, "Looking for an opponent… 0:12" with the rating window and Cancel;
// when paired the page moves to the game. The counts of each pool come with every
// `lobby` message. `?seek=again&kind=…` (the game page's "Seek again") seeks at once.

import { listenToLobby, sendToLobby } from "./lobby.js";

/**
 * The custom seek's controls (templates/pairing/pools.html).
 * @typedef {object} SeekControls
 * @property {HTMLSelectElement} seek_kind
 * @property {HTMLSelectElement} seek_size
 * @property {HTMLSelectElement} seek_clock
 * @property {HTMLInputElement} seek_main_minutes
 * @property {HTMLInputElement} seek_main_seconds
 * @property {HTMLInputElement} seek_range_low
 * @property {HTMLInputElement} seek_range_high
 */

const $ = (/** @type {string} */ id) => document.getElementById(id);
const seeks = JSON.parse($("pool-seeks").textContent);
const needs = JSON.parse($("clock-menu").textContent).needs;
const sizes = JSON.parse($("size-menu").textContent);
const picker = $("seek-picker");
const statusBox = $("seek-status");
const statusText = $("seek-text");
const details = $("seek-details");
const errorLine = $("seek-error");
const rated = /** @type {HTMLInputElement | null} */ ($("seek-rated"));
const buttons = [.../** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#pools .pool"))];
const customForm = /** @type {HTMLFormElement & { elements: SeekControls }} */ ($("custom-seek-form"));
const KIND_NAME = { othello: gettext("Othello"), go: pgettext("the game", "Go") };
const WINDOW_BASE = 200;
const WINDOW_PER_SECOND = 20;

let counts = {};
let wanted = null; // the seek sent, kept to send again after a reconnection
let seeking = null; // the server's seek, while seeking

function drawCounts() {
  for (const button of buttons) {
    const key = rated?.checked ? button.dataset.rated : button.dataset.casual;
    const waiting = counts[key] ?? 0;
    button.querySelector("[data-count]").textContent = interpolate(
      ngettext("%(count)s waiting", "%(count)s waiting", waiting),
      { count: waiting },
      true,
    );
  }
}

/** "Go 9×9, 2 min, +5 s per move (Fischer), casual": the server's words for the seek. */
function poolName(seek) {
  const label = seek.label ?? `${KIND_NAME[seek.kind] ?? seek.kind} ${seek.size}×${seek.size}`;
  return interpolate(seek.rated ? gettext("%(pool)s, rated") : gettext("%(pool)s, casual"), { pool: label }, true);
}

function elapsedSeconds() {
  return Math.max(0, (Date.now() - Date.parse(seeking.since)) / 1000);
}

function ratingWindow(seconds) {
  if (seeking.range) return seeking.range;
  const half = WINDOW_BASE + WINDOW_PER_SECOND * seconds;
  return [seeking.rating - half, seeking.rating + half];
}

function drawSeeking() {
  statusBox.hidden = !wanted;
  picker.hidden = Boolean(wanted);
  if (!wanted) return;
  if (!seeking) {
    statusText.textContent = gettext("Looking for an opponent…");
    details.textContent = "";
    return;
  }
  const seconds = elapsedSeconds();
  const whole = Math.floor(seconds);
  const clock = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  statusText.textContent = `${gettext("Looking for an opponent…")} ${clock}`;
  const [low, high] = ratingWindow(whole).map((rating) => Math.max(0, Math.round(rating)));
  const accepted = interpolate(gettext("opponents rated %(low)s-%(high)s"), { low, high }, true);
  details.textContent = `${poolName(seeking)} · ${accepted}`;
}

function showError(message) {
  errorLine.textContent = message;
  errorLine.hidden = !message;
}

function seek(message) {
  showError("");
  wanted = message;
  seeking = null;
  sendToLobby(message); // else sent on (re)connection
  drawSeeking();
}

function cancel() {
  wanted = null;
  seeking = null;
  sendToLobby({ type: "cancel_seek" });
  drawSeeking();
  buttons[0]?.focus();
}

listenToLobby(
  (message) => {
    if (message.type === "lobby") {
      counts = message.seeking ?? {};
      drawCounts();
    } else if (message.type === "seeking") {
      seeking = message.seek;
      wanted = wanted ?? { type: "seek", ...message.seek };
      drawSeeking();
    } else if (message.type === "seek_cancelled") {
      wanted = null;
      seeking = null;
      drawSeeking();
    } else if (message.type === "paired") {
      statusText.textContent = gettext("Opponent found: to the game…");
      location.assign(`/games/${encodeURIComponent(message.game_id)}/`);
    } else if (message.type === "error" && wanted) {
      wanted = null;
      seeking = null;
      drawSeeking();
      showError(message.code === "login_required" ? gettext("Log in to play rated games.") : message.message);
    }
  },
  () => {
    if (wanted) sendToLobby(wanted); // a seek lives with its sockets: seek again
  },
);

for (const button of buttons) {
  button.addEventListener("click", () => {
    seek({ ...seeks[Number(button.dataset.index)], rated: Boolean(rated?.checked) });
  });
}
rated?.addEventListener("change", drawCounts);
$("seek-cancel").addEventListener("click", cancel);
setInterval(() => {
  if (seeking) drawSeeking();
}, 1000);

// The custom seek: any size, clock, rated, rating range.
function fillCustom() {
  const kind = customForm.elements.seek_kind.value;
  const select = customForm.elements.seek_size;
  const current = Number(select.value);
  const { sizes: offered, default: fallback } = sizes[kind];
  const chosen = offered.includes(current) ? current : fallback;
  select.replaceChildren(...offered.map((size) => new Option(`${size}×${size}`, String(size), false, size === chosen)));
  const system = customForm.elements.seek_clock.value;
  for (const field of /** @type {NodeListOf<HTMLElement>} */ (customForm.querySelectorAll("[data-seek-setting]"))) {
    const used = (needs[system] ?? []).includes(field.dataset.seekSetting);
    field.hidden = !used;
    field.querySelector("input").disabled = !used;
  }
}

/** @param {HTMLInputElement} input */
function integer(input) {
  return input.value.trim() === "" ? null : Number(input.value);
}

/** The main time in seconds from its minutes and seconds (null when both are empty). */
/** @param {SeekControls} elements */
function mainTime(elements) {
  const [minutes, seconds] = [integer(elements.seek_main_minutes), integer(elements.seek_main_seconds)];
  if (minutes === null && seconds === null) return null;
  return (minutes ?? 0) * 60 + (seconds ?? 0);
}

customForm.addEventListener("change", fillCustom);
customForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const elements = customForm.elements;
  const message = {
    type: "seek",
    kind: elements.seek_kind.value,
    size: Number(elements.seek_size.value),
    clock: elements.seek_clock.value,
    rated: Boolean(rated?.checked),
    range: null,
  };
  for (const name of needs[message.clock] ?? []) {
    message[name] = name === "main_time" ? mainTime(elements) : integer(elements[`seek_${name}`]);
  }
  const [low, high] = [integer(elements.seek_range_low), integer(elements.seek_range_high)];
  if (low !== null || high !== null) message.range = [low ?? 0, high ?? 4000];
  if (message.range && message.range[0] > message.range[1]) {
    showError(gettext("The opponent's rating: the lowest first, then the highest."));
    elements.seek_range_low.focus();
    return;
  }
  seek(message);
});
fillCustom();

// "Seek again" from a game the pools made: the same pool, at once.
const query = new URLSearchParams(location.search);
if (query.get("seek") === "again") {
  const message = { type: "seek", kind: query.get("kind"), clock: query.get("clock"), range: null };
  message.size = Number(query.get("size"));
  message.rated = query.get("rated") === "1";
  for (const name of needs[message.clock] ?? []) {
    if (query.has(name)) message[name] = Number(query.get(name));
  }
  history.replaceState(null, "", location.pathname);
  seek(message);
}
