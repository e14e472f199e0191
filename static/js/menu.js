// The account's menu in the header: a <details>, which opens and closes by itself with
// a click, Enter or Space. Here: Escape closes it (the focus back on its name), and so
// does a click or the focus going anywhere else.

const menu = document.getElementById("account-menu");

if (menu) {
  const toggle = menu.querySelector("summary");
  const close = () => {
    menu.open = false;
  };
  menu.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menu.open) return;
    close();
    toggle.focus();
  });
  document.addEventListener("click", (event) => {
    if (!menu.contains(event.target)) close();
  });
  menu.addEventListener("focusout", (event) => {
    if (event.relatedTarget && !menu.contains(event.relatedTarget)) close();
  });
}
