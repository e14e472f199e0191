// The language menus (header, footer): choosing a language changes it at once; the
// "Change" button is for a browser without this script, and goes when it runs.

const menus = /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll(".language-menu [data-autosubmit]"));
for (const select of menus) {
  const form = /** @type {HTMLFormElement} */ (select.form);
  form.querySelector(".language-go").remove(); // not a hidden first submit button of the page
  select.addEventListener("change", () => form.requestSubmit());
}
