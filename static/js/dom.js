// The page's elements by id, typed as the templates make them: the modules' JSDoc types
// (tsc -p .) know an <input> has a `value`. A missing element is null, as from
// document.getElementById: the caller that allows it says so (`?.`).

/** @param {string} id */
export const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {string} id */
export const inputById = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @param {string} id */
export const buttonById = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));

/** @param {string} id */
export const selectById = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));

/** @param {string} id */
export const formById = (id) => /** @type {HTMLFormElement} */ (document.getElementById(id));

/** @param {string} id */
export const svgById = (id) => /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.getElementById(id)));

/** An element that only some pages have: null on the others. @param {string} id */
export const maybeById = (id) => /** @type {HTMLButtonElement | null} */ (document.getElementById(id));
