// The create form of a tournament: only the fields that apply are shown (the clock's
// settings its system needs; an arena's duration; a Swiss's or a McMahon's rounds; a
// McMahon's bar), the size menu offers the chosen game's sizes (Othello's even, Go's
// odd), and the start is a date-time picker in the browser's time zone (its IANA name
// sent as `timezone`; first ten minutes from now), or "Start now" (a minute after the
// form is sent), which sets the picker aside. Hidden fields are still sent: the server
// ignores what does not apply.

/**
 * The form's controls that this script reads by name (tournaments/forms.py).
 * @typedef {object} TournamentControls
 * @property {HTMLSelectElement} system
 * @property {HTMLSelectElement} kind
 * @property {HTMLSelectElement} size
 * @property {HTMLSelectElement} clock
 * @property {HTMLInputElement} starts_at
 * @property {HTMLInputElement} start_now
 * @property {HTMLInputElement} timezone
 */

const form = /** @type {(HTMLFormElement & { elements: TournamentControls }) | null} */ (
  document.getElementById("new-tournament-form")
);
const needsData = document.getElementById("tournament-clock-needs");
const sizesData = document.getElementById("tournament-size-menu");
const SETTINGS = ["main_time", "increment", "periods", "period_time", "stones", "days"];
const BY_SYSTEM = {
  duration: ["arena"],
  rounds: ["swiss", "mcmahon"],
  bar: ["mcmahon"],
};
const FIRST_START_MINUTES = 10;

/** @param {string} name @returns {HTMLElement | null} */
function row(name) {
  return form.querySelector(`[data-field="${name}"]`);
}

function refresh() {
  const needs = JSON.parse(needsData.textContent);
  const clock = form.elements.clock.value;
  const system = form.elements.system.value;
  for (const name of SETTINGS) {
    const shown = (needs[clock] || []).includes(name);
    const field = row(name);
    if (field) field.hidden = !shown && !field.querySelector(".errorlist");
  }
  for (const [name, systems] of Object.entries(BY_SYSTEM)) {
    const field = row(name);
    if (field) field.hidden = !systems.includes(system) && !field.querySelector(".errorlist");
  }
}

/** The size menu: the chosen game's sizes only, the choice kept where it fits. */
function fillSizes() {
  const menu = JSON.parse(sizesData.textContent)[form.elements.kind.value];
  if (!menu) return;
  const select = form.elements.size;
  const current = Number(select.value);
  const chosen = menu.sizes.includes(current) ? current : menu.default;
  select.replaceChildren(
    ...menu.sizes.map((size) => new Option(`${size}×${size}`, String(size), false, size === chosen)),
  );
}

/** "2026-11-28T18:40": a picker's value, in the browser's time zone. */
/** @param {Date} moment */
function pickerValue(moment) {
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return (
    `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}` +
    `T${pad(moment.getHours())}:${pad(moment.getMinutes())}`
  );
}

function setUpStart() {
  const picker = form.elements.starts_at;
  const now = form.elements.start_now;
  form.elements.timezone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  picker.min = pickerValue(new Date());
  if (!picker.value) {
    const soon = new Date(Date.now() + FIRST_START_MINUTES * 60_000);
    soon.setSeconds(0, 0);
    picker.value = pickerValue(soon);
  }
  const follow = () => {
    picker.disabled = now.checked;
    row("starts_at").classList.toggle("set-aside", now.checked);
  };
  now.addEventListener("change", follow);
  follow();
}

if (form && needsData) {
  form.elements.clock.addEventListener("change", refresh);
  form.elements.system.addEventListener("change", refresh);
  form.elements.kind.addEventListener("change", fillSizes);
  fillSizes();
  refresh();
  setUpStart();
}
