// The create form: the size menu follows the kind, Go's options (komi, scoring,
// handicap) show only for Go, the handicap offers what the board size takes and the
// komi follows it (0.5 with a handicap, the usual komi without), the level only against the computer, and the clock is chosen from presets for the kind (or
// "Custom…", which shows the clock fields). The sizes and presets come from the
// server (#size-menu, #clock-menu); the server validates everything again.

/**
 * The create form's controls that this script reads by name (games/forms.py).
 * @typedef {object} NewGameControls
 * @property {RadioNodeList} kind
 * @property {HTMLSelectElement} size
 * @property {HTMLSelectElement} handicap
 * @property {HTMLInputElement} komi
 * @property {HTMLSelectElement} clock
 */
/**
 * A clock's preset (#clock-menu): its system and the settings it needs.
 * @typedef {{ label: string, kind?: string, clock: string } & Record<string, number | string | undefined>} ClockPreset
 */

const form = /** @type {HTMLFormElement & { elements: NewGameControls }} */ (document.getElementById("new-game-form"));
const menu = JSON.parse(document.getElementById("size-menu").textContent);
const clocks = JSON.parse(document.getElementById("clock-menu").textContent);
const presetField = document.getElementById("clock-preset-field");
const presetSelect = /** @type {HTMLSelectElement} */ (document.getElementById("clock-preset"));
/** @type {ClockPreset[]} the presets the menu offers now */
let shownPresets = [];
const custom = document.getElementById("clock-custom");
const CUSTOM = "custom";

function selectedKind() {
  /** @type {HTMLInputElement | null} */
  const checked = form.querySelector('[name="kind"]:checked');
  return checked ? checked.value : form.elements.kind.value;
}

function fillSizes(kind) {
  const select = form.elements.size;
  const current = Number(select.value);
  const { sizes, default: fallback } = menu[kind];
  const chosen = sizes.includes(current) ? current : fallback;
  select.replaceChildren(
    ...sizes.map((size) => new Option(`${size}×${size}`, String(size), false, size === chosen)),
  );
}

// The handicap menu offers what the chosen Go size takes (none on 3x3 and 5x5).
function fillHandicaps() {
  const select = form.elements.handicap;
  const most = menu.go.max_handicap[form.elements.size.value] || 0;
  for (const option of select.options) {
    const stones = Number(option.value);
    option.hidden = option.disabled = stones > most;
  }
  if (Number(select.value) > most) {
    select.value = "0";
    followHandicap();
  }
}

// The komi follows the handicap when it changes between none and some stones.
let hadHandicap = Number(form.elements.handicap.value) > 0;
function followHandicap() {
  const hasHandicap = Number(form.elements.handicap.value) > 0;
  if (hasHandicap !== hadHandicap) {
    form.elements.komi.value = String(hasHandicap ? menu.go.komi.handicap : menu.go.komi.even);
  }
  hadHandicap = hasHandicap;
}

function showKindOptions(kind) {
  for (const field of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll("[data-only-kind]"))) {
    show(field, field.dataset.onlyKind === kind);
  }
}

// A hidden field is not sent, so it can never fail the form.
/** @param {HTMLElement} field @param {boolean} visible */
function show(field, visible) {
  field.hidden = !visible;
  for (const control of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (
    field.querySelectorAll("input, select")
  )) {
    control.disabled = !visible;
  }
}

// The presets of this kind; the one matching the clock fields is selected, else "Custom…".
function fillPresets(kind) {
  const presets = clocks.presets.filter((preset) => !preset.kind || preset.kind === kind);
  const matching = presets.findIndex(matchesFields);
  const options = presets.map((preset, index) => new Option(preset.label, String(index)));
  options.push(new Option(gettext("Custom…"), CUSTOM));
  presetSelect.replaceChildren(...options);
  presetSelect.value = matching >= 0 ? String(matching) : CUSTOM;
  shownPresets = presets;
}

/** @param {ClockPreset} preset */
/** A clock setting's input (`main_time`, `increment`...). @param {string} name */
const setting = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));

function matchesFields(preset) {
  if (preset.clock !== (form.elements.clock.value || "none")) return false;
  const needs = clocks.needs[preset.clock] || [];
  return needs.every((/** @type {string} */ name) => Number(setting(name).value) === preset[name]);
}

function applyPreset() {
  const preset = shownPresets[Number(presetSelect.value)];
  if (preset) {
    form.elements.clock.value = preset.clock;
    for (const name of clocks.needs[preset.clock] || []) setting(name).value = String(preset[name]);
  }
  showClockFields();
}

// The custom fields hide behind a preset, but are still sent: they hold its settings.
function showClockFields() {
  custom.hidden = presetSelect.value !== CUSTOM;
  const needs = clocks.needs[form.elements.clock.value] || [];
  for (const field of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll("[data-clock-setting]"))) {
    show(field, needs.includes(field.dataset.clockSetting));
  }
}

function showOpponentOptions() {
  /** @type {HTMLInputElement | null} */
  const checked = form.querySelector('[name="opponent"]:checked');
  const opponent = checked ? checked.value : "human";
  for (const field of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll("[data-only-opponent]"))) {
    show(field, field.dataset.onlyOpponent === opponent);
  }
}

function update() {
  const kind = selectedKind();
  fillSizes(kind);
  showKindOptions(kind);
  fillHandicaps();
  showOpponentOptions();
  fillPresets(kind);
  showClockFields();
}

for (const input of form.querySelectorAll('[name="kind"]')) {
  input.addEventListener("change", update);
}
for (const input of form.querySelectorAll('[name="opponent"]')) {
  input.addEventListener("change", showOpponentOptions);
}
form.elements.size.addEventListener("change", fillHandicaps);
form.elements.handicap.addEventListener("change", followHandicap);
presetSelect.addEventListener("change", applyPreset);
form.elements.clock.addEventListener("change", showClockFields);
presetField.hidden = false;
update();
