// The create form: the size menu follows the kind, and Go's options (komi,
// scoring) show only for Go. The sizes come from the server (#size-menu);
// the server validates everything again.

const form = document.getElementById("new-game-form");
const menu = JSON.parse(document.getElementById("size-menu").textContent);

function selectedKind() {
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

function showKindOptions(kind) {
  for (const field of form.querySelectorAll("[data-only-kind]")) {
    field.hidden = field.dataset.onlyKind !== kind;
    // A hidden option is not sent, so it can never fail the other kind's form.
    for (const control of field.querySelectorAll("input, select")) control.disabled = field.hidden;
  }
}

function update() {
  const kind = selectedKind();
  fillSizes(kind);
  showKindOptions(kind);
}

for (const input of form.querySelectorAll('[name="kind"]')) {
  input.addEventListener("change", update);
}
update();
