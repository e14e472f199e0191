// The board of the game page (drawn by ../board.js): what a pick does (play, mark,
// premove, refuse with a hint), tap to confirm, move confirmation and its settings.

import { createBoard, pointName } from "../board.js";
import { byId, inputById, selectById, svgById } from "../dom.js";
import { byCorrespondence, premoving, samePoint, seatName, yourTurn } from "./state.js";

/** @typedef {import("../types.js").Point} Point */
/** @typedef {import("../types.js").Move} Move */
/** @typedef {import("./state.js").PageState} PageState */
/** @typedef {import("./notices.js").Notices} Notices */
/** @typedef {import("./socket.js").Socket} Socket */
/** @typedef {ReturnType<typeof createBoardView>} BoardView */

// On a touch screen a first tap shows the stone and a second plays it: on by default
// where the points are closer than a fingertip can tell apart, as the player set it
// once they have (remembered in this browser).
const CONFIRM_KEY = "othello-go:confirm-taps";
const CONFIRM_BELOW_PX = 28;

// When the player's setting says so (an account's `confirm_moves`, a guest's choice kept
// in this browser; not chosen: correspondence games on a touch screen, never elsewhere),
// a pick places a stone that waits: Confirm plays it, Cancel (or Escape, or a right-click)
// takes it back.
const CONFIRM_MOVES_KEY = "othello-go:confirm-moves";
const CONFIRM_CHOICES = ["never", "correspondence", "always"];

/**
 * @param {PageState} state
 * @param {{ page: HTMLElement, notices: Notices, send: Socket["send"] }} parts
 */
