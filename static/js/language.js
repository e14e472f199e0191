// The language menus (header, footer): choosing a language changes it at once; the
// "Change" button is for a browser without this script.

for (const select of document.querySelectorAll(".language-menu [data-autosubmit]")) {
  const form = select.form;
  form.querySelector(".language-go").hidden = true;
  select.addEventListener("change", () => form.requestSubmit());
}
