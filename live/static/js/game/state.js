// The game page's one state: the G last received and what the page keeps beside it,
// owned by main.js and passed to each part of the page; and the questions every part
// asks of it. A change of it comes only from the server (socket.js) or a player's pick.

import { COLOR_NAME } from "../record.js";

/** @typedef {import("../types.js").G} G */
/** @typedef {import("../types.js").Move} Move */
/** @typedef {import("../types.js").Color} Color */
/** @typedef {import("../types.js").Point} Point */

/** @type {Color[]} */
export const COLORS = ["black", "white"];

/**
 * @typedef {object} PageState
 * @property {G} game the G last received, its `moves` kept by the page (a `moved` has none)
 * @property {number} receivedAt when `game` arrived (performance.now()): its clocks and away times are as of then
 * @property {string | null} computerName the computer's seat in the page's language (its stored name is data)
 * @property {string} viewer the logged-in viewer's username, "" for a guest
 * @property {Point | null} premove a point picked during the opponent's turn, sent when the turn comes
 * @property {boolean} withdrawn a change of the marking withdrew an acceptance; cleared by the next accept
 * @property {string} tableNote what just happened around the board (a take-back, a request declined); cleared by the next move
 * @property {number | null} declinedAt the ply at which a take-back was declined: asked again only after the next move
 * @property {boolean | null} arena whether G's tournament is an arena (null: not asked yet)
 * @property {boolean} berserked this page went berserk
 * @property {number} unseen what happened while the tab was in the background
 */

/**
 * @param {G} game the page's first G (the template's #game-state)
 * @param {{ computerName: string | null, viewer: string }} page
 * @returns {PageState}
 */
export function createState(game, { computerName, viewer }) {
  return {
    game,
    receivedAt: performance.now(),
    computerName,
    viewer,
    premove: null,
    withdrawn: false,
    tableNote: "",
    declinedAt: null,
    arena: null,
    berserked: false,
    unseen: 0,
  };
}

/**
 * Take a G from the server (with the move `move` that made it, for `moved`). Returns
 * null when it is older than the page's, else what changed: `fresh`, the move to
 * animate; `missed`, a move came that does not follow the page's list (ask for the
 * state again); `turned`, the ply or the status moved on.
 * @param {PageState} state
 * @param {G} next
 * @param {Move | null} move
 * @returns {{ fresh: Move | null, missed: boolean, turned: boolean } | null}
 */
export function receiveGame(state, next, move) {
  const { game } = state;
  if (move && next.ply < game.ply) return null;
  let moves = next.moves;
  let missed = false;
  if (!moves) {
    moves = game.moves ?? [];
    if (move && move.ply === moves.length + 1) moves = [...moves, move];
    else if (move && move.ply > moves.length + 1) missed = true;
  }
  const fresh = move && move.ply > game.ply ? move : null;
  const hadAccepted = COLORS.some((color) => game.accepted?.[color]);
  if (next.status !== "scoring" || COLORS.some((color) => next.accepted?.[color])) {
    state.withdrawn = false;
  } else if (game.status === "scoring" && next.marking !== game.marking && hadAccepted) {
    state.withdrawn = true;
  }
  const turned = next.ply !== game.ply || next.status !== game.status;
  state.game = { ...next, moves };
  state.receivedAt = performance.now();
  return { fresh, missed, turned };
}

/** @param {Color} color @returns {Color} */
export const otherColor = (color) => (color === "black" ? "white" : "black");

/** @param {Point | null} a @param {Point | null} b */
export const samePoint = (a, b) => Boolean(a && b) && a?.[0] === b?.[0] && a?.[1] === b?.[1];

/** @param {PageState} state */
export const yourTurn = ({ game }) => game.status === "active" && Boolean(game.you) && game.you === game.to_move;

/** @param {PageState} state */
export const byCorrespondence = ({ game }) => game.clock?.system === "correspondence";

/** Whether a pick now is a premove: the opponent's turn in a game without a correspondence clock.
 * @param {PageState} state */
export const premoving = (state) =>
  state.game.status === "active" &&
  Boolean(state.game.you) &&
  state.game.to_move !== state.game.you &&
  !byCorrespondence(state);

/** Go's count is shown (G's `score_detail`). @param {PageState} state */
export const counted = ({ game }) => game.kind === "go" && Boolean(game.score_detail);

/** @param {PageState} state @param {Color} color */
export const won = ({ game }, color) => game.result?.startsWith(color === "black" ? "B+" : "W+") ?? false;

/** The name of seat `color` as the page shows it (the computer's translated), null while free.
 * @param {PageState} state @param {Color | null} color @returns {string | null} */
export const playerName = ({ game, computerName }, color) =>
  (color && color === game.computer && computerName) || (color && game.players[color]) || null;

/** @param {PageState} state @param {Color} color */
export const seatName = (state, color) => playerName(state, color) ?? COLOR_NAME[color];

/** @param {PageState} state */
export const opponentName = (state) =>
  (state.game.you && playerName(state, otherColor(state.game.you))) ?? gettext("Your opponent");

/** "Bob (Black)", or "Black" while the seat has no name. @param {PageState} state @param {Color} color */
export const sideName = (state, color) =>
  playerName(state, color)
    ? interpolate(gettext("%(name)s (%(colour)s)"), { name: playerName(state, color), colour: COLOR_NAME[color] }, true)
    : COLOR_NAME[color];

/** The last move a player chose (an Othello pass is always the server's); given a
 * colour, the last that side chose.
 * @param {PageState} state @param {Color | null} [color] @returns {Move | null} */
export function lastChosenMove({ game }, color = null) {
  const moves = game.moves ?? [];
  for (let i = moves.length - 1; i >= 0; i--) {
    const move = moves[i];
    if (game.kind === "othello" && move.action === "pass") continue;
    if (color && move.color !== color) continue;
    return move;
  }
  return null;
}
