// Forms that do one thing however often they are sent (a one-time token, accounts.once):
// once sent, the button says it is working and takes no second click. A page brought
// back from the browser's history (bfcache) gets its buttons back.

/** @param {HTMLFormElement} form */
function busy(form) {
  /** @type {HTMLButtonElement | null} */
  const button = form.querySelector('button[type="submit"], button:not([type])');
  if (!button || button.disabled) return;
  button.dataset.idle = button.textContent;
  button.textContent = form.dataset.busy || gettext("Working…");
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
}

/** A fresh one-time token for a form the page builds itself. */
export function formToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// Forms built later (the lobby's joins) are covered too: the listener is the document's.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.querySelector('[name="form_token"]') && !event.defaultPrevented) {
    busy(form);
  }
});

window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('button[aria-busy="true"]'))) {
    button.disabled = false;
    button.removeAttribute("aria-busy");
    if (button.dataset.idle) button.textContent = button.dataset.idle;
  }
});
