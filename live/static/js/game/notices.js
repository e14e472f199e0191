// The page's two short-lived messages: the hint under the board, which answers one pick
// and goes when the player acts (a move, a pass, any request but chat) or the position
// changes, or after a while; and the toast, which tells an error.

import { byId } from "../dom.js";

const SHOWN_MS = 4000;

/** @typedef {ReturnType<typeof createNotices>} Notices */

export function createNotices() {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let hintTimer;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let errorTimer;

  function hideHint() {
    clearTimeout(hintTimer);
    byId("board-hint").hidden = true;
  }

  /** @param {string} text */
  function showHint(text) {
    const hint = byId("board-hint");
    hint.textContent = text;
    hint.hidden = false;
    clearTimeout(hintTimer);
    hintTimer = setTimeout(hideHint, SHOWN_MS);
  }

  /** @param {string} text */
  function showError(text) {
    const toast = byId("toast");
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => {
      toast.hidden = true;
    }, SHOWN_MS);
  }

  return { showHint, hideHint, showError };
}