export function createBoardView(state, { page, notices, send }) {
  const { showHint, showError } = notices;
  const touchScreen = navigator.maxTouchPoints > 0 || matchMedia("(any-pointer: coarse)").matches;
  const coarsePointer = matchMedia("(pointer: coarse)").matches;

  const board = createBoard(svgById("board"), {
    onPlay: (/** @type {Point} */ point) => {
      drawConfirm();
      send({ type: "play", ply: state.game.ply, point });
    },
    // The marking's number: a click on a marking that changed meanwhile is stale.
    onMark: (/** @type {Point} */ point) => send({ type: "mark", point, marking: state.game.marking }),
    onRefuse: (/** @type {Point} */ point, /** @type {boolean} */ occupied) => {
      drawConfirm();
      if (premoving(state)) choosePremove(point, occupied);
      else showHint(refusal(occupied));
    },
    onPending: (/** @type {Point} */ point) =>
      showHint(interpolate(gettext("Tap %(point)s again to play."), { point: named(point) }, true)),
    onHeld: drawConfirm,
    onDismiss: dismiss,
    confirmTaps,
    confirmMoves: confirmingMoves,
  });

  /** @param {Point} point */
  const named = (point) => pointName(state.game.kind, state.game.size, point);

  // --- tap to confirm ----------------------------------------------------------

  function confirmTaps(spacing = board.spacing()) {
    const chosen = localStorage.getItem(CONFIRM_KEY);
    if (chosen) return chosen === "on";
    return spacing < CONFIRM_BELOW_PX;
  }

  function drawConfirmSetting() {
    // Confirm's buttons, where they are on, already keep a slip of the finger from playing.
    byId("confirm-setting").hidden = !touchScreen || confirmingMoves();
    inputById("confirm-taps").checked = confirmTaps();
  }
  inputById("confirm-taps").addEventListener("change", (event) => {
    const box = /** @type {HTMLInputElement} */ (event.target);
    localStorage.setItem(CONFIRM_KEY, box.checked ? "on" : "off");
  });
  new ResizeObserver(drawConfirmSetting).observe(byId("board"));

  // --- move confirmation ---------------------------------------------------------

  /** The setting in force here: the account's (or this browser's) choice, else the device's. */
  function confirmMovesSetting() {
    const chosen = state.viewer ? page.dataset.confirmMoves : localStorage.getItem(CONFIRM_MOVES_KEY);
    if (chosen && CONFIRM_CHOICES.includes(chosen)) return chosen;
    return coarsePointer ? "correspondence" : "never";
  }

  function confirmingMoves() {
    const setting = confirmMovesSetting();
    return setting === "always" || (setting === "correspondence" && byCorrespondence(state));
  }

  /** Confirm and Cancel under the board while a stone waits for them. */
  function drawConfirm() {
    const held = board.held();
    const box = byId("move-confirm");
    const waiting = Boolean(held) && confirmingMoves();
    if (held && waiting) {
      byId("move-confirm-text").textContent = interpolate(gettext("Play %(point)s?"), { point: named(held) }, true);
    }
    if (box.hidden === !waiting) return;
    box.hidden = !waiting;
    if (!waiting && box.contains(document.activeElement)) byId("board").focus();
  }

  byId("move-confirm-yes").addEventListener("click", () => board.confirm());
  byId("move-confirm-no").addEventListener("click", () => {
    board.cancel();
    drawConfirm();
    byId("board").focus();
  });

  /** The setting's menu for a player, set to what is in force; a change is kept for the
   * account (POST /accounts/settings/) or in this browser. */
  function drawConfirmMovesMenu() {
    byId("confirm-moves-setting").hidden = !state.game.you;
    selectById("confirm-moves").value = confirmMovesSetting();
  }

  selectById("confirm-moves").addEventListener("change", async (event) => {
    const value = /** @type {HTMLSelectElement} */ (event.target).value;
    if (!state.viewer) localStorage.setItem(CONFIRM_MOVES_KEY, value);
    else if (!(await keepForAccount(value))) {
      drawConfirmMovesMenu();
      return;
    }
    page.dataset.confirmMoves = value;
    if (!confirmingMoves()) board.cancel();
    drawConfirm();
    drawConfirmSetting();
  });

  /** @param {string} value @returns {Promise<boolean>} */
  async function keepForAccount(value) {
    const csrf = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/)?.[1] ?? "";
    try {
      const answer = await fetch("/accounts/settings/", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRFToken": decodeURIComponent(csrf),
        },
        body: JSON.stringify({ confirm_moves: value }),
      });
      if (answer.ok) return true;
      showError((await answer.json().catch(() => ({}))).message ?? gettext("The setting could not be saved."));
    } catch {
      showError(gettext("The setting could not be saved."));
    }
    return false;
  }

  // --- premoves ------------------------------------------------------------------
  // In a game without a correspondence clock, a point picked during the opponent's turn is
  // kept and sent as soon as the turn comes, if it is then legal (G's `legal`: the server
  // judges); otherwise it is dropped. Picked again, Escape or a right-click: cancelled.

  /** @param {Point | null} point */
  function setPremove(point) {
    state.premove = point;
    board.premove(point);
  }

  /** @param {Point} point @param {boolean} occupied */
  function choosePremove(point, occupied) {
    if (samePoint(point, state.premove)) {
      setPremove(null);
      showHint(gettext("Premove cancelled."));
    } else if (occupied) {
      showHint(takenText());
    } else {
      setPremove(point);
      showHint(
        interpolate(
          gettext("Premove %(point)s: played when your turn comes, if it is legal then. Pick it again or press Escape to cancel."),
          { point: named(point) },
          true,
        ),
      );
    }
  }

  /** Once the turn comes: the premove played if legal, dropped otherwise; dropped too once
   * premoves no longer apply (the game over, or a page that no longer plays). */
  function playPremove() {
    const point = state.premove;
    if (!point) return;
    if (!premoving(state) && !yourTurn(state)) {
      setPremove(null);
      return;
    }
    if (!yourTurn(state)) return;
    setPremove(null);
    if ((state.game.legal ?? []).some((legal) => samePoint(legal, point))) {
      send({ type: "play", ply: state.game.ply, point });
    } else {
      showHint(interpolate(gettext("Premove %(point)s dropped: not a legal move now."), { point: named(point) }, true));
    }
  }

  /** Escape or a right-click: the premove, or the stone waiting for Confirm, put away. */
  function dismiss() {
    if (state.premove) {
      setPremove(null);
      showHint(gettext("Premove cancelled."));
      return true;
    }
    if (!board.held()) return false;
    board.cancel();
    drawConfirm();
    return true;
  }

  page.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && dismiss()) event.preventDefault();
  });

  const takenText = () =>
    state.game.kind === "go" ? gettext("That point is taken.") : gettext("That square is taken.");

  /** Why a pick on the board does nothing, in a few words. @param {boolean} occupied */
  function refusal(occupied) {
    const { game } = state;
    if (!game.you) return gettext("You are watching: only the players can play.");
    if (game.status === "waiting") return gettext("Waiting for an opponent to join.");
    if (game.status === "scoring") return gettext("Play has ended: click a stone to mark it dead or alive.");
    if (game.status !== "active") return gettext("This game is over.");
    if (game.to_move && game.to_move !== game.you) {
      return interpolate(gettext("It is %(name)s's move."), { name: seatName(state, game.to_move) }, true);
    }
    if (occupied) return takenText();
    if (game.kind === "othello") return gettext("No discs to flip from there: pick a marked square.");
    return gettext("Not a legal move there: it would capture itself or repeat the board (ko).");
  }

  /** Draw the board for the state's G, animating `fresh` (the move just played).
   * @param {Move | null} [fresh] */
  function render(fresh = null) {
    board.render(state.game, fresh);
  }

  return { render, drawConfirm, drawConfirmSetting, drawConfirmMovesMenu, playPremove };
}
