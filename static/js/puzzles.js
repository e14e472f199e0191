// The puzzles page (templates/puzzles/puzzles.html): the board of a puzzle, the answer
// posted to the server (which alone knows the solution), the solution shown on the board
// with its value, the streak, the next puzzle (docs/api/http.md, "Puzzles").

import { createBoard, pointName } from "./board.js";
import { formById, svgById } from "./dom.js";

const $ = (/** @type {string} */ id) => document.getElementById(id);
const kind = $("puzzles").dataset.kind;
const NAME = { black: pgettext("colour", "Black"), white: pgettext("colour", "White") };
const STREAK_KEY = `puzzle-streak-${kind}`;

let puzzle = JSON.parse($("puzzle-data").textContent);
let answered = false;
let streak = Number(sessionStorage.getItem(STREAK_KEY) ?? 0);

const board = createBoard(svgById("puzzle-board"), { onPlay: (point) => answer(point) });
const csrf = () =>
  /** @type {HTMLInputElement} */ (document.querySelector("#puzzle-form [name=csrfmiddlewaretoken]")).value;

function show() {
  $("puzzle-empty").hidden = Boolean(puzzle);
  $("puzzle-box").hidden = !puzzle;
  $("puzzle-streak").textContent = String(streak);
  if (!puzzle) return;
  answered = false;
  board.premove(null);
  board.render({
    kind: puzzle.kind,
    size: puzzle.size,
    status: "active",
    you: puzzle.to_play,
    to_move: puzzle.to_play,
    legal: puzzle.legal,
    ply: puzzle.id,
    board: puzzle.board,
    moves: [],
    last_move: null,
  });
  $("puzzle-turn").textContent = interpolate(gettext("%(name)s to play"), { name: NAME[puzzle.to_play] }, true);
  $("puzzle-rating").textContent = String(puzzle.rating);
  $("puzzle-plays").textContent = String(puzzle.plays);
  $("puzzle-result").hidden = true;
  $("puzzle-source").hidden = true;
  $("puzzle-next").hidden = true;
}

/** The value in words, from Black's side: "Black wins by 4", "a draw". */
function valueWords(value) {
  if (value === 0) return gettext("a draw");
  const winner = value > 0 ? NAME.black : NAME.white;
  return interpolate(gettext("%(name)s wins by %(discs)s"), { name: winner, discs: Math.abs(value) }, true);
}

async function answer(point) {
  if (answered || !puzzle) return;
  const response = await fetch(`/puzzles/${puzzle.id}/answer/`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() },
    body: JSON.stringify({ point }),
  });
  const told = await response.json().catch(() => ({}));
  const result = $("puzzle-result");
  result.hidden = false;
  if (!response.ok) {
    result.textContent = told.message ?? gettext("The server refused that move.");
    return;
  }
  answered = true;
  streak = told.correct ? streak + 1 : 0;
  sessionStorage.setItem(STREAK_KEY, String(streak));
  $("puzzle-streak").textContent = String(streak);
  board.render({
    kind: puzzle.kind,
    size: puzzle.size,
    status: "finished",
    you: puzzle.to_play,
    to_move: puzzle.to_play,
    legal: [],
    ply: puzzle.id,
    board: puzzle.board,
    moves: [],
    last_move: null,
  });
  board.premove(told.solution);
  const where = pointName(puzzle.kind, puzzle.size, told.solution);
  const verdict = told.correct ? gettext("Right!") : gettext("Not this one.");
  let words = `${verdict} ${interpolate(gettext("The only move was %(point)s."), { point: where }, true)}`;
  if (puzzle.kind === "othello" && told.value !== null) {
    words += ` ${interpolate(gettext("With perfect play: %(result)s (%(value)s from Black's side)."), { result: valueWords(told.value), value: told.value > 0 ? `+${told.value}` : String(told.value) }, true)}`;
  }
  if (puzzle.kind === "go" && told.value !== null) {
    // Go's value is KataGo's score lead after the solution (Black's side), an estimate.
    const ahead = told.value >= 0 ? NAME.black : NAME.white;
    words += ` ${interpolate(gettext("KataGo's estimate after it: %(name)s ahead by %(points)s points."), { name: ahead, points: Math.abs(told.value) }, true)}`;
  }
  result.textContent = words;
  result.dataset.correct = String(told.correct);
  $("puzzle-rating").textContent = String(told.rating.puzzle);
  if (told.rating.player !== null) $("player-rating").textContent = String(told.rating.player);
  if (told.game) {
    /** @type {HTMLAnchorElement} */ ($("puzzle-game")).href = `/games/${encodeURIComponent(told.game.id)}/replay/?ply=${told.game.ply}`;
    $("puzzle-source").hidden = false;
  }
  $("puzzle-next").hidden = false;
  $("puzzle-next").focus();
}

async function next() {
  const response = await fetch(`/puzzles/next.json?kind=${encodeURIComponent(kind)}`, {
    headers: { Accept: "application/json" },
  });
  puzzle = response.ok ? await response.json() : null;
  if (puzzle) formById("puzzle-form").action = `/puzzles/${puzzle.id}/answer/`;
  show();
}

$("puzzle-next").addEventListener("click", next);
show();
