// The page's socket to /ws/games/<id>/ (docs/api/websocket.md, "The game"): what it
// sends, and what each message from the server does to the page's state.

import { connectToGame } from "../connection.js";
import { byId } from "../dom.js";
import { otherColor, seatName } from "./state.js";

/** @typedef {import("../types.js").G} G */
/** @typedef {import("../types.js").Move} Move */
/** @typedef {import("../types.js").ChatLine} ChatLine */
/** @typedef {import("../types.js").GameClientMessage} GameClientMessage */
/** @typedef {import("../types.js").GameServerMessage} GameServerMessage */
/** @typedef {import("./state.js").PageState} PageState */
/** @typedef {import("./notices.js").Notices} Notices */

/**
 * What the page does with the server's news.
 * @typedef {object} Handlers
 * @property {(next: G, move: Move | null) => void} update a new G (with its move, for `moved`)
 * @property {(said: ChatLine) => void} addChat
 * @property {() => void} beep
 * @property {() => void} noteUnseen
 */

/** @typedef {ReturnType<typeof createSocket>} Socket */

/**
 * @param {PageState} state
 * @param {Notices} notices
 */
export function createSocket(state, notices) {
  /** @type {ReturnType<typeof connectToGame> | null} */
  let connection = null;

  /** Send `message`; false, and the toast says so, while not connected.
   * @param {GameClientMessage} message */
  function send(message) {
    if (!["sync", "chat"].includes(message.type)) notices.hideHint();
    if (connection?.send(message)) return true;
    notices.showError(gettext("Not connected: reconnecting…"));
    return false;
  }

  /** @param {Handlers} page @param {GameServerMessage} message */
  function receive(page, message) {
    const { game } = state;
    if (message.type === "state") {
      const declined = game.undo && !message.game.undo && message.game.ply === game.ply;
      if (declined && game.undo) {
        const decliner = otherColor(game.undo);
        state.tableNote =
          decliner === game.you
            ? gettext("You declined to take the move back.")
            : interpolate(gettext("%(name)s declined to take the move back."), { name: seatName(state, decliner) }, true);
        state.declinedAt = game.ply; // asked again only after the next move
      }
      page.update(message.game, null);
    } else if (message.type === "undone") {
      const asker = game.undo ?? (game.computer ? otherColor(game.computer) : null);
      const withReply = game.computer && game.ply - message.game.ply > 1;
      if (withReply && asker === game.you) {
        state.tableNote = gettext("Your last move and the computer's reply were taken back.");
      } else if (!asker) state.tableNote = gettext("The last move was taken back.");
      else if (asker === game.you) state.tableNote = gettext("Your last move was taken back.");
      else {
        state.tableNote = interpolate(
          gettext("%(name)s's last move was taken back."),
          { name: seatName(state, asker) },
          true,
        );
      }
      page.update(message.game, null);
    } else if (message.type === "moved") {
      if (message.move.color !== game.you && message.move.ply > game.ply) {
        if (game.you) page.beep();
        page.noteUnseen();
      }
      if (message.move.ply > game.ply) state.tableNote = "";
      page.update(message.game, message.move);
    } else if (message.type === "chat") {
      page.addChat(message.message);
      page.noteUnseen();
    } else if (message.type === "chat_history") {
      byId("chat-list").replaceChildren();
      for (const said of message.messages) page.addChat(said);
    } else if (message.type === "rematch") {
      location.assign(`/games/${encodeURIComponent(message.game_id)}/`);
    } else if (message.type === "error") {
      // A stale ply means this page is behind (or a click came twice): catch up quietly.
      if (message.code === "stale") send({ type: "sync" });
      else notices.showError(message.message || message.code);
    }
  }

  /** Open the socket; every message from then on goes to `page`. @param {Handlers} page */
  function connect(page) {
    connection = connectToGame(state.game.id, {
      indicator: byId("connection"),
      onMessage: (/** @type {GameServerMessage} */ message) => receive(page, message),
    });
  }

  return { send, connect };
}
