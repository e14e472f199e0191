// The game page: a websocket to /ws/games/<id>/, the board and the side panel. Every
// change on screen comes from a server message; a click only sends. This module owns
// the page's one state (state.js) and wires the parts that read it: the board
// (board.js), the socket (socket.js), the panel (panel.js), the table around the board
// (table.js) and Go's count (count.js).

import { createClocks } from "../clock.js";
import { byId } from "../dom.js";
import { createBoardView } from "./board.js";
import { createCount } from "./count.js";
import { createNotices } from "./notices.js";
import { createPanel } from "./panel.js";
import { createSocket } from "./socket.js";
import { createState, receiveGame } from "./state.js";
import { createTable } from "./table.js";

/** @typedef {import("../types.js").G} G */
/** @typedef {import("../types.js").Move} Move */

const page = byId("game");
const state = createState(JSON.parse(byId("game-state").textContent ?? "null"), {
  computerName: page.dataset.computerName || null,
  viewer: page.dataset.viewer ?? "",
});
const notices = createNotices();
const socket = createSocket(state, notices);
const { send } = socket;
const clocks = createClocks(page);
const board = createBoardView(state, { page, notices, send });
const panel = createPanel(state, page);
const table = createTable(state, { send });
const count = createCount(state, { send });

/** A control the keyboard was on that this change hid or disabled (Take back once asked,
 * Pass once passed, Rematch once offered): the focus goes to the status line, which says
 * what happened, instead of being lost to the page. @param {Element | null} control */
function keepFocus(control) {
  if (!(control instanceof HTMLElement) || control === byId("board") || !page.contains(control)) return;
  const disabled = "disabled" in control && control.disabled;
  if (disabled || control.getClientRects().length === 0) byId("status").focus();
}

function drawPanel() {
  const focused = document.activeElement;
  panel.drawStatus();
  count.draw();
  table.draw();
  panel.drawClaim();
  panel.drawFirstMove();
  clocks.show(state.game);
  panel.drawTitle();
  board.drawConfirmMovesMenu();
  keepFocus(focused);
}

/** A G from the server (with its move, for `moved`): the page drawn anew.
 * @param {G} next @param {Move | null} move */
function update(next, move) {
  const changed = receiveGame(state, next, move);
  if (!changed) return;
  if (changed.missed) send({ type: "sync" }); // one was missed
  if (changed.turned) notices.hideHint();
  board.render(changed.fresh);
  drawPanel();
  board.drawConfirm();
  board.playPremove();
}

board.render();
drawPanel();
socket.connect({ update, addChat: table.addChat, beep: table.beep, noteUnseen: panel.noteUnseen });
