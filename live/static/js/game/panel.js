// The side panel's picture of the game: the status line, the seats (names, scores,
// presence, ratings), the first move's countdown, a claim on a game the opponent left,
// the move list and the tab's title.

import { byId, buttonById } from "../dom.js";
import { COLOR_NAME, createMoveList, resultText } from "../record.js";
import { counted, otherColor, opponentName, playerName, seatName, sideName, won, yourTurn } from "./state.js";

/** @typedef {import("../types.js").Color} Color */
/** @typedef {import("./state.js").PageState} PageState */
/** @typedef {ReturnType<typeof createPanel>} Panel */

const KIND_NAME = { othello: gettext("Othello"), go: pgettext("the game", "Go") };

/** "0:23": whole seconds left, rounded up. @param {number} ms */
function countdown(ms) {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// The panel's texts, from the state alone.

/** @param {PageState} state */
function statusText(state) {
  const { game, viewer } = state;
  const other = game.you === "black" ? "white" : "black";
  switch (game.status) {
    case "waiting":
      if (game.challenge?.bot) {
        return interpolate(gettext("Waiting for %(bot)s (BOT) to accept the challenge…"), { bot: game.challenge.bot }, true);
      }
      if (game.challenge && game.challenge.to === viewer) {
        const from = game.players.black ?? game.players.white;
        return interpolate(gettext("%(name)s challenges you: accept or decline below."), { name: from }, true);
      }
      if (game.challenge) {
        return interpolate(gettext("Waiting for %(name)s to accept the challenge…"), { name: game.challenge.to }, true);
      }
      return game.you ? gettext("Waiting for an opponent to join.") : gettext("Waiting for a second player.");
    case "active":
      if (yourTurn(state)) return gettext("Your move.");
      if (game.computer && game.computer === game.to_move) {
        return interpolate(gettext("%(name)s is thinking…"), { name: playerName(state, game.to_move) }, true);
      }
      if (game.you) {
        return interpolate(gettext("Waiting for %(name)s…"), { name: playerName(state, other) ?? COLOR_NAME[other] }, true);
      }
      return game.to_move ? interpolate(gettext("%(side)s to move."), { side: sideName(state, game.to_move) }, true) : "";
    case "scoring":
      if (game.you) return gettext("Play has ended: mark the dead stones, then accept.");
      return gettext("Play has ended: the players are marking the dead stones.");
    case "finished":
      return resultText(game.result, game.kind);
    case "aborted":
      return game.challenge?.message ?? abortedText(state);
    default:
      return "";
  }
}

/** Why the game was aborted (G's `aborted`): "Aborted: Bob (Black) did not make a first move."
 * @param {PageState} state */
function abortedText(state) {
  const why = state.game.aborted;
  switch (why?.reason) {
    case "first_move":
      return interpolate(gettext("Aborted: %(side)s did not make a first move."), { side: sideName(state, why.color) }, true);
    case "left":
      return interpolate(gettext("Aborted: %(side)s left without making a move."), { side: sideName(state, why.color) }, true);
    case "called_off":
      return interpolate(
        gettext("Aborted: %(side)s called the game off before anyone joined."),
        { side: sideName(state, why.color) },
        true,
      );
    default:
      return gettext("This game was aborted.");
  }
}

/** "You won." / "You lost." for the two players of a finished game. @param {PageState} state */
function outcomeText(state) {
  const { game } = state;
  if (game.status !== "finished" || !game.you || !game.result || game.result === "Draw") return "";
  return won(state, game.you) ? gettext("You won.") : gettext("You lost.");
}

/** @param {PageState} state */
function noticeText(state) {
  const { game } = state;
  if (state.withdrawn) return gettext("The marking changed: both acceptances were withdrawn.");
  if (state.tableNote && game.status === "active") return state.tableNote;
  const last = game.last_move;
  if (game.status !== "active" || !last || last.action !== "pass") return "";
  if (last.color === game.you) {
    return game.kind === "othello" ? gettext("You have no move and pass.") : gettext("You pass.");
  }
  const who = { name: seatName(state, last.color) };
  return game.kind === "othello"
    ? interpolate(gettext("%(name)s has no move and passes."), who, true)
    : interpolate(gettext("%(name)s passes."), who, true);
}

/** @param {PageState} state @param {Color} color */
function scoreText(state, color) {
  const { game } = state;
  if (game.kind === "othello") return `${game.score?.[color] ?? 0}`;
  if ((game.status === "finished" || counted(state)) && game.score) return `${game.score[color]}`;
  const captured = game.prisoners?.[color] ?? 0;
  const komi = color === "white" && game.komi ? ` + ${game.komi}` : "";
  return `${captured}${komi}`;
}

/** @param {PageState} state @param {Color} color */
function scoreCaption(state, color) {
  const { game } = state;
  if (game.kind === "othello") return ngettext("disc", "discs", Number(game.score?.[color] ?? 0));
  if (game.status === "finished" || counted(state)) return ngettext("point", "points", Number(game.score?.[color]));
  if (color === "white" && game.komi) return gettext("captures + komi");
  return ngettext("capture", "captures", Number(game.prisoners?.[color] ?? 0));
}

/** Whose move it is, first in the tab's title. @param {PageState} state */
function titlePrefix(state) {
  const { game } = state;
  if (yourTurn(state)) return `● ${gettext("Your move")} · `;
  if (game.status !== "active" || !game.to_move) return "";
  const side = { side: playerName(state, game.to_move) ?? COLOR_NAME[game.to_move] };
  return `${interpolate(gettext("%(side)s to move"), side, true)} · `;
}

/**
 * @param {PageState} state
 * @param {HTMLElement} page the #game element
 */
export function createPanel(state, page) {
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let firstMoveTimer;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let claimTimer;
  const moveList = createMoveList(byId("move-list"), byId("no-moves"), () => document.createElement("span"));

  function drawPlayers() {
    const { game } = state;
    for (const row of page.querySelectorAll(".player")) {
      const color = /** @type {Color} */ (/** @type {HTMLElement} */ (row).dataset.color);
      const bot = game.bots?.[color] ? " · BOT" : "";
      const name = /** @type {HTMLElement} */ (row.querySelector(".player-name"));
      name.textContent = (playerName(state, color) ?? gettext("waiting…")) + bot;
      row.classList.toggle("empty-seat", !playerName(state, color));
      row.classList.toggle("to-move", game.status === "active" && game.to_move === color);
      row.classList.toggle("winner", won(state, color));
      const tags = /** @type {HTMLElement} */ (row.querySelector(".player-tags"));
      tags.textContent = game.imported
        ? gettext("imported")
        : game.you === color
          ? gettext("you")
          : game.computer === color
            ? gettext("computer")
            : "";
      const score = /** @type {HTMLElement} */ (row.querySelector(".player-score"));
      score.textContent = scoreText(state, color);
      score.dataset.caption = scoreCaption(state, color);
      drawPresence(row, color);
      drawRating(row, color);
    }
  }

  /** A seat taken by an account after the page was drawn: its name becomes the link to
   * the profile, as the server draws it. @param {Element} row @param {string} username */
  function linkToProfile(row, username) {
    const name = /** @type {HTMLElement} */ (row.querySelector(".player-name"));
    if (name.tagName === "A") return;
    const link = Object.assign(document.createElement("a"), {
      className: "player-name",
      href: `/players/${encodeURIComponent(username)}/`,
      textContent: name.textContent,
    });
    name.replaceWith(link);
  }

  /** A rated game's seat: the rating before the game, then once it ends the new rating and
   * the change ("1512 +12"); "?" marks a provisional rating, a link to the ratings' help
   * with its title (the page's #provisional-mark holds it). @param {Element} row @param {Color} color */
  function drawRating(row, color) {
    const rating = /** @type {HTMLElement} */ (row.querySelector(".player-rating"));
    const seat = state.game.ratings?.[color];
    rating.hidden = !seat;
    if (!seat) return;
    linkToProfile(row, seat.username);
    const change = seat.change;
    rating.replaceChildren(String(Math.round(change !== null ? seat.rating + change : seat.rating)));
    if (seat.provisional) {
      rating.append(/** @type {HTMLTemplateElement} */ (byId("provisional-mark")).content.cloneNode(true));
    }
    if (change === null) return;
    const rounded = Math.round(change);
    rating.append(` ${rounded < 0 ? "-" : "+"}${Math.abs(rounded)}`);
    rating.dataset.change = rounded < 0 ? "down" : "up";
  }

  /** A seat's dot: green while one of its sockets is open, grey while away.
   * @param {Element} row @param {Color} color */
  function drawPresence(row, color) {
    const { game } = state;
    const presence = /** @type {HTMLElement} */ (row.querySelector(".presence"));
    const seated = Boolean(playerName(state, color));
    // This page's own seat is online while the page is connected (a presence state from
    // another process may arrive after this page's own, telling of the moment before).
    const connected = byId("connection").dataset.state === "connected";
    const online = Boolean(game.online?.[color]) || (color === game.you && connected);
    presence.hidden = !seated;
    row.classList.toggle("online", seated && online);
    row.classList.toggle("away", seated && !online);
    const name = { name: playerName(state, color) ?? COLOR_NAME[color] };
    presence.title = interpolate(online ? gettext("%(name)s is online") : gettext("%(name)s is away"), name, true);
    const text = /** @type {HTMLElement} */ (presence.querySelector(".presence-text"));
    text.textContent = online ? gettext("(online)") : gettext("(away)");
  }

  /** "You must move within 0:23 or the game is aborted." while the side to move owes its
   * first move: G's `clock.first_move_ms` (as of when G arrived), counted down here; no
   * clock ticks meanwhile (G's `running` is null). */
  function drawFirstMove() {
    clearInterval(firstMoveTimer);
    const { game } = state;
    const box = byId("first-move");
    const left = game.status === "active" ? game.clock?.first_move_ms : null;
    box.hidden = left === null || left === undefined;
    if (left === null || left === undefined) return;
    const draw = () => {
      const ms = left - (performance.now() - state.receivedAt);
      box.textContent =
        yourTurn(state) || !game.to_move
          ? interpolate(gettext("You must move within %(time)s or the game is aborted."), { time: countdown(ms) }, true)
          : interpolate(
              gettext("%(side)s must move within %(time)s or the game is aborted."),
              { side: sideName(state, game.to_move), time: countdown(ms) },
              true,
            );
      box.classList.toggle("low", ms < 10_000);
    };
    draw();
    firstMoveTimer = setInterval(draw, 250);
  }

  /** How long until the opponent has been away long enough to claim; null while they are
   * here (or there is nothing to claim). */
  function claimWaitMs() {
    const { game } = state;
    if (!game.you || !["active", "scoring"].includes(game.status)) return null;
    const opponent = otherColor(game.you);
    const away = game.away_ms?.[opponent];
    if (game.online?.[opponent] || away === null || away === undefined) return null;
    return game.abandon_seconds * 1000 - away - (performance.now() - state.receivedAt);
  }

  function drawClaim() {
    clearInterval(claimTimer);
    const wait = claimWaitMs();
    byId("claim").hidden = wait === null;
    if (wait === null) return;
    const opponent = opponentName(state);
    const button = buttonById("claim-button");
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      byId("claim-text").textContent = interpolate(
        ngettext(
          "%(name)s has left. You may claim the win in %(seconds)s second.",
          "%(name)s has left. You may claim the win in %(seconds)s seconds.",
          seconds,
        ),
        { name: opponent, seconds },
        true,
      );
      button.disabled = true;
      claimTimer = setInterval(drawClaim, 1000);
    } else {
      byId("claim-text").textContent = interpolate(gettext("%(name)s has left the game."), { name: opponent }, true);
      button.disabled = false;
    }
  }

  function drawMoves() {
    moveList.extend(state.game.moves ?? []);
    moveList.select(state.game.ply);
    const list = byId("move-list");
    list.scrollTop = list.scrollHeight;
  }

  // What happened while the tab was in the background (a move, a chat message): counted
  // in the title, "(2) ● Your move · ...", until the tab is looked at again.
  function drawTitle() {
    const { game } = state;
    const mark = state.unseen ? `(${state.unseen}) ` : "";
    const title = interpolate(
      gettext("%(kind)s %(size)s×%(size)s: %(black)s vs %(white)s"),
      {
        kind: KIND_NAME[game.kind],
        size: game.size,
        black: playerName(state, "black") ?? "?",
        white: playerName(state, "white") ?? "?",
      },
      true,
    );
    document.title = `${mark}${titlePrefix(state)}${title} · ${gettext("Othello & Go")}`;
  }

  function noteUnseen() {
    if (!document.hidden) return;
    state.unseen += 1;
    drawTitle();
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden || !state.unseen) return;
    state.unseen = 0;
    drawTitle();
  });

  /** The status line, the seats and the move list (the clocks, the count and the
   * table's controls are their own parts'). */
  function drawStatus() {
    const { game } = state;
    page.dataset.status = game.status;
    page.dataset.you = game.you ?? "";
    page.dataset.toMove = game.to_move ?? "";
    page.dataset.ply = String(game.ply);
    page.classList.toggle("your-turn", yourTurn(state));
    drawPlayers();
    const status = byId("status");
    status.textContent = statusText(state);
    status.classList.toggle("result", game.status === "finished");
    const outcome = outcomeText(state);
    byId("outcome").textContent = outcome;
    byId("outcome").hidden = !outcome;
    const notice = noticeText(state);
    byId("notice").textContent = notice;
    byId("notice").hidden = !notice;
    drawMoves();
  }

  return { drawStatus, drawClaim, drawFirstMove, drawTitle, noteUnseen };
}
