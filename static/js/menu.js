// The header's menus (<details class="header-menu">: the site's pages, the account's),
// which open and close by themselves with a click, Enter or Space. Here: Escape closes
// one (the focus back on its toggle), and so does a click or the focus going anywhere
// else. The site's pages are a menu only on a narrow screen (900 px, a phone upright or
// held sideways: the toggle shows there); on a wide screen they stay open, inline.

const narrow = window.matchMedia("(max-width: 900px)"); // as static/css/base.css
const pages = /** @type {HTMLDetailsElement | null} */ (document.getElementById("nav-menu"));

for (const menu of /** @type {NodeListOf<HTMLDetailsElement>} */ (document.querySelectorAll("details.header-menu"))) {
  const toggle = /** @type {HTMLElement} */ (menu.querySelector("summary"));
  const inline = () => menu === pages && !narrow.matches;
  const close = () => {
    if (!inline()) menu.open = false;
  };
  menu.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menu.open || inline()) return;
    close();
    toggle.focus();
  });
  document.addEventListener("click", (event) => {
    if (!menu.contains(/** @type {Node} */ (event.target))) close();
  });
  menu.addEventListener("focusout", (event) => {
    if (event.relatedTarget instanceof Node && !menu.contains(event.relatedTarget)) close();
  });
}

if (pages) {
  // Open inline on a wide screen, closed behind "Menu" on a phone, as the width changes.
  const fit = () => {
    pages.open = !narrow.matches;
  };
  fit();
  narrow.addEventListener("change", fit);
}
