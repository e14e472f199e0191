// The create form of a tournament: only the fields that apply are shown (the clock's
// settings its system needs; an arena's duration; a Swiss's or a McMahon's rounds; a
// McMahon's bar). Hidden fields are still sent: the server ignores what does not apply.

const form = document.getElementById("new-tournament-form");
const needsData = document.getElementById("tournament-clock-needs");
const SETTINGS = ["main_time", "increment", "periods", "period_time", "stones", "days"];
const BY_SYSTEM = {
  duration: ["arena"],
  rounds: ["swiss", "mcmahon"],
  bar: ["mcmahon"],
};

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

if (form && needsData) {
  form.elements.clock.addEventListener("change", refresh);
  form.elements.system.addEventListener("change", refresh);
  refresh();
}
